"""Issue 54's aims (the fast array-based board, compiled), each printed as MET or MISSED with its figure.

Every figure is a ratio or a time measured in this one run on this machine, against a reference
measured in the same process:

- the engine alone (random legal decisions, no observation) against connect_four_v3's AEC steps
  (aim 25x), and against the engine before the compiled core (aim 20x): that engine's ratio to
  connect_four_v3, measured the same way on commit d9d7c3b and kept in ``REFERENCE_FILE``, since the
  engine measured now is the same ``Game`` with pieces of its rules compiled;
- ``dungeon_env.env()`` against connect_four_v3's ``env()`` (aim 3x), ``raw_env`` against its
  ``raw_env`` (aim 2x), both stepped by the same random-legal AEC loop with observations
  (``scripts/bench_env.py``);
- the batched env (``dungeon_env.batched.BatchedRoleEnv``): agent steps per second with random legal
  actions (aim 100,000), "NOT BUILT" while the module does not import;
- the designer's ±2-point answer on goblin_warrens with the scripted agents on all cores (aim 30 s):
  the tool run until the interval is reached, and the wall time it took (``scripts/bench_balance.py``;
  about half a minute since the scripted games play in compiled code); ``--balance-estimate``
  estimates it instead from the games per second of a short run (worker start-up included, so it
  overstates a run of fast games) and the games the tool's ``until`` rule would stop at;
- the search v2's iterations per second at its default budget (aim 10x): its iterations per second
  over connect_four_v3's steps per second, alternated in this run, against the same ratio on commit
  d9d7c3b (``REFERENCE_FILE``); the searches are the first ones of one game a side, and must make
  the choices, with the iterations, that they made on d9d7c3b (``scripts/bench_search.py``);
- the memory of one env instance after a reset and after 1,000 steps (aims 256 and 512 KiB).

``--candidate module:Class`` names the engine measured (default ``dungeon_env.engine:Game``).
``--record-reference`` measures the engine and search references on the code checked out and writes
``REFERENCE_FILE`` (run it on the commit before the core, as it was on d9d7c3b).

    python scripts/bench_aims.py [--seconds 3] [--candidate dungeon_env.engine:Game] [--json OUT]
        [--only engine,env,batched,balance,search,memory] [--balance-estimate] [--record-reference]
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the other bench scripts

import bench_balance  # noqa: E402
import bench_env  # noqa: E402
import bench_search  # noqa: E402

from dungeon_env.batch_core import usable_cores  # noqa: E402
from dungeon_env.engine import Game  # noqa: E402

DEFAULT_CANDIDATE = "dungeon_env.engine:Game"
GROUPS = ("engine", "env", "batched", "balance", "search", "memory")
ADVENTURE, HEROES, MAX_TURNS = "flooded_cellar", 4, 40  # the env's and the engine's (bench_env's defaults)
BALANCE_ADVENTURE, BALANCE_UNTIL = "goblin_warrens", 0.02
SEARCH_ADVENTURE, SEARCH_SEED, SEARCHES_PER_SIDE = "goblin_warrens", 11, 6
# the engine and the search before the compiled core (commit d9d7c3b), as ratios to connect_four_v3
REFERENCE_FILE = Path(__file__).resolve().parent / "bench_aims_reference.json"
TARGETS = {
    "engine_vs_today": 20.0,
    "engine_vs_c4": 25.0,
    "env": 3.0,
    "raw_env": 2.0,
    "batched": 100_000.0,
    "balance": 30.0,
    "search": 10.0,
    "memory_reset": 256.0,
    "memory_1000": 512.0,
}
SCRIPT = "python scripts/bench_aims.py"


@dataclasses.dataclass
class Aim:
    """One aim: its figure against its target. ``figure`` None: what it measures is not built.
    ``at_most``: the figure must not exceed the target (a time, a size), else reach it; ``holds``: a
    further condition of the aim (the search's same choices)."""

    key: str
    name: str
    figure: float | None
    target: float
    unit: str
    command: str
    at_most: bool = False
    holds: bool = True
    note: str = ""

    @property
    def verdict(self) -> str:
        if self.figure is None:
            return "NOT BUILT"
        within = self.figure <= self.target if self.at_most else self.figure >= self.target
        return "MET" if within and self.holds else "MISSED"

    def to_json(self) -> dict:
        return {**dataclasses.asdict(self), "verdict": self.verdict}


def load_engine(spec: str) -> type:
    """The engine class named ``module:Class``."""
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name or "Game")


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "x":
        return f"{value:.2f}x"
    if unit == "steps/s":
        return f"{value:,.0f} steps/s"
    if unit == "s":
        return f"{value:.1f} s"
    return f"{value:.0f} {unit}"


