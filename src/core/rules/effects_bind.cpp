// Test bindings of the effects port (_core.rules.effects), each taking the Engine first; an Effect
// argument is a content Effect (kind, amount, duration) or None.
#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bridge.hpp"
#include "rules/effects.hpp"

namespace nb = nanobind;

namespace dungeon_core {
namespace {

Effect effect_arg(nb::handle e) {
    return {nb::cast<std::string>(e.attr("kind")), nb::cast<int>(e.attr("amount")), nb::cast<int>(e.attr("duration"))};
}

nb::dict dict_of(const Mods& mods) {
    nb::dict d;
    for (const auto& m : mods) d[m.first.c_str()] = m.second;
    return d;
}

void bind(nb::module_& m) {
    m.def("source_code", [](Engine& e, const std::string& source) { return effects::source_code(e.game, source); });
    m.def("source_name", [](Engine& e, int code) { return effects::source_name(e.game, code); });
    m.def("ability_codes", [](Engine& e) { return dict_of(effects::ability_codes(e.game.content->heroes)); });
    m.def("live", [](Engine& e, const std::vector<int>& row) { return effects::live(e.game, row); });
    m.def("rows_of", [](Engine& e, int u) { return effects::rows_of(e.game, u); });
    m.def("spell_in_play", [](Engine& e, int spell) { return effects::spell_in_play(e.game, spell); });
    m.def("asleep", [](Engine& e, int u) { return effects::asleep(e.game, u); });
    m.def("add_lasting", [](Engine& e, nb::handle effect, const std::string& source, int target) {
        effects::add_lasting(e.game, effect_arg(effect), source, target);
    });
    m.def("tick", [](Engine& e) { effects::tick(e.game); });
    m.def("carried", [](Engine& e, int u, const std::string& kind) { return effects::carried(e.game, u, kind); });
    m.def("innate", [](Engine& e, int u, const std::string& kind) { return effects::innate(e.game, u, kind); });
    m.def("fight_modifiers", [](Engine& e, int u) { return dict_of(effects::fight_modifiers(e.game, u)); });
    m.def("damage_of", [](Engine& e, int u, int target) { return effects::damage_of(e.game, u, target); },
          nb::arg("e"), nb::arg("u"), nb::arg("target") = -1);
    m.def("move_bonus", [](Engine& e, int u) { return effects::move_bonus(e.game, u); });
    m.def("check_modifiers", [](Engine& e, int u, const std::string& check) {
        return dict_of(effects::check_modifiers(e.game, u, check));
    });
    m.def("usable_now", [](Engine& e, nb::handle effect) {
        return effects::usable_now(e.game, effect.is_none() ? std::nullopt : std::optional<Effect>(effect_arg(effect)));
    });
    m.def("raise_light", [](Engine& e, int amount, const std::string& source) { effects::raise_light(e.game, amount, source); });
    m.def("detect_traps_near", [](Engine& e, int u, int radius, const std::string& source) {
        return effects::detect_traps_near(e.game, u, radius, source);
    });
    m.def("apply_effect", [](Engine& e, nb::handle effect, const std::string& source, int target, int by) {
        effects::apply_effect(e.game, effect_arg(effect), source, target, by);
    }, nb::arg("e"), nb::arg("effect"), nb::arg("source"), nb::arg("target"), nb::arg("by") = -1);
}

Binder binder("effects", &bind);

}  // namespace
}  // namespace dungeon_core
