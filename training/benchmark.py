"""Learning curves: MaskablePPO from scratch on a task (``dungeon_env.tasks``), several seeds, evaluated
on held-out seeds as it learns, against the scripted and random agents of the same side.

    python -m training.benchmark --task heroes/one-guard --steps 100000 --seeds 1,2,3
    python -m training.benchmark --task dm/ambush --minutes 30 --seeds 1,2,3 --workers 2
    python -m training.benchmark --table runs/benchmark > docs/BENCHMARK.md

For each seed it trains on ``RoleEnv`` copies of the task (the side the task names, against its
default opponent) with the board-seeing network (``training.features``, ``--network``), and every
``--eval-every`` env steps plays ``--eval-games`` games on held-out seeds (``10**6 + k``, never a
training seed) with the policy sampled as in training (``--greedy``: its most likely action). It
writes into ``--out/<task>/``:

- ``curve.csv``: one row per evaluation (seed, env steps, wall seconds, the learning side's win
  rate: the heroes' is completed with every primary goal met, the DM's every hero dead; the share
  completed; the mean return);
- ``curve.png``: win rate against env steps and against wall time, the mean over seeds with the
  spread (min to max) as a band, the scripted and random agents' scores as lines;
- ``summary.json``: per seed the final evaluation (with its 95% Wilson interval) and the time, the
  baselines (same held-out seeds), the machine;
- ``seed<k>/``: the seed's own ``curve.csv`` (written as each evaluation comes), its
  ``final_model.zip`` and its ``run.json`` (the settings it began with), from which ``--resume``
  takes the run on to a larger ``--steps``.

``--table DIR`` reads every seed's curve under DIR (``<task>/seed<k>/curve.csv``: one command per
seed or per task, the same ``--out``), redraws each task's ``curve.png`` from all its seeds and
prints the Markdown table of docs/BENCHMARK.md: every task with its random and scripted scores (the
task card's), PPO at 100k and 300k env steps (pooled over seeds, 95% Wilson, each seed's rate),
whether PPO reached the scripted score within 30 minutes of training, and the training done.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import platform
import time
from pathlib import Path
from typing import Any

import numpy as np

from dungeon_env.ending import WINS, info_ending
from training.common import EnvSettings, learn_or_save, parse_settings, progress_callback, seed_everything
from training.evaluate import wilson_interval
from training.train_role import PPOSettings, make_model

EVAL_SEED = 10**6  # held-out evaluation seeds start here (dungeon_env.tasks.HELD_OUT_SEED)
# The heroes' training shaping on the small hero tasks (--train-shaping auto): a little for each
# square no hero had stood on (without it one-guard stayed at 0%), each hero out once every primary
# goal is met and a charge for each before (goal_exits: with exits, retrieve's heroes learned to
# walk out without the crown), door opened, item taken, monster slain, point of damage; and since
# 2026-12-03 the potential-based exit_path (each step nearer the exit on the board as heroes know it
# earns what a step back costs: without it guards, spells and items stayed at 0% for 100k-1M steps);
# and since its second round explored, each area searched in an Explore phase (without it items'
# heroes never searched the armoury for the arms they need: 0% for 218k steps, 87% with it).
HERO_TRAINING_SHAPING = (
    "squares=0.05,goal_exits=0.3,doors=0.1,treasure=0.2,kills=0.2,damage=0.02,exit_path=1,explored=0.3"
)
# The heroes' training shaping on the bundled adventures and the campaign (auto, since 2026-12-06):
# the potential-based terms only. There the terms paid per event add up, over 100 turns of wandering,
# to as much as a win: random heroes earned as much as the scripted heroes who win flooded_cellar
# every time (python -m training.shaping_check; docs/BENCHMARK.md, "Does the recipe pay for winning?").
HERO_ADVENTURE_SHAPING = "goal_exits=0.3,exit_path=1,explored=0.3"


def auto_shaping(task) -> str:
    """The ``--train-shaping auto`` recipe of ``task``: none on the Dungeon Master's tasks, the
    potential terms on the bundled adventures (``HERO_ADVENTURE_SHAPING``), the full recipe on the
    small hero tasks (``HERO_TRAINING_SHAPING``)."""
    from dungeon_env.content import adventure_names

    if task.side != "heroes":
        return ""
    return HERO_ADVENTURE_SHAPING if task.adventure in adventure_names() else HERO_TRAINING_SHAPING


@dataclasses.dataclass
class Settings(PPOSettings):
    """Train MaskablePPO from scratch on a task with several seeds and write its learning curve."""

    task: str = "heroes/one-guard"
    """the task (dungeon_env.tasks.task_names())"""
    gamma: float = 1.0
    """discount factor; 1 on the tasks: below 1, a policy that cannot win yet is paid for putting off
    a certain loss by spending more decisions on each turn"""
    steps: int = 100_000
    """env steps (decisions of the learning side) per seed"""
    minutes: float = 0.0
    """stop each seed after this many minutes of training (0: no limit)"""
    seeds: str = "1,2,3"
    """comma-separated training seeds"""
    workers: int = 1
    """seeds trained at once, in separate processes"""
    eval_every: int = 10_000
    """env steps between evaluations"""
    eval_games: int = 100
    """games per evaluation, on held-out seeds"""
    greedy: bool = False
    """evaluate the greedy policy (its most likely action) instead of sampling from it, as it plays
    in training; a greedy policy over square-by-square moves often walks to and fro until the turn cap"""
    baseline_games: int = 0
    """games for each baseline (scripted, random) on the same held-out seeds; 0: the task card's
    scores (dungeon_env.tasks.measure, 200 games on those seeds)"""
    train_shaping: str = "auto"
    """shaping terms added to the training env's rewards only, name=weight comma-separated; auto: the
    heroes' recipe of the task (auto_shaping: HERO_TRAINING_SHAPING on the small hero tasks,
    HERO_ADVENTURE_SHAPING on the bundled adventures), none on the Dungeon Master's; '' for none;
    the evaluations play the task's own rewards"""
    out: str = "runs/benchmark"
    """folder of the results (a subfolder per task)"""
    table: str = ""
    """instead of training: print the Markdown table of every task from the seed curves under this
    folder (and redraw each task's curve.png from all its seeds)"""
    resume: bool = False
    """go on with each seed's run under --out from its final_model.zip until --steps env steps (in
    all), its curve continued; the run's other settings must be those it was trained with"""


