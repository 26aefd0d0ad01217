// The set-up of a game in the core (dungeon_env/engine/game.py's Game._place and Game.new): the
// state sized for the adventure, the heroes on their start squares with their starting spells, the
// decks shuffled and the carried items handed over, the "setup" event, the heroes' first look, and
// then the automatic steps up to the first decision. Game.new plays on it; Game._place stays the
// reference it is checked against (tests/test_core_setup.py).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "game.hpp"

namespace dungeon_core {

// per hero, the items it brings from earlier adventures: (item card id, identified)
using Carried = std::optional<std::vector<std::vector<std::pair<std::string, bool>>>>;

// Set up `g` (its content, dice and max_turns already given) with the heroes of `hero_ids` (roster
// ids, in seat order) up to the first decision. `seed` is the game's seed, logged in "setup".
// A hero id missing from the roster, or a party of a size the game is not for, is an invalid_argument
// naming it.
void set_up(Game& g, const std::vector<std::string>& hero_ids, int64_t seed, const Carried& carried);

}  // namespace dungeon_core
