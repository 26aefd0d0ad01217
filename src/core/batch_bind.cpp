// _core.RoleBatch: the batched env's games stepped in the core (batch.hpp), as dungeon_env/batch_core.py
// drives them. The batch holds a reference to each game's engine and to the layout, so that they
// live as long as it plays them.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <string>
#include <tuple>

#include "batch.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace dungeon_core {
namespace {

template <typename T>
using Array = nb::ndarray<T, nb::c_contig, nb::device::cpu>;

// numpy's PCG64 state as Python hands it over: (state >> 64, state & mask, inc >> 64, inc & mask,
// has_uint32, uinteger)
using PcgState = std::tuple<uint64_t, uint64_t, uint64_t, uint64_t, bool, uint32_t>;

Pcg64 pcg_of(const PcgState& t) {
    Pcg64 p;
    p.state = (static_cast<unsigned __int128>(std::get<0>(t)) << 64) | std::get<1>(t);
    p.inc = (static_cast<unsigned __int128>(std::get<2>(t)) << 64) | std::get<3>(t);
    p.has_uint32 = std::get<4>(t);
    p.uinteger = std::get<5>(t);
    return p;
}

PcgState state_of(const Pcg64& p) {
    return {static_cast<uint64_t>(p.state >> 64), static_cast<uint64_t>(p.state), static_cast<uint64_t>(p.inc >> 64),
            static_cast<uint64_t>(p.inc), p.has_uint32, p.uinteger};
}

struct PyRoleBatch {
    nb::object layout_ref;
    RoleBatch batch;
    std::vector<nb::object> engines;  // each game's engine, kept alive while the batch plays it
    std::optional<Array<float>> rows;  // the rows last stepped into, kept alive while the batch traces them

    PyRoleBatch(int n, int role, nb::object layout, std::shared_ptr<const HeroRules> rules)
        : layout_ref(layout), batch(n, role, nb::cast<const ObsLayout*>(layout), std::move(rules)), engines(n) {}
};

// `arr` as a writable C-contiguous array of `rows` x `cols` entries, else a ValueError naming it
template <typename T>
T* rows_of(Array<T>& arr, const char* name, size_t rows, size_t cols, const char* dtype) {
    const size_t want = rows * cols;
    if (arr.size() != want || (arr.ndim() != 1 && arr.shape(0) != rows)) {
        throw std::invalid_argument(std::string(name) + ": expected a writable contiguous numpy array of " + dtype + " with " +
                                    std::to_string(rows) + " rows of " + std::to_string(cols));
    }
    return arr.data();
}

}  // namespace

void bind_batch(nb::module_& m) {
    nb::class_<PyRoleBatch>(m, "RoleBatch",
                            "N games stepped in the core: of one side against the random opponent (sides 0 the "
                            "heroes, 1 the DM: dungeon_env.batched.BatchedRoleEnv) or of both (2: BatchedGames).")
        .def(nb::init<int, int, nb::object, std::shared_ptr<const HeroRules>>(), "num_envs"_a, "sides"_a, "layout"_a,
             "rules"_a)
        .def_prop_ro("num_envs", [](const PyRoleBatch& b) { return b.batch.size(); })
        .def(
            "set",
            [](PyRoleBatch& b, int i, nb::object engine, const PcgState& opponent) {
                b.batch.set(i, nb::cast<Engine*>(engine), pcg_of(opponent));
                b.engines.at(i) = engine;
            },
            "i"_a, "engine"_a, "opponent"_a,
            "Game i plays `engine` (a new episode), the opponent drawing from numpy PCG64 state `opponent`.")
        .def(
            "settle", [](PyRoleBatch& b, int i) { return static_cast<int>(b.batch.settle(i)); }, "i"_a,
            "The opponent's moves in game i until the side is asked (0) or the game is over (1).")
        .def(
            "step",
            [](PyRoleBatch& b, Array<const int64_t> actions, Array<int8_t> status, Array<float> obs, Array<bool> masks,
               std::optional<Array<int64_t>> seats, int threads) {
                const size_t n = static_cast<size_t>(b.batch.size());
                const int64_t* a = rows_of(actions, "actions", n, 1, "int64");
                int8_t* st = rows_of(status, "status", n, 1, "int8");
                float* o = rows_of(obs, "obs", n, static_cast<size_t>(nb::cast<const ObsLayout*>(b.layout_ref)->size), "float32");
                bool* mk = rows_of(masks, "masks", n, static_cast<size_t>(N_ACTIONS), "bool");
                int64_t* se = seats ? rows_of(*seats, "seats", n, 1, "int64") : nullptr;
                if (!b.rows || b.rows->data() != o) b.rows = obs;
                nb::gil_scoped_release released;
                b.batch.step(a, st, o, reinterpret_cast<int8_t*>(mk), se, threads);
            },
            "actions"_a, "status"_a, "obs"_a, "masks"_a, "seats"_a.none(), "threads"_a,
            "One action per game (negative: skip the game), then the opponent's moves; each game's status (0 "
            "asked, 1 ended, 2 the action refused, 3 skipped), observation and mask and (if given) the seat asked (a hero's index, -1 the "
            "DM) into the arrays, on `threads` threads. `obs` are the batch's rows: nobody else may write into them "
            "between steps (the batch clears only what it wrote), unless forget_rows() is called after.")
        .def("forget_rows", [](PyRoleBatch& b) { b.batch.forget_rows(); },
             "The rows were written by someone else: each is zeroed whole when next written.")
        .def(
            "observe",
            [](PyRoleBatch& b, int i, Array<float> obs, Array<bool> mask, int seat, bool to_act) {
                float* o = rows_of(obs, "obs", 1, static_cast<size_t>(nb::cast<const ObsLayout*>(b.layout_ref)->size), "float32");
                bool* mk = rows_of(mask, "mask", 1, static_cast<size_t>(N_ACTIONS), "bool");
                b.batch.observe(i, o, reinterpret_cast<int8_t*>(mk), seat, to_act);
            },
            "i"_a, "obs"_a, "mask"_a, "seat"_a, "to_act"_a,
            "Game i's row as `seat` (a hero's index, -1 the DM) sees it: with the legal actions of the "
            "decision it is asked (to_act), else none (the view of an end).")
        .def("seat", [](PyRoleBatch& b, int i) { return b.batch.seat(i); }, "i"_a,
             "The seat game i asks: a hero's index, or -1 for the DM.")
        .def(
            "opponent_state", [](const PyRoleBatch& b, int i) { return state_of(b.batch.opponent(i)); }, "i"_a,
            "Game i's opponent generator state, as set() takes it.");
}

}  // namespace dungeon_core
