"""League training: one side over every adventure and party size, against a league of opponents.

    python -m training.league --role heroes --pool runs/league/pool --minutes 60 --eval-games 20
    python -m training.league --role dm --pool runs/league/pool --minutes 60 --eval-games 20

Run both at once (a core each) with the same ``--pool``: each saves its checkpoints there
(``<role>_<steps>.zip``, every ``--checkpoint-every`` steps) and draws its opponent at every episode
from the other side's: its search agent in a share ``--search-share`` of the episodes (0 by default:
a search decision takes tens of milliseconds, a training step about 4), else its scripted agent in
a share ``--scripted-share``, else one of the other side's newest ``--window`` checkpoints
(``agents.pool.PoolAgent``; the scripted agent alone while there are none). Every episode is one
adventure of ``--adventures`` with one party size of ``--parties``, drawn uniformly
(``MixedRoleEnv``).

The policy reads the env's observation (``--network``: the board network by default) and is
trained with a small step (learning rate 3e-5, clip 0.1, no entropy bonus), the defaults the
residual policies shipped until issue 53 were trained with; a policy from fresh weights may want a
larger one (``--learning-rate``, ``--ent-coef``), or to start from a cloned policy (``--init-from``,
``python -m training.clone``). The reward is the outcome's alone by default (``--shaping`` adds
terms), undiscounted (``gamma`` 1); the turn cap pays each side what losing pays
(``reward_truncated``: -1 for the heroes, +1 in the heroes' terms, so -1, for the DM): a side that
stalls until the cap is paid as if it had lost, so the DM learns to win by killing.

Every ``--eval-every`` steps the model plays ``--eval-games`` games per adventure (3 heroes, held-out
seeds from ``EVAL_SEED``) against the other side's scripted agent, playing greedily (its most
likely action: ``--eval-greedy``, the default) or sampling; ``best.zip`` keeps the best so far by
the side's score: the heroes' mean completion rate over the adventures, the DM's mean share of games in which
every hero died (kills only: a truncated game counts for nobody). Writes ``<out>/<role>/``:
``progress.csv`` (SB3's log), ``eval.csv``, ``best.zip``, ``final_model.zip``, ``settings.json``.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from dungeon_env.content import adventure_names
from training.common import learn_or_save, other_side, parse_settings, progress_callback, seed_everything
from training.train_role import PPOSettings, make_model

EVAL_SEED = 10**6  # held-out seeds (as the benchmark's): training games draw theirs at random
TRUNCATED_AS_LOST = {"heroes": -1.0, "dm": 1.0}  # reward_truncated, in the heroes' terms


@dataclasses.dataclass
class Settings(PPOSettings):
    """Train one side over every adventure and party size against a league of opponents."""

    exp_name: str = "league"
    """name of this experiment"""
    role: str = "heroes"
    """the side trained: heroes or dm"""
    adventures: str = "all"
    """comma-separated adventures played (drawn per episode), or all: the bundled five"""
    parties: str = "3,4,5"
    """comma-separated party sizes played (drawn per episode)"""
    shaping: str = ""
    """reward shaping terms, name=weight comma-separated, in the heroes' terms ('' for none: the
    outcome only; with kills and damage the heroes learned to farm fights and stopped completing)"""
    pool: str = "runs/league/pool"
    """folder of the league's checkpoints, shared by the heroes' and the DM's runs"""
    scripted_share: float = 0.7
    """share of the episodes the other side's scripted agent plays once the pool holds checkpoints"""
    window: int = 5
    """the opponent is drawn among the other side's newest this many checkpoints"""
    search_share: float = 0.0
    """share of the episodes the other side's search agent (``search``, its default budget) plays,
    drawn first (0 by default: a search decision costs tens of training steps)"""
    steps: int = 1_000_000
    """env steps (decisions of the side trained)"""
    minutes: float = 0.0
    """stop after this many minutes (0: no limit)"""
    checkpoint_every: int = 50_000
    """steps between checkpoints saved to the pool"""
    eval_every: int = 100_000
    """steps between evaluations against the scripted other side"""
    eval_games: int = 10
    """games per adventure per evaluation (0: none)"""
    eval_greedy: bool = True
    """evaluate the greedy policy (its most likely action) rather than sampling from it"""
    out: str = "runs/league"
    """folder of the run (a subfolder per role)"""
    init_from: str = ""
    """start from this checkpoint's weights (the same policy kind)"""
    learning_rate: float = 3e-5
    clip_range: float = 0.1
    ent_coef: float = 0.0
    gamma: float = 1.0
    """1: below it a side that cannot win is paid for putting off its loss (at 0.999 the heroes
    learned to stall until the turn cap within 200k steps)"""
    n_steps: int = 1024
    net_arch: str = "256,256"

    def adventure_list(self) -> list[str]:
        return adventure_names() if self.adventures == "all" else self.adventures.split(",")

    def party_sizes(self) -> list[int]:
        return [int(n) for n in self.parties.split(",")]

    def game_kwargs(self, adventure: str, party: int) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "adventure": adventure,
            "heroes": party,
            "max_turns": self.max_turns,
            "reward_truncated": TRUNCATED_AS_LOST[self.role],
        }
        if self.shaping:
            kwargs["shaping"] = {k: float(v) for k, v in (p.split("=") for p in self.shaping.split(","))}
        return kwargs

    def opponent_spec(self) -> str:
        also = f",also=search,also_share={self.search_share}" if self.search_share > 0 else ""
        return f"pool:{self.pool}[window={self.window},base=scripted,base_share={self.scripted_share}{also}]"


