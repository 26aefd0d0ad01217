// The core's port of dungeon_env/engine/mental.py (the Python module is the reference it is checked
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

namespace dungeon_core::mental {

// what a Mental Combat is for, and its result (mental.py's PURPOSE_* and AGGRESSOR_WINS, TIE, DEFENDER_WINS)
constexpr int PURPOSE_SPELL = 0, PURPOSE_LASH = 1;
constexpr int AGGRESSOR_WINS = 1, TIE = 0, DEFENDER_WINS = -1;

// python constant: ABILITY = 'mental_combat'
// mental.start(g: Context, aggressor: int, defender: int, purpose: int) -> None
// Begin a Mental Combat: the aggressor is asked its bid first.
void start(Game& g, int aggressor, int defender, int purpose);

// mental.legal_bid(g: Context, unit: int, a: int, b: int) -> list[int]
std::vector<int> legal_bid(Game& g, int unit, int a, int b);

// mental.do_bid(g: Context, unit: int, a: int, b: int, action: int) -> tuple[int, int, int, int] | None
// A bid is made: the defender is asked next, or the duel is rolled and its outcome returned as
std::optional<std::array<int, 4>> do_bid(Game& g, int unit, int a, int b, int action);

// mental.modifiers(g: Context, u: int, bid: int) -> dict[str, int]
Mods modifiers(Game& g, int u, int bid);

// mental.roll(g: Context, a: int, b: int, a_bid: int, b_bid: int) -> int
// One d6 each (the aggressor's first), plus modifiers; logs a ``mental`` event and returns
int roll(Game& g, int a, int b, int a_bid, int b_bid);

// mental.lashers(g: Context) -> list[int]
// Monsters that attack minds this Spell Resolution, in reading order.
std::vector<int> lashers(Game& g);

// mental.lash_target(g: Context, m: int) -> int
// The nearest hero the monster sees within ``rules.lash_range`` squares (ties: reading order), or -1.
int lash_target(Game& g, int m);

// mental.monster_attack(g: Context, m: int) -> None
// The monster's Mind Lash, if it is still on the board and a hero is in reach.
void monster_attack(Game& g, int m);

// mental.lash_lands(g: Context, m: int, h: int, result: int) -> None
// A Mind Lash's duel is decided: the hero loses Health if the monster won.
void lash_lands(Game& g, int m, int h, int result);

}  // namespace dungeon_core::mental