# ------------------------------------------------------------------------------ engine and env
def step_rates(seconds: float, candidate: type) -> dict:
    """bench_env's alternated rounds (connect_four_v3 and our env, wrapped and raw) with the candidate
    engine as a contender; medians and median ratios."""
    contenders = bench_env.step_contenders(ADVENTURE, HEROES, MAX_TURNS)
    del contenders["engine"]  # the candidate is the engine measured
    candidate.new(adventure=ADVENTURE, heroes=HEROES, seed=0, max_turns=MAX_TURNS)  # its tables, untimed
    contenders["candidate"] = lambda sec, r: bench_env.engine_decisions_per_second(
        sec, ADVENTURE, HEROES, MAX_TURNS, game_class=candidate
    )
    rates = bench_env.alternated_rates(contenders, seconds)
    return {
        "median": {name: float(np.median(v)) for name, v in rates.items()},
        "engine_vs_c4": bench_env.median_ratio(rates, "candidate", "c4 env()"),
        "env": bench_env.median_ratio(rates, "ours env()", "c4 env()"),
        "raw_env": bench_env.median_ratio(rates, "ours raw_env", "c4 raw_env"),
    }


# ------------------------------------------------------------------------------ the batched env
def batched_steps_per_second(seconds: float, num_envs: int = 128, both_sides: bool = False) -> float | None:
    """Agent steps per second of ``dungeon_env.batched.BatchedRoleEnv`` (``num_envs`` games of the
    heroes against the random DM, one agent step each per ``step``; ``both_sides``: of
    ``BatchedGames``, every decision of either side an agent step) with uniform random legal actions
    from its masks, stepped in the core on every core when it can (its defaults); None when the
    module does not import (not built). The one place that knows the batched env's API."""
    try:
        batched = importlib.import_module("dungeon_env.batched")  # honours a module marked missing
    except ImportError:
        return None
    options = {"adventure": ADVENTURE, "heroes": HEROES, "max_turns": MAX_TURNS}
    if both_sides:
        if not hasattr(batched, "BatchedGames"):
            return None
        env = batched.BatchedGames(num_envs, **options)
    else:
        env = batched.BatchedRoleEnv(num_envs, role="heroes", opponent="random", **options)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        masks = np.asarray(env.action_masks(), dtype=bool)
        scores = np.where(masks, rng.random(masks.shape), -1.0)  # uniform among the legal actions
        env.step(scores.argmax(axis=1).astype(np.int64))
        steps += masks.shape[0]
    rate = steps / (time.perf_counter() - start)
    if hasattr(env, "close"):
        env.close()
    return rate


# ------------------------------------------------------------------------------ the difficulty tool
def games_needed(completed: float, won: float, until: float = BALANCE_UNTIL, cap: int = 20_000) -> int:
    """The games after which the tool's ``until`` rule (``difficulty.runner``: looks after
    ``FIRST_LOOK`` games then every ``LOOK_EVERY``, both rates' 95% Wilson intervals within
    ``±until``) stops, if the two rates stay at ``completed`` and ``won``."""
    from difficulty.runner import FIRST_LOOK, LOOK_EVERY, Z
    from training.evaluate import wilson_interval

    n = FIRST_LOOK
    while n < cap:
        widths = []
        for p in (completed, won):
            low, high = wilson_interval(round(p * n), n, Z)
            widths.append((high - low) / 2)
        if max(widths) <= until:
            return n
        n += LOOK_EVERY
    return cap


