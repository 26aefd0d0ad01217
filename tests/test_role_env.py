"""Single-role views for single-agent libraries: Gymnasium semantics, the side's own rewards, custom
opponents; with stable-baselines3 installed: check_env, a MaskablePPO smoke run per role, and
SubprocVecEnv with action masks."""

from __future__ import annotations

import functools
import importlib.util

import numpy as np
import pytest

import dungeon_env
from dungeon_env.engine.actions import MOVE_ACTIONS
from dungeon_env.observation import OBS_SPEC, unflatten
from dungeon_env.wrappers import RandomOpponent, RoleEnv
from tests.builders import ARENA, PLAIN, arena_variant, idle, place

N, E, S, W = MOVE_ACTIONS

KWARGS = {"adventure": "flooded_cellar", "heroes": 3, "max_turns": 4}


def run_episode(env: RoleEnv, seed: int) -> tuple[float, int, dict]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        _obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, info


@pytest.mark.parametrize("role", ["heroes", "dm"])
def test_one_policy_plays_every_decision_of_its_side(role):
    env = RoleEnv(role=role, **KWARGS)
    obs, info = env.reset(seed=3)
    assert obs.shape == (OBS_SPEC.size,) and obs.dtype == np.float32
    pieces = unflatten(obs)
    assert pieces["role"][1 if role == "dm" else 0] == 1.0 and pieces["my_turn"][0] == 1.0
    assert (info["agent"] == "dm") == (role == "dm")
    total, steps, info = run_episode(env, 3)
    assert info["outcome"] == "truncated" and total == 0.0 and steps > 0


@pytest.mark.parametrize("role", ["heroes", "dm"])
@pytest.mark.parametrize(("paid", "terminated"), [(-1.0, True), (0.5, True), (0.0, False)])
def test_the_turn_cap_ends_the_side_terminated_when_paid_and_truncated_paying_nothing(role, paid, terminated):
    env = RoleEnv(role=role, **KWARGS, reward_truncated=paid)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    total, ends = 0.0, (False, False)
    while not any(ends):
        obs, reward, *ends, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        total += reward
    assert info["outcome"] == "truncated" and unflatten(obs)["turn"].tolist() == [1.0]  # the clock, seen
    assert tuple(ends) == (terminated, not terminated)
    assert total == (paid if role == "heroes" else -paid)  # a time limit (0) pays nothing


@pytest.mark.parametrize("role", ["heroes", "dm"])
def test_the_infos_have_the_same_keys_at_every_step_of_whole_episodes(role):
    keys = {"agent", "decision", "unit", "outcome", "reason", "objectives", "goals_met"}
    env = RoleEnv(role=role, adventure="warlocks_crypt", heroes=3, max_turns=100)
    rng = np.random.default_rng(5)
    outcomes = set()
    for seed in range(3, 13):  # random heroes die in the crypt, or stall there until the cap: both
        if len(outcomes) == 2:
            break
        _obs, info = env.reset(seed=seed)
        infos, done = [info], False
        while not done:
            _obs, _reward, terminated, truncated, info = env.step(
                int(rng.choice(np.flatnonzero(env.action_masks())))
            )
            infos.append(info)
            done = terminated or truncated
        assert all(set(info) == keys for info in infos)
        assert all(None not in info.values() for info in infos)
        assert len({len(info["objectives"]) for info in infos}) == 1
        assert all(info["agent"] and info["decision"] and info["outcome"] == "" for info in infos[:-1])
        assert (infos[-1]["agent"], infos[-1]["decision"]) == ("", "") and infos[-1]["outcome"]
        outcomes.add(infos[-1]["outcome"])
    assert outcomes == {"failed", "truncated"}


def test_rewards_are_the_sides_own():
    heroes = RoleEnv(role="heroes", shaping={"exploration": 1.0, "kills": 1.0}, **KWARGS)
    dm = RoleEnv(role="dm", shaping={"exploration": 1.0, "kills": 1.0}, **KWARGS)
    hero_total, _, _ = run_episode(heroes, 11)
    dm_total, _, _ = run_episode(dm, 11)
    assert hero_total > 0.0, "the heroes reveal areas: positive shaping for their side"
    assert dm_total <= 0.0 or dm_total != hero_total


def test_a_custom_opponent_gets_observation_and_mask():
    class Recorder(RandomOpponent):
        def __init__(self):
            super().__init__(0)
            self.calls = 0

        def act(self, observation, action_mask):
            assert (
                observation.shape == (OBS_SPEC.size,) and action_mask.dtype == np.int8 and action_mask.any()
            )
            self.calls += 1
            return super().act(observation, action_mask)

    opponent = Recorder()
    run_episode(RoleEnv(role="dm", opponent=opponent, **KWARGS), 1)
    assert opponent.calls > 0
    with pytest.raises(TypeError, match="act"):
        RoleEnv(role="heroes", opponent=object(), **KWARGS)
    with pytest.raises(ValueError, match="unknown agent .grandmaster. for the dm"):
        RoleEnv(role="heroes", opponent="grandmaster", **KWARGS)
    with pytest.raises(ValueError, match="role"):
        RoleEnv(role="monsters", **KWARGS)


