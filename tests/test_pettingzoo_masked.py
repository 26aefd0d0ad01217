"""PettingZoo's seed, state and parallel tests, masked, over whole games of every bundled adventure.

PettingZoo 1.27's ``parallel_seed_test`` and ``state_test`` sample actions without the mask, so on
this env (79 actions, a handful legal) their first step is illegal and ``env()``'s penalty ends the
game at once: they pass having played a step or two. (``parallel_seed_test`` also stops after its
first step whatever happens: it breaks on ``any(terminations)``, the dict's keys.) The checks here
are theirs (``pettingzoo/test/seed_test.py``, ``state_test.py``, ``parallel_test.py``), with every
action sampled from the action space under the agent's ``action_mask`` as their ``api_test`` and AEC
``seed_test`` do, played to the game's own end: each game is counted, its steps and its ``outcome``,
and an illegal action fails the test (``IllegalActionWarning`` is an error here).

PettingZoo's own utilities still run (``tests/test_env_api.py``: ``api_test`` and ``seed_test``,
which sample masked; ``tests/test_parallel.py``: ``parallel_api_test``, masked in the observation);
the unmasked ``parallel_seed_test`` and ``state_test`` are run below too, for what they check in the
few steps they play (the shape of a state, the seeding of the spaces).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from pettingzoo.test import parallel_seed_test, state_test

import dungeon_env
from dungeon_env.aec import IllegalActionWarning
from dungeon_env.content import adventure_names

ADVENTURES = adventure_names()
ENDINGS = {"completed", "failed", "truncated"}  # what a game of legal actions may end with
MAX_TURNS = 40  # the game's own turn cap (the observation shows it): whole games, kept short

pytestmark = pytest.mark.filterwarnings("error::dungeon_env.aec.IllegalActionWarning")


def test_the_bundled_adventures_are_the_five_played_here():
    assert len(ADVENTURES) == 5 and ADVENTURES[0] == "flooded_cellar"


def make(adventure: str, heroes: int = 3, **options):
    return dungeon_env.env(adventure=adventure, heroes=heroes, max_turns=MAX_TURNS, **options)


def make_parallel(adventure: str, heroes: int = 3, **options):
    return dungeon_env.parallel_env(adventure=adventure, heroes=heroes, max_turns=MAX_TURNS, **options)


def seed_spaces(env) -> None:
    """PettingZoo's ``seed_action_spaces`` and ``seed_observation_spaces``."""
    for i, agent in enumerate(env.agents):
        env.action_space(agent).seed(42 + i)
        env.observation_space(agent).seed(42 + i)


def mask_of(obs, info) -> np.ndarray:
    """Where PettingZoo's tests look for the mask: the observation, else the info."""
    return obs["action_mask"] if isinstance(obs, dict) and "action_mask" in obs else info["action_mask"]


def aec_seed_check(env1, env2, seed: int) -> tuple[int, str]:
    """PettingZoo's ``check_environment_deterministic`` played to the end of the game (not to the
    first termination or a cycle cap): the same agent, observation, reward, ends, info and mask at
    every step, the same masked sample. The number of actions played and the outcome."""
    env1.reset(seed=seed)
    env2.reset(seed=seed)
    seed_spaces(env1)
    seed_spaces(env2)
    steps = 0
    for agent1, agent2 in zip(env1.agent_iter(), env2.agent_iter(), strict=True):
        assert data_equivalence(agent1, agent2), f"Incorrect agent: {agent1} {agent2}"
        last1, last2 = env1.last(), env2.last()
        for name, a, b in zip(
            ("observation", "reward", "termination", "truncation", "info"), last1, last2, strict=True
        ):
            assert data_equivalence(a, b), f"Incorrect {name} at step {steps}"
        obs1, _, terminated, truncated, info1 = last1
        if terminated or truncated:
            env1.step(None)
            env2.step(None)
            continue
        mask1, mask2 = mask_of(obs1, info1), mask_of(last2[0], last2[4])
        assert data_equivalence(mask1, mask2) and mask1.any()
        action1, action2 = env1.action_space(agent1).sample(mask1), env2.action_space(agent2).sample(mask2)
        assert data_equivalence(action1, action2) and mask1[action1] == 1
        env1.step(action1)
        env2.step(action2)
        steps += 1
    assert not env1.agents and not env2.agents
    assert env1.unwrapped.events == env2.unwrapped.events
    return steps, info1["outcome"]


def parallel_seed_check(env1, env2, seed: int) -> tuple[int, str]:
    """PettingZoo's ``check_environment_deterministic_parallel`` with masked samples for every
    agent handed the step (the agents not asked have an all-zero mask: the sample is 0, ignored;
    a step that leaves the DM asked about a monster heroes do not see is handed to the DM alone),
    until the game ends (``env.agents`` empty): the same observations, rewards, ends and infos at
    every step."""
    obs1, infos1 = env1.reset(seed=seed)
    obs2, infos2 = env2.reset(seed=seed)
    assert data_equivalence(obs1, obs2) and data_equivalence(infos1, infos2)
    seed_spaces(env1)
    seed_spaces(env2)
    steps = 0
    while env1.agents:
        actions1 = {a: env1.action_space(a).sample(mask_of(obs1[a], infos1[a])) for a in obs1}
        actions2 = {a: env2.action_space(a).sample(mask_of(obs2[a], infos2[a])) for a in obs2}
        assert data_equivalence(actions1, actions2), "Incorrect action seeding"
        asked = infos1["dm"]["active_agent"]
        assert mask_of(obs1[asked], infos1[asked])[actions1[asked]] == 1
        obs1, rewards1, terminations1, truncations1, infos1 = env1.step(actions1)
        obs2, rewards2, terminations2, truncations2, infos2 = env2.step(actions2)
        steps += 1
        assert data_equivalence(obs1, obs2), "Incorrect observations"
        assert data_equivalence(rewards1, rewards2), "Incorrect values for rewards"
        assert data_equivalence(terminations1, terminations2), "Incorrect terminations"
        assert data_equivalence(truncations1, truncations2), "Incorrect truncations"
        assert data_equivalence(infos1, infos2), "Incorrect infos"
        ended = [a for a in env1.possible_agents if terminations1[a] or truncations1[a]]
        assert ended in ([], env1.possible_agents) and bool(ended) == (not env1.agents)
    assert not env2.agents
    assert env1.unwrapped.events == env2.unwrapped.events
    return steps, infos1["dm"]["outcome"]


