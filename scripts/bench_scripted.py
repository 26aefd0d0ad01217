"""Benchmark of the scripted game (``make bench``): decisions per second of full adventures played by
the scripted heroes against the scripted DM, both sides v1 and both sides v2 in the same run, as a
ratio to a reference workload stepped in the same process; v1's ratio against the ratio measured on
the code of 2026-12-06, and v2's cost as a multiple of v1's.

The scripted workload is always the same games: flooded_cellar, 3 heroes, turn cap 100, seeds
0..games-1 (``profile_scripted.play_scripted``), played by each version. The reference is
PettingZoo's ``connect_four_v3`` stepped by random legal actions through its AEC loop (as in
``bench.py``). The three are interleaved game by game (the seed's v1 game, its v2 game, then
``seconds`` of connect_four) and timed on this process's CPU time, which other load on a shared
machine disturbs less than the wall clock; a repeat's ratio is a version's scripted decisions per
CPU-second over its connect_four steps per CPU-second, and the ratio printed is the median of
``repeats`` repeats.

v2's cost is its CPU time per decision over v1's (the median of the repeats' quotients), the aim
being at most ``V2_AIM`` (2x); the CPU time per game is printed beside it (the two versions play
different games, of different lengths, from the same seeds).

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
VERSIONS = ("v1", "v2")  # agents.spec.SCRIPTED_VERSIONS, timed side by side
V2_AIM = 2.0  # issue 51's aim: a v2 decision costs at most twice a v1 decision

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


def one_repeat(
    games: int, reference: ConnectFour, seconds: float
) -> tuple[dict[str, tuple[int, float]], float]:
    """Per version, the scripted decisions and CPU seconds over the fixed games (seeds
    0..games-1), and reference steps per CPU-second, interleaved game by game (each seed's game of
    every version, then ``seconds`` of the reference) so that all meet the same load."""
    played = {v: (0, 0.0) for v in VERSIONS}
    steps, reference_cpu = 0, 0.0
    for seed in range(games):
        for version in VERSIONS:
            start = time.process_time()
            decisions = play_scripted(ADVENTURE, HEROES, seed, version=version)[1]
            done, cpu = played[version]
            played[version] = (done + decisions, cpu + time.process_time() - start)
        done, cpu = reference.run(seconds)
        steps += done
        reference_cpu += cpu
    return played, steps / reference_cpu


def measure(games: int, repeats: int, seconds: float) -> dict[str, list[float]]:
    """The repeats' figures: per version its decisions per CPU-second (``<v>``) and its ratio to the
    reference (``<v>_ratio``), the reference's steps per CPU-second (``reference``), and v2's CPU
    time per decision and per game as multiples of v1's (``v2_per_decision``, ``v2_per_game``)."""
    for version in VERSIONS:  # tables and content caches built outside the timing
        play_scripted(ADVENTURE, HEROES, 0, version=version)
    reference = ConnectFour()
    reference.run(0.2)
    out: dict[str, list[float]] = {}
    for _ in range(repeats):
        played, c4 = one_repeat(games, reference, seconds)
        out.setdefault("reference", []).append(c4)
        for version, (decisions, cpu) in played.items():
            out.setdefault(version, []).append(decisions / cpu)
            out.setdefault(f"{version}_ratio", []).append(decisions / cpu / c4)
        (d1, cpu1), (d2, cpu2) = played["v1"], played["v2"]
        out.setdefault("v2_per_decision", []).append((cpu2 / d2) / (cpu1 / d1))
        out.setdefault("v2_per_game", []).append(cpu2 / cpu1)
    return out


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
    figures = measure(args.games, args.repeats, args.seconds)
    median = {key: statistics.median(values) for key, values in figures.items()}
    print(f"reference  connect_four_v3 AEC random-legal steps per CPU-s: {median['reference']:10.0f}")
    for version in VERSIONS:
        ratios = figures[f"{version}_ratio"]
        baseline = f"; v1 on {BASELINE_COMMIT}: {BASELINE_RATIO:.4f}" if version == "v1" else ""
        print(
            f"scripted@{version} {ADVENTURE} {HEROES} heroes, decisions per CPU-s: {median[version]:10.0f}  "
            f"ratio {median[f'{version}_ratio']:.4f} (median of {min(ratios):.4f}..{max(ratios):.4f}"
            f"{baseline})"
        )
    speed = median["v1_ratio"] / BASELINE_RATIO
    verdict = "met" if speed >= AIM else "missed"
    print(f"scripted game (v1): {speed:.2f}x the speed of {BASELINE_COMMIT} (aim {AIM:.1f}x: {verdict})")
    cost, per_game = median["v2_per_decision"], median["v2_per_game"]
    verdict = "met" if cost <= V2_AIM else "missed"
    print(
        f"scripted@v2 / scripted@v1: {cost:.2f}x the CPU time per decision (aim at most {V2_AIM:.1f}x: "
        f"{verdict}), {per_game:.2f}x per game (the same seeds, different games)"
    )


if __name__ == "__main__":
    main()
