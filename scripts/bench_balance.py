"""Benchmark of difficulty testing (``make bench``): scripted heroes against the scripted DM on the
default adventure (flooded_cellar, 3 heroes, turn cap 100).

1. adventures per second in one process (the serial backend: the reference of this run);
2. adventures per second on all cores (the local backend, worker start-up included);
3. wall time to a ±2% answer: ``until=0.02``, i.e. until the 95% Wilson interval of the win rate is
   at most ±2 points wide, on all cores; with the time one process would need for as many games.

Each line also gives the CPU time the games took (this process and its workers), which other load
on the machine disturbs much less than the wall clock, and from it the wall time the same work
would take on that many idle cores.

    python scripts/bench_balance.py [--single 100] [--parallel 400] [--until 0.02] [--workers 0]
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from difficulty.runner import backend_for, run
from difficulty.spec import Experiment


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(experiment: Experiment) -> tuple[float, float, int, list]:
    """Wall seconds, CPU seconds (workers included: they are joined), games played, the records."""
    start, cpu = time.perf_counter(), _cpu()
    backend = backend_for(experiment)
    try:
        result = run(experiment, backend=backend)
    finally:
        backend.close()
    return time.perf_counter() - start, _cpu() - cpu, result.games_played, result.records[0]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--single", type=int, default=100, help="games in one process")
    parser.add_argument("--parallel", type=int, default=400, help="games on all cores")
    parser.add_argument(
        "--until", type=float, default=0.02, help="target half-width of the win rate's interval"
    )
    parser.add_argument("--workers", type=int, default=0, help="worker processes (0: all cores)")
    args = parser.parse_args(argv)
    workers = args.workers or os.cpu_count() or 1

    seconds, cpu, games, _ = timed(Experiment(games=args.single, backend="serial", seed=10_000))
    single = games / seconds
    print(
        f"one process:   {games} adventures in {seconds:6.2f} s = {single:6.2f} adventures/s (reference); "
        f"CPU {cpu:.1f} s = {games / cpu:.2f} adventures per CPU-second"
    )

    seconds, cpu, games, _ = timed(Experiment(games=args.parallel, workers=workers, seed=20_000))
    parallel = games / seconds
    print(
        f"{workers} processes:   {games} adventures in {seconds:6.2f} s = {parallel:6.2f} adventures/s "
        f"({parallel / single:.2f}x one process, start-up included); CPU {cpu:.1f} s, "
        f"on {workers} idle cores ~{cpu / workers:.1f} s = {games * workers / cpu:.1f} adventures/s"
    )

    seconds, cpu, games, records = timed(Experiment(until=args.until, workers=workers))
    from difficulty.metrics import is_completed, is_won
    from training.evaluate import wilson_interval

    rates = []
    for name, test in (("completed", is_completed), ("with goals", is_won)):
        count = sum(test(r) for r in records)
        low, high = wilson_interval(count, len(records))
        rates.append(f"{name} {100 * count / len(records):.1f}% [{100 * low:.1f}, {100 * high:.1f}]")
    print(
        f"±{100 * args.until:g}% answer: {seconds:6.2f} s on {workers} processes "
        f"({', '.join(rates)} after {len(records)} games, {games} played; one process would take "
        f"{games / single:.1f} s); CPU {cpu:.1f} s, on {workers} idle cores ~{cpu / workers:.1f} s"
    )


if __name__ == "__main__":
    main()
