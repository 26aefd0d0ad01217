// The core's port of dungeon_env/engine/decisions.py (the Python module is the reference it is checked
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

namespace dungeon_core::decisions {

// python constant: _HANDOFFS = Part(HANDOFF_ACTIONS, lambda g, u, a, b: turn.handoffs(g, u), lambda g, u, a, b, action: turn.handoff(g, action - HANDOFF_0))
// python constant: HERO_MOVE = Route((Part((*MOVE_ACTIONS, *JUMP_ACTIONS, *DRAG_ACTIONS, EXTRA_MOVE, END), lambda g, u, a, b: movement.legal_hero_move(g, u), lambda g, u
// python constant: HERO_EVADE = Route((Part((*MOVE_ACTIONS, END), lambda g, u, a, b: movement.legal_evade(g, u), lambda g, u, a, b, action: movement.do_evade(g, u, actio
// python constant: EXPLORE_ACT = Route((Part((END,), lambda g, u, a, b: [END], lambda g, u, a, b, action: explore.end_acts(g, u)), _items(Moment.EXPLORE), _spells(Moment
// python constant: TRADE_ACT = Route((Part((END, LOOT), trade.legal_trade_act, trade.do_trade_act), Part(ITEM_ACTIONS, trade.giving_items, lambda g, u, a, b, action: ite
// decisions.target_candidates(g: Context, unit: int, a: int, b: int) -> list
// The candidates of a CHOOSE_TARGET decision ``(unit, a, b)``: figures, or ``(corpse, item)``
// pairs for LOOT, in TARGET_k order. Core: each candidate is a pair, (figure, -1) for a figure.
std::vector<std::pair<int, int>> target_candidates(Game& g, int unit, int a, int b);

// decisions.HANDLERS[kind][0]: the legal actions (sorted) of the decision (kind, unit, a, b)
std::vector<int> legal(Game& g, int kind, int unit, int a, int b);
// decisions.HANDLERS[kind][1]: apply one of them (the decision is already popped)
void apply(Game& g, int kind, int unit, int a, int b, int action);

}  // namespace dungeon_core::decisions
