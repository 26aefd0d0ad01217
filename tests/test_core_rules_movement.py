"""The core's port of engine/movement.py against the Python module, at the moments random games over
every adventure call each function (tests/shadow_play.py): same return values, events, dice and
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
from tests.shadow_play import Shadow, play

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


def _watch(monkeypatch) -> tuple[Shadow, Counter[str]]:
    """Every movement function the engine calls is compared with its port from now on (the legal
    lists of a Movement on every third call); the counter counts the kinds of moves compared."""
    shadow = Shadow()
    kinds: Counter[str] = Counter()

    def seen(kind):
        kinds[kind] += 1
        return True

    def watch(name, core_call, module=movement, **kw):
        monkeypatch.setattr(module, name, shadow.wrap(name, getattr(module, name), core_call, **kw))

    watch("legal_hero_move", lambda e, g, h: core.legal_hero_move(e, h), every=3)
    watch("legal_monster_move", lambda e, g, m: core.legal_monster_move(e, m), every=3)
    watch("legal_evade", lambda e, g, h: core.legal_evade(e, h))
    watch("can_pay_evade", lambda e, g, h: core.can_pay_evade(e, h))
    watch(
        "do_hero_move",
        lambda e, g, h, action: core.do_hero_move(e, h, action),
        when=lambda g, h, action: seen("hero_" + _hero_action(g, h, action)),
    )
    watch(
        "do_monster_move",
        lambda e, g, m, action: core.do_monster_move(e, m, action),
        when=lambda g, m, action: seen({EXTRA_MOVE: "monster_extra", DEFER: "defer", END: "monster_end"}.get(action, "monster_step")),
    )
    watch(
        "do_evade",
        lambda e, g, h, action: core.do_evade(e, h, action),
        when=lambda g, h, action: seen("evade_end" if action == END else "evade_step"),
    )
    watch("step", lambda e, g, u, to: core.step(e, u, to), when=lambda g, u, to: seen("step_monster" if u >= g.state.n_heroes else "step_hero"))
    watch(
        "end_movement",
        lambda e, g, h: core.end_movement(e, h),
        when=lambda g, h: seen("drag_ends") if g.state.dragging[h] != NO_UNIT else True,
    )
    watch("leave_dungeon", lambda e, g, h: core.leave_dungeon(e, h))
    return shadow, kinds


def test_movement_matches_python(monkeypatch):
    shadow, kinds = _watch(monkeypatch)

    def references(g):
        kind, unit = g.decision
        if kind == Decision.HERO_MOVE:
            shadow.compare("can_buy_move", g, lambda t: movement.can_buy_move(t, unit), lambda e: core.can_buy_move(e, unit))
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
        legal_monster_move=200,
        legal_evade=20,
        can_pay_evade=20,
        do_hero_move=300,
        do_monster_move=300,
        do_evade=20,
        step=300,
        end_movement=100,
        leave_dungeon=1,
        can_buy_move=200,
        legal_hero_move_reference=200,
        legal_monster_move_reference=200,
    )
    # the rarer moves were reached: Open Doors attempts, Jumps, bought squares, Evade steps, deferring
    rare = ("hero_door", "hero_jump", "hero_extra_move", "monster_extra", "defer", "evade_step")
    assert all(kinds[k] >= 3 for k in rare), kinds


def test_drags_match_python(monkeypatch):
    """Random play seldom puts a hero's corpse beside a living hero: the R-DEATH-04 positions of
    tests/test_rules_end_death.py on the test arena, a drag along corridor b and one out through
    the exit (23, 27)."""
    shadow, kinds = _watch(monkeypatch)
    for corpse_at, hero_at, moves in (
        ((9, 0), (10, 0), (DRAG_N + 3, *[MOVE_N + 1] * 4, END)),
        ((21, 27), (22, 27), (DRAG_N + 3, MOVE_N + 1)),
    ):
        g = arena_game()
        place(g, 0, *corpse_at)
        kill_hero(g, 0)
        place(g, 1, 1, 0)
        place(g, 2, *hero_at)
        enter_phase(g, Phase.HERO_MOVEMENT)
        apply_past_explore(g, END)
        assert g.decision == (Decision.HERO_MOVE, 2)
        for action in moves:
            g.apply(action)
    shadow.check(leave_dungeon=1, do_hero_move=8)
    assert kinds["hero_drag"] == 2 and kinds["drag_ends"] == 1, kinds
