"""The heroes' side views on the compiled core against the same views on the Python rules.

A heroes' view has tables of its own (no hidden traps, no unseen secret doors, the known doors
re-indexed), so the core plays it with content built from those tables (``core.content``). The
contract: a view (and a determinisation of it, ``agents.determinise``) played on the core gives the
same legal actions, events, dice and state as the same view played on the Python rules, action by
action, on every adventure; and the searches that play on the views choose alike on both engines.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from agents.determinise import determinise, prior_of
from agents.search import SearchAgent
from agents.turn_search import TurnSearchAgent
from dungeon_env.content import adventure_names
from dungeon_env.engine import Game
from dungeon_env.engine.side_knowledge import heroes_view, knowledge_of
from dungeon_env.engine.sideview import HeroesView, heroes_view_named
from dungeon_env.engine.tables import _line_of_sight

STEPS = 40  # actions played on each pair of views


def differences(core_game: Game, python_game: Game, start: int) -> list[str]:
    """What differs between the two games: the decision, legal actions, events from ``start``,
    dice and state fields (by name)."""
    out = []
    if core_game.over != python_game.over or core_game.outcome != python_game.outcome:
        out.append(f"over/outcome: {core_game.outcome!r} vs {python_game.outcome!r}")
    if not python_game.over:
        if core_game.decision != python_game.decision:
            out.append(f"decision: {core_game.decision} vs {python_game.decision}")
        elif python_game.state.stack and core_game.legal_actions() != python_game.legal_actions():
            out.append(f"legal: {core_game.legal_actions()} vs {python_game.legal_actions()}")
    if core_game.events_since(start) != python_game.events_since(start):
        out.append(
            f"events from {start}: {core_game.events_since(start)} vs {python_game.events_since(start)}"
        )
    if core_game.dice.to_json() != python_game.dice.to_json():
        out.append("dice")
    a, b = core_game.state.to_json(), python_game.state.to_json()
    out += [f"state.{k}: {a[k]} vs {b[k]}" for k in a if a[k] != b[k]]
    return out


def lockstep(core_game: Game, python_game: Game, rng: random.Random, steps: int = STEPS) -> int:
    """Play both games with the same random legal actions, comparing after each; the actions played."""
    assert core_game.engine == "core" and python_game.engine == "python"
    assert differences(core_game, python_game, 0) == []
    played = 0
    while played < steps and not python_game.over and python_game.state.stack:
        action = rng.choice(python_game.legal_actions())
        start = python_game.n_events
        python_game.apply(action)
        core_game.apply(action)
        played += 1
        found = differences(core_game, python_game, start)
        assert found == [], f"step {played}, action {action}: " + "; ".join(found)
    return played


def positions(adventure: str, seed: int, every: int = 7, steps: int = 160):
    """Positions of a random game on the core, one in every ``every`` actions (the heroes' or the
    DM's decision: the heroes' view of a DM's decision holds the view's own legal actions)."""
    rng = random.Random(seed)
    game = Game.new(adventure, heroes=3 + seed % 3, seed=seed)
    for step in range(steps):
        if game.over:
            return
        if step % every == 0:
            yield game
        game.apply(rng.choice(game.legal_actions()))


def both_views(game: Game, seed: int) -> tuple[Game, Game]:
    core_view = heroes_view(game, seed=seed)
    python_view = heroes_view(game, seed=seed, engine="python")
    return core_view, python_view


def assert_same_reading(view: Game, game: Game) -> None:
    """The view for reading of a game on the core is the one of its twin on the Python rules, and
    the guards the heroes' knowledge says they saw slain are those the log says."""
    twin = game.copy()
    twin.use_engine("python")
    python_view = heroes_view(twin, playable=False)
    assert view.state.to_json() == python_view.state.to_json()
    assert view.legal_actions() == python_view.legal_actions()
    known = knowledge_of(game, "heroes")
    from_log = heroes_view_named(
        game, seen=known.monsters_seen(), numbers=known.numbers(), events=known.events, playable=False
    )
    assert from_log.state.guard_slain.tolist() == view.state.guard_slain.tolist()


