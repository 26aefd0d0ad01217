// Test bindings of the mental port (_core.rules.mental), each taking the Engine first.
#include <nanobind/nanobind.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bridge.hpp"
#include "rules/mental.hpp"

namespace nb = nanobind;

namespace dungeon_core {
namespace {

void bind(nb::module_& m) {
    m.def("start", [](Engine& e, int aggressor, int defender, int purpose) { mental::start(e.game, aggressor, defender, purpose); });
    m.def("legal_bid", [](Engine& e, int unit, int a, int b) { return mental::legal_bid(e.game, unit, a, b); });
    m.def("do_bid", [](Engine& e, int unit, int a, int b, int action) { return mental::do_bid(e.game, unit, a, b, action); });
    m.def("modifiers", [](Engine& e, int u, int bid) {
        nb::dict d;
        for (const auto& x : mental::modifiers(e.game, u, bid)) d[x.first.c_str()] = x.second;
        return d;
    });
    m.def("roll", [](Engine& e, int a, int b, int a_bid, int b_bid) { return mental::roll(e.game, a, b, a_bid, b_bid); });
    m.def("lashers", [](Engine& e) { return mental::lashers(e.game); });
    m.def("lash_target", [](Engine& e, int m) { return mental::lash_target(e.game, m); });
    m.def("monster_attack", [](Engine& e, int m) { mental::monster_attack(e.game, m); });
    m.def("lash_lands", [](Engine& e, int m, int h, int result) { mental::lash_lands(e.game, m, h, result); });
}

Binder binder("mental", &bind);

}  // namespace
}  // namespace dungeon_core
