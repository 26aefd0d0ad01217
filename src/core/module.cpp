// dungeon_env._core: the compiled core's Python module (nanobind).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <string>

#include "movement.hpp"
#ifdef DUNGEON_CORE_ENGINE
namespace dungeon_core {
void bind_engine(nanobind::module_& m);  // bridge.hpp
void bind_setup(nanobind::module_& m);   // setup_bind.cpp
void bind_lens(nanobind::module_& m);    // lens_bind.cpp
void bind_batch(nanobind::module_& m);   // batch_bind.cpp
void bind_aec(nanobind::module_& m);     // aec_bind.cpp
void bind_heroes_view(nanobind::module_& m);  // heroes_view_bind.cpp
}
namespace dungeon_agents {
void bind_agents(nanobind::module_& m);  // src/agents/agents_bind.cpp (not the engine's: it reads the engine)
}
#endif
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
    const size_t n = b.furniture.size();
    if (b.side_to.size() != 4 * n || b.side_door.size() != 4 * n || b.blockage.size() != n) {
        throw std::invalid_argument("Board: side_to, side_door, furniture and blockage must have one row per square (" +
                                    std::to_string(n) + ")");
    }
    for (int32_t q : b.trap_square) {
        if (q < 0 || q >= static_cast<int32_t>(n)) throw std::invalid_argument("Board: a trap square is off the board");
    }
}

Board make_board(Mat4<int32_t> side_to, Mat4<int32_t> side_door, Vec<bool> furniture, Vec<bool> blockage,
                 Vec<int32_t> trap_square) {
    const size_t n = side_to.shape(0);
    if (side_door.shape(0) != n || furniture.shape(0) != n || blockage.shape(0) != n) {
        throw std::invalid_argument("Board: side_to, side_door, furniture and blockage must have one row per square (" +
                                    std::to_string(n) + ")");
    }
    Board b;
    b.n_squares = static_cast<int>(n);
    b.side_to.assign(side_to.data(), side_to.data() + 4 * n);
    b.side_door.assign(side_door.data(), side_door.data() + 4 * n);
    b.furniture.assign(furniture.data(), furniture.data() + n);
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

template <typename T, typename Array = Vec<T>>
Array field_of(nb::handle state, const char* name, size_t size) {
    Array array;
    nb::object value = state.attr(name);
    if (!nb::try_cast(value, array, /*convert=*/false)) {  // read in place, never a converted copy
        // a strided view (a side's view shares the game's arrays): read a contiguous copy of it
        value = nb::module_::import_("numpy").attr("ascontiguousarray")(value);
        if (!nb::try_cast(value, array, /*convert=*/false)) {
            throw std::invalid_argument(std::string("state.") + name + " is not an array of the engine's dtype and shape");
        }
    }
    if (array.shape(0) < size) throw std::invalid_argument(std::string("state.") + name + " is too short");
    return array;
}

// The state's arrays a Movement reads, as views (the arrays stay owned by the Python state).
class MovementState {
   public:
    // off_board_ok: the figure may be off the board (square -1)
    MovementState(const Board& board, nb::handle state, int32_t u, bool off_board_ok = false)
        : occupant_(field_of<int16_t>(state, "occupant", board.n_squares)),
          door_open_(field_of<bool>(state, "door_open", board.n_doors)),
          trap_armed_(field_of<bool>(state, "trap_armed", board.trap_square.size())),
          trap_detected_(field_of<bool>(state, "trap_detected", board.trap_square.size())),
          status_(field_of<int8_t>(state, "unit_status", 0)),
          pos_(field_of<int16_t>(state, "unit_pos", status_.shape(0))),
          base_move_(field_of<int16_t>(state, "base_move", status_.shape(0))),
          move_from_(field_of<int16_t>(state, "move_from", status_.shape(0))),
          move_left_(field_of<int16_t>(state, "move_left", status_.shape(0))),
          move_bought_(field_of<int8_t>(state, "move_bought", status_.shape(0))),
          stamina_(field_of<int16_t>(state, "stamina", status_.shape(0))),
          exhausted_(field_of<bool>(state, "exhausted", status_.shape(0))),
          moved_(field_of<bool>(state, "moved", status_.shape(0))),
          deferred_(field_of<bool>(state, "deferred", status_.shape(0))),
          n_heroes_(nb::cast<int>(state.attr("n_heroes"))) {
        const size_t units = status_.shape(0);
        if (u < 0 || static_cast<size_t>(u) >= units) throw std::invalid_argument("no such unit slot");
        if (n_heroes_ < 0 || static_cast<size_t>(n_heroes_) > units) throw std::invalid_argument("state.n_heroes is off");
        const int32_t at = pos_.data()[u];
        if (at >= board.n_squares || (at < 0 && !(off_board_ok && at == -1))) {
            throw std::invalid_argument("the figure is not on the board");
        }
    }

    dungeon_core::Position position() const {
        return {door_open_.data(), occupant_.data(), trap_armed_.data(), trap_detected_.data()};
    }

    dungeon_core::Units units() const {
        return {n_heroes_,          status_.data(),    pos_.data(),     base_move_.data(),
                move_from_.data(),  move_left_.data(), move_bought_.data(), stamina_.data(),
                exhausted_.data(),  moved_.data(),     deferred_.data()};
    }

    size_t n_units() const { return status_.shape(0); }

   private:
    Vec<int16_t> occupant_;
    Vec<bool> door_open_, trap_armed_, trap_detected_;
    Vec<int8_t> status_;
    Vec<int16_t> pos_, base_move_, move_from_, move_left_;
    Vec<int8_t> move_bought_;
    Vec<int16_t> stamina_;
    Vec<bool> exhausted_, moved_, deferred_;
    int n_heroes_;
};

using Ids = std::tuple<int32_t, int32_t, int32_t, int32_t, int32_t, int32_t>;

dungeon_core::MoveActionIds action_ids(const Ids& ids) {
    return {std::get<0>(ids), std::get<1>(ids), std::get<2>(ids), std::get<3>(ids), std::get<4>(ids), std::get<5>(ids)};
}

// movement.legal_monster_move, reading the state's arrays in place.
std::vector<int32_t> monster_move_actions(const Board& board, nb::handle state, int32_t m, int32_t stamina_max,
                                          const Ids& ids) {
    const MovementState view(board, state, m, /*off_board_ok=*/true);
    const bool others_to_move = PyObject_IsTrue(state.attr("queue").ptr()) == 1;  // `if s.queue`
    return dungeon_core::monster_move_actions(board, view.position(), view.units(), m, stamina_max, others_to_move,
                                              action_ids(ids));
}

// movement.legal_hero_move, reading the state's arrays in place.
std::vector<int32_t> hero_move_actions(const Board& board, nb::handle state, int32_t h, int32_t stamina_max,
                                       const Ids& ids) {
    const MovementState view(board, state, h);
    using Doors = nb::ndarray<const bool, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
    const auto jumped = field_of<bool>(state, "jumped", view.n_units());
    const auto dragging = field_of<int16_t>(state, "dragging", view.n_units());
    const auto door_tried = field_of<bool, Doors>(state, "door_tried", static_cast<size_t>(h) + 1);
    const auto door_hidden = field_of<bool>(state, "door_hidden", board.n_doors);
    if (door_tried.shape(1) < static_cast<size_t>(board.n_doors)) {
        throw std::invalid_argument("state.door_tried must have a column for each of the board's doors");
    }
    const dungeon_core::HeroMove hero{jumped.data(),      dragging.data(),
                                      static_cast<int>(dragging.shape(0)), door_tried.data(),
                                      static_cast<int>(door_tried.shape(1)), door_hidden.data()};
    return dungeon_core::hero_move_actions(board, view.position(), view.units(), hero, h, stamina_max,
                                           action_ids(ids));
}

}  // namespace

