// Structured effects of spells, items, traps and room events, and the bonuses they give: the port of
// dungeon_env/engine/effects.py (its module docstring documents the contract and the lasting rows:
// [unit, kind index (EFFECT_KINDS), amount, turns left, source, unit uid]).
#include "rules/effects.hpp"

#include <algorithm>
#include <stdexcept>

#include "pursuit.hpp"
#include "rules/units.hpp"
#include "rules/visibility.hpp"

namespace dungeon_core::effects {

namespace {

// content/model.py's EFFECT_KINDS: a lasting row's kind is the index here
const std::array<const char*, 18> EFFECT_KINDS = {
    "damage",       "heal",         "stamina",      "magic",        "light",
    "fight_bonus",  "move_bonus",   "damage_bonus", "detect_traps", "sleep",
    "revive",       "treasure",     "armour",       "jump_bonus",   "door_bonus",
    "disarm_bonus", "detect_bonus", "identify_bonus"};

constexpr int OTHER = -1000;            // the source of a lasting effect from a trap or a room event
constexpr int ABILITY_SOURCE = -2000;   // an Active ability's lasting effect: ABILITY_SOURCE - its index

int kind_index(const std::string& kind) {  // KIND[kind]
    for (size_t i = 0; i < EFFECT_KINDS.size(); ++i) {
        if (kind == EFFECT_KINDS[i]) return static_cast<int>(i);
    }
    throw std::out_of_range("effects: unknown effect kind '" + kind + "'");
}

// CHECK_KINDS: the die checks item and ability bonuses add to, and the kind each reads
const char* check_kind(const std::string& check) {
    if (check == "jump") return "jump_bonus";
    if (check == "open_door") return "door_bonus";
    if (check == "disarm") return "disarm_bonus";
    if (check == "detect_traps" || check == "room_detect") return "detect_bonus";
    if (check == "identify") return "identify_bonus";
    return nullptr;
}

bool holds(Game& g, int u, const std::string& condition) {
    const State& s = g.state;
    if (condition == "outnumbered") {
        int n = 0;
        for (const Row& row : s.fights) n += row[FIGHT_HERO] == u;
        return n >= 2;
    }
    if (condition == "wounded") return 2 * static_cast<int>(s.health[u]) <= static_cast<int>(s.base_health[u]);
    return true;
}

int bonus(Game& g, int u, const std::string& kind) {
    int total = 0;
    for (const auto& c : carried(g, u, kind)) total += c.second;
    for (const auto& c : innate(g, u, kind)) total += c.second;
    const int k = kind_index(kind);
    for (const Row& row : rows_of(g, u)) {
        if (row[EFFECT_KIND] == k) total += row[EFFECT_AMOUNT];
    }
    return total;
}

// The squares the Light-0 penalty (light.dark_penalty) took from the allowance of every hero still in
// its Movement (not done: not surprised, not finished) come back.
void give_back_dark_squares(Game& g) {
    State& s = g.state;
    const int penalty = g.rules().light_dark_penalty;
    for (int h : units::active_heroes(g)) {
        if (!s.move_done[h]) {
            const int allowance = static_cast<int>(s.base_move[h]) + move_bonus(g, h);
            s.move_left[h] = static_cast<int16_t>(s.move_left[h] + std::max(0, allowance) -
                                                  std::max(0, allowance - penalty));
        }
    }
}

void damage(Game& g, int amount, const std::string& source, int target, int by) {
    State& s = g.state;
    if (target < s.n_heroes) {
        const std::vector<std::string> killers{by >= 0 ? g.label(by) : source};
        units::hurt_hero(g, target, amount, source, killers);
        units::check_corpses(g);
        if (units::active_heroes(g).empty()) g.check_end();
        return;
    }
    s.health[target] = static_cast<int16_t>(s.health[target] - amount);
    g.log(Value::obj({{"type", "damage"},
                      {"unit", g.label(target)},
                      {"amount", amount},
                      {"source", by >= 0 ? g.label(by) : source},
                      {"health", static_cast<int>(s.health[target])},
                      {"turn", s.turn}}));
    if (s.health[target] <= 0) {
        units::slay_monster(g, target, {by >= 0 ? g.label(by) : source});
        g.check_end();
    }
}

void gain(Game& g, const Effect& effect, const std::string& source, int target) {
    State& s = g.state;
    if (effect.kind == "heal") {
        units::heal(g, target, effect.amount);
        return;
    }
    if (effect.kind == "stamina") {
        units::gain_stamina(g, target, effect.amount);
    } else {
        s.magic[target] = static_cast<int16_t>(
            std::min(static_cast<int>(s.base_magic[target]), static_cast<int>(s.magic[target]) + effect.amount));
    }
    g.log(Value::obj({{"type", effect.kind},  // "stamina" / "magic": a gain
                      {"unit", g.label(target)},
                      {"amount", effect.amount},
                      {"stamina", static_cast<int>(s.stamina[target])},
                      {"magic", static_cast<int>(s.magic[target])},
                      {"source", source},
                      {"turn", s.turn}}));
}

void lasting(Game& g, const Effect& effect, const std::string& source, int target) {
    State& s = g.state;
    add_lasting(g, effect, source, target);
    if (effect.kind == "move_bonus" && s.phase == Phase::HERO_MOVEMENT && !s.move_done[target]) {
        s.move_left[target] = static_cast<int16_t>(std::max(0, s.move_left[target] + effect.amount));  // counts at once
    }
    if (effect.kind == "sleep" && (s.phase == Phase::SPELL_SELECTION || s.phase == Phase::MONSTER_MOVEMENT)) {
        s.skip_move[target] = true;
    }
}

}  // namespace

// ------------------------------------------------------------------------------------------- sources

int source_code(Game& g, const std::string& source) {
    const size_t colon = source.find(':');
    const std::string kind = source.substr(0, colon);
    const std::string name = colon == std::string::npos ? "" : source.substr(colon + 1);
    const Content& c = *g.content;
    if (kind == "spell") {
        auto it = c.spell_index.find(name);
        if (it != c.spell_index.end()) return it->second;
    }
    if (kind == "item") {
        auto it = c.item_index.find(name);
        if (it != c.item_index.end()) return -1 - it->second;
    }
    if (kind == "ability") {
        for (const auto& code : ability_codes(c.heroes)) {
            if (code.first == name) return ABILITY_SOURCE - code.second;
        }
    }
    return OTHER;
}

std::string source_name(Game& g, int code) {
    const Content& c = *g.content;
    if (code >= 0) return "spell:" + c.spells.at(code).id;
    if (code <= ABILITY_SOURCE) return "ability:" + ability_codes(c.heroes).at(ABILITY_SOURCE - code).first;
    if (code != OTHER) return "item:" + c.item_cards.at(-1 - code).id;
    return "effect";
}

Mods ability_codes(const std::vector<HeroCard>& heroes) {
    Mods codes;
    int i = 0;
    for (const HeroCard& hero : heroes) {
        for (const Ability& a : hero.abilities) mods_set(codes, a.id, i++);
    }
    return codes;
}

// -------------------------------------------------------------------------------------- lasting rows

bool live(Game& g, const std::vector<int>& row) {
    const State& s = g.state;
    const int u = row[EFFECT_UNIT];
    return s.unit_status[u] == ACTIVE && s.unit_uid[u] == row[EFFECT_UID];
}

std::vector<Row> rows_of(Game& g, int u) {
    std::vector<Row> out;
    for (const Row& row : g.state.effects) {
        if (row[EFFECT_UNIT] == u && live(g, row)) out.push_back(row);
    }
    return out;
}

bool spell_in_play(Game& g, int spell) {
    for (const Row& row : g.state.effects) {
        if (row[EFFECT_SOURCE] == spell && live(g, row)) return true;
    }
    return false;
}

bool asleep(Game& g, int u) {
    for (const Row& row : rows_of(g, u)) {
        if (row[EFFECT_KIND] == SLEEP) return true;
    }
    return false;
}

void add_lasting(Game& g, const Effect& effect, const std::string& source, int target) {
    State& s = g.state;
    const int turns = effect.duration + 1;  // the rest of this turn, then `duration` more turns
    s.effects.push_back({target, kind_index(effect.kind), effect.amount, turns, source_code(g, source),
                         static_cast<int>(s.unit_uid[target])});
    g.log(Value::obj({{"type", "effect_starts"},
                      {"unit", g.label(target)},
                      {"kind", effect.kind},
                      {"amount", effect.amount},
                      {"turns", effect.duration},
                      {"source", source},
                      {"turn", s.turn}}));
}

void tick(Game& g) {
    State& s = g.state;
    std::vector<Row> kept;
    for (Row& row : s.effects) {
        if (!live(g, row)) continue;
        row[EFFECT_TURNS] -= 1;
        if (row[EFFECT_TURNS] > 0) {
            kept.push_back(row);
            continue;
        }
        g.log(Value::obj({{"type", "effect_ends"},
                          {"unit", g.label(row[EFFECT_UNIT])},
                          {"kind", EFFECT_KINDS.at(row[EFFECT_KIND])},
                          {"source", source_name(g, row[EFFECT_SOURCE])},
                          {"turn", s.turn}}));
    }
    s.effects = std::move(kept);
}

// ---------------------------------------------------------------------------------------- carried items

std::vector<std::pair<std::string, int>> carried(Game& g, int u, const std::string& kind) {
    const State& s = g.state;
    std::vector<std::pair<std::string, int>> out;
    if (u >= s.n_heroes) return out;
    for (int slot = 0; slot < MAX_ITEMS; ++slot) {
        if (s.item_holder[slot] != u || !s.item_known[slot]) continue;
        const ItemCard& card = g.content->item_cards.at(s.item_card[slot]);
        if (card.use == "passive" && card.effect && card.effect->kind == kind) {
            out.emplace_back(card.id, card.effect->amount);
        }
    }
    return out;
}

std::vector<std::pair<std::string, int>> innate(Game& g, int u, const std::string& kind) {
    const State& s = g.state;
    std::vector<std::pair<std::string, int>> out;
    if (u >= s.n_heroes) return out;
    for (const Ability& ability : g.content->heroes.at(s.unit_card[u]).abilities) {
        if (ability.use == "passive" && ability.effect.kind == kind && holds(g, u, ability.condition)) {
            out.emplace_back(ability.id, ability.effect.amount);
        }
    }
    return out;
}

// ------------------------------------------------------------------------------------------ the hooks

Mods fight_modifiers(Game& g, int u) {
    Mods mods;
    for (const auto& c : carried(g, u, "fight_bonus")) mods_add(mods, "item:" + c.first, c.second);
    for (const auto& c : innate(g, u, "fight_bonus")) mods_set(mods, "ability:" + c.first, c.second);
    for (const Row& row : rows_of(g, u)) {
        if (row[EFFECT_KIND] == FIGHT || row[EFFECT_KIND] == SLEEP) {
            const int amount = row[EFFECT_KIND] == FIGHT ? row[EFFECT_AMOUNT] : -row[EFFECT_AMOUNT];
            mods_add(mods, source_name(g, row[EFFECT_SOURCE]), amount);
        }
    }
    Mods out;
    for (const auto& m : mods) {
        if (m.second) out.push_back(m);
    }
    return out;
}

int damage_of(Game& g, int u, int target) {
    int damage = static_cast<int>(g.state.base_damage[u]) + bonus(g, u, "damage_bonus");
    if (target >= 0) damage -= bonus(g, target, "armour");
    return std::max(1, damage);
}

int move_bonus(Game& g, int u) { return bonus(g, u, "move_bonus"); }

Mods check_modifiers(Game& g, int u, const std::string& check) {
    Mods mods;
    const char* kind = check_kind(check);
    if (!kind) return mods;
    for (const auto& c : carried(g, u, kind)) mods_add(mods, "item:" + c.first, c.second);
    for (const auto& c : innate(g, u, kind)) mods_set(mods, "ability:" + c.first, c.second);
    return mods;
}

// ----------------------------------------------------------------------------------- applying effects

bool usable_now(Game& g, const std::optional<Effect>& effect) {
    return !effect || effect->kind != "detect_traps" || !units::any_monster(g);
}

void raise_light(Game& g, int amount, const std::string& source) {
    State& s = g.state;
    const int before = s.light;
    s.light = std::min(g.rules().light_max, s.light + amount);
    if (before == 0 && s.light > 0 && s.phase == Phase::HERO_MOVEMENT) give_back_dark_squares(g);
    g.log(Value::obj({{"type", "light_raised"},
                      {"amount", s.light - before},
                      {"light", s.light},
                      {"source", source},
                      {"turn", s.turn}}));
}

std::vector<int> detect_traps_near(Game& g, int u, int radius, const std::string& source) {
    State& s = g.state;
    const std::vector<Trap>& traps = g.adventure().traps;
    std::vector<int> found;
    if (traps.empty() || s.unit_pos[u] < 0) return found;
    const int here = s.unit_pos[u];
    // path distance: tables.path_distances
    const std::vector<int32_t> dist = distance_field(g.tables().board, reinterpret_cast<const bool*>(s.door_open.data()),
                                                     nullptr, {here}, UNREACHABLE, -1);
    Value squares = Value::empty_list();
    for (size_t i = 0; i < traps.size(); ++i) {
        const int sq = Game::square(traps[i].at);
        if (s.trap_armed[i] && !s.trap_detected[i] && dist[sq] <= radius && visibility::sees(g, here, sq)) {
            s.trap_detected[i] = 1;
            found.push_back(static_cast<int>(i));
            squares.push(Value::pair(traps[i].at[0], traps[i].at[1]));
        }
    }
    g.log(Value::obj({{"type", "traps_detected"},
                      {"unit", g.label(u)},
                      {"squares", squares},
                      {"source", source},
                      {"turn", s.turn}}));
    return found;
}

void apply_effect(Game& g, const Effect& effect, const std::string& source, int target, int by) {
    const std::string& kind = effect.kind;
    if (kind == "light") {
        raise_light(g, effect.amount, source);
        return;
    }
    // treasure has no use in play; revival is the campaign's (items of timing "campaign")
    if (kind == "treasure" || kind == "revive") return;
    if (target < 0 || g.state.unit_status[target] != ACTIVE) return;
    if (kind == "detect_traps") {
        detect_traps_near(g, target, effect.amount, source);
    } else if (kind == "damage") {
        damage(g, effect.amount, source, target, by);
    } else if (kind == "heal" || kind == "stamina" || kind == "magic") {
        gain(g, effect, source, target);
    } else {  // the bonus kinds and sleep last for their duration
        lasting(g, effect, source, target);
    }
}

}  // namespace dungeon_core::effects
