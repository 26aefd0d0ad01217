// The scripted agents v2 on both sides playing a game on in compiled code: the DM's choice
// (scripted_dm_v2.hpp), the heroes' (scripted_heroes_v2.hpp) on the heroes' view made from their lens,
// each move applied and the heroes' lens folded over its events as the AEC step folds it
// (aec_bind.cpp), with no Python between two decisions. agents/scripted_play.py drives it and keeps
// what Python holds of the game and its knowledge up to date; the decisions either port leaves to
// Python, and the heroes' view tables of a public configuration met for the first time, stop it and
// are handed back (`Stop`), so that the game, its log and both agents' memories are those the same
// choices made one at a time through Python would leave (tests/test_scripted_play.py).
#pragma once

#include <cmath>
#include <functional>
#include <map>
#include <string>

#include "game.hpp"
#include "heroes_view.hpp"
#include "lens.hpp"
#include "scripted_dm_v2.hpp"
#include "scripted_heroes_v2.hpp"

namespace dungeon_agents {

// Why a call stopped.
enum class Stop : int {
    OVER = 0,        // the game is over
    TURN = 1,        // the turn `stop_turn` has begun
    MOVES = 2,       // `max_moves` moves were played
    NEED_MAPS = 3,   // a hero decides at a public configuration `maps_for` does not know (`key`)
    HEROES_LEFT = 4, // the heroes' compiled choice names this decision NOT_PORTED
    DM_LEFT = 5,     // the DM's compiled choice names this decision NOT_PORTED
    POINT = 6,       // a Movement of the side `point_side` without a plan that holds: a search may weigh it
};

// The sides a search asks to stop at (`point_side`): none, the heroes' Movements, the monsters'.
constexpr int NO_POINTS = -1, HERO_POINTS = 0, DM_POINTS = 1;

struct Played {
    Stop stop;
    int heroes_moves = 0, dm_moves = 0;
    std::string key;  // NEED_MAPS: the public configuration's key (public_key)
};

// The state fields the heroes' view tables of a position are found by (sideview._hero_tables: the
// areas revealed, the secret doors, the traps detected, the guards placed, the room events read; the
// same fields give the same tables), as one string.
std::string public_key(const dungeon_core::State& s);

struct Sides {
    const HeroParams& heroes;
    HeroMemory& hero_memory;
    HeroCache& hero_cache;
    const DMParams& dm;
    DMMemory& dm_memory;
};

// Play `g` on with both scripted agents until it is over, turn `stop_turn` begins (-1: none),
// `max_moves` moves are played (-1: no limit), or a decision must be handed back (`Stop`). Each
// move's events are folded into `lens`, the heroes' shown ones kept in `shown`. `maps_for(key)`: the
// heroes' view tables' maps of a public configuration, or nullptr if not known yet.
Played play_scripted(dungeon_core::Game& g, dungeon_core::HeroLens& lens, dungeon_core::ShownEvents& shown,
                     const Sides& sides,
                     const std::function<const dungeon_core::HeroTablesMaps*(const std::string&)>& maps_for,
                     int stop_turn, int max_moves, int point_side = NO_POINTS, double spread = NAN);

// A search's plan for a hero's Movement (turn_search.DirectedHeroes.plans): the turn it was made in, the
// square the Movement ends on (FREE, -1: where v2 likes) and what it was made knowing (knowledge_mark:
// the areas revealed, the monsters in sight).
struct HeroPlan {
    int turn, square;
    int64_t revealed, in_sight;
};

// turn_search.knowledge_mark: (the areas revealed, the active monsters on revealed areas).
std::pair<int64_t, int64_t> knowledge_mark(dungeon_core::Game& g);

struct WorldSides {
    const HeroParams& heroes;
    HeroMemory& hero_memory;
    HeroCache& hero_cache;
    std::map<int, HeroPlan>& plans;
    const DMParams& dm;
    DMMemory& dm_memory;
};

// Whether `g`'s decision is a Movement of the side `point_side` that no plan holds for (turn_search.macro_point's
// first test: a hero's Movement whose plan is missing or stale by `hero_plans` (null: none), a monster's
// whose plan in `dm` is missing or of another turn or monster): POINT stops there, the plans left as they
// are (the search's walker drops a stale one when it asks).
bool at_point(dungeon_core::Game& g, int point_side, const std::map<int, HeroPlan>* hero_plans, const DMMemory& dm);

// A search's rollout on a heroes' world (a determinisation of the heroes' view: turn_search's
// iterations): both walkers v2 (turn_search.DirectedHeroes on the world as it is, with the search's
// plans, a stale plan dropped when the end square is asked; DirectedDM with the plans in its memory)
// play it on until it is over or turn `stop_turn` begins (-1: none), or a decision must be handed
// back (HEROES_LEFT, DM_LEFT: the memories and plans as they were before that decision).
// `spread` (not NaN): a search's spread for the side `point_side` (turn_search.macro_point's): a Movement
// without a plan is weighed here, and POINT returned only where the search would weigh options there
// (the walkers' memories and plans as they were before it); elsewhere the walker's move is played as the
// search's loop plays it (its choice made listening, then again).
Played play_world(dungeon_core::Game& g, const WorldSides& sides, int stop_turn, int point_side = NO_POINTS,
                  double spread = NAN);

}  // namespace dungeon_agents
