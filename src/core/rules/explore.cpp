// The Explore phase (EXPL): the port of dungeon_env/engine/explore.py. Explore or stay, room and
// corridor events, other Explore actions (memorize, identify, Explore spells, using items), then
// trap detection (R-EXPL-06).
//
// The phase is a small state machine kept in the state: act_step (STEP_CHOICE, STEP_EVENTS,
// STEP_ACTS) and act_todo (the heroes still to ask, or the events still to resolve). Every decision
// it asks returns through resume_explore, which picks up where the step left off.
//
// Room events (rulings ): each event fires once, in board reading order of the areas that
// hold a hero (then in file order), scope "all" at the first Explore phase with any hero in its
// area, "exploring" at the first with an exploring hero there. If an event brings monsters, the
// combat sequence is in effect and the rest of the phase and the Trade phase are skipped (ruling
// D-E1): events not yet resolved wait for a later Explore phase.
#include "rules/explore.hpp"

#include <algorithm>
#include <tuple>

#include "rules/board.hpp"
#include "rules/effects.hpp"
#include "rules/encounters.hpp"
#include "rules/inventory.hpp"
#include "rules/traps.hpp"
#include "rules/units.hpp"

namespace dungeon_core::explore {

namespace {

constexpr int STEP_CHOICE = 0, STEP_EVENTS = 1, STEP_ACTS = 2;

// effects that act on the party, not on one hero: applied once per event (Python's TARGETLESS)
bool targetless(const Effect& effect) { return effect.kind == "light"; }

int area_index(Game& g, const RoomEvent& event) {
    const std::vector<std::string>& names = g.tables().area_names;
    auto at = std::find(names.begin(), names.end(), event.area);
    if (at == names.end()) throw std::invalid_argument("room event: no area named " + event.area);
    return static_cast<int>(at - names.begin());
}

std::string source_of(const RoomEvent& event) { return "event:" + event.area; }

// Ask the first hero of act_todo still on the board; `pop` takes it off the list now (else its END
// does). False when nobody is left.
bool ask_next(Game& g, int kind, bool pop) {
    State& s = g.state;
    while (!s.act_todo.empty()) {
        int h = s.act_todo.front();
        if (s.unit_status[h] != ACTIVE) {
            s.act_todo.erase(s.act_todo.begin());
            continue;
        }
        if (pop) s.act_todo.erase(s.act_todo.begin());
        g.push(kind, h);
        return true;
    }
    return false;
}

void mark_explored(Game& g) {
    State& s = g.state;
    for (int h : units::active_heroes(g)) {
        if (s.exploring[h]) s.explored_bits |= uint64_t{1} << g.tables().area[s.unit_pos[h]];
    }
}

// Events not yet fired in the areas that hold a hero, in board reading order of the areas, then in
// file order.
Row due_events(Game& g) {
    const State& s = g.state;
    const Tables& t = g.tables();
    std::vector<bool> occupied(t.n_areas(), false);
    for (int h : units::active_heroes(g)) occupied[t.area[s.unit_pos[h]]] = true;
    std::vector<Row> by_area(t.n_areas());
    const std::vector<RoomEvent>& events = g.adventure().events;
    for (size_t e = 0; e < events.size(); ++e) {
        if (!s.event_done[e]) by_area[area_index(g, events[e])].push_back(static_cast<int>(e));
    }
    Row out;
    for (int a : area_order(g)) {
        if (occupied[a]) out.insert(out.end(), by_area[a].begin(), by_area[a].end());
    }
    return out;
}

bool fires(Game& g, int e) { return !g.state.event_done[e] && !affected(g, e).empty(); }

void apply_one(Game& g, const Effect& effect, const std::string& source, int h) {
    if (g.state.unit_status[h] == ACTIVE) effects::apply_effect(g, effect, source, h);
}

void apply_all(Game& g, const Effect& effect, const std::string& source, const std::vector<int>& heroes) {
    if (targetless(effect)) {
        effects::apply_effect(g, effect, source, -1);
        return;
    }
    for (int h : heroes) apply_one(g, effect, source, h);
}

// The item slot of a find: the named card, or the next card of the deck (-1: the deck is empty).
int find(Game& g, const std::optional<std::string>& card_id, const std::optional<std::string>& deck) {
    if (card_id) return inventory::create(g, *card_id);
    return inventory::draw(g, deck.value());
}

// An item found: offered to the exploring heroes of the area in slot order (R-EXPL-05, A-05).
void offer(Game& g, int e, const std::vector<int>& heroes) {
    const RoomEvent& event = g.adventure().events[e];
    int item = find(g, event.item, event.deck);
    if (item < 0) return;
    g.push(Decision::CLAIM_ITEM, heroes.at(0), e, item);
}

// `sq` if free, else the nearest free square of the same area (ties in reading order), or -1.
int spot(Game& g, int sq, int area) {
    if (board::free(g, sq)) return sq;
    const Tables& t = g.tables();
    std::vector<int32_t> dist = distance_field(t.board, reinterpret_cast<const bool*>(g.state.door_open.data()),
                                               nullptr, {sq}, UNREACHABLE, -1);
    int best = -1;
    for (int q : t.area_squares[area]) {
        if (!board::free(g, q) || dist[q] >= UNREACHABLE) continue;
        if (best < 0 || std::make_pair(dist[q], q) < std::make_pair(dist[best], best)) best = q;
    }
    return best;
}

}  // namespace

// ----------------------------------------------------------------------------------------- the phase

void begin_explore(Game& g) {
    State& s = g.state;
    s.act_step = STEP_CHOICE;
    s.act_todo = units::active_heroes(g);
    resume_explore(g);
}

void resume_explore(Game& g) {
    State& s = g.state;
    if (!s.outcome.empty()) return;
    if (units::any_monster(g)) {  // an event brought monsters: combat is in effect (R-EXPL-01, D-E1)
        s.act_todo.clear();
        g.goto_phase(Phase::TURN_END);
        return;
    }
    if (s.act_step == STEP_CHOICE) {
        if (ask_next(g, Decision::EXPLORE_CHOICE, true)) return;
        mark_explored(g);
        s.act_step = STEP_EVENTS;
        s.act_todo = due_events(g);
    }
    if (s.act_step == STEP_EVENTS) {
        while (!s.act_todo.empty()) {
            int e = s.act_todo.front();
            s.act_todo.erase(s.act_todo.begin());
            if (fires(g, e)) {
                fire_event(g, e);
                // the engine resumes the phase when the decisions are taken
                if (!s.stack.empty() || !s.outcome.empty() || units::any_monster(g)) return;
            }
        }
        s.act_step = STEP_ACTS;
        s.act_todo = units::active_heroes(g);
    }
    if (ask_next(g, Decision::HERO_ACT, false)) return;  // (c) other Explore actions, hero by hero
    traps::detect_traps(g);  // (d) finally, the Detect Traps rolls (R-EXPL-06, R-TRAP-01)
    g.goto_phase(Phase::TRADE);
}

std::vector<int> legal_explore_choice(Game&, int, int, int) { return {EXPLORE, STAY}; }

void do_explore_choice(Game& g, int unit, int, int, int action) {
    State& s = g.state;
    s.exploring[unit] = action == EXPLORE;
    if (action == EXPLORE) s.acted[unit] = true;  // exploring is an activity: no Rest this turn (R-REST-02)
    g.log(Value::obj({{"type", "explore_choice"},
                      {"unit", units::label(g, unit)},
                      {"explore", action == EXPLORE},
                      {"turn", s.turn}}));
}

void end_acts(Game& g, int unit) {
    State& s = g.state;
    if (!s.act_todo.empty() && s.act_todo.front() == unit) s.act_todo.erase(s.act_todo.begin());
}

// ----------------------------------------------------------------------------------------- room events

std::vector<int> area_order(Game& g) {
    // Python memoises it in tables.cache; it is cheap enough to compute at each Explore phase
    const Tables& t = g.tables();
    std::vector<std::pair<int, int>> first;  // (first square, area)
    for (int a = 0; a < t.n_areas(); ++a) {
        const auto& squares = t.area_squares[a];
        first.emplace_back(*std::min_element(squares.begin(), squares.end()), a);
    }
    std::stable_sort(first.begin(), first.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<int> order;
    for (const auto& f : first) order.push_back(f.second);
    return order;
}

std::vector<int> affected(Game& g, int e) {
    const State& s = g.state;
    const Tables& t = g.tables();
    const RoomEvent& event = g.adventure().events[e];
    int area = area_index(g, event);
    std::vector<int> heroes;
    for (int h : units::active_heroes(g)) {
        if (t.area[s.unit_pos[h]] == area && (event.scope == "all" || s.exploring[h])) heroes.push_back(h);
    }
    return heroes;
}

void fire_event(Game& g, int e) {
    State& s = g.state;
    const RoomEvent& event = g.adventure().events[e];
    std::vector<int> heroes = affected(g, e);
    s.event_done[e] = 1;
    std::vector<std::string> labels;
    for (int h : heroes) labels.push_back(units::label(g, h));
    g.log(Value::obj({{"type", "room_event"},
                      {"event", e},
                      {"area", event.area},
                      {"kind", event.kind},
                      {"scope", event.scope},
                      {"text", event.text},
                      {"heroes", labels},
                      {"turn", s.turn}}));
    std::string source = source_of(event);
    if (event.kind == "effect") {
        apply_all(g, event.effect.value(), source, heroes);
    } else if (event.kind == "check") {
        for (int h : heroes) resolve_option(g, e, event.options.at(0), h);
    } else if (event.kind == "choice") {
        g.push(Decision::EVENT_CHOICE, heroes.at(0), e);
    } else if (event.kind == "item") {
        offer(g, e, heroes);
    } else if (event.kind == "detect") {
        for (int h : heroes) traps::room_detect(g, h, area_index(g, event));
    } else if (event.kind == "ambush") {
        spawn_event_monsters(g, e);
    } else if (event.kind == "secret") {
        reveal_door(g, event.door.value());
    }
    units::check_corpses(g);
    g.check_end();
}

bool trait_check(Game& g, int h, const std::string& trait) {
    int need = g.rules().trait_check_min;
    Mods modifiers;
    if (units::has_trait(g, h, trait)) modifiers.emplace_back(trait, 1);
    int total = g.check("trait_check", units::label(g, h), MISC, modifiers,
                        [need](int v) { return std::string(v >= need ? "success" : "fail"); });
    return total >= need;
}

void resolve_option(Game& g, int e, const EventOption& option, int h) {
    std::string source = source_of(g.adventure().events[e]);
    if (option.trait && !trait_check(g, h, *option.trait)) {
        if (option.fail) apply_one(g, *option.fail, source, h);
        return;
    }
    if (option.effect) apply_all(g, *option.effect, source, {h});
    if (option.item || option.deck) {
        int item = find(g, option.item, option.deck);
        if (item >= 0 && g.state.unit_status[h] == ACTIVE) {
            inventory::give(g, item, h);
            g.log(Value::obj({{"type", "item_found"},
                              {"unit", units::label(g, h)},
                              {"item", item},
                              {"event", e},
                              {"turn", g.state.turn}}));
        }
    }
}

std::vector<int> legal_event_choice(Game& g, int, int a, int) {
    std::vector<int> out;
    for (size_t k = 0; k < g.adventure().events[a].options.size(); ++k) out.push_back(CHOICE_0 + static_cast<int>(k));
    return out;
}

void do_event_choice(Game& g, int unit, int a, int, int action) {
    int k = action - CHOICE_0;
    g.log(Value::obj({{"type", "event_choice"},
                      {"event", a},
                      {"unit", units::label(g, unit)},
                      {"option", k},
                      {"turn", g.state.turn}}));
    resolve_option(g, a, g.adventure().events[a].options.at(k), unit);
    units::check_corpses(g);
    g.check_end();
}

// ----------------------------------------------------------------------------------------- items found

std::vector<int> legal_claim(Game& g, int unit, int, int) {
    if (inventory::can_hold(g, unit)) return {TAKE, PASS};
    return {PASS};
}

void do_claim(Game& g, int unit, int a, int b, int action) {
    State& s = g.state;
    if (action == TAKE) {
        inventory::give(g, b, unit);
        g.log(Value::obj({{"type", "item_found"},
                          {"unit", units::label(g, unit)},
                          {"item", b},
                          {"event", a},
                          {"turn", s.turn}}));
        return;
    }
    for (int h : affected(g, a)) {
        if (h > unit) {  // the next exploring hero of the area is asked
            g.push(Decision::CLAIM_ITEM, h, a, b);
            return;
        }
    }
    g.log(Value::obj({{"type", "item_left"}, {"item", b}, {"event", a}, {"turn", s.turn}}));
}

// ------------------------------------------------------------------------------ ambushes and secrets

std::vector<int> spawn_event_monsters(Game& g, int e) {
    const RoomEvent& event = g.adventure().events[e];
    if (event.monsters.size() != event.at.size()) {
        throw std::invalid_argument("room event " + std::to_string(e) + ": monsters and at differ in length");
    }
    int area = area_index(g, event);
    std::vector<int> group;
    for (size_t k = 0; k < event.monsters.size(); ++k) {
        int sq = spot(g, Game::square(event.at[k]), area);
        int u = sq >= 0 ? units::place_monster(g, event.monsters[k], sq, HOW_AMBUSH) : -1;
        if (u >= 0) group.push_back(u);
    }
    if (!group.empty()) encounters::encounter(g, group, HOW_AMBUSH);
    return group;
}

void reveal_door(Game& g, int door) {
    State& s = g.state;
    s.door_hidden[door] = 0;
    std::vector<Value> squares;
    for (int q : g.tables().door_squares[door]) squares.push_back(Game::xy_value(q));
    g.log(Value::obj({{"type", "secret_door"}, {"door", door}, {"squares", Value(squares)}, {"turn", s.turn}}));
}

}  // namespace dungeon_core::explore
