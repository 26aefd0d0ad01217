"""The turn-based parallel view (``dungeon_env.parallel_env``) keeps PettingZoo's parallel contracts,
plays exactly the AEC env's game, and runs in SuperSuit's vector envs unmodified."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
import supersuit
from pettingzoo.test import parallel_api_test, state_test

import dungeon_env
from dungeon_env.aec import IllegalActionWarning
from dungeon_env.engine import N_ACTIONS, IllegalActionError
from dungeon_env.engine.knowledge import dm_decision_is_hidden
from dungeon_env.parallel import TurnBasedParallelEnv

ADVENTURE = "flooded_cellar"
VIEW_KEYS = ("active_agent", "action_mask")  # what the parallel view adds to an AEC info


def masked_choice(rng: random.Random, mask: np.ndarray) -> int:
    return rng.choice(np.flatnonzero(mask).tolist())


def masks_of(observations: dict, infos: dict) -> dict[str, np.ndarray]:
    """Each agent's mask: in its observation (``"observation"``) or in its info (``"info"``)."""
    return {
        a: o["action_mask"] if isinstance(o, dict) else infos[a]["action_mask"]
        for a, o in observations.items()
    }


def aec_part(info: dict) -> dict:
    return {k: v for k, v in info.items() if k not in VIEW_KEYS}


def play_aec(seed: int, **options) -> tuple[list[tuple[str, int]], dict, dict, list[dict], list[dict]]:
    """Random legal play through the AEC API: (agent, action) per step, returns, final infos, events,
    and at step ``i`` the info of the agent asked, as it was asked."""
    env = dungeon_env.env(adventure=ADVENTURE, **options)
    env.reset(seed=seed)
    rng = random.Random(seed)
    steps, returns, final, infos_seen = [], dict.fromkeys(env.possible_agents, 0.0), {}, []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        returns[agent] += reward
        if terminated or truncated:
            final[agent] = info
            env.step(None)
            continue
        action = masked_choice(rng, obs["action_mask"])
        steps.append((agent, action))
        infos_seen.append(dict(info))
        env.step(action)
    return steps, returns, final, list(env.unwrapped.events), infos_seen


