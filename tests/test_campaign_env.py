"""The env's ``campaign`` option: a campaign (R-CAMP, engine.campaign) as one episode: the adventures
in order, each paying its outcome as it ends, a failed one played again by a new party, and the
episode's end saying how the campaign ended."""

from __future__ import annotations

import numpy as np
import pytest

from agents import ScriptedDM, ScriptedHeroes
from dungeon_env import env, replay
from dungeon_env.tasks import TASK_DIR, measure

WALK_OUT = str(TASK_DIR / "walk_out.toml")
EXIT_DOORS = str(TASK_DIR / "exit_doors.toml")
AMBUSH = str(TASK_DIR / "ambush.toml")
PARTY = ["bram", "sela", "orwin"]


def _play(e, seed: int, heroes_policy=None) -> tuple[dict, dict[str, float], list[str]]:
    """Play an episode with the scripted agents (or ``heroes_policy(mask)`` for the heroes): the
    final info, each agent's return, and the adventure of every game played, in order."""
    e.reset(seed=seed)
    heroes, dm = ScriptedHeroes(env=e), ScriptedDM(env=e, seed=0)
    returns = dict.fromkeys(e.possible_agents, 0.0)
    games: list[str] = []
    info: dict = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        returns[agent] += reward
        game = e.unwrapped.game
        if not games or games[-1][1] is not game:
            games.append((game.adventure_ref, game))
        if terminated or truncated:
            e.step(None)
            continue
        assert obs["action_mask"].any() and e.observation_space(agent).contains(obs)
        if agent == "dm":
            e.step(dm.act(obs, obs["action_mask"]))
        elif heroes_policy is not None:
            e.step(heroes_policy(obs["action_mask"]))
        else:
            e.step(heroes.act(obs, obs["action_mask"]))
    return info, returns, [name for name, _ in games]


def test_R_CAMP_a_campaign_plays_its_adventures_in_order_as_one_episode():
    e = env(campaign=[WALK_OUT, EXIT_DOORS], heroes=PARTY, max_turns=15)
    info, returns, games = _play(e, seed=1)
    assert games == [WALK_OUT, EXIT_DOORS]
    assert info["outcome"] == "completed" and info["goals_met"] is True
    campaign = info["campaign"]
    assert campaign["outcome"] == "won"
    assert campaign["adventures_completed"] == campaign["adventures"] == 2
    assert [(h["adventure"], h["outcome"]) for h in campaign["history"]] == [
        (WALK_OUT, "completed"),
        (EXIT_DOORS, "completed"),
    ]
    assert returns["hero_0"] == returns["hero_2"] == 2.0  # +1 for each adventure, as it ended
    assert returns["dm"] == -2.0
    assert e.unwrapped.options["campaign"] == [WALK_OUT, EXIT_DOORS]


def test_R_CAMP_02_a_failed_adventure_is_played_again_by_a_new_party():
    """C-01: the scripted DM kills the party in some ambushes; the dead are replaced from the roster
    (the first available heroes) and the adventure is played again."""
    e = env(campaign=[AMBUSH, WALK_OUT], heroes=PARTY, max_turns=20)
    for seed in range(40):
        info, returns, games = _play(e, seed)
        history = info["campaign"]["history"]
        if history[0]["outcome"] == "failed":
            break
    else:
        pytest.fail("the scripted DM won none of 40 ambushes")
    assert games[:2] == [AMBUSH, AMBUSH]
    assert history[1]["adventure"] == AMBUSH and history[1]["attempt"] == 1
    assert not set(history[1]["heroes"]) & set(PARTY)  # every hero died: a whole new party
    assert history[0]["next_party"] == history[1]["heroes"]
    paid = {"completed": 1.0, "failed": -1.0, "truncated": 0.0}
    expected = sum(
        paid[h["outcome"]] if h["goals_met"] or h["outcome"] != "completed" else 0.0 for h in history
    )
    assert returns["hero_0"] == expected


def test_a_campaign_truncated_by_an_adventure_ends_the_episode_truncated():
    e = env(campaign=[WALK_OUT, EXIT_DOORS], heroes=PARTY, max_turns=2, reward_truncated=-1.0)
    rng = np.random.default_rng(0)
    info, returns, _ = _play(
        e, seed=3, heroes_policy=lambda mask: 13 if mask[13] else int(rng.choice(np.flatnonzero(mask)))
    )
    assert info["outcome"] == "truncated" and info["campaign"]["outcome"] == "truncated"
    assert returns["hero_0"] == -1.0


def test_a_campaign_replay_plays_back_to_the_same_end(tmp_path):
    e = env(campaign=[WALK_OUT, EXIT_DOORS], heroes=PARTY, max_turns=15)
    _play(e, seed=5)
    path = tmp_path / "campaign.json"
    replay.save(e, path)
    again = replay.play(replay.load(path))
    assert again.campaign.history == e.unwrapped.campaign.history
    assert again.actions == e.unwrapped.actions


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test_on_a_campaign():
    from pettingzoo.test import api_test

    api_test(env(campaign=[WALK_OUT, EXIT_DOORS], heroes=PARTY, max_turns=4), num_cycles=200)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"campaign": []}, "non-empty list"),
        ({"campaign": "all"}, "'bundled' or a non-empty list"),
        ({"campaign": [WALK_OUT, 3]}, "non-empty list"),
        ({"campaign": [WALK_OUT], "adventure": EXIT_DOORS}, "give one of the two"),
        ({"campaign": [WALK_OUT, "no_such_adventure"]}, "no_such_adventure"),
    ],
)
def test_a_wrong_campaign_option_names_what_is_wrong(kwargs, message):
    with pytest.raises((ValueError, KeyError, FileNotFoundError), match=message):
        env(heroes=PARTY, **kwargs)


def test_the_bundled_campaign_is_the_campaign_order():
    from dungeon_env.engine.campaign import campaign_order

    e = env(campaign="bundled", heroes=["bram", "tovar", "gunnhild"])
    assert e.unwrapped.campaign_adventures == campaign_order()
    assert e.unwrapped.adventure == campaign_order()[0]


def test_the_campaign_task_measures_campaigns():
    score = measure("heroes/campaign", "idle", games=1)
    assert dict(score.ends)["truncated"] == 1 and score.mean_return == -1.0
    score = measure("heroes/campaign", "scripted", games=2, seed=1)
    assert sum(v for _, v in score.ends) == 2 and score.mean_turns > 40  # more than one adventure


def test_every_adventure_of_a_campaign_plays_the_env_variant():
    from dungeon_env.content.variants import Variant

    e = env(campaign=[WALK_OUT, EXIT_DOORS], heroes=PARTY, max_turns=15, variant=["light.start=15"])
    _info, _returns, games = _play(e, seed=1)
    assert games == [WALK_OUT, EXIT_DOORS]
    assert e.unwrapped.game.variant == Variant.coerce(["light.start=15"]) != Variant()