# ------------------------------------------------------------------------------------------ playing
def play_games(
    task_name: str, choose, games: int, seed: int = EVAL_SEED, *, at_once: int = 32, **overrides
) -> dict[str, Any]:
    """``games`` episodes of the task's RoleEnv on seeds ``seed, seed + 1, ...``, up to ``at_once`` of
    them side by side in lockstep: at each round ``choose(envs, observations) -> actions`` takes the
    decision of every game still running (one batched forward pass for a policy). The learning
    side's wins (the heroes': completed with every primary goal met; the DM's: every hero dead, as
    ``dungeon_env.tasks`` scores them), the completions and the mean return."""
    from dungeon_env.tasks import TASKS, make_task_gym

    if games < 1 or at_once < 1:
        raise ValueError(
            f"play_games needs at least one game and one at once, got games={games}, at_once={at_once}"
        )
    side = TASKS[task_name].side
    envs = [make_task_gym(task_name, **overrides) for _ in range(min(at_once, games))]
    running: dict[int, list] = {}  # env index -> [observation, return so far]
    started = 0
    finished: list[tuple[dict, float]] = []

    def start(i: int) -> None:
        nonlocal started
        obs, _ = envs[i].reset(seed=seed + started)
        running[i] = [obs, 0.0]
        started += 1

    for i in range(min(len(envs), games)):
        start(i)
    while running:
        playing = list(running)
        actions = list(choose([envs[i] for i in playing], [running[i][0] for i in playing]))
        if len(actions) != len(playing):
            raise ValueError(
                f"choose gave {len(actions)} actions for {len(playing)} running games, one per game"
            )
        for i, action in zip(playing, actions, strict=True):
            obs, reward, terminated, truncated, info = envs[i].step(int(action))
            running[i][0] = obs
            running[i][1] += float(reward)
            if terminated or truncated:
                finished.append((info, running.pop(i)[1]))
                if started < games:
                    start(i)
    for env in envs:
        env.close()
    return _tally(finished, side)


def _tally(finished: list[tuple[dict, float]], side: str) -> dict[str, Any]:
    """The wins, completions and mean return of finished games (each its last info and return)."""
    games = len(finished)
    ends = [info_ending(info) for info, _ in finished]
    completed = sum(end is not None and end.completed for end in ends)
    wins = sum(end is WINS[side] for end in ends)
    low, high = wilson_interval(wins, games)
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games,
        "win_low": low,
        "win_high": high,
        "completed": completed / games,
        "mean_return": float(np.mean([total for _, total in finished])),
    }


def model_chooser(model, greedy: bool = False):
    """The masked policy of a MaskablePPO model, sampled (or ``greedy``), as a ``choose`` for
    :func:`play_games`: one forward pass for the decisions of every running game."""

    def choose(envs, observations):
        if isinstance(observations[0], dict):
            batch: Any = {key: np.stack([o[key] for o in observations]) for key in observations[0]}
        else:
            batch = np.stack(observations)
        masks = np.stack([env.action_masks() for env in envs])
        actions, _ = model.predict(batch, action_masks=masks, deterministic=greedy)
        return [int(a) for a in actions]

    return choose


def agent_chooser(spec: str, side: str):
    """An agent of the spec language (``agents.spec``) playing the learning side, one bound to each
    env, as a ``choose`` for :func:`play_games`."""
    from agents import from_spec

    bound: dict[int, Any] = {}

    def act(env, obs) -> int:
        agent = bound.get(id(env))
        if agent is None:
            agent = bound[id(env)] = from_spec(spec, side, seed=0, env=env)
        return int(agent.act(obs, env.action_masks().astype(np.int8)))

    def choose(envs, observations):
        return [act(env, obs) for env, obs in zip(envs, observations, strict=True)]

    return choose


