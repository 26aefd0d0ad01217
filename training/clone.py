"""Behaviour cloning: a MaskablePPO policy trained by supervised learning on a teacher's decisions.

    python -m training.clone --data data/x [data/y ...] --out runs/clone_x --epochs 5

The model is built as ``training.train_role`` builds one (``make_model``: the same observation and
action spaces, ``LeanFeatures`` by default, the same heads), so the result is fine-tuned with
``python -m training.league --init-from runs/clone_x/model.zip`` over every adventure (or
``training.train_role --init-from`` on one), with the same ``--network`` and ``--net-arch``, and
played by any tool as
``policy:runs/clone_x/model.zip``. Its policy is trained on the datasets (``training.dataset``; several
of one side are merged, e.g. a teacher's games and DAgger's relabelled games of an earlier clone) with
Adam on minibatches: the masked cross-entropy of the teacher's action (``policy.evaluate_actions``
with the stored masks) plus ``value_weight`` times the squared error of the value head against the
game's return for the side. The games are split into a training and a held-out set (a game's
decisions all go to one side of the split). Agreement is the share of decisions where the policy's
most likely legal action is the teacher's; it is reported on both sets, overall and per decision
kind, printed and written to ``metrics.json`` beside the model. The observations stay sparse in
memory (``load_dataset(sparse_observations=True)``) and are made dense one minibatch at a time.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from pathlib import Path

import numpy as np

from training.dataset_files import DECISION_KINDS, Dataset, DatasetError, load_datasets
from training.features import NETWORKS


@dataclasses.dataclass
class CloneSettings:
    """Clone a teacher's decisions (a dataset of python -m training.dataset) into a MaskablePPO policy."""

    data: tuple[str, ...]
    """the dataset directories (made by python -m training.dataset), one or more of the same side"""
    out: str
    """the run directory: model.zip, metrics.json and settings.json are written there"""
    epochs: int = 5
    """passes over the training games' decisions"""
    batch_size: int = 256
    """decisions per minibatch"""
    learning_rate: float = 1e-3
    """Adam's learning rate"""
    value_weight: float = 0.5
    """weight of the value head's squared error against the game's return, beside the cross-entropy"""
    max_grad_norm: float = 0.5
    """clip the gradient's norm to this (SB3's PPO default)"""
    held_out: float = 0.2
    """share of the games held out of training, to measure agreement on games not seen (0: none)"""
    seed: int = 0
    """seed of the split, the minibatches and the network's initial weights"""
    network: str = "lean"
    """the network that reads the observation, as train_role's: lean (LeanFeatures: under a
    millisecond a decision), board (DungeonFeatures) or mlp"""
    net_arch: str = "256,256"
    """hidden layer sizes of the policy and value heads, as train_role's"""
    torch_threads: int = 1
    """torch threads (0: torch's default)"""
    device: str = "cpu"
    """torch device of the training: cpu, or cuda on a GPU machine (the model is saved for the CPU)"""


class SettingsError(ValueError):
    """A setting out of its range."""


def data_folders(settings: CloneSettings) -> list[str]:
    """The dataset folders (one folder given as a string is one folder)."""
    return [settings.data] if isinstance(settings.data, str) else [str(d) for d in settings.data]


def check_settings(settings: CloneSettings) -> None:
    if settings.network not in NETWORKS:
        raise SettingsError(f"--network must be one of {NETWORKS}, got {settings.network!r}")
    try:
        sizes = [int(n) for n in settings.net_arch.split(",")]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) < 1:
        raise SettingsError(f"--net-arch must be positive sizes, comma-separated, got {settings.net_arch!r}")
    if settings.epochs < 1 or settings.batch_size < 1:
        raise SettingsError("--epochs and --batch-size must be at least 1")
    if not 0.0 <= settings.held_out < 1.0:
        raise SettingsError(f"--held-out must be in [0, 1), got {settings.held_out}")


