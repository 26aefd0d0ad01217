"""Aggregate game records into the report's figures (every figure is defined in docs/DIFFICULTY.md).

Two rates say how often the heroes win, and every figure says which it uses: ``completed`` (the
adventure's outcome is ``completed``: every surviving hero left the dungeon, its goals met or not)
and ``completed_with_goals`` (completed with every primary goal met: a *won* game; every other game
is *lost*). ``cell_figures(records)``: one cell's figures; ``compare(variant_records, base_records)``:
a variant against the base rules on the same game indices (common random numbers), with paired
intervals for the differences of both rates (Newcombe's square-and-add interval for paired
proportions, built from the two Wilson intervals and the correlation of the pairs);
``compare_pairings(agent_records, reference_records)``: two pairings of agents on the same game
indices, the same way (the rate of completion with every goal met, and of games at the turn cap).
Rates come with 95% Wilson intervals (``dungeon_env.tasks.wilson_interval``, SciPy's); quantiles are
numpy's.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from typing import Any

import numpy as np

from difficulty.record import ENDS, WOUND_SOURCES
from dungeon_env.tasks import wilson_interval

DIGITS = 6


def is_completed(record: dict) -> bool:
    """Every surviving hero left the dungeon (the outcome ``completed``), goals met or not."""
    return record["outcome"] == "completed"


def is_won(record: dict) -> bool:
    """Completed with every primary goal met."""
    return record["outcome"] == "completed" and bool(record["goals_met"])


def is_truncated(record: dict) -> bool:
    """Stopped by the turn cap."""
    return record["end"] == "truncated"


def _r(x: float) -> float:
    return round(float(x), DIGITS)


def rate(count: int, n: int) -> dict[str, Any]:
    """``{"count", "n", "rate", "ci": [low, high], "half_width"}`` with a 95% Wilson interval."""
    low, high = wilson_interval(int(count), int(n))
    return {
        "count": int(count),
        "n": int(n),
        "rate": _r(count / n) if n else 0.0,
        "ci": [_r(low), _r(high)],
        "half_width": _r((high - low) / 2),
    }


def _mean(values: list[float]) -> float:
    return _r(statistics.fmean(values)) if values else 0.0


def _quantile(values: list[int], q: float) -> float:
    """``numpy.quantile`` (its default, linear interpolation), rounded; 0.0 for no values."""
    return _r(np.quantile(values, q)) if values else 0.0


def distribution(values: list[int]) -> dict[str, Any]:
    """Mean, quantiles and the histogram (``[[value, count], ...]``) of integer values."""
    ordered = sorted(values)
    return {
        "mean": _mean(ordered),
        "min": ordered[0] if ordered else 0,
        "p10": _quantile(ordered, 0.1),
        "median": _quantile(ordered, 0.5),
        "p90": _quantile(ordered, 0.9),
        "max": ordered[-1] if ordered else 0,
        "histogram": [[v, c] for v, c in sorted(Counter(ordered).items())],
    }


def _hero_rows(groups: dict[str, list[dict]]) -> list[dict]:
    rows = []
    for name, entries in groups.items():
        n = len(entries)
        deaths = sum(e["died"] for e in entries)
        rows.append(
            {
                "hero_games": n,
                "death": rate(deaths, n),
                "deaths_door_per_game": _mean([e["deaths_door"] for e in entries]),
                "deaths_door_games": rate(sum(e["deaths_door"] > 0 for e in entries), n),
                "damage_per_game": _mean([e["damage"] for e in entries]),
                "escaped": rate(sum(e["escaped"] for e in entries), n),
                "_name": name,
            }
        )
    return rows


def heroes_figures(records: list[dict]) -> list[dict]:
    """Per hero card: death rate, Death's Door visits, damage taken, escapes."""
    groups: dict[str, list[dict]] = defaultdict(list)
    traits: dict[str, list[str]] = {}
    for record in records:
        for h in record["heroes"]:
            groups[h["hero"]].append(h)
            traits[h["hero"]] = h["traits"]
    rows = _hero_rows(groups)
    return [{"hero": (name := r.pop("_name")), "traits": traits[name]} | r for r in rows]


