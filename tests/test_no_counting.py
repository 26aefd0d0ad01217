"""No hero channel counts the DM's decisions about figures heroes do not see (ruling D-24, the design's
"one knowledge per side"): twin games (``tests/twins.py``) that differ in a monster in the fog, played
through the parallel view and through the play server, hand the heroes identical streams, the number
of steps, versions, pushes and wakeups included, until the fog monster becomes knowable.

The DM is played as in ``twins.play_twins``: a decision hidden from the heroes
(``engine.knowledge.dm_decision_is_hidden``) in each game alone (about an unseen monster: the k-th
decision about it gets the same random choice in both games while both offer the same choices; a
single choice besides ``defer``: that choice), a public one with the same action in both.
"""

from __future__ import annotations

import contextlib
import random
import time
from dataclasses import dataclass, field

import numpy as np
import pytest
from starlette.testclient import TestClient

from dungeon_env.engine.actions import DEFER
from dungeon_env.engine.knowledge import dm_decision_is_hidden, heroes_see_unit
from dungeon_env.engine.state import STACK_UNIT, How
from dungeon_env.engine.units import place_monster
from dungeon_env.parallel import TurnBasedParallelEnv
from play.server import create_app
from play.table import Table
from tests import twins

PAIRS = [("flooded_cellar", 0), ("flooded_cellar", 1), ("sunless_throne", 0), ("goblin_warrens", 1)]
STOP = ("the fog monster", "the DM's choices", "the Combat Turn Sequence", "a monster was placed")


def hidden_choice(game, legal: list[int], seed: int, alone: list) -> int:
    """The DM's choice at a decision hidden from the heroes (the module docstring); ``alone`` gets
    (monster, choices) of each decision about an unseen monster."""
    unit = int(game.state.stack[-1][STACK_UNIT])
    if heroes_see_unit(game, unit):  # one choice besides defer
        return next(a for a in legal if a != DEFER)
    who = game.label(unit)
    k = sum(1 for r in alone if r[0] == who)
    alone.append((who, list(legal)))
    return random.Random(f"{seed}:{who}:{k}").choice(legal)


def public_dm_choice(game_a, game_b, seed: int, step: int) -> int | None:
    """The same action for a public DM decision in both games; None if they offer different choices."""
    legal_a, legal_b = ([a for a in g.legal_actions() if a != DEFER] for g in (game_a, game_b))
    return random.Random(f"{seed}:{step}").choice(legal_a) if legal_a == legal_b else None


# ------------------------------------------------------------------------------------ the parallel view


class Started:
    """An AEC env already set up (a twin): the parallel view's ``reset`` leaves it as it is;
    ``paid``: the AEC env's rewards after each step played."""

    def __init__(self, raw) -> None:
        self._raw = raw
        self.paid: list[dict] = []

    def reset(self, seed=None, options=None) -> None:
        return None

    def step(self, action) -> None:
        self._raw.step(action)
        if action is not None:
            self.paid.append(dict(self._raw.rewards))

    def __getattr__(self, name):
        return getattr(self._raw, name)


@dataclass
class ParallelSide:
    par: TurnBasedParallelEnv
    last: tuple = ()
    streams: dict = field(default_factory=dict)  # hero -> [(obs, mask, reward, ends, info)] it was handed
    alone: list = field(default_factory=list)
    hidden_steps: int = 0

    @property
    def game(self):
        return self.par.unwrapped.game

    def take(self, out: tuple) -> None:
        """Keep every hero's part of a step's (or reset's) answer."""
        self.last = out
        observations, infos = out[0], out[-1]
        rewards, terms, truncs = out[1:4] if len(out) == 5 else ({}, {}, {})
        for hero in self.par.possible_agents[:-1]:
            if hero in observations:
                obs = observations[hero]
                item = (
                    obs["observation"],
                    obs["action_mask"],
                    rewards.get(hero),
                    terms.get(hero),
                    truncs.get(hero),
                )
                self.streams.setdefault(hero, []).append((*item, infos[hero]))

    def step(self, action: int) -> None:
        self.take(self.par.step({self.par.active_agent: action}))

    def dm_alone(self, seed: int) -> None:
        while self.par.agents and dm_decision_is_hidden(self.game):
            self.hidden_steps += 1
            self.step(hidden_choice(self.game, self.game.legal_actions(), seed, self.alone))


