"""The engine in the core (docs/CORE.md): what it takes from Python and gives back is exact.

The core's engine starts from a Python game's state and dice; these tests check that every field
crosses to the core and back unchanged on positions random games reach, that the dice cross
whole (forced faces included), and that bad input is refused with an error naming the field.
"""

from __future__ import annotations

import dataclasses
import random
import re

import numpy as np
import pytest

from dungeon_env import core_parity
from dungeon_env.content import adventure_names
from dungeon_env.engine import Game, core
from dungeon_env.engine.state import State


def _positions(n_games: int = 10, every: int = 37):
    for k in range(n_games):
        adventure = adventure_names()[k % len(adventure_names())]
        game = Game.new(adventure=adventure, heroes=3 + k % 3, seed=k, max_turns=30, engine="python")
        rng = random.Random(k)
        step = 0
        while not game.over:
            if step % every == 0:
                yield game
            game.apply(rng.choice(game.legal_actions()))
            step += 1
        yield game


def test_every_state_field_crosses_to_the_core_and_back():
    seen = 0
    for game in _positions():
        back = core.engine(game).state()
        assert set(back) == {f.name for f in dataclasses.fields(State)}
        assert core_parity.state_differences(game.state, back) == []
        assert State(**back).equals(game.state)
        seen += 1
    assert seen > 50


def test_lists_and_masks_cross_whole():
    game = Game.new(heroes=4, seed=3, engine="python")
    s = game.state
    s.stack = [[0, 1, 2, 3], [4, 5, -1, -1]]
    s.effects = [[1, 2, 3, 4, 5, 6]]
    s.cast, s.mental, s.act_todo = [0, 1, 2, 3, 4, 5], [1, 2, 3, 0], [2, 0]
    s.closed_bits, s.explored_bits = (1 << 63) | 5, (1 << 40) | 1
    s.downed_by[2] = ["m3", "trap:pit"]
    s.outcome, s.end_reason = "failed", "every hero is dead"
    assert core_parity.state_differences(s, core.engine(game).state()) == []


def test_the_dice_cross_whole_with_their_forced_faces():
    game = Game.new(heroes=3, seed=11, forced_dice=(6, 1, 2), engine="python")
    game.dice.force(3, 4, stream="combat")
    game.dice.d6("doors")
    assert core.engine(game).dice() == game.dice.to_json()


def test_an_engine_copy_is_a_separate_game():
    game = Game.new(heroes=3, seed=5, engine="python")
    engine = core.engine(game)
    twin = type(engine)(engine)
    twin.set_state(dataclasses.replace(game.state, turn=7))
    assert engine.state()["turn"] == game.state.turn and twin.state()["turn"] == 7


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("health", np.zeros(3, np.int16), "state field health: expected 64 entries, found 3"),
        ("closed_bits", -1, "state field closed_bits: expected a 64-bit mask"),
        ("downed_by", [[]], "state field downed_by: expected one list per hero slot"),
    ],
)
def test_a_state_the_core_cannot_hold_is_refused_by_name(field, value, expected):
    game = Game.new(heroes=3, seed=1, engine="python")
    setattr(game.state, field, value)
    with pytest.raises(ValueError, match=expected):
        core.engine(game)


@pytest.mark.parametrize(
    ("field", "size", "expected"),
    [
        (
            "door_open",
            2,
            "state field door_open: 2 entries, but the content (adventure goblin_warrens) needs",
        ),
        ("trap_armed", 0, "state field trap_armed: 0 entries, but the content"),
        ("guard_uid", 9, "state field guard_uid: 9 entries, but the content"),
        ("event_done", 1, "state field event_done: 1 entries, but the content"),
    ],
)
def test_a_state_that_does_not_fit_the_content_is_refused_and_nothing_changes(field, size, expected):
    """The fields sized by the adventure must fit the content the engine plays with (the rules would
    read past them): make_engine, set_state and set_content refuse one that does not, by name, and
    leave the engine as it was."""
    game = Game.new(adventure="goblin_warrens", heroes=3, seed=1, engine="python")
    engine = core.engine(game)
    before = engine.state()
    wrong = dataclasses.replace(game.state)
    setattr(wrong, field, np.zeros(size, getattr(game.state, field).dtype))
    if field == "door_open":  # door_tried's rows follow door_open's length, as load_state requires
        wrong.door_tried = np.zeros((5, size), bool)
    game.state = wrong
    with pytest.raises(ValueError, match=re.escape(expected)):
        core.engine(game)
    with pytest.raises(ValueError, match=re.escape(expected)):
        engine.set_state(wrong)
    with pytest.raises(ValueError, match=re.escape(expected)):
        engine.set_content(core.content(game), wrong)
    other = Game.new(adventure="flooded_cellar", heroes=3, seed=1, engine="python")
    with pytest.raises(ValueError, match=re.escape("but the content (adventure flooded_cellar) needs")):
        engine.set_content(core.content(other))  # goblin_warrens' state, flooded_cellar's content
    after = engine.state()
    assert all(
        np.array_equal(after[k], v) if isinstance(v, np.ndarray) else after[k] == v for k, v in before.items()
    )
    assert engine.legal_actions()  # still plays


def test_views_are_the_engines_own_memory():
    game = Game.new(heroes=4, seed=2, engine="python")
    engine = core.engine(game)
    views = engine.views()
    assert set(views) == {
        f.name for f in dataclasses.fields(State) if isinstance(getattr(game.state, f.name), np.ndarray)
    }
    for name, array in views.items():
        expected = getattr(game.state, name)
        assert array.dtype == expected.dtype and np.array_equal(array, expected), name
    views["health"][1] = 1  # a write through the view is the engine's
    views["door_open"][:] = True
    state = engine.state()
    assert state["health"][1] == 1 and state["door_open"].all()
    edited = dataclasses.replace(game.state, health=game.state.health.copy())
    edited.health[2] = 3  # and the engine's changes show in the view
    engine.set_state(edited)
    assert views["health"][2] == 3
    del engine  # the views keep the engine's memory alive
    assert views["health"][2] == 3
