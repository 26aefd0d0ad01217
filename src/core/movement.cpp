#include "movement.hpp"

#include <algorithm>

namespace dungeon_core {

bool is_free(const Board& board, const Position& pos, int32_t sq) {
    if (pos.occupant[sq] >= 0 || !board.ground[sq]) return false;
    const int32_t trap = board.trap_at[sq];
    return trap < 0 || pos.trap_armed[trap] || !pos.trap_detected[trap];  // a hazard: sprung and detected
}

std::vector<int32_t> monster_move_actions(const Board& board, const Position& pos, const Units& units, int32_t m,
                                          int32_t stamina_max, bool others_to_move, const MoveActionIds& ids) {
    const int32_t here = units.pos[m];
    std::vector<int32_t> step_actions, step_squares;
    if (units.move_left[m] >= 1) {
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
    const bool can_buy = units.move_bought[m] < stamina_max && units.stamina[m] > 0 && !units.exhausted[m];
    const int32_t buy = units.exhausted[m] ? 0 : std::min<int32_t>(stamina_max - units.move_bought[m], units.stamina[m]);
    const int32_t base = units.base_move[m];
    const Mover mover{here, units.move_from[m], base, units.move_left[m] + std::max(0, buy), base + stamina_max + 2};
    const Allowed found = allowed(board, pos, mover, heroes, step_squares);
    std::vector<int32_t> acts;
    acts.reserve(found.steps.size() + 3);
    for (int32_t i : found.steps) acts.push_back(step_actions[i]);
    if (can_buy) acts.push_back(ids.extra_move);
    if (found.end_ok || acts.empty()) acts.push_back(ids.end);
    if (others_to_move && !units.moved[m] && !units.deferred[m]) acts.push_back(ids.defer);
    return acts;
}

}  // namespace dungeon_core
