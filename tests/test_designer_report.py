"""The report a designer reads: the plain-language verdict (difficulty bands, variants' effects in
points, the warning about weak or slow hero agents), the skill ladder (``--ladder``) and the turns of
won and lost games apart."""

from __future__ import annotations

import json

import pytest

from difficulty import cli, plots, report, verdict
from difficulty.runner import run
from difficulty.spec import Experiment, SpecError

JARGON = ("Wilson", "Newcombe", " z ", "cell", "pairing")


# ---------------------------------------------------------------------------- hand-made reports
def _rate(value: float, low: float, high: float, n: int = 100) -> dict:
    return {"count": round(value * n), "n": n, "rate": value, "ci": [low, high]}


def _cell(done: float, truncated: float = 0.0, heroes: str = "scripted_heroes", variant: str = "base"):
    interval = _rate(done, max(0.0, done - 0.05), min(1.0, done + 0.05))
    return {
        "adventure": "goblin_warrens",
        "party": ["bram", "sela", "orwin"],
        "heroes_agent": heroes,
        "dm_agent": "scripted_dm",
        "variant": variant,
        "games": 100,
        "completed": interval,
        "completed_with_goals": interval,
        "ends": {"truncated": _rate(truncated, truncated, truncated)},
        "wounds": _wounds(patrol=6.8, ambush=1.5, guard=1.3, trap=0.4),
        "hero_deaths_per_game": 1.25,
        "heroes": [
            {"hero": "sela", "death": _rate(0.3, 0.2, 0.4)},
            {"hero": "bram", "death": _rate(0.43, 0.33, 0.53)},
            {"hero": "orwin", "death": _rate(0.52, 0.42, 0.62)},
        ],
        "light_left": {"histogram": [[0, 97], [3, 3]]},
        "turns": {"mean": 31.4},
    }


def _wounds(**per_game: float) -> dict:
    damage = sum(per_game.values())
    sources = [
        {"source": k, "per_game": v, "share": v / damage if damage else 0.0}
        for k, v in sorted(per_game.items(), key=lambda kv: -kv[1])
    ]
    return {"damage_per_game": damage, "sources": sources, "patrols_per_game": 2.04}


def _comparison(variant: str, low: float, high: float) -> dict:
    paired = {"base": _rate(0.4, 0.3, 0.5), "variant": _rate(0.4 + (low + high) / 2, 0.3, 0.5)}
    paired |= {"difference": (low + high) / 2, "difference_ci": [low, high]}
    return {**_cell(0.4, variant=variant), "completed": paired, "completed_with_goals": paired}


def _report(cells: list[dict], comparisons: list[dict] = (), ladder: list[dict] = ()) -> dict:
    experiment = {"parties": [["bram", "sela", "orwin"]], "max_turns": 100}
    return {
        "experiment": experiment,
        "cells": cells,
        "comparisons": list(comparisons),
        "ladder": list(ladder),
    }


def _verdict(rep: dict) -> str:
    return "\n".join(verdict.verdict_lines(rep))


def test_the_verdict_says_how_often_and_how_hard_in_plain_words():
    text = _verdict(_report([_cell(0.1)]))
    line = "- **goblin_warrens** (3 heroes, scripted heroes against the scripted DM): the heroes complete "
    assert line + "it 10% of the time (between 5% and 15%): **hard**." in text
    for word in JARGON:
        assert word not in text


def test_the_verdict_says_what_hurts_the_heroes():
    """A line per adventure: each source's share of the damage the heroes took, most first, the
    Patrols a game beside theirs; none for a source that dealt nothing."""
    text = _verdict(_report([_cell(0.1)]))
    assert "What hurts the heroes: each source's share of the damage the heroes take" in text
    line = "- **goblin_warrens** (3 heroes, scripted heroes against the scripted DM): Patrols 68% (2.0 "
    assert line + "Patrols a game), Ambushers 15%, Guards 13%, traps 4% of 10.0 damage a game." in text
    calm = {**_cell(0.9), "wounds": _wounds(guard=0.0, patrol=0.0)}
    assert "scripted DM): the heroes took no damage." in _verdict(_report([calm]))


def test_the_verdict_names_the_deaths_the_light_and_the_turns_first():
    """Issue 49: a designer reads first who dies how often, whether the Light runs out and how long
    games last, for the base rules and for each variant."""
    text = _verdict(_report([_cell(0.9), _cell(0.95, variant="light.start=16", truncated=0.02)]))
    line = "- **goblin_warrens** (3 heroes, scripted heroes against the scripted DM): 1.2 hero deaths a game "
    line += "(each hero dies in: orwin 52%, bram 43%, sela 30% of games); the Light is out when 97% of "
    line += "games end; games last 31 turns on average."
    assert line in text
    assert "rules: light.start=16): 1.2 hero deaths" in text
    assert "; 2% stop at the turn cap (100 turns)." in text