NB_MODULE(_core, m) {
    m.doc() = "The compiled core of dungeon_env's rules engine (see docs/CORE.md).";

    nb::class_<Board>(m, "Board", "One adventure's static board: sides, furniture, blockages, traps.")
        .def(nb::new_(&make_board), "side_to"_a, "side_door"_a, "furniture"_a, "blockage"_a, "trap_square"_a)
        .def_ro("n_squares", &Board::n_squares)
        // pickled with the tables whose cache holds it (a game of an adventure file carries its tables)
        .def("__getstate__",
             [](const Board& b) {
                 return std::make_tuple(b.side_to, b.side_door, b.furniture, b.blockage, b.trap_square);
             })
        .def("__setstate__", [](Board& b, const std::tuple<std::vector<int32_t>, std::vector<int32_t>,
                                                           std::vector<uint8_t>, std::vector<uint8_t>,
                                                           std::vector<int32_t>>& state) {
            new (&b) Board();
            std::tie(b.side_to, b.side_door, b.furniture, b.blockage, b.trap_square) = state;
            b.n_squares = static_cast<int>(b.furniture.size());
            check_board(b);
            b.finish();
        });
    m.attr("UNREACHABLE") = dungeon_core::UNREACHABLE;
    m.attr("ACTIVE") = dungeon_core::ACTIVE;
    m.def("monster_move_actions", &monster_move_actions, "board"_a, "state"_a, "monster"_a, "stamina_max"_a,
          "action_ids"_a,
          "A monster's Movement choices (movement.legal_monster_move), reading the state's arrays in place; "
          "action_ids: (MOVE_N, EXTRA_MOVE, END, DEFER, JUMP_N, DRAG_N).");
    m.def("hero_move_actions", &hero_move_actions, "board"_a, "state"_a, "hero"_a, "stamina_max"_a, "action_ids"_a,
          "A hero's Movement choices (movement.legal_hero_move), reading the state's arrays in place; "
          "action_ids: (MOVE_N, EXTRA_MOVE, END, DEFER, JUMP_N, DRAG_N).");
    m.def("distances", &distances, "board"_a, "door_open"_a, "blank"_a.none(), "sources"_a, "limit"_a, "around"_a,
          "Walking distance from the nearest source to every square (a tuple; see dungeon_env.engine.core).");
    m.def("costs", &costs, "board"_a, "door_passable"_a, "cost"_a, "targets"_a, "inf"_a,
          "The cheapest way from every square to the nearest target (a list; see dungeon_env.engine.core).");
#ifdef DUNGEON_CORE_ENGINE
    dungeon_core::bind_engine(m);
    dungeon_core::bind_setup(m);
    dungeon_core::bind_lens(m);
    dungeon_core::bind_batch(m);
    dungeon_core::bind_aec(m);
    dungeon_core::bind_heroes_view(m);
    dungeon_agents::bind_agents(m);
#endif
}
