"""The report's opening for a designer: a plain-language verdict per adventure and per variant, a
warning when the hero agents may be too weak for the answer to mean much, and the skill ladder
(several hero agents of rising strength against the same DM, side by side). docs/DIFFICULTY.md
gives the bands and thresholds."""

from __future__ import annotations

import math

from agents.spec import LATEST_SCRIPTED
from difficulty.spec import BASE
from difficulty.tables import markdown_table as _table

BANDS = ((0.10, "very hard"), (0.35, "hard"), (0.65, "fair"), (0.90, "easy"), (math.inf, "very easy"))
WEAK_HEROES = 0.10  # the best hero agent completes less than this: the players may be too weak
SLOW_HEROES = 0.25  # more than this share of a cell's games hit the turn cap: the players may be too slow
LADDER_EXAMPLE = "random,scripted@v1,scripted@v2,search"  # hero agents of rising strength
LADDER_HINT = f"`--ladder {LADDER_EXAMPLE}`"
BEST_HEROES = f"scripted@{LATEST_SCRIPTED}"  # the strongest heroes shipped: what plain `scripted` plays
_AGENT_NAMES = {
    "scripted_heroes": "scripted",
    "scripted_dm": "scripted",
    "runaway_dm": "runaway",
}


def band(completion: float) -> str:
    """The one-word difficulty of an adventure completed at this rate (``BANDS``)."""
    return next(name for bound, name in BANDS if completion < bound)


def agent_name(spec: str) -> str:
    """An agent spec as a designer reads it: ``scripted_heroes@v2`` → ``scripted@v2``."""
    for name, short in _AGENT_NAMES.items():
        if spec == name or spec.startswith((f"{name}@", f"{name}[")):
            return short + spec[len(name) :]
    return spec


def below_best(spec: str) -> str | None:
    """Why the heroes' agent ``spec`` (a report's agent text) plays below the best heroes shipped
    (``BEST_HEROES``), in words; None for the latest scripted version and for search (which builds on
    the scripted play; docs/AGENTS.md)."""
    name = agent_name(spec)
    head = name.split("[")[0]
    if head.startswith("scripted@") and head != BEST_HEROES:
        return f"{head} is an older version of the scripted heroes"
    if head == "random":
        return "random heroes play random legal actions: a floor, not players"
    if head == "idle":
        return "idle heroes do nothing they can help: a floor, not players"
    if head.startswith("pool:"):
        return "a pool of checkpoints of your own is not measured against the scripted heroes"
    if head.startswith("policy:") or head.endswith(".zip") or "/" in head:
        return "a checkpoint of your own is not measured against the scripted heroes"
    return None


def _plain_pct(x: float) -> str:
    return f"{100 * x:.1f}%" if 0 < x < 0.01 else f"{100 * x:.0f}%"


def _points(x: float) -> str:
    return f"{100 * x:.1f}" if abs(x) < 0.01 else f"{100 * x:.0f}"


def _who(report: dict, c: dict, heroes_agent: bool = True) -> str:
    """``3 heroes, scripted heroes against the scripted DM`` (hero ids too when two parties have the
    same size)."""
    sizes = [len(p) for p in report["experiment"]["parties"]]
    party = f"{len(c['party'])} heroes"
    if len(set(sizes)) < len(sizes):
        party += f": {', '.join(c['party'])}"
    dm = f"against the {agent_name(c['dm_agent'])} DM"
    return f"{party}, {agent_name(c['heroes_agent'])} heroes {dm}" if heroes_agent else f"{party}, {dm}"


def _reference_cells(report: dict) -> list[dict]:
    """The cells the verdict speaks of: the base rules, or every cell when there are none."""
    base = [c for c in report["cells"] if c["variant"] == BASE]
    return base or report["cells"]


