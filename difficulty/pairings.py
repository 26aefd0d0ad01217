"""Pairings of agents compared game by game: which of two hero agents (against the same DM agent), or
which of two DM agents (against the same hero agent), does better on the very same games.

Every pairing of an experiment plays the same game indices (game ``i`` with seed ``seed + i``, both
agents reseeded from it), so two pairings that share one side's agent differ only by the other side's
agent: the difference of their rates is measured on paired games, with Newcombe's paired interval
(``metrics.compare_pairings``), as a variant is measured against the base rules. ``comparisons(cells,
records)`` builds one entry per two such pairings on the same adventure, party and rules: the later
pairing in the experiment's order (``agent``) against the earlier one (``reference``), so with
``--pairing scripted@v1:scripted@v1 --pairing scripted@v2:scripted@v1`` the difference is v2 − v1, and
on a ``--ladder`` each rung against the rungs below it. With several parties, each comparison is also
made over all of them together (party ``all``, ``pooled``). Two figures: the rate of games completed with
every primary goal met, and of games stopped by the turn cap.
"""

from __future__ import annotations

from typing import Any

from difficulty.metrics import compare_pairings
from difficulty.spec import Cell
from difficulty.tables import markdown_table
from difficulty.verdict import agent_name

SIDE_NAMES = {"heroes": "heroes", "dm": "DM"}
FIGURES = {"completed_with_goals": "completed with goals", "truncated": "at the turn cap"}


def _compared(a: Cell, b: Cell) -> str | None:
    """The side whose agents differ between the two cells' pairings (the other side's agent is the
    same), or None when both or neither differ."""
    same_heroes = a.pairing.heroes.to_json() == b.pairing.heroes.to_json()
    same_dm = a.pairing.dm.to_json() == b.pairing.dm.to_json()
    if same_heroes == same_dm:
        return None
    return "dm" if same_heroes else "heroes"


def comparisons(cells: list[Cell], records: list[list[dict]]) -> list[dict[str, Any]]:
    """Per adventure × party × variant, per two pairings sharing one side's agent: the later pairing
    against the earlier on the games both played (see the module docstring)."""
    groups: dict[tuple, list[int]] = {}
    for k, cell in enumerate(cells):
        groups.setdefault((cell.adventure, cell.party, cell.variant_name), []).append(k)
    out = []
    for indices in groups.values():
        for n, j in enumerate(indices):
            for k in indices[n + 1 :]:
                side = _compared(cells[j], cells[k])
                if side is not None:
                    out.append(_entry(cells[k], cells[j], side, records[k], records[j]))
    return out + pooled(cells, records, out)


def pooled(cells: list[Cell], records: list[list[dict]], entries: list[dict]) -> list[dict[str, Any]]:
    """Per adventure × variant played with several parties: each comparison of ``entries`` over the
    games of every party together (party ``"all"``): the pairs stay within their party, so the
    interval is still a paired one."""
    by_key: dict[tuple, list[int]] = {}
    for k, cell in enumerate(cells):
        key = (cell.adventure, cell.variant_name, cell.pairing.heroes.to_json(), cell.pairing.dm.to_json())
        by_key.setdefault(key, []).append(k)
    done, out = set(), []
    for e in entries:
        key = (e["adventure"], e["variant"], e["compared"], e["agent"], e["reference"], e["shared"])
        if key in done:
            continue
        done.add(key)
        agent_cells = _cells_of(by_key, e, e["agent"])
        reference_cells = _cells_of(by_key, e, e["reference"])
        if len(agent_cells) < 2 or len(agent_cells) != len(reference_cells):
            continue
        mine = [{**r, "i": (k, r["i"])} for k, c in enumerate(agent_cells) for r in records[c]]
        theirs = [{**r, "i": (k, r["i"])} for k, c in enumerate(reference_cells) for r in records[c]]
        out.append({**e, "party": ["all"], **compare_pairings(mine, theirs)})
    return out


def _cells_of(by_key: dict, entry: dict, agent: str) -> list[int]:
    """The cells (one per party, in the experiment's order) of ``entry``'s comparison where the
    compared side plays ``agent``."""
    heroes, dm = (agent, entry["shared"]) if entry["compared"] == "heroes" else (entry["shared"], agent)
    return by_key.get((entry["adventure"], entry["variant"], heroes, dm), [])


def _entry(agent: Cell, reference: Cell, side: str, agent_records: list, reference_records: list) -> dict:
    other = "dm" if side == "heroes" else "heroes"
    spec = {"heroes": agent.pairing.heroes, "dm": agent.pairing.dm}
    ref = {"heroes": reference.pairing.heroes, "dm": reference.pairing.dm}
    return {
        "adventure": agent.adventure,
        "party": list(agent.party),
        "variant": agent.variant_name,
        "compared": side,
        "agent": spec[side].to_json(),
        "reference": ref[side].to_json(),
        "shared": spec[other].to_json(),
        "label": label(side, spec[side].to_json(), ref[side].to_json(), spec[other].to_json()),
        **compare_pairings(agent_records, reference_records),
    }


def label(side: str, agent: str, reference: str, shared: str) -> str:
    """``scripted@v2 heroes against scripted@v1 heroes (the scripted@v1 DM)``."""
    name, other = SIDE_NAMES[side], SIDE_NAMES["dm" if side == "heroes" else "heroes"]
    shared_text = f"the {agent_name(shared)} {other}"
    return f"{agent_name(agent)} {name} against {agent_name(reference)} {name} ({shared_text})"


def _points(d: dict) -> str:
    low, high = d["difference_ci"]
    return f"{100 * d['difference']:+.1f} pts (paired 95% [{100 * low:+.1f}, {100 * high:+.1f}])"


def summary_lines(report: dict) -> list[str]:
    """One line per comparison, for the console summary."""
    lines = []
    for c in report.get("pairings_compared") or []:
        where = f"{c['adventure']}, {','.join(c['party'])}, {c['variant']}"
        parts = [f"{name} {_points(c[key])}" for key, name in FIGURES.items()]
        lines.append(f"{c['label']} on {where}: " + "; ".join(parts))
    return lines


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def markdown_lines(report: dict) -> list[str]:
    """The report's section comparing pairings game by game (none without such pairings)."""
    entries = report.get("pairings_compared") or []
    if not entries:
        return []
    lines = [
        "## Agents compared on the same games",
        "",
        "Every pairing played the same game indices, with the same dice streams and agent seeds. Two "
        "pairings that share one side's agent are compared game by game: the later pairing given "
        "(*agent*) against the earlier (*reference*), the difference agent − reference in percentage "
        "points with its paired 95% interval (Newcombe), for the games completed with every primary "
        "goal met and for the games stopped by the turn cap.",
        "",
    ]
    rows = []
    for c in entries:
        cells = []
        for key in FIGURES:
            d = c[key]
            low, high = d["difference_ci"]
            cells += [
                _pct(d["reference"]["rate"]),
                _pct(d["agent"]["rate"]),
                f"{100 * d['difference']:+.1f} pts",
                f"[{100 * low:+.1f}, {100 * high:+.1f}]",
            ]
        rows.append([c["adventure"], ",".join(c["party"]), c["variant"], c["label"], c["games"], *cells])
    header = ["adventure", "party", "variant", "agent against reference", "games"]
    for name in FIGURES.values():
        header += [f"reference: {name}", f"agent: {name}", "difference", "95% interval (paired)"]
    return lines + markdown_table(header, rows, "llll" + "r" * (len(header) - 4))


__all__ = ["FIGURES", "comparisons", "label", "markdown_lines", "pooled", "summary_lines"]
