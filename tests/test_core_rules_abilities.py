"""The core's port of engine/abilities.py against the Python module (core_parity.shadow), at the
moments the engine calls it in random games over every adventure: the ABILITY_k actions offered in
the heroes' Movement, Evasion and Explore decisions, each ability used, each ally target chosen, and
the look-ups (card abilities, ready, ready_pairs, targets) on the positions reached."""

from __future__ import annotations

import random

from dungeon_env import _core
from dungeon_env.engine import abilities
from dungeon_env.engine.actions import (
    Decision,
    Moment,
    Phase,
)
from tests.core_shadow import Shadows, play

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
    """The offers (turn.py asks in the Evasion whether a hero has anything to do; the heroes'
    decisions list them), each ability used and each ally target chosen, where the engine calls
    them; the look-ups on some of the positions reached."""
    shadows = Shadows(budget=150)
    offer = {}
    offered = lambda g, h, when: bool(offer["ability_actions"](g, h, when))  # noqa: E731
    offer["ability_actions"] = shadows.hook(
        monkeypatch, abilities, "ability_actions", core.ability_actions, case=offered
    )
    for name in ("use", "land_on"):
        shadows.hook(monkeypatch, abilities, name, getattr(core, name))

    def done():
        return (
            shadows.reached(use=10, land_on=20, look_ups=100)
            and shadows.results["ability_actions", True] >= 20
        )

    pick = random.Random(1)
    for game, action in play(range(40), max_turns=25, until=done):
        if action is None or pick.random() >= 0.004 or shadows.reached(look_ups=100):
            continue
        for h in range(game.state.n_heroes):
            on_board = bool(game.state.unit_pos[h] >= 0)
            for k, ability in enumerate(abilities.card_abilities(game, h)):
                for target in abilities.targets(game, h) if ability.target == "ally" and on_board else ():
                    shadows.compare("land_on", game, abilities.land_on, core.land_on, h, k, target)
            shadows.compare("look_ups", game, _look_ups, _core_look_ups, h, on_board)
    shadows.check(use=10, land_on=20, look_ups=100)
    assert done(), (shadows.calls, shadows.results)
