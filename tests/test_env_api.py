"""The PettingZoo environment keeps PettingZoo's contracts: api_test, seed_test, masks, dead agents,
rewards, illegal actions, and the same trajectory from the same seed in any process."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import dungeon_env
from dungeon_env.engine import IllegalActionError
from dungeon_env.engine.game import Game

ADVENTURE = "flooded_cellar"


def play(env, seed: int, rng: random.Random, on_step=None, limit: int = 100_000) -> None:
    """Random legal play of one episode through the AEC API; ``on_step(env, agent, obs)`` before each step."""
    env.reset(seed=seed)
    for agent in env.agent_iter(limit):
        obs, _reward, terminated, truncated, _info = env.last()
        if on_step:
            on_step(env, agent, obs)
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("heroes", [3, 5])
def test_pettingzoo_api_test(heroes):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about things it only recommends
        api_test(dungeon_env.env(adventure=ADVENTURE, heroes=heroes, max_turns=6), num_cycles=300)


def test_pettingzoo_seed_test():
    seed_test(lambda: dungeon_env.env(adventure=ADVENTURE, heroes=4, max_turns=8), num_cycles=300)


def test_agents_share_one_observation_space_and_one_action_space():
    env = dungeon_env.env(adventure=ADVENTURE, heroes=4)
    env.reset(seed=0)
    assert env.possible_agents == ["hero_0", "hero_1", "hero_2", "hero_3", "dm"]
    assert len({id(env.observation_space(a)) for a in env.possible_agents}) == 1
    assert len({id(env.action_space(a)) for a in env.possible_agents}) == 1
    space = env.observation_space("dm")
    assert space["observation"].dtype == np.float32 and space["action_mask"].dtype == np.int8


@pytest.mark.parametrize("adventure", ["flooded_cellar", "goblin_warrens", "warlocks_crypt"])
def test_the_mask_holds_exactly_the_legal_actions_of_the_agent_asked(adventure):
    env = dungeon_env.env(adventure=adventure, heroes=4, max_turns=25)
    raw = env.unwrapped
    seen_agents = set()

    def check(env, agent, obs):
        if env.terminations[agent] or env.truncations[agent]:
            return
        assert agent == raw.game.agent, "agent_selection follows the engine's pending decision"
        seen_agents.add(agent)
        mask = obs["action_mask"]
        assert mask.any(), f"all-zero mask for {agent}"
        assert np.flatnonzero(mask).tolist() == raw.game.legal_actions()
        other = next(a for a in env.agents if a != agent)
        assert not env.observe(other)["action_mask"].any(), "only the agent asked has legal actions"
        info = env.infos[agent]
        assert info["decision"] and info["unit"]

    for seed in range(2):
        play(env, seed, random.Random(seed), check)
    assert "dm" in seen_agents and any(a.startswith("hero_") for a in seen_agents)


def test_a_hero_that_dies_or_leaves_is_terminated_then_removed_after_its_final_step():
    env = dungeon_env.env(adventure=ADVENTURE, heroes=4, max_turns=40)
    raw = env.unwrapped
    for seed in range(40):
        env.reset(seed=seed)
        rng = random.Random(seed)
        removed: set[str] = set()
        ended_early = None
        for agent in env.agent_iter():
            assert agent not in removed, "a removed agent is never selected again"
            obs, _r, terminated, truncated, _info = env.last()
            if terminated and not raw.game.over and agent.startswith("hero_"):
                ended_early = agent
                assert raw.game.state.unit_status[int(agent[5:])] != 1  # no longer active on the board
                env.step(None)
                assert agent not in env.agents and agent not in env.terminations
                removed.add(agent)
                continue
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if ended_early:
            return
    pytest.fail("no hero died or left early in 40 random games")


def test_truncation_at_the_turn_cap_gives_every_agent_the_truncation_reward():
    env = dungeon_env.env(adventure=ADVENTURE, heroes=3, max_turns=2, reward_truncated=0.25)
    finals = {}

    def record(env, agent, obs):
        if env.truncations[agent]:
            finals[agent] = env._cumulative_rewards[agent]

    play(env, 3, random.Random(3), record)
    assert env.unwrapped.game.outcome == "truncated"
    assert finals == {"hero_0": 0.25, "hero_1": 0.25, "hero_2": 0.25, "dm": -0.25}
    assert env.agents == []


def test_completion_gives_the_heroes_plus_one_and_the_dm_minus_one(monkeypatch):
    env = dungeon_env.env(adventure=ADVENTURE, heroes=3)
    env.reset(seed=1)
    game = env.unwrapped.game

    def apply_and_win(action):
        Game.apply(game, action)
        game.finish("completed", "test: the party wins")

    monkeypatch.setattr(game, "apply", apply_and_win)
    agent = env.agent_selection
    env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards == {"hero_0": 1.0, "hero_1": 1.0, "hero_2": 1.0, "dm": -1.0}
    assert env.infos["dm"]["outcome"] == "completed"
    while env.agents:
        agent = env.agent_selection
        assert env.last()[1] == (-1.0 if agent == "dm" else 1.0)
        env.step(None)


def test_shaping_is_off_by_default_and_zero_sum_when_on():
    plain = dungeon_env.raw_env(adventure=ADVENTURE, heroes=3, max_turns=6)
    shaped = dungeon_env.raw_env(
        adventure=ADVENTURE, heroes=3, max_turns=6, shaping={"exploration": 0.1, "damage": 0.01, "kills": 0.5}
    )
    totals = {"plain": 0.0, "heroes": 0.0, "dm": 0.0}
    for name, env in (("plain", plain), ("shaped", shaped)):
        rng = random.Random(5)
        env.reset(seed=5)
        while env.agents:
            agent = env.agent_selection
            done = env.terminations[agent] or env.truncations[agent]
            env.step(None if done else int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
            if not done and name == "plain":
                totals["plain"] += abs(env.side_rewards["heroes"])
            elif not done:
                totals["heroes"] += env.side_rewards["heroes"]
                totals["dm"] += env.side_rewards["dm"]
    assert totals["plain"] == 0.0
    assert totals["heroes"] != 0.0 and totals["heroes"] == pytest.approx(-totals["dm"])
    with pytest.raises(ValueError, match="unknown terms"):
        dungeon_env.raw_env(adventure=ADVENTURE, shaping={"gold": 1.0})


def test_an_illegal_action_raises_a_clear_error():
    env = dungeon_env.env(adventure=ADVENTURE, heroes=3)
    env.reset(seed=2)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match=rf"{agent} cannot play action {illegal} .*legal: "):
        env.step(illegal)
    with pytest.raises(IllegalActionError):
        env.step(None)
    assert env.agent_selection == agent, "a refused action changes nothing"


def test_penalize_ends_the_episode_with_the_penalty_for_the_offender():
    env = dungeon_env.env(adventure=ADVENTURE, heroes=3, illegal_action="penalize", illegal_reward=-2.0)
    env.reset(seed=2)
    offender = env.agent_selection
    mask = env.observe(offender)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[offender] == -2.0 and sum(env.rewards.values()) == -2.0
    assert "cannot play action" in env.infos[offender]["reason"]
    finals = {}
    while env.agents:
        agent = env.agent_selection
        finals[agent] = env.last()[1]
        assert not env.observe(agent)["action_mask"].any()
        env.step(None)
    assert finals[offender] == -2.0 and all(v == 0.0 for a, v in finals.items() if a != offender)


def test_bad_options_fail_at_construction_with_the_reason():
    with pytest.raises(ValueError, match="illegal_action"):
        dungeon_env.env(illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        dungeon_env.env(render_mode="svg")
    with pytest.raises(ValueError, match="unknown hero"):
        dungeon_env.env(heroes=["bram", "sela", "nobody"])
    with pytest.raises(ValueError, match="3-5"):
        dungeon_env.env(heroes=2)


def test_reset_without_a_seed_continues_reproducibly_from_the_last_seed():
    a, b = dungeon_env.raw_env(adventure=ADVENTURE), dungeon_env.raw_env(adventure=ADVENTURE)
    a.reset(seed=9)
    b.reset(seed=9)
    a.reset()
    b.reset()
    assert a.seed == b.seed and a.events == b.events


def test_the_package_import_is_light_and_env_is_callable():
    code = (
        "import sys, dungeon_env; assert not {'pettingzoo', 'gymnasium'} & set(sys.modules);"
        "from dungeon_env.env import raw_env; e = dungeon_env.env(); e.reset(seed=0);"
        "print(e.agent_selection)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().startswith("hero_")


_DIGEST_SCRIPT = """
import hashlib, json, random, numpy as np, dungeon_env
env = dungeon_env.env(adventure="flooded_cellar", heroes=4, max_turns=12)
env.reset(seed=1234)
rng = random.Random(99)
for agent in env.agent_iter():
    obs, _r, te, tr, _i = env.last()
    env.step(None if te or tr else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
print(hashlib.sha256(json.dumps(env.unwrapped.events, sort_keys=True).encode()).hexdigest())
"""


def test_the_same_seed_in_two_processes_gives_identical_event_logs():
    digests = [
        subprocess.run(
            [sys.executable, "-c", _DIGEST_SCRIPT], capture_output=True, text=True, check=True
        ).stdout
        for _ in range(2)
    ]
    env = dungeon_env.env(adventure=ADVENTURE, heroes=4, max_turns=12)
    play(env, 1234, random.Random(99))
    here = hashlib.sha256(json.dumps(env.unwrapped.events, sort_keys=True).encode()).hexdigest()
    assert digests[0] == digests[1] and digests[0].strip() == here


def test_the_env_card_groups_the_action_table_as_the_code_does():
    import re

    from dungeon_env.engine import Action

    rows = re.findall(r"^\| (\d+)-(\d+) \| (.+?) \|", dungeon_env.env.__doc__, re.M)
    assert rows, "the card has the action groups table"
    covered = []
    for first, last, names in rows:
        listed = re.findall(r"`(\w+)`", names)
        assert Action[listed[0].upper()] == int(first) and Action[listed[-1].upper()] == int(last)
        covered += range(int(first), int(last) + 1)
    assert covered == list(range(len(Action))), "the groups cover the whole table, in order"
