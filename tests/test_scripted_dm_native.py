"""The scripted DM v2 choosing in compiled code (``src/agents/scripted_dm_v2.cpp``) against its Python
reference (``ScriptedDMV2.choose_reference``): at every DM decision of many short games (all five
adventures, 3-5 heroes from the whole roster, scripted v2 heroes and random ones, the shipped v2
parameters and parameters drawn within the knobs' ranges), the compiled choice is the reference's.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from collections import Counter

import pytest

from agents._common import ported_as_is
from agents.base import RandomAgent
from agents.scripted_dm_v2 import NOT_PORTED, PORTED, ScriptedDMV2
from agents.scripted_heroes_v2 import ScriptedHeroesV2
from agents.scripted_params import DMParams, knobs, shipped_v2
from agents.turn_search import FREE, DirectedDM, macro_point
from dungeon_env import _core
from dungeon_env.content import adventure_names, load_heroes
from dungeon_env.engine import Decision, Game


def drawn_params(rng: random.Random) -> DMParams:
    """DM knobs drawn uniformly within their ranges (integer knobs as integers)."""
    values = {}
    for f in knobs(DMParams):
        low, high = f.metadata["low"], f.metadata["high"]
        values[f.name] = rng.randint(low, high) if isinstance(f.default, int) else rng.uniform(low, high)
    return DMParams(**values)


def new_game(k: int, max_turns: int) -> Game:
    """Game ``k``: adventure k (cycling over the five), seed k, 3-5 heroes drawn from the roster."""
    rng = random.Random(k)
    names = adventure_names()
    heroes = rng.sample(sorted(load_heroes()), 3 + k % 3)
    return Game.new(adventure=names[k % len(names)], heroes=heroes, seed=k, max_turns=max_turns)


def play_checked(k: int, scripted_heroes: bool, params: DMParams | None, max_turns: int) -> Counter:
    """Play game ``k`` with DM v2 (``params``; None: the shipped ones) against scripted v2 heroes or
    random ones, comparing the compiled choice with the reference at every DM decision; the
    counts of the decisions compared (by kind) and of those left to Python."""
    g = new_game(k, max_turns)
    dm = ScriptedDMV2(game=g, seed=k, params=params)
    heroes = ScriptedHeroesV2(game=g, seed=k) if scripted_heroes else RandomAgent(k)
    counts: Counter = Counter()
    while not g.over:
        if g.agent != "dm":
            g.apply(heroes.choose(g))
            continue
        kind, unit = g.decision
        native = dm.choose_native(g)
        reference = dm.choose_reference(g)
        if native == NOT_PORTED:
            counts["not_ported"] += 1
        else:
            assert native == reference, (
                f"game {k} turn {g.state.turn}: {kind.name} of {g.label(unit)}, legal {g.legal_actions()}: "
                f"compiled {native}, reference {reference} (params {params})"
            )
            counts[kind.name] += 1
        g.apply(reference)
    return counts


def cases(n: int, first: int = 0):
    """``n`` games: a quarter with scripted heroes, every third with drawn knobs."""
    for k in range(first, first + n):
        params = drawn_params(random.Random(10_000 + k)) if k % 3 == 1 else None
        yield k, k % 4 == 0, params


@pytest.mark.parametrize("block", range(4))
def test_the_compiled_choice_is_the_reference_at_every_dm_decision(block):
    """200 games in four blocks of 50 (turn cap 12, scripted heroes 6: the first fights)."""
    total: Counter = Counter()
    for k, scripted, params in cases(50, first=50 * block):
        total += play_checked(k, scripted, params, max_turns=6 if scripted else 12)
    assert total["MONSTER_MOVE"] >= 1000 and total["FIGHT_STAMINA"] >= 150, total


def monster_move(g: Game, heroes) -> None:
    """Play ``g`` on (random heroes; the DM's first choices, where Python's v1 plays) until a
    monster's Movement offers more than one choice."""
    dm = ScriptedDMV2(seed=0)
    while not g.over:
        if g.decision[0] == Decision.MONSTER_MOVE and len(g.legal_actions()) > 1:
            return
        g.apply(dm.choose_reference(g) if g.agent == "dm" else heroes.choose(g))
    raise AssertionError("no monster Movement with a choice")


@pytest.mark.parametrize(("engine", "expect_reference"), [("core", False), ("python", True)])
def test_choose_plays_the_compiled_choice_on_the_core_and_the_reference_on_python(engine, expect_reference):
    g = Game.new(adventure="goblin_warrens", heroes=3, seed=3, max_turns=20, engine=engine)
    monster_move(g, RandomAgent(3))
    dm, calls = ScriptedDMV2(seed=0), []
    reference = dm.choose_reference
    dm.choose_reference = lambda game: calls.append(1) or reference(game)
    action = dm.choose(g)
    assert action in g.legal_actions() and bool(calls) == expect_reference