def _adventure_line(report: dict, c: dict, tried: int = 1) -> str:
    """One adventure's verdict, of the hero agent ``c`` played; ``tried`` > 1: the strongest of that
    many hero agents against the same DM (the others are in the skill ladder)."""
    done, won = c["completed"], c["completed_with_goals"]
    rules = "" if c["variant"] == BASE else f", rules: {c['variant']}"
    goals = ""
    if won["count"] != done["count"]:
        goals = f", with every primary goal met {_plain_pct(won['rate'])}"
    who = _who(report, c)
    if tried > 1:
        who += f"; the strongest of the {tried} hero agents played, the others are in the skill ladder"
    return (
        f"- **{c['adventure']}** ({who}{rules}): the heroes complete it "
        f"{_plain_pct(done['rate'])} of the time (between {_plain_pct(done['ci'][0])} and "
        f"{_plain_pct(done['ci'][1])}){goals}: **{band(done['rate'])}**."
    )


def effect(comparison: dict) -> str:
    """A variant's effect on the completion rate in words: ``harder by 8 to 15 points``, ``easier by
    3 to 9 points``, or ``no detectable effect at this sample size`` when the 95% interval of the
    paired difference (variant - base) holds 0."""
    low, high = comparison["completed"]["difference_ci"]
    if low <= 0 <= high:
        return "no detectable effect at this sample size"
    if high < 0:
        return f"harder by {_points(-high)} to {_points(-low)} points"
    return f"easier by {_points(low)} to {_points(high)} points"


def _variant_line(report: dict, c: dict) -> str:
    d = c["completed"]
    rates = f"completed {_plain_pct(d['base']['rate'])} of the time with the base rules, "
    rates += f"{_plain_pct(d['variant']['rate'])} with this variant"
    return f"- **{c['variant']}** on {c['adventure']} ({_who(report, c)}): {effect(c)} ({rates})."


def _rung_groups(cells: list[dict]) -> list[list[dict]]:
    """The cells per adventure × party × DM agent × variant: the hero agents tried against one DM."""
    groups: dict[tuple, list[dict]] = {}
    for c in cells:
        groups.setdefault((c["adventure"], tuple(c["party"]), c["dm_agent"], c["variant"]), []).append(c)
    return list(groups.values())


def _strongest_rungs(cells: list[dict]) -> list[tuple[dict, int]]:
    """Per adventure × party × DM agent × variant: the hero agent that completed it most often (on a
    skill ladder, normally its top rung) and how many hero agents were tried."""
    return [(max(group, key=lambda c: c["completed"]["rate"]), len(group)) for group in _rung_groups(cells)]


def _player_warnings(report: dict, cells: list[dict]) -> list[str]:
    """Where even the strongest hero agent rarely completes the adventure (``WEAK_HEROES``) or often
    runs into the turn cap (``SLOW_HEROES``), or where every hero agent tried plays below the best
    heroes shipped (``below_best``): the verdict may say more about the players."""
    lines = []
    for group in _rung_groups(cells):
        best, tried = max(group, key=lambda c: c["completed"]["rate"]), len(group)
        done, truncated = best["completed"]["rate"], best["ends"]["truncated"]["rate"]
        cap = report["experiment"]["max_turns"]
        weaker = below_best(best["heroes_agent"])
        below = all(below_best(c["heroes_agent"]) is not None for c in group)
        problems = [
            (f"completes it only {_plain_pct(done)} of the time", "too weak", done < WEAK_HEROES),
            (
                f"leaves {_plain_pct(truncated)} of its games unfinished at the turn cap ({cap} turns)",
                "too slow",
                truncated > SLOW_HEROES,
            ),
            (f"plays below the best heroes shipped ({weaker})", "too weak", below),
        ]
        problems = [(what, word) for what, word, found in problems if found]
        if not problems:
            continue
        who = "hero agent" if tried == 1 else f"of the {tried} hero agents"
        if below:
            stronger = (
                f"the `scripted` heroes ({BEST_HEROES}, the strongest shipped), or a skill ladder "
                f"({LADDER_HINT}),"
            )
        elif tried > 1:
            stronger = "a stronger hero agent"
        else:
            stronger = f"stronger hero agents on the skill ladder ({LADDER_HINT})"
        words = " or ".join(dict.fromkeys(w for _, w in problems))
        lines.append(
            f"- **Warning: {best['adventure']}** ({_who(report, best, heroes_agent=False)}): the best {who} "
            f"tried ({agent_name(best['heroes_agent'])} heroes) {' and '.join(w for w, _ in problems)}. "
            f"The heroes' players may be {words} for this verdict to mean much: check {stronger} before "
            "concluding that the adventure is too hard."
        )
    return lines


