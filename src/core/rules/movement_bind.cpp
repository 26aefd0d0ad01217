// Test bindings of the movement port (_core.rules.movement): each takes the Engine first.
#include <nanobind/nanobind.h>
#include <nanobind/stl/vector.h>

#include "bridge.hpp"
#include "rules/movement.hpp"

namespace nb = nanobind;

namespace dungeon_core {
namespace {

void bind(nb::module_& m) {
    m.def("can_buy_move", [](Engine& e, int u) { return movement::can_buy_move(e.game, u); });
    m.def("legal_hero_move", [](Engine& e, int h) { return movement::legal_hero_move(e.game, h); });
    m.def("legal_hero_move_reference", [](Engine& e, int h) { return movement::legal_hero_move_reference(e.game, h); });
    m.def("do_hero_move", [](Engine& e, int h, int action) { movement::do_hero_move(e.game, h, action); });
    m.def("end_movement", [](Engine& e, int h) { movement::end_movement(e.game, h); });
    m.def("step", [](Engine& e, int u, int to) { movement::step(e.game, u, to); });
    m.def("leave_dungeon", [](Engine& e, int h) { movement::leave_dungeon(e.game, h); });
    m.def("can_pay_evade", [](Engine& e, int h) { return movement::can_pay_evade(e.game, h); });
    m.def("legal_evade", [](Engine& e, int h) { return movement::legal_evade(e.game, h); });
    m.def("do_evade", [](Engine& e, int h, int action) { movement::do_evade(e.game, h, action); });
    m.def("legal_monster_move", [](Engine& e, int u) { return movement::legal_monster_move(e.game, u); });
    m.def("legal_monster_move_reference",
          [](Engine& e, int u) { return movement::legal_monster_move_reference(e.game, u); });
    m.def("do_monster_move", [](Engine& e, int u, int action) { movement::do_monster_move(e.game, u, action); });
}

Binder binder("movement", &bind);

}  // namespace
}  // namespace dungeon_core
