"""Copies, saves and loads, determinism across processes, and clear errors for bad input.

- ``Game.copy()`` and ``copy.deepcopy`` (of a game or an env) are independent of the original, both
  go on identically with the same actions, and share only the never-changing tables; a pickled game
  leaves a bundled adventure's tables behind and plays on identically;
- ``to_json``/``from_json`` and ``save``/``load`` round-trip exactly at many points of random games,
  and a loaded game continues with the identical events;
- the same seed in two separate processes (different hash seeds) gives the identical event log;
- corrupt saves, illegal actions and bad ``Game.new`` options fail with clear messages.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dungeon_env.content import adventure_names
from dungeon_env.engine import N_ACTIONS, Game, IllegalActionError
from dungeon_env.engine.actions import ACTION_NAMES, END, JUMP_ACTIONS
from dungeon_env.engine.game import SAVE_FORMAT

ROOT = Path(__file__).resolve().parent.parent
ADVENTURES = adventure_names()
COPIES = {"copy": Game.copy, "deepcopy": copy.deepcopy}


def _random_game(seed: int, adventure: str | None = None, heroes: int = 4, max_turns: int = 12) -> Game:
    adventure = adventure or ADVENTURES[seed % len(ADVENTURES)]
    return Game.new(adventure=adventure, heroes=heroes, seed=seed, max_turns=max_turns)


def _play(g: Game, rng: random.Random, n: int | None = None) -> list[int]:
    """Apply ``n`` random legal actions (or play to the end); returns the actions."""
    actions = []
    while not g.over and (n is None or len(actions) < n):
        legal = g.legal_actions()
        a = legal[rng.randrange(len(legal))]
        g.apply(a)
        actions.append(a)
    return actions


def _same(a: Game, b: Game) -> None:
    assert a.state.equals(b.state)
    assert a.events == b.events
    assert a.dice.to_json() == b.dice.to_json()
    assert a.decision == b.decision and a.agent == b.agent
    assert a.legal_actions() == b.legal_actions()
    assert a.outcome == b.outcome


# ------------------------------------------------------------------------------------------ copy


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_copy_is_independent(seed, how):
    g = _random_game(seed)
    _play(g, random.Random(seed), 150)
    assert not g.over
    before = g.to_json()
    clone = COPIES[how](g)
    _same(g, clone)
    # changing the copy, by play and by hand, leaves the original untouched
    _play(clone, random.Random(99), 200)
    clone.state.health[0] = 0
    clone.state.stack.append([0, 0, -1, -1])
    clone.state.fights.append([5, 0, 0, 0, -1])
    clone.state.door_tried[:] = True
    clone.dice.force(6, 6)
    clone.events.append({"type": "scribble"})
    assert g.to_json() == before


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("seed", [4, 5, 6])
def test_copy_and_original_continue_identically(seed, how):
    g = _random_game(seed)
    _play(g, random.Random(seed), 120)
    clone = COPIES[how](g)
    rng = random.Random(seed + 100)
    while not g.over:
        legal = g.legal_actions()
        assert clone.legal_actions() == legal
        a = legal[rng.randrange(len(legal))]
        g.apply(a)
        clone.apply(a)
    _same(g, clone)


def test_a_deep_copy_of_an_env_shares_the_tables_and_nothing_that_changes():
    """``copy.deepcopy`` of an env (as libraries and the training scripts make of opponents) shares
    the adventure's tables and their cache, however full, as ``Game.copy`` does; all else is its own."""
    import dungeon_env

    env = dungeon_env.env(adventure="goblin_warrens")
    env.reset(seed=3)
    g = env.unwrapped.game
    g.tables.cache["test.filled"] = list(range(100_000))  # a cache grown by earlier games
    twin = copy.deepcopy(env)
    t = twin.unwrapped.game
    assert t.tables is g.tables and t.vis_cache is g.vis_cache is g.tables.cache
    assert t.state is not g.state and t.dice is not g.dice and t.state.equals(g.state)
    before = g.to_json()
    while not t.over and len(t.events) < len(g.events) + 40:
        t.apply(t.legal_actions()[-1])
    assert g.to_json() == before
    del g.tables.cache["test.filled"]