def trait_figures(records: list[dict]) -> list[dict]:
    """Per trait, over every hero that had it in a game (a hero with two traits counts in both)."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for record in records:
        for h in record["heroes"]:
            for trait in h["traits"] or ["(none)"]:
                groups[trait].append(h)
    rows = _hero_rows(dict(sorted(groups.items())))
    return [{"trait": r.pop("_name")} | r for r in rows]


def monster_figures(records: list[dict]) -> list[dict]:
    """Per monster kind: how many appeared, how many were slain (the kill rate, with its interval)."""
    spawned: Counter = Counter()
    slain: Counter = Counter()
    for record in records:
        spawned.update(record["spawned"])
        slain.update(record["slain"])
    n = len(records)
    return [
        {
            "monster": m,
            "spawned": spawned[m],
            "spawned_per_game": _r(spawned[m] / n) if n else 0.0,
            "slain": slain[m],
            "kill": rate(min(slain[m], spawned[m]), spawned[m]),
        }
        for m in sorted(spawned)
    ]


def wound_figures(records: list[dict]) -> dict[str, Any]:
    """What hurts the heroes: the damage they take per game, each source's share of it and per game
    (``WOUND_SOURCES``, most first), and the Patrols that appeared per game."""
    totals = {k: sum(r["wounds"][k] for r in records) for k in WOUND_SOURCES}
    damage = sum(totals.values())
    n = max(1, len(records))
    sources = [
        {"source": k, "per_game": _r(totals[k] / n), "share": _r(totals[k] / damage) if damage else 0.0}
        for k in sorted(WOUND_SOURCES, key=lambda k: (-totals[k], WOUND_SOURCES.index(k)))
    ]
    return {
        "damage_per_game": _r(damage / n),
        "sources": sources,
        "patrols_per_game": _r(sum(r["checks"].get("patrol:appears", 0) for r in records) / n),
    }


def _rolls(records: list[dict], check: str) -> int:
    return sum(c for r in records for k, c in r["checks"].items() if k.split(":")[0] == check)


def check_figures(records: list[dict]) -> list[dict]:
    """Per ``check:result``: its count per game, its share of that check's rolls and the share of
    games where it happened at least once, overall and split by won games (completed with every
    primary goal met) and lost ones."""
    won = [r for r in records if is_won(r)]
    lost = [r for r in records if not is_won(r)]
    rows = []
    for key in sorted({k for r in records for k in r["checks"]}):
        check, result = key.split(":", 1)
        total = sum(r["checks"].get(key, 0) for r in records)
        row = {
            "check": check,
            "result": result,
            "count": total,
            "per_game": _r(total / len(records)),
            "share": rate(total, _rolls(records, check)),
            "games_with": rate(sum(r["checks"].get(key, 0) > 0 for r in records), len(records)),
        }
        for name, group in (("won", won), ("lost", lost)):
            count, rolls = sum(r["checks"].get(key, 0) for r in group), _rolls(group, check)
            row[f"rolls_{name}"] = rolls
            row[f"per_{name}_game"] = _mean([r["checks"].get(key, 0) for r in group]) if group else None
            row[f"share_{name}"] = _r(count / rolls) if rolls else None
            row[f"games_with_{name}"] = (
                _r(sum(r["checks"].get(key, 0) > 0 for r in group) / len(group)) if group else None
            )
        rows.append(row)
    return rows


MIN_GROUP = 5  # won and lost games each needed before checks are ranked as deciding
MIN_ROLLS = 10  # rolls of a check in won and in lost games each needed to rank it


def _z(c: dict) -> float:
    """Two-proportion z statistic of the result's share of rolls, lost games against won games."""
    n1, n2 = c["rolls_lost"], c["rolls_won"]
    pooled = (c["share_lost"] * n1 + c["share_won"] * n2) / (n1 + n2)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    return (c["share_lost"] - c["share_won"]) / spread if spread > 0 else 0.0


