"""The one episode loop and the one Ending vocabulary (``dungeon_env.episode``, ``dungeon_env.ending``).

- The loop reproduces the games of the loops it replaced: ``tests/data/episode_golden.json`` holds,
  recorded with the code before it (``tasks._play_out``, ``difficulty.play.play_engine_game``), the
  scores, returns, decisions, turns and event-log hashes of 38 ``tasks.measure`` games (campaigns
  included), the shaping of 24 games with every shaping term, and 15 difficulty records.
- The env and the loop pay the same episode, every shaping term and a campaign included.
- Each Ending from a position built by hand; the spellings of older files read as today's.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import dungeon_env
from agents.spec import from_spec
from dungeon_env.aec import IllegalActionWarning
from dungeon_env.ending import (
    GAME_ENDINGS,
    OLD_SPELLINGS,
    Ending,
    campaign_ending_of,
    classify,
    ending_of,
    read_ending,
)
from dungeon_env.engine import Decision, Game
from dungeon_env.engine.actions import END, MOVE_ACTIONS
from dungeon_env.engine.campaign import Campaign
from dungeon_env.episode import agent_seeds, play_episode, seed_agents
from dungeon_env.rewards import outcome_table
from dungeon_env.tasks import TASKS, measure
from dungeon_env.tasks import _start as task_start
from tests.builders import ARENA, PLAIN, arena_game, place, quiet, set_unit

GOLDEN = json.loads((Path(__file__).parent / "data" / "episode_golden.json").read_text())
N, E, S, W = MOVE_ACTIONS


def _hash(events: list[dict]) -> str:
    return hashlib.sha256(json.dumps(events, sort_keys=True).encode()).hexdigest()[:16]


def _id(case: dict) -> str:
    return f"{case['task']}-{case['agent']}-{case['seed']}"


def _pinned(agent: str) -> str:
    """The golden games were recorded with the scripted agents v1: ``scripted`` pinned to it."""
    return "scripted@v1" if agent == "scripted" else agent


# ------------------------------------------------------------------------------------ golden games


@pytest.mark.parametrize("case", GOLDEN["tasks"], ids=_id)
def test_measure_scores_the_golden_games_as_before(case):
    score = measure(case["task"], _pinned(case["agent"]), games=1, seed=case["seed"])
    old = case["score"]
    assert dict(score.ends) == {read_ending(k).value: v for k, v in old["ends"].items()}
    assert (score.wins, score.mean_return, score.mean_turns, score.mean_steps) == (
        old["wins"],
        old["mean_return"],
        old["mean_turns"],
        old["mean_steps"],
    )


def _sides(task, agent: str, seed: int):
    agent, other = _pinned(agent), "scripted@v1"
    heroes = from_spec(agent if task.side == "heroes" else other, "heroes")
    dm = from_spec(agent if task.side == "dm" else other, "dm")
    seed_agents(heroes, dm, seed)
    return heroes, dm


@pytest.mark.parametrize("case", GOLDEN["tasks"], ids=_id)
def test_play_episode_plays_the_golden_games(case):
    """The same event logs, decisions, turns and return, game by game (a campaign's every adventure)."""
    task = TASKS[case["task"]]
    heroes, dm = _sides(task, case["agent"], case["seed"])
    options = task.env_kwargs()
    rewards = outcome_table(
        options.get("reward_completed", 1.0),
        options.get("reward_completed_without_goal", 0.0),
        options.get("reward_failed", -1.0),
        options.get("reward_truncated", 0.0),
    )
    result = play_episode(heroes, dm, task_start(task, case["seed"]), rewards, options.get("shaping"))
    played = [
        {"events": _hash(g.events), "outcome": g.outcome, "goals_met": g.goals_met, "turns": g.state.turn}
        for g in result.games
    ]
    assert played == [{k: g[k] for k in ("events", "outcome", "goals_met", "turns")} for g in case["games"]]
    assert result.steps[task.side] == sum(g["steps"] for g in case["games"])
    assert result.side_return(task.side) == pytest.approx(case["return"], abs=1e-9)


@pytest.mark.parametrize("case", GOLDEN["shaping"], ids=_id)
def test_play_episode_pays_every_shaping_term_as_before(case):
    task = TASKS[case["task"]]
    heroes, dm = _sides(task, case["agent"], case["seed"])
    nothing = outcome_table(0.0, 0.0, 0.0, 0.0)  # the shaping alone
    result = play_episode(heroes, dm, task_start(task, case["seed"]), nothing, case["weights"])
    assert _hash(result.game.events) == case["events"]
    assert result.steps[task.side] == case["steps"]
    assert result.team_return == pytest.approx(case["shaping"], abs=1e-9)


def test_difficulty_engine_games_make_the_golden_records(monkeypatch):
    """The difficulty tool's engine path, now the one loop: the same records (their ``end`` read in
    today's names) from the same event logs."""
    import difficulty.play as play
    from difficulty.record import read_record
    from difficulty.spec import parse_agent

    logs = []
    record_of = play.record_of

    def logged(game, index):
        logs.append(_hash(game.events))
        return record_of(game, index)

    monkeypatch.setattr(play, "record_of", logged)

    def v1(spec: str) -> str:
        """The records were made when ``scripted`` was v1, the frozen reference it still plays."""
        return "scripted@v1" if spec == "scripted" else spec

    for case in GOLDEN["difficulty"]:
        task = case["task"]
        heroes = play.make_side(parse_agent(v1(task["heroes_agent"]), "heroes"), "heroes")
        dm = play.make_side(parse_agent(v1(task["dm_agent"]), "dm"), "dm")
        assert play.play_engine_game(task, case["index"], heroes, dm) == read_record(case["record"])
        assert logs[-1] == case["events"]


# ------------------------------------------------------------------------ one bookkeeping, two paths

ALL_TERMS = {
    "damage": 0.1,
    "kills": 0.3,
    "treasure": 0.2,
    "exploration": 0.05,
    "doors": 0.07,
    "exits": 0.5,
    "goal_exits": 0.25,
    "squares": 0.01,
    "exit_path": 0.4,
    "explored": 0.15,
}


@pytest.mark.parametrize(
    "kwargs",
    [
        {"adventure": "goblin_warrens", "max_turns": 25, "shaping": ALL_TERMS, "reward_truncated": -1.0},
        {"campaign": ["flooded_cellar", "goblin_warrens"], "max_turns": 20, "shaping": {"damage": 0.1}},
    ],
    ids=["every-term", "campaign"],
)
def test_the_env_and_the_loop_pay_the_same_episode(kwargs):
    """The env (a step at a time) and play_episode (a whole episode) ask the same Episode: the same
    return, ending and game, scripted agents seeded alike."""
    seed = 5
    env = dungeon_env.raw_env(heroes=["bram", "tovar", "gunnhild"], **kwargs)
    heroes, dm = from_spec("scripted", "heroes", env=env), from_spec("scripted", "dm", env=env)
    seed_agents(heroes, dm, seed)
    env.reset(seed=seed)
    total, final = 0.0, {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        total += reward if agent == "hero_0" else 0.0
        if terminated or truncated:
            final = final or info
            env.step(None)
            continue
        env.step(int((dm if agent == "dm" else heroes).act(obs["observation"], obs["action_mask"])))
    events = _hash(env.game.events)

    heroes, dm = from_spec("scripted", "heroes"), from_spec("scripted", "dm")
    seed_agents(heroes, dm, seed)
    result = play_episode(heroes, dm, env.episode_start(seed), env.outcome_rewards, env.shaping)
    assert result.team_return == pytest.approx(total, abs=1e-9)
    assert _hash(result.game.events) == events
    assert result.ending is classify(final["outcome"], final["goals_met"])


def test_agent_seeds_are_the_seed_sequence_of_the_game_seed():
    import numpy as np

    assert agent_seeds(7) == tuple(int(x) for x in np.random.SeedSequence(7).generate_state(2))


# ------------------------------------------------------------------------------------ each ending


class Script:
    """Heroes that take the given steps at their Movement decisions, in order, and otherwise do
    nothing they can help (``builders.quiet``)."""

    def __init__(self, *moves: int) -> None:
        self.moves = list(moves)

    def choose(self, game: Game) -> int:
        if self.moves and game.decision[0] == Decision.HERO_MOVE:
            return self.moves.pop(0)
        return quiet(game)


class Nobody:
    def choose(self, game: Game) -> int:  # pragma: no cover - no monster is on the board
        raise AssertionError("the Dungeon Master was asked")


def _arena_with_goal(tmp_path: Path, objective: str) -> str:
    path = tmp_path / "arena.toml"
    path.write_text(Path(ARENA).read_text() + "\n" + objective)
    return str(path)


def _at_the_exit(g: Game) -> Game:
    """hero_0 and hero_2 in corridor o west of the exit (23, 27), hero_1 north of it."""
    place(g, 0, 22, 27)
    place(g, 1, 23, 26)
    place(g, 2, 21, 27)
    return g


def test_every_hero_out_with_the_goals_is_completed_with_goals():
    result = play_episode(Script(E, S, E, E), Nobody(), _at_the_exit(arena_game()))
    assert result.ending is Ending.COMPLETED_WITH_GOALS and result.ending.completed
    assert result.team_return == 1.0 and result.game.state.turn == 1


def test_every_hero_out_without_a_primary_goal_is_completed_without_goals(tmp_path):
    shrine = _arena_with_goal(
        tmp_path, '[[objective]]\nkind = "reach"\ntext = "Find the shrine."\narea = "K"\nprimary = true'
    )
    game = _at_the_exit(Game.new(adventure=shrine, heroes=PLAIN, seed=0))
    result = play_episode(Script(E, S, E, E), Nobody(), game, outcome_table(1.0, 0.25, -1.0, 0.0))
    assert result.ending is Ending.COMPLETED_WITHOUT_GOALS and result.ending.outcome == "completed"
    assert result.team_return == 0.25


def test_every_hero_dead_is_failed():
    """Every hero at Death's Door steps (so none Rests) and rolls 1 at Turn End (as R-END-05)."""
    game = arena_game()
    for u in range(3):
        set_unit(game, u, health=0, deaths_door=True)
    game.dice.force(1, 1, 1)
    result = play_episode(Script(W, END, E, END, E, END), Nobody(), game)
    assert result.ending is Ending.FAILED and game.state.end_reason == "every hero is dead"
    assert result.side_return("dm") == 1.0


def test_the_turn_cap_is_truncated():
    game = arena_game(max_turns=1)
    result = play_episode(Script(), Nobody(), game, outcome_table(1.0, 0.0, -1.0, -1.0))
    assert result.ending is Ending.TRUNCATED and result.team_return == -1.0


def test_an_illegal_action_is_illegal_action():
    env = dungeon_env.env(adventure=ARENA, heroes=PLAIN, max_turns=3)
    env.reset(seed=0)
    with pytest.warns(IllegalActionWarning):
        env.step(999)
    info = env.unwrapped.infos["hero_0"]
    assert classify(info["outcome"], info["goals_met"]) is Ending.ILLEGAL_ACTION


def test_a_game_not_over_has_no_ending():
    with pytest.raises(ValueError, match="unknown outcome ''"):
        ending_of(arena_game())


@pytest.mark.parametrize(
    "outcome, ending",
    [("won", Ending.COMPLETED_WITH_GOALS), ("lost", Ending.FAILED), ("truncated", Ending.TRUNCATED)],
)
def test_a_campaigns_ending(outcome, ending):
    campaign = Campaign(heroes=["bram", "sela", "orwin"], adventures=["flooded_cellar"])
    campaign.outcome = outcome
    assert campaign_ending_of(campaign) is ending


def test_endings_are_their_own_json_and_the_game_endings_are_the_four_columns():
    assert json.dumps({Ending.FAILED: Ending.COMPLETED_WITH_GOALS}) == '{"failed": "completed_with_goals"}'
    assert [e.value for e in GAME_ENDINGS] == [
        "completed_with_goals",
        "completed_without_goals",
        "failed",
        "truncated",
    ]
    assert {e.outcome for e in GAME_ENDINGS} == {"completed", "failed", "truncated"}


# ------------------------------------------------------------------------------- older spellings


@pytest.mark.parametrize(
    "old, new",
    [
        ("with_goals", "completed_with_goals"),
        ("without_goals", "completed_without_goals"),
        ("walked_out", "completed_without_goals"),
        ("completed_without_goal", "completed_without_goals"),
        ("all_dead", "failed"),
        ("failed", "failed"),
        ("truncated", "truncated"),
    ],
)
def test_older_spellings_read_as_todays(old, new):
    assert read_ending(old) == new
    assert set(OLD_SPELLINGS) >= {"with_goals", "without_goals", "walked_out", "all_dead"}


def test_an_unknown_ending_is_refused_with_the_names():
    with pytest.raises(ValueError, match="unknown ending 'won'.*completed_with_goals"):
        read_ending("won")


def test_difficulty_records_and_runs_of_older_versions_still_load(tmp_path):
    """A ``games.jsonl`` written before today (``walked_out``, ``all_dead``) reads with today's names,
    and two such runs still compare (scripts/compare_runs.py)."""
    import sys

    from difficulty.metrics import cell_figures

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    from compare_runs import load, table

    old = [dict(case["record"], cell="a cell") for case in GOLDEN["difficulty"][4:7]]  # goblin_warrens
    assert [r["end"] for r in old] == ["all_dead", "completed_with_goals", "all_dead"]
    for folder in ("before", "after"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in old))
    cells = load(tmp_path / "before")
    assert [r["end"] for r in cells["a cell"]] == ["failed", "completed_with_goals", "failed"]
    assert cell_figures(cells["a cell"])["ends"]["failed"]["count"] == 2
    assert "| 66.7% → 66.7% |" in table(cells, load(tmp_path / "after"))[2]


def test_evaluation_results_of_older_versions_still_load():
    from training.evaluate import format_table, read_result

    saved = {
        "heroes_agent": "random",
        "dm_agent": "random",
        "adventure": "flooded_cellar",
        "games": 4,
        "win_rates": {},
        "counts": {"completed_with_goals": 1, "walked_out": 2, "failed": 1, "truncated": 0},
        "rates": {"completed_with_goals": 0.25, "walked_out": 0.5, "failed": 0.25, "truncated": 0.0},
        "intervals": dict.fromkeys(("completed_with_goals", "walked_out", "failed", "truncated"), [0, 1]),
    }
    result = read_result(saved)
    assert result["counts"]["completed_without_goals"] == 2 and "walked_out" not in result["rates"]
    row = "| completed without every primary goal (the survivors left without them) | 2 | 0.500 |"
    assert row in format_table(result)
