"""The env in Tianshou 2.0.1's own multi-agent stack, unmodified: masked policies for every agent, a
Collector gathering whole episodes, episode returns per agent; optionally a tiny DQN for the heroes.

    python -m training.tianshou_example               # Tianshou's masked random policy everywhere
    python -m training.tianshou_example --train dqn   # a DQN for the heroes against a random DM
    python -m training.tianshou_example --json        # the report as JSON (returns, outcome, seed, actions)
    NUMBA_DISABLE_JIT=1 python -m training.tianshou_example   # short runs: skip numba's ~15 s compile

**The recipe.**

1. *The env, unmodified.* ``tianshou.env.PettingZooEnv(dungeon_env.env(**env_kwargs))``
   (``make_env``): Tianshou's AEC wrapper turns ``obs["observation"]`` / ``obs["action_mask"]`` into
   its ``Batch(obs=..., mask=..., agent_id=...)`` and reports the rewards of *every* agent after each
   step as one vector (``env.rewards`` in ``possible_agents`` order: ``hero_0 .. hero_{k-1}, dm``), so
   an episode's return is a vector too. The env ends every agent on the same step and hands every
   agent the team's reward on it, so each hero's return is the team's outcome reward and the DM's is
   its negative (``rewards`` of that step: Tianshou never takes PettingZoo's dead steps, and needs
   none). A policy that ignores the mask is safe too: ``dungeon_env.env()`` penalises an illegal
   action (the offender gets ``illegal_reward``, -1, the others 0, the game ends with an
   ``IllegalActionWarning``) and the Collector resets that env like any other ended game.
2. *Vector env and seeds.* ``DummyVectorEnv`` of ``--envs`` copies; ``venv.seed(seed)`` seeds copy
   ``i`` with ``seed + i`` (the env has no ``seed`` attribute, so Tianshou falls back on
   ``reset(seed=)``; the following ``reset()`` calls draw each episode's seed from it). Python,
   NumPy (Tianshou's random policy and exploration draw from NumPy's global generator) and torch are
   seeded too (``training.common.seed_everything``).
3. *Policies.* ``MultiAgentOffPolicyAlgorithm(algorithms=[one per agent], env=...)``, the 2.0.1 name
   of the policy manager, dispatches each transition by ``obs.agent_id``. By default every agent is
   ``MARLRandomDiscreteMaskedOffPolicyAlgorithm`` (uniform over the legal actions, from ``mask``).
   ``--train dqn``: the heroes share ONE ``DQN`` (the same object for every ``hero_k``: parameter
   sharing; the observation's ``me`` piece tells them apart) over an MLP (``tianshou.utils.net.common.Net``,
   ``--hidden``) whose Q-values of illegal actions are masked by ``DiscreteQLearningPolicy``; the
   DM stays random. ``run_training(OffPolicyTrainerParams(...))`` trains for ``--train-steps`` env
   steps, then the episodes are collected with the trained heroes (``--eps-test`` exploration).
4. *Collection.* ``Collector(algorithm, venv, VectorReplayBuffer(...), on_step_hook=EndRecorder)``,
   ``collect(n_episode=--episodes, reset_before_collect=True)``; ``CollectStats.returns`` is
   ``[episodes, agents]``. The step hook reads each finished game from its env before the Collector
   resets it: the outcome, the goals, the episode's seed and actions (enough to replay it, as
   ``dungeon_env.replay`` does). The env's infos are steady (the same keys at every step, never None),
   so the buffer takes them as they are: Tianshou's trainer refuses a buffer holding a null
   (``MalformedBufferError``), which infos whose keys changed within an episode used to cause. The
   buffer keeps ``--buffer-size`` transitions per env without ``obs_next`` (``ignore_obs_next``):
   an observation is 17,061 floats, ~70 KB a transition, so Tianshou's default buffer (10,000 per
   env) would take GBs.

**Limits of Tianshou's multi-agent support (not the env's):** the buffer is one interleaved stream of
every agent's moves, so a transition's ``obs_next`` is the next agent's observation, not the same
agent's next one: DQN bootstraps a hero's value through the DM's (or another hero's) states, and a
hero gets the final reward only in the n-step window of the last move. A learner that needs
per-agent transitions (a hero's next decision, the rewards in between summed) has to stitch them from
the buffer by ``obs.agent_id``, or use the project's MaskablePPO ``RoleEnv`` (``training.train_role``)
or RLlib (``training.rllib_train``). The manager wants one algorithm per agent (no
``policy_mapping_fn``): sharing is the same object passed for every hero, updated once per hero.
No centralised critic: Tianshou's wrapper does not expose ``state()``. ``CollectStats.returns_stat``
flattens the vector returns (with a logged warning, "Sequence has shape ..."): read the returns per
agent from ``CollectStats.returns``, or reduce them with the trainer's ``multi_agent_return_reduction``.

**Options**: the game (``training.common.EnvSettings``: ``--adventure``, ``--heroes``, ``--max-turns``,
``--shaping``, ``--reward-truncated`` ...; here ``--max-turns 4`` and no shaping by default), ``--seed``,
``--envs``, ``--episodes``, ``--buffer-size``, ``--train`` and the DQN settings, ``--json``; ``--help``
lists them with their defaults.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import numpy as np
import torch
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

import dungeon_env
from training.common import EnvSettings, parse_settings, seed_everything

TRAIN_CHOICES = ("none", "dqn")


@dataclasses.dataclass
class Settings(EnvSettings):
    """Collect episodes of the env with Tianshou 2.0.1's own PettingZoo support and masked policies
    (random everywhere, or a tiny DQN for the heroes), and print each agent's episode returns."""

    max_turns: int = 4
    """turn cap of an episode (it pays --reward-truncated: terminated if that is not 0, else truncated)"""
    shaping: str = ""
    """reward shaping terms, name=weight comma-separated ('' for none: the returns are the outcome's)"""
    seed: int = 0
    """seed of the run (venv.seed, Python, NumPy, torch)"""
    envs: int = 2
    """games played side by side in Tianshou's DummyVectorEnv"""
    episodes: int = 4
    """whole episodes the Collector gathers (at least --envs)"""
    buffer_size: int = 400
    """replay-buffer transitions kept per env (each ~70 KB: the observation has 17,061 floats); keep
    it above an episode's steps: Tianshou 2.0.1 counts the length of an episode that wrapped around
    the buffer wrong (its return stays right)"""
    train: str = "none"
    """none: every agent plays Tianshou's masked random policy; dqn: first train one DQN shared by the
    heroes against the random DM, then collect with it"""
    train_steps: int = 256
    """env steps of DQN training (all agents' moves count)"""
    collect_per_step: int = 32
    """env steps collected between two DQN updates"""
    updates_per_step: float = 0.1
    """gradient steps per collected env step"""
    batch_size: int = 32
    """DQN minibatch size"""
    hidden: int = 64
    """width of the DQN's hidden layer"""
    lr: float = 1e-3
    """Adam learning rate"""
    gamma: float = 0.99
    """discount factor"""
    n_step: int = 3
    """n-step return horizon of the DQN target"""
    target_update_freq: int = 50
    """gradient steps between two copies of the DQN into its target network"""
    eps_train: float = 0.2
    """epsilon-greedy exploration while training"""
    eps_test: float = 0.05
    """epsilon-greedy exploration while collecting the reported episodes"""
    torch_threads: int = 1
    """torch threads in this process (0: torch's default); 1 is fastest on 2 shared cores"""
    json: bool = False
    """print the report as JSON instead of a table"""


