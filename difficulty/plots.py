"""PNG plots of a report (matplotlib, Agg backend): drawn from the JSON report alone.

- ``winrate.png``: both rates of every cell, completed and completed with every primary goal met,
  each with its 95% Wilson interval;
- ``turns.png``: the distribution of turns to the end of the adventure, per cell, of won and of
  lost games apart;
- ``survival.png``: each hero's survival rate (1 - death rate) with its interval, per cell;
- ``sweep.png`` (sweeps): both rates over the swept values, with the intervals as bands.

Cells are named by the parts that vary in the experiment (e.g. only the variant).
"""

from __future__ import annotations

from pathlib import Path

MAX_LINES = 10  # cells drawn in the turns and survival plots (the first ones)
MAX_VALUE_TICKS = 12  # a sweep of whole numbers with at most this many values is ticked at each
_PARTS = ("adventure", "party", "pairing", "variant")
# each rate: its label, marker (winrate.png), line style (sweep.png) and offset within a cell's row
_RATES = {
    "completed_with_goals": ("completed with every primary goal met", "o", "-", 0.16),
    "completed": ("completed (goals met or not)", "D", "--", -0.16),
}


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _parts(cell: dict) -> dict[str, str]:
    return {
        "adventure": cell["adventure"],
        "party": ",".join(cell["party"]),
        "pairing": f"{cell['heroes_agent']}:{cell['dm_agent']}",
        "variant": cell["variant"],
    }


def short_labels(cells: list[dict]) -> list[str]:
    """Each cell's label made of the parts that differ between the cells (the adventure if none do)."""
    parts = [_parts(c) for c in cells]
    varying = [p for p in _PARTS if len({x[p] for x in parts}) > 1] or ["adventure"]
    return [" · ".join(x[p] for p in varying) for x in parts]


def _rate_point(ax, r: dict, y: float, color: str, marker: str, filled: bool) -> None:
    """One rate with its interval as a horizontal error bar, labelled on the side with room."""
    ax.errorbar(
        r["rate"],
        y,
        xerr=[[r["rate"] - r["ci"][0]], [r["ci"][1] - r["rate"]]],
        fmt=marker,
        color=color,
        markerfacecolor=color if filled else "white",
        capsize=3,
    )
    right = r["ci"][1] < 0.75
    ax.annotate(
        f"{100 * r['rate']:.1f}%",
        (r["ci"][1] if right else r["ci"][0], y),
        xytext=(6 if right else -6, -3),
        textcoords="offset points",
        ha="left" if right else "right",
        fontsize="small",
    )


def winrate(report: dict, path: Path) -> Path:
    plt = _pyplot()
    cells = report["cells"]
    labels = short_labels(cells)
    fig, ax = plt.subplots(figsize=(8, 1.9 + 0.6 * len(cells)))
    ys = list(range(len(cells)))[::-1]
    variants = list(dict.fromkeys(c["variant"] for c in cells))
    for y, c in zip(ys, cells, strict=True):
        color = f"C{variants.index(c['variant'])}"
        for key, (_label, marker, _style, offset) in _RATES.items():
            _rate_point(ax, c[key], y + offset, color, marker, key == "completed_with_goals")
    for key, (label, marker, _style, _offset) in _RATES.items():
        filled = "black" if key == "completed_with_goals" else "white"
        ax.plot([], [], marker, color="black", markerfacecolor=filled, linestyle="none", label=label)
    ax.set_yticks(ys, [f"{label} (n={c['games']})" for label, c in zip(labels, cells, strict=True)])
    for tick, c in zip(ax.get_yticklabels(), cells, strict=True):
        tick.set_color(f"C{variants.index(c['variant'])}")
    ax.set_ylim(-0.7, len(cells) - 0.3)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games, 95% Wilson interval")
    ax.grid(axis="x", alpha=0.3)
    # one entry a line: the axes are narrow beside long cell labels
    ax.legend(fontsize="small", loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=1, frameon=False)
    ax.set_title("Win rates per cell", pad=36)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


# the two series of turns.png: the report's key, the legend's label, the colour
_OUTCOMES = (("turns_won", "won", "C2"), ("turns_lost", "lost", "C3"))


def _horizontal() -> dict:
    """``boxplot``'s keyword for horizontal boxes: ``orientation`` from matplotlib 3.10, ``vert`` before."""
    import matplotlib

    major, minor = (int(x) for x in matplotlib.__version__.split(".")[:2])
    return {"orientation": "horizontal"} if (major, minor) >= (3, 10) else {"vert": False}


def _values(histogram: list[list[int]]) -> list[int]:
    """The values of a ``[[value, count], ...]`` histogram, each repeated ``count`` times."""
    return [v for v, n in histogram for _ in range(n)]