def balance_answer(games: int, until: bool, workers: int = 0) -> dict:
    """Wall seconds to the ±2-point answer on goblin_warrens, scripted heroes against the scripted DM
    (the tool's defaults otherwise: 3 heroes, turn cap 100, seed 0), on ``workers`` processes (0: all
    cores). ``until``: the tool runs until the interval is reached (measured); else ``games`` games
    give the games per second (worker start-up included) and the rates, and the time is the games
    the ``until`` rule would need at those rates over that speed (estimated)."""
    from difficulty.metrics import is_completed, is_won
    from difficulty.spec import Experiment

    workers = workers or os.cpu_count() or 1
    if until:
        experiment = Experiment(adventures=(BALANCE_ADVENTURE,), until=BALANCE_UNTIL, workers=workers)
    else:
        experiment = Experiment(adventures=(BALANCE_ADVENTURE,), games=games, workers=workers)
    seconds, cpu, played, records = bench_balance.timed(experiment)
    completed = sum(map(is_completed, records)) / len(records)
    won = sum(map(is_won, records)) / len(records)
    rate = played / seconds
    needed = len(records) if until else games_needed(completed, won)
    return {
        "mode": "measured" if until else "estimated",
        "seconds": seconds if until else needed / rate,
        "games_needed": needed,
        "games_played": played,
        "run_seconds": seconds,
        "cpu_seconds": cpu,
        "games_per_second": rate,
        "idle_seconds": needed * cpu / played / workers,  # the same work on idle cores, by CPU time
        "completed": completed,
        "won": won,
        "workers": workers,
    }


def balance_note(b: dict) -> str:
    source = f"; rates and speed from {b['games_played']} games" if b["mode"] == "estimated" else ""
    return (
        f"{b['games_needed']} games at {b['games_per_second']:.1f} games/s on {b['workers']} processes "
        f"(completed {100 * b['completed']:.1f}%, with goals {100 * b['won']:.1f}%{source}); "
        f"by CPU time, {b['idle_seconds']:.1f} s on {b['workers']} idle cores"
    )


# ------------------------------------------------------------------------------ the search
def _search_run(game_class: type, side: str, max_searches: int) -> list:
    """Each search's statistics, the first ``max_searches`` of ``side``'s search in its game."""
    searches: list = []
    bench_search.play(
        SEARCH_ADVENTURE,
        SEARCH_SEED,
        side,
        "v2",
        game_class=game_class,
        max_searches=max_searches,
        searches=searches,
    )
    return searches


def _values(stats: dict) -> list:
    """Each option's visits and mean value in a search (its fingerprint: the same rollouts give the
    same means)."""
    return [[repr(target), visits, round(mean, 9)] for target, (visits, mean) in stats["options"].items()]


def search_rates(seconds: float, candidate: type, rounds: int = 2) -> dict:
    """The search v2 at its default budget (``bench_search.play``: goblin_warrens, 3 heroes, against the
    scripted agents v2), its first ``SEARCHES_PER_SIDE`` searches for the heroes and for the DM, played
    ``rounds`` times, each time after ``seconds / rounds`` of connect_four_v3's AEC steps: iterations
    per second of search time over connect_four_v3's steps per second (the median of the rounds), and
    each search's side, figure, choice, iterations and options' visits and means, in order."""
    from pettingzoo.classic import connect_four_v3

    ratios, rates, key = [], [], []
    for r in range(rounds):
        c4 = bench_env.aec_steps_per_second(connect_four_v3.env, seconds / rounds, r)
        iterations, spent, key = 0, 0.0, []
        for side in ("heroes", "dm"):
            searches = _search_run(candidate, side, SEARCHES_PER_SIDE)
            iterations += sum(s["iterations"] for s in searches)
            spent += sum(s["seconds"] for s in searches)
            key += [[side, s["figure"], repr(s["choice"]), s["iterations"], _values(s)] for s in searches]
        rate = iterations / max(spent, 1e-9)
        rates.append(rate)
        ratios.append(rate / c4)
    return {"rate": float(np.median(rates)), "vs_c4": float(np.median(ratios)), "choices": key}


def load_reference() -> dict:
    """The engine and search of commit d9d7c3b as ratios to connect_four_v3 (``--record-reference``)."""
    return json.loads(REFERENCE_FILE.read_text())


