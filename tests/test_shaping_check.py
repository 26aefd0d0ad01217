"""training.shaping_check: a recipe under which random play earns as much as the scripted side's win
is flagged; the heroes' default recipe pays the scripted heroes more on every small hero task."""

from __future__ import annotations

import pytest

from dungeon_env.tasks import BUNDLED, TASKS

pytest.importorskip("sb3_contrib")

from training.shaping_check import main, pays_for_winning, report_line, shaped_returns  # noqa: E402

# The hero tasks on their own small adventures (not the bundled ones, not the campaign).
SMALL_HERO_TASKS = [
    name for name, task in TASKS.items() if task.side == "heroes" and task.adventure not in BUNDLED
]


def test_a_recipe_that_pays_wandering_more_than_the_win_is_flagged(capsys):
    # One point a new square: random heroes wander over more squares in 20 turns than the scripted
    # heroes cross on their way out, and never win.
    results = main(["--tasks", "heroes/walk-out", "--train-shaping", "squares=1", "--games", "3"])
    walk_out = results["heroes/walk-out"]
    assert walk_out["scripted"]["win_rate"] == 1.0 and walk_out["random"]["win_rate"] == 0.0
    assert walk_out["random"]["mean_return"] >= walk_out["scripted"]["mean_return"]
    assert not pays_for_winning(walk_out)
    assert "random play earns as much or more" in capsys.readouterr().out


@pytest.mark.parametrize("task", SMALL_HERO_TASKS)
def test_the_default_hero_recipe_pays_the_scripted_heroes_more_than_random_play(task):
    results = shaped_returns(task, "auto", games=3)
    assert results["scripted"]["win_rate"] > results["random"]["win_rate"]
    assert pays_for_winning(results), results


def _results(scripted_wins, scripted_return, random_wins, random_return):
    return {
        "scripted": {"win_rate": scripted_wins, "mean_return": scripted_return},
        "random": {"win_rate": random_wins, "mean_return": random_return},
    }


def test_the_verdict_needs_a_scripted_side_that_wins_more_than_random_play():
    assert "pays the scripted play +2.00 more" in report_line("t", _results(1.0, 3.0, 0.0, 1.0))
    assert "0% won, +0.00 |" in report_line("t", _results(1.0, 3.0, 0.0, -0.001))
    flagged = report_line("t", _results(0.5, 1.0, 0.0, 1.0))
    assert "random play earns as much or more (+0.00)" in flagged
    assert "no verdict" in report_line("t", _results(0.0, 4.0, 0.0, 2.0))
    assert "no verdict" in report_line("t", _results(0.2, 0.0, 0.3, -1.0))


def test_unknown_tasks_terms_and_game_counts_are_refused_with_what_is_expected():
    with pytest.raises(SystemExit, match="unknown task.*heroes/nowhere.*the tasks are"):
        main(["--tasks", "heroes/nowhere", "--games", "1"])
    with pytest.raises(SystemExit, match="unknown term 'wealth'"):
        main(["--tasks", "heroes/walk-out", "--train-shaping", "wealth=1", "--games", "1"])
    with pytest.raises(SystemExit, match="--games must be at least 1, got 0"):
        main(["--tasks", "heroes/walk-out", "--games", "0"])
