"""The ladder of agents on one table, from one or more difficulty runs played on the same seeds.

    python scripts/ladder_table.py reports/v1v2 reports/search --heroes-reference scripted@v2 \
        --dm-reference scripted@v2

Each run is a ``dungeon-env balance ... --records`` folder. Games are matched across runs by
adventure, party, pairing and seed, so pairings played in separate runs (the cheap ones on many
games, the costly ones on their first games) still compare game by game; a game found in two runs
must have the same record in both, or the runs were played by different code and the script stops.

It prints, per adventure (3-5 heroes pooled, every game that all compared pairings played):

- the matrix: the heroes' completion with every primary goal met for every hero agent (rows)
  against every DM agent (columns), with the games behind each cell;
- the heroes' ladder: each hero agent minus the reference hero agent against the same DM, with
  Newcombe's paired 95% interval, and the same for games stopped by the turn cap;
- the DM's ladder: each DM agent minus the reference DM against the same hero agent (the heroes'
  completion; negative is a stronger DM).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from agents.spec import POLICY_PREFIX, POOL_PREFIX
from difficulty.metrics import compare_pairings, is_won
from difficulty.record import read_record

Key = tuple[str, str, str]  # adventure, party, pairing ("heroes agent:DM agent")


def load_runs(folders: list[Path]) -> dict[Key, dict[int, dict]]:
    """Every record of the runs' ``games.jsonl``, by (adventure, party, pairing) and seed. A game in
    two runs must be the same game."""
    games: dict[Key, dict[int, dict]] = defaultdict(dict)
    for folder in folders:
        path = folder / "games.jsonl"
        if not path.is_file():
            raise SystemExit(
                f"error: {path} not found: run `dungeon-env balance ... --records --out {folder}`"
            )
        with path.open() as lines:
            for number, line in enumerate(lines, 1):
                record = read_record(json.loads(line))
                adventure, party, pairing, variant = record["cell"].split(" · ")
                if variant != "base":
                    continue
                key = (adventure, party, pairing)
                seen = games[key].get(record["seed"])
                if seen is not None and _game(seen) != _game(record):
                    raise SystemExit(
                        f"error: {path}:{number}: {pairing} on {adventure} ({party}), seed "
                        f"{record['seed']}, differs from the same game in another run: the runs "
                        "were played by different code"
                    )
                games[key][record["seed"]] = record
    return games


def _game(record: dict) -> dict:
    return {k: v for k, v in record.items() if k not in ("cell", "i")}


def paired(games, adventure: str, agent: str, reference: str) -> dict | None:
    """``agent`` against ``reference`` (two pairings) on the games both played on ``adventure``,
    every party pooled: ``difficulty.metrics.compare_pairings`` on records keyed by (party, seed)."""
    mine, theirs = [], []
    for (adv, party, pairing), by_seed in games.items():
        if adv != adventure or pairing not in (agent, reference):
            continue
        target = mine if pairing == agent else theirs
        target.extend(dict(r, i=(party, seed)) for seed, r in by_seed.items())
    if not mine or not theirs:
        return None
    figures = compare_pairings(mine, theirs)
    return figures if figures["games"] else None


def _points(rates: dict) -> str:
    low, high = rates["difference_ci"]
    return f"{100 * rates['difference']:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]"


def agents_of(pairing: str) -> tuple[str, str]:
    """The heroes' and the DM's agent of a recorded pairing label: the first agent ends at the first
    colon, unless that colon is a ``policy:`` or ``pool:`` spec's own (their labels hold one)."""
    head, _, rest = pairing.partition(":")
    if f"{head}:" in (POLICY_PREFIX, POOL_PREFIX):
        name, _, rest = rest.partition(":")
        head = f"{head}:{name}"
    return head, rest


def tables(games, heroes_reference: str, dm_reference: str) -> list[str]:
    pairings = sorted({key[2] for key in games})
    heroes_agents = sorted({agents_of(p)[0] for p in pairings})
    dm_agents = sorted({agents_of(p)[1] for p in pairings})
    adventures = list(dict.fromkeys(key[0] for key in games))
    out = ["## The matrix: completed with every primary goal met (games)", ""]
    out += [
        "| adventure | heroes \\ DM | " + " | ".join(dm_agents) + " |",
        "|---|---|" + "---:|" * len(dm_agents),
    ]
    for adventure in adventures:
        for heroes in heroes_agents:
            cells = []
            for dm in dm_agents:
                records = [
                    r
                    for (a, _, p), s in games.items()
                    if a == adventure and p == f"{heroes}:{dm}"
                    for r in s.values()
                ]
                won = sum(map(is_won, records))
                cells.append(f"{100 * won / len(records):.1f}% ({len(records)})" if records else "")
            out.append(f"| {adventure} | {heroes} | " + " | ".join(cells) + " |")
    sides = (
        ("heroes'", "hero", heroes_agents, dm_agents, heroes_reference, lambda a, o: f"{a}:{o}"),
        ("DM's", "DM", dm_agents, heroes_agents, dm_reference, lambda a, o: f"{o}:{a}"),
    )
    for side, kind, agents, others, reference, pairing_of in sides:
        out += ["", f"## The {side} ladder: each {kind} agent − {reference} (paired, 95%; games)", ""]
        out += [
            "| adventure | agent | against | completed with goals | turn cap | games |",
            "|---|---|---|---|---|---:|",
        ]
        for adventure in adventures:
            for agent in agents:
                if agent == reference:
                    continue
                for other in others:
                    figures = paired(games, adventure, pairing_of(agent, other), pairing_of(reference, other))
                    if figures is None:
                        continue
                    out.append(
                        f"| {adventure} | {agent} | {other} | {_points(figures['completed_with_goals'])} "
                        f"| {_points(figures['truncated'])} | {figures['games']} |"
                    )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", type=Path, nargs="+", help="balance --records --out folders, same seeds")
    parser.add_argument(
        "--heroes-reference", default="scripted@v2", help="the hero agent the others are measured against"
    )
    parser.add_argument(
        "--dm-reference", default="scripted@v2", help="the DM agent the others are measured against"
    )
    args = parser.parse_args(argv)
    games = load_runs(args.runs)
    if not games:
        raise SystemExit("error: the runs hold no games of the base rules")
    names = {name for key in games for name in agents_of(key[2])}
    for reference in (args.heroes_reference, args.dm_reference):
        if reference not in names:
            raise SystemExit(f"error: no pairing plays {reference!r}; the runs' agents are {sorted(names)}")
    print("\n".join(tables(games, args.heroes_reference, args.dm_reference)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
