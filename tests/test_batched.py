"""Batched games (``dungeon_env.batched``): Gymnasium's vector-env contract with same-step autoreset,
the same trajectories as single envs with the same seeds, preallocated arrays, clear errors for bad
actions, a CleanRL-style loop and MaskablePPO through the SB3 adapter; the two-role batch plays the
AEC env's games."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics

import dungeon_env
from dungeon_env.aec import IllegalActionError, IllegalActionWarning
from dungeon_env.batched import BatchedGames, BatchedRoleEnv
from dungeon_env.engine import N_ACTIONS
from dungeon_env.observation import DICT_PIECES, OBS_SPEC, as_dict, unflatten
from dungeon_env.wrappers import RoleEnv

GYMNASIUM = tuple(int(part) for part in gymnasium.__version__.split(".")[:2])
KWARGS = {"adventure": "flooded_cellar", "heroes": 3, "max_turns": 4}  # short episodes: many resets


def random_legal(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)


@pytest.mark.parametrize("observation_format", ["flat", "dict"])
def test_spaces_dtypes_shapes_and_the_same_step_autoreset_contract(observation_format):
    """What Gymnasium 1.x asks of a vector env (it ships no checker for one): batched spaces that
    contain every observation and action, the documented dtypes and shapes, and the same-step
    autoreset of ``metadata["autoreset_mode"]``: an ended game's last observation and info are in
    ``infos["final_obs"]`` / ``infos["final_info"]`` with ``_final_*`` masks of exactly the ended
    games, and its row already holds the next episode. Gymnasium's ``DictInfoToList`` reads the
    infos."""
    n = 3
    envs = BatchedRoleEnv(n, observation_format=observation_format, **KWARGS)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert envs.num_envs == n and envs.single_action_space == spaces.Discrete(N_ACTIONS)
    assert envs.action_space == spaces.MultiDiscrete([N_ACTIONS] * n)
    single = envs.single_observation_space
    if observation_format == "flat":
        assert single == RoleEnv(**KWARGS).observation_space and single.shape == (OBS_SPEC.size,)
        assert envs.observation_space.shape == (n, OBS_SPEC.size)
    else:
        assert set(single.spaces) == set(DICT_PIECES)
        assert all(envs.observation_space[k].shape == (n, *single[k].shape) for k in DICT_PIECES)
    obs, infos = envs.reset(seed=0)
    assert envs.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(200):
        masks = envs.action_masks()
        assert masks.shape == (n, N_ACTIONS) and masks.dtype == bool and masks.any(axis=1).all()
        assert infos["action_mask"] is masks and infos["_action_mask"].all()
        actions = random_legal(rng, masks)
        assert envs.action_space.contains(actions)
        obs, rewards, terminations, truncations, infos = envs.step(actions)
        assert envs.observation_space.contains(obs)
        assert rewards.shape == terminations.shape == truncations.shape == (n,)
        assert (rewards.dtype, terminations.dtype, truncations.dtype) == (np.float64, bool, bool)
        done = terminations | truncations
        if not done.any():
            assert "final_obs" not in infos and "final_info" not in infos
            continue
        ends += int(done.sum())
        assert (infos["_final_obs"] == done).all() and (infos["_final_info"] == done).all()
        assert (infos["final_info"]["_episode"] == done).all()
        for i in np.flatnonzero(done):
            final = infos["final_obs"][i]
            assert single.contains(final)
            flat = (
                final
                if observation_format == "flat"
                else np.concatenate([final[k].ravel() for k in DICT_PIECES])
            )
            assert unflatten(flat)["turn"].tolist() == [1.0]  # the clock at the cap: the ended episode's view
            row = (
                obs[i]
                if observation_format == "flat"
                else np.concatenate([obs[k][i].ravel() for k in DICT_PIECES])
            )
            assert unflatten(row)["turn"].tolist() == [1 / 4]  # the row: the next episode's turn 1 of 4
            assert infos["final_info"]["outcome"][i] == "truncated" and infos["final_info"]["_outcome"][i]
    assert ends >= 2
    wrapped = DictInfoToList(envs)  # Gymnasium's reader of batched infos: one dict per game
    _obs, rows = wrapped.reset(seed=1)
    while not any("final_obs" in row for row in rows):
        _obs, _rewards, terminations, truncations, rows = wrapped.step(random_legal(rng, envs.action_masks()))
        assert len(rows) == n and all(row["action_mask"].any() for row in rows)
    assert ["final_obs" in row for row in rows] == (terminations | truncations).tolist()
    assert all(row["final_info"]["outcome"] == "truncated" for row in rows if "final_info" in row)
    envs.close()
    assert envs.closed


def test_gymnasiums_episode_statistics_wrapper_takes_the_batch():
    """``RecordEpisodeStatistics`` stacks on the batch (no key of its own in the way) and, from
    Gymnasium 1.4 on (which counts same-step autoreset right), reports the batch's own
    ``final_info["episode"]``."""
    envs = RecordEpisodeStatistics(BatchedRoleEnv(2, **KWARGS))
    _obs, infos = envs.reset(seed=2)
    rng = np.random.default_rng(2)
    seen = 0
    for _ in range(150):
        _obs, _rewards, terminations, truncations, infos = envs.step(random_legal(rng, infos["action_mask"]))
        done = terminations | truncations
        if not done.any():
            continue
        seen += 1
        ours = infos["final_info"]["episode"]
        assert (infos["_episode"] == done).all() and (ours["l"][done] > 0).all()
        if GYMNASIUM >= (1, 4):
            assert np.array_equal(infos["episode"]["l"][done], ours["l"][done])
            assert np.allclose(infos["episode"]["r"][done], ours["r"][done])
    assert seen >= 2


@pytest.mark.parametrize("role", ["heroes", "dm"])
def test_the_batch_plays_the_games_of_role_envs_seeded_seed_plus_i(role):
    """N ``RoleEnv`` copies reset with seed 5 + i and stepped with the same random legal actions give
    the batch's observations, rewards, terminations, truncations and masks row by row, across
    autoresets (each copy resets itself without a seed), and its final observations, final infos
    and episode returns and lengths."""
    n, seed = 3, 5
    options = KWARGS | {"shaping": {"exploration": 0.5, "damage": 0.25}, "max_turns": 3}
    envs = BatchedRoleEnv(n, role=role, **options)
    singles = [RoleEnv(role=role, **options) for _ in range(n)]
    obs, _infos = envs.reset(seed=seed)
    first = [env.reset(seed=seed + i)[0] for i, env in enumerate(singles)]
    assert np.array_equal(obs, np.stack(first))
    returns, lengths = np.zeros(n), np.zeros(n, int)
    rng = np.random.default_rng(seed)
    ends, paid = 0, False
    for _ in range(150):
        masks = envs.action_masks()
        assert np.array_equal(masks, np.stack([env.action_masks() for env in singles]))
        actions = random_legal(rng, masks)
        obs, rewards, terminations, truncations, infos = envs.step(actions)
        paid |= bool(rewards.any())
        for i, env in enumerate(singles):
            o, r, te, tr, info = env.step(int(actions[i]))
            returns[i] += r
            lengths[i] += 1
            assert (rewards[i], terminations[i], truncations[i]) == (r, te, tr)
            if te or tr:
                ends += 1
                assert np.array_equal(infos["final_obs"][i], o)
                assert {k: infos["final_info"][k][i] for k in info} == info
                assert infos["final_info"]["episode"]["r"][i] == pytest.approx(returns[i])
                assert infos["final_info"]["episode"]["l"][i] == lengths[i]
                returns[i], lengths[i] = 0.0, 0
                o, _info = env.reset()
            assert np.array_equal(obs[i], o)
    assert ends >= 3 and paid  # shaping paid some steps: the rewards compared are not all zeros
    assert np.array_equal(envs.action_masks(), np.stack([env.action_masks() for env in singles]))


def test_the_arrays_are_preallocated_and_reused_or_copied_on_request():
    envs = BatchedRoleEnv(2, **KWARGS)
    obs, infos = envs.reset(seed=1)
    masks = envs.action_masks()
    before = obs.copy()
    rng = np.random.default_rng(1)
    step = envs.step(random_legal(rng, masks))
    assert step[0] is obs and step[4]["action_mask"] is masks and envs.action_masks() is masks
    assert not np.array_equal(before, obs)  # overwritten in place
    again = envs.step(random_legal(rng, masks))
    assert all(a is b for a, b in zip(step[:4], again[:4], strict=True))  # obs, rewards, ends: same arrays
    dict_envs = BatchedRoleEnv(2, observation_format="dict", **KWARGS)
    pieces, _ = dict_envs.reset(seed=1)
    assert all(np.shares_memory(pieces[k], pieces["board"].base) for k in DICT_PIECES)  # views of one buffer
    assert all(np.array_equal(as_dict(np.asarray(obs[0]))[k].shape, pieces[k][0].shape) for k in DICT_PIECES)
    assert pieces is dict_envs.step(random_legal(rng, dict_envs.action_masks()))[0]
    copying = BatchedRoleEnv(2, copy=True, **KWARGS)
    first, _ = copying.reset(seed=1)
    second = copying.step(random_legal(rng, copying.action_masks()))[0]
    assert first is not second and not np.shares_memory(first, second)
    assert copying.action_masks() is not copying.action_masks()


def test_bad_actions_are_a_value_error_saying_what_was_expected_and_move_no_game():
    envs = BatchedRoleEnv(2, **KWARGS)
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.zeros(2, np.int64))
    obs, _ = envs.reset(seed=0)
    before = obs.copy()
    with pytest.raises(ValueError, match=r"shape \(2,\).*got shape \(3,\)"):
        envs.step(np.zeros(3, np.int64))
    with pytest.raises(ValueError, match=r"shape \(2,\).*got shape \(2, 1\)"):
        envs.step(np.zeros((2, 1), np.int64))
    with pytest.raises(ValueError, match=r"integer array.*got dtype float64"):
        envs.step(np.zeros(2))
    with pytest.raises(ValueError, match=r"values in 0\.\.78.*got \[79\] in games \[1\]"):
        envs.step(np.array([0, N_ACTIONS]))
    with pytest.raises(ValueError, match=r"got \[-1\] in games \[0\]"):
        envs.step([-1, 0])
    with pytest.raises(ValueError, match="one per game"):
        envs.reset(seed=[1, 2, 3])
    assert np.array_equal(obs, before)  # nothing moved
    games = BatchedGames(2, **KWARGS)
    games.reset(seed=0)
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        games.step(np.zeros(4, np.int64))


def test_an_illegal_action_follows_the_illegal_action_option_per_game():
    envs = BatchedRoleEnv(2, **KWARGS)
    envs.reset(seed=0)
    masks = envs.action_masks()
    actions = np.array([np.flatnonzero(masks[0])[0], np.flatnonzero(~masks[1])[0]])
    with pytest.warns(IllegalActionWarning):
        _obs, rewards, terminations, truncations, infos = envs.step(actions)
    assert (
        rewards.tolist() == [0.0, -1.0] and terminations.tolist() == [False, True] and not truncations.any()
    )
    assert infos["final_info"]["outcome"][1] == "illegal_action" and envs.action_masks()[1].any()
    strict = BatchedRoleEnv(2, illegal_action="raise", **KWARGS)
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(np.array([np.flatnonzero(~strict.action_masks()[0])[0], 0]))


def test_a_cleanrl_style_loop_stores_every_step_and_counts_the_episodes():
    """A plain numpy rollout as CleanRL's PPO writes it: storage ``(T, N, ...)`` filled by copying the
    returned arrays, random masked actions, the episodes' returns read from the infos."""
    n, horizon = 4, 120
    envs = BatchedRoleEnv(n, role="dm", **KWARGS)
    next_obs, infos = envs.reset(seed=3)
    observations = np.zeros((horizon, *envs.observation_space.shape), np.float32)
    masks = np.zeros((horizon, n, N_ACTIONS), bool)
    actions = np.zeros((horizon, n), np.int64)
    rewards = np.zeros((horizon, n), np.float32)
    dones = np.zeros((horizon, n), bool)
    rng = np.random.default_rng(3)
    episodes = []
    for t in range(horizon):
        observations[t], masks[t] = next_obs, infos["action_mask"]
        logits = rng.normal(size=(n, N_ACTIONS))
        actions[t] = np.where(masks[t], logits, -np.inf).argmax(axis=1)  # a masked policy's choice
        next_obs, reward, terminations, truncations, infos = envs.step(actions[t])
        rewards[t], dones[t] = reward, terminations | truncations
        if "final_info" in infos:
            episodes += infos["final_info"]["episode"]["l"][infos["_final_info"]].tolist()
    assert masks[np.arange(horizon)[:, None], np.arange(n), actions].all()  # every action was legal
    assert len(episodes) == dones.sum() >= n and all(length > 0 for length in episodes)
    assert not np.array_equal(observations[0], observations[1])  # stored, not the shared buffer