# ------------------------------------------------------------------------------------------ training
def evaluation_callback(
    settings: Settings,
    rows: list[dict],
    seed: int,
    folder: Path | None = None,
    trained_before: float = 0.0,
):
    """Evaluate the model every ``eval_every`` steps, between a policy update and the next rollout
    (and at the start and the end), into ``rows``
    and, as each comes, ``folder/curve.csv`` (a run stopped half-way keeps its curve so far); stop
    the training when ``minutes`` have passed. A resumed run's ``rows`` hold its curve so far: the
    training time goes on from ``trained_before`` (:func:`resume_point`), and the start is
    evaluated only if it is not there."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Evaluation(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.next_eval, self.start, self.train_seconds, self.eval_seconds = 0, 0.0, 0.0, 0.0

        def _on_training_start(self) -> None:
            self.start = time.perf_counter()
            if rows and rows[-1]["steps"] == self.model.num_timesteps:
                self.next_eval = self.model.num_timesteps + settings.eval_every
            else:
                self._evaluate()

        def trained(self) -> float:
            """The training seconds of the run so far, evaluations left out."""
            return trained_before + time.perf_counter() - self.start - self.eval_seconds

        def _evaluate(self) -> None:
            self.train_seconds = self.trained()
            began = time.perf_counter()
            steps = int(self.model.num_timesteps)
            result = evaluate_model(settings, self.model, sampling_seed=seed * 10**9 + steps)
            rows.append(
                {
                    "task": settings.task,
                    "seed": seed,
                    "steps": steps,
                    "seconds": round(self.train_seconds, 2),
                    "games": settings.eval_games,
                    **{k: result[k] for k in ("win_rate", "win_low", "win_high", "completed", "mean_return")},
                    "eval_seconds": round(time.perf_counter() - began, 2),
                }
            )
            self.eval_seconds += rows[-1]["eval_seconds"]
            if folder is not None:
                write_curve(rows, folder)
            self.next_eval = self.model.num_timesteps + settings.eval_every

        def _on_rollout_start(self) -> None:
            # between a policy update and the next rollout: the model evaluated is one the training
            # made (during a rollout the last update is still to come, and the final evaluation at
            # the end of training would then skip the last one)
            if self.model.num_timesteps >= self.next_eval:
                self._evaluate()

        def _on_step(self) -> bool:
            return not (settings.minutes and self.trained() > 60 * settings.minutes)

        def _on_training_end(self) -> None:
            if rows[-1]["steps"] != self.model.num_timesteps:
                self._evaluate()

    return Evaluation()


def evaluate_model(settings: Settings, model, sampling_seed: int) -> dict[str, Any]:
    """The model's ``eval_games`` games of the task (:func:`play_games`), its actions sampled from
    torch's generator seeded with ``sampling_seed`` and that generator then put back as it was: the
    training goes on drawing the same numbers however often it is evaluated."""
    import torch

    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(sampling_seed)
        return play_games(settings.task, model_chooser(model, settings.greedy), settings.eval_games)


def train_seed(settings: Settings, seed: int) -> list[dict]:
    """One seed's run: the evaluations as rows (see the module docstring). With ``resume``, the
    seed's run under ``out`` goes on from its ``final_model.zip`` (:func:`resume_point`)."""
    import torch
    from stable_baselines3.common.callbacks import CallbackList
    from stable_baselines3.common.logger import configure

    from dungeon_env.tasks import TASKS
    from training.common import make_vec_env

    task = TASKS[settings.task]
    folder = Path(settings.out) / task_slug(settings.task) / f"seed{seed}"
    rows: list[dict] = []
    resumed: list[int] = []
    trained_before = 0.0
    if settings.resume:
        rows, resumed, trained_before = resume_point(settings, seed, folder)
    # A resumed run plays other training games than the ones it began with: env seeds 1000 apart.
    env_seed = seed + RESUME_SEED_STRIDE * len(resumed)
    seed_everything(env_seed, settings.torch_deterministic)
    if settings.torch_threads > 0:
        torch.set_num_threads(settings.torch_threads)
    folder.mkdir(parents=True, exist_ok=True)
    vec = make_vec_env(
        task.side,
        task.opponent,
        training_kwargs(task, settings.train_shaping),
        settings.n_envs,
        env_seed,
        subproc=settings.subproc,
    )
    if resumed:
        from sb3_contrib import MaskablePPO

        model = MaskablePPO.load(folder / "final_model.zip", env=vec, device="cpu")
        model.set_logger(configure(str(folder / f"resumed{len(resumed)}"), ["csv"]))
    else:
        model = make_model(dataclasses.replace(settings, seed=seed), vec, configure(str(folder), ["csv"]))
    write_run_file(settings, folder, resumed)
    evaluation = evaluation_callback(settings, rows, seed, folder, trained_before)
    callbacks = [evaluation]
    # the progress bar counts what is left of the run: the steps and minutes of this resumption
    label = f"{settings.task} seed {seed}" + (f" from {model.num_timesteps}" if resumed else "")
    minutes_left = settings.minutes - trained_before / 60 if settings.minutes else 0.0
    steps_left = settings.steps - model.num_timesteps
    progress = progress_callback(steps_left, label, settings.progress, minutes_left)
    callbacks.append(progress)
    try:
        finished = learn_or_save(
            model,
            steps_left,
            CallbackList(callbacks),
            folder,
            "model",
            reset_num_timesteps=not resumed,
        )
    finally:
        vec.close()
    model.save(folder / "final_model.zip")
    if not finished:
        record_interruption(folder, int(model.num_timesteps), evaluation.trained())
    return rows


