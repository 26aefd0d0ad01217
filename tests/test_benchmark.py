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

from dungeon_env.tasks import TASKS

pytest.importorskip("sb3_contrib")

from training.benchmark import (  # noqa: E402
    BUDGETS,
    EVAL_SEED,
    HERO_TRAINING_SHAPING,
    _budget_cell,
    agent_chooser,
    aim_count,
    at_budget,
    main,
    play_games,
    reached_scripted,
    scripted_beats_random,
    table_markdown,
    training_kwargs,
)

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
    rows = list(csv.DictReader((folder / "curve.csv").read_text().splitlines()))
    assert {int(r["seed"]) for r in rows} == {1, 2}
    assert [int(r["steps"]) for r in rows if r["seed"] == "1"][0] == 0  # the untrained policy first
    assert max(int(r["steps"]) for r in rows) >= 256
    assert all(0 <= float(r["win_rate"]) <= 1 for r in rows)
    assert (folder / "curve.png").stat().st_size > 10_000
    assert (folder / "seed1" / "curve.csv").is_file()  # written as each evaluation comes
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["task"] == "heroes/exit-doors" and len(summary["final"]) == 2
    assert set(summary["baselines"]) == {"scripted", "random"}
    assert summary["eval_policy"] == "sampled"
    table = table_markdown(tmp_path).splitlines()
    (row,) = [r for r in table if r.startswith("| `heroes/exit-doors`")]
    assert "2 seeds" in row and "100%" in row  # the card's scripted score
    assert "| PPO at 100k steps [95%] (per seed) | PPO at 300k steps |" in table[0]
    (other,) = [r for r in table if r.startswith("| `heroes/walk-out`")]
    assert "not run" in other
    assert len(table) == 2 + len(TASKS)


def _row(seed: int, steps: int, seconds: float, rate: float, games: int = 30) -> dict:
    return {"task": "t", "seed": seed, "steps": steps, "seconds": seconds, "win_rate": rate, "games": games}


def test_the_table_reads_each_seed_at_the_budget_and_pools_the_seeds():
    rows = [
        _row(1, 0, 0, 0.0),
        _row(1, 100_002, 600, 0.5),
        _row(1, 200_000, 1200, 0.9),
        _row(1, 300_000, 1700, 0.9),
    ]
    assert at_budget(rows, 100_000)["win_rate"] == 0.5
    assert at_budget(rows, 1_000_000) is None  # stopped before
    seed2 = [
        _row(2, 0, 0, 0.0),
        _row(2, 100_000, 650, 0.7),
        _row(2, 200_000, 1300, 1.0),
        _row(2, 300_000, 1750, 1.0),
    ]
    seeds = {1: rows, 2: seed2}
    # pooled (27 + 30) / 60 >= 0.9 at 200k and at 300k; each seed alone at 200k and 300k
    assert (
        reached_scripted(seeds, 0.9) == "yes: 200k steps, 21.7 min; seeds alone: 2 of 2 (at 200k, 200k steps)"
    )
    assert reached_scripted(seeds, 0.99) == "no (best 95%); seeds alone: 1 of 2 (at 200k steps)"
    assert (
        reached_scripted(seeds, 0.6) == "yes: 100k steps, 10.8 min; seeds alone: 2 of 2 (at 200k, 100k steps)"
    )
    late = {s: [dict(r, seconds=r["seconds"] * 2) for r in rows] for s, rows in seeds.items()}
    assert reached_scripted(late, 0.9) == "no (best 60%); seeds alone: 0 of 2"  # 200k came after 30 min
    assert reached_scripted({1: rows}, 0.9) == "yes: 200k steps, 20.0 min"
    small = [dict(r, games=10) for r in rows]  # 9 of 10 games is no proof of 90%
    assert reached_scripted({1: small}, 0.9) == "too few games per evaluation to tell (under 30) (best 90%)"
    assert reached_scripted({1: small}, 0.95) == "no (best 90%)"
    # one evaluation at the bound is not enough: it must hold at the next one
    once = [*rows[:3], dict(rows[3], win_rate=0.5)]
    assert reached_scripted({1: once}, 0.9) == "no (best 90%)"
    assert reached_scripted({1: rows[:3]}, 0.9) == "no (best 90%)"  # the run ended at it: not yet held


