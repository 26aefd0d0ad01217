"""The core's port of engine/combat.py against the Python module, at the moments random games over
every adventure call each function (tests/core_shadow.py): same return values, events, dice and
state."""

from __future__ import annotations

from collections import Counter

import pytest

from dungeon_env import _core, core_parity
from dungeon_env.content import adventure_names
from dungeon_env.engine import Decision, combat
from dungeon_env.engine.state import FIGHT_WINNER
from tests.core_shadow import Shadows, play, play_out, reference_game, run_rule_tests, same

core = _core.rules.combat


def _row_index(g, row) -> int:
    return next(i for i, r in enumerate(g.state.fights) if r is row)


def _watch(monkeypatch, every: int = 1, budgets: dict[str, int] | None = None) -> tuple[Shadows, Counter]:
    """Every combat function the engine calls is compared with its port from now on (the frequent
    ones on every ``every``-th call, each kind of call ``budgets[function]`` times at most); the
    Counter counts the Fights' outcomes at the damage step ("winner_0" a tie, "winner_1" the hero,
    "winner_2" the monster)."""
    shadows, winners = Shadows(budgets=budgets), Counter()

    def count_winners(g):
        winners.update(f"winner_{row[FIGHT_WINNER]}" for row in g.state.fights)

    def hook(name, core_fn, **options):
        shadows.hook(monkeypatch, combat, name, core_fn, **options)

    hook("gather_fights", core.gather_fights)
    hook("begin_fighting", core.begin_fighting)
    hook("legal_fight_stamina", core.legal_fight_stamina, every=every)
    # the hero's declaration resolves the Fight, and the last one deals the damage
    hook(
        "do_fight_stamina",
        core.do_fight_stamina,
        every=every,
        case=lambda g, u, action: (
            "last" if g.state.fight_index == len(g.state.fights) - 1 and u < g.state.n_heroes else None
        ),
        rare=("last",),
    )
    # the modifiers in their order: (name, amount) pairs
    for name in ("hero_modifiers", "monster_modifiers"):
        hook(
            name,
            getattr(core, name),
            every=every,
            python_call=lambda twin, *args, name=name: list(getattr(combat, name)(twin, *args).items()),
        )
    hook(
        "resolve_fight",
        core.resolve_fight,
        every=every,
        args=lambda g, row: (_row_index(g, row),),
        python_call=lambda twin, i: combat.resolve_fight(twin, twin.state.fights[i]),
    )
    hook("apply_fight_damage", core.apply_fight_damage, case=count_winners)
    return shadows, winners


# the comparisons random play must make (no more are made: the budgets)
LEAST = {
    "gather_fights": 100,
    "begin_fighting": 100,
    "legal_fight_stamina": 100,
    "do_fight_stamina": 200,
    "hero_modifiers": 100,
    "monster_modifiers": 100,
    "resolve_fight": 100,
    "enemy_counts": 100,
}


def test_combat_matches_python(monkeypatch):
    shadows, winners = _watch(monkeypatch, budgets=LEAST)
    outcomes: Counter[str] = Counter()

    def done():  # every outcome of a Fight reached the damage step, which slew monsters and downed heroes
        last = shadows.cases["do_fight_stamina", "last"]
        enough = min(winners[f"winner_{w}"] for w in (0, 1, 2)) >= 10 and last >= 50
        return (
            enough and outcomes["slain"] >= 10 and outcomes["deaths_door"] >= 3 and shadows.reached(**LEAST)
        )

    for g, action in play(range(30), until=done):
        if action is None:
            outcomes.update(
                e["type"] for e in g.events_since(0) if e["type"] in ("slain", "deaths_door", "death")
            )
        elif g.decision[0] == Decision.FIGHT_STAMINA and not shadows.reached(enemy_counts=100):
            shadows.compare(
                "enemy_counts",
                g,
                lambda twin: combat.enemy_counts(twin.state.fights),
                lambda e: core.enemy_counts(e),
            )
    shadows.check(apply_fight_damage=50, **LEAST)
    assert done(), (winners, shadows.cases["do_fight_stamina", "last"], outcomes)


def test_combat_rule_positions_match_python(monkeypatch):
    """The hand-built positions of the combat and damage rule tests (forced dice, Strong ties,
    surprise, Light 0, items, Death's Door), each call compared."""
    shadows, _ = _watch(monkeypatch)
    assert run_rule_tests("test_rules_combat", "test_rules_damage") >= 40
    shadows.check(begin_fighting=20, do_fight_stamina=20, resolve_fight=20, apply_fight_damage=20)


def test_core_parity_shadow_reports_a_difference():
    """The harness itself: a core call that does something else is reported."""
    g = reference_game(adventure=adventure_names()[0], heroes=3, seed=1, max_turns=10)
    assert core_parity.shadow(g, lambda t: combat.gather_fights(t), lambda e: [[0, 0, 0, 0, -1]])
    with pytest.raises(AssertionError, match="returned"):
        same(g, lambda t: combat.gather_fights(t), lambda e: [[0, 0, 0, 0, -1]])


def test_a_hooked_function_with_a_wrong_port_is_reported_then_unhooked():
    """The harness itself: a hook whose port does something else fails the check, and the function
    is itself again once the hooks come off."""
    code = combat.gather_fights.__code__
    with pytest.MonkeyPatch.context() as mp:
        shadows = Shadows(budget=3)
        shadows.hook(mp, combat, "gather_fights", lambda e: [[0, 0, 0, 0, -1]])
        play_out(range(2), max_turns=5, until=lambda: shadows.reached(gather_fights=3))
        assert shadows.calls["gather_fights"] == 3
        with pytest.raises(AssertionError, match="differences"):
            shadows.check()
    assert combat.gather_fights.__code__ is code