@pytest.mark.parametrize("action_mask_in", ["observation", "info"])
def test_pettingzoo_parallel_api_test(action_mask_in):
    """(``"info"``: the test samples without a mask, so an illegal action soon ends each game.)"""
    env = dungeon_env.parallel_env(action_mask_in=action_mask_in, adventure=ADVENTURE, heroes=4, max_turns=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # parallel_api_test warns about things it only recommends
        parallel_api_test(env, num_cycles=1500)


def test_pettingzoo_state_test_on_the_aec_env_and_the_parallel_view():
    """PettingZoo's state test samples actions without the mask: ``env()``'s default
    ``illegal_action="penalize"`` ends the game at the first illegal one, with a warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IllegalActionWarning)
        state_test(dungeon_env.env(adventure=ADVENTURE), dungeon_env.parallel_env(adventure=ADVENTURE), 10)


def test_the_package_exposes_the_parallel_view():
    assert "parallel_env" in dungeon_env.__all__
    env = dungeon_env.parallel_env(adventure=ADVENTURE, heroes=3)
    assert isinstance(env, TurnBasedParallelEnv)
    assert env.possible_agents == ["hero_0", "hero_1", "hero_2", "dm"]
    assert env.unwrapped is env.aec_env.unwrapped  # the raw AEC env: events, game, episode_seed
    assert env.unwrapped.illegal_action == "penalize"
    flat = dungeon_env.parallel_env(action_mask_in="info", adventure=ADVENTURE)
    assert flat.observation_space("dm") == env.observation_space("dm")["observation"]  # the vector's Box
    assert flat.observation_space("dm") is flat.observation_space("hero_0")  # one space object
    with pytest.raises(ValueError, match="action_mask_in"):
        dungeon_env.parallel_env(action_mask_in="box", adventure=ADVENTURE)


@pytest.mark.parametrize(
    ("seed", "action_mask_in", "options"),
    [(3, "observation", {"max_turns": 12}), (11, "info", {"heroes": 5, "max_turns": 8})],
)
def test_the_parallel_trajectory_is_the_aec_trajectory(seed, action_mask_in, options):
    """Same seed, same actions of the agents asked: the same agents asked, the same event log, the
    same returns and final infos; at every step exactly the agent asked has a non-zero mask, and
    its info is the one the AEC env gives it (events included), the others' the blank one: the
    same keys (steady infos), no decision, no events, nothing met yet. A step that leaves the DM
    asked about a monster heroes do not see is reported to the DM alone; the rewards the heroes
    earn meanwhile come with their next step."""
    options = {"info_events": True, **options}
    steps, returns, final, events, infos_seen = play_aec(seed, **options)
    env = dungeon_env.parallel_env(action_mask_in=action_mask_in, adventure=ADVENTURE, **options)
    flat = action_mask_in == "info"
    observations, infos = env.reset(seed=seed)
    rewards = {}
    goals = [dict(goal, met=False) for goal in env.unwrapped.game.objectives()]
    blank = {"decision": "", "unit": "", "outcome": "", "reason": "", "objectives": goals}
    blank |= {"goals_met": False, "events": []}
    par_returns = dict.fromkeys(env.possible_agents, 0.0)
    for i, (agent, action) in enumerate(steps):
        assert env.agents == env.possible_agents
        assert env.active_agent == agent
        hidden = dm_decision_is_hidden(env.unwrapped.game)  # the DM asked about a fog monster
        assert set(observations) == set(infos) == ({"dm"} if hidden else set(env.possible_agents))
        assert all(info["active_agent"] == agent for info in infos.values())
        assert all(isinstance(o, np.ndarray) == flat for o in observations.values())
        masks = masks_of(observations, infos)
        assert {a for a, m in masks.items() if m.any()} == {agent}
        assert masks[agent][action] == 1
        assert aec_part(infos[agent]) == infos_seen[i]
        assert all(aec_part(infos[a]) == blank for a in infos if a != agent)
        assert all(set(info) == set(infos[agent]) for info in infos.values())  # steady keys
        for a in set(env.agents) - set(observations):  # looked up between its steps (Handed)
            assert not masks_of({a: observations[a]}, {a: infos[a]})[a].any()
            assert aec_part(infos[a]) == blank and rewards[a] == 0.0
        others = dict.fromkeys(env.agents, 10_000)  # ignored, even out of range
        observations, rewards, terminations, truncations, infos = env.step(others | {agent: action})
        assert set(rewards) == set(observations) and set(terminations) == set(env.possible_agents)
        for a, r in rewards.items():
            par_returns[a] += r
        ended = [a for a in env.possible_agents if terminations[a] or truncations[a]]
        assert ended in ([], env.possible_agents)  # every agent ends on the same step
        assert bool(ended) == (i == len(steps) - 1)
    assert env.agents == [] and env.active_agent is None
    assert env.unwrapped.events == events
    assert par_returns == pytest.approx(returns)
    assert {a: aec_part(info) for a, info in infos.items()} == final
    assert set(observations) == set(env.possible_agents)
    assert not any(m.any() for m in masks_of(observations, infos).values())
    with pytest.raises(RuntimeError, match="reset"):
        env.step({})


def test_max_turns_truncates_every_agent_on_one_step():
    """The view's episode bound is the env's ``max_turns`` (PettingZoo's ``max_cycles_test`` does not
    apply: ``dungeon_env.parallel``'s docstring says why)."""
    env = dungeon_env.parallel_env(adventure=ADVENTURE, max_turns=1)
    observations, infos = env.reset(seed=5)
    rng = random.Random(5)
    for _ in range(10_000):
        agent = infos["dm"]["active_agent"]
        observations, rewards, terminations, truncations, infos = env.step(
            {agent: masked_choice(rng, observations[agent]["action_mask"])}
        )
        if not env.agents:
            break
    assert all(truncations.values()) and not any(terminations.values())
    assert {info["outcome"] for info in infos.values()} == {"truncated"}
    assert set(rewards) == set(env.possible_agents)


def test_a_missing_action_of_the_agent_asked_names_it():
    env = dungeon_env.parallel_env(adventure=ADVENTURE)
    env.reset(seed=0)
    with pytest.raises(KeyError, match="hero_0 is asked to act"):
        env.step({"hero_1": 0, "dm": 0})


def test_an_illegal_action_ends_the_game_with_the_penalty_or_raises():
    env = dungeon_env.parallel_env(adventure=ADVENTURE)
    observations, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(observations["hero_0"]["action_mask"] == 0)[0])
    with pytest.warns(IllegalActionWarning):
        _, rewards, terminations, _, infos = env.step({"hero_0": illegal})
    assert rewards == {"hero_0": -1.0, "hero_1": 0.0, "hero_2": 0.0, "dm": 0.0}
    assert all(terminations.values()) and env.agents == []
    assert infos["dm"]["outcome"] == "illegal_action"
    strict = dungeon_env.parallel_env(adventure=ADVENTURE, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step({"hero_0": illegal})


@pytest.mark.parametrize(
    ("base_class", "action_mask_in"),
    [("gymnasium", "observation"), ("stable_baselines3", "observation"), ("gymnasium", "info")],
)
def test_supersuit_vector_env_steps_ends_and_resets(base_class, action_mask_in):
    """``pettingzoo_env_to_vec_env_v1`` + ``concat_vec_envs_v1`` (on ``lockstep=True``: every agent in
    every step, as SuperSuit's rows need): one row per agent per copy; each
    step exactly one row per copy has a legal action (the mask: in the Dict observation, or in the
    infos with ``"info"``); a copy whose episode ends reports every row done (here truncated: the
    cap of the default rewards pays nothing) with the terminal observation, then restarts. SuperSuit
    merges the next episode's first infos over the final ones, and the infos are steady (the same
    keys at every step), so the merged info holds the next episode's values: its first decision
    and no outcome yet."""
    k = 3
    par = dungeon_env.parallel_env(
        action_mask_in=action_mask_in, lockstep=True, adventure=ADVENTURE, heroes=k, max_turns=2
    )
    venv = supersuit.concat_vec_envs_v1(supersuit.pettingzoo_env_to_vec_env_v1(par), 2, 0, base_class)
    rows = 2 * (k + 1)
    assert venv.num_envs == rows
    if base_class == "gymnasium":
        obs, infos = venv.reset(seed=0)
    else:  # SuperSuit 3.11's SB3 wrapper cannot seed (ConcatVecEnv has no seed()): each copy seeds itself
        obs, infos = venv.reset(), venv.reset_infos
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(300):
        if action_mask_in == "info":
            vectors, masks = obs, np.stack([info["action_mask"] for info in infos])
        else:
            vectors, masks = obs["observation"], obs["action_mask"]
        assert masks.shape == (rows, N_ACTIONS) and vectors.shape == (rows, par.state_space.shape[0])
        assert vectors.dtype == np.float32
        assert [int(masks[c * (k + 1) : (c + 1) * (k + 1)].any(axis=1).sum()) for c in range(2)] == [1, 1]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        if base_class == "gymnasium":
            obs, rewards, terminations, truncations, infos = venv.step(actions)
            done = terminations | truncations
            assert not (terminations & done).any()  # the turn cap pays nothing here: a time limit
        else:
            obs, rewards, done, infos = venv.step(actions)
        assert rewards.shape == (rows,) and done.shape == (rows,)
        for c in range(2):
            block = done[c * (k + 1) : (c + 1) * (k + 1)]
            assert block.all() or not block.any()
            if block.all():
                ends += 1
                info = infos[c * (k + 1)]
                assert "terminal_observation" in info
                assert info["decision"] == "hero_move"  # the next episode's first decision (reset info)
                assert info["outcome"] == ""  # the next episode's, over the final "truncated"
    assert ends >= 2
    venv.close()
