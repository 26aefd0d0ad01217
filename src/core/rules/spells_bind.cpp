// Test bindings of the spells port: _core.rules.spells.<function>(engine, ...) (tests/test_core_rules_spells.py).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bridge.hpp"
#include "rules/spells.hpp"

namespace nb = nanobind;

namespace dungeon_core {
namespace {

using S = const std::string&;

void bind(nb::module_& m) {
    // fits takes the spell's index (Python: spells.fits(g.spells[sp], when))
    m.def("fits", [](Engine& e, int sp, S when) { return spells::fits(e.game.content->spells.at(sp), when); });
    m.def("at_once_allowed", [](Engine& e, S when) { return spells::at_once_allowed(e.game, when); });
    m.def("known", [](Engine& e, int h) { return spells::known(e.game, h); });
    m.def("may_cast", [](Engine& e, int h) { return spells::may_cast(e.game, h); });
    m.def("targets", [](Engine& e, int h, int sp) { return spells::targets(e.game, h, sp); });
    m.def("castable", [](Engine& e, int h, int sp, S when, bool scroll) {
        return spells::castable(e.game, h, sp, when, scroll);
    });
    m.def("spell_level_total", [](Engine& e, int h) { return spells::spell_level_total(e.game, h); });
    m.def("spell_actions", [](Engine& e, int h, S when) { return spells::spell_actions(e.game, h, when); });
    m.def("pick_spell", [](Engine& e, int h, int k, S when) { spells::pick_spell(e.game, h, k, when); });
    m.def("legal_spell_verb", [](Engine& e, int u, int a, int b) { return spells::legal_spell_verb(e.game, u, a, b); });
    m.def("do_spell_verb", [](Engine& e, int u, int a, int b, int action) {
        spells::do_spell_verb(e.game, u, a, b, action);
    });
    m.def("forget", [](Engine& e, int h, int sp, S reason) { spells::forget(e.game, h, sp, reason); });
    m.def("scroll_spell", [](Engine& e, int item) { return spells::scroll_spell(e.game, item); });
    m.def("can_cast_scroll", [](Engine& e, int h, int item, S when) {
        return spells::can_cast_scroll(e.game, h, item, when);
    });
    m.def("cast_scroll", [](Engine& e, int h, int item, S when) { spells::cast_scroll(e.game, h, item, when); });
    m.def("can_memorize", [](Engine& e, int h, int item) { return spells::can_memorize(e.game, h, item); });
    m.def("memorize", [](Engine& e, int h, int item) { spells::memorize(e.game, h, item); });
    m.def("begin_spell_selection", [](Engine& e) { spells::begin_spell_selection(e.game); });
    m.def("resume_spell_selection", [](Engine& e) { spells::resume_spell_selection(e.game); });
    m.def("selection_options", [](Engine& e, int h) { return spells::selection_options(e.game, h); });
    m.def("legal_spell_select", [](Engine& e, int u, int a, int b) {
        return spells::legal_spell_select(e.game, u, a, b);
    });
    m.def("do_spell_select", [](Engine& e, int u, int a, int b, int action) {
        spells::do_spell_select(e.game, u, a, b, action);
    });
    m.def("fail", [](Engine& e, int h, S reason) { spells::fail(e.game, h, reason); });
    m.def("ask_cast_while_fighting", [](Engine& e) { spells::ask_cast_while_fighting(e.game); });
    m.def("legal_cast_while_fighting", [](Engine& e, int u, int a, int b) {
        return spells::legal_cast_while_fighting(e.game, u, a, b);
    });
    m.def("do_cast_while_fighting", [](Engine& e, int u, int a, int b, int action) {
        spells::do_cast_while_fighting(e.game, u, a, b, action);
    });
    m.def("begin_spell_resolution", [](Engine& e) { spells::begin_spell_resolution(e.game); });
    m.def("resume_spell_resolution", [](Engine& e) { spells::resume_spell_resolution(e.game); });
    m.def("resolve_selected", [](Engine& e, int h) { spells::resolve_selected(e.game, h); });
    m.def("begin_cast", [](Engine& e, int h, int sp, int item, S when) {
        spells::begin_cast(e.game, h, sp, item, when);
    });
    m.def("legal_cast_mode", [](Engine& e, int u, int a, int b) { return spells::legal_cast_mode(e.game, u, a, b); });
    m.def("do_cast_mode", [](Engine& e, int u, int a, int b, int action) {
        spells::do_cast_mode(e.game, u, a, b, action);
    });
    m.def("cast_at", [](Engine& e, int u, int sp, int target) { spells::cast_at(e.game, u, sp, target); });
    m.def("after_mental", [](Engine& e, int caster, int target, int result) {
        spells::after_mental(e.game, caster, target, result);
    });
    m.def("backlash", [](Engine& e, int h, int sp, int item) { spells::backlash(e.game, h, sp, item); });
    m.def("end_adventure", [](Engine& e) { spells::end_adventure(e.game); });
}

Binder binder("spells", &bind);

}  // namespace
}  // namespace dungeon_core
