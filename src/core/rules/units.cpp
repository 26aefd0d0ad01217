// Units on the board (dungeon_env/engine/units.py): placing heroes and monsters, labels, traits,
// damage, death and corpses.
#include "units.hpp"

#include <algorithm>
#include <stdexcept>

#include "board.hpp"

namespace dungeon_core::units {

namespace {

// TRAIT_BIT[trait]: bit i of unit_traits is TRAITS[i]
int trait_bit(const Game& g, const std::string& trait) {
    const auto& traits = g.content->traits;
    const auto it = std::find(traits.begin(), traits.end(), trait);
    if (it == traits.end()) throw std::out_of_range("unknown trait '" + trait + "'");
    return 1 << (it - traits.begin());
}

const char* how_name(int how) {
    static const char* const NAMES[] = {"hero", "guard", "patrol", "ambush", "event"};
    return NAMES[how];
}

template <typename Card>
void fill_profile(Game& g, int u, const Card& card) {
    State& s = g.state;
    s.base_move[u] = card.move, s.base_fight[u] = card.fight, s.base_damage[u] = card.damage;
    s.base_health[u] = card.health, s.base_stamina[u] = card.stamina, s.base_magic[u] = card.magic;
    s.health[u] = card.health, s.stamina[u] = card.stamina, s.magic[u] = card.magic;
    s.deaths_door[u] = s.exhausted[u] = s.surprised[u] = s.skip_move[u] = s.inactive[u] = false;
    s.acted[u] = s.fought[u] = s.rested_last[u] = false;
    s.dragging[u] = NO_UNIT;
    if (u < MAX_HEROES) s.downed_by[u].clear();
}

bool is_active_monster(const State& s, int u) { return s.unit_status[u] == ACTIVE && s.unit_side[u] == SIDE_MONSTER; }

}  // namespace

std::string label(Game& g, int u) { return g.label(u); }

bool has_trait(Game& g, int u, const std::string& trait) { return g.state.unit_traits[u] & trait_bit(g, trait); }

std::vector<std::string> traits_of(Game& g, int u) {
    std::vector<std::string> out;
    for (const std::string& t : g.content->traits) {
        if (g.state.unit_traits[u] & trait_bit(g, t)) out.push_back(t);
    }
    return out;
}

Value unit_info(Game& g, int u) {
    const State& s = g.state;
    return Value::obj({{"id", label(g, u)},
                       {"name", g.card_name(u)},
                       {"side", s.unit_side[u] == SIDE_HERO ? "hero" : "monster"},
                       {"traits", Value(traits_of(g, u))},
                       {"move", int(s.base_move[u])},
                       {"fight", int(s.base_fight[u])},
                       {"health", int(s.base_health[u])},
                       {"stamina", int(s.base_stamina[u])},
                       {"magic", int(s.base_magic[u])},
                       {"damage", int(s.base_damage[u])}});
}

void place_hero(Game& g, int u, int card_index, int sq) {
    State& s = g.state;
    const HeroCard& card = g.content->heroes[card_index];
    s.unit_status[u] = ACTIVE, s.unit_side[u] = SIDE_HERO, s.unit_card[u] = card_index;
    s.unit_uid[u] = u, s.unit_how[u] = HOW_HERO;
    int traits = 0;
    for (const std::string& t : card.traits) traits += trait_bit(g, t);
    s.unit_traits[u] = traits;
    fill_profile(g, u, card);
    put(g, u, sq);
}

int free_slot(Game& g) {
    const State& s = g.state;
    for (int u = s.n_heroes; u < MAX_UNITS; ++u) {
        if (s.unit_status[u] == EMPTY || s.unit_status[u] == GONE) return u;
    }
    return NO_UNIT;
}

int place_monster(Game& g, const std::string& monster_id, int sq, int how) {
    State& s = g.state;
    const int u = free_slot(g);
    if (u == NO_UNIT) return NO_UNIT;
    const int card_index = g.content->monster_index.at(monster_id);
    s.unit_status[u] = ACTIVE, s.unit_side[u] = SIDE_MONSTER, s.unit_card[u] = card_index;
    s.unit_uid[u] = s.next_uid, s.unit_how[u] = how, s.unit_traits[u] = 0;
    s.next_uid += 1;
    fill_profile(g, u, g.content->monsters[card_index]);
    put(g, u, sq);
    g.log(Value::obj({{"type", "spawn"}, {"unit", unit_info(g, u)}, {"how", how_name(how)}, {"at", Game::xy_value(sq)}}));
    return u;
}

void put(Game& g, int u, int sq) {
    g.state.unit_pos[u] = sq;
    g.state.occupant[sq] = u;
}

void take_off(Game& g, int u) {
    State& s = g.state;
    if (s.unit_pos[u] >= 0 && s.occupant[s.unit_pos[u]] == u) s.occupant[s.unit_pos[u]] = NO_UNIT;
    s.unit_pos[u] = -1;
}

std::vector<int> active_heroes(Game& g) {
    std::vector<int> out;
    out.reserve(g.state.n_heroes);
    for (int u = 0; u < g.state.n_heroes; ++u) {
        if (g.state.unit_status[u] == ACTIVE) out.push_back(u);
    }
    return out;
}

// The DM's reading order (top to bottom, left to right); equal squares keep slot order.
std::vector<int> active_monsters(Game& g) {
    const State& s = g.state;
    std::vector<int> out;
    for (int u = 0; u < MAX_UNITS; ++u) {
        if (is_active_monster(s, u)) out.push_back(u);
    }
    // a stable insertion sort by square (a few monsters: no buffer to allocate, as std::stable_sort's)
    for (size_t i = 1; i < out.size(); ++i) {
        const int u = out[i];
        size_t k = i;
        for (; k > 0 && s.unit_pos[u] < s.unit_pos[out[k - 1]]; --k) out[k] = out[k - 1];
        out[k] = u;
    }
    return out;
}

bool any_monster(Game& g) {
    for (int u = 0; u < MAX_UNITS; ++u) {
        if (is_active_monster(g.state, u)) return true;
    }
    return false;
}

// R-EXH-01. Spending nothing exhausts nobody: a unit with no Stamina at all (a Skeleton, base 0) is
// never Exhausted.
void spend_stamina(Game& g, int u, int amount) {
    State& s = g.state;
    if (amount > s.stamina[u] || (amount > 0 && s.exhausted[u])) {
        throw std::logic_error("stamina spend must have been checked by the legality mask");
    }
    s.stamina[u] -= amount;
    if (amount > 0 && s.stamina[u] == 0 && !s.exhausted[u]) {
        s.exhausted[u] = true;
        g.log(Value::obj({{"type", "exhausted"}, {"unit", label(g, u)}, {"turn", s.turn}}));
    }
}

void gain_stamina(Game& g, int u, int amount) {
    State& s = g.state;
    s.stamina[u] = std::min(int(s.base_stamina[u]), s.stamina[u] + amount);
    if (s.exhausted[u] && s.stamina[u] == s.base_stamina[u]) {
        s.exhausted[u] = false;
        g.log(Value::obj({{"type", "exhaustion_ends"}, {"unit", label(g, u)}, {"turn", s.turn}}));
    }
}

// R-DMG-08
void heal(Game& g, int u, int amount) {
    State& s = g.state;
    s.health[u] = std::min(int(s.base_health[u]), s.health[u] + amount);
    if (s.deaths_door[u] && s.health[u] > 0) {
        s.deaths_door[u] = false;
        s.downed_by[u].clear();
    }
    g.log(Value::obj({{"type", "heal"},
                      {"unit", label(g, u)},
                      {"amount", amount},
                      {"health", int(s.health[u])},
                      {"turn", s.turn}}));
}

// One `deaths_door` event however many blows of one damage step brought the hero to 0, and
// `downed_by` names them all. Damage to a hero already at Death's Door forces an immediate Death's
// Door roll (R-DMG-10, ruling A-14); `down_before` (default: at 0 now) is whether the hero was at 0
// when a step of simultaneous damage began.
void hurt_hero(Game& g, int u, int amount, const std::string& source, const std::vector<std::string>& killers,
               std::optional<bool> down_before) {
    State& s = g.state;
    if (s.unit_status[u] != ACTIVE) return;
    const bool already_down = down_before ? *down_before : s.health[u] == 0;
    s.health[u] = std::max(0, s.health[u] - amount);
    g.log(Value::obj({{"type", "damage"},
                      {"unit", label(g, u)},
                      {"amount", amount},
                      {"source", source},
                      {"health", int(s.health[u])},
                      {"turn", s.turn}}));
    const std::vector<std::string> cause = killers.empty() ? std::vector<std::string>{source} : killers;
    if (already_down) {
        deaths_door_roll(g, u, cause);
    } else if (s.health[u] == 0 && s.deaths_door[u]) {  // a further blow of the step that brought it to 0
        std::vector<std::string> both = s.downed_by[u], named;  // list(dict.fromkeys([*downed_by, *cause]))
        both.insert(both.end(), cause.begin(), cause.end());
        for (const std::string& k : both) {
            if (std::find(named.begin(), named.end(), k) == named.end()) named.push_back(k);
        }
        s.downed_by[u] = named;
    } else if (s.health[u] == 0) {
        s.deaths_door[u] = true;
        s.downed_by[u] = cause;
        g.log(Value::obj({{"type", "deaths_door"}, {"unit", label(g, u)}, {"turn", s.turn}}));
    }
}

// d6 (Iron-Willed +1): dies on 1-3, rules.deaths_door_max (R-DMG-06/07).
void deaths_door_roll(Game& g, int u, const std::vector<std::string>& killers) {
    const int top = g.rules().deaths_door_max;
    Mods modifiers;
    if (has_trait(g, u, "iron_willed")) modifiers.emplace_back("iron_willed", 1);
    const int total = g.check("deaths_door", label(g, u), DEATHS_DOOR, modifiers,
                              [top](int t) { return t <= top ? "dies" : "survives"; });
    if (total <= top) kill_hero(g, u, killers);
}

// R-DEATH-01: the corpse stays on its square with its items.
void kill_hero(Game& g, int u, const std::vector<std::string>& killers) {
    State& s = g.state;
    s.unit_status[u] = CORPSE;
    s.deaths_door[u] = false;
    s.downed_by[u].clear();
    s.dragging[u] = NO_UNIT;
    g.log(Value::obj({{"type", "death"}, {"unit", label(g, u)}, {"killers", Value(killers)}, {"turn", s.turn}}));
}

void slay_monster(Game& g, int u, const std::vector<std::string>& killers) {
    State& s = g.state;
    take_off(g, u);
    s.unit_status[u] = GONE;
    for (size_t i = 0; i < s.guard_uid.size(); ++i) {
        if (s.guard_uid[i] == s.unit_uid[u]) s.guard_slain[i] = true;
    }
    g.log(Value::obj({{"type", "slain"}, {"unit", label(g, u)}, {"killers", Value(killers)}, {"turn", s.turn}}));
}

// Segment boundaries are invisible to players: R-TRADE-02, R-DEATH-03 revised.
bool together(Game& g, int u, int v) {
    const State& s = g.state;
    const int a = s.unit_pos[u], b = s.unit_pos[v];
    return a >= 0 && b >= 0 && (g.tables().area[a] == g.tables().area[b] || board::next_to(g, a, b));
}

// R-DEATH-03 revised, unless a hero is dragging the corpse (ruling A-46).
void check_corpses(Game& g) {
    State& s = g.state;
    bool any_corpse = false;
    for (int h = 0; h < s.n_heroes; ++h) any_corpse = any_corpse || s.unit_status[h] == CORPSE;
    if (!any_corpse) return;
    const std::vector<int16_t>& area = g.tables().area;
    for (int c = 0; c < s.n_heroes; ++c) {
        if (s.unit_status[c] != CORPSE) continue;
        bool dragged = false;
        for (int h = 0; h < s.n_heroes; ++h) dragged = dragged || (s.unit_status[h] == ACTIVE && s.dragging[h] == c);
        if (dragged) continue;
        // Python indexes from the end for a square of -1 (a corpse off the board)
        const int pos = s.unit_pos[c];
        const int region = area[pos >= 0 ? pos : pos + static_cast<int>(area.size())];
        bool watched = false;
        for (int h : active_heroes(g)) {
            if (together(g, h, c)) {
                watched = true;
                break;
            }
        }
        if (watched) continue;
        take_off(g, c);
        s.unit_status[c] = GONE;
        g.log(Value::obj({{"type", "corpse_lost"},
                          {"unit", label(g, c)},
                          {"area", g.tables().area_names[region]},
                          {"turn", s.turn}}));
    }
}

}  // namespace dungeon_core::units
