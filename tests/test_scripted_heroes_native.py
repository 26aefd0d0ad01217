"""The scripted heroes v2 choosing in compiled code (``src/agents/scripted_heroes_v2.cpp``) against their
Python reference (``ScriptedHeroesV2.choose_reference``): at every hero decision of many short games
(all five adventures, 3-5 heroes from the whole roster, the native DM v2 and a random DM, the shipped v2
parameters and parameters drawn within the knobs' ranges), the compiled choice is the reference's, and
the agent's memory (intent, relieved, waited) is left as the reference leaves it.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from collections import Counter

import pytest

from agents.base import RandomAgent
from agents.scripted_dm_v2 import ScriptedDMV2
from agents.scripted_heroes_v2 import NOT_PORTED, PORTED, ScriptedHeroesV2, _ported_as_is
from agents.scripted_params import HeroParams, knobs, shipped_v2
from agents.turn_search import DirectedHeroes
from dungeon_env import _core
from dungeon_env.content import adventure_names, load_heroes
from dungeon_env.engine import Decision, Game


def drawn_params(rng: random.Random) -> HeroParams:
    """Hero knobs drawn uniformly within their ranges (integer knobs as integers)."""
    values = {}
    for f in knobs(HeroParams):
        low, high = f.metadata["low"], f.metadata["high"]
        values[f.name] = rng.randint(low, high) if isinstance(f.default, int) else rng.uniform(low, high)
    return HeroParams(**values)


def new_game(k: int, max_turns: int) -> Game:
    """Game ``k``: adventure k (cycling over the five), seed k, 3-5 heroes drawn from the roster."""
    rng = random.Random(k)
    names = adventure_names()
    heroes = rng.sample(sorted(load_heroes()), 3 + k % 3)
    return Game.new(adventure=names[k % len(names)], heroes=heroes, seed=k, max_turns=max_turns)


def memory_of(agent: ScriptedHeroesV2) -> tuple[dict, dict, dict]:
    return (dict(agent.intent), dict(agent.relieved), dict(agent.waited))


def play_checked(k: int, scripted_dm: bool, params: HeroParams | None, max_turns: int) -> Counter:
    """Play game ``k`` with heroes v2 (``params``; None: the shipped ones) against the scripted DM v2
    or a random one, comparing the compiled choice (on a copy of the agent's memory) with the
    reference at every hero decision, and the memories they leave; the counts of the decisions
    compared (by kind) and of those left to Python."""
    g = new_game(k, max_turns)
    heroes = ScriptedHeroesV2(game=g, seed=k, params=params)
    dm = ScriptedDMV2(game=g, seed=k) if scripted_dm else RandomAgent(k)
    counts: Counter = Counter()
    while not g.over:
        if g.agent == "dm":
            g.apply(dm.choose(g))
            continue
        kind, unit = g.decision
        mine = memory_of(heroes)
        native = heroes.choose_native(g, mine)
        reference = heroes.choose_reference(g)
        if native == NOT_PORTED:
            counts["not_ported"] += 1
        else:
            where = f"game {k} turn {g.state.turn}: {kind.name} of {g.label(unit)}, legal {g.legal_actions()}"
            assert native == reference, f"{where}: compiled {native}, reference {reference} (params {params})"
            assert mine == memory_of(heroes), f"{where}: memory {mine} against {memory_of(heroes)}"
            counts[kind.name] += 1
        g.apply(reference)
    return counts


def cases(n: int, first: int = 0):
    """``n`` games: half against the scripted DM, every third with drawn knobs."""
    for k in range(first, first + n):
        params = drawn_params(random.Random(20_000 + k)) if k % 3 == 1 else None
        yield k, k % 2 == 0, params


@pytest.mark.parametrize("block", range(4))
def test_the_compiled_choice_is_the_reference_at_every_hero_decision(block):
    """200 games in four blocks of 50 (turn cap 8)."""
    total: Counter = Counter()
    for k, scripted, params in cases(50, first=50 * block):
        total += play_checked(k, scripted, params, max_turns=8)
    assert total["HERO_MOVE"] >= 1000 and total["FIGHT_STAMINA"] >= 20, total