WOUND_NAMES = {
    "guard": "Guards",
    "patrol": "Patrols",
    "ambush": "Ambushers",
    "event": "room events",
    "trap": "traps",
    "other": "other sources",
}


def wounds_text(wounds: dict) -> str:
    """Where the damage the heroes took came from (a cell's ``wounds`` figures), most first:
    ``Patrols 66% (8.5 Patrols a game), Ambushers 15%, Guards 14%, traps 5% of 34.6 damage a game``."""
    if not wounds["damage_per_game"]:
        return "the heroes took no damage"
    parts = []
    for s in wounds["sources"]:
        if s["share"] > 0:
            text = f"{WOUND_NAMES[s['source']]} {_plain_pct(s['share'])}"
            if s["source"] == "patrol":
                text += f" ({wounds['patrols_per_game']:.1f} Patrols a game)"
            parts.append(text)
    return f"{', '.join(parts)} of {wounds['damage_per_game']:.1f} damage a game"


def wounds_line(report: dict, c: dict) -> str:
    """Where the damage the heroes took in cell ``c`` came from, as a line of the verdict."""
    return f"- **{c['adventure']}** ({_who(report, c)}): {wounds_text(c['wounds'])}."


def wounds_lines(report: dict, cells: list[dict]) -> list[str]:
    """The section saying what hurts the heroes on each adventure (the verdict's cells)."""
    lines = [
        "What hurts the heroes: each source's share of the damage the heroes take (Guards, Patrols "
        "and Ambushers by how the monster came; room events; traps). A Patrol may appear at every "
        "turn's start for each corridor that held a hero at the turn's end (R-MON-04).",
        "",
    ]
    return lines + [wounds_line(report, best) for best, _ in _strongest_rungs(cells)] + [""]


def _light_out(c: dict) -> float:
    """The share of a cell's games that ended with the party's Light at 0."""
    histogram = dict(c["light_left"]["histogram"])
    return histogram.get(0, 0) / c["games"] if c["games"] else 0.0


def cost_line(report: dict, c: dict) -> str:
    """What the games of cell ``c`` cost the heroes, as a designer wants it first: deaths, each hero's
    death rate (highest first), the Light at the end, games cut by the turn cap."""
    rules = "" if c["variant"] == BASE else f", rules: {c['variant']}"
    heroes = sorted(c["heroes"], key=lambda h: -h["death"]["rate"])
    each = ", ".join(f"{h['hero']} {_plain_pct(h['death']['rate'])}" for h in heroes)
    parts = [
        f"{c['hero_deaths_per_game']:.1f} hero deaths a game (each hero dies in: {each} of games)",
        f"the Light is out when {_plain_pct(_light_out(c))} of games end",
        f"games last {c['turns']['mean']:.0f} turns on average",
    ]
    truncated = c["ends"]["truncated"]["rate"]
    if truncated:
        parts.append(
            f"{_plain_pct(truncated)} stop at the turn cap ({report['experiment']['max_turns']} turns)"
        )
    return f"- **{c['adventure']}** ({_who(report, c)}{rules}): {'; '.join(parts)}."


