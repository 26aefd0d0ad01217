// The line of sight between every pair of squares (engine/tables.py's sight_lines, the reference):
// centre-to-centre lines over the edge grids, blocked by a wall edge, and the bits of the door edges
// they cross; where a line passes exactly through a grid corner it is blocked only if the walls meeting
// there separate the square it leaves from the square it enters.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dungeon_core {

struct SightLines {
    std::vector<uint8_t> blocked;  // [a * N + b]: a wall edge (or a corner's walls) cuts the line
    std::vector<uint64_t> doors;   // [a * N + b]: the door bits of the edges (or corners) it crosses
};

// `v` [HEIGHT][WIDTH + 1] and `h` [HEIGHT + 1][WIDTH]: OPEN (0), WALL (1) or DOOR (2) codes of the
// vertical and horizontal grid-line edges; `vbit`, `hbit`: their door bits. Symmetric: a line is the
// same both ways.
SightLines sight_lines(const int8_t* v, const int8_t* h, const uint64_t* vbit, const uint64_t* hbit);

// A heroes' view's line of sight (sideview._los_rows, whole): from the adventure's table with every door
// and blockage given a bit of its own (`blocked`, `bits`: sight_lines of those grids), a line is blocked
// by the walls, or by an edge whose bit is in `hide` (the doors heroes do not know, the blockages they
// do); its door bits are the known doors' view bits (`view_bit[i]`: door i's bit in the view, -1 unknown).
SightLines view_sight(const uint8_t* blocked, const uint64_t* bits, size_t n, uint64_t hide,
                      const std::vector<int>& view_bit);

}  // namespace dungeon_core
