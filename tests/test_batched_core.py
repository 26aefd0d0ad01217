"""The batched env's games stepped in the core (``dungeon_env.batch_core``, src/core/batch.cpp): the
same trajectories as single ``RoleEnv`` copies with the same seeds (the opponent's numpy draws made
in C++, the heroes' knowledge folded there, the ends, rewards and final infos), on one thread or
several, the illegal action's penalty (also for ``BatchedGames``, whose trajectories against
``dungeon_env.env()`` tests/test_batched.py checks), rendering, and clear errors for what the core
cannot play."""

from __future__ import annotations

import numpy as np
import pytest

import dungeon_env
from dungeon_env.aec import IllegalActionError, IllegalActionWarning
from dungeon_env.batch_core import pcg_state
from dungeon_env.batched import BatchedGames, BatchedRoleEnv
from dungeon_env.observation import OBS_SPEC
from dungeon_env.wrappers import RoleEnv


def random_legal(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)


def play_alongside(
    options: dict, role: str, n: int, seed: int, steps: int, threads: int | None = None
) -> dict:
    """Step a native batch and ``n`` single ``RoleEnv`` copies (reset with ``seed + i``) with the
    same random legal actions, asserting every array, end and final info alike; what was reached."""
    envs = BatchedRoleEnv(n, role=role, threads=threads, **options)
    assert envs.native
    singles = [RoleEnv(role=role, **options) for _ in range(n)]
    obs, _ = envs.reset(seed=seed)
    assert np.array_equal(obs, np.stack([env.reset(seed=seed + i)[0] for i, env in enumerate(singles)]))
    rng = np.random.default_rng(seed)
    seen = {"ends": 0, "outcomes": set(), "paid": 0, "truncated": 0}
    returns = np.zeros(n)
    for _ in range(steps):
        masks = envs.action_masks()
        assert np.array_equal(masks, np.stack([env.action_masks() for env in singles]))
        actions = random_legal(rng, masks)
        obs, rewards, terminations, truncations, infos = envs.step(actions)
        for i, env in enumerate(singles):
            o, r, te, tr, info = env.step(int(actions[i]))
            returns[i] += r
            assert (rewards[i], terminations[i], truncations[i]) == (r, te, tr), f"game {i}"
            if te or tr:
                assert np.array_equal(infos["final_obs"][i], o)
                assert {k: infos["final_info"][k][i] for k in info} == info
                assert infos["final_info"]["episode"]["r"][i] == pytest.approx(returns[i])
                seen["ends"] += 1
                seen["outcomes"].add(info["outcome"])
                seen["paid"] += r != 0
                seen["truncated"] += bool(tr)
                returns[i] = 0.0
                o, _info = env.reset()
            assert np.array_equal(obs[i], o), f"game {i}"
    return seen


@pytest.mark.parametrize(
    ("adventure", "heroes", "role"),
    [("flooded_cellar", 3, "heroes"), ("goblin_warrens", 4, "dm"), ("goblin_warrens", 5, "heroes")],
)
def test_the_core_batch_plays_the_games_of_role_envs(adventure, heroes, role):
    """Row by row, step by step, across many autoresets: observations, masks, rewards, ends, final
    observations and infos as ``RoleEnv`` gives them."""
    options = {"adventure": adventure, "heroes": heroes, "max_turns": 5}
    seen = play_alongside(options, role, n=4, seed=11, steps=160)
    assert seen["ends"] >= 4 and seen["truncated"] >= 1


def test_the_outcome_rewards_are_paid_as_the_single_env_pays_them():
    """A turn cap that pays (the heroes' tasks' -1: terminated, not truncated) and games that end
    before it: the rewards compared are not all zeros."""
    options = {"adventure": "flooded_cellar", "heroes": 3, "max_turns": 6, "reward_truncated": -1.0}
    seen = play_alongside(options, "dm", n=3, seed=3, steps=200)
    assert seen["paid"] >= 3 and seen["truncated"] == 0


def test_one_thread_or_several_play_the_same_games():
    options = {"adventure": "goblin_warrens", "heroes": 3, "max_turns": 4}
    runs = []
    for threads in (1, 3):
        envs = BatchedRoleEnv(5, threads=threads, **options)
        obs, _ = envs.reset(seed=2)
        rng = np.random.default_rng(2)
        trace = [obs.copy()]
        for _ in range(60):
            obs, rewards, terminations, _tr, _infos = envs.step(random_legal(rng, envs.action_masks()))
            trace += [obs.copy(), rewards.copy(), terminations.copy()]
        runs.append(trace)
    assert all(np.array_equal(a, b) for a, b in zip(*runs, strict=True))


