// Test bindings of the encounter rules (_core.rules.encounters): each takes the Engine first.
#include <nanobind/nanobind.h>
#include <nanobind/stl/vector.h>

#include "bridge.hpp"
#include "rules/encounters.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace dungeon_core {
namespace {

void bind(nb::module_& m) {
    m.def(
        "encounter",
        [](Engine& e, const std::vector<int>& group, int how, bool unsurprisable) {
            encounters::encounter(e.game, group, how, unsurprisable);
        },
        "e"_a, "group"_a, "how"_a, "unsurprisable"_a = false);
    m.def("surprise_lasts_until", [](Engine& e) { return encounters::surprise_lasts_until(e.game); });
    m.def("patrols_relevant", [](Engine& e) { return encounters::patrols_relevant(e.game); });
    m.def("patrol_monsters_on_board", [](Engine& e) { return encounters::patrol_monsters_on_board(e.game); });
    m.def("patrols_paused", [](Engine& e) { return encounters::patrols_paused(e.game); });
    m.def("roll_patrols", [](Engine& e) { encounters::roll_patrols(e.game); });
    m.def("spawn_patrol", [](Engine& e, int area) { return encounters::spawn_patrol(e.game, area); });
    m.def("trigger_ambushes", [](Engine& e, int h) { encounters::trigger_ambushes(e.game, h); });
}

Binder binder("encounters", &bind);

}  // namespace
}  // namespace dungeon_core
