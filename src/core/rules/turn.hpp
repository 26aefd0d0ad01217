// The core's port of dungeon_env/engine/turn.py (the Python module is the reference it is checked
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

namespace dungeon_core::turn {

// python constant: _PHASE_NAMES = {int(phase): phase.name.lower() for phase in Phase}
// turn.begin(g: Context) -> None
void begin(Game& g);

// turn.resume(g: Context) -> None
// Called when the stack is empty after a decision: continue or finish the current phase.
void resume(Game& g);

// turn.turn_start(g: Context) -> None
// Step 1: Patrol rolls, then recovery: +1 Stamina, or +2 Stamina and +1 Magic (Learned +2)
void turn_start(Game& g);

// turn.hero_movement(g: Context) -> None
// Step 2: every hero not surprised gets its Movement allowance (-1 at Light 0,
void hero_movement(Game& g);

// turn.handoffs(g: Context, h: int) -> list[int]
// Heroes ``h`` may hand control to; none if ``h`` has not acted since it got control and has
std::vector<int> handoffs(Game& g, int h);

// turn.handoff(g: Context, to: int) -> None
// Give control to hero ``to`` (ruling D-04). A hand-off made before the hero in control has
void handoff(Game& g, int to);

// turn.spell_selection(g: Context) -> None
// 2.1: heroes pick spells to begin casting.
void spell_selection(Game& g);

// turn.monster_movement(g: Context) -> None
// 2.2: every monster that is awake and not surprised moves, in reading order; the DM may
void monster_movement(Game& g);

// turn.evasion(g: Context) -> None
// 2.3: every hero not surprised gets its Evasion window when it has anything it may do there
void evasion(Game& g);

// turn.fighting(g: Context) -> None
// 2.4: resolve all Fights.
void fighting(Game& g);

// turn.spell_resolution(g: Context) -> None
// 2.5: spells that did not fail resolve; then Turn End if monsters remain, else Explore.
void spell_resolution(Game& g);

// turn.turn_end(g: Context) -> None
// Step 5: Death's Door rolls for heroes that did not Rest, then Light -1 (R-TURN-14,
void turn_end(Game& g);

// python constant: _RESUME = {Phase.HERO_MOVEMENT: _next_hero, Phase.EVASION: _next_hero, Phase.MONSTER_MOVEMENT: _next_monster, Phase.FIGHTING: lambda g: g.goto(Phase.S
// python constant: _BEGIN = {Phase.TURN_START: turn_start, Phase.HERO_MOVEMENT: hero_movement, Phase.SPELL_SELECTION: spell_selection, Phase.MONSTER_MOVEMENT: monster_mo
}  // namespace dungeon_core::turn