def record_reference(seconds: float) -> dict:
    """Measure this checkout's engine and search against connect_four_v3 and write ``REFERENCE_FILE``."""
    import subprocess

    rates = step_rates(seconds, Game)
    search = search_rates(seconds, Game)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout
    reference = {
        "commit": commit.strip(),
        "engine_vs_c4": rates["engine_vs_c4"],
        "search_vs_c4": search["vs_c4"],
        "search_choices": search["choices"],
    }
    REFERENCE_FILE.write_text(json.dumps(reference, indent=1) + "\n")
    return reference


# ------------------------------------------------------------------------------ the table
def measure(args: argparse.Namespace) -> tuple[list[Aim], dict]:
    """Every aim asked for (``args.only``), and the raw figures behind them."""
    candidate = load_engine(args.candidate)
    cand = "" if args.candidate == DEFAULT_CANDIDATE else f" --candidate {args.candidate}"
    only = set(args.only)
    reference = load_reference() if only & {"engine", "search"} else {}
    aims: list[Aim] = []
    raw: dict = {}
    if only & {"engine", "env"}:
        rates = raw["steps"] = step_rates(args.seconds, candidate)
        median = rates["median"]
        if "engine" in only:
            command = f"{SCRIPT} --only engine{cand}"
            before = reference["engine_vs_c4"]
            aims.append(
                Aim(
                    "engine_vs_today",
                    f"engine alone: decisions/s / the engine before the core ({reference['commit']})",
                    rates["engine_vs_c4"] / before,
                    TARGETS["engine_vs_today"],
                    "x",
                    command,
                    note=f"{median['candidate']:,.0f} decisions/s = {rates['engine_vs_c4']:.2f}x "
                    f"connect_four_v3, against {before:.2f}x on {reference['commit']}",
                )
            )
            aims.append(
                Aim(
                    "engine_vs_c4",
                    "engine alone: decisions/s / connect_four_v3 env() steps/s",
                    rates["engine_vs_c4"],
                    TARGETS["engine_vs_c4"],
                    "x",
                    command,
                    note=f"connect_four {median['c4 env()']:,.0f} steps/s",
                )
            )
        if "env" in only:
            command = f"{SCRIPT} --only env  (or python scripts/bench_env.py)"
            aims.append(
                Aim(
                    "env",
                    "dungeon_env.env() / connect_four_v3 env()",
                    rates["env"],
                    TARGETS["env"],
                    "x",
                    command,
                    note=f"{median['ours env()']:,.0f} against {median['c4 env()']:,.0f} steps/s",
                )
            )
            aims.append(
                Aim(
                    "raw_env",
                    "raw_env / connect_four_v3 raw_env",
                    rates["raw_env"],
                    TARGETS["raw_env"],
                    "x",
                    command,
                    note=f"{median['ours raw_env']:,.0f} against {median['c4 raw_env']:,.0f} steps/s",
                )
            )
    if "batched" in only:
        rate = raw["batched"] = batched_steps_per_second(args.seconds, args.batched_envs)
        both = raw["batched_both_sides"] = batched_steps_per_second(args.seconds, args.batched_envs, True)
        note = "dungeon_env.batched does not import"
        if rate is not None:
            both_text = "not built" if both is None else f"{both:,.0f} steps/s"
            note = (
                f"the heroes against the random DM, in the core on {usable_cores()} threads; "
                f"BatchedGames (both sides, every decision a step): {both_text}"
            )
        aims.append(
            Aim(
                "batched",
                f"batched env: agent steps/s ({args.batched_envs} games, random legal)",
                rate,
                TARGETS["batched"],
                "steps/s",
                f"{SCRIPT} --only batched",
                note=note,
            )
        )
    if "balance" in only:
        b = raw["balance"] = balance_answer(args.balance_games, args.balance_until, args.workers)
        flag = "" if args.balance_until else " --balance-estimate"
        aims.append(
            Aim(
                "balance",
                f"±2-point answer, {BALANCE_ADVENTURE}, scripted ({b['mode']})",
                b["seconds"],
                TARGETS["balance"],
                "s",
                f"{SCRIPT} --only balance{flag}",
                at_most=True,
                note=balance_note(b),
            )
        )
    if "search" in only:
        s = raw["search"] = search_rates(args.seconds, candidate)
        same = s["choices"] == reference["search_choices"]
        aims.append(
            Aim(
                "search",
                f"search v2 iterations/s / the search before the core ({reference['commit']})",
                s["vs_c4"] / reference["search_vs_c4"],
                TARGETS["search"],
                "x",
                f"{SCRIPT} --only search{cand}",
                holds=same,
                note=f"{s['rate']:.0f} iterations/s = {s['vs_c4']:.4f} per connect_four_v3 step/s, "
                f"against {reference['search_vs_c4']:.4f} on {reference['commit']}, over "
                f"{len(s['choices'])} searches; same choices and iterations: {'yes' if same else 'NO'}",
            )
        )
    if "memory" in only:
        memory = raw["memory"] = {n: bench_env.memory_per_env(ADVENTURE, HEROES, n) for n in (0, 1000)}
        labels = (("memory_reset", 0, "after reset"), ("memory_1000", 1000, "after 1,000 steps"))
        for key, steps, label in labels:
            aims.append(
                Aim(
                    key,
                    f"memory per env {label}",
                    memory[steps]["total"] / 1024,
                    TARGETS[key],
                    "KiB",
                    f"{SCRIPT} --only memory",
                    at_most=True,
                )
            )
    return aims, raw