RUN_FILE = "run.json"  # a seed's settings, beside its curve, for --resume
RESUME_SEED_STRIDE = 1000
# What a resumed run may change: how long it goes on, how often and how much it is evaluated, where
# and how it reports, and how the work is spread on the machine. Every other setting is the run's.
RESUMABLE = frozenset(
    {
        "steps",
        "minutes",
        "eval_every",
        "eval_games",
        "progress",
        "out",
        "seeds",
        "workers",
        "table",
        "resume",
        "baseline_games",
        "torch_threads",
        "subproc",
        "seed",
        "exp_name",
        "runs_dir",
    }
)
# The game options a task fixes (check_unused_options rejects them): not a run's settings, so
# run.json leaves them out rather than show an adventure and shaping the run never played.
GAME_OPTIONS = frozenset(f.name for f in dataclasses.fields(EnvSettings))


def run_settings(settings: Settings) -> dict[str, Any]:
    """The settings a seed's run is trained with, for ``run.json`` and ``--resume``."""
    return {k: v for k, v in dataclasses.asdict(settings).items() if k not in GAME_OPTIONS}


def recipe_of(settings: Settings) -> dict[str, float] | None:
    """The shaping terms ``settings`` train with, ``auto`` spelled out (``training_kwargs``)."""
    from dungeon_env.tasks import TASKS

    return training_kwargs(TASKS[settings.task], settings.train_shaping).get("shaping")


def write_run_file(settings: Settings, folder: Path, resumed: list[int]) -> Path:
    """``folder/run.json``: the settings the seed's run was begun with, and the env steps at which
    it was resumed (``resumed``)."""
    path = folder / RUN_FILE
    if resumed:
        saved = json.loads(path.read_text())
        saved["resumed"] = resumed
        saved.pop("interrupted", None)  # taken on from there
    else:
        saved = run_settings(settings) | {"training_shaping": recipe_of(settings), "resumed": []}
    path.write_text(json.dumps(saved, indent=2))
    return path


def record_interruption(folder: Path, steps: int, seconds: float) -> None:
    """Note in ``folder/run.json`` where a run stopped by Ctrl-C is (its model saved there, after its
    curve's last evaluation): ``--resume`` goes on from these steps and training seconds."""
    path = folder / RUN_FILE
    saved = json.loads(path.read_text())
    saved["interrupted"] = {"steps": steps, "seconds": round(seconds, 2)}
    path.write_text(json.dumps(saved, indent=2))


def resume_point(settings: Settings, seed: int, folder: Path) -> tuple[list[dict], list[int], float]:
    """For ``--resume``: the seed's curve so far, the env steps of each resumption (this one last)
    and the training seconds so far (an interrupted run's at its interruption, after its curve's
    last evaluation); a SystemExit naming a missing file, a setting that differs from the run's
    (``run.json``) or a run that has its ``--steps`` or ``--minutes`` already."""
    paths = [folder / name for name in ("final_model.zip", "curve.csv", RUN_FILE)]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise SystemExit(
            f"--resume: seed {seed} of {settings.task} has no {', '.join(missing)}; a run to go on "
            "with is one that training.benchmark finished or stopped under the same --out"
        )
    saved = json.loads(paths[2].read_text())
    differs = [
        f"--{name.replace('_', '-')} was {saved.get(name)!r}, here {value!r}"
        for name, value in run_settings(settings).items()
        if name not in RESUMABLE and saved.get(name) != value
    ]
    if "training_shaping" in saved and saved["training_shaping"] != recipe_of(settings):
        differs.append(
            f"the shaping terms were {saved['training_shaping']}, here {recipe_of(settings)} "
            "(--train-shaping auto is spelled out per task: give the run's terms explicitly)"
        )
    if differs:
        raise SystemExit(f"--resume: {folder} was trained with other settings: {'; '.join(differs)}")
    if settings.lr_decay:
        raise SystemExit("--resume: --lr-decay decays over one run's --steps; a resumed run cannot keep it")
    rows = read_rows(paths[1])
    if not rows or rows[-1]["steps"] >= settings.steps:
        done = rows[-1]["steps"] if rows else 0
        raise SystemExit(
            f"--resume: seed {seed} of {settings.task} is at {done} steps already; "
            f"--steps {settings.steps} asks for no more"
        )
    at, seconds = rows[-1]["steps"], rows[-1]["seconds"]
    stopped = saved.get("interrupted")
    if stopped and stopped["steps"] > at:  # Ctrl-C after the last evaluation: the model is further on
        at, seconds = stopped["steps"], stopped["seconds"]
    trained = seconds / 60
    if settings.minutes and trained >= settings.minutes:
        raise SystemExit(
            f"--resume: seed {seed} of {settings.task} has trained {trained:.1f} minutes already; "
            f"--minutes {settings.minutes:g} (the whole run's) asks for no more"
        )
    return rows, [*saved.get("resumed", []), at], seconds


