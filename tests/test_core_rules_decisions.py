"""The core's port of engine/decisions.py against the Python module (docs/CORE.md).

Every legal list the game loop asks (``HANDLERS[kind][0]``), every action it applies
(``HANDLERS[kind][1]``) and every target choice's candidates are computed by both engines at the
moment random games over every adventure ask them (``core_parity.shadow``): the same list, events,
dice and state.
"""

from __future__ import annotations

from dungeon_env import _core
from dungeon_env.engine import decisions
from dungeon_env.engine.actions import Decision
from tests.core_shadow import Shadows, play_out

core = _core.rules.decisions


def test_every_decision_is_listed_and_applied_as_in_python(monkeypatch):
    shadows = Shadows(budget=40)
    candidates = shadows.wrap(
        "candidates", decisions.target_candidates, core.target_candidates, case=lambda g, u, a, b: a
    )

    def wrap(kind: int, legal, apply):
        name = Decision(kind).name
        listed = shadows.wrap(
            "legal", legal, lambda e, *args: core.legal(e, kind, *args), case=lambda g, *args: name
        )
        applied = shadows.wrap(
            "apply", apply, lambda e, *args: core.apply(e, kind, *args), case=lambda g, *args: name
        )
        if kind != Decision.CHOOSE_TARGET:
            return listed, applied

        def listed_with_candidates(g, unit, a, b):
            candidates(g, unit, a, b)
            return listed(g, unit, a, b)

        return listed_with_candidates, applied

    for kind, (legal, apply) in list(decisions.HANDLERS.items()):
        monkeypatch.setitem(decisions.HANDLERS, kind, wrap(kind, legal, apply))
    common = {"HERO_MOVE", "HERO_EVADE", "MONSTER_MOVE", "FIGHT_STAMINA", "EXPLORE_CHOICE", "HERO_ACT"}
    rare = {"SPELL_SELECT", "CAST_MODE", "CHOOSE_TARGET", "ITEM_VERB", "SPELL_VERB", "CLAIM_ITEM"}

    def done():
        applied = set(shadows.cases_of("apply"))
        return (
            common | rare <= applied
            and shadows.cases["apply", "HERO_MOVE"] == 40
            and shadows.reached(candidates=1)
        )

    play_out(range(100, 120), max_turns=15, bold=True, until=done)
    shadows.check(candidates=1)
    assert done(), shadows.cases
