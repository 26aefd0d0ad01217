#include "pursuit.hpp"

#include <algorithm>
#include <limits>

namespace dungeon_core {

void Board::finish() {
    ground.assign(n_squares, 0);
    for (int q = 0; q < n_squares; ++q) ground[q] = !furniture[q] && !blockage[q];
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
    std::vector<int32_t> dist = blank ? std::vector<int32_t>(blank, blank + board.n_squares)
                                      : std::vector<int32_t>(board.n_squares, UNREACHABLE);
    for (int32_t q : sources) dist[q] = 0;
    std::vector<int32_t> frontier(sources), reached;
    reached.reserve(64);
    int32_t d = 0;
    int32_t stop = around < 0 ? limit : UNREACHABLE;
    const int32_t* start = board.passage_start.data();
    const int32_t* to = board.passage_to.data();
    const int32_t* door = board.passage_door.data();
    while (!frontier.empty() && d < stop) {
        ++d;
        reached.clear();
        for (int32_t q : frontier) {
            for (int32_t k = start[q]; k < start[q + 1]; ++k) {
                const int32_t r = to[k];
                if (dist[r] > d && (door[k] < 0 || door_open[door[k]])) {
                    dist[r] = d;
                    reached.push_back(r);
                }
            }
        }
        frontier.swap(reached);
        if (stop == UNREACHABLE && around >= 0 && dist[around] >= 0 && dist[around] < UNREACHABLE) {
            stop = dist[around] + limit;
        }
    }
    return dist;
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

// What a monster can walk through now: the board without the mover, the fight ring, the searches.
class Walk {
   public:
    Walk(const Board& board, const Position& pos, int32_t mover_square, const std::vector<int32_t>& hero_squares)
        : board_(board), door_open_(pos.door_open), n_(board.n_squares), ring_(board.n_squares, 0),
          blank_(board.n_squares) {
        for (int q = 0; q < n_; ++q) {
            blank_[q] = (board.ground[q] && pos.occupant[q] < 0) ? UNREACHABLE : BLOCKED;
        }
        if (board.ground[mover_square]) blank_[mover_square] = UNREACHABLE;  // the board without the mover
        for (size_t i = 0; i < board.trap_square.size(); ++i) {
            if (pos.trap_armed[i] || pos.trap_detected[i]) blank_[board.trap_square[i]] = BLOCKED;
        }
        for (int32_t h : hero_squares) {
            for (int d = 0; d < 4; ++d) {
                const int32_t q = board.side_to[h * 4 + d];
                const int32_t door = board.side_door[h * 4 + d];
                if (q >= 0 && (door < 0 || door_open_[door])) ring_[q] = 1;
            }
        }
        for (int q = 0; q < n_; ++q) {
            if (ring_[q] && blank_[q] > 0) fight_sources_.push_back(q);
        }
    }

    bool in_ring(int32_t q) const { return ring_[q] != 0; }
    const std::vector<int32_t>& fight_sources() const { return fight_sources_; }

    // Walking distance from the nearest source; with `around` a square, the search stops `limit`
    // squares past the depth at which that square is reached.
    std::vector<Dist> field(const std::vector<int32_t>& sources, Dist limit, int32_t around) const {
        return distance_field(board_, door_open_, blank_.data(), sources, limit, around);
    }

    // A square's distance in `field`; for a square the field does not walk through, one more than
    // its nearest open neighbour's.
    int64_t via(const std::vector<Dist>& field, int32_t q) const {
        const Dist d = field[q];
        if (d >= 0 && d < UNREACHABLE) return d;
        int64_t best = UNREACHABLE;
        bool any = false;
        for (int32_t k = board_.passage_start[q]; k < board_.passage_start[q + 1]; ++k) {
            const int32_t door = board_.passage_door[k];
            if (door >= 0 && !door_open_[door]) continue;
            const Dist f = field[board_.passage_to[k]];
            const int64_t v = int64_t{f < 0 ? UNREACHABLE : f} + 1;
            best = any ? std::min(best, v) : v;
            any = true;
        }
        return best;
    }

   private:
    const Board& board_;
    const bool* door_open_;
    int n_;
    std::vector<uint8_t> ring_;
    std::vector<Dist> blank_;
    std::vector<int32_t> fight_sources_;
};

struct Approach {
    std::vector<std::vector<Dist>> fields;
    std::vector<int64_t> start_distance;
};

// For each living hero the monster has a path to from `start`: its field and the start's distance.
Approach approach_fields(const Walk& walk, const std::vector<int32_t>& hero_squares, int32_t start, Dist reach) {
    Approach found;
    for (int32_t h : hero_squares) {
        std::vector<Dist> f = walk.field({h}, reach, start);
        const int64_t d = walk.via(f, start);
        if (d < UNREACHABLE) {
            found.fields.push_back(std::move(f));
            found.start_distance.push_back(d);
        }
    }
    return found;
}

// Square q against the start: the least n - d, and the least n - d over heroes with d > 1.
std::pair<int64_t, int64_t> gaps(const Walk& walk, const Approach& approach, int32_t q) {
    int64_t closer = NO_GAP, closable = NO_GAP;
    for (size_t i = 0; i < approach.fields.size(); ++i) {
        const int64_t d = approach.start_distance[i];
        const int64_t gap = walk.via(approach.fields[i], q) - d;
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
    if (hero_squares.empty()) return {all_steps(step_squares.size()), true};
    const Walk walk(board, pos, mover.here, hero_squares);
    Allowed out{{}, true};
    if (walk.in_ring(mover.here)) {  // duty 1: stay in the fight
        for (size_t i = 0; i < step_squares.size(); ++i) {
            if (walk.in_ring(step_squares[i])) out.steps.push_back(static_cast<int32_t>(i));
        }
        return out;
    }
    const int64_t budget = mover.budget;
    const std::vector<Dist> to_fight = walk.field(walk.fight_sources(), mover.reach, -1);
    if (walk.via(to_fight, mover.start) <= mover.base_move && walk.via(to_fight, mover.here) <= budget) {
        out.end_ok = false;  // duty 2: end the Movement next to a hero
        for (size_t i = 0; i < step_squares.size(); ++i) {
            const int32_t q = step_squares[i];
            if (walk.in_ring(q) || walk.via(to_fight, q) <= budget - 1) out.steps.push_back(static_cast<int32_t>(i));
        }
        return out;
    }
    // duty 3: end strictly closer to some hero it has a path to, when a path allows it
    const Approach approach = approach_fields(walk, hero_squares, mover.start, mover.reach);
    if (approach.fields.empty()) return {all_steps(step_squares.size()), true};  // no path: no duty
    const auto [closer, closable] = gaps(walk, approach, mover.here);
    if (closer < 0 || closable < budget) {
        out.end_ok = closer < 0;
        for (size_t i = 0; i < step_squares.size(); ++i) {
            if (gaps(walk, approach, step_squares[i]).second < budget - 1) out.steps.push_back(static_cast<int32_t>(i));
        }
        return out;
    }
    // a duty no longer possible (a trap sprung on the way): never farther from every reachable hero
    if (closer <= 0) return {{}, true};
    return {all_steps(step_squares.size()), true};
}

}  // namespace dungeon_core