def test_an_illegal_action_is_penalised_or_raised_as_the_single_env_does():
    options = {"adventure": "flooded_cellar", "heroes": 3, "max_turns": 5}
    envs = BatchedRoleEnv(2, **options)
    single = RoleEnv(**options)
    envs.reset(seed=0)
    single.reset(seed=1)
    bad = int(np.flatnonzero(~envs.action_masks()[1])[0])
    legal = int(np.flatnonzero(envs.action_masks()[0])[0])
    with pytest.warns(IllegalActionWarning) as ours:
        _obs, rewards, terminations, truncations, infos = envs.step(np.array([legal, bad]))
    with pytest.warns(IllegalActionWarning) as theirs:
        o, r, te, tr, info = single.step(bad)
    assert str(ours[0].message) == str(theirs[0].message)
    assert (rewards[1], terminations[1], truncations[1]) == (r, te, tr) == (-1.0, True, False)
    assert {k: infos["final_info"][k][1] for k in info} == info and info["outcome"] == "illegal_action"
    assert np.array_equal(infos["final_obs"][1], o)
    assert not terminations[0] and envs.action_masks()[1].any()  # game 1 starts again at once
    strict = BatchedRoleEnv(2, illegal_action="raise", **options)
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError, match="cannot play action"):
        strict.step(np.array([bad if not strict.action_masks()[0][bad] else 0, 0]))


def test_render_shows_each_game_as_its_single_env_does():
    options = {"adventure": "flooded_cellar", "heroes": 3, "max_turns": 5, "render_mode": "ansi"}
    envs = BatchedRoleEnv(2, **options)
    singles = [RoleEnv(**options) for _ in range(2)]
    envs.reset(seed=4)
    for i, env in enumerate(singles):
        env.reset(seed=4 + i)
    rng = np.random.default_rng(4)
    for _ in range(12):
        actions = random_legal(rng, envs.action_masks())
        envs.step(actions)
        for i, env in enumerate(singles):
            if any(env.step(int(actions[i]))[2:4]):
                env.reset()
    assert envs.render() == tuple(env.render() for env in singles)


def test_what_the_core_cannot_play_is_refused_by_name_or_played_in_python():
    options = {"adventure": "flooded_cellar", "heroes": 3, "max_turns": 5}
    with pytest.raises(ValueError, match=r"native=True: the core plays only the random opponent.*'idle'"):
        BatchedRoleEnv(2, opponent="idle", native=True, **options)
    with pytest.raises(ValueError, match="native=True: shaping"):
        BatchedRoleEnv(2, native=True, shaping={"damage": 0.5}, **options)
    with pytest.raises(ValueError, match="threads must be a positive int"):
        BatchedRoleEnv(2, threads=0, **options)
    with pytest.raises(ValueError, match="native must be True, False or None"):
        BatchedRoleEnv(2, native="yes", **options)
    with pytest.raises(ValueError, match=r"threads=2: the games step in Python \(shaping.*leave threads out"):
        BatchedRoleEnv(2, threads=2, shaping={"damage": 0.5}, **options)
    python_games = BatchedRoleEnv(2, shaping={"damage": 0.5}, **options)
    assert not python_games.native and len(python_games.envs) == 2
    with pytest.raises(AttributeError, match="no RoleEnv per game"):
        BatchedRoleEnv(2, **options).envs  # noqa: B018


def test_the_opponent_generator_is_handed_over_as_numpy_holds_it():
    rng = np.random.default_rng(12345)
    rng.integers(0, 7)  # a draw that leaves half of a 64-bit word buffered
    state = pcg_state(rng)
    raw = rng.bit_generator.state
    assert (state[0] << 64 | state[1], state[2] << 64 | state[3]) == (
        raw["state"]["state"],
        raw["state"]["inc"],
    )
    assert state[4] == bool(raw["has_uint32"]) and state[5] == raw["uinteger"]
    with pytest.raises(ValueError, match="PCG64, not MT19937"):
        pcg_state(np.random.Generator(np.random.MT19937(0)))


def test_both_sides_an_illegal_action_is_penalised_as_the_aec_env_does():
    """``BatchedGames`` in the core: the offender gets ``illegal_reward``, every agent ends with the
    illegal ending in its final info and its final view, as ``dungeon_env.env()`` gives them."""
    options = {"adventure": "goblin_warrens", "heroes": 4, "max_turns": 5}
    games = BatchedGames(2, **options)
    assert games.native
    env = dungeon_env.env(**options)
    games.reset(seed=6)
    env.reset(seed=7)
    bad = int(np.flatnonzero(~games.action_masks()[1])[0])
    offender = games.agent_names()[1]
    assert env.agent_selection == offender
    with pytest.warns(IllegalActionWarning) as ours:
        legal = int(np.flatnonzero(games.action_masks()[0])[0])
        _obs, rewards, terminations, truncations, infos = games.step(np.array([legal, bad]))
    with pytest.warns(IllegalActionWarning) as theirs:
        env.step(bad)
    assert str(ours[0].message) == str(theirs[0].message)
    assert rewards[1].tolist() == [env.unwrapped.rewards[a] for a in env.possible_agents]
    assert rewards[1].tolist().count(-1.0) == 1 and terminations[1] and not truncations[1]
    for agent in env.agent_iter():
        o, _r, _te, _tr, info = env.last()
        assert np.array_equal(infos["final_obs"][1][agent], o["observation"])
        assert {k: infos["final_info"][agent][k][1] for k in info} == info
        env.step(None)
    with pytest.raises(ValueError, match="native=True: shaping"):
        BatchedGames(2, native=True, shaping={"damage": 0.5}, **options)
    assert not BatchedGames(2, shaping={"damage": 0.5}, **options).native


