// The core's port of dungeon_env/engine/effects.py (the Python module is the reference it is checked
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

namespace dungeon_core::effects {

// effects.py's KIND of the kinds other rules test (the index of the kind in EFFECT_KINDS)
constexpr int FIGHT = 5, SLEEP = 9;

// python constant: KIND = {kind: i for i, kind in enumerate(EFFECT_KINDS)}
// python constant: OTHER = -1000
// python constant: ABILITY_SOURCE = -2000
// python constant: CHECK_KINDS = {'jump': 'jump_bonus', 'open_door': 'door_bonus', 'disarm': 'disarm_bonus', 'detect_traps': 'detect_bonus', 'room_detect': 'detect_bonus
// effects.source_code(g: Context, source: str) -> int
// The ``source`` column of a lasting effect from its log label.
int source_code(Game& g, const std::string& source);

// effects.source_name(g: Context, code: int) -> str
std::string source_name(Game& g, int code);

// effects.ability_codes(heroes: tuple[HeroCard, ...]) -> dict[str, int]
// Every hero ability id of a roster, numbered in card order (ids are unique in a roster).
Mods ability_codes(const std::vector<HeroCard>& heroes);

// effects.live(g: Context, row: list[int]) -> bool
bool live(Game& g, const std::vector<int>& row);

// effects.rows_of(g: Context, u: int) -> list[list[int]]
std::vector<Row> rows_of(Game& g, int u);

// effects.spell_in_play(g: Context, spell: int) -> bool
// An ongoing effect of this spell lasts, on anyone (the recast ban is global, ruling A-23).
bool spell_in_play(Game& g, int spell);

// effects.asleep(g: Context, u: int) -> bool
bool asleep(Game& g, int u);

// effects.add_lasting(g: Context, effect: Effect, source: str, target: int) -> None
void add_lasting(Game& g, const Effect& effect, const std::string& source, int target);

// effects.tick(g: Context) -> None
// Turn End: every lasting effect counts down one turn; the expired and void ones end.
void tick(Game& g);

// effects.carried(g: Context, u: int, kind: str) -> list[tuple[str, int]]
// ``(item id, amount)`` of the identified passive items ``u`` holds that give ``kind``.
std::vector<std::pair<std::string, int>> carried(Game& g, int u, const std::string& kind);

// effects.innate(g: Context, u: int, kind: str) -> list[tuple[str, int]]
// ``(ability id, amount)`` of hero ``u``'s Passive abilities that give ``kind`` now.
std::vector<std::pair<std::string, int>> innate(Game& g, int u, const std::string& kind);

// effects.fight_modifiers(g: Context, u: int) -> dict[str, int]
Mods fight_modifiers(Game& g, int u);

// effects.damage_of(g: Context, u: int, target: int=-1) -> int
// ``u``'s Damage with its weapons and effects, less ``target``'s armour; never below 1.
int damage_of(Game& g, int u, int target = -1);

// effects.move_bonus(g: Context, u: int) -> int
int move_bonus(Game& g, int u);

// effects.check_modifiers(g: Context, u: int, check: str) -> dict[str, int]
Mods check_modifiers(Game& g, int u, const std::string& check);

// effects.usable_now(g: Context, effect: Effect | None) -> bool
// Whether a card's effect may be used at this moment of the game: nothing detects traps while a
bool usable_now(Game& g, const std::optional<Effect>& effect);

// effects.raise_light(g: Context, amount: int, source: str) -> None
// Light rises, never above the cap: 20, ``light.max`` (R-LIGHT-01/03). Raised from 0 in the
void raise_light(Game& g, int amount, const std::string& source);

// effects.detect_traps_near(g: Context, u: int, radius: int, source: str) -> list[int]
// Every armed trap within ``radius`` squares (path distance, A-39) of ``u`` that ``u`` can see
std::vector<int> detect_traps_near(Game& g, int u, int radius, const std::string& source);

// effects.apply_effect(g: Context, effect: Effect, source: str, target: int, by: int=-1) -> None
// Apply one effect; an effect on a unit that is no longer on the board does nothing.
void apply_effect(Game& g, const Effect& effect, const std::string& source, int target, int by = -1);

}  // namespace dungeon_core::effects
