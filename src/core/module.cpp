// dungeon_env._core: the compiled core's Python module (nanobind).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <string>

#include "pursuit.hpp"

namespace nb = nanobind;
using namespace nb::literals;
using dungeon_core::Board;

template <typename T>
using Vec = nb::ndarray<const T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
template <typename T>
using Mat4 = nb::ndarray<const T, nb::shape<-1, 4>, nb::c_contig, nb::device::cpu>;

namespace {

Board make_board(Mat4<int32_t> side_to, Mat4<int32_t> side_door, Vec<bool> ground, Vec<bool> blockage,
                 Vec<int32_t> trap_square) {
    const size_t n = side_to.shape(0);
    if (side_door.shape(0) != n || ground.shape(0) != n || blockage.shape(0) != n) {
        throw std::invalid_argument("Board: side_to, side_door, ground and blockage must have one row per square (" +
                                    std::to_string(n) + ")");
    }
    Board b;
    b.n_squares = static_cast<int>(n);
    b.side_to.assign(side_to.data(), side_to.data() + 4 * n);
    b.side_door.assign(side_door.data(), side_door.data() + 4 * n);
    b.ground.assign(ground.data(), ground.data() + n);
    b.blockage.assign(blockage.data(), blockage.data() + n);
    b.trap_square.assign(trap_square.data(), trap_square.data() + trap_square.shape(0));
    b.finish();
    for (int32_t q : b.trap_square) {
        if (q < 0 || q >= b.n_squares) throw std::invalid_argument("Board: a trap square is off the board");
    }
    return b;
}

std::pair<std::vector<int32_t>, bool> allowed(const Board& board, Vec<bool> door_open, Vec<int16_t> occupant,
                                              Vec<bool> trap_armed, Vec<bool> trap_detected, int32_t here,
                                              int32_t start, int32_t base_move, int32_t budget, int32_t reach,
                                              const std::vector<int32_t>& hero_squares,
                                              const std::vector<int32_t>& step_squares) {
    if (occupant.shape(0) != static_cast<size_t>(board.n_squares)) {
        throw std::invalid_argument("allowed: occupant must have one entry per square");
    }
    if (trap_armed.shape(0) != board.trap_square.size() || trap_detected.shape(0) != board.trap_square.size()) {
        throw std::invalid_argument("allowed: trap_armed and trap_detected must have one entry per trap");
    }
    const dungeon_core::Position pos{door_open.data(), occupant.data(), trap_armed.data(), trap_detected.data()};
    const dungeon_core::Mover mover{here, start, base_move, budget, reach};
    auto found = dungeon_core::allowed(board, pos, mover, hero_squares, step_squares);
    return {std::move(found.steps), found.end_ok};
}

// A distance field as a tuple (immutable: the engine memoises fields and shares them between games).
nb::tuple distances(const Board& board, Vec<bool> door_open, nb::object blank, const std::vector<int32_t>& sources,
                    int32_t limit, int32_t around) {
    const int32_t* blank_data = nullptr;
    Vec<int32_t> blank_array;
    if (!blank.is_none()) {
        blank_array = nb::cast<Vec<int32_t>>(blank);
        if (blank_array.shape(0) != static_cast<size_t>(board.n_squares)) {
            throw std::invalid_argument("distances: blank must have one entry per square");
        }
        blank_data = blank_array.data();
    }
    for (int32_t q : sources) {
        if (q < 0 || q >= board.n_squares) throw std::invalid_argument("distances: a source square is off the board");
    }
    if (around >= board.n_squares) throw std::invalid_argument("distances: around is off the board");
    const std::vector<int32_t> dist =
        dungeon_core::distance_field(board, door_open.data(), blank_data, sources, limit, around);
    PyObject* out = PyTuple_New(static_cast<Py_ssize_t>(dist.size()));
    if (!out) throw nb::python_error();
    for (size_t i = 0; i < dist.size(); ++i) PyTuple_SET_ITEM(out, static_cast<Py_ssize_t>(i), PyLong_FromLong(dist[i]));
    return nb::steal<nb::tuple>(out);
}

nb::list costs(const Board& board, Vec<bool> door_passable, const std::vector<int64_t>& cost,
               const std::vector<int32_t>& targets, int64_t inf) {
    if (cost.size() != static_cast<size_t>(board.n_squares)) {
        throw std::invalid_argument("costs: cost must have one entry per square");
    }
    for (int64_t c : cost) {
        if (c < 1) throw std::invalid_argument("costs: every step must cost at least 1");
    }
    for (int32_t q : targets) {
        if (q < 0 || q >= board.n_squares) throw std::invalid_argument("costs: a target square is off the board");
    }
    const std::vector<int64_t> dist = dungeon_core::cost_field(board, door_passable.data(), cost.data(), targets, inf);
    PyObject* out = PyList_New(static_cast<Py_ssize_t>(dist.size()));
    if (!out) throw nb::python_error();
    for (size_t i = 0; i < dist.size(); ++i) PyList_SET_ITEM(out, static_cast<Py_ssize_t>(i), PyLong_FromLongLong(dist[i]));
    return nb::steal<nb::list>(out);
}

}  // namespace

NB_MODULE(_core, m) {
    m.doc() = "The compiled core of dungeon_env's rules engine (see docs/CORE.md).";
    nb::class_<Board>(m, "Board", "One adventure's static board: sides, standing ground, blockages, traps.")
        .def(nb::new_(&make_board), "side_to"_a, "side_door"_a, "ground"_a, "blockage"_a, "trap_square"_a)
        .def_ro("n_squares", &Board::n_squares)
        // pickled with the tables whose cache holds it (a game of an adventure file carries its tables)
        .def("__getstate__",
             [](const Board& b) {
                 return std::make_tuple(b.side_to, b.side_door, b.ground, b.blockage, b.trap_square);
             })
        .def("__setstate__", [](Board& b, const std::tuple<std::vector<int32_t>, std::vector<int32_t>,
                                                           std::vector<uint8_t>, std::vector<uint8_t>,
                                                           std::vector<int32_t>>& state) {
            new (&b) Board();
            std::tie(b.side_to, b.side_door, b.ground, b.blockage, b.trap_square) = state;
            b.n_squares = static_cast<int>(b.ground.size());
            if (b.side_to.size() != 4 * b.ground.size() || b.side_door.size() != b.side_to.size() ||
                b.blockage.size() != b.ground.size()) {
                throw std::invalid_argument("Board: a pickled board's tables do not agree in size");
            }
            b.finish();
        });
    m.attr("UNREACHABLE") = dungeon_core::UNREACHABLE;
    m.def("distances", &distances, "board"_a, "door_open"_a, "blank"_a.none(), "sources"_a, "limit"_a, "around"_a,
          "Walking distance from the nearest source to every square (a tuple; see dungeon_env.engine.core).");
    m.def("costs", &costs, "board"_a, "door_passable"_a, "cost"_a, "targets"_a, "inf"_a,
          "The cheapest way from every square to the nearest target (a list; see dungeon_env.engine.core).");
    m.def("allowed", &allowed, "board"_a, "door_open"_a, "occupant"_a, "trap_armed"_a, "trap_detected"_a,
          "here"_a, "start"_a, "base_move"_a, "budget"_a, "reach"_a, "hero_squares"_a, "step_squares"_a,
          "The duty to attack (R-MON-03): the indices of the candidate steps a monster may take, and "
          "whether it may end its Movement (dungeon_env.engine.pursuit).");
}