needs_sb3 = pytest.mark.skipif(
    not (importlib.util.find_spec("stable_baselines3") and importlib.util.find_spec("sb3_contrib")),
    reason="stable-baselines3 / sb3-contrib are not installed (the training extra)",
)


@needs_sb3
def test_maskable_ppo_learns_on_the_batch_through_the_sb3_adapter():
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    from dungeon_env.batched import SB3BatchedVecEnv

    venv = SB3BatchedVecEnv(BatchedRoleEnv(4, role="heroes", **KWARGS))
    assert is_masking_supported(venv) and venv.num_envs == 4
    venv.seed(0)
    obs = venv.reset()
    masks = get_action_masks(venv)
    assert masks.shape == (4, N_ACTIONS) and masks.any(axis=1).all()
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=64,
        batch_size=64,
        n_epochs=1,
        policy_kwargs={"net_arch": [16]},
        seed=0,
        device="cpu",
    )
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(256)
    assert any(
        not np.array_equal(a, b.detach()) for a, b in zip(before, model.policy.parameters(), strict=True)
    )
    obs = venv.reset()
    action, _ = model.predict(obs, action_masks=get_action_masks(venv), deterministic=True)
    assert get_action_masks(venv)[np.arange(4), action].all()
    ends = []
    for _ in range(200):
        obs, rewards, dones, infos = venv.step(
            random_legal(np.random.default_rng(len(ends)), get_action_masks(venv))
        )
        assert rewards.dtype == np.float32 and obs is not venv.batched._obs.flat
        ends += [info for info, done in zip(infos, dones, strict=True) if done]
    assert ends and all(
        {"terminal_observation", "TimeLimit.truncated", "episode", "outcome"} <= set(e) for e in ends
    )
    assert all(e["TimeLimit.truncated"] for e in ends)  # the default cap pays nothing: a time limit
    venv.close()