def training_kwargs(task, train_shaping: str) -> dict[str, Any]:
    """The task's env options with the ``--train-shaping`` terms added to its shaping (a term the
    task shapes too gets the sum), or a SystemExit naming a malformed or unknown term."""
    from dungeon_env.rewards import SHAPING_TERMS

    kwargs = task.env_kwargs()
    if train_shaping == "auto":
        train_shaping = auto_shaping(task)
    if not train_shaping:
        return kwargs
    shaping = dict(kwargs.get("shaping") or {})
    for part in train_shaping.split(","):
        name, _, weight = part.partition("=")
        name = name.strip()
        if name not in SHAPING_TERMS:
            raise SystemExit(f"--train-shaping: unknown term {name!r}; the terms are {list(SHAPING_TERMS)}")
        try:
            shaping[name] = shaping.get(name, 0.0) + float(weight)
        except ValueError:
            raise SystemExit(f"--train-shaping: {part!r} is not name=weight (a number)") from None
    return kwargs | {"shaping": shaping}


def task_slug(task: str) -> str:
    """A task's folder and file name: heroes/one-guard -> heroes-one-guard."""
    return task.replace("/", "-")


def _train_seed_job(args: tuple[Settings, int]) -> list[dict]:
    return train_seed(*args)


# ------------------------------------------------------------------------------------------ outputs
def write_curve(rows: list[dict], folder: Path) -> Path:
    return write_rows(rows, folder / "curve.csv")


def write_rows(rows: list[dict], path: Path) -> Path:
    """Curve rows as a CSV at ``path``, the first row's keys as the header."""
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def plot_curve(rows: list[dict], baselines: dict[str, dict], title: str, path: Path) -> Path:
    """Win rate against env steps and wall time: the mean over seeds and the spread as a band (to the
    shortest seed's end), each seed's own curve dotted."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    seeds = sorted({r["seed"] for r in rows})
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for ax, key, label in ((axes[0], "steps", "env steps"), (axes[1], "seconds", "wall time (s)")):
        curves = [[r for r in rows if r["seed"] == s] for s in seeds]
        n = min(len(c) for c in curves)
        x = np.mean([[c[i][key] for i in range(n)] for c in curves], axis=0)
        y = np.array([[c[i]["win_rate"] for i in range(n)] for c in curves])
        ax.plot(x, y.mean(axis=0), color="tab:blue", label=f"PPO from scratch (mean of {len(seeds)} seeds)")
        ax.fill_between(
            x, y.min(axis=0), y.max(axis=0), color="tab:blue", alpha=0.2, label="min-max over seeds"
        )
        for seed, curve in zip(seeds, curves, strict=True):  # each seed's own, to its end
            xs, ys = [r[key] for r in curve], [r["win_rate"] for r in curve]
            ax.plot(xs, ys, color="tab:blue", alpha=0.5, linewidth=0.8, linestyle=":", label=f"seed {seed}")
        for name, color in (("scripted", "tab:green"), ("random", "tab:gray")):
            if name in baselines:
                ax.axhline(baselines[name]["win_rate"], color=color, linestyle="--", label=name)
        ax.set_xlabel(label)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("win rate of the learning side")
    axes[0].set_ylim(-0.02, 1.02)
    axes[1].legend(loc="lower right", fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def machine() -> dict[str, Any]:
    return {
        "cpus": os.cpu_count(),
        "processor": platform.processor() or platform.machine(),
        "python": platform.python_version(),
    }


def measured_baselines(task, games: int) -> dict[str, dict]:
    """The scripted and random learning side's scores on the held-out seeds: played now (``games``
    each), or with ``games`` 0 the task card's (``Task.scores``, measured on the same seeds)."""
    if games > 0:
        from dungeon_env.tasks import SCRIPTED  # the scripted agents the cards were measured with: v1

        specs = {"scripted": SCRIPTED, "random": "random"}
        return {name: play_games(task.name, agent_chooser(s, task.side), games) for name, s in specs.items()}
    baselines = {}
    for name in ("scripted", "random"):
        score = task.scores[name]
        low, high = score.interval
        baselines[name] = {
            "games": score.games,
            "wins": score.wins,
            "win_rate": score.rate,
            "win_low": low,
            "win_high": high,
            "mean_return": score.mean_return,
            "source": "task card",
        }
    return baselines


