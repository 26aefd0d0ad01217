// The game state as the core holds it: every field of dungeon_env/engine/state.py, with the same
// names, dtypes and layouts (flat arrays, row-major for the [hero, x] fields). Bool arrays are one
// byte an entry, as numpy's are. The fields sized by the adventure (doors, areas, guards, ...) are
// vectors sized at set-up; the list fields are vectors of rows.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace dungeon_core {

constexpr int WIDTH = 24;
constexpr int HEIGHT = 28;
constexpr int N_SQUARES = WIDTH * HEIGHT;
constexpr int MAX_UNITS = 64;
constexpr int MAX_ITEMS = 96;
constexpr int MAX_DECK = 64;
constexpr int N_DECKS = 5;
constexpr int MAX_HEROES = 5;
constexpr int MIN_HEROES = 3;
constexpr int MAX_HERO_ABILITIES = 2;
constexpr int NO_UNIT = -1;

// unit_status
enum Status : int8_t { EMPTY = 0, ACTIVE = 1, EXITED = 2, CORPSE = 3, CORPSE_OUT = 4, GONE = 5 };
// unit_side
constexpr int8_t SIDE_NONE = -1, SIDE_HERO = 0, SIDE_MONSTER = 1;
// unit_how
enum How : int8_t { HOW_HERO = 0, HOW_GUARD = 1, HOW_PATROL = 2, HOW_AMBUSH = 3, HOW_EVENT = 4 };

// Row layouts of the list fields (state.py's STACK_*, FIGHT_*, CAST_*, MENTAL_*, EFFECT_*).
enum { STACK_KIND, STACK_UNIT, STACK_A, STACK_B };
enum { FIGHT_MONSTER, FIGHT_HERO, FIGHT_M_SPEND, FIGHT_H_SPEND, FIGHT_WINNER };
enum { CAST_CASTER, CAST_SPELL, CAST_ITEM, CAST_MODE, CAST_TARGET, CAST_MOMENT };
enum { MENTAL_AGGRESSOR, MENTAL_DEFENDER, MENTAL_BID, MENTAL_PURPOSE };
enum { EFFECT_UNIT, EFFECT_KIND, EFFECT_AMOUNT, EFFECT_TURNS, EFFECT_SOURCE, EFFECT_UID };

template <typename T>
using PerUnit = std::array<T, MAX_UNITS>;
using Flags = std::vector<uint8_t>;  // a bool array of the adventure's size (never std::vector<bool>)
using Row = std::vector<int>;

