"""The core's port of engine/decisions.py against the Python module (docs/CORE.md).

Every legal list the game loop asks (``HANDLERS[kind][0]``), every action it applies
(``HANDLERS[kind][1]``) and every target choice's candidates are computed by both engines at the
moment random games over every adventure ask them (``core_parity.shadow``): the same list, events,
dice and state.
"""

from __future__ import annotations

import random
from collections import Counter

from dungeon_env import _core, core_parity
from dungeon_env.content import adventure_names
from dungeon_env.engine import Game, decisions
from dungeon_env.engine.actions import Decision


def _play(n_games: int, max_turns: int = 10, first_seed: int = 100) -> None:
    names = adventure_names()
    for k in range(first_seed, first_seed + n_games):
        game = Game.new(adventure=names[k % len(names)], heroes=3 + k % 3, seed=k, max_turns=max_turns)
        rng = random.Random(k)
        while not game.over:
            game.apply(rng.choice(game.legal_actions()))


def test_every_decision_is_listed_and_applied_as_in_python(monkeypatch):
    listed, applied, candidates = Counter(), Counter(), Counter()
    core = _core.rules.decisions

    def wrap(kind: int, legal, apply):
        name = Decision(kind).name

        def shadow_legal(g, unit, a, b):
            diff = core_parity.shadow(
                g, lambda twin: legal(twin, unit, a, b), lambda e: core.legal(e, kind, unit, a, b)
            )
            assert diff == [], f"{name} legal ({unit}, {a}, {b}): {diff}"
            if kind == Decision.CHOOSE_TARGET:
                diff = core_parity.shadow(
                    g,
                    lambda twin: decisions.target_candidates(twin, unit, a, b),
                    lambda e: core.target_candidates(e, unit, a, b),
                )
                assert diff == [], f"target candidates ({unit}, {a}, {b}): {diff}"
                candidates[a] += 1
            listed[name] += 1
            return legal(g, unit, a, b)

        def shadow_apply(g, unit, a, b, action):
            diff = core_parity.shadow(
                g,
                lambda twin: apply(twin, unit, a, b, action),
                lambda e: core.apply(e, kind, unit, a, b, action),
            )
            assert diff == [], f"{name} apply ({unit}, {a}, {b}) action {action}: {diff}"
            applied[name] += 1
            return apply(g, unit, a, b, action)

        return shadow_legal, shadow_apply

    for kind, (legal, apply) in list(decisions.HANDLERS.items()):
        monkeypatch.setitem(decisions.HANDLERS, kind, wrap(kind, legal, apply))
    _play(10)
    common = {"HERO_MOVE", "HERO_EVADE", "MONSTER_MOVE", "FIGHT_STAMINA", "EXPLORE_CHOICE", "HERO_ACT"}
    assert common <= set(applied), applied
    assert sum(applied.values()) > 300 and len(listed) >= 10, listed
    assert candidates, candidates