def _others(alone: list, exempt: tuple) -> list:
    """The DM's decisions about unseen monsters other than the twins' own fog monster (``exempt``)."""
    return [r for r in alone if r[0] not in exempt]


def stream_differences(a: dict, b: dict, start: int = 0) -> list[str]:
    """What differs between two games' hero streams, from each stream's step ``start`` on."""
    out = []
    for hero in sorted(set(a) | set(b)):
        sa, sb = a.get(hero, []), b.get(hero, [])
        if len(sa) != len(sb):
            out.append(f"{hero} was handed {len(sa)} / {len(sb)} steps")
        names = ("observation", "mask", "reward", "terminated", "truncated", "info")
        for k, (x, y) in enumerate(zip(sa[start:], sb[start:], strict=False), start):
            for name, u, v in zip(names, x, y, strict=True):
                same = np.array_equal(u, v) if isinstance(u, np.ndarray) else u == v
                if not same:
                    out.append(f"{hero} step {k}: {name} differs")
    return out


def play_parallel_twins(pair: twins.Twins, seed: int, max_steps: int = 3000) -> tuple[int, str, list]:
    """Both games through the parallel view; AssertionError at the first difference of a hero's
    stream before the fog monster is knowable. (joint steps compared, why it stopped, the sides)"""
    sides = [ParallelSide(TurnBasedParallelEnv(Started(env))) for env in (pair.a, pair.b)]
    for side in sides:
        side.take(side.par.reset())
    rng, checked = random.Random(seed), 0
    a, b = sides
    for step in range(max_steps):
        for side in sides:
            side.dm_alone(seed)
        stop = pair.knowable(a.game, b.game)
        if not stop and _others(a.alone, pair.exempt) != _others(b.alone, pair.exempt):
            stop = "the DM's choices for an unseen monster depend on the hidden thing"
        if stop:
            return step, stop, sides
        diff = stream_differences(a.streams, b.streams, checked)
        checked = min((len(s) for s in a.streams.values()), default=0)
        assert not diff, f"{pair.note}, step {step}: heroes can tell the twins apart: {diff[:4]}"
        if not a.par.agents:
            assert not b.par.agents
            return step, "both games over", sides
        agent = a.par.active_agent
        if agent != b.par.active_agent:
            return step, "the DM's choices for a figure heroes see depend on the hidden thing", sides
        if agent == "dm":
            action = public_dm_choice(a.game, b.game, seed, step)
            if action is None:
                return step, "the DM's choices for a figure heroes see depend on the hidden thing", sides
        else:
            action = rng.choice(np.flatnonzero(a.last[0][agent]["action_mask"]).tolist())
        a.step(action)
        b.step(action)
    return max_steps, "step limit", sides


@pytest.mark.parametrize("kind", ["fog_monster", "extra_fog_monster"])
def test_the_parallel_view_hands_heroes_the_same_stream_in_twin_games(kind):
    """Observations, masks, rewards, ends and infos of every hero, and how many steps each is
    handed, are the same in both games; the DM's own stream differs (it took more or fewer
    decisions about the monster in the fog)."""
    make = getattr(twins, kind)
    verdicts = []
    for adventure, seed in PAIRS:
        pair = make(adventure, seed)
        if pair is not None:
            verdicts.append((pair.note, *play_parallel_twins(pair, seed)))
    assert len(verdicts) >= 3, verdicts
    assert all(stop.startswith(STOP) or stop == "both games over" for _, _, stop, _ in verdicts), verdicts
    counts = [(a.hidden_steps, b.hidden_steps) for _, _, _, (a, b) in verdicts]
    assert any(x != y for x, y in counts), counts  # the twins took different numbers of hidden decisions
    assert sum(n for _, n, _, _ in verdicts) >= 20 * len(verdicts), verdicts


