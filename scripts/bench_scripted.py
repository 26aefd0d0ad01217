"""Benchmark of the scripted game (``make bench``): decisions per second of full adventures played by
the scripted heroes against the scripted DM, as a ratio to a reference workload stepped in the same
process, and that ratio against the ratio measured on the code of 2026-12-06.

The scripted workload is always the same games: flooded_cellar, 3 heroes, turn cap 100, seeds
0..games-1 (``profile_scripted.play_scripted``). The reference is PettingZoo's ``connect_four_v3``
stepped by random legal actions through its AEC loop (as in ``bench.py``). The two are interleaved
game by game (``seconds`` of connect_four after each scripted game) and timed on this process's CPU
time, which other load on a shared machine disturbs less than the wall clock; a repeat's ratio is
its scripted decisions per CPU-second over its connect_four steps per CPU-second, and the ratio
printed is the median of ``repeats`` repeats.

    python scripts/bench_scripted.py [--games 20] [--repeats 5] [--seconds 0.1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from profile_scripted import play_scripted

ADVENTURE = "flooded_cellar"
HEROES = 3
AIM = 3.0  # the aim: a scripted game at least three times as fast as on BASELINE_COMMIT

# The ratio (scripted decisions per CPU-second / connect_four_v3 steps per CPU-second) on commit
# 2d93b03 (2026-12-06), measured by this script (its defaults: 5 repeats of 20 games, interleaved)
# on that commit's code, on 2 cores shared with other work: 6 runs alternated with runs of the
# changed code; the runs' medians were 0.482, 0.482, 0.484, 0.503, 0.509 and 0.509, and this is
# their median (about 8,000 scripted decisions and 16,000 connect_four steps per CPU-second).
BASELINE_COMMIT = "2d93b03"
BASELINE_RATIO = 0.494


class ConnectFour:
    """The reference: connect_four_v3 stepped by random legal actions through its AEC loop."""

    def __init__(self, seed: int = 0) -> None:
        from pettingzoo.classic import connect_four_v3

        self.env = connect_four_v3.env()
        self.rng = random.Random(seed)
        self.seed = seed

    def run(self, seconds: float) -> tuple[int, float]:
        """Whole games for about ``seconds`` of CPU time: (steps, CPU seconds)."""
        env, rng = self.env, self.rng
        steps = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            env.reset(seed=self.seed)
            self.seed += 1
            for _agent in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    action = None
                else:
                    action = rng.choice([i for i, ok in enumerate(obs["action_mask"]) if ok])
                env.step(action)
                steps += 1
        return steps, time.process_time() - start


def one_repeat(games: int, reference: ConnectFour, seconds: float) -> tuple[float, float]:
    """Scripted decisions per CPU-second over the fixed games (seeds 0..games-1) and reference steps
    per CPU-second, the two interleaved game by game (``seconds`` of the reference after each game)
    so that both meet the same load."""
    decisions = steps = 0
    scripted_cpu = reference_cpu = 0.0
    for seed in range(games):
        start = time.process_time()
        decisions += play_scripted(ADVENTURE, HEROES, seed)[1]
        scripted_cpu += time.process_time() - start
        done, cpu = reference.run(seconds)
        steps += done
        reference_cpu += cpu
    return decisions / scripted_cpu, steps / reference_cpu


def measure(games: int, repeats: int, seconds: float) -> tuple[float, float, list[float]]:
    """Median scripted decisions/s, median reference steps/s and the repeats' ratios."""
    play_scripted(ADVENTURE, HEROES, 0)  # tables and content caches built outside the timing
    reference = ConnectFour()
    reference.run(0.2)
    scripted, steps, ratios = [], [], []
    for _ in range(repeats):
        rate, c4 = one_repeat(games, reference, seconds)
        scripted.append(rate)
        steps.append(c4)
        ratios.append(rate / c4)
    return statistics.median(scripted), statistics.median(steps), ratios


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20, help="scripted games per repeat")
    parser.add_argument("--repeats", type=int, default=5, help="alternating repeats")
    parser.add_argument(
        "--seconds", type=float, default=0.1, help="CPU seconds of connect_four after each scripted game"
    )
    args = parser.parse_args(argv)
    scripted, reference, ratios = measure(args.games, args.repeats, args.seconds)
    ratio = statistics.median(ratios)
    print(f"reference  connect_four_v3 AEC random-legal steps per CPU-s: {reference:10.0f}")
    print(
        f"scripted   {ADVENTURE} {HEROES} heroes, decisions per CPU-s: {scripted:10.0f}  "
        f"ratio {ratio:.4f} (median of {min(ratios):.4f}..{max(ratios):.4f}; "
        f"on {BASELINE_COMMIT}: {BASELINE_RATIO:.4f})"
    )
    speed = ratio / BASELINE_RATIO
    verdict = "met" if speed >= AIM else "missed"
    print(f"scripted game: {speed:.2f}x today's speed (aim {AIM:.1f}x: {verdict})")


if __name__ == "__main__":
    main()
