"""Multi-agent PPO on Ray RLlib 2.60 (new API stack): one RLModule for the heroes, one for the DM, both
learning at once in the same games.

    python -m training.rllib_train --adventure flooded_cellar --heroes 3 --iterations 50 --env-runners 1
    python -m training.rllib_train --address auto ...   # on a running Ray cluster instead

**The recipe.**

1. *The env, unmodified.* ``dungeon_env.env(**env_kwargs)`` (the wrapped AEC env) goes into RLlib's own
   AEC wrapper ``ray.rllib.env.wrappers.pettingzoo_env.PettingZooEnv``, registered with
   ``ray.tune.registry.register_env`` as ``dungeon_v1`` (``make_env``). No adapter: the wrapper hands
   RLlib only the agent the game asks (its turn order), and the final rewards of every agent through
   the dead steps (``last()``). RLlib's env pre-check steps the env once with an unmasked random
   action; the env's default ``illegal_action="penalize"`` ends that game with a penalty and an
   ``IllegalActionWarning`` instead of raising (issue 14), and the env runner then resets.
2. *Two modules.* ``policies={"heroes", "dm"}`` with ``policy_mapping_fn`` sending ``hero_*`` to
   ``heroes`` (every hero shares the module: one team, parameter sharing; the observation's ``me``
   and ``role`` pieces tell the heroes apart) and ``dm`` to ``dm``; a ``MultiRLModuleSpec`` of two
   ``MaskedGridModule`` specs. Both are in ``policies_to_train`` (the default): every iteration
   updates both, on the steps each side took.
3. *The model.* ``MaskedGridModule`` (a ``TorchRLModule`` with the ``ValueFunctionAPI``) cuts the
   flat observation with ``dungeon_env.observation.OBS_SPEC``: the ``board`` piece reshaped to its
   ``[planes, 28, 24]`` grid goes through a small Conv2d stack (``--conv-channels``; strides 1, 2, 2),
   every other piece (units, items, spells, candidates, the decision context) through one dense
   layer; both are concatenated and go through a shared dense layer (``--hidden``) into the policy
   logits and the value head (PPO's critic). The logits of the actions ``obs["action_mask"]`` marks
   illegal are set to ``FLOAT_MIN`` in ``forward_inference``, ``forward_exploration`` and
   ``forward_train`` alike, so sampling, greedy play and the PPO loss never see an illegal action.
4. *PPO*: ``PPOConfig().environment("dungeon_v1", env_config=env_kwargs).multi_agent(...)
   .rl_module(rl_module_spec=...).env_runners(num_env_runners=--env-runners).training(...)``;
   ``--env-runners 0`` samples in the driver process (on 2 cores as fast as one env runner actor,
   ~120 env steps per second with the learning included, and no actor to start).
5. *Ray*: a local instance (``ray.init(num_cpus=--num-cpus, include_dashboard=False)``), or the
   cluster at ``--address`` (every node needs this repository importable: ``make_env`` is looked up
   by name on the env runners).
6. *Checkpoints*: ``algo.save(runs/<run>/checkpoints/iter_NNNN)`` every ``--checkpoint-every``
   iterations and ``runs/<run>/final`` at the end; ``Algorithm.from_checkpoint(path)`` resumes
   training, ``load_modules(path)`` loads the two modules alone (no Ray needed).
7. *Evaluation*: ``ModuleAgent`` plays a module as an agent of the project
   (``act(observation, action_mask) -> int``, the greedy masked action), and
   ``training.evaluate.evaluate`` plays the trained heroes against the scripted DM and the scripted
   heroes against the trained DM (``--eval-games`` games each, seeds from 10**6); the tables are
   printed as ``python -m training.evaluate`` prints them.

**What RLlib does with the game's rewards.** Every hero gets the team's reward (the env card), but
RLlib credits an agent only with what it receives after its first action (a reward handed with an
agent's first observation has no action to go to), so a hero who first acts late, or a DM whose
monsters appear late, logs less than the team's return; ``module_episode_returns_mean`` (the
``return`` printed per iteration) sums the returns of a module's agents in an episode. RLlib's
``PettingZooEnv`` is written for cooperative games: both sides learn at once against each other as
they are (no opponent pool or league), and PPO's critic sees the module's own observation (the env's
``state()`` does not pass through the wrapper).

Writes ``runs/<run name>/``: ``settings.json``, ``progress.jsonl`` (one line per iteration: steps,
episode returns per module, learner losses per module), the checkpoints, ``eval.json`` and
``summary.json``.

**Options**: ``--adventure``, ``--heroes``, ``--max-turns``, ``--shaping``, ``--reward-truncated`` ...
(the game, as for every script: ``training.common.EnvSettings``), ``--iterations``,
``--env-runners``, ``--seed``, ``--runs-dir`` (the output directory), ``--address``,
``--num-cpus``, ``--checkpoint-every``, ``--eval-games`` and the PPO settings; ``--help`` lists them
with their defaults.
"""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core import COMPONENT_LEARNER, COMPONENT_LEARNER_GROUP, COMPONENT_RL_MODULE
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis import ValueFunctionAPI
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.utils.torch_utils import FLOAT_MIN
from ray.tune.registry import register_env
from torch import nn

