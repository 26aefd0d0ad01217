// The observation in the core, as Python calls it (_core.rules.observe): `Layout`, made once per
// adventure by dungeon_env/observation.py from its own tables, and `observe`, which fills an
// observation and an action mask the caller allocated (observe.hpp).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <string>
#include <tuple>

#include "bridge.hpp"
#include "observe.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace dungeon_core {
namespace {

template <typename T>
using In = nb::ndarray<const T, nb::c_contig, nb::device::cpu>;
template <typename T>
using Out = nb::ndarray<T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

int get_int(const nb::dict& ints, const std::string& key) {
    nb::str name(key.c_str());
    if (!ints.contains(name)) throw std::invalid_argument("observation layout: no entry " + key);
    int value = 0;
    if (!nb::try_cast<int>(ints[name], value)) throw std::invalid_argument("observation layout: " + key + " is not an int");
    return value;
}

template <typename T>
std::vector<T> get_array(const nb::dict& arrays, const std::string& key, size_t n = 0) {
    nb::str name(key.c_str());
    if (!arrays.contains(name)) throw std::invalid_argument("observation layout: no array " + key);
    In<T> arr;
    if (!nb::try_cast(arrays[name], arr, false)) {
        throw std::invalid_argument("observation layout: " + key + " must be a contiguous numpy array of " +
                                    std::string(nb::type_name(nb::type<T>()).c_str()));
    }
    if (n && arr.size() != n) {
        throw std::invalid_argument("observation layout: " + key + " has " + std::to_string(arr.size()) +
                                    " entries, expected " + std::to_string(n));
    }
    return std::vector<T>(arr.data(), arr.data() + arr.size());
}

std::vector<int> as_ints(const std::vector<int64_t>& v) { return std::vector<int>(v.begin(), v.end()); }

ObsLayout make_layout(const nb::dict& ints, const nb::dict& arrays,
                      const std::vector<std::tuple<std::string, std::string, int>>& dynamic,
                      const std::vector<std::tuple<int, std::string, int>>& statics) {
    ObsLayout L;
    auto i = [&](const char* key) { return get_int(ints, key); };
    L.size = i("size");
    L.board = i("off.board"), L.figures = i("off.figures"), L.own_items = i("off.own_items");
    L.own_spells = i("off.own_spells"), L.candidates = i("off.candidates"), L.item_table = i("off.item_table");
    L.role = i("off.role"), L.me = i("off.me"), L.my_turn = i("off.my_turn"), L.acting = i("off.acting");
    L.phase = i("off.phase"), L.decision = i("off.decision"), L.decision_args = i("off.decision_args");
    L.target_purpose = i("off.target_purpose"), L.combat = i("off.combat"), L.light = i("off.light");
    L.turn = i("off.turn");
    L.n_squares = i("n_squares"), L.width = i("width"), L.height = i("height"), L.n_planes = i("n_planes");
    L.max_units = i("max_units"), L.nf = i("nf"), L.max_items_held = i("max_items_held"), L.ni = i("ni");
    L.max_spells = i("max_spells"), L.ns = i("ns"), L.max_targets = i("max_targets"), L.nc = i("nc");
    L.max_items = i("max_items"), L.nt = i("nt"), L.n_decks = i("n_decks");
    L.n_role = i("len.role"), L.n_me = i("len.me"), L.n_acting = i("len.acting"), L.n_phase = i("len.phase");
    L.n_decision = i("len.decision"), L.n_purpose = i("len.target_purpose");
    L.p_revealed = i("plane.revealed"), L.p_corridor = i("plane.corridor"), L.p_wall_e = i("plane.wall_e");
    L.p_wall_s = i("plane.wall_s"), L.p_door_closed_e = i("plane.door_closed_e");
    L.p_door_closed_s = i("plane.door_closed_s"), L.p_door_open_e = i("plane.door_open_e");
    L.p_door_open_s = i("plane.door_open_s"), L.p_secret_door = i("plane.secret_door");
    L.p_furniture = i("plane.furniture"), L.p_blockage = i("plane.blockage"), L.p_exit = i("plane.exit");
    L.p_trap_detected = i("plane.trap_detected"), L.p_hazard = i("plane.hazard");
    L.p_trap_hidden = i("plane.trap_hidden"), L.p_heroes = i("plane.heroes"), L.p_monsters = i("plane.monsters");
    L.p_corpses = i("plane.corpses"), L.p_acting_unit = i("plane.acting_unit");
    L.f_present = i("fcol.present"), L.f_hero = i("fcol.hero"), L.f_monster = i("fcol.monster");
    L.f_me = i("fcol.me"), L.f_acting = i("fcol.acting"), L.f_candidate = i("fcol.candidate");
    L.f_active = i("fcol.active"), L.f_exited = i("fcol.exited"), L.f_dead = i("fcol.dead"), L.f_x = i("fcol.x");
    L.f_y = i("fcol.y"), L.f_dragging = i("fcol.dragging"), L.f_effects = i("fcol.effects");
    L.f_items_held = i("fcol.items_held"), L.f_trait0 = i("fcol.trait0"), L.n_traits = i("n_traits");
    L.f_ready0 = i("fcol.ready0"), L.n_ready = i("n_ready"), L.f_kind = i("fcol.kind"), L.f_name = i("fcol.name");
    L.f_dyn0 = i("fcol.dynamic0");
    for (int how = 0; how < 5; ++how) {
        const std::string key = "fcol.how" + std::to_string(how);
        L.f_how[how] = ints.contains(key.c_str()) ? get_int(ints, key) : -1;
    }
    L.i_present = i("icol.present"), L.i_identified = i("icol.identified"), L.i_locked = i("icol.locked");
    L.i_used = i("icol.used_this_turn"), L.i_deck0 = i("icol.deck0"), L.i_card = i("icol.card");
    L.s_present = i("scol.present"), L.s_level = i("scol.level"), L.s_spell = i("scol.spell");
    L.c_present = i("ccol.present"), L.c_unit = i("ccol.unit"), L.c_item = i("ccol.item"), L.c_row = i("ccol.row");
    L.c_x = i("ccol.x"), L.c_y = i("ccol.y"), L.c_identified = i("ccol.identified"), L.c_deck0 = i("ccol.deck0");
    L.c_card = i("ccol.card");
    L.t_present = i("tcol.present"), L.t_holder = i("tcol.holder"), L.t_lying = i("tcol.lying");
    L.t_identified = i("tcol.identified"), L.t_locked = i("tcol.locked"), L.t_used = i("tcol.used_this_turn");
    L.t_deck0 = i("tcol.deck0"), L.t_card = i("tcol.card");
    L.norm_items_held = i("norm.items_held"), L.norm_effects = i("norm.effects"), L.norm_light = i("norm.light");
    L.norm_args = i("norm.args"), L.args_max = i("args_max"), L.norm_spell_level = i("norm.spell_level");
    L.n_hero_cards = i("n_hero_cards"), L.acting_dm = i("acting.dm"), L.choose_target = i("decision.choose_target");
    L.target_loot = i("target.loot");
    for (const auto& [field, base, norm] : dynamic) {
        L.dyn_field.push_back(unit_field(field));
        L.dyn_base.push_back(norm ? unit_field(field) : unit_field(base));
        if (norm < 0) throw std::invalid_argument("observation layout: the normaliser of " + field + " must not be negative");
        L.dyn_norm.push_back(norm);
        L.dyn_scale.push_back(norm ? static_cast<float>(1.0 / norm) : 0.0f);
    }
    for (const auto& [col, field, norm] : statics) {
        if (norm <= 0) throw std::invalid_argument("observation layout: the normaliser of " + field + " must be positive");
        L.static_col.push_back(col);
        L.static_field.push_back(unit_field(field));
        L.static_norm.push_back(norm);
    }
    if (L.width <= 0 || L.height <= 0 || L.width * L.height != L.n_squares) {
        throw std::invalid_argument("observation layout: width x height must be n_squares");
    }
    const size_t n = static_cast<size_t>(L.n_squares);
    L.xy = get_array<float>(arrays, "xy", 2 * (n + 1));
    L.deck_of = as_ints(get_array<int64_t>(arrays, "deck_of"));
    L.corridor = get_array<float>(arrays, "corridor", n);
    L.wall_e = get_array<float>(arrays, "wall_e", n);
    L.wall_s = get_array<float>(arrays, "wall_s", n);
    L.furniture = get_array<float>(arrays, "furniture", n);
    L.blockage = get_array<float>(arrays, "blockage", n);
    L.exit = get_array<float>(arrays, "exit", n);
    const std::vector<int64_t> sides = get_array<int64_t>(arrays, "door_sides");
    if (sides.size() % 3) throw std::invalid_argument("observation layout: door_sides must be (door, square, side) rows");
    for (size_t k = 0; k < sides.size(); k += 3) {
        const int sq = static_cast<int>(sides[k + 1]), side = static_cast<int>(sides[k + 2]);
        if (sq < 0 || sq >= L.n_squares || side < 0 || side > 1) {
            throw std::invalid_argument("observation layout: a door side off the board");
        }
        L.door_sides.push_back({static_cast<int>(sides[k]), sq, side});
    }
    L.trap_sq = as_ints(get_array<int64_t>(arrays, "trap_sq"));
    for (int sq : L.trap_sq) {
        if (sq < 0 || sq >= L.n_squares) throw std::invalid_argument("observation layout: a trap off the board");
    }
    L.event_area = as_ints(get_array<int64_t>(arrays, "event_area"));
    const std::vector<int64_t> rules = get_array<int64_t>(arrays, "hero_args", 2 * static_cast<size_t>(L.n_decision));
    for (size_t k = 0; k < rules.size(); k += 2) L.hero_args.push_back({static_cast<int>(rules[k]), static_cast<int>(rules[k + 1])});
    // the pieces and columns fit in the vector (a wrong layout cannot write out of bounds)
    auto fits = [&](const char* what, long start, long count, long limit) {
        if (start < 0 || count < 0 || start + count > limit) {
            throw std::invalid_argument(std::string("observation layout: ") + what + " does not fit");
        }
    };
    fits("the board", L.board, static_cast<long>(L.n_planes) * L.n_squares, L.size);
    fits("figures", L.figures, static_cast<long>(L.max_units) * L.nf, L.size);
    fits("own_items", L.own_items, static_cast<long>(L.max_items_held) * L.ni, L.size);
    fits("own_spells", L.own_spells, static_cast<long>(L.max_spells) * L.ns, L.size);
    fits("candidates", L.candidates, static_cast<long>(L.max_targets) * L.nc, L.size);
    fits("item_table", L.item_table, static_cast<long>(L.max_items) * L.nt, L.size);
    fits("role", L.role, L.n_role, L.size);
    fits("me", L.me, L.n_me, L.size);
    fits("acting", L.acting, L.n_acting, L.size);
    fits("phase", L.phase, L.n_phase, L.size);
    fits("decision", L.decision, L.n_decision, L.size);
    fits("decision_args", L.decision_args, 2, L.size);
    fits("target_purpose", L.target_purpose, L.n_purpose, L.size);
    for (int off : {L.my_turn, L.combat, L.light, L.turn}) fits("a context entry", off, 1, L.size);
    for (int p : {L.p_revealed, L.p_corridor, L.p_wall_e, L.p_wall_s, L.p_door_closed_e, L.p_door_closed_s, L.p_door_open_e,
                  L.p_door_open_s, L.p_secret_door, L.p_furniture, L.p_blockage, L.p_exit, L.p_trap_detected, L.p_hazard,
                  L.p_trap_hidden, L.p_heroes, L.p_monsters, L.p_corpses, L.p_acting_unit}) {
        fits("a plane", p, 1, L.n_planes);
    }
    if (L.p_wall_s != L.p_wall_e + 1 || L.p_door_closed_s != L.p_door_closed_e + 1 || L.p_door_open_s != L.p_door_open_e + 1) {
        throw std::invalid_argument("observation layout: each south plane must follow its east plane");
    }
    fits("the traits", L.f_trait0, L.n_traits, L.nf);
    fits("the ready flags", L.f_ready0, L.n_ready, L.nf);
    fits("the per-call values", L.f_dyn0, static_cast<long>(L.dyn_field.size()), L.nf);
    fits("the item decks", L.i_deck0, L.n_decks, L.ni);
    fits("the item-table decks", L.t_deck0, L.n_decks, L.nt);
    fits("the candidate decks", L.c_deck0, L.n_decks, L.nc);
    for (int d : L.deck_of) fits("a card's deck", d, 1, L.n_decks);
    for (int c : L.static_col) fits("a figure column", c, 1, L.nf);
    return L;
}

template <typename T>
Out<T> buffer(nb::handle obj, const char* name, size_t n, const char* dtype) {
    Out<T> arr;
    if (!nb::try_cast(obj, arr, false) || arr.size() != n) {
        throw std::invalid_argument(std::string(name) + ": expected a writable contiguous 1-D numpy array of " + dtype +
                                    " with " + std::to_string(n) + " entries");
    }
    return arr;
}

std::vector<int> slots(nb::handle obj, const char* name) {
    std::vector<int> out;
    for (nb::handle item : obj) {
        int v = 0;
        if (!nb::try_cast<int>(item, v)) throw std::invalid_argument(std::string(name) + ": expected ints");
        out.push_back(v);
    }
    return out;
}

void bind(nb::module_& m) {
    nb::class_<ObsLayout>(m, "Layout",
                          "The observation's layout (observation.OBS_SPEC) and an adventure's static planes, as the core "
                          "builder reads them; made by observation.py.")
        .def("__init__",
             [](ObsLayout* self, const nb::dict& ints, const nb::dict& arrays,
                const std::vector<std::tuple<std::string, std::string, int>>& dynamic,
                const std::vector<std::tuple<int, std::string, int>>& statics) {
                 new (self) ObsLayout(make_layout(ints, arrays, dynamic, statics));
             },
             "ints"_a, "arrays"_a, "dynamic"_a, "statics"_a)
        .def_ro("size", &ObsLayout::size);
    m.def(
        "observe",
        [](Engine& e, const ObsLayout& layout, nb::handle out, nb::handle mask, int role, int me, bool to_act,
           int max_turns, nb::handle seen, nb::handle numbers) {
            Out<float> obs = buffer<float>(out, "out", static_cast<size_t>(layout.size), "float32");
            Out<int8_t> act = buffer<int8_t>(mask, "mask_out", static_cast<size_t>(N_ACTIONS), "int8");
            if (role != 0 && role != 1) throw std::invalid_argument("role: expected 0 (hero) or 1 (dm), got " + std::to_string(role));
            if (me < -1 || me >= layout.n_me) {
                throw std::invalid_argument("me: expected -1 or a hero index below " + std::to_string(layout.n_me) +
                                            ", got " + std::to_string(me));
            }
            if (max_turns < 1) throw std::invalid_argument("max_turns: expected a positive int");
            HeroSight sight;
            if (role == 0 && nb::isinstance<HeroLens>(seen)) {
                sight = hero_sight(e.game, nb::cast<const HeroLens&>(seen));
            } else if (role == 0) {
                sight.seen = slots(seen, "seen");
                sight.numbers = slots(numbers, "numbers");
                if (sight.seen.size() != sight.numbers.size()) {
                    throw std::invalid_argument("seen, numbers: expected one number per monster seen");
                }
                for (int u : sight.seen) {
                    if (u < e.game.state.n_heroes || u >= MAX_UNITS) {
                        throw std::invalid_argument("seen: a monster's slot is in [n_heroes, 64), got " + std::to_string(u));
                    }
                }
            }
            check_layout(e.game, layout);
            observe(e.game, layout, obs.data(), act.data(), N_ACTIONS, role, me, to_act, max_turns, sight);
        },
        "engine"_a, "layout"_a, "out"_a, "mask_out"_a, "role"_a, "me"_a, "to_act"_a, "max_turns"_a, "seen"_a,
        "numbers"_a.none(),
        "Fill `out` (float32, layout.size) with the observation of `role` (0 hero `me`, 1 the DM) and `mask_out` "
        "(int8, one per action) with the legal actions if `to_act`, else zeros. `seen`, `numbers`: for a hero, the "
        "slots of the monsters heroes see and their numbers for them (engine.side_knowledge); or `seen` the "
        "heroes' HeroLens, which knows both (`numbers` then unread).");
}

Binder binder("observe", &bind);

}  // namespace
}  // namespace dungeon_core
