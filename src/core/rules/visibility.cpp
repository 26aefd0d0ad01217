// What heroes can see (dungeon_env/engine/visibility.py): revealing rooms and corridors and
// waking Guards (R-MON-02).
#include "visibility.hpp"

#include <algorithm>

#include "encounters.hpp"
#include "units.hpp"

namespace dungeon_core::visibility {

namespace {

std::vector<int> place_guards(Game& g, int area) {
    State& s = g.state;
    const auto& guards = g.adventure().guards;
    std::vector<int> placed;
    for (size_t i = 0; i < guards.size(); ++i) {
        const int sq = Game::square(guards[i].at);
        if (s.guard_uid[i] >= 0 || g.tables().area[sq] != area || s.occupant[sq] >= 0) continue;
        const int u = units::place_monster(g, guards[i].monster, sq, HOW_GUARD);
        if (u >= 0) {
            s.guard_uid[i] = s.unit_uid[u];
            s.inactive[u] = true;
            placed.push_back(u);
        }
    }
    return placed;
}

}  // namespace

// Line of sight between two squares given the doors that are closed now.
bool sees(Game& g, int a, int b) {
    const Tables& t = g.tables();
    return !t.los_static[a * N_SQUARES + b] && (t.los_doors[a * N_SQUARES + b] & g.state.closed_bits) == 0;
}

// Areas with at least one square in sight of `sq`, in index order (Python memoises them per door
// configuration; the core computes them).
std::vector<int> visible_areas(Game& g, int sq) {
    const Tables& t = g.tables();
    std::vector<uint8_t> seen(t.n_areas(), 0);
    for (int b = 0; b < t.n_squares(); ++b) {
        if (t.area[b] >= 0 && sees(g, sq, b)) seen[t.area[b]] = 1;
    }
    std::vector<int> out;
    for (int a = 0; a < t.n_areas(); ++a) {
        if (seen[a]) out.push_back(a);
    }
    return out;
}

// Reveal every area the given heroes can see; place the Guards of newly revealed areas and start the
// encounter. `alert` marks monsters revealed by a door flagged by a 1-2 Open Doors roll, which cannot
// be surprised (R-SURP-13).
void look(Game& g, const std::vector<int>& heroes, bool alert) {
    State& s = g.state;
    // the areas not revealed yet that a hero sees a square of (visible_areas restricted to them:
    // most areas are revealed early, and one square in sight is enough)
    const Tables& t = g.tables();
    // the areas some hero could see past the walls: the others are out of sight whatever the doors
    std::vector<uint8_t> candidate(t.n_areas(), 0);
    for (int h : heroes) {
        const int sq = s.unit_pos[h];
        if (sq < 0 || sq >= N_SQUARES) {
            std::fill(candidate.begin(), candidate.end(), 1);  // no memo off the board: look at every area
            break;
        }
        for (int a : g.tables().areas_past_walls[sq]) candidate[a] = 1;
    }
    std::vector<int> new_areas;
    for (int a = 0; a < t.n_areas(); ++a) {
        if (s.revealed[a] || !candidate[a]) continue;
        bool seen = false;
        for (int h : heroes) {
            for (int b : t.area_squares[a]) {
                if (sees(g, s.unit_pos[h], b)) {
                    seen = true;
                    break;
                }
            }
            if (seen) break;
        }
        if (seen) {
            s.revealed[a] = true;
            new_areas.push_back(a);
        }
    }
    std::vector<int> group;
    for (int a : new_areas) {
        g.log(Value::obj({{"type", "reveal"}, {"area", g.tables().area_names[a]}, {"turn", s.turn}}));
        const std::vector<int> placed = place_guards(g, a);
        group.insert(group.end(), placed.begin(), placed.end());
    }
    if (!group.empty()) encounters::encounter(g, group, HOW_GUARD, alert);
    wake_guards(g, heroes);
}

// A Guard acts from the moment any hero has line of sight to it (R-MON-02).
void wake_guards(Game& g, const std::optional<std::vector<int>>& heroes) {
    State& s = g.state;
    std::vector<int> sleeping;
    for (int u = 0; u < MAX_UNITS; ++u) {
        if (s.inactive[u] && s.unit_status[u] == ACTIVE) sleeping.push_back(u);
    }
    if (sleeping.empty()) return;
    const std::vector<int> watchers = heroes ? *heroes : units::active_heroes(g);
    for (int u : sleeping) {
        for (int h : watchers) {
            if (sees(g, s.unit_pos[h], s.unit_pos[u])) {
                s.inactive[u] = false;
                g.log(Value::obj({{"type", "guard_alert"}, {"unit", g.label(u)}, {"turn", s.turn}}));
                break;
            }
        }
    }
}

}  // namespace dungeon_core::visibility