def deciding_checks(checks: list[dict], won: int, lost: int, top: int = 8) -> list[dict]:
    """The check results that went differently in lost games than in won ones: the share of the
    check's rolls that gave the result, in lost games against won games, ranked by the size of the
    two-proportion z statistic of that difference (luck on the check, not how often it was rolled;
    games reaching a room only late show in ``games_with_*``); the strongest result of each check.
    Only checks rolled ``MIN_ROLLS`` times in both groups, results that are not a number (a Detect
    Traps roll) and cells with at least ``MIN_GROUP`` won and ``MIN_GROUP`` lost games."""
    if min(won, lost) < MIN_GROUP:
        return []
    ranked = []
    for c in checks:
        if c["result"] == "rolled" or min(c["rolls_won"], c["rolls_lost"]) < MIN_ROLLS:
            continue
        z = _z(c)
        if abs(z) > 0:
            keep = ("check", "result", "share_won", "share_lost", "per_won_game", "per_lost_game")
            keep += ("games_with_won", "games_with_lost", "rolls_won", "rolls_lost")
            ranked.append(
                {k: c[k] for k in keep} | {"difference": _r(c["share_lost"] - c["share_won"]), "z": _r(z)}
            )
    ranked.sort(key=lambda c: (-abs(c["z"]), c["check"], c["result"]))
    best = [c for k, c in enumerate(ranked) if c["check"] not in {d["check"] for d in ranked[:k]}]
    return best[:top]


def cell_figures(records: list[dict]) -> dict[str, Any]:
    """Every figure of one cell from its records (in game-index order)."""
    n = len(records)
    ends = Counter(r["end"] for r in records)
    completed = [r for r in records if is_completed(r)]
    won = [r for r in records if is_won(r)]
    checks = check_figures(records)
    return {
        "games": n,
        "completed": rate(len(completed), n),
        "completed_with_goals": rate(len(won), n),
        "ends": {e: rate(ends[e], n) for e in ENDS},
        "turns": distribution([r["turns"] for r in records]),
        "turns_completed": distribution([r["turns"] for r in completed]),
        "turns_won": distribution([r["turns"] for r in won]),
        "turns_lost": distribution([r["turns"] for r in records if not is_won(r)]),
        "light_left": distribution([r["light"] for r in records]),
        "light_left_completed": _mean([r["light"] for r in completed]),
        "treasure": {
            "items_found_per_game": _mean([r["items_found"] for r in records]),
            "treasure_per_game": _mean([r["treasure"] for r in records]),
            "gold_per_game": _mean([r["gold"] for r in records]),
            "games_with_treasure": rate(sum(r["treasure"] > 0 for r in records), n),
        },
        "heroes": heroes_figures(records),
        "traits": trait_figures(records),
        "monsters": monster_figures(records),
        "hero_deaths_per_game": _mean([sum(h["died"] for h in r["heroes"]) for r in records]),
        "wounds": wound_figures(records),
        "checks": checks,
        "deciding_checks": deciding_checks(checks, len(won), n - len(won)),
    }


def paired_difference(
    both: int, only_a: int, only_b: int, neither: int, z: float = 1.96
) -> tuple[float, float]:
    """Newcombe's (1998, method 10) interval for ``p_a - p_b`` from paired outcomes: ``both`` pairs
    where a and b succeeded, ``only_a``, ``only_b``, ``neither``."""
    n = both + only_a + only_b + neither
    if n == 0:
        return -1.0, 1.0
    p_a, p_b = (both + only_a) / n, (both + only_b) / n
    l_a, u_a = wilson_interval(both + only_a, n, z)
    l_b, u_b = wilson_interval(both + only_b, n, z)
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    phi = 0.0
    if margins > 0:
        cross = both * neither - only_a * only_b
        corrected = cross - n / 2 if cross > n / 2 else (0.0 if cross >= 0 else cross)
        phi = corrected / math.sqrt(margins)
    d = p_a - p_b
    low = d - math.sqrt(max(0.0, (p_a - l_a) ** 2 - 2 * phi * (p_a - l_a) * (u_b - p_b) + (u_b - p_b) ** 2))
    high = d + math.sqrt(max(0.0, (u_a - p_a) ** 2 - 2 * phi * (u_a - p_a) * (p_b - l_b) + (p_b - l_b) ** 2))
    return max(-1.0, low), min(1.0, high)


