// The scripted Dungeon Master v2 (agents/scripted_dm_v2.py's ScriptedDMV2, with the parts of
// agents/scripted_dm.py and agents/_common.py it reads) choosing in compiled code, on the core's
// game directly. The Python class stays the reference: its docstring says what the DM does and why;
// this port follows it line for line (the same tie-breaking, the same double arithmetic in the same
// order), and tests/test_scripted_dm_native.py checks the two choose alike at every decision.
//
// The agent is not part of the engine: nothing in src/core includes this folder. It is compiled into
// the `_core` extension (bound as `_core.agents`), since it reads the engine's `Game` and calls its
// rule functions (board, units, combat): a second extension would need the engine's sources or a
// shared library of them, and the Engine type shared across modules.
#pragma once

#include <map>
#include <tuple>
#include <vector>

#include "game.hpp"

namespace dungeon_agents {

// A decision the port does not play (ScriptedDM's seeded random choice among the legal actions of a
// decision that is neither a Movement, a Fight's Stamina nor a Mental Combat bid): the Python class
// plays exactly those.
constexpr int NOT_PORTED = -1;

// agents/scripted_params.py's DMParams, the knobs v2 reads, in the order of DM_PARAMS below.
struct DMParams {
    double health_weight, company_weight, deaths_door_bonus;
    int extra_move_stamina;
    double spend_gain;
    int company_radius, spend_stamina;
    double hero_spend_share;
    int keep_stamina;
    double later_penalty, buy_weight, wounded_weight, caster_bonus, carrier_bonus, gang_bonus;
    int single_fight, fight_spend, hold_exit;
    double commit_bonus;
};
constexpr int N_DM_PARAMS = 19;
constexpr const char* DM_PARAMS[N_DM_PARAMS] = {
    "health_weight", "company_weight", "deaths_door_bonus", "extra_move_stamina", "spend_gain",
    "company_radius", "spend_stamina", "hero_spend_share", "keep_stamina", "later_penalty",
    "buy_weight", "wounded_weight", "caster_bonus", "carrier_bonus", "gang_bonus",
    "single_fight", "fight_spend", "hold_exit", "commit_bonus"};

// The memory of the Movements (ScriptedDMV2._movement, _turn): for (turn, monster, square it began
// on), the squares it stood on in order and the hero it committed to (-1 before it picks).
struct Movement {
    std::vector<int> trail;
    int victim = -1;
};
// What a search directing the DM (agents/turn_search.py's DirectedDM) adds: the victims it fixed,
// one Movement at a time, and, while it listens, the heroes v2 weighed for each monster.
struct Plan {
    int turn, uid, hero;  // the plan holds while the turn and the slot's monster are the same
};
constexpr int FREE = -1;  // turn_search.FREE: a plan that leaves the Movement to v2
struct Weighed {            // one entry of DirectedDM.listing: v2's options for a monster
    std::vector<std::tuple<int, bool, double>> options;  // (hero, out of reach this turn, score)
    int choice = -1;                                      // v2's victim, or -1 (None)
};
struct DMMemory {
    std::map<std::tuple<int, int, int>, Movement> movements;
    int turn = -1;
    std::map<int, Plan> plans;        // monster slot -> its plan (DirectedDM.plans)
    bool listening = false;           // DirectedDM.listing is not None
    std::map<int, Weighed> listing;   // monster slot -> what v2 weighed (while listening)
};

// ScriptedDMV2.choose on the game's decision (the DM's), or NOT_PORTED.
int choose_v2(dungeon_core::Game& g, const DMParams& p, DMMemory& memory);

}  // namespace dungeon_agents
