// Named, seeded dice streams with injectable faces: dungeon_env/engine/dice.py in the core, roll for
// roll the same (SplitMix64 per stream, unbiased faces by rejection, the stream's own forced queue
// first, then the global queue). The streams' seeds come from Python (SHA-256 of seed and name).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <string>

namespace dungeon_core {

enum Stream : int { COMBAT, SURPRISE, DOORS, TRAPS, PATROL, DEATHS_DOOR, JUMP, DECKS, MISC, SECRET, N_STREAMS };
extern const std::array<const char*, N_STREAMS> STREAM_NAMES;
int stream_index(const std::string& name);  // -1 if unknown

struct Dice {
    int64_t seed = 0;
    std::array<uint64_t, N_STREAMS> state{};
    std::deque<int> forced;                                // the global queue
    std::array<std::deque<int>, N_STREAMS> stream_forced;  // each stream's own queue

    int d6(Stream stream);
    int forced_left() const;
};

// Rolls inside its lifetime ignore forced faces (Dice.unforced in Python): set-up's shuffles.
class Unforced {
public:
    explicit Unforced(Dice& dice);
    ~Unforced();
    Unforced(const Unforced&) = delete;
    Unforced& operator=(const Unforced&) = delete;

private:
    Dice& dice_;
    std::deque<int> forced_;
    std::array<std::deque<int>, N_STREAMS> stream_forced_;
};

}  // namespace dungeon_core
