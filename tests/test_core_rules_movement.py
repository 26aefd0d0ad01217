"""The core's port of engine/movement.py against the Python module, at the moments random games over
every adventure call each function (tests/core_shadow.py): same return values, events, dice and
state. The legal lists are the compiled ones of src/core/movement.cpp (which the Python engine calls)
and their Python references."""

from __future__ import annotations

from dungeon_env import _core
from dungeon_env.engine import Decision, Phase, movement
from dungeon_env.engine.actions import DEFER, DRAG_N, END, EXTRA_MOVE, JUMP_N, MOVE_N
from dungeon_env.engine.state import NO_UNIT
from dungeon_env.engine.units import kill_hero
from tests.builders import apply_past_explore, enter_phase, place
from tests.core_shadow import Shadows, arena, play, run_rule_tests

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


def _watch(monkeypatch, every: int = 1, budgets: dict[str, int] | None = None) -> Shadows:
    """Every movement function the engine calls is compared with its port from now on: the rarer
    kinds of move (RARE) each time, the others on every ``every``-th call (the legal lists on every
    ``2 * every``-th), each kind of call ``budgets[function]`` times at most; ``shadows.by_case()``
    counts the kinds compared."""
    shadows = Shadows(budgets=budgets)

    def watch(name, **options):
        shadows.hook(monkeypatch, movement, name, getattr(core, name), rare=RARE, **options)

    watch("legal_hero_move", every=2 * every)
    watch("legal_monster_move", every=2 * every)
    watch("legal_evade", every=every)
    watch("can_pay_evade", every=2 * every)
    watch("do_hero_move", every=every, case=lambda g, h, action: "hero_" + _hero_action(g, h, action))
    watch(
        "do_monster_move",
        every=every,
        case=lambda g, m, action: {EXTRA_MOVE: "monster_extra", DEFER: "defer", END: "monster_end"}.get(
            action, "monster_step"
        ),
    )
    watch("do_evade", every=every, case=lambda g, h, action: "evade_end" if action == END else "evade_step")
    watch("step", every=every, case=lambda g, u, to: "step_monster" if u >= g.state.n_heroes else "step_hero")
    watch(
        "end_movement",
        every=every,
        case=lambda g, h: "drag_ends" if g.state.dragging[h] != NO_UNIT else "end",
    )
    watch("leave_dungeon")
    return shadows


# the comparisons random play must make (no more are made: the budgets)
LEAST = {
    "legal_hero_move": 200,
    "legal_monster_move": 80,
    "legal_evade": 20,
    "can_pay_evade": 20,
    "do_hero_move": 300,
    "do_monster_move": 200,
    "do_evade": 20,
    "step": 200,
    "end_movement": 80,
    "can_buy_move": 200,
    "legal_hero_move_reference": 200,
    "legal_monster_move_reference": 60,
}


def test_movement_matches_python(monkeypatch):
    shadows = _watch(monkeypatch, budgets=LEAST)
    kinds = shadows.by_case

    def done():  # the rarer moves: Open Doors attempts, Jumps, bought squares, Evade steps, deferring
        return shadows.reached(**LEAST) and all(kinds()[k] >= 3 for k in RARE if "drag" not in k)

    for g, action in play(range(20), until=done):
        if action is None:
            continue
        kind, unit = g.decision
        if kind == Decision.HERO_MOVE and not shadows.reached(
            can_buy_move=200, legal_hero_move_reference=200
        ):
            shadows.compare("can_buy_move", g, movement.can_buy_move, core.can_buy_move, unit)
            shadows.compare(
                "legal_hero_move_reference",
                g,
                movement.legal_hero_move_reference,
                core.legal_hero_move_reference,
                unit,
            )
        elif kind == Decision.MONSTER_MOVE and not shadows.reached(legal_monster_move_reference=60):
            shadows.compare(
                "legal_monster_move_reference",
                g,
                movement.legal_monster_move_reference,
                core.legal_monster_move_reference,
                unit,
            )
    shadows.check(**LEAST)
    assert done(), kinds()


def test_drags_match_python(monkeypatch):
    """Random play seldom puts a hero's corpse beside a living hero, or a hero on an exit: the
    R-DEATH-04 positions of tests/test_rules_end_death.py on the test arena, a drag along corridor b
    and one out through the exit (23, 27), and a hero leaving alone."""
    shadows = _watch(monkeypatch)
    for hero_0_at, hero_at, moves in (
        ((9, 0), (10, 0), (DRAG_N + 3, *[MOVE_N + 1] * 4, END)),
        ((21, 27), (22, 27), (DRAG_N + 3, MOVE_N + 1)),
        ((9, 0), (22, 27), (MOVE_N + 1,)),  # hero_0 alive at (9, 0)
    ):
        g = arena()
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
    shadows.check(leave_dungeon=2, do_hero_move=9)
    kinds = shadows.by_case()
    assert kinds["hero_drag"] == 2 and kinds["drag_ends"] == 1, kinds


def test_movement_rule_positions_match_python(monkeypatch):
    """The hand-built positions of the movement, doors and jumps, and end and death rule tests
    (forced Open Doors and Jump rolls, traps, exits, drags), each call compared."""
    shadows = _watch(monkeypatch)
    long = ("test_every_phase_ends_under_a_stalling_policy",)  # whole games: random play's share
    assert (
        run_rule_tests("test_rules_movement", "test_rules_doors_jumps", "test_rules_end_death", skip=long)
        >= 40
    )
    shadows.check(do_hero_move=50, step=50, legal_hero_move=50, leave_dungeon=3)
    kinds = shadows.by_case()
    assert all(kinds[k] >= 2 for k in ("hero_door", "hero_jump", "hero_drag", "drag_ends")), kinds
