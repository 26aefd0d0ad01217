"""The core's port of engine/movement.py against the Python module, at the moments random games over
every adventure call each function (tests/shadow_fight.py): same return values, events, dice and
state. The legal lists are the compiled ones of src/core/movement.cpp (which the Python engine calls)
and their Python references."""

from __future__ import annotations

from collections import Counter

from dungeon_env import _core
from dungeon_env.content import adventure_names
from dungeon_env.engine import Decision, Phase, movement
from dungeon_env.engine.actions import DEFER, DRAG_N, END, EXTRA_MOVE, JUMP_N, MOVE_N
from dungeon_env.engine.state import NO_UNIT
from dungeon_env.engine.units import kill_hero
from tests.builders import apply_past_explore, arena_game, enter_phase, place
from tests.shadow_fight import Shadow, play, run_rule_tests

core = _core.rules.movement


def _hero_action(g, h, action) -> str:
    if action < JUMP_N:
        door = g.tables.edge_door[g.state.unit_pos[h], action]
        return "door" if door >= 0 and not g.state.door_open[door] else "step"
    if action < DRAG_N:
        return "jump"
    if action < EXTRA_MOVE:
        return "drag"
    return {EXTRA_MOVE: "extra_move", END: "end"}[action]


RARE = (
    "hero_door",
    "hero_jump",
    "hero_drag",
    "hero_extra_move",
    "monster_extra",
    "defer",
    "evade_step",
    "drag_ends",
)


def _watch(monkeypatch, every: int = 1) -> Shadow:
    """Every movement function the engine calls is compared with its port from now on: the rarer
    kinds of move (RARE) each time, the others on every ``every``-th call (the legal lists on every
    ``2 * every``-th); ``shadow.kinds`` counts the kinds compared."""
    shadow = Shadow()

    def watch(name, core_call, **kw):
        monkeypatch.setattr(
            movement, name, shadow.wrap(name, getattr(movement, name), core_call, rare=RARE, **kw)
        )

    watch("legal_hero_move", lambda e, g, h: core.legal_hero_move(e, h), every=2 * every)
    watch("legal_monster_move", lambda e, g, m: core.legal_monster_move(e, m), every=2 * every)
    watch("legal_evade", lambda e, g, h: core.legal_evade(e, h), every=every)
    watch("can_pay_evade", lambda e, g, h: core.can_pay_evade(e, h), every=2 * every)
    watch(
        "do_hero_move",
        lambda e, g, h, action: core.do_hero_move(e, h, action),
        every=every,
        kind=lambda g, h, action: "hero_" + _hero_action(g, h, action),
    )
    watch(
        "do_monster_move",
        lambda e, g, m, action: core.do_monster_move(e, m, action),
        every=every,
        kind=lambda g, m, action: {EXTRA_MOVE: "monster_extra", DEFER: "defer", END: "monster_end"}.get(
            action, "monster_step"
        ),
    )
    watch(
        "do_evade",
        lambda e, g, h, action: core.do_evade(e, h, action),
        every=every,
        kind=lambda g, h, action: "evade_end" if action == END else "evade_step",
    )
    watch(
        "step",
        lambda e, g, u, to: core.step(e, u, to),
        every=every,
        kind=lambda g, u, to: "step_monster" if u >= g.state.n_heroes else "step_hero",
    )
    watch(
        "end_movement",
        lambda e, g, h: core.end_movement(e, h),
        every=every,
        kind=lambda g, h: "drag_ends" if g.state.dragging[h] != NO_UNIT else "end",
    )
    watch("leave_dungeon", lambda e, g, h: core.leave_dungeon(e, h))
    return shadow


def test_movement_matches_python(monkeypatch):
    shadow = _watch(monkeypatch, every=6)
    asked = Counter()

    def references(g):
        kind, unit = g.decision
        asked[kind] += 1
        if asked[kind] % 12:
            return
        if kind == Decision.HERO_MOVE:
            shadow.compare(
                "can_buy_move",
                g,
                lambda t: movement.can_buy_move(t, unit),
                lambda e: core.can_buy_move(e, unit),
            )
            shadow.compare(
                "legal_hero_move_reference",
                g,
                lambda t: movement.legal_hero_move_reference(t, unit),
                lambda e: core.legal_hero_move_reference(e, unit),
            )
        elif kind == Decision.MONSTER_MOVE:
            shadow.compare(
                "legal_monster_move_reference",
                g,
                lambda t: movement.legal_monster_move_reference(t, unit),
                lambda e: core.legal_monster_move_reference(e, unit),
            )

    play(adventure_names(), seeds=range(2), on_decision=references)
    shadow.check(
        legal_hero_move=200,
        legal_monster_move=80,
        legal_evade=20,
        can_pay_evade=20,
        do_hero_move=300,
        do_monster_move=200,
        do_evade=20,
        step=200,
        end_movement=80,
        can_buy_move=200,
        legal_hero_move_reference=200,
        legal_monster_move_reference=60,
    )
    # the rarer moves were reached: Open Doors attempts, Jumps, bought squares, Evade steps, deferring
    assert all(shadow.kinds[k] >= 3 for k in RARE if "drag" not in k), shadow.kinds


def test_drags_match_python(monkeypatch):
    """Random play seldom puts a hero's corpse beside a living hero, or a hero on an exit: the
    R-DEATH-04 positions of tests/test_rules_end_death.py on the test arena, a drag along corridor b
    and one out through the exit (23, 27), and a hero leaving alone."""
    shadow = _watch(monkeypatch)
    for hero_0_at, hero_at, moves in (
        ((9, 0), (10, 0), (DRAG_N + 3, *[MOVE_N + 1] * 4, END)),
        ((21, 27), (22, 27), (DRAG_N + 3, MOVE_N + 1)),
        ((9, 0), (22, 27), (MOVE_N + 1,)),  # hero_0 alive at (9, 0)
    ):
        g = arena_game()
        place(g, 0, *hero_0_at)
        if DRAG_N + 3 in moves:
            kill_hero(g, 0)
        place(g, 1, 1, 0)
        place(g, 2, *hero_at)
        enter_phase(g, Phase.HERO_MOVEMENT)
        while g.decision != (Decision.HERO_MOVE, 2):  # the heroes before Hob pass
            apply_past_explore(g, END)
        for action in moves:
            g.apply(action)
    shadow.check(leave_dungeon=2, do_hero_move=9)
    assert shadow.kinds["hero_drag"] == 2 and shadow.kinds["drag_ends"] == 1, shadow.kinds


def test_movement_rule_positions_match_python(monkeypatch):
    """The hand-built positions of the movement, doors and jumps, and end and death rule tests
    (forced Open Doors and Jump rolls, traps, exits, drags), each call compared."""
    shadow = _watch(monkeypatch)
    long = ("test_every_phase_ends_under_a_stalling_policy",)  # whole games: random play's share
    assert (
        run_rule_tests("test_rules_movement", "test_rules_doors_jumps", "test_rules_end_death", skip=long)
        >= 40
    )
    shadow.check(do_hero_move=50, step=50, legal_hero_move=50, leave_dungeon=3)
    assert all(shadow.kinds[k] >= 2 for k in ("hero_door", "hero_jump", "hero_drag", "drag_ends")), (
        shadow.kinds
    )
