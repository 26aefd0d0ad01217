"""Decision datasets from a teacher (training.dataset) and behaviour cloning (training.clone)."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import dungeon_env
from dungeon_env.engine.actions import DEFER
from tests import twins
from training.clone import CloneSettings, clone
from training.clone import main as clone_main
from training.dataset import Plan, build_dataset
from training.dataset import main as dataset_main
from training.dataset_files import (
    DECISION_KINDS,
    DM_AGENT,
    DatasetError,
    load_dataset,
    shard_name,
    write_shard,
)


def small_plan(side: str = "heroes", adventure: str = "flooded_cellar", games: int = 2, **kwargs) -> Plan:
    return Plan(
        teacher="scripted@v2",
        opponent="scripted@v2",
        side=side,
        adventures=[adventure],
        parties=[3],
        games=games,
        **kwargs,
    )


@pytest.fixture(scope="module")
def heroes_data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("heroes_data")
    build_dataset(small_plan(games_per_shard=1), folder)
    return folder


def replayed_env(dataset, game: int) -> dungeon_env.raw_env:
    info = dataset.games[game]
    env = dungeon_env.raw_env(
        adventure=info["adventure"], heroes=info["party"], max_turns=dataset.manifest["max_turns"]
    )
    env.reset(seed=info["game_seed"])
    return env


def agent_name(index: int) -> str:
    return "dm" if index == DM_AGENT else f"hero_{index}"


@pytest.mark.parametrize("side", ["heroes", "dm"])
def test_every_stored_decision_is_what_the_env_hands_the_side(tmp_path, side):
    """A replay of each game from its seed and its stored actions: at every stored decision the env
    asks the stored agent, its observation and mask are the stored ones, and the teacher's action is
    the one the game went on with, legal under the mask."""
    build_dataset(small_plan(side, games=1), tmp_path)
    dataset = load_dataset(tmp_path)
    arrays = dataset.arrays
    assert len(dataset) == dataset.games[0]["decisions"] > 50
    env = replayed_env(dataset, 0)
    stored = {int(step): k for k, step in enumerate(arrays["step"])}
    checked = 0
    for step, action in enumerate(dataset.replay_actions(0)):
        k = stored.get(step)
        agent = env.agent_selection
        assert (agent == "dm") == (side == "dm") or k is None, f"step {step}: {agent} is the side's"
        if k is not None:
            assert agent == agent_name(arrays["agent"][k])
            obs = env.observe(agent)
            np.testing.assert_array_equal(obs["observation"], arrays["observation"][k])
            np.testing.assert_array_equal(obs["action_mask"].astype(bool), arrays["action_mask"][k])
            assert arrays["action"][k] == action and obs["action_mask"][action] == 1
            assert dataset.manifest["decision_kinds"][arrays["decision"][k]] == env.infos[agent]["decision"]
            checked += 1
        env.step(action)
    assert checked == len(dataset)
    assert np.isnan(arrays["search_value"]).all()  # a scripted teacher does not search
    assert env.game.over and dataset.games[0]["outcome"] == env.game.outcome
    side_return = dataset.games[0]["side_return"]
    assert np.all(arrays["side_return"] == side_return)
    heroes = 1.0 if env.game.goals_met else -1.0 if env.game.outcome == "failed" else 0.0
    assert side_return == (heroes if side == "heroes" else -heroes)


def test_a_driver_plays_and_the_teacher_labels_the_states_it_reaches(tmp_path):
    """DAgger's data (``driver``): the game goes on with the driver's actions (a random hero here),
    each stored observation is still what the env hands the side at that step, and the stored action
    is the teacher's answer there, legal under the stored mask, often not the one played."""
    from agents import from_spec

    build_dataset(small_plan("heroes", games=1, driver="random", max_turns=20), tmp_path)
    dataset = load_dataset(tmp_path)
    arrays = dataset.arrays
    assert dataset.manifest["driver"] == "random"
    env = replayed_env(dataset, 0)
    teacher = from_spec("scripted@v2", "heroes", env=env)
    stored = {int(step): k for k, step in enumerate(arrays["step"])}
    differs = 0
    for step, played in enumerate(dataset.replay_actions(0)):
        k = stored.get(step)
        if k is not None:
            obs = env.observe(env.agent_selection)
            np.testing.assert_array_equal(obs["observation"], arrays["observation"][k])
            label = int(arrays["action"][k])
            assert arrays["action_mask"][k][label] and label == teacher.act(
                obs["observation"], obs["action_mask"]
            )
            differs += label != played
        env.step(played)
    assert len(stored) == len(dataset) > 20 and differs > len(dataset) // 4
    assert dataset.games[0]["teacher_played"] == len(dataset) - differs