def check_unused_options(settings: Settings) -> None:
    """A SystemExit naming any game option given on the command line: a task fixes its adventure,
    party, turn cap and rewards (``--train-shaping`` adds training shaping)."""
    given = [
        f"--{f.name.replace('_', '-')}"
        for f in dataclasses.fields(EnvSettings)
        if getattr(settings, f.name) != f.default
    ]
    if given:
        raise SystemExit(
            f"{', '.join(given)}: a task fixes the game (adventure, heroes, turn cap, rewards); "
            "pick another --task, or add training shaping with --train-shaping"
        )


def run(settings: Settings) -> dict[str, Any]:
    from dungeon_env.tasks import TASKS

    if settings.task not in TASKS:
        raise SystemExit(f"--task: unknown task {settings.task!r}; the tasks are {sorted(TASKS)}")
    check_unused_options(settings)
    task = TASKS[settings.task]
    seeds = [int(s) for s in settings.seeds.split(",") if s.strip()]
    folder = Path(settings.out) / task_slug(settings.task)
    folder.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    if settings.workers > 1 and len(seeds) > 1:
        import multiprocessing

        with multiprocessing.get_context("forkserver").Pool(min(settings.workers, len(seeds))) as pool:
            per_seed = pool.map(_train_seed_job, [(settings, s) for s in seeds])
    else:
        per_seed = [train_seed(settings, s) for s in seeds]
    rows = [row for seed_rows in per_seed for row in seed_rows]
    baselines = measured_baselines(task, settings.baseline_games)
    write_curve(rows, folder)
    plot_curve(rows, baselines, f"{settings.task}: MaskablePPO from scratch", folder / "curve.png")
    finals = [seed_rows[-1] for seed_rows in per_seed]
    summary = {
        "task": settings.task,
        "side": task.side,
        "opponent": task.opponent,
        "steps": settings.steps,
        "minutes": settings.minutes,
        "seeds": seeds,
        "network": getattr(settings, "network", "mlp"),
        "training_shaping": training_kwargs(task, settings.train_shaping).get("shaping"),
        "final": finals,
        "final_win_rate": float(np.mean([f["win_rate"] for f in finals])),
        "baselines": baselines,
        "wall_seconds": round(time.perf_counter() - began, 1),
        "eval_games": settings.eval_games,
        "eval_policy": "greedy" if settings.greedy else "sampled",
        "machine": machine(),
    }
    (folder / "summary.json").write_text(json.dumps(summary, indent=2))
    print(json.dumps({k: summary[k] for k in ("task", "final_win_rate", "wall_seconds")}))
    return summary


# ------------------------------------------------------------------------------------------ the table
# The table's two budgets of env steps. The second is what the aim's 30 minutes of training buy here
# (150-170 env steps/s a run, two at once on 2 cores); 1M steps would be 1.5 to 3 hours a run.
BUDGETS = (100_000, 300_000)
THIRTY_MINUTES = 1800.0
# The fewest games an evaluation (pooled over the seeds) needs to count as reaching the scripted
# score: 4 wins in 10 games is within the noise of a 20% policy.
MIN_GAMES = 30


Curves = dict[str, dict[int, list[dict]]]  # each task's evaluations by seed


def seed_curves(folder: str | Path) -> Curves:
    """Every seed's curve under ``folder`` (``<task>/seed<k>/curve.csv``, the runs of any number of
    benchmark commands with the same ``--out``), by task and seed, numbers parsed."""
    curves: Curves = {}
    for path in sorted(Path(folder).glob("*/seed*/curve.csv")):
        rows = read_rows(path)
        if rows and "games" in rows[0]:
            curves.setdefault(rows[0]["task"], {})[rows[0]["seed"]] = rows
    return curves


def _curves(source: str | Path | Curves) -> Curves:
    """The curves themselves, or those of the seed runs under a folder."""
    return source if isinstance(source, dict) else seed_curves(source)


def read_rows(path: Path) -> list[dict]:
    """A curve.csv's evaluations, numbers parsed."""
    with path.open() as f:
        return [_parse_row(r) for r in csv.DictReader(f)]


def _parse_row(row: dict[str, str]) -> dict:
    ints = ("seed", "steps", "games")
    return {k: (v if k == "task" else int(v) if k in ints else float(v)) for k, v in row.items()}


def at_budget(rows: list[dict], budget: int) -> dict | None:
    """A seed's evaluation at ``budget`` env steps (the first at or after it, within 10%), or None
    when the seed stopped before."""
    for row in rows:
        if row["steps"] >= budget:
            return row if row["steps"] <= 1.1 * budget else None
    return None


def pooled(rows: list[dict]) -> tuple[int, int]:
    """The wins and games of evaluations pooled over seeds."""
    wins = sum(round(r["win_rate"] * r["games"]) for r in rows)
    return wins, sum(r["games"] for r in rows)


