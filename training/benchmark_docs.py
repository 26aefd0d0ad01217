"""Write the benchmark's measured results into the docs: the table of every task, the aim count and
the list of curves into docs/BENCHMARK.md, and each task's curve (PNG, and the CSV of all its seeds)
into docs/benchmark/. (The README links to the table there rather than holding a copy.)

    python -m training.benchmark_docs runs/bench    # merge these runs in, then rewrite the docs
    python -m training.benchmark_docs               # rewrite the docs from what is published

The CSVs in docs/benchmark/ (``<task>.csv``, every seed's evaluations) are the benchmark's record,
kept in the repository: a run's own folder need not outlive the session that ran it. The seed runs
under the folder given (``<task>/seed<k>/curve.csv``) are merged into that record: a run takes the
place of the published curve of its task and seed, the task's other seeds stay.

Each generated block sits between two marker comments, ``<!-- benchmark:NAME -->`` and
``<!-- /benchmark:NAME -->`` (NAME: ``table``, ``aim``, ``curves``); the text around the blocks is
written by hand and left as it is. A doc without the markers of a block is left without it; a
marker without its pair is an error.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from training.benchmark import (
    Curves,
    aim_markdown,
    plot_task,
    read_rows,
    seed_curves,
    table_markdown,
    task_slug,
    write_rows,
)

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("docs/BENCHMARK.md",)  # the docs that hold the generated blocks
PUBLISHED = Path("docs") / "benchmark"  # under the repository's root


def replace_block(text: str, name: str, body: str, where: str = "the doc") -> str:
    """``text`` with the block ``name`` (between its markers) replaced by ``body``; unchanged when
    the markers are absent; a ValueError when only one of them is there."""
    start, end = f"<!-- benchmark:{name} -->", f"<!-- /benchmark:{name} -->"
    if start not in text and end not in text:
        return text
    if text.count(start) != 1 or text.count(end) != 1 or text.index(start) > text.index(end):
        raise ValueError(f"{where}: expected one {start} and then one {end}")
    pattern = re.compile(re.escape(start) + ".*?" + re.escape(end), re.S)
    return pattern.sub(lambda _: f"{start}\n{body.strip()}\n{end}", text)


def published_curves(folder: Path) -> Curves:
    """The curves of ``folder/<task>.csv`` by task and seed; a SystemExit naming a file whose rows
    are not of the task its name says."""
    curves: Curves = {}
    for path in sorted(folder.glob("*.csv")):
        for row in read_rows(path):
            if task_slug(row["task"]) != path.stem:
                raise SystemExit(f"{path}: a row of task {row['task']!r}; expected {path.stem}'s alone")
            curves.setdefault(row["task"], {}).setdefault(row["seed"], []).append(row)
    return curves


def merged_curves(published: Curves, runs: Curves) -> Curves:
    """The published curves with each run's seed in place of the published one of its task."""
    merged = {task: dict(seeds) for task, seeds in published.items()}
    for task, seeds in runs.items():
        merged.setdefault(task, {}).update(seeds)
    return {task: dict(sorted(seeds.items())) for task, seeds in sorted(merged.items())}


def write_curves(curves: Curves, folder: Path) -> list[tuple[str, str]]:
    """Each task's curve into ``folder``: the CSV of all its seeds and its PNG; the (task, slug)
    pairs."""
    folder.mkdir(parents=True, exist_ok=True)
    names = []
    for name, seeds in curves.items():
        slug = task_slug(name)
        names.append((name, slug))
        write_rows([row for curve in seeds.values() for row in curve], folder / f"{slug}.csv")
        plot_task(name, seeds, folder / f"{slug}.png")
    return names


def update_docs(runs: str | Path | None, root: str | Path = ROOT) -> list[Path]:
    """Merge the seed runs under ``runs`` (None: none) into the published curves under ``root``, and
    fill the blocks of docs/BENCHMARK.md there from them; the docs written."""
    root = Path(root)
    new: Curves = {}
    if runs is not None:
        new = seed_curves(runs)
        if not new:
            raise SystemExit(f"{runs}: no benchmark curves (expected <task>/seed<k>/curve.csv under it)")
    curves = merged_curves(published_curves(root / PUBLISHED), new)
    if not curves:
        raise SystemExit(f"{root / PUBLISHED}: no published benchmark curves (<task>.csv) and no runs given")
    names = write_curves(curves, root / PUBLISHED)
    blocks = {
        "table": table_markdown(curves),
        "aim": aim_markdown(curves),
        "curves": "\n\n".join(f"![{name}](benchmark/{slug}.png)" for name, slug in names),
    }
    written = []
    for doc in DOCS:
        path = root / doc
        text = path.read_text()
        new_text = text
        for name, body in blocks.items():
            new_text = replace_block(new_text, name, body, str(path))
        if new_text != text:
            path.write_text(new_text)
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "runs",
        nargs="?",
        help="the --out folder of benchmark runs to merge in (none: rewrite the docs from the published)",
    )
    args = parser.parse_args(argv)
    for path in update_docs(args.runs):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