@pytest.mark.parametrize("seed", [8, 9])
def test_a_pickled_game_leaves_the_bundled_tables_behind_and_plays_on_identically(seed):
    g = _random_game(seed)
    _play(g, random.Random(seed), 150)
    data = pickle.dumps(g)
    assert len(data) < 200_000  # the tables alone are some 4 MB
    back = pickle.loads(data)
    assert back.tables is g.tables and back.vis_cache is g.tables.cache
    _same(g, back)
    rng = random.Random(seed + 100)
    while not g.over:
        a = g.legal_actions()[rng.randrange(len(g.legal_actions()))]
        g.apply(a)
        back.apply(a)
    _same(g, back)


def test_a_pickled_game_of_an_adventure_file_keeps_its_tables(tmp_path):
    """A file may differ in the process that loads the pickle: its tables travel with the game."""
    path = tmp_path / "flooded_cellar.toml"
    path.write_text((ROOT / "dungeon_env" / "content" / "adventures" / "flooded_cellar.toml").read_text())
    g = Game.new(adventure=str(path), heroes=3, seed=2, max_turns=6)
    _play(g, random.Random(2), 60)
    back = pickle.loads(pickle.dumps(g))
    assert back.tables is not g.tables and np.array_equal(back.tables.los_doors, g.tables.los_doors)
    _same(g, back)


def test_copy_in_the_middle_of_a_fight_keeps_the_fight():
    """Copies made at every Fight-Stamina decision of a game continue like the original."""
    g = _random_game(7, adventure="goblin_warrens", heroes=5, max_turns=15)
    rng = random.Random(7)
    checked = 0
    while not g.over and checked < 5:
        if g.state.fights:
            clone = g.copy()
            assert clone.state.fights == g.state.fights and clone.state.fights is not g.state.fights
            assert all(a is not b for a, b in zip(clone.state.fights, g.state.fights, strict=True))
            follow = random.Random(checked)
            for _ in range(30):
                if g.over:
                    break
                legal = g.legal_actions()
                a = legal[follow.randrange(len(legal))]
                g.apply(a)
                clone.apply(a)
            _same(g, clone)
            checked += 1
        else:
            _play(g, rng, 1)
    assert checked >= 1


# ------------------------------------------------------------------------------------------ save / load


@pytest.mark.parametrize("seed", range(6))
def test_json_round_trip_at_many_points(seed):
    g = _random_game(seed, heroes=3 + seed % 3)
    rng = random.Random(seed)
    points = 0
    while not g.over:
        _play(g, rng, rng.randrange(1, 40))
        data = g.to_json()
        text = json.dumps(data)
        loaded = Game.from_json(json.loads(text))
        _same(g, loaded)
        assert json.dumps(loaded.to_json()) == text
        points += 1
    assert points >= 5
    # at the very end too
    loaded = Game.from_json(json.loads(json.dumps(g.to_json())))
    _same(g, loaded)
    assert loaded.over


@pytest.mark.parametrize("seed", [10, 11, 12])
def test_loaded_game_continues_with_identical_events(seed, tmp_path):
    g = _random_game(seed, max_turns=15)
    rng = random.Random(seed)
    _play(g, rng, 100 + seed)
    path = tmp_path / "save.json"
    g.save(path)
    loaded = Game.load(path)
    _same(g, loaded)
    follow = random.Random(seed + 1)
    while not g.over:
        legal = g.legal_actions()
        assert loaded.legal_actions() == legal
        a = legal[follow.randrange(len(legal))]
        g.apply(a)
        loaded.apply(a)
    _same(g, loaded)
    assert loaded.events[-1]["type"] == "end"


def test_save_keeps_forced_dice_and_the_decision(tmp_path):
    g = Game.new(adventure="flooded_cellar", heroes=3, seed=3)
    g.dice.force(6, 5, 4)
    g.save(tmp_path / "g.json")
    loaded = Game.load(tmp_path / "g.json")
    assert loaded.dice.forced_left == 3
    assert loaded.dice.d6("doors") == 6
    assert loaded.decision == g.decision and loaded.agent == "hero_0"


def test_save_file_is_small_plain_json(tmp_path):
    g = _random_game(2)
    _play(g, random.Random(2), 200)
    g.save(tmp_path / "g.json")
    data = json.loads((tmp_path / "g.json").read_text())
    assert data["format"] == SAVE_FORMAT
    assert data["adventure"] == g.adventure_ref and data["seed"] == 2 and data["max_turns"] == 12
    assert data["heroes"] == g.hero_ids