def _pooled_cell(rows: list[dict]) -> str:
    wins, games = pooled(rows)
    low, high = wilson_interval(wins, games)
    per_seed = ", ".join(f"{r['win_rate']:.0%}" for r in rows)
    return f"{wins / games:.0%} [{low:.0%}, {high:.0%}] ({per_seed})"


def reached_scripted(seeds: dict[int, list[dict]], scripted_low: float) -> str:
    """When the seeds' evaluations at the same step count, pooled, first reached the scripted side's
    95% lower bound and held it at the next evaluation, both within 30 minutes of training (every
    seed) and in at least ``MIN_GAMES`` games, or "no" with the best pooled rate ("too few games"
    when only smaller evaluations reached it); then how many seeds reached it on their own (two
    evaluations in a row of ``MIN_GAMES`` at or above it)."""
    curves = list(seeds.values())
    rows, best, small_hit = _first_pooled_reaching(curves, scripted_low)
    if rows is not None:
        minutes = max(r["seconds"] for r in rows) / 60
        pooled_text = f"yes: {rows[0]['steps'] / 1000:.0f}k steps, {minutes:.1f} min"
    else:
        why = f"too few games per evaluation to tell (under {MIN_GAMES})" if small_hit else "no"
        pooled_text = f"{why} (best {best:.0%})"
    if len(curves) == 1:
        return pooled_text
    alone = [_first_reaching(c, scripted_low) for c in curves]
    steps = [f"{r['steps'] / 1000:.0f}k" for r in alone if r is not None]
    return f"{pooled_text}; seeds alone: {len(steps)} of {len(curves)}" + (
        f" (at {', '.join(steps)} steps)" if steps else ""
    )


def _first_pooled_reaching(curves: list[list[dict]], low: float) -> tuple[list[dict] | None, float, bool]:
    """The first evaluations (one per seed, each seed's at a step count, as ``at_budget`` finds it,
    whatever their intervals) within 30 minutes whose pooled rate in at least ``MIN_GAMES`` games is
    at or above ``low`` and stays so at the next step count the seeds share (within 30 minutes too),
    or None; the best pooled rate until then; and whether a smaller pooled evaluation reached ``low``.
    One evaluation alone can reach it by chance: 9 wins in 30 games of a policy no better than
    random's 23% reached a scripted 36%'s lower bound of 30% (``dm/bandit-keep``, 2026-12-03)."""
    best, small_hit, pending = 0.0, False, None
    for steps in sorted({r["steps"] for c in curves for r in c}):
        rows = [at_budget(c, steps) for c in curves]
        if any(r is None for r in rows):
            continue
        if max(r["seconds"] for r in rows) > THIRTY_MINUTES:
            break
        wins, games = pooled(rows)
        best = max(best, wins / games)
        hit = wins / games >= low and rows[0]["steps"] > 0
        if hit and games >= MIN_GAMES:
            if pending is not None:
                return pending, best, small_hit
            pending = rows
            continue
        small_hit = small_hit or hit
        pending = None
    return None, best, small_hit


def _first_reaching(rows: list[dict], low: float) -> dict | None:
    """A seed's first evaluation of at least ``MIN_GAMES`` games at or above ``low`` whose next
    evaluation is too, both within 30 minutes, or None."""
    pending = None
    for row in rows:
        if row["seconds"] > THIRTY_MINUTES:
            return None
        if row["steps"] > 0 and row["win_rate"] >= low and row["games"] >= MIN_GAMES:
            if pending is not None:
                return pending
            pending = row
        else:
            pending = None
    return None


def _training_cell(seeds: dict[int, list[dict]]) -> str:
    lasts = [rows[-1] for rows in seeds.values()]
    steps = min(r["steps"] for r in lasts)
    minutes = np.mean([r["seconds"] for r in lasts]) / 60
    evaluating = np.mean([sum(r["eval_seconds"] for r in rows) for rows in seeds.values()]) / 60
    return (
        f"{_seeds(len(seeds))}, {steps / 1000:.0f}k+ steps, {minutes:.0f} min "
        f"(+{evaluating:.0f} min evaluating)"
    )


def _seeds(n: int) -> str:
    return f"{n} seed" if n == 1 else f"{n} seeds"


def _score_cell(score) -> str:
    low, high = score.interval
    return f"{score.rate:.0%} [{low:.0%}, {high:.0%}]"


