"""The Movement choices of monsters and heroes in the compiled core against their Python reference:
the duty to attack (R-MON-03, ruling A-53 as revised), steps, Open Doors attempts (A-29), Jumps
(R-JUMP-02, A-42), Drags (R-DEATH-04), bought squares, ending and deferring.

``movement.legal_monster_move`` and ``movement.legal_hero_move`` ask the compiled core; their
``..._reference`` versions are the Python they were ported from (with ``pursuit.allowed``). Both must
give the same actions on every Movement that random games over every adventure reach, and the core
must refuse a state it cannot read with a clear error.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from dungeon_env import _core
from dungeon_env.content import adventure_names
from dungeon_env.engine import Decision, Game, core, movement
from dungeon_env.engine.actions import DEFER, END, EXTRA_MOVE, JUMP_ACTIONS, MOVE_ACTIONS
from dungeon_env.engine.state import ACTIVE

GAMES_PER_ADVENTURE = 12


def test_the_core_knows_the_engines_active_status():
    assert _core.ACTIVE == ACTIVE


@pytest.mark.parametrize("adventure", adventure_names())
def test_r_mon_03_core_monster_movement_matches_the_reference(adventure):
    rng = random.Random(adventure)
    compared = held = no_end = bought = deferred = 0
    for seed in range(GAMES_PER_ADVENTURE):
        g = Game.new(adventure=adventure, heroes=3 + seed % 3, seed=seed, max_turns=30)
        while not g.over:
            kind, unit = g.decision
            if kind == Decision.MONSTER_MOVE:
                compiled = movement.legal_monster_move(g, unit)
                reference = movement.legal_monster_move_reference(g, unit)
                assert compiled == reference, (adventure, seed, g.state.turn, unit)
                compared += 1
                steps = sum(a in MOVE_ACTIONS for a in compiled)
                free_steps = sum(
                    nxt >= 0 and (door < 0 or g.state.door_open[door]) and movement.free(g, nxt)
                    for nxt, door in g.tables.sides[int(g.state.unit_pos[unit])]
                )
                held += g.state.move_left[unit] >= 1 and steps < free_steps
                no_end += END not in compiled
                bought += EXTRA_MOVE in compiled
                deferred += DEFER in compiled
            g.apply(rng.choice(g.legal_actions()))
    # the comparison reached the duties, not only the free moves of monsters far from any hero
    assert compared > 100 and held > 10 and no_end > 10 and bought > 10 and deferred > 10, (
        compared,
        held,
        no_end,
        bought,
        deferred,
    )


def test_r_move_core_hero_movement_matches_the_reference():
    """Over every adventure together (Jumps are rare on some boards). Drags need a hero's corpse
    beside a living hero, which random play seldom makes: the R-DEATH-04 tests of
    tests/test_rules_end_death.py build those positions and run through the compiled version."""
    compared = doors = jumps = bought = 0
    for adventure in adventure_names():
        rng = random.Random(adventure)
        for seed in range(GAMES_PER_ADVENTURE // 2):
            g = Game.new(adventure=adventure, heroes=3 + seed % 3, seed=seed, max_turns=30)
            while not g.over:
                kind, unit = g.decision
                if kind == Decision.HERO_MOVE:
                    compiled = movement.legal_hero_move(g, unit)
                    assert compiled == movement.legal_hero_move_reference(g, unit), (adventure, seed, unit)
                    compared += 1
                    here = int(g.state.unit_pos[unit])
                    doors += any(
                        door >= 0 and not g.state.door_open[door] and MOVE_ACTIONS[d] in compiled
                        for d, (_, door) in enumerate(g.tables.sides[here])
                    )
                    jumps += any(a in JUMP_ACTIONS for a in compiled)
                    bought += EXTRA_MOVE in compiled
                g.apply(rng.choice(g.legal_actions()))
    assert compared > 1000 and doors > 20 and jumps > 20 and bought > 100, (compared, doors, jumps, bought)


def test_core_board_rejects_tables_of_the_wrong_shape():
    n = 10
    sides = np.full((n, 4), -1, np.int32)
    ok = np.ones(n, bool)
    with pytest.raises(ValueError, match="one row per square"):
        _core.Board(sides, sides, ok[:-1], ok, np.zeros(0, np.int32))
    with pytest.raises(ValueError, match="trap square is off the board"):
        _core.Board(sides, sides, ok, ok, np.array([n], np.int32))


def test_core_monster_movement_refuses_a_state_it_cannot_read():
    g = Game.new(adventure=adventure_names()[0], heroes=3, seed=0)
    board, ids = core.board(g.tables), movement.MOVE_IDS
    m = g.state.n_heroes  # a free slot
    g.state.unit_pos[m] = g.tables.n_squares  # a square past the board's last
    with pytest.raises(ValueError, match="not on the board"):
        _core.monster_move_actions(board, g.state, m, 2, ids)
    g.state.unit_pos[m] = -1
    with pytest.raises(ValueError, match="no such unit slot"):
        _core.monster_move_actions(board, g.state, 10_000, 2, ids)
    g.state.occupant = g.state.occupant.astype(np.int32)  # another dtype than the engine's
    with pytest.raises(ValueError, match=r"state\.occupant is not .* the engine's dtype"):
        _core.monster_move_actions(board, g.state, 0, 2, ids)
    g.state.occupant = g.state.occupant.astype(np.int16)[:-1]
    with pytest.raises(ValueError, match=r"state\.occupant is too short"):
        _core.monster_move_actions(board, g.state, 0, 2, ids)


def test_a_monster_off_the_board_has_no_step_and_no_duty():
    """A heroes' determinisation taken while the DM moves a monster they cannot see may hold that
    monster's Movement with the monster gone from the sampled world (tests/test_determinise.py): it
    gets no step and no duty, and nothing on the board changes. (The Python version read square -1,
    the board's last, and wrote the monster's slot onto it.)"""
    g = Game.new(adventure=adventure_names()[0], heroes=3, seed=0)
    s = g.state
    m = s.n_heroes
    s.unit_pos[m], s.move_left[m], s.stamina[m], s.queue = -1, 4, 0, []
    occupant = s.occupant.copy()
    board = core.board(g.tables)
    assert _core.monster_move_actions(board, s, m, 2, movement.MOVE_IDS) == [END]
    s.queue, s.stamina[m] = [m + 1], 3  # another monster still to move, and Stamina to buy with
    assert _core.monster_move_actions(board, s, m, 2, movement.MOVE_IDS) == [EXTRA_MOVE, END, DEFER]
    assert np.array_equal(s.occupant, occupant)
