// Test bindings of the board rules (_core.rules.board): each takes the Engine first.
#include <nanobind/nanobind.h>
#include <nanobind/stl/vector.h>

#include "bridge.hpp"
#include "rules/board.hpp"

namespace nb = nanobind;

namespace dungeon_core {
namespace {

void bind(nb::module_& m) {
    m.def("open_side", [](Engine& e, int sq, int d) { return board::open_side(e.game, sq, d); });
    m.def("open_neighbours", [](Engine& e, int sq) { return board::open_neighbours(e.game, sq); });
    m.def("next_to", [](Engine& e, int a, int b) { return board::next_to(e.game, a, b); });
    m.def("free", [](Engine& e, int sq) { return board::free(e.game, sq); });
    m.def("is_corpse", [](Engine& e, int sq) { return board::is_corpse(e.game, sq); });
    m.def("heroes_beside", [](Engine& e, int h) { return board::heroes_beside(e.game, h); });
    m.def("trap_squares", [](Engine& e) { return board::trap_squares(e.game); });
    m.def("trap_at", [](Engine& e, int sq) { return board::trap_at(e.game, sq); });
    m.def("traps_in_area", [](Engine& e, int area) { return board::traps_in_area(e.game, area); });
    m.def("is_hazard", [](Engine& e, int i) { return board::is_hazard(e.game, i); });
    m.def("blocks", [](Engine& e, int sq) { return board::blocks(e.game, sq); });
    m.def("is_jumpable", [](Engine& e, int sq) { return board::is_jumpable(e.game, sq); });
}

Binder binder("board", &bind);

}  // namespace
}  // namespace dungeon_core
