"""The compiled distance fields (``engine.core.distances``) against a Python oracle: the breadth-first
search the engine used before the core (path distances, ruling A-39, and the duty to attack's walks
around figures and traps, R-MON-03), on boards, doors and figures that random games reach."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

from dungeon_env.content import adventure_names
from dungeon_env.engine import Game, core
from dungeon_env.engine.tables import UNREACHABLE, passages


def _oracle(g: Game, sources, limit=UNREACHABLE, around=-1, blank=None) -> list[int]:
    """One frontier at a time through passages with no door or an open one (the former Python code)."""
    is_open = g.state.door_open.tolist()
    steps = [[t for t, door in row if door < 0 or is_open[door]] for row in passages(g.tables)]
    dist = [UNREACHABLE] * g.tables.n_squares if blank is None else [int(v) for v in blank]
    for q in sources:
        dist[q] = 0
    frontier, d = list(sources), 0
    stop = limit if around < 0 else UNREACHABLE
    while frontier and d < stop:
        d += 1
        reached = []
        for q in frontier:
            for r in steps[q]:
                if dist[r] > d:
                    dist[r] = d
                    reached.append(r)
        frontier = reached
        if stop == UNREACHABLE and around >= 0 and 0 <= dist[around] < UNREACHABLE:
            stop = dist[around] + limit
    return dist


@pytest.mark.parametrize("adventure", adventure_names())
def test_core_distance_fields_match_the_breadth_first_oracle(adventure):
    rng = random.Random(adventure)
    checked = 0
    for seed in range(3):
        g = Game.new(adventure=adventure, heroes=3 + seed, seed=seed, max_turns=25)
        while not g.over:
            if rng.random() < 0.05:
                s, n = g.state, g.tables.n_squares
                sources = rng.sample(range(n), rng.randint(1, 4))
                blank = np.where(
                    (s.occupant < 0) & ~(g.tables.furniture | g.tables.blockage), UNREACHABLE, -1
                ).astype(np.int32)
                limit, around = rng.choice(
                    [(UNREACHABLE, -1), (rng.randint(0, 14), -1), (rng.randint(0, 14), rng.randrange(n))]
                )
                assert core.distances(g.tables, s.door_open, sources) == tuple(_oracle(g, sources))
                got = core.distances(g.tables, s.door_open, sources, limit, around, blank)
                assert got == tuple(_oracle(g, sources, limit, around, blank)), (seed, sources, limit, around)
                checked += 1
            g.apply(rng.choice(g.legal_actions()))
    assert checked > 20


def test_core_distances_reject_squares_off_the_board():
    g = Game.new(adventure=adventure_names()[0], heroes=3, seed=0)
    n = g.tables.n_squares
    with pytest.raises(ValueError, match="source square is off the board"):
        core.distances(g.tables, g.state.door_open, [n])
    with pytest.raises(ValueError, match="one entry per square"):
        core.distances(g.tables, g.state.door_open, [0], blank=np.zeros(n - 1, np.int32))


def test_a_pickled_core_board_searches_as_the_original():
    """The board travels in the tables' cache when a game of an adventure file is pickled."""
    g = Game.new(adventure=adventure_names()[1], heroes=3, seed=0)
    board = core.board(g.tables)
    back = pickle.loads(pickle.dumps(board))
    assert back.n_squares == board.n_squares
    sources = [int(g.state.unit_pos[0])]
    assert core._core.distances(back, g.state.door_open, None, sources, UNREACHABLE, -1) == core.distances(
        g.tables, g.state.door_open, sources
    )


def _cost_oracle(g: Game, targets, cost, passable) -> list[int]:
    """The agents' former Python search: a bucket queue keyed by the cost so far."""
    inf = 10**9
    shut = (~passable).tolist()
    steps = [[r for r, door in row if door < 0 or not shut[door]] for row in passages(g.tables)]
    dist = [inf] * g.tables.n_squares
    start = []
    for q in targets:
        if dist[q] == inf:
            dist[q] = 0
            start.append(q)
    buckets, d = {0: start}, -1
    while buckets:
        d += 1
        for q in buckets.pop(d, ()):
            if dist[q] != d or cost[q] >= inf:
                continue
            for r in steps[q]:
                if d + cost[q] < dist[r]:
                    dist[r] = d + cost[q]
                    buckets.setdefault(d + cost[q], []).append(r)
    return dist


@pytest.mark.parametrize("adventure", adventure_names())
def test_core_cost_fields_match_the_bucket_queue_oracle(adventure):
    """Walls (cost INF: reached, never walked through), dearer squares (traps the heroes know), closed
    and hidden doors: the agents' ``dijkstra`` as the core computes it."""
    rng = random.Random(adventure)
    g = Game.new(adventure=adventure, heroes=4, seed=1, max_turns=25)
    n, inf, checked = g.tables.n_squares, 10**9, 0
    while not g.over:
        if rng.random() < 0.08:
            cost = [rng.choice((1, 1, 1, 1, 2, 5, inf)) for _ in range(n)]
            targets = rng.sample(range(n), rng.randint(1, 5))
            passable = g.state.door_open & ~g.state.door_hidden
            for doors in (passable, ~g.state.door_hidden):
                assert core.costs(g.tables, doors, cost, targets, inf) == _cost_oracle(
                    g, targets, cost, doors
                )
            checked += 1
        g.apply(rng.choice(g.legal_actions()))
    assert checked > 5
    with pytest.raises(ValueError, match="at least 1"):
        core.costs(g.tables, g.state.door_open, [0] * n, [0], inf)


def test_a_missing_core_is_a_clear_import_error_that_says_how_to_build_it(monkeypatch):
    """No silent fallback to Python: importing the engine's core module without the extension fails
    and says what to run."""
    import importlib
    import sys

    import dungeon_env.engine.core as engine_core

    monkeypatch.setitem(sys.modules, "dungeon_env._core", None)  # as if it were never built
    with pytest.raises(ImportError, match=r"not built in this environment.*pip install -e \."):
        importlib.reload(engine_core)
    monkeypatch.undo()
    importlib.reload(engine_core)  # the real one again, for the other tests
    assert engine_core._core.UNREACHABLE == UNREACHABLE
