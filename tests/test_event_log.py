"""The compact event log (``Game.events``, issue 13 "Memory"): a game keeps its older events
compressed until someone reads the whole log, and whoever reads it gets exactly the list of dicts
a plain log holds; the env reads only what rewards and infos need, and drops the heroes' view of
what no reward or info reads any more. On the Python rules the chunks are pickled dicts; on the
compiled core they are the engine's own encoding (``src/core/event_log.hpp``), shared by copies.
(Memory itself is measured in scripts/bench_env.py.)"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import dungeon_env
from dungeon_env.content import adventure_names
from dungeon_env.engine import Game
from dungeon_env.engine.game import LOG_CHUNK


def same(a, b) -> bool:
    """Equal, and of the same types all the way down (a tuple is not a list, 1 is not 1.0 nor True,
    a ``str`` enum the engine logs is not a ``str``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def same_json(a, b) -> bool:
    """Equal as JSON, key order included (the core logs plain strings where the Python rules log a
    ``str`` enum: the same in every save, replay and digest)."""
    return json.dumps(a) == json.dumps(b)


def play_pair(adventure: str, seed: int, max_turns: int = 20, engine: str = "python"):
    """The same random game twice: ``compact`` as a game keeps its log (on ``engine``), ``plain``
    on the Python rules with its log read from the start (so a plain list all along); yields both
    after every action."""
    compact = Game.new(adventure=adventure, heroes=4, seed=seed, max_turns=max_turns, engine=engine)
    plain = Game.new(adventure=adventure, heroes=4, seed=seed, max_turns=max_turns, engine="python")
    assert plain.events is plain.events  # read: plain from now on
    rng = random.Random(seed)
    yield compact, plain
    while not compact.over:
        action = rng.choice(compact.legal_actions())
        compact.apply(action)
        plain.apply(action)
        yield compact, plain


@pytest.mark.parametrize("adventure", adventure_names())
def test_a_compact_log_reads_as_the_plain_log(adventure):
    rng = random.Random(5)
    for i, (compact, plain) in enumerate(play_pair(adventure, seed=5)):
        n = len(plain.events)
        assert compact.n_events == n
        starts = {max(0, n - 3), n} | ({0, rng.randrange(n + 1)} if i % 101 == 0 else set())
        for start in starts:
            assert same(compact.events_since(start), plain.events[start:])
    assert compact.n_events > 2 * LOG_CHUNK, "the game is long enough to have compressed chunks"
    assert len(compact._log) < 2 * LOG_CHUNK, "only the newest events are kept as dicts"
    assert same(compact.to_json()["events"], plain.events)
    assert compact._log_chunks, "to_json leaves the log compact"
    events = compact.events
    assert same(events, plain.events)
    assert not compact._log_chunks and compact.events is events, "once read, the log is the plain list"
    compact.log({"type": "phase", "phase": "test", "turn": 0})
    assert events[-1] == {"type": "phase", "phase": "test", "turn": 0}, "the list read keeps growing"


def test_copies_and_saves_of_a_compact_game_keep_the_whole_log():
    pairs = play_pair(adventure_names()[0], seed=8, max_turns=60)
    compact, plain = next(pairs)
    for _ in range(300):
        compact, plain = next(pairs, (compact, plain))
    assert compact._log_chunks
    clone = compact.copy()
    loaded = Game.from_json(compact.to_json())
    rng = random.Random(9)
    for _ in range(200):
        if compact.over:
            break
        action = rng.choice(compact.legal_actions())
        for g in (compact, plain, clone, loaded):
            g.apply(action)
    for g in (clone, compact):
        assert same(g.events, plain.events)
    assert loaded.engine == "core" and same_json(loaded.events, plain.events)


@pytest.mark.parametrize("adventure", adventure_names()[:2])
def test_the_cores_log_reads_as_the_plain_log_from_any_event_on(adventure):
    """The core freezes its older events into encoded chunks: read from any index on (inside a
    chunk, on a chunk's edge, in the newest events), they are the plain log's dicts, types and key
    order included; a copy shares the chunks and goes on apart."""
    rng = random.Random(7)
    clone = plain_clone = None
    for i, (core_game, plain) in enumerate(play_pair(adventure, seed=7, max_turns=30, engine="core")):
        n = plain.n_events
        assert core_game.n_events == n
        starts = {max(0, n - 3), n} | ({0, 63, 64, 65, rng.randrange(n + 1)} if i % 97 == 0 else set())
        for start in starts:
            assert same_json(core_game.events_since(start), plain.events[start:])
        if i == 400:
            clone, plain_clone = core_game.copy(), plain.copy()
    assert n > 10 * 64, "the game is long enough to have many frozen chunks"
    clone.log({"type": "phase", "phase": "test", "turn": 0})
    assert clone.events[:-1] == plain_clone.events and clone.events[-1]["phase"] == "test"
    assert same_json(core_game.events, plain.events), "the copy's own event is not in the game it came from"


def test_the_env_log_is_complete_and_infos_and_rewards_are_unchanged():
    """Shaping and info_events on: rewards and every agent's infos equal those of an env whose log
    is plain and which forgets nothing of the heroes' view; ``env.unwrapped.events`` is the whole
    log (what replays and the difficulty tool read)."""
    options = {
        "adventure": adventure_names()[0],
        "heroes": 4,
        "max_turns": 40,
        "info_events": True,
        "shaping": {"damage": 0.1, "kills": 0.5, "treasure": 0.2, "exploration": 0.1},
    }
    env, ref = dungeon_env.raw_env(**options), dungeon_env.raw_env(**options)
    env.reset(seed=4)
    ref.reset(seed=4)
    ref._forget = lambda: None
    assert ref.events is ref.game.events  # read: plain from now on
    rng = random.Random(4)
    steps = 0
    while env.agents:
        agent = env.agent_selection
        assert agent == ref.agent_selection
        assert env.infos == ref.infos and env.rewards == ref.rewards
        assert env._cumulative_rewards == ref._cumulative_rewards
        done = env.terminations[agent] or env.truncations[agent]
        action = None if done else int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"])))
        env.step(action)
        ref.step(action)
        steps += 1
    assert env.infos == ref.infos and env._cumulative_rewards == ref._cumulative_rewards
    assert steps > 100 and env.game.n_events > 2 * LOG_CHUNK
    assert len(env.knowledge["heroes"].events) < env.game.n_events, "the heroes' old events were dropped"
    assert same(env.events, ref.events)


def test_each_sides_knowledge_keeps_only_the_events_a_reward_or_an_info_may_still_read():
    """Without info_events a side's knowledge drops each step's events once the step is paid; with
    them it keeps those some agent of the side has not had yet: the env's memory stays that of
    the game's compact log."""
    options = {"adventure": adventure_names()[0], "heroes": 3, "max_turns": 30}
    plain = dungeon_env.raw_env(**options)
    told = dungeon_env.raw_env(**options, info_events=True)
    for env in (plain, told):
        env.reset(seed=2)
    rng = random.Random(2)
    for _ in range(400):
        if not plain.agents:
            break
        agent = plain.agent_selection
        done = plain.terminations[agent] or plain.truncations[agent]
        action = None if done else int(rng.choice(np.flatnonzero(plain.observe(agent)["action_mask"])))
        plain.step(action)
        told.step(action)
        assert plain.knowledge["heroes"].events == [] and plain.knowledge["dm"].events == []
        heroes = told.knowledge["heroes"]
        oldest = min(told._seen[a] for a in told.possible_agents if a != "dm")
        assert heroes.events == heroes.events_since(oldest)  # nothing older than an unread step
    assert not plain.game._core_events, "the knowledge leaves the log in the core, unread"


def test_a_frozen_chunk_of_the_cores_log_keeps_many_distinct_strings_and_repeats():
    """A chunk stores each distinct string once (its index table grows past its first size, 512
    strings); every event reads back as logged, repeated strings and keys included."""
    game = Game.new(adventure="flooded_cellar", heroes=3, seed=1)
    start = game.n_events
    logged = [
        {"type": "phase", "phase": f"note {k}", "words": [f"w{k}.{j}" for j in range(12)], "again": "phase"}
        for k in range(3 * 64)
    ]
    for event in logged:
        game.log(event)
    assert game.events_since(start) == logged
    assert game.copy().events_since(start + 100) == logged[100:]
