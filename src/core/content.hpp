// What never changes during a game, as the core holds it: the adventure's static tables
// (dungeon_env/engine/tables.py), the adventure itself, the cards (content/model.py) and the rules'
// constants (content/rules.py). Python loads the content (TOML) and hands it over once per adventure
// and variant (bridge.cpp); the field names are the Python ones.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pursuit.hpp"
#include "state.hpp"

namespace dungeon_core {

using Square = std::array<int, 2>;  // (x, y) as the content gives it

struct Effect {
    std::string kind;
    int amount = 0;
    int duration = 0;
};

struct Spell {
    std::string id, name;
    int level = 0;
    std::string casting, target;
    int range = 0;
    Effect effect;
    std::optional<Effect> overcast;
    bool mental = false;
    std::string mental_tie;
};

struct ItemCard {
    std::string id, name, deck, use;
    std::optional<Effect> effect;
    std::optional<std::string> spell;
    std::string target, timing;
    int copies = 1;
};

struct Ability {
    std::string id, name, use;
    Effect effect;
    std::string limit;
    int uses = 0;
    std::vector<std::string> when;
    std::string target, condition;
};

struct HeroCard {
    std::string id, name;
    int move = 0, fight = 0, damage = 0, health = 0, stamina = 0, magic = 0;
    std::vector<std::string> traits, spells;
    std::vector<Ability> abilities;
    bool caster = false;
};

struct MonsterCard {
    std::string id, name;
    int move = 0, fight = 0, damage = 0, health = 0, stamina = 0, magic = 0;
    std::string encounter;
    std::vector<std::string> abilities;
};

struct Door {
    Square a, b;
    bool secret = false;
};
struct Trap {
    Square at;
    std::string name;
    Effect effect;
    bool blocks = false;
};
struct Guard {
    std::string monster;
    Square at;
};
struct Ambush {
    std::string area;
    std::vector<std::string> monsters;
    std::vector<Square> at;
};
struct EventOption {
    std::string text;
    std::optional<Effect> effect;
    std::optional<std::string> trait;
    std::optional<Effect> fail;
    std::optional<std::string> item, deck;
};
struct RoomEvent {
    std::string area, scope, kind, text;
    std::optional<Effect> effect;
    std::vector<EventOption> options;
    std::optional<std::string> item, deck;
    std::vector<std::string> monsters;
    std::vector<Square> at;
    std::optional<int> door;
};
struct Objective {
    std::string kind, text;
    std::optional<Square> at;
    bool primary = false;
    std::optional<std::string> area, item;
};

struct Adventure {
    std::string id, name;
    int difficulty = 0;
    std::string goal;
    std::vector<Square> start, exits;
    std::vector<Door> doors;
    std::vector<Square> blockages;
    std::vector<std::vector<Square>> furniture;  // each piece's squares
    std::vector<std::string> furniture_kind;
    std::vector<Guard> guards;
    std::vector<std::string> patrol;
    std::vector<Ambush> ambushes;
    std::vector<Objective> objectives;
    std::vector<std::string> secret_rooms;
    std::vector<Trap> traps;
    std::vector<RoomEvent> events;
    bool final = false;
};

struct Rules {
    int light_start = 20, light_max = 20, light_per_turn = 1, light_dark_penalty = 1;
    int surprise_max = 2, ambush_ready_min = 6, patrol_max = 1, patrol_board_max = 0, deaths_door_max = 3;
    int door_alert_max = 2, door_open_min = 5, jump_min = 4, disarm_spring_max = 1, disarm_min = 4;
    int identify_never_max = 1, identify_min = 4, room_detect_min = 4, trait_check_min = 4;
    int overcast_forget_max = 1, overcast_safe_min = 6, recover_stamina = 1, rest_stamina = 2, rest_magic = 1;
    int rest_magic_learned = 2, enemy_penalty = 1, fight_stamina_max = 3, move_stamina_max = 3, evade_cost = 2;
    int mental_bid_max = 3, lash_range = 6, lash_damage = 2, max_items = 12, max_spells = 8;
};

// A read-only array shared by the contents copied from one another (a determinisation's content is its
// view's but the adventure: core.derive_content), so that a copy does not copy it.
template <typename T>
struct SharedArray {
    std::shared_ptr<const std::vector<T>> items = std::make_shared<const std::vector<T>>();
    const T& operator[](size_t i) const { return (*items)[i]; }
    size_t size() const { return items->size(); }
    const T* data() const { return items->data(); }
    void assign(const T* first, const T* last) { items = std::make_shared<const std::vector<T>>(first, last); }
    SharedArray& operator=(std::vector<T> v) {
        items = std::make_shared<const std::vector<T>>(std::move(v));
        return *this;
    }
};

// engine/tables.py's Tables: squares are y * WIDTH + x.
struct Tables {
    std::vector<int16_t> area;        // [sq]
    std::vector<int16_t> neighbor;    // [sq * 4 + d], -1 off the board
    std::vector<uint8_t> wall;        // [sq * 4 + d]
    std::vector<int16_t> edge_door;   // [sq * 4 + d], -1 none
    std::vector<uint8_t> furniture, blockage, exit;  // [sq]
    SharedArray<uint8_t> los_static;  // [a * N + b]
    SharedArray<uint64_t> los_doors;  // [a * N + b]
    std::vector<std::vector<int16_t>> area_squares;
    std::vector<uint8_t> is_corridor;  // [area]
    std::vector<int16_t> patrol_rooms;
    std::vector<std::array<int, 2>> door_squares;
    std::vector<std::string> area_names;
    int n_rooms = 0;
    Board board;  // the searches' board (pursuit.hpp)

    int n_squares() const { return static_cast<int>(area.size()); }
    int n_areas() const { return static_cast<int>(area_squares.size()); }
    int n_doors() const { return static_cast<int>(door_squares.size()); }
    int side_to(int sq, int d) const { return board.side_to[sq * 4 + d]; }   // -1: off board or wall
    int side_door(int sq, int d) const { return board.side_door[sq * 4 + d]; }
    bool sees_static(int a, int b) const { return !los_static[a * N_SQUARES + b]; }

    // for each square, the areas with a square in its line of sight were every door open, in index
    // order: only these can be in a hero's sight with the doors as they are (visibility's look)
    std::vector<std::vector<int16_t>> areas_past_walls;
    void index_areas_past_walls() {
        areas_past_walls.assign(N_SQUARES, {});
        for (int sq = 0; sq < N_SQUARES; ++sq) {
            for (int a = 0; a < static_cast<int>(area_squares.size()); ++a) {
                for (int b : area_squares[a]) {
                    if (sees_static(sq, b)) {
                        areas_past_walls[sq].push_back(static_cast<int16_t>(a));
                        break;
                    }
                }
            }
        }
    }
};

// Everything static one game plays with; shared (read-only) by every game of the same adventure and
// variant. `cache` holds derived look-ups the rules memoise (as Tables.cache does in Python).
struct Content {
    Tables tables;
    Adventure adventure;
    Rules rules;
    std::vector<HeroCard> heroes;  // the roster (a hero's unit_card indexes it)
    std::vector<MonsterCard> monsters;
    std::vector<Spell> spells;
    std::vector<ItemCard> item_cards;
    std::map<std::string, int> monster_index, spell_index, item_index;
    std::vector<std::string> traits;  // TRAITS: bit i of unit_traits
    std::vector<std::string> decks;   // DECKS
};

}  // namespace dungeon_core
