// Test bindings of the items port: _core.rules.items.<function>(engine, ...) (tests/test_core_rules_items.py).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bridge.hpp"
#include "rules/items.hpp"

namespace nb = nanobind;

namespace dungeon_core {
namespace {

using S = const std::string&;

void bind(nb::module_& m) {
    m.def("can_use", [](Engine& e, int h, int item, S when) { return items::can_use(e.game, h, item, when); });
    m.def("can_identify", [](Engine& e, int h, int item) { return items::can_identify(e.game, h, item); });
    m.def("item_verbs", [](Engine& e, int h, int item, S when) { return items::item_verbs(e.game, h, item, when); });
    m.def("item_actions", [](Engine& e, int h, S when) { return items::item_actions(e.game, h, when); });
    m.def("decline", [](Engine& e, int h, int item) { items::decline(e.game, h, item); });
    m.def("pick_item", [](Engine& e, int h, int k, S when) { items::pick_item(e.game, h, k, when); });
    m.def("legal_item_verb", [](Engine& e, int u, int a, int b) { return items::legal_item_verb(e.game, u, a, b); });
    m.def("do_item_verb", [](Engine& e, int u, int a, int b, int action) {
        items::do_item_verb(e.game, u, a, b, action);
    });
    m.def("identify", [](Engine& e, int h, int item) { items::identify(e.game, h, item); });
    m.def("use_item", [](Engine& e, int h, int item, S when) { items::use_item(e.game, h, item, when); });
    m.def("item_targets", [](Engine& e, int h) { return items::item_targets(e.game, h); });
    m.def("finish_use", [](Engine& e, int h, int item, int target) { items::finish_use(e.game, h, item, target); });
}

Binder binder("items", &bind);

}  // namespace
}  // namespace dungeon_core
