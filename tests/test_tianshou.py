"""Tianshou 2.0.1's own PettingZoo support runs the env unmodified (``training/tianshou_example.py``):
``PettingZooEnv(dungeon_env.env(...))`` in a seeded ``DummyVectorEnv``, masked policies for every agent
in ``MultiAgentOffPolicyAlgorithm``, a ``Collector`` gathering whole episodes, whose returns (one per
agent) are the team's outcome reward for every hero and its negative for the DM; replaying each
episode from its seed and actions in the plain env gives the same outcome and the same returns.
Tianshou's own trainer (``run_training``, its documented multi-agent pattern) trains on the env with
no step hook and nothing of the project's but ``dungeon_env.env``: the infos are steady (issue 48),
so its buffer holds no null, and the turn cap lands in the buffer as the task pays it.

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


# Tianshou's own documented multi-agent pattern (its tic-tac-toe tutorial, 2.0.1 names), on the env
# as it is: no step hook, no wrapper, nothing of the project's but ``dungeon_env.env``. The trainer
# checks its buffer for nulls after every collection (``MalformedBufferError``), which steady infos
# pass; a turn cap the task pays for lands in the buffer as ``terminated``, one that pays nothing as
# ``truncated``.
TRAINER_RUN = """
import json, sys, time
import numpy as np, torch
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net
import dungeon_env

torch.set_num_threads(1)
for paid in (-1.0, 0.0):
    np.random.seed(0)
    torch.manual_seed(0)
    kwargs = dict(adventure="flooded_cellar", heroes=3, max_turns=3, reward_truncated=paid)
    make = lambda: PettingZooEnv(dungeon_env.env(**kwargs))
    env = make()
    dm = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
    net = Net(state_shape=env.observation_space["observation"].shape, action_shape=env.action_space.n,
              hidden_sizes=[16])
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=0.2,
                                     eps_inference=0.05)
    heroes = DQN(policy=policy, optim=AdamOptimizerFactory(lr=1e-3), gamma=0.99,
                 n_step_return_horizon=3, target_update_freq=50)
    algorithm = MultiAgentOffPolicyAlgorithm(
        algorithms=[dm if agent == "dm" else heroes for agent in env.agents], env=env)
    venv = DummyVectorEnv([make for _ in range(2)])
    venv.seed(0)
    buffer = VectorReplayBuffer(2000, 2, ignore_obs_next=True)
    collector = Collector[CollectStats](algorithm, venv, buffer, exploration_noise=True)
    collector.reset()
    start = time.perf_counter()
    result = algorithm.run_training(OffPolicyTrainerParams(
        training_collector=collector, max_epochs=1, epoch_num_steps=int(sys.argv[1]),
        collection_step_num_env_steps=32, update_step_num_gradient_steps_per_sample=0.1, batch_size=16,
        multi_agent_return_reduction=lambda returns: returns[:, 0], verbose=False, show_progress=False))
    seconds = time.perf_counter() - start
    stored = buffer[:]
    ends = np.flatnonzero(stored.done)
    print(json.dumps({
        "paid": paid,
        "env_steps": int(result.train_step),
        "episodes": int(result.train_episode),
        "update_steps": int(result.update_step),
        "steps_per_second": result.train_step / seconds,
        "hasnull": bool(buffer.hasnull()),
        "info_keys": sorted(stored.info.keys()),
        "end_outcomes": [str(o) for o in stored.info.outcome[ends]],
        "end_flags": [[bool(stored.terminated[i]), bool(stored.truncated[i])] for i in ends],
        "mid_outcomes": sorted({str(o) for o in stored.info.outcome[~stored.done]}),
    }))
"""


def test_tianshous_own_trainer_runs_on_the_env_with_no_hook_and_stores_the_turn_cap_as_the_task_pays_it():
    done = subprocess.run(
        [sys.executable, "-c", TRAINER_RUN, "600"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_DISABLE_JIT": "1"},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    runs = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert [run["paid"] for run in runs] == [-1.0, 0.0]
    for run in runs:
        assert run["env_steps"] >= 600 and run["update_steps"] >= 1
        assert run["episodes"] >= 3  # a few whole episodes went through the trainer's buffer checks
        assert not run["hasnull"]
        keys = ["decision", "env_id", "goals_met", "objectives", "outcome", "reason", "unit"]
        assert run["info_keys"] == keys  # the env's steady keys (and the vector env's env_id)
        assert run["mid_outcomes"] == [""]  # nothing ended before the episode's last step
        outcomes, flags = run["end_outcomes"], run["end_flags"]
        assert len(outcomes) >= 3 and set(outcomes) <= {"truncated", "failed", "completed"}
        capped = [end for outcome, end in zip(outcomes, flags, strict=True) if outcome == "truncated"]
        assert capped  # random heroes in three turns: the cap ends most games
        paid_for = run["paid"] != 0.0
        assert all(end == [paid_for, not paid_for] for end in capped)
