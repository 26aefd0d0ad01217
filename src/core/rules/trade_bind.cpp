// Test bindings of the trade port (_core.rules.trade): each takes the Engine first.
#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/vector.h>

#include "bridge.hpp"
#include "rules/trade.hpp"

namespace nb = nanobind;

namespace dungeon_core {
namespace {

void bind(nb::module_& m) {
    m.def("begin_trade", [](Engine& e) { trade::begin_trade(e.game); });
    m.def("resume_trade", [](Engine& e) { trade::resume_trade(e.game); });
    m.def("receivers", [](Engine& e, int h) { return trade::receivers(e.game, h); });
    m.def("corpse_items", [](Engine& e, int h) { return trade::corpse_items(e.game, h); });
    m.def("legal_trade_act", [](Engine& e, int u, int a, int b) { return trade::legal_trade_act(e.game, u, a, b); });
    m.def("giving_items", [](Engine& e, int u, int a, int b) { return trade::giving_items(e.game, u, a, b); });
    m.def("do_trade_act",
          [](Engine& e, int u, int a, int b, int action) { trade::do_trade_act(e.game, u, a, b, action); });
    m.def("give_to", [](Engine& e, int u, int item, int to) { trade::give_to(e.game, u, item, to); });
    m.def("loot", [](Engine& e, int u, std::pair<int, int> found) { trade::loot(e.game, u, found); });
}

Binder binder("trade", &bind);

}  // namespace
}  // namespace dungeon_core
