"""Fit the search's evaluation (``agents.evaluation``) by logistic regression on played games, check it
on held-out seeds against the old heuristic, and write the weights.

    python -m training.fit_evaluation --games-per-cell 16 --holdout-games 8
    python -m training.fit_evaluation --games-per-cell 2 --out /tmp/eval.json   # a quick look
    python -m training.fit_evaluation --dry-run                                # the budget in games

- Games: every cell (adventure × party size, default the five bundled adventures × 3, 4, 5 heroes)
  and every pairing of scripted agents (``--pairings``, default v2 against v2, v1 against v2, v2
  against v1, v1 against v1: heroes first), ``--games-per-cell`` games a cell and pairing on the
  training seeds ``--seed + i`` (default ``TRAIN_SEED`` = 100,000, all below 1,000,000) and
  ``--holdout-games`` on the held-out seeds ``HOLDOUT_SEED + i`` (2,000,000). Each game is played by
  ``dungeon_env.episode.play_episode``, its agents seeded by ``seed_agents``, with the turn cap 100.
- Rows: the features (``agents.evaluation.features``) of the real game at the start of every turn,
  each labelled with how its game ended: 1 if completed with every primary goal met (the balance
  tool's ``completed_with_goals``, ``difficulty.metrics.is_won``), else 0.
- Fit: logistic regression on the training rows with an intercept per adventure (the adventures
  differ in how often they are won, and a feature that differs between adventures, like the Light
  they give, would otherwise stand in for that) and every weight kept to its sign
  (``agents.evaluation.SIGNS``; a weight whose sign the data contradicts ends at 0), by maximum
  likelihood with a small L2 penalty (``RIDGE``) under bounds (scipy's L-BFGS-B). The file keeps
  each adventure's intercept (``adventures``); another adventure takes their mean. ``--plain``
  fits without constraints and with one intercept (``statsmodels.api.Logit``), to compare.
- Check: the held-out rows' log-loss and AUC of the fitted value and of the old heuristic
  ``agents.search.score`` mapped to [0, 1] (``score + 0.5``).
- Writes ``--out`` (default ``agents/policies/search_eval.json``, the shipped file) with a ``fitted``
  block: the command, the games and rows, the seeds, the held-out figures of both.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import math
import multiprocessing
import shlex
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from agents.evaluation import FEATURES, SHIPPED, SIGNS, Evaluation, features
from dungeon_env.tasks import BUNDLED
from training.tune_scripted import (
    HOLDOUT_FLOOR,
    HOLDOUT_SEED,
    MAX_TURNS,
    PARTIES,
    TRAIN_SEED,
    adventure_list,
    party_list,
    positive_int,
)

PAIRINGS = (
    ("scripted@v2", "scripted@v2"),
    ("scripted@v1", "scripted@v2"),
    ("scripted@v2", "scripted@v1"),
    ("scripted@v1", "scripted@v1"),
)
VERSIONS = ("scripted@v1", "scripted@v2")
EPS = 1e-6  # probabilities are clipped to [EPS, 1 - EPS] in the log-loss
RIDGE = 1e-3  # the L2 penalty of the fallback fit


def import_statsmodels():
    """statsmodels.api, or a clear error naming the extra that installs it."""
    try:
        import statsmodels.api as sm
    except ImportError:
        raise SystemExit(
            "training.fit_evaluation needs statsmodels: pip install -e '.[balance]' (the 'balance' extra)"
        ) from None
    return sm


# ----------------------------------------------------------------------------- games and rows
def play_game(job: dict) -> dict:
    """One game of ``job`` (``adventure``, ``heroes`` (a count), ``seed``, ``pairing``: the heroes'
    and the DM's specs): the features and the old score at the start of every turn, and the label."""
    from agents.search import score
    from agents.spec import from_spec
    from dungeon_env.engine import Game
    from dungeon_env.episode import play_episode, seed_agents

    game = Game.new(adventure=job["adventure"], heroes=job["heroes"], seed=job["seed"], max_turns=MAX_TURNS)
    heroes, dm = (from_spec(spec, side) for spec, side in zip(job["pairing"], ("heroes", "dm"), strict=True))
    seed_agents(heroes, dm, job["seed"])
    rows, old, seen = [], [], set()

    def record(g: Game) -> None:
        if not g.over and g.state.turn not in seen:
            seen.add(g.state.turn)
            rows.append(features(g))
            old.append(score(g) + 0.5)

    record(game)
    result = play_episode(heroes, dm, game, on_step=record)
    won = result.game.outcome == "completed" and bool(result.game.goals_met)
    return {
        "adventure": job["adventure"],
        "rows": rows,
        "old": old,
        "won": int(won),
        "turns": int(result.game.state.turn),
    }


def jobs_of(cells: list[tuple[str, int]], seeds: list[int], pairings) -> list[dict]:
    """Every game of ``cells`` × ``pairings`` × ``seeds``."""
    return [
        {"adventure": a, "heroes": n, "seed": s, "pairing": list(p)}
        for a, n in cells
        for p in pairings
        for s in seeds
    ]


def play_all(jobs: list[dict], workers: int) -> list[dict]:
    """The games of ``jobs``, in this process or a pool of ``workers`` processes."""
    if workers <= 1:
        return [play_game(job) for job in jobs]
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
        return list(pool.map(play_game, jobs, chunksize=max(1, len(jobs) // (4 * workers))))


def table(games: list[dict]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows of ``games`` as arrays: features, labels, old scores."""
    x = np.array([r for g in games for r in g["rows"]], dtype=float).reshape(-1, len(FEATURES))
    y = np.array([g["won"] for g in games for _ in g["rows"]], dtype=float)
    old = np.array([v for g in games for v in g["old"]], dtype=float)
    return x, y, old


def adventures_of(games: list[dict]) -> list[str]:
    """The adventure of every row of ``games`` (``table``'s order)."""
    return [g["adventure"] for g in games for _ in g["rows"]]


# ----------------------------------------------------------------------------- fit and check
def fit_signed(x: np.ndarray, y: np.ndarray, groups: list[str]) -> tuple[Evaluation, str, dict[str, float]]:
    """The logistic regression of ``y`` on ``x`` with an intercept per group (adventure) and every
    weight kept to its sign (module docstring); the evaluation (the groups' mean intercept), how it
    was fitted, and each group's intercept."""
    from scipy.optimize import minimize

    names = sorted(set(groups))
    index = np.array([names.index(a) for a in groups])
    k, n = len(FEATURES), len(y)

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        w, b = theta[:k], theta[k:]
        z = x @ w + b[index]
        p = 1.0 / (1.0 + np.exp(-z))
        nll = float(np.sum(np.logaddexp(0.0, z) - y * z)) / n + RIDGE * float(w @ w)
        r = (p - y) / n
        return nll, np.concatenate([x.T @ r + 2 * RIDGE * w, np.bincount(index, r, len(names))])

    sign_bounds = {1: (0.0, None), -1: (None, 0.0), 0: (None, None)}
    bounds = [sign_bounds[SIGNS[f]] for f in FEATURES] + [(None, None)] * len(names)
    result = minimize(loss, np.zeros(k + len(names)), jac=True, method="L-BFGS-B", bounds=bounds)
    if not result.success:
        raise SystemExit(f"the sign-constrained fit did not converge: {result.message}")
    weights = {f: float(w) for f, w in zip(FEATURES, result.x[:k], strict=True)}
    intercepts = {a: float(b) for a, b in zip(names, result.x[k:], strict=True)}
    method = f"logistic, an intercept per adventure, weights kept to their signs, L2 {RIDGE} (scipy L-BFGS-B)"
    return Evaluation(weights, float(np.mean(result.x[k:])), intercepts), method, intercepts


def fit(x: np.ndarray, y: np.ndarray) -> tuple[Evaluation, str]:
    """The logistic regression of ``y`` on ``x`` (an intercept added), and how it was fitted: the
    plain maximum likelihood fit (``Logit``), or, if it does not converge (separation, a constant
    column), a slightly L2-penalised one (``RIDGE``)."""
    sm = import_statsmodels()
    design = sm.add_constant(x, has_constant="add")
    method = "statsmodels Logit (maximum likelihood)"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = sm.Logit(y, design).fit(disp=0, maxiter=200)
        params = result.params
        if not result.mle_retvals["converged"] or not np.all(np.isfinite(params)):
            raise ValueError("the maximum likelihood fit did not converge")
    except Exception:  # noqa: BLE001 (statsmodels raises several kinds: singular matrix, separation)
        glm = sm.GLM(y, design, family=sm.families.Binomial())
        params = glm.fit_regularized(alpha=RIDGE, L1_wt=0.0).params
        method = f"statsmodels GLM Binomial, L2 penalty alpha={RIDGE} (Logit did not converge)"
    weights = {f: float(w) for f, w in zip(FEATURES, params[1:], strict=True)}
    return Evaluation(weights, float(params[0])), method


def calibrate(old: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """The old score's own logistic calibration on the training rows: ``(a, b)`` of
    ``logistic(a + b * old)`` (a fairer log-loss baseline than the raw ``score + 0.5``)."""
    sm = import_statsmodels()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        params = sm.Logit(y, sm.add_constant(old, has_constant="add")).fit(disp=0, maxiter=200).params
    return float(params[0]), float(params[1])


def predict(evaluation: Evaluation, x: np.ndarray, groups: list[str] | None = None) -> np.ndarray:
    """The evaluation's value of every row of ``x`` (``groups``: each row's adventure)."""
    w = np.array([evaluation.weights[f] for f in FEATURES])
    b = evaluation.intercept
    if groups is not None:
        b = np.array([evaluation.adventures.get(a, evaluation.intercept) for a in groups])
    return 1.0 / (1.0 + np.exp(-(x @ w + b)))


def log_loss(y: np.ndarray, p: np.ndarray) -> float:
    """The mean negative log-likelihood of ``y`` under ``p`` (clipped to [EPS, 1 - EPS])."""
    p = np.clip(p, EPS, 1 - EPS)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def auc(y: np.ndarray, p: np.ndarray) -> float:
    """The area under the ROC curve (the Mann-Whitney U over the product of the class sizes; ties
    count a half); NaN when one class is missing."""
    from scipy.stats import rankdata

    pos, neg = int(y.sum()), int(len(y) - y.sum())
    if not pos or not neg:
        return math.nan
    ranks = rankdata(p)
    return float((ranks[y == 1].sum() - pos * (pos + 1) / 2) / (pos * neg))


def check(
    evaluation: Evaluation, calibration, x: np.ndarray, y: np.ndarray, old: np.ndarray, groups=None
) -> dict:
    """Held-out log-loss and AUC of the fitted value (``new``), of the old score as ``score + 0.5``
    (``old``) and of the old score calibrated on the training rows (``old_calibrated``, same AUC)."""
    a, b = calibration

    def figures(p: np.ndarray) -> dict[str, float]:
        return {"log_loss": round(log_loss(y, p), 4), "auc": round(auc(y, p), 4)}

    return {
        "rows": len(y),
        "won_share": round(float(y.mean()), 4) if len(y) else None,
        "new": figures(predict(evaluation, x, groups)),
        "old": figures(old),
        "old_calibrated": figures(1.0 / (1.0 + np.exp(-(a + b * old)))),
    }


# ----------------------------------------------------------------------------- the command line
def pairing_list(text: str) -> tuple[tuple[str, str], ...]:
    """``heroes/dm`` pairs, comma-separated: ``scripted@v2/scripted@v1,...``."""
    out = []
    for item in (p.strip() for p in text.split(",") if p.strip()):
        sides = tuple(s.strip() for s in item.split("/"))
        if len(sides) != 2 or any(s not in VERSIONS for s in sides):
            raise argparse.ArgumentTypeError(
                f"a pairing is heroes/dm, each one of {list(VERSIONS)}, got {item!r}"
            )
        out.append(sides)
    if not out:
        raise argparse.ArgumentTypeError("give at least one pairing")
    return tuple(out)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m training.fit_evaluation",
        description="Play scripted games, fit agents.evaluation's weights by logistic regression "
        "(statsmodels) on the positions at every turn start, check them on held-out seeds against "
        "agents.search.score, and write them. See docs/EVALUATION.md.",
    )
    p.add_argument(
        "--games-per-cell", type=positive_int, default=16, help="training games a cell and pairing (16)"
    )
    p.add_argument(
        "--holdout-games", type=positive_int, default=8, help="held-out games a cell and pairing (8)"
    )
    p.add_argument("--seed", type=int, default=TRAIN_SEED, help=f"the first training seed ({TRAIN_SEED})")
    p.add_argument("--out", type=Path, default=SHIPPED, help=f"where to write the weights ({SHIPPED.name})")
    p.add_argument("--workers", type=positive_int, default=1, help="processes playing the games (1)")
    p.add_argument("--adventures", type=adventure_list, default=BUNDLED, help="comma-separated (all five)")
    p.add_argument("--parties", type=party_list, default=PARTIES, help="party sizes (3,4,5)")
    p.add_argument(
        "--pairings", type=pairing_list, default=PAIRINGS, help="heroes/dm pairs (v2/v2, v1/v2, v2/v1, v1/v1)"
    )
    p.add_argument("--plain", action="store_true", help="fit without sign constraints, one intercept")
    p.add_argument("--dry-run", action="store_true", help="print the budget in games; play none")
    return p


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = parser()
    args = p.parse_args(argv)
    if not args.seed >= 0 or args.seed + args.games_per_cell > HOLDOUT_FLOOR:
        p.error(f"--seed: the training seeds must stay in 0..{HOLDOUT_FLOOR - 1}")
    return args


def budget(args, cells: list) -> dict[str, Any]:
    per = len(cells) * len(args.pairings)
    return {
        "cells": len(cells),
        "pairings": len(args.pairings),
        "training_games": per * args.games_per_cell,
        "holdout_games": per * args.holdout_games,
    }


def print_budget(args, cells: list) -> None:
    b = budget(args, cells)
    pairs = ", ".join("/".join(p) for p in args.pairings)
    print(f"{b['cells']} cells x {b['pairings']} pairings ({pairs})")
    last, held_last = args.seed + args.games_per_cell - 1, HOLDOUT_SEED + args.holdout_games - 1
    print(
        f"training: {b['training_games']} games on seeds {args.seed}..{last}; "
        f"held-out: {b['holdout_games']} games on seeds {HOLDOUT_SEED}..{held_last}"
    )


def fitted_block(args, argv, cells, train: list[dict], rows: int, checked: dict, seconds: float) -> dict:
    """How the weights were fitted (the ``fitted`` block of the file)."""
    return {
        "command": shlex.join(["python", "-m", "training.fit_evaluation", *argv]),
        "label": "completed with every primary goal met (difficulty.metrics.is_won)",
        "rows_at": "the start of every turn",
        "cells": [list(c) for c in cells],
        "pairings": ["/".join(p) for p in args.pairings],
        "games": {"training": len(train), "holdout": budget(args, cells)["holdout_games"]},
        "rows": {"training": rows, "holdout": checked["rows"]},
        "training_won_share": round(float(np.mean([g["won"] for g in train])), 4),
        "seeds": {
            "training": [args.seed, args.seed + args.games_per_cell - 1],
            "holdout": [HOLDOUT_SEED, HOLDOUT_SEED + args.holdout_games - 1],
        },
        "holdout": checked,
        "cpu_seconds": round(seconds, 1),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Play, fit, check and write; return the written JSON."""
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse(argv)
    cells = [(a, n) for a in args.adventures for n in args.parties]
    print_budget(args, cells)
    if args.dry_run:
        return {}
    began = time.process_time()
    seeds = [args.seed + i for i in range(args.games_per_cell)]
    train = play_all(jobs_of(cells, seeds, args.pairings), args.workers)
    x, y, old = table(train)
    if len(set(y.tolist())) < 2:
        raise SystemExit(f"the {len(train)} training games all ended alike: play more games to fit")
    if args.plain:
        evaluation, method = fit(x, y)
    else:
        evaluation, method, _ = fit_signed(x, y, adventures_of(train))
    holdout = [HOLDOUT_SEED + i for i in range(args.holdout_games)]
    held_games = play_all(jobs_of(cells, holdout, args.pairings), args.workers)
    checked = check(evaluation, calibrate(old, y), *table(held_games), adventures_of(held_games))
    fitted = fitted_block(args, argv, cells, train, len(y), checked, time.process_time() - began)
    fitted["method"] = method
    args.out.parent.mkdir(parents=True, exist_ok=True)
    evaluation.save(args.out, fitted)
    report(evaluation, checked, args.out)
    return evaluation.to_json(fitted)


def report(evaluation: Evaluation, checked: dict, out: Path) -> None:
    for name in FEATURES:
        print(f"  {name:<14} {evaluation.weights[name]:+.4f}")
    print(f"  {'intercept':<14} {evaluation.intercept:+.4f}")
    for name in ("new", "old", "old_calibrated"):
        f = checked[name]
        print(f"held-out ({checked['rows']} rows) {name}: log-loss {f['log_loss']}, AUC {f['auc']}")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
