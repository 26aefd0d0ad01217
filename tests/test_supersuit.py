"""SuperSuit's vector envs under sb3-contrib's MaskablePPO through the package's ``MaskedVecEnv``
(``dungeon_env.vector``), and SuperSuit's observation wrappers on the parallel view (issue 48)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import supersuit as ss
from sb3_contrib import MaskablePPO

import dungeon_env
from dungeon_env.engine import N_ACTIONS
from dungeon_env.vector import MaskedVecEnv

ROOT = Path(__file__).resolve().parents[1]
ADVENTURE = "flooded_cellar"
K = 3  # heroes: a game is K + 1 vector rows
SMALL = {"net_arch": [32]}


def parallel(action_mask_in: str = "observation", **options):
    """The parallel view as SuperSuit takes it: ``lockstep=True``, every agent in every step."""
    options = {"adventure": ADVENTURE, "heroes": K, "max_turns": 2, "illegal_action": "raise", **options}
    return dungeon_env.parallel_env(action_mask_in=action_mask_in, lockstep=True, **options)


def masked_venv(par, games: int = 2, base_class: str = "stable_baselines3", num_cpus: int = 0):
    """The documented pattern: SuperSuit's two calls, then the package's wrapper."""
    vec = ss.pettingzoo_env_to_vec_env_v1(par)
    return MaskedVecEnv(ss.concat_vec_envs_v1(vec, games, num_cpus=num_cpus, base_class=base_class))


def test_the_vector_module_imports_without_sb3_and_names_the_extras_when_they_are_missing():
    code = (
        "import sys; sys.modules['stable_baselines3'] = None; import dungeon_env.vector as v\n"
        "try:\n    v.MaskedVecEnv\nexcept ImportError as e:\n    print(e)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "pip install 'dungeon_env[training,marl]'" in done.stdout


@pytest.mark.parametrize(
    ("action_mask_in", "base_class"),
    [("observation", "stable_baselines3"), ("info", "stable_baselines3"), ("observation", "gymnasium")],
)
def test_the_masks_are_the_legal_actions_of_the_agent_asked_in_each_game(action_mask_in, base_class):
    """Every step: each game has exactly one row with legal actions, the row of the agent asked (its
    mask the parallel view's mask), MaskablePPO's ``get_action_masks`` finds them; a finished game's
    rows carry the terminal observation without the mask and ``TimeLimit.truncated`` (the cap of the
    default rewards pays nothing); the same seed gives the same observations."""
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    runs = []
    for _ in range(2):
        venv = masked_venv(parallel(action_mask_in), base_class=base_class)
        assert is_masking_supported(venv) and venv.num_envs == 2 * (K + 1)
        assert venv.observation_space == parallel().observation_space("dm")["observation"]
        venv.seed(3)
        obs = venv.reset()
        rng = np.random.default_rng(3)
        seen, ends = [obs.copy()], 0
        for _ in range(120):
            masks = get_action_masks(venv)
            assert masks.shape == (venv.num_envs, N_ACTIONS) and masks.dtype == bool
            assert obs.shape == (venv.num_envs, *venv.observation_space.shape)
            asked = masks.any(axis=1).reshape(2, K + 1)
            assert asked.sum(axis=1).tolist() == [1, 1]
            actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
            obs, rewards, dones, infos = venv.step(actions)  # illegal_action="raise": never illegal
            seen.append(obs.copy())
            for row in np.flatnonzero(dones):
                assert infos[row]["terminal_observation"].shape == venv.observation_space.shape
                assert infos[row]["TimeLimit.truncated"] is True
            ends += int(dones.sum()) // (K + 1)
        assert ends >= 4
        runs.append(seen)
        venv.close()
    assert all(np.array_equal(a, b) for a, b in zip(*runs, strict=True))


def test_the_masks_are_the_parallel_views_masks_step_by_step():
    venv = masked_venv(parallel(max_turns=3), games=1)
    ref = parallel(max_turns=3)
    venv.seed(11)
    obs = venv.reset()
    ref_obs, _ = ref.reset(seed=11)
    rng = np.random.default_rng(11)
    while ref.agents:
        expected = np.stack([ref_obs[a]["action_mask"] for a in ref.possible_agents]).astype(bool)
        np.testing.assert_array_equal(venv.action_masks(), expected)
        np.testing.assert_array_equal(obs, np.stack([ref_obs[a]["observation"] for a in ref.possible_agents]))
        row = int(np.flatnonzero(expected.any(axis=1))[0])
        action = int(rng.choice(np.flatnonzero(expected[row])))
        obs, _, dones, _ = venv.step(np.where(np.arange(K + 1) == row, action, 0))
        ref_obs, *_ = ref.step({ref.possible_agents[row]: action})
    assert dones.all()


@pytest.mark.parametrize(("action_mask_in", "num_cpus"), [("observation", 0), ("info", 2)])
def test_maskable_ppo_trains_on_supersuits_vector_env(action_mask_in, num_cpus, tmp_path):
    """A few hundred steps of MaskablePPO on the documented pattern (``"info"``: through SuperSuit's
    ``normalize_obs_v0`` and ``dtype_v0`` and two worker processes): the weights change, whole games
    end (``illegal_action="raise"``: any illegal action of an agent asked would raise), the saved
    model reloads and plays only legal actions."""
    par = parallel(action_mask_in)
    if action_mask_in == "info":
        par = ss.dtype_v0(ss.normalize_obs_v0(par), np.float32)
    venv = masked_venv(par, num_cpus=num_cpus)
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0, policy_kwargs=SMALL)
    before = [p.detach().clone() for p in model.policy.parameters()]
    start = time.perf_counter()
    model.learn(2 * 32 * venv.num_envs)
    rate = model.num_timesteps / (time.perf_counter() - start)
    print(f"MaskablePPO on SuperSuit ({action_mask_in}, num_cpus={num_cpus}): {rate:.0f} rows/s")
    assert model.num_timesteps == 2 * 32 * venv.num_envs
    assert any(not np.allclose(a, b.detach()) for a, b in zip(before, model.policy.parameters(), strict=True))
    model.save(tmp_path / "ss_policy")
    loaded = MaskablePPO.load(tmp_path / "ss_policy", device="cpu")
    obs, ends = venv.reset(), 0
    for _ in range(100):
        masks = venv.action_masks()
        actions, _ = loaded.predict(obs, action_masks=masks, deterministic=True)
        assert all(m[a] for m, a in zip(masks, actions, strict=True) if m.any())
        obs, _, dones, _ = venv.step(actions)
        ends += int(dones.sum()) // (K + 1)
    assert ends >= 2
    venv.close()


WRAPPERS = {
    "dtype_v0": lambda env: ss.dtype_v0(env, np.float16),
    "normalize_obs_v0": lambda env: ss.normalize_obs_v0(env, env_min=-1.0, env_max=1.0),
    "flatten_v0": ss.flatten_v0,
}


@pytest.mark.parametrize("name", sorted(WRAPPERS))
def test_supersuits_observation_wrappers_play_the_same_game_on_the_box_observation(name):
    """With ``action_mask_in="info"`` the observation is a Box and the mask is in the infos: the
    wrapper changes the observation only; the game is the plain view's, step for step. SuperSuit's
    wrappers go through PettingZoo's AEC converters, which look up an action for every agent: the
    action dict names every agent (any action for the ones not asked)."""
    wrapped = WRAPPERS[name](parallel("info", max_turns=3))
    plain = parallel("info", max_turns=3)
    space, low, high = (
        wrapped.observation_space("dm"),
        plain.observation_space("dm").low,
        plain.observation_space("dm").high,
    )
    obs, infos = wrapped.reset(seed=2)
    ref_obs, ref_infos = plain.reset(seed=2)
    rng = np.random.default_rng(2)
    steps = 0
    while plain.agents:
        agent = ref_infos["dm"]["active_agent"]
        assert infos["dm"]["active_agent"] == agent
        np.testing.assert_array_equal(infos[agent]["action_mask"], ref_infos[agent]["action_mask"])
        for a in plain.agents:
            assert space.contains(obs[a])
            if name == "normalize_obs_v0":
                np.testing.assert_allclose(obs[a], (ref_obs[a] - low) / (high - low) * 2 - 1, atol=1e-6)
            else:
                np.testing.assert_array_equal(obs[a], ref_obs[a].astype(space.dtype))
        action = int(rng.choice(np.flatnonzero(ref_infos[agent]["action_mask"])))
        obs, rewards, terms, truncs, infos = wrapped.step(dict.fromkeys(wrapped.agents, 0) | {agent: action})
        ref_obs, ref_rewards, ref_terms, ref_truncs, ref_infos = plain.step({agent: action})
        assert (rewards, terms, truncs) == (ref_rewards, ref_terms, ref_truncs)
        steps += 1
    assert steps > 10 and not wrapped.agents
    assert {i["outcome"] for i in infos.values()} == {ref_infos["dm"]["outcome"]} != {"illegal_action"}


@pytest.mark.parametrize("name", sorted(WRAPPERS))
def test_what_supersuits_observation_wrappers_do_not_take(name):
    """What docs/LIBRARIES.md says they refuse, as SuperSuit 3.11 and PettingZoo 1.27 behave: the Dict
    observation (the wrappers read ``space.low``, a Box's), and an action dict naming only the agent
    asked (PettingZoo's ``aec_to_parallel`` looks up ``actions[agent]`` for every agent)."""
    with pytest.raises(AttributeError, match="'Dict' object has no attribute 'low'"):
        WRAPPERS[name](parallel("observation")).observation_space("dm")
    wrapped = WRAPPERS[name](parallel("info"))
    _, infos = wrapped.reset(seed=0)
    agent = infos["dm"]["active_agent"]
    with pytest.raises(KeyError, match="hero_1"):
        wrapped.step({agent: int(np.flatnonzero(infos[agent]["action_mask"])[0])})
