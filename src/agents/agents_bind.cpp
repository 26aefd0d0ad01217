// _core.agents: the scripted agents' choices in compiled code, each taking the core's Engine (see
// scripted_dm_v2.hpp). The Python classes call these and stay the reference they are checked against.
#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <tuple>
#include <vector>

#include "bridge.hpp"
#include "scripted_dm_v2.hpp"
#include "scripted_heroes_v2.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace dungeon_agents {

namespace {

// DMParams from the knobs' values in DM_PARAMS order (an integer knob given as a whole number)
DMParams dm_params(const std::vector<double>& v) {
    if (v.size() != N_DM_PARAMS) {
        throw std::invalid_argument("DMParams: expected " + std::to_string(N_DM_PARAMS) + " values (DM_PARAMS), got " +
                                    std::to_string(v.size()));
    }
    auto whole = [&](int i) {
        if (v[i] != static_cast<int>(v[i])) {
            throw std::invalid_argument(std::string("DMParams: ") + DM_PARAMS[i] + " must be a whole number");
        }
        return static_cast<int>(v[i]);
    };
    return DMParams{v[0],     v[1],     v[2],      whole(3),  v[4],  whole(5),  whole(6),
                    v[7],     whole(8), v[9],      v[10],     v[11], v[12],     v[13],
                    v[14],    whole(15), whole(16), whole(17), v[18]};
}

HeroParams hero_params(const std::vector<double>& v) {
    if (v.size() != N_HERO_PARAMS) {
        throw std::invalid_argument("HeroParams: expected " + std::to_string(N_HERO_PARAMS) +
                                    " values (HERO_PARAMS), got " + std::to_string(v.size()));
    }
    auto whole = [&](int i) {
        if (v[i] != static_cast<int>(v[i])) {
            throw std::invalid_argument(std::string("HeroParams: ") + HERO_PARAMS[i] + " must be a whole number");
        }
        return static_cast<int>(v[i]);
    };
    return HeroParams{whole(0), v[1],     whole(2), v[3],     v[4], v[5],  v[6],
                      v[7],     whole(8), v[9],                         whole(10), v[11], v[12]};
}

using MemoryRow = std::tuple<int, int, int, std::vector<int>, int>;  // turn, monster, start, trail, victim
using PlanRow = std::tuple<int, int, int, int>;                       // monster, turn, uid, hero
using Options = std::vector<std::tuple<int, bool, double>>;           // (hero, out of reach, score)

}  // namespace

// The agent's memory dicts (ScriptedHeroes.intent, ScriptedHeroesV2.relieved, waited) read into a
// HeroMemory, and written back when the choice changed them.
HeroMemory memory_of(nb::dict intent, nb::dict relieved, nb::dict waited) {
    HeroMemory m;
    for (auto [k, v] : intent) m.intent[nb::cast<int>(k)] = nb::cast<std::tuple<int, int, int>>(v);
    for (auto [k, v] : relieved) m.relieved[nb::cast<int>(k)] = nb::cast<std::pair<int, int>>(v);
    for (auto [k, v] : waited) m.waited[nb::cast<int>(k)] = nb::cast<std::pair<int, int>>(v);
    return m;
}

template <typename Map>
void write_back(nb::dict d, const Map& m) {
    d.clear();
    for (const auto& [k, v] : m) d[nb::int_(k)] = nb::cast(v);
}

// The HeroMemory written back into the agent's memory dicts, those it changed since `before`.
void write_memory(const HeroMemory& memory, const HeroMemory& before, nb::dict intent, nb::dict relieved,
                  nb::dict waited) {
    if (memory.intent != before.intent) write_back(intent, memory.intent);
    if (memory.relieved != before.relieved) write_back(relieved, memory.relieved);
    if (memory.waited != before.waited) write_back(waited, memory.waited);
}

