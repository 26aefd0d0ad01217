"""The core's port of engine/decisions.py against the Python module (docs/CORE.md).

Every legal list the game loop asks (``HANDLERS[kind][0]``), every action it applies
(``HANDLERS[kind][1]``) and every target choice's candidates are computed by both engines at the
moment random games over every adventure ask them (``core_parity.shadow``): the same list, events,
dice and state.
"""

from __future__ import annotations

from turn_play import Compared, play

from dungeon_env import _core
from dungeon_env.engine import decisions
from dungeon_env.engine.actions import Decision


def test_every_decision_is_listed_and_applied_as_in_python(monkeypatch):
    compared = Compared(budget=40)
    core = _core.rules.decisions

    def wrap(kind: int, legal, apply):
        name = Decision(kind).name

        def shadow_legal(g, unit, a, b):
            compared.check(
                g, f"legal {name}", lambda t: legal(t, unit, a, b), lambda e: core.legal(e, kind, unit, a, b)
            )
            if kind == Decision.CHOOSE_TARGET:
                compared.check(
                    g,
                    f"candidates {a}",
                    lambda t: decisions.target_candidates(t, unit, a, b),
                    lambda e: core.target_candidates(e, unit, a, b),
                )
            return legal(g, unit, a, b)

        def shadow_apply(g, unit, a, b, action):
            compared.check(
                g,
                f"apply {name}",
                lambda t: apply(t, unit, a, b, action),
                lambda e: core.apply(e, kind, unit, a, b, action),
            )
            return apply(g, unit, a, b, action)

        return shadow_legal, shadow_apply

    for kind, (legal, apply) in list(decisions.HANDLERS.items()):
        monkeypatch.setitem(decisions.HANDLERS, kind, wrap(kind, legal, apply))
    play(10, max_turns=15, first_seed=100)
    applied = {key.split()[1] for key in compared.seen if key.startswith("apply")}
    common = {"HERO_MOVE", "HERO_EVADE", "MONSTER_MOVE", "FIGHT_STAMINA", "EXPLORE_CHOICE", "HERO_ACT"}
    rare = {"SPELL_SELECT", "CAST_MODE", "CHOOSE_TARGET", "ITEM_VERB", "SPELL_VERB", "CLAIM_ITEM"}
    assert common | rare <= applied, compared.seen
    assert compared.seen["apply HERO_MOVE"] == 40, compared.seen
    assert any(key.startswith("candidates") for key in compared.seen), compared.seen
