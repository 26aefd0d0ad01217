// Test bindings of the visibility rules (_core.rules.visibility): each takes the Engine first.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include "bridge.hpp"
#include "rules/visibility.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace dungeon_core {
namespace {

void bind(nb::module_& m) {
    m.def("sees", [](Engine& e, int a, int b) { return visibility::sees(e.game, a, b); });
    m.def("visible_areas", [](Engine& e, int sq) { return visibility::visible_areas(e.game, sq); });
    m.def(
        "look", [](Engine& e, const std::vector<int>& heroes, bool alert) { visibility::look(e.game, heroes, alert); },
        "e"_a, "heroes"_a, "alert"_a = false);
    m.def(
        "wake_guards",
        [](Engine& e, const std::optional<std::vector<int>>& heroes) { visibility::wake_guards(e.game, heroes); },
        "e"_a, "heroes"_a = nb::none());
}

Binder binder("visibility", &bind);

}  // namespace
}  // namespace dungeon_core
