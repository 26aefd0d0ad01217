"""The AEC env's step in the core (``dungeon_env.aec_core``) against the general way (``Game.apply``,
``Observer``, the env's Python bookkeeping; an env's ``_core_steps = False``): two envs with the same
options, seeds and actions give the same observations, masks, rewards, ends, infos, each side's
kept events and names, warnings, errors and event logs, step by step, in every option that changes
what a step reads or keeps."""

from __future__ import annotations

import copy
import json
import pickle
import random
import warnings

import numpy as np
import pytest

import dungeon_env
from dungeon_env.aec_core import CoreStep
from dungeon_env.engine.dice import Dice
from dungeon_env.engine.sideview import DM, HEROES
from dungeon_env.tasks import TASK_DIR

SHAPING = {
    "damage": 0.1,
    "kills": 0.5,
    "treasure": 0.2,
    "exploration": 0.3,
    "doors": 0.1,
    "exits": 0.5,
    "goal_exits": 0.2,
    "squares": 0.01,
    "exit_path": 0.5,
    "explored": 0.2,
}

CONFIGS = {
    "default": {},
    "info_events": {"info_events": True},
    "shaping": {"shaping": SHAPING},
    "paid_turn_cap": {"reward_truncated": -1.0, "max_turns": 6},
    "five_heroes_events": {"adventure": "goblin_warrens", "heroes": 5, "max_turns": 5, "info_events": True},
    "dict_format": {"observation_format": "dict", "heroes": 3},
    # random play walks out of these often: the campaign's next adventures are begun mid-episode
    "campaign": {
        "campaign": [str(TASK_DIR / "walk_out.toml"), str(TASK_DIR / "exit_doors.toml")],
        "heroes": 3,
    },
}


def _make(wrapped: bool, core: bool, options: dict):
    defaults = {"heroes": 4, "max_turns": 40} | (
        {} if "campaign" in options else {"adventure": "flooded_cellar"}
    )
    env = (dungeon_env.env if wrapped else dungeon_env.raw_env)(**(defaults | options))
    env.unwrapped._core_steps = core
    return env


def _channels(env, last) -> str:
    """Everything an agent or a reader of the env may read after a step, as one string."""
    raw = env.unwrapped
    obs, reward, terminated, truncated, info = last
    arrays = {k: np.ascontiguousarray(v).tobytes().hex() for k, v in obs.items()} if obs is not None else None
    known = raw.knowledge
    return json.dumps(
        [
            raw.agent_selection,
            arrays,
            reward,
            terminated,
            truncated,
            info,
            raw.rewards,
            raw._cumulative_rewards,
            raw.terminations,
            raw.truncations,
            raw.infos,
            raw.side_rewards,
            known[HEROES].events_since(0),
            known[DM].events_since(0),
            sorted(known[HEROES].numbers().items()),
            raw.game.n_events,
            raw.game.moves,
        ],
        default=repr,
    )


def _step(env, action) -> str:
    """``env.step(action)``; the warnings and the error it gave, as a string."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            env.step(action)
        except Exception as err:  # noqa: BLE001 - raw_env raises on an illegal action: compared
            return f"{type(err).__name__}: {err}"
    return repr([str(w.message) for w in caught])


def _lockstep(wrapped: bool, options: dict, seed: int, steps: int, on_step=None) -> dict:
    """Random play of the two envs side by side (now and then an illegal action, a numpy int);
    asserts every channel equal at every step; the counts of what was reached."""
    fast, slow = _make(wrapped, True, options), _make(wrapped, False, options)
    rng = random.Random(seed)
    reached = {"steps": 0, "episodes": 0, "errors": 0, "core": 0, "games": 0}
    episode = 0
    while reached["steps"] < steps:
        for env in (fast, slow):
            env.reset(seed=seed * 100 + episode)
        episode += 1
        reached["episodes"] += 1
        game = None
        for agent in fast.agent_iter():
            if fast.unwrapped.game is not game:
                game = fast.unwrapped.game
                reached["games"] += 1
            last = fast.last()
            assert _channels(fast, last) == _channels(slow, slow.last()), (agent, reached)
            _obs, _reward, terminated, truncated, _info = last
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(last[0]["action_mask"])
                action = int(rng.choice(legal))
                if rng.random() < 1 / 400:
                    action = int(
                        rng.choice([a for a in range(len(last[0]["action_mask"])) if a not in legal])
                    )
                elif rng.random() < 0.05:
                    action = np.int64(action)
            if on_step is not None:
                on_step(fast, slow, rng)
            core = fast.unwrapped._core_step
            moves = fast.unwrapped.game.moves if core is not None else None
            said = _step(fast, action)
            assert said == _step(slow, action), (agent, action, reached)
            reached["steps"] += 1
            reached["core"] += core is not None and fast.unwrapped.game.moves != moves
            if said.startswith("IllegalActionError"):
                reached["errors"] += 1
                break
        assert fast.unwrapped.events == slow.unwrapped.events
    return reached


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_core_step_equals_the_general_way(name):
    wrapped = name != "info_events"  # raw_env (raise) too
    reached = _lockstep(wrapped, CONFIGS[name], seed=len(name), steps=1500)
    assert reached["steps"] >= 1500 and reached["episodes"] >= 2
    assert reached["core"] >= reached["steps"] // 2  # the core's step did take most moves
    if name == "campaign":
        assert reached["games"] > reached["episodes"]  # next adventures begun mid-episode


def test_raw_env_raises_the_same_errors():
    reached = _lockstep(False, {}, seed=3, steps=1500)
    assert reached["errors"] >= 1 and reached["core"] >= 700


def test_readers_hand_edits_and_copies_take_the_general_way_when_they_must():
    """A second reader of the heroes' events, state read and edited by hand, the game's dice given
    to it, a deep copy and a pickle of the env mid-episode: the same channels as the general way."""

    def meddle(fast, slow, rng):
        k = rng.randrange(60)
        if k == 0:  # a story teller starts reading the heroes' events from here
            for env in (fast, slow):
                env.unwrapped.knowledge[HEROES].hold("story", env.unwrapped.game.n_events)
        elif k == 1:  # a state list read (held until the next move)
            for env in (fast, slow):
                env.unwrapped.game.state.stack  # noqa: B018
        elif k == 3:  # dice given to the game (it rolls that object from now on)
            seed = rng.randrange(1000)
            for env in (fast, slow):
                env.unwrapped.game.dice = Dice(seed)
        elif k == 2:  # a hand edit
            for env in (fast, slow):
                env.unwrapped.game.state.light = max(1, env.unwrapped.game.state.light - 1)
                env.unwrapped.game.state_edited()

    reached = _lockstep(False, {"illegal_action": "penalize"}, seed=5, steps=1200, on_step=meddle)
    assert reached["core"] >= 600
    env = _make(False, True, {})
    env.reset(seed=4)
    rng = random.Random(4)
    for _ in range(30):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert isinstance(twin._core_step, CoreStep) and twin._core_step.game is twin.game
        for a, b in ((env, twin), (twin, env)):
            assert _channels(a, a.last()) == _channels(b, b.last())
        action = int(rng.choice(np.flatnonzero(twin.observe(twin.agent_selection)["action_mask"])))
        moves = twin.game.moves
        twin.step(action)
        assert twin.game.moves == moves + 1 and env.game.moves == moves  # the copy moved alone
