"""Shared helpers of the scripted agents: fight odds, board distances, who is where."""

from __future__ import annotations

import functools
from functools import lru_cache

from dungeon_env.engine import Game, core
from dungeon_env.engine.board import open_neighbours
from dungeon_env.engine.state import ACTIVE, CORPSE, SIDE_HERO, SIDE_MONSTER
from dungeon_env.engine.tables import memoised, passages

INF = 10**9
STEPS_MEMO_SIZE = 64  # door configurations whose usable steps are kept (about 50 KB each)
MONSTERS_MEMO_SIZE = 256  # unit status configurations whose active monsters are kept


@lru_cache(maxsize=64)
def p_win(diff: int) -> float:
    """P(2d6 + diff > 2d6): the chance that the side ``diff`` points better wins a Fight outright."""
    sums = [0] * 13
    for a in range(1, 7):
        for b in range(1, 7):
            sums[a + b] += 1
    wins = sum(sums[x] * sums[y] for x in range(2, 13) for y in range(2, 13) if x + diff > y)
    return wins / 1296


@functools.cache
def ported_as_is(cls: type) -> bool:
    """Whether ``cls``, a scripted agent whose choice is compiled (or a subclass), keeps every method
    the compiled choice replaces: those named by ``PORTED`` in the body of the nearest class of its
    MRO that names them (the class the compiled choice is the twin of). A subclass that overrides
    one plays the Python methods."""
    twin = next(c for c in cls.__mro__ if "PORTED" in c.__dict__)
    return all(getattr(cls, name) is getattr(twin, name) for name in twin.PORTED)


def active_monsters(g: Game, visible_only: bool = False) -> list[int]:
    """Active monster slots in slot order; with ``visible_only`` those in areas the heroes have
    revealed."""
    s = g.state
    out = list(_active_monster_slots(g))
    if visible_only and out:
        area, pos, revealed = g.tables.area, s.unit_pos, s.revealed
        out = [u for u in out if revealed[area[pos[u]]]]
    return out


def _active_monster_slots(g: Game) -> tuple[int, ...]:
    """The slots of the active monsters, memoised on the units' status and side (which change only
    when a figure appears, dies or leaves)."""
    s = g.state

    def compute() -> tuple[int, ...]:
        status, side = s.unit_status.tolist(), s.unit_side.tolist()
        monsters = range(s.n_heroes, len(status))
        return tuple(u for u in monsters if status[u] == ACTIVE and side[u] == SIDE_MONSTER)

    key = (s.n_heroes, s.unit_status.tobytes(), s.unit_side.tobytes())
    return memoised(g.tables, "agents.active_monsters", MONSTERS_MEMO_SIZE, key, compute)


def adjacent_foes(g: Game, u: int) -> list[int]:
    """Active figures of the other side a Fight would join to ``u`` (no wall or closed door between)."""
    s = g.state
    side = int(s.unit_side[u])
    out = []
    for nxt in open_neighbours(g, int(s.unit_pos[u])):
        v = int(s.occupant[nxt])
        if v >= 0 and s.unit_status[v] == ACTIVE and int(s.unit_side[v]) not in (side, -1):
            out.append(v)
    return out


def foes_next_to_square(g: Game, sq: int, side: int) -> int:
    """How many active figures of the side opposite ``side`` stand next to ``sq``."""
    s = g.state
    n = 0
    for nxt in open_neighbours(g, sq):
        v = int(s.occupant[nxt])
        if v >= 0 and s.unit_status[v] == ACTIVE and int(s.unit_side[v]) == 1 - side:
            n += 1
    return n


def around(g: Game, sq: int) -> list[int]:
    """The squares from which a figure on ``sq`` can be fought."""
    return open_neighbours(g, sq)


def hurt(g: Game, u: int) -> float:
    """Missing Health as a fraction of the base Health (0 = unhurt)."""
    s = g.state
    base = max(1, int(s.base_health[u]))
    return 1.0 - int(s.health[u]) / base


def usable_steps(g: Game, doors_closed_ok: bool) -> tuple[tuple[int, ...], ...]:
    """For each square, the squares one step away through a passage or a door that is not hidden
    and, unless ``doors_closed_ok``, open (memoised per door configuration)."""
    s = g.state
    hidden, is_open = s.door_hidden, s.door_open

    def compute():
        shut = hidden.tolist() if doors_closed_ok else (hidden | ~is_open).tolist()  # [door]: no way
        return tuple(
            tuple([r for r, door in here if door < 0 or not shut[door]]) for here in passages(g.tables)
        )

    key = (hidden.tobytes(), None if doors_closed_ok else is_open.tobytes())
    return memoised(g.tables, "agents.usable_steps", STEPS_MEMO_SIZE, key, compute)


def dijkstra(g: Game, targets: list[int], cost: list[int], doors_closed_ok: bool) -> list[int]:
    """Cost of the cheapest way from every square to the nearest target (walking from r into q
    costs ``cost[q]``, a positive int, or ``INF``: never walked through), through passages; closed
    doors count as open if ``doors_closed_ok`` (heroes can open them), never hidden ones. Computed
    by the compiled core (``engine.core.costs``)."""
    s = g.state
    passable = ~s.door_hidden if doors_closed_ok else s.door_open & ~s.door_hidden
    return core.costs(g.tables, passable, cost, targets, INF)


def is_hero(g: Game, u: int) -> bool:
    return int(g.state.unit_side[u]) == SIDE_HERO


def corpses(g: Game) -> list[int]:
    s = g.state
    return [h for h in range(s.n_heroes) if s.unit_status[h] == CORPSE]
