"""training.features: the board-reading extractor on both observation formats, its invariances, and
MaskablePPO with it (learns, saves, reloads, plays legal actions; train_role uses it by default)."""

from __future__ import annotations

import json

import numpy as np
import pytest

th = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from gymnasium import spaces  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3.common.logger import Logger  # noqa: E402

from agents.base import game_of  # noqa: E402
from agents.policy import PolicyAgent, _check_dict_space  # noqa: E402
from dungeon_env.observation import CCOL, FCOL, OBS_SPEC, PLANE, as_dict  # noqa: E402
from dungeon_env.wrappers import RoleEnv  # noqa: E402
from training.common import make_vec_env  # noqa: E402
from training.features import (  # noqa: E402
    CROP,
    DungeonFeatures,
    FigureEncoder,
    policy_for,
    policy_kwargs_for,
)
from training.train_role import Settings, make_model  # noqa: E402

ENV = {"adventure": "flooded_cellar", "heroes": 3, "max_turns": 4}
TINY = ["--max-turns", "4", "--heroes", "3", "--adventure", "flooded_cellar", "--n-envs", "2"]
TINY += ["--n-steps", "64", "--batch-size", "64", "--n-epochs", "1", "--net-arch", "16"]


def real_observations(n: int, seed: int = 0, role: str = "heroes") -> list[np.ndarray]:
    """``n`` flat observations of random legal play (several episodes)."""
    env = RoleEnv(role=role, **ENV)
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    out = []
    while len(out) < n:
        out.append(obs.copy())
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if terminated or truncated:
            obs, _ = env.reset()
    return out


def flat_space():
    return RoleEnv(**ENV).observation_space


def dict_space():
    return RoleEnv(observation_format="dict", **ENV).observation_space


def to_tensor(batch: list[np.ndarray], as_dict_format: bool):
    if as_dict_format:
        pieces = [as_dict(obs) for obs in batch]
        return {k: th.as_tensor(np.stack([p[k] for p in pieces])) for k in pieces[0]}
    return th.as_tensor(np.stack(batch))


@pytest.fixture(scope="module")
def batch():
    return real_observations(8) + real_observations(8, seed=1, role="dm")


def test_the_extractor_reads_both_formats_alike_on_one_observation_and_a_batch(batch):
    flat = DungeonFeatures(flat_space())
    both = DungeonFeatures(dict_space())
    assert (flat.is_dict, both.is_dict) == (False, True)
    both.load_state_dict(flat.state_dict())
    with th.no_grad():
        for obs in (batch[:1], batch[:8], batch):
            a, b = flat(to_tensor(obs, False)), both(to_tensor(obs, True))
            assert a.shape == b.shape == (len(obs), 256)
            th.testing.assert_close(a, b)
        assert DungeonFeatures(flat_space(), features_dim=64)(to_tensor(batch[:3], False)).shape == (3, 64)
        # each observation's features are its own (the batch does not mix rows)
        th.testing.assert_close(flat(to_tensor(batch[5:6], False))[0], a[5], rtol=1e-5, atol=1e-6)


def test_gradients_reach_the_convolutions_the_crop_and_the_embeddings(batch):
    extractor = DungeonFeatures(flat_space())
    extractor(to_tensor(batch, False)).square().sum().backward()
    for name, parameter in (
        ("cnn[0]", extractor.cnn[0].weight),
        ("cnn[4]", extractor.cnn[4].weight),
        ("crop", extractor.crop_linear[0].weight),
        ("kind embedding", extractor.figures.kind.weight),
        ("context", extractor.context[0].weight),
    ):
        assert parameter.grad is not None and parameter.grad.abs().sum() > 0, name
    # the kinds of the figures seen get gradient; id 0 (absent rows only) gets none
    figures = extractor.pieces(to_tensor(batch, False))["figures"]
    kinds = figures[..., FCOL["kind"]][figures[..., FCOL["present"]] > 0].long().unique()
    grad = extractor.figures.kind.weight.grad.abs().sum(1)
    assert len(kinds) >= 3 and (grad[kinds] > 0).all() and grad[0] == 0


def test_absent_figure_rows_and_the_order_of_rows_change_nothing(batch):
    torch_rng = th.Generator().manual_seed(0)
    encoder = FigureEncoder()
    figures = DungeonFeatures(flat_space()).pieces(to_tensor(batch, False))["figures"]
    assert figures[..., FCOL["present"]].sum() > len(batch)  # several figures each
    with th.no_grad():
        pooled = encoder.summary(figures)
        permuted = figures[:, th.randperm(figures.shape[1], generator=torch_rng)]
        padded = th.cat([figures, th.zeros(len(batch), 16, figures.shape[2])], dim=1)
        th.testing.assert_close(encoder.summary(permuted), pooled)
        th.testing.assert_close(encoder.summary(padded), pooled)
        assert (encoder(figures)[figures[..., FCOL["present"]] == 0] == 0).all()


