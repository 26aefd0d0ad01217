"""The core's board look-ups (src/core/rules/board.cpp) and unit queries (units.cpp) against the
Python engine's (engine/board.py, engine/units.py) on every square, unit and trap of positions that
random games over all five adventures reach."""

from __future__ import annotations

import random

from dungeon_env import _core
from dungeon_env.content.model import TRAITS
from dungeon_env.engine import board, units
from dungeon_env.engine.state import MAX_UNITS
from tests.core_shadow import engine, positions

B, U = _core.rules.board, _core.rules.units


def _with_traps_sprung(games):
    """Each position, then a copy with its traps' and doors' flags drawn at random (sprung hazards)."""
    rng = random.Random(3)
    for game in games:
        yield game
        twin = game.copy()
        s = twin.state
        s.trap_armed[:] = [rng.random() < 0.5 for _ in s.trap_armed]
        s.trap_detected[:] = [rng.random() < 0.5 for _ in s.trap_detected]
        s.door_open[:] = [rng.random() < 0.5 for _ in s.door_open]
        yield twin


def test_board_lookups_match_python_on_every_square():
    seen = {"positions": 0, "hazard": 0, "jumpable": 0, "corpse": 0, "closed_side": 0, "beside": 0}
    for game in _with_traps_sprung(positions(range(10), every=150)):
        e = engine(game)
        t = game.tables
        assert B.trap_squares(e) == board.trap_squares(game)
        for sq in range(t.n_squares):
            for d in range(4):
                got = B.open_side(e, sq, d)
                assert got == board.open_side(game, sq, d), (sq, d)
                seen["closed_side"] += got < 0 <= t.sides[sq][d][0]
            assert B.open_neighbours(e, sq) == board.open_neighbours(game, sq)
            for q in {q for q, _ in t.sides[sq] if q >= 0} | {sq}:
                assert B.next_to(e, sq, q) == board.next_to(game, sq, q), (sq, q)
            assert B.free(e, sq) == board.free(game, sq), sq
            assert B.is_corpse(e, sq) == board.is_corpse(game, sq), sq
            assert B.trap_at(e, sq) == board.trap_at(game, sq)
            assert B.blocks(e, sq) == board.blocks(game, sq), sq
            jumpable = board.is_jumpable(game, sq)
            assert B.is_jumpable(e, sq) == jumpable, sq
            seen["jumpable"] += jumpable
            seen["corpse"] += board.is_corpse(game, sq)
        for area in range(t.n_areas):
            assert B.traps_in_area(e, area) == board.traps_in_area(game, area)
        for i in range(len(t.adventure.traps)):
            hazard = board.is_hazard(game, i)
            assert B.is_hazard(e, i) == hazard
            seen["hazard"] += hazard
        for h in units.active_heroes(game):
            beside = board.heroes_beside(game, h)
            assert B.heroes_beside(e, h) == beside
            seen["beside"] += len(beside) > 1
        seen["positions"] += 1
    assert seen["positions"] > 100
    assert all(seen[k] > 0 for k in seen), seen


def test_unit_queries_match_python():
    seen = {"positions": 0, "monsters": 0, "traits": 0, "together": 0, "apart": 0}
    for game in positions(range(10), every=60):
        e = engine(game)
        s = game.state
        for u in range(MAX_UNITS):
            if s.unit_status[u] == 0:
                continue
            assert U.label(e, u) == units.label(game, u)
            assert U.traits_of(e, u) == units.traits_of(game, u)
            for trait in TRAITS:
                assert U.has_trait(e, u, trait) == units.has_trait(game, u, trait)
            assert U.unit_info(e, u) == units.unit_info(game, u)
            seen["traits"] += bool(units.traits_of(game, u))
            for v in range(MAX_UNITS):
                if s.unit_status[v] != 0:
                    both = units.together(game, u, v)
                    assert U.together(e, u, v) == both, (u, v)
                    seen["together" if both else "apart"] += 1
        assert U.free_slot(e) == units.free_slot(game)
        assert U.active_heroes(e) == units.active_heroes(game)
        assert U.active_monsters(e) == units.active_monsters(game)
        assert U.any_monster(e) == units.any_monster(game)
        seen["monsters"] += len(units.active_monsters(game)) > 1
        seen["positions"] += 1
    assert seen["positions"] > 100
    assert all(seen[k] > 0 for k in seen), seen
