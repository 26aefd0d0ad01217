"""Observation layout v1 (issue 13): the flat vector and the dict format carry the same pieces, the
id columns hold small integer ids within the space's bounds, and the libraries read both formats."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

import dungeon_env
from dungeon_env.observation import (
    CONTEXT,
    DICT_PIECES,
    FCOL,
    ID_BOUNDS,
    ITEM_CARDS,
    KINDS,
    OBS_SPEC,
    TABLES,
    TCOL,
    as_dict,
    unflatten,
)
from dungeon_env.wrappers import RoleEnv
from tests.builders import give_item

ADVENTURE = "flooded_cellar"


def play_both(seed: int, steps: int):
    """The same random legal game in a flat env and a dict env, observation by observation."""
    flat_env = dungeon_env.raw_env(adventure=ADVENTURE, heroes=4)
    dict_env = dungeon_env.raw_env(adventure=ADVENTURE, heroes=4, observation_format="dict")
    flat_env.reset(seed=seed)
    dict_env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if not flat_env.agents:
            return
        agent = flat_env.agent_selection
        assert dict_env.agent_selection == agent
        a, b = flat_env.observe(agent), dict_env.observe(agent)
        yield flat_env, dict_env, a, b
        action = int(rng.choice(np.flatnonzero(a["action_mask"])))
        flat_env.step(action)
        dict_env.step(action)


def test_the_dict_format_is_the_flat_vector_cut_into_its_pieces():
    for flat_env, dict_env, a, b in play_both(seed=3, steps=300):
        assert set(b) == {*DICT_PIECES, "action_mask"}
        np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
        for name in TABLES:
            np.testing.assert_array_equal(unflatten(a)[name], b[name])
        np.testing.assert_array_equal(
            np.concatenate([unflatten(a)[n].ravel() for n in CONTEXT]), b["context"]
        )
        np.testing.assert_array_equal(unflatten(b)["figures"], unflatten(a)["figures"])  # either format
        assert dict_env.observation_space(dict_env.agent_selection).contains(b)
        assert flat_env.observation_space(flat_env.agent_selection).contains(a)


def test_a_wrong_observation_format_is_refused_by_name():
    with pytest.raises(ValueError, match="observation_format must be one of"):
        dungeon_env.env(adventure=ADVENTURE, observation_format="image")
    with pytest.raises(ValueError, match="observation_format must be one of"):
        RoleEnv(adventure=ADVENTURE, observation_format="tuple")


def test_the_bounds_are_one_except_at_the_id_columns():
    high = OBS_SPEC.high()
    views = OBS_SPEC.views(high)
    assert set(np.unique(high)) == {1.0, *map(float, ID_BOUNDS.values())}
    assert views["figures"][:, FCOL["kind"]].tolist() == [len(KINDS)] * len(views["figures"])
    assert views["item_table"][:, TCOL["card"]].max() == len(ITEM_CARDS)
    assert (views["board"] == 1).all() and (views["figures"][:, : FCOL["kind"]] == 1).all()
    assert as_dict(high)["context"].shape == (
        sum(int(np.prod(s)) for n, s in OBS_SPEC.pieces if n in CONTEXT),
    )


def test_the_ids_name_the_cards_of_figures_and_items():
    env = dungeon_env.raw_env(adventure=ADVENTURE, heroes=["hob", "ilsabet", "bram"])
    env.reset(seed=1)
    give_item(env.game, 1, "healing_potion", known=True)
    hero = unflatten(env.observe("hero_1"))
    assert [KINDS[int(k) - 1] for k in hero["figures"][:3, FCOL["kind"]]] == ["hob", "ilsabet", "bram"]
    row = np.flatnonzero(hero["item_table"][:, TCOL["holder"]] == 2)  # held by row 1 (Ilsabet)
    assert ITEM_CARDS[int(hero["item_table"][row[-1], TCOL["card"]]) - 1] == "healing_potion"
    assert ITEM_CARDS[int(hero["own_items"][0, -1]) - 1] == "healing_potion"  # her own first item


def test_pettingzoo_api_test_passes_with_the_dict_format():
    api_test(
        dungeon_env.env(adventure=ADVENTURE, heroes=3, max_turns=4, observation_format="dict"), num_cycles=200
    )


def test_maskable_ppo_multi_input_policy_learns_on_the_dict_format(tmp_path):
    """SB3's MultiInputPolicy reads the dict pieces (a tiny real run: the weights change, the saved
    model reloads and plays only legal actions)."""
    sb3_contrib = pytest.importorskip("sb3_contrib")
    env = RoleEnv(role="heroes", adventure=ADVENTURE, heroes=3, max_turns=3, observation_format="dict")
    model = sb3_contrib.MaskablePPO("MultiInputPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0)
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(64)
    assert any(not np.allclose(a, b.detach()) for a, b in zip(before, model.policy.parameters(), strict=True))
    model.save(tmp_path / "dict_policy")
    loaded = sb3_contrib.MaskablePPO.load(tmp_path / "dict_policy", device="cpu")
    obs, _ = env.reset(seed=5)
    for _ in range(50):
        mask = env.action_masks()
        action, _ = loaded.predict(obs, action_masks=mask, deterministic=True)
        assert mask[int(action)]
        obs, _, terminated, truncated, _ = env.step(int(action))
        if terminated or truncated:
            obs, _ = env.reset()
