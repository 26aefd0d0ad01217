// Decision routing: the port of dungeon_env/engine/decisions.py, the one table of who lists the
// legal actions of each kind of decision, who applies one, and who the candidates of a target
// choice are.
//
// A pending decision is [kind, unit, a, b] (STACK_* columns): its kind, the figure it is about, and
// two ints of context whose meaning belongs to the kind. A kind is a Route of Parts, one per
// mechanic that has a share in it: a hero's Movement is its steps (movement), hand-offs (turn),
// items, spells and abilities usable in Movement. The legal list is the union of the parts' lists,
// sorted (a one-part route's list as the part gives it); an action is applied by the part that
// owns it. HERO_ACT is asked in two phases: the Explore phase's actions, or the Trade phase's.
// CHOOSE_TARGET's `a` says what is being targeted (TARGET_SPELL...). A Mental Combat (MENTAL_BID)
// ends in the continuation of its purpose: a spell lands or fails, a Mind Lash hurts or not.
#include "rules/decisions.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <stdexcept>

#include "rules/abilities.hpp"
#include "rules/combat.hpp"
#include "rules/explore.hpp"
#include "rules/items.hpp"
#include "rules/mental.hpp"
#include "rules/movement.hpp"
#include "rules/spells.hpp"
#include "rules/trade.hpp"
#include "rules/traps.hpp"
#include "rules/turn.hpp"

