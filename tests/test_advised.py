"""Advised policies (issue 5): the advised observation's layout, the AdvisedRoleEnv a library can
train on, an untrained advised policy that plays exactly as its scripted advisor, the export to a
small file, and the shipped policies, which load by default and finish games."""

from __future__ import annotations

import numpy as np
import pytest

from agents import PolicyAgent, ScriptedDM, ScriptedHeroes
from agents.advised import ADVISED_SIZE, COMPACT_SIZE, AdvisedObserver, advised_observation, role_of
from agents.policy import default_path
from dungeon_env.content import adventure_names
from dungeon_env.engine import Game
from dungeon_env.engine.actions import N_ACTIONS
from dungeon_env.observation import OBS_SPEC

ADVENTURE = "flooded_cellar"


def test_advised_observation_is_the_compact_pieces_then_the_advice_one_hot():
    flat = np.arange(OBS_SPEC.size, dtype=np.float32)
    out = advised_observation(flat, 7)
    assert out.shape == (ADVISED_SIZE,) and ADVISED_SIZE == COMPACT_SIZE + N_ACTIONS
    dropped = np.concatenate([np.arange(OBS_SPEC.size)[OBS_SPEC.slice(n)] for n in ("board", "item_table")])
    kept = np.setdiff1d(np.arange(OBS_SPEC.size), dropped)
    np.testing.assert_array_equal(out[:COMPACT_SIZE], kept)  # every other piece, in order
    advice = out[COMPACT_SIZE:]
    assert advice.sum() == 1 and advice[7] == 1
    assert advised_observation(flat, None)[COMPACT_SIZE:].sum() == 0


def test_role_of_names_and_rejects_unknown_agents():
    assert role_of("dm")[1] == -1 and role_of("hero_2")[1] == 2
    with pytest.raises(ValueError, match="hero_<k>"):
        role_of("heroine")


def test_advisor_advice_is_the_scripted_agents_choice():
    g = Game.new(adventure=ADVENTURE, heroes=3, seed=5, max_turns=30)
    observer, scripted = AdvisedObserver("heroes", seed=1), ScriptedHeroes(seed=1)
    dm = ScriptedDM(game=g, seed=5)
    seen = 0
    while not g.over and seen < 60:
        if g.agent == "dm":
            g.apply(dm.choose(g))
            continue
        obs, mask = observer.from_game(g)
        expected = scripted.choose(g)
        assert np.flatnonzero(obs[COMPACT_SIZE:]).tolist() == [expected] and mask[expected]
        g.apply(expected)
        seen += 1
    assert seen > 20


@pytest.fixture(scope="module")
def advised_checkpoint(tmp_path_factory):
    """An advised DM policy after 64 steps of training: its logits are still mostly the advice."""
    pytest.importorskip("sb3_contrib")
    from training.train_role import main

    runs = tmp_path_factory.mktemp("runs")
    summary = main(
        [
            "--role", "dm", "--opponent", "scripted_heroes", "--advised", "--total-timesteps", "64",
            "--n-envs", "1", "--n-steps", "64", "--batch-size", "32", "--n-epochs", "1",
            "--net-arch", "16", "--max-turns", "8", "--eval-games", "0", "--runs-dir", str(runs),
        ]
    )  # fmt: skip
    return runs / summary["run"] / "final_model.zip"


def test_untrained_advised_policy_plays_exactly_as_its_advisor(advised_checkpoint):
    g = Game.new(adventure=ADVENTURE, heroes=3, seed=11, max_turns=25)
    policy = PolicyAgent(advised_checkpoint, role="dm", game=g, seed=3)
    assert policy.advised
    advisor, heroes = ScriptedDM(seed=3), ScriptedHeroes(game=g, seed=11)
    decisions = 0
    while not g.over:
        if g.agent != "dm":
            g.apply(heroes.choose(g))
            continue
        action = policy.choose(g)
        assert action == advisor.choose(g)
        g.apply(action)
        decisions += 1
    assert decisions > 5


def test_make_agent_plays_a_policy_spec_greedily_and_a_path_sampled(advised_checkpoint):
    from training.common import make_agent

    greedy = make_agent(f"policy:{advised_checkpoint}", "dm", seed=1)
    sampled = make_agent(str(advised_checkpoint), "dm", seed=1)
    assert isinstance(greedy, PolicyAgent) and greedy.deterministic
    assert isinstance(sampled, PolicyAgent) and not sampled.deterministic


def test_advised_policy_without_a_game_says_what_it_needs(advised_checkpoint):
    policy = PolicyAgent(advised_checkpoint, role="dm")
    obs = np.zeros(OBS_SPEC.size, np.float32)
    with pytest.raises(RuntimeError, match="needs the game"):
        policy.act(obs, np.ones(N_ACTIONS, np.int8))


@pytest.mark.filterwarnings("ignore::dungeon_env.aec.IllegalActionWarning")  # it steps unmasked
def test_advised_role_env_passes_sb3s_env_checker():
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env

    from training.common import make_role_env

    env = make_role_env("heroes", "scripted_dm", {"adventure": ADVENTURE, "heroes": 3, "max_turns": 6}, True)
    check_env(env, warn=False)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (ADVISED_SIZE,) and obs[COMPACT_SIZE:].sum() == 1
    assert env.action_masks()[int(np.argmax(obs[COMPACT_SIZE:]))]


def test_export_makes_a_small_file_that_plays_the_same(advised_checkpoint, tmp_path):
    from training.export import export

    out = export(advised_checkpoint, tmp_path / "small.zip")
    assert out.stat().st_size < advised_checkpoint.stat().st_size / 2
    g = Game.new(adventure=ADVENTURE, heroes=3, seed=2, max_turns=10)
    big, small = (PolicyAgent(p, role="dm", game=g) for p in (advised_checkpoint, out))
    while g.agent != "dm":
        g.apply(ScriptedHeroes(game=g).choose(g))
    obs, _ = big.observe(g)
    np.testing.assert_allclose(big.logits(obs), small.logits(obs), atol=2e-2)


@pytest.mark.parametrize("role", ["heroes", "dm"])
@pytest.mark.parametrize("adventure", adventure_names())
def test_shipped_policy_loads_by_default_and_finishes_a_game_on_every_adventure(role, adventure):
    pytest.importorskip("sb3_contrib")
    assert default_path(role).is_file(), f"the shipped {role} policy is missing"
    assert default_path(role).stat().st_size < 8_000_000
    import dungeon_env
    from tests.test_agents import Checked

    party = 3 + adventure_names().index(adventure) % 3  # 3, 4 and 5 heroes among the adventures
    env = dungeon_env.env(adventure=adventure, heroes=party)
    sides = {
        "heroes": PolicyAgent(role="heroes", env=env) if role == "heroes" else ScriptedHeroes(env=env),
        "dm": PolicyAgent(role="dm", env=env) if role == "dm" else ScriptedDM(env=env, seed=1),
    }
    checked = Checked(sides[role])
    env.reset(seed=4)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        side = "dm" if agent == "dm" else "heroes"
        actor = checked if side == role else sides[side]
        env.step(actor.act(obs["observation"], obs["action_mask"]))
    assert env.unwrapped.game.outcome in ("completed", "failed", "truncated")
    assert checked.calls > 10
