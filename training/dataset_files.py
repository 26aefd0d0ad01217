"""The files of a decision dataset (``training.dataset``): compressed ``.npz`` shards and a manifest.

A dataset is a directory::

    manifest.json        what was played (teacher, opponent, side, adventures, parties, seeds, the
                         code version), the decision kinds, and every game and shard with its counts
    shard_000.npz ...    the decisions of a few games each (``DECISION_ARRAYS``) and those games'
                         full action lists (``replay_actions`` from ``replay_starts``), by which any
                         game replays from its seed

:func:`load_dataset` checks every file against the manifest before anything reads it: a missing or
unreadable shard, a missing array, a wrong shape or dtype, a count that disagrees with the manifest, or
a teacher's action outside its own mask is a :class:`DatasetError` naming the file and what was
expected.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dungeon_env.engine import N_ACTIONS, Decision
from dungeon_env.observation import OBS_SPEC

MANIFEST = "manifest.json"
FORMAT = "dungeon_env.decisions/1"
DECISION_KINDS = [d.name.lower() for d in Decision]  # the env's info["decision"] words, by index
NO_VALUE = np.float32(np.nan)  # search_value where the teacher did not search

# name -> (dtype, shape after the decision axis)
DECISION_ARRAYS: dict[str, tuple[np.dtype, tuple[int, ...]]] = {
    "observation": (np.dtype(np.float32), (OBS_SPEC.size,)),  # the side's flat observation v1
    "action_mask": (np.dtype(np.bool_), (N_ACTIONS,)),  # the legal actions of the decision
    "action": (np.dtype(np.int16), ()),  # the teacher's action
    "decision": (np.dtype(np.int8), ()),  # index into DECISION_KINDS
    "agent": (np.dtype(np.int8), ()),  # the agent asked: hero k as k, the DM as 5
    "game": (np.dtype(np.int32), ()),  # index into the manifest's games
    "step": (np.dtype(np.int32), ()),  # index of this decision's action in its game's action list
    "side_return": (np.dtype(np.float32), ()),  # the side's return of the whole game
    "search_value": (np.dtype(np.float32), ()),  # the search's value of its choice, NaN if none
}
GAME_ARRAYS = {"replay_actions": np.dtype(np.int16), "replay_starts": np.dtype(np.int64)}
DM_AGENT = 5


class DatasetError(ValueError):
    """A dataset's file is missing, unreadable or not what its manifest says."""


@dataclass
class Dataset:
    """A loaded dataset: the manifest and every decision array, concatenated over the shards."""

    manifest: dict
    arrays: dict[str, np.ndarray]

    def __len__(self) -> int:
        return len(self.arrays["action"])

    @property
    def games(self) -> list[dict]:
        return self.manifest["games"]

    def replay_actions(self, game: int) -> list[int]:
        """The full action list (both sides) of game ``game``, which replays it from its seed."""
        return list(self.manifest["games"][game]["actions"])


def shard_name(index: int) -> str:
    return f"shard_{index:03d}.npz"


def write_shard(path: Path, decisions: dict[str, np.ndarray], replays: list[list[int]]) -> None:
    """Save one shard: the decision arrays (each cast to its ``DECISION_ARRAYS`` dtype) and the
    games' full action lists."""
    arrays = {name: np.asarray(decisions[name], dtype) for name, (dtype, _) in DECISION_ARRAYS.items()}
    starts = np.cumsum([0] + [len(r) for r in replays]).astype(np.int64)
    flat = np.concatenate([np.asarray(r, np.int16) for r in replays]) if replays else np.zeros(0, np.int16)
    np.savez_compressed(path, **arrays, replay_actions=flat, replay_starts=starts)


def write_manifest(folder: Path, manifest: dict) -> None:
    (folder / MANIFEST).write_text(json.dumps(dict(manifest, format=FORMAT), indent=2))


