"""Monsters attack: which of a monster's movement choices the rules allow (R-MON-03, ruling A-53 as
revised 2026-12-01). Guards "attack and fight to the death", so an awake monster may not hold back:

1. A monster next to a living hero may only step to squares still next to a living hero, or stay.
2. A monster that could reach a square next to a living hero with its allowance this phase (not
   counting Stamina) must end its Movement on such a square; the DM picks the hero, the square and
   the path, and may spend Stamina on the way.
3. Otherwise it must end its Movement strictly closer, by path distance, to some living hero than it
   began, when any path allows that, and never farther from every hero. Revised 2026-12-06: this is
   judged over the heroes the monster has a path to from where it began; a hero it cannot reach
   (boxed in by its comrades, shut behind a closed door) neither creates the duty nor satisfies it,
   and a monster with a path to no hero has no duty.

Distances here count squares a monster can walk: closed doors (monsters open none, A-31), occupied
squares, obstacles, hazards and armed traps are impassable (a monster is never forced onto a trap,
though it may step on one by choice); the moving monster's own square is free. "Next to" means
orthogonally adjacent with no wall or closed door between: the squares a Fight needs.

:func:`allowed` filters the candidate steps and says whether ``end`` is allowed; each duty is
enforced as long as it can still be met (a duty that a sprung trap has made impossible gives way to
the next one), so a monster always has a legal choice. ``defer`` stays legal (movement.py).

:func:`allowed` is the Python version of the rule: the engine asks the compiled core
(``src/core/pursuit.cpp``, through ``movement.legal_monster_move``), and tests/test_core_pursuit.py
checks the two agree. :class:`Walk` stays the Python view of the same searches, which the scripted
DM reads.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from dungeon_env.engine import core
from dungeon_env.engine.state import ACTIVE, NO_UNIT
from dungeon_env.engine.tables import UNREACHABLE, memoised, open_steps

if TYPE_CHECKING:
    from dungeon_env.engine.context import Context

BOARDS_MEMO_SIZE = 128  # boards without their mover kept per adventure, with their fields (~5 KB each)
GROUND_MEMO_SIZE = 64  # trap configurations whose open ground is kept
RINGS_MEMO_SIZE = 256  # fight rings kept (hero squares and doors)
BLOCKED = -1  # in a field: a square the search does not walk through (not reached)


def allowed(g: Context, m: int, steps: list[tuple[int, int]]) -> tuple[list[int], bool]:
    """The actions of ``steps`` (``(action, square)`` pairs, each a free square one step away) that
    monster ``m`` may take, and whether it may end its Movement here."""
    s = g.state
    n = s.n_heroes
    status, pos = s.unit_status[:n].tolist(), s.unit_pos[:n].tolist()
    heroes = tuple([q for q, st in zip(pos, status, strict=True) if st == ACTIVE])
    if not heroes:
        return [a for a, _ in steps], True
    here = int(s.unit_pos[m])
    ring = _ring(g, heroes)
    if here in ring:  # duty 1: stay in the fight
        return [a for a, q in steps if q in ring], True
    walk = Walk.of(g, m, here, heroes)
    budget = _budget(g, m)
    base = int(s.base_move[m])
    reach = base + g.rules.move_stamina_max + 2  # no budget (nor a step past it) goes farther
    to_fight = walk.field(walk.fight_sources, reach)
    start = int(s.move_from[m])
    via = walk.via
    if via(to_fight, start) <= base and via(to_fight, here) <= budget:  # duty 2
        return [a for a, q in steps if q in ring or via(to_fight, q) <= budget - 1], False
    return _approach(walk, start, here, steps, budget, reach)


def _approach(walk: Walk, start: int, here: int, steps, budget: int, reach: int):
    """Duty 3: end strictly closer to some hero than at the start, when a path allows it. Judged
    over the heroes the monster has a path to from where it began (revised 2026-12-06): a hero it
    cannot reach (boxed in by its comrades, behind a closed door) neither creates the duty nor
    satisfies it.

    With ``n`` a square's distance to a reachable hero and ``d`` the start's, the square is closer
    to that hero when ``n - d < 0``, and from it the monster can still get closer with ``left``
    squares when ``max(n - left, 1) < d``, i.e. ``d > 1`` and ``n - d < left``: so each square is
    judged by its two smallest gaps (:meth:`Walk.gaps`)."""
    if not walk.approach_fields(start, reach):
        return [a for a, _ in steps], True  # no path to any hero: no duty
    closer, closable = walk.gaps(here, start, reach)
    if closer < 0 or closable < budget:  # closer already, or it can still get there (maybe buying)
        return [a for a, q in steps if walk.gaps(q, start, reach)[1] < budget - 1], closer < 0
    # a duty no longer possible (a trap sprung on the way): never farther from every reachable hero
    end_ok = closer <= 0
    return ([] if end_ok else [a for a, _ in steps]), True


def fight_ring(g: Context, hero_squares: list[int]) -> frozenset[int]:
    """The squares next to a living hero (no wall or closed door between): where a monster fights."""
    door_open = g.state.door_open
    return frozenset(
        q for h in hero_squares for q, door in g.tables.sides[h] if q >= 0 and (door < 0 or door_open[door])
    )


def _ring(g: Context, heroes: tuple[int, ...]) -> frozenset[int]:
    """``fight_ring`` of the living heroes' squares (memoised per door configuration)."""
    key = (heroes, g.state.door_open.tobytes())
    return memoised(g.tables, "pursuit.rings", RINGS_MEMO_SIZE, key, lambda: fight_ring(g, list(heroes)))