def test_a_hero_earns_its_rewards_of_hidden_steps_at_its_next_step():
    """The rewards of the steps a hero is not handed reach it at its next step: over the game, the
    rewards in a hero's stream add up to the AEC env's rewards of every step."""
    pair = twins.extra_fog_monster("flooded_cellar", 1)
    _, _, sides = play_parallel_twins(pair, 1)
    for side in sides:
        assert side.hidden_steps > 0
        aec = side.par.aec_env
        for hero, stream in side.streams.items():
            paid = sum(item[2] or 0.0 for item in stream)
            assert paid == pytest.approx(sum(r.get(hero, 0.0) for r in aec.paid)), hero


# ------------------------------------------------------------------------------------ the play server

ALL_HUMAN = {"hero_0": "human", "hero_1": "human", "hero_2": "human", "dm": "human"}
HEROES = ("hero_0", "hero_1", "hero_2")


def fog_tables(adventure: str, seed: int, saves, seats: dict) -> tuple[Table, Table, object, tuple]:
    """Two tables of the same game, a goblin in the fog on a different square; when heroes may know
    of it, and its label."""
    options = {"adventure": adventure, "heroes": 3, "seats": seats, "seed": seed, "max_turns": 60}
    a, b = Table(**options, saves=saves), Table(**options, saves=saves)
    squares = twins.unrevealed_floor(a.game, random.Random(seed))
    placed = (a.game.n_events, b.game.n_events)
    u = place_monster(a.game, "goblin", squares[0], How.PATROL)
    place_monster(b.game, "goblin", squares[1], How.PATROL)
    for table in (a, b):
        twins._restart(table.env)
    return a, b, twins._monster_knowable(u, placed), (a.game.label(u),)


@dataclass
class ServerSide:
    """One twin's table served, every seat human: the heroes act over their WebSockets, the DM over
    HTTP; ``answers``: what the hero seats were handed, in order."""

    table: Table
    client: TestClient
    sockets: dict = field(default_factory=dict)
    answers: list = field(default_factory=list)
    alone: list = field(default_factory=list)
    hidden_steps: int = 0
    hero_version: int = 0

    @property
    def game(self):
        return self.table.game

    def token(self, seat: str) -> str:
        return self.table.seats[seat].token

    def act(self, action: int) -> None:
        table, seat = self.table, self.game.agent
        before = table.version
        if seat == "dm":
            body = {"decision": table.version, "action": action}
            assert self.client.post(f"/api/seat/{self.token(seat)}/act", json=body).status_code == 200
        else:
            version = self.client.get(f"/api/seat/{self.token(seat)}").json()["version"]
            self.sockets[seat].send_json({"decision": version, "action": action})
            deadline = time.monotonic() + 20
            while table.version == before:  # the socket's action is applied by the server's loop
                assert time.monotonic() < deadline, "the action sent over the WebSocket was not applied"
                time.sleep(0.002)

    def dm_alone(self, seed: int) -> None:
        while dm_decision_is_hidden(self.game):
            self.hidden_steps += 1
            self.act(hidden_choice(self.game, self.game.legal_actions(), seed, self.alone))

    def look(self) -> None:
        """At a public decision: the push each hero seat's WebSocket got if the heroes' version
        moved, each hero seat's view, and the heroes' wakeups so far."""
        views = [("view", hero, self.client.get(f"/api/seat/{self.token(hero)}").json()) for hero in HEROES]
        version = views[0][2]["version"]
        if version != self.hero_version:
            self.hero_version = version
            self.answers += [("push", hero, self.sockets[hero].receive_json()) for hero in HEROES]
        self.answers += views
        changes = getattr(self.client.app.state, "changes", None)
        self.answers.append(("wakeups", changes and changes.count["heroes"]))

    def leftovers(self) -> list:
        """A push the hero seats should not have had comes before the answer to a malformed message."""
        out = []
        for hero in HEROES:
            self.sockets[hero].send_json({"nothing": "an act without its fields"})
            out.append("error" in self.sockets[hero].receive_json())
        return out


