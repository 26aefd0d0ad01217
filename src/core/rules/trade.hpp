// The core's port of dungeon_env/engine/trade.py (the Python module is the reference it is checked
// against). One C++ function per public Python function, same name and arguments.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "../game.hpp"

namespace dungeon_core::trade {

// trade.begin_trade(g: Context) -> None
// Step 4, outside combat only (R-TURN-13, R-TRADE-03).
void begin_trade(Game& g);

// trade.resume_trade(g: Context) -> None
void resume_trade(Game& g);

// trade.receivers(g: Context, h: int) -> list[int]
// Heroes that may receive from ``h``: on the board in its room or corridor, or side by side
std::vector<int> receivers(Game& g, int h);

// trade.corpse_items(g: Context, h: int) -> list[tuple[int, int]]
// ``(corpse, item)`` pairs a hero may loot: items on hero corpses in its room or corridor, or
std::vector<std::pair<int, int>> corpse_items(Game& g, int h);

// trade.legal_trade_act(g: Context, unit: int, a: int, b: int) -> list[int]
// END, and LOOT if a corpse near the hero holds an item it may take.
std::vector<int> legal_trade_act(Game& g, int unit, int a, int b);

// trade.giving_items(g: Context, unit: int, a: int, b: int) -> list[int]
// ITEM_k for the items the hero may give now: it gave nothing yet and a hero may receive.
std::vector<int> giving_items(Game& g, int unit, int a, int b);

// trade.do_trade_act(g: Context, unit: int, a: int, b: int, action: int) -> None
void do_trade_act(Game& g, int unit, int a, int b, int action);

// trade.give_to(g: Context, unit: int, item: int, to: int) -> None
// GIVE: the item goes to the chosen receiver (R-TRADE-01/02).
void give_to(Game& g, int unit, int item, int to);

// trade.loot(g: Context, unit: int, found: tuple[int, int]) -> None
// LOOT: the chosen ``(corpse, item)``'s item goes to the looter, which counts as its receive
void loot(Game& g, int unit, std::pair<int, int> found);

}  // namespace dungeon_core::trade
