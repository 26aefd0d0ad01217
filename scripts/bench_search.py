"""Benchmark of the search agent (``make bench``): a whole adventure played by the search agent at its
default budget for each side, against the scripted agents of the version its rollouts play, on every
bundled adventure (3 heroes, turn cap 100).

- ``--version v2`` (the default, plain ``search``): ``agents.turn_search.TurnSearchAgent``, which
  searches whole Movements, against the scripted agents v2. Issue 52's aim: under two minutes of
  one core an adventure.
- ``--version v1`` (``search@v1``): ``agents.search.SearchAgent``, which searches every decision,
  against the scripted agents v1 (its aim was under a minute an adventure).

Prints, per adventure and side, the wall and CPU seconds of the game, the side's decisions searched
(v2: its macro points; v1: its decisions with a choice) and the CPU milliseconds per such decision,
beside the same game played by the scripted agents on both sides (the reference of this run,
measured the same way).

    python scripts/bench_search.py [--version v2] [--seed 11] [--adventure NAME ...]
"""

from __future__ import annotations

import argparse
import time

from agents.spec import SCRIPTED_AGENTS, SEARCH_AGENTS
from dungeon_env.content import adventure_names
from dungeon_env.engine import Game

AIM_SECONDS = {"v1": 60.0, "v2": 120.0}  # CPU seconds of a game, by the issue that set them


def play(
    adventure: str,
    seed: int,
    searching: str | None,
    version: str,
    *,
    game_class: type = Game,
    seconds: float | None = None,
    max_searches: int | None = None,
    searches: list | None = None,
) -> tuple[float, float, int, str | None]:
    """Wall seconds, CPU seconds, the searching side's searched decisions and the outcome of one
    game; ``searching`` None: scripted agents on both sides. ``game_class``: the engine played on
    (``Game.new``). The game stops early (outcome ``None``) after ``seconds`` of wall time or
    ``max_searches`` searches; ``searches``, if given, receives each search's ``last_stats`` (v2)."""
    g = game_class.new(adventure=adventure, heroes=3, seed=seed)
    heroes = SCRIPTED_AGENTS["scripted_heroes"][version](game=g, seed=seed)
    dm = SCRIPTED_AGENTS["scripted_dm"][version](game=g, seed=seed)
    search = SEARCH_AGENTS[version](game=g, seed=seed) if searching else None
    if searching == "heroes":
        heroes = search
    elif searching == "dm":
        dm = search
    wall, cpu, decisions = time.perf_counter(), time.process_time(), 0
    while not g.over:
        if (seconds is not None and time.perf_counter() - wall > seconds) or (
            max_searches is not None and decisions >= max_searches
        ):
            return time.perf_counter() - wall, time.process_time() - cpu, decisions, None
        side = "dm" if g.agent == "dm" else "heroes"
        choices = len(g.legal_actions()) > 1
        g.apply((dm if side == "dm" else heroes).act(None, None))
        if side == searching:
            decisions += bool(search.last_stats) if version != "v1" else choices
            if searches is not None and (search.last_stats if version != "v1" else choices):
                searches.append(dict(search.last_stats))
    return time.perf_counter() - wall, time.process_time() - cpu, decisions, g.outcome


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--version", choices=sorted(SEARCH_AGENTS), default="v2", help="the search's version")
    parser.add_argument("--adventure", action="append", help="an adventure (repeatable; default: all)")
    args = parser.parse_args(argv)
    print(f"search@{args.version} at its default budget against scripted@{args.version}")
    print(
        "| adventure | search plays | outcome | wall s | CPU s | decisions searched | CPU ms / searched "
        "| scripted game s |"
    )
    print("|---|---|---|---:|---:|---:|---:|---:|")
    slowest = 0.0
    for adventure in args.adventure or adventure_names():
        reference = play(adventure, args.seed, None, args.version)[1]
        for side in ("heroes", "dm"):
            wall, cpu, decisions, outcome = play(adventure, args.seed, side, args.version)
            slowest = max(slowest, cpu)
            print(
                f"| {adventure} | {side} | {outcome} | {wall:.1f} | {cpu:.1f} | {decisions} | "
                f"{1000 * cpu / max(decisions, 1):.0f} | {reference:.2f} |"
            )
    aim = AIM_SECONDS[args.version]
    verdict = "met" if slowest < aim else "missed"
    print(f"slowest adventure: {slowest:.1f} CPU s (aim: under {aim:.0f} s of one core): {verdict}")


if __name__ == "__main__":
    main()