@pytest.mark.filterwarnings("ignore::dungeon_env.aec.IllegalActionWarning")  # illegal on purpose
def test_seeded_resets_repeat_and_an_unmasked_illegal_action_ends_with_the_penalty():
    a, b = RoleEnv(role="dm", **KWARGS), RoleEnv(role="dm", **KWARGS)
    assert np.array_equal(a.reset(seed=5)[0], b.reset(seed=5)[0])
    assert run_episode(a, 5) == run_episode(b, 5)
    env = RoleEnv(role="heroes", **KWARGS)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["outcome"]) == (-1.0, True, False, "illegal_action")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def walk_out(env: RoleEnv) -> tuple[float, dict]:
    """The heroes' side on the test arena, by its exit (23,27): hero_0 steps out on turn 1, hero_1 and
    hero_2 on turn 2. Returns the side's episode return and the final info."""
    _obs, info = env.reset(seed=0)
    g = env.env.game
    place(g, 0, 22, 27)
    place(g, 1, 23, 26)
    place(g, 2, 21, 27)
    plan = {1: {"hero_0": [E]}, 2: {"hero_1": [S], "hero_2": [E, E]}}
    total = 0.0
    for _ in range(200):
        todo = plan.get(g.state.turn, {}).get(info["agent"])
        _obs, reward, terminated, truncated, info = env.step(todo.pop(0) if todo else idle(g))
        total += reward
        if terminated or truncated:
            assert terminated and not truncated
            return total, info
    raise AssertionError("the heroes did not walk out")


def test_the_heroes_return_is_the_outcome_reward_when_a_hero_leaves_first():
    total, info = walk_out(RoleEnv(role="heroes", adventure=ARENA, heroes=PLAIN))
    assert total == 1.0 and info["outcome"] == "completed" and info["goals_met"] is True
    assert info["objectives"] == [
        {"kind": "escape", "text": "Walk out at the far corner.", "primary": True, "met": True}
    ]


def test_walking_out_without_the_goal_returns_reward_completed_without_goal(tmp_path):
    goal = '[[objective]]\nkind = "reach"\ntext = "Find room K."\narea = "K"\nprimary = true\n'
    shrine = arena_variant(tmp_path, "shrine_arena", goal)
    total, info = walk_out(RoleEnv(role="heroes", adventure=shrine, heroes=PLAIN))
    assert (total, info["outcome"], info["goals_met"]) == (0.0, "completed", False)
    env = RoleEnv(role="heroes", adventure=shrine, heroes=PLAIN, reward_completed_without_goal=0.5)
    total, info = walk_out(env)
    assert total == 0.5 and [o["met"] for o in info["objectives"]] == [True, False]


def test_the_sides_return_equals_every_hero_agents_aec_return():
    """RoleEnv counts the team reward once; the AEC env gives each hero agent that same return."""
    kwargs = {"adventure": "flooded_cellar", "heroes": 3, "max_turns": 30, "shaping": {"kills": 0.25}}
    totals = []
    for seed in range(3):
        role = RoleEnv(role="heroes", **kwargs)
        total, _steps, _info = run_episode(role, seed)
        aec = dungeon_env.raw_env(illegal_action="penalize", **kwargs)
        aec.reset(seed=role.env.episode_seed)
        returns, actions = dict.fromkeys(aec.possible_agents, 0.0), iter(role.env.actions)
        for agent in aec.agent_iter():  # the same game: the actions RoleEnv's episode applied
            _obs, reward, terminated, truncated, _info = aec.last()
            returns[agent] += reward
            aec.step(None if terminated or truncated else next(actions))
        assert aec.events == role.env.events
        assert returns == pytest.approx({"hero_0": total, "hero_1": total, "hero_2": total, "dm": -total})
        totals.append(total)
    assert any(totals), "some reward was paid in these games"


# ----------------------------------------------------------------- with stable-baselines3

needs_sb3 = pytest.mark.skipif(
    not (importlib.util.find_spec("stable_baselines3") and importlib.util.find_spec("sb3_contrib")),
    reason="stable-baselines3 / sb3-contrib are not installed (the training extra)",
)


@pytest.mark.filterwarnings("ignore::dungeon_env.aec.IllegalActionWarning")  # illegal on purpose
@needs_sb3
@pytest.mark.parametrize("role", ["heroes", "dm"])
def test_sb3_check_env(role):
    from stable_baselines3.common.env_checker import check_env

    check_env(RoleEnv(role=role, **KWARGS), warn=True)


@needs_sb3
@pytest.mark.parametrize("role", ["heroes", "dm"])
def test_maskable_ppo_smoke_run(role):
    from sb3_contrib import MaskablePPO

    env = RoleEnv(role=role, **KWARGS)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=100,
        batch_size=50,
        n_epochs=1,
        policy_kwargs={"net_arch": [16]},
        seed=0,
        device="cpu",
    )
    model.learn(total_timesteps=300)
    obs, _ = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)]


@needs_sb3
def test_subproc_vec_env_with_masks():
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import SubprocVecEnv

    vec = SubprocVecEnv([functools.partial(RoleEnv, role="dm", **KWARGS)] * 2, start_method="forkserver")
    try:
        vec.seed(0)
        vec.reset()
        rng = np.random.default_rng(0)
        for _ in range(20):
            masks = get_action_masks(vec)
            assert masks.shape == (2, vec.action_space.n) and masks.any(axis=1).all()
            vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        model = MaskablePPO(
            "MlpPolicy",
            vec,
            n_steps=32,
            batch_size=32,
            n_epochs=1,
            policy_kwargs={"net_arch": [8]},
            device="cpu",
        )
        model.learn(total_timesteps=64)
    finally:
        vec.close()