def test_the_whole_extractor_ignores_the_order_of_figure_and_item_table_rows(batch):
    extractor = DungeonFeatures(flat_space())
    rng = np.random.default_rng(3)
    checked = 0
    for obs in batch:
        views = OBS_SPEC.views(obs)
        if views["candidates"][:, CCOL["present"]].any():
            continue  # a candidate points at a figure's row
        moved = obs.copy()
        shuffled = OBS_SPEC.views(moved)
        shuffled["figures"][:] = views["figures"][rng.permutation(len(views["figures"]))]
        shuffled["item_table"][:] = views["item_table"][rng.permutation(len(views["item_table"]))]
        with th.no_grad():
            th.testing.assert_close(
                extractor(th.as_tensor(moved[None])), extractor(th.as_tensor(obs[None])), rtol=1e-5, atol=1e-5
            )
        checked += 1
    assert checked >= 4


def test_the_crop_is_centred_on_the_acting_figure_and_zero_without_one():
    extractor = DungeonFeatures(flat_space())
    board = th.zeros(2, 19, 28, 24)
    board[0, PLANE["acting_unit"], 0, 5] = 1.0  # on the top edge: the rows above are padding
    board[0, PLANE["exit"], 1, 6] = 1.0  # south-east of it
    board[1, PLANE["exit"], 1, 6] = 1.0  # no acting figure
    side = 2 * CROP + 1
    window = extractor.crop(board).reshape(2, 19, side, side)
    assert (
        window[0, PLANE["acting_unit"], CROP, CROP] == 1 and window[0, PLANE["exit"], CROP + 1, CROP + 1] == 1
    )
    assert window[0].sum() == 2 and window[1].sum() == 0


def test_policy_kwargs_for_each_network_and_the_spaces_it_refuses():
    space = flat_space()
    assert policy_kwargs_for("mlp", space) == {"net_arch": [256, 256]}
    board = policy_kwargs_for("board", space, net_arch=[64])
    assert board["features_extractor_class"] is DungeonFeatures and board["net_arch"] == [64]
    assert (policy_for(space), policy_for(dict_space())) == ("MlpPolicy", "MultiInputPolicy")
    with pytest.raises(ValueError, match="network must be one of"):
        policy_kwargs_for("transformer", space)
    with pytest.raises(ValueError, match="use network='mlp'"):
        policy_kwargs_for("board", spaces.Box(0, 1, (100,)))


@pytest.mark.parametrize("observation_format", ["flat", "dict"])
def test_maskable_ppo_with_the_board_network_learns_saves_reloads_and_plays_legal_actions(
    tmp_path, observation_format
):
    settings = Settings(network="board", n_steps=64, batch_size=64, n_epochs=1, net_arch="16", seed=0)
    vec = make_vec_env("heroes", "random", {**ENV, "observation_format": observation_format}, 2, 0)
    model = make_model(settings, vec, Logger(folder=None, output_formats=[]))
    assert isinstance(model.policy.features_extractor, DungeonFeatures)
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(256)
    vec.close()
    changed = [not th.equal(a, b) for a, b in zip(before, model.policy.parameters(), strict=True)]
    assert all(changed[:2])  # the first convolution's weight and bias
    model.save(tmp_path / "board")
    loaded = MaskablePPO.load(tmp_path / "board", device="cpu")
    assert type(loaded.policy.features_extractor) is DungeonFeatures
    env = RoleEnv(observation_format=observation_format, **ENV)
    obs, _ = env.reset(seed=5)
    for _ in range(60):
        mask = env.action_masks()
        action, _ = loaded.predict(obs, action_masks=mask, deterministic=False)
        assert mask[int(action)]
        obs, _, terminated, truncated, _ = env.step(int(action))
        if terminated or truncated:
            obs, _ = env.reset()
    # PolicyAgent plays the checkpoint from either format and from the game, the same choice
    agent = PolicyAgent(tmp_path / "board.zip", role="heroes")  # greedy
    flat_env, dict_env = RoleEnv(**ENV), RoleEnv(observation_format="dict", **ENV)
    flat, _ = flat_env.reset(seed=7)
    pieces, _ = dict_env.reset(seed=7)
    mask = flat_env.action_masks()
    expected, _ = loaded.predict(
        flat if observation_format == "flat" else pieces, action_masks=mask, deterministic=True
    )
    assert (
        agent.act(flat, mask) == agent.act(pieces, mask) == agent.choose(game_of(flat_env)) == int(expected)
    )


