"""``Game`` on the compiled core (docs/CORE.md): the Python API plays through a core engine.

The state's arrays are views of the engine's memory, its scalars and lists copies refreshed at each
move and handed back before the next; hand edits (``state_edited()``), the dice, the log, copies,
saves and pickles behave as on the Python rules. Whole games are checked against the stored golden
logs (tests/test_golden_logs.py) and the Python rules (``engine="python"``) elsewhere; here, what
the crossing between the two sides must keep.
"""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

from dungeon_env.engine import Game, Phase
from dungeon_env.engine.actions import END
from dungeon_env.engine.dice import Dice
from tests.builders import add_monster, arena_game, enter_phase, place


def _pair(seed: int = 3, heroes: int = 4, adventure: str = "goblin_warrens", steps: int = 150):
    """The same random game on the core and on the Python rules, ``steps`` actions in."""
    games = [
        Game.new(adventure=adventure, heroes=heroes, seed=seed, max_turns=40, engine=e)
        for e in ("core", "python")
    ]
    rng = random.Random(seed)
    for _ in range(steps):
        if games[0].over:
            break
        action = rng.choice(games[0].legal_actions())
        for g in games:
            g.apply(action)
    return games


def _same_game(a: Game, b: Game) -> None:
    assert a.state.equals(b.state)
    assert a.dice.to_json() == b.dice.to_json()
    assert a.events == b.events
    assert a.legal_actions() == b.legal_actions() and a.decision == b.decision and a.agent == b.agent


def test_a_new_game_plays_on_the_core_and_python_on_request():
    assert Game.new(heroes=3).engine == "core"
    assert Game.new(heroes=3, engine="python").engine == "python"
    with pytest.raises(ValueError, match="engine must be 'core' or 'python', got 'rust'"):
        Game.new(heroes=3, engine="rust")


def test_the_core_and_the_python_rules_play_the_same_game():
    core_game, python_game = _pair(steps=400)
    _same_game(core_game, python_game)


def test_the_state_is_the_engines_arrays_and_a_copy_of_its_scalars():
    game, _ = _pair(steps=50)
    s = game.state
    before = s.turn
    while game.state.turn == before and not game.over:
        game.apply(game.legal_actions()[0])
    assert s is game.state and s.turn == before + 1, "the same State object, brought up to date"
    assert game._engine.state()["turn"] == s.turn


def test_a_hand_built_position_plays_as_on_the_python_rules():
    """Figures placed by hand (``tests/builders``: the rules' own placing functions and
    ``state_edited()``), a phase entered directly and forced dice: the same game on both engines."""
    games = []
    for engine in ("core", "python"):
        g = arena_game(seed=2)
        g.use_engine(engine)
        orc = add_monster(g, "orc", 3, 3)
        place(g, 0, 3, 4)  # hero_0 beside the orc
        enter_phase(g, Phase.FIGHTING)
        g.dice.force(6, 6, 1, 1)
        for _ in range(80):
            if g.over:
                break
            g.apply(END if END in g.legal_actions() else g.legal_actions()[0])
        games.append(g)
    _same_game(*games)
    orc_label = games[0].label(orc)
    assert any(orc_label in str(e) for e in games[0].events if e["type"] != "spawn"), "the orc took part"


def test_an_array_put_in_place_of_a_view_is_adopted_and_a_wrong_one_refused():
    game = Game.new(heroes=3, seed=4)
    health = game.state.health.copy()
    health[1] = 1
    game.state.health = health  # a new array, not the engine's
    game.state_edited()
    assert game._engine.state()["health"][1] == 1
    game.state.health[2] = 2  # the view is put back: later writes reach the engine
    assert game._engine.state()["health"][2] == 2
    game.state.health = np.zeros(3, np.int16)
    with pytest.raises(ValueError, match="state field health: expected 64 entries, found 3"):
        game.state_edited()


def test_a_scalar_of_the_wrong_kind_is_refused_by_name():
    game = Game.new(heroes=3, seed=4)
    game.state.light = "dim"
    with pytest.raises(ValueError, match="state field light: expected an int, found 'dim'"):
        game.apply(game.legal_actions()[0])


def test_the_dice_are_the_engines():
    game = Game.new(heroes=3, seed=9)
    twin = Game.new(heroes=3, seed=9, engine="python")
    for g in (game, twin):
        g.dice.force(5, stream="combat")
        g.dice.force(2)
    assert game.dice.to_json() == twin.dice.to_json() and game.dice.forced_left == 2
    assert game.dice.forced_for("combat") == [5] and game.dice.forced_for() == [2]
    assert [game.dice.d6("combat"), game.dice.d6("doors"), game.dice.d6("doors")] == [
        twin.dice.d6("combat"),
        twin.dice.d6("doors"),
        twin.dice.d6("doors"),
    ]
    assert game.dice._state == twin.dice._state
    game.dice._state["secret"] ^= 12345
    assert game.dice._state["secret"] == twin.dice._state["secret"] ^ 12345
    with game.dice.unforced():
        game.dice.force(4)
        assert game.dice.forced_left == 1
    game.dice.force(1)
    assert game.dice.forced_for() == [4, 1], "faces forced inside the block wait after the others"
    with pytest.raises(ValueError, match="unknown dice stream 'dragons'"):
        game.dice.force(3, stream="dragons")
    with pytest.raises(ValueError, match="a forced die face must be an int 1..6"):
        game.dice.force(7)
    game.dice = Dice(1)
    assert game.dice.to_json() == Dice(1).to_json() and game.engine == "core"


def test_copies_pickles_and_saves_play_on_apart():
    game, reference = _pair(steps=120)
    for clone in (
        game.copy(),
        copy.deepcopy(game),
        pickle.loads(pickle.dumps(game)),
        Game.from_json(game.to_json()),
    ):
        assert clone.engine == "core"
        _same_game(clone, reference)
        clone.apply(clone.legal_actions()[-1])
        clone.state.health[0] = 99  # its own arrays
        _same_game(game, reference)
    plain = Game.from_json(game.to_json(), engine="python")
    assert plain.engine == "python"
    _same_game(plain, reference)


def test_a_game_moves_between_the_engines_mid_play():
    game, reference = _pair(steps=80)
    rng = random.Random(1)
    for k in range(120):
        if game.over:
            break
        if k % 40 == 0:
            game.use_engine("python" if game.engine == "core" else "core")
        action = rng.choice(game.legal_actions())
        game.apply(action)
        reference.apply(action)
    _same_game(game, reference)


def test_a_check_rolled_from_python_on_a_core_game_uses_its_dice_and_log():
    game = Game.new(heroes=3, seed=5)
    game.dice.force(4)
    total = game.check("test", "hero_0", "misc", {"bonus": 1}, lambda t: "pass" if t >= 5 else "fail")
    assert total == 5 and game.dice.forced_left == 0
    assert game.events[-1]["type"] == "roll" and game.events[-1]["result"] == "pass"
    assert game._engine.events(game.n_events - 1) == [game.events[-1]], "logged in the engine"


def test_a_copy_makes_the_views_of_its_arrays_only_when_they_are_read():
    """A search plays copies it never reads the arrays of: they cost the engine's copy alone."""
    game, reference = _pair(steps=60)
    clone = game.copy()
    clone.apply(clone.legal_actions()[0])
    clone.state_edited()
    assert "health" not in vars(clone.state) and "occupant" not in vars(clone.state)
    reference.apply(reference.legal_actions()[0])
    assert np.array_equal(clone.state.health, reference.state.health) and "health" in vars(clone.state)
    assert clone.state.equals(reference.state)
