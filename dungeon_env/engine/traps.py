"""Traps: springing, detecting, disarming, jumping over (TRAP).

A trap's state is two flags of the state, ``trap_armed[i]`` and ``trap_detected[i]`` (known to the
heroes): armed and hidden at set-up; armed and detected once found; a trap that is disarmed, or
that springs and does not block, is removed (both False); a sprung blocking trap (``blocks``, e.g.
a pit) stays as a hazard that everyone knows and nobody may enter (not armed, detected). Monsters,
played by the DM, know every trap (R-MON-10): the DM's view is ``trap_armed`` itself.

Where traps are and how they stop movement are board look-ups (``board.trap_at``, ``blocks``,
``is_jumpable``). Hooks the rest of the engine calls (keep the names):
- ``on_enter(g, u, sq)``: a figure entered ``sq`` (movement, evasion, jump landing): an armed trap
  there springs (A-38); called by ``movement.step`` for heroes and monsters alike.
- ``disarm_actions(g, h) -> list[int]``: DISARM_d actions for a hero ending its Movement next to a
  detected trap, outside combat, once per turn (A-41); movement pushes a DISARM decision if any.
- ``detect_traps(g)``: the end-of-Explore Detect Traps rolls (R-TRAP-01..04).
- ``room_detect(g, h, area) -> bool``: a Detect Traps roll called for by room text (R-TRAP-05).
- Decision DISARM: ``legal_disarm`` / ``do_disarm``.

Events: ``trap_sprung`` ``{trap, unit, at, hazard, turn}``, ``trap_disarmed`` ``{trap, unit, at,
turn}``, ``detect_traps`` ``{hero, found: [[x, y], ...], turn}`` (the heroes' view: which squares,
never the roll; the roll itself is a ``roll`` event of check ``detect_traps``, for the DM's log).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dungeon_env.engine import effects
from dungeon_env.engine.actions import DISARM_N, END
from dungeon_env.engine.board import open_side, trap_at, traps_in_area
from dungeon_env.engine.state import ACTIVE
from dungeon_env.engine.tables import passages, square
from dungeon_env.engine.units import active_heroes, any_monster, check_corpses, has_trait, label
from dungeon_env.engine.visibility import sees

if TYPE_CHECKING:
    from dungeon_env.engine.context import Context

STREAM = "traps"  # Disarm rolls, made in the open
SECRET_STREAM = "secret"  # the DM's secret Detect Traps rolls: no open roll shares their stream


def _xy(g: Context, i: int) -> list[int]:
    return list(g.tables.adventure.traps[i].at)


# ----------------------------------------------------------------------------------------- springing


def on_enter(g: Context, u: int, sq: int) -> None:
    """Any creature entering an armed trap springs it, detected or not (R-TRAP-09, A-38)."""
    i = trap_at(g, sq)
    if i >= 0 and g.state.trap_armed[i]:
        spring(g, i, u, keep_hazard=True)


def spring(g: Context, i: int, u: int, keep_hazard: bool) -> None:
    """The trap's effect lands on ``u``; the trap is removed, or stays as a hazard if it blocks and
    was entered (A-38). A trap sprung while disarming is removed (A-41)."""
    s = g.state
    trap = g.tables.adventure.traps[i]
    hazard = keep_hazard and trap.blocks
    s.trap_armed[i] = False
    s.trap_detected[i] = hazard
    event = {"type": "trap_sprung", "trap": trap.name, "unit": label(g, u), "at": _xy(g, i), "hazard": hazard}
    g.log({**event, "turn": s.turn})
    effects.apply_effect(g, trap.effect, f"trap:{trap.name}", u)


# ----------------------------------------------------------------------------------------- detecting


def _detect_modifiers(g: Context, h: int) -> dict[str, int]:
    """Perceptive +1, Light 0 -1 (R-TRAP-04; ``light.dark_penalty``), abilities (detect_bonus)."""
    modifiers = {}
    if has_trait(g, h, "perceptive"):
        modifiers["perceptive"] = 1
    if g.state.light == 0 and g.rules.light_dark_penalty:
        modifiers["light"] = -g.rules.light_dark_penalty
    modifiers.update(effects.check_modifiers(g, h, "detect_traps"))
    return modifiers


def _reach(g: Context, src: int, limit: int) -> dict[int, int]:
    """Squares within ``limit`` steps of ``src`` by the shortest orthogonal path that crosses no wall,
    blockage or closed door, occupants ignored (ruling A-39): square -> distance."""
    steps = passages(g.tables)
    is_open = g.state.door_open.tolist()
    dist = {src: 0}
    frontier = [src]
    for d in range(1, limit + 1):
        nxt = []
        for s in frontier:
            for t, door in steps[s]:
                if t not in dist and (door < 0 or is_open[door]):
                    dist[t] = d
                    nxt.append(t)
        frontier = nxt
    return dist


def _mark(g: Context, h: int, found: list[int]) -> None:
    for i in found:
        g.state.trap_detected[i] = True
    found_at = [_xy(g, i) for i in found]
    g.log({"type": "detect_traps", "hero": label(g, h), "found": found_at, "turn": g.state.turn})


def detect_from(g: Context, h: int, limit: int) -> list[int]:
    """Hidden armed traps within path distance ``limit`` of hero ``h`` and in its sight (R-TRAP-02)."""
    s = g.state
    hidden = [i for i in range(len(s.trap_armed)) if s.trap_armed[i] and not s.trap_detected[i]]
    if limit <= 0 or not hidden:
        return []
    src = int(s.unit_pos[h])
    dist = _reach(g, src, limit)
    squares = [square(*g.tables.adventure.traps[i].at) for i in hidden]
    return [i for i, sq in zip(hidden, squares, strict=True) if sq in dist and sees(g, src, sq)]


def _hidden_left(g: Context) -> bool:
    s = g.state
    return bool((s.trap_armed & ~s.trap_detected).any())


def detect_traps(g: Context) -> None:
    """End of the Explore phase: one secret d6 per living hero on the board (A-40); the total is the
    number of squares it searches (a total <= 0 finds nothing, A-39). While no hidden trap is left
    the dice are not rolled, as they could find nothing; every hero still gets its (empty) result,
    so the heroes learn nothing from it (ruling D-T1). The rolls come from the ``secret`` stream,
    which no open roll uses, so whether they were made shifts no die the heroes see."""
    for h in active_heroes(g):
        if not _hidden_left(g):
            _mark(g, h, [])
            continue
        total = g.check(
            "detect_traps", label(g, h), SECRET_STREAM, _detect_modifiers(g, h), lambda v: max(v, 0)
        )
        _mark(g, h, detect_from(g, h, total))


def room_detect(g: Context, h: int, area: int) -> bool:
    """Room text calls for a Detect Traps roll: 4-6 succeeds and finds the area's armed traps
    (R-TRAP-05; ``rules.room_detect_min``). Either way the hero gets its ``detect_traps`` event,
    empty on a failure, so heroes learn which squares were found and nothing else (R-TRAP-03)."""
    need = g.rules.room_detect_min

    def result(v: int) -> str:
        return "success" if v >= need else "fail"

    total = g.check("room_detect", label(g, h), SECRET_STREAM, _detect_modifiers(g, h), result)
    s = g.state
    found = [i for i in traps_in_area(g, area) if s.trap_armed[i] and not s.trap_detected[i]]
    _mark(g, h, found if total >= need else [])  # a failure looks like a success that found nothing
    return total >= need


# ----------------------------------------------------------------------------------------- disarming


def disarm_actions(g: Context, h: int) -> list[int]:
    """DISARM_d towards each detected armed trap orthogonally next to the hero, if it may try: once
    per turn, outside combat (R-TRAP-06/08, A-41)."""
    s = g.state
    if not g.tables.adventure.traps or s.disarm_tried[h] or s.unit_status[h] != ACTIVE or any_monster(g):
        return []
    sq = int(s.unit_pos[h])
    acts = []
    for d in range(4):
        nxt = open_side(g, sq, d)
        i = trap_at(g, nxt) if nxt >= 0 else -1
        if i >= 0 and s.trap_armed[i] and s.trap_detected[i]:
            acts.append(DISARM_N + d)
    return acts


def legal_disarm(g: Context, unit: int, a: int, b: int) -> list[int]:
    return sorted([*disarm_actions(g, unit), END])


def do_disarm(g: Context, unit: int, a: int, b: int, action: int) -> None:
    """Disarm roll d6, no trait or Light modifiers (R-TRAP-04, R-LIGHT-04; a disarm_bonus ability
    adds, ruling D-A3): 1 the trap springs on the hero and is
    removed, 2-3 failed (try again next turn), 4-6 disarmed and removed (R-TRAP-07;
    ``rules.disarm_spring_max``, ``rules.disarm_min``)."""
    if action == END:
        return
    s = g.state
    h = unit
    i = trap_at(g, open_side(g, int(s.unit_pos[h]), action - DISARM_N))
    s.disarm_tried[h] = True
    s.acted[h] = True  # an attempt is an activity: no Rest this turn (R-REST-02)

    sprung, disarmed = g.rules.disarm_spring_max, g.rules.disarm_min

    def result(v: int) -> str:
        return "sprung" if v <= sprung else ("failed" if v < disarmed else "disarmed")

    total = g.check("disarm", label(g, h), STREAM, effects.check_modifiers(g, h, "disarm"), result)
    if total <= sprung:
        spring(g, i, h, keep_hazard=False)
    elif total >= disarmed:
        s.trap_armed[i] = False
        s.trap_detected[i] = False
        trap = g.tables.adventure.traps[i]
        event = {"type": "trap_disarmed", "trap": trap.name, "unit": label(g, h), "at": _xy(g, i)}
        g.log({**event, "turn": s.turn})
    check_corpses(g)
    g.check_end()
