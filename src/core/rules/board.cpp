// The board as it stands now (dungeon_env/engine/board.py): the look-ups every mechanic shares.
// Static geometry is in the tables (the core board's sides: walls already cut); this adds what depends
// on the state: open doors, figures, traps.
#include "board.hpp"

namespace dungeon_core::board {

int open_side(Game& g, int sq, int d) {
    const Tables& t = g.tables();
    const int nxt = t.side_to(sq, d), door = t.side_door(sq, d);
    if (door >= 0 && !g.state.door_open[door]) return -1;
    return nxt;
}

std::vector<int> open_neighbours(Game& g, int sq) {
    const Tables& t = g.tables();
    std::vector<int> out;
    for (int d = 0; d < 4; ++d) {
        const int q = t.side_to(sq, d), door = t.side_door(sq, d);
        if (q >= 0 && (door < 0 || g.state.door_open[door])) out.push_back(q);
    }
    return out;
}

bool next_to(Game& g, int a, int b) {
    const Tables& t = g.tables();
    for (int d = 0; d < 4; ++d) {
        const int door = t.side_door(a, d);
        if (t.side_to(a, d) == b && (door < 0 || g.state.door_open[door])) return true;
    }
    return false;
}

// R-TURN-09: no figure, corpse, furniture, blockage or trap hazard.
bool free(Game& g, int sq) {
    const Tables& t = g.tables();
    if (g.state.occupant[sq] >= 0 || t.furniture[sq] || t.blockage[sq]) return false;
    const int i = trap_at(g, sq);
    return i < 0 || !is_hazard(g, i);
}

bool is_corpse(Game& g, int sq) {
    const int u = g.state.occupant[sq];
    return u >= 0 && g.state.unit_status[u] == CORPSE;
}

// Ruling D-M14: who an ally item or an ability may reach, in slot order.
std::vector<int> heroes_beside(Game& g, int h) {
    const State& s = g.state;
    const int here = s.unit_pos[h];
    std::vector<int> near = open_neighbours(g, here);
    near.push_back(here);
    std::vector<int> out;
    for (int u = 0; u < s.n_heroes; ++u) {
        if (s.unit_status[u] != ACTIVE) continue;
        for (int q : near) {
            if (s.unit_pos[u] == q) {
                out.push_back(u);
                break;
            }
        }
    }
    return out;
}

// ----------------------------------------------------------------------------------------- traps

// The core board builds this once per adventure (Board::finish), a later trap winning a square as in
// Python.
std::vector<int> trap_squares(Game& g) {
    const std::vector<int32_t>& found = g.tables().board.trap_at;
    return std::vector<int>(found.begin(), found.end());
}

int trap_at(Game& g, int sq) { return g.tables().board.trap_at[sq]; }

std::vector<int> traps_in_area(Game& g, int area) {
    const Tables& t = g.tables();
    const auto& traps = g.adventure().traps;
    std::vector<int> out;
    for (size_t i = 0; i < traps.size(); ++i) {
        if (t.area[Game::square(traps[i].at)] == area) out.push_back(static_cast<int>(i));
    }
    return out;
}

bool is_hazard(Game& g, int i) { return !g.state.trap_armed[i] && g.state.trap_detected[i]; }

bool blocks(Game& g, int sq) {
    const int i = trap_at(g, sq);
    return i >= 0 && is_hazard(g, i);
}

// R-JUMP-02
bool is_jumpable(Game& g, int sq) {
    const int i = trap_at(g, sq);
    return i >= 0 && g.state.trap_detected[i] && g.state.occupant[sq] < 0;
}

}  // namespace dungeon_core::board