def test_seeds_evaluated_at_other_intervals_pool_at_the_step_counts_they_share():
    every_10k = [_row(1, 10_000 * i, 60.0 * i, 1.0 if i in (1, 2) else 0.0) for i in range(21)]
    every_100k = [_row(2, 0, 0, 0.0), _row(2, 100_000, 500, 1.0), _row(2, 200_000, 1000, 1.0)]
    # paired by index, 10k and 20k (seed 1: 100%) would pool with 100k and 200k (seed 2: 100%); by
    # steps, 100k and 200k pool 0% + 100%
    assert reached_scripted({1: every_10k, 2: every_100k}, 0.9) == (
        "no (best 50%); seeds alone: 2 of 2 (at 10k, 100k steps)"
    )
    for row in every_10k[10:]:
        row["win_rate"] = 0.9
    assert reached_scripted({1: every_10k, 2: every_100k}, 0.9).startswith("yes: 100k steps, 10.0 min")


def test_a_budget_no_seed_reached_shows_where_they_stopped_and_their_last_evaluation():
    seeds = {s: [_row(s, 0, 0, 0.0), _row(s, 40_000, 360, 0.1 * s)] for s in (1, 2)}
    assert _budget_cell(seeds, 100_000) == "- (stopped at 40k: 15% [8%, 26%] (10%, 20%))"
    assert _budget_cell(seeds, BUDGETS[1]) == "- (stopped at 40k)"


def _write_curve(folder: Path, task: str, seed: int, rates: list[float]) -> None:
    path = folder / task.replace("/", "-") / f"seed{seed}" / "curve.csv"
    path.parent.mkdir(parents=True)
    rows = [
        _row(seed, 10_000 * i, 60.0 * i, rate) | {"task": task, "eval_seconds": 5.0}
        for i, rate in enumerate(rates)
    ]
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def test_the_aim_counts_only_tasks_where_the_scripted_side_beats_random(tmp_path):
    assert scripted_beats_random(TASKS["heroes/one-guard"])  # 98% against 0%
    assert not scripted_beats_random(TASKS["heroes/campaign"])  # 0% against 0%
    assert not scripted_beats_random(TASKS["dm/ambush"])  # 11% against 5%: the intervals overlap
    _write_curve(tmp_path, "heroes/walk-out", 1, [0.1, 1.0, 1.0])
    _write_curve(tmp_path, "heroes/one-guard", 1, [0.0, 1.0, 1.0])
    _write_curve(tmp_path, "heroes/one-guard", 2, [0.0, 0.0, 0.0])  # pooled 50%: not reached
    _write_curve(tmp_path, "heroes/campaign", 1, [0.0, 0.0, 0.0])  # "reaches" 0%, and is not counted
    _write_curve(tmp_path, "dm/goblin-warrens", 1, [0.1, 0.1, 0.1])  # below the scripted 55%
    count = aim_count(tmp_path)
    assert count["heroes"] == {"tasks": 15, "run": 3, "counted": 2, "pooled": 1, "majority": 1}
    assert count["dm"] == {"tasks": 7, "run": 1, "counted": 1, "pooled": 0, "majority": 0}
    (row,) = [r for r in table_markdown(tmp_path).splitlines() if r.startswith("| `heroes/campaign`")]
    assert "not counted: the scripted side is no better than random here (yes: 10k steps" in row


def test_training_shaping_adds_to_the_tasks_and_bad_options_are_refused():
    kwargs = training_kwargs(TASKS["heroes/trapped-corridor"], "damage=0.05,exits=0.3")
    assert kwargs["shaping"] == {"damage": 0.1, "exits": 0.3}
    assert TASKS["heroes/trapped-corridor"].options["shaping"]["damage"] == 0.05  # the task is unchanged
    auto = training_kwargs(TASKS["heroes/walk-out"], "auto")["shaping"]
    assert auto == {k: float(v) for k, v in (p.split("=") for p in HERO_TRAINING_SHAPING.split(","))}
    assert "shaping" not in training_kwargs(TASKS["dm/ambush"], "auto")  # the DM trains on its rewards
    # on the bundled adventures the potential terms only: the others paid random play as much as a win
    adventure = training_kwargs(TASKS["heroes/flooded-cellar"], "auto")["shaping"]
    assert adventure == {"goal_exits": 0.3, "exit_path": 1.0, "explored": 0.3}
    assert training_kwargs(TASKS["heroes/campaign"], "auto")["shaping"] == adventure
    assert "shaping" not in training_kwargs(TASKS["heroes/walk-out"], "")
    with pytest.raises(SystemExit, match="unknown term 'gold'"):
        training_kwargs(TASKS["heroes/walk-out"], "gold=1")
    with pytest.raises(SystemExit, match="not name=weight"):
        training_kwargs(TASKS["heroes/walk-out"], "exits=lots")
    with pytest.raises(SystemExit, match="--adventure, --max-turns: a task fixes the game"):
        main(["--task", "heroes/walk-out", "--adventure", "goblin_warrens", "--max-turns", "5"])


