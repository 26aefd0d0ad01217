"""The report: every figure as JSON, the same as Markdown tables, and the plots beside them.

``figures(result)`` builds the JSON document (``format: dungeon_env.balance/2``): the experiment,
one entry per cell with all its figures, the variant-against-base comparisons, the pairings of agents
compared game by game (``pairings_compared``, ``difficulty.pairings``) and the sweep curves.
It depends only on the experiment and the games' records, so the same seed gives the same bytes;
how the run went (seconds, games per second, workers, backend) is written to ``timing.json`` apart.
``write(result, out_dir)`` writes ``report.json``, ``report.md``, ``timing.json``, the PNG plots and,
if asked, ``games.jsonl`` (one record per game).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from difficulty import pairings, plots
from difficulty.metrics import MIN_GROUP, cell_figures, compare
from difficulty.record import ENDS
from difficulty.runner import Result
from difficulty.spec import BASE, Pairing
from difficulty.tables import markdown_table as _table
from difficulty.verdict import agent_name, ladder_lines, verdict_lines, wounds_text
from dungeon_env.ending import GAME_ENDINGS

FORMAT = "dungeon_env.balance/2"  # 2: two rates (completed, completed with goals) instead of "win"
RATES = ("completed", "completed_with_goals")
RATE_NAMES = {"completed": "completed", "completed_with_goals": "completed with goals"}
END_NAMES = {  # the tables' column names of each ending: its Ending name in words
    str(e): str(e).replace("_", " ") for e in GAME_ENDINGS
}


def figures(result: Result) -> dict[str, Any]:
    """The JSON report of a run."""
    cells = []
    for cell, records in zip(result.cells, result.records, strict=True):
        cells.append({**cell.key(), "label": cell.label, **cell_figures(records)})
    comparisons = []
    base_of = {c.group: k for k, c in enumerate(result.cells) if c.variant_name == BASE}
    for k, cell in enumerate(result.cells):
        if cell.variant_name != BASE and cell.group in base_of:
            base = base_of[cell.group]
            entry = {**cell.key(), "base": BASE, "label": cell.label}
            comparisons.append(entry | compare(result.records[k], result.records[base]))
    return {
        "format": FORMAT,
        "experiment": result.experiment.to_json(),
        "cells": cells,
        "comparisons": comparisons,
        "pairings_compared": pairings.comparisons(result.cells, result.records),
        "sweep": sweep_curves(result, cells),
        "ladder": ladders(result.experiment.pairings),
    }


def ladders(pairings: tuple[Pairing, ...]) -> list[dict]:
    """Per DM agent met by several hero agents: those hero agents in the experiment's order (with
    ``--ladder``, the order of rising strength it was given in)."""
    by_dm: dict[str, list[str]] = {}
    for pairing in pairings:
        heroes = by_dm.setdefault(pairing.dm.to_json(), [])
        if pairing.heroes.to_json() not in heroes:
            heroes.append(pairing.heroes.to_json())
    return [{"dm_agent": dm, "heroes_agents": heroes} for dm, heroes in by_dm.items() if len(heroes) > 1]


def sweep_curves(result: Result, cells: list[dict]) -> dict | None:
    """For a sweep: per adventure × party × pairing, both rates at each value of the parameter."""
    sweep = result.experiment.sweep
    if not sweep:
        return None
    by_variant = dict(zip(sweep["variants"], sweep["values"], strict=True))
    curves: dict[tuple, dict] = {}
    for cell, fig in zip(result.cells, cells, strict=True):
        if cell.variant_name not in by_variant:
            continue
        curve = curves.setdefault(
            cell.group,
            {k: fig[k] for k in ("adventure", "party", "heroes_agent", "dm_agent")} | {"points": []},
        )
        point = {"value": by_variant[cell.variant_name], "variant": cell.variant_name}
        rates = {k: fig[k] for k in RATES}
        curve["points"].append(point | rates | {"turns_mean": fig["turns"]["mean"]})
    return {"param": sweep["param"], "values": sweep["values"], "curves": list(curves.values())}


# ----------------------------------------------------------------------------------------- markdown
def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(r: dict) -> str:
    return f"[{_pct(r['ci'][0])}, {_pct(r['ci'][1])}]"


def _num(x: Any, digits: int = 2) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def _signed(x: float, digits: int = 2) -> str:
    return f"{x:+.{digits}f}"


def _pairing(c: dict) -> str:
    """``scripted@v2 : scripted@v1``: the agents as a designer reads them (``verdict.agent_name``)."""
    return f"{agent_name(c['heroes_agent'])} : {agent_name(c['dm_agent'])}"


def _variant_text(v: dict) -> str:
    entries = [f"{k}={x}" for k, x in ((v["overrides"] or {}).get("set") or {}).items()]
    if not entries or v["name"] == " ".join(entries):
        return f"`{v['name']}`" if entries else v["name"]
    return f"{v['name']} (`{' '.join(entries)}`)"


def _experiment_lines(report: dict, command: str | None) -> list[str]:
    e = report["experiment"]
    games = (
        f"{e['games']} per cell" if e["games"] else f"until the 95% interval is within ±{_pct(e['until'])}"
    )
    if not e["games"]:
        games += f" (at most {e['max_games']} per cell)"
    variants = ", ".join(_variant_text(v) for v in e["variants"])
    lines = [
        "# Difficulty report",
        "",
        f"- adventures: {', '.join(e['adventures'])}",
        f"- parties: {'; '.join(','.join(p) for p in e['parties'])}",
        f"- agents (heroes : DM): {'; '.join(p.replace(':', ' : ') for p in e['pairings'])}",
        f"- variants: {variants}",
        f"- games: {games}; game *i* of every cell uses seed {e['seed']} + *i* (common random numbers); "
        f"turn cap {e['max_turns']}",
    ]
    if command:
        lines.append(f"- reproduce: `{command}`")
    return lines + [""]


def _win_table(report: dict) -> list[str]:
    """Per cell: both rates with their intervals, how the games ended, hero deaths, turns, Light."""
    rows = [
        [
            c["adventure"],
            ",".join(c["party"]),
            _pairing(c),
            c["variant"],
            c["games"],
            *[x for k in RATES for x in (_pct(c[k]["rate"]), _ci(c[k]))],
            *[_pct(c["ends"][e]["rate"]) for e in ENDS[1:]],
            _num(c["hero_deaths_per_game"]),
            _num(c["turns"]["mean"], 1),
            _num(c["light_left"]["mean"], 1),
        ]
        for c in report["cells"]
    ]
    header = ["adventure", "party", "heroes : DM", "variant", "games"]
    header += ["completed", "95% interval", "completed with goals", "95% interval"]
    header += [END_NAMES[e] for e in ENDS[1:]] + ["hero deaths / game", "turns", "Light left"]
    return _table(header, rows, "llll" + "r" * (len(header) - 4))


def _paired_cells(c: dict) -> list:
    return [
        _pct(c["base"]["rate"]),
        _pct(c["variant"]["rate"]),
        f"{100 * c['difference']:+.1f} pts",
        f"[{100 * c['difference_ci'][0]:+.1f}, {100 * c['difference_ci'][1]:+.1f}]",
        c["only_variant"],
        c["only_base"],
    ]


def _comparison_table(report: dict) -> list[str]:
    rows = [
        [
            c["adventure"],
            ",".join(c["party"]),
            _pairing(c),
            c["variant"],
            c["games"],
            *_paired_cells(c["completed_with_goals"]),
            f"{100 * c['completed']['difference']:+.1f} pts",
            _signed(c["turns_difference"], 1),
            _signed(c["light_left_difference"], 1),
            _signed(c["hero_deaths_difference"]),
            _signed(c["damage_difference"], 1),
            _signed(c["patrols_difference"]),
        ]
        for c in report["comparisons"]
    ]
    header = ["adventure", "party", "heroes : DM", "variant", "games", "base: with goals"]
    header += ["variant: with goals", "difference", "95% interval (paired)", "won only with variant"]
    header += ["won only with base", "Δ completed", "Δ turns", "Δ Light left", "Δ hero deaths"]
    header += ["Δ damage taken", "Δ Patrols"]
    return _table(header, rows, "llll" + "r" * (len(header) - 4))


def _sweep_lines(report: dict) -> list[str]:
    sweep = report["sweep"]
    lines = [f"## Sweep: `{sweep['param']}`", "", "![both rates over the sweep](sweep.png)", ""]
    for curve in sweep["curves"]:
        lines.append(f"{curve['adventure']} · {','.join(curve['party'])} · {_pairing(curve)}")
        lines.append("")
        rows = [
            [
                p["value"],
                p["completed"]["n"],
                *[x for k in RATES for x in (_pct(p[k]["rate"]), _ci(p[k]))],
                _num(p["turns_mean"], 1),
            ]
            for p in curve["points"]
        ]
        header = [sweep["param"], "games", "completed", "95% interval", "completed with goals"]
        lines += _table(header + ["95% interval", "turns"], rows, "rrrlrlr")
    return lines


def _hero_numbers(h: dict) -> list:
    return [
        h["hero_games"],
        _pct(h["death"]["rate"]),
        _ci(h["death"]),
        _num(h["deaths_door_per_game"]),
        _pct(h["deaths_door_games"]["rate"]),
        _num(h["damage_per_game"]),
        _pct(h["escaped"]["rate"]),
    ]


def _cell_lines(c: dict) -> list[str]:
    t, tc, tr = c["turns"], c["turns_completed"], c["treasure"]
    done, won = c["completed"], c["completed_with_goals"]
    lines = [
        f"### {c['label']}",
        "",
        f"{c['games']} games; completed {done['count']} ({_pct(done['rate'])}, 95% {_ci(done)}), with "
        f"every primary goal met {won['count']} ({_pct(won['rate'])}, 95% {_ci(won)}); truncated "
        f"{_pct(c['ends']['truncated']['rate'])}. Turns: mean {_num(t['mean'], 1)}, median "
        f"{_num(t['median'], 0)}, 10-90% {_num(t['p10'], 0)}-{_num(t['p90'], 0)}; in completed games "
        f"mean {_num(tc['mean'], 1)}. Light left: mean "
        f"{_num(c['light_left']['mean'], 1)} (completed games {_num(c['light_left_completed'], 1)}). "
        f"Hero deaths per game {_num(c['hero_deaths_per_game'])}; what hurt the heroes: "
        f"{wounds_text(c['wounds'])}. Items found per game "
        f"{_num(tr['items_found_per_game'])}, treasure cards {_num(tr['treasure_per_game'])} worth "
        f"{_num(tr['gold_per_game'], 1)} gold; games with treasure "
        f"{_pct(tr['games_with_treasure']['rate'])}.",
        "",
    ]
    numbers = ["hero-games", "death rate", "95% interval", "Death's Door visits / game"]
    numbers += ["games at Death's Door", "damage taken / game", "escaped"]
    rows = [[h["hero"], ", ".join(h["traits"]), *_hero_numbers(h)] for h in c["heroes"]]
    lines += _table(["hero", "traits", *numbers], rows, "ll" + "r" * 7)
    lines += _table(["trait", *numbers], [[h["trait"], *_hero_numbers(h)] for h in c["traits"]])
    rows = [
        [
            m["monster"],
            m["spawned"],
            _num(m["spawned_per_game"]),
            m["slain"],
            _pct(m["kill"]["rate"]),
            _ci(m["kill"]),
        ]
        for m in c["monsters"]
    ]
    lines += _table(["monster", "appeared", "per game", "slain", "kill rate", "95% interval"], rows)
    lost = c["games"] - won["count"]
    if not c["deciding_checks"]:
        lines += [
            f"Checks that decided games: not ranked ({won['count']} won, {lost} lost games; "
            f"at least {MIN_GROUP} of each are needed).",
            "",
        ]
    else:
        lines += [
            "Checks that decided games: the share of a check's rolls that gave the result in lost and in "
            "won games (won: completed with every primary goal met; z: how far apart, in standard "
            "errors), and how often it was rolled:",
            "",
        ]
        rows = [
            [
                f"{d['check']}: {d['result']}",
                _pct(d["share_won"]),
                _pct(d["share_lost"]),
                f"{100 * d['difference']:+.1f} pts",
                f"{d['z']:+.1f}",
                _num(d["per_won_game"]),
                _num(d["per_lost_game"]),
            ]
            for d in c["deciding_checks"]
        ]
        header = ["check: result", "share in won games", "share in lost games", "lost - won", "z"]
        header += ["per won game", "per lost game"]
        lines += _table(header, rows)
    rows = [
        [
            f"{k['check']}: {k['result']}",
            k["count"],
            _num(k["per_game"]),
            _pct(k["share"]["rate"]),
            _ci(k["share"]),
        ]
        for k in c["checks"]
    ]
    lines += ["<details><summary>Every check</summary>", ""]
    lines += _table(
        ["check: result", "count", "per game", "share of the check's rolls", "95% interval"], rows
    )
    return lines + ["</details>", ""]


# ------------------------------------------------------------------------- the designer's verdict
# a difficulty band per completion rate: the first whose bound the rate is below
def markdown(report: dict, command: str | None = None, plot_files: list[str] | None = None) -> str:
    """The report as Markdown (the plots are linked by file name, next to it)."""
    plot_files = plot_files or []
    lines = _experiment_lines(report, command)
    lines += verdict_lines(report) + ladder_lines(report)
    lines += ["## Win rates: completed, and completed with goals", ""]
    lines += [
        "*Completed*: every surviving hero left the dungeon, the adventure's goals met or not. "
        "*Completed with goals*: completed with every primary goal met, the heroes' win (a *won* game "
        "below). How the other games ended (their `Ending`): completed without goals (the survivors left "
        "without every primary goal), failed (every hero dead), truncated (the turn cap). Intervals: 95% "
        "Wilson.",
        "",
    ]
    if "winrate.png" in plot_files:
        lines += ["![both rates per cell with 95% intervals](winrate.png)", ""]
    lines += _win_table(report)
    if report["comparisons"]:
        lines += ["## Variants against the base rules", ""]
        lines += [
            "Each variant played the same game indices, with the same dice streams and agent seeds, as "
            "the base rules: the paired interval is for the difference of the rates of completion with "
            "every primary goal met (Newcombe); Δ completed is the difference of completion rates "
            "(its paired interval is in report.json).",
            "",
        ]
        lines += _comparison_table(report)
    lines += pairings.markdown_lines(report)
    if report["sweep"]:
        lines += _sweep_lines(report)
    lines += ["## Cells", ""]
    for name, caption in (("turns.png", "turns to the end"), ("survival.png", "hero survival")):
        if name in plot_files:
            lines += [f"![{caption}]({name})", ""]
    for c in report["cells"]:
        lines += _cell_lines(c)
    return "\n".join(lines).rstrip() + "\n"


# ------------------------------------------------------------------------------------------- files
def timing(result: Result) -> dict[str, Any]:
    e = result.experiment
    return {
        "seconds": round(result.seconds, 3),
        "games_kept": result.games,
        "games_played": result.games_played,
        "games_per_second": round(result.games_played / result.seconds, 2) if result.seconds else None,
        "backend": e.backend,
        "workers": result.workers,
    }


def write(result: Result, out_dir: str | Path, command: str | None = None, records: bool = False) -> dict:
    """Write the report files into ``out_dir``; returns the JSON report."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    report = figures(result)
    (out / "report.json").write_text(json.dumps(report, indent=1) + "\n")
    (out / "timing.json").write_text(json.dumps(timing(result), indent=1) + "\n")
    written = plots.write_all(report, out)
    (out / "report.md").write_text(markdown(report, command, [p.name for p in written]))
    if records:
        with (out / "games.jsonl").open("w") as f:
            for cell, cell_records in zip(result.cells, result.records, strict=True):
                for r in cell_records:
                    f.write(json.dumps({"cell": cell.label, **r}) + "\n")
    return report


__all__ = ["FORMAT", "figures", "ladders", "markdown", "timing", "write"]
