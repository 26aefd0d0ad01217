// The core's port of dungeon_env/engine/inventory.py (the Python module is the reference it is checked
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

namespace dungeon_core::inventory {

// item_holder of an item lying unclaimed, and of a used-up or lost card
constexpr int NOBODY = -1, DESTROYED = -2;

// inventory.uniform(g: Context, n: int) -> int
// A uniform integer in ``0..n-1`` from d6 rolls only (R-BOARD-03): base-6 digits, redrawn when
int uniform(Game& g, int n);

// inventory.setup_items(g: Context, carried: list[list[tuple[str, bool]]] | None) -> None
// Build and shuffle the five decks, then hand the heroes the items they carry in.
void setup_items(Game& g, const std::optional<std::vector<std::vector<std::pair<std::string, bool>>>>& carried);

// inventory.create(g: Context, card_id: str) -> int
// A new item slot holding a copy of the card (face down for potions, scrolls and magic items,
int create(Game& g, const std::string& card_id);

// inventory.draw(g: Context, deck: str) -> int
// The top card of ``deck`` as a new item slot held by nobody; -1 if the deck is empty (decks are
int draw(Game& g, const std::string& deck);

// inventory.held(g: Context, u: int) -> list[int]
std::vector<int> held(Game& g, int u);

// inventory.can_hold(g: Context, u: int) -> bool
// Room for one more item: at most 12 (``rules.max_items``, ruling D-M17).
bool can_hold(Game& g, int u);

// inventory.give(g: Context, item: int, unit: int) -> bool
// ``unit`` now holds the item; False (nothing changes) if it already holds the most it can.
bool give(Game& g, int item, int unit);

// inventory.destroy(g: Context, item: int) -> None
void destroy(Game& g, int item);

// inventory.card_of(g: Context, item: int) -> ItemCard
const ItemCard& card_of(Game& g, int item);

// inventory.reveal(g: Context, item: int, how: str) -> None
// The item turns face up (identified).
void reveal(Game& g, int item, const std::string& how);

// inventory.end_adventure(g: Context) -> None
// Every item still unidentified is identified at the adventure's end (R-IDENT-04, R-END-04).
void end_adventure(Game& g);

}  // namespace dungeon_core::inventory