@pytest.mark.parametrize(
    "rate, name",
    [
        (0.0, "very hard"),
        (0.099, "very hard"),
        (0.10, "hard"),
        (0.5, "fair"),
        (0.89, "easy"),
        (0.9, "very easy"),
    ],
)
def test_bands(rate, name):
    assert verdict.band(rate) == name


@pytest.mark.parametrize(
    "low, high, words",
    [
        (-0.15, -0.08, "harder by 8 to 15 points"),
        (0.03, 0.09, "easier by 3 to 9 points"),
        (-0.05, 0.02, "no detectable effect at this sample size"),
        (0.0, 0.04, "no detectable effect at this sample size"),  # an interval touching 0 holds it
    ],
)
def test_a_variant_is_harder_easier_or_of_no_detectable_effect(low, high, words):
    rep = _report([_cell(0.4)], [_comparison("darker", low, high)])
    text = _verdict(rep)
    assert (
        f"- **darker** on goblin_warrens (3 heroes, scripted heroes against the scripted DM): {words} ("
        in text
    )
    for word in JARGON:
        assert word not in text


def test_the_weak_player_warning_appears_when_the_rate_is_low_and_not_when_it_is_high():
    assert "Warning" in _verdict(_report([_cell(0.05)]))
    assert "too weak" in _verdict(_report([_cell(0.05)]))
    assert "skill ladder" in _verdict(_report([_cell(0.05)]))
    assert "Warning" not in _verdict(_report([_cell(0.5)]))
    assert "Warning" not in _verdict(_report([_cell(verdict.WEAK_HEROES)]))  # the threshold itself is fine


def test_many_games_at_the_turn_cap_warn_that_the_players_may_be_too_slow():
    text = _verdict(_report([_cell(0.5, truncated=0.4)]))
    assert "Warning" in text and "40% of its games unfinished at the turn cap (100 turns)" in text
    assert "too slow" in text and "too weak" not in text
    assert "Warning" not in _verdict(_report([_cell(0.5, truncated=verdict.SLOW_HEROES)]))


def test_the_verdict_speaks_of_the_strongest_of_several_hero_agents():
    weak, strong = _cell(0.02, heroes="random"), _cell(0.6, heroes="scripted_heroes")
    text = _verdict(_report([weak, strong]))
    adventure_lines = [
        line
        for line in text.splitlines()
        if line.startswith("- **goblin_warrens**") and "complete it" in line
    ]
    assert adventure_lines == [
        "- **goblin_warrens** (3 heroes, scripted heroes against the scripted DM; the strongest of the 2 "
        "hero agents played, the others are in the skill ladder): the heroes complete it 60% of the "
        "time (between 55% and 65%): **fair**."
    ]


def test_the_warning_uses_the_strongest_rung_of_a_ladder():
    weak, strong = _cell(0.02, truncated=0.9, heroes="random"), _cell(0.6, heroes="scripted_heroes")
    assert "Warning" not in _verdict(_report([weak, strong]))  # random is weak, scripted is not
    text = _verdict(_report([weak, _cell(0.04, heroes="scripted_heroes")]))
    assert "the best of the 2 hero agents tried (scripted heroes) completes it only 4%" in text
    assert text.count("Warning") == 1


# --------------------------------------------------------------------------------- the ladder
def _args(*argv: str):
    return cli.build_parser().parse_args(["balance", *argv])


def test_the_ladder_makes_one_pairing_per_hero_agent_in_order():
    experiment = cli.experiment_of(
        _args("--ladder", "random,search@v1[rollouts=2,depth=5],scripted@v1", "--dm-agent", "random")
    )
    assert [p.to_json() for p in experiment.pairings] == [
        "random:random",
        "search@v1[rollouts=2,depth=5]:random",
        "scripted_heroes@v1:random",
    ]
    assert cli.ladder_agents("scripted, search@v1[rollouts=2,depth=5]") == [
        "scripted",
        "search@v1[rollouts=2,depth=5]",
    ]


@pytest.mark.parametrize(
    "argv, named",
    [
        (["--ladder", "scripted,random", "--pairing", "scripted:scripted"], "--ladder and --pairing"),
        (["--ladder", "scripted,,random"], "comma-separated hero agents"),
        (["--ladder", "scripted,scripted_heroes"], "appears twice"),
        (["--ladder", "scripted,runaway"], "runaway"),
    ],
)
def test_bad_ladders_are_rejected(argv, named, capsys):
    with pytest.raises(SpecError, match=named):
        cli.experiment_of(_args(*argv))
    with pytest.raises(SystemExit) as stop:
        cli.main(["balance", "--games", "1", "--quiet", *argv])
    assert stop.value.code == 2 and named in capsys.readouterr().err


@pytest.fixture(scope="module")
def ladder_report() -> dict:
    """Random and scripted heroes against the scripted DM on flooded_cellar: a real (short) ladder."""
    experiment = Experiment(pairings=("random:scripted", "scripted:scripted"), games=4, max_turns=60)
    experiment.backend = "serial"
    return report.figures(run(experiment))


