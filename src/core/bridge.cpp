#include "bridge.hpp"
#include "sight.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "game.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace dungeon_core {
namespace {

// ---------- Python -> core ----------

template <typename T>
using In = nb::ndarray<const T, nb::c_contig, nb::device::cpu>;

template <typename T>
In<T> array_of(nb::handle obj, const char* field) {
    try {
        return nb::cast<In<T>>(obj);
    } catch (const std::exception&) {
        throw std::invalid_argument(std::string("state field ") + field + ": expected a numpy array of " +
                                    std::string(nb::type_name(nb::type<T>()).c_str()) + "-compatible values");
    }
}

template <typename T, typename Out>
void load_into(nb::handle state, const char* field, Out* out, size_t n) {
    In<T> arr = array_of<T>(state.attr(field), field);
    if (arr.size() != n) {
        throw std::invalid_argument(std::string("state field ") + field + ": expected " + std::to_string(n) +
                                    " entries, found " + std::to_string(arr.size()));
    }
    for (size_t k = 0; k < n; ++k) out[k] = static_cast<Out>(arr.data()[k]);
}

template <typename T, size_t N>
void load(nb::handle state, const char* field, std::array<T, N>& out) {
    load_into<T>(state, field, out.data(), N);
}

// a bool array sized by the adventure (its length is taken from the Python array)
void load_flags(nb::handle state, const char* field, Flags& out) {
    In<bool> arr = array_of<bool>(state.attr(field), field);
    out.assign(arr.data(), arr.data() + arr.size());
}

std::vector<int> ints(nb::handle list) {
    std::vector<int> out;
    for (nb::handle item : list) out.push_back(nb::cast<int>(item));
    return out;
}

std::vector<Row> rows(nb::handle list) {
    std::vector<Row> out;
    for (nb::handle item : list) out.push_back(ints(item));
    return out;
}

std::vector<std::string> strings(nb::handle list) {
    std::vector<std::string> out;
    for (nb::handle item : list) out.push_back(nb::cast<std::string>(item));
    return out;
}

uint64_t bits(nb::handle value, const char* field) {
    uint64_t out = 0;
    if (!nb::try_cast<uint64_t>(value, out)) {
        throw std::invalid_argument(std::string("state field ") + field + ": expected a 64-bit mask (an int 0 <= x < 2**64)");
    }
    return out;
}

#define UNIT_FIELDS(X)                                                                                          \
    X(int8_t, unit_status) X(int8_t, unit_side) X(int16_t, unit_card) X(int16_t, unit_uid) X(int8_t, unit_how)  \
    X(uint8_t, unit_traits) X(int16_t, base_move) X(int16_t, base_fight) X(int16_t, base_damage)                \
    X(int16_t, base_health) X(int16_t, base_stamina) X(int16_t, base_magic) X(int16_t, unit_pos)                \
    X(int16_t, health) X(int16_t, stamina) X(int16_t, magic) X(bool, deaths_door) X(bool, exhausted)            \
    X(bool, surprised) X(int16_t, surprise_until) X(bool, skip_move) X(bool, inactive) X(bool, acted)           \
    X(bool, fought) X(bool, rested_last) X(int16_t, move_left) X(int8_t, move_bought) X(bool, move_done)        \
    X(int16_t, move_from) X(bool, moved) X(bool, jumped) X(bool, deferred) X(int16_t, dragging)                 \
    X(bool, double_ones)

// fixed-size arrays outside the unit block: (dtype, name, shape...)
#define FIXED_FIELDS(X)                                                                                        \
    X(int16_t, occupant, N_SQUARES) X(int16_t, item_card, MAX_ITEMS) X(int16_t, item_holder, MAX_ITEMS)         \
    X(bool, item_known, MAX_ITEMS) X(bool, item_locked, MAX_ITEMS) X(bool, item_claimed, MAX_ITEMS)             \
    X(int16_t, deck_next, N_DECKS) X(int16_t, casting_spell, MAX_HEROES) X(int16_t, casting_item, MAX_HEROES)  \
    X(bool, exploring, MAX_HEROES) X(bool, memorized, MAX_HEROES) X(bool, identified, MAX_HEROES)               \
    X(bool, gave, MAX_HEROES) X(bool, received, MAX_HEROES) X(bool, disarm_tried, MAX_HEROES)                   \
    X(int16_t, spell_turn, MAX_HEROES) X(int16_t, item_used_turn, MAX_ITEMS)

#define FIXED_2D_FIELDS(X)                                                                         \
    X(int16_t, deck_cards, N_DECKS, MAX_DECK) X(bool, declined_items, MAX_HEROES, MAX_ITEMS)       \
    X(int16_t, ability_uses, MAX_HEROES, MAX_HERO_ABILITIES)                                       \
    X(int16_t, ability_turn, MAX_HEROES, MAX_HERO_ABILITIES)

#define FLAG_FIELDS(X)                                                                                       \
    X(door_open) X(door_alert) X(revealed) X(visited) X(guard_slain) X(ambush_fired) X(patrol_corridors)      \
    X(trap_armed) X(trap_detected) X(event_done) X(door_hidden)

// [hero, x] bool fields sized by the adventure
#define FLAG_2D_FIELDS(X) X(door_tried) X(spell_known) X(declined_spells)

#define INT_SCALARS(X) \
    X(turn) X(light) X(phase) X(n_heroes) X(next_uid) X(idle_handoffs) X(controller) X(fight_index) X(act_step)

#define BOOL_SCALARS(X) X(phase_started) X(progress)
#define STRING_SCALARS(X) X(outcome) X(end_reason)
#define ROW_LISTS(X) X(effects) X(stack) X(fights)
#define INT_LISTS(X) X(queue) X(cast) X(mental) X(mind_queue) X(act_todo)

// ---------- core -> Python ----------

template <typename T>
nb::object numpy(const T* data, std::initializer_list<size_t> shape) {
    size_t n = 1;
    for (size_t d : shape) n *= d;
    T* copy = new T[n ? n : 1];
    if (n) std::memcpy(copy, data, n * sizeof(T));
    nb::capsule owner(copy, [](void* p) noexcept { delete[] static_cast<T*>(p); });
    return nb::cast(nb::ndarray<nb::numpy, T>(copy, shape, owner));
}

nb::object flags_numpy(const Flags& f, std::initializer_list<size_t> shape) {
    return numpy<bool>(reinterpret_cast<const bool*>(f.data()), shape);
}

// a numpy array over the core's own memory (writes go to the core); `owner` keeps the engine alive
template <typename T>
nb::object view(T* data, std::initializer_list<size_t> shape, nb::handle owner) {
    return nb::cast(nb::ndarray<nb::numpy, T>(data, shape, owner));
}

nb::object flags_view(Flags& f, std::initializer_list<size_t> shape, nb::handle owner) {
    return view<bool>(reinterpret_cast<bool*>(f.data()), shape, owner);
}

// (made at its length and filled in place: the legal actions cross here at every decision)
nb::list list_of(const std::vector<int>& row) {
    nb::list out = nb::steal<nb::list>(PyList_New(static_cast<Py_ssize_t>(row.size())));
    if (!out.is_valid()) throw nb::python_error();
    for (size_t k = 0; k < row.size(); ++k) {
        PyObject* v = PyLong_FromLong(row[k]);
        if (v == nullptr) throw nb::python_error();
        PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(k), v);
    }
    return out;
}