def check_state(env, state_0: np.ndarray) -> None:
    """The checks of PettingZoo's ``test_state`` on one state (its warnings as failures)."""
    state = env.state()
    assert env.state_space.contains(state), "Environment's state is outside of its state space"
    assert isinstance(state, np.ndarray) and state.shape == state_0.shape and state.dtype == state_0.dtype
    assert np.isfinite(state).all() and state.any()
    assert np.can_cast(state.dtype, np.dtype("float64"))


def state_check_masked(env, par_env, seed: int) -> tuple[int, str]:
    """PettingZoo's ``state_test`` (its ``test_state_space``, ``test_state`` and ``test_parallel_env``)
    with masked actions, the AEC env and the parallel view both played to the end of the game, the
    state checked after every step; the state of both equal at every decision."""
    space = env.state_space
    assert isinstance(space, type(par_env.state_space)) and space == par_env.state_space
    assert np.all(space.low <= space.high) and space.low.shape == space.shape == space.high.shape
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    env.reset(seed=seed)
    observations, infos = par_env.reset(seed=seed)
    env.action_space("dm").seed(seed)
    state_0 = env.state()
    assert par_env.state_space.contains(par_env.state())
    steps = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            check_state(env, state_0)
            continue
        np.testing.assert_array_equal(env.state(), par_env.state())
        assert infos[agent]["active_agent"] == agent
        action = env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
        observations, _, _, _, infos = par_env.step({agent: action})
        check_state(env, state_0)
        check_state(par_env, state_0)
        steps += 1
    assert not par_env.agents
    return steps, info["outcome"]


@pytest.mark.parametrize("adventure", ADVENTURES)
def test_masked_seed_test_plays_whole_games_of_every_adventure(adventure):
    games = [aec_seed_check(make(adventure), make(adventure), seed) for seed in (0, 1)]
    games.append(aec_seed_check(make(adventure, heroes=5), make(adventure, heroes=5), 2))
    for steps, outcome in games:
        assert outcome in ENDINGS and steps > 100, games
    assert len({steps for steps, _ in games}) > 1, games  # different seeds, different games


@pytest.mark.parametrize("adventure", ADVENTURES)
def test_masked_parallel_seed_test_plays_whole_games_of_every_adventure(adventure):
    games = [parallel_seed_check(make_parallel(adventure), make_parallel(adventure), seed) for seed in (0, 1)]
    info = make_parallel(adventure, heroes=4, action_mask_in="info")  # the mask in the infos
    games.append(parallel_seed_check(info, make_parallel(adventure, heroes=4, action_mask_in="info"), 3))
    for steps, outcome in games:
        assert outcome in ENDINGS and steps > 100, games


@pytest.mark.parametrize("adventure", ADVENTURES)
def test_masked_state_test_plays_whole_games_of_every_adventure(adventure):
    games = [state_check_masked(make(adventure), make_parallel(adventure), seed) for seed in (0, 1)]
    for steps, outcome in games:
        assert outcome in ENDINGS and steps > 100, games


def test_the_parallel_trajectory_of_masked_play_is_the_aec_trajectory_in_every_adventure():
    """PettingZoo's ``parallel_test`` checks the parallel API; here, for every adventure, the parallel
    view's whole game under masked play is the AEC env's (same event log, same returns)."""
    for adventure in ADVENTURES:
        aec, par = make(adventure), make_parallel(adventure)
        aec.reset(seed=9)
        _, infos = par.reset(seed=9)
        aec_returns = dict.fromkeys(aec.possible_agents, 0.0)
        par_returns = dict.fromkeys(aec.possible_agents, 0.0)
        aec.action_space("dm").seed(9)
        for agent in aec.agent_iter():
            obs, reward, terminated, truncated, _ = aec.last()
            aec_returns[agent] += reward
            if terminated or truncated:
                aec.step(None)
                continue
            action = aec.action_space(agent).sample(obs["action_mask"])
            aec.step(action)
            assert infos["dm"]["active_agent"] == agent
            _, rewards, _, _, infos = par.step({agent: action})
            for a, r in rewards.items():
                par_returns[a] += r
        assert not par.agents and par.unwrapped.events == aec.unwrapped.events, adventure
        assert par_returns == pytest.approx(aec_returns), adventure


def test_pettingzoos_unmasked_parallel_seed_and_state_tests_run_and_end_at_the_first_step():
    """PettingZoo's own utilities as they are: they pass, and the reason they prove little is seen
    here (an unmasked sample is illegal at once and the penalty ends the game)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IllegalActionWarning)
        parallel_seed_test(lambda: make_parallel("flooded_cellar"), num_cycles=100)
        state_test(make("flooded_cellar"), make_parallel("flooded_cellar"), 10)
        env = make("flooded_cellar")
        env.reset(seed=0)
        env.action_space("hero_0").seed(42)
        env.step(env.action_space("hero_0").sample())  # what their loops do
    assert all(env.terminations.values()) and env.infos["dm"]["outcome"] == "illegal_action"
