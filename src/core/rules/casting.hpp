// The core's port of dungeon_env/engine/casting.py (the Python module is the reference it is checked
// against). One C++ function per public Python function, same name and arguments.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "../game.hpp"

namespace dungeon_core::casting {

// casting.is_casting(g: Context, h: int) -> bool
bool is_casting(Game& g, int h);

// casting.fail_spell(g: Context, h: int, reason: str) -> None
// The selected spell fails: no effect, no Magic paid, the scroll kept (R-SPELL-13). The log
void fail_spell(Game& g, int h, const std::string& reason);

}  // namespace dungeon_core::casting
