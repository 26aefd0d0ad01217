"""``dungeon-env league``: a round robin of hero agents against DM agents, a win-rate matrix and ratings.

    dungeon-env league --heroes-agents random,scripted@v1,scripted --dm-agents random,scripted@v1,scripted \\
        --adventure all --games 200 --out reports/league

Every hero agent plays every DM agent on every adventure (one cell each), through the difficulty
runner (``difficulty.runner.run``: its backends and its seeds). Game ``i`` of every cell is played
with seed ``seed + i``, so the cells are compared with common random numbers. ``--out`` receives:

- ``league.json``: every cell (heroes' agent, DM's agent, adventure, games, the completed and the
  truncated counts with rates and 95% Wilson intervals), the matrix pooled over the adventures, and
  the ratings;
- ``league.md``: the heroes' completion rate as a matrix (rows hero agents, columns DM agents),
  pooled over the adventures and per adventure, then the ratings;
- ``league.png``: a heatmap of the pooled matrix.

Ratings (``fit_ratings``): a logistic (Bradley–Terry) model over every cell, P(the heroes complete) =
sigmoid(r_hero - r_dm + b_adventure), fitted to the counts by statsmodels (a binomial GLM with a ridge
penalty: the maximum a posteriori fit under a small Gaussian prior, ``PRIOR``), reported on the Elo
scale (400 / ln 10 points per logit), each side centred on 0.
A higher rating is a stronger agent on either side. See docs/LEAGUE.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from agents.spec import AgentSpec, AgentSpecError, parse_spec
from difficulty.console import play_experiment, whole_number
from difficulty.metrics import is_completed, rate
from difficulty.spec import BACKENDS, Experiment, Pairing, SpecError

DEFAULT_AGENTS = "random,scripted@v1,scripted"
ELO = 400 / math.log(10)  # Elo points per logit: 400 points = odds times 10
TOLERANCE = 1e-4  # logits (0.02 Elo) the fit may be from the optimum: the figures are rounded to 0.1 Elo
PRIOR = 0.1  # precision of the Gaussian prior on every parameter (sd ~3.2 logits, ~1370 Elo)
SHORT_NAMES = {"runaway_dm": "runaway"}  # the scripted agents' labels are short already: scripted@v2
SIDE_FLAGS = {"heroes": "--heroes-agents", "dm": "--dm-agents"}


# ------------------------------------------------------------------------------------------ arguments
def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the ``league`` sub-command to ``commands`` (an argparse sub-parsers object)."""
    parser = commands.add_parser(
        "league",
        help="a round robin of hero agents against DM agents: win-rate matrix, ratings, heatmap",
        description="Every hero agent plays every DM agent on every adventure (game i of every cell "
        "with seed SEED+i); writes league.json, league.md and league.png. See docs/LEAGUE.md.",
    )
    agents = "comma-separated agent specs (agents.spec): random, scripted (the latest, scripted@v2), "
    agents += "scripted@v1, search[iterations=8], policy:FILE.zip, "
    parser.add_argument(
        "--heroes-agents", default=DEFAULT_AGENTS, metavar="A,B,..", help=agents + f"({DEFAULT_AGENTS})"
    )
    parser.add_argument(
        "--dm-agents", default=DEFAULT_AGENTS, metavar="A,B,..", help=agents + f"runaway ({DEFAULT_AGENTS})"
    )
    parser.add_argument(
        "--adventure", action="append", metavar="NAME", help="repeatable, or 'all' (default: all)"
    )
    parser.add_argument("--heroes", default="3", metavar="N|IDS", help="the party: 3-5 or hero ids (3)")
    parser.add_argument("--games", type=whole_number(1, "games"), default=200, help="games per cell (200)")
    parser.add_argument(
        "--seed",
        type=whole_number(0),
        default=0,
        help="game i of every cell uses seed SEED + i, 0 or more (0)",
    )
    parser.add_argument(
        "--max-turns", type=whole_number(1, "turns"), default=100, help="turn cap of a game (default: 100)"
    )
    parser.add_argument(  # default 0: the experiment's "all cores"; the option itself takes 1 or more
        "--workers",
        type=whole_number(1, "processes"),
        default=0,
        help="worker processes (default: all cores)",
    )
    parser.add_argument("--backend", choices=BACKENDS, default="local", help="local, ray or serial")
    parser.add_argument("--ray-address", default=None, help="Ray cluster to join (default: a local one)")
    parser.add_argument("--out", default="reports/league", help="output directory (reports/league)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar and no summary")
    return parser


