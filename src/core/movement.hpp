// A monster's Movement choices (movement.legal_monster_move): the free steps, filtered by the duty to
// attack (pursuit.hpp), then buying a square with Stamina, ending and deferring.
#pragma once

#include <cstdint>
#include <vector>

#include "pursuit.hpp"

namespace dungeon_core {

constexpr int8_t ACTIVE = 1;  // engine/state.py: Status.ACTIVE
constexpr int8_t CORPSE = 3;  // engine/state.py: Status.CORPSE
constexpr int16_t NO_UNIT = -1;

// Views of the state's unit arrays that a Movement reads.
struct Units {
    int n_heroes;
    const int8_t* status;
    const int16_t* pos;
    const int16_t* base_move;
    const int16_t* move_from;
    const int16_t* move_left;
    const int8_t* move_bought;
    const int16_t* stamina;
    const bool* exhausted;
    const bool* moved;
    const bool* deferred;
};

// What a hero's Movement reads besides its unit arrays.
struct HeroMove {
    const bool* jumped;          // [unit]
    const int16_t* dragging;     // [unit]: the corpse it drags, or NO_UNIT
    int n_units;
    const bool* door_tried;      // [hero, door]: this hero already tried to open it this turn
    int door_columns;            // the row length of door_tried
    const bool* door_hidden;     // [door]: a secret door not found (a wall)
};

// The action ids of engine/actions.py a Movement offers.
struct MoveActionIds {
    int32_t move_n;  // MOVE_N: the step north; east, south and west follow
    int32_t extra_move;
    int32_t end;
    int32_t defer;
    int32_t jump_n = -1;  // JUMP_N and DRAG_N: a hero's Movement only
    int32_t drag_n = -1;
};

// Nothing stands on the square: no figure, furniture, blockage or sprung hazard (R-TURN-09).
bool is_free(const Board& board, const Position& pos, int32_t sq);

// movement.legal_monster_move: the legal actions of monster m's Movement, in the engine's order. A
// monster off the board (square -1) has no step and no duty: it may still buy, end or defer.
std::vector<int32_t> monster_move_actions(const Board& board, const Position& pos, const Units& units, int32_t m,
                                          int32_t stamina_max, bool others_to_move, const MoveActionIds& ids);

// movement.legal_hero_move: the legal actions of hero h's Movement, in the engine's order (a step or
// an Open Doors attempt, a Jump, a Drag in each direction; a bought square; END).
std::vector<int32_t> hero_move_actions(const Board& board, const Position& pos, const Units& units, const HeroMove& hero,
                                       int32_t h, int32_t stamina_max, const MoveActionIds& ids);

}  // namespace dungeon_core