def read_manifest(folder: Path) -> dict:
    """The manifest of the dataset in ``folder``, or a DatasetError saying what is wrong."""
    path = Path(folder) / MANIFEST
    if not Path(folder).is_dir():
        raise DatasetError(f"{folder}: no such dataset directory (make one with python -m training.dataset)")
    if not path.is_file():
        raise DatasetError(f"{path}: missing; a dataset directory holds {MANIFEST} and its shards")
    try:
        manifest = json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise DatasetError(f"{path}: not valid JSON ({error})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise DatasetError(f"{path}: expected a manifest of format {FORMAT!r}")
    for key in ("side", "shards", "games", "decision_kinds"):
        if key not in manifest:
            raise DatasetError(f"{path}: the key {key!r} is missing")
    if manifest["decision_kinds"] != DECISION_KINDS:
        raise DatasetError(
            f"{path}: decision kinds {manifest['decision_kinds']} differ from {DECISION_KINDS}"
        )
    return manifest


def load_shard(path: Path, decisions: int, games: int) -> dict[str, np.ndarray]:
    """The arrays of one shard, checked: every array present, of its dtype and shape, ``decisions``
    decisions and ``games`` games as the manifest says, every teacher action legal under its mask."""
    if not path.is_file():
        raise DatasetError(f"{path}: missing (the manifest lists it)")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise DatasetError(f"{path}: not a readable .npz shard ({error})") from None
    for name, (dtype, tail) in DECISION_ARRAYS.items():
        _check_array(path, arrays, name, dtype, (decisions, *tail))
    _check_array(path, arrays, "replay_starts", GAME_ARRAYS["replay_starts"], (games + 1,))
    total = int(arrays["replay_starts"][-1])
    _check_array(path, arrays, "replay_actions", GAME_ARRAYS["replay_actions"], (total,))
    mask, action = arrays["action_mask"], arrays["action"].astype(np.int64)
    if decisions and (
        (action < 0).any() or (action >= N_ACTIONS).any() or not mask[np.arange(decisions), action].all()
    ):
        raise DatasetError(f"{path}: a teacher's action is not legal under its stored mask")
    return arrays


def _check_array(path: Path, arrays: dict, name: str, dtype: np.dtype, shape: tuple[int, ...]) -> None:
    if name not in arrays:
        raise DatasetError(f"{path}: the array {name!r} is missing")
    array = arrays[name]
    if array.dtype != dtype or array.shape != shape:
        raise DatasetError(
            f"{path}: {name} is {array.dtype} of shape {array.shape}, expected {dtype} of shape {shape}"
        )


def load_dataset(folder: str | Path, sparse_observations: bool = False) -> Dataset:
    """The dataset in ``folder``, every shard checked (:func:`load_shard`) and concatenated; its games'
    action lists go into the manifest's games (``actions``).

    ``sparse_observations`` keeps the observations as one ``scipy.sparse`` CSR matrix, converted
    shard by shard: about one value in twenty is not 0, so a dataset of 150,000 decisions takes about
    1 GB instead of 10 (index rows and call ``.toarray()`` for a dense batch)."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    parts, first = [], 0
    for shard in manifest["shards"]:
        path = folder / shard["file"]
        arrays = load_shard(path, int(shard["decisions"]), int(shard["games"]))
        games = manifest["games"][first : first + int(shard["games"])]
        starts = arrays.pop("replay_starts")
        replays = arrays.pop("replay_actions")
        for k, game in enumerate(games):
            game["actions"] = replays[starts[k] : starts[k + 1]].astype(int).tolist()
        if len(arrays["game"]) and not np.isin(arrays["game"], [g["game"] for g in games]).all():
            raise DatasetError(f"{path}: decisions of games that the manifest does not put in this shard")
        if sparse_observations:
            from scipy import sparse

            arrays["observation"] = sparse.csr_matrix(arrays["observation"])
        parts.append(arrays)
        first += int(shard["games"])
    if first != len(manifest["games"]):
        raise DatasetError(
            f"{folder / MANIFEST}: its shards hold {first} games, its games list {len(manifest['games'])}"
        )
    if not parts:
        raise DatasetError(f"{folder / MANIFEST}: the dataset has no shards")
    return Dataset(manifest, stack_decisions(parts))


def stack_decisions(parts: list[dict]) -> dict:
    """The decision arrays of ``parts`` one after another; sparse observations (CSR rows) stay sparse."""
    stacked = {
        name: np.concatenate([p[name] for p in parts]) for name in DECISION_ARRAYS if name != "observation"
    }
    observations = [p["observation"] for p in parts]
    if isinstance(observations[0], np.ndarray):
        stacked["observation"] = np.concatenate(observations)
    else:
        from scipy import sparse

        stacked["observation"] = sparse.vstack(observations, format="csr")
    return stacked


def load_datasets(folders: list[str | Path], sparse_observations: bool = False) -> Dataset:
    """Several datasets of one side as one (:func:`load_dataset` each): their decisions in order, the
    games numbered on from one dataset to the next (each game keeps its ``dataset`` folder); the
    manifest is the first one's with every dataset's games and ``datasets``, each one's manifest."""
    loaded = [load_dataset(folder, sparse_observations) for folder in folders]
    if not loaded:
        raise DatasetError("no dataset given")
    sides = {d.manifest["side"] for d in loaded}
    if len(sides) > 1:
        raise DatasetError(f"the datasets are of different sides {sorted(sides)}: clone one side at a time")
    if len(loaded) == 1:
        return loaded[0]
    games, parts, offset = [], [], 0
    for folder, dataset in zip(folders, loaded, strict=True):
        games += [dict(game, game=game["game"] + offset, dataset=str(folder)) for game in dataset.games]
        parts.append(dict(dataset.arrays, game=dataset.arrays["game"] + offset))
        offset += len(dataset.games)
    merged = stack_decisions(parts)
    manifest = dict(loaded[0].manifest, games=games, datasets=[d.manifest for d in loaded])
    manifest["decisions"] = sum(d.manifest["decisions"] for d in loaded)
    return Dataset(manifest, merged)


__all__ = [
    "DECISION_ARRAYS",
    "DECISION_KINDS",
    "DM_AGENT",
    "FORMAT",
    "MANIFEST",
    "NO_VALUE",
    "Dataset",
    "DatasetError",
    "load_dataset",
    "load_datasets",
    "load_shard",
    "read_manifest",
    "shard_name",
    "write_manifest",
    "write_shard",
]
