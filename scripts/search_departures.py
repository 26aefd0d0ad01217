"""Where the search agent leaves its prior: whole games of one side played by the search agent
against the scripted other side (v1, ``OTHER``: the agents the search rolls out), counting the
decisions at which the search played another action than its prior's choice (the rollout policy's,
at the defaults the scripted agent's: ``SearchAgent.last_stats["prior"]``), and when in the game
they came.

Prints, per adventure, the games' outcomes, the searching side's decisions with a choice, the
departures among them, and how those fall by decision kind, by heroes still in the dungeon and by
turns before the game's end; ``--jsonl FILE`` writes every departure (turn, decision, the prior's
action and the search's, by name, and the root's visits and means). A game takes 9-14 s of one
core at the default budget for the heroes' side, 12-27 s for the DM's (49 s if it runs to the turn
cap; ``scripts/bench_search.py``).

    python scripts/search_departures.py --adventure goblin_warrens --games 8 [--side heroes]
        [--seed 20000000] [--only 3,17] [--search 'search[rollouts=24]'] [--workers 2] [--jsonl FILE]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from agents import from_spec
from dungeon_env import describe_action
from dungeon_env.content import adventure_names
from dungeon_env.engine import Game
from dungeon_env.engine.units import active_heroes
from dungeon_env.episode import agent_seeds

OTHER = "scripted@v1"  # the other side: the scripted agents v1, whose play the search's rollouts are
LAST_TURNS = 5  # "near the end": a departure this many turns or fewer before the game's last


def play(adventure: str, seed: int, side: str, search: str) -> dict:
    """One game (3 heroes): its outcome, last turn, the side's decisions with a choice, and each
    departure from the prior."""
    g = Game.new(adventure=adventure, heroes=3, seed=seed)
    other = "dm" if side == "heroes" else "heroes"
    agents = {side: from_spec(search, side), other: from_spec(OTHER, other)}
    for who, agent_seed in zip(("heroes", "dm"), agent_seeds(seed), strict=True):
        agents[who].seed(agent_seed)  # as the difficulty tool seeds them: the same games
        agents[who].bind(game=g)
    decisions, departures = 0, []
    while not g.over:
        acting = "dm" if g.agent == "dm" else "heroes"
        agent = agents[acting]
        action = agent.act(None, None)
        if acting == side and len(g.legal_actions()) > 1:
            decisions += 1
            prior = agent.last_stats["prior"]
            if action != prior:
                departures.append(departure(g, agent.last_stats, prior, action))
        g.apply(action)
    return {
        "seed": seed,
        "outcome": g.outcome,
        "turns": int(g.state.turn),
        "decisions": decisions,
        "departures": departures,
    }


def departure(g: Game, stats: dict, prior: int, action: int) -> dict:
    kind, _unit = g.decision
    named = {a: describe_action(g, a) for a in stats["visits"]}
    return {
        "turn": int(g.state.turn),
        "decision": kind.name.lower(),
        "heroes_in": len(active_heroes(g)),
        "prior": named[prior] if prior in named else describe_action(g, prior),
        "search": named[action],
        "visits": {named[a]: v for a, v in stats["visits"].items()},
        "means": {named[a]: round(m, 3) for a, m in stats["means"].items()},
    }


def summary(adventure: str, games: list[dict]) -> str:
    outcomes = Counter(game["outcome"] for game in games)
    decisions = sum(game["decisions"] for game in games)
    found = [(game, d) for game in games for d in game["departures"]]
    by_kind = Counter(d["decision"] for _, d in found)
    by_heroes = Counter(d["heroes_in"] for _, d in found)
    near_end = sum(game["turns"] - d["turn"] <= LAST_TURNS for game, d in found)
    share = 100 * len(found) / max(1, decisions)
    lines = [
        f"{adventure}: {len(games)} games ("
        + ", ".join(f"{n} {o}" for o, n in sorted(outcomes.items()))
        + f"); {decisions} decisions with a choice, {len(found)} departures from the prior ({share:.2f}%), "
        f"in {sum(bool(game['departures']) for game in games)} games",
    ]
    if found:
        lines.append("  by decision: " + ", ".join(f"{k} {n}" for k, n in by_kind.most_common()))
        lines.append(
            "  by heroes still in the dungeon: "
            + ", ".join(f"{h}: {by_heroes[h]}" for h in sorted(by_heroes))
        )
        lines.append(f"  within {LAST_TURNS} turns of the game's end: {near_end} of {len(found)}")
    return "\n".join(lines)


def _indices(text: str) -> list[int]:
    try:
        indices = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected game indices like 3,17, got {text!r}") from None
    if any(i < 0 for i in indices):
        raise argparse.ArgumentTypeError(f"game indices are 0 or more, got {text!r}")
    return indices


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--adventure", action="append", choices=adventure_names(), help="repeatable; default all"
    )
    parser.add_argument("--games", type=int, default=4, help="games per adventure (default 4)")
    parser.add_argument(
        "--seed", type=int, default=20_000_000, help="the first game's seed; game i has seed+i"
    )
    parser.add_argument(
        "--only",
        type=_indices,
        help="play only these game indices (comma-separated, e.g. 3,17), not 0..games-1",
    )
    parser.add_argument("--side", choices=("heroes", "dm"), default="heroes", help="the searching side")
    parser.add_argument("--search", default="search", help="the searching agent's spec (default: search)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--jsonl", type=Path, help="write every departure, one JSON line each")
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1:
        parser.error(f"--games and --workers must be at least 1, got {args.games} and {args.workers}")
    if not args.search.startswith("search"):
        parser.error(f"--search must be a search agent's spec (search[...]), got {args.search!r}")
    from_spec(args.search, args.side)  # a wrong spec fails here, naming what is accepted
    adventures = args.adventure or adventure_names()
    indices = args.only if args.only is not None else range(args.games)
    jobs = [(a, args.seed + i, args.side, args.search) for a in adventures for i in indices]
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(play, *zip(*jobs, strict=True)))
    by_adventure = {
        a: [r for (adv, *_), r in zip(jobs, results, strict=True) if adv == a] for a in adventures
    }
    for adventure, games in by_adventure.items():
        print(summary(adventure, games), flush=True)
    if args.jsonl:
        with args.jsonl.open("w") as out:
            for adventure, games in by_adventure.items():
                for game in games:
                    for d in game["departures"]:
                        out.write(json.dumps({"adventure": adventure, "seed": game["seed"], **d}) + "\n")


if __name__ == "__main__":
    main()
