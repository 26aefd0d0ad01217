"""Difficulty testing for the game's designer: "is this adventure too hard for these heroes, and does
changing rule X fix it?", answered with two win rates (the adventure completed, and completed with
every primary goal met), 95% intervals, tables and plots.

The Python API mirrors the ``dungeon-env`` console script (``difficulty.cli``)::

    import difficulty

    report = difficulty.balance(adventures=["flooded_cellar"], variants=[None, ["light.start=15"]],
                                games=400, seed=0, out="reports/light15")
    report["cells"][0]["completed_with_goals"]  # {"count", "n", "rate", "ci": [low, high], "half_width"}
    report["cells"][0]["completed"]     # the same for completion, goals met or not
    report["comparisons"][0]            # light.start=15 against the base rules, paired by game index

    curve = difficulty.sweep("light.start", [10, 15, 20, 25], until=0.03, out="reports/light")

Modules: ``spec`` (the experiment), ``play`` (one cell's games → records), ``record`` (a game's
record from its event log), ``metrics`` (records → figures), ``backends`` (serial, local processes,
Ray), ``runner`` (scheduling, the "until ±X" rule), ``report`` (JSON + Markdown), ``plots`` (PNG),
``cli``. Definitions of every figure: docs/DIFFICULTY.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from difficulty.runner import Result, run
from difficulty.spec import Experiment, Pairing, SpecError


def _experiment(**kw: Any) -> Experiment:
    if isinstance(kw.get("adventures"), str):
        kw["adventures"] = (kw["adventures"],)
    if isinstance(kw.get("parties"), int | str):
        kw["parties"] = (kw["parties"],)
    if isinstance(kw.get("pairings"), str | Pairing):
        kw["pairings"] = (kw["pairings"],)
    return Experiment(**kw)


def _finish(result: Result, out: str | Path | None) -> dict:
    from difficulty import report

    return report.write(result, out) if out is not None else report.figures(result)


def balance(
    adventures: Sequence[str] | str = ("flooded_cellar",),
    parties: Sequence[Any] | int | str = (3,),
    pairings: Sequence[Any] | str = ("scripted:scripted",),
    variants: Sequence[Any] = (None,),
    games: int = 200,
    until: float | None = None,
    max_games: int = 20_000,
    seed: int = 0,
    max_turns: int = 100,
    workers: int = 0,
    backend: str = "local",
    ray_address: str | None = None,
    out: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """Play every adventure × party × pairing × variant and return the JSON report (also written to
    ``out`` with the Markdown and the plots, if given). A variant is ``None`` (the base rules), a
    ``Variant``, a list of ``key=value`` overrides or a TOML file path."""
    experiment = _experiment(
        adventures=adventures,
        parties=parties,
        pairings=pairings,
        variants=tuple(variants),
        games=games,
        until=until,
        max_games=max_games,
        seed=seed,
        max_turns=max_turns,
        workers=workers,
        backend=backend,
        ray_address=ray_address,
    )
    return _finish(run(experiment, progress=progress), out)


def sweep(
    param: str,
    values: Sequence[Any],
    overrides: Sequence[str] = (),
    out: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    **kw: Any,
) -> dict:
    """One variant per value of ``param`` (on top of ``overrides``); the report's ``sweep`` holds
    the curves of both rates. Other keywords as for :func:`balance`."""
    from dungeon_env.content.variants import Variant

    variants = [Variant.parse([*overrides, f"{param}={v}"], name=f"{param}={v}") for v in values]
    sweep_info = {"param": param, "values": list(values), "variants": [v.name for v in variants]}
    experiment = _experiment(variants=tuple(variants), sweep=sweep_info, **kw)
    return _finish(run(experiment, progress=progress), out)


__all__ = ["Experiment", "Pairing", "Result", "SpecError", "balance", "run", "sweep"]
