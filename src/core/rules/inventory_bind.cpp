// Test bindings of the inventory rules (_core.rules.inventory): each takes the Engine first.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bridge.hpp"
#include "rules/inventory.hpp"

namespace nb = nanobind;

namespace dungeon_core {
namespace {

using Carried = std::optional<std::vector<std::vector<std::pair<std::string, bool>>>>;

void bind(nb::module_& m) {
    m.def("uniform", [](Engine& e, int n) { return inventory::uniform(e.game, n); });
    m.def("setup_items", [](Engine& e, const Carried& carried) { inventory::setup_items(e.game, carried); });
    m.def("create", [](Engine& e, const std::string& card_id) { return inventory::create(e.game, card_id); });
    m.def("draw", [](Engine& e, const std::string& deck) { return inventory::draw(e.game, deck); });
    m.def("held", [](Engine& e, int u) { return inventory::held(e.game, u); });
    m.def("can_hold", [](Engine& e, int u) { return inventory::can_hold(e.game, u); });
    m.def("give", [](Engine& e, int item, int unit) { return inventory::give(e.game, item, unit); });
    m.def("destroy", [](Engine& e, int item) { inventory::destroy(e.game, item); });
    m.def("card_of", [](Engine& e, int item) { return inventory::card_of(e.game, item).id; }, "The card's id.");
    m.def("reveal", [](Engine& e, int item, const std::string& how) { inventory::reveal(e.game, item, how); });
    m.def("end_adventure", [](Engine& e) { inventory::end_adventure(e.game); });
}

Binder binder("inventory", &bind);

}  // namespace
}  // namespace dungeon_core
