// Test bindings of the objectives rules (_core.rules.objectives): each takes the Engine first.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include "bridge.hpp"
#include "rules/objectives.hpp"

namespace nb = nanobind;

namespace dungeon_core {
namespace {

void bind(nb::module_& m) {
    m.def("objective_met", [](Engine& e, int index) { return objectives::objective_met(e.game, index); });
    m.def("objectives_report", [](Engine& e) {
        nb::list out;
        for (const Value& v : objectives::objectives_report(e.game)) out.append(to_python(v));
        return out;
    });
    m.def("goals_met", [](Engine& e) { return objectives::goals_met(e.game); });
    m.def("ending", [](Engine& e) { return objectives::ending(e.game); });
}

Binder binder("objectives", &bind);

}  // namespace
}  // namespace dungeon_core