def split_specs(text: str) -> list[str]:
    """``"random,search@v1[rollouts=8,depth=50]"`` -> ``["random", "search@v1[rollouts=8,depth=50]"]``: the
    commas outside brackets separate the specs."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if char == "," and depth <= 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def agents_of(text: str, side: str) -> tuple[AgentSpec, ...]:
    """The distinct agents a comma-separated list names for ``side``; a bad spec raises
    :class:`SpecError` naming it and the option it came from."""
    specs: dict[str, AgentSpec] = {}
    for item in split_specs(text):
        try:
            spec = parse_spec(item, side)
        except AgentSpecError as error:
            raise SpecError(f"{SIDE_FLAGS[side]}: {error}") from None
        specs.setdefault(spec.to_json(), spec)
    if not specs:
        raise SpecError(f"{SIDE_FLAGS[side]}: no agent given")
    return tuple(specs.values())


def experiment_of(args: argparse.Namespace) -> Experiment:
    """The round robin the arguments describe: every hero agent against every DM agent."""
    heroes, dms = agents_of(args.heroes_agents, "heroes"), agents_of(args.dm_agents, "dm")
    return Experiment(
        adventures=tuple(args.adventure or ("all",)),
        parties=(args.heroes,),
        pairings=tuple(Pairing(h, d) for h in heroes for d in dms),
        games=args.games,
        seed=args.seed,
        max_turns=args.max_turns,
        workers=args.workers,
        backend=args.backend,
        ray_address=args.ray_address,
    )


# -------------------------------------------------------------------------------------------- ratings
@dataclasses.dataclass(frozen=True)
class Ratings:
    """A fitted league in logits: each side's ratings centred on 0 (with standard errors) and the
    adventures' offsets, so that logit P(complete) = heroes[h] - dm[d] + adventures[a]."""

    heroes: np.ndarray
    dm: np.ndarray
    adventures: np.ndarray
    heroes_se: np.ndarray
    dm_se: np.ndarray


def _design(hero: np.ndarray, dm: np.ndarray, adventure: np.ndarray, shape: tuple[int, int, int]):
    """One row per cell over the parameters [heroes | DMs | adventures]: +1, -1, +1."""
    n_h, n_d, n_a = shape
    x = np.zeros((len(hero), n_h + n_d + n_a))
    rows = np.arange(len(hero))
    x[rows, hero] = 1.0
    x[rows, n_h + dm] = -1.0
    x[rows, n_h + n_d + adventure] = 1.0
    return x


def _centring(shape: tuple[int, int, int]) -> np.ndarray:
    """The linear map to centred parameters: h - mean(h), d - mean(d), b + mean(h) - mean(d)
    (the predictions do not change)."""
    n_h, n_d, n_a = shape
    m = np.eye(n_h + n_d + n_a)
    m[:n_h, :n_h] -= 1.0 / n_h
    m[n_h : n_h + n_d, n_h : n_h + n_d] -= 1.0 / n_d
    m[n_h + n_d :, :n_h] += 1.0 / n_h
    m[n_h + n_d :, n_h : n_h + n_d] -= 1.0 / n_d
    return m


SOLVER = "statsmodels GLM, binomial family (logit link), ridge penalty (fit_regularized, L1_wt=0), Newton-CG"


