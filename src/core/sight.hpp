// The line of sight between every pair of squares (engine/tables.py's sight_lines, the reference):
// centre-to-centre lines over the edge grids, blocked by a wall edge, and the bits of the door edges
// they cross; where a line passes exactly through a grid corner it is blocked only if the walls meeting
// there separate the square it leaves from the square it enters.
#pragma once

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

}  // namespace dungeon_core