def cost_lines(report: dict) -> list[str]:
    """The section saying what each adventure (and variant) costs the heroes: deaths, Light, turns."""
    lines = [
        "What it costs the heroes: deaths (each hero's share of games in which it dies), the Light, turns.",
        "",
    ]
    return lines + [cost_line(report, best) for best, _ in _strongest_rungs(report["cells"])] + [""]


def verdict_lines(report: dict) -> list[str]:
    """The verdict for a designer, in plain words: how often the heroes complete each adventure and
    how hard that makes it, what each variant does to it, and whether the hero agents were good
    enough for the answer to mean much."""
    cells = _reference_cells(report)
    lines = ["## Verdict", ""]
    lines += [
        "How often the heroes complete each adventure (every surviving hero leaves the dungeon); the "
        "range in brackets is where the true rate lies, 19 times out of 20, given the games played. "
        f"Difficulty: {', '.join(_band_text())}.",
        "",
    ]
    lines += [_adventure_line(report, best, tried) for best, tried in _strongest_rungs(cells)] + [""]
    lines += cost_lines(report)
    lines += wounds_lines(report, cells)
    if report["comparisons"]:
        lines += [
            "Each variant against the base rules, on the same games: the change of the completion "
            "rate, in percentage points, as a range that holds the true change 19 times out of 20.",
            "",
        ]
        lines += [_variant_line(report, c) for c in report["comparisons"]] + [""]
    warnings = _player_warnings(report, cells)
    return lines + (warnings + [""] if warnings else [])


def _band_text() -> list[str]:
    texts, low = [], 0.0
    for bound, name in BANDS:
        texts.append(f"{name} below {_plain_pct(bound)}" if low == 0 else f"{name} from {_plain_pct(low)}")
        if bound < math.inf and low > 0:
            texts[-1] += f" to {_plain_pct(bound)}"
        low = bound
    return texts


def _rung(c: dict | None) -> str:
    if c is None:
        return "–"
    done = c["completed"]
    text = f"{_plain_pct(done['rate'])} ({_plain_pct(done['ci'][0])}–{_plain_pct(done['ci'][1])})"
    truncated = c["ends"]["truncated"]["rate"]
    return text + (f", {_plain_pct(truncated)} at the turn cap" if truncated > SLOW_HEROES else "")


def ladder_lines(report: dict) -> list[str]:
    """Per ladder (hero agents against one DM agent): one row per adventure × party × variant, the
    completion rate of each hero agent in the ladder's order."""
    lines = []
    for ladder in report.get("ladder") or []:
        agents = ladder["heroes_agents"]
        rows: dict[tuple, dict[str, dict]] = {}
        for c in report["cells"]:
            if c["dm_agent"] == ladder["dm_agent"] and c["heroes_agent"] in agents:
                key = (c["adventure"], ",".join(c["party"]), c["variant"])
                rows.setdefault(key, {})[c["heroes_agent"]] = c
        lines += [f"## Skill ladder: hero agents against the {agent_name(ladder['dm_agent'])} DM", ""]
        lines += [
            "How often each hero agent completes the adventure, from the weakest to the strongest as "
            "given (range: 19 times out of 20). An adventure that only the weak agents fail is not too "
            "hard; one that the strongest agent fails too may be.",
            "",
        ]
        header = ["adventure", "party", "rules", *[f"{agent_name(h)} heroes" for h in agents]]
        table = [[*key, *[_rung(cells.get(h)) for h in agents]] for key, cells in rows.items()]
        lines += _table(header, table, "lll" + "r" * len(agents))
    return lines


__all__ = [
    "BANDS",
    "BEST_HEROES",
    "LADDER_EXAMPLE",
    "LADDER_HINT",
    "SLOW_HEROES",
    "WEAK_HEROES",
    "band",
    "below_best",
    "cost_line",
    "effect",
    "ladder_lines",
    "verdict_lines",
    "wounds_line",
    "wounds_text",
]