def paired_rates(
    pairs: list[tuple[dict, dict]], success, names: tuple[str, str] = ("variant", "base")
) -> dict[str, Any]:
    """One rate (``success(record) -> bool``) under a variant and the base over paired games: both
    rates with Wilson intervals, the difference variant − base with Newcombe's paired interval, and
    the games that succeeded only with the variant and only with the base. ``names`` name the two
    sides of each pair in the keys (``"variant"``, ``"only_variant"``, ...)."""
    table = Counter((success(v), success(b)) for v, b in pairs)
    both, only_v, only_b, neither = (
        table[True, True],
        table[True, False],
        table[False, True],
        table[False, False],
    )
    n = len(pairs)
    low, high = paired_difference(both, only_v, only_b, neither)
    first, second = names
    return {
        first: rate(both + only_v, n),
        second: rate(both + only_b, n),
        "difference": _r((only_v - only_b) / n) if n else 0.0,
        "difference_ci": [_r(low), _r(high)],
        f"only_{first}": only_v,
        f"only_{second}": only_b,
    }


def _paired(a: list[dict], b: list[dict]) -> list[tuple[dict, dict]]:
    """The records of ``a`` and ``b`` with the same game index (the same dice streams), in a's order."""
    by_index = {r["i"]: r for r in b}
    return [(r, by_index[r["i"]]) for r in a if r["i"] in by_index]


def compare(variant: list[dict], base: list[dict]) -> dict[str, Any]:
    """A variant against the base on the game indices both played (the same dice streams)."""
    pairs = _paired(variant, base)

    def mean_diff(get) -> float:
        return _mean([get(v) - get(b) for v, b in pairs])

    return {
        "games": len(pairs),
        "completed_with_goals": paired_rates(pairs, is_won),
        "completed": paired_rates(pairs, is_completed),
        "same_end": sum(v["end"] == b["end"] for v, b in pairs),
        "turns_difference": mean_diff(lambda r: r["turns"]),
        "light_left_difference": mean_diff(lambda r: r["light"]),
        "hero_deaths_difference": mean_diff(lambda r: sum(h["died"] for h in r["heroes"])),
        "damage_difference": mean_diff(lambda r: sum(r["wounds"].values())),
        "patrols_difference": mean_diff(lambda r: r["checks"].get("patrol:appears", 0)),
    }


PAIRING_RATES = {"completed_with_goals": is_won, "truncated": is_truncated}


def compare_pairings(agent: list[dict], reference: list[dict]) -> dict[str, Any]:
    """One pairing of agents (``agent``'s records) against another (``reference``'s) on the game
    indices both played: for each of ``PAIRING_RATES`` (completed with every primary goal met, and
    stopped by the turn cap) both rates and the difference agent − reference with Newcombe's paired
    interval (``paired_rates`` with the names ``agent`` and ``reference``)."""
    pairs = _paired(agent, reference)
    figures: dict[str, Any] = {"games": len(pairs)}
    for key, success in PAIRING_RATES.items():
        figures[key] = paired_rates(pairs, success, ("agent", "reference"))
    return figures


__all__ = [
    "PAIRING_RATES",
    "cell_figures",
    "compare",
    "compare_pairings",
    "deciding_checks",
    "distribution",
    "is_completed",
    "is_truncated",
    "is_won",
    "paired_difference",
    "paired_rates",
    "rate",
    "wound_figures",
]
