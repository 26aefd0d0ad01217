"""The statistics the project takes from libraries give its stored figures again: SciPy's Wilson
interval against the benchmark curves (written at full precision by the earlier hand-written
formula) and against values that formula gave, numpy's quantile against the earlier interpolation,
and one Wilson interval for every module that reports one."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

from difficulty import metrics
from dungeon_env import tasks
from training import evaluate

ROOT = Path(__file__).resolve().parents[1]
CURVES = sorted((ROOT / "docs" / "benchmark").rglob("*.csv"))


def test_every_module_reports_the_one_wilson_interval():
    assert evaluate.wilson_interval is tasks.wilson_interval
    assert metrics.wilson_interval is tasks.wilson_interval


@pytest.mark.parametrize(
    ("successes", "n", "z", "low", "high"),
    [  # what the hand-written formula gave (before SciPy), to 1e-12
        (42, 100, 1.96, 0.327982249185113, 0.5179369200110473),
        (0, 10, 1.96, 0.0, 0.2775401687666166),
        (1, 3, 1.96, 0.0614903152761605, 0.7923450448735121),
        (999, 1000, 1.96, 0.9943572970398398, 0.9998234581709429),
        (42, 100, 2.576, 0.3017564142424136, 0.5482001331737181),
        (81, 263, 1.0, 0.2802895910729378, 0.3371346513513047),
    ],
)
def test_wilson_interval_gives_the_earlier_values(successes, n, z, low, high):
    got = tasks.wilson_interval(successes, n, z)
    assert got == pytest.approx((low, high), abs=1e-12)
    assert all(type(bound) is float for bound in got)


def test_wilson_interval_edges_as_before():
    assert tasks.wilson_interval(0, 0) == (0.0, 1.0)
    assert tasks.wilson_interval(0, 200)[0] == 0.0 and tasks.wilson_interval(200, 200)[1] == 1.0
    assert tasks.wilson_interval(5, 10, z=0.0) == pytest.approx((0.5, 0.5))
    for successes, n in ((11, 10), (-1, 10)):
        with pytest.raises(ValueError):
            tasks.wilson_interval(successes, n)


def test_the_benchmark_curves_intervals_come_back():
    """Every evaluation row of the stored curves (docs/benchmark, 'win_low'/'win_high' written at full
    precision) from its wins and games."""
    assert len(CURVES) >= 20
    rows = 0
    for path in CURVES:
        with path.open() as f:
            for row in csv.DictReader(f):
                games = int(row["games"])
                wins = round(float(row["win_rate"]) * games)
                low, high = tasks.wilson_interval(wins, games)
                assert math.isclose(low, float(row["win_low"]), abs_tol=1e-12), (path.name, row)
                assert math.isclose(high, float(row["win_high"]), abs_tol=1e-12), (path.name, row)
                rows += 1
    assert rows > 500


def test_a_task_score_text_as_before():
    assert tasks.Score(wins=93, games=100).text() == "93/100 = 93.0% [86.3, 96.6]"
    assert tasks.Score(wins=0, games=50).text() == "0/50 = 0.0% [0.0, 7.1]"


def _interpolated(values: list[int], q: float) -> float:
    """The quantile as the earlier code took it: linear between the two nearest ranks."""
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q
    lo, hi = math.floor(pos), math.ceil(pos)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


@pytest.mark.parametrize(
    "values",
    [[7], [3, 1], [5, 1, 4], [4, 4, 9, 13, 1, 40, 2], list(range(101)), [2 * k % 37 for k in range(250)]],
)
def test_distribution_quantiles_are_numpys_and_as_before(values):
    d = metrics.distribution(values)
    for key, q in (("p10", 0.1), ("median", 0.5), ("p90", 0.9)):
        assert d[key] == round(_interpolated(values, q), metrics.DIGITS)
    assert (d["min"], d["max"], sum(c for _, c in d["histogram"])) == (min(values), max(values), len(values))


def test_distribution_of_no_values():
    assert metrics.distribution([]) == {
        "mean": 0.0,
        "min": 0,
        "p10": 0.0,
        "median": 0.0,
        "p90": 0.0,
        "max": 0,
        "histogram": [],
    }


def test_paired_difference_as_before():
    """Newcombe's paired interval (no library has it) on the Wilson intervals from SciPy; values the
    hand-written Wilson formula gave."""
    assert metrics.paired_difference(10, 3, 2, 5) == pytest.approx(
        (-0.17662731668302992, 0.2687109554300113), abs=1e-12
    )
    assert metrics.paired_difference(20, 10, 5, 65) == pytest.approx(
        (-0.028138528302228225, 0.1281178998243489), abs=1e-12
    )
    assert metrics.paired_difference(0, 7, 3, 0) == pytest.approx(
        (-0.20645356004086962, 0.7844214250275762), abs=1e-12
    )
    assert metrics.paired_difference(0, 0, 0, 0) == (-1.0, 1.0)