namespace dungeon_core::decisions {

namespace {

using Legal = std::function<std::vector<int>(Game&, int unit, int a, int b)>;
using Apply = std::function<void(Game&, int unit, int a, int b, int action)>;

std::vector<int> span(int first, int count) {
    std::vector<int> out(count);
    std::iota(out.begin(), out.end(), first);
    return out;
}

std::vector<int> join(std::vector<int> a, const std::vector<int>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// One mechanic's share of a decision: the actions it may offer, its legal list, its apply.
struct Part {
    std::vector<int> actions;
    Legal legal;
    Apply apply;
};

// A kind of decision made of parts whose actions do not overlap.
class Route {
public:
    explicit Route(std::vector<Part> parts) : parts_(std::move(parts)) {
        owner_.fill(-1);
        for (size_t p = 0; p < parts_.size(); ++p) {
            for (int action : parts_[p].actions) {
                if (owner_[action] >= 0) {
                    throw std::logic_error("action " + std::to_string(action) + " has two owners in one decision");
                }
                owner_[action] = static_cast<int>(p);
            }
        }
    }

    std::vector<int> legal(Game& g, int unit, int a, int b) const {
        std::vector<int> acts = parts_[0].legal(g, unit, a, b);
        for (size_t p = 1; p < parts_.size(); ++p) {
            std::vector<int> more = parts_[p].legal(g, unit, a, b);
            acts.insert(acts.end(), more.begin(), more.end());
        }
        if (parts_.size() > 1) std::sort(acts.begin(), acts.end());  // (equal ints: a stable sort's order)
        return acts;
    }

    void apply(Game& g, int unit, int a, int b, int action) const {
        int p = action >= 0 && action < N_ACTIONS ? owner_[action] : -1;
        if (p < 0) throw std::logic_error("action " + std::to_string(action) + " has no owner in this decision");
        parts_[p].apply(g, unit, a, b, action);
    }

private:
    std::vector<Part> parts_;
    std::array<int, N_ACTIONS> owner_;
};

Route alone(Legal legal, Apply apply, std::vector<int> actions = span(0, N_ACTIONS)) {
    return Route({Part{std::move(actions), std::move(legal), std::move(apply)}});
}

// ------------------------------------------------------------------------ the shared parts of a turn

// The k-th of the hero's items, spells or abilities (actions[k]) picked at `moment`; in the hero's
// own Movement or Evasion a pick counts as having acted there (state.progress).
using Offered = std::vector<int> (*)(Game&, int, const std::string&);
using Pick = void (*)(Game&, int, int, const std::string&);

Part numbered(std::vector<int> actions, Offered offered, Pick pick, std::string moment, bool progress) {
    int first = actions.front();
    return Part{std::move(actions),
                [offered, moment](Game& g, int u, int, int) { return offered(g, u, moment); },
                [pick, moment, progress, first](Game& g, int u, int, int, int action) {
                    if (progress) g.state.progress = true;
                    pick(g, u, action - first, moment);
                }};
}

// ITEM_k: pick the k-th item to use it (then a verb, maybe a target).
Part items_part(const std::string& moment, bool progress = false) {
    return numbered(span(ITEM_0, MAX_ITEMS_HELD), items::item_actions, items::pick_item, moment, progress);
}

// SPELL_k: pick the k-th spell the hero knows.
Part spells_part(const std::string& moment, bool progress = false) {
    return numbered(span(SPELL_0, MAX_SPELLS_KNOWN), spells::spell_actions, spells::pick_spell, moment, progress);
}

// ABILITY_k: use the k-th ability of the hero's card.
Part abilities_part(const std::string& moment, bool progress = false) {
    return numbered(span(ABILITY_0, MAX_ABILITIES), abilities::ability_actions, abilities::use, moment, progress);
}

Part handoffs_part() {
    return Part{span(HANDOFF_0, MAX_HEROES), [](Game& g, int u, int, int) { return turn::handoffs(g, u); },
                [](Game& g, int, int, int, int action) { turn::handoff(g, action - HANDOFF_0); }};
}

const std::vector<int> MOVE_ACTIONS = span(MOVE_N, 4);

Route hero_move_route() {
    std::vector<int> own = join(join(join(MOVE_ACTIONS, span(JUMP_N, 4)), span(DRAG_N, 4)), {EXTRA_MOVE, END});
    return Route({Part{own, [](Game& g, int u, int, int) { return movement::legal_hero_move(g, u); },
                       [](Game& g, int u, int, int, int action) { movement::do_hero_move(g, u, action); }},
                  handoffs_part(), items_part(IN_MOVEMENT, true), spells_part(IN_MOVEMENT, true),
                  abilities_part(IN_MOVEMENT, true)});
}

Route hero_evade_route() {
    return Route({Part{join(MOVE_ACTIONS, {END}), [](Game& g, int u, int, int) { return movement::legal_evade(g, u); },
                       [](Game& g, int u, int, int, int action) { movement::do_evade(g, u, action); }},
                  handoffs_part(), items_part(IN_EVASION, true), abilities_part(IN_EVASION, true)});
}

Route explore_act_route() {
    return Route({Part{{END}, [](Game&, int, int, int) { return std::vector<int>{END}; },
                       [](Game& g, int u, int, int, int) { explore::end_acts(g, u); }},
                  items_part(IN_EXPLORE), spells_part(IN_EXPLORE), abilities_part(IN_EXPLORE)});
}

Route trade_act_route() {
    return Route({Part{{END, LOOT}, trade::legal_trade_act, trade::do_trade_act},
                  Part{span(ITEM_0, MAX_ITEMS_HELD), trade::giving_items,
                       [](Game& g, int u, int, int, int action) { items::pick_item(g, u, action - ITEM_0, IN_TRADE); }}});
}

const Route& act_route(Game& g) {
    static const Route explore_act = explore_act_route(), trade_act = trade_act_route();
    return g.state.phase == Phase::TRADE ? trade_act : explore_act;
}

// ---------------------------------------------------------------------------------- target choices

// The candidates of one purpose of CHOOSE_TARGET (in TARGET_k order; (figure, -1) for a figure).
std::vector<std::pair<int, int>> figures(const std::vector<int>& units) {
    std::vector<std::pair<int, int>> out;
    out.reserve(units.size());
    for (int u : units) out.emplace_back(u, -1);
    return out;
}

// Python's TARGETS[a].candidates(g, unit, b)
std::vector<std::pair<int, int>> candidates(Game& g, int unit, int a, int b) {
    switch (a) {
        case TARGET_SPELL: return figures(spells::targets(g, unit, b));
        case TARGET_ITEM: return figures(items::item_targets(g, unit));
        case TARGET_GIVE: return figures(trade::receivers(g, unit));
        case TARGET_LOOT: return trade::corpse_items(g, unit);
        case TARGET_ABILITY: return figures(abilities::targets(g, unit));
        default: throw std::logic_error("choose_target: no purpose " + std::to_string(a));
    }
}

// Python's TARGETS[a].choose(g, unit, b, candidate)
void choose(Game& g, int unit, int a, int b, std::pair<int, int> candidate) {
    switch (a) {
        case TARGET_SPELL: spells::cast_at(g, unit, b, candidate.first); break;
        case TARGET_ITEM: items::finish_use(g, unit, b, candidate.first); break;
        case TARGET_GIVE: trade::give_to(g, unit, b, candidate.first); break;
        case TARGET_LOOT: trade::loot(g, unit, candidate); break;
        case TARGET_ABILITY: abilities::land_on(g, unit, b, candidate.first); break;
        default: throw std::logic_error("choose_target: no purpose " + std::to_string(a));
    }
}

// giving an item away always offers BACK too (ruling D-08b)
bool has_back(int a) { return a == TARGET_GIVE; }

std::vector<int> legal_target(Game& g, int unit, int a, int b) {
    size_t n = candidates(g, unit, a, b).size();
    std::vector<int> acts;
    for (size_t k = 0; k < n; ++k) acts.push_back(TARGET_0 + static_cast<int>(k));
    if (has_back(a)) acts.push_back(BACK);
    return acts;
}

void target(Game& g, int unit, int a, int b, int action) {
    if (action == BACK) {
        if (!has_back(a)) throw std::logic_error("choose_target: BACK is not an option of purpose " + std::to_string(a));
        items::decline(g, unit, b);  // TARGET_GIVE's back
    } else {
        choose(g, unit, a, b, candidates(g, unit, a, b).at(action - TARGET_0));
    }
}

// ---------------------------------------------------------------------------------- Mental Combat

void mental_bid(Game& g, int unit, int a, int b, int action) {
    std::optional<std::array<int, 4>> duel = mental::do_bid(g, unit, a, b, action);
    if (!duel) return;
    auto [purpose, aggressor, defender, result] = *duel;
    switch (purpose) {  // Python's MENTAL_OUTCOMES
        case mental::PURPOSE_SPELL: spells::after_mental(g, aggressor, defender, result); break;
        case mental::PURPOSE_LASH: mental::lash_lands(g, aggressor, defender, result); break;
        default: throw std::logic_error("mental combat: no purpose " + std::to_string(purpose));
    }
}

// ------------------------------------------------------------------------------------------ the table

std::vector<Route> make_routes() {
    std::vector<Route> r;
    r.reserve(Decision::N_DECISIONS);
    r.push_back(hero_move_route());   // HERO_MOVE
    r.push_back(hero_evade_route());  // HERO_EVADE
    r.push_back(alone([](Game& g, int u, int, int) { return movement::legal_monster_move(g, u); },
                      [](Game& g, int u, int, int, int action) { movement::do_monster_move(g, u, action); }));
    r.push_back(alone([](Game& g, int u, int, int) { return combat::legal_fight_stamina(g, u); },
                      [](Game& g, int u, int, int, int action) { combat::do_fight_stamina(g, u, action); }));
    r.push_back(alone(spells::legal_spell_select, spells::do_spell_select));                // SPELL_SELECT
    r.push_back(alone(spells::legal_cast_while_fighting, spells::do_cast_while_fighting));  // CAST_WHILE_FIGHTING
    r.push_back(alone(spells::legal_cast_mode, spells::do_cast_mode));                      // CAST_MODE
    r.push_back(alone(legal_target, target));                                               // CHOOSE_TARGET
    r.push_back(alone(mental::legal_bid, mental_bid));                                      // MENTAL_BID
    r.push_back(alone(explore::legal_explore_choice, explore::do_explore_choice));          // EXPLORE_CHOICE
    r.push_back(alone(explore::legal_event_choice, explore::do_event_choice));              // EVENT_CHOICE
    r.push_back(alone(explore::legal_claim, explore::do_claim));                            // CLAIM_ITEM
    r.push_back(alone([](Game& g, int u, int a, int b) { return act_route(g).legal(g, u, a, b); },  // HERO_ACT
                      [](Game& g, int u, int a, int b, int action) { act_route(g).apply(g, u, a, b, action); }));
    r.push_back(alone(items::legal_item_verb, items::do_item_verb));    // ITEM_VERB
    r.push_back(alone(spells::legal_spell_verb, spells::do_spell_verb));  // SPELL_VERB
    r.push_back(alone(traps::legal_disarm, traps::do_disarm, join(span(DISARM_N, 4), {END})));  // DISARM
    return r;
}

const Route& route(int kind) {
    static const std::vector<Route> routes = make_routes();
    if (kind < 0 || kind >= static_cast<int>(routes.size())) {
        throw std::logic_error("no decision kind " + std::to_string(kind));
    }
    return routes[kind];
}

}  // namespace

std::vector<std::pair<int, int>> target_candidates(Game& g, int unit, int a, int b) {
    return candidates(g, unit, a, b);
}

std::vector<int> legal(Game& g, int kind, int unit, int a, int b) { return route(kind).legal(g, unit, a, b); }

void apply(Game& g, int kind, int unit, int a, int b, int action) { route(kind).apply(g, unit, a, b, action); }

}  // namespace dungeon_core::decisions
