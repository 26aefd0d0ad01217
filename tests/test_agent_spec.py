"""The one agent-spec language (``agents.spec``): every form builds the agent it names, every mistake
names the text and what is accepted, and the three tools that take specs (``training.common.make_agent``,
``difficulty.play.make_side``, ``dungeon_env.wrappers.make_opponent``) build the same agents as
``agents.from_spec``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import dungeon_env
from agents import (
    AgentSpec,
    AgentSpecError,
    CheckpointNotFoundError,
    PolicyAgent,
    PoolAgent,
    RandomAgent,
    RunawayDM,
    ScriptedDM,
    ScriptedDMV2,
    ScriptedHeroes,
    ScriptedHeroesV2,
    SearchAgent,
    from_spec,
    parse_spec,
)
from agents.spec import LATEST_SCRIPTED, SCRIPTED_AGENTS, SCRIPTED_VERSIONS, describe, known_names
from agents.turn_search import TurnSearchAgent
from difficulty.play import make_side
from difficulty.spec import SpecError, parse_agent
from dungeon_env.wrappers import RandomOpponent, RoleEnv, make_opponent
from training.common import make_agent

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def checkpoint(tmp_path) -> str:
    """A file where a checkpoint would be (PolicyAgent loads the model at first use only)."""
    path = tmp_path / "heroes_final.zip"
    path.write_bytes(b"not loaded by these tests")
    return str(path)


# ------------------------------------------------------------------------------------ every form
@pytest.mark.parametrize(
    "text, side, cls",
    [
        ("random", "heroes", RandomAgent),
        ("random", "dm", RandomAgent),
        ("scripted", "heroes", ScriptedHeroesV2),
        ("scripted", "dm", ScriptedDMV2),
        ("scripted_heroes", "heroes", ScriptedHeroesV2),
        ("scripted_dm", "dm", ScriptedDMV2),
        ("scripted@v1", "heroes", ScriptedHeroes),
        ("scripted@v1", "dm", ScriptedDM),
        ("scripted@v2", "heroes", ScriptedHeroesV2),
        ("scripted_dm@v2", "dm", ScriptedDMV2),
        ("scripted_heroes@v1", "heroes", ScriptedHeroes),
        (" scripted@v1 ", "dm", ScriptedDM),
        ("runaway", "dm", RunawayDM),
        ("runaway_dm", "dm", RunawayDM),
        ("search@v1", "heroes", SearchAgent),
        ("search@v1", "dm", SearchAgent),
        ("search", "heroes", TurnSearchAgent),
        ("search", "dm", TurnSearchAgent),
        (" scripted ", "dm", ScriptedDMV2),
    ],
)
def test_names_build_their_agents(text, side, cls):
    agent = from_spec(text, side, seed=3)
    assert type(agent) is cls
    for method in ("act", "seed", "bind"):  # the agent protocol: callers need no probing
        assert callable(getattr(agent, method))


def test_search_options_in_brackets_and_by_keyword(checkpoint):
    agent = from_spec("search@v1[rollouts=8,seconds=0.5,depth=100,rollout=random]", "dm", seed=1)
    assert (agent.rollouts, agent.seconds, agent.depth, agent.rollout) == (8, 0.5, 100, "random")
    assert from_spec("search[seconds=none]", "heroes").seconds is None
    networks = from_spec(f"search@v1[rollout=policy,policy={checkpoint}]", "heroes")
    assert (networks.rollout, networks.policy) == ("policy", checkpoint)
    with pytest.raises(
        AgentSpecError, match=r"rollout=policy .* give it as policy=FILE\.zip \(no policy ships"
    ):
        parse_spec("search@v1[rollout=policy]", "heroes")
    with pytest.raises(CheckpointNotFoundError, match="no checkpoint file at missing.zip"):
        parse_spec("search@v1[rollout=policy,policy=missing.zip]", "heroes")
    assert from_spec("search@v1[rollouts=8]", "heroes", rollouts=2).rollouts == 2  # keywords win
    assert from_spec("search", "heroes").rng.random() == from_spec("search", "heroes").rng.random()
    assert from_spec("search@v1", "heroes").rng.random() == from_spec("search@v1", "heroes").rng.random()
    spec = parse_spec("search@v1[rollouts=8,depth=100]", "dm")
    assert spec == AgentSpec("search", (("rollouts", 8), ("depth", 100)), version="v1")
    v2 = from_spec("search[iterations=6,candidates=4,horizon=0,margin=0.05]", "heroes")
    assert (v2.iterations, v2.candidates, v2.horizon, v2.margin) == (6, 4, 0, 0.05)
    assert parse_spec("search", "dm").version == "v2" and parse_spec("search", "dm").label == "search@v2"
    with pytest.raises(AgentSpecError, match="search takes no option 'rollouts'"):
        parse_spec("search[rollouts=8]", "heroes")  # v1's option: the latest takes iterations
    assert spec.to_json() == "search@v1[rollouts=8,depth=100]"


@pytest.mark.parametrize("side", ["heroes", "dm"])
@pytest.mark.parametrize("text", ["policy", " policy ", "policy[deterministic=false]", "policy@v1"])
def test_no_policy_ships_under_the_bare_name(text, side):
    """Issue 53: the shipped networks are retired; ``policy`` names a checkpoint file only."""
    with pytest.raises(AgentSpecError) as info:
        parse_spec(text, side)
    message = str(info.value)
    assert repr(text.strip()) in message
    assert "no policy ships under the name 'policy'" in message and "policy:FILE.zip" in message
    with pytest.raises(AgentSpecError, match="no policy ships under the name 'policy'"):
        parse_spec(AgentSpec("policy"), side)  # built by hand without a file


def test_a_policy_file_is_played_greedily_unless_told(checkpoint):
    greedy = from_spec(f"policy:{checkpoint}", "heroes")
    assert isinstance(greedy, PolicyAgent) and greedy.deterministic
    assert not from_spec(f"policy:{checkpoint}[deterministic=false]", "heroes").deterministic


def test_checkpoints_greedy_with_policy_prefix_and_sampled_as_a_bare_path(checkpoint):
    greedy, sampled = from_spec(f"policy:{checkpoint}", "dm"), from_spec(checkpoint, "heroes")
    assert (greedy.path, greedy.role, greedy.deterministic) == (Path(checkpoint), "dm", True)
    assert (sampled.path, sampled.role, sampled.deterministic) == (Path(checkpoint), "heroes", False)
    assert from_spec(f"{checkpoint}[deterministic=true]", "heroes").deterministic
    assert (
        parse_spec(checkpoint, "heroes").is_checkpoint
        and parse_spec(checkpoint, "dm").label == "heroes_final"
    )
    assert from_spec(Path(checkpoint), "dm").path == Path(checkpoint)


def test_a_pool_draws_the_sides_checkpoints_and_plays_its_base_while_empty(tmp_path, checkpoint):
    pool = from_spec(f"pool:{tmp_path}[window=3,base=scripted]", "dm", seed=0)
    assert isinstance(pool, PoolAgent) and pool.window == 3 and isinstance(pool.base, ScriptedDM)
    assert pool.current is pool.base  # nothing in the pool yet
    (tmp_path / "dm_g0001.zip").write_bytes(b"")
    pool.seed(1)
    assert isinstance(pool.current, PolicyAgent) and not pool.current.deterministic
    assert pool.current.path.name == "dm_g0001.zip" and pool.current.role == "dm"


def test_an_agent_object_is_returned_as_it_is_and_a_parsed_spec_is_accepted():
    class Mine:
        def act(self, observation, action_mask):
            return int(np.flatnonzero(action_mask)[0])

    mine = Mine()
    assert from_spec(mine, "heroes") is mine
    spec = parse_spec("scripted", "dm")
    assert type(from_spec(spec, "dm")) is ScriptedDMV2
    assert parse_spec(spec, "dm") is spec


def test_seed_and_env_reach_the_agent():
    env = dungeon_env.env(adventure="flooded_cellar", heroes=3, max_turns=5)
    env.reset(seed=0)
    heroes = from_spec("scripted", "heroes", env=env)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"][heroes.act(obs["observation"], obs["action_mask"])]
    assert from_spec("scripted", "dm", seed=5).rng.random() == ScriptedDM(seed=5).rng.random()
    a, b = from_spec("random", "dm", seed=7), from_spec("random", "dm", seed=7)
    mask = np.zeros(20, np.int8)
    mask[[2, 5, 11]] = 1
    assert [a.act(None, mask) for _ in range(30)] == [b.act(None, mask) for _ in range(30)]


@pytest.mark.parametrize(
    "text, side",
    [
        ("scripted", "heroes"),
        ("scripted@v1", "dm"),
        ("scripted_heroes@v2", "heroes"),
        ("runaway", "dm"),
        ("search@v1[rollouts=8,seconds=0.5,depth=100,rollout=random]", "heroes"),
        ("policy:CHECKPOINT[deterministic=false]", "dm"),
        ("random", "dm"),
    ],
)
def test_the_canonical_text_reads_back_to_the_same_spec(text, side, checkpoint):
    spec = parse_spec(text.replace("CHECKPOINT", checkpoint), side)
    assert parse_spec(spec.to_json(), side) == spec and str(spec) == spec.to_json()


# ------------------------------------------------------------------------------------ mistakes
def test_an_unknown_name_is_named_with_what_is_accepted():
    with pytest.raises(AgentSpecError) as info:
        from_spec("wizard", "dm")
    message = str(info.value)
    assert "unknown agent 'wizard' for the dm" in message
    for accepted in ("scripted", "random", "search[", "runaway", "policy:<file>.zip", "pool:<dir>"):
        assert accepted in message
    assert "scripted_heroes" not in message  # only what the side takes
    assert "policy" not in known_names() and "search, policy" not in message  # no bare policy ships


@pytest.mark.parametrize(
    "text, named",
    [
        ("search[rolouts=8]", "takes no option 'rolouts'; its options are iterations (int)"),
        ("search@v1[rolouts=8]", "takes no option 'rolouts'; its options are rollouts (int)"),
        ("search@v1[rollouts=many]", "rollouts=many of search should be int"),
        ("search@v1[rollout=greedy]", "should be scripted|random"),
        ("search[iterations]", "key=value"),
        ("scripted[depth=3]", "scripted_dm takes no option 'depth'; it takes no options"),
        ("policy:CHECKPOINT[deterministic=maybe]", "should be bool"),
        ("search@v1[rollouts=8", "one pair of brackets"),
        ("search@v1[rollouts=8]x", "one pair of brackets"),
        ("pool:runs/p[base=wizard]", "its base agent: unknown agent 'wizard'"),
        ("pool:", "no directory"),
    ],
)
def test_a_bad_option_or_form_names_the_text(text, named, checkpoint):
    text = text.replace("CHECKPOINT", checkpoint)
    with pytest.raises(AgentSpecError, match=r"agent '.*'") as info:
        parse_spec(text, "dm")
    assert named in str(info.value) and text.split("[")[0] in str(info.value)


def test_a_bad_keyword_option_is_refused_too():
    with pytest.raises(AgentSpecError, match="search takes no option 'speed'"):
        from_spec("search", "dm", speed=3)
    with pytest.raises(AgentSpecError, match="rollouts=fast of search should be int"):
        from_spec("search@v1", "dm", rollouts="fast")


def test_a_missing_checkpoint_is_a_spec_error_and_a_missing_file(tmp_path):
    for text in (str(tmp_path / "nowhere.zip"), f"policy:{tmp_path / 'nowhere.zip'}", "runs/x/dm_final"):
        with pytest.raises(CheckpointNotFoundError, match="no checkpoint file at") as info:
            from_spec(text, "dm")
        assert isinstance(info.value, FileNotFoundError) and isinstance(info.value, ValueError)
        assert repr(text) in str(info.value)


def test_a_checkpoint_of_another_observation_size_is_refused_naming_both_sizes(tmp_path):
    """Issue 53: the older observation layouts are retired; a checkpoint trained on one is refused
    when its spec is read (before any game) and when it is loaded, never played through a mapping."""
    pytest.importorskip("sb3_contrib")
    from agents.policy import CheckpointLayoutError
    from dungeon_env.engine.actions import N_ACTIONS
    from dungeon_env.observation import OBS_SPEC
    from tests.checkpoints import checkpoint_of_size

    old = str(checkpoint_of_size(tmp_path / "old.zip", 7, N_ACTIONS))
    for text in (f"policy:{old}", old, f"search@v1[rollout=policy,policy={old}]"):
        with pytest.raises(AgentSpecError) as info:
            parse_spec(text, "heroes")
        message = str(info.value)
        assert repr(text) in message and "old.zip reads observations of 7 floats" in message
        assert f"today's observation has {OBS_SPEC.size}" in message and "retired in issue 53" in message
    with pytest.raises(SpecError, match="retired in issue 53"):
        parse_agent(f"policy:{old}", "dm")
    with pytest.raises(CheckpointLayoutError, match=f"7 floats; today's observation has {OBS_SPEC.size}"):
        _ = PolicyAgent(old, role="heroes").model
    other_table = str(checkpoint_of_size(tmp_path / "table.zip", OBS_SPEC.size, 5))
    with pytest.raises(
        AgentSpecError, match=f"chooses among 5 actions; today's action table has {N_ACTIONS}"
    ):
        parse_spec(other_table, "dm")


@pytest.mark.parametrize(
    "text, side", [("scripted_dm", "heroes"), ("runaway", "heroes"), ("scripted_heroes", "dm")]
)
def test_an_agent_of_the_other_side_is_refused(text, side):
    with pytest.raises(AgentSpecError, match=f"agent '{text}' plays the other side") as info:
        from_spec(text, side)
    assert f"the {side} take" in str(info.value)


def test_a_bad_side_and_a_non_agent_are_refused():
    with pytest.raises(AgentSpecError, match="side must be one of"):
        from_spec("random", "monsters")
    with pytest.raises(TypeError, match=r"act\(observation, action_mask\)"):
        from_spec(object(), "dm")
    with pytest.raises(TypeError, match="options"):
        from_spec(RandomAgent(0), "dm", rollouts=3)


# ------------------------------------------------------------------------------------ the three tools
def _fingerprint(agent) -> tuple:
    """What tells two built agents apart: the class and the settings it plays by."""
    keys = ("role", "path", "deterministic", "rollouts", "seconds", "depth", "rollout", "window")
    return (type(agent).__name__, *(getattr(agent, k, None) for k in keys))


@pytest.mark.parametrize(
    "text, side",
    [
        ("scripted", "heroes"),
        ("scripted", "dm"),
        ("runaway_dm", "dm"),
        ("search@v1[rollouts=4,depth=20]", "heroes"),
        ("CHECKPOINT", "dm"),
        ("policy:CHECKPOINT", "heroes"),
    ],
)
def test_make_agent_make_side_and_make_opponent_build_what_from_spec_builds(text, side, checkpoint):
    text = text.replace("CHECKPOINT", checkpoint)
    expected = _fingerprint(from_spec(text, side, seed=1))
    assert _fingerprint(make_agent(text, side, seed=1)) == expected
    assert _fingerprint(make_side(parse_agent(text, side), side)) == expected
    assert _fingerprint(make_side(text, side)) == expected
    assert _fingerprint(make_opponent(text, side=side)) == expected


def test_random_is_the_same_player_everywhere():
    """``make_opponent("random")`` stays in dungeon_env (``RandomOpponent``); it plays exactly as the
    ``RandomAgent`` the others build, given the same seed."""
    mask = np.zeros(30, np.int8)
    mask[[1, 4, 9, 16, 25]] = 1
    players = [from_spec("random", "dm"), make_agent("random", "dm"), make_side("random", "dm")]
    opponent = make_opponent("random")
    assert isinstance(opponent, RandomOpponent) and all(isinstance(p, RandomAgent) for p in players)
    picks = []
    for player in [*players, opponent]:
        player.seed(11)
        picks.append([player.act(None, mask) for _ in range(40)])
    assert all(p == picks[0] for p in picks)


def test_role_env_takes_any_spec_as_its_opponent():
    env = RoleEnv(role="heroes", opponent="scripted", adventure="flooded_cellar", heroes=3, max_turns=4)
    assert type(env.opponent) is ScriptedDMV2
    pinned = RoleEnv(role="dm", opponent="scripted@v1", adventure="flooded_cellar", heroes=3)
    assert type(pinned.opponent) is ScriptedHeroes
    env.reset(seed=0)
    rng, done = np.random.default_rng(0), False
    while not done:
        _obs, _reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(env.action_masks())))
        )
        done = terminated or truncated
    assert info["outcome"] in ("completed", "failed", "truncated")
    with pytest.raises(ValueError, match="which side"):
        make_opponent("scripted")


def test_difficulty_reads_specs_as_spec_errors(checkpoint):
    with pytest.raises(SpecError, match="unknown agent 'wizard'"):
        parse_agent("wizard", "dm")
    with pytest.raises(SpecError, match="no checkpoint"):
        parse_agent("missing/heroes.zip", "heroes")
    assert parse_agent(f"policy:{checkpoint}", "dm") == parse_spec(f"policy:{checkpoint}", "dm")


def test_dungeon_env_stays_importable_and_random_playable_without_agents():
    """``dungeon_env.wrappers`` imports no agent at import time; ``"random"`` needs none at all."""
    code = (
        "import sys; sys.modules['agents'] = None\n"
        "from dungeon_env.wrappers import RoleEnv\n"
        "env = RoleEnv(role='dm', opponent='random', adventure='flooded_cellar', heroes=3, max_turns=3)\n"
        "env.reset(seed=0)\n"
        "assert not any(m == 'agents' or m.startswith('agents.') for m in sys.modules if sys.modules[m])\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


@pytest.mark.parametrize("side", ["heroes", "dm"])
def test_trained_is_retired_until_a_policy_plays_differently(side):
    """Issue 49: no shipped policy chooses differently from the scripted agents, so no agent is
    called trained; issue 53: none ships at all. The error says what to use instead."""
    with pytest.raises(AgentSpecError, match="'trained'.*no trained policy ships yet") as info:
        parse_spec("trained", side)
    assert "'scripted'" in str(info.value) and "policy:FILE.zip" in str(info.value)
    assert "'policy'" not in str(info.value)


@pytest.mark.parametrize(
    "text, side, start",
    [
        ("scripted", "heroes", f"the scripted agents {LATEST_SCRIPTED}"),
        ("scripted_dm", "dm", f"the scripted agents {LATEST_SCRIPTED}"),
        ("scripted@v1", "dm", "the scripted agents v1, the frozen reference of 2026-12-06"),
        (
            "scripted_heroes@v2",
            "heroes",
            "the scripted agents v2: heroes that end their turns together",
        ),
        ("runaway", "dm", "the DM only"),
        ("policy:CHECKPOINT", "heroes", "a MaskablePPO checkpoint of your own, played greedily"),
        ("CHECKPOINT", "heroes", "a MaskablePPO checkpoint of your own, its actions sampled"),
        ("search@v1[rollouts=4]", "heroes", "Monte Carlo search"),
        ("random", "dm", "a uniformly random legal action"),
    ],
)
def test_every_agent_has_one_plain_line(text, side, start, checkpoint):
    line = describe(text.replace("CHECKPOINT", checkpoint), side)
    assert line.startswith(start) and "\n" not in line


# ------------------------------------------------------------------------------------ versions
def test_plain_scripted_is_the_latest_version_and_every_version_is_named():
    assert SCRIPTED_VERSIONS == ("v1", "v2") and SCRIPTED_VERSIONS[-1] == LATEST_SCRIPTED
    assert all(set(classes) == set(SCRIPTED_VERSIONS) for classes in SCRIPTED_AGENTS.values())
    for side, name in (("heroes", "scripted_heroes"), ("dm", "scripted_dm")):
        for text in ("scripted", name):
            spec = parse_spec(text, side)
            assert (spec.name, spec.version) == (name, LATEST_SCRIPTED)
            assert spec == parse_spec(f"scripted@{LATEST_SCRIPTED}", side)
        assert parse_spec("scripted@v1", side).to_json() == f"{name}@v1"
        assert AgentSpec(name) == parse_spec("scripted", side)  # built by hand: the latest too
    assert parse_spec("random", "dm").version is None


def test_a_version_is_in_the_canonical_text_and_the_label():
    v1, v2 = parse_spec("scripted@v1", "heroes"), parse_spec("scripted", "dm")
    assert (v1.to_json(), v1.label) == ("scripted_heroes@v1", "scripted@v1")
    assert (v2.to_json(), v2.label) == ("scripted_dm@v2", "scripted@v2")
    assert parse_agent("scripted@v1", "heroes") == v1
    assert v1 != parse_spec("scripted@v2", "heroes")


@pytest.mark.parametrize(
    "text, named",
    [
        ("scripted@v3", "no version 'v3'"),
        ("scripted@", "no version ''"),
        ("scripted_dm@V2", "no version 'V2'"),
        ("search@v3", "no version 'v3'"),
        ("random@v1[seed=1]", "random has no versions"),
    ],
)
def test_an_unknown_version_names_the_versions_there_are(text, named):
    with pytest.raises(AgentSpecError) as info:
        parse_spec(text, "dm")
    message = str(info.value)
    assert repr(text) in message and named in message
    assert "scripted@v1, scripted@v2" in message
    assert f"plain scripted is the latest, {LATEST_SCRIPTED}" in message
    assert "search@v1, search@v2" in message


def test_a_pool_base_takes_a_version_and_a_path_may_hold_the_mark(tmp_path):
    spec = parse_spec(f"pool:{tmp_path}[base=scripted@v1]", "dm")
    assert type(from_spec(spec, "dm").base) is ScriptedDM
    with pytest.raises(AgentSpecError, match="its base agent: agent 'scripted@v9'"):
        parse_spec(f"pool:{tmp_path}[base=scripted@v9]", "dm")
    path = tmp_path / "run@2" / "heroes_final.zip"
    path.parent.mkdir()
    path.write_bytes(b"not loaded")
    assert parse_spec(str(path), "heroes").path == str(path)
