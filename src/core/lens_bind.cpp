// _core.HeroRules and _core.HeroLens: the heroes' lens in the core (lens.hpp).
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/set.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unordered_map.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>

#include "bridge.hpp"
#include "lens.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace dungeon_core {
namespace {

// _core.ShownEvents (lens.hpp) as Python reads it: the kept events made dicts when read.
nb::list shown_since(const ShownEvents& s, size_t start) {
    nb::list out;
    for (auto it = s.from(start); it != s.events.end(); ++it) out.append(to_python(it->second));
    return out;
}

nb::list shown_numbered_since(const ShownEvents& s, size_t start) {
    nb::list out;
    for (auto it = s.from(start); it != s.events.end(); ++it) out.append(nb::make_tuple(it->first, to_python(it->second)));
    return out;
}

void shown_append(ShownEvents& s, size_t index, nb::handle event) {
    if (!s.events.empty() && index <= s.events.back().first) {
        throw std::invalid_argument("ShownEvents.append: index " + std::to_string(index) +
                                    " is not after the last kept event's (" + std::to_string(s.events.back().first) + ")");
    }
    s.events.emplace_back(index, value_of(event));
}

}  // namespace

bool append_shown_events(nb::handle obj, EventLog& log) {
    ShownEvents* shown = nullptr;
    if (!nb::try_cast<ShownEvents*>(obj, shown) || shown == nullptr) return false;
    if (log.empty()) {
        log = shown->as_log();
    } else {
        for (const auto& [index, event] : shown->events) log.push_back(event);
    }
    return true;
}