# ----------------------------------------------------------------------------------- the model
def make_clone_model(settings: CloneSettings, dataset: Dataset):
    """A fresh MaskablePPO model for the dataset's side, built by ``train_role.make_model`` (an env of
    the dataset's first adventure and party gives the spaces, which every adventure shares)."""
    from stable_baselines3.common.logger import configure

    from training.common import make_vec_env
    from training.train_role import PPOSettings, make_model

    games = dataset.games
    ppo = PPOSettings(
        adventure=games[0]["adventure"],
        heroes=str(games[0]["party_size"]),
        max_turns=int(dataset.manifest.get("max_turns", 100)),
        seed=settings.seed,
        network=settings.network,
        net_arch=settings.net_arch,
        n_envs=1,
    )
    vec = make_vec_env(dataset.manifest["side"], "random", ppo.env_kwargs(), 1, settings.seed)
    try:
        return make_model(ppo, vec, configure(settings.out, []))
    finally:
        vec.close()


# ----------------------------------------------------------------------------------- data
def split_by_game(dataset: Dataset, held_out: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The indices of the training and the held-out decisions: a share ``held_out`` of the games
    (at least one when there are two or more, and never all) drawn with ``seed``."""
    n_games = len(dataset.games)
    n_held = min(max(round(held_out * n_games), 1 if held_out > 0 else 0), n_games - 1)
    held = np.random.default_rng(seed).permutation(n_games)[:n_held]
    in_held = np.isin(dataset.arrays["game"], held)
    return np.flatnonzero(~in_held), np.flatnonzero(in_held)


def batch(arrays: dict[str, np.ndarray], idx: np.ndarray, device: str = "cpu") -> dict:
    """Torch tensors of the decisions ``idx``: observations, masks, the teacher's actions, returns."""
    import torch

    observations = arrays["observation"][idx]
    if not isinstance(observations, np.ndarray):  # the sparse rows of load_dataset(sparse_observations=True)
        observations = observations.toarray()
    tensors = {
        "obs": torch.as_tensor(observations),
        "masks": torch.as_tensor(arrays["action_mask"][idx]),
        "actions": torch.as_tensor(arrays["action"][idx].astype(np.int64)),
        "returns": torch.as_tensor(arrays["side_return"][idx]),
    }
    return {name: tensor.to(device) for name, tensor in tensors.items()}


# ----------------------------------------------------------------------------------- training
def losses(policy, b: dict) -> tuple:
    """The masked cross-entropy of the teacher's actions and the value head's squared error."""
    import torch.nn.functional as F

    values, log_prob, _ = policy.evaluate_actions(b["obs"], b["actions"], action_masks=b["masks"])
    return -log_prob.mean(), F.mse_loss(values.flatten(), b["returns"])


def train(policy, arrays: dict, train_idx: np.ndarray, settings: CloneSettings) -> list[dict]:
    """Train ``policy`` on the decisions ``train_idx``; returns each epoch's mean losses."""
    import torch

    optimizer = torch.optim.Adam(policy.parameters(), lr=settings.learning_rate)
    rng = np.random.default_rng(settings.seed)
    history = []
    policy.set_training_mode(True)
    for epoch in range(settings.epochs):
        start, sums, n = time.perf_counter(), np.zeros(2), 0
        order = rng.permutation(train_idx)
        for first in range(0, len(order), settings.batch_size):
            b = batch(arrays, np.sort(order[first : first + settings.batch_size]), settings.device)
            policy_loss, value_loss = losses(policy, b)
            optimizer.zero_grad()
            (policy_loss + settings.value_weight * value_loss).backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), settings.max_grad_norm)
            optimizer.step()
            size = len(b["actions"])
            sums += size * np.array([policy_loss.item(), value_loss.item()])
            n += size
        history.append(
            {
                "epoch": epoch + 1,
                "cross_entropy": sums[0] / n,
                "value_mse": sums[1] / n,
                "seconds": round(time.perf_counter() - start, 1),
            }
        )
        print(
            f"epoch {epoch + 1}/{settings.epochs}: cross-entropy {sums[0] / n:.4f}, "
            f"value error {sums[1] / n:.4f} ({history[-1]['seconds']} s)",
            flush=True,
        )
    policy.set_training_mode(False)
    return history


