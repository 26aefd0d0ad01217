"""Where the search agent leaves its prior, and why: whole games of one side played by the search
against the scripted agents of the other side (the version whose play the search's rollouts are:
``scripted@v1`` for ``search@v1``, ``scripted@v2`` for the search v2), counting the decisions at
which the search played another choice than its prior's.

- The search v1 (``search@v1``) searches every decision with a choice; its prior is the rollout
  policy's action (``SearchAgent.last_stats["prior"]``).
- The search v2 (``search``) searches whole Movements only (its macro points: where a hero ends its
  Movement, which hero a monster hunts); its prior is v2's choice there, and a departure says which
  square or hero it chose instead, every option's visits and mean value, and the gain in mean that
  made it leave v2 (``TurnSearchAgent.last_stats``).

Prints, per adventure, the games' outcomes, the searched decisions, the departures among them, and
how those fall by decision kind, by heroes still in the dungeon and by turns before the game's end;
``--jsonl FILE`` writes every departure.

    python scripts/search_departures.py --adventure goblin_warrens --games 8 [--side heroes]
        [--seed 20000000] [--only 3,17] [--search 'search[iterations=12]'] [--workers 2] [--jsonl FILE]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from agents import from_spec, parse_spec
from dungeon_env import describe_action
from dungeon_env.content import adventure_names
from dungeon_env.engine import Decision, Game
from dungeon_env.engine.units import active_heroes
from dungeon_env.episode import agent_seeds

OTHER = {"v1": "scripted@v1", "v2": "scripted@v2"}  # the other side: the play of the search's rollouts
LAST_TURNS = 5  # "near the end": a departure this many turns or fewer before the game's last


def play(adventure: str, seed: int, side: str, search: str) -> dict:
    """One game (3 heroes): its outcome, last turn, the side's decisions with a choice, and each
    departure from the prior."""
    g = Game.new(adventure=adventure, heroes=3, seed=seed)
    other = "dm" if side == "heroes" else "heroes"
    version = parse_spec(search, side).version
    agents = {side: from_spec(search, side), other: from_spec(OTHER[version], other)}
    for who, agent_seed in zip(("heroes", "dm"), agent_seeds(seed), strict=True):
        agents[who].seed(agent_seed)  # as the difficulty tool seeds them: the same games
        agents[who].bind(game=g)
    decisions, departures = 0, []
    while not g.over:
        acting = "dm" if g.agent == "dm" else "heroes"
        agent = agents[acting]
        action = agent.act(None, None)
        if acting == side and version == "v1" and len(g.legal_actions()) > 1:
            decisions += 1
            prior = agent.last_stats["prior"]
            if action != prior:
                departures.append(departure(g, agent.last_stats, prior, action))
        elif acting == side and version != "v1" and agent.last_stats:
            decisions += 1
            if agent.last_stats["choice"] != agent.last_stats["prior"]:
                departures.append(movement_departure(g, agent.last_stats))
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


def movement_departure(g: Game, stats: dict) -> dict:
    """A departure of the search v2 at a macro point: what v2 would have done, what the search did,
    every option's visits and mean, and the gain in mean that decided it."""
    kind, figure = g.decision

    def named(target: int | None, v2: bool = False) -> str:
        if target is None:
            return "v2's choice" if not v2 else "v2's way (no end square)"
        if kind == Decision.HERO_MOVE:
            x, y = g.xy(target)
            return f"end on ({x},{y}) in {g.tables.board.area_names[int(g.tables.area[target])]}"
        return f"hunt {g.label(target)}"

    return {
        "turn": int(g.state.turn),
        "decision": kind.name.lower(),
        "figure": g.label(figure),
        "heroes_in": len(active_heroes(g)),
        "prior": named(None),
        "v2_chose": named(stats["v2_target"], v2=True),
        "search": named(stats["choice"]),
        "visits": {named(t): v for t, (v, _) in stats["options"].items()},
        "means": {named(t): round(m, 3) for t, (_, m) in stats["options"].items()},
        "gain": round(stats["gain"], 3),
        "standard_error": round(stats["standard_error"], 3),
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
        + f"); {decisions} decisions searched, {len(found)} departures from the prior ({share:.2f}%), "
        f"in {sum(bool(game['departures']) for game in games)} games",
    ]
    gains = [d["gain"] for _, d in found if "gain" in d]
    if gains:
        lines.append(f"  mean gain in value that made it depart: {sum(gains) / len(gains):.3f}")
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
