"""The scripted agents' tuning script (training.tune_scripted): a smoke run on a tiny budget in a
subprocess, its options refused with the option named, and seeds that keep training and held-out
games apart."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("optuna")

from agents import scripted_params as sp  # noqa: E402
from training import tune_scripted as ts  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def test_smoke_run_writes_a_params_file_with_the_start_as_trial_0(tmp_path):
    out = tmp_path / "dm.json"
    args = ["--side", "dm", "--trials", "2", "--games-per-cell", "1", "--holdout-games", "1"]
    args += ["--adventures", "flooded_cellar", "--parties", "3", "--workers", "1", "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "training.tune_scripted", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "held-out" in done.stdout and "overall" in done.stdout
    params = sp.load(out)  # a valid parameter set
    meta = json.loads(out.read_text())["meta"]
    start = dataclasses.asdict(sp.shipped_v2().dm)
    assert meta["start_trial"] == {"number": 0, "score": meta["start_trial"]["score"], "params": start}
    assert meta["trials_run"] == 2 and meta["budget"]["games_per_trial"] == 1
    assert meta["training_seeds"]["last"] < ts.HOLDOUT_FLOOR <= meta["holdout"]["seeds"]["first"]
    assert params.heroes == sp.shipped_v2().heroes  # the side not tuned keeps the start's knobs
    assert not (tmp_path / "agents").exists()


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["--side", "wizards", "--trials", "1"], "--side"),
        (["--side", "heroes", "--trials", "0"], "--trials"),
        (["--side", "heroes", "--trials", "1", "--parties", "2"], "--parties"),
        (["--side", "heroes", "--trials", "1", "--adventures", "moon_base"], "--adventures"),
        (["--side", "heroes", "--trials", "1", "--games-per-cell", "900001"], "--games-per-cell"),
        (["--side", "heroes", "--trials", "1", "--out", str(sp.SHIPPED_V2)], "--ship"),
        (["--side", "heroes"], "--trials"),
    ],
)
def test_a_bad_option_is_refused_naming_it(argv, option, capsys):
    with pytest.raises(SystemExit) as stop:
        ts.main(argv)
    assert stop.value.code == 2
    assert option in capsys.readouterr().err


def test_held_out_seeds_never_overlap_training_seeds():
    most = ts.HOLDOUT_FLOOR - ts.TRAIN_SEED
    train, held = ts.training_seeds(most), ts.holdout_seeds(1000)
    assert max(train) < ts.HOLDOUT_FLOOR <= min(held)
    assert not set(train) & set(held)
    with pytest.raises(ValueError, match="held-out"):
        ts.training_seeds(most + 1)


def test_dry_run_tells_the_budget_in_games(capsys):
    assert ts.main(["--side", "heroes", "--trials", "10", "--dry-run"]) == {}
    text = capsys.readouterr().out
    assert "10 trials x 15 cells x 4 games = 600 games (60 a trial)" in text
    for f in sp.knobs(sp.HeroParams):  # every knob, read from the dataclass
        assert f.name in text


def test_the_dm_pays_for_turn_cap_games_above_the_start():
    def game(adventure, end):
        outcome = "completed" if end.startswith("completed") else end
        return {
            "adventure": adventure,
            "heroes": 3,
            "outcome": outcome,
            "goals_met": end == "completed_with_goals",
            "end": end,
        }

    won, stall, kill = (game("a", e) for e in ("completed_with_goals", "truncated", "failed"))
    assert ts.score("dm", [won, kill], 0.0, 1.0) == 0.5
    assert ts.score("dm", [stall, kill], 0.0, 1.0) == 0.5  # a stall costs as much as a heroes' win
    assert ts.score("dm", [stall, kill], 0.5, 1.0) == 0.0  # no more stalls than the start: no cost
    assert ts.score("heroes", [won, stall], 0.0, 1.0) == 0.5


@pytest.mark.parametrize("not_worse", [True, False])
def test_ship_writes_the_shipped_file_only_if_the_winner_is_not_worse(
    not_worse, tmp_path, monkeypatch, capsys
):
    shipped = tmp_path / "scripted_v2.json"
    monkeypatch.setattr(sp, "SHIPPED_V2", shipped)
    args = ts.parse(["--side", "heroes", "--trials", "1", "--ship", "--out", str(tmp_path / "out.json")])
    ts.write(args, sp.ScriptedParams(), {"note": "test"}, not_worse)
    assert sp.load(tmp_path / "out.json") == sp.ScriptedParams()
    assert shipped.exists() == not_worse
    assert ("not shipped" in capsys.readouterr().out) != not_worse
