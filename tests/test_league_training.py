"""training.league: the mixed env draws every adventure and party size, the pool opponent mixes the
scripted agent with past checkpoints, and both roles train end to end with a tiny budget."""

from __future__ import annotations

import csv
import json
from collections import Counter

import numpy as np
import pytest

from agents.pool import PoolAgent
from agents.spec import from_spec
from agents.turn_search import TurnSearchAgent
from dungeon_env.wrappers import RoleEnv
from tests.test_training import TINY_PPO, needs_sb3, run_script
from training.league import MixedRoleEnv, Settings, side_score


def test_the_mixed_env_draws_every_adventure_and_party_size():
    settings = Settings(adventures="flooded_cellar,bandit_keep", parties="3,5", max_turns=3)
    envs = [
        RoleEnv("heroes", "random", **settings.game_kwargs(a, n))
        for a in settings.adventure_list()
        for n in settings.party_sizes()
    ]
    mixed = MixedRoleEnv(envs)
    mixed.reset(seed=0)
    seen = Counter()
    for _ in range(60):
        obs, _ = mixed.reset()
        assert obs.shape == mixed.observation_space.shape
        game = mixed.current.env.game
        seen[(game.tables.adventure.id, game.state.n_heroes)] += 1
    assert set(seen) == {(a, n) for a in ("flooded_cellar", "bandit_keep") for n in (3, 5)}
    assert min(seen.values()) >= 5


def test_the_turn_cap_pays_each_side_what_losing_pays():
    heroes, dm = Settings(role="heroes"), Settings(role="dm")
    assert heroes.game_kwargs("flooded_cellar", 3)["reward_truncated"] == -1.0  # the heroes' loss
    assert dm.game_kwargs("flooded_cellar", 3)["reward_truncated"] == 1.0  # in the heroes' terms
    assert "base_share=0.7" in heroes.opponent_spec() and "base=scripted" in heroes.opponent_spec()


def test_side_scores_count_completions_for_the_heroes_and_kills_for_the_dm():
    results = [
        {"win_rates": {"completed": {"rate": 0.5}}, "rates": {"failed": 0.25}},
        {"win_rates": {"completed": {"rate": 0.1}}, "rates": {"failed": 0.75}},
    ]
    assert side_score("heroes", results) == pytest.approx(0.3)
    assert side_score("dm", results) == pytest.approx(0.5)


def test_a_pool_agent_plays_its_base_in_the_share_asked_once_it_has_members(tmp_path):
    (tmp_path / "dm_000000001.zip").write_bytes(b"")  # a member (never loaded: the base is drawn)
    never = PoolAgent(tmp_path, "dm", base=from_spec("scripted", "dm"), base_share=1.0)
    for seed in range(20):
        never.seed(seed)
        assert never.current is never.base
    with pytest.raises(ValueError, match="base_share"):
        PoolAgent(tmp_path, "dm", base_share=1.5)


def test_a_pool_agent_plays_its_other_agent_in_its_share_empty_or_not(tmp_path):
    pool = PoolAgent(
        tmp_path, "dm", base=from_spec("scripted", "dm"), also=from_spec("search", "dm"), also_share=0.3
    )
    drawn = []
    for seed in range(400):
        pool.seed(seed)
        drawn.append(pool.current is pool.also)
    assert isinstance(pool.also, TurnSearchAgent)
    assert 0.22 < np.mean(drawn) < 0.38  # 0.3 of the episodes: 400 draws, about 4.5 standard errors
    with pytest.raises(ValueError, match="also_share"):
        PoolAgent(tmp_path, "dm", also=from_spec("search", "dm"), also_share=-0.1)
    with pytest.raises(ValueError, match="needs the agent that plays it"):
        PoolAgent(tmp_path, "dm", also_share=0.2)


def test_the_league_draws_search_opponents_when_asked():
    assert "also" not in Settings().opponent_spec()  # no search opponents unless asked
    spec = Settings(search_share=0.1, pool="runs/p").opponent_spec()
    pool = from_spec(spec, "dm")
    assert isinstance(pool.also, TurnSearchAgent) and pool.also_share == pytest.approx(0.1)


@needs_sb3
@pytest.mark.parametrize("role", ["heroes", "dm"])
def test_league_training_end_to_end(tmp_path, role):
    args = [
        *TINY_PPO,
        "--role",
        role,
        "--adventures",
        "flooded_cellar,goblin_warrens",
        "--parties",
        "3,4",
        "--max-turns",
        "4",
        "--steps",
        "256",
        "--checkpoint-every",
        "128",
        "--eval-every",
        "256",
        "--eval-games",
        "2",
        "--search-share",
        # the DM's search agent plays about half the heroes' episodes (the heroes' search, against
        # the DM in training, is slower: four times this test's time)
        "0.5" if role == "heroes" else "0",
        "--pool",
        str(tmp_path / "pool"),
        "--out",
        str(tmp_path / "league"),
        "--no-progress",
    ]
    out = run_script("training.league", args, tmp_path)
    assert f"league {role}:" in out
    folder = tmp_path / "league" / role
    assert sorted(p.name for p in (tmp_path / "pool").iterdir()) == [
        f"{role}_000000128.zip",
        f"{role}_000000256.zip",
    ]
    assert (folder / "best.zip").is_file() and (folder / "final_model.zip").is_file()
    (row,) = list(csv.DictReader((folder / "eval.csv").open()))
    assert int(row["steps"]) == 256 and 0.0 <= float(row["score"]) <= 1.0
    assert {"flooded_cellar_completed", "goblin_warrens_truncated"} <= set(row)
    assert json.loads((folder / "summary.json").read_text())["steps"] >= 256
    recorded = json.loads((folder / "settings.json").read_text())
    assert recorded["adventures"] == "flooded_cellar,goblin_warrens" and recorded["parties"] == "3,4"
    assert not {"adventure", "heroes", "reward_truncated"} & set(recorded), "options it does not read"


def test_a_single_game_option_a_league_does_not_read_is_refused():
    from training.league import main

    with pytest.raises(SystemExit, match="--adventure: a league does not read it; use --adventures"):
        main(["--adventure", "bandit_keep", "--steps", "1"])


@pytest.mark.parametrize("flag", ["--search-share", "--scripted-share"])
def test_a_share_outside_zero_to_one_is_refused(flag):
    from training.league import main

    with pytest.raises(SystemExit, match=f"{flag}: a share of the episodes, between 0 and 1; got 1.5"):
        main([flag, "1.5", "--steps", "1"])