def test_a_subclass_overriding_a_ported_method_plays_the_python_methods():
    class Hunter(ScriptedDMV2):
        def victim_v2(self, g, m, heroes, fields, committed):
            return heroes[0] if heroes else None

    class DirectedHunter(DirectedDM):
        def planned(self, g, m):
            return None

    assert ported_as_is(ScriptedDMV2) and ported_as_is(DirectedDM)
    assert not ported_as_is(Hunter) and not ported_as_is(DirectedHunter)
    assert all(callable(getattr(ScriptedDMV2, name)) for name in PORTED)


class ReferenceDirectedDM(DirectedDM):
    """The search's directed DM playing its Python methods alone."""

    def choose(self, game: Game) -> int:
        return self.choose_reference(game)


@pytest.mark.parametrize("block", range(2))
def test_the_directed_dm_plays_its_plans_and_listing_in_the_compiled_choice(block):
    """The search's DM (plans fixing a monster's victim for a Movement, ``FREE`` ones, plans of
    heroes out of reach or gone, and listening at macro points) chooses and lists alike in compiled
    code and in Python, at every DM decision of 40 short games."""
    compared = listed = points = planned = 0
    for k in range(40 * block, 40 * block + 40):
        g = new_game(k, max_turns=12)
        rng = random.Random(k)
        native, reference = DirectedDM(seed=k), ReferenceDirectedDM(seed=k)
        heroes = ScriptedHeroesV2(game=g, seed=k) if k % 3 == 0 else RandomAgent(k)
        while not g.over:
            if g.agent != "dm":
                g.apply(heroes.choose(g))
                continue
            kind, m = g.decision
            if kind == Decision.MONSTER_MOVE and native.planned(g, m) is None and rng.random() < 0.3:
                hero = rng.choice([FREE, *range(g.state.n_heroes)])
                native.plan(g, m, hero)
                reference.plan(g, m, hero)
                planned += 1
            if kind == Decision.MONSTER_MOVE and rng.random() < 0.3:
                point = macro_point(g, native, 3, 20.0), macro_point(g, reference, 3, 20.0)
                assert point[0] == point[1], f"game {k} turn {g.state.turn}: {g.label(m)}"
                points += point[0] is not None
            listening = rng.random() < 0.5
            native.listing = reference.listing = None
            if listening:
                native.listing, reference.listing = {}, {}
            action = native.choose(g)
            where = f"game {k} turn {g.state.turn}: {kind.name} of {g.label(m)}"
            assert action == reference.choose(g), where
            assert native.listing == reference.listing, where
            listed += bool(native.listing)
            native.listing = reference.listing = None
            compared += 1
            g.apply(action)
    counts = (compared, listed, points, planned)
    assert compared >= 1200 and listed >= 50 and points >= 10 and planned >= 250, counts


def test_a_copied_or_pickled_dm_keeps_its_memory_of_the_movement():
    """Copied halfway through a Movement, the copies choose as the original goes on (the trail and
    the victim are in the compiled memory)."""
    g = Game.new(adventure="goblin_warrens", heroes=4, seed=5, max_turns=30)
    heroes, dm = RandomAgent(5), ScriptedDMV2(seed=5)
    copies, compared = [], 0
    while not g.over:
        if g.agent != "dm":
            g.apply(heroes.choose(g))
            continue
        action = dm.choose(g)
        if not copies and g.decision[0] == Decision.MONSTER_MOVE and len(g.legal_actions()) > 1:
            copies = [copy.deepcopy(dm), pickle.loads(pickle.dumps(dm))]
        else:
            for other in copies:
                assert other.choose(g) == action
                compared += 1
        g.apply(action)
    assert compared > 50


def test_the_compiled_params_refuse_a_wrong_length_or_a_fraction_for_an_integer_knob():
    names = _core.agents.DM_PARAMS
    assert list(names) == [f.name for f in knobs(DMParams)]
    values = [float(getattr(shipped_v2().dm, name)) for name in names]
    with pytest.raises(ValueError, match="expected 19 values"):
        _core.agents.DMParams(values[:-1])
    values[names.index("keep_stamina")] = 1.5
    with pytest.raises(ValueError, match="keep_stamina must be a whole number"):
        _core.agents.DMParams(values)


def test_changed_params_reach_the_compiled_choice():
    """A DM whose params are replaced plays the new ones (the compiled copy is made again)."""
    g = Game.new(adventure="goblin_warrens", heroes=3, seed=3, max_turns=20)
    monster_move(g, RandomAgent(3))
    dm = ScriptedDMV2(seed=0)
    dm.choose(g)
    first = dm._native_params[1]
    dm.params = dataclasses.replace(dm.params, single_fight=0)
    dm.choose(g)
    assert dm._native_params[1] is not first and dm._native_params[0] is dm.params
