"""The env is only the adapter (issue 12): the agent asked is the engine's ``game.agent``; the
observer's cached observations equal observations built from scratch at every step; the rewards are
``dungeon_env.rewards``' pure functions, known to the value on hand-made events; the event views are
``dungeon_env.engine.knowledge``'s."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

import dungeon_env
from dungeon_env import rewards
from dungeon_env.content import adventure_names
from dungeon_env.engine import knowledge
from dungeon_env.engine.actions import DECISION_NAMES
from dungeon_env.observation import ACTING, DM, HERO, Observer, unflatten
from dungeon_env.rewards import (
    check_reward,
    check_shaping,
    needs_goals,
    outcome_reward,
    outcome_table,
    shaping_reward,
)

MAX_TURNS = 16


def fresh_observation(game, agent: str, max_turns: int) -> dict[str, np.ndarray]:
    """The observation of ``agent`` built from scratch: a new observer (no template, no figures, no
    masks cached) on a copy of the game (no cached legal actions), the role and the turn taken from
    the agent's name and the engine alone."""
    role, me = (DM, -1) if agent == "dm" else (HERO, int(agent.removeprefix("hero_")))
    return Observer().observe(game.copy(), role, me, agent == game.agent, max_turns)


def first_difference(cached: np.ndarray, fresh: np.ndarray) -> str:
    """The name of the first observation piece where the two vectors differ."""
    a, b = unflatten(cached), unflatten(fresh)
    return next(name for name in a if not np.array_equal(a[name], b[name]))


def play_and_compare(adventure: str, seed: int, heroes: int, every_agent: bool) -> int:
    """Random legal play; at every step the env's observation (of the agent asked, or of every agent
    and the global state) equals a fresh one, observation and mask. Returns the steps played."""
    env = dungeon_env.raw_env(adventure=adventure, heroes=heroes, max_turns=MAX_TURNS)
    env.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while env.agents:
        agent = env.agent_selection
        watched = env.possible_agents if every_agent else [agent]
        for who in watched:
            cached, fresh = env.observe(who), fresh_observation(env.game, who, MAX_TURNS)
            obs, new = cached["observation"], fresh["observation"]
            where = f"{adventure} seed {seed} step {steps}, {who}"
            assert np.array_equal(obs, new), (
                f"{where}: the cached observation differs in {first_difference(obs, new)}"
            )
            assert np.array_equal(cached["action_mask"], fresh["action_mask"]), f"{where}: the masks differ"
        if every_agent:
            state = Observer().state(env.game.copy(), MAX_TURNS)
            assert np.array_equal(env.state(), state), f"{adventure} seed {seed} step {steps}: state()"
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
        steps += 1
    return steps


@pytest.mark.parametrize("adventure", adventure_names())
def test_cached_observations_equal_fresh_ones_at_every_step(adventure):
    """Observer caches a template per role (board planes, per-unit columns) and the masks: a stale
    cache would show as a difference from an observation built from nothing. Seed 1 watches every
    agent at every step (the caches switch role each call); seed 2 only the agent asked, as in
    training (the caches see the long runs of one role)."""
    assert play_and_compare(adventure, seed=1, heroes=3, every_agent=True) > 100
    assert play_and_compare(adventure, seed=2, heroes=5, every_agent=False) > 100


def test_the_agent_asked_is_the_engines_and_so_are_the_decision_infos():
    env = dungeon_env.raw_env(adventure="goblin_warrens", heroes=4, max_turns=MAX_TURNS)
    env.reset(seed=3)
    rng = random.Random(3)
    asked = set()
    while not env.game.over:
        agent, game = env.agent_selection, env.game
        assert agent == game.agent
        kind, unit = game.decision
        info = env.infos[agent]
        assert (info["decision"], info["unit"]) == (DECISION_NAMES[kind], game.label(unit))
        acting = unflatten(env.observe(agent))["acting"]
        assert np.flatnonzero(acting).tolist() == [ACTING.index(agent)]
        asked.add(agent)
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    assert asked == set(env.possible_agents)
    assert env.game.agent is None and all(env.terminations[a] or env.truncations[a] for a in env.agents)
    assert all(env.infos[a]["decision"] == env.infos[a]["unit"] == "" for a in env.agents)  # nobody asked


