// The Trade phase (TRADE): each hero gives and receives at most one item, within one room or
// corridor or between heroes side by side; items may be taken from a corpse there. The port
// of dungeon_env/engine/trade.py (its reference).
//
// Heroes are asked in slot order (HERO_ACT, act_todo holds the heroes still to ask): ITEM_k picks an
// item to give (items.pick_item asks the verb GIVE, then pushes CHOOSE_TARGET with purpose
// TARGET_GIVE: the receiver), LOOT takes an item from a corpse in the same area (CHOOSE_TARGET with
// purpose TARGET_LOOT: the item), END passes to the next hero. Trading is the one activity a resting
// hero may do (R-TRADE-03): nothing here breaks Rest.
//
// Events: trade {from, to, item, turn} and loot {unit, corpse, item, turn}.
#include "rules/trade.hpp"

#include "rules/inventory.hpp"
#include "rules/items.hpp"
#include "rules/units.hpp"

namespace dungeon_core::trade {

namespace {

bool room_for_one(Game& g, int h) { return inventory::can_hold(g, h); }

}  // namespace

// Step 4, outside combat only (R-TURN-13, R-TRADE-03).
void begin_trade(Game& g) {
    State& s = g.state;
    s.act_todo = units::any_monster(g) ? Row{} : units::active_heroes(g);
    resume_trade(g);
}

void resume_trade(Game& g) {
    State& s = g.state;
    if (!s.outcome.empty()) return;
    while (!s.act_todo.empty()) {
        const int h = s.act_todo.front();
        if (s.unit_status[h] == ACTIVE) {
            g.push(Decision::HERO_ACT, h);
            return;
        }
        s.act_todo.erase(s.act_todo.begin());
    }
    g.goto_phase(Phase::TURN_END);
}

// Heroes that may receive from h: on the board in its room or corridor, or side by side with it
// (R-TRADE-02 revised), and not received yet.
std::vector<int> receivers(Game& g, int h) {
    const State& s = g.state;
    std::vector<int> found;
    for (int r : units::active_heroes(g)) {
        if (r != h && !s.received[r] && units::together(g, h, r) && room_for_one(g, r)) found.push_back(r);
    }
    if (found.size() > static_cast<size_t>(MAX_TARGETS)) found.resize(MAX_TARGETS);
    return found;
}

// (corpse, item) pairs a hero may loot: items on hero corpses in its room or corridor, or next to it
// (as for trading).
std::vector<std::pair<int, int>> corpse_items(Game& g, int h) {
    const State& s = g.state;
    std::vector<std::pair<int, int>> found;
    for (int c = 0; c < s.n_heroes; ++c) {
        if (s.unit_status[c] != CORPSE || !units::together(g, h, c)) continue;
        for (int item : inventory::held(g, c)) found.emplace_back(c, item);
    }
    if (found.size() > static_cast<size_t>(MAX_TARGETS)) found.resize(MAX_TARGETS);
    return found;
}

// END, and LOOT if a corpse near the hero holds an item it may take.
std::vector<int> legal_trade_act(Game& g, int unit, int /*a*/, int /*b*/) {
    std::vector<int> acts{END};
    if (!g.state.received[unit] && room_for_one(g, unit) && !corpse_items(g, unit).empty()) acts.push_back(LOOT);
    return acts;
}

// ITEM_k for the items the hero may give now: it gave nothing yet and a hero may receive.
std::vector<int> giving_items(Game& g, int unit, int /*a*/, int /*b*/) {
    if (g.state.gave[unit] || receivers(g, unit).empty()) return {};
    return items::item_actions(g, unit, IN_TRADE);
}

void do_trade_act(Game& g, int unit, int /*a*/, int /*b*/, int action) {
    State& s = g.state;
    if (action == END) {
        if (!s.act_todo.empty() && s.act_todo.front() == unit) s.act_todo.erase(s.act_todo.begin());
    } else if (action == LOOT) {
        g.push(Decision::CHOOSE_TARGET, unit, TARGET_LOOT, -1);
    }
}

// GIVE: the item goes to the chosen receiver (R-TRADE-01/02).
void give_to(Game& g, int unit, int item, int to) {
    State& s = g.state;
    inventory::give(g, item, to);
    s.gave[unit] = true;
    s.received[to] = true;
    g.log(Value::obj(
        {{"type", "trade"}, {"from", g.label(unit)}, {"to", g.label(to)}, {"item", item}, {"turn", s.turn}}));
}

// LOOT: the chosen (corpse, item)'s item goes to the looter, which counts as its receive (R-TRADE-04,
//
void loot(Game& g, int unit, std::pair<int, int> found) {
    State& s = g.state;
    const auto [corpse, item] = found;
    inventory::give(g, item, unit);
    s.received[unit] = true;
    g.log(Value::obj(
        {{"type", "loot"}, {"unit", g.label(unit)}, {"corpse", g.label(corpse)}, {"item", item}, {"turn", s.turn}}));
}

}  // namespace dungeon_core::trade
