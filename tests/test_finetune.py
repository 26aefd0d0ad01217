"""Fine-tuning a cloned policy against a league (training.finetune)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from training.clone import CloneSettings, clone
from training.dataset import Plan, build_dataset
from training.finetune import FinetuneSettings, finetune
from training.finetune import main as finetune_main


@pytest.fixture(scope="module")
def cloned(tmp_path_factory):
    """A small lean clone of the heroes v2 on one game of flooded_cellar."""
    folder = tmp_path_factory.mktemp("finetune")
    plan = Plan(
        teacher="scripted@v2",
        opponent="scripted@v2",
        side="heroes",
        adventures=["flooded_cellar"],
        parties=[3],
        games=1,
    )
    build_dataset(plan, folder / "data")
    settings = CloneSettings(
        data=str(folder / "data"), out=str(folder / "clone"), epochs=2, held_out=0.0, net_arch="32"
    )
    clone(settings)
    return folder / "clone" / "model.zip"


def parameters(path) -> dict[str, np.ndarray]:
    from sb3_contrib import MaskablePPO

    policy = MaskablePPO.load(path, device="cpu").policy
    return {name: p.detach().numpy().copy() for name, p in policy.named_parameters()}


def test_a_tiny_finetuning_run_updates_the_clone_against_two_opponents(cloned, tmp_path):
    """Two opponents on one adventure and party: two envs; 128 decisions in two rollouts move the
    policy's weights, keep the network's shapes, and write the curve and the model."""
    settings = FinetuneSettings(
        init_from=str(cloned),
        out=str(tmp_path / "ft"),
        opponent=("scripted@v2", "random"),
        adventure=("flooded_cellar",),
        heroes=(3,),
        total_timesteps=128,
        n_steps=32,
        batch_size=32,
        target_kl=0.0,
        learning_rate=1e-3,
        progress=False,
    )
    summary = finetune(settings)
    assert summary["finished"] and summary["envs"] == 2 and summary["steps"] >= 128
    before, after = parameters(cloned), parameters(tmp_path / "ft" / "final_model.zip")
    assert before.keys() == after.keys()
    assert all(before[k].shape == after[k].shape for k in before)
    moved = [k for k in before if not np.array_equal(before[k], after[k])]
    assert any(k.startswith("action_net") for k in moved), moved
    assert any(k.startswith("features_extractor") for k in moved), moved
    progress = (tmp_path / "ft" / "progress.csv").read_text().splitlines()
    assert len(progress) >= 3 and "train/approx_kl" in progress[0]
    assert json.loads((tmp_path / "ft" / "settings.json").read_text())["init_from"] == str(cloned)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--init-from", "nowhere.zip"], "no checkpoint at nowhere.zip"),
        (["--role", "wizard"], "--role must be heroes or dm"),
        (["--adventure", "atlantis"], "unknown ['atlantis']"),
        (["--heroes", "7"], "party sizes 3, 4 or 5"),
    ],
)
def test_the_finetune_command_refuses_bad_input_with_exit_code_2(cloned, tmp_path, capsys, argv, message):
    base = ["--init-from", str(cloned), "--out", str(tmp_path / "ft"), "--no-progress"]
    with pytest.raises(SystemExit) as exit_info:
        finetune_main(base + argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_a_time_limit_ends_the_run_and_still_saves_the_model(cloned, tmp_path):
    """``minutes``: the run stops at its first step past the limit, short of its steps, and the
    model is saved as the final one."""
    settings = FinetuneSettings(
        init_from=str(cloned),
        out=str(tmp_path / "ft"),
        adventure=("flooded_cellar",),
        heroes=(3,),
        total_timesteps=10_000,
        n_steps=16,
        batch_size=16,
        minutes=1e-6,
        progress=False,
    )
    summary = finetune(settings)
    assert summary["finished"] and summary["steps"] < 10_000
    assert (tmp_path / "ft" / "final_model.zip").is_file()
