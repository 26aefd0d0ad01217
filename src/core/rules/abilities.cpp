// Hero abilities (R-BOARD-04): using an Active ability, its target, its limits. The port of
// dungeon_env/engine/abilities.py (Passive abilities are read by effects' modifier hooks).
#include "rules/abilities.hpp"

#include <algorithm>

#include "rules/board.hpp"
#include "rules/effects.hpp"
#include "rules/units.hpp"

namespace dungeon_core::abilities {

namespace {

bool is_active(const Ability& ability) { return ability.use == "active"; }

// The hero's own abilities, read in place on its card: the first MAX_ABILITIES of the card's (none
// for a monster). card_abilities is their copy.
struct Own {
    const Ability* first = nullptr;
    int count = 0;
};
Own own_abilities(Game& g, int h) {
    const State& s = g.state;
    if (h >= s.n_heroes) return {};
    const std::vector<Ability>& all = g.content->heroes.at(s.unit_card[h]).abilities;
    return {all.data(), static_cast<int>(std::min<size_t>(all.size(), MAX_ABILITIES))};
}

// _MOMENT_OF_PHASE: the moment an ability chosen in this phase is used in ("" in no other phase)
std::string moment_of_phase(int phase) {
    if (phase == Phase::HERO_MOVEMENT) return IN_MOVEMENT;
    if (phase == Phase::EVASION) return IN_EVASION;
    if (phase == Phase::EXPLORE) return IN_EXPLORE;
    return "";
}

void land(Game& g, int h, int k, int target, const std::string& when) {
    State& s = g.state;
    const Ability ability = card_abilities(g, h).at(k);
    s.acted[h] = true;  // using an ability is an activity: no Rest this turn (R-REST-02)
    s.uses(h, k) = static_cast<int16_t>(s.uses(h, k) + 1);
    s.used_turn(h, k) = static_cast<int16_t>(s.turn);
    g.log(Value::obj({{"type", "ability"},
                      {"unit", g.label(h)},
                      {"ability", ability.id},
                      {"name", ability.name},
                      {"target", ability.target != "none" ? Value(g.label(target)) : Value()},
                      {"when", when},
                      {"turn", s.turn}}));
    effects::apply_effect(g, ability.effect, "ability:" + ability.id, target, h);
}

}  // namespace

std::vector<Ability> card_abilities(Game& g, int h) {
    const Own own = own_abilities(g, h);
    return {own.first, own.first + own.count};
}

bool ready(Game& g, int h, int k) {
    const Own own = own_abilities(g, h);
    if (k >= own.count || !is_active(own.first[k])) return false;
    const Ability& ability = own.first[k];
    State& s = g.state;
    if (ability.limit == "turn") return static_cast<int>(s.used_turn(h, k)) != s.turn;
    return static_cast<int>(s.uses(h, k)) < ability.uses;
}

std::vector<std::pair<int, int>> ready_pairs(Game& g) {
    State& s = g.state;
    std::vector<std::pair<int, int>> out;
    for (int h = 0; h < s.n_heroes; ++h) {
        if (s.unit_status[h] != ACTIVE) continue;
        const std::vector<Ability>& all = g.content->heroes.at(s.unit_card[h]).abilities;
        for (int k = 0; k < static_cast<int>(all.size()) && k < MAX_ABILITIES; ++k) {
            const Ability& ability = all[k];
            if (ability.use != "active") continue;
            const bool left = ability.limit == "turn" ? s.used_turn(h, k) != s.turn : s.uses(h, k) < ability.uses;
            if (left) out.emplace_back(h, k);
        }
    }
    return out;
}

std::vector<int> ability_actions(Game& g, int h, const std::string& when) {
    const State& s = g.state;
    std::vector<int> out;
    if (h >= s.n_heroes || s.unit_status[h] != ACTIVE || s.surprised[h]) return out;
    const Own own = own_abilities(g, h);
    for (int k = 0; k < own.count; ++k) {
        const Ability& ability = own.first[k];
        if (is_active(ability) && std::find(ability.when.begin(), ability.when.end(), when) != ability.when.end() &&
            ready(g, h, k) && effects::usable_now(g, ability.effect)) {
            out.push_back(ABILITY_0 + k);
        }
    }
    return out;
}

void use(Game& g, int h, int k, const std::string& when) {
    const Ability ability = card_abilities(g, h).at(k);
    if (ability.target == "ally" && targets(g, h).size() > 1) {
        g.push(Decision::CHOOSE_TARGET, h, TARGET_ABILITY, k);
        return;
    }
    land(g, h, k, h, when);
}

std::vector<int> targets(Game& g, int h) { return board::heroes_beside(g, h); }

void land_on(Game& g, int unit, int k, int target) { land(g, unit, k, target, moment_of_phase(g.state.phase)); }

}  // namespace dungeon_core::abilities
