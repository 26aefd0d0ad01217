// Test bindings of the unit rules (_core.rules.units): each takes the Engine first.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bridge.hpp"
#include "rules/units.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace dungeon_core {
namespace {

using Names = std::vector<std::string>;

void bind(nb::module_& m) {
    m.def("label", [](Engine& e, int u) { return units::label(e.game, u); });
    m.def("has_trait", [](Engine& e, int u, const std::string& t) { return units::has_trait(e.game, u, t); });
    m.def("traits_of", [](Engine& e, int u) { return units::traits_of(e.game, u); });
    m.def("unit_info", [](Engine& e, int u) { return to_python(units::unit_info(e.game, u)); });
    m.def("place_hero", [](Engine& e, int u, int card, int sq) { units::place_hero(e.game, u, card, sq); });
    m.def("free_slot", [](Engine& e) { return units::free_slot(e.game); });
    m.def("place_monster", [](Engine& e, const std::string& id, int sq, int how) {
        return units::place_monster(e.game, id, sq, how);
    });
    m.def("put", [](Engine& e, int u, int sq) { units::put(e.game, u, sq); });
    m.def("take_off", [](Engine& e, int u) { units::take_off(e.game, u); });
    m.def("active_heroes", [](Engine& e) { return units::active_heroes(e.game); });
    m.def("active_monsters", [](Engine& e) { return units::active_monsters(e.game); });
    m.def("any_monster", [](Engine& e) { return units::any_monster(e.game); });
    m.def("spend_stamina", [](Engine& e, int u, int amount) { units::spend_stamina(e.game, u, amount); });
    m.def("gain_stamina", [](Engine& e, int u, int amount) { units::gain_stamina(e.game, u, amount); });
    m.def("heal", [](Engine& e, int u, int amount) { units::heal(e.game, u, amount); });
    m.def(
        "hurt_hero",
        [](Engine& e, int u, int amount, const std::string& source, const Names& killers, std::optional<bool> down_before) {
            units::hurt_hero(e.game, u, amount, source, killers, down_before);
        },
        "e"_a, "u"_a, "amount"_a, "source"_a, "killers"_a = Names{}, "down_before"_a = nb::none());
    m.def(
        "deaths_door_roll", [](Engine& e, int u, const Names& killers) { units::deaths_door_roll(e.game, u, killers); },
        "e"_a, "u"_a, "killers"_a = Names{});
    m.def(
        "kill_hero", [](Engine& e, int u, const Names& killers) { units::kill_hero(e.game, u, killers); }, "e"_a,
        "u"_a, "killers"_a = Names{});
    m.def("slay_monster", [](Engine& e, int u, const Names& killers) { units::slay_monster(e.game, u, killers); });
    m.def("together", [](Engine& e, int u, int v) { return units::together(e.game, u, v); });
    m.def("check_corpses", [](Engine& e) { units::check_corpses(e.game); });
}

Binder binder("units", &bind);

}  // namespace
}  // namespace dungeon_core
