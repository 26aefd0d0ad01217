"""``Game`` on the compiled core (docs/CORE.md): the Python API plays through a core engine.

The state reads the engine's memory: its arrays are views of it, its scalars and lists are read
from it on demand, and what Python may have changed (a field assigned, a list read) is handed back
before the engine's next move, so that a game played without reading its state copies nothing.
Hand edits (``state_edited()``), the dice, the log, copies, saves and pickles behave as on the
Python rules. Whole games are checked against the stored golden
logs (tests/test_golden_logs.py) and the Python rules (``engine="python"``) elsewhere; here, what
the crossing between the two sides must keep.
"""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

from dungeon_env.engine import Game, Phase, effects
from dungeon_env.engine.actions import END
from dungeon_env.engine.dice import Dice
from dungeon_env.engine.game import IllegalActionError
from dungeon_env.engine.state import State
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


def test_the_state_reads_the_engines_arrays_scalars_and_lists():
    game, _ = _pair(steps=50)
    s = game.state
    before = s.turn
    while game.state.turn == before and not game.over:
        game.apply(game.legal_actions()[0])
    assert s is game.state and s.turn == before + 1, "the same State object, brought up to date"
    assert game._engine.state()["turn"] == s.turn


def test_reads_after_a_move_are_fresh():
    game, reference = _pair(steps=40)
    s = game.state
    for _ in range(60):
        if game.over:
            break
        stack, effects, turn = s.stack, s.effects, s.turn
        assert (stack, effects, turn) == (
            reference.state.stack,
            reference.state.effects,
            reference.state.turn,
        )
        action = random.Random(len(game.events)).choice(game.legal_actions())
        for g in (game, reference):
            g.apply(action)
        assert s.stack is not stack, "a list read before a move is not the one read after it"
        engine = game._engine.state()
        for name in ("turn", "phase", "stack", "queue", "fights", "effects", "downed_by", "closed_bits"):
            assert getattr(s, name) == engine[name] == getattr(reference.state, name), name


def test_a_game_played_without_reading_its_state_copies_nothing():
    """``over``, ``legal_actions()``, ``apply()``, ``decision`` and ``agent`` read the engine: no
    scalar or list crosses to Python, and nothing is handed back."""
    game, reference = _pair(steps=0)
    rng = random.Random(5)
    for _ in range(200):
        if game.over:
            break
        assert (game.decision, game.agent) == (reference.decision, reference.agent)
        action = rng.choice(game.legal_actions())
        game.apply(action)
        reference.apply(action)
        assert set(vars(game.state)) == {"_engine", "_held", "_dirty"}
    assert game.over == reference.over and game.decision == reference.decision


def test_a_scalar_edited_by_hand_reaches_the_engine():
    game = Game.new(heroes=3, seed=4)
    game.state.light = 3
    assert game._engine.get("light") != 3, "not yet: handed back before the engine's next move"
    game.state_edited()
    assert game._engine.get("light") == 3 and game.state.light == 3
    twin = Game.new(heroes=3, seed=4, engine="python")
    twin.state.light = 3
    twin.state_edited()
    for _ in range(30):
        action = game.legal_actions()[0]
        game.apply(action)
        twin.apply(action)
    _same_game(game, twin)


def test_an_outcome_edited_by_hand_ends_the_game_at_once():
    game = Game.new(heroes=3, seed=4)
    game.legal_actions()
    game.state.outcome = "failed"
    assert game.over and game.decision is None and game.agent is None and game.legal_actions() == []
    with pytest.raises(IllegalActionError, match=r"the game is over \(failed\)"):
        game.apply(END)
    assert game._engine.over and game._engine.outcome == "failed", "handed back before the move"


@pytest.mark.parametrize("how", ["state_edited", "next move", "after the legal actions"])
def test_a_list_changed_in_place_reaches_the_engine(how):
    """A lasting effect appended to ``state.effects`` (as the rules' tests do), with or without
    ``state_edited()``, and to a list read before the legal actions were asked: the core plays it
    as the Python rules do."""
    games = _pair(seed=6, steps=30)
    for g in games:
        s = g.state
        effects_list, downed = s.effects, s.downed_by
        if how == "after the legal actions":
            g.legal_actions()
        effects_list.append([0, effects.SLEEP, 2, 2, g.spell_index["sleep"], int(s.unit_uid[0])])
        downed[1].append("m1")
        if how != "next move":
            g.state_edited()
    core_game, python_game = games
    rng = random.Random(6)
    for k in range(80):
        if core_game.over:
            break
        action = rng.choice(core_game.legal_actions())
        if k == 0:  # handed back by now (before the legal actions were computed)
            assert core_game._engine.get("effects") == python_game.state.effects
            assert core_game._engine.get("downed_by") == python_game.state.downed_by
        for g in games:
            g.apply(action)
    _same_game(core_game, python_game)


def test_copies_are_independent_of_each_others_edits():
    game, reference = _pair(steps=70)
    assert game.state.turn == reference.state.turn  # held before the copy: the copy reads its own engine
    clone = game.copy()
    clone.state.turn = 33
    clone.state.stack[-1][2] = 99
    clone.state.effects.append([0, effects.SLEEP, 1, 1, 0, int(clone.state.unit_uid[0])])
    clone.state_edited()
    assert clone._engine.get("turn") == 33 and clone.state.stack[-1][2] == 99
    assert game.state.turn == reference.state.turn and game._engine.get("turn") == reference.state.turn
    _same_game(game, reference)
    unpushed = game.state
    unpushed.turn = 21
    for other in (
        unpushed.copy(),
        copy.deepcopy(unpushed),
        pickle.loads(pickle.dumps(unpushed)),
        game.copy().state,  # (which hands the edit to the game's engine first)
    ):
        assert other.turn == 21, "a copy takes Python's edits not handed back yet"
    assert type(unpushed.copy()) is State and unpushed.copy().equals(game.copy().state)


def test_the_engine_names_a_field_it_does_not_hold():
    game = Game.new(heroes=3, seed=4)
    assert game._engine.get("stack") == game.state.stack
    with pytest.raises(ValueError, match="no scalar or list field named 'health'"):
        game._engine.get("health")


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
