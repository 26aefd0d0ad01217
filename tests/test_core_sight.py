"""The line of sight computed in the core (``_core.sight_lines``, ``src/core/sight.cpp``) against its
Python reference (``engine.tables._trace_sight_lines``): every bundled adventure's edge grids (as the
tables build them, and with every blockage given a door bit as the heroes' views do), random grids
(walls, doors and corners of every kind), and bad input refused by name."""

from __future__ import annotations

import numpy as np
import pytest

from dungeon_env import _core
from dungeon_env.content import adventure_names
from dungeon_env.content.model import HEIGHT, WIDTH
from dungeon_env.engine import tables
from dungeon_env.engine.sideview import _los_param, _los_rows


def same_lines(grids) -> None:
    static, doors = _core.sight_lines(*grids)
    ref_static, ref_doors = tables._trace_sight_lines(*grids)
    assert static.dtype == ref_static.dtype and doors.dtype == ref_doors.dtype
    assert np.array_equal(static, ref_static)
    assert np.array_equal(doors, ref_doors)


@pytest.mark.parametrize("adventure", adventure_names())
def test_the_adventures_sight_lines_are_the_reference(adventure):
    t = tables.tables_for(adventure)
    same_lines(tables._edge_grids(t.wall, t.edge_door, t.blockage))
    static, doors = tables.sight_lines(*tables._edge_grids(t.wall, t.edge_door, t.blockage))
    assert np.array_equal(static, t.los_static) and np.array_equal(doors, t.los_doors)
    param = _los_param(t)  # the views' table: blockages as doors of their own
    assert param is not None and param[1].any()


def test_random_grids_sight_lines_are_the_reference():
    rng = np.random.default_rng(7)
    for density in (0.05, 0.2, 0.5):
        v = rng.choice(3, size=(HEIGHT, WIDTH + 1), p=[1 - density, density * 0.6, density * 0.4]).astype(
            np.int8
        )
        h = rng.choice(3, size=(HEIGHT + 1, WIDTH), p=[1 - density, density * 0.6, density * 0.4]).astype(
            np.int8
        )
        vbit = np.where(v == 2, np.uint64(1) << rng.integers(0, 64, v.shape).astype(np.uint64), 0).astype(
            np.uint64
        )
        hbit = np.where(h == 2, np.uint64(1) << rng.integers(0, 64, h.shape).astype(np.uint64), 0).astype(
            np.uint64
        )
        same_lines((v, h, vbit, hbit))


def test_bad_grids_are_refused():
    v = np.zeros((HEIGHT, WIDTH + 1), np.int8)
    h = np.zeros((HEIGHT + 1, WIDTH), np.int8)
    with pytest.raises(ValueError, match="sight_lines: expected"):
        _core.sight_lines(v[:-1], h, np.zeros(v.shape, np.uint64), np.zeros(h.shape, np.uint64))


def test_the_views_sight_tables_are_the_reference():
    """A heroes' view's whole line of sight made in the core (``_core.view_sight``) is the numpy
    reference's (``sideview._los_rows(..., compiled=False)``), for views with some doors and blockages
    known, on every adventure."""
    rng = np.random.default_rng(3)
    for adventure in adventure_names():
        t = tables.tables_for(adventure)
        blocks = np.flatnonzero(t.blockage)
        for _ in range(3):
            doors = sorted(rng.choice(t.n_doors, size=rng.integers(0, t.n_doors + 1), replace=False).tolist())
            blockage = np.zeros_like(t.blockage)
            if blocks.size:
                blockage[rng.choice(blocks, size=rng.integers(0, blocks.size + 1), replace=False)] = True
            args = (t, doors, blockage, t.wall, t.edge_door)
            static, view_doors = _los_rows(*args)(slice(None))
            ref_static, ref_doors = _los_rows(*args, compiled=False)(slice(None))
            assert np.array_equal(static, ref_static) and np.array_equal(view_doors, ref_doors), adventure
            assert np.array_equal(_los_rows(*args)(5)[1], ref_doors[5])  # (a row is the numpy reference's)
