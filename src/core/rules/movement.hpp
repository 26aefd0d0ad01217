// The core's port of dungeon_env/engine/movement.py (the Python module is the reference it is checked
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

namespace dungeon_core::movement {

// python constant: MOVE_IDS = (MOVE_N, EXTRA_MOVE, END, DEFER, JUMP_N, DRAG_N)
// movement.can_buy_move(g: Context, u: int) -> bool
bool can_buy_move(Game& g, int u);

// movement.legal_hero_move(g: Context, h: int) -> list[int]
// A step or an Open Doors attempt, a Jump and a Drag in each direction, a bought square, END
std::vector<int> legal_hero_move(Game& g, int h);

// movement.legal_hero_move_reference(g: Context, h: int) -> list[int]
// The Python reference of :func:`legal_hero_move` (tests/test_core_pursuit.py).
std::vector<int> legal_hero_move_reference(Game& g, int h);

// movement.do_hero_move(g: Context, h: int, action: int) -> None
// A step (or an Open Doors attempt), Jump, Drag, bought square or END of the hero's Movement.
void do_hero_move(Game& g, int h, int action);

// movement.end_movement(g: Context, h: int) -> None
// The hero's Movement is over; a drag ends with it, so the corpse stays where it is and is
void end_movement(Game& g, int h);

// movement.step(g: Context, u: int, to: int) -> None
// Move a figure one square (a dragged corpse follows into the square it left), then apply what
void step(Game& g, int u, int to);

// movement.leave_dungeon(g: Context, h: int) -> None
// A hero entering an exit square leaves the board for good (ruling A-49); a corpse it drags
void leave_dungeon(Game& g, int h);

// movement.can_pay_evade(g: Context, h: int) -> bool
// The hero can pay for an Evade step: 2 Stamina (``rules.evade_cost``) and not Exhausted.
bool can_pay_evade(Game& g, int h);

// movement.legal_evade(g: Context, h: int) -> list[int]
std::vector<int> legal_evade(Game& g, int h);

// movement.do_evade(g: Context, h: int, action: int) -> None
// An Evade step (a spell being cast fails, R-CTS-05) or END of the hero's Evasion.
void do_evade(Game& g, int h, int action);

// movement.legal_monster_move(g: Context, m: int) -> list[int]
// Steps, Stamina for movement, END and DEFER, as far as the duty to attack allows
std::vector<int> legal_monster_move(Game& g, int m);

// movement.legal_monster_move_reference(g: Context, m: int) -> list[int]
// The Python reference of :func:`legal_monster_move` (tests/test_core_pursuit.py).
std::vector<int> legal_monster_move_reference(Game& g, int m);

// movement.do_monster_move(g: Context, m: int, action: int) -> None
void do_monster_move(Game& g, int m, int action);

}  // namespace dungeon_core::movement
