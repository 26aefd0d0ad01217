"""Benchmark of the search agent (``make bench``): a whole adventure played by the search agent at its
default budget (``agents.search``: ``DEFAULT_ROLLOUTS`` iterations of ``DEFAULT_DEPTH`` decisions)
for each side, against the scripted other side, on every bundled adventure (3 heroes, turn cap 100).

Prints, per adventure and side, the wall and CPU seconds of the game, the side's decisions and the
seconds per decision, beside the same game played by the scripted agents on both sides (the
reference of this run, measured the same way). The issue's aim: under a minute an adventure here.

    python scripts/bench_search.py [--seed 11] [--adventure NAME ...]
"""

from __future__ import annotations

import argparse
import time

from agents import ScriptedDM, ScriptedHeroes, SearchAgent
from dungeon_env.content import adventure_names
from dungeon_env.engine import Game


def play(adventure: str, seed: int, searching: str | None) -> tuple[float, float, int, str]:
    """Wall seconds, CPU seconds, the searching side's decisions and the outcome of one game;
    ``searching`` None: scripted agents on both sides."""
    g = Game.new(adventure=adventure, heroes=3, seed=seed)
    heroes, dm = ScriptedHeroes(game=g), ScriptedDM(game=g, seed=seed)
    if searching == "heroes":
        heroes = SearchAgent(game=g, seed=seed)
    elif searching == "dm":
        dm = SearchAgent(game=g, seed=seed)
    wall, cpu, decisions = time.perf_counter(), time.process_time(), 0
    while not g.over:
        side = "dm" if g.agent == "dm" else "heroes"
        decisions += side == searching
        g.apply((dm if side == "dm" else heroes).act(None, None))
    return time.perf_counter() - wall, time.process_time() - cpu, decisions, g.outcome


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--adventure", action="append", help="an adventure (repeatable; default: all)")
    args = parser.parse_args(argv)
    print(
        "| adventure | search plays | outcome | wall s | CPU s | decisions | ms / decision "
        "| scripted game s |"
    )
    print("|---|---|---|---:|---:|---:|---:|---:|")
    slowest = 0.0
    for adventure in args.adventure or adventure_names():
        reference = play(adventure, args.seed, None)[0]
        for side in ("heroes", "dm"):
            wall, cpu, decisions, outcome = play(adventure, args.seed, side)
            slowest = max(slowest, wall)
            print(
                f"| {adventure} | {side} | {outcome} | {wall:.1f} | {cpu:.1f} | {decisions} | "
                f"{1000 * wall / max(decisions, 1):.0f} | {reference:.2f} |"
            )
    print(f"slowest adventure: {slowest:.1f} s (aim: under 60 s)")


if __name__ == "__main__":
    main()