# ----------------------------------------------------------------------------- env
def make_env(env_kwargs: dict[str, Any]) -> PettingZooEnv:
    """The env, unmodified, in Tianshou's own PettingZoo wrapper."""
    return PettingZooEnv(dungeon_env.env(**env_kwargs))


def make_venv(env_kwargs: dict[str, Any], n_envs: int, seed: int) -> DummyVectorEnv:
    """``n_envs`` copies in a ``DummyVectorEnv``, copy ``i`` seeded with ``seed + i``."""
    venv = DummyVectorEnv([lambda: make_env(env_kwargs) for _ in range(n_envs)])
    venv.seed(seed)
    return venv


# ----------------------------------------------------------------------------- policies
def make_algorithm(settings: Settings, env: PettingZooEnv) -> MultiAgentOffPolicyAlgorithm:
    """One algorithm per agent, in ``env.agents`` order: the DM plays Tianshou's masked random policy;
    the heroes too, or (``train="dqn"``) one DQN shared by every hero."""
    if settings.train not in TRAIN_CHOICES:
        raise ValueError(f"--train must be one of {TRAIN_CHOICES}, got {settings.train!r}")
    random_algo = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
    heroes = random_algo if settings.train == "none" else make_dqn(settings, env)
    algorithms = [random_algo if agent == "dm" else heroes for agent in env.agents]
    return MultiAgentOffPolicyAlgorithm(algorithms=algorithms, env=env)


