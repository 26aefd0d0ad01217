// _core.heroes_view and _core.HeroTablesMaps: the heroes' side view made in the core
// (heroes_view.hpp), called by sideview.heroes_view_named for a playable view of a game on the core.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unordered_map.h>
#include <nanobind/stl/vector.h>

#include <utility>

#include "bridge.hpp"
#include "heroes_view.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace dungeon_core {

namespace {

template <typename T>
using In = nb::ndarray<const T, nb::c_contig, nb::device::cpu>;

template <typename T, typename Out = T>
std::vector<Out> flat(const In<T>& arr) {
    return std::vector<Out>(arr.data(), arr.data() + arr.size());
}

}  // namespace

// lens_bind.cpp: the events of a _core.ShownEvents appended to `log` (false: `obj` is none)
bool append_shown_events(nb::handle obj, EventLog& log);

void bind_heroes_view(nb::module_& m) {
    nb::class_<HeroTablesMaps>(m, "HeroTablesMaps",
                               "What the heroes' views made at one public configuration share (sideview._HeroTables): "
                               "the real index of each view door, trap, guard and room event, the real room event -> "
                               "view index map, the view's content and the real catalogue's sizes.")
        .def(
            "__init__",
            [](HeroTablesMaps* out, std::vector<int> doors, std::vector<int> traps, std::vector<int> guards,
               std::vector<int> events, std::vector<int> event_map, std::shared_ptr<Content> content, int item_base,
               int spell_base) {
                new (out) HeroTablesMaps{std::move(doors), std::move(traps), std::move(guards), std::move(events),
                                         std::move(event_map), std::move(content), item_base, spell_base};
            },
            "doors"_a, "traps"_a, "guards"_a, "events"_a, "event_map"_a, "content"_a, "item_base"_a, "spell_base"_a);
    m.def(
        "reading_content",
        [](const Content& base, const std::vector<int>& doors, const std::vector<int>& traps,
           const std::vector<int>& guards, const std::vector<int>& events, const Board& board, In<bool> wall,
           In<int16_t> edge_door, In<bool> furniture, In<bool> blockage) {
            return std::const_pointer_cast<Content>(reading_content(
                base, doors, traps, guards, events, board, flat<bool, uint8_t>(wall), flat<int16_t>(edge_door),
                flat<bool, uint8_t>(furniture), flat<bool, uint8_t>(blockage)));
        },
        "base"_a, "doors"_a, "traps"_a, "guards"_a, "events"_a, "board"_a, "wall"_a, "edge_door"_a, "furniture"_a,
        "blockage"_a,
        "A heroes' view's content for reading only (heroes_view.hpp's reading_content): `base` the adventure's "
        "content with the view's catalogue, the known doors, traps, guards and room events by their real index, "
        "and the view tables' board and arrays. It holds no line of sight: never play on it.");
    m.def(
        "heroes_view",
        [](const Engine& e, const HeroTablesMaps& maps, std::vector<int> visible, std::unordered_map<int, int> numbers,
           std::unordered_map<std::string, bool> slain, nb::handle events) {
            HeroSight sight{std::move(visible), std::move(numbers), std::move(slain)};
            Engine out;
            out.game = heroes_view(e.game, maps, sight);
            if (!append_shown_events(events, out.game.log_events)) {
                for (nb::handle event : events) out.game.log_events.push_back(value_of(event));
            }
            return out;
        },
        "engine"_a, "maps"_a, "visible"_a, "numbers"_a, "slain"_a, "events"_a,
        "The heroes' playable view of the game as a new Engine on the view's content (sideview._redact in the "
        "core): `visible`, the slots of the monsters heroes see; `numbers`, engine monster id -> their number; "
        "`slain`, engine label -> a hero among its killers; `events`, the heroes' events (a ShownEvents or dicts), "
        "its log. Its dice are the caller's to set.");
}

}  // namespace dungeon_core