@pytest.mark.parametrize("adventure", adventure_names())
def test_views_play_alike_on_both_engines(adventure):
    played = views = 0
    for seed in (1, 2):
        for k, game in enumerate(positions(adventure, seed)):
            core_view, python_view = both_views(game, seed=k)
            assert isinstance(core_view, HeroesView) and core_view.engine == "core"
            assert python_view.engine == "python"
            assert core_view.legal_actions() == python_view.legal_actions()
            if game.agent != "dm":
                assert core_view.legal_actions() == game.legal_actions()
            # the view itself (the real game's legal actions at its decision), then a copy (its own)
            played += lockstep(core_view, python_view, random.Random(k))
            view = heroes_view(game, playable=False)
            assert_same_reading(view, game)
            copy_core, copy_python = view.copy(), heroes_view(game, playable=False).copy()
            copy_python.use_engine("python")
            assert copy_core.engine == "core"
            played += lockstep(copy_core, copy_python, random.Random(100 + k))
            views += 1
    assert views >= 10 and played >= 200


@pytest.mark.parametrize("adventure", adventure_names())
def test_determinisations_play_alike_on_both_engines(adventure):
    played = sampled = 0
    for seed in (3, 4):
        for k, game in enumerate(positions(adventure, seed, every=11)):
            core_view, python_view = both_views(game, seed=k)
            prior = prior_of(python_view)
            core_det = determinise(core_view, random.Random(k), prior)
            python_det = determinise(python_view, random.Random(k), prior)
            assert core_det.engine == "core" and python_det.engine == "python"
            n_core, n_python = (
                len(g.tables.adventure.guards) + len(g.tables.adventure.traps) for g in (core_det, python_det)
            )
            assert n_core == n_python
            sampled += (
                n_python - len(python_view.tables.adventure.guards) - len(python_view.tables.adventure.traps)
            )
            played += lockstep(core_det, python_det, random.Random(k), steps=60)
    assert sampled > 0 and played >= 200


def _first_choices(agent_class, side: str, engine: str, adventure: str, seed: int, searches: int = 3):
    """The searching agent's first ``searches`` searched choices (with their statistics) in a game
    whose other side is random, the views on ``engine``."""
    rng = random.Random(seed)
    game = Game.new(adventure, heroes=3, seed=seed)
    agent = agent_class(game=game, seed=seed)
    out = []
    original = heroes_view

    def view_on(g, **options):
        return original(g, **{**options, "engine": engine})

    import agents.search as search_module
    import agents.turn_search as turn_search_module

    saved = search_module.heroes_view, turn_search_module.heroes_view
    search_module.heroes_view = turn_search_module.heroes_view = view_on
    try:
        for _ in range(400):
            if game.over or len(out) >= searches:
                break
            mine = (game.agent == "dm") == (side == "dm")
            if mine:
                action = agent.choose(game)
                if agent.last_stats:
                    stats = {k: v for k, v in agent.last_stats.items() if k != "seconds"}
                    out.append((action, stats))
            else:
                action = rng.choice(game.legal_actions())
            game.apply(action)
    finally:
        search_module.heroes_view, turn_search_module.heroes_view = saved
    return out


@pytest.mark.parametrize(
    ("agent_class", "adventure"),
    [(TurnSearchAgent, "goblin_warrens"), (TurnSearchAgent, "bandit_keep"), (SearchAgent, "flooded_cellar")],
)
def test_heroes_search_chooses_alike_on_both_engines(agent_class, adventure):
    options = {"rollouts": 6, "depth": 12} if agent_class is SearchAgent else {}

    def agent(game, seed):
        return agent_class(game=game, seed=seed, **options)

    on_core = _first_choices(agent, "heroes", "core", adventure, seed=5)
    on_python = _first_choices(agent, "heroes", "python", adventure, seed=5)
    assert len(on_core) >= 2
    assert on_core == on_python


@pytest.mark.parametrize("adventure", ["bandit_keep", "sunless_throne"])
def test_whole_line_of_sight_of_a_view_is_its_boards(adventure):
    """The line of sight a view's tables hand the core whole is the one computed from the view's own
    walls, doors and blockages, and the one its rows give."""
    checked = 0
    for k, game in enumerate(positions(adventure, seed=6, every=40)):
        t = heroes_view(game, playable=False).tables
        static, doors = t.los_static.los_arrays()
        expected_static, expected_doors = _line_of_sight(t.wall, t.edge_door, t.blockage)
        assert np.array_equal(static, expected_static) and np.array_equal(doors, expected_doors)
        for a in (0, 100 + k, len(static) - 1):
            assert np.array_equal(t.los_static[a], static[a]) and np.array_equal(t.los_doors[a], doors[a])
        checked += 1
    assert checked >= 3
