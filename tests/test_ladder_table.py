"""scripts/ladder_table.py: pairings played in separate balance runs on the same seeds, on one table."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from difficulty import cli
from difficulty.metrics import compare_pairings, is_won

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from ladder_table import agents_of, load_runs, main, paired  # noqa: E402

V1, V2 = "scripted@v1", "scripted@v2"


def _run(folder: Path, *pairings: str) -> Path:
    argv = ["balance", "--adventure", "goblin_warrens", "--heroes", "3", "--games", "4", "--seed", "900"]
    for pairing in pairings:
        argv += ["--pairing", pairing]
    assert cli.main([*argv, "--records", "--backend", "serial", "--quiet", "--out", str(folder)]) == 0
    return folder


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two runs sharing one pairing (v2 heroes against DM v1), as a cheap and a costly run would."""
    root = tmp_path_factory.mktemp("ladder")
    first = _run(root / "first", f"{V1}:{V1}", f"{V2}:{V1}")
    second = _run(root / "second", f"{V2}:{V1}", f"{V2}:{V2}")
    return first, second


def _records(folder: Path, pairing: str) -> list[dict]:
    lines = (folder / "games.jsonl").read_text().splitlines()
    return [r for r in map(json.loads, lines) if r["cell"].split(" · ")[2] == pairing]


def test_pairings_of_two_runs_are_compared_game_by_game(runs, capsys):
    first, second = runs
    games = load_runs([first, second])
    assert {key[2] for key in games} == {f"{V1}:{V1}", f"{V2}:{V1}", f"{V2}:{V2}"}
    # heroes v2 against v1, both against DM v1, from the first run; the same figures as the runner's
    expected = compare_pairings(_records(first, f"{V2}:{V1}"), _records(first, f"{V1}:{V1}"))
    figures = paired(games, "goblin_warrens", f"{V2}:{V1}", f"{V1}:{V1}")
    assert figures["games"] == 4
    assert figures["completed_with_goals"] == expected["completed_with_goals"]
    # DM v2 against DM v1, both against heroes v2: one pairing from each run
    across = paired(games, "goblin_warrens", f"{V2}:{V2}", f"{V2}:{V1}")
    won = sum(map(is_won, _records(second, f"{V2}:{V2}"))) - sum(map(is_won, _records(first, f"{V2}:{V1}")))
    assert across["games"] == 4 and across["completed_with_goals"]["difference"] == pytest.approx(won / 4)

    assert main([str(first), str(second)]) == 0
    out = capsys.readouterr().out
    rate = 100 * sum(map(is_won, _records(first, f"{V1}:{V1}"))) / 4
    assert f"| goblin_warrens | {V1} | {rate:.1f}% (4) |" in out
    assert f"| goblin_warrens | {V1} | {V1} | " in out  # heroes v1 − heroes v2 against DM v1
    assert f"| goblin_warrens | {V1} | {V2} | " in out  # DM v1 − DM v2 against heroes v2


def test_runs_played_by_different_code_are_refused(runs, tmp_path):
    first, second = runs
    tampered = tmp_path / "tampered"
    tampered.mkdir()
    records = [json.loads(line) for line in (second / "games.jsonl").read_text().splitlines()]
    shared = next(r for r in records if r["cell"].split(" · ")[2] == f"{V2}:{V1}")
    shared["turns"] += 1
    (tampered / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    with pytest.raises(SystemExit, match=r"seed 90\d, differs from the same game in another run"):
        load_runs([first, tampered])


def test_a_missing_run_or_reference_is_named(runs, tmp_path):
    first, _ = runs
    with pytest.raises(SystemExit, match="games.jsonl not found"):
        main([str(tmp_path)])
    with pytest.raises(SystemExit, match="no pairing plays 'search@v2'"):
        main([str(first), "--heroes-reference", "search@v2"])


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("scripted@v2:scripted@v1", ("scripted@v2", "scripted@v1")),
        ("policy:clone_heroes:scripted@v2", ("policy:clone_heroes", "scripted@v2")),
        ("scripted@v2:policy:league_dm", ("scripted@v2", "policy:league_dm")),
        ("pool:league:policy:dm", ("pool:league", "policy:dm")),
    ],
)
def test_a_pairing_label_is_cut_where_the_heroes_agent_ends(label, expected):
    """A checkpoint's or a pool's label holds a colon of its own (``policy:<file stem>``)."""
    assert agents_of(label) == expected
