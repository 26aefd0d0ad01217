"""Which function lists the legal actions of each kind of decision, and which applies one.

A pending decision is ``[kind, unit, a, b]``: its kind, the figure it is about, and two ints of
context whose meaning belongs to the kind (an item, a spell, a candidate list's purpose...). Both
functions get ``(g, unit, a, b)``; the apply function also gets the action.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from dungeon_env.engine import abilities, combat, explore, items, movement, spells, trade, traps, turn
from dungeon_env.engine.actions import HANDOFF_0, TARGET_ABILITY, TARGET_GIVE, TARGET_LOOT, Decision, Phase

if TYPE_CHECKING:
    from dungeon_env.engine.context import Context

Legal = Callable[["Context", int, int, int], list[int]]
Apply = Callable[["Context", int, int, int, int], None]


def _hero_move(g: Context, unit: int, a: int, b: int, action: int) -> None:
    if HANDOFF_0 <= action < HANDOFF_0 + 5:
        turn.handoff(g, action - HANDOFF_0)
    else:
        movement.do_hero_move(g, unit, action)


def _hero_evade(g: Context, unit: int, a: int, b: int, action: int) -> None:
    if HANDOFF_0 <= action < HANDOFF_0 + 5:
        turn.handoff(g, action - HANDOFF_0)
    else:
        movement.do_evade(g, unit, action)


def _legal_act(g: Context, unit: int, a: int, b: int) -> list[int]:
    if g.state.phase == Phase.TRADE:
        return trade.legal_trade_act(g, unit, a, b)
    return explore.legal_hero_act(g, unit, a, b)


def _act(g: Context, unit: int, a: int, b: int, action: int) -> None:
    if g.state.phase == Phase.TRADE:
        trade.do_trade_act(g, unit, a, b, action)
    else:
        explore.do_hero_act(g, unit, a, b, action)


def _legal_target(g: Context, unit: int, a: int, b: int) -> list[int]:
    if a == TARGET_ABILITY:
        return abilities.legal_target(g, unit, a, b)
    if a in (TARGET_GIVE, TARGET_LOOT):
        return trade.legal_trade_target(g, unit, a, b)
    return spells.legal_target(g, unit, a, b)


def _target(g: Context, unit: int, a: int, b: int, action: int) -> None:
    if a == TARGET_ABILITY:
        abilities.do_target(g, unit, a, b, action)
    elif a in (TARGET_GIVE, TARGET_LOOT):
        trade.do_trade_target(g, unit, a, b, action)
    else:
        spells.do_target(g, unit, a, b, action)


HANDLERS: dict[int, tuple[Legal, Apply]] = {
    Decision.HERO_MOVE: (lambda g, u, a, b: movement.legal_hero_move(g, u), _hero_move),
    Decision.HERO_EVADE: (lambda g, u, a, b: movement.legal_evade(g, u), _hero_evade),
    Decision.MONSTER_MOVE: (
        lambda g, u, a, b: movement.legal_monster_move(g, u),
        lambda g, u, a, b, action: movement.do_monster_move(g, u, action),
    ),
    Decision.FIGHT_STAMINA: (
        lambda g, u, a, b: combat.legal_fight_stamina(g, u),
        lambda g, u, a, b, action: combat.do_fight_stamina(g, u, action),
    ),
    Decision.SPELL_SELECT: (spells.legal_spell_select, spells.do_spell_select),
    Decision.CAST_WHILE_FIGHTING: (spells.legal_cast_while_fighting, spells.do_cast_while_fighting),
    Decision.CAST_MODE: (spells.legal_cast_mode, spells.do_cast_mode),
    Decision.CHOOSE_TARGET: (_legal_target, _target),  # spells/items: spells; give/loot: trade; abilities
    Decision.MENTAL_BID: (spells.legal_mental_bid, spells.do_mental_bid),
    Decision.EXPLORE_CHOICE: (explore.legal_explore_choice, explore.do_explore_choice),
    Decision.EVENT_CHOICE: (explore.legal_event_choice, explore.do_event_choice),
    Decision.CLAIM_ITEM: (explore.legal_claim, explore.do_claim),
    Decision.HERO_ACT: (_legal_act, _act),  # Explore actions: explore; Trade phase: trade
    Decision.ITEM_VERB: (items.legal_item_verb, items.do_item_verb),
    Decision.SPELL_VERB: (spells.legal_spell_verb, spells.do_spell_verb),
    Decision.DISARM: (traps.legal_disarm, traps.do_disarm),
}
