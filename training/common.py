"""Shared pieces of the training scripts (CleanRL habits, see ../shared/STYLE.md).

- ``parse_settings(cls)``: a settings dataclass, one docstring per field, read from the command line
  by tyro (``--total-timesteps 1000``, ``--subproc/--no-subproc``);
- ``seed_everything``, ``run_name``, ``hyperparameter_table``;
- ``make_agent(spec, side)``: an agent (``act(observation, action_mask) -> int``) from its spec, the
  language every tool shares (``agents.spec``: ``random``, ``scripted``, ``search[iterations=8]``,
  a checkpoint ``.zip``, ``policy:<path>``, ``pool:<dir>``); ``PoolAgent``
  (``agents.pool``) samples a past checkpoint of a pool directory at every episode (self-play);
- ``make_vec_env``: ``RoleEnv`` copies in a ``DummyVecEnv`` or ``SubprocVecEnv`` (action masks reach
  MaskablePPO through ``env_method("action_masks")``), wrapped in ``VecMonitor``.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from agents.pool import PoolAgent
from agents.spec import AgentSpec, from_spec, known_names
from dungeon_env.ending import Ending, info_ending
from dungeon_env.wrappers import RoleEnv

SIDES = ("heroes", "dm")


# ----------------------------------------------------------------------------- settings and CLI
@dataclasses.dataclass
class EnvSettings:
    """The game every script plays."""

    adventure: str = "flooded_cellar"
    """adventure name (bundled) or path to an adventure file"""
    heroes: str = "3"
    """number of heroes (3..5) or comma-separated hero ids, e.g. bram,sela,orwin"""
    max_turns: int = 100
    """turn cap of an episode; 100 is the game's own default (the cap ends the episode terminated
    when --reward-truncated pays for it, truncated when it pays 0: the env card's rule)"""
    shaping: str = "exploration=0.05,kills=0.1"
    """reward shaping terms, name=weight comma-separated ('' for none)"""
    reward_truncated: float = 0.0
    """the heroes' reward when the turn cap ends the adventure (the DM gets the opposite); -1 makes
    running out of turns as bad as failing, which is what a win rate counts, and makes the cap an end
    of the task (terminated: no value is added past it); 0 leaves it a time limit (truncated)"""
    reward_completed_without_goal: float = 0.0
    """the heroes' reward when every surviving hero walks out without every primary goal met (the
    DM gets the opposite); completing with the goals pays +1"""

    def env_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``RoleEnv`` / ``dungeon_env.env()``."""
        heroes: int | list[str] = int(self.heroes) if self.heroes.isdigit() else self.heroes.split(",")
        kwargs: dict[str, Any] = {
            "adventure": self.adventure,
            "heroes": heroes,
            "max_turns": self.max_turns,
            "reward_truncated": self.reward_truncated,
            "reward_completed_without_goal": self.reward_completed_without_goal,
        }
        if self.shaping:
            kwargs["shaping"] = {k: float(v) for k, v in (p.split("=") for p in self.shaping.split(","))}
        return kwargs


def parse_settings(cls: type, argv: list[str] | None = None, description: str | None = None):
    """The settings dataclass ``cls`` from the command line (``argv``, default ``sys.argv[1:]``) by
    ``tyro.cli``: a flag per field (``--total-timesteps 1000``; ``--subproc/--no-subproc`` for a
    bool), the docstring under the field as its help, with its default; ``description`` (default:
    the class's docstring) heads ``--help``."""
    import tyro

    return tyro.cli(cls, args=argv, description=description)


def hyperparameter_table(settings: Any) -> str:
    """The settings as a markdown table (for TensorBoard's text tab, as CleanRL logs them)."""
    rows = "\n".join(f"|{k}|{v}|" for k, v in dataclasses.asdict(settings).items())
    return "|param|value|\n|-|-|\n" + rows


def run_name(env_id: str, exp_name: str, seed: int) -> str:
    """CleanRL's run name: ``{env}__{exp}__{seed}__{unix time}``."""
    return f"{env_id}__{exp_name}__{seed}__{int(time.time())}"


def seed_everything(seed: int, torch_deterministic: bool = True) -> None:
    """Seed Python, NumPy and torch (and make torch's CPU kernels deterministic if asked)."""
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.backends.cudnn.deterministic = torch_deterministic


def write_hyperparameters(run_dir: Path, settings: Any) -> None:
    """Log the settings as a TensorBoard text table in the run directory."""
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(str(run_dir))
    writer.add_text("hyperparameters", hyperparameter_table(settings))
    writer.close()


# ----------------------------------------------------------------------------- agents
def checkpoint_agent(path: str | os.PathLike, side: str, seed: int | None = None, env: Any = None):
    """A MaskablePPO checkpoint as an agent of ``side`` that samples from its policy (see
    ``agents.policy``), bound to ``env`` if given."""
    return from_spec(AgentSpec("checkpoint", path=os.fspath(path)), side, seed=seed, env=env)


def known_agent_names() -> list[str]:
    """The agent names of the spec language (``agents.spec``; paths and ``pool:`` aside)."""
    return known_names()


def make_agent(spec: Any, side: str, seed: int | None = None, env: Any = None) -> Any:
    """An agent for ``side`` (``"heroes"`` or ``"dm"``) from ``spec``, in the agent-spec language of
    ``agents.spec`` (``agents.from_spec``): an object with ``act`` (as is), ``"random"``, ``"scripted"``,
    ``"search[iterations=8]"``, a MaskablePPO checkpoint path (sampled), ``"policy:<path>"``
    (played greedily), ``"pool:<dir>"`` (``PoolAgent`` over the
    side's past checkpoints)...; seeded with ``seed`` and bound to ``env`` (the PettingZoo env)."""
    return from_spec(spec, side, seed=seed, env=env)


# ----------------------------------------------------------------------------- envs
def other_side(side: str) -> str:
    return "dm" if side == "heroes" else "heroes"


def make_role_env(role: str, opponent: Any, env_kwargs: dict[str, Any]):
    """A ``RoleEnv`` for ``role`` against ``opponent`` (a spec, built by ``agents.from_spec`` with the
    env at hand, for agents that read the game; or an object, bound to the env if it can be)."""
    env = RoleEnv(role=role, opponent=opponent, **env_kwargs)  # a spec: built for the other side, bound
    if not isinstance(opponent, str | AgentSpec) and hasattr(env.opponent, "bind"):  # built elsewhere
        env.opponent.bind(env=env.env)
    return env


def _env_thunk(role: str, opponent: Any, env_kwargs: dict[str, Any], torch_threads: int | None):
    def thunk():
        if torch_threads is not None:  # subprocess workers: one thread each for checkpoint opponents
            import torch

            torch.set_num_threads(torch_threads)
        # an agent object: one independent copy per env (a name or path is resolved in the worker)
        return make_role_env(
            role, opponent if isinstance(opponent, str) else copy.deepcopy(opponent), env_kwargs
        )

    return thunk


def make_vec_env(
    role: str,
    opponent: Any,
    env_kwargs: dict[str, Any],
    n_envs: int,
    seed: int,
    subproc: bool = False,
):
    """``n_envs`` copies of ``RoleEnv(role, opponent)`` in a
    ``SubprocVecEnv`` (forkserver) or a ``DummyVecEnv``, seeded ``seed, seed + 1, ...``, with episode
    statistics (``VecMonitor``).

    The turn cap reaches SB3 as the env reports it (the env card's rule): ``terminated`` when the
    task pays for it (``reward_truncated`` not 0; SB3 adds no value past it), ``truncated`` when it
    pays nothing (a time limit: SB3 bootstraps the value of the last observation)."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    if subproc:
        thunks = [_env_thunk(role, opponent, env_kwargs, 1) for _ in range(n_envs)]
        vec = SubprocVecEnv(thunks, start_method="forkserver")
    else:
        vec = DummyVecEnv([_env_thunk(role, opponent, env_kwargs, None) for _ in range(n_envs)])
    vec.seed(seed)
    return VecMonitor(vec, info_keywords=("outcome",))


def outcome_callback():
    """An SB3 callback logging the share of finished episodes per outcome (``outcome/completed`` ...)
    and of those completed with every primary goal met (``outcome/completed_with_goals``)."""
    from stable_baselines3.common.callbacks import BaseCallback

    class OutcomeCallback(BaseCallback):
        def _on_step(self) -> bool:
            for info, done in zip(self.locals["infos"], self.locals["dones"], strict=True):
                if done and "outcome" in info:
                    for outcome in ("completed", "failed", "truncated", "illegal_action"):
                        self.logger.record_mean(f"outcome/{outcome}", float(info["outcome"] == outcome))
                    won = info_ending(info) is Ending.COMPLETED_WITH_GOALS
                    self.logger.record_mean("outcome/completed_with_goals", float(won))
            return True

    return OutcomeCallback()


def steps_per_second_callback():
    """An SB3 callback measuring environment steps per second over the whole ``learn`` call."""
    from stable_baselines3.common.callbacks import BaseCallback

    class StepsPerSecond(BaseCallback):
        def _on_training_start(self) -> None:
            self.start, self.start_steps = time.perf_counter(), self.num_timesteps

        def _on_step(self) -> bool:
            return True

        @property
        def sps(self) -> float:
            return (self.num_timesteps - self.start_steps) / max(time.perf_counter() - self.start, 1e-9)

    return StepsPerSecond()


__all__ = [
    "SIDES",
    "EnvSettings",
    "PoolAgent",
    "checkpoint_agent",
    "hyperparameter_table",
    "known_agent_names",
    "make_agent",
    "make_role_env",
    "make_vec_env",
    "other_side",
    "outcome_callback",
    "parse_settings",
    "run_name",
    "seed_everything",
    "steps_per_second_callback",
    "write_hyperparameters",
]


# ----------------------------------------------------------------------------- progress and stopping
def progress_callback(
    total_steps: int, description: str = "training", enabled: bool = True, minutes: float = 0.0
):
    """An SB3 callback drawing a progress bar of the run's environment steps (rich): steps done of
    ``total_steps``, steps per second, the time left at that pace, and the mean episode return and
    completion share of the recent episodes (from ``VecMonitor``'s ``episode`` infos). With
    ``enabled`` False (``--no-progress``), or output that is not a terminal, it prints the same as a
    line instead: 5 s into the run (the pace), then at every 10% or minute, whichever comes first.
    ``minutes``: the run also stops after that many minutes, so the time left is at most what
    remains of them."""
    from stable_baselines3.common.callbacks import BaseCallback

    class ProgressCallback(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.returns: list[float] = []
            self.completed: list[float] = []
            self._bar = self._task = None
            self._start = self._line_at = 0.0
            self._next_share = 0.1
            self._first = 0

        def _on_training_start(self) -> None:
            self._start, self._first = time.perf_counter(), self.model.num_timesteps
            self._next_share, self._line_at = 0.1, self._start + 5.0
            if enabled and sys.stdout.isatty():
                from rich.progress import (
                    BarColumn,
                    MofNCompleteColumn,
                    Progress,
                    TextColumn,
                    TimeElapsedColumn,
                    TimeRemainingColumn,
                )

                self._bar = Progress(
                    TextColumn("[bold]{task.description}"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TextColumn("{task.fields[rate]} steps/s"),
                    TimeElapsedColumn(),
                    TextColumn("left"),
                    TimeRemainingColumn(),
                    TextColumn("{task.fields[stats]}"),
                )
                self._bar.start()
                self._task = self._bar.add_task(description, total=total_steps, rate="-", stats="")

        def _on_step(self) -> bool:
            for info in self.locals.get("infos", ()):
                episode = info.get("episode")
                if episode is not None:
                    self.returns = [*self.returns[-99:], float(episode["r"])]
                    self.completed = [*self.completed[-99:], float(info.get("outcome") == "completed")]
            if self.n_calls % 64 == 0:
                self._show()
            return True

        def _stats(self) -> str:
            if not self.returns:
                return ""
            share = sum(self.completed) / len(self.completed)
            return f"return {np.mean(self.returns):+.2f}  completed {share:.0%} (last {len(self.returns)})"

        def _show(self) -> None:
            done = self.model.num_timesteps - self._first
            seconds = max(time.perf_counter() - self._start, 1e-9)
            if self._bar is not None:
                rate = f"{done / seconds:.0f}"
                self._bar.update(self._task, completed=done, rate=rate, stats=self._stats())
            elif done >= self._next_share * total_steps or time.perf_counter() >= self._line_at:
                left = max(total_steps - done, 0) / max(done / seconds, 1e-9)
                if minutes:
                    left = max(min(left, 60 * minutes - seconds), 0.0)
                print(
                    f"{description}: {done}/{total_steps} steps, {done / seconds:.0f} steps/s, "
                    f"about {left / 60:.1f} min left  {self._stats()}",
                    flush=True,
                )
                while self._next_share * total_steps <= done:
                    self._next_share += 0.1
                self._line_at = time.perf_counter() + 60.0

        def _on_training_end(self) -> None:
            self._show()
            if self._bar is not None:
                self._bar.stop()

    return ProgressCallback()


class CountProgress:
    """Progress of a job counted in units (games): a rich bar on a terminal, else a line 5 s in, then
    at every 10% or minute, each with the pace and the time left at it. ``advance(n)`` after each
    batch; ``close()`` at the end (prints the last line)."""

    def __init__(self, total: int, description: str, unit: str = "games", enabled: bool = True) -> None:
        self.total, self.description, self.unit = total, description, unit
        self.done, self._start = 0, time.perf_counter()
        self._line_at, self._next_share = self._start + 5.0, 0.1
        self._bar = self._task = None
        if enabled and sys.stdout.isatty():
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self._bar = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("left"),
                TimeRemainingColumn(),
            )
            self._bar.start()
            self._task = self._bar.add_task(description, total=total)
        self.enabled = enabled

    def advance(self, n: int = 1) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done)
        elif self.enabled and (
            self.done >= self._next_share * self.total or time.perf_counter() >= self._line_at
        ):
            self._line()

    def _line(self) -> None:
        seconds = max(time.perf_counter() - self._start, 1e-9)
        left = max(self.total - self.done, 0) * seconds / max(self.done, 1)
        print(
            f"{self.description}: {self.done}/{self.total} {self.unit}, "
            f"{self.done / seconds:.1f} {self.unit}/s, about {left / 60:.1f} min left",
            flush=True,
        )
        while self._next_share * self.total <= self.done:
            self._next_share += 0.1
        self._line_at = time.perf_counter() + 60.0

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
        elif self.enabled and self.done:
            self._line()


def learn_or_save(model, total_steps: int, callback, run_dir: Path, name: str, **learn_kwargs) -> bool:
    """``model.learn(total_steps, callback)``; on Ctrl-C, save the model as it is to
    ``run_dir/<name>_interrupted.zip`` and say so instead of printing a traceback. True if the
    training ran to its end, False if it was interrupted (the caller skips what follows)."""
    try:
        model.learn(total_steps, callback=callback, **learn_kwargs)
        return True
    except KeyboardInterrupt:
        path = run_dir / f"{name}_interrupted.zip"
        model.save(path)
        print(f"\ninterrupted at {model.num_timesteps} steps: the model is saved as {path}", flush=True)
        return False
