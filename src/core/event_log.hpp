// The event log of a game in the core: events appended in order and read from any index on.
//
// The newest events are kept as values; once 2 * CHUNK are kept, the oldest CHUNK are frozen into a
// compact byte encoding (each chunk's strings stored once, numbers as varints: some tens of bytes an
// event instead of hundreds as value trees), decoded again only when read. Frozen chunks never
// change, so copies of a game share them: copying a game (a search takes many copies) costs a few
// pointers and the newest events, not the whole log.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "value.hpp"

namespace dungeon_core {

class EventLog {
public:
    static constexpr size_t CHUNK = 64;  // events a frozen chunk holds

    void push_back(Value event) {
        tail_.push_back(std::move(event));
        // Frozen a chunk behind: the last move's events are still values when the lens and the
        // env read them (a chunk frozen as they are pushed would be decoded whole to read a few).
        if (tail_.size() == 2 * CHUNK) freeze();
    }
    size_t size() const { return frozen_.size() * CHUNK + tail_.size(); }
    bool empty() const { return size() == 0; }
    void clear() {
        frozen_.clear();
        tail_.clear();
    }
    // the events from `start` on, in order, each passed to visit(const Value&)
    template <typename Visit>
    void visit_from(size_t start, Visit&& visit) const {
        for (size_t c = start / CHUNK; c < frozen_.size(); ++c) {
            std::vector<Value> events = decode(*frozen_[c]);
            for (size_t k = (c == start / CHUNK ? start % CHUNK : 0); k < events.size(); ++k) visit(events[k]);
        }
        size_t first = frozen_.size() * CHUNK;
        for (size_t k = start > first ? start - first : 0; k < tail_.size(); ++k) visit(tail_[k]);
    }
    // freeze every whole chunk the tail holds (a log kept to be copied: its copies then share all
    // but the last few events, at the cost of decoding a chunk to read one of its events)
    void freeze_whole_chunks() {
        while (tail_.size() >= CHUNK) freeze();
    }
    size_t nbytes() const;  // the memory the log holds, about (frozen chunks and newest values)

private:
    void freeze();  // the oldest CHUNK values of the tail into a frozen chunk
    static std::vector<Value> decode(const std::string& chunk);

    std::vector<std::shared_ptr<const std::string>> frozen_;
    std::vector<Value> tail_;
};

}  // namespace dungeon_core
