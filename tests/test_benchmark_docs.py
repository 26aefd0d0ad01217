"""training.benchmark_docs: the measured blocks of docs/BENCHMARK.md are rewritten from the seed
curves and the hand-written text around them is kept; the README, which links to the table there,
is left alone."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from training.benchmark_docs import replace_block, update_docs  # noqa: E402


def test_a_block_is_replaced_between_its_markers_and_the_rest_kept():
    text = "intro\n<!-- benchmark:table -->\nold\n<!-- /benchmark:table -->\nafter\n"
    assert replace_block(text, "table", "new\n") == (
        "intro\n<!-- benchmark:table -->\nnew\n<!-- /benchmark:table -->\nafter\n"
    )
    assert replace_block("no markers", "table", "new") == "no markers"
    with pytest.raises(ValueError, match="README.md: expected one <!-- benchmark:aim --> and then one"):
        replace_block("<!-- benchmark:aim --> and no end", "aim", "x", "README.md")


def _curve(runs: Path, task: str, seed: int, rates: list[float]) -> None:
    path = runs / task.replace("/", "-") / f"seed{seed}" / "curve.csv"
    path.parent.mkdir(parents=True)
    fields = ["task", "seed", "steps", "seconds", "games", "win_rate", "eval_seconds"]
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(fields)
        for i, rate in enumerate(rates):
            writer.writerow([task, seed, 100_000 * i, 600 * i, 30, rate, 5.0])


def _docs(root: Path) -> None:
    (root / "docs" / "benchmark").mkdir(parents=True)
    (root / "README.md").write_text("# kept\n[the table](docs/BENCHMARK.md#the-table)\n")
    blocks = "".join(
        f"<!-- benchmark:{n} -->\nold\n<!-- /benchmark:{n} -->\n" for n in ("table", "aim", "curves")
    )
    (root / "docs" / "BENCHMARK.md").write_text("hand text\n" + blocks)


def _published(root: Path, slug: str) -> list[dict]:
    return list(csv.DictReader((root / "docs" / "benchmark" / f"{slug}.csv").open()))


def test_the_docs_get_the_table_the_aim_and_the_curves(tmp_path):
    runs, root = tmp_path / "runs", tmp_path / "repo"
    _curve(runs, "heroes/walk-out", 1, [0.1, 1.0])
    _curve(runs, "heroes/walk-out", 2, [0.0, 0.9])
    _docs(root)
    written = update_docs(runs, root)
    assert [p.name for p in written] == ["BENCHMARK.md"]
    assert (root / "README.md").read_text() == "# kept\n[the table](docs/BENCHMARK.md#the-table)\n"
    bench = (root / "docs" / "BENCHMARK.md").read_text()
    assert bench.startswith("hand text\n<!-- benchmark:table -->\n| task | side |")
    (row,) = [r for r in bench.splitlines() if r.startswith("| `heroes/walk-out`")]
    assert "95% [" in row and "(100%, 90%)" in row  # pooled 57 of 60, each seed's rate
    assert "old" not in bench
    assert "![heroes/walk-out](benchmark/heroes-walk-out.png)" in bench
    assert "- **heroes:** 15 tasks, 1 run" in bench
    pictures = sorted(p.name for p in (root / "docs" / "benchmark").iterdir())
    assert pictures == ["heroes-walk-out.csv", "heroes-walk-out.png"]
    merged = _published(root, "heroes-walk-out")
    assert {r["seed"] for r in merged} == {"1", "2"} and len(merged) == 4


def test_a_new_run_takes_the_place_of_its_seed_and_the_published_others_stay(tmp_path):
    first, second, root = tmp_path / "first", tmp_path / "second", tmp_path / "repo"
    _curve(first, "heroes/walk-out", 1, [0.1, 1.0])
    _curve(first, "heroes/walk-out", 2, [0.0, 0.2])
    _curve(first, "heroes/one-guard", 1, [0.0, 1.0])
    _docs(root)
    update_docs(first, root)
    _curve(second, "heroes/walk-out", 2, [0.0, 0.5, 0.9])  # seed 2 run again, further
    update_docs(second, root)
    walk_out = _published(root, "heroes-walk-out")
    assert [(r["seed"], r["win_rate"]) for r in walk_out] == [
        ("1", "0.1"),
        ("1", "1.0"),
        ("2", "0.0"),
        ("2", "0.5"),
        ("2", "0.9"),
    ]
    assert len(_published(root, "heroes-one-guard")) == 2  # a task no new run has is kept
    bench = root / "docs" / "BENCHMARK.md"
    (row,) = [r for r in bench.read_text().splitlines() if r.startswith("| `heroes/walk-out`")]
    assert "(100%, 50%)" in row  # at 100k: seed 1's published 100%, seed 2's new 50% (not its old 20%)
    bench.write_text("<!-- benchmark:table -->\n<!-- /benchmark:table -->\n")
    update_docs(None, root)  # no runs: the docs from the published curves alone
    assert "| `heroes/one-guard` |" in bench.read_text()


def test_no_curves_is_a_clear_error(tmp_path):
    with pytest.raises(SystemExit, match="no benchmark curves"):
        update_docs(tmp_path, tmp_path)
    with pytest.raises(SystemExit, match="no published benchmark curves"):
        update_docs(None, tmp_path)


def test_a_published_file_with_another_tasks_rows_is_a_clear_error(tmp_path):
    runs, root = tmp_path / "runs", tmp_path / "repo"
    _curve(runs, "heroes/walk-out", 1, [0.1, 1.0])
    _docs(root)
    update_docs(runs, root)
    published = root / "docs" / "benchmark"
    (published / "heroes-walk-out.csv").rename(published / "heroes-one-guard.csv")
    with pytest.raises(SystemExit, match="heroes-one-guard.csv: a row of task 'heroes/walk-out'"):
        update_docs(None, root)