def fit_ratings(
    hero: Any,
    dm: Any,
    adventure: Any,
    wins: Any,
    games: Any,
    shape: tuple[int, int, int] | None = None,
    prior: float = PRIOR,
) -> Ratings:
    """Maximum a posteriori ratings from per-cell counts (arrays of equal length: the cell's hero
    agent, DM agent and adventure indices, the heroes' wins and the games). ``shape``: the numbers of
    hero agents, DM agents and adventures (default: one more than the largest index). The prior,
    N(0, 1/prior) on every parameter, makes the model identifiable and keeps 0% or 100% cells finite.

    statsmodels fits it: a binomial GLM (logit link) on the +1/-1/+1 design whose ridge penalty
    ``alpha * |theta|^2 / 2`` per cell (statsmodels divides the log-likelihood by the cells) is the
    prior's ``prior * |theta|^2 / 2``. The standard errors come from the posterior's information,
    statsmodels' Hessian of the log-likelihood plus the prior's precision, mapped to the centred
    parameters. A fit that one more Newton step would move by over ``TOLERANCE`` warns
    (``ConvergenceWarning``)."""
    import statsmodels.api as sm
    from statsmodels.tools.sm_exceptions import ConvergenceWarning

    hero, dm, adventure = (np.asarray(v, dtype=int) for v in (hero, dm, adventure))
    wins, games = np.asarray(wins, dtype=float), np.asarray(games, dtype=float)
    shape = shape or (int(hero.max()) + 1, int(dm.max()) + 1, int(adventure.max()) + 1)
    played = games > 0  # a cell of no games says nothing (and a binomial GLM cannot take it)
    x = _design(hero[played], dm[played], adventure[played], shape)
    model = sm.GLM(
        np.column_stack([wins[played], games[played] - wins[played]]), x, family=sm.families.Binomial()
    )
    with warnings.catch_warnings():
        # Newton-CG's finite-difference Hessian products misjudge the directions only the prior
        # holds and it may report a failure at the optimum: the distance left is checked below
        warnings.simplefilter("ignore", ConvergenceWarning)
        fit = model.fit_regularized(alpha=prior / model.nobs, L1_wt=0.0, opt_method="newton-cg")
    theta = np.asarray(fit.params)
    information = -model.hessian(theta) + prior * np.eye(len(theta))
    left = np.linalg.solve(information, model.score(theta) - prior * theta)  # a Newton step more
    if np.max(np.abs(left)) > TOLERANCE:
        warnings.warn(
            f"the rating fit stopped {np.max(np.abs(left)) * ELO:.3g} Elo from the optimum",
            ConvergenceWarning,
            stacklevel=2,
        )
    m = _centring(shape)
    centred, covariance = m @ theta, m @ np.linalg.inv(information) @ m.T
    se = np.sqrt(np.clip(np.diag(covariance), 0.0, None))
    n_h, n_d, _ = shape
    h, d = slice(0, n_h), slice(n_h, n_h + n_d)
    return Ratings(centred[h], centred[d], centred[n_h + n_d :], se[h], se[d])


# --------------------------------------------------------------------------------------------- league
def _label(spec: AgentSpec) -> str:
    """A spec's label, the bundled agents by their short names (``scripted@v2``, ``runaway``)."""
    short = SHORT_NAMES.get(spec.name) if spec.path is None else None
    return spec.label if short is None else short + spec.label[len(spec.name) :]


def _labels(specs: tuple[AgentSpec, ...]) -> list[str]:
    """Short labels for tables, the full spec where two agents would share one."""
    labels = [_label(s) for s in specs]
    return labels if len(set(labels)) == len(labels) else [s.to_json() for s in specs]


def _figures(records: list[dict]) -> dict[str, Any]:
    n = len(records)
    truncated = sum(r["outcome"] == "truncated" for r in records)
    return {
        "games": n,
        "completed": rate(sum(map(is_completed, records)), n),
        "truncated": rate(truncated, n),
    }


