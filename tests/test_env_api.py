"""The PettingZoo environment keeps PettingZoo's contracts: api_test, seed_test, masks, dead agents,
rewards, illegal actions, and the same trajectory from the same seed in any process."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import dungeon_env
from dungeon_env.aec import IllegalActionWarning
from dungeon_env.engine import IllegalActionError
from dungeon_env.engine.actions import MOVE_ACTIONS
from dungeon_env.engine.game import Game
from dungeon_env.engine.state import ACTIVE
from dungeon_env.observation import unflatten
from dungeon_env.tasks import make_task
from tests.builders import ARENA, PLAIN, arena_variant, idle, place

N, E, S, W = MOVE_ACTIONS

ADVENTURE = "flooded_cellar"


def play(env, seed: int, rng: random.Random, on_step=None, limit: int = 100_000) -> None:
    """Random legal play of one episode through the AEC API; ``on_step(env, agent, obs)`` before each step."""
    env.reset(seed=seed)
    for agent in env.agent_iter(limit):
        obs, _reward, terminated, truncated, _info = env.last()
        if on_step:
            on_step(env, agent, obs)
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("heroes", [3, 5])
def test_pettingzoo_api_test(heroes):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about things it only recommends
        api_test(dungeon_env.env(adventure=ADVENTURE, heroes=heroes, max_turns=6), num_cycles=300)


def test_pettingzoo_seed_test():
    seed_test(lambda: dungeon_env.env(adventure=ADVENTURE, heroes=4, max_turns=8), num_cycles=300)


def test_agents_share_one_observation_space_and_one_action_space():
    env = dungeon_env.env(adventure=ADVENTURE, heroes=4)
    env.reset(seed=0)
    assert env.possible_agents == ["hero_0", "hero_1", "hero_2", "hero_3", "dm"]
    assert len({id(env.observation_space(a)) for a in env.possible_agents}) == 1
    assert len({id(env.action_space(a)) for a in env.possible_agents}) == 1
    space = env.observation_space("dm")
    assert space["observation"].dtype == np.float32 and space["action_mask"].dtype == np.int8


@pytest.mark.parametrize("adventure", ["flooded_cellar", "goblin_warrens", "warlocks_crypt"])
def test_the_mask_holds_exactly_the_legal_actions_of_the_agent_asked(adventure):
    env = dungeon_env.env(adventure=adventure, heroes=4, max_turns=25)
    raw = env.unwrapped
    seen_agents = set()

    def check(env, agent, obs):
        if env.terminations[agent] or env.truncations[agent]:
            return
        assert agent == raw.game.agent, "agent_selection follows the engine's pending decision"
        seen_agents.add(agent)
        mask = obs["action_mask"]
        assert mask.any(), f"all-zero mask for {agent}"
        assert np.flatnonzero(mask).tolist() == raw.game.legal_actions()
        other = next(a for a in env.agents if a != agent)
        assert not env.observe(other)["action_mask"].any(), "only the agent asked has legal actions"
        info = env.infos[agent]
        assert info["decision"] and info["unit"]

    for seed in range(4):  # random heroes meet no monster in some games (then the DM is never asked)
        play(env, seed, random.Random(seed), check)
    assert "dm" in seen_agents and any(a.startswith("hero_") for a in seen_agents)


def returns_by_agent(env, seed: int, rng: random.Random) -> tuple[dict[str, float], set[str]]:
    """Random legal play, read as RLlib's and Tianshou's PettingZoo wrappers read it: an agent's
    reward is what ``last()`` gives when the agent is selected. Returns each agent's episode return
    and the heroes seen off the board (exited or dead) while the game went on. Checks on the way
    that every agent stays in play until the end, that only heroes still on the board are selected,
    and that all agents end on the same step."""
    env.reset(seed=seed)
    raw, returns, gone_early = env.unwrapped, dict.fromkeys(env.possible_agents, 0.0), set()
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        returns[agent] += reward
        if terminated or truncated:
            if len(env.agents) == len(env.possible_agents):  # the first closing step
                ended = {a for a in env.agents if env.terminations[a] or env.truncations[a]}
                assert ended == set(env.possible_agents), "all agents end on the same step"
            env.step(None)
            continue
        assert env.agents == env.possible_agents, "every agent is in play until the episode ends"
        assert not any(env.terminations.values()) and not any(env.truncations.values())
        status = raw.game.state.unit_status
        gone_early |= {a for h, a in enumerate(env.possible_agents[:-1]) if status[h] != ACTIVE}
        assert agent not in gone_early, "a hero who left the board is never selected"
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return returns, gone_early


def test_every_hero_gets_the_team_outcome_and_every_agent_ends_on_the_same_step():
    """Item 13 of issue 10: a hero who exits or dies is not cut off with 0; every hero's return is
    the team's, the DM's its opposite, and all agents end together."""
    env = dungeon_env.env(adventure=ADVENTURE, heroes=4, max_turns=40, shaping={"kills": 0.5})
    raw = env.unwrapped
    early = 0
    for seed in range(12):
        returns, gone_early = returns_by_agent(env, seed, random.Random(seed))
        heroes = [returns[a] for a in env.possible_agents if a != "dm"]
        assert heroes == [heroes[0]] * len(heroes), f"seed {seed}: {returns}"
        assert returns["dm"] == pytest.approx(-heroes[0])
        kills = sum(e["type"] == "slain" for e in raw.events) - sum(e["type"] == "death" for e in raw.events)
        assert heroes[0] == pytest.approx(0.5 * kills + raw.outcome_reward())
        early += bool(gone_early)
    assert early, "no hero left play before the end in 12 random games"


@pytest.fixture(scope="module")
def shrine_arena(tmp_path_factory) -> str:
    """The test arena with a second primary goal, a room the heroes never visit here."""
    goal = '[[objective]]\nkind = "reach"\ntext = "Find the shrine in room K."\narea = "K"\nprimary = true\n'
    return arena_variant(tmp_path_factory.mktemp("goals"), "shrine_arena", goal)


def walk_out_on_turn_two(env) -> tuple[list[tuple[str, float]], dict[str, dict]]:
    """The test arena's heroes by its exit (23,27): hero_0 steps out on turn 1; hero_1 and hero_2
    wait a turn, then step out on turn 2. Returns the ``(agent, reward)`` pairs ``last()`` gave and
    every agent's final info."""
    env.reset(seed=0)
    g = env.unwrapped.game
    place(g, 0, 22, 27)
    place(g, 1, 23, 26)
    place(g, 2, 21, 27)
    plan = {1: {"hero_0": [E]}, 2: {"hero_1": [S], "hero_2": [E, E]}}
    seen, finals = [], {}
    for agent in env.agent_iter(200):
        _obs, reward, terminated, truncated, info = env.last()
        seen.append((agent, reward))
        if terminated or truncated:
            finals[agent] = info
            env.step(None)
            continue
        assert agent != "hero_0" or g.state.turn == 1, "a hero who left is never selected"
        if g.state.turn == 2:
            assert "hero_0" in env.agents and not env.terminations["hero_0"]
        todo = plan.get(g.state.turn, {}).get(agent)
        env.step(todo.pop(0) if todo else idle(g))
    return seen, finals


