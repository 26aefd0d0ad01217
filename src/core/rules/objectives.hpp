// The core's port of dungeon_env/engine/objectives.py (the Python module is the reference it is checked
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

namespace dungeon_core::objectives {

// objectives.objective_met(g: Context, index: int) -> bool
bool objective_met(Game& g, int index);

// objectives.objectives_report(g: Context) -> list[dict]
std::vector<Value> objectives_report(Game& g);

// objectives.goals_met(g: Context) -> bool
// Every primary objective of the adventure is met (R-END-03: reported beside the outcome).
bool goals_met(Game& g);

// objectives.ending(g: Context) -> tuple[str, str] | None
// ``(outcome, reason)`` once no hero is left on the board, else None.
std::optional<std::pair<std::string, std::string>> ending(Game& g);

}  // namespace dungeon_core::objectives
