// The turn as a pipeline of phases (TURN, CTS): the port of dungeon_env/engine/turn.py.
//
// begin(g) runs the automatic opening of the current phase; it either pushes a decision or moves on
// with g.goto_phase(next_phase). After every applied decision, resume(g) asks the current phase for
// its next decision or ends it. The Combat Turn Sequence is in effect while any monster is on the
// board (R-TURN-15): after Movement come 2.1 Spell Selection, 2.2 Monsters' Movement, 2.3 Evasion,
// 2.4 Fighting and 2.5 Spell Resolution; then Explore and Trade if no monster remains (R-CTS-08).
#include "rules/turn.hpp"

#include <algorithm>

#include "rules/abilities.hpp"
#include "rules/combat.hpp"
#include "rules/effects.hpp"
#include "rules/encounters.hpp"
#include "rules/explore.hpp"
#include "rules/items.hpp"
#include "rules/movement.hpp"
#include "rules/spells.hpp"
#include "rules/trade.hpp"
#include "rules/units.hpp"
#include "rules/visibility.hpp"

namespace dungeon_core::turn {

namespace {

void reset_phase_flags(Game& g, int u) {
    State& s = g.state;
    s.move_bought[u] = 0;
    s.moved[u] = s.jumped[u] = s.deferred[u] = false;
}

// Give control to the hero that continues: the current one if it is not done, else the next hero
// (in index order, wrapping) that is not done; end the phase when all are done. `start` < 0: the
// hero in control (Python's start=None).
void next_hero(Game& g, int start = -1) {
    State& s = g.state;
    if (!s.outcome.empty()) return;
    int current = start < 0 ? s.controller : start;
    int n = s.n_heroes;
    for (int k = 0; k < n; ++k) {
        int h = ((current + k) % n + n) % n;  // Python's % (never negative)
        if (s.unit_status[h] == ACTIVE && !s.move_done[h]) {
            if (h != current) s.progress = false;
            s.controller = h;
            g.push(s.phase == Phase::HERO_MOVEMENT ? Decision::HERO_MOVE : Decision::HERO_EVADE, h);
            return;
        }
    }
    if (s.phase == Phase::HERO_MOVEMENT) {
        s.dragging.fill(NO_UNIT);  // every drag ends with its dragger's Movement (R-DEATH-04 revised)
        units::check_corpses(g);
        g.goto_phase(units::any_monster(g) ? Phase::SPELL_SELECTION : Phase::EXPLORE);
    } else {
        g.goto_phase(Phase::FIGHTING);
    }
}

void next_monster(Game& g) {
    State& s = g.state;
    if (!s.outcome.empty()) return;
    int owner = s.controller;
    if (owner >= s.n_heroes && !s.move_done[owner] && s.unit_status[owner] == ACTIVE) {
        g.push(Decision::MONSTER_MOVE, owner);
        return;
    }
    while (!s.queue.empty()) {
        int m = s.queue.front();
        s.queue.erase(s.queue.begin());
        if (s.unit_status[m] == ACTIVE && !s.move_done[m]) {
            s.controller = m;
            g.push(Decision::MONSTER_MOVE, m);
            return;
        }
    }
    s.controller = NO_UNIT;
    g.goto_phase(Phase::EVASION);
}

bool has_evasion_choice(Game& g, int h) {
    return movement::can_pay_evade(g, h) || !items::item_actions(g, h, IN_EVASION).empty() ||
           !abilities::ability_actions(g, h, IN_EVASION).empty();
}

// `rested`: (hero, rested this turn) in the order of active_heroes at Turn End
void close_turn(Game& g, const std::vector<std::pair<int, bool>>& rested) {
    State& s = g.state;
    const Tables& t = g.tables();
    std::fill(s.patrol_corridors.begin(), s.patrol_corridors.end(), 0);
    for (int h : units::active_heroes(g)) {
        int area = t.area[s.unit_pos[h]];
        if (t.is_corridor[area]) s.patrol_corridors[area] = 1;
    }
    s.rested_last.fill(false);
    for (const auto& [h, rested_now] : rested) s.rested_last[h] = rested_now;
    for (int u = 0; u < MAX_UNITS; ++u) {
        // a surprise rolled after the Movement lasts one more turn
        s.surprised[u] = s.surprised[u] && s.surprise_until[u] > s.turn;
    }
    s.acted.fill(false);
    s.fought.fill(false);
    for (auto* flags : {&s.exploring, &s.memorized, &s.identified, &s.gave, &s.received, &s.disarm_tried}) {
        flags->fill(false);
    }
    s.double_ones.fill(false);
    std::fill(s.door_tried.begin(), s.door_tried.end(), 0);
    if (s.turn >= g.max_turns) {
        g.finish("truncated", "turn cap of " + std::to_string(g.max_turns) + " turns reached");
        return;
    }
    s.turn += 1;
    g.goto_phase(Phase::TURN_START);
}

}  // namespace

void begin(Game& g) {
    State& s = g.state;
    g.log(Value::obj({{"type", "phase"}, {"phase", PHASE_NAMES[s.phase]}, {"turn", s.turn}}));
    s.declined_items.fill(false);  // what a hero went back from is offered again in a new phase
    std::fill(s.declined_spells.begin(), s.declined_spells.end(), 0);
    switch (s.phase) {  // Python's _BEGIN
        case Phase::TURN_START: turn_start(g); break;
        case Phase::HERO_MOVEMENT: hero_movement(g); break;
        case Phase::SPELL_SELECTION: spell_selection(g); break;
        case Phase::MONSTER_MOVEMENT: monster_movement(g); break;
        case Phase::EVASION: evasion(g); break;
        case Phase::FIGHTING: fighting(g); break;
        case Phase::SPELL_RESOLUTION: spell_resolution(g); break;
        case Phase::EXPLORE: explore::begin_explore(g); break;
        case Phase::TRADE: trade::begin_trade(g); break;
        case Phase::TURN_END: turn_end(g); break;
        default: throw std::logic_error("turn.begin: no phase " + std::to_string(s.phase));
    }
}

void resume(Game& g) {
    switch (g.state.phase) {  // Python's _RESUME: the phases that have decisions (none in the others)
        case Phase::HERO_MOVEMENT:
        case Phase::EVASION: next_hero(g); break;
        case Phase::MONSTER_MOVEMENT: next_monster(g); break;
        case Phase::FIGHTING: g.goto_phase(Phase::SPELL_RESOLUTION); break;
        case Phase::SPELL_SELECTION: spells::resume_spell_selection(g); break;
        case Phase::SPELL_RESOLUTION: spells::resume_spell_resolution(g); break;
        case Phase::EXPLORE: explore::resume_explore(g); break;
        case Phase::TRADE: trade::resume_trade(g); break;
        default: break;
    }
}

void turn_start(Game& g) {
    State& s = g.state;
    const Rules& r = g.rules();
    encounters::roll_patrols(g);
    for (int h : units::active_heroes(g)) {
        bool rested = s.rested_last[h];
        units::gain_stamina(g, h, rested ? r.rest_stamina : r.recover_stamina);
        if (rested) {
            int magic = units::has_trait(g, h, "learned") ? r.rest_magic_learned : r.rest_magic;
            s.magic[h] = std::min<int>(s.base_magic[h], s.magic[h] + magic);
        }
        g.log(Value::obj({{"type", "recover"},
                          {"unit", units::label(g, h)},
                          {"rested", rested},
                          {"stamina", int(s.stamina[h])},
                          {"magic", int(s.magic[h])},
                          {"turn", s.turn}}));
    }
    g.goto_phase(Phase::HERO_MOVEMENT);
}

void hero_movement(Game& g) {
    State& s = g.state;
    int penalty = s.light == 0 ? g.rules().light_dark_penalty : 0;
    for (int h = 0; h < s.n_heroes; ++h) {
        reset_phase_flags(g, h);
        bool can_move = s.unit_status[h] == ACTIVE && !s.surprised[h];
        int allowance = s.base_move[h] + effects::move_bonus(g, h) - penalty;
        s.move_left[h] = can_move ? std::max(0, allowance) : 0;
        s.move_done[h] = !can_move;
    }
    s.idle_handoffs = 0;
    s.progress = false;
    next_hero(g, 0);
}

std::vector<int> handoffs(Game& g, int h) {
    const State& s = g.state;
    if (!s.progress && (s.idle_handoffs >> h & 1)) return {};
    std::vector<int> out;
    out.reserve(s.n_heroes);
    for (int k = 0; k < s.n_heroes; ++k) {
        if (k != h && s.unit_status[k] == ACTIVE && !s.move_done[k]) out.push_back(HANDOFF_0 + k);
    }
    return out;
}

void handoff(Game& g, int to) {
    State& s = g.state;
    if (!s.progress) s.idle_handoffs |= 1 << s.controller;
    s.progress = false;
    s.controller = to;
    g.log(Value::obj({{"type", "handoff"}, {"to", units::label(g, to)}, {"turn", s.turn}}));
}

void spell_selection(Game& g) { spells::begin_spell_selection(g); }

void monster_movement(Game& g) {
    State& s = g.state;
    visibility::wake_guards(g);
    s.queue.clear();
    s.controller = NO_UNIT;
    for (int m : units::active_monsters(g)) {
        reset_phase_flags(g, m);
        s.move_done[m] = false;
        s.move_left[m] = s.base_move[m];
        s.move_from[m] = s.unit_pos[m];
        if (!s.skip_move[m] && !s.inactive[m]) s.queue.push_back(m);
    }
    s.skip_move.fill(false);  // a monster's surprise (or sleep) skips this one Monsters' Movement
    next_monster(g);
}

void evasion(Game& g) {
    State& s = g.state;
    for (int h = 0; h < s.n_heroes; ++h) {
        reset_phase_flags(g, h);
        bool able = s.unit_status[h] == ACTIVE && !s.surprised[h];
        s.move_done[h] = !(able && has_evasion_choice(g, h));
    }
    s.idle_handoffs = 0;
    s.progress = false;
    next_hero(g, 0);
}

void fighting(Game& g) {
    if (!combat::begin_fighting(g)) g.goto_phase(Phase::SPELL_RESOLUTION);
}

void spell_resolution(Game& g) { spells::begin_spell_resolution(g); }

void turn_end(Game& g) {
    State& s = g.state;
    std::vector<std::pair<int, bool>> rested;  // Python's dict, in active_heroes order
    PerUnit<bool> rested_now{};
    for (int h : units::active_heroes(g)) {
        rested_now[h] = !s.acted[h] && !s.fought[h];
        rested.emplace_back(h, rested_now[h]);
    }
    for (int h : units::active_heroes(g)) {
        if (rested_now[h]) g.log(Value::obj({{"type", "rest"}, {"unit", units::label(g, h)}, {"turn", s.turn}}));
    }
    for (int h : units::active_heroes(g)) {
        if (s.deaths_door[h] && !rested_now[h]) {
            std::vector<std::string> killers = s.downed_by[h];  // a death names what put it on Death's Door
            units::deaths_door_roll(g, h, killers);
        }
    }
    effects::tick(g);
    s.light = std::max(0, s.light - g.rules().light_per_turn);
    g.log(Value::obj({{"type", "light"}, {"light", s.light}, {"turn", s.turn}}));
    units::check_corpses(g);
    g.check_end();
    if (!s.outcome.empty()) return;
    close_turn(g, rested);
}

}  // namespace dungeon_core::turn
