"""A dataset played in parallel (training.dataset --workers, --backend) is the dataset played in this
process: the same arrays, shard by shard, and the same games in its manifest."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from training.dataset import Plan, build_dataset, play_chunk
from training.dataset import main as dataset_main

SMALL = ["--adventure", "flooded_cellar", "--heroes", "3", "--games", "2", "--games-per-shard", "1"]
SMALL += ["--max-turns", "8", "--no-progress"]


def contents(folder: Path) -> tuple[dict, list[dict[str, np.ndarray]]]:
    """A dataset's manifest (without its timing and code version) and its shards' arrays."""
    manifest = json.loads((folder / "manifest.json").read_text())
    shards = []
    for shard in manifest["shards"]:
        with np.load(folder / shard["file"], allow_pickle=False) as arrays:
            shards.append({name: arrays[name] for name in arrays.files})
    for varying in ("seconds", "code_version"):
        manifest.pop(varying)
    return manifest, shards


def assert_same_dataset(a: Path, b: Path) -> None:
    (manifest_a, shards_a), (manifest_b, shards_b) = contents(a), contents(b)
    assert manifest_a == manifest_b
    assert len(shards_a) == len(shards_b)
    for x, y in zip(shards_a, shards_b, strict=True):
        assert x.keys() == y.keys()
        for name in x:
            assert x[name].dtype == y[name].dtype
            np.testing.assert_array_equal(x[name], y[name], err_msg=name)


def test_two_local_workers_write_the_dataset_one_process_writes(tmp_path):
    dataset_main([*SMALL, "--out", str(tmp_path / "serial")])
    dataset_main([*SMALL, "--workers", "2", "--backend", "local", "--out", str(tmp_path / "local")])
    assert_same_dataset(tmp_path / "serial", tmp_path / "local")
    assert len(contents(tmp_path / "local")[1]) == 2


class Backwards:
    """A backend that hands back the last chunk submitted first."""

    workers = 2

    def __init__(self) -> None:
        self.pending: dict[int, object] = {}
        self.submitted = 0

    def submit(self, chunk) -> int:
        self.submitted += 1
        self.pending[self.submitted] = chunk
        return self.submitted

    def wait(self):
        handle = max(self.pending)
        return [(handle, play_chunk(self.pending.pop(handle)))]

    def cancel(self, handle) -> None:
        self.pending.pop(handle, None)


def test_chunks_finishing_out_of_order_are_written_in_the_plans_order(tmp_path):
    plan = Plan(
        teacher="scripted@v2",
        opponent="scripted@v2",
        side="dm",
        adventures=["flooded_cellar"],
        parties=[3],
        games=3,
        max_turns=6,
        games_per_shard=1,
    )
    build_dataset(plan, tmp_path / "in_order")
    build_dataset(plan, tmp_path / "backwards", backend=Backwards())
    assert_same_dataset(tmp_path / "in_order", tmp_path / "backwards")


def test_an_unknown_backend_is_refused_in_one_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        dataset_main([*SMALL, "--workers", "2", "--backend", "cloud", "--out", str(tmp_path / "x")])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'cloud'" in err and "Traceback" not in err


def test_the_ray_backend_without_ray_names_the_extra_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray: ImportError
    with pytest.raises(SystemExit) as stop:
        dataset_main([*SMALL, "--workers", "2", "--backend", "ray", "--out", str(tmp_path / "x")])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install -e '.[ray]'" in err and "Traceback" not in err
    assert not (tmp_path / "x").exists()


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed")
def test_ray_tasks_on_a_local_instance_write_the_same_dataset(tmp_path):
    # last in this file: once Ray is loaded, local workers start from a forkserver instead of a fork
    dataset_main([*SMALL, "--out", str(tmp_path / "serial")])
    dataset_main([*SMALL, "--workers", "2", "--backend", "ray", "--out", str(tmp_path / "ray")])
    assert_same_dataset(tmp_path / "serial", tmp_path / "ray")
