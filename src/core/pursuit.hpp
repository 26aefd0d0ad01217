// The duty to attack (R-MON-03, ruling A-53 as revised): which of a monster's movement choices the
// rules allow. The rule text and its three duties are documented in dungeon_env/engine/pursuit.py,
// whose Python version is kept as the reference the compiled one is checked against.
#pragma once

#include <cstdint>
#include <cstddef>
#include <vector>

namespace dungeon_core {

// What never changes on one adventure's board: each square's four (neighbour, door) sides with walls
// already cut (-1), its furniture and blockages, and where the traps are. Built once per adventure
// from the Python tables.
struct Board {
    int n_squares = 0;
    std::vector<int32_t> side_to;    // [sq * 4 + d]: the neighbour, -1 off the board or through a wall
    std::vector<int32_t> side_door;  // [sq * 4 + d]: the door on that side, -1 where there is none
    std::vector<uint8_t> furniture;  // [sq]: furniture (blocks standing, may be jumped)
    std::vector<uint8_t> blockage;   // [sq]: a blockage (never stepped onto, not even through a door)
    std::vector<uint8_t> ground;     // [sq], derived: neither furniture nor blockage
    std::vector<int32_t> ground_blank;  // [sq], derived: UNREACHABLE on ground, else -1 (a search's blank)
    std::vector<int32_t> trap_square;  // [trap]: the square of the adventure's trap
    // derived once (finish()): each square's passages, the steps onto no blockage, as a CSR table of
    // (neighbour, door or -1) pairs; a search walks a passage when its door is absent or open
    std::vector<int32_t> passage_start, passage_to, passage_door;
    std::vector<int32_t> trap_at;  // [sq]: the index of the adventure's trap on it, or -1
    int32_t n_doors = 0;           // one more than the largest door index on a side

    void finish();
};

// The board as it stands when a monster moves (views of the state's arrays, not owned).
struct Position {
    const bool* door_open;      // [door]
    const int16_t* occupant;    // [sq]: the unit on it, or -1
    const bool* trap_armed;     // [trap]
    const bool* trap_detected;  // [trap]
};

// The monster: where it stands, where its Movement began, its allowance and what it may still buy.
struct Mover {
    int32_t here;
    int32_t start;
    int32_t base_move;
    int32_t budget;  // squares left this phase plus the Stamina it may still buy
    int32_t reach;   // base + Stamina cap + 2: no budget (nor a step past it) goes farther
};

// Walking distance from the nearest source to every square, one frontier at a time, through the
// passages whose door is absent or open. `blank` (or every square UNREACHABLE when null) holds
// UNREACHABLE where the search may walk and a negative value where it may not; a source is 0 even
// there. Squares farther than `limit` are not reached; with `around` a square, the limit counts from
// the depth at which that square is reached.
constexpr int32_t UNREACHABLE = 1000000;  // tables.UNREACHABLE
std::vector<int32_t> distance_field(const Board& board, const bool* door_open, const int32_t* blank,
                                    const std::vector<int32_t>& sources, int32_t limit, int32_t around);
// The same field written into `dist` (resized to the board), whose memory is kept: the searches
// made many times a game (the duty to attack's) allocate nothing once they ran.
void distance_field_into(std::vector<int32_t>& dist, const Board& board, const bool* door_open, const int32_t* blank,
                         const std::vector<int32_t>& sources, int32_t limit, int32_t around);

// The cheapest way from every square to the nearest target, where walking from r into q costs
// cost[q] (a positive int; `inf` or more: q is reached but never walked through), through passages
// whose door is absent or passable; a square never reached holds `inf`.
std::vector<int64_t> cost_field(const Board& board, const bool* door_passable, const int64_t* cost,
                                const std::vector<int32_t>& targets, int64_t inf);

struct Allowed {
    std::vector<int32_t> steps;  // indices into the candidate steps, in order
    bool end_ok;
};

// The candidate steps are squares one step away (already free); hero_squares are the living heroes'
// squares in slot order.
Allowed allowed(const Board& board, const Position& pos, const Mover& mover,
                const std::vector<int32_t>& hero_squares, const std::vector<int32_t>& step_squares);

// The same answer, with the searches it needs kept from one call to the next. Between the decisions
// of one monster's Movement only the mover's own square changes, and the searches read the board
// without the mover: the walkable squares, the fight ring and the distance fields are the same, so
// they are searched once per Movement instead of once per step. Each call compares what the
// searches read (the occupants but the mover, the open doors, the traps that block, the heroes'
// squares, the mover's start and reach) with what they were made from, and searches again on any
// difference: a memo never changes an answer. A Game keeps one (its copy is a copy of the memo).
class PursuitMemo {
public:
    Allowed allowed(const Board& board, const Position& pos, const Mover& mover,
                    const std::vector<int32_t>& hero_squares, const std::vector<int32_t>& step_squares);
    size_t nbytes() const;  // the memory the memo holds outside itself, about

private:
    bool same_position(const Board& board, const Position& pos, int32_t mover_square,
                       const std::vector<int32_t>& hero_squares) const;
    void walk_from(const Board& board, const Position& pos, int32_t mover_square,
                   const std::vector<int32_t>& hero_squares);
    const std::vector<int32_t>& to_fight(const Board& board, const bool* door_open, int32_t reach);
    void approach(const Board& board, const bool* door_open, int32_t start, int32_t reach);

    // what the searches were made from
    const Board* board_ = nullptr;
    std::vector<int16_t> occupant_;  // [sq], the mover's square emptied
    std::vector<uint8_t> door_open_;  // [door] of the board's sides
    std::vector<uint8_t> trap_blocks_;  // [trap]: armed or detected, a square no search walks through
    std::vector<int32_t> hero_squares_;
    // the walk: each square UNREACHABLE (walkable) or BLOCKED; the squares next to a hero; the ring's
    // walkable squares, the sources of the search to the fight
    std::vector<int32_t> blank_;
    std::vector<uint8_t> ring_;
    std::vector<int32_t> fight_sources_;
    // the searches, each made when first needed: the distance to the fight ring (for `fight_reach_`),
    // and for each hero the mover has a path to, its field and the start's distance (for
    // `approach_start_` and `approach_reach_`)
    int32_t fight_reach_ = -1;
    std::vector<int32_t> to_fight_;
    int32_t approach_start_ = -1, approach_reach_ = -1;
    std::vector<std::vector<int32_t>> approach_fields_;  // the first n_approach_ are this search's
    size_t n_approach_ = 0;
    std::vector<int64_t> approach_distance_;
};

}  // namespace dungeon_core
