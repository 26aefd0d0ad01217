// The core's port of dungeon_env/engine/board.py (the Python module is the reference it is checked
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

namespace dungeon_core::board {

// board.open_side(g: Context, sq: int, d: int) -> int
// The square one step from ``sq`` in direction ``d`` if no wall or closed door is between
int open_side(Game& g, int sq, int d);

// board.open_neighbours(g: Context, sq: int) -> list[int]
// The squares next to ``sq`` with no wall or closed door between (``open_side`` all round).
std::vector<int> open_neighbours(Game& g, int sq);

// board.next_to(g: Context, a: int, b: int) -> bool
// Squares ``a`` and ``b`` are orthogonally adjacent with no wall or closed door between them.
bool next_to(Game& g, int a, int b);

// board.free(g: Context, sq: int) -> bool
// Nothing stands on the square: no figure, corpse, furniture, blockage or trap hazard (R-TURN-09).
bool free(Game& g, int sq);

// board.is_corpse(g: Context, sq: int) -> bool
// A hero's corpse lies on ``sq``.
bool is_corpse(Game& g, int sq);

// board.heroes_beside(g: Context, h: int) -> list[int]
// The hero and the heroes orthogonally next to it with no wall or closed door between, in
std::vector<int> heroes_beside(Game& g, int h);

// board.trap_squares(g: Context) -> list[int]
// For each square the index of the adventure's trap on it, or -1 (built once per adventure).
std::vector<int> trap_squares(Game& g);

// board.trap_at(g: Context, sq: int) -> int
// The index of the adventure's trap on ``sq``, or -1.
int trap_at(Game& g, int sq);

// board.traps_in_area(g: Context, area: int) -> list[int]
std::vector<int> traps_in_area(Game& g, int area);

// board.is_hazard(g: Context, i: int) -> bool
// A sprung blocking trap: it stays on the board and blocks movement.
bool is_hazard(Game& g, int i);

// board.blocks(g: Context, sq: int) -> bool
// A hazard on ``sq`` stops movement like an obstacle (it never blocks line of sight).
bool blocks(Game& g, int sq);

// board.is_jumpable(g: Context, sq: int) -> bool
// A detected armed trap or a hazard, with nobody on it, can be jumped (R-JUMP-02).
bool is_jumpable(Game& g, int sq);

}  // namespace dungeon_core::board
