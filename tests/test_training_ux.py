"""Training that respects the user's time (issue 16): a progress line with the time left, a model
saved on Ctrl-C with no traceback, and defaults that agree with the game's."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from training.common import EnvSettings  # noqa: E402
from training.train_role import Settings  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TINY_PPO = ["--n-envs", "2", "--n-steps", "64", "--batch-size", "64", "--n-epochs", "1", "--net-arch", "16"]


def test_defaults_agree_with_the_game():
    from dungeon_env.aec import raw_env

    default_cap = raw_env.__init__.__defaults__[2]  # (adventure, heroes, max_turns, ...)
    assert EnvSettings().max_turns == default_cap == 100
    assert Settings().checkpoint_freq <= 10_000 < Settings().total_timesteps


@pytest.mark.parametrize(
    "module",
    [
        "evaluate",
        "train_role",
        "league",
        "benchmark",
        "selfplay",
        "shaping_check",
        "rllib_train",
        "tianshou_example",
    ],
)
def test_every_training_command_prints_its_help(module, capsys):
    """Every command built from a settings dataclass shows ``--help`` (a ``%`` in a field's doc once
    broke argparse's help of ``training.evaluate``)."""
    import importlib

    main = importlib.import_module(f"training.{module}").main
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    assert "--" in capsys.readouterr().out


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_progress_lines_then_ctrl_c_saves_the_model(tmp_path):
    args = [sys.executable, "-m", "training.train_role", *TINY_PPO, "--max-turns", "8", "--eval-games", "0"]
    args += ["--total-timesteps", "2000000", "--role", "heroes", "--runs-dir", str(tmp_path)]
    proc = subprocess.Popen(
        args,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        # Ctrl-C as in a terminal: a shell without job control starts background jobs with SIGINT
        # ignored, and a Python started with it ignored never raises KeyboardInterrupt
        preexec_fn=_default_sigint,
    )
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob("*/checkpoints")) and time.monotonic() < deadline:
        time.sleep(0.5)  # training has begun once the checkpoint callback made its folder
    time.sleep(8)  # the first progress line comes 5 s in
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    saved = list(tmp_path.glob("*/heroes_interrupted.zip"))
    assert saved, out[-2000:] + err[-2000:]
    assert "interrupted at" in out and "Traceback" not in err, err[-3000:]
    assert "steps/s" in out and "min left" in out  # the progress line of a log that is not a terminal


def test_the_readme_sb3_example_runs(tmp_path, monkeypatch):
    """The README's MaskablePPO example, with its quick-test budget cut to one rollout."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## Training with MaskablePPO", 1)[1]
    block = section.split("```python\n", 1)[1].split("```", 1)[0]
    assert "total_timesteps=5_000, progress_bar=True" in block
    block = block.replace("total_timesteps=5_000", "total_timesteps=256").replace(
        'shaping={"exploration"', 'max_turns=3, shaping={"exploration"'
    )
    monkeypatch.chdir(tmp_path)
    exec(compile(block, "README.md", "exec"), {"__name__": "readme"})
    assert (tmp_path / "heroes_ppo.zip").is_file()