def _pooled(cells: list[dict], hero: str, dm: str) -> dict[str, Any]:
    mine = [c for c in cells if c["heroes_agent"] == hero and c["dm_agent"] == dm]
    n = sum(c["games"] for c in mine)
    counts = {k: sum(c[k]["count"] for c in mine) for k in ("completed", "truncated")}
    return {"heroes_agent": hero, "dm_agent": dm, "games": n, **{k: rate(v, n) for k, v in counts.items()}}


def _rating_rows(names: list[str], ratings: np.ndarray, se: np.ndarray) -> list[dict]:
    return [
        {"agent": name, "rating": round(float(r * ELO), 1), "se": round(float(s * ELO), 1)}
        for name, r, s in zip(names, ratings, se, strict=True)
    ]


def _ratings(cells: list[dict], heroes: list[str], dms: list[str], adventures: list[str]) -> dict:
    fit = fit_ratings(
        [heroes.index(c["heroes_agent"]) for c in cells],
        [dms.index(c["dm_agent"]) for c in cells],
        [adventures.index(c["adventure"]) for c in cells],
        [c["completed"]["count"] for c in cells],
        [c["games"] for c in cells],
        shape=(len(heroes), len(dms), len(adventures)),
    )
    offsets = [
        {"adventure": a, "offset": round(float(b * ELO), 1)}
        for a, b in zip(adventures, fit.adventures, strict=True)
    ]
    return {
        "model": "logit P(heroes complete) = (r_hero - r_dm + b_adventure) / (400 / ln 10)",
        "scale": "Elo: 400 points = 10 times the odds of completion",
        "centring": "each side's ratings have mean 0",
        "prior_precision": PRIOR,
        "solver": SOLVER,
        "heroes": _rating_rows(heroes, fit.heroes, fit.heroes_se),
        "dm": _rating_rows(dms, fit.dm, fit.dm_se),
        "adventures": offsets,
    }


def _agents(specs: list[AgentSpec]) -> tuple[AgentSpec, ...]:
    return tuple({s.to_json(): s for s in specs}.values())


def league_of(result: Any) -> dict[str, Any]:
    """The league's figures (what league.json holds) from a :class:`difficulty.runner.Result` of an
    experiment made by :func:`experiment_of`."""
    experiment = result.experiment
    heroes = _agents([p.heroes for p in experiment.pairings])
    dms = _agents([p.dm for p in experiment.pairings])
    hero_names, dm_names = _labels(heroes), _labels(dms)
    name = dict(zip((s.to_json() for s in heroes), hero_names, strict=True))
    dm_name = dict(zip((s.to_json() for s in dms), dm_names, strict=True))
    cells = [
        {
            "heroes_agent": name[cell.pairing.heroes.to_json()],
            "dm_agent": dm_name[cell.pairing.dm.to_json()],
            "adventure": cell.adventure,
            **_figures(records),
        }
        for cell, records in zip(result.cells, result.records, strict=True)
    ]
    adventures = list(experiment.adventures)
    return {
        "experiment": experiment.to_json(),
        "heroes_agents": [{"agent": n, "spec": s.to_json()} for n, s in zip(hero_names, heroes, strict=True)],
        "dm_agents": [{"agent": n, "spec": s.to_json()} for n, s in zip(dm_names, dms, strict=True)],
        "adventures": adventures,
        "party": list(experiment.parties[0]),
        "cells": cells,
        "pooled": [_pooled(cells, h, d) for h in hero_names for d in dm_names],
        "ratings": _ratings(cells, hero_names, dm_names, adventures),
        "timing": {
            "games": result.games,
            "seconds": round(result.seconds, 2),
            "workers": result.workers,
            "backend": experiment.backend,
        },
    }


# --------------------------------------------------------------------------------------------- output
def _names(league: dict, side: str) -> list[str]:
    return [a["agent"] for a in league[f"{side}_agents"]]


