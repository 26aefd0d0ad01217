"""Nothing a user runs plays on the Python rules (docs/CORE.md, stage 7, "The Python rules retire").

With every Python rule that plays patched to raise (``tests/rules_guard.py``: the set-up, the turn
sequence, the decision table's legal lists and applies, the resolutions, the ending; only the
read-only helpers of ``READ_ONLY`` may be called, and what they call in turn), the product's paths
run to their end on the compiled core: the AEC env and its views, the batched env, every shipped
agent on both sides, the designer's tool, the play server's game loop, replays, renders and saves.
The guard records each call as well as raising it, so a path that swallows the error still fails.
Only the parity tests' reference (``engine="python"``) reaches the Python rules: the last tests
check that the guard catches it.
"""

from __future__ import annotations

import numpy as np
import pytest

import dungeon_env
from agents.spec import from_spec
from dungeon_env.batched import BatchedGames, BatchedRoleEnv
from dungeon_env.engine import Game
from dungeon_env.engine.decisions import HANDLERS
from dungeon_env.engine.side_knowledge import HEROES, knowledge_of
from dungeon_env.episode import play_episode, seed_agents
from dungeon_env.wrappers import RoleEnv
from tests.rules_guard import PythonRulesReached, rules_guard

SHORT = "tests/data/short_walk.toml"
PARTY = ["bram", "sela", "orwin"]


@pytest.fixture
def guard():
    """The Python rules that play raise inside the test; none may have been called at its end."""
    with rules_guard() as calls:
        yield calls
    assert not calls, f"the Python rules were reached: {calls[:5]}"


def _first_legal(mask: np.ndarray, k: int = 0) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[k % len(legal)])


def _aec_episode(env, agents: dict | None = None, seed: int = 3, max_steps: int = 3000) -> int:
    """Play ``env`` (an AEC env) to its end: ``agents`` by side, else a walk through the legal
    actions; the number of steps."""
    env.reset(seed=seed)
    steps = 0
    for agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        side = "dm" if agent == "dm" else "heroes"
        if agents is None:
            action = _first_legal(obs["action_mask"], steps)
        else:
            action = int(agents[side].act(obs["observation"], obs["action_mask"]))
        env.step(action)
        steps += 1
        assert steps < max_steps
    return steps


# ------------------------------------------------------------------------------- the env and its views


def test_the_aec_env_plays_and_renders_on_the_core(guard):
    env = dungeon_env.env(adventure="goblin_warrens", max_turns=12, render_mode="ansi")
    assert _aec_episode(env) > 20
    assert env.unwrapped.game.engine == "core" and env.unwrapped.game.over
    assert env.render()
    raw = dungeon_env.raw_env(adventure="flooded_cellar", heroes=5, max_turns=10, shaping={"damage": 0.1})
    assert _aec_episode(raw, seed=4) > 20
    campaign = dungeon_env.raw_env(campaign=["flooded_cellar", "goblin_warrens"], max_turns=6)
    env = dungeon_env.raw_env(campaign=["flooded_cellar", "goblin_warrens"], max_turns=6)
    scripted = {
        "heroes": from_spec("scripted", "heroes", env=env),
        "dm": from_spec("scripted", "dm", env=env),
    }
    _aec_episode(campaign, seed=6)
    _aec_episode(env, scripted, seed=6)


def test_the_parallel_env_plays_on_the_core(guard):
    env = dungeon_env.parallel_env(adventure="flooded_cellar", max_turns=10)
    observations, _infos = env.reset(seed=1)
    steps = 0
    while env.agents:
        actions = {
            a: _first_legal(o["action_mask"], steps)
            for a, o in observations.items()
            if o["action_mask"].any()
        }
        observations, *_ = env.step(actions)
        steps += 1
        assert steps < 3000
    assert steps > 10


@pytest.mark.parametrize("role", ["heroes", "dm"])
def test_a_role_env_against_the_scripted_side_plays_on_the_core(guard, role):
    env = RoleEnv(role=role, opponent="scripted", adventure="flooded_cellar", max_turns=10)
    env.reset(seed=2)
    episodes = steps = 0
    while episodes < 2:
        _obs, _reward, terminated, truncated, _info = env.step(_first_legal(env.action_masks(), steps))
        steps += 1
        if terminated or truncated:
            episodes += 1
            env.reset()
        assert steps < 3000


def test_the_batched_envs_play_on_the_core(guard):
    for native in (True, False):
        envs = BatchedRoleEnv(3, role="heroes", native=native, adventure="flooded_cellar", max_turns=8)
        envs.reset(seed=1)
        for k in range(60):
            envs.step([_first_legal(mask, k) for mask in envs.action_masks()])
        envs.close()
    games = BatchedGames(2, adventure="flooded_cellar", max_turns=8)
    games.reset(seed=1)
    for k in range(60):
        games.step([_first_legal(mask, k) for mask in games.action_masks()])


# ------------------------------------------------------------------------------------------ the agents


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_the_scripted_agents_play_both_sides_on_the_core(guard, version):
    spec = f"scripted@{version}"
    env = dungeon_env.raw_env(adventure="goblin_warrens", max_turns=15)
    agents = {"heroes": from_spec(spec, "heroes", env=env), "dm": from_spec(spec, "dm", env=env)}
    assert _aec_episode(env, agents) > 20
    heroes, dm = from_spec(spec, "heroes"), from_spec(spec, "dm")  # the one episode loop
    seed_agents(heroes, dm, 4)
    result = play_episode(heroes, dm, env.episode_start(4), env.outcome_rewards, env.shaping)
    assert result.game.over and result.game.engine == "core"


