"""The scripted heroes v2 choosing in compiled code (``src/agents/scripted_heroes_v2.cpp``) against their
Python reference (``ScriptedHeroesV2.choose_reference``): at every hero decision of many short games
(all five adventures, 3-5 heroes from the whole roster, the native DM v2 and a random DM, the shipped v2
parameters and parameters drawn within the knobs' ranges), the compiled choice is the reference's, and
the agent's memory (intent, relieved, waited) is left as the reference leaves it.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections import Counter

import pytest

from agents._common import ported_as_is
from agents.base import RandomAgent
from agents.determinise import determinise, prior_of
from agents.scripted_dm_v2 import ScriptedDMV2
from agents.scripted_heroes_v2 import NOT_PORTED, PORTED, ScriptedHeroesV2
from agents.scripted_params import HeroParams, knobs, shipped_v2
from agents.search import search_worlds
from agents.turn_search import FREE, DirectedDM, DirectedHeroes, macro_point
from dungeon_env import _core
from dungeon_env.content import adventure_names, load_heroes
from dungeon_env.engine import Decision, Game
from dungeon_env.engine.side_knowledge import heroes_view
from dungeon_env.engine.sideview import DM, dm_view


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
    """200 games in four blocks of 50 (turn cap 5: the first fights, Explore and Trade)."""
    total: Counter = Counter()
    for k, scripted, params in cases(50, first=50 * block):
        total += play_checked(k, scripted, params, max_turns=5)
    assert total["not_ported"] == 0, total
    assert total["HERO_MOVE"] >= 2000 and total["FIGHT_STAMINA"] >= 50 and total["HERO_ACT"] >= 50, total
    assert total["HERO_EVADE"] >= 100 and total["EXPLORE_CHOICE"] >= 100, total


def hero_move(g: Game, dm) -> None:
    """Play ``g`` on (the reference heroes, ``dm``) until a hero's Movement offers a choice."""
    heroes = ScriptedHeroesV2(seed=0)
    while not g.over:
        if g.decision[0] == Decision.HERO_MOVE and len(g.legal_actions()) > 1:
            return
        g.apply(dm.choose(g) if g.agent == "dm" else heroes.choose_reference(g))
    raise AssertionError("no hero Movement with a choice")


@pytest.mark.parametrize(("engine", "expect_reference"), [("core", False), ("python", True)])
def test_choose_plays_the_compiled_choice_on_the_core_and_the_reference_on_python(engine, expect_reference):
    g = Game.new(adventure="goblin_warrens", heroes=3, seed=3, max_turns=20, engine=engine)
    hero_move(g, RandomAgent(3))
    heroes, calls = ScriptedHeroesV2(seed=0), []
    reference = heroes.choose_reference
    heroes.choose_reference = lambda game: calls.append(1) or reference(game)
    action = heroes.choose(g)
    assert action in g.legal_actions() and bool(calls) == expect_reference
    assert (heroes.view(g) is g) == (not expect_reference)  # act() hands the compiled choice the game


def test_a_subclass_overriding_a_ported_method_plays_the_python_methods():
    assert ported_as_is(ScriptedHeroesV2) and not ported_as_is(DirectedHeroes)
    assert all(callable(getattr(ScriptedHeroesV2, name)) for name in PORTED)
    g = Game.new(adventure="goblin_warrens", heroes=3, seed=3, max_turns=20)
    hero_move(g, RandomAgent(3))
    assert DirectedHeroes(seed=0).view(g) is not g  # the heroes' view, for the Python methods


def test_a_copied_agent_keeps_its_memory():
    """Copied halfway through a game, the copy chooses as the original goes on (the memory is the
    agent's dicts, the path costs' memo is made again)."""
    g = Game.new(adventure="bandit_keep", heroes=4, seed=5, max_turns=30)
    heroes, dm = ScriptedHeroesV2(seed=5), ScriptedDMV2(seed=5)
    copies, compared = [], 0
    while not g.over:
        if g.agent == "dm":
            g.apply(dm.choose(g))
            continue
        action = heroes.choose(g)
        if not copies and g.state.turn >= 3:
            copies = [copy.deepcopy(heroes)]
        else:
            for other in copies:
                assert other.choose(g) == action
                compared += 1
        g.apply(action)
    assert compared > 50