nb::list list_of_rows(const std::vector<Row>& rows_) {
    nb::list out;
    for (const Row& r : rows_) out.append(list_of(r));
    return out;
}

// ---------- the state's scalars and lists ----------
// One entry per field that is not an array (turn, phase, stack, effects, downed_by, ...): how to read
// it as a new Python value, and how to write it from one (whether the engine's value changed). The
// one place these fields cross: dump_state and load_state use it for their half of the state, and a
// Game on the core (dungeon_env.engine.game.CoreState) reads them one at a time (Engine.get) and hands
// back only those Python may have changed (Engine.push).

template <typename T>
T scalar_of(nb::handle value, const char* field, const char* expected) {
    T out{};
    if (!nb::try_cast<T>(value, out)) {
        throw std::invalid_argument(std::string("state field ") + field + ": expected " + expected + ", found " +
                                    nb::cast<std::string>(nb::repr(value)));
    }
    return out;
}

nb::list labels_of(const std::array<std::vector<std::string>, MAX_HEROES>& rows_) {
    nb::list out;
    for (const auto& labels : rows_) {
        nb::list row;
        for (const auto& l : labels) row.append(l);
        out.append(row);
    }
    return out;
}

std::array<std::vector<std::string>, MAX_HEROES> labels(nb::handle value) {
    if (nb::len(value) != MAX_HEROES) throw std::invalid_argument("state field downed_by: expected one list per hero slot");
    std::array<std::vector<std::string>, MAX_HEROES> out;
    for (int h = 0; h < MAX_HEROES; ++h) out[h] = strings(value[h]);
    return out;
}

template <typename T>
bool assign(T& field, T value) {
    if (field == value) return false;
    field = std::move(value);
    return true;
}

struct Field {
    const char* name;
    nb::object (*read)(const State&);
    bool (*write)(State&, nb::handle);
};

