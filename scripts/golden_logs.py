"""Golden event logs: record games of the Python engine, check that an engine still plays them.

    scripts/golden_logs.py record --random 10000 --scripted 1000 --out tests/data/golden/
    scripts/golden_logs.py check                       # every stored game, one process
    scripts/golden_logs.py check --sample 300 --workers 2
    scripts/golden_logs.py check --engine mycore:Game --reference dungeon_env.engine:Game
    scripts/golden_logs.py check --actions             # the sample games, by their recorded actions

``record`` plays the game list of ``dungeon_env.parity`` (random legal play, and the scripted agents
v2 on both sides) and stores one row per game (``games.jsonl.gz``) and the whole event logs and
actions of one game per (kind, adventure, heroes) cell (``sample.json.gz``). ``check`` plays the
stored games again with ``--engine`` (a ``module:Class`` whose ``new`` makes a game; default the
Python engine) and compares each with its row; at the first game that differs it prints the game,
the first differing event and both events (exactly for a sample game, or for any game with
``--reference``, an engine to replay it with; else the window of the log that the stored marks give).
The exit status is 0 when every game checked matches, 1 otherwise, 2 for a store that cannot be read.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from agents.spec import from_spec, parse_spec
from dungeon_env.content import adventure_names
from dungeon_env.parity import (
    DIGEST_TEXT,
    KINDS,
    MARK_EVERY,
    GameCase,
    GoldenStoreError,
    Played,
    Verdict,
    compare,
    describe_mismatch,
    game_list,
    mark_window,
    play_agents,
    play_random,
    read_store,
    replay,
    spread,
    stratified,
    write_store,
)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_STORE = ROOT / "tests" / "data" / "golden"
PYTHON_ENGINE = "dungeon_env.engine:Game"
# the scripted games: the scripted agents v2 on both sides (pinned: a later version is other play)
SCRIPTED = {"heroes": "scripted@v2", "dm": "scripted@v2"}
RANDOM_TEXT = "random.Random(seed).choice(game.legal_actions()) until game.over"
CHUNK = 25  # games a worker plays per task


def engine_factory(spec: str) -> Callable[..., Any]:
    """``module:Class`` -> its ``new`` (or the callable itself when it has none)."""
    module, _, name = spec.partition(":")
    if not name:
        raise SystemExit(f"--engine/--reference: expected module:Class, got {spec!r}")
    target = getattr(importlib.import_module(module), name)
    return getattr(target, "new", target)


def scripted_specs(header: dict | None = None) -> dict[str, str]:
    """The agent specs of the scripted games (a store's own, else :data:`SCRIPTED`), parsed with
    their version (``scripted_heroes@v2``)."""
    specs = (header or {}).get("drivers", {}).get("scripted", {}) or SCRIPTED
    return {side: str(parse_spec(specs[side], side)) for side in ("heroes", "dm")}


def play(new_game: Callable[..., Any], case: GameCase, specs: dict[str, str] | None = None) -> Played:
    """One game of the list with its driver."""
    if case.kind == "random":
        return play_random(new_game, case)
    specs = specs or scripted_specs()
    return play_agents(new_game, case, from_spec(specs["heroes"], "heroes"), from_spec(specs["dm"], "dm"))


def git_commit() -> str:
    """The commit checked out (the code that records), or "" outside a git work tree."""
    try:
        return subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def header_for(engine: str, seconds: dict[str, float], commit: str) -> dict:
    return {
        "recorded": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "engine": engine,
        "commit": commit,
        "adventures": adventure_names(),
        "drivers": {
            "random": RANDOM_TEXT,
            "scripted": scripted_specs(),
            "loop": "scripted: dungeon_env.episode.play_episode, agents seeded by "
            "seed_agents(heroes, dm, seed)",
        },
        "digest": DIGEST_TEXT,
        "mark_every": MARK_EVERY,
        "seconds_per_game": seconds,
    }


class Progress:
    """A line every ``every`` seconds (and at the end): games done, rate, time left."""

    def __init__(self, what: str, total: int, every: float = 15.0) -> None:
        self.what, self.total, self.every = what, total, every
        self.start = self.last = time.perf_counter()

    def update(self, done: int) -> None:
        now = time.perf_counter()
        if now - self.last < self.every and done < self.total:
            return
        self.last = now
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (self.total - done) / rate if rate > 0 else 0.0
        print(
            f"  {self.what}: {done}/{self.total} games, {elapsed:.0f} s, {rate:.1f} games/s, "
            f"~{left:.0f} s left",
            flush=True,
        )


# ----------------------------------------------------------------------------------- record


def record(n_random: int, n_scripted: int, out: Path, engine: str) -> int:
    new_game = engine_factory(engine)
    commit = git_commit()  # at the start: the code that plays the games
    adventures = adventure_names()
    rows: list[dict] = []
    sample: list[Played] = []
    seconds: dict[str, float] = {}
    for kind, count in (("random", n_random), ("scripted", n_scripted)):
        cases = game_list(kind, count, adventures)
        keep = set(stratified(cases))
        progress = Progress(f"record {kind}", len(cases))
        start = time.perf_counter()
        for k, case in enumerate(cases, 1):
            played = play(new_game, case)
            rows.append(played.summary())
            if case in keep:
                sample.append(played)
            progress.update(k)
        seconds[kind] = round((time.perf_counter() - start) / max(count, 1), 4)
        print(f"{kind}: {count} games, {seconds[kind]:.3f} s a game", flush=True)
    paths = write_store(out, header_for(engine, seconds, commit), rows, sample)
    for path in paths:
        print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB)")
    print(
        f"recorded {n_random} random and {n_scripted} scripted games; {len(sample)} full logs in the sample"
    )
    return 0


# ----------------------------------------------------------------------------------- check


def _play_chunk(
    args: tuple[str, list[GameCase], dict[str, str], list[dict]],
) -> list[tuple[dict, list | None]]:
    """Worker: play ``cases`` with ``engine``; each game's row, and its events when it differs."""
    engine, cases, specs, rows = args
    new_game = engine_factory(engine)
    out = []
    for case, row in zip(cases, rows, strict=True):
        played = play(new_game, case, specs)
        ok = compare(row, played).ok
        out.append((played.summary(), None if ok else played.events))
    return out


def verdict_of(row: dict, case: GameCase, summary: dict) -> Verdict:
    """The verdict on a game from its stored row and the row it plays to now."""
    keys = ("n_actions", "n_events", "outcome", "digest")
    differs = {key: (row[key], summary[key]) for key in keys if row[key] != summary[key]}
    window = mark_window(row["marks"], summary["marks"], summary["n_events"]) if differs else None
    return Verdict(case, not differs, differs, window)


def _chunks(cases: Sequence[GameCase], size: int) -> list[list[GameCase]]:
    return [list(cases[i : i + size]) for i in range(0, len(cases), size)]


def check(
    store_dir: Path,
    engine: str,
    sample: int | None,
    workers: int,
    kinds: Sequence[str],
    reference: str | None,
    actions: bool,
) -> int:
    try:
        store = read_store(store_dir)
    except GoldenStoreError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    specs = scripted_specs(store.header)
    cases = [case for case in store.cases() if case.kind in kinds]
    if actions:
        cases = [case for case in cases if case.id in store.sample]
    if sample is not None:
        cases = spread(cases, sample)
    how = "their recorded actions" if actions else "their drivers"
    print(
        f"checking {len(cases)} of {len(store.rows)} stored games ({store.header.get('recorded', '?')}, "
        f"engine {store.header.get('engine', '?')}) with {engine}, by {how}, {workers} worker(s)",
        flush=True,
    )
    new_game = engine_factory(engine)
    progress = Progress("check", len(cases))
    mismatches: list[tuple[GameCase, dict, list | None]] = []
    done = 0

    def judged(results: list[tuple[dict, list | None]], chunk: list[GameCase]) -> None:
        nonlocal done
        for case, (summary, events) in zip(chunk, results, strict=True):
            if events is not None:
                mismatches.append((case, summary, events))
            done += 1
        progress.update(done)

    chunks = _chunks(cases, CHUNK)
    if actions:
        for chunk in chunks:
            results = []
            for case in chunk:
                played = replay(new_game, case, store.sample[case.id]["actions"])
                ok = compare(store.row(case), played).ok
                results.append((played.summary(), None if ok else played.events))
            judged(results, chunk)
    elif workers <= 1:
        for chunk in chunks:
            judged(_play_chunk((engine, chunk, specs, [store.row(c) for c in chunk])), chunk)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            tasks = [(engine, chunk, specs, [store.row(c) for c in chunk]) for chunk in chunks]
            for chunk, results in zip(chunks, pool.map(_play_chunk, tasks), strict=True):
                judged(results, chunk)

    if not mismatches:
        print(f"OK: all {len(cases)} games checked match their stored digests")
        return 0
    case, summary, events = mismatches[0]
    verdict = verdict_of(store.row(case), case, summary)
    expected = store.sample[case.id]["events"] if case.id in store.sample else None
    if expected is None and reference is not None and events is not None:
        print(f"replaying {case.id} with the reference {reference} ...", flush=True)
        expected = play(engine_factory(reference), case, specs).events
    print(describe_mismatch(verdict, expected, events))
    listed = ", ".join(c.id for c, _, _ in mismatches[:10])
    more = f" (and {len(mismatches) - 10} more)" if len(mismatches) > 10 else ""
    print(f"FAILED: {len(mismatches)} of {len(cases)} games differ: {listed}{more}")
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="play the game list and store its digests and a sample of logs")
    rec.add_argument("--random", type=int, default=10_000, help="random games (default 10000)")
    rec.add_argument("--scripted", type=int, default=1_000, help="scripted games (default 1000)")
    rec.add_argument("--out", type=Path, default=DEFAULT_STORE)
    rec.add_argument("--engine", default=PYTHON_ENGINE, help="module:Class to record with")
    chk = sub.add_parser("check", help="play the stored games again and compare")
    chk.add_argument("--store", type=Path, default=DEFAULT_STORE)
    chk.add_argument(
        "--engine", default=PYTHON_ENGINE, help="module:Class to check (default the Python engine)"
    )
    chk.add_argument("--sample", type=int, default=None, help="about N games spread over every cell")
    chk.add_argument("--workers", type=int, default=1)
    chk.add_argument("--kind", choices=KINDS, action="append", help="only this kind (repeatable)")
    chk.add_argument("--reference", default=None, help="module:Class replaying a differing game in full")
    chk.add_argument(
        "--actions", action="store_true", help="the sample games, applying their recorded actions"
    )
    args = parser.parse_args(argv)
    if args.command == "record":
        return record(args.random, args.scripted, args.out, args.engine)
    kinds = tuple(args.kind or KINDS)
    return check(
        args.store, args.engine, args.sample, max(1, args.workers), kinds, args.reference, args.actions
    )


if __name__ == "__main__":
    raise SystemExit(main())
