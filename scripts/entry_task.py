"""The entry task check: does a learner learn at all, on a task no constant or untrained policy solves?

    python scripts/entry_task.py --task heroes/exit-doors --seeds 1,2,3 --minutes 10
    # the one setting the defaults need there: the training env's exit_path shaping
    python scripts/entry_task.py --task heroes/exit-doors --seeds 1,2,3 --minutes 10 \
        --skip constants,untrained --shaping exit_path=1 --label exit-path

Four steps, each a function, all on the held-out seeds ``10**6 + i`` (``dungeon_env.tasks.HELD_OUT_SEED``;
training draws its games from the env's own generator, seeded by the training seed):

1. :func:`constant_policies`: every "play action k if legal, else the first legal action" policy (k
   over the whole action space), "always the first legal" and "always the last legal", ``--baseline-games``
   games each;
2. :func:`untrained_policies`: ``MaskablePPO("MlpPolicy", env, seed=s)`` before any training, played
   greedily (``deterministic=True``), for each ``--init-seeds`` seed;
3. :func:`train_seed`: ``MaskablePPO("MlpPolicy", env, seed=s, verbose=0)``, the library's default
   hyperparameters (``--set name=value`` changes one, ``--shaping name=weight`` adds shaping terms to
   the training env's reward, never to the evaluation's), trained for ``--minutes`` of
   training wall time (the clock stops while it is evaluated), evaluated greedily every
   ``--eval-every`` env steps on ``--eval-games`` held-out games; up to ``--workers`` seeds at once,
   one torch thread each;
4. :func:`plot` and :func:`summary`: one PNG of the curves, and which seeds reached ``--threshold``
   (the share of held-out games won at one evaluation within the budget).

Everything is written under ``--out`` (default ``docs/benchmark/entry-task``), the task's slug first:
``<slug>-constants.csv``, ``<slug>-untrained.csv``, ``<slug>-seed<k>.csv`` (one row per evaluation:
seed, steps, training minutes, wall minutes, games, wins, win rate and its 95% Wilson interval) and
``<slug>.png`` (``--label L``: ``<slug>-L-seed<k>.csv`` and ``<slug>-L.png``). ``--skip`` leaves steps
out (``--skip constants,untrained``; with ``training`` too, it only redraws the plot from the curves).
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dungeon_env.ending import WINS, info_ending  # noqa: E402
from dungeon_env.tasks import HELD_OUT_SEED, get_task, wilson_interval  # noqa: E402

OUT = ROOT / "docs" / "benchmark" / "entry-task"
POLICY = "MlpPolicy"  # the observation is one flat Box (the task's default observation format)


# ------------------------------------------------------------------------------------------ helpers


def slug(task: str) -> str:
    return task.replace("/", "-")


def make_env(task: str, **options: Any):
    """The task as Gymnasium makes it (``dungeon_env/<side>-<task>-v1``), ``options`` (env options,
    e.g. ``shaping``) changed."""
    import gymnasium

    return gymnasium.make(get_task(task).gym_id, **options)


def won(info: dict, side: str) -> bool:
    """The learning side's win, as ``dungeon_env.tasks`` scores it (``dungeon_env.ending.WINS``)."""
    return info_ending(info) is WINS[side]


def rate_row(wins: int, games: int) -> dict[str, Any]:
    """Games, wins, the rate and its Wilson interval at full precision (the stored curves are read
    back by tests that recompute the interval)."""
    low, high = wilson_interval(wins, games)
    return {"games": games, "wins": wins, "win_rate": wins / games, "win_low": low, "win_high": high}


