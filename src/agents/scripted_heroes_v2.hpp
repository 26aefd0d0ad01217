// The scripted heroes v2 (agents/scripted_heroes_v2.py's ScriptedHeroesV2, with the parts of
// agents/scripted_heroes.py's ScriptedHeroes and agents/_common.py it reads) choosing in compiled
// code. The Python classes stay the reference: their docstrings say what the heroes do and why; this
// port follows them line for line (the same tie-breaking, the same double arithmetic in the same
// order), and tests/test_scripted_heroes_native.py checks the two choose alike at every decision.
//
// Hidden information: the script reads the heroes' side view made by the core (heroes_view.hpp's
// heroes_view, the C++ twin of sideview._redact) on a content for reading only (reading_content: the
// view's board, known doors, traps, guards and room events, without a line of sight), with what the
// heroes' lens knows of the monsters (the slots in sight, the heroes' numbers, the kills they saw).
// The decisions whose Python rule reads the real game (WITHOUT_VIEW: the deciding hero's own condition
// and the legal actions) read it here too. Nothing else of the real game is read.
//
// Every decision is ported. NOT_PORTED is returned only where the Python rule fails (its action is not
// a legal one, or it would take the most hurt of no candidate): the Python methods then raise the
// error that names the gap in the script.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "game.hpp"
#include "heroes_view.hpp"
#include "lens.hpp"

namespace dungeon_agents {

// agents/scripted_params.py's HeroParams, in the order of HERO_PARAMS below.
struct HeroParams {
    int trap_cost;
    double hurt;
    int light_ability;
    double spend_cost, dying_stake, kill_stake, patrol_weight, apart_weight;
    int apart_radius;
    double room_fight_weight;
    int wait_turns;
    double relieve_hurt, light_margin;
};
constexpr int N_HERO_PARAMS = 13;
constexpr const char* HERO_PARAMS[N_HERO_PARAMS] = {
    "trap_cost",    "hurt",          "light_ability",     "spend_cost", "dying_stake",  "kill_stake",  "patrol_weight",
    "apart_weight", "apart_radius",  "room_fight_weight", "wait_turns", "relieve_hurt", "light_margin"};

// The agent's memory (ScriptedHeroes.intent, ScriptedHeroesV2.relieved and waited), by hero.
struct HeroMemory {
    std::map<int, std::tuple<int, int, int>> intent;  // (verb, item, turn)
    std::map<int, std::pair<int, int>> relieved;      // (turn, square)
    std::map<int, std::pair<int, int>> waited;        // (last turn it waited, turns in a row)
    bool operator==(const HeroMemory& o) const {
        return intent == o.intent && relieved == o.relieved && waited == o.waited;
    }
};

// The path costs the script computed (ScriptedHeroes.distances' memo), per view content: they depend
// only on the targets and the terrain. Kept by the agent between decisions.
struct HeroCache {
    struct PerContent {
        std::shared_ptr<const dungeon_core::Content> content;  // kept alive: the key is its address
        std::unordered_map<std::string, std::shared_ptr<const std::vector<int64_t>>> fields;
        std::unordered_map<std::string, std::shared_ptr<const std::vector<std::vector<int>>>> steps;
    };
    std::unordered_map<const dungeon_core::Content*, PerContent> contents;
};

// What v2 weighed at a hero's Movement while a search listens (turn_search.DirectedHeroes.weighed): per
// hero, the first end_square of its decision asked with nothing bought: each square it could end on, in
// walking order, with its key (score, -steps) and the squares it brings the hero nearer its target
// (here - dist[q]), and v2's choice (-1: it walks as v1).
struct HeroListing {
    struct Option {
        int square;
        double score;
        int neg_steps;
        int64_t progress;
    };
    struct Entry {
        std::vector<Option> options;
        int choice;
    };
    std::map<int, Entry> heroes;
};

// ScriptedHeroesV2.choose on the real game's decision (a hero's), reading the heroes' view made from
// `maps` and `lens`; NOT_PORTED for a decision the Python methods play.
int choose_heroes_v2(dungeon_core::Game& real, const dungeon_core::HeroTablesMaps& maps,
                     const dungeon_core::HeroLens& lens, const HeroParams& p, HeroMemory& memory, HeroCache& cache);

// The same choice on a game that is the heroes' world already (a heroes' side view played on, or a
// determinisation of one: turn_search's rollouts), read as it is, with its legal actions as the Python
// game gives them (a view's are the real game's at the decision it was made for), a search's plan for the
// deciding hero (`fixed_end`, its Movement's end square; -1: none): the action, and whether the script
// asked for the end square (turn_search.DirectedHeroes then drops a stale plan, as its end_square does).
// `listing` (may be null): filled with what v2 weighed (HeroListing) while a search listens.
std::pair<int, bool> choose_heroes_v2_world(dungeon_core::Game& world, const std::vector<int>& legal,
                                            const HeroParams& p, HeroMemory& memory, HeroCache& cache, int fixed_end,
                                            HeroListing* listing = nullptr);

}  // namespace dungeon_agents