class MixedRoleEnv(gymnasium.Env):
    """One side's env over several games: at every reset, one of ``envs`` (``RoleEnv`` or a wrapper
    of one, all with the same spaces) drawn uniformly with the env's own generator plays the episode."""

    def __init__(self, envs: list[gymnasium.Env]) -> None:
        if not envs:
            raise ValueError("MixedRoleEnv needs at least one env")
        shapes = {(e.observation_space.shape, e.action_space.n) for e in envs}
        if len(shapes) != 1:
            raise ValueError(f"the envs' spaces differ: {sorted(shapes)}")
        self.envs = envs
        self.current = envs[0]
        self.observation_space, self.action_space = envs[0].observation_space, envs[0].action_space

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.current = self.envs[int(self.np_random.integers(len(self.envs)))]
        return self.current.reset(seed=int(self.np_random.integers(0, 2**62)), options=options)

    def step(self, action):
        return self.current.step(action)

    def action_masks(self) -> np.ndarray:
        return self.current.action_masks()

    def close(self) -> None:
        for env in self.envs:
            env.close()


def make_mixed_env(settings: Settings) -> MixedRoleEnv:
    """A ``MixedRoleEnv`` of every adventure × party size, each against the league's opponent."""
    from training.common import make_role_env

    envs = [
        make_role_env(settings.role, settings.opponent_spec(), settings.game_kwargs(a, n))
        for a in settings.adventure_list()
        for n in settings.party_sizes()
    ]
    return MixedRoleEnv(envs)


def make_vec(settings: Settings):
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    vec = DummyVecEnv([lambda: make_mixed_env(settings) for _ in range(settings.n_envs)])
    vec.seed(settings.seed)
    return VecMonitor(vec, info_keywords=("outcome",))


def side_score(role: str, results: list[dict]) -> float:
    """The side's evaluation score: the heroes' mean completion rate, the DM's mean kill rate."""
    if role == "heroes":
        return float(np.mean([r["win_rates"]["completed"]["rate"] for r in results]))
    return float(np.mean([r["rates"]["failed"] for r in results]))


def evaluate_against_scripted(settings: Settings, path: Path) -> dict[str, Any]:
    """Each adventure's result (``training.evaluate``) of the checkpoint at ``path`` against the
    other side's scripted agent, and the side's score over them."""
    from training.evaluate import evaluate

    ours = f"policy:{path}" if settings.eval_greedy else str(path)
    sides = {settings.role: ours, other_side(settings.role): "scripted"}
    results = []
    for adventure in settings.adventure_list():
        kwargs = {"adventure": adventure, "heroes": 3, "max_turns": settings.max_turns}
        results.append(evaluate(sides["heroes"], sides["dm"], kwargs, settings.eval_games, seed=EVAL_SEED))
    return {"score": side_score(settings.role, results), "results": results}


