// The core's port of dungeon_env/engine/traps.py (the Python module is the reference it is checked
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

namespace dungeon_core::traps {

// python constant: STREAM = 'traps'
// python constant: SECRET_STREAM = 'secret'
// traps.on_enter(g: Context, u: int, sq: int) -> None
// Any creature entering an armed trap springs it, detected or not (R-TRAP-09, A-38).
void on_enter(Game& g, int u, int sq);

// traps.spring(g: Context, i: int, u: int, keep_hazard: bool) -> None
// The trap's effect lands on ``u``; the trap is removed, or stays as a hazard if it blocks and
void spring(Game& g, int i, int u, bool keep_hazard);

// traps.detect_from(g: Context, h: int, limit: int) -> list[int]
// Hidden armed traps within path distance ``limit`` of hero ``h`` and in its sight (R-TRAP-02).
std::vector<int> detect_from(Game& g, int h, int limit);

// traps.detect_traps(g: Context) -> None
// End of the Explore phase: one secret d6 per living hero on the board; the total is the
void detect_traps(Game& g);

// traps.room_detect(g: Context, h: int, area: int) -> bool
// Room text calls for a Detect Traps roll: 4-6 succeeds and finds the area's armed traps
bool room_detect(Game& g, int h, int area);

// traps.disarm_actions(g: Context, h: int) -> list[int]
// DISARM_d towards each detected armed trap orthogonally next to the hero, if it may try: once
std::vector<int> disarm_actions(Game& g, int h);

// traps.legal_disarm(g: Context, unit: int, a: int, b: int) -> list[int]
std::vector<int> legal_disarm(Game& g, int unit, int a, int b);

// traps.do_disarm(g: Context, unit: int, a: int, b: int, action: int) -> None
// Disarm roll d6, no trait or Light modifiers (R-TRAP-04, R-LIGHT-04; a disarm_bonus ability
void do_disarm(Game& g, int unit, int a, int b, int action);

}  // namespace dungeon_core::traps