def test_the_compiled_params_refuse_a_wrong_length_or_a_fraction_for_an_integer_knob():
    names = _core.agents.HERO_PARAMS
    assert list(names) == [f.name for f in knobs(HeroParams)]
    values = [float(getattr(shipped_v2().heroes, name)) for name in names]
    with pytest.raises(ValueError, match="expected 13 values"):
        _core.agents.HeroParams(values[:-1])
    values[names.index("wait_turns")] = 1.5
    with pytest.raises(ValueError, match="wait_turns must be a whole number"):
        _core.agents.HeroParams(values)


def test_changed_params_reach_the_compiled_choice():
    """An agent whose params are replaced plays the new ones (the compiled copy is made again)."""
    g = Game.new(adventure="goblin_warrens", heroes=3, seed=3, max_turns=20)
    hero_move(g, RandomAgent(3))
    heroes = ScriptedHeroesV2(seed=0)
    heroes.choose(g)
    first = heroes._native[1]
    heroes.params = dataclasses.replace(heroes.params, patrol_weight=0.5)
    heroes.choose(g)
    assert heroes._native[1] is not first and heroes._native[0] is heroes.params


def _heroes_worlds(n: int):
    """(k, a determinisation of the heroes' view) for k < n: game k played by the scripted agents v2
    to a hero decision of turn 2 + k % 4 (games over before it are skipped)."""
    for k in range(n):
        g = new_game(k, max_turns=40)
        heroes, dm = ScriptedHeroesV2(seed=k), ScriptedDMV2(seed=k)
        while not g.over and (g.state.turn < 2 + k % 4 or g.agent == "dm"):
            g.apply(dm.choose(g) if g.agent == "dm" else heroes.choose(g))
        if not g.over:
            view = heroes_view(g)
            yield k, determinise(view, random.Random(k), prior_of(view))


def _plan_at_random(world, h: int, rng: random.Random, chance: float, reference, other) -> None:
    """With probability ``chance``, unless ``reference`` holds a plan for hero ``h``: the same random
    plan (a reachable square, or FREE) for both walkers."""
    if h not in reference.plans and rng.random() < chance:
        squares = list(reference.reachable_squares(world, h))
        square = FREE if rng.random() < 0.3 else rng.choice(squares)
        other.plan(world, h, square)
        reference.plan(world, h, square)


def test_the_search_walker_chooses_alike_on_the_heroes_worlds():
    """The search's heroes walker (``DirectedHeroes``) on determinisations of the heroes' view: its
    compiled choice with random plans for the Movements (``choose_world``) is the reference's at
    every hero decision, and it keeps and drops the plans as the reference does."""
    compared = Counter()
    for k, world in _heroes_worlds(12):
        native, reference, walker_dm = DirectedHeroes(seed=k), DirectedHeroes(seed=k), DirectedDM(seed=k)
        rng, stop = random.Random(k), int(world.state.turn) + 3
        while not world.over and int(world.state.turn) < stop:
            if world.agent == "dm":
                world.apply(walker_dm.choose(world))
                continue
            kind, h = world.decision
            if kind == Decision.HERO_MOVE:
                _plan_at_random(world, h, rng, 0.5, reference, native)
            a, b = native.choose(world), reference.choose_reference(world)
            assert a == b, f"game {k}: {kind.name} of hero {h}: compiled {a}, reference {b}"
            assert native.plans == reference.plans and memory_of(native) == memory_of(reference)
            compared[kind.name] += 1
            world.apply(b)
    assert compared["HERO_MOVE"] >= 200, compared


