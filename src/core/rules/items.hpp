// The core's port of dungeon_env/engine/items.py (the Python module is the reference it is checked
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

namespace dungeon_core::items {

// python constant: ITEM_MOMENTS = (IN_MOVEMENT, IN_EVASION, IN_EXPLORE, IN_TRADE)
// ITEM_VERB's ``b`` is the index of its moment here
constexpr const char* ITEM_MOMENTS[4] = {IN_MOVEMENT, IN_EVASION, IN_EXPLORE, IN_TRADE};
// items.can_use(g: Context, h: int, item: int, when: str) -> bool
// USE is legal for this item now (timing A-58; R-IDENT-05/06; scrolls follow their spell).
bool can_use(Game& g, int h, int item, const std::string& when);

// items.can_identify(g: Context, h: int, item: int) -> bool
// A Learned hero, once per Explore phase, an unidentified item not locked by a 1 (R-IDENT-02).
bool can_identify(Game& g, int h, int item);

// items.item_verbs(g: Context, h: int, item: int, when: str) -> list[int]
std::vector<int> item_verbs(Game& g, int h, int item, const std::string& when);

// items.item_actions(g: Context, h: int, when: str) -> list[int]
// ITEM_k for each item the hero holds that some verb applies to now (k = its place in
std::vector<int> item_actions(Game& g, int h, const std::string& when);

// items.decline(g: Context, h: int, item: int) -> None
// BACK: the hero changes its mind about the picked item; nothing happens, and the item is not
void decline(Game& g, int h, int item);

// items.pick_item(g: Context, h: int, k: int, when: str) -> None
// The hero picked its k-th item (ITEM_k): ask what to do with it.
void pick_item(Game& g, int h, int k, const std::string& when);

// items.legal_item_verb(g: Context, unit: int, a: int, b: int) -> list[int]
// The verbs that apply to the picked item now, and always BACK (picking never commits the hero
std::vector<int> legal_item_verb(Game& g, int unit, int a, int b);

// items.do_item_verb(g: Context, unit: int, a: int, b: int, action: int) -> None
void do_item_verb(Game& g, int unit, int a, int b, int action);

// items.identify(g: Context, h: int, item: int) -> None
// Identify roll (R-IDENT-03): 1 never (locked until the adventure ends, A-43), 2-3 not yet,
void identify(Game& g, int h, int item);

// items.use_item(g: Context, h: int, item: int, when: str) -> None
// Use an item (A-58; breaks Rest). An unidentified potion or scroll is revealed and its true
void use_item(Game& g, int h, int item, const std::string& when);

// items.item_targets(g: Context, h: int) -> list[int]
// Who an ally item held by ``h`` may be used on: the holder and the heroes next to it.
std::vector<int> item_targets(Game& g, int h);

// items.finish_use(g: Context, h: int, item: int, target: int) -> None
void finish_use(Game& g, int h, int item, int target);

}  // namespace dungeon_core::items
