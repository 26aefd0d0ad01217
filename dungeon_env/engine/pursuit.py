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

from dungeon_env.engine.state import ACTIVE, NO_UNIT
from dungeon_env.engine.tables import UNREACHABLE, memoised, open_steps
from dungeon_env.engine.units import next_to

if TYPE_CHECKING:
    from dungeon_env.engine.game import Game

FIELDS_MEMO_SIZE = 256  # distance fields kept per adventure


def allowed(g: Game, m: int, steps: list[tuple[int, int]]) -> tuple[list[int], bool]:
    """The actions of ``steps`` (``(action, square)`` pairs, each a free square one step away) that
    monster ``m`` may take, and whether it may end its Movement here."""
    s = g.state
    heroes = [int(s.unit_pos[h]) for h in range(s.n_heroes) if s.unit_status[h] == ACTIVE]
    if not heroes:
        return [a for a, _ in steps], True
    here = int(s.unit_pos[m])
    if beside_hero(g, here, heroes):  # duty 1: stay in the fight
        return [a for a, q in steps if beside_hero(g, q, heroes)], True
    budget = _budget(g, m)
    passable = _passable(g, m)
    to_fight = _field(g, passable, _fight_squares(g, heroes, passable))
    start = int(s.move_from[m])
    if _via(g, to_fight, start) <= int(s.base_move[m]) and _via(g, to_fight, here) <= budget:  # duty 2
        ok = [a for a, q in steps if beside_hero(g, q, heroes) or _via(g, to_fight, q) <= budget - 1]
        return ok, False
    return _approach(g, passable, heroes, start, here, steps, budget)


def _via(g: Game, field: tuple[int, ...], q: int) -> int:
    """The distance of square ``q`` in ``field``; for a square the field does not walk through (an
    armed trap the monster chooses to step on), one more than its nearest neighbour's."""
    if field[q] < UNREACHABLE:
        return field[q]
    return min((field[r] + 1 for r in open_steps(g.tables, g.state.door_open)[q]), default=UNREACHABLE)


def _approach(g: Game, passable, heroes, start: int, here: int, steps, budget: int):
    """Duty 3: end strictly closer to some hero than at the start, when a path allows it."""
    fields = [_field(g, passable, (h,)) for h in heroes]
    began = [_via(g, f, start) for f in fields]
    now = [_via(g, f, here) for f in fields]
    if not any(d < UNREACHABLE for d in began):
        return [a for a, _ in steps], True  # no path to any hero: no duty

    def can_close(distances, squares_left: int) -> bool:
        return any(max(n - squares_left, 1) < d for n, d in zip(distances, began, strict=True))

    end_ok = any(n < d for n, d in zip(now, began, strict=True))
    if end_ok or can_close(now, budget):  # closer already, or it can still get there (maybe buying)
        return [a for a, q in steps if can_close([_via(g, f, q) for f in fields], budget - 1)], end_ok
    # a duty no longer possible (a trap sprung on the way): never farther from every hero
    end_ok = any(n <= d for n, d in zip(now, began, strict=True))
    return ([] if end_ok else [a for a, _ in steps]), True


def beside_hero(g: Game, sq: int, hero_squares: list[int]) -> bool:
    """A living hero stands on a square next to ``sq`` (no wall or closed door between)."""
    return any(next_to(g, sq, h) for h in hero_squares)


def _budget(g: Game, m: int) -> int:
    """Squares the monster can still move this phase: what is left plus the Stamina it may still buy."""
    s, r = g.state, g.rules
    buy = 0 if s.exhausted[m] else min(r.move_stamina_max - int(s.move_bought[m]), int(s.stamina[m]))
    return int(s.move_left[m]) + max(0, buy)


def _passable(g: Game, m: int) -> tuple[bool, ...]:
    """For each square, whether monster ``m`` can walk through it (memoised per board: figures,
    traps, hazards)."""
    s = g.state
    occupant = s.occupant.copy()
    occupant[s.unit_pos[m]] = NO_UNIT
    key = (occupant.tobytes(), s.trap_armed.tobytes(), s.trap_detected.tobytes())

    def compute() -> tuple[bool, ...]:
        obstacle = g.tables.obstacle
        walkable = [c < 0 and not obstacle[q] for q, c in enumerate(occupant.tolist())]
        armed, detected = s.trap_armed.tolist(), s.trap_detected.tolist()
        for i, sq in enumerate(_trap_squares(g)):
            if armed[i] or detected[i]:  # an armed trap, or a hazard (sprung, detected, not armed)
                walkable[sq] = False
        return tuple(walkable)

    return memoised(g.tables, "pursuit.passable", FIELDS_MEMO_SIZE, key, compute)


def _trap_squares(g: Game) -> list[int]:
    """The square of each of the adventure's traps, in trap order."""
    return [g.square(*trap.at) for trap in g.tables.adventure.traps]


def _fight_squares(g: Game, heroes: list[int], passable) -> tuple[int, ...]:
    """The walkable squares next to a living hero."""
    door_open = g.state.door_open
    found = set()
    for h in heroes:
        for q, door in g.tables.sides[h]:
            if q >= 0 and (door < 0 or door_open[door]) and passable[q]:
                found.add(q)
    return tuple(sorted(found))


def _field(g: Game, passable, sources: tuple[int, ...]) -> tuple[int, ...]:
    """Walking distance from the nearest source to every square, through walkable squares only
    (a source itself may be occupied: a hero's square)."""
    key = (passable, sources, g.state.door_open.tobytes())

    def compute() -> tuple[int, ...]:
        steps = open_steps(g.tables, g.state.door_open)
        dist = [UNREACHABLE] * len(passable)
        for q in sources:
            dist[q] = 0
        frontier, d = list(sources), 0
        while frontier:
            d += 1
            reached = []
            for q in frontier:
                for r in steps[q]:
                    if dist[r] > d and passable[r]:
                        dist[r] = d
                        reached.append(r)
            frontier = reached
        return tuple(dist)

    return memoised(g.tables, "pursuit.fields", FIELDS_MEMO_SIZE, key, compute)
