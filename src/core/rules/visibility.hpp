// The core's port of dungeon_env/engine/visibility.py (the Python module is the reference it is checked
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

namespace dungeon_core::visibility {

// visibility.sees(g: Context, a: int, b: int) -> bool
// Line of sight between two squares given the doors that are closed now.
bool sees(Game& g, int a, int b);

// visibility.visible_areas(g: Context, sq: int) -> tuple[int, ...]
// Areas with at least one square in sight of ``sq`` (cached per door configuration).
std::vector<int> visible_areas(Game& g, int sq);

// visibility.look(g: Context, heroes: list[int], alert: bool=False) -> None
// Reveal every area the given heroes can see; place the Guards of newly revealed areas and
void look(Game& g, const std::vector<int>& heroes, bool alert = false);

// visibility.wake_guards(g: Context, heroes: list[int] | None=None) -> None
// A Guard acts from the moment any hero has line of sight to it (R-MON-02).
void wake_guards(Game& g, const std::optional<std::vector<int>>& heroes = std::nullopt);

}  // namespace dungeon_core::visibility
