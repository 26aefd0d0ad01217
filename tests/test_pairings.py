"""Pairings of agents compared game by game (``difficulty.pairings``, ``metrics.compare_pairings``):
which pairings are compared, in which direction, paired by game index, with Newcombe's paired
interval; and the comparison in report.json, report.md and the console summary of a tiny run."""

from __future__ import annotations

import json

import pytest

from difficulty import cli, pairings
from difficulty.metrics import compare_pairings, paired_difference
from difficulty.spec import Cell, Pairing


def _record(i: int, end: str) -> dict:
    """A game record as far as the comparison reads it: its index and how it ended."""
    outcome = {"completed_with_goals": "completed", "completed_without_goals": "completed"}.get(end, end)
    return {"i": i, "outcome": outcome, "goals_met": end == "completed_with_goals", "end": end}


def _records(ends: str) -> list[dict]:
    """``"WWLT"`` -> games 0..3: W completed with goals, L failed, T truncated."""
    names = {"W": "completed_with_goals", "L": "failed", "T": "truncated"}
    return [_record(i, names[e]) for i, e in enumerate(ends)]


def _cell(
    pairing: str, variant=None, adventure: str = "flooded_cellar", party=("bram", "tovar", "gunnhild")
) -> Cell:
    return Cell(adventure, party, Pairing.parse(pairing), variant)


# ------------------------------------------------------------------------------------- pure figures
def test_compare_pairings_pairs_games_by_index_and_uses_newcombes_interval():
    agent, reference = _records("WWWWLLTT"), _records("WLLTWLTT")
    shuffled = list(reversed(reference))[:-1] + [_record(99, "completed_with_goals")]  # no game 0, a 99
    figures = compare_pairings(agent, shuffled)
    assert figures["games"] == 7  # games 1..7, the indices both played
    won = figures["completed_with_goals"]
    # games 1..7: agent WWWLLTT, reference LLTWLTT -> both 0, only agent 3, only reference 1, neither 3
    assert (won["agent"]["count"], won["reference"]["count"]) == (3, 1)
    assert (won["only_agent"], won["only_reference"]) == (3, 1)
    assert won["difference"] == pytest.approx(2 / 7, abs=1e-6)
    low, high = paired_difference(0, 3, 1, 3)
    assert won["difference_ci"] == [pytest.approx(low, abs=1e-6), pytest.approx(high, abs=1e-6)]
    capped = figures["truncated"]  # agent T at 6, 7; reference T at 3, 6, 7
    assert (capped["agent"]["count"], capped["reference"]["count"]) == (2, 3)
    assert (capped["only_agent"], capped["only_reference"], capped["difference"]) == (
        0,
        1,
        pytest.approx(-1 / 7, abs=1e-6),
    )


def test_the_same_games_give_no_difference_and_an_interval_around_zero():
    games = _records("WLTWWLTW")
    figures = compare_pairings(games, games)
    for key in ("completed_with_goals", "truncated"):
        low, high = figures[key]["difference_ci"]
        assert figures[key]["difference"] == 0 and low < 0 < high


def test_pairings_sharing_one_sides_agent_are_compared_later_against_earlier():
    cells = [
        _cell("scripted@v1:scripted@v1"),
        _cell("scripted@v2:scripted@v1"),
        _cell("scripted@v1:scripted@v2"),
        _cell("random:random"),  # shares no agent with the others
        _cell("scripted@v2:scripted@v1", adventure="goblin_warrens"),  # alone on its adventure
    ]
    records = [_records("WWLL"), _records("WWWL"), _records("WLLL"), _records("TTTT"), _records("WWWW")]
    found = pairings.comparisons(cells, records)
    assert [(c["compared"], c["agent"], c["reference"], c["shared"]) for c in found] == [
        ("heroes", "scripted_heroes@v2", "scripted_heroes@v1", "scripted_dm@v1"),
        ("dm", "scripted_dm@v2", "scripted_dm@v1", "scripted_heroes@v1"),
    ]
    heroes, dm = found
    assert heroes["label"] == "scripted@v2 heroes against scripted@v1 heroes (the scripted@v1 DM)"
    assert dm["label"] == "scripted@v2 DM against scripted@v1 DM (the scripted@v1 heroes)"
    assert heroes["completed_with_goals"]["difference"] == pytest.approx(0.25)  # WWWL - WWLL
    assert dm["completed_with_goals"]["difference"] == pytest.approx(-0.25)  # WLLL - WWLL
    assert all(c["adventure"] == "flooded_cellar" and c["variant"] == "base" for c in found)