# ------------------------------------------------------------------------ both roles


@pytest.mark.parametrize("native", [False, True])
def test_batched_games_play_the_aec_games_seeded_seed_plus_i(native):
    """N ``dungeon_env.env()`` games reset with seed 7 + i (and without a seed after each end), stepped
    with the same actions: the same agent asked with the same observation and mask at every step,
    every agent's reward of every step, the same ends, final observations and infos, event logs and
    episode returns (the rows summed against ``last()``'s rewards). Stepped in Python (with shaping,
    which the core does not pay) and in the core (the outcome rewards: a turn cap that pays)."""
    n, seed = 3, 7
    if native:
        options = KWARGS | {"max_turns": 3, "reward_truncated": -1.0}
    else:
        options = KWARGS | {"shaping": {"exploration": 0.5, "kills": 1.0}, "max_turns": 3}
    games = BatchedGames(n, **options)
    assert games.native == native
    envs = [dungeon_env.env(**options) for _ in range(n)]
    obs, infos = games.reset(seed=seed)
    for i, env in enumerate(envs):
        env.reset(seed=seed + i)
    assert games.possible_agents == envs[0].possible_agents
    sums = np.zeros((n, len(games.possible_agents)))
    returns = [dict.fromkeys(env.possible_agents, 0.0) for env in envs]
    rng = np.random.default_rng(seed)
    ends, sides, paid = 0, set(), False
    for _ in range(200):
        names = games.agent_names()
        for i, env in enumerate(envs):
            agent = env.agent_selection
            seen = env.observe(agent)
            assert names[i] == agent and infos["agent"][i] == games.possible_agents.index(agent)
            assert infos["is_dm"][i] == (agent == "dm")
            assert np.array_equal(obs[i], seen["observation"])
            assert np.array_equal(games.action_masks()[i], seen["action_mask"].astype(bool))
            sides.add(agent == "dm")
        actions = random_legal(rng, games.action_masks())
        obs, rewards, terminations, truncations, infos = games.step(actions)
        sums += rewards
        paid |= bool(rewards.any())
        for i, env in enumerate(envs):
            returns[i][env.agent_selection] += env.last()[1]  # what the agent collects as it acts
            env.step(int(actions[i]))
            assert rewards[i].tolist() == [env.unwrapped.rewards[a] for a in env.possible_agents]
            agent = env.agent_selection
            assert (terminations[i], truncations[i]) == (env.terminations[agent], env.truncations[agent])
            if not (terminations[i] or truncations[i]):
                continue
            ends += 1
            final_obs = infos["final_obs"][i]
            for a in env.agent_iter():  # the dead-steps: every agent's last reward, observation, info
                o, r, _te, _tr, info = env.last()
                returns[i][a] += r
                assert np.array_equal(final_obs[a], o["observation"])
                assert {k: infos["final_info"][a][k][i] for k in info} == info
                env.step(None)
            for j, a in enumerate(env.possible_agents):
                assert sums[i, j] == pytest.approx(returns[i][a])
            sums[i], returns[i] = 0.0, dict.fromkeys(env.possible_agents, 0.0)
            env.reset()
            if not native:
                assert games.games[i].episode_seed == env.unwrapped.episode_seed
    assert ends >= 3 and sides == {True, False} and paid
    played = [games._core.game(i) for i in range(n)] if native else [g.game for g in games.games]
    assert all(g.events == e.unwrapped.events for g, e in zip(played, envs, strict=True))


