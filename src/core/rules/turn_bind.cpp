// Test bindings of the turn port (_core.rules.turn): each takes the Engine first.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bridge.hpp"
#include "rules/turn.hpp"

namespace nb = nanobind;

namespace dungeon_core {
namespace {

void bind(nb::module_& m) {
    m.def("begin", [](Engine& e) { turn::begin(e.game); });
    m.def("resume", [](Engine& e) { turn::resume(e.game); });
    m.def("turn_start", [](Engine& e) { turn::turn_start(e.game); });
    m.def("hero_movement", [](Engine& e) { turn::hero_movement(e.game); });
    m.def("handoffs", [](Engine& e, int h) { return turn::handoffs(e.game, h); });
    m.def("handoff", [](Engine& e, int to) { turn::handoff(e.game, to); });
    m.def("spell_selection", [](Engine& e) { turn::spell_selection(e.game); });
    m.def("monster_movement", [](Engine& e) { turn::monster_movement(e.game); });
    m.def("evasion", [](Engine& e) { turn::evasion(e.game); });
    m.def("fighting", [](Engine& e) { turn::fighting(e.game); });
    m.def("spell_resolution", [](Engine& e) { turn::spell_resolution(e.game); });
    m.def("turn_end", [](Engine& e) { turn::turn_end(e.game); });
}

Binder binder("turn", &bind);

}  // namespace
}  // namespace dungeon_core
