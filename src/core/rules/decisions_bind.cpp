// Test bindings of the decisions port (_core.rules.decisions): each takes the Engine first.
#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/vector.h>

#include "bridge.hpp"
#include "rules/decisions.hpp"

namespace nb = nanobind;

namespace dungeon_core {
namespace {

void bind(nb::module_& m) {
    m.def("legal", [](Engine& e, int kind, int unit, int a, int b) { return decisions::legal(e.game, kind, unit, a, b); });
    m.def("apply", [](Engine& e, int kind, int unit, int a, int b, int action) {
        decisions::apply(e.game, kind, unit, a, b, action);
    });
    // figures as ints, LOOT's (corpse, item) pairs as tuples: as Python's target_candidates gives them
    m.def("target_candidates", [](Engine& e, int unit, int a, int b) {
        nb::list out;
        for (const auto& [first, second] : decisions::target_candidates(e.game, unit, a, b)) {
            if (a == TARGET_LOOT) {
                out.append(nb::make_tuple(first, second));
            } else {
                out.append(first);
            }
        }
        return out;
    });
}

Binder binder("decisions", &bind);

}  // namespace
}  // namespace dungeon_core
