"""The search's fitted evaluation (agents.evaluation) and its fitting script (training.fit_evaluation)."""

from __future__ import annotations

import json
import math

import pytest

from agents.evaluation import FEATURES, SIGNS, Evaluation, features
from agents.spec import from_spec
from dungeon_env.engine import Game
from dungeon_env.engine.side_knowledge import heroes_view
from dungeon_env.episode import play_episode, seed_agents
from dungeon_env.tasks import BUNDLED


def played(adventure: str, heroes: int, seed: int, actions: int | None = None) -> Game:
    """A game of the v2 scripted agents, ``actions`` actions in (None: to its end)."""
    game = Game.new(adventure=adventure, heroes=heroes, seed=seed)
    h, dm = from_spec("scripted@v2", "heroes"), from_spec("scripted@v2", "dm")
    seed_agents(h, dm, seed)
    if actions is None:
        return play_episode(h, dm, game).game
    h.bind(game=game)
    dm.bind(game=game)
    for _ in range(actions):
        if game.over:
            break
        game.apply(int((dm if game.agent == "dm" else h).choose(game)))
    return game


@pytest.mark.parametrize("adventure", BUNDLED)
def test_features_are_finite_and_of_the_documented_length(adventure):
    game = played(adventure, 4, 11, actions=150)
    for g in (game, heroes_view(game), game.copy()):
        row = features(g)
        assert len(row) == len(FEATURES)
        assert all(math.isfinite(x) for x in row)
    assert features(game) == features(heroes_view(game))  # monsters in the fog never count


def test_shipped_weights_keep_their_signs():
    """The fit keeps every weight to its sign (``SIGNS``); a dead hero and the way out count."""
    shipped = Evaluation.shipped()
    assert set(shipped.weights) == set(FEATURES)
    for name, sign in SIGNS.items():
        assert shipped.weights[name] * sign >= 0, name
    assert shipped.weights["dead"] < 0 and shipped.weights["way_out"] > 0
    assert set(shipped.adventures) == set(BUNDLED)


def test_value_falls_when_a_hero_is_at_deaths_door():
    evaluation = Evaluation.shipped()
    fine = played("warlocks_crypt", 4, 3, actions=40)
    assert not fine.over and not fine.state.deaths_door[0]
    dying = fine.copy()
    dying.state.deaths_door[0] = True
    assert 0.0 < evaluation.value(dying) < evaluation.value(fine) < 1.0
    assert evaluation.dm_value(dying) == pytest.approx(1.0 - evaluation.value(dying))


def test_an_adventure_takes_its_own_intercept():
    evaluation = Evaluation.shipped()
    game = played("sunless_throne", 4, 3, actions=40)
    other = Evaluation(evaluation.weights, evaluation.intercept)  # no adventure's own
    shift = evaluation.adventures["sunless_throne"] - evaluation.intercept
    assert evaluation.logit(game) == pytest.approx(other.logit(game) + shift)


def test_finished_games_give_one_or_zero():
    evaluation = Evaluation.shipped()
    won = played("flooded_cellar", 4, 100000)  # completed with the goals by the v2 agents
    assert won.outcome == "completed" and won.goals_met
    assert evaluation.value(won) == 1.0 and evaluation.dm_value(won) == 0.0
    lost = played("goblin_warrens", 4, 100000)  # every hero dead
    assert lost.outcome == "failed"
    assert evaluation.value(lost) == 0.0


def write(tmp_path, data) -> str:
    path = tmp_path / "eval.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def good() -> dict:
    return {"weights": {f: 0.5 for f in FEATURES}, "intercept": -1.0}


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        (lambda d: d["weights"].update(sneaky=1.0), "sneaky"),
        (lambda d: d["weights"].pop("health"), "health"),
        (lambda d: d.pop("intercept"), "intercept"),
        (lambda d: d.pop("weights"), "weights"),
        (lambda d: d["weights"].update(dead="lots"), "weights.dead"),
        (lambda d: d["weights"].update(turn=True), "weights.turn"),
        (lambda d: d.update(intercept=None), "intercept"),
    ],
)
def test_broken_files_raise_a_value_error_naming_the_key(tmp_path, edit, named):
    data = good()
    edit(data)
    with pytest.raises(ValueError, match=named):
        Evaluation.load(write(tmp_path, data))


def test_not_json_or_not_an_object_raises_a_value_error(tmp_path):
    with pytest.raises(ValueError, match="eval.json"):
        Evaluation.load(write(tmp_path, "{not json"))
    with pytest.raises(ValueError, match="object"):
        Evaluation.load(write(tmp_path, [1, 2]))
    with pytest.raises(ValueError, match="intercept must be a finite number"):
        Evaluation.load(write(tmp_path, json.dumps(good() | {"intercept": math.nan})))


def test_save_and_load_round_trip(tmp_path):
    evaluation = Evaluation.from_json(good())
    path = tmp_path / "e.json"
    evaluation.save(path, fitted={"command": "x"})
    assert Evaluation.load(path) == evaluation
    assert json.loads(path.read_text())["fitted"] == {"command": "x"}


def test_a_tiny_fit_writes_a_loadable_file(tmp_path, capsys):
    from training.fit_evaluation import main

    out = tmp_path / "fit.json"
    argv = ["--games-per-cell", "2", "--holdout-games", "1", "--adventures", "flooded_cellar,goblin_warrens"]
    written = main([*argv, "--parties", "4", "--pairings", "scripted@v2/scripted@v2", "--out", str(out)])
    loaded = Evaluation.load(out)
    assert loaded.weights == written["weights"]
    fitted = json.loads(out.read_text())["fitted"]
    assert fitted["games"] == {"training": 4, "holdout": 2}
    assert {"new", "old", "old_calibrated"} <= set(fitted["holdout"])
    assert "held-out" in capsys.readouterr().out


def test_dry_run_plays_nothing(tmp_path, capsys):
    from training.fit_evaluation import main

    assert main(["--dry-run", "--out", str(tmp_path / "x.json")]) == {}
    assert "training: 960 games" in capsys.readouterr().out
    assert not (tmp_path / "x.json").exists()
