"""Observation layouts (agents/obs_layout.py): the policies shipped until issue 17 were trained on
commit 2df847b's observation and action table; they play on through the recorded layout, by names,
from the v0 observation (agents/observation_v0.py), which layout v1 (issue 13) replaced in the env."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import numpy as np
import pytest

from agents.advised import AdvisedObserver
from agents.obs_layout import (
    Translator,
    advised_size,
    advised_translator,
    compact_size,
    current_layout,
    load_layout,
    v0_layout,
)
from agents.observation_v0 import HERO, OBS_SPEC, UCOL, Observer, unflatten
from agents.policy import POLICY_DIR, PolicyAgent, layout_for
from dungeon_env import observation as v1
from dungeon_env.engine import Game
from dungeon_env.engine.actions import ACTION_NAMES, N_ACTIONS

ROOT = Path(__file__).resolve().parent.parent
OLD = POLICY_DIR / "layout_2df847b.json"
# the heroes' policy shipped until issue 17, trained on that layout (kept to test playing old checkpoints)
V0_HEROES = Path(__file__).parent / "data" / "policy_2df847b" / "heroes.zip"


@pytest.fixture(scope="module")
def old() -> dict:
    return load_layout(OLD)


def test_the_recorded_layout_is_2df847bs_and_ships_as_package_data(old):
    assert old["commit"] == "2df847b" and old["size"] == 24186 and len(old["actions"]) == 76
    assert old["actions"] == list(ACTION_NAMES[:76])  # the old ids are unchanged; new ones come after
    assert N_ACTIONS > 76 and advised_size(old) == compact_size(old) + 76
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "policies/*.json" in package_data["agents"]


def test_todays_layout_translated_to_itself_is_the_identity():
    g = Game.new(adventure="flooded_cellar", heroes=3, seed=2)
    flat = v1.Observer().observe(g, v1.HERO, 0, True, g.max_turns)["observation"]
    same = Translator(current_layout(), current_layout())
    assert same.missing == 0 and current_layout()["size"] == v1.OBS_SPEC.size
    np.testing.assert_array_equal(same(flat), flat)


def test_todays_layout_names_the_figure_columns_and_v0_is_the_old_one():
    layout = {p["name"]: p for p in current_layout()["pieces"]}
    assert layout["figures"]["axes"] == [None, [name for name, _ in v1.FIGURE_COLUMNS]]
    assert "units" not in layout and "all_items" not in layout
    assert v0_layout()["size"] == OBS_SPEC.size == 25083


def test_an_old_observation_is_built_by_names(old):
    """Every unit column of the old layout takes today's column of the same name (today has more
    columns: the abilities); target_purpose keeps its four old entries; the advised view drops the
    board and all_items as it did."""
    g = Game.new(adventure="flooded_cellar", heroes=["hob", "ilsabet", "bram"], seed=2)
    flat = Observer().observe(g, HERO, 0, True, g.max_turns)["observation"]
    translate = advised_translator(old)
    out = translate(flat)
    assert out.shape == (compact_size(old),) and translate.missing == 0
    units = next(p for p in old["pieces"] if p["name"] == "units")
    names, n_slots = units["axes"][0], units["shape"][1]
    old_units = out[: len(names) * n_slots].reshape(len(names), n_slots)
    today = unflatten(flat)["units"]
    for i, name in enumerate(names):
        np.testing.assert_array_equal(old_units[i], today[UCOL[name]])
    assert "ability_hearty_rations" not in names and today[UCOL["ability_hearty_rations"], 0] == 1
    purpose = next(p for p in old["pieces"] if p["name"] == "target_purpose")
    assert purpose["axes"][0] == ["spell", "item", "give", "loot"]


def test_an_old_entry_missing_today_is_zero_and_a_new_one_is_dropped(old):
    """A made-up old layout with a unit column today lacks: it reads 0; its other columns read today's."""
    made_up = copy.deepcopy(old)
    units = next(p for p in made_up["pieces"] if p["name"] == "units")
    units["axes"][0][UCOL["health"]] = "mana_crystals"
    translate = Translator(made_up, v0_layout(), ["units"])
    assert translate.missing == units["shape"][1]
    flat = np.arange(OBS_SPEC.size, dtype=np.float32)
    out = translate(flat).reshape(units["shape"])
    today = unflatten(flat)["units"]
    assert not out[UCOL["health"]].any()
    np.testing.assert_array_equal(out[UCOL["stamina"]], today[UCOL["stamina"]])


def test_the_old_advice_one_hot_has_the_old_size(old):
    """Advice of an old action gives its one-hot; advice of a newer one (an ability) gives none."""
    observer = AdvisedObserver("heroes", seed=0, layout=old)
    assert observer.size == advised_size(old)
    g = Game.new(adventure="flooded_cellar", heroes=3, seed=2)
    flat = Observer().observe(g, HERO, 0, True, g.max_turns)["observation"]
    observer.advice = lambda game: 13  # END
    assert np.flatnonzero(observer.from_flat(flat, g)[observer.compact :]).tolist() == [13]
    observer.advice = lambda game: 77  # ABILITY_0: not in the old table
    assert not observer.from_flat(flat, g)[observer.compact :].any()


def test_layout_for_finds_todays_and_the_recorded_layouts_by_size(old):
    from agents.advised import ADVISED_SIZE

    assert layout_for(ADVISED_SIZE) == (None, True) and layout_for(v1.OBS_SPEC.size) == (None, False)
    assert layout_for(advised_size(old))[0]["commit"] == "2df847b" and layout_for(advised_size(old))[1]
    with pytest.raises(ValueError, match="no observation layout has 12 floats"):
        layout_for(12)


def test_a_shipped_policy_plays_its_own_76_actions_and_refuses_a_decision_without_any():
    pytest.importorskip("sb3_contrib")
    policy = PolicyAgent(V0_HEROES, role="heroes")
    assert policy.advised and policy.layout == "2df847b" and policy.n_actions == 76
    only_new = np.zeros(N_ACTIONS, bool)
    only_new[77] = True
    with pytest.raises(RuntimeError, match="offers none of them"):
        policy._pick(np.zeros(advised_size(load_layout(OLD)), np.float32), only_new)
    mask = only_new.copy()
    mask[13] = True  # END and ABILITY_0: the policy can only end
    g = Game.new(adventure="flooded_cellar", heroes=3, seed=2)
    policy.bind(game=g)
    obs, _ = policy.observe(g)
    assert policy._pick(obs, mask) == 13
