// Test bindings of the combat port (_core.rules.combat): each takes the Engine first.
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bridge.hpp"
#include "rules/combat.hpp"

namespace nb = nanobind;

namespace dungeon_core {
namespace {

void bind(nb::module_& m) {
    m.def("gather_fights", [](Engine& e) { return combat::gather_fights(e.game); });
    m.def("enemy_counts", [](Engine& e) { return combat::enemy_counts(e.game.state.fights); },
          "enemy_counts(state.fights)");
    m.def("begin_fighting", [](Engine& e) { return combat::begin_fighting(e.game); });
    m.def("legal_fight_stamina", [](Engine& e, int u) { return combat::legal_fight_stamina(e.game, u); });
    m.def("do_fight_stamina", [](Engine& e, int u, int action) { combat::do_fight_stamina(e.game, u, action); });
    // the modifiers as (name, amount) pairs, in order
    m.def("hero_modifiers",
          [](Engine& e, int h, int enemies, int spend) { return combat::hero_modifiers(e.game, h, enemies, spend); });
    m.def("monster_modifiers", [](Engine& e, int u, int enemies, int spend) {
        return combat::monster_modifiers(e.game, u, enemies, spend);
    });
    m.def("resolve_fight", [](Engine& e, int i) { combat::resolve_fight(e.game, e.game.state.fights.at(i)); },
          "resolve_fight on row i of state.fights");
    m.def("apply_fight_damage", [](Engine& e) { combat::apply_fight_damage(e.game); });
}

Binder binder("combat", &bind);

}  // namespace
}  // namespace dungeon_core