def test_a_hero_who_exits_first_gets_the_completion_reward_at_the_end():
    env = dungeon_env.env(adventure=ARENA, heroes=PLAIN)
    seen, finals = walk_out_on_turn_two(env)
    game = env.unwrapped.game
    assert game.outcome == "completed" and game.state.turn == 2 and game.goals_met
    assert [e["unit"] for e in game.events if e["type"] == "exit"] == ["hero_0", "hero_1", "hero_2"]
    returns = {a: sum(r for b, r in seen if b == a) for a in env.possible_agents}
    assert returns == {"hero_0": 1.0, "hero_1": 1.0, "hero_2": 1.0, "dm": -1.0}
    assert seen[-4:] == [("hero_0", 1.0), ("hero_1", 1.0), ("hero_2", 1.0), ("dm", -1.0)]  # at the end
    for info in finals.values():
        assert info["outcome"] == "completed" and info["goals_met"] is True
        assert info["objectives"] == [
            {"kind": "escape", "text": "Walk out at the far corner.", "primary": True, "met": True}
        ]


@pytest.mark.parametrize("options, heroes_get", [({}, 0.0), ({"reward_completed_without_goal": 0.25}, 0.25)])
def test_walking_out_without_the_primary_goal_pays_reward_completed_without_goal(
    shrine_arena, options, heroes_get
):
    env = dungeon_env.env(adventure=shrine_arena, heroes=PLAIN, **options)
    seen, finals = walk_out_on_turn_two(env)
    game = env.unwrapped.game
    assert game.outcome == "completed" and not game.goals_met
    assert [(o["kind"], o["met"]) for o in finals["dm"]["objectives"]] == [("escape", True), ("reach", False)]
    assert all(info["goals_met"] is False for info in finals.values())
    returns = {a: sum(r for b, r in seen if b == a) for a in env.possible_agents}
    assert returns == {"hero_0": heroes_get, "hero_1": heroes_get, "hero_2": heroes_get, "dm": -heroes_get}
    assert env.unwrapped.options["reward_completed_without_goal"] == heroes_get


