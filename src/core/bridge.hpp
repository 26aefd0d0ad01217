// The Python side of the core's engine: content, state, dice and events converted between the
// Python objects (engine/tables.py, content/model.py, engine/state.py, engine/dice.py, event dicts)
// and the core's structs, and the Engine class that plays a game in the core.
#pragma once

#include <nanobind/nanobind.h>

namespace dungeon_core {
void bind_engine(nanobind::module_& m);
}