def _budget(g: Context, m: int) -> int:
    """Squares the monster can still move this phase: what is left plus the Stamina it may still buy."""
    s, r = g.state, g.rules
    buy = 0 if s.exhausted[m] else min(r.move_stamina_max - int(s.move_bought[m]), int(s.stamina[m]))
    return int(s.move_left[m]) + max(0, buy)


class Walk:
    """What a monster can walk through now: the board without the monster itself, the living
    heroes, their fight ring and the distance fields over that board.

    The board changes only when a figure moves, a trap springs or a door opens, so one Walk serves
    a monster's whole Movement: :meth:`of` finds it again by the board's content (a memo per
    adventure, shared by every game and copy: a Walk depends on nothing else)."""

    def __init__(self, g: Context, occupant: np.ndarray, heroes: tuple[int, ...]) -> None:
        s = g.state
        self.steps = open_steps(g.tables, s.door_open)
        # a fresh field: UNREACHABLE where the search may walk, BLOCKED where it may not (no
        # obstacle, hazard or armed trap, and no figure)
        blank = _open_ground(g).copy()
        blank[occupant >= 0] = BLOCKED
        self.blank_array = blank  # int32, for the core's searches
        self.blank = blank.tolist()  # the same as a list, for reading square by square
        self.tables, self.door_open = g.tables, s.door_open.copy()
        self.heroes = heroes
        self.ring = _ring(g, heroes)
        self.fight_sources = tuple(sorted(q for q in self.ring if self.blank[q] > 0))
        self.fields: dict[tuple, tuple[int, ...]] = {}
        self.approach: dict[tuple[int, int], tuple[tuple[tuple[int, ...], int], ...]] = {}
        self.by_square: dict[tuple[int, int, int], tuple[int, float]] = {}

    @classmethod
    def of(cls, g: Context, m: int, here: int, heroes: tuple[int, ...]) -> Walk:
        """The Walk of monster ``m`` (standing on ``here``) on the board as it is now; ``heroes``:
        the squares of the living heroes, in slot order."""
        s = g.state
        occupant = s.occupant
        occupant[here] = NO_UNIT  # the board without the mover (put back before returning)
        key = (
            occupant.tobytes(),
            heroes,
            s.trap_armed.tobytes(),
            s.trap_detected.tobytes(),
            s.door_open.tobytes(),
        )
        walk = memoised(g.tables, "pursuit.walks", BOARDS_MEMO_SIZE, key, lambda: cls(g, occupant, heroes))
        occupant[here] = m
        return walk

    def field(self, sources: tuple[int, ...], limit: int, around: int = -1) -> tuple[int, ...]:
        """Walking distance from the nearest source to every square, through walkable squares only
        (a source itself may be occupied: a hero). Squares farther than ``limit`` are not reached;
        with ``around`` a square, the limit counts from the depth at which that square is reached
        (the search stops ``limit`` squares past it: all that is compared lies near it). Read it
        with :meth:`via` (a square not reached holds UNREACHABLE or BLOCKED)."""
        key = (sources, limit, around)
        found = self.fields.get(key)
        if found is None:
            found = self.fields[key] = self._search(sources, limit, around)
        return found

    def approach_fields(self, start: int, reach: int) -> tuple[tuple[tuple[int, ...], int], ...]:
        """For each living hero the monster has a path to from ``start``, in slot order: its field
        (searched ``reach`` squares past ``start``) and the start's distance in it (:meth:`via`)."""
        key = (start, reach)
        found = self.approach.get(key)
        if found is None:
            fields = [self.field((h,), reach, around=start) for h in self.heroes]
            began = [(f, self.via(f, start)) for f in fields]
            found = self.approach[key] = tuple((f, d) for f, d in began if d < UNREACHABLE)
        return found

    def gaps(self, q: int, start: int, reach: int) -> tuple[int, float]:
        """Square ``q`` against the start, over the heroes of :meth:`approach_fields` (``n``:
        ``q``'s distance, ``d``: the start's): the least ``n - d``, and the least ``n - d`` of the
        heroes with ``d > 1`` (infinite if none); kept for the rest of the Movement."""
        key = (q, start, reach)
        found = self.by_square.get(key)
        if found is None:
            via = self.via
            diffs = [(via(f, q) - d, d) for f, d in self.approach_fields(start, reach)]
            closable = min((gap for gap, d in diffs if d > 1), default=math.inf)
            found = self.by_square[key] = (min(gap for gap, _ in diffs), closable)
        return found

    def _search(self, sources: tuple[int, ...], limit: int, around: int) -> tuple[int, ...]:
        return core.distances(self.tables, self.door_open, sources, limit, around, self.blank_array)

    def via(self, field: tuple[int, ...], q: int) -> int:
        """The distance of square ``q`` in ``field``; for a square the field does not walk through
        (an armed trap the monster chooses to step on), one more than its nearest neighbour's."""
        d = field[q]
        if 0 <= d < UNREACHABLE:
            return d
        return min(
            ((UNREACHABLE if (d := field[r]) < 0 else d) + 1 for r in self.steps[q]), default=UNREACHABLE
        )


def _open_ground(g: Context) -> np.ndarray:
    """A fresh field of the board with no figure on it, int32: UNREACHABLE on squares with no
    obstacle, no hazard and no armed trap, else BLOCKED (memoised per trap configuration; copy to
    use)."""
    s, t = g.state, g.tables

    def compute() -> np.ndarray:
        ground = ~(t.furniture | t.blockage)
        for i, trap in enumerate(t.adventure.traps):
            if (
                s.trap_armed[i] or s.trap_detected[i]
            ):  # an armed trap, or a hazard (sprung, detected, not armed)
                ground[g.square(*trap.at)] = False
        return np.where(ground, UNREACHABLE, BLOCKED).astype(np.int32)

    key = (s.trap_armed.tobytes(), s.trap_detected.tobytes())
    return memoised(t, "pursuit.ground", GROUND_MEMO_SIZE, key, compute)