def test_the_env_re_exports_the_knowledge_views():
    assert dungeon_env.aec.hero_view is knowledge.hero_view
    assert dungeon_env.aec.hero_events is knowledge.hero_events


# ------------------------------------------------------------------------------- rewards


WEIGHTS = {"damage": 0.25, "kills": 1.5, "treasure": 0.125, "exploration": 2.0}  # exact in binary


def test_shaping_reward_of_each_term():
    hit = {"type": "damage", "unit": "m0", "amount": 3}
    hurt = {"type": "damage", "unit": "hero_1", "amount": 2}
    assert shaping_reward([hit], WEIGHTS) == 0.75
    assert shaping_reward([hurt], WEIGHTS) == -0.5
    assert shaping_reward([{"type": "slain", "unit": "m2"}], WEIGHTS) == 1.5
    assert shaping_reward([{"type": "death", "unit": "hero_0"}], WEIGHTS) == -1.5
    assert shaping_reward([{"type": "item_found", "item": 4}], WEIGHTS) == 0.125
    assert shaping_reward([{"type": "loot", "unit": "hero_2", "item": 1}], WEIGHTS) == 0.125
    assert shaping_reward([{"type": "reveal", "area": "B"}], WEIGHTS) == 2.0


def test_shaping_reward_goal_exits_pays_with_the_goals_in_hand_and_charges_without():
    leaves = {"type": "exit", "unit": "hero_2"}
    weights = {"exits": 0.25, "goal_exits": 0.5}
    assert shaping_reward([leaves], weights) == -0.25
    assert shaping_reward([leaves], weights, in_hand=True) == 0.75
    assert needs_goals([None, leaves], weights)
    assert not needs_goals([leaves], {"exits": 0.25})
    assert not needs_goals([{"type": "door_opened", "door": 3, "by": "hero_0"}], weights)


def test_shaping_reward_doors_exits_and_new_squares():
    weights = {"doors": 0.5, "exits": 0.25, "squares": 0.125}
    assert shaping_reward([{"type": "door_opened", "door": 3, "by": "hero_0"}], weights) == 0.5
    assert shaping_reward([{"type": "exit", "unit": "hero_2"}], weights) == 0.25
    seen: set = set()
    steps = [
        {"type": "move", "unit": "hero_0", "from": [1, 1], "to": [1, 2]},  # new: +0.125
        {"type": "move", "unit": "hero_0", "from": [1, 2], "to": [1, 1]},  # back to its start: 0
        {"type": "move", "unit": "hero_1", "from": [0, 1], "to": [1, 2]},  # another hero stood there: 0
        {"type": "move", "unit": "m0", "from": [5, 5], "to": [5, 6]},  # a monster: 0
        {"type": "move", "unit": None, "from": None, "to": None},  # a move heroes do not see: 0
        {"type": "move", "unit": "hero_1", "from": [1, 2], "to": [1, 3]},  # new: +0.125
    ]
    assert shaping_reward(steps, weights, seen) == 0.25
    assert seen == {(1, 1), (1, 2), (0, 1), (1, 3)}
    assert shaping_reward(steps, weights) == 0.0  # no set of squares: the term earns nothing


def test_shaping_reward_sums_a_step_and_ignores_unknown_events_and_other_types():
    step = [
        {"type": "damage", "unit": "m0", "amount": 4},  # +1.0
        None,  # an event heroes do not know: nothing
        {"type": "slain", "unit": "m0"},  # +1.5
        {"type": "damage", "unit": "hero_0", "amount": 1},  # -0.25
        {"type": "move", "unit": "hero_0", "from": [1, 1], "to": [1, 2]},  # no term
        {"type": "roll", "check": "jump", "actor": "hero_0", "dice": [6], "total": 6},  # no term
        {"type": "reveal", "area": "C"},  # +2.0
        {"type": "item_found", "item": 0},  # +0.125
    ]
    assert shaping_reward(step, WEIGHTS) == 4.375
    assert shaping_reward([None, None], WEIGHTS) == 0.0
    assert shaping_reward([], WEIGHTS) == 0.0


