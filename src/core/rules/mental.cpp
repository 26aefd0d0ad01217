// Mental Combat (MENT) and the monsters' Mind Lash: the port of dungeon_env/engine/mental.py (its
// module docstring documents the bids, state.mental's row and the purposes).
#include "rules/mental.hpp"

#include <algorithm>
#include <tuple>

#include "pursuit.hpp"
#include "rules/effects.hpp"
#include "rules/units.hpp"
#include "rules/visibility.hpp"

namespace dungeon_core::mental {

namespace {

constexpr const char* ABILITY = "mental_combat";

}  // namespace

void start(Game& g, int aggressor, int defender, int purpose) {
    g.state.mental = {aggressor, defender, -1, purpose};
    g.push(Decision::MENTAL_BID, aggressor, defender, -1);
}

std::vector<int> legal_bid(Game& g, int unit, int /*a*/, int /*b*/) {
    std::vector<int> out;
    const int top = std::min(g.rules().mental_bid_max, static_cast<int>(g.state.magic[unit]));
    for (int k = 0; k <= top; ++k) out.push_back(SPEND_0 + k);
    return out;
}

std::optional<std::array<int, 4>> do_bid(Game& g, int unit, int a, int b, int action) {
    State& s = g.state;
    const int bid = action - SPEND_0;
    s.magic[unit] = static_cast<int16_t>(s.magic[unit] - bid);  // paid whatever the outcome (R-MENT-02)
    if (b < 0) {
        s.mental[MENTAL_BID] = bid;
        g.push(Decision::MENTAL_BID, a, unit, bid);
        return std::nullopt;
    }
    const int purpose = s.mental[MENTAL_PURPOSE];
    s.mental.clear();
    return std::array<int, 4>{purpose, a, unit, roll(g, a, unit, b, bid)};
}

Mods modifiers(Game& g, int u, int bid) {
    Mods mods;
    if (u < g.state.n_heroes && units::has_trait(g, u, "iron_willed")) mods.emplace_back("iron_willed", 1);  // R-MENT-04
    if (bid) mods.emplace_back("magic", bid);
    return mods;
}

int roll(Game& g, int a, int b, int a_bid, int b_bid) {
    const Mods a_mods = modifiers(g, a, a_bid), b_mods = modifiers(g, b, b_bid);
    const int a_die = g.dice.d6(MISC);
    const int b_die = g.dice.d6(MISC);
    const int a_score = mods_total(a_mods), b_score = mods_total(b_mods);
    const int a_total = a_die + a_score, b_total = b_die + b_score;
    const int result = a_total > b_total ? AGGRESSOR_WINS : (b_total > a_total ? DEFENDER_WINS : TIE);
    const Value winner = result == AGGRESSOR_WINS   ? Value(g.label(a))
                         : result == DEFENDER_WINS ? Value(g.label(b))
                                                   : Value();
    g.log(Value::obj({{"type", "mental"},
                      {"a", g.label(a)},
                      {"b", g.label(b)},
                      {"a_dice", std::vector<int>{a_die}},
                      {"b_dice", std::vector<int>{b_die}},
                      {"a_modifiers", mods_value(a_mods)},
                      {"b_modifiers", mods_value(b_mods)},
                      {"a_score", a_score},
                      {"b_score", b_score},
                      {"a_total", a_total},
                      {"b_total", b_total},
                      {"winner", winner},
                      {"turn", g.state.turn}}));
    return result;
}

// ------------------------------------------------------------------------------------------- Mind Lash

std::vector<int> lashers(Game& g) {
    const State& s = g.state;
    std::vector<int> out;
    for (int m : units::active_monsters(g)) {
        const std::vector<std::string>& abilities = g.monster_card(m).abilities;
        if (std::find(abilities.begin(), abilities.end(), ABILITY) != abilities.end() && !s.inactive[m] &&
            !effects::asleep(g, m)) {
            out.push_back(m);
        }
    }
    return out;
}

int lash_target(Game& g, int m) {
    const State& s = g.state;
    const int reach = g.rules().lash_range;
    const int here = s.unit_pos[m];
    // path distance: tables.path_distances
    const std::vector<int32_t> dist = distance_field(g.tables().board, reinterpret_cast<const bool*>(s.door_open.data()),
                                                     nullptr, {here}, UNREACHABLE, -1);
    std::vector<std::tuple<int, int, int>> near;  // (distance, square, hero): the least is the nearest
    for (int h : units::active_heroes(g)) {
        const int sq = s.unit_pos[h];
        if (dist[sq] <= reach && visibility::sees(g, here, sq)) near.emplace_back(dist[sq], sq, h);
    }
    return near.empty() ? -1 : std::get<2>(*std::min_element(near.begin(), near.end()));
}

void monster_attack(Game& g, int m) {
    const State& s = g.state;
    if (s.unit_status[m] != ACTIVE) return;
    const int h = lash_target(g, m);
    if (h < 0) return;
    g.log(Value::obj(
        {{"type", "mind_lash"}, {"unit", g.label(m)}, {"target", g.label(h)}, {"turn", s.turn}}));
    start(g, m, h, PURPOSE_LASH);
}

void lash_lands(Game& g, int m, int h, int result) {
    if (result != AGGRESSOR_WINS) return;
    units::hurt_hero(g, h, g.rules().lash_damage, g.label(m), {g.label(m)});
    units::check_corpses(g);
    if (units::active_heroes(g).empty()) g.check_end();
}

}  // namespace dungeon_core::mental
