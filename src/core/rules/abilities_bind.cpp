// Test bindings of the abilities port (_core.rules.abilities), each taking the Engine first.
#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bridge.hpp"
#include "rules/abilities.hpp"

namespace nb = nanobind;

namespace dungeon_core {
namespace {

void bind(nb::module_& m) {
    m.def("card_abilities", [](Engine& e, int h) {  // the abilities' ids
        std::vector<std::string> ids;
        for (const Ability& a : abilities::card_abilities(e.game, h)) ids.push_back(a.id);
        return ids;
    });
    m.def("ready", [](Engine& e, int h, int k) { return abilities::ready(e.game, h, k); });
    m.def("ready_pairs", [](Engine& e) { return abilities::ready_pairs(e.game); });
    m.def("ability_actions", [](Engine& e, int h, const std::string& when) { return abilities::ability_actions(e.game, h, when); });
    m.def("use", [](Engine& e, int h, int k, const std::string& when) { abilities::use(e.game, h, k, when); });
    m.def("targets", [](Engine& e, int h) { return abilities::targets(e.game, h); });
    m.def("land_on", [](Engine& e, int unit, int k, int target) { abilities::land_on(e.game, unit, k, target); });
}

Binder binder("abilities", &bind);

}  // namespace
}  // namespace dungeon_core
