"""Monsters attack: which of a monster's movement choices the rules allow (R-MON-03, ruling A-53 as
revised 2026-12-01). Guards "attack and fight to the death", so an awake monster may not hold back:

1. A monster next to a living hero may only step to squares still next to a living hero, or stay.
2. A monster that could reach a square next to a living hero with its allowance this phase (not
   counting Stamina) must end its Movement on such a square; the DM picks the hero, the square and
   the path, and may spend Stamina on the way.
3. Otherwise it must end its Movement strictly closer, by path distance, to some living hero than it
   began, when any path allows that, and never farther from every hero.

Distances here count squares a monster can walk: closed doors (monsters open none, A-31), occupied
squares, obstacles, hazards and armed traps are impassable (a monster is never forced onto a trap,
though it may step on one by choice); the moving monster's own square is free. "Next to" means
orthogonally adjacent with no wall or closed door between: the squares a Fight needs.

:func:`allowed` filters the candidate steps and says whether ``end`` is allowed; each duty is
enforced as long as it can still be met (a duty that a sprung trap has made impossible gives way to
the next one), so a monster always has a legal choice. ``defer`` stays legal (movement.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from dungeon_env.engine.state import ACTIVE, NO_UNIT
from dungeon_env.engine.tables import UNREACHABLE, memoised, open_steps

if TYPE_CHECKING:
    from dungeon_env.engine.context import Context

FIELDS_MEMO_SIZE = 512  # distance fields kept per adventure (about 5 KB each)


def allowed(g: Context, m: int, steps: list[tuple[int, int]]) -> tuple[list[int], bool]:
    """The actions of ``steps`` (``(action, square)`` pairs, each a free square one step away) that
    monster ``m`` may take, and whether it may end its Movement here."""
    s = g.state
    heroes = [int(s.unit_pos[h]) for h in range(s.n_heroes) if s.unit_status[h] == ACTIVE]
    if not heroes:
        return [a for a, _ in steps], True
    here = int(s.unit_pos[m])
    ring = fight_ring(g, heroes)
    if here in ring:  # duty 1: stay in the fight
        return [a for a, q in steps if q in ring], True
    walk = Walk(g, m)
    budget = _budget(g, m)
    reach = int(s.base_move[m]) + g.rules.move_stamina_max + 2  # no budget (nor a step past it) goes farther
    to_fight = walk.field(tuple(sorted(q for q in ring if walk.passable[q])), reach)
    start = int(s.move_from[m])
    if walk.via(to_fight, start) <= int(s.base_move[m]) and walk.via(to_fight, here) <= budget:  # duty 2
        return [a for a, q in steps if q in ring or walk.via(to_fight, q) <= budget - 1], False
    return _approach(walk, heroes, start, here, steps, budget, reach)


def _approach(walk: Walk, heroes: list[int], start: int, here: int, steps, budget: int, reach: int):
    """Duty 3: end strictly closer to some hero than at the start, when a path allows it."""
    fields = [walk.field((h,), reach, around=start) for h in heroes]
    began = [walk.via(f, start) for f in fields]
    now = [walk.via(f, here) for f in fields]
    if not any(d < UNREACHABLE for d in began):
        return [a for a, _ in steps], True  # no path to any hero: no duty

    def can_close(distances, squares_left: int) -> bool:
        return any(max(n - squares_left, 1) < d for n, d in zip(distances, began, strict=True))

    end_ok = any(n < d for n, d in zip(now, began, strict=True))
    if end_ok or can_close(now, budget):  # closer already, or it can still get there (maybe buying)
        return [a for a, q in steps if can_close([walk.via(f, q) for f in fields], budget - 1)], end_ok
    # a duty no longer possible (a trap sprung on the way): never farther from every hero
    end_ok = any(n <= d for n, d in zip(now, began, strict=True))
    return ([] if end_ok else [a for a, _ in steps]), True


def fight_ring(g: Context, hero_squares: list[int]) -> frozenset[int]:
    """The squares next to a living hero (no wall or closed door between): where a monster fights."""
    door_open = g.state.door_open
    return frozenset(
        q for h in hero_squares for q, door in g.tables.sides[h] if q >= 0 and (door < 0 or door_open[door])
    )


def _budget(g: Context, m: int) -> int:
    """Squares the monster can still move this phase: what is left plus the Stamina it may still buy."""
    s, r = g.state, g.rules
    buy = 0 if s.exhausted[m] else min(r.move_stamina_max - int(s.move_bought[m]), int(s.stamina[m]))
    return int(s.move_left[m]) + max(0, buy)


class Walk:
    """What monster ``m`` can walk through now: the board without the monster itself, with a key
    for the memoised distance fields (the board changes only when a figure moves or a trap
    springs, so a monster's fields are computed once for its whole Movement)."""

    def __init__(self, g: Context, m: int) -> None:
        s = g.state
        occupant = s.occupant.copy()
        occupant[s.unit_pos[m]] = NO_UNIT
        self.g = g
        self.steps = open_steps(g.tables, s.door_open)
        boards = (occupant, s.trap_armed, s.trap_detected, s.door_open)
        self.key = tuple(a.tobytes() for a in boards)
        self.passable = memoised(
            g.tables, "pursuit.passable", FIELDS_MEMO_SIZE, self.key, lambda: _walkable(g, occupant)
        )

    def field(self, sources: tuple[int, ...], limit: int, around: int = -1) -> tuple[int, ...]:
        """Walking distance from the nearest source to every square, through walkable squares only
        (a source itself may be occupied: a hero). Squares farther than ``limit`` are UNREACHABLE;
        with ``around`` a square, the limit counts from the depth at which that square is reached
        (the search stops ``limit`` squares past it: all that is compared lies near it)."""
        key = (self.key, sources, limit, around)
        return memoised(
            self.g.tables,
            "pursuit.fields",
            FIELDS_MEMO_SIZE,
            key,
            lambda: self._search(sources, limit, around),
        )

    def _search(self, sources: tuple[int, ...], limit: int, around: int) -> tuple[int, ...]:
        steps, passable = self.steps, self.passable
        dist = [UNREACHABLE] * len(passable)
        for q in sources:
            dist[q] = 0
        frontier, d = list(sources), 0
        stop = limit if around < 0 else UNREACHABLE
        while frontier and d < stop:
            d += 1
            reached = []
            for q in frontier:
                for r in steps[q]:
                    if dist[r] > d and passable[r]:
                        dist[r] = d
                        reached.append(r)
            frontier = reached
            if stop == UNREACHABLE and around >= 0 and dist[around] < UNREACHABLE:
                stop = dist[around] + limit
        return tuple(dist)

    def via(self, field: tuple[int, ...], q: int) -> int:
        """The distance of square ``q`` in ``field``; for a square the field does not walk through
        (an armed trap the monster chooses to step on), one more than its nearest neighbour's."""
        if field[q] < UNREACHABLE:
            return field[q]
        return min((field[r] + 1 for r in self.steps[q]), default=UNREACHABLE)


def _walkable(g: Context, occupant: np.ndarray) -> tuple[bool, ...]:
    """Squares with no figure, no obstacle, no hazard and no armed trap."""
    s = g.state
    walkable = (occupant < 0) & ~_obstacles(g)
    for i, trap in enumerate(g.tables.adventure.traps):
        if s.trap_armed[i] or s.trap_detected[i]:  # an armed trap, or a hazard (sprung, detected, not armed)
            walkable[g.square(*trap.at)] = False
    return tuple(walkable.tolist())


def _obstacles(g: Context) -> np.ndarray:
    cached = g.tables.cache.get("pursuit.obstacles")
    if cached is None:
        cached = g.tables.cache["pursuit.obstacles"] = g.tables.furniture | g.tables.blockage
    return cached