def make_dqn(settings: Settings, env: PettingZooEnv) -> DQN:
    """A DQN over an MLP of the flat observation; illegal actions' Q-values are masked by the policy
    (it reads ``obs.mask``)."""
    net = Net(
        state_shape=env.observation_space["observation"].shape,
        action_shape=int(env.action_space.n),
        hidden_sizes=[settings.hidden],
    )
    policy = DiscreteQLearningPolicy(
        model=net,
        action_space=env.action_space,
        eps_training=settings.eps_train,
        eps_inference=settings.eps_test,
    )
    return DQN(
        policy=policy,
        optim=AdamOptimizerFactory(lr=settings.lr),
        gamma=settings.gamma,
        n_step_return_horizon=settings.n_step,
        target_update_freq=settings.target_update_freq,
    )


# ----------------------------------------------------------------------------- collection
class EndRecorder:
    """A Collector step hook: when a game ends, read it from its env before the Collector resets it
    (outcome, goals, the episode's seed and actions), in the order the Collector counts episodes.
    ``get_env_attr`` of a ``DummyVectorEnv`` hands out the env objects
    themselves (a subprocess vector env would send pickled copies)."""

    def __init__(self, venv: DummyVectorEnv) -> None:
        self.venv = venv
        self.ends: list[dict[str, Any]] = []

    def __call__(self, action_batch: Any, rollout_batch: Any) -> None:
        done = np.asarray(rollout_batch.done, dtype=bool)
        if done.any():
            self._record(rollout_batch, done)

    def _record(self, rollout_batch: Any, done: np.ndarray) -> None:
        env_ids = [int(i) for i in np.asarray(rollout_batch.info.env_id)[done]]
        for env_id, env in zip(env_ids, self.venv.get_env_attr("env", env_ids), strict=True):
            raw = env.unwrapped
            self.ends.append(
                {
                    "env_id": env_id,
                    "outcome": raw.game.outcome if raw.illegal is None else "illegal_action",
                    "goals_met": bool(raw.game.goals_met),
                    "seed": raw.episode_seed,
                    "actions": [int(a) for a in raw.actions],
                }
            )


def make_buffer(settings: Settings) -> VectorReplayBuffer:
    return VectorReplayBuffer(settings.buffer_size * settings.envs, settings.envs, ignore_obs_next=True)


