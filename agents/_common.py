"""Shared helpers of the scripted agents: fight odds, board distances, who is where."""

from __future__ import annotations

import heapq
from functools import lru_cache

from dungeon_env.engine import Game
from dungeon_env.engine.movement import open_side
from dungeon_env.engine.state import ACTIVE, CORPSE, SIDE_HERO, SIDE_MONSTER
from dungeon_env.engine.tables import passages

INF = 10**9


@lru_cache(maxsize=64)
def p_win(diff: int) -> float:
    """P(2d6 + diff > 2d6): the chance that the side ``diff`` points better wins a Fight outright."""
    sums = [0] * 13
    for a in range(1, 7):
        for b in range(1, 7):
            sums[a + b] += 1
    wins = sum(sums[x] * sums[y] for x in range(2, 13) for y in range(2, 13) if x + diff > y)
    return wins / 1296


def active_monsters(g: Game, visible_only: bool = False) -> list[int]:
    """Active monster slots; with ``visible_only`` those in areas the heroes have revealed."""
    s, t = g.state, g.tables
    out = []
    for u in range(s.n_heroes, len(s.unit_status)):
        if s.unit_status[u] == ACTIVE and s.unit_side[u] == SIDE_MONSTER:
            if visible_only and not s.revealed[int(t.area[int(s.unit_pos[u])])]:
                continue
            out.append(u)
    return out


def active_heroes(g: Game) -> list[int]:
    s = g.state
    return [h for h in range(s.n_heroes) if s.unit_status[h] == ACTIVE]


def adjacent_foes(g: Game, u: int) -> list[int]:
    """Active figures of the other side a Fight would join to ``u`` (no wall or closed door between)."""
    s = g.state
    here = int(s.unit_pos[u])
    side = int(s.unit_side[u])
    out = []
    for d in range(4):
        nxt = open_side(g, here, d)
        if nxt < 0:
            continue
        v = int(s.occupant[nxt])
        if v >= 0 and s.unit_status[v] == ACTIVE and int(s.unit_side[v]) not in (side, -1):
            out.append(v)
    return out


def foes_next_to_square(g: Game, sq: int, side: int) -> int:
    """How many active figures of the side opposite ``side`` stand next to ``sq``."""
    s = g.state
    n = 0
    for d in range(4):
        nxt = open_side(g, sq, d)
        if nxt < 0:
            continue
        v = int(s.occupant[nxt])
        if v >= 0 and s.unit_status[v] == ACTIVE and int(s.unit_side[v]) == 1 - side:
            n += 1
    return n


def around(g: Game, sq: int) -> list[int]:
    """The squares from which a figure on ``sq`` can be fought."""
    return [q for q in (open_side(g, sq, d) for d in range(4)) if q >= 0]


def hurt(g: Game, u: int) -> float:
    """Missing Health as a fraction of the base Health (0 = unhurt)."""
    s = g.state
    base = max(1, int(s.base_health[u]))
    return 1.0 - int(s.health[u]) / base


def dijkstra(g: Game, targets: list[int], cost: list[int], doors_closed_ok: bool) -> list[int]:
    """Cost of the cheapest way from every square to the nearest target (walking from r into q
    costs ``cost[q]``), through passages; closed doors count as open if ``doors_closed_ok`` (heroes
    can open them), never hidden ones."""
    s = g.state
    steps = passages(g.tables)
    hidden = s.door_hidden.tolist()
    is_open = s.door_open.tolist()
    dist = [INF] * g.tables.n_squares
    heap = []
    for q in targets:
        if dist[q] == INF:
            dist[q] = 0
            heap.append((0, q))
    heapq.heapify(heap)
    while heap:
        d, q = heapq.heappop(heap)
        if d > dist[q]:
            continue
        nd = d + cost[q]
        if cost[q] >= INF:
            continue
        for r, door in steps[q]:
            if door >= 0 and (hidden[door] or (not doors_closed_ok and not is_open[door])):
                continue
            if nd < dist[r]:
                dist[r] = nd
                heapq.heappush(heap, (nd, r))
    return dist


def is_hero(g: Game, u: int) -> bool:
    return int(g.state.unit_side[u]) == SIDE_HERO


def corpses(g: Game) -> list[int]:
    s = g.state
    return [h for h in range(s.n_heroes) if s.unit_status[h] == CORPSE]
