// Test bindings of the traps port (_core.rules.traps), each taking the Engine first.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bridge.hpp"
#include "rules/traps.hpp"

namespace nb = nanobind;

namespace dungeon_core {
namespace {

void bind(nb::module_& m) {
    m.def("on_enter", [](Engine& e, int u, int sq) { traps::on_enter(e.game, u, sq); });
    m.def("spring", [](Engine& e, int i, int u, bool keep_hazard) { traps::spring(e.game, i, u, keep_hazard); },
          nb::arg("e"), nb::arg("i"), nb::arg("u"), nb::arg("keep_hazard"));
    m.def("detect_from", [](Engine& e, int h, int limit) { return traps::detect_from(e.game, h, limit); });
    m.def("detect_traps", [](Engine& e) { traps::detect_traps(e.game); });
    m.def("room_detect", [](Engine& e, int h, int area) { return traps::room_detect(e.game, h, area); });
    m.def("disarm_actions", [](Engine& e, int h) { return traps::disarm_actions(e.game, h); });
    m.def("legal_disarm", [](Engine& e, int unit, int a, int b) { return traps::legal_disarm(e.game, unit, a, b); });
    m.def("do_disarm", [](Engine& e, int unit, int a, int b, int action) { traps::do_disarm(e.game, unit, a, b, action); });
}

Binder binder("traps", &bind);

}  // namespace
}  // namespace dungeon_core