def test_the_search_teacher_leaves_its_value_where_it_searched(tmp_path):
    """With the search v2 as teacher, the decisions where it searched (a hero's Movement it weighed)
    carry the value of its choice, a chance in [0, 1]; every other decision carries NaN."""
    plan = Plan("search[iterations=2]", "scripted@v2", "heroes", ["flooded_cellar"], [3], 1, max_turns=6)
    build_dataset(plan, tmp_path)
    arrays = load_dataset(tmp_path).arrays
    searched = ~np.isnan(arrays["search_value"])
    assert 0 < searched.sum() < len(searched)
    assert np.all((arrays["search_value"][searched] >= 0) & (arrays["search_value"][searched] <= 1))
    assert set(arrays["decision"][searched].tolist()) == {DECISION_KINDS.index("hero_move")}


class Replay:
    """A stored game replayed from its seed and action list, stopping at the side's decisions."""

    def __init__(self, dataset) -> None:
        self.env = replayed_env(dataset, 0)
        self.actions, self.step = dataset.replay_actions(0), 0
        self.decisions = set(dataset.arrays["step"].tolist())

    def to_next_decision(self) -> list[int]:
        """Play the opponent's actions up to the side's next decision; returns those the DM took
        about figures heroes see (its moves in the fog and its ``defer`` are its own business)."""
        seen = []
        while self.step < len(self.actions) and self.step not in self.decisions:
            action = self.actions[self.step]
            if not twins.acting_unseen(self.env.game) and action != DEFER:
                seen.append(action)
            self.env.step(action)
            self.step += 1
        return seen

    def take_decision(self) -> None:
        self.env.step(self.actions[self.step])
        self.step += 1


def test_twin_games_give_the_same_decisions_until_the_difference_is_knowable(tmp_path):
    """A hidden trap moved to another unrevealed square (tests/twins.py): the heroes' datasets of the
    two games are identical, decision by decision, until the trap can be known (found, sprung, a
    figure on either square) or the DM, who knows it, plays a monster heroes see differently."""
    pair = twins.trap_moved(tmp_path / "twins", "goblin_warrens", 1)
    assert pair is not None and not np.array_equal(pair.a.state(), pair.b.state())
    datasets = []
    for k, env in enumerate((pair.a, pair.b)):
        build_dataset(small_plan(adventure=env.adventure, games=1, seed=1), tmp_path / f"data{k}")
        datasets.append(load_dataset(tmp_path / f"data{k}"))
    da, db = datasets
    ra, rb = Replay(da), Replay(db)
    compared, stop = 0, "a game ended"
    for d in range(min(len(da), len(db))):
        dm_a, dm_b = ra.to_next_decision(), rb.to_next_decision()
        stop = pair.knowable(ra.env.game, rb.env.game) or (
            "the DM played differently" if dm_a != dm_b else ""
        )
        if stop:
            break
        for name in ("observation", "action_mask", "action", "decision", "agent"):
            np.testing.assert_array_equal(da.arrays[name][d], db.arrays[name][d], err_msg=f"{name} at {d}")
        compared += 1
        ra.take_decision()
        rb.take_decision()
    assert compared >= 40, (compared, stop)


def test_cloning_a_small_dataset_agrees_with_its_teacher_and_plays(heroes_data, tmp_path):
    """Cloned on two short games (one held out), the policy picks the teacher's action on at least 90%
    of its training decisions; the model loads with MaskablePPO.load and plays as policy:<file>."""
    from sb3_contrib import MaskablePPO

    from agents import from_spec
    from dungeon_env.wrappers import RoleEnv

    settings = CloneSettings(
        data=str(heroes_data), out=str(tmp_path / "run"), epochs=25, batch_size=32, held_out=0.5, seed=0
    )
    metrics = clone(settings)
    assert metrics["train"]["games"] == metrics["held_out"]["games"] == 1
    assert metrics["train"]["agreement"] >= 0.9, metrics["train"]
    assert 0.0 < metrics["held_out"]["agreement"] <= 1.0
    assert metrics["epochs"][-1]["cross_entropy"] < metrics["epochs"][0]["cross_entropy"]
    path = tmp_path / "run" / "model.zip"
    model = MaskablePPO.load(path, device="cpu")
    assert model.observation_space.shape == (dungeon_env.observation.OBS_SPEC.size,)
    env = RoleEnv(role="heroes", opponent="scripted@v2", adventure="flooded_cellar", heroes=3, max_turns=15)
    agent = from_spec(f"policy:{path}", "heroes", env=env.env)
    obs, info = env.reset(seed=5)
    done = False
    while not done:
        obs, _, terminated, truncated, info = env.step(agent.act(obs, env.action_masks()))
        done = terminated or truncated
    assert info["outcome"] in ("completed", "failed", "truncated")