def table_markdown(source: str | Path | Curves) -> str:
    """The benchmark table of every task (``dungeon_env.tasks``): the random and scripted sides (the
    task card's 200 games), PPO at the two ``BUDGETS`` of env steps pooled over seeds with each seed's rate,
    whether PPO reached the scripted score within 30 minutes, and the training done; from ``source``,
    the curves or a folder of seed runs (:func:`seed_curves`); a task never run says so."""
    from dungeon_env.tasks import TASKS

    curves = _curves(source)
    rows = [
        f"| task | side | random | scripted | PPO at {_steps(BUDGETS[0])} steps [95%] (per seed) "
        f"| PPO at {_steps(BUDGETS[1])} steps "
        "| PPO reached the scripted score in 30 min | training per seed |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, task in TASKS.items():
        scripted = task.scores["scripted"]
        cells = [f"`{name}`", task.side, _score_cell(task.scores["random"]), _score_cell(scripted)]
        seeds = curves.get(name)
        if not seeds:
            rows.append("| " + " | ".join(cells + ["not run", "not run", "-", "-"]) + " |")
            continue
        for budget in BUDGETS:
            cells.append(_budget_cell(seeds, budget))
        reached = reached_scripted(seeds, scripted.interval[0])
        if not scripted_beats_random(task):
            reached = f"not counted: the scripted side is no better than random here ({reached})"
        cells += [reached, _training_cell(seeds)]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def _steps(n: int) -> str:
    """An env-step count as the table writes it: 100k, 300k, 1M."""
    return f"{n // 10**6}M" if n % 10**6 == 0 else f"{n // 1000}k"


def _budget_cell(seeds: dict[int, list[dict]], budget: int) -> str:
    """PPO at ``budget`` steps pooled over the seeds; where every seed stopped before it, where they
    stopped, and (for the first budget) their last evaluations pooled."""
    found = [at_budget(rows, budget) for rows in seeds.values()]
    found = [r for r in found if r is not None]
    if found:
        return _pooled_cell(found)
    lasts = [rows[-1] for rows in seeds.values()]
    stopped = f"stopped at {max(r['steps'] for r in lasts) / 1000:.0f}k"
    return f"- ({stopped}: {_pooled_cell(lasts)})" if budget == BUDGETS[0] else f"- ({stopped})"


def scripted_beats_random(task) -> bool:
    """Whether a task's scripted side wins clearly more than random play (the 95% intervals of the
    task card apart). Where it does not, reaching the scripted score says nothing of learning: a
    policy no better than random reaches it."""
    return task.scores["scripted"].interval[0] > task.scores["random"].interval[1]


AIM_COUNTS = ("tasks", "run", "counted", "pooled", "majority")


def aim_count(source: str | Path | Curves) -> dict[str, dict[str, int]]:
    """Per side: the tasks, those run, those where the scripted score means something
    (:func:`scripted_beats_random`), and of those the tasks where PPO reached it within 30 minutes,
    pooled over every seed or on a majority of seeds alone; from the curves or a folder of seed runs."""
    from dungeon_env.tasks import TASKS

    curves = _curves(source)
    count: dict[str, dict[str, int]] = {}
    for name, task in TASKS.items():
        side = count.setdefault(task.side, dict.fromkeys(AIM_COUNTS, 0))
        side["tasks"] += 1
        seeds = curves.get(name)
        if not seeds:
            continue
        side["run"] += 1
        if not scripted_beats_random(task):
            continue
        side["counted"] += 1
        low = task.scores["scripted"].interval[0]
        side["pooled"] += _first_pooled_reaching(list(seeds.values()), low)[0] is not None
        alone = sum(_first_reaching(rows, low) is not None for rows in seeds.values())
        side["majority"] += 2 * alone > len(seeds)
    return count


def aim_markdown(source: str | Path | Curves) -> str:
    """The aim of issue 16 counted (:func:`aim_count`) from the curves or a folder of seed runs: PPO
    at the scripted score within 30 minutes on half the hero tasks and on one DM task."""
    lines = []
    for side, c in aim_count(source).items():
        lines.append(
            f"- **{side}:** {c['tasks']} tasks, {c['run']} run; the scripted score means something on "
            f"{c['counted']} of those run; PPO reached it within 30 minutes on {c['pooled']} pooled over "
            f"the seeds, on {c['majority']} counting the majority of seeds alone."
        )
    return "\n".join(lines)


def plot_task(name: str, seeds: dict[int, list[dict]], path: Path) -> Path:
    """A task's curve from all its seeds, with the task card's scripted and random scores."""
    from dungeon_env.tasks import TASKS

    task = TASKS[name]
    baselines = {k: {"win_rate": task.scores[k].rate} for k in ("scripted", "random")}
    rows = [row for curve in seeds.values() for row in curve]
    return plot_curve(rows, baselines, f"{name}: MaskablePPO from scratch", path)


def plot_all(folder: str | Path) -> list[Path]:
    """Redraw ``<task>/curve.png`` under ``folder`` from every seed's curve there (runs of one task
    made by several commands)."""
    return [
        plot_task(name, seeds, Path(folder) / task_slug(name) / "curve.png")
        for name, seeds in seed_curves(folder).items()
    ]


def main(argv: list[str] | None = None) -> dict | None:
    settings = parse_settings(Settings, argv)
    if settings.table:
        plot_all(settings.table)
        print(table_markdown(settings.table))
        print()
        print(aim_markdown(settings.table))
        return None
    return run(settings)


__all__ = [
    "EnvSettings",
    "Settings",
    "aim_count",
    "main",
    "play_games",
    "plot_curve",
    "run",
    "scripted_beats_random",
    "table_markdown",
]

if __name__ == "__main__":
    main()
