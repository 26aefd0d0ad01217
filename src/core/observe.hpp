// The observation in the core: the flat float32 observation of dungeon_env/observation.py (layout
// OBS_SPEC) and the int8 action mask, for the DM or a hero, built from a core game into buffers the
// caller owns. The values are those of the numpy builder (observation.Observer) bit for bit; its
// docstring is the spec of what each side sees.
//
// The layout (offsets, columns, planes, normalisers, the deck of each card, how heroes see each
// decision's args, and the adventure's static planes) is made in Python from observation.py's own
// tables and handed over as an ObsLayout: the core never hard-codes an offset.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "game.hpp"
#include "lens.hpp"

namespace dungeon_core {

// A per-figure number of the state, read by name (observation.py's _DYNAMIC and _STATIC_NORMS).
enum class UnitField {
    HEALTH, STAMINA, MAGIC, MOVE_LEFT, MOVE_BOUGHT, DEATHS_DOOR, EXHAUSTED, SURPRISED, INACTIVE, ACTED, FOUGHT,
    MOVE_DONE, BASE_HEALTH, BASE_STAMINA, BASE_MAGIC, BASE_FIGHT, BASE_MOVE, BASE_DAMAGE
};
UnitField unit_field(const std::string& name);  // std::invalid_argument for an unknown name
int unit_value(const State& s, UnitField field, int u);

// How heroes see a decision's arg (observation.py's _HERO_ARGS rules).
enum ArgRule { ARG_HIDDEN = 0, ARG_PUBLIC = 1, ARG_SEEN_UNIT = 2, ARG_EVENT_AREA = 3 };

struct ObsLayout {
    int size = 0;
    // pieces: offsets in the flat vector, and the tables' row counts and widths
    int board = 0, figures = 0, own_items = 0, own_spells = 0, candidates = 0, item_table = 0;
    int role = 0, me = 0, my_turn = 0, acting = 0, phase = 0, decision = 0, decision_args = 0;
    int target_purpose = 0, combat = 0, light = 0, turn = 0;
    int n_squares = 0, width = 0, height = 0, n_planes = 0;
    int max_units = 0, nf = 0, max_items_held = 0, ni = 0, max_spells = 0, ns = 0, max_targets = 0, nc = 0;
    int max_items = 0, nt = 0, n_role = 0, n_me = 0, n_acting = 0, n_phase = 0, n_decision = 0, n_purpose = 0;
    int n_decks = 0;
    // board planes
    int p_revealed = 0, p_corridor = 0, p_wall_e = 0, p_wall_s = 0, p_door_closed_e = 0, p_door_closed_s = 0;
    int p_door_open_e = 0, p_door_open_s = 0, p_secret_door = 0, p_furniture = 0, p_blockage = 0, p_exit = 0;
    int p_trap_detected = 0, p_hazard = 0, p_trap_hidden = 0, p_heroes = 0, p_monsters = 0, p_corpses = 0;
    int p_acting_unit = 0;
    // figure columns
    int f_present = 0, f_hero = 0, f_monster = 0, f_me = 0, f_acting = 0, f_candidate = 0, f_active = 0;
    int f_exited = 0, f_dead = 0, f_x = 0, f_y = 0, f_dragging = 0, f_effects = 0, f_items_held = 0;
    int f_trait0 = 0, n_traits = 0, f_ready0 = 0, n_ready = 0, f_kind = 0, f_name = 0;
    std::array<int, 5> f_how{};  // by unit_how; -1: no column (a hero)
    // the per-call values (column f_dyn0 + i) and the static scaled ones: field, normaliser (0: a
    // ratio to the base value of the same name) and column
    int f_dyn0 = 0;
    std::vector<UnitField> dyn_field, dyn_base;
    std::vector<int> dyn_norm;
    std::vector<float> dyn_scale;  // float32(1 / norm) of a normalised one (numpy's scale row)
    std::vector<UnitField> static_field;
    std::vector<int> static_col, static_norm;
    // own_items / own_spells / candidates / item_table columns
    int i_present = 0, i_identified = 0, i_locked = 0, i_used = 0, i_deck0 = 0, i_card = 0;
    int s_present = 0, s_level = 0, s_spell = 0;
    int c_present = 0, c_unit = 0, c_item = 0, c_row = 0, c_x = 0, c_y = 0, c_identified = 0, c_deck0 = 0, c_card = 0;
    int t_present = 0, t_holder = 0, t_lying = 0, t_identified = 0, t_locked = 0, t_used = 0, t_deck0 = 0, t_card = 0;
    // normalisers
    int norm_items_held = 0, norm_effects = 0, norm_light = 0, norm_args = 0, args_max = 0, norm_spell_level = 0;
    // ids
    int n_hero_cards = 0, acting_dm = 0, choose_target = 0, target_loot = 0;
    std::vector<std::array<int, 2>> hero_args;  // [decision kind] -> ArgRule of a, b
    std::vector<float> xy;                      // [(square + 1) * 2]: x, y of each square, then 0, 0 (off the board)
    std::vector<int> deck_of;                   // [card] -> deck index
    // the adventure's static planes and look-ups
    std::vector<float> corridor, wall_e, wall_s, furniture, blockage, exit;  // [square]
    std::vector<std::array<int, 3>> door_sides;                                // (door, square, 0 east / 1 south)
    std::vector<int> trap_sq, event_area;
    // The board planes of the layout (figures left out) last made for a role, as their nonzero cells
    // (a few hundred of some 13,000, written into a zeroed observation), with what they were made
    // from (revealed areas, doors, traps): remade only when that changes. `board_cache`, one per
    // role, is shared by the games of the adventure that observe under the GIL; a caller observing
    // without it (the batched env's threads) passes a cache of its own to observe().
    struct BoardCache {
        bool made = false;
        uint64_t version = 0;  // counts the times the cells were made
        std::vector<uint8_t> key;
        std::vector<std::pair<int, float>> cells;  // (index in the board piece, value) of the nonzero values
    };
    mutable std::array<BoardCache, 2> board_cache;
};

// What observe() last wrote into one row, for a caller that owns the row and lets nobody else write
// into it between calls (the batched env: its rows are handed out read-only): the next observe()
// of that row clears the figures' board cells it wrote and writes the layout's planes only when
// their cells changed, instead of zeroing the row's whole board (12,768 values, a few hundred of
// them nonzero).
struct RowTrace {
    const float* row = nullptr;                    // the row it describes (nullptr: none, zero it all)
    const ObsLayout::BoardCache* cache = nullptr;  // whose cells the row's board holds, made when
    uint64_t version = 0;
    std::vector<int> cells;                        // their indices in the board piece
    std::vector<int> figures;                      // the other board indices written (figures, acting unit)
    std::vector<uint64_t> lines;                   // a bit per 64-byte line of the row outside the board: it holds a value
};

// What heroes know of the monsters (engine/side_knowledge.py): the slots of the monsters they see
// and the heroes' number of each (-1: unknown).
struct HeroSight {
    std::vector<int> seen, numbers;
};
// what the heroes whose knowledge `lens` folds know of the monsters now
HeroSight hero_sight(const Game& g, const HeroLens& lens);

// Fill `out` (layout.size floats) with the observation of `role` (0 hero, 1 DM) for hero `me`
// (-1 for the DM) and `mask` (n_mask bytes) with the legal actions if `to_act`, else zeros.
// `sight`: for a hero, what heroes know of the monsters (ignored for the DM). `cache`: the board
// planes' cache to use (nullptr: the layout's shared one for the role, which needs the GIL).
// `trace`: what the caller's row held (RowTrace), updated; a row it does not describe is zeroed with
// non-temporal stores, past the caches, which spares reading its old contents first (a batch's
// rows are too many for the caches and read later). nullptr: `out` is zeroed.
void observe(Game& g, const ObsLayout& layout, float* out, int8_t* mask, int n_mask, int role, int me, bool to_act,
             int max_turns, const HeroSight& sight, ObsLayout::BoardCache* cache = nullptr, RowTrace* trace = nullptr);

// The layout fits the game's adventure (its doors, traps and events); std::invalid_argument if not.
void check_layout(const Game& g, const ObsLayout& layout);

}  // namespace dungeon_core