namespace {

// `choose(memory)` on the agent's memory read from its dicts, the dicts then changed as it changed it.
template <typename Choose>
auto with_memory(nb::dict intent, nb::dict relieved, nb::dict waited, Choose&& choose) {
    HeroMemory memory = memory_of(intent, relieved, waited);
    const HeroMemory before = memory;
    auto out = choose(memory);
    write_memory(memory, before, intent, relieved, waited);
    return out;
}

}  // namespace

void bind_scripted_play(nb::module_& a);  // scripted_play_bind.cpp

void bind_agents(nb::module_& m) {
    nb::module_ a = m.def_submodule("agents", "The scripted agents' choices in compiled code (src/agents).");
    a.attr("NOT_PORTED") = NOT_PORTED;
    nb::list names;
    for (const char* name : DM_PARAMS) names.append(nb::str(name));
    a.attr("DM_PARAMS") = nb::tuple(names);
    nb::class_<DMParams>(a, "DMParams", "The scripted DM's knobs (agents.scripted_params.DMParams), in DM_PARAMS order.")
        .def("__init__", [](DMParams* p, const std::vector<double>& v) { new (p) DMParams(dm_params(v)); },
             "values"_a);
    nb::class_<DMMemory>(a, "DMMemory",
                         "The scripted DM v2's memory of the Movements (trails and victims), and the plans and "
                         "listing of a search directing it (agents.turn_search.DirectedDM).")
        .def(nb::init<>())
        .def(
            "plan",
            [](DMMemory& mem, int monster, int turn, int uid, int hero) { mem.plans[monster] = Plan{turn, uid, hero}; },
            "monster"_a, "turn"_a, "uid"_a, "hero"_a, "DirectedDM.plan: hunt `hero` (FREE: v2's own) this Movement.")
        .def("clear_plans", [](DMMemory& mem) { mem.plans.clear(); })
        .def_rw("listening", &DMMemory::listening, "Record what v2 weighs for each monster (DirectedDM.listing).")
        .def(
            "take_listing",
            [](DMMemory& mem) {
                std::vector<std::tuple<int, Options, int>> out;
                for (auto& [m, entry] : mem.listing) out.emplace_back(m, std::move(entry.options), entry.choice);
                mem.listing.clear();
                return out;
            },
            "What v2 weighed since the last call: (monster, [(hero, out of reach, score)], v2's victim or -1), "
            "forgotten here.")
        .def("__getstate__",
             [](const DMMemory& mem) {
                 std::vector<MemoryRow> rows;
                 for (const auto& [key, mv] : mem.movements) {
                     rows.emplace_back(std::get<0>(key), std::get<1>(key), std::get<2>(key), mv.trail, mv.victim);
                 }
                 std::vector<PlanRow> plans;
                 for (const auto& [m, plan] : mem.plans) plans.emplace_back(m, plan.turn, plan.uid, plan.hero);
                 return std::make_tuple(mem.turn, rows, plans);
             })
        .def("__setstate__",
             [](DMMemory& mem, const std::tuple<int, std::vector<MemoryRow>, std::vector<PlanRow>>& state) {
                 new (&mem) DMMemory();
                 mem.turn = std::get<0>(state);
                 for (const auto& [turn, monster, start, trail, victim] : std::get<1>(state)) {
                     mem.movements[{turn, monster, start}] = Movement{trail, victim};
                 }
                 for (const auto& [monster, turn, uid, hero] : std::get<2>(state)) {
                     mem.plans[monster] = Plan{turn, uid, hero};
                 }
             });
    nb::list hero_names;
    for (const char* name : HERO_PARAMS) hero_names.append(nb::str(name));
    a.attr("HERO_PARAMS") = nb::tuple(hero_names);
    nb::class_<HeroParams>(a, "HeroParams",
                           "The scripted heroes' knobs (agents.scripted_params.HeroParams), in HERO_PARAMS order.")
        .def("__init__", [](HeroParams* p, const std::vector<double>& v) { new (p) HeroParams(hero_params(v)); },
             "values"_a);
    nb::class_<HeroCache>(a, "HeroCache",
                          "The scripted heroes' path costs kept between decisions, per view content (a memo: "
                          "it never changes a choice).")
        .def(nb::init<>())
        .def("__getstate__", [](const HeroCache&) { return std::make_tuple(); })
        .def("__setstate__", [](HeroCache& c, const std::tuple<>&) { new (&c) HeroCache(); });
    a.def(
        "scripted_heroes_v2_choose",
        [](dungeon_core::Engine& e, const dungeon_core::HeroTablesMaps& maps, const dungeon_core::HeroLens& lens,
           const HeroParams& p, nb::dict intent, nb::dict relieved, nb::dict waited, HeroCache& cache) {
            return with_memory(intent, relieved, waited, [&](HeroMemory& memory) {
                return choose_heroes_v2(e.game, maps, lens, p, memory, cache);
            });
        },
        "engine"_a, "maps"_a, "lens"_a, "params"_a, "intent"_a, "relieved"_a, "waited"_a, "cache"_a,
        "ScriptedHeroesV2.choose on the engine's decision (a hero's), reading the heroes' view made from `maps` "
        "(sideview.reading_maps) and `lens` (their knowledge's lens), with the agent's memory dicts (changed in "
        "place); NOT_PORTED for a decision the Python class plays.");
    a.def(
        "scripted_heroes_v2_choose_world",
        [](dungeon_core::Engine& e, const std::vector<int>& legal, const HeroParams& p, nb::dict intent,
           nb::dict relieved, nb::dict waited, HeroCache& cache, int fixed_end) {
            return with_memory(intent, relieved, waited, [&](HeroMemory& memory) {
                return choose_heroes_v2_world(e.game, legal, p, memory, cache, fixed_end);
            });
        },
        "engine"_a, "legal"_a, "params"_a, "intent"_a, "relieved"_a, "waited"_a, "cache"_a, "fixed_end"_a,
        "ScriptedHeroesV2.choose on a game that is the heroes' world (a heroes' view played on, or a "
        "determinisation), read as it is, with a search's planned end square for the deciding hero (-1: none): "
        "(action or NOT_PORTED, whether the end square was asked).");
    a.def(
        "scripted_heroes_v2_list_world",
        [](dungeon_core::Engine& e, const std::vector<int>& legal, const HeroParams& p, nb::dict intent,
           nb::dict relieved, nb::dict waited, HeroCache& cache) {
            HeroListing listing;
            const auto [action, asked] = with_memory(intent, relieved, waited, [&](HeroMemory& memory) {
                return choose_heroes_v2_world(e.game, legal, p, memory, cache, -1, &listing);
            });
            nb::list weighed;
            for (const auto& [h, entry] : listing.heroes) {
                nb::list options;
                for (const auto& o : entry.options) options.append(nb::make_tuple(o.square, o.score, o.neg_steps, o.progress));
                weighed.append(nb::make_tuple(h, options, entry.choice));
            }
            return nb::make_tuple(action, asked, weighed);
        },
        "engine"_a, "legal"_a, "params"_a, "intent"_a, "relieved"_a, "waited"_a, "cache"_a,
        "scripted_heroes_v2_choose_world without a plan, while a search listens: (action or NOT_PORTED, whether "
        "the end square was asked, [(hero, [(square, score, -steps, progress)] in walking order, v2's choice or "
        "-1)]) (turn_search.DirectedHeroes.weighed's listing).");
    a.def(
        "scripted_dm_v2_choose",
        [](dungeon_core::Engine& e, const DMParams& p, DMMemory& memory) { return choose_v2(e.game, p, memory); },
        "engine"_a, "params"_a, "memory"_a,
        "ScriptedDMV2.choose on the engine's decision (a DM's), or NOT_PORTED for a decision the Python class "
        "plays (a seeded random choice).");
    bind_scripted_play(a);
}

}  // namespace dungeon_agents
