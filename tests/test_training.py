"""training/: Wilson intervals on known answers, the settings CLI, agents by name, and each script run
end to end in a subprocess with a tiny budget (CleanRL's smoke tests)."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dungeon_env.content.model import ContentWarning
from training.common import EnvSettings, make_agent, parse_settings, run_name
from training.evaluate import wilson_interval

ROOT = Path(__file__).resolve().parents[1]
TINY_ENV = ["--max-turns", "4", "--heroes", "3", "--adventure", "flooded_cellar"]
TINY_PPO = ["--n-envs", "2", "--n-steps", "64", "--batch-size", "64", "--n-epochs", "1", "--net-arch", "16"]

needs_sb3 = pytest.mark.skipif(
    not (importlib.util.find_spec("sb3_contrib") and importlib.util.find_spec("tensorboard")),
    reason="the training extra (sb3-contrib, tensorboard) is not installed",
)


@pytest.mark.parametrize(
    ("successes", "n", "expected"),
    [
        (0, 10, (0.0, 0.2775)),
        (5, 10, (0.2366, 0.7634)),
        (10, 10, (0.7225, 1.0)),
        (81, 263, (0.2553, 0.3662)),  # Wikipedia's worked example
        (1, 1000, (0.0002, 0.0057)),
    ],
)
def test_wilson_interval_known_answers(successes, n, expected):
    low, high = wilson_interval(successes, n)
    assert low == pytest.approx(expected[0], abs=1e-4) and high == pytest.approx(expected[1], abs=1e-4)


def test_wilson_interval_edge_cases():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(5, 10, z=0.0) == pytest.approx((0.5, 0.5))
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def _help_text(settings_class: type, capsys) -> str:
    """The ``--help`` of a settings class, its words only (no box drawing, one space between)."""
    with pytest.raises(SystemExit) as stop:
        parse_settings(settings_class, ["--help"])
    assert stop.value.code == 0
    return " ".join(w for w in capsys.readouterr().out.split() if not set(w) <= set("│╭╮╰╯─"))


def test_settings_become_a_cli_with_field_docs(capsys):
    @dataclasses.dataclass
    class Settings(EnvSettings):
        steps: int = 10
        """how many steps"""
        fast: bool = False
        """go fast"""

    text = _help_text(Settings, capsys)
    assert "--steps INT how many steps (default: 10)" in text
    assert "--fast, --no-fast go fast (default: False)" in text
    assert "--max-turns INT turn cap of an episode" in text
    settings = parse_settings(
        Settings, ["--steps", "5", "--fast", "--max-turns", "7", "--heroes", "bram,sela,orwin"]
    )
    assert (settings.steps, settings.fast, settings.max_turns) == (5, True, 7)
    kwargs = settings.env_kwargs()
    assert kwargs["heroes"] == ["bram", "sela", "orwin"] and kwargs["shaping"] == {
        "exploration": 0.05,
        "kills": 0.1,
    }
    assert parse_settings(
        Settings, ["--heroes", "4", "--shaping", "", "--reward-truncated", "-1"]
    ).env_kwargs() == {
        "adventure": "flooded_cellar",
        "heroes": 4,
        "max_turns": 100,  # the game's own default (issue 16)
        "reward_truncated": -1.0,
        "reward_completed_without_goal": 0.0,
    }
    name = run_name("flooded_cellar", "exp", 3)
    assert name.startswith("flooded_cellar__exp__3__") and name.rsplit("__", 1)[1].isdigit()


SCRIPTS = {
    "evaluate": "Settings",
    "train_role": "Settings",
    "selfplay": "Settings",
    "league": "Settings",
    "benchmark": "Settings",
    "shaping_check": "CheckSettings",
    "rllib_train": "Settings",
    "tianshou_example": "Settings",
}


@pytest.mark.parametrize("module", sorted(SCRIPTS))
def test_every_field_of_a_script_is_its_flag(module, capsys):
    """Each script's settings: no flags give the defaults; ``--field-name value`` (``--flag`` or
    ``--no-flag`` for a bool) sets exactly that field, of the field's type; the help shows the
    field's docstring and default."""
    settings_class = getattr(importlib.import_module(f"training.{module}"), SCRIPTS[module])
    assert parse_settings(settings_class, []) == settings_class()
    argv, want = [], {}
    for field in dataclasses.fields(settings_class):
        flag, default = "--" + field.name.replace("_", "-"), field.default
        if isinstance(default, bool):
            argv.append(flag if not default else "--no-" + flag[2:])
            want[field.name] = not default
        elif isinstance(default, int | float):
            argv += [flag, str(default - 3)]  # negative numbers too
            want[field.name] = default - 3
        else:
            argv += [flag, default + ",x"]
            want[field.name] = default + ",x"
    got = dataclasses.asdict(parse_settings(settings_class, argv))
    assert got == want and all(type(got[k]) is type(v) for k, v in want.items())
    text = _help_text(settings_class, capsys)
    for field in dataclasses.fields(settings_class):
        assert "--" + field.name.replace("_", "-") in text
        assert f"(default: {field.default if field.default != '' else repr('')})" in text


def test_agents_by_name():
    agent = make_agent("random", "dm", seed=0)
    assert agent.act(None, [0, 0, 1, 0]) == 2
    with pytest.raises(ValueError, match="known names"):
        make_agent("no_such_agent_xyz", "heroes")
    with pytest.raises(FileNotFoundError):
        make_agent("missing_model.zip", "heroes")
    with pytest.raises(ValueError, match="side"):
        make_agent("random", "monsters")