def test_the_loader_refuses_a_broken_shard_and_names_it(heroes_data, tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(heroes_data, folder)
    broken = folder / shard_name(1)
    broken.write_bytes(broken.read_bytes()[:1000])
    with pytest.raises(DatasetError, match=f"{shard_name(1)}: not a readable .npz shard"):
        load_dataset(folder)
    broken.unlink()
    with pytest.raises(DatasetError, match=f"{shard_name(1)}: missing"):
        load_dataset(folder)


def test_the_loader_refuses_a_wrong_shape_and_an_illegal_action(heroes_data, tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(heroes_data, folder)
    path = folder / shard_name(0)
    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files}
    starts = arrays.pop("replay_starts")
    replays = [arrays["replay_actions"][starts[k] : starts[k + 1]] for k in range(len(starts) - 1)]
    write_shard(path, dict(arrays, observation=arrays["observation"][:, :-1]), replays)
    with pytest.raises(DatasetError, match=rf"{shard_name(0)}: observation is float32 of shape .* expected"):
        load_dataset(folder)
    mask = arrays["action_mask"].copy()
    mask[3, arrays["action"][3]] = False
    write_shard(path, dict(arrays, action_mask=mask), replays)
    with pytest.raises(DatasetError, match=f"{shard_name(0)}: a teacher's action is not legal"):
        load_dataset(folder)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--teacher", "nonsense"], "unknown agent 'nonsense'"),
        (["--side", "monsters"], "side must be one of"),
        (["--opponent", "scripted@v9"], "no version 'v9'"),
        (["--heroes", "7"], "a party has 3 to 5 heroes"),
        (["--adventure", "no_such_place"], "no_such_place"),
    ],
)
def test_the_dataset_command_refuses_bad_input_with_exit_code_2(tmp_path, capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        dataset_main([*argv, "--out", str(tmp_path / "x"), "--no-progress"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_clone_command_refuses_missing_data_with_exit_code_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        clone_main(["--data", str(tmp_path / "nothing"), "--out", str(tmp_path / "run")])
    assert stop.value.code == 2
    assert "no such dataset directory" in capsys.readouterr().err


def test_a_tiny_league_run_from_a_clone_updates_the_network(heroes_data, tmp_path):
    """Fine-tuning (``training.league --init-from``) starts from the clone's weights, the same
    network and sizes, and moves them: every tensor keeps its shape and the policy's output and the
    lean network's layer change."""
    from sb3_contrib import MaskablePPO

    from tests.test_training import TINY_PPO, run_script

    settings = CloneSettings(
        data=str(heroes_data), out=str(tmp_path / "clone"), epochs=1, held_out=0.0, net_arch="16"
    )
    clone(settings)
    start = tmp_path / "clone" / "model.zip"
    args = [*TINY_PPO, "--role", "heroes", "--init-from", str(start), "--network", "lean"]
    args += ["--adventures", "flooded_cellar", "--parties", "3", "--max-turns", "6", "--steps", "128"]
    args += ["--learning-rate", "0.0001", "--eval-games", "0", "--pool", str(tmp_path / "pool")]
    args += ["--out", str(tmp_path / "league"), "--no-progress"]
    run_script("training.league", args, tmp_path)

    def weights(path):
        policy = MaskablePPO.load(path, device="cpu").policy
        return {name: p.detach().numpy().copy() for name, p in policy.named_parameters()}

    before, after = weights(start), weights(tmp_path / "league" / "heroes" / "final_model.zip")
    assert before.keys() == after.keys() and all(before[k].shape == after[k].shape for k in before)
    moved = {k for k in before if not np.array_equal(before[k], after[k])}
    assert any(k.startswith("action_net") for k in moved), moved
    assert any(k.startswith("features_extractor.linear") for k in moved), moved
    big = "features_extractor.linear.0.weight"  # moved a little from the clone's, not drawn afresh
    assert np.linalg.norm(after[big] - before[big]) < 0.1 * np.linalg.norm(before[big])  # fresh: ~1.4x