def test_baselines_play_the_learning_side_on_held_out_seeds():
    scripted = play_games("heroes/exit-doors", agent_chooser("scripted", "heroes"), 5, seed=EVAL_SEED)
    random = play_games("heroes/exit-doors", agent_chooser("random", "heroes"), 5, seed=EVAL_SEED)
    assert scripted["games"] == random["games"] == 5
    assert scripted["win_rate"] >= random["win_rate"]
    assert scripted["win_low"] <= scripted["win_rate"] <= scripted["win_high"]


def test_games_played_side_by_side_are_the_same_games_as_one_at_a_time():
    import numpy as np

    seen: list[int] = []

    def first_legal(envs, observations):
        seen.append(len(envs))
        return [int(np.flatnonzero(env.action_masks())[0]) for env in envs]

    alone = play_games("heroes/one-guard", first_legal, 5, at_once=1)
    assert max(seen) == 1
    seen.clear()
    side_by_side = play_games("heroes/one-guard", first_legal, 5, at_once=3)
    assert max(seen) == 3  # three games at a time, then the last two
    assert side_by_side == alone  # game k on seed EVAL_SEED + k either way, every outcome alike
    assert alone["games"] == 5


def test_a_chooser_that_answers_for_the_wrong_number_of_games_is_an_error():
    with pytest.raises(ValueError, match="choose gave 1 actions for 3 running games"):
        play_games("heroes/walk-out", lambda envs, observations: [0], 3, at_once=3)
    with pytest.raises(ValueError, match="games=0"):
        play_games("heroes/walk-out", lambda envs, observations: [], 0)


def test_how_often_a_run_is_evaluated_changes_nothing_of_its_training(tmp_path):
    import torch
    from sb3_contrib import MaskablePPO

    from training.benchmark import Settings, train_seed

    def final_weights(eval_every: int, out: str):
        settings = Settings(
            task="heroes/walk-out", steps=256, seeds="1", eval_every=eval_every, eval_games=3,
            n_envs=2, n_steps=64, batch_size=64, n_epochs=1, network="mlp", net_arch="16",
            progress=False, out=str(tmp_path / out),
        )  # fmt: skip
        rows = train_seed(settings, 1)
        model = MaskablePPO.load(tmp_path / out / "heroes-walk-out" / "seed1" / "final_model.zip")
        return rows, model.policy.state_dict()

    often, weights_often = final_weights(64, "often")
    rarely, weights_rarely = final_weights(10**6, "rarely")
    assert len(often) > len(rarely) == 2  # at the start and at the end only
    assert all(torch.equal(weights_often[k], weights_rarely[k]) for k in weights_often)
    assert often[-1]["win_rate"] == rarely[-1]["win_rate"]  # the same policy, the same sampled games


def _tiny(tmp_path: Path, **changes):
    from training.benchmark import Settings

    base = dict(
        task="heroes/walk-out", steps=128, seeds="1", eval_every=64, eval_games=2, n_envs=2, n_steps=64,
        batch_size=64, n_epochs=1, network="mlp", net_arch="16", progress=False, out=str(tmp_path),
    )  # fmt: skip
    return Settings(**(base | changes))


def test_a_resumed_run_goes_on_from_its_model_and_continues_its_curve(tmp_path):
    from sb3_contrib import MaskablePPO

    from training.benchmark import read_rows, train_seed

    folder = tmp_path / "heroes-walk-out" / "seed1"
    first = train_seed(_tiny(tmp_path), 1)
    assert first[-1]["steps"] == 128
    weights = MaskablePPO.load(folder / "final_model.zip").policy.state_dict()
    rows = train_seed(_tiny(tmp_path, steps=256, eval_every=128, resume=True), 1)
    steps = [r["steps"] for r in rows]
    # the first run's curve (evaluated between updates: 0, then 128 at its end), then one evaluation
    # more, no repeat at 128
    assert steps == [0, 128, 256]
    assert read_rows(folder / "curve.csv") == rows
    assert rows[-1]["seconds"] > rows[-2]["seconds"]  # the training time goes on from the first run's
    resumed = MaskablePPO.load(folder / "final_model.zip")
    assert resumed.num_timesteps == 256
    assert any((resumed.policy.state_dict()[k] != weights[k]).any() for k in weights)  # trained on
    run = json.loads((folder / "run.json").read_text())
    assert run["resumed"] == [128] and run["steps"] == 128  # the settings it was begun with
    assert run["task"] == "heroes/walk-out" and run["train_shaping"] == "auto"
    # the task fixes the game: no adventure, party or shaping the run did not play is recorded
    assert not {"adventure", "heroes", "max_turns", "shaping", "reward_truncated"} & set(run)
    assert (folder / "resumed1" / "progress.csv").is_file()  # the first run's log is kept
    assert (folder / "progress.csv").is_file()