def collect_episodes(
    settings: Settings, algorithm: MultiAgentOffPolicyAlgorithm, seed: int
) -> tuple[list[str], list[dict[str, Any]]]:
    """Collect ``settings.episodes`` whole episodes; the agents and, per episode, each agent's return
    (Tianshou's ``CollectStats.returns``), its length and what ``EndRecorder`` read from the env."""
    venv = make_venv(settings.env_kwargs(), settings.envs, seed)
    agents = list(venv.get_env_attr("agents", [0])[0])
    recorder = EndRecorder(venv)
    collector = Collector[CollectStats](
        algorithm, venv, make_buffer(settings), exploration_noise=True, on_step_hook=recorder
    )
    stats = collector.collect(n_episode=settings.episodes, reset_before_collect=True)
    collector.close()
    returns = np.asarray(stats.returns, dtype=float).reshape(len(recorder.ends), len(agents))
    episodes = [
        {"returns": dict(zip(agents, map(float, row), strict=True)), "steps": int(length), **end}
        for row, length, end in zip(returns, stats.lens, recorder.ends, strict=True)
    ]
    return agents, episodes


def train_dqn(settings: Settings, algorithm: MultiAgentOffPolicyAlgorithm) -> dict[str, Any]:
    """Train the heroes' DQN for ``settings.train_steps`` env steps (one epoch, no test collector)."""
    venv = make_venv(settings.env_kwargs(), settings.envs, settings.seed + 10_000)
    collector = Collector[CollectStats](algorithm, venv, make_buffer(settings), exploration_noise=True)
    collector.reset()
    collector.collect(n_step=settings.batch_size * settings.envs)  # enough transitions for a batch
    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=collector,
            max_epochs=1,
            epoch_num_steps=settings.train_steps,
            collection_step_num_env_steps=settings.collect_per_step,
            update_step_num_gradient_steps_per_sample=settings.updates_per_step,
            batch_size=settings.batch_size,
            multi_agent_return_reduction=lambda rets: rets[:, 0],  # hero_0's: the team's return
            verbose=not settings.json,
            show_progress=False,
        )
    )
    collector.close()
    return {
        "env_steps": int(result.train_step),
        "episodes": int(result.train_episode),
        "update_steps": int(result.update_step),
    }


# ----------------------------------------------------------------------------- report
def format_report(agents: list[str], episodes: list[dict[str, Any]]) -> str:
    """A table: one row per episode (outcome, steps, each agent's return), then the means."""
    width = max(10, *(len(a) + 1 for a in agents))
    head = f"{'episode':>7}  {'outcome':<16}{'steps':>6}" + "".join(f"{a:>{width}}" for a in agents)
    rows = [head]
    for k, ep in enumerate(episodes):
        outcome = ep["outcome"] + (" (goals)" if ep["goals_met"] and ep["outcome"] == "completed" else "")
        rets = "".join(f"{ep['returns'][a]:>{width}.3f}" for a in agents)
        rows.append(f"{k:>7}  {outcome:<16}{ep['steps']:>6}{rets}")
    means = "".join(f"{np.mean([ep['returns'][a] for ep in episodes]):>{width}.3f}" for a in agents)
    rows.append(f"{'mean':>7}  {'':<16}{np.mean([ep['steps'] for ep in episodes]):>6.0f}{means}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    settings = parse_settings(Settings, argv, description=__doc__.split("\n\n")[0])
    if settings.episodes < settings.envs:
        raise SystemExit(f"--episodes ({settings.episodes}) must be at least --envs ({settings.envs})")
    seed_everything(settings.seed)
    if settings.torch_threads > 0:
        torch.set_num_threads(settings.torch_threads)
    algorithm = make_algorithm(settings, make_env(settings.env_kwargs()))
    report: dict[str, Any] = {"settings": dataclasses.asdict(settings)}
    if settings.train == "dqn":
        report["train"] = train_dqn(settings, algorithm)
    with torch.no_grad():
        report["agents"], report["episodes"] = collect_episodes(settings, algorithm, settings.seed)
    if settings.json:
        print(json.dumps(report))
    else:
        if "train" in report:
            print(f"trained the heroes' DQN: {report['train']}")
        print(format_report(report["agents"], report["episodes"]))
    return report


if __name__ == "__main__":
    main()
