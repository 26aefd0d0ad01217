"""Forced dice, globally and per stream (``engine/dice.py``).

``dice.force(*faces)`` queues faces for the next rolls of any stream (the global queue);
``dice.force(*faces, stream="combat")`` queues them for that stream only. A roll takes its stream's
own queue first, then the global queue, then its generator. Copies, saves and ``unforced()`` keep
both kinds of queue; a stream's forced faces never move another stream's generator.
"""

from __future__ import annotations

import json

import pytest

from dungeon_env.engine import Dice, Game, Phase
from dungeon_env.engine.actions import END, MOVE_ACTIONS
from tests.builders import PLAIN, add_monster, arena_game, events, place, rolls

MOVE_S = MOVE_ACTIONS[2]


def _unforced_faces(seed: int, stream: str, n: int) -> list[int]:
    return Dice(seed).roll(stream, n)


def test_a_streams_queue_serves_only_that_stream():
    dice = Dice(5)
    dice.force(6, 5, stream="combat")
    assert dice.d6("doors") == _unforced_faces(5, "doors", 1)[0]  # doors: its own generator
    assert dice.roll("combat", 2) == [6, 5]
    assert dice.forced_left == 0
    assert dice.d6("combat") == _unforced_faces(5, "combat", 1)[0]  # the generator was not moved


def test_a_streams_own_queue_comes_before_the_global_queue():
    dice = Dice(1)
    dice.force(1, 2)
    dice.force(6, stream="combat")
    assert dice.forced_left == 3 and dice.forced_for("combat") == [6] and dice.forced_for() == [1, 2]
    assert dice.d6("combat") == 6  # its own queue first
    assert dice.d6("combat") == 1  # then the global one
    assert dice.d6("patrol") == 2  # any stream takes the global queue
    assert dice.forced_left == 0
    assert dice.d6("patrol") == _unforced_faces(1, "patrol", 1)[0]


def test_the_global_queue_is_unchanged():
    dice = Dice(3)
    dice.force(4, 4, 2)
    assert [dice.d6("doors"), dice.d6("combat"), dice.d6("secret")] == [4, 4, 2]
    assert dice.forced_left == 0


def test_forcing_checks_faces_and_stream_names():
    dice = Dice(0)
    with pytest.raises(ValueError, match=r"unknown dice stream 'fights'; the streams are combat, surprise"):
        dice.force(6, stream="fights")
    with pytest.raises(ValueError, match="a forced die face must be an int 1..6, got 7"):
        dice.force(7, stream="combat")
    assert dice.forced_left == 0
    dice.force(stream="combat")  # no faces: nothing queued
    assert dice.to_json().get("forced_streams") is None


def test_unforced_hides_every_queue_and_keeps_it():
    dice = Dice(2)
    dice.force(3)
    dice.force(5, stream="decks")
    with dice.unforced():
        assert dice.d6("decks") == _unforced_faces(2, "decks", 1)[0]
        dice.force(1, stream="decks")  # forced inside the block: after the ones from before
    assert dice.roll("decks", 3) == [5, 1, 3]


def test_copies_and_saves_keep_the_stream_queues():
    dice = Dice(9)
    dice.force(2)
    dice.force(6, 6, stream="combat")
    clone = dice.copy()
    assert clone.d6("combat") == 6
    assert dice.forced_for("combat") == [6, 6]  # the copy is independent
    data = json.loads(json.dumps(dice.to_json()))
    assert data["forced_streams"] == {"combat": [6, 6]}
    back = Dice.from_json(data)
    assert back.roll("combat", 3) == [6, 6, 2]
    # a save without stream queues is written as before, and older saves load
    plain = Dice(9)
    assert set(plain.to_json()) == {"seed", "forced", "streams"}
    assert Dice.from_json(plain.to_json()).to_json() == plain.to_json()
    with pytest.raises(ValueError, match="saved dice: forced_streams: unknown dice stream 'luck'"):
        Dice.from_json({**plain.to_json(), "forced_streams": {"luck": [1]}})


def test_a_saved_game_keeps_its_stream_queues(tmp_path):
    g = Game.new(adventure="flooded_cellar", heroes=3, seed=3)
    g.dice.force(6, 5, stream="combat")
    g.save(tmp_path / "g.json")
    loaded = Game.load(tmp_path / "g.json")
    assert loaded.dice.forced_for("combat") == [6, 5] and loaded.dice.forced_left == 2


def _door_and_fight_turn(force_combat: bool) -> Game:
    """The arena: hero_0 north of room A's north door (3,0)-(3,1) tries it (an Open Doors roll from
    the doors stream); hero_1 (Ysolde, Fight 5) stands below an Orc (Fight 5) in room B and fights
    it in 2.4."""
    g = arena_game(PLAIN, seed=11)
    place(g, 0, 3, 0)
    place(g, 1, 9, 3)
    place(g, 2, 18, 0)
    orc = add_monster(g, "orc", 9, 2)
    g.state.stamina[1] = g.state.stamina[orc] = 0  # nothing to spend: no Stamina questions
    g.state.exhausted[1] = g.state.exhausted[orc] = True
    if force_combat:
        g.dice.force(6, 6, 1, 1, stream="combat")  # the hero's two dice, then the Orc's
    g.state_edited()
    assert g.decision[1] == 0
    g.apply(MOVE_S)  # hero_0 tries the door
    for _ in range(200):
        if g.over or g.state.phase >= Phase.SPELL_RESOLUTION or g.state.turn > 1:
            break
        legal = g.legal_actions()
        g.apply(END if END in legal else legal[0])
    return g


def test_rule_forcing_only_the_combat_stream_scripts_the_fight_and_leaves_the_door_roll_to_the_seed():
    forced = _door_and_fight_turn(force_combat=True)
    free = _door_and_fight_turn(force_combat=False)
    (door,) = rolls(forced, "open_door")
    (door_free,) = rolls(free, "open_door")
    assert door["dice"] == door_free["dice"]  # the doors stream rolled as without forcing
    assert door["dice"] != [6]  # a global force(6, 6, 1, 1) would have fed the door roll its 6
    (fight,) = events(forced, "fight")
    hero_side = "a" if fight["a"] == "hero_1" else "b"
    orc_side = "b" if hero_side == "a" else "a"
    assert fight[f"{hero_side}_dice"] == [6, 6] and fight[f"{orc_side}_dice"] == [1, 1]
    assert fight["winner"] == "hero_1"
    assert forced.dice.forced_left == 0