def turns_figure(report: dict):
    """Turns to the end per cell, won and lost games apart: two boxes per cell (the box: the middle
    half of the games, the line: the median, the whiskers: 1.5 times the box's width); a series with
    no game (a cell nobody won) is left out of its row."""
    plt = _pyplot()
    cells = report["cells"][:MAX_LINES]
    labels = short_labels(report["cells"])[:MAX_LINES]
    fig, ax = plt.subplots(figsize=(10, 1.8 + 0.8 * len(cells)))
    ys = list(range(len(cells)))[::-1]
    for offset, (key, label, color) in zip((0.18, -0.18), _OUTCOMES, strict=True):
        kept = [(y + offset, _values(c[key]["histogram"])) for y, c in zip(ys, cells, strict=True)]
        kept = [(y, values) for y, values in kept if values]
        if kept:
            ax.boxplot(
                [values for _, values in kept],
                positions=[y for y, _ in kept],
                **_horizontal(),
                widths=0.3,
                patch_artist=True,
                manage_ticks=False,
                boxprops={"facecolor": color, "alpha": 0.6},
                medianprops={"color": color, "linewidth": 3},
                flierprops={"marker": ".", "markeredgecolor": color},
            )
        ax.plot([], [], "s", color=color, alpha=0.6, markersize=10, label=label)
    won = [sum(n for _, n in c["turns_won"]["histogram"]) for c in cells]
    ticks = [f"{t}\n(won {w}, lost {c['games'] - w})" for t, w, c in zip(labels, won, cells, strict=True)]
    ax.set_yticks(ys, ticks)
    ax.set_ylim(-0.7, len(cells) - 0.3)
    ax.set_xlabel("turns to the end of the adventure")
    ax.legend(fontsize="small", loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, frameon=False)
    ax.set_title("Turns to the end: won and lost games", pad=24)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def turns(report: dict, path: Path) -> Path:
    fig = turns_figure(report)
    fig.savefig(path, dpi=110)
    _pyplot().close(fig)
    return path


def survival(report: dict, path: Path) -> Path:
    plt = _pyplot()
    cells = report["cells"][:MAX_LINES]
    labels = short_labels(report["cells"])[:MAX_LINES]
    heroes = list(dict.fromkeys(h["hero"] for c in cells for h in c["heroes"]))
    width = 0.8 / max(1, len(cells))
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(heroes) + 2) + (3 if len(cells) > 1 else 0), 4))
    for k, (c, label) in enumerate(zip(cells, labels, strict=True)):
        rows = {h["hero"]: h for h in c["heroes"]}
        xs, ys, lo, hi = [], [], [], []
        for i, hero in enumerate(heroes):
            if hero in rows:
                d = rows[hero]["death"]
                alive = 1 - d["rate"]
                xs.append(i - 0.4 + width * (k + 0.5))
                ys.append(alive)
                lo.append(alive - (1 - d["ci"][1]))
                hi.append((1 - d["ci"][0]) - alive)
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=2, color=f"C{k}", label=label)
    ax.set_xticks(range(len(heroes)), heroes)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("survival rate (1 - death rate)")
    ax.set_title("Hero survival, 95% Wilson intervals")
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def sweep(report: dict, path: Path) -> Path:
    fig = sweep_figure(report)
    fig.savefig(path, dpi=110)
    _pyplot().close(fig)
    return path


def sweep_figure(report: dict):
    """The sweep's win rates over the swept values; a sweep of whole numbers (a key such as
    ``light.start``) is ticked at its values, never between them."""
    plt = _pyplot()
    sw = report["sweep"]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    curves = sw["curves"]
    names = short_labels([{**c, "variant": ""} for c in curves]) if len(curves) > 1 else [""]
    numeric = all(isinstance(v, int | float) for v in sw["values"])
    for k, (curve, name) in enumerate(zip(curves, names, strict=True)):
        pts = curve["points"]
        xs = [p["value"] for p in pts] if numeric else list(range(len(pts)))
        for key, (label, marker, style, _offset) in _RATES.items():
            low, high = [p[key]["ci"][0] for p in pts], [p[key]["ci"][1] for p in pts]
            ax.fill_between(xs, low, high, color=f"C{k}", alpha=0.15)
            text = f"{name}: {label}" if name else label
            ax.plot(xs, [p[key]["rate"] for p in pts], marker + style, color=f"C{k}", label=text)
    if not numeric:
        ax.set_xticks(range(len(sw["values"])), [str(v) for v in sw["values"]])
    elif all(isinstance(v, int) for v in sw["values"]):
        _integer_ticks(ax, sw["values"])
    ax.set_xlabel(sw["param"])
    ax.set_ylabel("share of games")
    ax.set_ylim(0, 1)
    ax.set_title(f"Win rates over {sw['param']} (bands: 95% Wilson intervals)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    return fig


def _integer_ticks(ax, values: list[int]) -> None:
    """Ticks at the swept values when they are few, else at whole numbers chosen by matplotlib."""
    if len(values) <= MAX_VALUE_TICKS:
        ticks = sorted(values)
        ax.set_xticks(ticks, [str(v) for v in ticks])
    else:
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def write_all(report: dict, out: Path) -> list[Path]:
    """Every plot the report has data for; returns the files written."""
    out = Path(out)
    written = [winrate(report, out / "winrate.png"), turns(report, out / "turns.png")]
    written.append(survival(report, out / "survival.png"))
    if report.get("sweep"):
        written.append(sweep(report, out / "sweep.png"))
    return written


__all__ = [
    "short_labels",
    "survival",
    "sweep",
    "sweep_figure",
    "turns",
    "turns_figure",
    "winrate",
    "write_all",
]
