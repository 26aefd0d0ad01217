#include "dice.hpp"

namespace dungeon_core {

const std::array<const char*, N_STREAMS> STREAM_NAMES = {"combat",       "surprise", "doors", "traps", "patrol",
                                                         "deaths_door", "jump",     "decks", "misc",  "secret"};

int stream_index(const std::string& name) {
    for (int k = 0; k < N_STREAMS; ++k) {
        if (name == STREAM_NAMES[k]) return k;
    }
    return -1;
}

namespace {
constexpr uint64_t GOLDEN = 0x9E3779B97F4A7C15ULL;
}  // namespace

int Dice::d6(Stream stream) {
    auto& own = stream_forced[stream];
    if (!own.empty()) {
        int face = own.front();
        own.pop_front();
        return face;
    }
    if (!forced.empty()) {
        int face = forced.front();
        forced.pop_front();
        return face;
    }
    // (1 << 64) - ((1 << 64) % 6): 2**64 % 6 == 4, so the limit is 2**64 - 4
    constexpr uint64_t limit = 0xFFFFFFFFFFFFFFFCULL;
    uint64_t s = state[stream];
    for (;;) {
        s += GOLDEN;
        uint64_t z = s;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        if (z < limit) {
            state[stream] = s;
            return static_cast<int>(z % 6) + 1;
        }
    }
}

int Dice::forced_left() const {
    size_t n = forced.size();
    for (const auto& q : stream_forced) n += q.size();
    return static_cast<int>(n);
}

Unforced::Unforced(Dice& dice) : dice_(dice) {
    forced_.swap(dice.forced);
    stream_forced_.swap(dice.stream_forced);
}

Unforced::~Unforced() {
    // the faces queued inside the block go after those that were waiting (Dice.unforced)
    for (int f : dice_.forced) forced_.push_back(f);
    dice_.forced.swap(forced_);
    for (int k = 0; k < N_STREAMS; ++k) {
        for (int f : dice_.stream_forced[k]) stream_forced_[k].push_back(f);
        dice_.stream_forced[k].swap(stream_forced_[k]);
    }
}

}  // namespace dungeon_core
