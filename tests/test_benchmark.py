"""training.benchmark: a smoke run with a tiny budget in a subprocess writes its curve (CSV, PNG)
and summary, evaluated on held-out seeds; the table is built from the summaries."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from training.benchmark import EVAL_SEED, agent_chooser, play_games, table_markdown  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def test_a_tiny_benchmark_run_writes_its_curve_and_summary(tmp_path):
    args = [sys.executable, "-m", "training.benchmark", "--task", "heroes/exit-doors", "--steps", "256"]
    args += ["--seeds", "1,2", "--eval-every", "128", "--eval-games", "2", "--baseline-games", "4"]
    args += ["--n-envs", "2", "--n-steps", "64", "--batch-size", "64", "--n-epochs", "1", "--no-progress"]
    args += ["--out", str(tmp_path)]
    done = subprocess.run(
        args,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    folder = tmp_path / "heroes-exit-doors"
    rows = list(csv.DictReader((folder / "curve.csv").open()))
    assert {int(r["seed"]) for r in rows} == {1, 2}
    assert [int(r["steps"]) for r in rows if r["seed"] == "1"][0] == 0  # the untrained policy first
    assert max(int(r["steps"]) for r in rows) >= 256
    assert all(0 <= float(r["win_rate"]) <= 1 for r in rows)
    assert (folder / "curve.png").stat().st_size > 10_000
    assert (folder / "seed1" / "curve.csv").is_file()  # written as each evaluation comes
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["task"] == "heroes/exit-doors" and len(summary["final"]) == 2
    assert set(summary["baselines"]) == {"scripted", "random"}
    table = table_markdown(tmp_path)
    assert "`heroes/exit-doors`" in table and "2 seeds" in table


def test_baselines_play_the_learning_side_on_held_out_seeds():
    scripted = play_games("heroes/exit-doors", agent_chooser("scripted", "heroes"), 5, seed=EVAL_SEED)
    random = play_games("heroes/exit-doors", agent_chooser("random", "heroes"), 5, seed=EVAL_SEED)
    assert scripted["games"] == random["games"] == 5
    assert scripted["win_rate"] >= random["win_rate"]
    assert scripted["win_low"] <= scripted["win_rate"] <= scripted["win_high"]


def test_the_readme_tasks_example_runs():
    import dungeon_env

    text = (ROOT / "README.md").read_text()
    section = text.split("### Learning tasks and the benchmark", 1)[1]
    block = section.split("```python\n", 1)[1].split("```", 1)[0]
    space = {"__name__": "readme"}
    exec(compile(block, "README.md", "exec"), space)
    assert space["same"].unwrapped.role == space["heroes"].role == "heroes"
    assert type(dungeon_env.make_task("heroes/one-guard")) is type(space["aec"])