def test_a_report_with_several_hero_agents_has_a_ladder_in_order(ladder_report):
    assert ladder_report["ladder"] == [
        {"dm_agent": "scripted_dm@v2", "heroes_agents": ["random", "scripted_heroes@v2"]}
    ]
    md = report.markdown(ladder_report)
    assert md.index("## Verdict") < md.index("## Skill ladder") < md.index("## Win rates")
    header = next(line for line in md.splitlines() if line.startswith("| adventure | party | rules |"))
    assert header == "| adventure | party | rules | random heroes | scripted@v2 heroes |"
    row = md.splitlines()[md.splitlines().index(header) + 2]
    random_rate, scripted_rate = (_pct(c["completed"]["rate"]) for c in ladder_report["cells"])
    assert row.startswith(f"| flooded_cellar | bram,tovar,gunnhild | base | {random_rate} (")
    assert f"| {scripted_rate} (" in row
    assert "| completed | 95% interval | completed with goals | 95% interval |" in md  # details kept below


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def test_one_pairing_has_no_ladder():
    assert report.ladders(Experiment(games=1).pairings) == []


def test_the_cli_records_the_ladder_in_report_json(tmp_path):
    argv = ["balance", "--ladder", "random,scripted", "--games", "2", "--max-turns", "6"]
    assert cli.main([*argv, "--backend", "serial", "--quiet", "--out", str(tmp_path)]) == 0
    rep = json.loads((tmp_path / "report.json").read_text())
    assert rep["ladder"] == [
        {"dm_agent": "scripted_dm@v2", "heroes_agents": ["random", "scripted_heroes@v2"]}
    ]
    assert [(c["heroes_agent"], c["dm_agent"]) for c in rep["cells"]] == [
        ("random", "scripted_dm@v2"),
        ("scripted_heroes@v2", "scripted_dm@v2"),
    ]
    assert "## Skill ladder: hero agents against the scripted@v2 DM" in (tmp_path / "report.md").read_text()


# ------------------------------------------------------------------------ turns, won and lost
def test_turns_of_won_and_lost_games_add_up_to_the_cells_games(ladder_report, tmp_path):
    for c in ladder_report["cells"]:
        won = sum(n for _, n in c["turns_won"]["histogram"])
        lost = sum(n for _, n in c["turns_lost"]["histogram"])
        assert (won, lost) == (c["completed_with_goals"]["count"], c["games"] - won)
        merged: dict[int, int] = {}
        for v, n in c["turns_won"]["histogram"] + c["turns_lost"]["histogram"]:
            merged[v] = merged.get(v, 0) + n
        assert sorted(merged.items()) == [tuple(x) for x in c["turns"]["histogram"]]
    # random heroes win nothing in 60 turns: an empty "won" series still plots
    assert ladder_report["cells"][0]["turns_won"]["histogram"] == []
    fig = plots.turns_figure(ladder_report)
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["won", "lost"]
    assert plots.turns(ladder_report, tmp_path / "turns.png").stat().st_size > 0


@pytest.mark.parametrize(
    "heroes, why",
    [
        ("scripted_heroes@v1", "scripted@v1 is an older version of the scripted heroes"),
        ("random", "random heroes play random legal actions"),
        ("idle", "idle heroes do nothing they can help"),
        ("runs/x/heroes_final.zip", "a checkpoint of your own is not measured"),
        ("pool:runs/x/pool[window=3]", "a pool of checkpoints of your own is not measured"),
    ],
)
def test_heroes_below_the_best_shipped_warn_and_name_the_stronger_agent(heroes, why):
    text = _verdict(_report([_cell(0.6, heroes=heroes)]))
    assert text.count("Warning") == 1
    assert f"plays below the best heroes shipped ({why}" in text
    assert f"check the `scripted` heroes ({verdict.BEST_HEROES}, the strongest shipped)" in text
    assert "random,scripted@v1,scripted@v2,search" in text and "may be too weak for this verdict" in text


@pytest.mark.parametrize("heroes", ["scripted_heroes@v2", "scripted_heroes", "search@v1[rollouts=8]"])
def test_the_best_heroes_shipped_and_search_raise_no_warning(heroes):
    assert verdict.below_best(heroes) is None
    assert "Warning" not in _verdict(_report([_cell(0.6, heroes=heroes)]))


def test_a_ladder_holding_the_best_heroes_raises_no_warning_of_their_level():
    """The strongest rung by its rate may be an older agent; the warning is for a ladder without
    the best heroes shipped."""
    old, new = _cell(0.62, heroes="scripted_heroes@v1"), _cell(0.6, heroes="scripted_heroes@v2")
    assert "Warning" not in _verdict(_report([old, new]))
    text = _verdict(_report([_cell(0.02, heroes="random"), _cell(0.05, heroes="scripted_heroes@v1")]))
    assert text.count("Warning") == 1 and text.count("too weak") == 1  # one word for both reasons
    assert "completes it only 5% of the time and plays below the best heroes shipped" in text
