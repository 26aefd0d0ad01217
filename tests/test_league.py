"""``dungeon-env league``: the rating fit on synthetic counts, the agent lists, a tiny real league run
through the command's ``run`` (its three files, counts matching the records), bad specs refused."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pytest

from difficulty import league
from difficulty.metrics import rate
from difficulty.runner import run as run_experiment

STORED = Path(__file__).resolve().parents[1] / "docs" / "league" / "league.json"

TINY = [
    "league",
    "--heroes-agents",
    "random,scripted",
    "--dm-agents",
    "random,scripted",
    "--adventure",
    "flooded_cellar",
    "--games",
    "4",
    "--max-turns",
    "15",
    "--backend",
    "serial",
    "--quiet",
]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dungeon-env")
    league.add_parser(parser.add_subparsers(dest="command", required=True))
    return parser


def _synthetic(heroes, dms, adventures, games, seed=0):
    """Binomial counts of every (hero, DM, adventure) cell under the model with the given logits."""
    h, d, a = (
        m.ravel() for m in np.meshgrid(*(range(len(v)) for v in (heroes, dms, adventures)), indexing="ij")
    )
    p = 1 / (1 + np.exp(-(np.asarray(heroes)[h] - np.asarray(dms)[d] + np.asarray(adventures)[a])))
    n = np.full(len(h), games)
    return h, d, a, np.random.default_rng(seed).binomial(n, p), n


def test_fit_recovers_known_ratings():
    heroes, dms, adventures = [-1.0, 0.0, 1.5], [-0.5, 0.5, 1.0], [1.0, -1.0]
    fit = league.fit_ratings(*_synthetic(heroes, dms, adventures, games=2000))
    assert list(np.argsort(fit.heroes)) == [0, 1, 2] and list(np.argsort(fit.dm)) == [0, 1, 2]
    np.testing.assert_allclose(np.diff(fit.heroes), np.diff(heroes), atol=0.12)
    np.testing.assert_allclose(np.diff(fit.dm), np.diff(dms), atol=0.12)
    assert abs(fit.heroes.mean()) < 1e-9 and abs(fit.dm.mean()) < 1e-9  # each side centred
    # the centring moves the sides' means into the offsets: predictions unchanged
    np.testing.assert_allclose(
        fit.adventures, np.asarray(adventures) + np.mean(heroes) - np.mean(dms), atol=0.1
    )
    assert np.all(fit.heroes_se < 0.05)


def test_fit_stays_finite_when_an_agent_never_or_always_wins():
    h, d, a, wins, n = _synthetic([0.0, 1.0, 2.0], [0.0, 0.5], [0.0], games=200, seed=1)
    wins[h == 0], wins[h == 2] = 0, n[h == 2]  # 0% and 100% rows
    fit = league.fit_ratings(h, d, a, wins, n)
    values = np.concatenate([fit.heroes, fit.dm, fit.adventures, fit.heroes_se, fit.dm_se])
    assert np.all(np.isfinite(values)) and np.all(np.abs(values) < 20)
    assert fit.heroes[0] < fit.heroes[1] < fit.heroes[2]


def test_the_stored_league_ratings_come_back_from_its_counts():
    """docs/league/league.json was fitted by the earlier hand-written Newton solver: statsmodels'
    ridge-penalised GLM gives every rating, standard error and offset again within the 0.1 Elo the
    file is rounded to."""
    stored = json.loads(STORED.read_text())
    heroes, dms = ([a["agent"] for a in stored[f"{side}_agents"]] for side in ("heroes", "dm"))
    again = league._ratings(stored["cells"], heroes, dms, stored["adventures"])
    assert stored["ratings"]["prior_precision"] == again["prior_precision"] == league.PRIOR
    for side, key in (("heroes", "agent"), ("dm", "agent"), ("adventures", "adventure")):
        assert [r[key] for r in again[side]] == [r[key] for r in stored["ratings"][side]]
        for fields in (("rating", "se"), ("offset",)):
            for field in fields:
                if field in stored["ratings"][side][0]:
                    got = np.array([r[field] for r in again[side]])
                    want = np.array([r[field] for r in stored["ratings"][side]])
                    np.testing.assert_allclose(got, want, atol=0.05 + 1e-9, err_msg=f"{side} {field}")


def test_the_stored_league_intervals_come_back_from_its_counts():
    """Every cell's and pooled rate of the stored league with its Wilson interval (SciPy's now), to
    the 6 digits the file keeps."""
    stored = json.loads(STORED.read_text())
    for cell in stored["cells"] + stored["pooled"]:
        for key in ("completed", "truncated"):
            assert rate(cell[key]["count"], cell["games"]) == cell[key]


def test_split_specs_keeps_commas_in_brackets():
    assert league.split_specs("random, search@v1[rollouts=8,depth=50],scripted") == [
        "random",
        "search@v1[rollouts=8,depth=50]",
        "scripted",
    ]
    specs = league.agents_of("search@v1[rollouts=2,depth=10],scripted,scripted_heroes,scripted@v1", "heroes")
    assert [s.to_json() for s in specs] == [
        "search@v1[rollouts=2,depth=10]",
        "scripted_heroes@v2",  # scripted and scripted_heroes name the same agent: deduplicated
        "scripted_heroes@v1",
    ]


def test_defaults_play_every_adventure_and_three_agents_a_side():
    args = _parser().parse_args(["league"])
    experiment = league.experiment_of(args)
    assert len(experiment.adventures) == 5 and len(experiment.pairings) == 9
    assert experiment.games == 200 and len(experiment.parties[0]) == 3


def test_a_tiny_league_writes_the_matrix_ratings_and_plot(tmp_path, capsys):
    parser = _parser()
    args = parser.parse_args([*TINY, "--out", str(tmp_path)])
    assert league.run(args, parser) == 0
    assert {p.name for p in tmp_path.iterdir()} == {"league.json", "league.md", "league.png"}
    data = json.loads((tmp_path / "league.json").read_text())
    assert [a["agent"] for a in data["heroes_agents"]] == ["random", "scripted@v2"]
    assert len(data["cells"]) == 4 and len(data["pooled"]) == 4
    assert {len(data["ratings"][side]) for side in ("heroes", "dm")} == {2}
    # the same experiment again: the same records (common random numbers), the counts of the file
    result = run_experiment(league.experiment_of(args))
    for cell, records in zip(data["cells"], result.records, strict=True):
        assert cell["games"] == len(records) == 4
        assert cell["completed"]["count"] == sum(r["outcome"] == "completed" for r in records)
        assert cell["truncated"]["count"] == sum(r["outcome"] == "truncated" for r in records)
        assert [r["seed"] for r in records] == [0, 1, 2, 3]
    text = (tmp_path / "league.md").read_text()
    assert "| heroes \\ DM | random | scripted@v2 |" in text and "## Ratings" in text
    assert (tmp_path / "league.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("flag", "value", "named"),
    [
        ("--heroes-agents", "random,bogus", "bogus"),
        ("--heroes-agents", "runaway", "runaway"),  # a DM-only agent
        ("--dm-agents", "scripted,search@v1[rollouts=x]", "rollouts"),
    ],
)
def test_a_bad_spec_stops_before_any_game(tmp_path, capsys, monkeypatch, flag, value, named):
    monkeypatch.setattr(league, "play_experiment", lambda *a: pytest.fail("a game was played"))
    parser = _parser()
    args = parser.parse_args([*TINY, flag, value, "--out", str(tmp_path / "out")])
    with pytest.raises(SystemExit) as exit_info:
        league.run(args, parser)
    assert exit_info.value.code == 2
    message = capsys.readouterr().err
    assert "dungeon-env league: error:" in message and flag in message and named in message
    assert not (tmp_path / "out").exists()