def _rate_text(r: dict, interval: bool = True) -> str:
    text = f"{100 * r['rate']:.0f}%"
    return f"{text} [{100 * r['ci'][0]:.0f}, {100 * r['ci'][1]:.0f}]" if interval else text


def matrix(league: dict, cells: list[dict], key: str = "completed", interval: bool = True) -> list[str]:
    """A Markdown matrix of one rate of ``cells`` (one adventure's, or the pooled ones): rows hero
    agents, columns DM agents."""
    dms = _names(league, "dm")
    by = {(c["heroes_agent"], c["dm_agent"]): c for c in cells}
    lines = ["| heroes \\ DM | " + " | ".join(dms) + " |", "|---|" + "---:|" * len(dms)]
    for hero in _names(league, "heroes"):
        row = [_rate_text(by[hero, dm][key], interval) for dm in dms]
        lines.append(f"| {hero} | " + " | ".join(row) + " |")
    return lines


def _pooled_title(league: dict) -> str:
    adventures, games = league["adventures"], league["experiment"]["games"]
    if len(adventures) == 1:
        return f"{adventures[0]} ({games} games per cell)"
    return f"Pooled over the {len(adventures)} adventures ({games * len(adventures)} games per cell)"


def ratings_lines(league: dict) -> list[str]:
    """The ratings as Markdown tables, strongest first on each side, then the adventures' offsets."""
    ratings = league["ratings"]
    lines = []
    for side, title in (("heroes", "Hero agents"), ("dm", "DM agents")):
        lines += [f"**{title}**", "", "| agent | rating | ± se |", "|---|---:|---:|"]
        for row in sorted(ratings[side], key=lambda r: -r["rating"]):
            lines.append(f"| {row['agent']} | {row['rating']:+.0f} | {row['se']:.0f} |")
        lines.append("")
    lines += ["**Adventures** (offset: higher is easier for the heroes)", "", "| adventure | offset |"]
    lines.append("|---|---:|")
    lines += [f"| {a['adventure']} | {a['offset']:+.0f} |" for a in ratings["adventures"]]
    return lines


RATINGS_NOTE = (
    "A logistic (Bradley–Terry) model fitted to every cell: P(the heroes complete) = "
    "sigmoid((r_hero − r_DM + b_adventure) / 173.7), on the Elo scale (a gap of 400 points multiplies "
    "the odds of completion by 10). Higher is stronger on both sides: a strong DM agent lowers the "
    "heroes' completion. Each side's ratings are centred on 0, so they compare agents of the same side; "
    "± is one standard error."
)