# ------------------------------------------------------------------------------------------ processes

_SCRIPT = """
import json, random, sys
from dungeon_env.engine import Game
adventure, seed = sys.argv[1], int(sys.argv[2])
g = Game.new(adventure=adventure, heroes=5, seed=seed, max_turns=10)
rng = random.Random(seed)
while not g.over:
    legal = g.legal_actions()
    g.apply(legal[rng.randrange(len(legal))])
print(json.dumps(g.events))
"""


def _events_in_process(adventure: str, seed: int, hash_seed: str) -> list[dict]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED=hash_seed)
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT, adventure, str(seed)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    return json.loads(out.stdout)


@pytest.mark.parametrize("adventure", ["goblin_warrens", "warlocks_crypt"])
def test_same_seed_in_two_processes_gives_identical_events(adventure):
    a = _events_in_process(adventure, 21, "1")
    b = _events_in_process(adventure, 21, "12345")
    assert a == b
    assert len(a) > 50 and a[-1]["type"] == "end"
    # and the same as in this process
    g = Game.new(adventure=adventure, heroes=5, seed=21, max_turns=10)
    _play(g, random.Random(21))
    assert json.loads(json.dumps(g.events)) == a
    # a different seed is a different game
    g2 = Game.new(adventure=adventure, heroes=5, seed=22, max_turns=10)
    _play(g2, random.Random(21))
    assert json.loads(json.dumps(g2.events)) != a


# ------------------------------------------------------------------------------------------ corrupt saves


def _save_data() -> dict:
    g = _random_game(1)
    _play(g, random.Random(1), 60)
    return json.loads(json.dumps(g.to_json()))


def test_corrupt_save_wrong_format():
    data = _save_data()
    data["format"] = "something/9"
    with pytest.raises(ValueError, match="not a saved game: expected format 'dungeon_env.game/1'"):
        Game.from_json(data)
    with pytest.raises(ValueError, match="not a saved game"):
        Game.from_json([1, 2, 3])
    with pytest.raises(ValueError, match="not a saved game"):
        Game.from_json({"state": {}})


@pytest.mark.parametrize("key", ["adventure", "heroes", "seed", "max_turns", "state", "dice", "events"])
def test_corrupt_save_missing_key(key):
    data = _save_data()
    del data[key]
    with pytest.raises(ValueError, match=f"saved game is missing keys \\['{key}'\\]"):
        Game.from_json(data)


def test_corrupt_save_unknown_or_missing_state_field():
    data = _save_data()
    data["state"]["mana_crystals"] = 3
    with pytest.raises(ValueError, match=r"unknown fields \['mana_crystals'\]"):
        Game.from_json(data)
    data = _save_data()
    del data["state"]["light"]
    with pytest.raises(ValueError, match=r"missing fields \['light'\]"):
        Game.from_json(data)


def test_corrupt_save_malformed_values():
    data = _save_data()
    data["state"]["health"]["data"] = data["state"]["health"]["data"][:10]
    with pytest.raises(ValueError, match="health"):
        Game.from_json(data)
    data = _save_data()
    data["state"]["revealed"] = {"dtype": "|b1", "shape": [3], "data": [True, False, True]}
    with pytest.raises(ValueError, match="revealed"):
        Game.from_json(data)
    data = _save_data()
    data["state"]["light"] = "dark"
    with pytest.raises(ValueError, match="light"):
        Game.from_json(data)
    data = _save_data()
    data["dice"]["streams"]["combat"] = "x"
    with pytest.raises(ValueError, match="dice"):
        Game.from_json(data)
    data = _save_data()
    data["dice"]["streams"]["luck"] = 1
    with pytest.raises(ValueError, match="unknown stream 'luck'"):
        Game.from_json(data)
    data = _save_data()
    del data["dice"]["forced"]
    with pytest.raises(ValueError, match="dice"):
        Game.from_json(data)
    data = _save_data()
    data["heroes"] = ["bram", "bram", "sela"]
    with pytest.raises(ValueError, match="picked twice"):
        Game.from_json(data)


def test_corrupt_save_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"format": "dungeon_env.game/1", "adventure": ')
    with pytest.raises(ValueError, match="not valid JSON"):
        Game.load(path)


# ------------------------------------------------------------------------------------------ illegal actions


