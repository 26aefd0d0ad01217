// dungeon_env._core: the compiled core's Python module (nanobind).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <string>

#include "movement.hpp"
#include "pursuit.hpp"

namespace nb = nanobind;
using namespace nb::literals;
using dungeon_core::Board;

template <typename T>
using Vec = nb::ndarray<const T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
template <typename T>
using Mat4 = nb::ndarray<const T, nb::shape<-1, 4>, nb::c_contig, nb::device::cpu>;

namespace {

// The tables agree in size and every trap lies on the board (else a ValueError naming what is wrong).
void check_board(const Board& b) {
    const size_t n = b.ground.size();
    if (b.side_to.size() != 4 * n || b.side_door.size() != 4 * n || b.blockage.size() != n) {
        throw std::invalid_argument("Board: side_to, side_door, ground and blockage must have one row per square (" +
                                    std::to_string(n) + ")");
    }
    for (int32_t q : b.trap_square) {
        if (q < 0 || q >= static_cast<int32_t>(n)) throw std::invalid_argument("Board: a trap square is off the board");
    }
}

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
    check_board(b);
    b.finish();
    return b;
}

// The doors the board's sides name all have a state (else the core would read past the array).
void check_doors(const Board& board, size_t doors, const char* who) {
    if (doors < static_cast<size_t>(board.n_doors)) {
        throw std::invalid_argument(std::string(who) + ": door_open must have an entry for each of the board's " +
                                    std::to_string(board.n_doors) + " doors");
    }
}

void check_squares(const Board& board, const std::vector<int32_t>& squares, const char* who, const char* what) {
    for (int32_t q : squares) {
        if (q < 0 || q >= board.n_squares) throw std::invalid_argument(std::string(who) + ": " + what + " is off the board");
    }
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
    check_doors(board, door_open.shape(0), "distances");
    check_squares(board, sources, "distances", "a source square");
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
    check_doors(board, door_passable.shape(0), "costs");
    check_squares(board, targets, "costs", "a target square");
    const std::vector<int64_t> dist = dungeon_core::cost_field(board, door_passable.data(), cost.data(), targets, inf);
    PyObject* out = PyList_New(static_cast<Py_ssize_t>(dist.size()));
    if (!out) throw nb::python_error();
    for (size_t i = 0; i < dist.size(); ++i) PyList_SET_ITEM(out, static_cast<Py_ssize_t>(i), PyLong_FromLongLong(dist[i]));
    return nb::steal<nb::list>(out);
}

template <typename T>
Vec<T> field_of(nb::handle state, const char* name, size_t size) {
    Vec<T> array;
    if (!nb::try_cast(state.attr(name), array, /*convert=*/false)) {  // a view, never a converted copy
        throw std::invalid_argument(std::string("monster_move_actions: state.") + name +
                                    " is not a one-dimensional C-contiguous array of the engine's dtype");
    }
    if (array.shape(0) < size) {
        throw std::invalid_argument(std::string("monster_move_actions: state.") + name + " is too short");
    }
    return array;
}

// movement.legal_monster_move, reading the state's arrays in place.
std::vector<int32_t> monster_move_actions(const Board& board, nb::handle state, int32_t m, int32_t stamina_max,
                                          std::tuple<int32_t, int32_t, int32_t, int32_t> ids) {
    const size_t n = board.n_squares;
    auto occupant = field_of<int16_t>(state, "occupant", n);
    auto door_open = field_of<bool>(state, "door_open", 0);
    check_doors(board, door_open.shape(0), "monster_move_actions");
    auto trap_armed = field_of<bool>(state, "trap_armed", board.trap_square.size());
    auto trap_detected = field_of<bool>(state, "trap_detected", board.trap_square.size());
    auto status = field_of<int8_t>(state, "unit_status", 0);
    const size_t units = status.shape(0);
    if (m < 0 || static_cast<size_t>(m) >= units) throw std::invalid_argument("monster_move_actions: no such unit slot");
    auto pos = field_of<int16_t>(state, "unit_pos", units);
    auto base_move = field_of<int16_t>(state, "base_move", units);
    auto move_from = field_of<int16_t>(state, "move_from", units);
    auto move_left = field_of<int16_t>(state, "move_left", units);
    auto move_bought = field_of<int8_t>(state, "move_bought", units);
    auto stamina = field_of<int16_t>(state, "stamina", units);
    auto exhausted = field_of<bool>(state, "exhausted", units);
    auto moved = field_of<bool>(state, "moved", units);
    auto deferred = field_of<bool>(state, "deferred", units);
    const int n_heroes = nb::cast<int>(state.attr("n_heroes"));
    const bool others_to_move = PyObject_IsTrue(state.attr("queue").ptr()) == 1;  // `if s.queue`
    if (pos.data()[m] < 0 || static_cast<size_t>(pos.data()[m]) >= n) {
        throw std::invalid_argument("monster_move_actions: the monster is not on the board");
    }
    const dungeon_core::Position position{door_open.data(), occupant.data(), trap_armed.data(), trap_detected.data()};
    const dungeon_core::Units view{n_heroes,        status.data(),   pos.data(),         base_move.data(),
                                   move_from.data(), move_left.data(), move_bought.data(), stamina.data(),
                                   exhausted.data(), moved.data(),     deferred.data()};
    const dungeon_core::MoveActionIds action_ids{std::get<0>(ids), std::get<1>(ids), std::get<2>(ids), std::get<3>(ids)};
    return dungeon_core::monster_move_actions(board, position, view, m, stamina_max, others_to_move, action_ids);
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
            check_board(b);
            b.finish();
        });
    m.attr("UNREACHABLE") = dungeon_core::UNREACHABLE;
    m.attr("ACTIVE") = dungeon_core::ACTIVE;
    m.def("monster_move_actions", &monster_move_actions, "board"_a, "state"_a, "monster"_a, "stamina_max"_a,
          "action_ids"_a,
          "A monster's Movement choices (movement.legal_monster_move), reading the state's arrays in place; "
          "action_ids: (MOVE_N, EXTRA_MOVE, END, DEFER).");
    m.def("distances", &distances, "board"_a, "door_open"_a, "blank"_a.none(), "sources"_a, "limit"_a, "around"_a,
          "Walking distance from the nearest source to every square (a tuple; see dungeon_env.engine.core).");
    m.def("costs", &costs, "board"_a, "door_passable"_a, "cost"_a, "targets"_a, "inf"_a,
          "The cheapest way from every square to the nearest target (a list; see dungeon_env.engine.core).");
}
