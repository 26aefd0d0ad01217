"""Tune the scripted agents' v2 knobs (``agents.scripted_params``) with Optuna, then check the winner
on held-out seeds.

    python -m training.tune_scripted --side heroes --trials 200 --games-per-cell 4
    python -m training.tune_scripted --side dm --seconds 3600 --games-per-cell 4 --ship
    python -m training.tune_scripted --side heroes --trials 200 --dry-run   # the budget in games

- ``--side heroes`` searches ``HeroParams`` with the v2 heroes against a fixed DM (``--against``,
  default ``scripted@v1``); ``--side dm`` searches ``DMParams`` with the v2 DM against fixed heroes
  (default ``scripted@v2``: the v2 heroes with the shipped knobs). ``scripted@v1`` is the v1 agent
  with v1's knobs; ``scripted@v2`` the v2 agent with the knobs shipped in ``SHIPPED_V2``.
- Every trial plays the same games (common random numbers): every cell (adventure × party size,
  default the five bundled adventures × 3, 4, 5 heroes) with seeds ``TRAIN_SEED + i``,
  ``i < --games-per-cell``; training seeds stay below ``HOLDOUT_FLOOR`` (1,000,000).
- The score of a set is the mean over cells (equal weight) of the rate of games completed with
  every primary goal met. The heroes maximise it. The DM minimises it plus ``--cap-penalty`` (1.0)
  times the rise in the share of games ending at the turn cap above the starting set's on the same
  seeds: with the default a stalled game costs the DM as much as a heroes' win, so the DM must win
  by killing, not by running out the clock.
- Optuna's TPE sampler, seeded by ``--seed``; the starting set (``--start``, default the shipped
  set) is enqueued as trial 0, so the best trial is never worse than the start on the training games.
  Integer knobs are searched with ``suggest_int``, the others with ``suggest_float``, each over the
  range its ``knob`` declares.
- Held-out check: the winner and the start play ``--holdout-games`` games a cell on seeds
  ``HOLDOUT_SEED + i``, paired; the difference in completion with goals per adventure and overall
  with Newcombe's paired 95% interval (``difficulty.metrics.paired_rates``) and the turn-cap games.
  ``--ship`` writes ``SHIPPED_V2`` only if the winner's held-out score is not worse than the start's.
- The result is written by ``scripted_params.save`` (``--out``, default ``runs/tune_scripted/...``)
  with ``meta``: the command, sampler, trials, budget, wall clock, CPU cores, seeds, scores and the
  held-out comparison. docs/TUNING.md explains how to read it.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import multiprocessing
import os
import shlex
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from agents import scripted_params as sp
from difficulty.metrics import is_won, paired_rates
from dungeon_env.ending import Ending, ending_of
from dungeon_env.tasks import BUNDLED

PARTIES = (3, 4, 5)
MAX_TURNS = 100
TRAIN_SEED = 100_000
HOLDOUT_FLOOR = 1_000_000
HOLDOUT_SEED = 2_000_000
OPPONENTS = ("scripted@v1", "scripted@v2")
DEFAULT_AGAINST = {"heroes": "scripted@v1", "dm": "scripted@v2"}
KINDS = {"heroes": sp.HeroParams, "dm": sp.DMParams}
OTHER = {"heroes": "dm", "dm": "heroes"}


def import_optuna():
    """Optuna, or a clear error naming the extra that installs it."""
    try:
        import optuna
    except ImportError:
        raise SystemExit(
            "training.tune_scripted needs Optuna: pip install -e '.[tune]' (the 'tune' extra)"
        ) from None
    return optuna


# ----------------------------------------------------------------------------- seeds and games
def training_seeds(k: int) -> list[int]:
    """The seeds of a cell's training games: ``TRAIN_SEED + i``, ``i < k``, all below the floor."""
    if TRAIN_SEED + k > HOLDOUT_FLOOR:
        raise ValueError(f"{k} training games a cell would reach the held-out seeds ({HOLDOUT_FLOOR})")
    return [TRAIN_SEED + i for i in range(k)]


def holdout_seeds(m: int) -> list[int]:
    """The seeds of a cell's held-out games: ``HOLDOUT_SEED + i``, ``i < m``."""
    return [HOLDOUT_SEED + i for i in range(m)]


def agent_of(spec: str, side: str) -> tuple[str, dict | None]:
    """A fixed opponent as ``(version, knobs)``: v1 plays v1's knobs, v2 the shipped ones."""
    version = spec.split("@")[1]
    if version == "v1":
        return "v1", None
    return "v2", dataclasses.asdict(getattr(sp.shipped_v2(), side))


