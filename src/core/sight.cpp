// The line of sight between every pair of squares (see sight.hpp): engine/tables.py's
// _trace_sight_lines, _cross_vertical, _corner and _cross_horizontal, pair by pair.
#include "sight.hpp"

#include "state.hpp"

namespace dungeon_core {

namespace {

constexpr int8_t OPEN = 0, WALL = 1, DOOR = 2;

int64_t floor_div(int64_t a, int64_t b) {
    const int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t floor_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

}  // namespace

SightLines sight_lines(const int8_t* v, const int8_t* h, const uint64_t* vbit, const uint64_t* hbit) {
    constexpr int N = WIDTH * HEIGHT, VW = WIDTH + 1, HW = WIDTH;
    SightLines out{std::vector<uint8_t>(static_cast<size_t>(N) * N, 0),
                   std::vector<uint64_t>(static_cast<size_t>(N) * N, 0)};
    for (int a = 0; a < N; ++a) {
        const int ax = a % WIDTH, ay = a / WIDTH;
        for (int b = a + 1; b < N; ++b) {
            const int bx = b % WIDTH, by = b / WIDTH;
            bool blocked = false;
            uint64_t doors = 0;
            {  // the vertical grid lines crossed (and the corners)
                const bool swap = ax > bx;
                const int64_t x0 = swap ? bx : ax, y0 = swap ? by : ay, x1 = swap ? ax : bx, y1 = swap ? ay : by;
                const int64_t dx = x1 - x0, dy = y1 - y0;
                for (int64_t k = x0 + 1; k <= x1; ++k) {
                    const int64_t num = (2 * y0 + 1) * dx + (2 * k - 2 * x0 - 1) * dy, den = 2 * dx;
                    const int64_t row = floor_div(num, den);
                    if (floor_mod(num, den) != 0) {
                        const int8_t code = v[row * VW + k];
                        if (code == WALL) blocked = true;
                        else if (code == DOOR) doors |= vbit[row * VW + k];
                        continue;
                    }
                    const int64_t r = row;
                    const bool down = dy > 0;
                    const int8_t up_c = v[(r - 1) * VW + k], down_c = v[r * VW + k];
                    const int8_t left_c = h[r * HW + k - 1], right_c = h[r * HW + k];
                    const auto blocks = [down](bool up, bool dn, bool lf, bool rt) {
                        const bool straight = (up && dn) || (lf && rt);
                        return straight || (down ? ((up && lf) || (dn && rt)) : ((dn && lf) || (up && rt)));
                    };
                    const bool as_open = blocks(up_c == WALL, down_c == WALL, left_c == WALL, right_c == WALL);
                    const bool as_closed = blocks(up_c != OPEN, down_c != OPEN, left_c != OPEN, right_c != OPEN);
                    if (as_open) blocked = true;
                    if (as_closed && !as_open) {
                        doors |= vbit[(r - 1) * VW + k] | vbit[r * VW + k] | hbit[r * HW + k - 1] | hbit[r * HW + k];
                    }
                }
            }
            {  // the horizontal grid lines crossed (the corners were handled with the vertical ones)
                const bool swap = ay > by;
                const int64_t x0 = swap ? bx : ax, y0 = swap ? by : ay, x1 = swap ? ax : bx, y1 = swap ? ay : by;
                const int64_t dy = y1 - y0, dx = x1 - x0;
                for (int64_t j = y0 + 1; j <= y1; ++j) {
                    const int64_t num = (2 * x0 + 1) * dy + (2 * j - 2 * y0 - 1) * dx, den = 2 * dy;
                    if (floor_mod(num, den) == 0) continue;
                    const int64_t col = floor_div(num, den);
                    const int8_t code = h[j * HW + col];
                    if (code == WALL) blocked = true;
                    else if (code == DOOR) doors |= hbit[j * HW + col];
                }
            }
            out.blocked[static_cast<size_t>(a) * N + b] = out.blocked[static_cast<size_t>(b) * N + a] = blocked;
            out.doors[static_cast<size_t>(a) * N + b] = out.doors[static_cast<size_t>(b) * N + a] = doors;
        }
    }
    return out;
}

SightLines view_sight(const uint8_t* blocked, const uint64_t* bits, size_t n, uint64_t hide,
                      const std::vector<int>& view_bit) {
    SightLines out{std::vector<uint8_t>(n), std::vector<uint64_t>(n)};
    uint64_t mapped = 0;  // the real door bits that have a view bit
    for (size_t i = 0; i < view_bit.size() && i < 64; ++i) {
        if (view_bit[i] >= 0) mapped |= uint64_t{1} << i;
    }
    for (size_t i = 0; i < n; ++i) {
        const uint64_t b = bits[i];
        out.blocked[i] = blocked[i] || (b & hide) != 0;
        uint64_t doors = 0;
        for (uint64_t rest = b & mapped; rest; rest &= rest - 1) {
            doors |= uint64_t{1} << view_bit[__builtin_ctzll(rest)];
        }
        out.doors[i] = doors;
    }
    return out;
}

}  // namespace dungeon_core