def play_server_twins(adventure: str, seed: int, saves, max_steps: int = 250) -> tuple[int, str, list]:
    a_table, b_table, knowable, exempt = fog_tables(adventure, seed, saves, ALL_HUMAN)
    sides = [ServerSide(t, TestClient(create_app(t, delay=0.0))) for t in (a_table, b_table)]
    a, b = sides
    rng = random.Random(seed)
    with contextlib.ExitStack() as stack:
        for side in sides:
            stack.enter_context(side.client)
            for hero in HEROES:
                ws = stack.enter_context(side.client.websocket_connect(f"/ws/seat/{side.token(hero)}"))
                side.answers.append(("first push", hero, ws.receive_json()))
                side.sockets[hero] = ws
        step, stop = _play_served(sides, knowable, exempt, seed, rng, max_steps)
        for side in sides:
            side.answers.append(("no push left over", side.leftovers()))
        assert a.answers == b.answers, f"{adventure} seed {seed}, at the end: {_apart(a.answers, b.answers)}"
    return step, stop, sides


def _play_served(sides, knowable, exempt, seed: int, rng, max_steps: int) -> tuple[int, str]:
    a, b = sides
    for step in range(max_steps):
        for side in sides:
            side.dm_alone(seed)
        stop = knowable(a.game, b.game)
        if not stop and _others(a.alone, exempt) != _others(b.alone, exempt):
            stop = "the DM's choices for an unseen monster depend on the hidden thing"
        if stop:
            return step, stop
        checked = len(a.answers)
        for side in sides:
            side.look()
        assert a.answers[checked:] == b.answers[checked:], f"step {step}: {_apart(a.answers, b.answers)}"
        if a.game.over:
            return step, "both games over"
        agent = a.game.agent
        if agent != b.game.agent:
            return step, "the DM's choices for a figure heroes see depend on the hidden thing"
        if agent == "dm":
            action = public_dm_choice(a.game, b.game, seed, step)
            if action is None:
                return step, "the DM's choices for a figure heroes see depend on the hidden thing"
        else:
            action = rng.choice(a.game.legal_actions())
        a.act(action)
        b.act(action)
    return max_steps, "step limit"


def _apart(x: list, y: list) -> str:
    k = next((k for k, (u, v) in enumerate(zip(x, y, strict=False)) if u != v), min(len(x), len(y)))
    return f"answer {k} of {len(x)} / {len(y)}: {repr(x[k : k + 1])[:600]} / {repr(y[k : k + 1])[:600]}"


def test_the_play_server_hands_hero_seats_the_same_answers_in_twin_games(tmp_path):
    """A human DM: every hero seat's views, the WebSocket pushes (how many, and the ``version`` in
    them) and the number of heroes' wakeups are the same in both games, though the DM took more or
    fewer decisions about the goblin in the fog; no push is left over."""
    runs = [play_server_twins(adventure, seed, tmp_path) for adventure, seed in PAIRS[:2]]
    assert all(stop.startswith(STOP) or stop in ("both games over", "step limit") for _, stop, _ in runs), (
        runs
    )
    counts = [(a.hidden_steps, b.hidden_steps) for _, _, (a, b) in runs]
    assert any(x != y for x, y in counts), counts
    assert sum(n for n, _, _ in runs) >= 20 * len(runs), [(n, stop) for n, stop, _ in runs]
    for _, _, (a, _) in runs:
        assert a.table.version > a.table.hero_version  # the DM's version counts what the heroes' does not


class TwinDM:
    """A DM agent that plays as the twin harness does: a hidden decision by ``hidden_choice``, the
    n-th public one by a random stream keyed by n."""

    def __init__(self, seed: int) -> None:
        self.seed, self.alone, self.public = seed, [], 0

    def choose(self, game) -> int:
        legal = game.legal_actions()
        if dm_decision_is_hidden(game):
            return hidden_choice(game, legal, self.seed, self.alone)
        self.public += 1
        return random.Random(f"{self.seed}:public:{self.public}").choice([a for a in legal if a != DEFER])


