// The core's port of dungeon_env/engine/units.py (the Python module is the reference it is checked
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

namespace dungeon_core::units {

// python constant: TRAIT_BIT = {name: 1 << i for i, name in enumerate(TRAITS)}
// units.label(g: Context, u: int) -> str
// The stable id of a unit: ``hero_<i>`` or ``m<uid>``.
std::string label(Game& g, int u);

// units.has_trait(g: Context, u: int, trait: str) -> bool
bool has_trait(Game& g, int u, const std::string& trait);

// units.traits_of(g: Context, u: int) -> list[str]
std::vector<std::string> traits_of(Game& g, int u);

// units.unit_info(g: Context, u: int) -> dict
Value unit_info(Game& g, int u);

// units.place_hero(g: Context, u: int, card_index: int, sq: int) -> None
void place_hero(Game& g, int u, int card_index, int sq);

// units.free_slot(g: Context) -> int
int free_slot(Game& g);

// units.place_monster(g: Context, monster_id: str, sq: int, how: How) -> int
// Put a new monster on ``sq``; returns its slot, or NO_UNIT if every slot is taken.
int place_monster(Game& g, const std::string& monster_id, int sq, int how);

// units.put(g: Context, u: int, sq: int) -> None
void put(Game& g, int u, int sq);

// units.take_off(g: Context, u: int) -> None
void take_off(Game& g, int u);

// units.active_heroes(g: Context) -> list[int]
std::vector<int> active_heroes(Game& g);

// units.active_monsters(g: Context) -> list[int]
// Monsters on the board in the DM's reading order (top to bottom, left to right).
std::vector<int> active_monsters(Game& g);

// units.any_monster(g: Context) -> bool
bool any_monster(Game& g);

// units.spend_stamina(g: Context, u: int, amount: int) -> None
// Spend Stamina; depleting it to 0 makes the unit Exhausted (R-EXH-01). Spending nothing
void spend_stamina(Game& g, int u, int amount);

// units.gain_stamina(g: Context, u: int, amount: int) -> None
void gain_stamina(Game& g, int u, int amount);

// units.heal(g: Context, u: int, amount: int) -> None
// Raise Health (capped at base); a hero raised above 0 leaves Death's Door (R-DMG-08).
void heal(Game& g, int u, int amount);

// units.hurt_hero(g: Context, u: int, amount: int, source: str, killers=(), down_before: bool | None=None) -> None
// Damage a hero (Health floors at 0). A hero brought to 0 is on Death's Door: one
void hurt_hero(Game& g, int u, int amount, const std::string& source, const std::vector<std::string>& killers = {}, std::optional<bool> down_before = std::nullopt);

// units.deaths_door_roll(g: Context, u: int, killers=()) -> None
// d6 (Iron-Willed +1): dies on 1-3, ``rules.deaths_door_max`` (R-DMG-06/07).
void deaths_door_roll(Game& g, int u, const std::vector<std::string>& killers = {});

// units.kill_hero(g: Context, u: int, killers=()) -> None
// The hero dies: its corpse stays on its square with its items (R-DEATH-01).
void kill_hero(Game& g, int u, const std::vector<std::string>& killers = {});

// units.slay_monster(g: Context, u: int, killers: list[str]) -> None
void slay_monster(Game& g, int u, const std::vector<std::string>& killers);

// units.together(g: Context, u: int, v: int) -> bool
// Two figures are in the same room or corridor segment, or side by side with no wall or closed
bool together(Game& g, int u, int v);

// units.check_corpses(g: Context) -> None
// A corpse with no living hero in its room or corridor, nor on a square next to it, is lost at
void check_corpses(Game& g);

}  // namespace dungeon_core::units
