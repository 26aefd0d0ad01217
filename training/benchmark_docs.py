"""Write the benchmark's measured results into the docs: the table of every task and the aim count
into README.md and docs/BENCHMARK.md, each task's curve (PNG, and the CSV of all its seeds) into
docs/benchmark/, and the list of curves into docs/BENCHMARK.md.

    python -m training.benchmark_docs runs/bench

Each generated block sits between two marker comments, ``<!-- benchmark:NAME -->`` and
``<!-- /benchmark:NAME -->`` (NAME: ``table``, ``aim``, ``curves``); the text around the blocks is
written by hand and left as it is. A doc without the markers of a block is left without it; a
marker without its pair is an error.
"""

from __future__ import annotations

import argparse
import re
import shutil
from pathlib import Path

from training.benchmark import aim_markdown, plot_all, seed_curves, table_markdown, task_slug, write_rows

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("README.md", "docs/BENCHMARK.md")


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


def copy_curves(runs: Path, folder: Path) -> list[tuple[str, str]]:
    """Each task's redrawn ``curve.png`` and the CSV of all its seeds into ``folder`` (emptied of
    the old ones first); the (task, slug) pairs."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in [*folder.glob("*.png"), *folder.glob("*.csv")]:
        old.unlink()
    plot_all(runs)
    names = []
    for name, seeds in seed_curves(runs).items():
        slug = task_slug(name)
        names.append((name, slug))
        shutil.copy(runs / slug / "curve.png", folder / f"{slug}.png")
        write_rows([row for curve in seeds.values() for row in curve], folder / f"{slug}.csv")
    return names


def update_docs(runs: str | Path, root: str | Path = ROOT) -> list[Path]:
    """Fill the blocks of README.md and docs/BENCHMARK.md under ``root`` from the seed curves under
    ``runs``; the docs written."""
    runs, root = Path(runs), Path(root)
    if not any(runs.glob("*/seed*/curve.csv")):
        raise SystemExit(f"{runs}: no benchmark curves (expected <task>/seed<k>/curve.csv under it)")
    names = copy_curves(runs, root / "docs" / "benchmark")
    blocks = {
        "table": table_markdown(runs),
        "aim": aim_markdown(runs),
        "curves": "\n\n".join(f"![{name}](benchmark/{slug}.png)" for name, slug in names),
    }
    written = []
    for doc in DOCS:
        path = root / doc
        text = path.read_text()
        new = text
        for name, body in blocks.items():
            new = replace_block(new, name, body, str(path))
        if new != text:
            path.write_text(new)
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", help="the --out folder of the benchmark runs")
    args = parser.parse_args(argv)
    for path in update_docs(args.runs):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