import dungeon_env
from dungeon_env.aec import ENV_NAME
from dungeon_env.observation import OBS_SPEC
from training.common import EnvSettings, parse_settings, run_name, seed_everything
from training.evaluate import evaluate, format_table

ENV_ID = ENV_NAME  # "dungeon_v1"
MODULES = ("heroes", "dm")


@dataclasses.dataclass
class Settings(EnvSettings):
    """Train the heroes and the DM at once with multi-agent PPO on Ray RLlib (new API stack)."""

    exp_name: str = "rllib"
    """name of this experiment (part of the run name)"""
    seed: int = 1
    """seed of the experiment (Python, NumPy, torch, RLlib's env runners and modules)"""
    iterations: int = 20
    """training iterations (algo.train() calls)"""
    env_runners: int = 0
    """remote env runner actors (0: sample in the driver process)"""
    envs_per_env_runner: int = 1
    """games played side by side in each env runner"""
    address: str = ""
    """Ray cluster to join (e.g. auto or ray://host:10001); '' starts a local instance"""
    num_cpus: int = 2
    """CPUs of the local Ray instance (ignored with --address)"""
    runs_dir: str = "runs"
    """output directory: the run's folder is made in it"""
    checkpoint_every: int = 10
    """save a checkpoint every this many iterations (0: only at the end)"""
    train_batch_size: int = 2000
    """env steps (of both sides together) per training iteration"""
    minibatch_size: int = 256
    """SGD minibatch size"""
    num_epochs: int = 4
    """epochs over each train batch"""
    lr: float = 3e-4
    """Adam learning rate"""
    gamma: float = 0.995
    """discount factor"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    clip_param: float = 0.2
    """PPO clipping coefficient"""
    entropy_coeff: float = 0.01
    """entropy bonus coefficient"""
    vf_loss_coeff: float = 0.5
    """value loss coefficient"""
    conv_channels: str = "16,32,32"
    """channels of the Conv2d layers over the board planes, comma-separated"""
    hidden: int = 256
    """width of the dense layers"""
    torch_threads: int = 1
    """torch threads in this process (0: torch's default): with --env-runners 0 it samples one
    observation at a time, where a second thread on 2 shared cores mostly waits (~6x slower)"""
    eval_games: int = 100
    """games per evaluation at the end (trained heroes vs scripted DM, scripted heroes vs trained DM;
    0: none)"""


# ----------------------------------------------------------------------------- the env
def make_env(env_config: dict[str, Any]):
    """The env as RLlib takes it: ``dungeon_env.env(**env_config)`` in RLlib's ``PettingZooEnv``."""
    return PettingZooEnv(dungeon_env.env(**env_config))


def policy_mapping_fn(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """``hero_*`` -> the ``heroes`` module, ``dm`` -> the ``dm`` module."""
    return "dm" if agent_id == "dm" else "heroes"


# ----------------------------------------------------------------------------- the model
class MaskedGridModule(TorchRLModule, ValueFunctionAPI):
    """Masked policy and value over the dungeon observation: a Conv2d stack over the board planes
    (``OBS_SPEC``'s ``board`` piece as a ``[planes, 28, 24]`` grid) and a dense layer over the other
    pieces, concatenated, then a shared dense layer into the logits (illegal actions at ``FLOAT_MIN``)
    and the value.

    ``model_config``: ``conv_channels`` (list of ints; the first layer has stride 1, the others 2),
    ``hidden`` (int, the width of the dense layers)."""

    def setup(self):
        size = self.observation_space["observation"].shape[0]
        if size != OBS_SPEC.size:
            raise ValueError(f"expected the dungeon observation ({OBS_SPEC.size} floats), got {size}")
        channels = list(self.model_config.get("conv_channels", [16, 32, 32]))
        hidden = int(self.model_config.get("hidden", 256))
        planes, height, width = dict(OBS_SPEC.pieces)["board"]
        self.board = OBS_SPEC.slice("board")
        self.grid = (planes, height, width)
        layers: list[nn.Module] = []
        depth = planes
        for i, out in enumerate(channels):
            layers += [nn.Conv2d(depth, out, 3, stride=1 if i == 0 else 2, padding=1), nn.ReLU()]
            depth = out
        layers.append(nn.Flatten())
        self.conv = nn.Sequential(*layers)
        with torch.no_grad():
            conv_out = self.conv(torch.zeros(1, planes, height, width)).shape[1]
        self.conv_dense = nn.Sequential(nn.Linear(conv_out, hidden), nn.ReLU())
        rest = size - (self.board.stop - self.board.start)
        self.rest_dense = nn.Sequential(nn.Linear(rest, hidden), nn.ReLU())
        self.trunk = nn.Sequential(nn.Linear(2 * hidden, hidden), nn.ReLU())
        self.pi = nn.Linear(hidden, self.action_space.n)
        self.vf = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.pi.weight, 0.01)
        nn.init.zeros_(self.pi.bias)

    def embed(self, flat: torch.Tensor) -> torch.Tensor:
        """The shared features of a batch of flat observations ``[B, size]``."""
        grid = flat[:, self.board].reshape(-1, *self.grid)
        rest = torch.cat([flat[:, : self.board.start], flat[:, self.board.stop :]], dim=1)
        return self.trunk(torch.cat([self.conv_dense(self.conv(grid)), self.rest_dense(rest)], dim=1))

    def masked_logits(self, obs: dict, embeddings: torch.Tensor) -> torch.Tensor:
        """The policy logits, those of the actions ``obs["action_mask"]`` marks illegal at ``FLOAT_MIN``."""
        return self.pi(embeddings).masked_fill(obs["action_mask"] == 0, FLOAT_MIN)

    def _forward(self, batch, **kwargs):  # forward_inference and forward_exploration
        obs = batch[Columns.OBS]
        return {Columns.ACTION_DIST_INPUTS: self.masked_logits(obs, self.embed(obs["observation"]))}

    def _forward_train(self, batch, **kwargs):
        obs = batch[Columns.OBS]
        embeddings = self.embed(obs["observation"])
        return {
            Columns.ACTION_DIST_INPUTS: self.masked_logits(obs, embeddings),
            Columns.EMBEDDINGS: embeddings,
        }

    def compute_values(self, batch, embeddings=None):
        """PPO's critic: the value of each observation (from ``_forward_train``'s embeddings if given)."""
        if embeddings is None:
            embeddings = self.embed(batch[Columns.OBS]["observation"])
        return self.vf(embeddings).squeeze(-1)


def module_spec(settings: Settings):
    """The ``MultiRLModuleSpec``: one ``MaskedGridModule`` for the heroes, one for the DM."""
    model_config = {
        "conv_channels": [int(c) for c in settings.conv_channels.split(",")],
        "hidden": settings.hidden,
    }
    return MultiRLModuleSpec(
        rl_module_specs={
            m: RLModuleSpec(module_class=MaskedGridModule, model_config=model_config) for m in MODULES
        }
    )


# ----------------------------------------------------------------------------- the algorithm
def register() -> None:
    """Register ``make_env`` under ``ENV_ID`` with Tune's registry (RLlib looks it up there)."""
    register_env(ENV_ID, make_env)


def build_config(settings: Settings):
    """The ``PPOConfig`` of the run (new API stack; ``env_config`` is the game's ``env_kwargs``)."""
    return (
        PPOConfig()
        .environment(ENV_ID, env_config=settings.env_kwargs())
        .framework("torch")
        .multi_agent(policies=set(MODULES), policy_mapping_fn=policy_mapping_fn)
        .rl_module(rl_module_spec=module_spec(settings))
        .env_runners(
            num_env_runners=settings.env_runners,
            num_envs_per_env_runner=settings.envs_per_env_runner,
            num_cpus_per_env_runner=1,
        )
        .learners(num_learners=0)
        .training(
            train_batch_size_per_learner=settings.train_batch_size,
            minibatch_size=settings.minibatch_size,
            num_epochs=settings.num_epochs,
            lr=settings.lr,
            gamma=settings.gamma,
            lambda_=settings.gae_lambda,
            clip_param=settings.clip_param,
            entropy_coeff=settings.entropy_coeff,
            vf_loss_coeff=settings.vf_loss_coeff,
        )
        .debugging(seed=settings.seed)
    )


def build_algo(settings: Settings):
    """Register the env and build the PPO algorithm (Ray must be initialised)."""
    register()
    return build_config(settings).build_algo()


def init_ray(settings: Settings) -> None:
    """Join the cluster at ``--address``, or start a local instance with ``--num-cpus`` CPUs."""
    if ray.is_initialized():
        return
    if settings.address:
        ray.init(address=settings.address)
    else:
        ray.init(num_cpus=settings.num_cpus, include_dashboard=False)


def iteration_summary(result: dict[str, Any]) -> dict[str, Any]:
    """The numbers of one ``algo.train()`` result worth a line: steps, returns and losses per module."""
    runners, learners = result.get("env_runners", {}), result.get("learners", {})
    returns = runners.get("module_episode_returns_mean", {})
    out: dict[str, Any] = {
        "iteration": result.get("training_iteration"),
        "env_steps": runners.get("num_env_steps_sampled_lifetime"),
        "episodes": runners.get("num_episodes_lifetime"),
        "episode_len_mean": runners.get("episode_len_mean"),
    }
    for m in MODULES:
        stats = learners.get(m, {})
        out[m] = {
            "return_mean": returns.get(m),
            "steps_trained": stats.get("num_module_steps_trained"),
            **{k: stats.get(k) for k in ("policy_loss", "vf_loss", "entropy", "mean_kl_loss")},
        }
    return _plain(out)


def _plain(value: Any) -> Any:
    """Numbers as Python floats/ints (RLlib hands numpy and torch scalars), for JSON."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if hasattr(value, "item"):
        return value.item()
    return value


# ----------------------------------------------------------------------------- modules as agents
def load_modules(checkpoint: str | Path) -> dict[str, Any]:
    """The ``heroes`` and ``dm`` modules of an ``algo.save`` checkpoint (no Ray needed)."""
    root = Path(checkpoint) / COMPONENT_LEARNER_GROUP / COMPONENT_LEARNER / COMPONENT_RL_MODULE
    return {m: RLModule.from_checkpoint(root / m) for m in MODULES}


class ModuleAgent:
    """An RLlib module as an agent of the project: ``act(observation, action_mask) -> int`` takes the
    greedy masked action (the largest of ``forward_inference``'s masked logits)."""

    def __init__(self, module: Any, name: str = "rllib") -> None:
        self.module = module
        self.name = name

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        obs = {
            "observation": torch.as_tensor(np.asarray(observation, np.float32)[None]),
            "action_mask": torch.as_tensor(np.asarray(action_mask, np.int8)[None]),
        }
        with torch.no_grad():
            out = self.module.forward_inference({"obs": obs})
        return int(out["action_dist_inputs"][0].argmax())

    def __str__(self) -> str:
        return self.name


def evaluate_modules(
    modules: dict[str, Any], env_kwargs: dict[str, Any], games: int, seed: int = 10**6
) -> dict[str, dict[str, Any]]:
    """The trained heroes against the scripted DM and the scripted heroes against the trained DM, in
    the project's evaluation (``training.evaluate.evaluate``), torch on one thread (one observation
    at a time); prints both tables."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        results = {
            "heroes": evaluate(
                ModuleAgent(modules["heroes"], "rllib heroes"), "scripted", env_kwargs, games, seed
            ),
            "dm": evaluate("scripted", ModuleAgent(modules["dm"], "rllib dm"), env_kwargs, games, seed),
        }
    finally:
        torch.set_num_threads(threads)
    for result in results.values():
        print(format_table(result))
        print()
    return results


# ----------------------------------------------------------------------------- the run
def run(algo: Any, settings: Settings, run_dir: Path) -> dict[str, Any]:
    """``settings.iterations`` calls of ``algo.train()``, a line of ``progress.jsonl`` and of output
    each, a checkpoint every ``checkpoint_every`` iterations (``checkpoints/iter_NNNN``) and at the
    end (``final``). Returns the lines, the checkpoint paths and the seconds taken."""
    checkpoints: list[str] = []
    lines: list[dict[str, Any]] = []
    start = time.perf_counter()
    with (run_dir / "progress.jsonl").open("w") as progress:
        for i in range(1, settings.iterations + 1):
            line = iteration_summary(algo.train())
            lines.append(line)
            progress.write(json.dumps(line) + "\n")
            progress.flush()
            print(_format_line(line), flush=True)
            every = settings.checkpoint_every
            if every and i % every == 0 and i < settings.iterations:
                checkpoints.append(_save(algo, run_dir / "checkpoints" / f"iter_{i:04d}"))
    checkpoints.append(_save(algo, run_dir / "final"))
    return {"iterations": lines, "checkpoints": checkpoints, "seconds": time.perf_counter() - start}


def train(settings: Settings) -> dict[str, Any]:
    """Set up the run, start or join Ray, build PPO, ``run`` it and evaluate the final modules;
    returns the run's summary (also written as ``summary.json``)."""
    name = run_name(settings.adventure, settings.exp_name, settings.seed)
    run_dir = Path(settings.runs_dir) / name
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "settings.json").write_text(json.dumps(dataclasses.asdict(settings), indent=2))
    seed_everything(settings.seed)
    if settings.torch_threads > 0:
        torch.set_num_threads(settings.torch_threads)
    print(f"run {name} -> {run_dir}")
    started_ray = not ray.is_initialized()
    init_ray(settings)
    algo = build_algo(settings)
    try:
        summary: dict[str, Any] = {"run": name, "run_dir": str(run_dir), **run(algo, settings, run_dir)}
    finally:
        algo.stop()
        if started_ray:
            ray.shutdown()
    final = summary["checkpoints"][-1]
    print(f"trained {settings.iterations} iterations in {summary['seconds']:.1f} s; final checkpoint {final}")
    if settings.eval_games > 0:
        results = evaluate_modules(load_modules(final), settings.env_kwargs(), settings.eval_games)
        (run_dir / "eval.json").write_text(json.dumps(results, indent=2))
        summary["eval"] = results
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def _save(algo: Any, path: Path) -> str:
    path.mkdir(parents=True, exist_ok=True)
    algo.save(str(path))
    return str(path)


def _format_line(line: dict[str, Any]) -> str:
    def num(v: Any) -> str:
        return "-" if v is None else f"{v:.3f}"

    sides = "  ".join(
        f"{m}: return {num(line[m]['return_mean'])} pi {num(line[m]['policy_loss'])} "
        f"vf {num(line[m]['vf_loss'])} H {num(line[m]['entropy'])}"
        for m in MODULES
    )
    return f"iter {line['iteration']}: {line['env_steps']} steps, {line['episodes']} episodes  {sides}"


def main(argv: list[str] | None = None) -> dict[str, Any]:
    return train(parse_settings(Settings, argv))


if __name__ == "__main__":
    # Run the importable twin of this file: checkpoints then name training.rllib_train.MaskedGridModule
    # (not __main__.MaskedGridModule, which only this process could resolve) and the env runners
    # import make_env by name.
    import training.rllib_train

    training.rllib_train.main()
