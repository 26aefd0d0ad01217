"""The learning tasks (``dungeon_env.tasks``): every task builds and plays to its end, as the
PettingZoo env, as the Gymnasium env and through ``gymnasium.make``; the cards carry the measured
scores; docs/TASKS.md is what the code generates; doing nothing never wins a hero task."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from agents import IdleAgent
from dungeon_env import describe_action
from dungeon_env.content import load_adventure
from dungeon_env.engine import Game
from dungeon_env.observation import unflatten
from dungeon_env.tasks import (
    BUNDLED,
    HELD_OUT_SEED,
    SIDES,
    TASK_DIR,
    TASKS,
    Task,
    get_task,
    make_task,
    make_task_gym,
    measure,
    task_names,
    tasks_markdown,
    wilson_interval,
)

ROOT = Path(__file__).resolve().parent.parent
CUSTOM = [name for name, task in TASKS.items() if task.adventure not in BUNDLED]
BUNDLED_TASKS = [
    name for name, task in TASKS.items() if task.adventure in BUNDLED and "campaign" not in task.options
]

EASY = [
    "heroes/walk-out",
    "heroes/exit-doors",
    "heroes/one-guard",
    "heroes/retrieve",
    "heroes/trapped-corridor",
]


# ------------------------------------------------------------------------------------------ the list


def test_at_least_twelve_named_tasks_unique_names_and_ids():
    names = task_names()
    assert len(names) >= 12 and len(set(names)) == len(names)
    ids = [TASKS[n].gym_id for n in names]
    assert len(set(ids)) == len(ids)
    for name in names:
        task = TASKS[name]
        assert isinstance(task, Task) and task.name == name
        assert task.side in SIDES and name.startswith(task.side + "/")
        assert task.gym_id == f"dungeon_env/{name.replace('/', '-')}-v1"
        assert get_task(task.gym_id) is task
    for adventure in BUNDLED:
        slug = adventure.replace("_", "-")
        assert f"heroes/{slug}" in TASKS and f"dm/{slug}" in TASKS
    with pytest.raises(KeyError, match="unknown task"):
        get_task("heroes/nowhere")


def test_every_task_file_is_used_and_loads_without_warnings():
    files = sorted(p.stem for p in TASK_DIR.glob("*.toml"))
    used = sorted(Path(TASKS[n].adventure).stem for n in CUSTOM)
    assert files == used
    for name in CUSTOM:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            adventure = load_adventure(TASKS[name].adventure)
        assert adventure.id == Path(TASKS[name].adventure).stem


@pytest.mark.parametrize("name", task_names())
def test_every_task_builds(name):
    task = TASKS[name]
    game = Game.new(adventure=task.adventure, heroes=list(task.heroes), seed=0, max_turns=task.max_turns)
    assert not game.over and game.hero_ids == list(task.heroes)
    kwargs = task.env_kwargs()
    assert kwargs["adventure"] == task.adventure and kwargs["max_turns"] == task.max_turns
    kwargs["heroes"].append("x")
    kwargs.get("shaping", {}).clear()
    fresh = task.env_kwargs()  # a fresh copy every time
    assert fresh["heroes"] == list(task.heroes) and fresh.get("shaping") == task.options.get("shaping")
    if task.side == "heroes":
        assert task.options["reward_truncated"] == -1.0


# ------------------------------------------------------------------------------------------ the cards


@pytest.mark.parametrize("name", task_names())
def test_cards_say_what_is_learned_the_reward_the_length_and_the_scores(name):
    task = TASKS[name]
    card = task.card
    for part in ("Learns:", "Reward:", f"at most {task.max_turns} turns", "Score, scripted", "Score, random"):
        assert part in card, (name, part)
    assert "95% Wilson" in card and f"{HELD_OUT_SEED:,}" in card
    for who in ("scripted", "random"):
        score = task.scores[who]
        assert score.games == 200 and sum(v for _, v in score.ends) == score.games
        assert score.text() in card
    if task.side == "heroes":
        assert task.scores["idle"].wins == 0
        assert "stalling is as bad as dying" in card


def test_the_scripted_side_does_better_than_the_random_side():
    for name, task in TASKS.items():
        scripted, random = task.scores["scripted"], task.scores["random"]
        assert scripted.rate >= random.rate, name
        if scripted.rate > random.rate:  # where neither side wins (the campaign) the returns are the
            assert scripted.mean_return >= random.mean_return, name  # ways of losing, -1.2 and -1.195
        if name in CUSTOM:
            assert scripted.rate > random.rate, name
    for name in EASY:
        assert TASKS[name].scores["scripted"].rate >= 0.9, name


def test_docs_tasks_md_is_what_the_code_generates():
    assert (ROOT / "docs" / "TASKS.md").read_text() == tasks_markdown()


def test_wilson_interval():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(93, 100)
    assert 0.86 < lo < 0.87 and 0.96 < hi < 0.97
    assert wilson_interval(0, 200)[0] == 0.0 and wilson_interval(200, 200)[1] == 1.0


# ------------------------------------------------------------------------------------------ playing


@pytest.mark.parametrize("name", CUSTOM)
def test_small_tasks_play_to_their_end_with_random_and_scripted_agents(name):
    for agent in ("random", "scripted"):
        score = measure(name, agent, games=2, seed=7)
        assert score.games == 2 and sum(v for _, v in score.ends) == 2
        assert 0 < score.mean_turns <= TASKS[name].max_turns


@pytest.mark.parametrize("name", EASY)
def test_doing_nothing_loses_the_easy_hero_tasks(name):
    score = measure(name, "idle", games=2, seed=HELD_OUT_SEED)
    assert score.wins == 0 and dict(score.ends)["truncated"] == 2
    assert score.mean_return == -1.0  # stalling is paid like dying


def _play_aec(env, seed: int, policy) -> dict:
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _reward, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else policy(agent, obs["action_mask"]))
    return info


@pytest.mark.parametrize(
    "name", ["heroes/flooded-cellar", "dm/flooded-cellar", "heroes/guards", "dm/ambush", "heroes/campaign"]
)
def test_pettingzoo_env_plays_to_its_end_with_random_and_scripted_agents(name):
    from agents import ScriptedDM, ScriptedHeroes

    env = make_task(name, max_turns=4)  # a short cap: the point is that the task's env runs
    assert env.unwrapped.game is None and env.unwrapped.max_turns == 4
    rng = np.random.default_rng(0)
    info = _play_aec(env, 1, lambda agent, mask: int(rng.choice(np.flatnonzero(mask))))
    assert info["outcome"] in ("completed", "failed", "truncated")
    heroes, dm = ScriptedHeroes(env=env), ScriptedDM(env=env, seed=0)
    info = _play_aec(env, 2, lambda agent, mask: (dm if agent == "dm" else heroes).act(None, mask))
    assert info["outcome"] in ("completed", "failed", "truncated")


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test_on_a_task():
    from pettingzoo.test import api_test

    api_test(make_task("heroes/walk-out"), num_cycles=50)


def test_make_task_passes_overrides_and_the_task_options():
    env = make_task("heroes/trapped-corridor", max_turns=5, render_mode="ansi")
    raw = env.unwrapped
    assert raw.max_turns == 5 and raw.render_mode == "ansi"
    assert raw.options["reward_truncated"] == -1.0 and raw.options["shaping"] == {"damage": 0.05}
    assert raw.hero_ids == ["bram", "ysolde", "hob"]


@pytest.mark.parametrize("name", ["heroes/exit-doors", "dm/small-dungeon"])
def test_gymnasium_env_plays_to_its_end_with_random_and_scripted_learning_side(name):
    from agents.spec import from_spec

    task = TASKS[name]
    env = make_task_gym(name)
    assert env.role == task.side
    for agent in (IdleAgent(), from_spec("random", task.side, seed=0)):
        obs, info = env.reset(seed=3)
        done, steps = False, 0
        while not done:
            action = agent.act(obs, env.action_masks().astype(np.int8))
            obs, reward, terminated, truncated, info = env.step(action)
            done, steps = terminated or truncated, steps + 1
        assert info["outcome"] in ("completed", "failed", "truncated") and steps > 0
    scripted = from_spec("scripted", task.side, env=env)
    obs, info = env.reset(seed=4)
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(scripted.act(obs, env.action_masks()))
        done = terminated or truncated
    assert info["outcome"] in ("completed", "failed", "truncated")


INFO_KEYS = {"agent", "decision", "unit", "outcome", "reason", "objectives", "goals_met"}


@pytest.mark.parametrize("name", task_names())
def test_the_turn_cap_ends_every_hero_task_terminated_and_every_dm_task_truncated(name):
    """The turn cap (issue 48): every hero task pays -1 for it and the observation shows the clock,
    so it ends the episode ``terminated``; no Dungeon Master task pays for it, so it is a time limit
    that ends it ``truncated`` and pays nothing. Played to the cap (``max_turns=3``: the bundled
    adventures' monsters are met after a turn or two) through ``gymnasium.make``, random on both
    sides; the infos keep the same keys at every step."""
    import gymnasium

    task = TASKS[name]
    env = gymnasium.make(task.gym_id, opponent="random", max_turns=3)
    keys = INFO_KEYS | ({"campaign"} if "campaign" in task.options else set())
    rng = np.random.default_rng(0)
    for seed in range(10):  # a game that reaches the cap (random heroes rarely get out so soon)
        obs, info = env.reset(seed=seed)
        infos, total, ends = [info], 0.0, (False, False)
        while not any(ends):
            action = int(rng.choice(np.flatnonzero(env.unwrapped.action_masks())))
            obs, reward, *ends, info = env.step(action)
            infos.append(info)
            total += reward
        assert all(set(info) == keys for info in infos)
        if info["outcome"] == "truncated":
            break
    assert info["outcome"] == "truncated" and env.unwrapped.env.game.state.turn == 3
    assert unflatten(obs)["turn"].tolist() == [1.0]  # the clock, as the learning side sees it
    if task.side == "heroes":
        assert tuple(ends) == (True, False)
        if "shaping" not in task.options:
            assert total == -1.0
    else:
        assert tuple(ends) == (False, True) and total == 0.0


def test_make_task_gym_takes_another_opponent_and_the_dict_observation():
    env = make_task_gym("dm/ambush", opponent="random", observation_format="dict", max_turns=3)
    obs, _info = env.reset(seed=0)
    assert set(obs) >= {"board", "figures", "context"} and env.env.max_turns == 3
    assert type(env.opponent).__name__ == "RandomOpponent"


def test_gymnasium_checker_passes_on_a_task():
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(make_task_gym("heroes/walk-out"), skip_render_check=True)
        check_env(make_task_gym("dm/ambush"), skip_render_check=True)


@pytest.mark.parametrize("name", ["heroes/trapped-corridor", "heroes/campaign"])
def test_measure_returns_what_the_env_pays(name):
    """``measure`` plays on the bare engine; the same game through the env (same seed, agents seeded
    alike) pays the same return, shaping included; a campaign's adventures alike."""
    from dungeon_env.episode import agent_seeds

    seed = HELD_OUT_SEED if name == "heroes/trapped-corridor" else 1  # a campaign of 3 adventures
    score = measure(name, "scripted@v1", games=1, seed=seed)  # the v1 classes of scripted_aec_return
    expected = score.mean_return
    total, env = scripted_aec_return(name, seed, agent_seeds=agent_seeds(seed))
    assert total == pytest.approx(expected)
    if name == "heroes/trapped-corridor":
        assert -1.0 < expected < 1.0  # completed, minus the traps
    else:
        history = env.unwrapped.campaign.history
        assert len(history) > 1 and sum(h["outcome"] == "completed" for h in history) >= 1


# ------------------------------------------------------------------------------------------ Gymnasium


def test_gymnasium_make_in_a_fresh_interpreter():
    """The ``module:id`` form imports the tasks itself; after ``import dungeon_env.tasks`` the plain id
    works; ``import dungeon_env`` alone stays light (no tasks, no Gymnasium)."""
    code = "\n".join(
        [
            "import sys, warnings",
            "warnings.simplefilter('ignore')",
            "import dungeon_env",
            "assert 'dungeon_env.tasks' not in sys.modules and 'gymnasium' not in sys.modules",
            "import gymnasium",
            "env = gymnasium.make('dungeon_env.tasks:dungeon_env/heroes-walk-out-v1')",
            "obs, info = env.reset(seed=0)",
            "mask = env.unwrapped.action_masks()",
            "assert obs.shape == env.observation_space.shape and mask.any()",
            "obs, reward, terminated, truncated, info = env.step(int(mask.nonzero()[0][0]))",
            "env = gymnasium.make('dungeon_env/dm-ambush-v1', opponent='random', max_turns=2)",
            "env.reset(seed=1)",
            "assert env.unwrapped.role == 'dm' and env.unwrapped.env.max_turns == 2",
            "ids = [i for i in gymnasium.registry if i.startswith('dungeon_env/')]",
            "import dungeon_env.tasks as t",
            "assert sorted(ids) == sorted(task.gym_id for task in t.TASKS.values())",
            "print('ok')",
        ]
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().endswith("ok")


def test_the_command_line_prints_the_table_and_measures():
    from dungeon_env.tasks import main, tasks_table

    assert tasks_table().splitlines()[0].startswith("| task | side |")
    assert main(["--measure", "heroes/walk-out", "--games", "1", "--agent", "idle"]) == 0


def scripted_aec_return(
    name: str, seed: int, agent_seeds: tuple[int, int] | None = None, **overrides
) -> tuple[float, object]:
    """hero_0's return (the team's) of one game of task ``name`` played by the scripted agents
    through the AEC env, and the env; the heroes and the DM seeded with ``agent_seeds`` (default
    ``seed`` both)."""
    from agents import ScriptedDM, ScriptedHeroes

    env = make_task(name, **overrides)
    heroes, dm = ScriptedHeroes(env=env), ScriptedDM(env=env)
    hero_seed, dm_seed = agent_seeds or (seed, seed)
    heroes.seed(hero_seed)
    dm.seed(dm_seed)
    env.reset(seed=seed)
    total = 0.0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        total += reward if agent == "hero_0" else 0.0
        player = dm if agent == "dm" else heroes
        env.step(None if terminated or truncated else player.act(obs["observation"], obs["action_mask"]))
    return total, env


def test_goal_exits_pays_every_hero_who_leaves_once_the_crown_is_in_hand():
    """``goal_exits`` on heroes/retrieve won by the scripted heroes: the first heroes out make way
    for the crown's carrier, the crown already in hand, so every exit earns ``w`` (as ``exits``
    pays them), not only the carrier's and those after it."""
    seed = HELD_OUT_SEED
    with_exits, env = scripted_aec_return("heroes/retrieve", seed, shaping={"exits": 1.0})
    with_goals, env2 = scripted_aec_return("heroes/retrieve", seed, shaping={"goal_exits": 1.0})
    game = env2.unwrapped.game
    assert env.unwrapped.game.events == game.events and game.goals_met  # the same game, won (+1)
    exits = [e["unit"] for e in game.events if e["type"] == "exit"]
    crown = game.item_index["jewelled_crown"]
    holder = next(int(game.state.item_holder[i]) for i, c in enumerate(game.state.item_card) if c == crown)
    assert exits.index(game.label(holder)) > 0  # someone left before the crown's carrier
    assert with_goals == with_exits == pytest.approx(1.0 + len(exits))


def test_goal_exits_charges_a_hero_who_walks_out_before_the_crown_is_found():
    """heroes/retrieve: hero_0 put beside the exit steps out on turn 1, nobody holding the crown:
    ``goal_exits`` charges ``w``; given the crown face up first, the same step earns ``w``."""
    from builders import give_item, place

    for crown_in_hand, expected in ((False, -0.5), (True, 0.5)):
        env = make_task("heroes/retrieve", shaping={"goal_exits": 0.5})
        env.reset(seed=HELD_OUT_SEED)
        game = env.unwrapped.game
        place(game, 0, 0, 4)
        if crown_in_hand:
            give_item(game, 1, "jewelled_crown", known=True)
        mask = env.last()[0]["action_mask"]
        (leave,) = [a for a in np.flatnonzero(mask) if "leave the dungeon" in describe_action(game, int(a))]
        env.step(int(leave))
        assert [e["unit"] for e in game.events if e["type"] == "exit"] == ["hero_0"]
        assert env.rewards["hero_0"] == pytest.approx(expected)


def test_goal_exits_is_exits_where_the_one_primary_goal_is_to_escape():
    seed = HELD_OUT_SEED
    with_exits, _ = scripted_aec_return("heroes/one-guard", seed, shaping={"exits": 1.0})
    with_goals, _ = scripted_aec_return("heroes/one-guard", seed, shaping={"goal_exits": 1.0})
    assert with_goals == with_exits == pytest.approx(1.0 + 3)
