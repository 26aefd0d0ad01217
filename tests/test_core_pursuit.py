"""The compiled duty to attack (R-MON-03, ruling A-53 as revised) against its Python reference.

``pursuit.allowed`` runs in the compiled core; ``pursuit.allowed_reference`` is the Python version it
was ported from. Both must give the same steps and the same verdict on ending the Movement on every
monster Movement that random games over every adventure reach (duties 1, 2 and 3, doors, traps,
comrades in the way), and the core must reject tables of the wrong shape with a clear error.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from dungeon_env import _core
from dungeon_env.content import adventure_names
from dungeon_env.engine import Decision, Game, core, pursuit
from dungeon_env.engine.actions import MOVE_ACTIONS
from dungeon_env.engine.board import free

GAMES_PER_ADVENTURE = 12


def _candidate_steps(g: Game, m: int) -> list[tuple[int, int]]:
    """The free squares one step away, as ``movement.legal_monster_move`` hands them to the duty."""
    s = g.state
    if s.move_left[m] < 1:
        return []
    steps = []
    for d, (nxt, door) in enumerate(g.tables.sides[int(s.unit_pos[m])]):
        if nxt >= 0 and (door < 0 or s.door_open[door]) and free(g, nxt):
            steps.append((MOVE_ACTIONS[d], nxt))
    return steps


@pytest.mark.parametrize("adventure", adventure_names())
def test_r_mon_03_core_duty_to_attack_matches_the_reference(adventure):
    rng = random.Random(adventure)
    compared = restricted = no_end = 0
    for seed in range(GAMES_PER_ADVENTURE):
        g = Game.new(adventure=adventure, heroes=3 + seed % 3, seed=seed, max_turns=30)
        while not g.over:
            kind, unit = g.decision
            if kind == Decision.MONSTER_MOVE:
                steps = _candidate_steps(g, unit)
                compiled = pursuit.allowed(g, unit, steps)
                reference = pursuit.allowed_reference(g, unit, steps)
                assert compiled == reference, (adventure, seed, g.state.turn, unit, steps)
                compared += 1
                restricted += len(compiled[0]) < len(steps)
                no_end += not compiled[1]
            g.apply(rng.choice(g.legal_actions()))
    # the comparison reached the duties, not only the free moves of monsters far from any hero
    assert compared > 100 and restricted > 10 and no_end > 10, (compared, restricted, no_end)


def test_core_board_rejects_tables_of_the_wrong_shape():
    n = 10
    sides = np.full((n, 4), -1, np.int32)
    ok = np.ones(n, bool)
    with pytest.raises(ValueError, match="one row per square"):
        _core.Board(sides, sides, ok[:-1], ok, np.zeros(0, np.int32))
    with pytest.raises(ValueError, match="trap square is off the board"):
        _core.Board(sides, sides, ok, ok, np.array([n], np.int32))


def test_core_allowed_rejects_a_state_of_another_board():
    g = Game.new(adventure=adventure_names()[0], heroes=3, seed=0)
    s = g.state
    with pytest.raises(ValueError, match="one entry per square"):
        _core.allowed(
            core.board(g.tables), s.door_open, s.occupant[:-1], s.trap_armed, s.trap_detected,
            0, 0, 8, 8, 12, [1], [],
        )  # fmt: skip
