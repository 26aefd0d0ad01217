// Movement: heroes' Movement phase (steps, doors, jumps, dragging, exits), Evasion, and the DM's
// monster movement. The port of dungeon_env/engine/movement.py (its reference). Each legal_* lists
// the legal actions of one decision; each do_* applies one, already known to be legal.
//
// The legal-move generation is src/core/movement.cpp's (the compiled version the Python engine
// calls) reading the core's State instead of numpy views, with the duty to attack of pursuit.hpp.
// That file's header is not included here: its ACTIVE, CORPSE, NO_UNIT and Units clash with
// state.hpp.
#include "rules/movement.hpp"

#include <algorithm>
#include <array>

#include "pursuit.hpp"
#include "rules/board.hpp"
#include "rules/casting.hpp"
#include "rules/effects.hpp"
#include "rules/encounters.hpp"
#include "rules/traps.hpp"
#include "rules/units.hpp"
#include "rules/visibility.hpp"

namespace dungeon_core::movement {

namespace {

// ----- the board as it stands, read from the State (the legal-move generation) -----

// pursuit.hpp's Position of the state: views of its door and trap flags (one byte each, 0 or 1, as
// numpy's bools are) and of the occupants, in place.
Position position_of(const State& s) {
    return {reinterpret_cast<const bool*>(s.door_open.data()), s.occupant.data(),
            reinterpret_cast<const bool*>(s.trap_armed.data()), reinterpret_cast<const bool*>(s.trap_detected.data())};
}

// board.free: nothing stands on the square, no figure, furniture, blockage or sprung hazard (R-TURN-09).
bool is_free(const Board& board, const State& s, int sq) {
    if (s.occupant[sq] >= 0 || !board.ground[sq]) return false;
    const int trap = board.trap_at[sq];
    return trap < 0 || s.trap_armed[trap] || !s.trap_detected[trap];
}

bool is_corpse_on(const State& s, int sq) {
    const int u = s.occupant[sq];
    return u >= 0 && s.unit_status[u] == CORPSE;
}

// A one-square obstacle a hero may Jump: furniture, a corpse, a detected trap or a hazard with nobody
// on it (R-JUMP-02, A-42).
bool jumpable(const Board& board, const State& s, int sq) {
    if (board.furniture[sq] || is_corpse_on(s, sq)) return true;
    const int trap = board.trap_at[sq];
    return trap >= 0 && s.trap_detected[trap] && s.occupant[sq] < 0;
}

// A corpse on sq that no hero is dragging already (a corpse trails one dragger).
bool is_free_corpse(const State& s, int sq) {
    if (!is_corpse_on(s, sq)) return false;
    for (int u = 0; u < MAX_UNITS; ++u) {
        if (s.dragging[u] == s.occupant[sq]) return false;
    }
    return true;
}

// board.open_side: the square one step from sq in direction d with no wall or closed door between, or -1.
int open_side_of(const Board& board, const State& s, int sq, int d) {
    const int door = board.side_door[sq * 4 + d];
    if (door >= 0 && !s.door_open[door]) return -1;
    return board.side_to[sq * 4 + d];
}

// ----- applying -----

// mods.update(more): a key already there keeps its place and takes the new amount
void mods_update(Mods& mods, const Mods& more) {
    for (const auto& m : more) {
        auto at = std::find_if(mods.begin(), mods.end(), [&m](const auto& x) { return x.first == m.first; });
        if (at != mods.end()) {
            at->second = m.second;
        } else {
            mods.push_back(m);
        }
    }
}

// Open Doors roll (R-DOOR-02..07): 1-2 failed and the door is alerted, 3-4 failed, 5-6 open
// (rules.door_alert_max, rules.door_open_min).
void open_door(Game& g, int h, int door) {
    State& s = g.state;
    s.tried(h, door) = 1;
    s.acted[h] = true;
    const int alert = g.rules().door_alert_max, opened = g.rules().door_open_min;
    Mods modifiers;
    if (units::has_trait(g, h, "strong")) modifiers.emplace_back("strong", 1);
    mods_update(modifiers, effects::check_modifiers(g, h, "open_door"));
    const auto result = [alert, opened](int total) -> std::string {
        return total <= alert ? "failed_alert" : (total < opened ? "failed" : "opened");
    };
    const int total = g.check("open_door", g.label(h), DOORS, modifiers, result);
    if (total <= alert) s.door_alert[door] = 1;
    if (total >= opened) {
        s.door_open[door] = 1;
        s.closed_bits &= ~(uint64_t{1} << door);
        Value squares = Value::empty_list();
        for (int q : g.tables().door_squares[door]) squares.push(Game::xy_value(q));
        g.log(Value::obj({{"type", "door_opened"},
                          {"door", door},
                          {"by", g.label(h)},
                          {"squares", squares},
                          {"turn", s.turn}}));
        visibility::look(g, units::active_heroes(g), s.door_alert[door] != 0);
    }
}

// Jump roll d6 (+1 Agile): 4-6 lands beyond the obstacle and may go on; 1-3 ends the movement on
// the take-off square (R-JUMP-04/05; rules.jump_min). A Jump costs 2 squares.
void jump(Game& g, int h, int d) {
    State& s = g.state;
    const Tables& t = g.tables();
    s.jumped[h] = true;
    s.acted[h] = true;
    const int need = g.rules().jump_min;
    Mods modifiers;
    if (units::has_trait(g, h, "agile")) modifiers.emplace_back("agile", 1);
    mods_update(modifiers, effects::check_modifiers(g, h, "jump"));
    const int total = g.check("jump", g.label(h), JUMP, modifiers,
                              [need](int v) -> std::string { return v >= need ? "success" : "fail"; });
    if (total >= need) {
        s.move_left[h] = static_cast<int16_t>(s.move_left[h] - 2);
        const int over = t.neighbor[s.unit_pos[h] * 4 + d];
        step(g, h, t.neighbor[over * 4 + d]);
    } else {
        s.move_left[h] = 0;
        end_movement(g, h);
        const int over = t.neighbor[s.unit_pos[h] * 4 + d];
        // a trap that does not block movement: the hero lands on it (R-JUMP-06)
        if (board::is_jumpable(g, over) && board::free(g, over)) step(g, h, over);
    }
}

}  // namespace

bool can_buy_move(Game& g, int u) {
    const State& s = g.state;
    return s.move_bought[u] < g.rules().move_stamina_max && s.stamina[u] > 0 && !s.exhausted[u];
}

// A step or an Open Doors attempt, a Jump and a Drag in each direction, a bought square, END (R-MOVE,
// R-JUMP, A-29, A-42).
std::vector<int> legal_hero_move(Game& g, int h) {
    const State& s = g.state;
    const Board& board = g.tables().board;
    const int sq = s.unit_pos[h];
    const int left = s.move_left[h];
    const bool may_jump = left >= 2 && !s.jumped[h] && s.dragging[h] == NO_UNIT;
    const bool may_drag = left >= 1 && !s.moved[h] && s.dragging[h] == NO_UNIT;
    std::vector<int> acts;
    acts.reserve(4 * 3 + 2);  // the most there can be: a move, a jump and a drag a side, an extra move, END
    for (int d = 0; d < 4; ++d) {
        const int next = board.side_to[sq * 4 + d];
        const int door = board.side_door[sq * 4 + d];
        if (next < 0) continue;
        if (door >= 0 && !s.door_open[door]) {
            // an Open Doors attempt (A-29: costs no movement); a hidden door is a wall
            if (!g.state.tried(h, door) && !s.door_hidden[door]) acts.push_back(MOVE_N + d);
            continue;
        }
        if (left >= 1 && is_free(board, s, next)) acts.push_back(MOVE_N + d);
        if (may_jump && jumpable(board, s, next)) {
            const int land = open_side_of(board, s, next, d);
            if (land >= 0 && is_free(board, s, land)) acts.push_back(JUMP_N + d);
        }
        if (may_drag && is_free_corpse(s, next)) acts.push_back(DRAG_N + d);
    }
    if (can_buy_move(g, h)) acts.push_back(EXTRA_MOVE);
    acts.push_back(END);
    return acts;
}

// The Python reference of legal_hero_move: in the core they are one and the same.
std::vector<int> legal_hero_move_reference(Game& g, int h) { return legal_hero_move(g, h); }

// A step (or an Open Doors attempt), Jump, Drag, bought square or END of the hero's Movement.
void do_hero_move(Game& g, int h, int action) {
    State& s = g.state;
    const Tables& t = g.tables();
    s.progress = true;
    if (action < JUMP_N) {
        const int d = action - MOVE_N;
        const int door = t.edge_door[s.unit_pos[h] * 4 + d];
        if (door >= 0 && !s.door_open[door]) {
            open_door(g, h, door);
        } else {
            s.move_left[h] = static_cast<int16_t>(s.move_left[h] - 1);
            step(g, h, t.neighbor[s.unit_pos[h] * 4 + d]);
        }
    } else if (JUMP_N <= action && action < DRAG_N) {
        jump(g, h, action - JUMP_N);
    } else if (DRAG_N <= action && action < EXTRA_MOVE) {
        const int corpse = s.occupant[t.neighbor[s.unit_pos[h] * 4 + action - DRAG_N]];
        s.dragging[h] = static_cast<int16_t>(corpse);
        s.move_left[h] = static_cast<int16_t>(s.move_left[h] - 1);
        s.acted[h] = true;
        g.log(Value::obj({{"type", "drag"}, {"unit", g.label(h)}, {"corpse", g.label(corpse)}, {"turn", s.turn}}));
    } else if (action == EXTRA_MOVE) {
        units::spend_stamina(g, h, 1);
        s.move_bought[h] = static_cast<int8_t>(s.move_bought[h] + 1);
        s.move_left[h] = static_cast<int16_t>(s.move_left[h] + 1);
        s.acted[h] = true;
        g.log(Value::obj({{"type", "extra_move"},
                          {"unit", g.label(h)},
                          {"stamina", static_cast<int>(s.stamina[h])},
                          {"turn", s.turn}}));
    } else if (action == END) {
        end_movement(g, h);
        if (!traps::disarm_actions(g, h).empty()) g.push(Decision::DISARM, h);
    }
}

// The hero's Movement is over; a drag ends with it, so the corpse stays where it is and is safe only
// if a hero stays with it (R-DEATH-04 revised, A-46).
void end_movement(Game& g, int h) {
    State& s = g.state;
    s.move_done[h] = true;
    if (s.dragging[h] != NO_UNIT) {
        s.dragging[h] = NO_UNIT;
        units::check_corpses(g);
    }
}

// Move a figure one square (a dragged corpse follows into the square it left), then apply what
// entering the square does: exits, ambushes, revealing, corpse safety.
void step(Game& g, int u, int to) {
    State& s = g.state;
    const Tables& t = g.tables();
    const int from = s.unit_pos[u];
    s.occupant[from] = NO_UNIT;
    units::put(g, u, to);
    s.moved[u] = true;
    s.acted[u] = true;
    const int corpse = s.dragging[u];
    if (corpse != NO_UNIT) {
        units::take_off(g, corpse);
        units::put(g, corpse, from);
    }
    g.log(Value::obj({{"type", "move"},
                      {"unit", g.label(u)},
                      {"from", Game::xy_value(from)},
                      {"to", Game::xy_value(to)},
                      {"turn", s.turn}}));
    traps::on_enter(g, u, to);
    if (u >= s.n_heroes || s.unit_status[u] != ACTIVE) {
        units::check_corpses(g);
        g.check_end();
        return;
    }
    if (t.exit[to] && (s.phase == Phase::HERO_MOVEMENT || s.phase == Phase::EVASION)) {
        leave_dungeon(g, u);
        return;
    }
    if (t.area[to] != t.area[from]) {
        s.visited[t.area[to]] = 1;
        encounters::trigger_ambushes(g, u);
    }
    visibility::look(g, {u});
    units::check_corpses(g);
    g.check_end();
}

// A hero entering an exit square leaves the board for good (ruling A-49); a corpse it drags leaves
// with it.
void leave_dungeon(Game& g, int h) {
    State& s = g.state;
    units::take_off(g, h);
    s.unit_status[h] = EXITED;
    s.move_done[h] = true;
    const int corpse = s.dragging[h];
    g.log(Value::obj({{"type", "exit"}, {"unit", g.label(h)}, {"turn", s.turn}}));
    if (corpse != NO_UNIT) {
        units::take_off(g, corpse);
        s.unit_status[corpse] = CORPSE_OUT;
        g.log(Value::obj(
            {{"type", "corpse_out"}, {"unit", g.label(corpse)}, {"carrier", g.label(h)}, {"turn", s.turn}}));
    }
    units::check_corpses(g);
    g.check_end();
}

// The hero can pay for an Evade step: 2 Stamina (rules.evade_cost) and not Exhausted.
bool can_pay_evade(Game& g, int h) {
    const State& s = g.state;
    return s.stamina[h] >= g.rules().evade_cost && !s.exhausted[h];
}

std::vector<int> legal_evade(Game& g, int h) {
    const State& s = g.state;
    const Board& board = g.tables().board;
    const int sq = s.unit_pos[h];
    std::vector<int> acts;
    if (can_pay_evade(g, h)) {
        for (int d = 0; d < 4; ++d) {
            const int next = open_side_of(board, s, sq, d);
            if (next >= 0 && is_free(board, s, next)) acts.push_back(MOVE_N + d);
        }
    }
    acts.push_back(END);
    return acts;
}

// An Evade step (a spell being cast fails, R-CTS-05) or END of the hero's Evasion.
void do_evade(Game& g, int h, int action) {
    State& s = g.state;
    s.progress = true;
    if (action == END) {
        s.move_done[h] = true;
        return;
    }
    if (casting::is_casting(g, h)) casting::fail_spell(g, h, "evade");
    units::spend_stamina(g, h, g.rules().evade_cost);
    g.log(Value::obj(
        {{"type", "evade"}, {"unit", g.label(h)}, {"stamina", static_cast<int>(s.stamina[h])}, {"turn", s.turn}}));
    step(g, h, board::open_side(g, s.unit_pos[h], action - MOVE_N));
}

// Steps, Stamina for movement, END and DEFER, as far as the duty to attack allows (pursuit,
// R-MON-03): a step or END that would hold the monster back is not offered. A monster off the board
// (square -1) has no step and no duty: it may still buy, end or defer (docs/CORE.md).
std::vector<int> legal_monster_move(Game& g, int m) {
    const State& s = g.state;
    const Board& board = g.tables().board;
    const int stamina_max = g.rules().move_stamina_max;
    const int here = s.unit_pos[m];
    std::array<int, 4> step_actions;  // [i]: the action of step_squares[i]
    std::vector<int32_t> step_squares;
    step_squares.reserve(4);
    if (here >= 0 && s.move_left[m] >= 1) {
        for (int d = 0; d < 4; ++d) {  // open_side, all round
            const int next = open_side_of(board, s, here, d);
            if (next >= 0 && is_free(board, s, next)) {
                step_actions[step_squares.size()] = MOVE_N + d;
                step_squares.push_back(next);
            }
        }
    }
    std::vector<int32_t> heroes;
    heroes.reserve(s.n_heroes);
    for (int h = 0; h < s.n_heroes; ++h) {
        if (s.unit_status[h] == ACTIVE) heroes.push_back(s.unit_pos[h]);
    }
    const int buy = s.exhausted[m] ? 0 : std::min<int>(stamina_max - s.move_bought[m], s.stamina[m]);
    const int base = s.base_move[m];
    const Mover mover{here, s.move_from[m], base, s.move_left[m] + std::max(0, buy), base + stamina_max + 2};
    const Allowed found =
        here < 0 ? Allowed{{}, true} : g.pursuit.allowed(board, position_of(s), mover, heroes, step_squares);
    std::vector<int> acts;
    acts.reserve(found.steps.size() + 3);
    for (int32_t i : found.steps) acts.push_back(step_actions[i]);  // steps kept in order
    if (can_buy_move(g, m)) acts.push_back(EXTRA_MOVE);
    if (found.end_ok || acts.empty()) acts.push_back(END);
    if (!s.queue.empty() && !s.moved[m] && !s.deferred[m]) acts.push_back(DEFER);
    return acts;
}

// The Python reference of legal_monster_move: in the core they are one and the same.
std::vector<int> legal_monster_move_reference(Game& g, int m) { return legal_monster_move(g, m); }

void do_monster_move(Game& g, int m, int action) {
    State& s = g.state;
    if (action < JUMP_N) {
        s.move_left[m] = static_cast<int16_t>(s.move_left[m] - 1);
        step(g, m, board::open_side(g, s.unit_pos[m], action - MOVE_N));
    } else if (action == EXTRA_MOVE) {
        units::spend_stamina(g, m, 1);
        s.move_bought[m] = static_cast<int8_t>(s.move_bought[m] + 1);
        s.move_left[m] = static_cast<int16_t>(s.move_left[m] + 1);
        g.log(Value::obj({{"type", "extra_move"},
                          {"unit", g.label(m)},
                          {"stamina", static_cast<int>(s.stamina[m])},
                          {"turn", s.turn}}));
    } else if (action == DEFER) {
        s.deferred[m] = true;
        s.queue.push_back(m);
        s.controller = NO_UNIT;
    } else if (action == END) {
        s.move_done[m] = true;
    }
}

}  // namespace dungeon_core::movement