def league_callback(settings: Settings, folder: Path):
    """Saves the model to the pool every ``checkpoint_every`` steps and evaluates it every
    ``eval_every`` steps (``eval.csv``, ``best.zip``); stops the run after ``minutes``."""
    from stable_baselines3.common.callbacks import BaseCallback

    pool = Path(settings.pool)

    class League(BaseCallback):
        def _on_training_start(self) -> None:
            self.start = time.perf_counter()
            self.next_checkpoint = settings.checkpoint_every
            self.next_eval = settings.eval_every
            self.best = -1.0
            self.rows: list[dict] = []

        def _on_step(self) -> bool:
            steps = self.model.num_timesteps
            if steps >= self.next_checkpoint:
                self.model.save(pool / f"{settings.role}_{steps:09d}.zip")
                self.next_checkpoint += settings.checkpoint_every
            if settings.eval_games and steps >= self.next_eval:
                self.evaluate(steps)
                self.next_eval += settings.eval_every
            return not settings.minutes or time.perf_counter() - self.start < 60 * settings.minutes

        def evaluate(self, steps: int) -> None:
            path = folder / "latest.zip"
            self.model.save(path)
            result = evaluate_against_scripted(settings, path)
            row = {"steps": steps, "minutes": round((time.perf_counter() - self.start) / 60, 2)}
            row["score"] = round(result["score"], 4)
            for r in result["results"]:
                row[f"{r['adventure']}_completed"] = r["win_rates"]["completed"]["rate"]
                row[f"{r['adventure']}_truncated"] = r["rates"]["truncated"]
            self.rows.append(row)
            write_csv(self.rows, folder / "eval.csv")
            if result["score"] > self.best:
                self.best = result["score"]
                self.model.save(folder / "best.zip")
            print(f"{settings.role} at {steps} steps: score {result['score']:.3f} (best {self.best:.3f})")

    return League()


def write_csv(rows: list[dict], path: Path) -> None:
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


# the single-game options a league does not read: it draws --adventures and --parties, and the turn
# cap pays what losing pays (TRUNCATED_AS_LOST)
UNUSED = {
    "adventure": "--adventures",
    "heroes": "--parties",
    "reward_truncated": "nothing (the turn cap pays what losing pays)",
    "reward_completed_without_goal": "nothing",
}


def check_unused_options(settings: Settings) -> None:
    """SystemExit naming an option given that a league does not read, and what to use instead."""
    defaults = Settings()
    for name, instead in UNUSED.items():
        if getattr(settings, name) != getattr(defaults, name):
            flag = "--" + name.replace("_", "-")
            raise SystemExit(f"{flag}: a league does not read it; use {instead}")


def settings_record(settings: Settings) -> dict[str, Any]:
    """The run's settings as ``settings.json`` keeps them: every option the league reads (the
    single-game ones of ``UNUSED``, which it refuses, are left out)."""
    return {k: v for k, v in dataclasses.asdict(settings).items() if k not in UNUSED}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    import torch
    from stable_baselines3.common.callbacks import CallbackList
    from stable_baselines3.common.logger import configure

    settings = parse_settings(Settings, argv)
    if settings.role not in ("heroes", "dm"):
        raise SystemExit(f"--role must be heroes or dm, got {settings.role!r}")
    unknown = sorted(set(settings.adventure_list()) - set(adventure_names()))
    if unknown:
        raise SystemExit(f"--adventures: unknown {unknown}; the bundled ones are {adventure_names()}")
    if not all(3 <= n <= 5 for n in settings.party_sizes()):
        raise SystemExit(f"--parties: sizes are 3 to 5, got {settings.parties!r}")
    for flag, share in (
        ("--search-share", settings.search_share),
        ("--scripted-share", settings.scripted_share),
    ):
        if not 0.0 <= share <= 1.0:
            raise SystemExit(f"{flag}: a share of the episodes, between 0 and 1; got {share}")
    check_unused_options(settings)
    folder = Path(settings.out) / settings.role
    folder.mkdir(parents=True, exist_ok=True)
    Path(settings.pool).mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text(json.dumps(settings_record(settings), indent=2))
    seed_everything(settings.seed, settings.torch_deterministic)
    if settings.torch_threads > 0:
        torch.set_num_threads(settings.torch_threads)
    vec = make_vec(settings)
    model = make_model(settings, vec, configure(str(folder), ["csv"]))
    if settings.init_from:
        if not Path(settings.init_from).is_file():
            raise SystemExit(f"--init-from: no checkpoint at {settings.init_from}")
        model.set_parameters(settings.init_from, exact_match=True, device=settings.device)
    label = f"league: {settings.role}"
    progress = progress_callback(settings.steps, label, settings.progress, settings.minutes)
    start = time.perf_counter()
    try:
        learn_or_save(
            model,
            settings.steps,
            CallbackList([league_callback(settings, folder), progress]),
            folder,
            settings.role,
        )
    finally:
        vec.close()
    model.save(folder / "final_model.zip")
    summary = {"steps": int(model.num_timesteps), "seconds": time.perf_counter() - start}
    (folder / "summary.json").write_text(json.dumps(summary, indent=2))
    print(f"league {settings.role}: {summary['steps']} steps in {summary['seconds'] / 60:.1f} min")
    return summary


if __name__ == "__main__":
    main()
