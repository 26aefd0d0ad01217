"""Train one side (heroes or DM) with MaskablePPO on ``RoleEnv`` against a fixed opponent.

    python -m training.train_role --role heroes --opponent random --total-timesteps 200000

Writes ``runs/<run name>/``: TensorBoard logs (hyperparameters, losses, episode rewards, outcome
shares), ``checkpoints/`` every ``--checkpoint-freq`` steps, ``final_model.zip``, ``settings.json``
and ``eval.json`` (``--eval-games`` games against the same opponent, printed as a table).
"""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path

from training.common import (
    EnvSettings,
    learn_or_save,
    make_agent,
    make_vec_env,
    other_side,
    outcome_callback,
    parse_settings,
    progress_callback,
    run_name,
    seed_everything,
    steps_per_second_callback,
    write_hyperparameters,
)
from training.evaluate import evaluate, format_table


@dataclasses.dataclass
class PPOSettings(EnvSettings):
    """MaskablePPO and run settings shared by train_role and selfplay."""

    exp_name: str = "train_role"
    """name of this experiment (part of the run name)"""
    seed: int = 1
    """seed of the experiment (Python, NumPy, torch, the envs)"""
    torch_deterministic: bool = True
    """make torch's kernels deterministic"""
    runs_dir: str = "runs"
    """directory the run's folder is made in"""
    n_envs: int = 2
    """number of parallel environments"""
    subproc: bool = False
    """run the environments in subprocesses (SubprocVecEnv) instead of in this process (DummyVecEnv)"""
    n_steps: int = 512
    """steps per environment per rollout"""
    batch_size: int = 256
    """minibatch size"""
    n_epochs: int = 4
    """epochs over each rollout"""
    learning_rate: float = 3e-4
    """Adam learning rate"""
    lr_decay: bool = False
    """decay the learning rate linearly from learning_rate to 0 over the run's env steps"""
    gamma: float = 0.995
    """discount factor"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    clip_range: float = 0.2
    """PPO clipping coefficient"""
    target_kl: float = 0.0
    """stop a rollout's epochs early once the approximate KL divergence from the rollout's policy
    passes 1.5 times this (SB3's target_kl; 0: no limit)"""
    ent_coef: float = 0.01
    """entropy bonus coefficient"""
    vf_coef: float = 0.5
    """value loss coefficient"""
    net_arch: str = "256,256"
    """hidden layer sizes of the policy and value networks, comma-separated"""
    network: str = "board"
    """the network that reads the observation: board (training.features.DungeonFeatures: a CNN over
    the board planes, set encoders over the figure and item tables, an MLP over the decision
    context) or mlp (the flattened observation); then net_arch for the policy and value heads"""
    torch_threads: int = 1
    """torch threads in this process (0: torch's default); 1 is fastest on 2 shared cores, where a
    second thread mostly waits on the other and slows the opponent's one-observation forward passes"""
    device: str = "cpu"
    """torch device of the learner: cpu, or cuda on a GPU machine (the rollouts' envs stay on the CPU)"""
    eval_games: int = 100
    """games played at the end to evaluate the final model (0: none)"""
    progress: bool = True
    """draw a progress bar with the time left (lines, when the output is not a terminal)"""


@dataclasses.dataclass
class Settings(PPOSettings):
    """Train the heroes or the DM with MaskablePPO against a fixed opponent."""

    role: str = "heroes"
    """the side trained: heroes or dm"""
    opponent: str = "random"
    """the other side: random, an agents name, a MaskablePPO checkpoint (.zip) or pool:<dir>"""
    total_timesteps: int = 200_000
    """total environment steps (decisions of the trained side)"""
    checkpoint_freq: int = 10_000
    """save a checkpoint every this many steps (and on Ctrl-C: <role>_interrupted.zip)"""
    init_from: str = ""
    """start from this checkpoint's weights (a .zip of the same policy kind), e.g. to go on with other
    hyperparameters ('' for fresh weights)"""


def learning_rate_of(settings: PPOSettings):
    """The settings' learning rate for SB3: a number, or with ``lr_decay`` a schedule of SB3's
    ``progress_remaining`` (1 at the start, 0 at the end) from ``learning_rate`` down to 0."""
    if not settings.lr_decay:
        return settings.learning_rate
    from stable_baselines3.common.utils import LinearSchedule

    return LinearSchedule(settings.learning_rate, 0.0, 1.0)


def make_model(settings: PPOSettings, vec, logger):
    """A MaskablePPO model for ``vec`` with the settings' hyperparameters and ``logger``."""
    from sb3_contrib import MaskablePPO

    from training.features import NETWORKS, policy_for, policy_kwargs_for

    if settings.network not in NETWORKS:
        raise ValueError(f"network must be one of {NETWORKS}, got {settings.network!r}")
    net_arch = [int(n) for n in settings.net_arch.split(",")]
    policy = policy_for(vec.observation_space)
    policy_kwargs = policy_kwargs_for(settings.network, vec.observation_space, net_arch)
    model = MaskablePPO(
        policy,
        vec,
        n_steps=settings.n_steps,
        batch_size=settings.batch_size,
        n_epochs=settings.n_epochs,
        learning_rate=learning_rate_of(settings),
        gamma=settings.gamma,
        gae_lambda=settings.gae_lambda,
        clip_range=settings.clip_range,
        target_kl=settings.target_kl or None,
        ent_coef=settings.ent_coef,
        vf_coef=settings.vf_coef,
        policy_kwargs=policy_kwargs,
        seed=settings.seed,
        device=settings.device,
        verbose=0,
    )
    model.set_logger(logger)
    return model


def make_logger(run_dir: Path):
    from stable_baselines3.common.logger import configure

    return configure(str(run_dir), ["stdout", "tensorboard"])


def setup_run(settings: PPOSettings, tag: str) -> tuple[str, Path]:
    """Seed everything, name the run, make its folder, save and log the settings."""
    import torch

    name = run_name(settings.adventure, f"{settings.exp_name}_{tag}", settings.seed)
    run_dir = Path(settings.runs_dir) / name
    run_dir.mkdir(parents=True, exist_ok=True)
    seed_everything(settings.seed, settings.torch_deterministic)
    if settings.torch_threads > 0:
        torch.set_num_threads(settings.torch_threads)
    (run_dir / "settings.json").write_text(json.dumps(dataclasses.asdict(settings), indent=2))
    write_hyperparameters(run_dir, settings)
    return name, run_dir


def main(argv: list[str] | None = None) -> dict:
    from stable_baselines3.common.callbacks import CallbackList, CheckpointCallback

    settings = parse_settings(Settings, argv)
    if settings.role not in ("heroes", "dm"):
        raise SystemExit(f"--role must be heroes or dm, got {settings.role!r}")
    make_agent(settings.opponent, other_side(settings.role))  # fail early on an unknown opponent
    name, run_dir = setup_run(settings, settings.role)
    print(f"run {name} -> {run_dir}")

    vec = make_vec_env(
        settings.role,
        settings.opponent,
        settings.env_kwargs(),
        settings.n_envs,
        settings.seed,
        subproc=settings.subproc,
    )
    model = make_model(settings, vec, make_logger(run_dir))
    if settings.init_from:
        if not Path(settings.init_from).is_file():
            raise SystemExit(f"--init-from: no checkpoint at {settings.init_from}")
        model.set_parameters(settings.init_from, exact_match=True, device=settings.device)
    timer = steps_per_second_callback()
    checkpoints = CheckpointCallback(
        save_freq=max(settings.checkpoint_freq // settings.n_envs, 1),
        save_path=str(run_dir / "checkpoints"),
        name_prefix=settings.role,
    )
    progress = progress_callback(
        settings.total_timesteps, f"{settings.role} vs {settings.opponent}", settings.progress
    )
    start = time.perf_counter()
    try:
        finished = learn_or_save(
            model,
            settings.total_timesteps,
            CallbackList([checkpoints, outcome_callback(), timer, progress]),
            run_dir,
            settings.role,
        )
    finally:
        vec.close()
    train_seconds = time.perf_counter() - start
    if not finished:
        return {"run": name, "steps": model.num_timesteps, "seconds": train_seconds, "interrupted": True}
    model.save(run_dir / "final_model.zip")
    print(f"trained {model.num_timesteps} steps in {train_seconds:.1f} s: {timer.sps:.0f} steps per second")

    summary = {"run": name, "steps": model.num_timesteps, "seconds": train_seconds, "sps": timer.sps}
    if settings.eval_games > 0:
        final = str(run_dir / "final_model.zip")
        sides = {settings.role: final, other_side(settings.role): settings.opponent}
        result = evaluate(
            sides["heroes"], sides["dm"], settings.env_kwargs(), settings.eval_games, seed=10**6
        )
        print(format_table(result))
        (run_dir / "eval.json").write_text(json.dumps(result, indent=2))
        summary["eval"] = result
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


if __name__ == "__main__":
    main()
