"""Compare two difficulty runs game by game: the same cells and seeds played by two versions of the
engine or the agents (before and after a change), each written by ``dungeon-env balance --records``.

    python scripts/compare_runs.py reports/before reports/after

Prints a Markdown table per cell: both win rates before and after, the paired difference with
Newcombe's 95% interval (``difficulty.metrics.compare``: game *i* of a cell has the same seed in both
runs), the games won only before and only after, and how the games ended.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from difficulty.metrics import compare
from difficulty.record import read_record


def load(folder: Path) -> dict[str, list[dict]]:
    """The records of ``folder/games.jsonl``, by cell."""
    path = folder / "games.jsonl"
    if not path.is_file():
        raise SystemExit(f"error: {path} not found: run `dungeon-env balance ... --records --out {folder}`")
    cells: dict[str, list[dict]] = defaultdict(list)
    with path.open() as lines:
        for line in lines:
            record = read_record(json.loads(line))  # older runs' names of the endings read as today's
            cells[record["cell"]].append(record)
    return cells


def _share(records: list[dict], end: str) -> str:
    return f"{100 * sum(r['end'] == end for r in records) / len(records):.1f}%"


def _deaths(records: list[dict]) -> float:
    return sum(sum(h["died"] for h in r["heroes"]) for r in records) / len(records)


def table(before: dict[str, list[dict]], after: dict[str, list[dict]]) -> list[str]:
    rows = [
        "| cell | games | completed with goals: before → after | difference (paired 95%) "
        "| won only before / only after | all dead | truncated | hero deaths / game | turns |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for cell in before:
        if cell not in after:
            continue
        b, a = before[cell], after[cell]
        won = compare(a, b)["completed_with_goals"]
        low, high = won["difference_ci"]
        mean_turns = (sum(r["turns"] for r in b) / len(b), sum(r["turns"] for r in a) / len(a))
        rows.append(
            f"| {cell.split(' · ')[0]} | {compare(a, b)['games']} "
            f"| {100 * won['base']['rate']:.1f}% → {100 * won['variant']['rate']:.1f}% "
            f"| {100 * won['difference']:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}] "
            f"| {won['only_base']} / {won['only_variant']} "
            f"| {_share(b, 'failed')} → {_share(a, 'failed')} "
            f"| {_share(b, 'truncated')} → {_share(a, 'truncated')} "
            f"| {_deaths(b):.2f} → {_deaths(a):.2f} | {mean_turns[0]:.1f} → {mean_turns[1]:.1f} |"
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path, help="the run before the change (a balance --out folder)")
    parser.add_argument("after", type=Path, help="the run after it, same cells and seeds")
    args = parser.parse_args(argv)
    print("\n".join(table(load(args.before), load(args.after))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