@pytest.mark.filterwarnings("ignore::dungeon_env.aec.IllegalActionWarning")  # illegal on purpose
def test_an_illegal_action_after_a_hero_left_ends_every_agent_with_the_penalty_for_the_offender():
    env = dungeon_env.env(adventure=ARENA, heroes=PLAIN, illegal_action="penalize")
    env.reset(seed=0)
    g = env.unwrapped.game
    place(g, 0, 22, 27)
    env.step(E)  # hero_0 leaves the dungeon
    assert env.agent_selection == "hero_1" and "hero_0" in env.agents
    env.step(int(np.flatnonzero(env.observe("hero_1")["action_mask"] == 0)[0]))
    assert all(env.terminations.values()) and set(env.terminations) == set(env.possible_agents)
    finals = {}
    while env.agents:
        finals[env.agent_selection] = env.last()[1]
        assert env.infos[env.agent_selection]["outcome"] == "illegal_action"
        env.step(None)
    assert finals == {"hero_0": 0.0, "hero_1": -1.0, "hero_2": 0.0, "dm": 0.0}


@pytest.mark.parametrize(("paid", "terminated"), [(0.25, True), (-1.0, True), (0.0, False)])
def test_the_turn_cap_terminates_when_the_task_pays_for_it_and_truncates_paying_nothing_when_not(
    paid, terminated
):
    env = dungeon_env.env(adventure=ADVENTURE, heroes=3, max_turns=2, reward_truncated=paid)
    finals, ends = {}, set()

    def record(env, agent, obs):
        if env.terminations[agent] or env.truncations[agent]:
            finals[agent] = env._cumulative_rewards[agent]
            ends.add((env.terminations[agent], env.truncations[agent]))
            info = env.infos[agent]
            assert info["outcome"] == "truncated" and info["goals_met"] is False  # the game's name
            assert [o["kind"] for o in info["objectives"]] == [
                o.kind for o in env.unwrapped.game.tables.adventure.objectives
            ]
            assert unflatten(obs)["turn"].tolist() == [1.0]  # the clock the observation shows

    play(env, 3, random.Random(3), record)
    assert env.unwrapped.game.outcome == "truncated"
    assert ends == {(terminated, not terminated)}  # every agent ends the same way
    assert env.unwrapped.time_limit_reached() is (not terminated)
    # a cap that pays 0 is a time limit, and a truncation pays nothing
    assert finals == {"hero_0": paid, "hero_1": paid, "hero_2": paid, "dm": -paid}
    assert env.agents == []