const Field FIELDS[] = {
#define FIELD_INT(name)                                                                 \
    {#name, [](const State& s) -> nb::object { return nb::int_(s.name); },             \
     [](State& s, nb::handle v) { return assign(s.name, scalar_of<int>(v, #name, "an int")); }},
    INT_SCALARS(FIELD_INT)
#define FIELD_BOOL(name)                                                                \
    {#name, [](const State& s) -> nb::object { return nb::bool_(s.name); },            \
     [](State& s, nb::handle v) { return assign(s.name, scalar_of<bool>(v, #name, "a bool")); }},
    BOOL_SCALARS(FIELD_BOOL)
#define FIELD_STRING(name)                                                                       \
    {#name, [](const State& s) -> nb::object { return nb::str(s.name.c_str(), s.name.size()); }, \
     [](State& s, nb::handle v) { return assign(s.name, scalar_of<std::string>(v, #name, "a str")); }},
    STRING_SCALARS(FIELD_STRING)
#define FIELD_ROWS(name)                                                           \
    {#name, [](const State& s) -> nb::object { return list_of_rows(s.name); }, \
     [](State& s, nb::handle v) { return assign(s.name, rows(v)); }},
    ROW_LISTS(FIELD_ROWS)
#define FIELD_INTS(name)                                                      \
    {#name, [](const State& s) -> nb::object { return list_of(s.name); }, \
     [](State& s, nb::handle v) { return assign(s.name, ints(v)); }},
    INT_LISTS(FIELD_INTS)
#define FIELD_BITS(name)                                                    \
    {#name, [](const State& s) -> nb::object { return nb::int_(s.name); }, \
     [](State& s, nb::handle v) { return assign(s.name, bits(v, #name)); }},
    FIELD_BITS(closed_bits) FIELD_BITS(explored_bits)
    {"downed_by", [](const State& s) -> nb::object { return labels_of(s.downed_by); },
     [](State& s, nb::handle v) { return assign(s.downed_by, labels(v)); }},
};

const Field& field_named(const char* name) {
    for (const Field& f : FIELDS) {
        if (std::strcmp(f.name, name) == 0) return f;
    }
    throw std::invalid_argument(std::string("state: no scalar or list field named '") + name + "'");
}

// every scalar and list of a Python State into the engine's; whether any differed
bool push_state(nb::handle py, State& s) {
    bool changed = false;
    for (const Field& f : FIELDS) changed |= f.write(s, py.attr(f.name));
    return changed;
}

// the named ones only
bool push_fields(nb::handle py, State& s, nb::handle names) {
    bool changed = false;
    for (nb::handle name : names) {
        const char* n = nb::cast<const char*>(name);
        changed |= field_named(n).write(s, py.attr(n));
    }
    return changed;
}

nb::dict dump_state(const State& s) {
    nb::dict d;
#define DUMP_UNIT(T, name) d[#name] = numpy<T>(s.name.data(), {MAX_UNITS});
    UNIT_FIELDS(DUMP_UNIT)
#define DUMP_FIXED(T, name, n) d[#name] = numpy<T>(s.name.data(), {static_cast<size_t>(n)});
    FIXED_FIELDS(DUMP_FIXED)
#define DUMP_2D(T, name, a, b) d[#name] = numpy<T>(s.name.data(), {static_cast<size_t>(a), static_cast<size_t>(b)});
    FIXED_2D_FIELDS(DUMP_2D)
#define DUMP_FLAGS(name) d[#name] = flags_numpy(s.name, {s.name.size()});
    FLAG_FIELDS(DUMP_FLAGS)
#define DUMP_FLAGS_2D(name) d[#name] = flags_numpy(s.name, {static_cast<size_t>(MAX_HEROES), s.name.size() / MAX_HEROES});
    FLAG_2D_FIELDS(DUMP_FLAGS_2D)
    d["guard_uid"] = numpy<int16_t>(s.guard_uid.data(), {s.guard_uid.size()});
    for (const Field& f : FIELDS) d[f.name] = f.read(s);
    return d;
}

void load_state(nb::handle py, State& s) {
#define LOAD_UNIT(T, name) load(py, #name, s.name);
    UNIT_FIELDS(LOAD_UNIT)
#define LOAD_FIXED(T, name, n) load(py, #name, s.name);
    FIXED_FIELDS(LOAD_FIXED)
#define LOAD_2D(T, name, a, b) load(py, #name, s.name);
    FIXED_2D_FIELDS(LOAD_2D)
#define LOAD_FLAGS(name) load_flags(py, #name, s.name);
    FLAG_FIELDS(LOAD_FLAGS)
    FLAG_2D_FIELDS(LOAD_FLAGS)
    {
        In<int16_t> guards = array_of<int16_t>(py.attr("guard_uid"), "guard_uid");
        s.guard_uid.assign(guards.data(), guards.data() + guards.size());
    }
    push_state(py, s);
    // the [hero, x] fields sized by the adventure must have whole rows
    for (const Flags* f : {&s.door_tried, &s.spell_known, &s.declined_spells}) {
        if (f->size() % MAX_HEROES) throw std::invalid_argument("state: a [hero, x] field has a partial row");
    }
    if (s.door_tried.size() != MAX_HEROES * s.door_open.size()) {
        throw std::invalid_argument("state field door_tried: expected one row of door_open's length per hero slot");
    }
}

// Every array field of the state as a numpy view of the engine's memory (see Engine.views).
nb::dict state_views(State& s, nb::handle owner) {
    nb::dict d;
#define VIEW_UNIT(T, name) d[#name] = view<T>(s.name.data(), {MAX_UNITS}, owner);
    UNIT_FIELDS(VIEW_UNIT)
#define VIEW_FIXED(T, name, n) d[#name] = view<T>(s.name.data(), {static_cast<size_t>(n)}, owner);
    FIXED_FIELDS(VIEW_FIXED)
#define VIEW_2D(T, name, a, b) d[#name] = view<T>(s.name.data(), {static_cast<size_t>(a), static_cast<size_t>(b)}, owner);
    FIXED_2D_FIELDS(VIEW_2D)
#define VIEW_FLAGS(name) d[#name] = flags_view(s.name, {s.name.size()}, owner);
    FLAG_FIELDS(VIEW_FLAGS)
#define VIEW_FLAGS_2D(name) \
    d[#name] = flags_view(s.name, {static_cast<size_t>(MAX_HEROES), s.name.size() / MAX_HEROES}, owner);
    FLAG_2D_FIELDS(VIEW_FLAGS_2D)
    d["guard_uid"] = view<int16_t>(s.guard_uid.data(), {s.guard_uid.size()}, owner);
    return d;
}


// One array field: if the Python attribute is not the engine's own memory (a new array was put in
// its place), copy it into the engine and put the view back; whether it was copied.
// A field missing from the State's own attributes is one it has not read yet (a lazy view: see
// dungeon_env.engine.game.CoreState): the engine's memory is its value already.
template <typename T>
bool adopt_array(nb::handle py, const char* field, T* data, size_t n, std::initializer_list<size_t> shape, nb::handle owner) {
    PyObject* own = PyDict_GetItemString(nb::getattr(py, "__dict__").ptr(), field);  // borrowed
    if (own == nullptr) return false;
    nb::ndarray<> arr;
    if (nb::try_cast(nb::handle(own), arr, false) && arr.data() == static_cast<void*>(data) && arr.size() == n) {
        return false;
    }
    load_into<T>(py, field, data, n);
    nb::setattr(py, field, view<T>(data, shape, owner));
    return true;
}

// Every array field of a Python State adopted into the engine (see adopt_array); whether any was.
bool adopt_arrays(nb::handle py, State& s, nb::handle owner) {
    bool copied = false;
#define ADOPT_UNIT(T, name) copied |= adopt_array<T>(py, #name, s.name.data(), MAX_UNITS, {MAX_UNITS}, owner);
    UNIT_FIELDS(ADOPT_UNIT)
#define ADOPT_FIXED(T, name, n) \
    copied |= adopt_array<T>(py, #name, s.name.data(), n, {static_cast<size_t>(n)}, owner);
    FIXED_FIELDS(ADOPT_FIXED)
#define ADOPT_2D(T, name, a, b) \
    copied |= adopt_array<T>(py, #name, s.name.data(), (a) * (b), {static_cast<size_t>(a), static_cast<size_t>(b)}, owner);
    FIXED_2D_FIELDS(ADOPT_2D)
#define ADOPT_FLAGS(name) \
    copied |= adopt_array<bool>(py, #name, reinterpret_cast<bool*>(s.name.data()), s.name.size(), {s.name.size()}, owner);
    FLAG_FIELDS(ADOPT_FLAGS)
#define ADOPT_FLAGS_2D(name)                                                                             \
    copied |= adopt_array<bool>(py, #name, reinterpret_cast<bool*>(s.name.data()), s.name.size(),        \
                                {static_cast<size_t>(MAX_HEROES), s.name.size() / MAX_HEROES}, owner);
    FLAG_2D_FIELDS(ADOPT_FLAGS_2D)
    copied |= adopt_array<int16_t>(py, "guard_uid", s.guard_uid.data(), s.guard_uid.size(), {s.guard_uid.size()}, owner);
    return copied;
}

Stream stream_of(const std::string& name) {
    int k = stream_index(name);
    if (k < 0) {
        std::string names;
        for (const char* n : STREAM_NAMES) names += (names.empty() ? "" : ", ") + std::string(n);
        throw std::invalid_argument("unknown dice stream '" + name + "'; the streams are " + names);
    }
    return static_cast<Stream>(k);
}

nb::list faces_of(const std::deque<int>& q) {
    nb::list out;
    for (int f : q) out.append(f);
    return out;
}

// One array field of the state as a view of the engine's memory; None for a name that is not one.
nb::object state_view(State& s, const std::string& name, nb::handle owner) {
#define ONE_UNIT(T, field) if (name == #field) return view<T>(s.field.data(), {MAX_UNITS}, owner);
    UNIT_FIELDS(ONE_UNIT)
#define ONE_FIXED(T, field, n) if (name == #field) return view<T>(s.field.data(), {static_cast<size_t>(n)}, owner);
    FIXED_FIELDS(ONE_FIXED)
#define ONE_2D(T, field, a, b) \
    if (name == #field) return view<T>(s.field.data(), {static_cast<size_t>(a), static_cast<size_t>(b)}, owner);
    FIXED_2D_FIELDS(ONE_2D)
#define ONE_FLAGS(field) if (name == #field) return flags_view(s.field, {s.field.size()}, owner);
    FLAG_FIELDS(ONE_FLAGS)
#define ONE_FLAGS_2D(field) \
    if (name == #field) return flags_view(s.field, {static_cast<size_t>(MAX_HEROES), s.field.size() / MAX_HEROES}, owner);
    FLAG_2D_FIELDS(ONE_FLAGS_2D)
    if (name == "guard_uid") return view<int16_t>(s.guard_uid.data(), {s.guard_uid.size()}, owner);
    return nb::none();
}

}  // namespace

nb::object to_python(const Value& v) {
    switch (v.kind) {
        case Value::NONE:
            return nb::none();
        case Value::BOOL:
            return nb::bool_(v.b);
        case Value::INT:
            return nb::int_(v.i);
        case Value::STR:
            return nb::str(v.s.c_str(), v.s.size());
        case Value::LIST: {
            nb::list out;
            for (const Value& item : v.list) out.append(to_python(item));
            return out;
        }
        case Value::OBJECT: {
            nb::dict out;
            for (const auto& item : v.object) out[nb::str(item.first.data(), item.first.size())] = to_python(item.second);
            return out;
        }
    }
    return nb::none();
}

Value value_of(nb::handle obj) {
    if (obj.is_none()) return Value();
    if (nb::isinstance<nb::bool_>(obj)) return Value(nb::cast<bool>(obj));
    if (nb::isinstance<nb::int_>(obj)) return Value(nb::cast<long long>(obj));
    if (nb::isinstance<nb::str>(obj)) return Value(nb::cast<std::string>(obj));
    if (nb::isinstance<nb::dict>(obj)) {
        Value out = Value::empty_obj();
        for (auto [key, value] : nb::borrow<nb::dict>(obj)) {
            out.object.emplace_back(intern_key(nb::cast<std::string>(key)), value_of(value));
        }
        return out;
    }
    if (nb::isinstance<nb::list>(obj) || nb::isinstance<nb::tuple>(obj)) {
        Value out = Value::empty_list();
        for (nb::handle item : obj) out.list.push_back(value_of(item));
        return out;
    }
    throw std::invalid_argument("event: cannot hold a value of type " + std::string(nb::inst_name(obj).c_str()));
}

namespace {

std::vector<std::pair<std::string, BindFn>>& binders() {
    static std::vector<std::pair<std::string, BindFn>> all;
    return all;
}

// ---------- dice ----------

void load_dice(nb::handle py, Dice& dice) {
    nb::dict data = nb::cast<nb::dict>(py.attr("to_json")());
    dice.seed = nb::cast<int64_t>(data["seed"]);
    dice.forced.clear();
    for (nb::handle f : data["forced"]) dice.forced.push_back(nb::cast<int>(f));
    nb::dict streams = nb::cast<nb::dict>(data["streams"]);
    for (auto [name, state] : streams) {
        int k = stream_index(nb::cast<std::string>(name));
        if (k < 0) throw std::invalid_argument("dice: unknown stream " + nb::cast<std::string>(name));
        dice.state[k] = nb::cast<uint64_t>(state);
    }
    for (auto& q : dice.stream_forced) q.clear();
    if (data.contains("forced_streams")) {
        for (auto [name, faces] : nb::cast<nb::dict>(data["forced_streams"])) {
            int k = stream_index(nb::cast<std::string>(name));
            if (k < 0) throw std::invalid_argument("dice: unknown stream " + nb::cast<std::string>(name));
            for (nb::handle f : faces) dice.stream_forced[k].push_back(nb::cast<int>(f));
        }
    }
}

// the dict Dice.from_json reads
nb::dict dump_dice(const Dice& dice) {
    nb::dict out;
    out["seed"] = dice.seed;
    nb::list forced;
    for (int f : dice.forced) forced.append(f);
    out["forced"] = forced;
    nb::dict streams;
    for (int k = 0; k < N_STREAMS; ++k) streams[STREAM_NAMES[k]] = nb::int_(dice.state[k]);
    out["streams"] = streams;
    nb::dict by_stream;
    for (int k = 0; k < N_STREAMS; ++k) {
        if (dice.stream_forced[k].empty()) continue;
        nb::list q;
        for (int f : dice.stream_forced[k]) q.append(f);
        by_stream[STREAM_NAMES[k]] = q;
    }
    if (nb::len(by_stream)) out["forced_streams"] = by_stream;
    return out;
}

// ---------- content ----------

template <typename T>
T get(nb::handle obj, const char* name) {
    return nb::cast<T>(obj.attr(name));
}

std::optional<std::string> opt_string(nb::handle obj, const char* name) {
    nb::object v = obj.attr(name);
    if (v.is_none()) return std::nullopt;
    return nb::cast<std::string>(v);
}

Square square_of(nb::handle sq) { return {nb::cast<int>(sq[0]), nb::cast<int>(sq[1])}; }

std::vector<Square> squares_of(nb::handle list) {
    std::vector<Square> out;
    for (nb::handle sq : list) out.push_back(square_of(sq));
    return out;
}

Effect effect_of(nb::handle e) { return {get<std::string>(e, "kind"), get<int>(e, "amount"), get<int>(e, "duration")}; }

std::optional<Effect> opt_effect(nb::handle obj, const char* name) {
    nb::object v = obj.attr(name);
    if (v.is_none()) return std::nullopt;
    return effect_of(v);
}

template <typename T>
std::vector<T> vec(nb::handle array) {
    In<T> arr = nb::cast<In<T>>(array);
    return std::vector<T>(arr.data(), arr.data() + arr.size());
}

Adventure adventure_of(nb::handle a) {
    Adventure adv;
    adv.id = get<std::string>(a, "id");
    adv.name = get<std::string>(a, "name");
    adv.difficulty = get<int>(a, "difficulty");
    adv.goal = get<std::string>(a, "goal");
    adv.start = squares_of(a.attr("start"));
    adv.exits = squares_of(a.attr("exits"));
    for (nb::handle d : a.attr("doors")) adv.doors.push_back({square_of(d.attr("a")), square_of(d.attr("b")), get<bool>(d, "secret")});
    adv.blockages = squares_of(a.attr("blockages"));
    for (nb::handle f : a.attr("furniture")) {
        adv.furniture.push_back(squares_of(f.attr("squares")));
        adv.furniture_kind.push_back(get<std::string>(f, "kind"));
    }
    for (nb::handle g : a.attr("guards")) adv.guards.push_back({get<std::string>(g, "monster"), square_of(g.attr("at"))});
    adv.patrol = strings(a.attr("patrol"));
    for (nb::handle m : a.attr("ambushes")) {
        adv.ambushes.push_back({get<std::string>(m, "area"), strings(m.attr("monsters")), squares_of(m.attr("at"))});
    }
    for (nb::handle o : a.attr("objectives")) {
        Objective obj;
        obj.kind = get<std::string>(o, "kind");
        obj.text = get<std::string>(o, "text");
        if (!o.attr("at").is_none()) obj.at = square_of(o.attr("at"));
        obj.primary = get<bool>(o, "primary");
        obj.area = opt_string(o, "area");
        obj.item = opt_string(o, "item");
        adv.objectives.push_back(obj);
    }
    adv.secret_rooms = strings(a.attr("secret_rooms"));
    for (nb::handle t : a.attr("traps")) {
        adv.traps.push_back({square_of(t.attr("at")), get<std::string>(t, "name"), effect_of(t.attr("effect")), get<bool>(t, "blocks")});
    }
    for (nb::handle e : a.attr("events")) {
        RoomEvent ev;
        ev.area = get<std::string>(e, "area");
        ev.scope = get<std::string>(e, "scope");
        ev.kind = get<std::string>(e, "kind");
        ev.text = get<std::string>(e, "text");
        ev.effect = opt_effect(e, "effect");
        for (nb::handle o : e.attr("options")) {
            EventOption opt;
            opt.text = get<std::string>(o, "text");
            opt.effect = opt_effect(o, "effect");
            opt.trait = opt_string(o, "trait");
            opt.fail = opt_effect(o, "fail");
            opt.item = opt_string(o, "item");
            opt.deck = opt_string(o, "deck");
            ev.options.push_back(opt);
        }
        ev.item = opt_string(e, "item");
        ev.deck = opt_string(e, "deck");
        ev.monsters = strings(e.attr("monsters"));
        ev.at = squares_of(e.attr("at"));
        if (!e.attr("door").is_none()) ev.door = get<int>(e, "door");
        adv.events.push_back(ev);
    }
    adv.final = get<bool>(a, "final");
    return adv;
}

Tables tables_of(nb::handle t, const Board& board) {
    Tables out;
    out.area = vec<int16_t>(t.attr("area"));
    out.neighbor = vec<int16_t>(t.attr("neighbor"));
    {
        auto w = vec<bool>(t.attr("wall"));
        out.wall.assign(w.begin(), w.end());
    }
    out.edge_door = vec<int16_t>(t.attr("edge_door"));
    for (auto [field, target] : {std::pair<const char*, std::vector<uint8_t>*>{"furniture", &out.furniture},
                                 {"blockage", &out.blockage},
                                 {"exit", &out.exit},
                                 {"is_corridor", &out.is_corridor}}) {
        In<bool> arr = nb::cast<In<bool>>(t.attr(field));
        target->assign(arr.data(), arr.data() + arr.size());
    }
    {
        In<bool> arr = nb::cast<In<bool>>(t.attr("los_static"));
        const uint8_t* first = reinterpret_cast<const uint8_t*>(arr.data());
        out.los_static.assign(first, first + arr.size());
    }
    out.los_doors = vec<uint64_t>(t.attr("los_doors"));
    for (nb::handle sq : t.attr("area_squares")) out.area_squares.push_back(vec<int16_t>(sq));
    out.patrol_rooms = vec<int16_t>(t.attr("patrol_rooms"));
    for (nb::handle d : t.attr("door_squares")) out.door_squares.push_back({nb::cast<int>(d[0]), nb::cast<int>(d[1])});
    nb::handle b = t.attr("board");
    out.area_names = strings(b.attr("area_names"));
    out.n_rooms = get<int>(b, "n_rooms");
    out.board = board;
    if (out.area.size() != static_cast<size_t>(N_SQUARES)) throw std::invalid_argument("tables: expected one area per square");
    out.index_areas_past_walls();
    return out;
}

Rules rules_of(nb::handle r) {
    Rules out;
#define RULE(name) out.name = get<int>(r, #name);
    RULE(light_start) RULE(light_max) RULE(light_per_turn) RULE(light_dark_penalty) RULE(surprise_max)
    RULE(ambush_ready_min) RULE(patrol_max) RULE(patrol_board_max) RULE(deaths_door_max) RULE(door_alert_max)
    RULE(door_open_min) RULE(jump_min) RULE(disarm_spring_max) RULE(disarm_min) RULE(identify_never_max)
    RULE(identify_min) RULE(room_detect_min) RULE(trait_check_min) RULE(overcast_forget_max) RULE(overcast_safe_min)
    RULE(recover_stamina) RULE(rest_stamina) RULE(rest_magic) RULE(rest_magic_learned) RULE(enemy_penalty)
    RULE(fight_stamina_max) RULE(move_stamina_max) RULE(evade_cost) RULE(mental_bid_max) RULE(lash_range)
    RULE(lash_damage) RULE(max_items) RULE(max_spells)
#undef RULE
    return out;
}

Ability ability_of(nb::handle a) {
    Ability out;
    out.id = get<std::string>(a, "id");
    out.name = get<std::string>(a, "name");
    out.use = get<std::string>(a, "use");
    out.effect = effect_of(a.attr("effect"));
    out.limit = get<std::string>(a, "limit");
    out.uses = get<int>(a, "uses");
    out.when = strings(a.attr("when"));
    out.target = get<std::string>(a, "target");
    out.condition = get<std::string>(a, "condition");
    return out;
}

// game: a Python Game (its tables, rules and cards); board: its core.board(tables)
std::shared_ptr<Content> make_content(nb::handle game, const Board& board) {
    auto c = std::make_shared<Content>();
    nb::handle tables = game.attr("tables");
    c->tables = tables_of(tables, board);
    c->adventure = adventure_of(tables.attr("adventure"));
    c->rules = rules_of(game.attr("rules"));
    for (nb::handle h : game.attr("heroes")) {
        HeroCard card;
        card.id = get<std::string>(h, "id");
        card.name = get<std::string>(h, "name");
        card.move = get<int>(h, "move");
        card.fight = get<int>(h, "fight");
        card.damage = get<int>(h, "damage");
        card.health = get<int>(h, "health");
        card.stamina = get<int>(h, "stamina");
        card.magic = get<int>(h, "magic");
        card.traits = strings(h.attr("traits"));
        card.spells = strings(h.attr("spells"));
        for (nb::handle a : h.attr("abilities")) card.abilities.push_back(ability_of(a));
        card.caster = get<bool>(h, "caster");
        c->heroes.push_back(card);
    }
    for (nb::handle m : game.attr("monsters")) {
        MonsterCard card;
        card.id = get<std::string>(m, "id");
        card.name = get<std::string>(m, "name");
        card.move = get<int>(m, "move");
        card.fight = get<int>(m, "fight");
        card.damage = get<int>(m, "damage");
        card.health = get<int>(m, "health");
        card.stamina = get<int>(m, "stamina");
        card.magic = get<int>(m, "magic");
        card.encounter = get<std::string>(m, "encounter");
        card.abilities = strings(m.attr("abilities"));
        c->monster_index[card.id] = static_cast<int>(c->monsters.size());
        c->monsters.push_back(card);
    }
    for (nb::handle sp : game.attr("spells")) {
        Spell spell;
        spell.id = get<std::string>(sp, "id");
        spell.name = get<std::string>(sp, "name");
        spell.level = get<int>(sp, "level");
        spell.casting = get<std::string>(sp, "casting");
        spell.target = get<std::string>(sp, "target");
        spell.range = get<int>(sp, "range");
        spell.effect = effect_of(sp.attr("effect"));
        spell.overcast = opt_effect(sp, "overcast");
        spell.mental = get<bool>(sp, "mental");
        spell.mental_tie = get<std::string>(sp, "mental_tie");
        c->spell_index[spell.id] = static_cast<int>(c->spells.size());
        c->spells.push_back(spell);
    }
    for (nb::handle it : game.attr("item_cards")) {
        ItemCard card;
        card.id = get<std::string>(it, "id");
        card.name = get<std::string>(it, "name");
        card.deck = get<std::string>(it, "deck");
        card.use = get<std::string>(it, "use");
        card.effect = opt_effect(it, "effect");
        card.spell = opt_string(it, "spell");
        card.target = get<std::string>(it, "target");
        card.timing = get<std::string>(it, "timing");
        card.copies = get<int>(it, "copies");
        c->item_index[card.id] = static_cast<int>(c->item_cards.size());
        c->item_cards.push_back(card);
    }
    nb::module_ model = nb::module_::import_("dungeon_env.content.model");
    c->traits = strings(model.attr("TRAITS"));
    c->decks = strings(model.attr("DECKS"));
    return c;
}

// A content like `parent` for tables that differ from its own by their adventure alone (a
// determinisation's: more guards and traps, another Patrol; the same board, line of sight and cards),
// with `board` (its traps) and the new adventure read; the rest is copied, not read from Python again.
std::shared_ptr<Content> derive_content(const Content& parent, nb::handle adventure, const Board& board) {
    auto c = std::make_shared<Content>(parent);
    c->adventure = adventure_of(adventure);
    c->tables.board = board;
    return c;
}

// ---------- the engine ----------

size_t engine_nbytes(const Engine& e) {
    const Game& g = e.game;
    const State& s = g.state;
    // std::deque holds a map and a 512-byte node even when empty: the dice's queues, one per stream and one global
    size_t n = sizeof(Engine) + g.log_events.nbytes() + g.legal_cache.capacity() * sizeof(int) + (1 + N_STREAMS) * 576 +
               g.pursuit.nbytes();
    for (const Flags* f : {&s.door_open, &s.door_alert, &s.door_tried, &s.revealed, &s.visited, &s.guard_slain,
                           &s.ambush_fired, &s.patrol_corridors, &s.spell_known, &s.declined_spells, &s.trap_armed,
                           &s.trap_detected, &s.event_done, &s.door_hidden}) {
        n += f->capacity();
    }
    n += s.guard_uid.capacity() * sizeof(int16_t);
    for (const std::vector<Row>* rows_ : {&s.effects, &s.stack, &s.fights}) {
        n += rows_->capacity() * sizeof(Row);
        for (const Row& r : *rows_) n += r.capacity() * sizeof(int);
    }
    for (const Row* r : {&s.queue, &s.cast, &s.mental, &s.mind_queue, &s.act_todo}) n += r->capacity() * sizeof(int);
    for (const auto& labels : s.downed_by) n += labels.capacity() * sizeof(std::string);
    return n;
}

nb::list engine_events(const Engine& e, size_t start) {
    nb::list out;
    e.game.log_events.visit_from(start, [&out](const Value& event) { out.append(to_python(event)); });
    return out;
}

// The events of the given types (their "type" field), from `start` on, as dicts: only those are
// made Python objects (a game's record reads a quarter of its log).
nb::list engine_events_of_types(const Engine& e, const std::vector<std::string>& types, size_t start) {
    nb::list out;
    e.game.log_events.visit_from(start, [&out, &types](const Value& event) {
        const Value* type = event.get("type");
        if (type != nullptr && type->kind == Value::STR &&
            std::find(types.begin(), types.end(), type->s) != types.end()) {
            out.append(to_python(event));
        }
    });
    return out;
}

// The state's fields sized by the adventure fit the content's (else the rules would read past them):
// an invalid_argument naming the first field that does not.
void check_fits(const Content& c, const State& s) {
    const size_t doors = c.tables.n_doors(), areas = c.tables.n_areas(), spells = c.spells.size();
    const Adventure& adv = c.adventure;
    const std::pair<const char*, std::pair<size_t, size_t>> sizes[] = {
        {"door_open", {s.door_open.size(), doors}},
        {"door_alert", {s.door_alert.size(), doors}},
        {"door_tried", {s.door_tried.size(), MAX_HEROES * doors}},
        {"door_hidden", {s.door_hidden.size(), adv.doors.size()}},
        {"revealed", {s.revealed.size(), areas}},
        {"visited", {s.visited.size(), areas}},
        {"patrol_corridors", {s.patrol_corridors.size(), areas}},
        {"guard_uid", {s.guard_uid.size(), adv.guards.size()}},
        {"guard_slain", {s.guard_slain.size(), adv.guards.size()}},
        {"ambush_fired", {s.ambush_fired.size(), adv.ambushes.size()}},
        {"trap_armed", {s.trap_armed.size(), adv.traps.size()}},
        {"trap_detected", {s.trap_detected.size(), adv.traps.size()}},
        {"event_done", {s.event_done.size(), adv.events.size()}},
        {"spell_known", {s.spell_known.size(), MAX_HEROES * spells}},
        {"declined_spells", {s.declined_spells.size(), MAX_HEROES * spells}},
    };
    for (const auto& [name, size] : sizes) {
        if (size.first != size.second) {
            throw std::invalid_argument(std::string("state field ") + name + ": " + std::to_string(size.first) +
                                        " entries, but the content (adventure " + adv.id + ") needs " +
                                        std::to_string(size.second));
        }
    }
}

// A Python State loaded into a new State, checked against the content, before anything changes.
State fitted_state(nb::handle py, const Content& c) {
    State s;
    load_state(py, s);
    check_fits(c, s);
    return s;
}

Engine make_engine(std::shared_ptr<Content> content, nb::handle state, nb::handle dice, int max_turns,
                   const std::vector<std::string>& hero_ids, nb::handle events) {
    Engine e;
    e.game.state = fitted_state(state, *content);
    e.game.content = std::move(content);
    load_dice(dice, e.game.dice);
    e.game.max_turns = max_turns;
    e.game.hero_ids = hero_ids;
    for (nb::handle event : events) e.game.log_events.push_back(value_of(event));
    return e;
}

}  // namespace

void bind_engine(nb::module_& m) {
    nb::class_<Content>(m, "Content", "What never changes in a game (tables, adventure, cards, rules), as the core holds it.");
    m.def("make_content", &make_content, "game"_a, "board"_a,
          "The core's static content of a Python Game (its tables, rules and cards) with its core board.");
    m.def(
        "sight_lines",
        [](In<int8_t> v, In<int8_t> h, In<uint64_t> vbit, In<uint64_t> hbit) {
            const size_t nv = HEIGHT * (WIDTH + 1), nh = (HEIGHT + 1) * WIDTH;
            if (v.size() != nv || vbit.size() != nv || h.size() != nh || hbit.size() != nh) {
                throw std::invalid_argument("sight_lines: expected v, vbit of " + std::to_string(HEIGHT) + "x" +
                                            std::to_string(WIDTH + 1) + " and h, hbit of " +
                                            std::to_string(HEIGHT + 1) + "x" + std::to_string(WIDTH));
            }
            const SightLines lines = sight_lines(v.data(), h.data(), vbit.data(), hbit.data());
            const size_t n = N_SQUARES;
            return nb::make_tuple(numpy<bool>(reinterpret_cast<const bool*>(lines.blocked.data()), {n, n}),
                                  numpy<uint64_t>(lines.doors.data(), {n, n}));
        },
        "v"_a, "h"_a, "vbit"_a, "hbit"_a,
        "engine/tables.py's sight_lines in compiled code (src/core/sight.hpp): (static, bits) for every pair "
        "of squares from the edge grids' codes and door bits.");
    m.def(
        "view_sight",
        [](In<bool> blocked, In<uint64_t> bits, uint64_t hide, const std::vector<int>& view_bit) {
            const size_t n = N_SQUARES;
            if (blocked.size() != n * n || bits.size() != n * n) {
                throw std::invalid_argument("view_sight: expected tables of " + std::to_string(n) + "x" +
                                            std::to_string(n));
            }
            if (view_bit.size() > 64) throw std::invalid_argument("view_sight: at most 64 door bits");
            for (int v : view_bit) {
                if (v < -1 || v >= 64) throw std::invalid_argument("view_sight: a view bit out of 0..63");
            }
            const SightLines lines =
                view_sight(reinterpret_cast<const uint8_t*>(blocked.data()), bits.data(), n * n, hide, view_bit);
            return nb::make_tuple(numpy<bool>(reinterpret_cast<const bool*>(lines.blocked.data()), {n, n}),
                                  numpy<uint64_t>(lines.doors.data(), {n, n}));
        },
        "blocked"_a, "bits"_a, "hide"_a, "view_bit"_a,
        "sideview._los_rows' whole table in compiled code (src/core/sight.hpp's view_sight): (static, doors) of a "
        "heroes' view from the adventure's table with a bit per door and blockage.");
    m.def("derive_content", &derive_content, "parent"_a, "adventure"_a, "board"_a,
          "`parent`'s content for tables that differ from its tables by their adventure alone, and `board`.");
    nb::class_<Engine>(m, "Engine", "One game played in the core (docs/CORE.md).")
        .def(nb::init<const Engine&>(), "A memory copy of the game.")
        .def("legal_actions", [](Engine& e) { return list_of(e.game.legal_actions()); })
        .def("apply", [](Engine& e, int action) { e.game.apply(action); }, "action"_a)
        .def("advance", [](Engine& e) { e.game.advance(); })
        .def("state", [](const Engine& e) { return dump_state(e.game.state); },
             "The state as a dict of State's fields (numpy arrays, lists and scalars).")
        .def("dice", [](const Engine& e) { return dump_dice(e.game.dice); }, "The dice as Dice.to_json gives them.")
        .def(
            "views",
            [](nb::handle self) { return state_views(nb::cast<Engine&>(self).game.state, self); },
            "Every array field of the state as a numpy view of the engine's own memory: reads see the "
            "engine's moves, writes change its state. set_state() with an adventure of another size "
            "leaves the adventure-sized views stale: take them again.")
        .def(
            "view",
            [](nb::handle self, const std::string& name) {
                return state_view(nb::cast<Engine&>(self).game.state, name, self);
            },
            "name"_a, "One array field of the state as a view of the engine's memory (None: no such array field).")
        .def("events", &engine_events, "start"_a = 0, "The events from `start` on, as dicts.")
        .def("events_of_types", &engine_events_of_types, "types"_a, "start"_a = 0,
             "The events of the given types from `start` on, as dicts (the others are not made).")
        .def_prop_ro("n_events", [](const Engine& e) { return e.game.log_events.size(); })
        .def_prop_ro("over", [](const Engine& e) { return e.game.over(); })
        .def_prop_ro("outcome", [](const Engine& e) { return e.game.state.outcome; })
        .def_prop_ro(
            "decision",
            [](const Engine& e) -> nb::object {
                const State& s = e.game.state;
                if (e.game.over() || s.stack.empty()) return nb::none();
                return nb::make_tuple(s.stack.back()[STACK_KIND], s.stack.back()[STACK_UNIT]);
            },
            "The decision asked, (kind, unit slot), or None.")
        .def_prop_ro("moves", [](const Engine& e) { return e.game.moves; })
        .def(
            "set_state",
            [](Engine& e, nb::handle state) {
                const State fitted = fitted_state(state, *e.game.content);
                e.game.state = fitted;  // copied into the engine's buffers: views of same-sized fields stay valid
                e.game.legal_known = false;
            },
            "state"_a, "Replace the state with a Python State's (a hand edit); one that does not fit the content is refused.")
        .def("set_dice", [](Engine& e, nb::handle dice) { load_dice(dice, e.game.dice); }, "dice"_a)
        .def(
            "set_content",
            [](Engine& e, std::shared_ptr<Content> content, nb::handle state) {
                if (state.is_none()) {
                    check_fits(*content, e.game.state);
                } else {
                    const State fitted = fitted_state(state, *content);
                    e.game.state = fitted;  // copied into the engine's buffers (see set_state)
                }
                e.game.content = std::move(content);
                e.game.legal_known = false;
            },
            "content"_a, "state"_a = nb::none(),
            "Play on with other content (a game whose cards or tables were changed by hand; a determinisation's "
            "tables), and with `state` if given; a state that does not fit the content is refused, and nothing changes.")
        .def("copy", [](const Engine& e) { return Engine(e); }, "A memory copy of the game.")
        .def_prop_ro("nbytes", &engine_nbytes, "The memory the engine holds, about (state, dice, log), in bytes.")
        .def("__copy__", [](const Engine& e) { return Engine(e); })
        .def("__deepcopy__", [](const Engine& e, nb::handle) { return Engine(e); }, "memo"_a)
        // ----- a Python State kept in step (Game on the core: dungeon_env.engine.game.CoreState) -----
        .def("get", [](const Engine& e, const char* name) { return field_named(name).read(e.game.state); }, "name"_a,
             "One scalar or list field of the state (turn, stack, ...), as a new Python value.")
        .def(
            "push",
            [](nb::handle self, nb::handle state, nb::handle names, bool arrays, bool edited) {
                Engine& e = nb::cast<Engine&>(self);
                bool changed = names.is_none() ? push_state(state, e.game.state) : push_fields(state, e.game.state, names);
                if (arrays) changed |= adopt_arrays(state, e.game.state, self);
                if (changed || edited) e.game.legal_known = false;
                return changed;
            },
            "state"_a, "names"_a = nb::none(), "arrays"_a = false, "edited"_a = false,
            "Take a Python State's scalars and lists (only those named in `names`, if given; and, with "
            "arrays=True, any array put in place of the engine's view: copied in, and the view put back); "
            "with edited=True, or when anything differed, the legal actions are computed again. Whether "
            "anything differed.")
        .def_prop_ro(
            "agent",
            [](const Engine& e) -> nb::object {
                const State& s = e.game.state;
                if (e.game.over() || s.stack.empty()) return nb::none();
                const int unit = s.stack.back()[STACK_UNIT];
                if (unit >= s.n_heroes) return nb::str("dm");
                return nb::str(("hero_" + std::to_string(unit)).c_str());
            },
            "The agent asked (hero_<i> or dm), or None when the game is over or no decision is asked.")
        // ----- the dice (Dice's API, for a Game on the core) -----
        .def("d6", [](Engine& e, const std::string& stream) { return e.game.dice.d6(stream_of(stream)); }, "stream"_a)
        .def(
            "force",
            [](Engine& e, const std::vector<int>& faces, std::optional<std::string> stream) {
                auto& q = stream ? e.game.dice.stream_forced[stream_of(*stream)] : e.game.dice.forced;
                for (int f : faces) q.push_back(f);
            },
            "faces"_a, "stream"_a = nb::none())
        .def(
            "forced_for",
            [](const Engine& e, std::optional<std::string> stream) {
                return faces_of(stream ? e.game.dice.stream_forced[stream_of(*stream)] : e.game.dice.forced);
            },
            "stream"_a = nb::none())
        .def_prop_ro("forced_left", [](const Engine& e) { return e.game.dice.forced_left(); })
        .def_prop_ro("dice_seed", [](const Engine& e) { return e.game.dice.seed; })
        .def("stream_state", [](const Engine& e, const std::string& stream) { return e.game.dice.state[stream_of(stream)]; },
             "stream"_a)
        .def(
            "set_stream_state",
            [](Engine& e, const std::string& stream, uint64_t value) { e.game.dice.state[stream_of(stream)] = value; },
            "stream"_a, "value"_a)
        // ----- the event log -----
        .def("log", [](Engine& e, nb::handle event) { e.game.log(value_of(event)); }, "event"_a,
             "Append an event (a dict of JSON-like values) to the log.")
        .def(
            "set_events",
            [](Engine& e, nb::handle events) {
                EventLog log;
                for (nb::handle event : events) log.push_back(value_of(event));
                e.game.log_events = std::move(log);
            },
            "events"_a, "Replace the log.");
    m.def("make_engine", &make_engine, "content"_a, "state"_a, "dice"_a, "max_turns"_a, "hero_ids"_a, "events"_a,
          "An engine playing on from a Python State, Dice and event log with the given content.");
    nb::module_ rules = m.def_submodule("rules", "The ported rule functions, one submodule per rule module (for tests).");
    for (const auto& [name, fn] : binders()) {
        nb::module_ sub = nb::hasattr(rules, name.c_str()) ? nb::borrow<nb::module_>(rules.attr(name.c_str()))
                                                            : rules.def_submodule(name.c_str());
        fn(sub);
    }
    nb::register_exception_translator([](const std::exception_ptr& p, void*) {
        try {
            std::rethrow_exception(p);
        } catch (const IllegalAction& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        }
    });
}

Binder::Binder(const char* module, BindFn fn) { binders().emplace_back(module, fn); }

}  // namespace dungeon_core