def make_agent(side: str, version: str, knobs: dict | None, game, seed: int):
    """A scripted agent of ``side`` and ``version`` on ``game``; v2 with the ``knobs`` given."""
    if side == "heroes":
        from agents.scripted_heroes import ScriptedHeroes
        from agents.scripted_heroes_v2 import ScriptedHeroesV2

        v1, v2 = ScriptedHeroes, ScriptedHeroesV2
    else:
        from agents.scripted_dm import ScriptedDM
        from agents.scripted_dm_v2 import ScriptedDMV2

        v1, v2 = ScriptedDM, ScriptedDMV2
    if version == "v1":
        return v1(game=game, seed=seed)
    return v2(game=game, seed=seed, params=KINDS[side](**knobs))


def play_game(job: dict) -> dict:
    """One game of ``job`` (plain data: ``adventure``, ``heroes``, ``seed``, and each side's
    ``[version, knobs]``) as a small record that ``difficulty.metrics.is_won`` reads."""
    from dungeon_env.engine import Game
    from dungeon_env.episode import play_episode, seed_agents

    game = Game.new(adventure=job["adventure"], heroes=job["heroes"], seed=job["seed"], max_turns=MAX_TURNS)
    heroes = make_agent("heroes", *job["heroes_agent"], game, job["seed"])
    dm = make_agent("dm", *job["dm_agent"], game, job["seed"])
    seed_agents(heroes, dm, job["seed"])
    result = play_episode(heroes, dm, game)
    end = ending_of(result.game)
    cell = {k: job[k] for k in ("adventure", "heroes", "seed")}
    return cell | {"outcome": end.outcome, "goals_met": bool(result.game.goals_met), "end": end.value}