def test_every_info_of_every_agent_has_the_same_keys_at_every_step_of_whole_episodes():
    """Steady infos (issue 48): the same keys, the same types, never None, from reset to the end,
    for each way an episode ends (completed, failed, the cap as an end or as a time limit, an
    illegal action); with info_events the ``events`` key is there at every step too."""
    base = {"decision": str, "unit": str, "outcome": str, "reason": str}
    base |= {"objectives": list, "goals_met": bool}
    runs = [
        ({"max_turns": 2}, 3),
        ({"max_turns": 2, "reward_truncated": -1.0}, 4),
        ({"max_turns": 100, "info_events": True}, 5),
        ({"adventure": "warlocks_crypt", "max_turns": 100}, 3),
        (make_task("heroes/walk-out").unwrapped.options, 8),
    ]
    outcomes = set()
    for options, seed in runs:
        env = dungeon_env.env(**{"adventure": ADVENTURE, "heroes": 3, **options})
        keys = base | ({"events": list} if options.get("info_events") else {})
        n_goals = None

        def check(env, agent, obs, keys=keys):
            nonlocal n_goals
            for a in env.agents:
                info = env.infos[a]
                assert set(info) == set(keys), (a, sorted(info))
                assert all(isinstance(info[k], kind) for k, kind in keys.items()), info
                assert all(set(goal) == {"kind", "text", "primary", "met"} for goal in info["objectives"])
                n_goals = len(info["objectives"]) if n_goals is None else n_goals
                assert len(info["objectives"]) == n_goals
            info = env.infos[agent]
            if env.terminations[agent] or env.truncations[agent]:
                assert info["outcome"] and (info["decision"], info["unit"]) == ("", "")
            else:
                assert info["decision"] and info["unit"] and info["outcome"] == ""
                assert info["goals_met"] is False and not any(goal["met"] for goal in info["objectives"])

        play(env, seed, random.Random(seed), check)
        outcomes.add(env.unwrapped.game.outcome)
    assert outcomes == {"truncated", "failed", "completed"}  # random heroes: die, stall, walk out


def test_an_illegal_action_keeps_the_info_keys_steady():
    env = dungeon_env.env(adventure=ADVENTURE, heroes=3)
    env.reset(seed=0)
    keys = set(env.infos["hero_0"])
    agent = env.agent_selection
    with pytest.warns(IllegalActionWarning):
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0]))
    assert all(set(env.infos[a]) == keys for a in env.agents)
    assert env.infos[agent]["outcome"] == "illegal_action" and env.infos[agent]["decision"] == ""


def test_failure_gives_the_heroes_minus_one_and_the_dm_plus_one(monkeypatch):
    env = dungeon_env.env(adventure=ADVENTURE, heroes=3)
    env.reset(seed=1)
    game = env.unwrapped.game

    def apply_and_lose(action):
        Game.apply(game, action)
        game.finish("failed", "test: the party falls")

    monkeypatch.setattr(game, "apply", apply_and_lose)
    agent = env.agent_selection
    env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards == {"hero_0": -1.0, "hero_1": -1.0, "hero_2": -1.0, "dm": 1.0}
    assert env.infos["dm"]["outcome"] == "failed" and env.infos["dm"]["goals_met"] is False
    while env.agents:
        agent = env.agent_selection
        assert env.last()[1] == (1.0 if agent == "dm" else -1.0)
        env.step(None)


def test_shaping_is_off_by_default_and_zero_sum_when_on():
    plain = dungeon_env.raw_env(adventure=ADVENTURE, heroes=3, max_turns=6)
    shaped = dungeon_env.raw_env(
        adventure=ADVENTURE, heroes=3, max_turns=6, shaping={"exploration": 0.1, "damage": 0.01, "kills": 0.5}
    )
    totals = {"plain": 0.0, "heroes": 0.0, "dm": 0.0}
    for name, env in (("plain", plain), ("shaped", shaped)):
        rng = random.Random(5)
        env.reset(seed=5)
        while env.agents:
            agent = env.agent_selection
            done = env.terminations[agent] or env.truncations[agent]
            env.step(None if done else int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
            if not done and name == "plain":
                totals["plain"] += abs(env.side_rewards["heroes"])
            elif not done:
                totals["heroes"] += env.side_rewards["heroes"]
                totals["dm"] += env.side_rewards["dm"]
    assert totals["plain"] == 0.0
    assert totals["heroes"] != 0.0 and totals["heroes"] == pytest.approx(-totals["dm"])
    with pytest.raises(ValueError, match="unknown terms"):
        dungeon_env.raw_env(adventure=ADVENTURE, shaping={"gold": 1.0})


def test_an_illegal_action_raises_a_clear_error_in_the_raw_env():
    env = dungeon_env.raw_env(adventure=ADVENTURE, heroes=3)
    env.reset(seed=2)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match=rf"{agent} cannot play action {illegal} .*legal: "):
        env.step(illegal)
    with pytest.raises(IllegalActionError):
        env.step(None)
    assert env.agent_selection == agent, "a refused action changes nothing"


def test_env_raises_when_asked_to():
    env = dungeon_env.env(adventure=ADVENTURE, heroes=3, illegal_action="raise")
    env.reset(seed=2)
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=f"cannot play action {illegal} "):
        env.step(illegal)


