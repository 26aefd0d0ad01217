"""The core's port of engine/abilities.py against the Python module (core_parity.shadow), at the
moments the engine calls it in random games over every adventure: the ABILITY_k actions offered in
the heroes' Movement, Evasion and Explore decisions, each ability used, each ally target chosen, and
the look-ups (card abilities, ready, ready_pairs, targets) on the positions reached."""

from __future__ import annotations

import random

from shadow_play import Shadows, games, popped

from dungeon_env import _core
from dungeon_env.engine import abilities
from dungeon_env.engine.actions import (
    ABILITY_0,
    MAX_ABILITIES,
    TARGET_0,
    TARGET_ABILITY,
    Decision,
    Moment,
    Phase,
)
from dungeon_env.engine.state import STACK_A, STACK_B, STACK_KIND, STACK_UNIT

core = _core.rules.abilities


def _moment(game, kind):
    if kind == Decision.HERO_MOVE:
        return Moment.MOVEMENT
    if kind == Decision.HERO_EVADE:
        return Moment.EVASION
    if kind == Decision.HERO_ACT and game.state.phase != Phase.TRADE:
        return Moment.EXPLORE
    return None


def _look_ups(g, h, on_board):
    return (
        [x.id for x in abilities.card_abilities(g, h)],
        [abilities.ready(g, h, k) for k in range(3)],
        abilities.targets(g, h) if on_board else [],
        abilities.ready_pairs(g),
    )


def _core_look_ups(e, h, on_board):
    return (
        core.card_abilities(e, h),
        [core.ready(e, h, k) for k in range(3)],
        core.targets(e, h) if on_board else [],
        core.ready_pairs(e),
    )


def test_abilities_match_python_where_the_engine_uses_them(monkeypatch):
    shadows = Shadows(budget=300)
    # turn.py asks in the Evasion whether a hero has anything to do; decisions' tables hold their own
    # reference to the function, so the heroes' decisions are compared below, step by step
    offer = abilities.ability_actions
    monkeypatch.setattr(
        abilities, "ability_actions", shadows.wrap("ability_actions", offer, core.ability_actions)
    )
    pick = random.Random(1)
    offered = 0
    for game, action in games(25, max_turns=25):
        top = game.state.stack[-1]
        kind, unit, a, b = top[STACK_KIND], top[STACK_UNIT], top[STACK_A], top[STACK_B]
        moment = _moment(game, kind)
        if moment is not None and pick.random() < 0.015:
            shadows.compare("ability_actions", game, offer, core.ability_actions, unit, moment)
            offered += bool(offer(game, unit, moment))
        if moment is not None and ABILITY_0 <= action < ABILITY_0 + MAX_ABILITIES:
            twin, _ = popped(game)
            shadows.compare("use", twin, abilities.use, core.use, unit, action - ABILITY_0, moment)
        if kind == Decision.CHOOSE_TARGET and a == TARGET_ABILITY and action >= TARGET_0:
            twin, _ = popped(game)
            target = abilities.targets(game, unit)[action - TARGET_0]
            shadows.compare("land_on", twin, abilities.land_on, core.land_on, unit, b, target)
        if pick.random() < 0.004:
            for h in range(game.state.n_heroes):
                on_board = bool(game.state.unit_pos[h] >= 0)
                for k, ability in enumerate(abilities.card_abilities(game, h)):
                    for target in abilities.targets(game, h) if ability.target == "ally" and on_board else ():
                        shadows.compare("land_on", game, abilities.land_on, core.land_on, h, k, target)
                shadows.compare("look-ups", game, _look_ups, _core_look_ups, h, on_board)
    assert not shadows.failures, shadows.report()
    assert offered >= 20
    assert shadows.calls["use"] >= 10
    assert shadows.calls["land_on"] >= 20
    assert shadows.calls["look-ups"] >= 100
