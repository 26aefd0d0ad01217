"""Fine-tune a cloned policy with MaskablePPO against a league of the other side, on every adventure.

    python -m training.finetune --role heroes --init-from runs/clone_heroes/model.zip \\
        --opponent scripted@v2 --opponent scripted@v1 --total-timesteps 2000000 --out runs/ft_heroes

The second stage after ``training.clone``: the clone's weights (policy and value heads; its network
and sizes come with the checkpoint) learn on from their own games, with no advice and no anchor
that the network cannot outgrow. The env set is every adventure times every party size times every
opponent (one ``RoleEnv`` each, stepped together in a ``DummyVecEnv``), so one rollout holds games of
all of them and the policy is never tuned to one adventure.

The checkpoint is loaded the way Stable-Baselines3 documents for going on with other settings,
``MaskablePPO.load(path, env=..., custom_objects={...})``: the fine-tuning's learning rate, clip
range, rollout length, batch size, epochs, entropy coefficient and KL limit replace the clone's.

Rewards: +1 / -1 for the game (the heroes completing with every primary goal, or not), nothing else
(no shaping). The turn cap counts for the side that did not stall: it ends the heroes' games as a
loss (``reward_truncated=-1``) and the DM's as a loss too (``reward_truncated=+1``, paid to the
heroes), so neither side learns to run the clock out.

Writes ``OUT/``: ``progress.csv`` (Stable-Baselines3's logger: losses, KL, the completion share of
the rollouts' finished games, per rollout), ``checkpoints/``, ``final_model.zip`` and
``settings.json``. Measure the result with ``dungeon-env balance --pairing policy:OUT/final_model.zip:...``.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from pathlib import Path

from dungeon_env.content import adventure_names

DEFAULT_ADVENTURES = ("flooded_cellar", "goblin_warrens", "warlocks_crypt", "bandit_keep", "sunless_throne")


@dataclasses.dataclass
class FinetuneSettings:
    """Fine-tune a cloned MaskablePPO policy of one side against the other side's agents, on every
    adventure and party size, with +1/-1 rewards for the game."""

    init_from: str
    """the checkpoint to start from: a .zip of python -m training.clone (or of an earlier fine-tuning)"""
    out: str
    """the run directory: progress.csv, checkpoints/, final_model.zip and settings.json go there"""
    role: str = "heroes"
    """the side fine-tuned: heroes or dm (the checkpoint's side)"""
    opponent: tuple[str, ...] = ("scripted@v2",)
    """the other side's agents, repeatable (agent specs: scripted@v1, scripted@v2, policy:FILE.zip...);
    every adventure and party size is played against each"""
    adventure: tuple[str, ...] = DEFAULT_ADVENTURES
    """the adventures played, repeatable (default: the five bundled)"""
    heroes: tuple[int, ...] = (3, 4, 5)
    """the party sizes played, repeatable"""
    total_timesteps: int = 1_000_000
    """decisions of the fine-tuned side"""
    n_steps: int = 64
    """steps per env per rollout (a rollout is n_steps times the number of envs)"""
    batch_size: int = 512
    """minibatch size"""
    n_epochs: int = 4
    """epochs over each rollout"""
    learning_rate: float = 3e-5
    """Adam's learning rate: small, so the first rollouts refine the clone instead of overwriting it"""
    clip_range: float = 0.1
    """PPO's clipping coefficient"""
    target_kl: float = 0.01
    """stop a rollout's epochs once the approximate KL from the rollout's policy passes 1.5 times this"""
    ent_coef: float = 0.0
    """entropy bonus coefficient"""
    gamma: float = 1.0
    """discount factor (1: the value is the game's outcome, as the clone's value head learned it)"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    seed: int = 1
    """seed of the envs' games and of torch"""
    minutes: float = 0.0
    """stop after this many minutes of training even if total_timesteps is not reached (0: no limit);
    the model is saved as final_model.zip either way"""
    checkpoint_freq: int = 100_000
    """save a checkpoint every this many decisions"""
    torch_threads: int = 1
    """torch threads (0: torch's default)"""
    subproc: bool = False
    """step the envs in worker processes (SubprocVecEnv, forkserver): for a machine with a core per
    env; on 2 cores one process is faster"""
    device: str = "cpu"
    """torch device of the learner: cpu, or cuda on a GPU machine"""
    progress: bool = True
    """draw a progress bar (lines when the output is not a terminal)"""


class SettingsError(ValueError):
    """A setting out of its range."""


def check_settings(settings: FinetuneSettings) -> None:
    if settings.role not in ("heroes", "dm"):
        raise SettingsError(f"--role must be heroes or dm, got {settings.role!r}")
    if not Path(settings.init_from).is_file():
        raise SettingsError(f"--init-from: no checkpoint at {settings.init_from}")
    unknown = sorted(set(settings.adventure) - set(adventure_names()))
    if unknown:
        raise SettingsError(f"--adventure: unknown {unknown}; the bundled are {adventure_names()}")
    if not settings.heroes or not set(settings.heroes) <= {3, 4, 5}:
        raise SettingsError(f"--heroes must be party sizes 3, 4 or 5, got {list(settings.heroes)}")
    if not settings.opponent:
        raise SettingsError("--opponent: give at least one agent for the other side")
    if min(settings.n_steps, settings.batch_size, settings.n_epochs, settings.total_timesteps) < 1:
        raise SettingsError("--n-steps, --batch-size, --n-epochs and --total-timesteps must be at least 1")


def env_kwargs(role: str, adventure: str, heroes: int) -> dict:
    """A ``RoleEnv``'s game: +1/-1 for the game, no shaping, the turn cap a loss of the fine-tuned side."""
    return {
        "adventure": adventure,
        "heroes": heroes,
        "reward_truncated": -1.0 if role == "heroes" else 1.0,
    }


def make_league_vec_env(settings: FinetuneSettings):
    """One ``RoleEnv`` per adventure, party size and opponent, in a ``DummyVecEnv`` (``SubprocVecEnv``
    with ``subproc``) with episode
    statistics (``VecMonitor``), seeded ``seed, seed + 1, ...``."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    from training.common import make_agent, make_role_env, other_side

    for spec in settings.opponent:  # an unknown or broken opponent fails here, before any env
        make_agent(spec, other_side(settings.role))
    cells = [
        (adventure, heroes, opponent)
        for adventure in settings.adventure
        for heroes in settings.heroes
        for opponent in settings.opponent
    ]
    thunks = [
        (lambda a=a, h=h, o=o: make_role_env(settings.role, o, env_kwargs(settings.role, a, h)))
        for a, h, o in cells
    ]
    vec = SubprocVecEnv(thunks, start_method="forkserver") if settings.subproc else DummyVecEnv(thunks)
    vec.seed(settings.seed)
    return VecMonitor(vec, info_keywords=("outcome",))


def load_for_finetuning(settings: FinetuneSettings, vec, logger):
    """The checkpoint as a MaskablePPO model on ``vec`` with the fine-tuning's hyperparameters."""
    from sb3_contrib import MaskablePPO

    overrides = {
        "learning_rate": settings.learning_rate,
        "lr_schedule": lambda _: settings.learning_rate,
        "clip_range": lambda _: settings.clip_range,
        "n_steps": settings.n_steps,
        "batch_size": settings.batch_size,
        "n_epochs": settings.n_epochs,
        "ent_coef": settings.ent_coef,
        "target_kl": settings.target_kl or None,
        "gamma": settings.gamma,
        "gae_lambda": settings.gae_lambda,
        "seed": settings.seed,
    }
    model = MaskablePPO.load(settings.init_from, env=vec, device=settings.device, custom_objects=overrides)
    if model.observation_space != vec.observation_space or model.action_space != vec.action_space:
        raise SettingsError(f"{settings.init_from} reads other spaces than the {settings.role}' env")
    model.set_logger(logger)
    return model


def time_limit_callback(minutes: float):
    """An SB3 callback that ends ``learn`` once ``minutes`` have passed since it started (0: never)."""
    from stable_baselines3.common.callbacks import BaseCallback

    class TimeLimit(BaseCallback):
        def _on_training_start(self) -> None:
            self.deadline = time.perf_counter() + 60 * minutes if minutes > 0 else float("inf")

        def _on_step(self) -> bool:
            return time.perf_counter() < self.deadline

    return TimeLimit()


def finetune(settings: FinetuneSettings) -> dict:
    """Build the envs, load the checkpoint, learn, save; returns a summary."""
    import torch
    from stable_baselines3.common.callbacks import CallbackList, CheckpointCallback
    from stable_baselines3.common.logger import configure

    from training.common import (
        learn_or_save,
        outcome_callback,
        progress_callback,
        seed_everything,
        steps_per_second_callback,
    )

    check_settings(settings)
    out = Path(settings.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "settings.json").write_text(json.dumps(dataclasses.asdict(settings), indent=2))
    seed_everything(settings.seed)
    if settings.torch_threads > 0:
        torch.set_num_threads(settings.torch_threads)
    vec = make_league_vec_env(settings)
    model = load_for_finetuning(settings, vec, configure(str(out), ["csv", "tensorboard"]))
    timer = steps_per_second_callback()
    callbacks = CallbackList(
        [
            CheckpointCallback(
                max(settings.checkpoint_freq // vec.num_envs, 1), str(out / "checkpoints"), settings.role
            ),
            outcome_callback(),
            timer,
            time_limit_callback(settings.minutes),
            progress_callback(
                settings.total_timesteps,
                f"fine-tuning the {settings.role}",
                settings.progress,
                settings.minutes,
            ),
        ]
    )
    start = time.perf_counter()
    try:
        finished = learn_or_save(
            model, settings.total_timesteps, callbacks, out, settings.role, reset_num_timesteps=True
        )
    finally:
        vec.close()
    seconds = time.perf_counter() - start
    summary = {
        "steps": model.num_timesteps,
        "seconds": round(seconds, 1),
        "envs": vec.num_envs,
        "finished": finished,
    }
    if finished:
        model.save(out / "final_model.zip")
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def main(argv: list[str] | None = None) -> dict:
    from training.common import parse_settings

    settings = parse_settings(FinetuneSettings, argv)
    try:
        summary = finetune(settings)
    except SettingsError as error:
        print(f"python -m training.finetune: error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    print(f"fine-tuned {summary['steps']} decisions in {summary['seconds']} s on {summary['envs']} envs")
    if summary["finished"]:
        print(f"model: {Path(settings.out) / 'final_model.zip'}")
    return summary


if __name__ == "__main__":
    main()