def test_the_search_walker_chooses_alike_on_the_dms_worlds():
    """The heroes walker of a DM's search (``DirectedHeroes``, no plans) on the DM's worlds (copies of
    the DM's view carrying the heroes' knowledge, ``search.search_worlds``): it plays the compiled
    choice through the heroes' view (never the Python methods), and that choice is the reference's at
    every hero decision, with the same memory."""
    compared = Counter()
    for k in range(10):
        g = new_game(k, max_turns=40)
        heroes, dm = ScriptedHeroesV2(seed=k), ScriptedDMV2(seed=k)
        while not g.over and (g.state.turn < 1 + k % 3 or g.agent != "dm"):
            g.apply(dm.choose(g) if g.agent == "dm" else heroes.choose(g))
        if g.over:
            continue
        worlds = search_worlds(dm_view(g), DM)
        world = determinise(worlds, random.Random(k))
        native, reference, walker_dm = DirectedHeroes(seed=k), DirectedHeroes(seed=k), DirectedDM(seed=k)

        def python_methods(game, k=k):
            raise AssertionError(f"game {k}: the walker played the Python methods on the DM's world")

        native.choose_reference = python_methods
        stop = int(world.state.turn) + 3
        while not world.over and int(world.state.turn) < stop:
            if world.agent == "dm":
                world.apply(walker_dm.choose(world))
                continue
            kind, h = world.decision
            a, b = native.choose(world), reference.choose_reference(world)
            assert a == b, f"game {k}: {kind.name} of hero {h}: compiled {a}, reference {b}"
            assert memory_of(native) == memory_of(reference)
            compared[kind.name] += 1
            world.apply(b)
    assert compared["HERO_MOVE"] >= 200 and compared["FIGHT_STAMINA"] >= 5, compared


def test_the_search_walker_lists_alike_on_the_heroes_worlds():
    """A heroes' search's macro points (``turn_search.macro_point``) on determinisations of the heroes'
    view, with random plans for the other Movements: the compiled listing (``DirectedHeroes.choose_listing``:
    every end square v2 weighed with its key and progress, v2's choice) is the Python methods' (``weighed``),
    and so are the action, the macro point's options and the memory left."""
    compared = Counter()
    for k, world in _heroes_worlds(12):
        native, reference, walker_dm = DirectedHeroes(seed=k), DirectedHeroes(seed=k), DirectedDM(seed=k)
        python_choice = native.choose_reference
        reference.choose = reference.choose_reference  # (macro_point asks the walker's choose)
        rng, stop = random.Random(k), int(world.state.turn) + 3
        while not world.over and int(world.state.turn) < stop:
            if world.agent == "dm":
                world.apply(walker_dm.choose(world))
                continue
            kind, h = world.decision
            if kind == Decision.HERO_MOVE:
                _plan_at_random(world, h, rng, 0.3, reference, native)
            if kind == Decision.HERO_MOVE and h not in reference.plans:
                native.listing, reference.listing = {}, {}
                native.choose_reference = lambda game: pytest.fail("the listing played the Python methods")
                a, b = native.choose(world), reference.choose_reference(world)
                native.choose_reference = python_choice
                assert a == b, f"game {k}: hero {h}: compiled {a}, reference {b}"
                assert native.listing == reference.listing, f"game {k}: hero {h}: listings differ"
                compared["listed"] += h in reference.listing
                native.listing = reference.listing = None
                point_a = macro_point(world, native, 3, 6.0)
                point_b = macro_point(world, reference, 3, 6.0)
                assert point_a == point_b
                compared["points"] += point_b is not None
            else:
                a, b = native.choose(world), reference.choose_reference(world)
                assert a == b
            assert native.plans == reference.plans and memory_of(native) == memory_of(reference)
            compared[kind.name] += 1
            world.apply(b)
    assert compared["listed"] >= 100 and compared["points"] >= 20, compared