@pytest.mark.parametrize("native", [True, False])
@pytest.mark.parametrize("observation_format", ["flat", "dict"])
def test_the_observations_handed_out_are_read_only(native, observation_format):
    """The rows are the batch's (the core clears a row where it last wrote it): a write into them is
    refused, and so is making them writable again; ``copy=True`` hands out writable copies."""
    options = {"adventure": "goblin_warrens", "heroes": 3, "max_turns": 4}
    envs = BatchedRoleEnv(2, native=native, observation_format=observation_format, **options)
    obs, _ = envs.reset(seed=0)
    stepped, *_ = envs.step(random_legal(np.random.default_rng(0), envs.action_masks()))
    for out in (obs, stepped):
        arrays = out.values() if isinstance(out, dict) else [out]
        for array in arrays:
            with pytest.raises(ValueError, match="read-only"):
                array[0] = 1.0
            with pytest.raises(ValueError):
                array.flags.writeable = True
    copies = BatchedRoleEnv(2, native=native, observation_format=observation_format, copy=True, **options)
    obs, _ = copies.reset(seed=0)
    for array in obs.values() if isinstance(obs, dict) else [obs]:
        array[0] = 1.0  # a fresh copy


def test_rows_written_by_anyone_else_are_written_whole_again():
    """A batch clears each row only where it wrote it last: rows it did not write (another array,
    rows written by hand and handed back with ``forget_rows``, a game's view written into another
    game's row) are written whole, as a twin batch stepped alike writes them."""
    options = {"adventure": "goblin_warrens", "heroes": 4, "max_turns": 6}
    ours, twin = (BatchedRoleEnv(4, threads=2, **options) for _ in range(2))
    ours.reset(seed=5)
    twin.reset(seed=5)
    rng = np.random.default_rng(5)
    core, flat = ours._core, ours._obs.flat
    masks = np.zeros_like(ours.action_masks())
    for step in range(90):
        actions = random_legal(rng, twin.action_masks())
        if step % 30 == 10:
            flat[:] = 7.0  # by hand, then handed back
            core.batch.forget_rows()
        elif step % 30 == 20:
            core.batch.observe(0, flat[1], masks[1], 0, False)  # game 0's view in game 1's row
        elif step % 30 == 29:  # another array, as full of values as the rows
            other = np.full_like(flat, 3.0)
            status = np.zeros(4, np.int8)
            core.batch.step(actions, status, other, masks, None, 2)
            expected, *_ = twin.step(actions)
            assert np.array_equal(other[status == 0], expected[status == 0])
            ours.reset(seed=100 + step)
            twin.reset(seed=100 + step)
            continue
        obs, *_ = ours.step(actions)
        expected, *_ = twin.step(actions)
        assert np.array_equal(obs, expected), f"step {step}"
        assert np.array_equal(ours.action_masks(), twin.action_masks())


@pytest.mark.parametrize("both_sides", [False, True])
def test_each_row_is_the_observation_written_whole(both_sides):
    """A batch writes into its rows only what changed since it last wrote them (the figures' board
    cells that moved, the layout's planes when doors, reveals or traps changed them, the rest whole):
    at every step each row equals, bit for bit, the game's observation written into a fresh buffer,
    through figures moving, boards changing, a row going from one seat's view to another's and
    episodes starting again."""
    options = {"adventure": "goblin_warrens", "heroes": 4, "max_turns": 2 if both_sides else 8}
    n = 6
    envs = BatchedGames(n, threads=2, **options) if both_sides else BatchedRoleEnv(n, threads=2, **options)
    core = envs._core
    obs, _ = envs.reset(seed=3)
    rng = np.random.default_rng(3)
    board = OBS_SPEC.slice("board")
    fresh, mask = np.zeros(OBS_SPEC.size, np.float32), np.zeros(envs.n_actions, bool)
    before = obs.copy()
    moved = changed_board = ends = 0
    for _ in range(150):
        obs, _r, terminations, truncations, _infos = envs.step(random_legal(rng, envs.action_masks()))
        ends += int((terminations | truncations).sum())
        for i in range(n):
            seat = int(core.seats[i]) if both_sides else core.batch.seat(i)
            fresh[:] = np.float32(7.0)  # written whole: every value
            core.batch.observe(i, fresh, mask, seat, True)
            assert np.array_equal(obs[i].view(np.uint32), fresh.view(np.uint32)), f"game {i}"
            assert np.array_equal(mask, envs.action_masks()[i])
            changed = np.flatnonzero(obs[i, board] != before[i, board])
            moved += changed.size > 0
            changed_board += changed.size > 8  # more than a few figures' cells: the layout's planes
        before = obs.copy()
    assert moved > 100 and changed_board > 10 and ends >= 3