def run_script(module: str, args: list[str], cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def only(pattern: str, base: Path) -> Path:
    (path,) = base.glob(pattern)
    return path


def test_evaluate_random_vs_random_prints_a_table_whose_counts_sum_to_n(tmp_path):
    out = run_script(
        "training.evaluate",
        [*TINY_ENV, "--games", "12", "--workers", "2", "--json-out", str(tmp_path / "e.json")],
        tmp_path,
    )
    assert "| win rate | games | rate | 95% Wilson interval |" in out and "| total | 12 |" in out
    assert "| end | games | rate | 95% Wilson interval |" in out
    assert "| completed (every surviving hero left, goals met or not) |" in out
    result = json.loads((tmp_path / "e.json").read_text())
    assert sum(result["counts"].values()) == 12 and set(result["counts"]) == {
        "completed_with_goals",
        "completed_without_goals",
        "failed",
        "truncated",
    }
    for end, count in result["counts"].items():
        assert result["intervals"][end] == pytest.approx(list(wilson_interval(count, 12)))
    counts, wins = result["counts"], result["win_rates"]
    assert wins["completed"]["count"] == counts["completed_with_goals"] + counts["completed_without_goals"]
    assert wins["completed_with_goals"]["count"] == counts["completed_with_goals"]
    for w in wins.values():
        assert w["interval"] == pytest.approx(list(wilson_interval(w["count"], 12)))


@needs_sb3
def test_train_role_end_to_end(tmp_path):
    args = [*TINY_ENV, *TINY_PPO, "--total-timesteps", "256", "--checkpoint-freq", "128", "--eval-games", "3"]
    out = run_script("training.train_role", [*args, "--role", "heroes"], tmp_path)
    assert "steps per second" in out and "| total | 3 |" in out
    run = only("runs/flooded_cellar__train_role_heroes__1__*", tmp_path)
    assert (run / "final_model.zip").is_file() and list(run.glob("events.out.tfevents.*"))
    assert len(list((run / "checkpoints").glob("heroes_*_steps.zip"))) == 2
    assert json.loads((run / "summary.json").read_text())["steps"] >= 256
    # the DM, in subprocesses, against the heroes just trained (a checkpoint as the opponent)
    heroes = str(run / "final_model.zip")
    out = run_script(
        "training.train_role", [*args, "--role", "dm", "--subproc", "--opponent", heroes], tmp_path
    )
    dm_run = only("runs/flooded_cellar__train_role_dm__1__*", tmp_path)
    result = json.loads((dm_run / "eval.json").read_text())
    assert result["heroes_agent"] == heroes and sum(result["counts"].values()) == 3


@needs_sb3
def test_selfplay_end_to_end(tmp_path):
    args = [*TINY_ENV, *TINY_PPO, "--generations", "2", "--steps-per-generation", "128", "--eval-games", "2"]
    out = run_script("training.selfplay", args, tmp_path)
    assert "generation 2: dm" in out and "steps per second" in out
    run = only("runs/flooded_cellar__selfplay_both__1__*", tmp_path)
    pool = sorted(p.name for p in (run / "pool").iterdir())
    assert pool == ["dm_g0001.zip", "dm_g0002.zip", "heroes_g0001.zip", "heroes_g0002.zip"]
    assert (run / "final_heroes.zip").is_file() and (run / "final_dm.zip").is_file()
    assert list((run / "heroes").glob("events.out.tfevents.*")) and list(
        (run / "dm").glob("events.out.tfevents.*")
    )
    evals = json.loads((run / "eval.json").read_text())
    assert len(evals) == 3 and all(sum(e["counts"].values()) == 2 for e in evals)


def test_evaluate_tells_a_party_that_walked_out_from_one_that_met_its_goals(tmp_path):
    """Heroes who walk straight back out of the start area complete the adventure without its goal:
    counted as completed, not as completed with the goals."""
    from tests.builders import ARENA, PLAIN
    from training.evaluate import ENDS, evaluate, format_table

    text = Path(ARENA).read_text().replace('id = "arena"', 'id = "walk_back_out"')
    text = text.replace("exits = [[23, 27]]\n", "")  # no exit of its own: the entrance is the exit
    adventure = tmp_path / "walk_back_out.toml"
    adventure.write_text(
        text + '[[objective]]\nkind = "reach"\ntext = "Find K."\narea = "K"\nprimary = true\n'
    )
    kwargs = {"adventure": str(adventure), "heroes": PLAIN, "max_turns": 5}
    with pytest.warns(ContentWarning, match="no exits given"):  # the entrance is the exit (D-25)
        result = evaluate(WalkOut(), "random", kwargs, games=3)
    assert result["counts"] == dict.fromkeys(ENDS, 0) | {"completed_without_goals": 3}
    assert result["win_rates"]["completed"]["count"] == 3
    assert result["win_rates"]["completed_with_goals"]["count"] == 0
    row = "| completed without every primary goal (the survivors left without them) | 3 | 1.000 |"
    assert row in format_table(result)


class WalkOut:
    """A hero side that steps onto the start squares (the exits here): east when it can, else west."""

    def act(self, observation, action_mask) -> int:
        from dungeon_env.engine.actions import END, MOVE_ACTIONS

        for action in (MOVE_ACTIONS[1], MOVE_ACTIONS[3], END):
            if action_mask[action]:
                return action
        return int(np.flatnonzero(action_mask)[0])


def test_evaluate_plays_scripted_agents_by_name():
    """Scripted agents need the game: the evaluation hands them the env they play in (regression:
    they used to be built without it and failed at their first decision)."""
    from training.evaluate import play_games

    counts = play_games(
        "scripted_heroes",
        "scripted_dm",
        {"adventure": "flooded_cellar", "heroes": 3, "max_turns": 8},
        seeds=[0, 1],
    )
    assert sum(counts.values()) == 2
