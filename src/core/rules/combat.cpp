// The Fighting phase (FIGHT, DMG): who fights whom, Stamina declarations, the rolls, and
// simultaneous damage. The port of dungeon_env/engine/combat.py (its reference).
//
// `state.fights` holds one row per Fight in resolution order:
// [monster, hero, monster stamina, hero stamina, winner] with winner -1 unresolved, 0 nobody (a tie),
// 1 the hero, 2 the monster.
#include "rules/combat.hpp"

#include <algorithm>

#include "rules/board.hpp"
#include "rules/effects.hpp"
#include "rules/spells.hpp"
#include "rules/units.hpp"

namespace dungeon_core::combat {

namespace {

enum { UNRESOLVED = -1, TIE = 0, HERO_WON = 1, MONSTER_WON = 2 };

// mods.update(more)
void mods_update(Mods& mods, const Mods& more) {
    for (const auto& m : more) mods_set(mods, m.first, m.second);
}

// The DM declares the monster's Stamina first, then the hero: the hero's question is pushed
// first so that the DM's is on top of the stack.
void ask_stamina(Game& g) {
    const Row& row = g.state.fights[g.state.fight_index];
    const int hero = row[FIGHT_HERO], monster = row[FIGHT_MONSTER];
    g.push(Decision::FIGHT_STAMINA, hero);
    g.push(Decision::FIGHT_STAMINA, monster);
}

}  // namespace

// Every hero fights every monster orthogonally adjacent to it with no wall or closed door between
// them (R-FIGHT-01). Order: monster square, then hero square, in reading order.
std::vector<Row> gather_fights(Game& g) {
    const State& s = g.state;
    std::vector<Row> fights;
    for (int m : units::active_monsters(g)) {
        const int sq = s.unit_pos[m];
        std::vector<int> heroes;
        for (int d = 0; d < 4; ++d) {
            const int next = board::open_side(g, sq, d);
            if (next < 0) continue;
            const int u = s.occupant[next];
            if (u >= 0 && s.unit_side[u] == SIDE_HERO && s.unit_status[u] == ACTIVE) heroes.push_back(u);
        }
        std::stable_sort(heroes.begin(), heroes.end(), [&s](int a, int b) { return s.unit_pos[a] < s.unit_pos[b]; });
        for (int h : heroes) fights.push_back({m, h, 0, 0, UNRESOLVED});
    }
    return fights;
}

std::map<int, int> enemy_counts(const std::vector<Row>& fights) {
    std::map<int, int> counts;
    for (const Row& row : fights) {
        ++counts[row[FIGHT_MONSTER]];
        ++counts[row[FIGHT_HERO]];
    }
    return counts;
}

// Set up the phase's Fights; returns false if there are none.
bool begin_fighting(Game& g) {
    State& s = g.state;
    s.fights = gather_fights(g);
    s.fight_index = 0;
    for (const Row& row : s.fights) s.fought[row[FIGHT_MONSTER]] = s.fought[row[FIGHT_HERO]] = true;
    if (s.fights.empty()) return false;
    ask_stamina(g);
    spells::ask_cast_while_fighting(g);  // casters in a Fight choose first
    return true;
}

std::vector<int> legal_fight_stamina(Game& g, int u) {
    const State& s = g.state;
    if (s.exhausted[u]) return {SPEND_0};
    // SPEND_ACTIONS[: min(fight_stamina_max, stamina) + 1], with Python's slice bounds
    constexpr int n_spend = 4;
    int stop = std::min(g.rules().fight_stamina_max, static_cast<int>(s.stamina[u])) + 1;
    if (stop < 0) stop += n_spend;
    stop = std::max(0, std::min(n_spend, stop));
    std::vector<int> acts;
    for (int k = 0; k < stop; ++k) acts.push_back(SPEND_0 + k);
    return acts;
}

void do_fight_stamina(Game& g, int u, int action) {
    State& s = g.state;
    const int amount = action - SPEND_0;
    Row& row = s.fights[s.fight_index];
    units::spend_stamina(g, u, amount);
    if (u == row[FIGHT_MONSTER]) {
        row[FIGHT_M_SPEND] = amount;
        return;
    }
    row[FIGHT_H_SPEND] = amount;
    resolve_fight(g, row);
    s.fight_index += 1;
    if (s.fight_index < static_cast<int>(s.fights.size())) {
        ask_stamina(g);
    } else {
        apply_fight_damage(g);
    }
}

// -1 per enemy beyond the first (rules.enemy_penalty), surprised -1, Light 0 -1
// (light.dark_penalty), items and effects, Stamina spent.
Mods hero_modifiers(Game& g, int h, int enemies, int spend) {
    const State& s = g.state;
    const Rules& r = g.rules();
    Mods mods;
    if (enemies > 1 && r.enemy_penalty) mods_set(mods, "enemies", -(enemies - 1) * r.enemy_penalty);
    if (s.surprised[h]) mods_set(mods, "surprised", -1);
    if (s.light == 0 && r.light_dark_penalty) mods_set(mods, "light", -r.light_dark_penalty);
    mods_update(mods, effects::fight_modifiers(g, h));
    if (spend) mods_set(mods, "stamina", spend);
    return mods;
}

Mods monster_modifiers(Game& g, int m, int enemies, int spend) {
    Mods mods;
    if (enemies > 1 && g.rules().enemy_penalty) mods_set(mods, "enemies", -(enemies - 1) * g.rules().enemy_penalty);
    mods_update(mods, effects::fight_modifiers(g, m));
    if (spend) mods_set(mods, "stamina", spend);
    return mods;
}

// Each side rolls 2d6 + modified Fighting Score; higher total wins, ties go to a Strong hero,
// otherwise nobody wins (R-FIGHT-06..08).
void resolve_fight(Game& g, Row& row) {
    State& s = g.state;
    std::map<int, int> counts = enemy_counts(s.fights);
    const int m = row[FIGHT_MONSTER], h = row[FIGHT_HERO];
    const Mods h_mods = hero_modifiers(g, h, counts[h], row[FIGHT_H_SPEND]);
    const Mods m_mods = monster_modifiers(g, m, counts[m], row[FIGHT_M_SPEND]);
    std::vector<int> h_dice{1, 1};  // keeps casting (R-FIGHT-10)
    if (!s.double_ones[h]) {
        h_dice[0] = g.dice.d6(COMBAT);
        h_dice[1] = g.dice.d6(COMBAT);
    }
    std::vector<int> m_dice(2);
    m_dice[0] = g.dice.d6(COMBAT);
    m_dice[1] = g.dice.d6(COMBAT);
    const int h_score = s.base_fight[h] + mods_total(h_mods);
    const int m_score = s.base_fight[m] + mods_total(m_mods);
    const int h_total = h_dice[0] + h_dice[1] + h_score, m_total = m_dice[0] + m_dice[1] + m_score;
    if (h_total > m_total || (h_total == m_total && units::has_trait(g, h, "strong"))) {
        row[FIGHT_WINNER] = HERO_WON;
    } else if (m_total > h_total) {
        row[FIGHT_WINNER] = MONSTER_WON;
    } else {
        row[FIGHT_WINNER] = TIE;
    }
    const Value winner = row[FIGHT_WINNER] == HERO_WON      ? Value(g.label(h))
                         : row[FIGHT_WINNER] == MONSTER_WON ? Value(g.label(m))
                                                            : Value();
    g.log(Value::obj({{"type", "fight"},
                      {"a", g.label(h)},
                      {"b", g.label(m)},
                      {"a_dice", h_dice},
                      {"b_dice", m_dice},
                      {"a_modifiers", mods_value(h_mods)},
                      {"b_modifiers", mods_value(m_mods)},
                      {"a_score", h_score},
                      {"b_score", m_score},
                      {"a_total", h_total},
                      {"b_total", m_total},
                      {"winner", winner},
                      {"turn", s.turn}}));
}

// All Fight damage lands together after the last Fight (R-DMG-01..05): each winner deals its Damage
// to each enemy it beat; every creature that damaged a casualty shares the kill. The step is
// simultaneous (R-DMG-10, A-14): only a hero already at 0 when it began rolls an extra Death's Door
// die, once per Fight it lost.
void apply_fight_damage(Game& g) {
    State& s = g.state;
    std::map<int, bool> down_before;
    for (const Row& row : s.fights) down_before[row[FIGHT_HERO]] = s.health[row[FIGHT_HERO]] == 0;
    std::map<int, std::vector<std::string>> damagers;
    for (const Row& row : s.fights) {
        if (row[FIGHT_WINNER] == HERO_WON) {
            damagers[row[FIGHT_MONSTER]].push_back(g.label(row[FIGHT_HERO]));
        } else if (row[FIGHT_WINNER] == MONSTER_WON) {
            damagers[row[FIGHT_HERO]].push_back(g.label(row[FIGHT_MONSTER]));
        }
    }
    // the rows as they stand (what hurt_hero sets off never reaches them)
    const std::vector<Row> fights = s.fights;
    for (const Row& row : fights) {
        if (row[FIGHT_WINNER] == HERO_WON) {
            const int m = row[FIGHT_MONSTER];
            const int amount = effects::damage_of(g, row[FIGHT_HERO], m);
            s.health[m] = static_cast<int16_t>(s.health[m] - amount);
            g.log(Value::obj({{"type", "damage"},
                              {"unit", g.label(m)},
                              {"amount", amount},
                              {"source", g.label(row[FIGHT_HERO])},
                              {"health", static_cast<int>(s.health[m])},
                              {"turn", s.turn}}));
        } else if (row[FIGHT_WINNER] == MONSTER_WON) {
            const int h = row[FIGHT_HERO];
            const int amount = effects::damage_of(g, row[FIGHT_MONSTER], h);
            units::hurt_hero(g, h, amount, g.label(row[FIGHT_MONSTER]), damagers[h], down_before[h]);
        }
    }
    for (int m : units::active_monsters(g)) {
        if (s.health[m] <= 0) {
            auto found = damagers.find(m);
            units::slay_monster(g, m, found == damagers.end() ? std::vector<std::string>{} : found->second);
        }
    }
    s.fights.clear();
    s.fight_index = 0;
    units::check_corpses(g);
    if (units::active_heroes(g).empty()) g.check_end();
}

}  // namespace dungeon_core::combat