struct State {
    // --- units: identity and base profile ---
    PerUnit<int8_t> unit_status{};
    PerUnit<int8_t> unit_side;
    PerUnit<int16_t> unit_card;
    PerUnit<int16_t> unit_uid;
    PerUnit<int8_t> unit_how{};
    PerUnit<uint8_t> unit_traits{};
    PerUnit<int16_t> base_move{}, base_fight{}, base_damage{}, base_health{}, base_stamina{}, base_magic{};
    // --- units: current values ---
    PerUnit<int16_t> unit_pos;
    PerUnit<int16_t> health{}, stamina{}, magic{};
    PerUnit<bool> deaths_door{}, exhausted{}, surprised{};
    PerUnit<int16_t> surprise_until{};
    PerUnit<bool> skip_move{}, inactive{}, acted{}, fought{}, rested_last{};
    // --- units: this phase's movement ---
    PerUnit<int16_t> move_left{};
    PerUnit<int8_t> move_bought{};
    PerUnit<bool> move_done{};
    PerUnit<int16_t> move_from;
    PerUnit<bool> moved{}, jumped{}, deferred{};
    PerUnit<int16_t> dragging;
    // --- board ---
    std::array<int16_t, N_SQUARES> occupant;
    Flags door_open, door_alert;
    Flags door_tried;  // [hero, door]
    Flags revealed, visited;  // [area]
    std::vector<int16_t> guard_uid;  // [guard]
    Flags guard_slain, ambush_fired, patrol_corridors;
    // --- items ---
    std::array<int16_t, MAX_ITEMS> item_card, item_holder;
    std::array<bool, MAX_ITEMS> item_known{}, item_locked{}, item_claimed{};
    std::array<int16_t, N_DECKS * MAX_DECK> deck_cards;  // [deck, k]
    std::array<int16_t, N_DECKS> deck_next{};
    // --- spells ---
    Flags spell_known;  // [hero, spell]
    std::array<bool, MAX_HEROES * MAX_ITEMS> declined_items{};  // [hero, item]
    Flags declined_spells;  // [hero, spell]
    std::array<int16_t, MAX_HEROES> casting_spell, casting_item;
    PerUnit<bool> double_ones{};
    std::vector<Row> effects;  // EFFECT_*
    // --- the Explore and Trade phases' flags, [hero] ---
    std::array<bool, MAX_HEROES> exploring{}, memorized{}, identified{}, gave{}, received{}, disarm_tried{};
    // --- traps, room events, secret doors ---
    Flags trap_armed, trap_detected, event_done, door_hidden;
    // --- turn structure ---
    int turn = 1;
    int light = 20;
    int phase = 0;
    bool phase_started = false;
    int n_heroes = 0;
    int next_uid = 0;
    int idle_handoffs = 0;
    bool progress = false;
    uint64_t closed_bits = 0;
    int controller = 0;
    std::vector<Row> stack;  // STACK_*
    Row queue;
    std::vector<Row> fights;  // FIGHT_*
    int fight_index = 0;
    std::string outcome;
    std::string end_reason;
    // --- magic and items ---
    std::array<int16_t, MAX_HEROES> spell_turn{};
    std::array<int16_t, MAX_ITEMS> item_used_turn{};
    Row cast;    // CAST_*, empty when no spell resolves
    Row mental;  // MENTAL_*, empty when no Mental Combat
    Row mind_queue;
    // --- the Explore and Trade phases ---
    int act_step = 0;
    Row act_todo;
    uint64_t explored_bits = 0;
    // --- hero abilities, [hero, k] ---
    std::array<int16_t, MAX_HEROES * MAX_HERO_ABILITIES> ability_uses{}, ability_turn{};
    // --- [hero]: labels of what put the hero on Death's Door ---
    std::array<std::vector<std::string>, MAX_HEROES> downed_by;

    State() {
        unit_side.fill(SIDE_NONE);
        unit_card.fill(-1);
        unit_uid.fill(-1);
        unit_pos.fill(-1);
        move_from.fill(-1);
        dragging.fill(NO_UNIT);
        occupant.fill(NO_UNIT);
        item_card.fill(-1);
        item_holder.fill(-1);
        deck_cards.fill(-1);
        casting_spell.fill(-1);
        casting_item.fill(-1);
    }

    // row-major look-ups of the [hero, x] fields
    int n_doors() const { return static_cast<int>(door_open.size()); }
    int n_spells() const { return static_cast<int>(spell_known.size()) / MAX_HEROES; }
    uint8_t& tried(int hero, int door) { return door_tried[hero * n_doors() + door]; }
    uint8_t& knows(int hero, int spell) { return spell_known[hero * n_spells() + spell]; }
    uint8_t& declined_spell(int hero, int spell) { return declined_spells[hero * n_spells() + spell]; }
    bool& declined_item(int hero, int item) { return declined_items[hero * MAX_ITEMS + item]; }
    int16_t& deck(int d, int k) { return deck_cards[d * MAX_DECK + k]; }
    int16_t& uses(int hero, int k) { return ability_uses[hero * MAX_HERO_ABILITIES + k]; }
    int16_t& used_turn(int hero, int k) { return ability_turn[hero * MAX_HERO_ABILITIES + k]; }
};

}  // namespace dungeon_core