def test_penalize_ends_the_episode_with_the_penalty_for_the_offender():
    """``env()`` penalizes by default (PettingZoo classic's TerminateIllegalWrapper rule), with a
    warning that names the offender and the action."""
    env = dungeon_env.env(adventure=ADVENTURE, heroes=3, illegal_reward=-2.0)
    env.reset(seed=2)
    offender = env.agent_selection
    mask = env.observe(offender)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.warns(
        IllegalActionWarning, match=rf"{offender} cannot play action {illegal} .*-2.0 for {offender}"
    ):
        env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[offender] == -2.0 and sum(env.rewards.values()) == -2.0
    assert "cannot play action" in env.infos[offender]["reason"]
    finals = {}
    while env.agents:
        agent = env.agent_selection
        finals[agent] = env.last()[1]
        assert not env.observe(agent)["action_mask"].any()
        env.step(None)
    assert finals[offender] == -2.0 and all(v == 0.0 for a, v in finals.items() if a != offender)


def test_bad_options_fail_at_construction_with_the_reason():
    with pytest.raises(ValueError, match="illegal_action"):
        dungeon_env.env(illegal_action="ignore")
    with pytest.raises(ValueError, match="reward_completed_without_goal must be a number.*'half'"):
        dungeon_env.env(reward_completed_without_goal="half")
    with pytest.raises(ValueError, match="reward_failed must be a finite number"):
        dungeon_env.env(reward_failed=float("nan"))
    with pytest.raises(ValueError, match="render_mode"):
        dungeon_env.env(render_mode="svg")
    with pytest.raises(ValueError, match="unknown hero"):
        dungeon_env.env(heroes=["bram", "sela", "nobody"])
    with pytest.raises(ValueError, match="3-5"):
        dungeon_env.env(heroes=2)


def test_reset_without_a_seed_continues_reproducibly_from_the_last_seed():
    a, b = dungeon_env.raw_env(adventure=ADVENTURE), dungeon_env.raw_env(adventure=ADVENTURE)
    a.reset(seed=9)
    b.reset(seed=9)
    a.reset()
    b.reset()
    assert a.episode_seed == b.episode_seed and a.events == b.events


def test_the_package_import_is_light_and_env_is_callable():
    code = (
        "import sys, dungeon_env; assert not {'pettingzoo', 'gymnasium'} & set(sys.modules);"
        "from dungeon_env.aec import raw_env; e = dungeon_env.env(); e.reset(seed=0);"
        "print(e.agent_selection)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().startswith("hero_")


_DIGEST_SCRIPT = """
import hashlib, json, random, numpy as np, dungeon_env
env = dungeon_env.env(adventure="flooded_cellar", heroes=4, max_turns=12)
env.reset(seed=1234)
rng = random.Random(99)
for agent in env.agent_iter():
    obs, _r, te, tr, _i = env.last()
    env.step(None if te or tr else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
print(hashlib.sha256(json.dumps(env.unwrapped.events, sort_keys=True).encode()).hexdigest())
"""


def test_the_same_seed_in_two_processes_gives_identical_event_logs():
    digests = [
        subprocess.run(
            [sys.executable, "-c", _DIGEST_SCRIPT], capture_output=True, text=True, check=True
        ).stdout
        for _ in range(2)
    ]
    env = dungeon_env.env(adventure=ADVENTURE, heroes=4, max_turns=12)
    play(env, 1234, random.Random(99))
    here = hashlib.sha256(json.dumps(env.unwrapped.events, sort_keys=True).encode()).hexdigest()
    assert digests[0] == digests[1] and digests[0].strip() == here


def test_the_env_card_groups_the_action_table_as_the_code_does():
    import re

    from dungeon_env.engine import Action

    rows = re.findall(r"^\| (\d+)-(\d+) \| (.+?) \|", dungeon_env.aec.__doc__, re.M)
    assert rows, "the card has the action groups table"
    covered = []
    for first, last, names in rows:
        listed = re.findall(r"`(\w+)`", names)
        assert Action[listed[0].upper()] == int(first) and Action[listed[-1].upper()] == int(last)
        covered += range(int(first), int(last) + 1)
    assert covered == list(range(len(Action))), "the groups cover the whole table, in order"