def table(aims: list[Aim]) -> str:
    """One line per aim: aim, figure, target, verdict; then its note and the command that reproduces it."""
    lines = [f"{'aim':58} {'figure':>16} {'target':>25}  verdict"]
    for aim in aims:
        target = ("at most " if aim.at_most else "at least ") + _fmt(aim.target, aim.unit)
        lines.append(f"{aim.name:58} {_fmt(aim.figure, aim.unit):>16} {target:>25}  {aim.verdict}")
        if aim.note:
            lines.append(f"    {aim.note}")
        lines.append(f"    $ {aim.command}")
    return "\n".join(lines)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--candidate", default=DEFAULT_CANDIDATE, help="the engine measured, module:Class")
    parser.add_argument("--only", default=",".join(GROUPS), help=f"aims to measure, of {','.join(GROUPS)}")
    parser.add_argument("--batched-envs", type=int, default=128, help="games in the batched env")
    parser.add_argument("--balance-games", type=int, default=100, help="games of the balance estimate")
    parser.add_argument(
        "--balance-estimate",
        dest="balance_until",
        action="store_false",
        help="estimate the ±2-point answer from --balance-games games instead of running the tool to it",
    )
    parser.add_argument(
        "--balance-until", action="store_true", help="run the tool until ±2 points (the default)"
    )
    parser.set_defaults(balance_until=True)
    parser.add_argument("--workers", type=int, default=0, help="balance worker processes (0: all cores)")
    parser.add_argument("--json", metavar="OUT", help="write the figures to this JSON file")
    parser.add_argument(
        "--record-reference",
        action="store_true",
        help=f"measure this checkout's engine and search and write {REFERENCE_FILE.name}",
    )
    args = parser.parse_args(argv)
    args.only = [g.strip() for g in args.only.split(",") if g.strip()]
    unknown = set(args.only) - set(GROUPS)
    if unknown:
        parser.error(f"unknown aims {', '.join(sorted(unknown))}; choose among {','.join(GROUPS)}")
    return args


def main(argv: list[str] | None = None) -> list[Aim]:
    args = parse_args(argv)
    if args.record_reference:
        reference = record_reference(args.seconds)
        figures = {k: v for k, v in reference.items() if k != "search_choices"}
        print(f"wrote {REFERENCE_FILE}: {json.dumps(figures)}")
        return []
    start = time.perf_counter()
    aims, raw = measure(args)
    print(
        f"issue 54's aims, engine {args.candidate}; {os.cpu_count()} cores, {args.seconds:g} s a measurement"
    )
    print(table(aims))
    if args.json:
        out = {
            "candidate": args.candidate,
            "reference": load_reference() if REFERENCE_FILE.exists() else None,
            "seconds": args.seconds,
            "cores": os.cpu_count(),
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "wall_seconds": time.perf_counter() - start,
            "aims": [a.to_json() for a in aims],
            "figures": raw,
        }
        Path(args.json).write_text(json.dumps(out, indent=2, default=str) + "\n")
    return aims


if __name__ == "__main__":
    main()