def test_a_dict_checkpoint_of_another_layout_is_refused_by_name(tmp_path):
    space = spaces.Dict({"board": spaces.Box(0, 1, (3, 4)), "context": spaces.Box(0, 1, (5,))})
    with pytest.raises(ValueError, match=r"old\.zip reads a dict observation with the pieces \{'board': 12"):
        _check_dict_space(space, tmp_path / "old.zip")


def test_make_model_builds_the_board_network_by_default_and_refuses_an_unknown_one():
    settings = Settings(n_steps=64, batch_size=64, net_arch="16")
    assert settings.network == "board"
    vec = make_vec_env("heroes", "random", ENV, 1, 0)
    model = make_model(settings, vec, Logger(folder=None, output_formats=[]))
    vec.close()
    assert isinstance(model.policy.features_extractor, DungeonFeatures)
    with pytest.raises(ValueError, match="network must be one of"):
        make_model(Settings(network="cnn"), vec, None)


def test_train_role_trains_the_board_network_by_default_and_its_model_plays(tmp_path, monkeypatch):
    from agents.policy import PolicyAgent
    from training import train_role

    monkeypatch.chdir(tmp_path)
    summary = train_role.main([*TINY, "--total-timesteps", "128", "--eval-games", "2"])
    (run,) = (tmp_path / "runs").iterdir()
    assert json.loads((run / "settings.json").read_text())["network"] == "board"
    assert summary["steps"] >= 128 and sum(summary["eval"]["counts"].values()) == 2
    agent = PolicyAgent(run / "final_model.zip", role="heroes")
    assert isinstance(agent.model.policy.features_extractor, DungeonFeatures)
    env = RoleEnv(**ENV)
    obs, _ = env.reset(seed=2)
    mask = env.action_masks()
    assert mask[agent.act(obs, mask)]


def test_lr_decay_lowers_the_learning_rate_linearly_to_zero_over_the_run():
    settings = Settings(network="mlp", n_steps=64, batch_size=64, n_epochs=1, net_arch="16", lr_decay=True)
    vec = make_vec_env("heroes", "random", ENV, 2, 0)
    model = make_model(settings, vec, Logger(folder=None, output_formats=[]))
    assert model.lr_schedule(1.0) == pytest.approx(3e-4)
    assert model.lr_schedule(0.25) == pytest.approx(0.75e-4)
    model.learn(256)  # two rollouts of 128: updates at half the rate, then at the run's end at 0
    vec.close()
    assert model.policy.optimizer.param_groups[0]["lr"] == 0.0
    constant = make_model(
        Settings(network="mlp", n_steps=64, net_arch="16"), make_vec_env("heroes", "random", ENV, 2, 0), None
    )
    assert constant.lr_schedule(0.25) == pytest.approx(3e-4)


def test_target_kl_stops_a_rollouts_epochs_once_the_policy_has_moved_that_far():
    def updates_after_one_rollout(target_kl: float) -> int:
        settings = Settings(
            network="mlp", n_steps=64, batch_size=32, n_epochs=4, net_arch="16", target_kl=target_kl
        )
        vec = make_vec_env("heroes", "random", ENV, 2, 0)
        model = make_model(settings, vec, Logger(folder=None, output_formats=[]))
        model.learn(128)
        vec.close()
        return model._n_updates

    assert updates_after_one_rollout(0.0) == 4  # no limit: every epoch
    assert updates_after_one_rollout(1e-9) == 1  # the second minibatch is already past it


def _play_to_the_cap(vec) -> list[dict]:
    """Random legal actions until every env of ``vec`` has ended a game; the infos of those ends."""
    rng = np.random.default_rng(0)
    vec.reset()
    ends: dict[int, dict] = {}
    while len(ends) < vec.num_envs:
        masks = np.stack(vec.env_method("action_masks"))
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        _, _, dones, infos = vec.step(actions)
        for k in np.flatnonzero(dones):
            ends.setdefault(int(k), infos[k])
    vec.close()
    return list(ends.values())


def test_sb3_sees_a_paid_turn_cap_as_an_end_and_an_unpaid_one_as_a_time_limit_with_no_wrapper():
    capped = {**ENV, "max_turns": 1}  # random heroes on flooded_cellar never finish in one turn
    paid = _play_to_the_cap(make_vec_env("heroes", "random", capped | {"reward_truncated": -1.0}, 2, 0))
    assert [info["outcome"] for info in paid] == ["truncated", "truncated"]  # the game's name for the cap
    assert not any(info["TimeLimit.truncated"] for info in paid)  # terminated: SB3 adds no V(last obs) to -1
    unpaid = _play_to_the_cap(make_vec_env("heroes", "random", capped | {"reward_truncated": 0.0}, 2, 0))
    assert [info["outcome"] for info in unpaid] == ["truncated", "truncated"]
    assert all(info["TimeLimit.truncated"] for info in unpaid)  # a time limit: SB3 bootstraps past it
