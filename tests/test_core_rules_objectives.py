"""The core's adventure goals and ending (src/core/rules/objectives.cpp) against
engine/objectives.py, on positions random games over all five adventures reach and on variations of
them (heroes gone out, dead or carried out with the items, guards slain, areas explored) that meet
each kind of objective and end the adventure every way."""

from __future__ import annotations

import random

import numpy as np

from dungeon_env import _core
from dungeon_env.engine import objectives
from dungeon_env.engine.state import CORPSE, CORPSE_OUT, EXITED
from tests.core_shadow import engine, positions

OBJ = _core.rules.objectives


def _variations(game, rng: random.Random):
    """The position itself and versions of it where the heroes are no longer on the board."""
    yield game
    for k in range(3):
        twin = game.copy()
        s = twin.state
        for h in range(s.n_heroes):  # the first version: every hero dead
            s.unit_status[h] = CORPSE if k == 0 else rng.choice([EXITED, CORPSE, CORPSE_OUT, EXITED])
        for i in range(len(s.item_card)):
            if s.item_card[i] >= 0 and rng.random() < 0.5:
                s.item_holder[i] = rng.randrange(s.n_heroes)
                s.item_claimed[i] = True
        for o in twin.tables.adventure.objectives:  # the objectives' items held by some hero
            slot = int(np.flatnonzero(s.item_card < 0)[0])
            if o.item is not None and rng.random() < 0.7:
                s.item_card[slot], s.item_holder[slot] = twin.item_index[o.item], rng.randrange(s.n_heroes)
                s.item_claimed[slot] = True
        s.guard_slain[:] = [rng.random() < 0.7 for _ in s.guard_slain]
        s.explored_bits = rng.getrandbits(40)
        yield twin


def test_objectives_and_ending_match_python():
    rng = random.Random(5)
    met, kinds, endings = 0, set(), set()
    for game in positions(range(10), every=200, max_turns=40):
        for g in _variations(game, rng):
            e = engine(g)
            for i, o in enumerate(g.tables.adventure.objectives):
                got = OBJ.objective_met(e, i)
                assert got == objectives.objective_met(g, i), (o.kind, i)
                met += got
                kinds.add((o.kind, got))
            assert OBJ.objectives_report(e) == objectives.objectives_report(g)
            assert OBJ.goals_met(e) == objectives.goals_met(g)
            want = objectives.ending(g)
            assert OBJ.ending(e) == (None if want is None else tuple(want))
            endings.add(None if want is None else want[1].split(";")[0])
    assert {k for k, was_met in kinds if was_met} == {"escape", "slay", "retrieve", "claim", "rescue"}, kinds
    assert {k for k, was_met in kinds if not was_met} == {"escape", "slay", "retrieve", "claim", "rescue"}, (
        kinds
    )
    assert len(endings) == 5, endings  # on the board; completed (met, not met, final); failed
    assert met > 50
