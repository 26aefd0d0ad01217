// The core's port of dungeon_env/engine/abilities.py (the Python module is the reference it is checked
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

namespace dungeon_core::abilities {

// python constant: MOMENTS = (IN_MOVEMENT, IN_EVASION, IN_EXPLORE)
// python constant: _MOMENT_OF_PHASE = {Phase.HERO_MOVEMENT: IN_MOVEMENT, Phase.EVASION: IN_EVASION, Phase.EXPLORE: IN_EXPLORE}
// abilities.card_abilities(g: Context, h: int) -> tuple[Ability, ...]
// Hero ``h``'s abilities, in card order (ABILITY_k is the k-th); none for a monster.
std::vector<Ability> card_abilities(Game& g, int h);

// abilities.ready(g: Context, h: int, k: int) -> bool
// The k-th ability is Active and has a use left: this adventure (``uses``), or this turn.
bool ready(Game& g, int h, int k);

// abilities.ready_pairs(g: Context) -> list[tuple[int, int]]
// ``(hero, k)`` for every Active ability of a hero on the board with a use left (``ready``),
std::vector<std::pair<int, int>> ready_pairs(Game& g);

// abilities.ability_actions(g: Context, h: int, when: str) -> list[int]
// ABILITY_k for each Active ability hero ``h`` may use now: on the board, not surprised
std::vector<int> ability_actions(Game& g, int h, const std::string& when);

// abilities.use(g: Context, h: int, k: int, when: str) -> None
// Hero ``h`` uses its k-th ability (ABILITY_k, known to be legal): ask the target if there is a
void use(Game& g, int h, int k, const std::string& when);

// abilities.targets(g: Context, h: int) -> list[int]
// The hero and the heroes next to it (as for an item used on an ally, ruling D-M14).
std::vector<int> targets(Game& g, int h);

// abilities.land_on(g: Context, unit: int, k: int, target: int) -> None
// The hero chose the target of its k-th ability (a CHOOSE_TARGET among ``targets``).
void land_on(Game& g, int unit, int k, int target);

}  // namespace dungeon_core::abilities
