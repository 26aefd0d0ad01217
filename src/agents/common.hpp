// What the scripted agents' compiled choices share (agents/_common.py's helpers they both read).
#pragma once

namespace dungeon_agents {

// _common.p_win: P(2d6 + diff > 2d6), the chance that the side `diff` points better wins a Fight
// outright.
inline double p_win(int diff) {
    int sums[13] = {0};
    for (int a = 1; a <= 6; ++a) {
        for (int b = 1; b <= 6; ++b) ++sums[a + b];
    }
    int wins = 0;
    for (int x = 2; x <= 12; ++x) {
        for (int y = 2; y <= 12; ++y) {
            if (x + diff > y) wins += sums[x] * sums[y];
        }
    }
    return wins / 1296.0;
}

}  // namespace dungeon_agents