def test_a_run_stopped_by_ctrl_c_is_resumed_from_where_it_stopped(tmp_path, monkeypatch):
    from stable_baselines3.common.callbacks import BaseCallback

    import training.benchmark as benchmark

    class CtrlC(BaseCallback):
        def _on_step(self) -> bool:
            if self.num_timesteps >= 96:
                raise KeyboardInterrupt
            return True

    folder = tmp_path / "heroes-walk-out" / "seed1"
    with monkeypatch.context() as patch:
        patch.setattr(benchmark, "progress_callback", lambda *args: CtrlC())
        first = benchmark.train_seed(_tiny(tmp_path), 1)
    assert [r["steps"] for r in first] == [0]  # stopped in the first rollout: no evaluation after it
    stopped = json.loads((folder / "run.json").read_text())["interrupted"]
    assert stopped["steps"] == 96 and stopped["seconds"] > first[-1]["seconds"]
    rows = benchmark.train_seed(_tiny(tmp_path, resume=True), 1)
    # the model saved at 96 is evaluated there, then trains whole rollouts of 128 steps past 128
    assert [r["steps"] for r in rows] == [0, 96, 224]
    assert stopped["seconds"] <= rows[1]["seconds"] < rows[2]["seconds"]  # no training time lost
    run = json.loads((folder / "run.json").read_text())
    assert run["resumed"] == [96] and "interrupted" not in run


def test_resuming_asks_for_the_same_training_and_for_more_steps(tmp_path):
    from training.benchmark import train_seed

    with pytest.raises(SystemExit, match="has no .*final_model.zip"):
        train_seed(_tiny(tmp_path, resume=True), 1)
    train_seed(_tiny(tmp_path), 1)
    with pytest.raises(SystemExit, match=r"--ent-coef was 0.01, here 0.02"):
        train_seed(_tiny(tmp_path, steps=256, ent_coef=0.02, resume=True), 1)
    with pytest.raises(SystemExit, match=r"--train-shaping was 'auto', here ''"):
        train_seed(_tiny(tmp_path, steps=256, train_shaping="", resume=True), 1)
    with pytest.raises(SystemExit, match="is at 128 steps already; --steps 128 asks for no more"):
        train_seed(_tiny(tmp_path, resume=True), 1)
    with pytest.raises(
        SystemExit, match=r"has trained [0-9.]+ minutes already; --minutes 1e-06 \(the whole run's\)"
    ):
        train_seed(_tiny(tmp_path, steps=256, minutes=1e-6, resume=True), 1)
    with pytest.raises(SystemExit, match="--lr-decay"):
        train_seed(_tiny(tmp_path, steps=256, lr_decay=True, resume=True), 1)


def test_the_readme_tasks_example_runs():
    import dungeon_env

    text = (ROOT / "README.md").read_text()
    section = text.split("### Learning tasks and the benchmark", 1)[1]
    block = section.split("```python\n", 1)[1].split("```", 1)[0]
    space = {"__name__": "readme"}
    exec(compile(block, "README.md", "exec"), space)
    assert space["same"].unwrapped.role == space["heroes"].role == "heroes"
    assert type(dungeon_env.make_task("heroes/one-guard")) is type(space["aec"])


def test_a_run_trained_with_other_shaping_terms_is_not_resumed_under_auto(tmp_path):
    """``auto`` is spelled out per task into run.json: a run begun under an older ``auto`` (other
    terms) is refused by --resume, not continued under a recipe it never had."""
    from training.benchmark import recipe_of, resume_point, write_run_file

    settings = _tiny(tmp_path, task="heroes/flooded-cellar", resume=True)
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "final_model.zip").write_bytes(b"")
    (folder / "curve.csv").write_text("steps,seconds\n0,0\n")
    write_run_file(settings, folder, [])
    saved = json.loads((folder / "run.json").read_text())
    assert (
        saved["training_shaping"]
        == recipe_of(settings)
        == {"goal_exits": 0.3, "exit_path": 1.0, "explored": 0.3}
    )
    saved["training_shaping"] = {"squares": 0.05}
    (folder / "run.json").write_text(json.dumps(saved))
    with pytest.raises(SystemExit, match="the shaping terms were \\{'squares': 0.05\\}"):
        resume_point(settings, 1, folder)