@dataclasses.dataclass
class Games:
    """Plays sets of games, in this process (one worker) or in a pool of ``workers`` processes."""

    workers: int
    pool: Any = None
    played: int = 0

    def __enter__(self) -> Games:
        if self.workers > 1:
            context = multiprocessing.get_context("spawn")
            self.pool = concurrent.futures.ProcessPoolExecutor(self.workers, mp_context=context)
        return self

    def __exit__(self, *exc) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)

    def play(self, jobs: list[dict]) -> list[dict]:
        self.played += len(jobs)
        if self.pool is None:
            return [play_game(job) for job in jobs]
        chunk = max(1, len(jobs) // (4 * self.workers))
        return list(self.pool.map(play_game, jobs, chunksize=chunk))


def jobs_of(cells: list[tuple[str, int]], seeds: list[int], side: str, knobs: dict, opponent) -> list[dict]:
    """Every game of ``cells`` × ``seeds`` with the v2 ``side`` on ``knobs`` against ``opponent``."""
    agents = {f"{side}_agent": ["v2", knobs], f"{OTHER[side]}_agent": list(opponent)}
    return [{"adventure": a, "heroes": n, "seed": s} | agents for a, n in cells for s in seeds]


# ----------------------------------------------------------------------------- the objective
def cell_rates(records: list[dict], success) -> dict[tuple[str, int], float]:
    """The share of each cell's games for which ``success(record)`` holds."""
    groups: dict[tuple[str, int], list[bool]] = defaultdict(list)
    for r in records:
        groups[r["adventure"], r["heroes"]].append(bool(success(r)))
    return {cell: sum(v) / len(v) for cell, v in groups.items()}


def at_cap(record: dict) -> bool:
    return record["end"] == Ending.TRUNCATED


def mean_rate(records: list[dict], success) -> float:
    """The mean over cells (equal weight) of the share of games for which ``success`` holds."""
    rates = cell_rates(records, success)
    return sum(rates.values()) / len(rates)


def score(side: str, records: list[dict], cap_reference: float, cap_penalty: float) -> float:
    """The heroes' mean completion-with-goals rate; for the DM that plus the penalty for turn-cap
    games above ``cap_reference`` (the starting set's share on the same seeds)."""
    won = mean_rate(records, is_won)
    if side == "heroes":
        return won
    return won + cap_penalty * max(0.0, mean_rate(records, at_cap) - cap_reference)


@dataclasses.dataclass
class Objective:
    """What Optuna calls: suggest the side's knobs, play the training games, score them."""

    side: str
    cells: list[tuple[str, int]]
    seeds: list[int]
    opponent: tuple
    games: Games
    cap_penalty: float
    cap_reference: float | None = None  # the start's turn-cap share, set by trial 0 (the start)

    def __call__(self, trial) -> float:
        knobs = suggest(trial, KINDS[self.side])
        records = self.games.play(jobs_of(self.cells, self.seeds, self.side, knobs, self.opponent))
        if self.cap_reference is None:
            self.cap_reference = mean_rate(records, at_cap)
        trial.set_user_attr("won", mean_rate(records, is_won))
        trial.set_user_attr("turn_cap", mean_rate(records, at_cap))
        return score(self.side, records, self.cap_reference, self.cap_penalty)


def suggest(trial, kind: type) -> dict[str, float | int]:
    """Every knob of ``kind`` from the trial: ``suggest_int`` for integer knobs, else ``suggest_float``."""
    out = {}
    for f in sp.knobs(kind):
        low, high = f.metadata["low"], f.metadata["high"]
        if isinstance(f.default, int):
            out[f.name] = trial.suggest_int(f.name, int(low), int(high))
        else:
            out[f.name] = trial.suggest_float(f.name, float(low), float(high))
    return out


def make_study(side: str, start: dict, seed: int):
    """A seeded TPE study in the side's direction, the starting knobs enqueued as trial 0."""
    optuna = import_optuna()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    direction = "maximize" if side == "heroes" else "minimize"
    study = optuna.create_study(direction=direction, sampler=optuna.samplers.TPESampler(seed=seed))
    study.enqueue_trial(start)
    return study


def report_trial(study, trial) -> None:
    print(
        f"trial {trial.number}: score {trial.value:.4f} (won {trial.user_attrs['won']:.4f}, "
        f"turn cap {trial.user_attrs['turn_cap']:.4f}); best {study.best_value:.4f} "
        f"(trial {study.best_trial.number}); {trial.duration.total_seconds():.1f} s",
        file=sys.stderr,
        flush=True,
    )


# ----------------------------------------------------------------------------- the held-out check
def holdout(records_best: list[dict], records_start: list[dict]) -> dict[str, Any]:
    """The winner against the start on paired held-out games: completion with goals per adventure
    and overall (difference winner − start, Newcombe's paired 95% interval) and turn-cap games."""
    start_of = {(r["adventure"], r["heroes"], r["seed"]): r for r in records_start}
    pairs = [(r, start_of[r["adventure"], r["heroes"], r["seed"]]) for r in records_best]

    def summary(group: list[tuple[dict, dict]]) -> dict[str, Any]:
        return {
            "games": len(group),
            "completed_with_goals": paired_rates(group, is_won),
            "turn_cap": {
                "winner": sum(at_cap(b) for b, _ in group),
                "start": sum(at_cap(s) for _, s in group),
            },
        }

    adventures = dict.fromkeys(r["adventure"] for r in records_best)
    per = {a: summary([p for p in pairs if p[0]["adventure"] == a]) for a in adventures}
    return {"overall": summary(pairs), "adventures": per}


def run_holdout(args, games: Games, cells, best: dict, start: dict, opponent) -> dict:
    """Play the held-out games of the winner and the start; compare them and decide shipping."""
    seeds = holdout_seeds(args.holdout_games)
    start_records = games.play(jobs_of(cells, seeds, args.side, start, opponent))
    same = best == start
    best_records = start_records if same else games.play(jobs_of(cells, seeds, args.side, best, opponent))
    cap = mean_rate(start_records, at_cap)
    scores = {
        name: score(args.side, r, cap, args.cap_penalty)
        for name, r in (("winner", best_records), ("start", start_records))
    }
    winner, start_score = scores["winner"], scores["start"]
    not_worse = winner >= start_score if args.side == "heroes" else winner <= start_score
    return {
        "seeds": {"first": seeds[0], "last": seeds[-1], "per_cell": len(seeds)},
        "winner_is_start": same,
        "score": scores,
        "not_worse": bool(not_worse),
    } | holdout(best_records, start_records)


def print_holdout(check: dict) -> None:
    def line(name: str, s: dict) -> str:
        c = s["completed_with_goals"]
        low, high = c["difference_ci"]
        return (
            f"  {name:<16} {c['variant']['rate']:.3f} vs {c['base']['rate']:.3f}: "
            f"{c['difference']:+.3f} [{low:+.3f}, {high:+.3f}]  turn cap {s['turn_cap']['winner']} vs "
            f"{s['turn_cap']['start']} of {s['games']}"
        )

    print("held-out: completion with goals, winner vs start (difference, paired 95% interval)")
    for adventure, s in check["adventures"].items():
        print(line(adventure, s))
    print(line("overall", check["overall"]))
    verdict = "not worse than" if check["not_worse"] else "WORSE than"
    print(
        f"held-out score: winner {check['score']['winner']:.4f}, start {check['score']['start']:.4f}: "
        f"the winner is {verdict} the start"
    )


# ----------------------------------------------------------------------------- the command line
def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected more than 0, got {value}")
    return value


def adventure_list(text: str) -> tuple[str, ...]:
    names = tuple(a.strip() for a in text.split(",") if a.strip())
    unknown = [a for a in names if a not in BUNDLED]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown adventure(s) {unknown}; the adventures are {list(BUNDLED)}"
        )
    return names


