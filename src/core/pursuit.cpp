#include "pursuit.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

namespace dungeon_core {

void Board::finish() {
    ground.assign(n_squares, 0);
    for (int q = 0; q < n_squares; ++q) ground[q] = !furniture[q] && !blockage[q];
    ground_blank.assign(n_squares, -1);
    for (int q = 0; q < n_squares; ++q) {
        if (ground[q]) ground_blank[q] = UNREACHABLE;
    }
    passage_start.assign(n_squares + 1, 0);
    passage_to.clear();
    passage_door.clear();
    for (int q = 0; q < n_squares; ++q) {
        passage_start[q] = static_cast<int32_t>(passage_to.size());
        for (int d = 0; d < 4; ++d) {
            const int32_t to = side_to[q * 4 + d];
            if (to >= 0 && !blockage[to]) {
                passage_to.push_back(to);
                passage_door.push_back(side_door[q * 4 + d]);
            }
        }
    }
    passage_start[n_squares] = static_cast<int32_t>(passage_to.size());
    n_doors = 0;
    for (int32_t door : side_door) n_doors = std::max(n_doors, door + 1);
    trap_at.assign(n_squares, -1);
    for (size_t i = 0; i < trap_square.size(); ++i) trap_at[trap_square[i]] = static_cast<int32_t>(i);
}

std::vector<int32_t> distance_field(const Board& board, const bool* door_open, const int32_t* blank,
                                    const std::vector<int32_t>& sources, int32_t limit, int32_t around) {
    std::vector<int32_t> dist;
    distance_field_into(dist, board, door_open, blank, sources, limit, around);
    return dist;
}

void distance_field_into(std::vector<int32_t>& dist, const Board& board, const bool* door_open, const int32_t* blank,
                         const std::vector<int32_t>& sources, int32_t limit, int32_t around) {
    if (blank) {
        dist.assign(blank, blank + board.n_squares);
    } else {
        dist.assign(board.n_squares, UNREACHABLE);
    }
    for (int32_t q : sources) dist[q] = 0;
    // A breadth-first queue: the squares at distance d are queue[head, level_end). Each square
    // enters it once at most (a source, or when first reached), so it never holds more than the
    // sources and the board; one thread's queue is kept between searches.
    static thread_local std::vector<int32_t> queue_buffer;
    std::vector<int32_t>& buffer = queue_buffer;
    if (buffer.size() < sources.size() + board.n_squares) buffer.resize(sources.size() + board.n_squares);
    int32_t* queue = buffer.data();
    std::copy(sources.begin(), sources.end(), queue);
    size_t head = 0, tail = sources.size();
    int32_t d = 0;
    int32_t stop = around < 0 ? limit : UNREACHABLE;
    int32_t* out = dist.data();
    const int32_t* start = board.passage_start.data();
    const int32_t* to = board.passage_to.data();
    const int32_t* door = board.passage_door.data();
    while (head < tail && d < stop) {
        ++d;
        for (const size_t level_end = tail; head < level_end; ++head) {
            const int32_t q = queue[head];
            for (int32_t k = start[q], end = start[q + 1]; k < end; ++k) {
                const int32_t r = to[k];
                if (out[r] > d && (door[k] < 0 || door_open[door[k]])) {
                    out[r] = d;
                    queue[tail++] = r;
                }
            }
        }
        if (stop == UNREACHABLE && around >= 0 && out[around] >= 0 && out[around] < UNREACHABLE) {
            stop = out[around] + limit;
        }
    }
}

std::vector<int64_t> cost_field(const Board& board, const bool* door_passable, const int64_t* cost,
                                const std::vector<int32_t>& targets, int64_t inf) {
    std::vector<int64_t> dist(board.n_squares, inf);
    std::vector<std::vector<int32_t>> buckets(1);  // a bucket queue keyed by the cost so far
    for (int32_t q : targets) {
        if (dist[q] == inf) {
            dist[q] = 0;
            buckets[0].push_back(q);
        }
    }
    size_t pending = buckets[0].size();
    for (size_t d = 0; pending > 0; ++d) {
        if (d >= buckets.size()) break;
        std::vector<int32_t> bucket;
        bucket.swap(buckets[d]);
        pending -= bucket.size();
        for (int32_t q : bucket) {
            const int64_t step = cost[q];
            if (dist[q] != static_cast<int64_t>(d) || step >= inf) continue;  // cheaper since, or a wall
            const int64_t nd = static_cast<int64_t>(d) + step;
            for (int32_t k = board.passage_start[q]; k < board.passage_start[q + 1]; ++k) {
                const int32_t door = board.passage_door[k];
                const int32_t r = board.passage_to[k];
                if ((door < 0 || door_passable[door]) && nd < dist[r]) {
                    dist[r] = nd;
                    if (static_cast<size_t>(nd) >= buckets.size()) buckets.resize(nd + 1);
                    buckets[nd].push_back(r);
                    ++pending;
                }
            }
        }
    }
    return dist;
}

namespace {

using Dist = int32_t;
constexpr Dist BLOCKED = -1;           // a square the search does not walk through
constexpr int64_t NO_GAP = std::numeric_limits<int64_t>::max() / 4;  // "infinite": no hero with d > 1

// A square's distance in `field`; for a square the field does not walk through, one more than its
// nearest open neighbour's.
int64_t via(const Board& board, const bool* door_open, const std::vector<Dist>& field, int32_t q) {
    const Dist d = field[q];
    if (d >= 0 && d < UNREACHABLE) return d;
    int64_t best = UNREACHABLE;
    bool any = false;
    for (int32_t k = board.passage_start[q]; k < board.passage_start[q + 1]; ++k) {
        const int32_t door = board.passage_door[k];
        if (door >= 0 && !door_open[door]) continue;
        const Dist f = field[board.passage_to[k]];
        const int64_t v = int64_t{f < 0 ? UNREACHABLE : f} + 1;
        best = any ? std::min(best, v) : v;
        any = true;
    }
    return best;
}

// Square q against the start, over the heroes the mover has a path to (their fields and the start's
// distances): the least n - d, and the least n - d over heroes with d > 1.
std::pair<int64_t, int64_t> gaps(const Board& board, const bool* door_open, const std::vector<std::vector<Dist>>& fields,
                                 const std::vector<int64_t>& start_distance, int32_t q) {
    int64_t closer = NO_GAP, closable = NO_GAP;
    for (size_t i = 0; i < start_distance.size(); ++i) {  // (fields may hold more, unused)
        const int64_t d = start_distance[i];
        const int64_t gap = via(board, door_open, fields[i], q) - d;
        closer = std::min(closer, gap);
        if (d > 1) closable = std::min(closable, gap);
    }
    return {closer, closable};
}

std::vector<int32_t> all_steps(size_t n) {
    std::vector<int32_t> out(n);
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<int32_t>(i);
    return out;
}

}  // namespace

Allowed allowed(const Board& board, const Position& pos, const Mover& mover,
                const std::vector<int32_t>& hero_squares, const std::vector<int32_t>& step_squares) {
    PursuitMemo memo;
    return memo.allowed(board, pos, mover, hero_squares, step_squares);
}

bool PursuitMemo::same_position(const Board& board, const Position& pos, int32_t mover_square,
                                const std::vector<int32_t>& hero_squares) const {
    if (board_ != &board || hero_squares_ != hero_squares) return false;
    // the occupants but the mover: the memo's copy has the mover's square emptied
    const int16_t* occupant = occupant_.data();
    const size_t before = static_cast<size_t>(mover_square), after = board.n_squares - before - 1;
    if (occupant[mover_square] != -1 || std::memcmp(occupant, pos.occupant, before * sizeof(int16_t)) != 0 ||
        std::memcmp(occupant + before + 1, pos.occupant + before + 1, after * sizeof(int16_t)) != 0) {
        return false;
    }
    for (int32_t door = 0; door < board.n_doors; ++door) {
        if (door_open_[door] != pos.door_open[door]) return false;
    }
    for (size_t i = 0; i < trap_blocks_.size(); ++i) {
        if (trap_blocks_[i] != (pos.trap_armed[i] || pos.trap_detected[i])) return false;
    }
    return true;
}

// What a monster can walk through now: the board without the mover, and the fight ring.
void PursuitMemo::walk_from(const Board& board, const Position& pos, int32_t mover_square,
                            const std::vector<int32_t>& hero_squares) {
    const int n = board.n_squares;
    board_ = &board;
    occupant_.assign(pos.occupant, pos.occupant + n);
    occupant_[mover_square] = -1;
    door_open_.assign(pos.door_open, pos.door_open + board.n_doors);
    trap_blocks_.resize(board.trap_square.size());
    for (size_t i = 0; i < trap_blocks_.size(); ++i) trap_blocks_[i] = pos.trap_armed[i] || pos.trap_detected[i];
    hero_squares_ = hero_squares;

    blank_ = board.ground_blank;  // the ground walkable, then the occupied squares not
    const int16_t* occupant = occupant_.data();
    int32_t* blank = blank_.data();
    for (int q = 0; q < n; ++q) {
        if (occupant[q] >= 0) blank[q] = BLOCKED;
    }
    for (size_t i = 0; i < trap_blocks_.size(); ++i) {
        if (trap_blocks_[i]) blank_[board.trap_square[i]] = BLOCKED;
    }
    ring_.assign(n, 0);
    fight_sources_.clear();
    for (int32_t h : hero_squares) {
        for (int d = 0; d < 4; ++d) {
            const int32_t q = board.side_to[h * 4 + d];
            const int32_t door = board.side_door[h * 4 + d];
            if (q >= 0 && (door < 0 || pos.door_open[door]) && !ring_[q]) {
                ring_[q] = 1;
                if (blank_[q] > 0) fight_sources_.push_back(q);
            }
        }
    }
    std::sort(fight_sources_.begin(), fight_sources_.end());  // in square order, as a scan of the board lists them
    fight_reach_ = approach_start_ = approach_reach_ = -1;  // searched again when needed
}

// Walking distance to the nearest walkable square of the fight ring.
const std::vector<Dist>& PursuitMemo::to_fight(const Board& board, const bool* door_open, int32_t reach) {
    if (fight_reach_ != reach || fight_reach_ < 0) {
        distance_field_into(to_fight_, board, door_open, blank_.data(), fight_sources_, reach, -1);
        fight_reach_ = reach;
    }
    return to_fight_;
}

// For each living hero the monster has a path to from `start`: its field and the start's distance.
void PursuitMemo::approach(const Board& board, const bool* door_open, int32_t start, int32_t reach) {
    if (approach_reach_ >= 0 && approach_start_ == start && approach_reach_ == reach) return;
    n_approach_ = 0;  // the fields' memory is kept for the next search
    approach_distance_.clear();
    std::vector<int32_t> source(1);
    for (int32_t h : hero_squares_) {
        if (n_approach_ == approach_fields_.size()) approach_fields_.emplace_back();
        std::vector<Dist>& f = approach_fields_[n_approach_];
        source[0] = h;
        distance_field_into(f, board, door_open, blank_.data(), source, reach, start);
        const int64_t d = via(board, door_open, f, start);
        if (d < UNREACHABLE) {
            ++n_approach_;
            approach_distance_.push_back(d);
        }
    }
    approach_start_ = start;
    approach_reach_ = reach;
}

Allowed PursuitMemo::allowed(const Board& board, const Position& pos, const Mover& mover,
                             const std::vector<int32_t>& hero_squares, const std::vector<int32_t>& step_squares) {
    if (hero_squares.empty()) return {all_steps(step_squares.size()), true};
    if (!same_position(board, pos, mover.here, hero_squares)) walk_from(board, pos, mover.here, hero_squares);
    const bool* open = pos.door_open;
    Allowed out{{}, true};
    if (ring_[mover.here]) {  // duty 1: stay in the fight
        for (size_t i = 0; i < step_squares.size(); ++i) {
            if (ring_[step_squares[i]]) out.steps.push_back(static_cast<int32_t>(i));
        }
        return out;
    }
    const int64_t budget = mover.budget;
    const std::vector<Dist>& fight = to_fight(board, open, mover.reach);
    if (via(board, open, fight, mover.start) <= mover.base_move && via(board, open, fight, mover.here) <= budget) {
        out.end_ok = false;  // duty 2: end the Movement next to a hero
        for (size_t i = 0; i < step_squares.size(); ++i) {
            const int32_t q = step_squares[i];
            if (ring_[q] || via(board, open, fight, q) <= budget - 1) out.steps.push_back(static_cast<int32_t>(i));
        }
        return out;
    }
    // duty 3: end strictly closer to some hero it has a path to, when a path allows it
    approach(board, open, mover.start, mover.reach);
    if (n_approach_ == 0) return {all_steps(step_squares.size()), true};  // no path: no duty
    const auto [closer, closable] = gaps(board, open, approach_fields_, approach_distance_, mover.here);
    if (closer < 0 || closable < budget) {
        out.end_ok = closer < 0;
        for (size_t i = 0; i < step_squares.size(); ++i) {
            if (gaps(board, open, approach_fields_, approach_distance_, step_squares[i]).second < budget - 1) {
                out.steps.push_back(static_cast<int32_t>(i));
            }
        }
        return out;
    }
    // a duty no longer possible (a trap sprung on the way): never farther from every reachable hero
    if (closer <= 0) return {{}, true};
    return {all_steps(step_squares.size()), true};
}

size_t PursuitMemo::nbytes() const {
    size_t n = occupant_.capacity() * sizeof(int16_t) + door_open_.capacity() + trap_blocks_.capacity() +
               (hero_squares_.capacity() + blank_.capacity() + fight_sources_.capacity() + to_fight_.capacity()) *
                   sizeof(int32_t) +
               ring_.capacity() + approach_distance_.capacity() * sizeof(int64_t) +
               approach_fields_.capacity() * sizeof(std::vector<int32_t>);
    for (const auto& field : approach_fields_) n += field.capacity() * sizeof(int32_t);
    return n;
}

}  // namespace dungeon_core
