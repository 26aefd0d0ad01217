// _core.new_engine: a game set up in the core (setup.hpp).
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <map>
#include <stdexcept>

#include "bridge.hpp"
#include "setup.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace dungeon_core {

void bind_setup(nb::module_& m) {
    m.def(
        "new_engine",
        [](std::shared_ptr<Content> content, const std::vector<std::string>& hero_ids, int64_t seed,
           const std::map<std::string, uint64_t>& streams, const std::vector<int>& forced, int max_turns,
           const Carried& carried) {
            Engine e;
            e.game.content = std::move(content);
            e.game.max_turns = max_turns;
            e.game.dice.seed = seed;
            if (streams.size() != N_STREAMS) {
                throw std::invalid_argument("new_engine: streams must give the state of each of the " +
                                            std::to_string(N_STREAMS) + " dice streams");
            }
            for (const auto& [name, state] : streams) {
                const int k = stream_index(name);
                if (k < 0) throw std::invalid_argument("new_engine: unknown dice stream '" + name + "'");
                e.game.dice.state[k] = state;
            }
            for (int face : forced) {
                if (face < 1 || face > 6) throw std::invalid_argument("new_engine: a forced face must be 1..6");
                e.game.dice.forced.push_back(face);
            }
            set_up(e.game, hero_ids, seed, carried);
            return e;
        },
        "content"_a, "hero_ids"_a, "seed"_a, "streams"_a, "forced"_a, "max_turns"_a, "carried"_a = nb::none(),
        "A game set up in the core (Game.new's set-up: heroes placed, decks shuffled, the first look), "
        "played up to its first decision. `streams`: the dice streams' starting states (Dice(seed)._state).");
}

}  // namespace dungeon_core