def party_list(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(p) for p in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected party sizes like 3,4,5, got {text!r}") from None
    if not sizes or any(p not in PARTIES for p in sizes):
        raise argparse.ArgumentTypeError(f"a party has 3, 4 or 5 heroes, got {text!r}")
    return sizes


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m training.tune_scripted",
        description="Search the scripted v2 agents' knobs (agents/scripted_params.py) with Optuna's TPE "
        "on paired training seeds, then check the winner against the start on held-out seeds. The "
        "search's budget in games is trials x cells x --games-per-cell (cells: adventures x parties); "
        "the held-out check adds 2 x cells x --holdout-games. --dry-run prints it. See docs/TUNING.md.",
    )
    p.add_argument("--side", required=True, choices=("heroes", "dm"), help="whose knobs to search")
    p.add_argument(
        "--against",
        choices=OPPONENTS,
        help="the fixed opponent (default: scripted@v1 "
        "for --side heroes, scripted@v2, the shipped v2 heroes, for --side dm)",
    )
    p.add_argument("--trials", type=positive_int, help="number of trials (trial 0 is the start)")
    p.add_argument("--seconds", type=positive_float, help="stop starting trials after this long")
    p.add_argument("--games-per-cell", type=positive_int, default=4, help="training games a cell (4)")
    p.add_argument("--holdout-games", type=positive_int, default=50, help="held-out games a cell (50)")
    p.add_argument(
        "--workers",
        type=positive_int,
        default=os.cpu_count() or 1,
        help="processes playing the games (default: all cores)",
    )
    p.add_argument("--seed", type=int, default=0, help="the sampler's seed (0)")
    p.add_argument("--start", type=Path, help="parameter file to start from (default: the shipped set)")
    p.add_argument("--out", type=Path, help="where to write the result (default runs/tune_scripted/...)")
    p.add_argument(
        "--ship",
        action="store_true",
        help=f"also write {sp.SHIPPED_V2.name} if the winner is not worse than the start on held-out seeds",
    )
    p.add_argument("--adventures", type=adventure_list, default=BUNDLED, help="comma-separated (all five)")
    p.add_argument("--parties", type=party_list, default=PARTIES, help="party sizes (3,4,5)")
    p.add_argument(
        "--cap-penalty",
        type=float,
        default=1.0,
        help="DM side: score added per unit rise of the turn-cap share above the start's (1.0)",
    )
    p.add_argument(
        "--dry-run", action="store_true", help="print the budget in games and the knobs; play none"
    )
    return p


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = parser()
    args = p.parse_args(argv)
    if args.trials is None and args.seconds is None:
        p.error("give a budget: --trials N and/or --seconds S")
    if TRAIN_SEED + args.games_per_cell > HOLDOUT_FLOOR:
        p.error(
            f"--games-per-cell: at most {HOLDOUT_FLOOR - TRAIN_SEED} (training seeds stay below "
            f"{HOLDOUT_FLOOR})"
        )
    if args.out is not None and args.out.resolve() == sp.SHIPPED_V2 and not args.ship:
        p.error(f"--out: {args.out} is the shipped file; pass --ship to replace it")
    args.against = args.against or DEFAULT_AGAINST[args.side]
    return args


def budget(args, cells: list) -> dict[str, Any]:
    """The budget in games: trials × cells × games a cell, plus the held-out check."""
    per_trial = len(cells) * args.games_per_cell
    return {
        "trials": args.trials,
        "seconds": args.seconds,
        "cells": len(cells),
        "games_per_cell": args.games_per_cell,
        "games_per_trial": per_trial,
        "search_games": per_trial * args.trials if args.trials else None,
        "holdout_games": 2 * len(cells) * args.holdout_games,
    }