def test_illegal_action_names_agent_action_and_legal_ones():
    g = Game.new(adventure="flooded_cellar", heroes=3, seed=0)
    legal = g.legal_actions()
    assert JUMP_ACTIONS[0] not in legal
    with pytest.raises(IllegalActionError) as err:
        g.apply(JUMP_ACTIONS[0])
    msg = str(err.value)
    assert msg.startswith("hero_0 cannot play action 4 (jump_n) at decision hero_move for hero_0; legal: ")
    for a in legal:
        assert f"{a} ({ACTION_NAMES[a]})" in msg
    assert isinstance(err.value, ValueError)
    # nothing changed
    assert g.legal_actions() == legal and g.state.turn == 1


@pytest.mark.parametrize("bad", [99, -1, "end", None, 2.5])
def test_non_actions_are_illegal_with_a_clear_message(bad):
    g = Game.new(adventure="flooded_cellar", heroes=3, seed=0)
    with pytest.raises(
        IllegalActionError, match=rf"hero_0 cannot play action .* \(not an action of 0\.\.{N_ACTIONS - 1}\)"
    ):
        g.apply(bad)


def test_dm_illegal_action_names_the_dm():
    g = _random_game(3, adventure="goblin_warrens", heroes=5, max_turns=20)
    rng = random.Random(3)
    while not g.over and g.agent != "dm":
        _play(g, rng, 1)
    assert g.agent == "dm"
    illegal = next(a for a in range(len(ACTION_NAMES)) if a not in g.legal_actions())
    with pytest.raises(
        IllegalActionError, match=rf"^dm cannot play action {illegal} \({ACTION_NAMES[illegal]}\)"
    ):
        g.apply(illegal)


def test_numpy_ints_are_accepted_as_actions():
    g = Game.new(adventure="flooded_cellar", heroes=3, seed=0)
    g.apply(np.int64(END))
    assert g.agent == "hero_1"


def test_no_action_after_the_end():
    g = _random_game(8, max_turns=1)
    _play(g, random.Random(8))
    assert g.over and g.outcome == "truncated"
    with pytest.raises(IllegalActionError, match=r"the game is over \(truncated\)"):
        g.apply(END)


# ------------------------------------------------------------------------------------------ bad options


@pytest.mark.parametrize(
    "options, message",
    [
        ({"heroes": 2}, r"heroes: 2 heroes asked; the game is for 3-5"),
        ({"heroes": 6}, r"heroes: 6 heroes asked; the game is for 3-5"),
        ({"heroes": ["bram", "sela"]}, r"heroes: 2 heroes given; the game is for 3-5"),
        ({"heroes": ["bram", "sela", "hob", "tovar", "orwin", "maelis"]}, r"6 heroes given"),
        ({"heroes": ["bram", "sela", "gandalf"]}, r"unknown hero 'gandalf'; the roster is bram, "),
        ({"heroes": ["bram", "sela", "bram"]}, r"'bram' picked twice"),
        ({"heroes": "bram"}, r"heroes must be a count \(3-5\) or a list of hero ids"),
        ({"max_turns": 0}, r"max_turns must be a positive int, got 0"),
        ({"max_turns": -5}, r"max_turns must be a positive int, got -5"),
        ({"max_turns": 2.5}, r"max_turns must be a positive int, got 2.5"),
        ({"max_turns": True}, r"max_turns must be a positive int, got True"),
        ({"seed": "lucky"}, r"seed must be an int, got 'lucky'"),
        ({"adventure": "no_such_place"}, r"no bundled adventure 'no_such_place'"),
    ],
)
def test_bad_new_options_give_clear_errors(options, message):
    kwargs = {"adventure": "flooded_cellar", "heroes": 3, "seed": 0, "max_turns": 10} | options
    with pytest.raises(ValueError, match=message):
        Game.new(**kwargs)


def test_good_new_options():
    g = Game.new(adventure="warlocks_crypt", heroes=["Orwin Greymantle", "sela", "hob"], seed=np.int64(4))
    assert g.hero_ids == ["orwin", "sela", "hob"] and g.seed == 4 and g.max_turns == 100
    g = Game.new(heroes=5, max_turns=np.int32(7))
    assert g.adventure_ref == ADVENTURES[0] and g.max_turns == 7 and g.state.n_heroes == 5