def markdown(league: dict) -> str:
    """league.md: the pooled matrix, one per adventure, the truncation matrix, the ratings."""
    e = league["experiment"]
    lines = ["# League table", ""]
    if league.get("command"):
        lines += [f"`{league['command']}`", ""]
    lines += [
        "The heroes' completion rate (every surviving hero left the dungeon, goals met or not) of each "
        "hero agent (rows) against each DM agent (columns), with its 95% Wilson interval. Party: "
        f"{', '.join(league['party'])}; turn cap {e['max_turns']}. Game i of every cell is played with "
        f"seed {e['seed']} + i (common random numbers).",
        "",
        f"## {_pooled_title(league)}",
        "",
        *matrix(league, league["pooled"]),
        "",
        "Games stopped by the turn cap (truncated):",
        "",
        *matrix(league, league["pooled"], "truncated", interval=False),
        "",
    ]
    if len(league["adventures"]) > 1:
        for adventure in league["adventures"]:
            cells = [c for c in league["cells"] if c["adventure"] == adventure]
            lines += [f"## {adventure} ({e['games']} games per cell)", "", *matrix(league, cells), ""]
    lines += ["## Ratings", "", RATINGS_NOTE, "", *ratings_lines(league), ""]
    return "\n".join(lines)


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot(league: dict, path: Path) -> Path:
    """league.png: the pooled completion matrix as a heatmap, each cell's rate and interval written in."""
    plt = _pyplot()
    heroes, dms = _names(league, "heroes"), _names(league, "dm")
    by = {(c["heroes_agent"], c["dm_agent"]): c["completed"] for c in league["pooled"]}
    values = np.array([[by[h, d]["rate"] for d in dms] for h in heroes])
    fig, ax = plt.subplots(figsize=(2.8 + 1.5 * len(dms), 1.8 + 0.75 * len(heroes)))
    image = ax.imshow(values, cmap="RdYlGn", vmin=0.0, vmax=1.0, aspect="auto")
    for i, hero in enumerate(heroes):
        for j, dm in enumerate(dms):
            r = by[hero, dm]
            color = "white" if r["rate"] < 0.2 or r["rate"] > 0.85 else "black"
            text = f"{100 * r['rate']:.0f}%\n[{100 * r['ci'][0]:.0f}, {100 * r['ci'][1]:.0f}]"
            ax.text(j, i, text, ha="center", va="center", color=color, fontsize="small")
    tilt = max(map(len, dms)) > 10
    ax.set_xticks(range(len(dms)), dms, rotation=20 if tilt else 0, ha="right" if tilt else "center")
    ax.set_yticks(range(len(heroes)), heroes)
    ax.set_xlabel("DM agent")
    ax.set_ylabel("hero agent")
    ax.set_title(f"Heroes' completion rate, 95% Wilson\n{_pooled_title(league)}", fontsize="medium")
    fig.colorbar(image, ax=ax, label="heroes' completion rate")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def write(league: dict, out: Path) -> list[Path]:
    """league.json, league.md and league.png into ``out``; returns the files."""
    import json

    out.mkdir(parents=True, exist_ok=True)
    (out / "league.json").write_text(json.dumps(league, indent=1) + "\n")
    (out / "league.md").write_text(markdown(league))
    return [out / "league.json", out / "league.md", plot(league, out / "league.png")]


def summary(league: dict, out: Path) -> str:
    t = league["timing"]
    return "\n".join(
        [
            f"Heroes' completion rate, 95% Wilson: {_pooled_title(league)}",
            *matrix(league, league["pooled"]),
            "",
            "Ratings (Elo scale, each side centred on 0; higher is stronger)",
            *ratings_lines(league),
            "",
            f"{t['games']} games in {t['seconds']:.1f} s ({t['workers']} {t['backend']} workers); "
            f"files: {', '.join(str(out / n) for n in ('league.md', 'league.json', 'league.png'))}",
        ]
    )


# ------------------------------------------------------------------------------------------------ run
def command_of(args: argparse.Namespace) -> str:
    """The command line that replays the league (without the flags that only say where it ran)."""
    import shlex

    words = ["dungeon-env", "league", "--heroes-agents", args.heroes_agents, "--dm-agents", args.dm_agents]
    for adventure in args.adventure or ():
        words += ["--adventure", adventure]
    words += ["--heroes", str(args.heroes), "--games", str(args.games), "--seed", str(args.seed)]
    return shlex.join([*words, "--max-turns", str(args.max_turns)])


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``dungeon-env league``: check every spec and adventure (exit 2 naming a bad one, before any
    game), play the round robin, write the files, print the summary."""
    from dungeon_env.content import ContentError, load_adventure

    try:
        experiment = experiment_of(args)
        for adventure in experiment.adventures:
            load_adventure(adventure)
    except (SpecError, ContentError) as error:
        parser.exit(2, f"dungeon-env league: error: {error}\n")
    league = {"command": command_of(args), **league_of(play_experiment(experiment, args.quiet))}
    out = Path(args.out)
    write(league, out)
    print(out / "league.md" if args.quiet else summary(league, out))
    return 0


__all__ = [
    "ELO",
    "PRIOR",
    "Ratings",
    "SOLVER",
    "add_parser",
    "agents_of",
    "command_of",
    "experiment_of",
    "fit_ratings",
    "league_of",
    "markdown",
    "plot",
    "run",
    "split_specs",
    "write",
]