def test_shaping_reward_missing_terms_weigh_nothing():
    step = [
        {"type": "damage", "unit": "m0", "amount": 4},
        {"type": "death", "unit": "hero_1"},
        {"type": "reveal", "area": "C"},
    ]
    assert shaping_reward(step, {"kills": 0.5}) == -0.5
    assert shaping_reward(step, {"exploration": 0.5}) == 0.5
    assert shaping_reward(step, {}) == 0.0


def test_check_shaping():
    assert check_shaping(None) is None and check_shaping({}) is None
    checked = check_shaping({"kills": 1, "damage": 0.5})
    assert checked == {"kills": 1.0, "damage": 0.5} and type(checked["kills"]) is float
    with pytest.raises(ValueError, match=r"unknown terms \['gold'\]"):
        check_shaping({"gold": 1.0, "kills": 1.0})
    with pytest.raises(ValueError, match="must be a dict"):
        check_shaping([("kills", 1.0)])
    assert rewards.SHAPING_TERMS == (
        "damage",
        "kills",
        "treasure",
        "exploration",
        "doors",
        "exits",
        "goal_exits",
        "squares",
        "exit_path",
        "explored",
    )


def test_outcome_reward_of_each_ending():
    table = outcome_table(1.0, 0.25, -1.0, -0.5)
    assert table == {"completed": 1.0, "completed_without_goal": 0.25, "failed": -1.0, "truncated": -0.5}
    assert outcome_reward("completed", True, table) == 1.0
    assert outcome_reward("completed", False, table) == 0.25
    assert outcome_reward("failed", True, table) == -1.0  # goals met so far do not help the dead
    assert outcome_reward("failed", False, table) == -1.0
    assert outcome_reward("truncated", True, table) == -0.5
    assert outcome_reward("truncated", False, table) == -0.5


def test_reward_numbers_are_checked_by_option_name():
    assert check_reward("illegal_reward", np.int64(-2)) == -2.0
    with pytest.raises(ValueError, match="illegal_reward must be a number"):
        check_reward("illegal_reward", True)
    with pytest.raises(ValueError, match="reward_failed must be a finite number"):
        outcome_table(1.0, 0.0, math.nan, 0.0)
    with pytest.raises(ValueError, match="reward_completed_without_goal must be a number"):
        outcome_table(1.0, "0", -1.0, 0.0)


def test_the_env_pays_the_rewards_functions_of_the_heroes_log():
    """Over a game, the heroes' per-step rewards add up to the shaping of the log after the set-up
    (which earns nothing) as heroes see it, plus the outcome: the env computes nothing of its own
    (weights exact in binary, so the order of the sums cannot matter)."""
    shaping = {"damage": 0.25, "kills": 0.5, "treasure": 0.125, "exploration": 0.0625}
    env = dungeon_env.raw_env(adventure="goblin_warrens", heroes=3, max_turns=MAX_TURNS, shaping=shaping)
    for seed in range(3):
        env.reset(seed=seed)
        set_up = len(env.game.events)
        rng = random.Random(seed)
        heroes = dm = 0.0
        while not env.game.over:
            env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
            heroes += env.side_rewards["heroes"]
            dm += env.side_rewards["dm"]
        game = env.game
        shaped = shaping_reward(knowledge.hero_view(game, game.events)[set_up:], shaping)
        assert shaped != 0.0, f"seed {seed}: nothing shaped in a whole game"
        expected = shaped + outcome_reward(game.outcome, game.goals_met, env.outcome_rewards)
        assert (heroes, dm) == (expected, -expected), f"seed {seed}"
