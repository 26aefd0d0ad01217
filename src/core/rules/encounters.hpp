// The core's port of dungeon_env/engine/encounters.py (the Python module is the reference it is checked
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

namespace dungeon_core::encounters {

// encounters.encounter(g: Context, group: list[int], how: How, unsurprisable: bool=False) -> None
// Newly placed monsters meet the heroes.
void encounter(Game& g, const std::vector<int>& group, int how, bool unsurprisable = false);

// encounters.surprise_lasts_until(g: Context) -> int
// The last turn of a Surprise rolled now: this one, or the next when it is rolled after this
int surprise_lasts_until(Game& g);

// encounters.patrols_relevant(g: Context) -> bool
// No more Patrol rolls once every room that counts has been revealed: not secret, with an
bool patrols_relevant(Game& g);

// encounters.patrol_monsters_on_board(g: Context) -> int
// The Patrol monsters still fighting (for ``rules.patrol_board_max``).
int patrol_monsters_on_board(Game& g);

// encounters.patrols_paused(g: Context) -> bool
// The variant key ``rules.patrol_board_max`` (0 by the rules: never): no Patrol rolls while at
bool patrols_paused(Game& g);

// encounters.roll_patrols(g: Context) -> None
// Turn Start: one d6 per corridor that held a hero at the previous Turn End; a 1 brings a
void roll_patrols(Game& g);

// encounters.spawn_patrol(g: Context, area: int) -> list[int]
std::vector<int> spawn_patrol(Game& g, int area);

// encounters.trigger_ambushes(g: Context, h: int) -> None
// The first time a hero enters an area with an ambush, its Ambushers spawn (R-MON-09).
void trigger_ambushes(Game& g, int h);

}  // namespace dungeon_core::encounters