def test_an_agent_dm_plays_its_hidden_decisions_at_once_and_hero_seats_see_the_same(tmp_path):
    """The DM played by an agent: a hero seat's every answer is taken at a decision heroes may know
    of (the DM's hidden decisions are played within the action before them), and is the same in
    both games, ``version`` included."""
    seats = {"hero_0": "human", "hero_1": "human", "hero_2": "human", "dm": "scripted"}
    apart = []
    for adventure, seed in PAIRS[:3]:
        a, b, knowable, exempt = fog_tables(adventure, seed, tmp_path, seats)
        for table in (a, b):
            table._agents["dm"] = TwinDM(seed)
        rng, seen, hidden = random.Random(seed), ([], []), 0
        for _ in range(1500):
            stop = knowable(a.game, b.game) or a.game.agent != b.game.agent
            if (
                stop
                or a.over
                or _others(a._agents["dm"].alone, exempt) != _others(b._agents["dm"].alone, exempt)
            ):
                break
            for table, out in zip((a, b), seen, strict=True):
                assert not table.at_hidden_decision
                out.append([table.view(table.seats[hero].token) for hero in HEROES])
            assert seen[0][-1] == seen[1][-1], f"{adventure} seed {seed}: {_apart(seen[0], seen[1])}"
            if a.ai_to_act():
                if [x for x in a.game.legal_actions() if x != DEFER] != [
                    x for x in b.game.legal_actions() if x != DEFER
                ]:
                    break
                assert a.step_ai() and b.step_ai()
            else:
                action = rng.choice(a.game.legal_actions())
                for table in (a, b):
                    token = table.seats[table.game.agent].token
                    table.act(token, table.version_for(token), action)
            hidden = max(hidden, abs(len(a._agents["dm"].alone) - len(b._agents["dm"].alone)))
        assert len(seen[0]) >= 20, (adventure, seed, len(seen[0]))
        apart.append(hidden)
    assert any(apart), apart  # in some twins the DM took more decisions about the fog goblin


def test_a_hero_seat_version_refuses_stale_clicks_and_the_dm_counts_every_action(tmp_path):
    """Stale-click protection with the heroes' version: a click answering an earlier hero version is
    refused (409), the current one is applied; the DM's seat answers with the DM's version."""
    table, _, _, _ = fog_tables("flooded_cellar", 0, tmp_path, ALL_HUMAN)
    with TestClient(create_app(table, delay=0.0)) as client:
        hero = table.seats["hero_0"].token
        view = client.get(f"/api/seat/{hero}").json()
        assert view["version"] == table.hero_version == 0
        first = table.game.legal_actions()[0]
        assert client.post(f"/api/seat/{hero}/act", json={"decision": 0, "action": first}).status_code == 200
        rng = random.Random(0)
        while table.game.agent != "hero_0" or table.version == table.hero_version:
            assert not table.over, "no DM decision hidden from the heroes before the game ended"
            token = table.seats[table.game.agent].token
            table.act(token, table.version_for(token), rng.choice(table.game.legal_actions()))
        stale = client.post(f"/api/seat/{hero}/act", json={"decision": 0, "action": first})
        assert stale.status_code == 409 and "stale decision 0" in stale.json()["error"]
        version = client.get(f"/api/seat/{hero}").json()["version"]
        assert version == table.hero_version < table.version
        action = table.game.legal_actions()[0]
        assert (
            client.post(f"/api/seat/{hero}/act", json={"decision": version, "action": action}).status_code
            == 200
        )
        assert client.get(f"/api/seat/{table.seats['dm'].token}").json()["version"] == table.version


def test_the_secrecy_rule_is_the_observations_rule_for_the_decision_asked():
    """At every DM decision of random games: heroes see the figure it is about (``heroes_see_unit``)
    exactly when their observation shows the decision's kind; a hero's decision is never hidden."""
    from dungeon_env.observation import unflatten

    seen = hidden = 0
    for adventure, seed in PAIRS:
        env = twins.make_env(adventure, 3, seed)
        rng = random.Random(seed)
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            game = env.game
            unit = int(game.state.stack[-1][STACK_UNIT])
            shown = bool(unflatten(env.observe("hero_0")["observation"])["decision"].any())
            assert heroes_see_unit(game, unit) == shown, (adventure, seed, game.label(unit))
            if agent != "dm":
                assert not dm_decision_is_hidden(game)
            seen += shown
            hidden += not shown
            env.step(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]).tolist()))
    assert seen and hidden, (seen, hidden)