def test_the_training_doc_examples_run():
    """docs/TRAINING.md's examples of the batched games: the numpy loops run as printed; the
    MaskablePPO one compiles (its budget is the SB3 test's above, much larger)."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "TRAINING.md").read_text()
    blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:] if "dungeon_env.batched" in b]
    assert len(blocks) == 3
    for block in blocks:
        code = compile(block, "docs/TRAINING.md", "exec")
        if "MaskablePPO" not in block:
            exec(code, {"__name__": "docs"})


@pytest.mark.parametrize("native", [True, False])
def test_the_next_step_autoreset_plays_as_gymnasiums_sync_vector_env(native):
    """``autoreset_mode="NextStep"``: the same observations, masks, rewards and ends as Gymnasium's own
    ``SyncVectorEnv`` of ``RoleEnv`` copies in that mode (an ended game's row is its final
    observation, its info the final info; at the next step it starts again, its action unused),
    stepped in the core and in Python (shaping, which the core does not pay)."""
    n, seed = 3, 5
    options = KWARGS | {"max_turns": 3}
    if not native:
        options |= {"shaping": {"exploration": 0.5, "damage": 0.25}}
    ours = BatchedRoleEnv(n, autoreset_mode="NextStep", **options)
    assert ours.native == native and ours.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    theirs = gymnasium.vector.SyncVectorEnv(
        [lambda: RoleEnv(**options) for _ in range(n)], autoreset_mode=AutoresetMode.NEXT_STEP
    )
    obs, _ = ours.reset(seed=seed)
    assert np.array_equal(obs, theirs.reset(seed=seed)[0])
    rng = np.random.default_rng(seed)
    ends = restarts = 0
    for _ in range(120):
        masks = ours.action_masks()
        assert np.array_equal(masks, np.stack(theirs.call("action_masks")))
        restarts += int(masks.all(axis=1).sum())  # an end's row: nothing asked, every action allowed
        actions = random_legal(rng, masks)
        step, expected = ours.step(actions), theirs.step(actions)
        for a, b in zip(step[:4], expected[:4], strict=True):
            assert np.array_equal(a, b)
        for i in np.flatnonzero(expected[2] | expected[3]):
            ends += 1
            for key in ("outcome", "reason", "goals_met"):
                assert step[4][key][i] == expected[4][key][i]
            assert step[4]["episode"]["l"][i] >= 1
    assert ends >= 3 and restarts >= ends - n
    with pytest.raises(ValueError, match=r"autoreset_mode must be one of 'SameStep', 'NextStep'.*'Disabled'"):
        BatchedRoleEnv(1, autoreset_mode="Disabled", **KWARGS)


def test_gymnasiums_make_vec_builds_a_tasks_batch_from_its_vector_entry_point():
    """Every task's Gymnasium id has a vector entry point (Gymnasium's own pattern for a custom vector
    env): ``gymnasium.make_vec`` builds the task's ``BatchedRoleEnv``, options passed through."""
    import dungeon_env.tasks as tasks

    task_id = tasks.get_task("heroes/one-guard").gym_id
    envs = gymnasium.make_vec(task_id, num_envs=3, opponent="random", autoreset_mode="NextStep")
    assert isinstance(envs, BatchedRoleEnv) and envs.native and envs.num_envs == 3
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP and envs.spec.id == task_id
    obs, _ = envs.reset(seed=0)
    single = gymnasium.make(task_id, opponent="random")
    assert np.array_equal(obs[0], single.reset(seed=0)[0])
