"""Tianshou 2.0.1's own PettingZoo support runs the env unmodified (``training/tianshou_example.py``):
``PettingZooEnv(dungeon_env.env(...))`` in a seeded ``DummyVectorEnv``, masked policies for every agent
in ``MultiAgentOffPolicyAlgorithm``, a ``Collector`` gathering whole episodes, whose returns (one per
agent) are the team's outcome reward for every hero and its negative for the DM; replaying each
episode from its seed and actions in the plain env gives the same outcome and the same returns.

The runs are subprocesses (CleanRL's smoke tests) with ``NUMBA_DISABLE_JIT=1``: Tianshou compiles its
buffer and return functions with numba on first use (~15 s), longer than the tiny runs themselves.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import dungeon_env

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("tianshou") is None, reason="the marl extra (tianshou) is not installed"
)

ROOT = Path(__file__).resolve().parents[1]
AGENTS = ["hero_0", "hero_1", "hero_2", "dm"]
# every outcome its own heroes' reward, so a return names the outcome it came from
ENV_KWARGS = {
    "adventure": "flooded_cellar",
    "heroes": 3,
    "max_turns": 3,
    "reward_truncated": 0.25,
    "reward_completed_without_goal": 0.5,
}
TEAM_REWARD = {"completed": 1.0, "completed_without_goal": 0.5, "failed": -1.0, "truncated": 0.25}
TINY = [
    *("--adventure", "flooded_cellar", "--heroes", "3", "--max-turns", "3", "--shaping", ""),
    *("--reward-truncated", "0.25", "--reward-completed-without-goal", "0.5"),
    *("--envs", "2", "--episodes", "4", "--json"),
]
TINY_DQN = [
    *("--train", "dqn", "--train-steps", "64", "--collect-per-step", "32", "--batch-size", "16"),
    *("--hidden", "16", "--episodes", "2"),
]


def run_example(args: list[str], times: int = 1) -> list[dict]:
    """``training.tianshou_example.main(args)`` run ``times`` times in one subprocess (one import of
    torch and Tianshou, ~6 s); the JSON report of each run."""
    runs = "; ".join(["main(sys.argv[1:])"] * times)
    done = subprocess.run(
        [sys.executable, "-c", f"import sys; from training.tianshou_example import main; {runs}", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_DISABLE_JIT": "1"},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


def team_reward(episode: dict) -> float:
    outcome = episode["outcome"]
    if outcome == "completed" and not episode["goals_met"]:
        outcome = "completed_without_goal"
    return TEAM_REWARD[outcome]


def replay(episode: dict) -> tuple[str, dict[str, float], int]:
    """The episode again in the plain env, from its seed and actions: the outcome, each agent's
    return as PettingZoo's ``last()`` hands it out (dead steps included), the actions taken."""
    env = dungeon_env.env(**ENV_KWARGS)
    env.reset(seed=episode["seed"])
    actions = iter(episode["actions"])
    returns = dict.fromkeys(env.possible_agents, 0.0)
    taken = 0
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        returns[agent] += reward
        if terminated or truncated:
            env.step(None)
        else:
            env.step(next(actions))
            taken += 1
    return env.unwrapped.game.outcome, returns, taken


def assert_team_outcome(report: dict, n_episodes: int) -> None:
    assert report["agents"] == AGENTS
    episodes = report["episodes"]
    assert len(episodes) == n_episodes
    for episode in episodes:
        reward = team_reward(episode)
        expected = {agent: -reward if agent == "dm" else reward for agent in AGENTS}
        assert episode["returns"] == expected, episode["outcome"]
        assert episode["steps"] == len(episode["actions"]) > 0  # every step an action, none illegal
        outcome, returns, taken = replay(episode)
        assert (outcome, returns, taken) == (episode["outcome"], expected, len(episode["actions"]))


def test_random_masked_policies_collect_whole_episodes_whose_returns_are_the_team_outcome():
    first, again = run_example([*TINY, "--seed", "3"], times=2)
    assert_team_outcome(first, 4)
    assert {ep["env_id"] for ep in first["episodes"]} == {0, 1}  # both copies of the vector env played
    assert len({ep["seed"] for ep in first["episodes"]}) == 4  # each episode a game of its own
    assert again["episodes"] == first["episodes"]  # venv.seed(3) and NumPy's seed fix every game


def test_dqn_heroes_train_on_tianshou_buffers_then_collect_with_the_team_outcome():
    (report,) = run_example([*TINY, *TINY_DQN, "--seed", "5"])
    assert report["train"]["env_steps"] >= 64
    assert report["train"]["update_steps"] >= 1
    assert_team_outcome(report, 2)