def test_with_several_parties_each_comparison_is_also_pooled_over_them_pairs_kept_within_a_party():
    four = ("bram", "tovar", "gunnhild", "sela")
    cells = [
        _cell("scripted@v1:scripted@v1"),
        _cell("scripted@v2:scripted@v1"),
        _cell("scripted@v1:scripted@v1", party=four),
        _cell("scripted@v2:scripted@v1", party=four),
    ]
    # game 0 of the 3-hero party: v1 W, v2 L; game 0 of the 4-hero party: v1 L, v2 W. Paired
    # across parties (by index alone) they would look the same; within their party they differ.
    records = [_records("WL"), _records("LL"), _records("LW"), _records("WW")]
    found = pairings.comparisons(cells, records)
    assert [c["party"] for c in found] == [list(cells[0].party), list(four), ["all"]]
    pooled = found[-1]["completed_with_goals"]
    assert found[-1]["games"] == 4
    assert (pooled["only_agent"], pooled["only_reference"]) == (1, 1)  # not 0, 0
    assert pooled["difference"] == pytest.approx(0.0)


def test_pairings_are_compared_within_each_variant_only():
    from dungeon_env.content.variants import Variant

    darker = Variant.parse(["light.start=15"])
    cells = [_cell("scripted@v1:scripted"), _cell("scripted:scripted"), _cell("scripted:scripted", darker)]
    found = pairings.comparisons(cells, [_records("WL"), _records("WW"), _records("LL")])
    assert len(found) == 1 and found[0]["variant"] == "base"


def test_summary_and_markdown_say_the_difference_in_points_with_the_paired_interval():
    cells = [_cell("scripted@v1:scripted"), _cell("scripted:scripted")]
    report = {"pairings_compared": pairings.comparisons(cells, [_records("WLLL"), _records("WWWL")])}
    [line] = pairings.summary_lines(report)
    assert line.startswith(
        "scripted@v2 heroes against scripted@v1 heroes (the scripted@v2 DM) on flooded_cellar"
    )
    assert "completed with goals +50.0 pts (paired 95% [" in line and "at the turn cap +0.0 pts" in line
    md = "\n".join(pairings.markdown_lines(report))
    assert "## Agents compared on the same games" in md and "| +50.0 pts |" in md
    assert pairings.markdown_lines({"pairings_compared": []}) == []


# ------------------------------------------------------------------------------------------ a run
def test_balance_with_two_pairings_reports_them_compared_game_by_game(tmp_path, capsys):
    argv = ["balance", "--pairing", "scripted@v1:scripted@v1", "--pairing", "scripted@v2:scripted@v1"]
    argv += ["--games", "3", "--max-turns", "6", "--backend", "serial", "--out", str(tmp_path)]
    assert cli.main(argv) == 0
    rep = json.loads((tmp_path / "report.json").read_text())
    [entry] = rep["pairings_compared"]
    assert (entry["compared"], entry["agent"], entry["reference"]) == (
        "heroes",
        "scripted_heroes@v2",
        "scripted_heroes@v1",
    )
    assert entry["games"] == 3 and set(entry) >= {"completed_with_goals", "truncated", "label"}
    assert rep["experiment"]["pairings"] == [
        "scripted_heroes@v1:scripted_dm@v1",
        "scripted_heroes@v2:scripted_dm@v1",
    ]
    assert "## Agents compared on the same games" in (tmp_path / "report.md").read_text()
    out = capsys.readouterr().out
    assert "scripted@v2 heroes against scripted@v1 heroes (the scripted@v1 DM) on flooded_cellar" in out


def test_balance_plays_the_latest_scripted_agents_by_default():
    args = cli.build_parser().parse_args(["balance"])
    [pairing] = cli.experiment_of(args).pairings
    assert pairing.to_json() == "scripted_heroes@v2:scripted_dm@v2"
    assert pairing.label == "scripted@v2:scripted@v2"