def write_csv(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def play_one(env, choose, seed: int) -> tuple[bool, set[int]]:
    """One game on ``seed`` with ``choose(mask) -> action``: the learning side's win and every action
    that was legal at one of its decisions."""
    side = get_task(env.spec.kwargs["name"]).side
    env.reset(seed=seed)
    seen: set[int] = set()
    while True:
        mask = env.unwrapped.action_masks()
        seen.update(int(a) for a in np.flatnonzero(mask))
        _, _, terminated, truncated, info = env.step(choose(mask))
        if terminated or truncated:
            return won(info, side), seen


# ------------------------------------------------------------------------------------------ step 1


def constant_policies(task: str, games: int, seed: int = HELD_OUT_SEED) -> list[dict]:
    """Every constant policy's score on games ``seed + i``: "action k if legal, else the first legal"
    for every k, "always the first legal", "always the last legal".

    The env and its opponent are deterministic given the game's seed, so on a game where action k was
    never legal in the first-legal policy's game, "k if legal" plays that very game: only the games
    where k was legal at some decision are played again (:func:`check_replay` checks the shortcut)."""
    from dungeon_env.engine import Action

    env = make_env(task)
    first = [play_one(env, lambda m: int(np.flatnonzero(m)[0]), seed + i) for i in range(games)]
    last = [play_one(env, lambda m: int(np.flatnonzero(m)[-1]), seed + i)[0] for i in range(games)]
    rows = [
        {"policy": "first legal", **rate_row(sum(w for w, _ in first), games)},
        {"policy": "last legal", **rate_row(sum(last), games)},
    ]
    for k in range(env.action_space.n):

        def choose(mask, k=k):
            return k if mask[k] else int(np.flatnonzero(mask)[0])

        wins = sum(
            play_one(env, choose, seed + i)[0] if k in seen else w for i, (w, seen) in enumerate(first)
        )
        rows.append(
            {"policy": f"{Action(k).name.lower()} if legal, else first legal", **rate_row(wins, games)}
        )
    env.close()
    return rows


def check_replay(task: str, k: int, games: int, seed: int = HELD_OUT_SEED) -> bool:
    """The shortcut of :func:`constant_policies` against playing every game of policy k in full."""
    env = make_env(task)

    def choose(mask):
        return k if mask[k] else int(np.flatnonzero(mask)[0])

    full = [play_one(env, choose, seed + i)[0] for i in range(games)]
    first = [play_one(env, lambda m: int(np.flatnonzero(m)[0]), seed + i) for i in range(games)]
    short = [play_one(env, choose, seed + i)[0] if k in seen else w for i, (w, seen) in enumerate(first)]
    return full == short


# ------------------------------------------------------------------------------------------ step 2


def new_model(task: str, seed: int, settings: dict[str, Any] | None = None, shaping: dict | None = None):
    """``MaskablePPO(POLICY, env, seed=seed, verbose=0)``, plus ``settings`` if any are given, on the
    task's env (with the training reward's ``shaping`` terms if any are given)."""
    from sb3_contrib import MaskablePPO

    env = make_env(task, shaping=shaping) if shaping else make_env(task)
    return MaskablePPO(POLICY, env, seed=seed, verbose=0, **(settings or {}))


def greedy_score(task: str, model, games: int, seed: int = HELD_OUT_SEED) -> dict[str, Any]:
    """The model's most likely legal action in every decision, games ``seed + i``."""
    from training.benchmark import model_chooser, play_games

    result = play_games(task, model_chooser(model, greedy=True), games, seed)
    return rate_row(result["wins"], result["games"])


def untrained_policies(task: str, init_seeds: list[int], games: int) -> list[dict]:
    """Untrained default networks, one per initialisation seed, played greedily."""
    import torch

    torch.set_num_threads(1)
    return [{"init_seed": s, **greedy_score(task, new_model(task, s), games)} for s in init_seeds]


# ------------------------------------------------------------------------------------------ step 3


def train_seed(job: dict[str, Any]) -> list[dict]:
    """Train one seed (``job``: task, seed, minutes, steps, eval_every, eval_games, settings, path)
    and write its curve to ``job["path"]`` after every evaluation."""
    import torch
    from stable_baselines3.common.callbacks import BaseCallback

    torch.set_num_threads(1)
    task, seed, path = job["task"], job["seed"], Path(job["path"])
    model = new_model(task, seed, job["settings"], job.get("shaping"))
    budget = job["minutes"] * 60.0
    rows: list[dict] = []

    class Curve(BaseCallback):
        def _on_training_start(self) -> None:
            self.start = time.perf_counter()
            self.evaluating = 0.0
            self.evaluate()

        def trained(self) -> float:
            return time.perf_counter() - self.start - self.evaluating

        def evaluate(self) -> None:
            began = time.perf_counter()
            trained = self.trained()
            score = greedy_score(task, self.model, job["eval_games"])
            self.evaluating += time.perf_counter() - began
            rows.append({
                "task": task, "seed": seed, "steps": self.num_timesteps,
                "train_minutes": round(trained / 60, 3),
                "wall_minutes": round((time.perf_counter() - self.start) / 60, 3),
                **score, "settings": job["settings_text"],
            })  # fmt: skip
            write_csv(path, rows)
            print(f"{task} seed {seed}: {self.num_timesteps} steps, {trained / 60:.1f} min: "
                  f"{score['wins']}/{score['games']}", flush=True)  # fmt: skip

        def _on_step(self) -> bool:
            over = self.trained() >= budget or (job["steps"] and self.num_timesteps >= job["steps"])
            if over or self.num_timesteps % job["eval_every"] == 0:
                self.evaluate()
            return not over

    model.learn(total_timesteps=job["steps"] or 10**9, callback=Curve())
    return rows


def train_seeds(task: str, seeds: list[int], args, settings: dict[str, Any], stem: Path) -> dict[int, list]:
    common = {
        "task": task,
        "minutes": args.minutes,
        "steps": args.steps,
        "eval_every": args.eval_every,
        "eval_games": args.eval_games,
        "settings": settings,
        "shaping": parse_settings(args.shaping),
        "settings_text": settings_text(args),
    }
    jobs = [{**common, "seed": s, "path": f"{stem}-seed{s}.csv"} for s in seeds]
    if args.workers <= 1:
        return {job["seed"]: train_seed(job) for job in jobs}
    with multiprocessing.get_context("spawn").Pool(args.workers, maxtasksperchild=1) as pool:
        return dict(zip(seeds, pool.map(train_seed, jobs, chunksize=1), strict=True))


# ------------------------------------------------------------------------------------------ step 4


def read_curves(seeds: list[int], stem: Path) -> dict[int, list[dict]]:
    curves = {}
    for s in seeds:
        path = Path(f"{stem}-seed{s}.csv")
        if path.exists():
            with path.open() as f:
                curves[s] = list(csv.DictReader(f))
    return curves


def plot(task: str, curves: dict[int, list[dict]], threshold: float, path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for s, rows in curves.items():
        steps = [int(r["steps"]) for r in rows]
        minutes = [float(r["train_minutes"]) for r in rows]
        rate = np.array([float(r["win_rate"]) for r in rows])
        low = np.array([float(r["win_low"]) for r in rows])
        high = np.array([float(r["win_high"]) for r in rows])
        for ax, x in zip(axes, (steps, minutes), strict=True):
            (line,) = ax.plot(x, rate, marker=".", label=f"seed {s}")
            ax.fill_between(x, low, high, color=line.get_color(), alpha=0.15)
    for ax, label in zip(axes, ("env steps", "training minutes"), strict=True):
        ax.axhline(threshold, color="grey", linestyle="--", linewidth=1)
        ax.set_xlabel(label)
        ax.grid(alpha=0.3)
    settings = next(iter(curves.values()))[0]["settings"] if curves else "defaults"
    axes[0].set_ylabel("held-out games won (greedy), 95% Wilson")
    axes[0].legend()
    fig.suptitle(
        f"{task}: MaskablePPO ({settings}), {next(iter(curves.values()))[0]['games']} games an evaluation"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def summary(task: str, curves: dict[int, list[dict]], threshold: float, minutes: float) -> list[str]:
    """One line per seed: its first evaluation at or above ``threshold`` within ``minutes`` of training,
    and its last evaluation."""
    lines = []
    for s, rows in curves.items():
        hit = next(
            (r for r in rows if float(r["win_rate"]) >= threshold and float(r["train_minutes"]) <= minutes),
            None,
        )
        last = rows[-1]
        reached = (
            f"reached {threshold:.0%} at {hit['steps']} steps, {float(hit['train_minutes']):.1f} min "
            f"({hit['wins']}/{hit['games']})"
            if hit
            else f"did not reach {threshold:.0%}"
        )
        lines.append(
            f"{task} seed {s}: {reached}; last: {last['steps']} steps, "
            f"{float(last['train_minutes']):.1f} min, "
            f"{last['wins']}/{last['games']} = {float(last['win_rate']):.0%} "
            f"[{float(last['win_low']):.0%}, {float(last['win_high']):.0%}]"
        )
    learned = sum(1 for line in lines if ": reached" in line)
    lines.append(
        f"{task}: {learned} of {len(curves)} seeds reached {threshold:.0%} within {minutes:g} minutes"
    )
    return lines


# ------------------------------------------------------------------------------------------ main


def settings_text(args) -> str:
    """What the run changed from the defaults, for the curves' ``settings`` column."""
    parts = [p for p in args.set.split(",") if p] + [f"shaping {p}" for p in args.shaping.split(",") if p]
    return " ".join(parts) or "defaults"


def parse_settings(text: str) -> dict[str, Any]:
    """``name=value,...`` as MaskablePPO keyword arguments (numbers as numbers)."""
    settings: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        try:
            settings[name] = int(value)
        except ValueError:
            settings[name] = float(value)
    return settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--task", default="heroes/exit-doors")
    parser.add_argument("--seeds", default="1,2,3", help="training seeds")
    parser.add_argument("--minutes", type=float, default=10.0, help="training minutes per seed")
    parser.add_argument("--steps", type=int, default=0, help="also stop at this many env steps (0: no cap)")
    parser.add_argument("--eval-every", type=int, default=10_000, help="env steps between evaluations")
    parser.add_argument("--eval-games", type=int, default=50, help="held-out games per evaluation")
    parser.add_argument("--baseline-games", type=int, default=100, help="held-out games per baseline policy")
    parser.add_argument("--init-seeds", default="1,2,3,4", help="seeds of the untrained networks")
    parser.add_argument(
        "--threshold", type=float, default=0.8, help="share of held-out games won that counts"
    )
    parser.add_argument(
        "--set", default="", help="MaskablePPO settings changed from the defaults, name=value,..."
    )
    parser.add_argument(
        "--shaping",
        default="",
        help="shaping terms of the training env only, name=weight,... (evaluation: the task's)",
    )
    parser.add_argument("--workers", type=int, default=2, help="seeds trained at once")
    parser.add_argument("--skip", default="", help="steps left out: constants, untrained, training")
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--label", default="", help="added to the curves' and the plot's file names")
    args = parser.parse_args(argv)
    task, out, skip = args.task, Path(args.out), set(args.skip.split(","))
    seeds = [int(s) for s in args.seeds.split(",") if s]
    stem = out / (slug(task) + (f"-{args.label}" if args.label else ""))  # of the curves and the plot
    if "constants" not in skip:
        rows = constant_policies(task, args.baseline_games)
        write_csv(out / f"{slug(task)}-constants.csv", rows)
        best = max(rows, key=lambda r: r["wins"])
        print(f"{task}: best constant policy: {best['policy']}: {best['wins']}/{best['games']}", flush=True)
    if "untrained" not in skip:
        rows = untrained_policies(task, [int(s) for s in args.init_seeds.split(",")], args.baseline_games)
        write_csv(out / f"{slug(task)}-untrained.csv", rows)
        print(
            f"{task}: untrained, greedy: " + ", ".join(f"{r['wins']}/{r['games']}" for r in rows), flush=True
        )
    if "training" not in skip:
        train_seeds(task, seeds, args, parse_settings(args.set), stem)
    curves = read_curves(seeds, stem)
    if curves:
        plot(task, curves, args.threshold, Path(f"{stem}.png"))
        print("\n".join(summary(task, curves, args.threshold, args.minutes)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
