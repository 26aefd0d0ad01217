// Items in play: which items may be used or identified now, using them, identifying (IDENT). The port
// of dungeon_env/engine/items.py (the reference). The decks, slots and holders are `inventory`.
#include "rules/items.hpp"

#include <algorithm>

#include "rules/board.hpp"
#include "rules/effects.hpp"
#include "rules/inventory.hpp"
#include "rules/spells.hpp"
#include "rules/units.hpp"

namespace dungeon_core::items {

namespace {

int moment_index(const std::string& when) {
    for (int i = 0; i < 4; ++i) {
        if (when == ITEM_MOMENTS[i]) return i;
    }
    throw std::invalid_argument("items: '" + when + "' is not an item moment");
}

// A hero on the board that is not surprised may use items (R-SURP-06).
bool may_act(Game& g, int h) {
    const State& s = g.state;
    return h < s.n_heroes && s.unit_status[h] == ACTIVE && !s.surprised[h];
}

}  // namespace

// ---------------------------------------------------------------------------------------- legality

// USE is legal for this item now (timing A-58; R-IDENT-05/06; scrolls follow their spell).
bool can_use(Game& g, int h, int item, const std::string& when) {
    const State& s = g.state;
    const ItemCard& card = inventory::card_of(g, item);
    const bool known = s.item_known[item];
    if (card.deck == "spells") return spells::can_cast_scroll(g, h, item, when);
    if (when != IN_MOVEMENT && when != IN_EVASION && when != IN_EXPLORE) return false;
    if (!known) return card.deck == "potions";  // unidentified: potions may be drunk, magic items not
    if (card.use == "passive" || !card.effect || card.timing == "campaign") return false;
    if (card.timing == IN_EXPLORE && when != IN_EXPLORE) return false;
    if (!effects::usable_now(g, card.effect)) return false;  // no trap detection in combat (R-TRAP-08)
    return !(card.use == "reusable" && s.item_used_turn[item] == s.turn);
}

// A Learned hero, once per Explore phase, an unidentified item not locked by a 1 (R-IDENT-02).
bool can_identify(Game& g, int h, int item) {
    const State& s = g.state;
    return units::has_trait(g, h, "learned") && !s.identified[h] && !s.item_known[item] && !s.item_locked[item];
}

std::vector<int> item_verbs(Game& g, int h, int item, const std::string& when) {
    const State& s = g.state;
    if (when == IN_TRADE) return s.gave[h] ? std::vector<int>{} : std::vector<int>{GIVE};
    if (!may_act(g, h)) return {};
    std::vector<int> verbs;
    if (can_use(g, h, item, when)) verbs.push_back(USE);
    if (when == IN_EXPLORE) {
        if (spells::can_memorize(g, h, item)) verbs.push_back(MEMORIZE);
        if (can_identify(g, h, item)) verbs.push_back(IDENTIFY);
    }
    return verbs;
}

// ITEM_k for each item the hero holds that some verb applies to now (k = its place in `held`),
// except an item it went BACK from in this phase. In the Trade phase every held item, if the hero
// has not given one yet (the `trade` module offers them only when there is someone to give to).
std::vector<int> item_actions(Game& g, int h, const std::string& when) {
    std::vector<int> out;
    const bool hero = h < g.state.n_heroes;
    const std::vector<int> items = inventory::held(g, h);
    for (size_t k = 0; k < items.size() && k < static_cast<size_t>(MAX_ITEMS_HELD); ++k) {
        if (!item_verbs(g, h, items[k], when).empty() && !(hero && g.state.declined_item(h, items[k]))) {
            out.push_back(ITEM_0 + static_cast<int>(k));
        }
    }
    return out;
}

// BACK: the hero changes its mind about the picked item; nothing happens, and the item is not
// offered to it again in this phase (so every phase still ends, ruling D-08b).
void decline(Game& g, int h, int item) {
    g.state.declined_item(h, item) = true;
    g.log(Value::obj({{"type", "back"}, {"unit", g.label(h)}, {"item", item}, {"turn", g.state.turn}}));
}

// The hero picked its k-th item (ITEM_k): ask what to do with it.
void pick_item(Game& g, int h, int k, const std::string& when) {
    g.push(Decision::ITEM_VERB, h, inventory::held(g, h).at(k), moment_index(when));
}

// The verbs that apply to the picked item now, and always BACK (picking never commits the hero to
// losing it: issue "destructive single choices", ruling D-08b).
std::vector<int> legal_item_verb(Game& g, int unit, int a, int b) {
    std::vector<int> verbs = item_verbs(g, unit, a, ITEM_MOMENTS[b]);
    verbs.push_back(BACK);
    std::sort(verbs.begin(), verbs.end());
    return verbs;
}

void do_item_verb(Game& g, int unit, int a, int b, int action) {
    const std::string when = ITEM_MOMENTS[b];
    if (action == BACK) {
        decline(g, unit, a);
    } else if (action == GIVE) {
        g.push(Decision::CHOOSE_TARGET, unit, TARGET_GIVE, a);
    } else if (action == IDENTIFY) {
        identify(g, unit, a);
    } else if (action == MEMORIZE) {
        spells::memorize(g, unit, a);
    } else {
        use_item(g, unit, a, when);
    }
}

// ------------------------------------------------------------------------------------------- actions

// Identify roll (R-IDENT-03): 1 never (locked until the adventure ends, A-43), 2-3 not yet, 4-6
// identified (rules.identify_never_max, rules.identify_min); an identify_bonus ability adds (ruling
// D-A3). Breaks Rest.
void identify(Game& g, int h, int item) {
    State& s = g.state;
    s.identified[h] = true;
    s.acted[h] = true;
    const int never = g.rules().identify_never_max, identified = g.rules().identify_min;
    auto result = [&](int total) -> std::string {
        return total <= never ? "never" : (total < identified ? "not_yet" : "identified");
    };
    const int total = g.check("identify", g.label(h), MISC, effects::check_modifiers(g, h, "identify"), result);
    if (total <= never) {
        s.item_locked[item] = true;
    } else if (total >= identified) {
        inventory::reveal(g, item, "identify");
    }
}

// Use an item (A-58; breaks Rest). An unidentified potion or scroll is revealed and its true effect
// resolves; one whose effect cannot apply now (a revival elixir) stays, revealed.
void use_item(Game& g, int h, int item, const std::string& when) {
    State& s = g.state;
    s.acted[h] = true;
    const ItemCard& card = inventory::card_of(g, item);
    if (card.deck == "spells") {
        spells::cast_scroll(g, h, item, when);
        return;
    }
    const bool known = s.item_known[item];
    inventory::reveal(g, item, "use");
    if (card.timing == "campaign" || (card.timing == IN_EXPLORE && when != IN_EXPLORE)) {
        g.log(Value::obj({{"type", "item_wasted"},
                          {"unit", g.label(h)},
                          {"item", item},
                          {"card", card.id},
                          {"turn", s.turn}}));
        return;
    }
    if (known && card.target == "ally" && item_targets(g, h).size() > 1) {
        g.push(Decision::CHOOSE_TARGET, h, TARGET_ITEM, item);
        return;
    }
    finish_use(g, h, item, h);
}

// Who an ally item held by `h` may be used on: the holder and the heroes next to it.
std::vector<int> item_targets(Game& g, int h) { return board::heroes_beside(g, h); }

void finish_use(Game& g, int h, int item, int target) {
    State& s = g.state;
    const ItemCard& card = inventory::card_of(g, item);
    const bool aimed = card.target != "none";
    g.log(Value::obj({{"type", "item_used"},
                      {"unit", g.label(h)},
                      {"item", item},
                      {"card", card.id},
                      {"target", aimed ? Value(g.label(target)) : Value()},
                      {"turn", s.turn}}));
    if (card.use == "consumable") {
        inventory::destroy(g, item);
    } else {
        s.item_used_turn[item] = static_cast<int16_t>(s.turn);
    }
    effects::apply_effect(g, card.effect.value(), "item:" + card.id, aimed ? target : h, h);
}

}  // namespace dungeon_core::items
