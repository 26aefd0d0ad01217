// Traps: springing, detecting, disarming (TRAP). The port of dungeon_env/engine/traps.py (its module
// docstring documents the two flags trap_armed / trap_detected, the hooks and the events).
#include "rules/traps.hpp"

#include <algorithm>

#include "pursuit.hpp"
#include "rules/board.hpp"
#include "rules/effects.hpp"
#include "rules/units.hpp"
#include "rules/visibility.hpp"

namespace dungeon_core::traps {

namespace {

constexpr Stream STREAM = TRAPS;          // Disarm rolls, made in the open
constexpr Stream SECRET_STREAM = SECRET;  // the DM's secret Detect Traps rolls: no open roll shares their stream

Value xy_of(Game& g, int i) {
    const Square& at = g.adventure().traps[i].at;
    return Value::pair(at[0], at[1]);
}

// Perceptive +1, Light 0 -1 (R-TRAP-04; light.dark_penalty), abilities (detect_bonus).
Mods detect_modifiers(Game& g, int h) {
    Mods modifiers;
    if (units::has_trait(g, h, "perceptive")) modifiers.emplace_back("perceptive", 1);
    if (g.state.light == 0 && g.rules().light_dark_penalty) modifiers.emplace_back("light", -g.rules().light_dark_penalty);
    for (const auto& m : effects::check_modifiers(g, h, "detect_traps")) {  // dict.update
        auto it = std::find_if(modifiers.begin(), modifiers.end(), [&](const auto& x) { return x.first == m.first; });
        if (it != modifiers.end()) {
            it->second = m.second;
        } else {
            modifiers.push_back(m);
        }
    }
    return modifiers;
}

void mark(Game& g, int h, const std::vector<int>& found) {
    Value found_at = Value::empty_list();
    for (int i : found) g.state.trap_detected[i] = 1;
    for (int i : found) found_at.push(xy_of(g, i));
    g.log(Value::obj({{"type", "detect_traps"}, {"hero", g.label(h)}, {"found", found_at}, {"turn", g.state.turn}}));
}

bool hidden_left(Game& g) {
    const State& s = g.state;
    for (size_t i = 0; i < s.trap_armed.size(); ++i) {
        if (s.trap_armed[i] && !s.trap_detected[i]) return true;
    }
    return false;
}

}  // namespace

// ----------------------------------------------------------------------------------------- springing

void on_enter(Game& g, int u, int sq) {
    const int i = board::trap_at(g, sq);
    if (i >= 0 && g.state.trap_armed[i]) spring(g, i, u, true);
}

void spring(Game& g, int i, int u, bool keep_hazard) {
    State& s = g.state;
    const Trap& trap = g.adventure().traps[i];
    const bool hazard = keep_hazard && trap.blocks;
    s.trap_armed[i] = 0;
    s.trap_detected[i] = hazard;
    g.log(Value::obj({{"type", "trap_sprung"},
                      {"trap", trap.name},
                      {"unit", g.label(u)},
                      {"at", xy_of(g, i)},
                      {"hazard", hazard},
                      {"turn", s.turn}}));
    effects::apply_effect(g, trap.effect, "trap:" + trap.name, u);
}

// ----------------------------------------------------------------------------------------- detecting

std::vector<int> detect_from(Game& g, int h, int limit) {
    const State& s = g.state;
    std::vector<int> hidden;
    for (size_t i = 0; i < s.trap_armed.size(); ++i) {
        if (s.trap_armed[i] && !s.trap_detected[i]) hidden.push_back(static_cast<int>(i));
    }
    std::vector<int> out;
    if (limit <= 0 || hidden.empty()) return out;
    const int src = s.unit_pos[h];
    // the squares within `limit` steps by the shortest orthogonal path that crosses no wall, blockage
    // or closed door, occupants ignored (ruling A-39)
    const std::vector<int32_t> dist = distance_field(g.tables().board, reinterpret_cast<const bool*>(s.door_open.data()),
                                                     nullptr, {src}, limit, -1);
    for (int i : hidden) {
        const int sq = Game::square(g.adventure().traps[i].at);
        if (dist[sq] <= limit && visibility::sees(g, src, sq)) out.push_back(i);
    }
    return out;
}

void detect_traps(Game& g) {
    for (int h : units::active_heroes(g)) {
        if (!hidden_left(g)) {
            mark(g, h, {});
            continue;
        }
        // the result is the (clamped) total itself, a number in the event (Python: lambda v: max(v, 0))
        const int total = g.check("detect_traps", g.label(h), SECRET_STREAM, detect_modifiers(g, h),
                                  [](int v) { return Value(std::max(v, 0)); });
        mark(g, h, detect_from(g, h, total));
    }
}

bool room_detect(Game& g, int h, int area) {
    const int need = g.rules().room_detect_min;
    const int total = g.check("room_detect", g.label(h), SECRET_STREAM, detect_modifiers(g, h),
                              [need](int v) { return std::string(v >= need ? "success" : "fail"); });
    const State& s = g.state;
    std::vector<int> found;
    for (int i : board::traps_in_area(g, area)) {
        if (s.trap_armed[i] && !s.trap_detected[i]) found.push_back(i);
    }
    // a failure looks like a success that found nothing
    mark(g, h, total >= need ? found : std::vector<int>{});
    return total >= need;
}

// ----------------------------------------------------------------------------------------- disarming

std::vector<int> disarm_actions(Game& g, int h) {
    const State& s = g.state;
    std::vector<int> acts;
    if (g.adventure().traps.empty() || s.disarm_tried[h] || s.unit_status[h] != ACTIVE || units::any_monster(g)) {
        return acts;
    }
    const int sq = s.unit_pos[h];
    for (int d = 0; d < 4; ++d) {
        const int nxt = board::open_side(g, sq, d);
        const int i = nxt >= 0 ? board::trap_at(g, nxt) : -1;
        if (i >= 0 && s.trap_armed[i] && s.trap_detected[i]) acts.push_back(DISARM_N + d);
    }
    return acts;
}

std::vector<int> legal_disarm(Game& g, int unit, int /*a*/, int /*b*/) {
    std::vector<int> acts = disarm_actions(g, unit);
    acts.push_back(END);
    std::sort(acts.begin(), acts.end());
    return acts;
}

void do_disarm(Game& g, int unit, int /*a*/, int /*b*/, int action) {
    if (action == END) return;
    State& s = g.state;
    const int h = unit;
    const int i = board::trap_at(g, board::open_side(g, s.unit_pos[h], action - DISARM_N));
    s.disarm_tried[h] = true;
    s.acted[h] = true;  // an attempt is an activity: no Rest this turn (R-REST-02)

    const int sprung = g.rules().disarm_spring_max, disarmed = g.rules().disarm_min;
    const int total = g.check("disarm", g.label(h), STREAM, effects::check_modifiers(g, h, "disarm"), [=](int v) {
        return std::string(v <= sprung ? "sprung" : (v < disarmed ? "failed" : "disarmed"));
    });
    if (total <= sprung) {
        spring(g, i, h, false);
    } else if (total >= disarmed) {
        s.trap_armed[i] = 0;
        s.trap_detected[i] = 0;
        const Trap& trap = g.adventure().traps[i];
        g.log(Value::obj({{"type", "trap_disarmed"},
                          {"trap", trap.name},
                          {"unit", g.label(h)},
                          {"at", xy_of(g, i)},
                          {"turn", s.turn}}));
    }
    units::check_corpses(g);
    g.check_end();
}

}  // namespace dungeon_core::traps
