"""Plot a league run's curves (``training.league``): above, the heroes' completion per adventure
against the other side's scripted agent at every evaluation (``eval.csv``); below, the side's mean
return over its last 100 training episodes (``rollout/ep_rew_mean`` of ``progress.csv``, the file
beside it, if there), for one or more roles.

    python scripts/plot_league_eval.py runs/league/heroes/eval.csv runs/league/dm/eval.csv --out curve.png
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path


def read_curve(path: Path) -> list[dict[str, float]]:
    with path.open() as f:
        return [{k: float(v) if v else None for k, v in row.items()} for row in csv.DictReader(f)]


def main(argv: list[str] | None = None) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "curves", nargs="+", type=Path, help="eval.csv files of training.league (heroes/, dm/)"
    )
    parser.add_argument("--out", type=Path, required=True, help="the PNG to write")
    args = parser.parse_args(argv)
    fig, axes = plt.subplots(2, len(args.curves), figsize=(6 * len(args.curves), 7), squeeze=False)
    for ax, below, path in zip(axes[0], axes[1], args.curves, strict=True):
        label = path.parent.name if path.name == "eval.csv" else path.stem.removesuffix("_eval")
        rows = read_curve(path)
        adventures = [k.removesuffix("_completed") for k in rows[0] if k.endswith("_completed")]
        steps = [r["steps"] for r in rows]
        for adventure in adventures:
            ax.plot(steps, [r[f"{adventure}_completed"] for r in rows], marker="o", label=adventure)
        ax.set_title(f"{label}: the heroes' completion against the scripted other side")
        ax.set_xlabel("decisions trained")
        ax.set_ylim(-0.05, 1.05)
        ax.legend(fontsize=8)
        progress = path.with_name(path.name.replace("eval", "progress"))
        if progress.is_file():
            rows = [r for r in read_curve(progress) if r.get("rollout/ep_rew_mean") is not None]
            below.plot([r["time/total_timesteps"] for r in rows], [r["rollout/ep_rew_mean"] for r in rows])
        below.set_title(f"{label}: the side's mean return in training (last 100 games)")
        below.set_xlabel("decisions trained")
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
