"""Speed of full adventures played by the scripted agents, and a bit-identical behaviour check.

    .venv/bin/python scripts/profile_scripted.py bench            # scripted games/s (best of repeats)
    .venv/bin/python scripts/profile_scripted.py random           # engine decisions/s, random legal play
    .venv/bin/python scripts/profile_scripted.py profile          # cProfile of scripted games
    .venv/bin/python scripts/profile_scripted.py golden --record /tmp/golden_hashes.json
    .venv/bin/python scripts/profile_scripted.py golden --check /tmp/golden_hashes.json

Timings on a shared machine are noisy: ``bench`` and ``random`` repeat the measurement and print
the best and the median run; for a load-independent count use ``profile`` (call counts) or run
``bench --games 20 --repeats 1`` under ``valgrind --tool=callgrind``.

``golden`` plays seeds 0..59 of every bundled adventure with 3 and 5 heroes, scripted heroes
against the scripted DM and random legal play (``random.Random(seed).choice``), and hashes each
game's event log (``json.dumps(game.events)``): record before an optimisation, check after it.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import pstats
import random
import statistics
import time

from agents.spec import SCRIPTED_AGENTS
from dungeon_env.content import adventure_names
from dungeon_env.engine import Game

ADVENTURE = "flooded_cellar"


def play_scripted(
    adventure: str, heroes: int, seed: int, max_turns: int = 100, version: str = "v1"
) -> tuple[Game, int]:
    """One scripted-vs-scripted game, both sides at ``version`` (``agents.spec.SCRIPTED_VERSIONS``;
    v1, the frozen reference, by default: the golden hashes are its games); returns it and the number
    of decisions taken."""
    g = Game.new(adventure=adventure, heroes=heroes, seed=seed, max_turns=max_turns)
    h = SCRIPTED_AGENTS["scripted_heroes"][version](game=g, seed=seed)
    d = SCRIPTED_AGENTS["scripted_dm"][version](game=g, seed=seed)
    decisions = 0
    while not g.over:
        g.apply((d if g.agent == "dm" else h).choose(g))
        decisions += 1
    return g, decisions


def play_random(adventure: str, heroes: int, seed: int, max_turns: int = 100) -> tuple[Game, int]:
    """One game of uniformly random legal actions; returns it and the number of decisions taken."""
    g = Game.new(adventure=adventure, heroes=heroes, seed=seed, max_turns=max_turns)
    rng = random.Random(seed)
    decisions = 0
    while not g.over:
        g.apply(rng.choice(g.legal_actions()))
        decisions += 1
    return g, decisions


def _timed(play, adventure: str, heroes: int, games: int, repeats: int) -> None:
    """Games and decisions per second of wall-clock time and of this process's CPU time (which
    other processes on a busy machine disturb less)."""
    play(adventure, heroes, 0)  # tables and content caches built outside the timing
    wall, cpu = [], []
    for _ in range(repeats):
        decisions = 0
        start, start_cpu = time.perf_counter(), time.process_time()
        for seed in range(games):
            decisions += play(adventure, heroes, seed)[1]
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    per_game = decisions / games
    what = f"{play.__name__} {adventure} heroes={heroes}"
    print(f"{what}: {games} games x {repeats}, {per_game:.1f} decisions/game")
    for name, times in (("wall", wall), ("cpu", cpu)):
        best, median = min(times), statistics.median(times)
        print(
            f"  {name:4} games/s best {games / best:7.2f} median {games / median:7.2f}"
            f"  decisions/s best {decisions / best:8.0f} median {decisions / median:8.0f}"
        )


def profile(adventure: str, heroes: int, games: int, top: int, sort: str) -> None:
    play_scripted(adventure, heroes, 0)
    prof = cProfile.Profile()
    prof.enable()
    for seed in range(games):
        play_scripted(adventure, heroes, seed)
    prof.disable()
    pstats.Stats(prof).sort_stats(sort).print_stats(top)


def event_hash(g: Game) -> str:
    return hashlib.sha256(json.dumps(g.events).encode()).hexdigest()


def golden_hashes(seeds: int) -> dict[str, str]:
    """``"<adventure>/<heroes>/<scripted|random>/<seed>"`` -> hash of the game's event log."""
    out = {}
    for adventure in adventure_names():
        for heroes in (3, 5):
            for kind, play in (("scripted", play_scripted), ("random", play_random)):
                for seed in range(seeds):
                    out[f"{adventure}/{heroes}/{kind}/{seed}"] = event_hash(play(adventure, heroes, seed)[0])
            print(f"  {adventure} heroes={heroes} done", flush=True)
    return out


def golden(record: str | None, check: str | None, seeds: int) -> int:
    hashes = golden_hashes(seeds)
    if record:
        with open(record, "w") as f:
            json.dump(hashes, f, indent=0, sort_keys=True)
        print(f"recorded {len(hashes)} game hashes to {record}")
        return 0
    with open(check) as f:
        expected = json.load(f)
    differ = sorted(k for k in expected if hashes.get(k) != expected[k])
    if differ:
        print(f"{len(differ)} of {len(expected)} games differ, first: {differ[:10]}")
        return 1
    print(f"all {len(expected)} game hashes match {check}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("bench", "random", "profile"):
        p = sub.add_parser(name)
        p.add_argument("--adventure", default=ADVENTURE)
        p.add_argument("--heroes", type=int, default=3)
        p.add_argument("--games", type=int, default=60 if name == "bench" else 20)
        if name == "profile":
            p.add_argument("--top", type=int, default=40)
            p.add_argument("--sort", default="tottime")
        else:
            p.add_argument("--repeats", type=int, default=5)
    p = sub.add_parser("golden")
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--record", metavar="PATH")
    group.add_argument("--check", metavar="PATH")
    p.add_argument("--seeds", type=int, default=60)
    args = parser.parse_args()
    if args.command == "bench":
        _timed(play_scripted, args.adventure, args.heroes, args.games, args.repeats)
    elif args.command == "random":
        _timed(play_random, args.adventure, args.heroes, args.games, args.repeats)
    elif args.command == "profile":
        profile(args.adventure, args.heroes, args.games, args.top, args.sort)
    else:
        return golden(args.record, args.check, args.seeds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
