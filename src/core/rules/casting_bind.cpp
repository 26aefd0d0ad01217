// Test bindings of the casting rules (_core.rules.casting): each takes the Engine first.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "bridge.hpp"
#include "rules/casting.hpp"

namespace nb = nanobind;

namespace dungeon_core {
namespace {

void bind(nb::module_& m) {
    m.def("is_casting", [](Engine& e, int h) { return casting::is_casting(e.game, h); });
    m.def("fail_spell", [](Engine& e, int h, const std::string& reason) { casting::fail_spell(e.game, h, reason); });
}

Binder binder("casting", &bind);

}  // namespace
}  // namespace dungeon_core
