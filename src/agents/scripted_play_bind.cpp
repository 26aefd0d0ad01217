// _core.agents.play_scripted: both scripted agents v2 playing on in compiled code (scripted_play.hpp).
#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/tuple.h>

#include <cmath>
#include <map>
#include <string>

#include "bridge.hpp"
#include "scripted_play.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace dungeon_agents {

HeroMemory memory_of(nb::dict intent, nb::dict relieved, nb::dict waited);  // agents_bind.cpp
void write_memory(const HeroMemory& memory, const HeroMemory& before, nb::dict intent, nb::dict relieved,
                  nb::dict waited);

namespace {

nb::tuple play(dungeon_core::Engine& e, dungeon_core::HeroLens& lens, dungeon_core::ShownEvents& shown,
               const HeroParams& hero_params, nb::dict intent, nb::dict relieved, nb::dict waited, HeroCache& cache,
               const DMParams& dm_params, DMMemory& dm_memory, nb::dict maps, int stop_turn, int max_moves,
               int point_side, double spread) {
    HeroMemory memory = memory_of(intent, relieved, waited);
    const HeroMemory before = memory;
    const auto maps_for = [&maps](const std::string& key) -> const dungeon_core::HeroTablesMaps* {
        PyObject* found = PyDict_GetItem(maps.ptr(), nb::bytes(key.data(), key.size()).ptr());  // borrowed
        return found == nullptr ? nullptr : nb::cast<const dungeon_core::HeroTablesMaps*>(nb::handle(found));
    };
    const size_t first = e.game.log_events.size();
    const Played played = play_scripted(e.game, lens, shown, Sides{hero_params, memory, cache, dm_params, dm_memory},
                                        maps_for, stop_turn, max_moves, point_side, spread);
    write_memory(memory, before, intent, relieved, waited);
    nb::object key = played.stop == Stop::NEED_MAPS ? nb::object(nb::bytes(played.key.data(), played.key.size()))
                                                     : nb::object(nb::none());
    return nb::make_tuple(static_cast<int>(played.stop), played.heroes_moves, played.dm_moves, first,
                          e.game.log_events.size(), key);
}

nb::tuple play_world_bound(dungeon_core::Engine& e, const HeroParams& hero_params, nb::dict intent, nb::dict relieved,
                           nb::dict waited, HeroCache& cache, nb::dict plans, const DMParams& dm_params,
                           DMMemory& dm_memory, int stop_turn, int point_side, double spread) {
    HeroMemory memory = memory_of(intent, relieved, waited);
    const HeroMemory before = memory;
    std::map<int, HeroPlan> plan_map;
    for (const auto& [k, v] : plans) {
        const nb::tuple plan = nb::cast<nb::tuple>(v);
        const nb::tuple mark = nb::cast<nb::tuple>(plan[2]);
        plan_map[nb::cast<int>(k)] = HeroPlan{nb::cast<int>(plan[0]), nb::cast<int>(plan[1]),
                                              nb::cast<int64_t>(mark[0]), nb::cast<int64_t>(mark[1])};
    }
    const Played played =
        play_world(e.game, WorldSides{hero_params, memory, cache, plan_map, dm_params, dm_memory}, stop_turn, point_side, spread);
    write_memory(memory, before, intent, relieved, waited);
    // the plans dropped (a plan is only ever dropped here, never added or changed)
    nb::list gone;
    for (const auto& [k, v] : plans) {
        if (!plan_map.count(nb::cast<int>(k))) gone.append(k);
    }
    for (nb::handle k : gone) PyDict_DelItem(plans.ptr(), k.ptr());
    return nb::make_tuple(static_cast<int>(played.stop), played.heroes_moves, played.dm_moves);
}

}  // namespace

void bind_scripted_play(nb::module_& a) {
    a.def("public_key", [](const dungeon_core::Engine& e) {
        const std::string key = public_key(e.game.state);
        return nb::bytes(key.data(), key.size());
    }, "engine"_a, "The key `play_scripted` finds a position's heroes' view maps by (sideview._hero_tables' fields).");
    a.def("play_scripted", &play, "engine"_a, "lens"_a, "shown"_a, "hero_params"_a, "intent"_a, "relieved"_a,
          "waited"_a, "hero_cache"_a, "dm_params"_a, "dm_memory"_a, "maps"_a, "stop_turn"_a, "max_moves"_a,
          "point_side"_a = NO_POINTS, "spread"_a = NAN,
          "Both scripted agents v2 play the engine's game on in compiled code (src/agents/scripted_play.hpp): "
          "(stop, heroes' moves, DM's moves, first new event, the log's length, the public key for NEED_MAPS); "
          "`maps`: public key -> the heroes' view maps (sideview.reading_maps), the heroes' memory dicts changed "
          "in place; `point_side` (HERO_POINTS, DM_POINTS; NO_POINTS: none): stop (POINT) at that side's Movements "
          "no plan holds for; with `spread` (a search's), only where the search would weigh options.");
    a.attr("NO_POINTS") = NO_POINTS;
    a.attr("HERO_POINTS") = HERO_POINTS;
    a.attr("DM_POINTS") = DM_POINTS;
    a.def("play_world", &play_world_bound, "engine"_a, "hero_params"_a, "intent"_a, "relieved"_a, "waited"_a,
          "hero_cache"_a, "plans"_a, "dm_params"_a, "dm_memory"_a, "stop_turn"_a, "point_side"_a = NO_POINTS, "spread"_a = NAN,
          "A search's rollout on a heroes' world played on in compiled code by both walkers v2 "
          "(src/agents/scripted_play.hpp's play_world): (stop, heroes' moves, DM's moves); `plans`: the heroes "
          "walker's plans (hero -> (turn, square, (revealed, in sight))), the stale ones dropped as asked; the "
          "heroes' memory dicts changed in place.");
}

}  // namespace dungeon_agents
