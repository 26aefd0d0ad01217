"""The core's port of engine/combat.py against the Python module, at the moments random games over
every adventure call each function (tests/shadow_fight.py): same return values, events, dice and
state."""

from __future__ import annotations

from collections import Counter

from dungeon_env import _core, core_parity
from dungeon_env.content import adventure_names
from dungeon_env.engine import Decision, combat, turn
from dungeon_env.engine.state import FIGHT_WINNER
from tests.shadow_fight import Shadow, play, run_rule_tests

core = _core.rules.combat


def _row_index(g, row) -> int:
    return next(i for i, r in enumerate(g.state.fights) if r is row)


def _watch(monkeypatch, every: int = 1) -> Shadow:
    """Every combat function the engine calls is compared with its port from now on (the frequent
    ones on every ``every``-th call); ``shadow.kinds`` counts the Fights' outcomes at the damage
    step ("winner_0" a tie, "winner_1" the hero, "winner_2" the monster) and the last declarations."""
    shadow = Shadow()

    def count_winners(g):
        shadow.kinds.update(f"winner_{row[FIGHT_WINNER]}" for row in g.state.fights)
        return "damage"

    def watch(module, name, core_call, **kw):
        monkeypatch.setattr(module, name, shadow.wrap(name, getattr(module, name), core_call, **kw))

    originals = {
        name: getattr(combat, name) for name in ("hero_modifiers", "monster_modifiers", "resolve_fight")
    }
    watch(combat, "gather_fights", lambda e, g: core.gather_fights(e))
    watch(turn, "begin_fighting", lambda e, g: core.begin_fighting(e))
    watch(combat, "legal_fight_stamina", lambda e, g, u: core.legal_fight_stamina(e, u), every=every)
    # the hero's declaration resolves the Fight, and the last one deals the damage
    watch(
        combat,
        "do_fight_stamina",
        lambda e, g, u, action: core.do_fight_stamina(e, u, action),
        every=every,
        kind=lambda g, u, action: (
            "last" if g.state.fight_index == len(g.state.fights) - 1 and u < g.state.n_heroes else None
        ),
        rare=("last",),
    )
    # the modifiers in their order: (name, amount) pairs
    watch(
        combat,
        "hero_modifiers",
        lambda e, g, *args: core.hero_modifiers(e, *args),
        python_call=lambda twin, g, *args: list(originals["hero_modifiers"](twin, *args).items()),
        every=every,
    )
    watch(
        combat,
        "monster_modifiers",
        lambda e, g, *args: core.monster_modifiers(e, *args),
        python_call=lambda twin, g, *args: list(originals["monster_modifiers"](twin, *args).items()),
        every=every,
    )
    watch(
        combat,
        "resolve_fight",
        lambda e, g, row: core.resolve_fight(e, _row_index(g, row)),
        python_call=lambda twin, g, row: originals["resolve_fight"](
            twin, twin.state.fights[_row_index(g, row)]
        ),
        every=every,
    )
    watch(combat, "apply_fight_damage", lambda e, g: core.apply_fight_damage(e), kind=count_winners)
    return shadow


def test_combat_matches_python(monkeypatch):
    shadow = _watch(monkeypatch, every=2)

    def enemy_counts(g):
        if g.decision[0] == Decision.FIGHT_STAMINA:
            shadow.compare(
                "enemy_counts",
                g,
                lambda twin: combat.enemy_counts(twin.state.fights),
                lambda e: core.enemy_counts(e),
            )

    outcomes: Counter[str] = Counter()

    def count_outcomes(g):
        outcomes.update(
            e["type"] for e in g.events_since(0) if e["type"] in ("slain", "deaths_door", "death")
        )

    play(adventure_names(), seeds=range(3), on_decision=enemy_counts, on_end=count_outcomes)
    shadow.check(
        gather_fights=100,
        begin_fighting=100,
        legal_fight_stamina=100,
        do_fight_stamina=200,
        hero_modifiers=100,
        monster_modifiers=100,
        resolve_fight=100,
        apply_fight_damage=50,
        enemy_counts=100,
    )
    # every outcome of a Fight reached the damage step, which slew monsters and downed heroes
    assert min(shadow.kinds[f"winner_{w}"] for w in (0, 1, 2)) >= 10, shadow.kinds
    assert shadow.kinds["last"] >= 50 and outcomes["slain"] >= 10 and outcomes["deaths_door"] >= 3, outcomes


def test_combat_rule_positions_match_python(monkeypatch):
    """The hand-built positions of the combat and damage rule tests (forced dice, Strong ties,
    surprise, Light 0, items, Death's Door), each call compared."""
    shadow = _watch(monkeypatch)
    assert run_rule_tests("test_rules_combat", "test_rules_damage") >= 40
    shadow.check(begin_fighting=20, do_fight_stamina=20, resolve_fight=20, apply_fight_damage=20)


def test_core_parity_shadow_reports_a_difference():
    """The harness itself: a core call that does something else is reported."""
    from dungeon_env.engine import Game

    g = Game.new(adventure=adventure_names()[0], heroes=3, seed=1, max_turns=10)
    assert core_parity.shadow(g, lambda t: combat.gather_fights(t), lambda e: [[0, 0, 0, 0, -1]])
