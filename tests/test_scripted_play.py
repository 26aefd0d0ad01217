"""Both scripted agents v2 playing on in compiled code (``agents.scripted_play``,
``src/agents/scripted_play.cpp``) against the same agents choosing one decision at a time through
Python: the same moves, log, state, heroes' knowledge and agents' memories, on games of all five
adventures with 3-5 heroes and shipped or drawn knobs; stopped at a turn, handed a position edited by
hand, and through ``play_episode``.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from agents.base import RandomAgent
from agents.scripted_dm_v2 import ScriptedDMV2
from agents.scripted_heroes_v2 import ScriptedHeroesV2
from agents.scripted_params import DMParams, HeroParams, knobs
from agents.scripted_play import play_on, plays_compiled
from agents.turn_search import DirectedHeroes
from dungeon_env.content import adventure_names, load_heroes
from dungeon_env.engine import Game
from dungeon_env.engine.side_knowledge import knowledge_of
from dungeon_env.episode import play_episode


def drawn(cls, rng: random.Random):
    """Knobs of ``cls`` drawn uniformly within their ranges (integer knobs as integers)."""
    values = {}
    for f in knobs(cls):
        low, high = f.metadata["low"], f.metadata["high"]
        values[f.name] = rng.randint(low, high) if isinstance(f.default, int) else rng.uniform(low, high)
    return cls(**values)


def twins(k: int, max_turns: int):
    """Two equal games ``k`` (adventure k of the five, 3-5 heroes of the roster, seed k) and a pair of
    equal agents for each (every third game with drawn knobs)."""
    rng = random.Random(k)
    names = adventure_names()
    heroes = rng.sample(sorted(load_heroes()), 3 + k % 3)
    hp, dp = (drawn(HeroParams, rng), drawn(DMParams, rng)) if k % 3 == 1 else (None, None)
    out = []
    for _ in range(2):
        g = Game.new(adventure=names[k % len(names)], heroes=heroes, seed=k, max_turns=max_turns)
        out.append((g, ScriptedHeroesV2(seed=k, params=hp), ScriptedDMV2(seed=k, params=dp)))
    return out


def one_at_a_time(g: Game, heroes, dm, stop_turn: int | None = None) -> None:
    while not g.over and (stop_turn is None or int(g.state.turn) < stop_turn):
        g.apply(int((dm if g.agent == "dm" else heroes).choose(g)))


def assert_same(a, b, where: str) -> None:
    """The two games, their heroes' knowledge and their agents are alike."""
    (ga, ha, da), (gb, hb, db) = a, b
    assert ga.events == gb.events, where
    assert (ga.moves, ga.outcome, ga.legal_actions()) == (gb.moves, gb.outcome, gb.legal_actions()), where
    assert ga.state.to_json() == gb.state.to_json(), where
    ka, kb = knowledge_of(ga, "heroes"), knowledge_of(gb, "heroes")
    assert ka.events == kb.events and ka.snapshot() == kb.snapshot(), where
    assert knowledge_of(ga, "dm").events == knowledge_of(gb, "dm").events, where
    assert (ha.intent, ha.relieved, ha.waited) == (hb.intent, hb.relieved, hb.waited), where
    assert da._native_memory.__getstate__() == db._native_memory.__getstate__(), where


@pytest.mark.parametrize("block", range(2))
def test_play_on_leaves_what_one_decision_at_a_time_leaves(block):
    """24 games to their end (turn cap 12) each way."""
    for k in range(12 * block, 12 * block + 12):
        a, b = twins(k, max_turns=12)
        assert plays_compiled(b[1], b[2], b[0])
        one_at_a_time(*a)
        steps = play_on(*b)
        assert steps["heroes"] + steps["dm"] == b[0].moves
        assert_same(a, b, f"game {k}")


def test_play_on_stops_as_a_turn_begins_and_plays_on_from_there():
    for k in range(5):
        a, b = twins(k, max_turns=30)
        for stop in (3, 6, 9):
            one_at_a_time(*a, stop_turn=stop)
            play_on(*b, stop_turn=stop)
            assert b[0].over or int(b[0].state.turn) == stop
            assert_same(a, b, f"game {k}, turn {stop}")
        one_at_a_time(*a)
        one_at_a_time(*b)  # (the compiled memory went on where the compiled loop left it)
        assert_same(a, b, f"game {k}, the end")


def test_play_on_starts_from_a_position_edited_by_hand_and_from_copies():
    a, b = twins(4, max_turns=30)
    for g, heroes, dm in (a, b):
        one_at_a_time(g, heroes, dm, stop_turn=4)
        g.state.health[0] = 1  # a hero badly hurt, by hand
        g.state_edited()
    one_at_a_time(*a)
    g, heroes, dm = b
    copied = (g.copy(), copy.deepcopy(heroes), pickle.loads(pickle.dumps(dm)))
    play_on(*b)
    assert_same(a, b, "edited by hand")
    play_on(*copied)
    assert copied[0].events == a[0].events


def test_play_episode_plays_compiled_when_nothing_reads_between_moves():
    for k in range(6):
        a, b = twins(k, max_turns=20)
        calls: list[int] = []
        slow = play_episode(a[1], a[2], a[0], on_step=calls.append)  # one decision at a time
        fast = play_episode(b[1], b[2], b[0])
        assert len(calls) == a[0].moves
        assert (slow.ending, slow.team_return, slow.steps) == (fast.ending, fast.team_return, fast.steps)
        assert_same(a, b, f"game {k}")


def test_only_the_compiled_agents_on_the_core_play_compiled():
    g = Game.new(adventure="goblin_warrens", heroes=3, seed=1)
    assert plays_compiled(ScriptedHeroesV2(), ScriptedDMV2(), g)
    assert not plays_compiled(DirectedHeroes(), ScriptedDMV2(), g)  # overrides a ported method
    assert not plays_compiled(ScriptedHeroesV2(), RandomAgent(0), g)
    python = Game.new(adventure="goblin_warrens", heroes=3, seed=1, engine="python")
    assert not plays_compiled(ScriptedHeroesV2(), ScriptedDMV2(), python)
    assert ScriptedHeroesV2().compiled_play(ScriptedDMV2(), python) is None