def measure_agreement(policy, arrays: dict, idx: np.ndarray, batch_size: int = 512) -> dict:
    """Agreement of the policy's most likely legal action with the teacher's on the decisions
    ``idx``, overall and per decision kind, and the mean losses there."""
    import torch

    chosen, sums = [], np.zeros(2)
    with torch.no_grad():
        for first in range(0, len(idx), batch_size):
            b = batch(arrays, idx[first : first + batch_size])
            chosen.append(policy.get_distribution(b["obs"], action_masks=b["masks"]).mode().numpy())
            policy_loss, value_loss = losses(policy, b)
            sums += len(b["actions"]) * np.array([policy_loss.item(), value_loss.item()])
    if not len(idx):
        return {"decisions": 0}
    agree = np.concatenate(chosen) == arrays["action"][idx]
    kinds = arrays["decision"][idx]
    per_kind = {
        DECISION_KINDS[k]: {
            "decisions": int((kinds == k).sum()),
            "agreement": float(agree[kinds == k].mean()),
        }
        for k in np.unique(kinds)
    }
    return {
        "decisions": len(idx),
        "games": len(np.unique(arrays["game"][idx])),
        "agreement": float(agree.mean()),
        "cross_entropy": sums[0] / len(idx),
        "value_mse": sums[1] / len(idx),
        "per_kind": per_kind,
    }


def format_metrics(metrics: dict) -> str:
    """The agreement table: each decision kind's count and agreement on both splits."""
    splits = [s for s in ("train", "held_out") if metrics[s].get("decisions")]
    head = "| decision | " + " | ".join(f"{s} n | {s} agreement" for s in splits) + " |"
    lines = [head, "|---|" + "---:|---:|" * len(splits)]
    kinds = sorted({k for s in splits for k in metrics[s]["per_kind"]}, key=DECISION_KINDS.index)
    for kind in [*kinds, "all"]:
        cells = []
        for s in splits:
            row = metrics[s] if kind == "all" else metrics[s]["per_kind"].get(kind)
            cells += [str(row["decisions"]), f"{row['agreement']:.3f}"] if row else ["0", "-"]
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def clone(settings: CloneSettings) -> dict:
    """Load the dataset, build and train the model, save it and its metrics; returns the metrics."""
    import torch

    from training.common import seed_everything

    check_settings(settings)
    dataset = load_datasets(data_folders(settings), sparse_observations=True)
    out = Path(settings.out)
    out.mkdir(parents=True, exist_ok=True)
    seed_everything(settings.seed)
    if settings.torch_threads > 0:
        torch.set_num_threads(settings.torch_threads)
    model = make_clone_model(settings, dataset)
    train_idx, held_idx = split_by_game(dataset, settings.held_out, settings.seed)
    start = time.perf_counter()
    model.policy.to(settings.device)
    history = train(model.policy, dataset.arrays, train_idx, settings)
    model.policy.to("cpu")  # measured and saved on the CPU, where it plays
    seconds = time.perf_counter() - start
    model.save(out / "model.zip")
    metrics = {
        "side": dataset.manifest["side"],
        "teacher": dataset.manifest.get("teacher"),
        "data": data_folders(settings),
        "seconds": round(seconds, 1),
        "epochs": history,
        "held_out_games": sorted(set(dataset.arrays["game"][held_idx].tolist())),
        "train": measure_agreement(model.policy, dataset.arrays, train_idx),
        "held_out": measure_agreement(model.policy, dataset.arrays, held_idx),
    }
    (out / "metrics.json").write_text(json.dumps(metrics, indent=2))
    (out / "settings.json").write_text(json.dumps(dataclasses.asdict(settings), indent=2))
    return metrics


def main(argv: list[str] | None = None) -> dict:
    from training.common import parse_settings

    settings = parse_settings(CloneSettings, argv)
    try:
        metrics = clone(settings)
    except (DatasetError, SettingsError) as error:
        print(f"python -m training.clone: error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    print(format_metrics(metrics))
    print(f"model: {Path(settings.out) / 'model.zip'} (play it as policy:{Path(settings.out) / 'model.zip'})")
    return metrics


if __name__ == "__main__":
    main()
