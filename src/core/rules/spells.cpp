// Spells: selection (2.1), casting while fighting, resolution (2.5), Overcast, other casting times,
// scrolls, memorizing and forgetting (SPELL); Mental Combat spells go through `mental`. The port of
// dungeon_env/engine/spells.py (the reference: its docstring lists the rules in force).
#include "rules/spells.hpp"

#include <algorithm>
#include <tuple>

#include "pursuit.hpp"
#include "rules/casting.hpp"
#include "rules/effects.hpp"
#include "rules/inventory.hpp"
#include "rules/mental.hpp"
#include "rules/units.hpp"
#include "rules/visibility.hpp"

namespace dungeon_core::spells {

namespace {

// the Casting lines a combat turn has moments of
const std::vector<std::string> COMBAT_TURN_CASTING = {"combat", "any", "movement"};

const Spell& spell_card(Game& g, int sp) { return g.content->spells[sp]; }

int moment_index(const std::string& when) {
    for (int i = 0; i < 3; ++i) {
        if (when == SPELL_MOMENTS[i]) return i;
    }
    throw std::invalid_argument("spells: '" + when + "' is not a spell moment");
}

// tables.path_distances(g.tables, [here], s.door_open): orthogonal path distance through open
// passages, occupants ignored
std::vector<int32_t> path_distances(Game& g, int here) {
    const auto* open = reinterpret_cast<const bool*>(g.state.door_open.data());
    return distance_field(g.tables().board, open, nullptr, {here}, UNREACHABLE, -1);
}

void land(Game& g, bool lands);

// The spell is cast: Magic paid (none from a scroll, R-SPELL-03/08), the scroll destroyed
// (R-SPELL-02); a Mental Combat spell then fights for its effect.
void pay(Game& g) {
    State& s = g.state;
    const int h = s.cast[CAST_CASTER], sp = s.cast[CAST_SPELL], item = s.cast[CAST_ITEM];
    const int mode = s.cast[CAST_MODE], target = s.cast[CAST_TARGET];
    const Spell& spell = spell_card(g, sp);
    const int cost = item >= 0 ? 0 : spell.level;
    s.magic[h] = static_cast<int16_t>(s.magic[h] - cost);
    if (item >= 0) inventory::destroy(g, item);
    g.log(Value::obj({{"type", "cast"},
                      {"unit", g.label(h)},
                      {"spell", spell.id},
                      {"mode", mode == OVERCAST_MODE ? "overcast" : "normal"},
                      {"target", target >= 0 ? Value(g.label(target)) : Value()},
                      {"magic", cost},
                      {"scroll", item >= 0},
                      {"turn", s.turn}}));
    if (spell.mental) {
        mental::start(g, h, target, mental::PURPOSE_SPELL);
    } else {
        land(g, true);
    }
}

void land(Game& g, bool lands) {
    State& s = g.state;
    const Row cast = s.cast;
    const int h = cast[CAST_CASTER], sp = cast[CAST_SPELL], item = cast[CAST_ITEM];
    const int mode = cast[CAST_MODE], target = cast[CAST_TARGET];
    s.cast.clear();
    const Spell& spell = spell_card(g, sp);
    if (lands) {
        const Effect& effect = mode == OVERCAST_MODE ? spell.overcast.value() : spell.effect;
        effects::apply_effect(g, effect, "spell:" + spell.id, target >= 0 ? target : h, h);
    }
    if (mode == OVERCAST_MODE && s.outcome.empty()) backlash(g, h, sp, item);
}

// Checks made as the spell resolves, then the Overcast choice (CAST_MODE).
void start(Game& g, int h, int sp, int item, const std::string& when) {
    State& s = g.state;
    const Spell& spell = spell_card(g, sp);
    if (item >= 0 && !s.item_known[item]) {
        inventory::reveal(g, item, "cast");  // an unidentified scroll shows its spell (R-SPELL-14)
    }
    const char* reason = nullptr;
    if (!fits(spell, when)) {
        reason = "timing";  // an unidentified scroll read at the wrong moment: revealed, kept
    } else if (effects::spell_in_play(g, sp)) {
        reason = "in_play";
    } else if (item < 0 && s.magic[h] < spell.level) {
        reason = "magic";  // Magic spent since the selection
    }
    if (reason) {
        g.log(Value::obj({{"type", "spell_fail"},
                          {"unit", g.label(h)},
                          {"spell", spell.id},
                          {"reason", reason},
                          {"turn", s.turn}}));
        return;
    }
    s.cast = {h, sp, item, -1, -1, moment_index(when)};
    g.push(Decision::CAST_MODE, h, sp, item);
}

}  // namespace

// ------------------------------------------------------------------------------------------ queries

// The spell's Casting field allows this moment (R-SPELL-10). In a combat turn (IN_COMBAT: begun at
// 2.1, resolved at 2.5) every spell whose Casting names a moment that turn has, combat, any or
// movement, is cast that way (ruling D-M2, revised 2026-12-06); the Explore phase is skipped in
// combat (R-TURN-12), so an Explore spell waits for the monsters to be gone.
bool fits(const Spell& spell, const std::string& when) {
    if (when == IN_COMBAT) {
        return std::find(COMBAT_TURN_CASTING.begin(), COMBAT_TURN_CASTING.end(), spell.casting) !=
               COMBAT_TURN_CASTING.end();
    }
    return spell.casting == "any" || spell.casting == when;
}

// A spell may be cast to resolve at once (Movement, Explore) only outside combat: while any monster
// is on the board every spell is begun at Spell Selection (2.1) and resolved at 2.5 (ruling D-M2
// revised 2026-12-06, checklist section F).
bool at_once_allowed(Game& g, const std::string& when) { return when == IN_COMBAT || !units::any_monster(g); }

std::vector<int> known(Game& g, int h) {
    State& s = g.state;
    std::vector<int> out;
    for (int sp = 0; sp < s.n_spells() && static_cast<int>(out.size()) < MAX_SPELLS_KNOWN; ++sp) {
        if (s.knows(h, sp)) out.push_back(sp);
    }
    return out;
}

bool may_cast(Game& g, int h) {
    const State& s = g.state;
    return s.unit_status[h] == ACTIVE && !s.surprised[h] && s.spell_turn[h] != s.turn;
}

// Heroes (ally, in seat order) or monsters (enemy, in the order they came on the board: by uid)
// within range by path distance and in line of sight; at most the 10 nearest.
std::vector<int> targets(Game& g, int h, int sp) {
    const State& s = g.state;
    const Spell& spell = spell_card(g, sp);
    if (spell.target == "self") return {h};
    if (spell.target == "none") return {};
    const int side = spell.target == "ally" ? SIDE_HERO : SIDE_MONSTER;
    const int here = s.unit_pos[h];
    std::vector<int> units;
    for (int u = 0; u < MAX_UNITS; ++u) {
        if (s.unit_status[u] == ACTIVE && s.unit_side[u] == side) units.push_back(u);
    }
    if (spell.range == 0) {
        return std::find(units.begin(), units.end(), h) != units.end() ? std::vector<int>{h} : std::vector<int>{};
    }
    const std::vector<int32_t> dist = path_distances(g, here);
    std::vector<std::tuple<int, int, int>> near;  // (distance, order, unit)
    for (int u : units) {
        const int pos = s.unit_pos[u];
        if (dist[pos] <= spell.range && visibility::sees(g, here, pos)) {
            near.emplace_back(dist[pos], side == SIDE_HERO ? u : s.unit_uid[u], u);
        }
    }
    std::stable_sort(near.begin(), near.end());
    if (near.size() > static_cast<size_t>(MAX_TARGETS)) near.resize(MAX_TARGETS);
    std::stable_sort(near.begin(), near.end(),
                     [](const auto& x, const auto& y) { return std::get<1>(x) < std::get<1>(y); });
    std::vector<int> out;
    for (const auto& row : near) out.push_back(std::get<2>(row));
    return out;
}

// The spell could be begun now: its timing, the recast ban, Magic (not for a scroll) and, cast at
// once (not in combat, where targets are chosen in 2.5), a target in reach.
bool castable(Game& g, int h, int sp, const std::string& when, bool scroll) {
    const Spell& spell = spell_card(g, sp);
    if (!fits(spell, when) || effects::spell_in_play(g, sp) || !at_once_allowed(g, when)) return false;
    if (!effects::usable_now(g, spell.effect)) return false;  // no trap detection in combat (R-TRAP-08)
    if (!scroll && g.state.magic[h] < spell.level) return false;
    return when == IN_COMBAT || spell.target != "enemy" || !targets(g, h, sp).empty();
}

int spell_level_total(Game& g, int h) {
    int total = 0;
    for (int sp : known(g, h)) total += spell_card(g, sp).level;
    return total;
}

// ----------------------------------------------------------------------- Movement and Explore casting

// SPELL_k for each known spell the hero may do something with now (in the Explore phase each may at
// least be forgotten), except one it went BACK from in this phase.
std::vector<int> spell_actions(Game& g, int h, const std::string& when) {
    State& s = g.state;
    std::vector<int> out;
    const std::vector<int> spells = known(g, h);
    if (when == IN_EXPLORE) {
        if (s.unit_status[h] != ACTIVE || s.surprised[h]) return {};
        for (size_t k = 0; k < spells.size(); ++k) {
            if (!s.declined_spell(h, spells[k])) out.push_back(SPELL_0 + static_cast<int>(k));
        }
        return out;
    }
    if (!may_cast(g, h)) return {};
    for (size_t k = 0; k < spells.size(); ++k) {
        if (castable(g, h, spells[k], when, false)) out.push_back(SPELL_0 + static_cast<int>(k));
    }
    return out;
}

// In the Movement phase cast it now; in the Explore phase ask what to do with it (SPELL_VERB).
void pick_spell(Game& g, int h, int k, const std::string& when) {
    const int sp = known(g, h).at(k);
    if (when == IN_EXPLORE) {
        g.push(Decision::SPELL_VERB, h, sp);
    } else {
        begin_cast(g, h, sp, -1, when);
    }
}

// FORGET, USE if it can be cast now, and always BACK: a spell that cannot be cast here is never
// forgotten by picking it (ruling D-08b).
std::vector<int> legal_spell_verb(Game& g, int unit, int a, int /*b*/) {
    std::vector<int> verbs = {FORGET, BACK};
    if (may_cast(g, unit) && castable(g, unit, a, IN_EXPLORE, false)) verbs.push_back(USE);
    std::sort(verbs.begin(), verbs.end());
    return verbs;
}

void do_spell_verb(Game& g, int unit, int a, int /*b*/, int action) {
    if (action == USE) {
        begin_cast(g, unit, a, -1, IN_EXPLORE);
    } else if (action == BACK) {
        g.state.declined_spell(unit, a) = 1;
        g.log(Value::obj({{"type", "back"},
                          {"unit", g.label(unit)},
                          {"spell", spell_card(g, a).id},
                          {"turn", g.state.turn}}));
    } else {
        forget(g, unit, a, "choice");
    }
}

// The spell card is discarded: gone for the rest of the adventure (R-SPELL-07, A-21).
void forget(Game& g, int h, int sp, const std::string& reason) {
    g.state.knows(h, sp) = 0;
    g.log(Value::obj({{"type", "forget"},
                      {"unit", g.label(h)},
                      {"spell", spell_card(g, sp).id},
                      {"reason", reason},
                      {"turn", g.state.turn}}));
}

// -------------------------------------------------------------------------------- scrolls, memorize

int scroll_spell(Game& g, int item) { return g.content->spell_index.at(inventory::card_of(g, item).spell.value()); }

// A scroll is read at its spell's moments; an unidentified one at any spell moment (its spell is not
// known yet, R-SPELL-14).
bool can_cast_scroll(Game& g, int h, int item, const std::string& when) {
    const bool moment = std::find(std::begin(SPELL_MOMENTS), std::end(SPELL_MOMENTS), when) != std::end(SPELL_MOMENTS);
    if (!moment || !may_cast(g, h) || !at_once_allowed(g, when)) return false;
    if (!g.state.item_known[item]) return true;
    return castable(g, h, scroll_spell(g, item), when, true);
}

void cast_scroll(Game& g, int h, int item, const std::string& when) {
    begin_cast(g, h, scroll_spell(g, item), item, when);
}

// Explore phase only (the caller's), one a phase, an identified scroll, a spell not known yet, and
// the total level within base Magic (R-SPELL-04/06, R-SPELL-14, A-21, A-22).
bool can_memorize(Game& g, int h, int item) {
    State& s = g.state;
    const ItemCard& card = inventory::card_of(g, item);
    if (card.deck != "spells" || !s.item_known[item] || s.memorized[h] || s.base_magic[h] <= 0) return false;
    const int sp = g.content->spell_index.at(card.spell.value());
    if (s.knows(h, sp) || static_cast<int>(known(g, h).size()) >= g.rules().max_spells) return false;
    return spell_level_total(g, h) + spell_card(g, sp).level <= s.base_magic[h];
}

void memorize(Game& g, int h, int item) {
    State& s = g.state;
    const int sp = scroll_spell(g, item);
    s.knows(h, sp) = 1;
    s.memorized[h] = true;
    s.acted[h] = true;
    inventory::destroy(g, item);
    g.log(Value::obj({{"type", "memorize"},
                      {"unit", g.label(h)},
                      {"spell", spell_card(g, sp).id},
                      {"item", item},
                      {"turn", s.turn}}));
}

// ---------------------------------------------------------------------------- 2.1 Spell Selection

// 2.1: monsters held by a sleep effect will skip their movement; then each hero that may begin a
// combat spell (or read a scroll) is asked, hero_0 first.
void begin_spell_selection(Game& g) {
    State& s = g.state;
    for (const Row& row : s.effects) {
        if (row[EFFECT_KIND] == effects::SLEEP && effects::live(g, row)) s.skip_move[row[EFFECT_UNIT]] = true;
    }
    for (int h = s.n_heroes - 1; h >= 0; --h) {
        if (!selection_options(g, h).empty()) g.push(Decision::SPELL_SELECT, h);
    }
}

void resume_spell_selection(Game& g) { g.goto_phase(Phase::MONSTER_MOVEMENT); }

std::vector<int> selection_options(Game& g, int h) {
    if (!may_cast(g, h)) return {};
    std::vector<int> opts;
    const std::vector<int> spells = known(g, h);
    for (size_t k = 0; k < spells.size(); ++k) {
        if (castable(g, h, spells[k], IN_COMBAT, false)) opts.push_back(SPELL_0 + static_cast<int>(k));
    }
    const std::vector<int> items = inventory::held(g, h);
    for (size_t k = 0; k < items.size() && k < static_cast<size_t>(MAX_ITEMS_HELD); ++k) {
        if (inventory::card_of(g, items[k]).deck == "spells" && can_cast_scroll(g, h, items[k], IN_COMBAT)) {
            opts.push_back(ITEM_0 + static_cast<int>(k));
        }
    }
    return opts;
}

std::vector<int> legal_spell_select(Game& g, int unit, int /*a*/, int /*b*/) {
    std::vector<int> out = {END};
    for (int option : selection_options(g, unit)) out.push_back(option);
    std::sort(out.begin(), out.end());
    return out;
}

// The hero begins casting one spell (R-CTS-02): it resolves in 2.5 unless it fails first.
void do_spell_select(Game& g, int unit, int /*a*/, int /*b*/, int action) {
    State& s = g.state;
    if (action == END) return;
    int sp, item;
    if (action >= SPELL_0) {
        sp = known(g, unit).at(action - SPELL_0);
        item = -1;
    } else {
        item = inventory::held(g, unit).at(action - ITEM_0);
        sp = scroll_spell(g, item);
    }
    s.casting_spell[unit] = static_cast<int16_t>(sp);
    s.casting_item[unit] = static_cast<int16_t>(item);
    s.spell_turn[unit] = static_cast<int16_t>(s.turn);
    s.acted[unit] = true;
    g.log(Value::obj({{"type", "spell_select"},
                      {"unit", g.label(unit)},
                      {"spell", item < 0 || s.item_known[item] ? Value(spell_card(g, sp).id) : Value()},
                      {"item", item >= 0 ? Value(item) : Value()},
                      {"turn", s.turn}}));
}

// The selected spell fails: no effect, no Magic paid, the scroll kept (R-SPELL-13).
void fail(Game& g, int h, const std::string& reason) { casting::fail_spell(g, h, reason); }

// ----------------------------------------------------------------------- 2.4 casting while fighting

// Each casting hero in a Fight chooses before its first Fight's dice, hero_0 first.
void ask_cast_while_fighting(Game& g) {
    const State& s = g.state;
    for (int h = s.n_heroes - 1; h >= 0; --h) {
        if (s.casting_spell[h] >= 0 && s.fought[h]) g.push(Decision::CAST_WHILE_FIGHTING, h);
    }
}

std::vector<int> legal_cast_while_fighting(Game& /*g*/, int /*unit*/, int /*a*/, int /*b*/) {
    return {KEEP_CASTING, LET_FAIL};
}

// KEEP_CASTING: every Fight this phase on double ones (R-FIGHT-10); LET_FAIL: the spell fails.
void do_cast_while_fighting(Game& g, int unit, int /*a*/, int /*b*/, int action) {
    State& s = g.state;
    if (action == KEEP_CASTING) {
        s.double_ones[unit] = true;
        g.log(Value::obj({{"type", "keep_casting"}, {"unit", g.label(unit)}, {"turn", s.turn}}));
    } else {
        fail(g, unit, "let_fail");
    }
}

// ----------------------------------------------------------------------------- 2.5 Spell Resolution

// 2.5: first the Mind Lash of monsters with Mental Combat (`mental`), then each hero's spell that did
// not fail, hero_0 first.
void begin_spell_resolution(Game& g) {
    g.state.mind_queue = mental::lashers(g);
    resume_spell_resolution(g);
}

void resume_spell_resolution(Game& g) {
    State& s = g.state;
    while (s.outcome.empty()) {
        if (!s.stack.empty()) return;
        if (!s.mind_queue.empty()) {
            const int m = s.mind_queue.front();
            s.mind_queue.erase(s.mind_queue.begin());
            mental::monster_attack(g, m);
            continue;
        }
        int caster = -1;
        for (int h = 0; h < s.n_heroes && caster < 0; ++h) {
            if (s.casting_spell[h] >= 0) caster = h;
        }
        if (caster < 0) break;
        resolve_selected(g, caster);
    }
    if (s.outcome.empty()) g.goto_phase(units::any_monster(g) ? Phase::TURN_END : Phase::EXPLORE);
}

void resolve_selected(Game& g, int h) {
    State& s = g.state;
    const int sp = s.casting_spell[h], item = s.casting_item[h];
    if (s.unit_status[h] != ACTIVE || (item >= 0 && s.item_holder[item] != h)) {
        fail(g, h, "gone");
        return;
    }
    s.casting_spell[h] = s.casting_item[h] = -1;
    start(g, h, sp, item, IN_COMBAT);
}

// ------------------------------------------------------------------------------------------ casting

// Cast now, outside 2.1/2.5 (Movement or Explore phase): it counts as the hero's spell of the turn
// and breaks Rest.
void begin_cast(Game& g, int h, int sp, int item, const std::string& when) {
    State& s = g.state;
    s.spell_turn[h] = static_cast<int16_t>(s.turn);
    s.acted[h] = true;
    start(g, h, sp, item, when);
}

std::vector<int> legal_cast_mode(Game& g, int /*unit*/, int a, int /*b*/) {
    if (spell_card(g, a).overcast) return {NORMAL_CAST, OVERCAST};
    return {NORMAL_CAST};
}

void do_cast_mode(Game& g, int unit, int a, int /*b*/, int action) {
    State& s = g.state;
    s.cast[CAST_MODE] = action == OVERCAST ? OVERCAST_MODE : NORMAL;
    const Spell& spell = spell_card(g, a);
    if (spell.target == "self" || spell.target == "none") {
        s.cast[CAST_TARGET] = spell.target == "self" ? unit : -1;
        pay(g);
        return;
    }
    if (targets(g, unit, a).empty()) {
        s.cast.clear();
        g.log(Value::obj({{"type", "spell_fail"},
                          {"unit", g.label(unit)},
                          {"spell", spell.id},
                          {"reason", "no_target"},
                          {"turn", s.turn}}));
        return;
    }
    g.push(Decision::CHOOSE_TARGET, unit, TARGET_SPELL, a);
}

// The caster chose the target of the spell it is casting (a CHOOSE_TARGET among
// `targets(g, unit, sp)`): the spell is cast.
void cast_at(Game& g, int /*unit*/, int /*sp*/, int target) {
    g.state.cast[CAST_TARGET] = target;
    pay(g);
}

// A Mental Combat spell's duel is decided: the effect lands on a win, or on a tie if the spell says
// ties favour the caster.
void after_mental(Game& g, int /*caster*/, int /*target*/, int result) {
    const Spell& spell = spell_card(g, g.state.cast[CAST_SPELL]);
    land(g, result == mental::AGGRESSOR_WINS || (result == mental::TIE && spell.mental_tie == "caster"));
}

// After an Overcast, d6: 1 the spell is forgotten (from a scroll: the scroll is simply gone), 2-5 the
// caster loses Health equal to the level under the Death's Door rules, 6 nothing (R-SPELL-11/12,
//
void backlash(Game& g, int h, int sp, int item) {
    if (g.state.unit_status[h] != ACTIVE) return;
    const Spell& spell = spell_card(g, sp);
    const int forget_max = g.rules().overcast_forget_max, safe = g.rules().overcast_safe_min;
    auto result = [&](int total) -> std::string {
        return total <= forget_max ? "forget" : (total < safe ? "wound" : "none");
    };
    const int total = g.check("overcast", g.label(h), MISC, Mods{}, result);
    if (total <= forget_max) {
        if (item < 0) forget(g, h, sp, "overcast");
    } else if (total < safe) {
        units::hurt_hero(g, h, spell.level, "overcast:" + spell.id);
        units::check_corpses(g);
        if (units::active_heroes(g).empty()) g.check_end();
    }
}

// ----------------------------------------------------------------------------------- adventure end

// The adventure is over: memorized spell cards are discarded (R-SPELL-05, R-END-04) and ongoing
// effects end. Starting spells come back with the next adventure's set-up.
void end_adventure(Game& g) {
    State& s = g.state;
    for (int h = 0; h < s.n_heroes; ++h) {
        for (int sp : known(g, h)) {
            g.log(Value::obj({{"type", "spell_discarded"},
                              {"unit", g.label(h)},
                              {"spell", spell_card(g, sp).id},
                              {"turn", s.turn}}));
        }
    }
    std::fill(s.spell_known.begin(), s.spell_known.end(), 0);
    s.casting_spell.fill(-1);
    s.casting_item.fill(-1);
    s.effects.clear();
}

}  // namespace dungeon_core::spells