@pytest.mark.parametrize("spec", ["search[iterations=3]", "search@v1[rollouts=2,depth=30]"])
def test_the_searches_play_both_sides_on_the_core(guard, spec):
    for side, other in (("heroes", "dm"), ("dm", "heroes")):
        env = dungeon_env.raw_env(adventure="flooded_cellar", max_turns=3)
        agents = {side: from_spec(spec, side, env=env), other: from_spec("scripted", other, env=env)}
        _aec_episode(env, agents, seed=5)


def test_the_runaway_and_random_agents_play_on_the_core(guard):
    env = dungeon_env.raw_env(adventure="flooded_cellar", max_turns=8)
    agents = {"heroes": from_spec("random", "heroes", env=env), "dm": from_spec("runaway", "dm", env=env)}
    _aec_episode(env, agents)
    agents = {"heroes": from_spec("idle", "heroes", env=env), "dm": from_spec("random", "dm", env=env)}
    _aec_episode(env, agents)


def test_a_trained_policy_plays_on_the_core(guard, tmp_path):
    pytest.importorskip("sb3_contrib")
    from tests.checkpoints import tiny_checkpoint

    path = tiny_checkpoint(tmp_path / "heroes.zip", "heroes")
    env = dungeon_env.raw_env(adventure="flooded_cellar", max_turns=8)
    agents = {
        "heroes": from_spec(f"policy:{path}", "heroes", env=env),
        "dm": from_spec("scripted", "dm", env=env),
    }
    _aec_episode(env, agents)


# ------------------------------------------------------------------- the designer's tool, people, files


def test_the_designers_tool_plays_its_games_on_the_core(guard):
    from difficulty.runner import run
    from difficulty.spec import Experiment

    result = run(Experiment(games=3, seed=1, max_turns=10, backend="serial"))
    assert sum(len(records) for records in result.records) >= 3
    pairings = ("scripted@v1:scripted@v1", "random:runaway", "search[iterations=2]:scripted")
    result = run(Experiment(pairings=pairings, games=1, seed=2, max_turns=3, backend="serial"))
    assert sum(len(records) for records in result.records) == 3


def test_the_play_servers_game_loop_plays_on_the_core(guard, tmp_path):
    from play.table import Table

    seats = {"hero_0": "human", "hero_1": "scripted", "hero_2": "scripted", "dm": "scripted"}
    table = Table(adventure=SHORT, heroes=PARTY, seats=seats, seed=5, max_turns=20, saves=tmp_path)
    human = table.seats["hero_0"].token
    steps = 0
    while not table.over:
        table.view(human)
        table.spectator_view(table.host)
        if not table.step_ai():
            view = table.view(human)
            table.act(human, view["version"], view["decision"]["choices"][0]["action"])
        steps += 1
        if steps == 10:
            resumed = Table.resume(table.save("mid.json"), saves=tmp_path)
            assert resumed.game.engine == "core" and resumed.version == table.version
        assert steps < 2000
    assert table.game.engine == "core" and table.version > 10


def test_replays_renders_and_saves_play_on_the_core(guard, tmp_path):
    from dungeon_env import replay

    env = dungeon_env.raw_env(adventure="flooded_cellar", max_turns=6, render_mode="ansi")
    _aec_episode(env)
    rep = replay.record(env)
    again = replay.play(rep, render_mode="ansi")
    assert again.render() and again.game.events == env.game.events
    for _frame in replay.frames(rep, every=25):
        pass

    game = Game.new(adventure="goblin_warrens", seed=3)
    for k in range(40):
        game.apply(game.legal_actions()[k % len(game.legal_actions())])
    game.save(tmp_path / "game.json")
    loaded = Game.load(tmp_path / "game.json")
    assert loaded.engine == "core" and loaded.legal_actions() == game.legal_actions()
    loaded.apply(loaded.legal_actions()[0])


def test_a_heroes_view_for_reading_lists_a_dm_decision_in_the_core():
    """At a DM decision about a figure the heroes see, the heroes' view (for reading only) lists
    its own world's legal actions: a copy on the core computes them, as the Python rules do."""
    checked = 0
    for seed in range(12):
        game = Game.new(adventure="goblin_warrens", heroes=4, seed=seed, max_turns=25)
        rng = np.random.default_rng(seed)
        while not game.over and checked < 6:
            if game.agent == "dm":
                view = knowledge_of(game, HEROES).view()
                if view._legal is None:  # (not the real game's: the view's world's own)
                    with rules_guard() as calls:
                        legal = view.legal_actions()
                    assert not calls
                    kind, unit, a, b = view.state.stack[-1]
                    assert legal and legal == HANDLERS[kind][0](view, unit, a, b)  # the reference
                    checked += 1
            legal = game.legal_actions()
            game.apply(legal[int(rng.integers(len(legal)))])
    assert checked >= 1


# -------------------------------------------------------------------------- the guard itself bites


def test_the_reference_on_the_python_rules_is_caught_by_the_guard():
    with rules_guard() as calls, pytest.raises(PythonRulesReached, match="Game._place"):
        Game.new(adventure="flooded_cellar", seed=1, engine="python")
    assert calls
    game = Game.new(adventure="flooded_cellar", seed=1)
    game.use_engine("python")
    with rules_guard(raising=False) as calls:
        game.apply(game.legal_actions()[0])
    names = {name for name, _caller, _direct in calls}
    assert {"Game._apply_top", "decisions.apply", "Game._legal_for_top"} <= names


def test_a_rule_that_plays_is_caught_even_when_called_by_name():
    from dungeon_env.engine import units

    game = Game.new(adventure="flooded_cellar", seed=1)
    with rules_guard() as calls, pytest.raises(PythonRulesReached, match="units.take_off"):
        units.take_off(game, 0)
    assert [name for name, _caller, _direct in calls] == ["units.take_off"]
