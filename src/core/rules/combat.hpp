// The core's port of dungeon_env/engine/combat.py (the Python module is the reference it is checked
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

namespace dungeon_core::combat {

// combat.gather_fights(g: Context) -> list[list[int]]
// Every hero fights every monster orthogonally adjacent to it with no wall or closed door
std::vector<Row> gather_fights(Game& g);

// combat.enemy_counts(fights: list[list[int]]) -> dict[int, int]
std::map<int, int> enemy_counts(const std::vector<Row>& fights);

// combat.begin_fighting(g: Context) -> bool
// Set up the phase's Fights; returns False if there are none.
bool begin_fighting(Game& g);

// combat.legal_fight_stamina(g: Context, u: int) -> list[int]
std::vector<int> legal_fight_stamina(Game& g, int u);

// combat.do_fight_stamina(g: Context, u: int, action: int) -> None
void do_fight_stamina(Game& g, int u, int action);

// combat.hero_modifiers(g: Context, h: int, enemies: int, spend: int) -> dict[str, int]
// -1 per enemy beyond the first (``rules.enemy_penalty``), surprised -1, Light 0 -1
Mods hero_modifiers(Game& g, int h, int enemies, int spend);

// combat.monster_modifiers(g: Context, m: int, enemies: int, spend: int) -> dict[str, int]
Mods monster_modifiers(Game& g, int m, int enemies, int spend);

// combat.resolve_fight(g: Context, row: list[int]) -> None
// Each side rolls 2d6 + modified Fighting Score; higher total wins, ties go to a Strong hero,
// (`row` is a row of state.fights: its winner is written in place)
void resolve_fight(Game& g, Row& row);

// combat.apply_fight_damage(g: Context) -> None
// All Fight damage lands together after the last Fight (R-DMG-01..05): each winner deals its
void apply_fight_damage(Game& g);

}  // namespace dungeon_core::combat