def print_budget(args, cells: list, start: dict) -> None:
    b = budget(args, cells)
    trials = f"{args.trials} trials" if args.trials else "as many trials as fit"
    if args.seconds:
        trials += f" within {args.seconds:g} s"
    print(
        f"side {args.side} against {args.against}; {b['cells']} cells "
        f"({', '.join(args.adventures)} x parties {', '.join(map(str, args.parties))})"
    )
    search = f" = {b['search_games']} games" if b["search_games"] else ""
    print(
        f"search: {trials} x {b['cells']} cells x {args.games_per_cell} games{search} "
        f"({b['games_per_trial']} a trial) on seeds {TRAIN_SEED}..{TRAIN_SEED + args.games_per_cell - 1}"
    )
    print(
        f"held-out: 2 sets x {b['cells']} cells x {args.holdout_games} games = {b['holdout_games']} "
        f"games on seeds {HOLDOUT_SEED}..{HOLDOUT_SEED + args.holdout_games - 1}"
    )
    print("knobs (start, range):")
    for f in sp.knobs(KINDS[args.side]):
        span = f"[{f.metadata['low']}, {f.metadata['high']}]"
        print(f"  {f.name:<20} {start[f.name]!s:<6} {span:<12} {f.metadata['doc']}")


def default_out(args) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return (
        Path("runs")
        / "tune_scripted"
        / f"{args.side}__{args.against.replace('@', '_')}__{args.seed}__{stamp}.json"
    )


def meta_of(args, argv, study, cells, seconds: float, check: dict, played: int) -> dict[str, Any]:
    """How the result was found (``meta`` of the saved file)."""
    start = study.trials[0]
    return {
        "command": shlex.join(["python", "-m", "training.tune_scripted", *argv]),
        "side": args.side,
        "against": args.against,
        "sampler": f"optuna {import_optuna().__version__} TPESampler(seed={args.seed})",
        "trials_run": len(study.trials),
        "budget": budget(args, cells) | {"games_played": played},
        "wall_clock_hours": round(seconds / 3600, 4),
        "cpu_cores": os.cpu_count(),
        "workers": args.workers,
        "cells": [list(c) for c in cells],
        "max_turns": MAX_TURNS,
        "training_seeds": {
            "first": TRAIN_SEED,
            "last": TRAIN_SEED + args.games_per_cell - 1,
            "per_cell": args.games_per_cell,
        },
        "objective": "heroes: maximise"
        if args.side == "heroes"
        else f"dm: minimise, turn-cap penalty {args.cap_penalty}",
        "start_trial": {"number": start.number, "score": start.value, "params": start.params},
        "best_trial": study.best_trial.number,
        "best_training_score": study.best_value,
        "holdout": check,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the search and the held-out check; write and return the result (its ``meta`` too)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse(argv)
    start_set = sp.load(args.start) if args.start else sp.shipped_v2()
    start = dataclasses.asdict(getattr(start_set, args.side))
    cells = [(a, n) for a in args.adventures for n in args.parties]
    if args.dry_run:
        print_budget(args, cells, start)
        return {}
    opponent = agent_of(args.against, OTHER[args.side])
    began = time.monotonic()
    study = make_study(args.side, start, args.seed)
    with Games(args.workers) as games:
        objective = Objective(
            args.side, cells, training_seeds(args.games_per_cell), opponent, games, args.cap_penalty
        )
        study.optimize(objective, n_trials=args.trials, timeout=args.seconds, callbacks=[report_trial])
        best = suggest_back(study.best_params, args.side)
        check = run_holdout(args, games, cells, best, start, opponent)
        played = games.played
    print_holdout(check)
    result = dataclasses.replace(start_set, **{args.side: KINDS[args.side](**best)})
    meta = meta_of(args, argv, study, cells, time.monotonic() - began, check, played)
    write(args, result, meta, check["not_worse"])
    return result.to_json() | {"meta": meta}


def suggest_back(params: dict, side: str) -> dict:
    """The best trial's knobs in the dataclass's order and types (checked against the ranges)."""
    fields = {f.name: f for f in sp.knobs(KINDS[side])}
    return {name: sp.check_value(fields[name], params[name], name) for name in fields}


def write(args, result, meta: dict, not_worse: bool) -> None:
    out = args.out or default_out(args)
    out.parent.mkdir(parents=True, exist_ok=True)
    sp.save(result, out, meta)
    print(f"wrote {out}")
    if not args.ship:
        return
    if not_worse:
        sp.save(result, sp.SHIPPED_V2, meta)
        print(f"shipped: wrote {sp.SHIPPED_V2}")
    else:
        print(f"not shipped: the winner is worse than the start on held-out seeds; {sp.SHIPPED_V2} unchanged")


if __name__ == "__main__":
    main()
