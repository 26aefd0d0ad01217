"""The search v2's rollouts played in compiled code (``agents.turn_search.roll_out``:
``_core.agents.play_world`` on the heroes' worlds, ``agents.scripted_play.play_on`` on the DM's)
against the same rollouts played move by move through the walkers' Python calls
(``TurnSearchAgent.iterate``'s loop, the reference): the same moves, log, plans and memories from
determinisations with random plans (several adventures, 3-5 heroes), and the same searches
(iterations, each option's visits and mean, the choice) for both sides."""

from __future__ import annotations

import random

import numpy as np
import pytest

from agents.determinise import determinise, prior_of
from agents.scripted_dm_v2 import ScriptedDMV2
from agents.scripted_heroes_v2 import ScriptedHeroesV2
from agents.search import search_worlds
from agents.turn_search import FREE, DirectedDM, DirectedHeroes, TurnSearchAgent, roll_out
from dungeon_env.content import adventure_names, load_heroes
from dungeon_env.engine import Game
from dungeon_env.engine.side_knowledge import heroes_view
from dungeon_env.engine.sideview import DM, HEROES, dm_view
from dungeon_env.engine.state import ACTIVE


def new_game(k: int) -> Game:
    """Game ``k``: adventure k (cycling over the five), seed k, 3-5 heroes drawn from the roster."""
    rng = random.Random(k)
    heroes = rng.sample(sorted(load_heroes()), 3 + k % 3)
    names = adventure_names()
    return Game.new(adventure=names[k % len(names)], heroes=heroes, seed=k, max_turns=40)


def played_to(k: int, side: str) -> Game | None:
    """Game ``k`` played by v2 on both sides to turn 2 + k % 3, at a decision of ``side``."""
    g = new_game(k)
    heroes, dm = ScriptedHeroesV2(seed=k), ScriptedDMV2(seed=k)
    while not g.over and (g.state.turn < 2 + k % 3 or (g.agent == "dm") != (side == DM)):
        g.apply(dm.choose(g) if g.agent == "dm" else heroes.choose(g))
    return None if g.over else g


def walkers_with_plans(world: Game, k: int, copy: int) -> dict:
    """Both walkers seeded ``k``, with random plans: each hero's Movement ends on a random square it can
    reach (or is left FREE), each active monster hunts a random hero (or is left FREE)."""
    rng = random.Random(1000 * k + 7)
    walkers = {HEROES: DirectedHeroes(seed=k), DM: DirectedDM(seed=k)}
    s = world.state
    for h in range(s.n_heroes):
        if s.unit_status[h] == ACTIVE and rng.random() < 0.7:
            squares = sorted(walkers[HEROES].reachable_squares(world, h))
            walkers[HEROES].plan(world, h, FREE if rng.random() < 0.2 or not squares else rng.choice(squares))
    for m in range(s.n_heroes, len(s.unit_status)):
        if s.unit_status[m] == ACTIVE and int(s.unit_side[m]) == 1 and rng.random() < 0.5:
            walkers[DM].plan(world, m, FREE if rng.random() < 0.2 else rng.randrange(s.n_heroes))
    return walkers


def python_rollout(g: Game, walkers: dict, stop: int) -> None:
    """The reference: ``iterate``'s loop once no macro point is weighed."""
    while not g.over and int(g.state.turn) < stop:
        g.apply(walkers[DM if g.agent == "dm" else HEROES].choose(g))


def compiled_rollout(g: Game, walkers: dict, stop: int) -> None:
    while not g.over and int(g.state.turn) < stop:
        if not roll_out(g, walkers, stop):
            g.apply(walkers[DM if g.agent == "dm" else HEROES].choose(g))


def same_games(a: Game, b: Game, where: str) -> None:
    assert a.events == b.events, f"{where}: the logs differ"
    assert (a.over, a.outcome, int(a.state.turn)) == (b.over, b.outcome, int(b.state.turn)), where
    for name in ("unit_pos", "health", "unit_status", "revealed", "door_open"):
        assert np.array_equal(getattr(a.state, name), getattr(b.state, name)), f"{where}: {name} differs"
    if not a.over:
        assert a.legal_actions() == b.legal_actions() and a.decision == b.decision, where


@pytest.mark.parametrize("side", [HEROES, DM])
def test_a_compiled_rollout_plays_the_reference_moves(side):
    compared = 0
    for k in range(12):
        g = played_to(k, side)
        if g is None:
            continue
        view = heroes_view(g) if side == HEROES else search_worlds(dm_view(g), DM)
        world = determinise(view, random.Random(k), prior_of(view) if side == HEROES else None)
        worlds = [world.copy(), world.copy()]
        walkers = [walkers_with_plans(w, k, i) for i, w in enumerate(worlds)]
        if side == DM:  # a DM's search gives the heroes no plans
            for w in walkers:
                w[HEROES].plans.clear()
        stop = int(world.state.turn) + 2
        python_rollout(worlds[0], walkers[0], stop)
        compiled_rollout(worlds[1], walkers[1], stop)
        where = f"game {k} ({side})"
        same_games(worlds[0], worlds[1], where)
        ref, new = walkers[0][HEROES], walkers[1][HEROES]
        assert (ref.plans, ref.intent, ref.relieved, ref.waited) == (
            new.plans,
            new.intent,
            new.relieved,
            new.waited,
        )
        compared += len(worlds[0].events) - len(world.events)
    assert compared >= 500, compared


def search_stats(g: Game, side: str, compiled: bool, monkeypatch) -> list[dict]:
    """The first three searches of ``side`` in ``g`` played on by v2 otherwise: each one's statistics (its
    seconds left out)."""
    import agents.turn_search as turn_search

    if not compiled:
        monkeypatch.setattr(turn_search, "roll_out", lambda *args: False)
    search = TurnSearchAgent(game=g, seed=5)
    other = ScriptedDMV2(game=g, seed=5) if side == HEROES else ScriptedHeroesV2(game=g, seed=5)
    out = []
    while not g.over and len(out) < 3:
        if (g.agent == "dm") == (side == DM):
            g.apply(search.act(None, None))
            if search.last_stats:
                out.append({key: value for key, value in search.last_stats.items() if key != "seconds"})
        else:
            g.apply(other.act(None, None))
    monkeypatch.undo()
    return out


@pytest.mark.parametrize("side", [HEROES, DM])
def test_the_search_with_compiled_rollouts_is_the_same_search(side, monkeypatch):
    searched = 0
    for k in (0, 1, 2, 8):
        a = search_stats(new_game(k), side, compiled=False, monkeypatch=monkeypatch)
        b = search_stats(new_game(k), side, compiled=True, monkeypatch=monkeypatch)
        assert a == b, f"game {k} ({side})"
        searched += len(a)
    assert searched >= 6