void bind_lens(nb::module_& m) {
    nb::class_<HeroRules>(m, "HeroRules", "knowledge.py's rules of what heroes see of an event, as the core applies them.")
        .def(
            "__init__",
            [](HeroRules* r, std::set<std::string> public_types, std::map<std::string, std::string> about,
               std::set<std::string> open_checks, std::vector<std::string> figure_fields,
               std::map<std::string, std::vector<std::string>> figures_of) {
                new (r) HeroRules(make_hero_rules(std::move(public_types), std::move(about), std::move(open_checks),
                                                  std::move(figure_fields), std::move(figures_of)));
            },
            "public"_a, "about"_a, "open_checks"_a, "figure_fields"_a, "figures_of"_a)
        .def("__getstate__", [](const HeroRules& r) {
            return std::make_tuple(r.public_types, r.about, r.open_checks, r.figure_fields, r.figures_of);
        })
        .def("__setstate__", [](HeroRules* r, const std::tuple<std::set<std::string>, std::map<std::string, std::string>,
                                                                std::set<std::string>, std::vector<std::string>,
                                                                std::map<std::string, std::vector<std::string>>>& t) {
            new (r) HeroRules(
                make_hero_rules(std::get<0>(t), std::get<1>(t), std::get<2>(t), std::get<3>(t), std::get<4>(t)));
        });
    nb::class_<HeroLens>(m, "HeroLens", "The heroes' lens of one game's log, folded in the core (knowledge.HeroLens).")
        .def(nb::init<std::shared_ptr<const HeroRules>>(), "rules"_a)
        .def(
            "fold",
            [](HeroLens& lens, const Engine& e, size_t start) {
                nb::list out;
                size_t index = start;
                e.game.log_events.visit_from(start, [&](const Value& event) {
                    std::optional<Value> seen = lens.see(e.game, event);
                    if (seen) out.append(nb::make_tuple(index, to_python(*seen)));
                    ++index;
                });
                lens.name_unnamed(e.game);
                return out;
            },
            "engine"_a, "start"_a,
            "Fold the engine's events from `start` on, as the game stands now, then name the monsters in "
            "sight that no event named: [(index in the log, the event as heroes may know it)] of the shown ones.")
        .def(
            "fold_into",
            [](HeroLens& lens, const Engine& e, size_t start, ShownEvents& shown) { fold_log(lens, e.game, start, &shown); },
            "engine"_a, "start"_a, "shown"_a,
            "fold() keeping the shown events in `shown` (a ShownEvents) as the core's values, instead of "
            "returning them as dicts.")
        .def("number", &HeroLens::number, "uid"_a, "The heroes' number of the engine's monster id, -1 if unseen.")
        .def_prop_ro("numbers", [](const HeroLens& lens) { return lens.numbers(); },
                     "Engine monster id -> the heroes' number, for every monster they have seen.")
        .def_prop_ro("names", [](const HeroLens& lens) {
                std::map<std::string, std::string> out;
                for (const auto& [uid, k] : lens.numbers()) out["m" + std::to_string(uid)] = "m" + std::to_string(k);
                return out;
            }, "Engine monster id -> the heroes' id for it, for every monster heroes have seen.")
        .def_prop_ro("where", [](const HeroLens& lens) { return lens.where(); },
                     "Engine monster id -> its square, for the monsters on the board the log placed.")
        .def_prop_ro("revealed", [](const HeroLens& lens) { return lens.revealed(); }, "The areas the log revealed, by name.")
        .def_prop_ro("slain", [](const HeroLens& lens) { return lens.slain(); },
                     "Engine monster id -> whether a hero was among the killers of its last slain event.")
        .def_static("monsters_in_sight", [](const Engine& e) { return HeroLens::monsters_in_sight(e.game); }, "engine"_a,
                    "knowledge.monsters_in_sight in the core: the slots of the active monsters on a square of a "
                    "revealed area, in slot order.")
        .def_rw("unnamed_possible", &HeroLens::unnamed_possible)
        .def("copy", [](const HeroLens& lens) { return HeroLens(lens); }, "An independent copy.")
        .def("__getstate__", [](const HeroLens& lens) {
            return std::make_tuple(lens.rules(), lens.revealed_areas(), lens.revealed(), lens.where(), lens.numbers(),
                                   lens.slain(), lens.unnamed_possible);
        })
        .def("__setstate__", [](HeroLens* lens, std::tuple<std::shared_ptr<const HeroRules>, std::vector<uint8_t>,
                                                           std::set<std::string>, std::unordered_map<std::string, int>,
                                                           std::unordered_map<int, int>, std::unordered_map<std::string, bool>,
                                                           bool> t) {
            new (lens) HeroLens(std::get<0>(t), std::move(std::get<1>(t)), std::move(std::get<2>(t)),
                                std::move(std::get<3>(t)), std::move(std::get<4>(t)), std::move(std::get<5>(t)),
                                std::get<6>(t));
        }, "state"_a, "A lens as pickled: (rules, revealed area flags, revealed names, where, numbers, slain, unnamed_possible).");
    nb::class_<ShownEvents>(m, "ShownEvents",
                            "The events heroes were shown, with their indices in the game's log, kept in the core "
                            "until read (HeroLens.fold_into appends to it).")
        .def(nb::init<>())
        .def("__len__", [](const ShownEvents& s) { return s.events.size(); })
        .def("since", &shown_since, "start"_a,
             "The kept events whose index in the log is `start` or later, as new dicts, in order.")
        .def("numbered_since", &shown_numbered_since, "start"_a,
             "(index in the log, event) of the kept events from the log's index `start` on.")
        .def("drop_before", &ShownEvents::drop_before, "start"_a, "Forget the events logged before index `start`.")
        .def("append", &shown_append, "index"_a, "event"_a,
             "Keep `event` (a dict of JSON-like values), logged at `index` (after every kept one's).")
        .def("copy", [](const ShownEvents& s) { return ShownEvents(s); }, "An independent copy.")
        .def("__getstate__", [](const ShownEvents& s) { return shown_numbered_since(s, 0); })
        .def(
            "__setstate__",
            [](ShownEvents* s, nb::list pairs) {
                new (s) ShownEvents();
                for (nb::handle pair : pairs) shown_append(*s, nb::cast<size_t>(pair[0]), pair[1]);
            },
            "state"_a, "A store as pickled: [(index, event)].");
}

}  // namespace dungeon_core
