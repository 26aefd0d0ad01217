// The Python side of the core's engine: content, state, dice and events converted between the
// Python objects (engine/tables.py, content/model.py, engine/state.py, engine/dice.py, event dicts)
// and the core's structs, and the Engine class that plays a game in the core.
#pragma once

#include <nanobind/nanobind.h>

#include "game.hpp"

namespace dungeon_core {

// One game played in the core, as Python holds it (_core.Engine).
struct Engine {
    Game game;
};

void bind_engine(nanobind::module_& m);

// Conversions the rule modules' test bindings use.
nanobind::object to_python(const Value& v);
Value value_of(nanobind::handle obj);

// A rule module's test bindings (src/core/rules/*_bind.cpp): `static Binder b("combat", fn);` adds
// fn's functions to _core.rules.combat, each taking the Engine first, so that tests can call one
// ported function on a position and compare it with its Python version (core_parity.shadow).
using BindFn = void (*)(nanobind::module_& m);
struct Binder {
    Binder(const char* module, BindFn fn);
};

}  // namespace dungeon_core
