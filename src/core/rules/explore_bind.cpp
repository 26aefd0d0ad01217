// Test bindings of the explore port (_core.rules.explore): each takes the Engine first.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bridge.hpp"
#include "rules/explore.hpp"

namespace nb = nanobind;

namespace dungeon_core {
namespace {

void bind(nb::module_& m) {
    m.def("begin_explore", [](Engine& e) { explore::begin_explore(e.game); });
    m.def("resume_explore", [](Engine& e) { explore::resume_explore(e.game); });
    m.def("legal_explore_choice",
          [](Engine& e, int unit, int a, int b) { return explore::legal_explore_choice(e.game, unit, a, b); });
    m.def("do_explore_choice", [](Engine& e, int unit, int a, int b, int action) {
        explore::do_explore_choice(e.game, unit, a, b, action);
    });
    m.def("end_acts", [](Engine& e, int unit) { explore::end_acts(e.game, unit); });
    m.def("area_order", [](Engine& e) { return explore::area_order(e.game); });
    m.def("affected", [](Engine& e, int ev) { return explore::affected(e.game, ev); });
    m.def("fire_event", [](Engine& e, int ev) { explore::fire_event(e.game, ev); });
    m.def("trait_check", [](Engine& e, int h, const std::string& trait) { return explore::trait_check(e.game, h, trait); });
    // the k-th option of event ev (Python passes the option itself)
    m.def("resolve_option", [](Engine& e, int ev, int k, int h) {
        explore::resolve_option(e.game, ev, e.game.adventure().events.at(ev).options.at(k), h);
    });
    m.def("legal_event_choice",
          [](Engine& e, int unit, int a, int b) { return explore::legal_event_choice(e.game, unit, a, b); });
    m.def("do_event_choice", [](Engine& e, int unit, int a, int b, int action) {
        explore::do_event_choice(e.game, unit, a, b, action);
    });
    m.def("legal_claim", [](Engine& e, int unit, int a, int b) { return explore::legal_claim(e.game, unit, a, b); });
    m.def("do_claim",
          [](Engine& e, int unit, int a, int b, int action) { explore::do_claim(e.game, unit, a, b, action); });
    m.def("spawn_event_monsters", [](Engine& e, int ev) { return explore::spawn_event_monsters(e.game, ev); });
    m.def("reveal_door", [](Engine& e, int door) { explore::reveal_door(e.game, door); });
}

Binder binder("explore", &bind);

}  // namespace
}  // namespace dungeon_core
