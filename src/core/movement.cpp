#include "movement.hpp"

#include <algorithm>

namespace dungeon_core {

bool is_free(const Board& board, const Position& pos, int32_t sq) {
    if (pos.occupant[sq] >= 0 || !board.ground[sq]) return false;
    const int32_t trap = board.trap_at[sq];
    return trap < 0 || pos.trap_armed[trap] || !pos.trap_detected[trap];  // a hazard: sprung and detected
}

namespace {

bool can_buy_move(const Units& units, int32_t u, int32_t stamina_max) {
    return units.move_bought[u] < stamina_max && units.stamina[u] > 0 && !units.exhausted[u];
}

bool is_corpse(const Position& pos, const Units& units, int32_t sq) {
    const int16_t u = pos.occupant[sq];
    return u >= 0 && units.status[u] == CORPSE;
}

// A one-square obstacle a hero may Jump: furniture, a corpse, a detected trap or a hazard with
// nobody on it (R-JUMP-02, A-42).
bool is_jumpable(const Board& board, const Position& pos, const Units& units, int32_t sq) {
    if (board.furniture[sq] || is_corpse(pos, units, sq)) return true;
    const int32_t trap = board.trap_at[sq];
    return trap >= 0 && pos.trap_detected[trap] && pos.occupant[sq] < 0;
}

// A corpse on sq that no figure drags already (a corpse trails one dragger).
bool is_free_corpse(const Position& pos, const Units& units, const HeroMove& hero, int32_t sq) {
    if (!is_corpse(pos, units, sq)) return false;
    for (int u = 0; u < hero.n_units; ++u) {
        if (hero.dragging[u] == pos.occupant[sq]) return false;
    }
    return true;
}

// The square one step from sq in direction d with no wall or closed door between, or -1.
int32_t open_side(const Board& board, const Position& pos, int32_t sq, int d) {
    const int32_t door = board.side_door[sq * 4 + d];
    if (door >= 0 && !pos.door_open[door]) return -1;
    return board.side_to[sq * 4 + d];
}

}  // namespace

std::vector<int32_t> hero_move_actions(const Board& board, const Position& pos, const Units& units, const HeroMove& hero,
                                       int32_t h, int32_t stamina_max, const MoveActionIds& ids) {
    const int32_t sq = units.pos[h];
    const int32_t left = units.move_left[h];
    const bool may_jump = left >= 2 && !hero.jumped[h] && hero.dragging[h] == NO_UNIT;
    const bool may_drag = left >= 1 && !units.moved[h] && hero.dragging[h] == NO_UNIT;
    std::vector<int32_t> acts;
    for (int d = 0; d < 4; ++d) {
        const int32_t next = board.side_to[sq * 4 + d];
        const int32_t door = board.side_door[sq * 4 + d];
        if (next < 0) continue;
        if (door >= 0 && !pos.door_open[door]) {
            // an Open Doors attempt (A-29: costs no movement); a hidden door is a wall
            if (!hero.door_tried[h * hero.door_columns + door] && !hero.door_hidden[door]) acts.push_back(ids.move_n + d);
            continue;
        }
        if (left >= 1 && is_free(board, pos, next)) acts.push_back(ids.move_n + d);
        if (may_jump && is_jumpable(board, pos, units, next)) {
            const int32_t land = open_side(board, pos, next, d);
            if (land >= 0 && is_free(board, pos, land)) acts.push_back(ids.jump_n + d);
        }
        if (may_drag && is_free_corpse(pos, units, hero, next)) acts.push_back(ids.drag_n + d);
    }
    if (can_buy_move(units, h, stamina_max)) acts.push_back(ids.extra_move);
    acts.push_back(ids.end);
    return acts;
}

std::vector<int32_t> monster_move_actions(const Board& board, const Position& pos, const Units& units, int32_t m,
                                          int32_t stamina_max, bool others_to_move, const MoveActionIds& ids) {
    const int32_t here = units.pos[m];
    std::vector<int32_t> step_actions, step_squares;
    if (here >= 0 && units.move_left[m] >= 1) {
        for (int d = 0; d < 4; ++d) {
            const int32_t next = board.side_to[here * 4 + d];
            const int32_t door = board.side_door[here * 4 + d];
            if (next >= 0 && (door < 0 || pos.door_open[door]) && is_free(board, pos, next)) {
                step_actions.push_back(ids.move_n + d);
                step_squares.push_back(next);
            }
        }
    }
    std::vector<int32_t> heroes;
    for (int h = 0; h < units.n_heroes; ++h) {
        if (units.status[h] == ACTIVE) heroes.push_back(units.pos[h]);
    }
    const bool can_buy = can_buy_move(units, m, stamina_max);
    const int32_t buy = units.exhausted[m] ? 0 : std::min<int32_t>(stamina_max - units.move_bought[m], units.stamina[m]);
    const int32_t base = units.base_move[m];
    const Mover mover{here, units.move_from[m], base, units.move_left[m] + std::max(0, buy), base + stamina_max + 2};
    // a monster off the board (a sampled world in which the heroes' search lost sight of the mover)
    // has no step and no duty
    const Allowed found = here < 0 ? Allowed{{}, true} : allowed(board, pos, mover, heroes, step_squares);
    std::vector<int32_t> acts;
    acts.reserve(found.steps.size() + 3);
    for (int32_t i : found.steps) acts.push_back(step_actions[i]);
    if (can_buy) acts.push_back(ids.extra_move);
    if (found.end_ok || acts.empty()) acts.push_back(ids.end);
    if (others_to_move && !units.moved[m] && !units.deferred[m]) acts.push_back(ids.defer);
    return acts;
}

}  // namespace dungeon_core
