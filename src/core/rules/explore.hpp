// The core's port of dungeon_env/engine/explore.py (the Python module is the reference it is checked
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

namespace dungeon_core::explore {

// python constant: TARGETLESS = ('light',)
// explore.begin_explore(g: Context) -> None
// (a) each living hero on the board says whether it explores or stays put (R-EXPL-02).
void begin_explore(Game& g);

// explore.resume_explore(g: Context) -> None
// Go on with the phase where it stands: (a) the next explore choice, (b) the next event due,
void resume_explore(Game& g);

// explore.legal_explore_choice(g: Context, unit: int, a: int, b: int) -> list[int]
std::vector<int> legal_explore_choice(Game& g, int unit, int a, int b);

// explore.do_explore_choice(g: Context, unit: int, a: int, b: int, action: int) -> None
void do_explore_choice(Game& g, int unit, int a, int b, int action);

// explore.end_acts(g: Context, unit: int) -> None
// (c) The hero's Explore actions (items, Explore spells, Active abilities: ``decisions``
void end_acts(Game& g, int unit);

// explore.area_order(g: Context) -> list[int]
// Areas in the board's reading order (by each area's first square), built once per adventure.
std::vector<int> area_order(Game& g);

// explore.affected(g: Context, e: int) -> list[int]
// The heroes an event affects: every living hero in its area, or only the exploring ones.
std::vector<int> affected(Game& g, int e);

// explore.fire_event(g: Context, e: int) -> None
// Resolve one event (it never fires again, A-59); it may ask decisions of the heroes.
void fire_event(Game& g, int e);

// explore.trait_check(g: Context, h: int, trait: str) -> bool
// A room-text trait check: d6, +1 with the trait, 4-6 succeeds (the rules' single-die bands;
bool trait_check(Game& g, int h, const std::string& trait);

// explore.resolve_option(g: Context, e: int, option: EventOption, h: int) -> None
// One option for hero ``h``: its trait check if any (a failure applies ``fail`` only), then its
void resolve_option(Game& g, int e, const EventOption& option, int h);

// explore.legal_event_choice(g: Context, unit: int, a: int, b: int) -> list[int]
std::vector<int> legal_event_choice(Game& g, int unit, int a, int b);

// explore.do_event_choice(g: Context, unit: int, a: int, b: int, action: int) -> None
void do_event_choice(Game& g, int unit, int a, int b, int action);

// explore.legal_claim(g: Context, unit: int, a: int, b: int) -> list[int]
// TAKE (if the hero can carry one more item) or PASS.
std::vector<int> legal_claim(Game& g, int unit, int a, int b);

// explore.do_claim(g: Context, unit: int, a: int, b: int, action: int) -> None
// TAKE: the hero takes the item. PASS: the next exploring hero of the area is asked; if every
void do_claim(Game& g, int unit, int a, int b, int action);

// explore.spawn_event_monsters(g: Context, e: int) -> list[int]
// An event's monsters appear as an ambush: whatever their cards, they follow the Ambusher rules
std::vector<int> spawn_event_monsters(Game& g, int e);

// explore.reveal_door(g: Context, door: int) -> None
// A secret door becomes an ordinary closed door: it can be opened from now on.
void reveal_door(Game& g, int door);

}  // namespace dungeon_core::explore
