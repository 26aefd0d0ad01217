// Monsters appearing (dungeon_env/engine/encounters.py): Surprise (SURP), Patrols (MON-04..08) and
// Ambushers (MON-09).
#include "encounters.hpp"

#include <algorithm>

#include "board.hpp"
#include "casting.hpp"
#include "units.hpp"

namespace dungeon_core::encounters {

namespace {

// tables.path_distances: orthogonal path distance from the nearest source square, through open
// passages only, with occupants ignored (ruling A-39); unreachable squares get UNREACHABLE.
std::vector<int32_t> path_distances(Game& g, const std::vector<int32_t>& sources) {
    const bool* door_open = reinterpret_cast<const bool*>(g.state.door_open.data());
    return distance_field(g.tables().board, door_open, nullptr, sources, UNREACHABLE, -1);
}

// Surprised on a total of 1-2 (rules.surprise_max); facing Ambushers, unless 6
// (rules.ambush_ready_min). Perceptive +1, Light 0 -1 (light.dark_penalty).
bool surprise_roll(Game& g, int h, bool ambush) {
    State& s = g.state;
    const Rules& r = g.rules();
    Mods modifiers;
    if (units::has_trait(g, h, "perceptive")) modifiers.emplace_back("perceptive", 1);
    if (s.light == 0 && r.light_dark_penalty) modifiers.emplace_back("light", -r.light_dark_penalty);
    bool is_surprised;
    if (ambush) {
        const int ready = r.ambush_ready_min;
        const int total = g.check("ambush_surprise", units::label(g, h), SURPRISE, modifiers,
                                  [ready](int t) { return t < ready ? "surprised" : "ready"; });
        is_surprised = total < ready;
    } else {
        const int top = r.surprise_max;
        const int total = g.check("surprise", units::label(g, h), SURPRISE, modifiers,
                                  [top](int t) { return t <= top ? "surprised" : "ready"; });
        is_surprised = total <= top;
    }
    if (is_surprised) {
        s.surprised[h] = true;
        s.surprise_until[h] = std::max(int(s.surprise_until[h]), surprise_lasts_until(g));
        if (s.phase == Phase::HERO_MOVEMENT || s.phase == Phase::EVASION) {
            s.move_done[h] = true;  // forgoes the rest of its Movement or Evasion (R-SURP-05/06)
            s.move_left[h] = 0;
        }
        if (casting::is_casting(g, h)) casting::fail_spell(g, h, "surprised");  // R-SURP-06
    }
    return is_surprised;
}

// Free squares of `area` in order of walking distance from `start` (ties: reading order).
std::vector<int> nearest_free_in_area(Game& g, int start, int area, int count) {
    const std::vector<int32_t> dist = path_distances(g, {start});
    std::vector<int> candidates;
    for (int q : g.tables().area_squares[area]) {
        if (board::free(g, q) && dist[q] < UNREACHABLE) candidates.push_back(q);
    }
    std::sort(candidates.begin(), candidates.end(),
              [&dist](int a, int b) { return dist[a] != dist[b] ? dist[a] < dist[b] : a < b; });
    if (static_cast<int>(candidates.size()) > count) candidates.resize(count);
    return candidates;
}

}  // namespace

// Surprise is rolled only when this starts the combat sequence, except that Ambushers always make
// every hero roll (ruling A-26). If no hero is surprised, the group is, unless it was revealed
// by an alerted door (R-SURP-13) or is an Ambusher group (R-SURP-12); surprised monsters skip the
// first Monsters' Movement that follows.
void encounter(Game& g, const std::vector<int>& group, int how, bool unsurprisable) {
    State& s = g.state;
    const bool starting = !g.monsters_besides(group);
    if (starting) g.log(Value::obj({{"type", "combat_start"}, {"turn", s.turn}}));
    if (how == HOW_AMBUSH) {
        for (int h : units::active_heroes(g)) surprise_roll(g, h, true);
        return;
    }
    if (!starting) return;
    bool surprised_any = false;
    for (int h : units::active_heroes(g)) surprised_any |= surprise_roll(g, h, false);
    if (!surprised_any && !unsurprisable) {
        std::vector<std::string> labels;
        for (int u : group) {
            s.skip_move[u] = true;
            labels.push_back(units::label(g, u));
        }
        g.log(Value::obj({{"type", "monsters_surprised"}, {"units", Value(labels)}, {"turn", s.turn}}));
    }
}

// This turn, or the next when it is rolled after this turn's Movement and combat sub-steps (an ambush
// in the Explore phase, ruling A-25 revised), so that it lasts through the first turn of combat with the
// monsters that caused it.
int surprise_lasts_until(Game& g) { return g.state.turn + (g.state.phase >= Phase::SPELL_RESOLUTION ? 1 : 0); }

// No more Patrol rolls once every room that counts has been revealed: not secret, with an ordinary
// door (R-MON-07 revised, Tables.patrol_rooms).
bool patrols_relevant(Game& g) {
    for (int room : g.tables().patrol_rooms) {
        if (!g.state.revealed[room]) return true;
    }
    return false;
}

int patrol_monsters_on_board(Game& g) {
    int n = 0;
    for (int u = 0; u < MAX_UNITS; ++u) n += g.state.unit_how[u] == HOW_PATROL && g.state.unit_status[u] == ACTIVE;
    return n;
}

// The variant key rules.patrol_board_max (0 by the rules: never).
bool patrols_paused(Game& g) {
    const int top = g.rules().patrol_board_max;
    return top > 0 && patrol_monsters_on_board(g) >= top;
}

// Turn Start: one d6 per corridor that held a hero at the previous Turn End; a roll of at most
// rules.patrol_max brings a fresh copy of the Patrol set into that corridor (R-MON-04..06, rulings
// A-05..A-07; none while patrols_paused).
void roll_patrols(Game& g) {
    State& s = g.state;
    if (s.turn == 1 || g.adventure().patrol.empty()) return;
    const int top = g.rules().patrol_max;
    std::vector<int> corridors;
    for (size_t a = 0; a < s.patrol_corridors.size(); ++a) {
        if (s.patrol_corridors[a]) corridors.push_back(static_cast<int>(a));
    }
    for (int area : corridors) {
        if (!patrols_relevant(g) || patrols_paused(g)) return;
        const bool appears =
            g.check("patrol", "dm", PATROL, {}, [top](int v) { return v <= top ? "appears" : "none"; }) <= top;
        if (appears) spawn_patrol(g, area);
    }
}

std::vector<int> spawn_patrol(Game& g, int area) {
    const State& s = g.state;
    std::vector<int> squares;
    for (int q : g.tables().area_squares[area]) {
        if (board::free(g, q)) squares.push_back(q);
    }
    const std::vector<int> heroes = units::active_heroes(g);
    if (squares.empty() || heroes.empty()) return {};
    std::vector<int32_t> sources;
    for (int h : heroes) sources.push_back(s.unit_pos[h]);
    const std::vector<int32_t> dist = path_distances(g, sources);
    // the farthest reachable square, the first in reading order among equals
    int first = -1;
    for (int q : squares) {
        if (dist[q] < UNREACHABLE && (first < 0 || dist[q] > dist[first] || (dist[q] == dist[first] && q < first))) {
            first = q;
        }
    }
    if (first < 0) return {};
    const std::vector<std::string>& patrol = g.adventure().patrol;
    const std::vector<int> members = nearest_free_in_area(g, first, area, static_cast<int>(patrol.size()));
    std::vector<int> group;
    for (size_t k = 0; k < members.size() && k < patrol.size(); ++k) {
        const int u = units::place_monster(g, patrol[k], members[k], HOW_PATROL);
        if (u >= 0) group.push_back(u);
    }
    if (!group.empty()) encounter(g, group, HOW_PATROL);
    return group;
}

// The first time a hero enters an area with an ambush, its Ambushers spawn (R-MON-09).
void trigger_ambushes(Game& g, int h) {
    State& s = g.state;
    const int area = g.tables().area[s.unit_pos[h]];
    const std::string& name = g.tables().area_names[area];
    const auto& ambushes = g.adventure().ambushes;
    for (size_t i = 0; i < ambushes.size(); ++i) {
        const Ambush& ambush = ambushes[i];
        if (s.ambush_fired[i] || ambush.area != name) continue;
        s.ambush_fired[i] = true;
        std::vector<int> group;
        for (size_t k = 0; k < ambush.monsters.size(); ++k) {
            int sq = Game::square(ambush.at[k]);
            if (!board::free(g, sq)) {
                const std::vector<int> spots = nearest_free_in_area(g, sq, area, 1);
                if (spots.empty()) continue;
                sq = spots[0];
            }
            const int u = units::place_monster(g, ambush.monsters[k], sq, HOW_AMBUSH);
            if (u >= 0) group.push_back(u);
        }
        if (!group.empty()) encounter(g, group, HOW_AMBUSH);
    }
}

}  // namespace dungeon_core::encounters
