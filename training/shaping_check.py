"""Does a shaping recipe pay for winning? The shaped return of the scripted and of random play.

    python -m training.shaping_check --tasks heroes/flooded-cellar,heroes/walk-out --games 20
    python -m training.shaping_check --tasks all --train-shaping "goal_exits=0.3,exit_path=1"

A recipe adds rewards to the task's own (``--train-shaping`` of ``training.benchmark``). Terms that
pay for what a game does rather than for where it ends (a new square, a kill, a point of damage) can
add up to more over a game that never wins than the task's +1 for a win: on the bundled
``flooded-cellar`` the recipe of 2026-12-01 paid random heroes +14.1 a game, 0 won, and the scripted
heroes +11.3, 10 of 10 won. A learner that follows the rewards then has no reason to win.

For each task this plays ``--games`` games of the learning side's scripted agent and as many of its
random agent (seeds ``--seed``, ``--seed`` + 1, ..., against the task's default opponent) in the
training env, with the recipe, and prints their win rates and mean returns, and a warning for each
task where random play earns at least as much as the scripted side (no verdict where the scripted
side won no more games than random play)."""

from __future__ import annotations

import dataclasses
from typing import Any

from training.common import parse_settings

# each player's agent spec: the scripted side the task cards were measured with (v1,
# dungeon_env.tasks.SCRIPTED), and random play
PLAYERS = {"scripted": "scripted@v1", "random": "random"}


@dataclasses.dataclass
class CheckSettings:
    """Check that a training shaping recipe pays the scripted side's play more than random play."""

    tasks: str = "all"
    """comma-separated task names (dungeon_env.tasks.task_names()), or all"""
    train_shaping: str = "auto"
    """the recipe, as training.benchmark's --train-shaping: name=weight comma-separated; auto: the
    heroes' recipe on hero tasks, none on the Dungeon Master's; '' for none"""
    games: int = 20
    """games for each player and task"""
    seed: int = 1
    """the first game's seed (game k plays on seed + k)"""


def shaped_returns(
    task_name: str, train_shaping: str, games: int, seed: int = 1
) -> dict[str, dict[str, Any]]:
    """The scripted and the random learning side's games of a task in its training env (the task's
    rewards plus ``train_shaping``): for each player, the win rate and the mean return."""
    from dungeon_env.tasks import get_task
    from training.benchmark import agent_chooser, play_games, training_kwargs

    task = get_task(task_name)
    shaping = training_kwargs(task, train_shaping).get("shaping")
    return {
        player: play_games(task_name, agent_chooser(spec, task.side), games, seed, shaping=shaping)
        for player, spec in PLAYERS.items()
    }


def pays_for_winning(results: dict[str, dict[str, Any]]) -> bool:
    """Whether the scripted side earned more than random play under the recipe."""
    return results["scripted"]["mean_return"] > results["random"]["mean_return"]


def _signed(value: float) -> str:
    """``value`` to two decimals with its sign, never ``-0.00``."""
    text = f"{value:+.2f}"
    return "+0.00" if text == "-0.00" else text


def report_line(task_name: str, results: dict[str, dict[str, Any]]) -> str:
    """One Markdown table row: the task, each player's win rate and mean return, the verdict (none
    where the scripted side won no more games than random play: there is no win to pay for)."""
    scripted, random = results["scripted"], results["random"]
    cells = [f"{results[p]['win_rate']:.0%} won, {_signed(results[p]['mean_return'])}" for p in PLAYERS]
    margin = scripted["mean_return"] - random["mean_return"]
    if scripted["win_rate"] <= random["win_rate"]:
        verdict = "no verdict: the scripted side won no more games than random play"
    elif pays_for_winning(results):
        verdict = f"pays the scripted play {_signed(margin)} more"
    else:
        verdict = f"**random play earns as much or more ({_signed(-margin)})**: a learner is not paid to win"
    return f"| `{task_name}` | {cells[0]} | {cells[1]} | {verdict} |"


def check(settings: CheckSettings) -> dict[str, dict[str, dict[str, Any]]]:
    """Play every task of ``settings`` and print the table; the results by task."""
    from dungeon_env.tasks import task_names

    if settings.games < 1:
        raise SystemExit(f"--games must be at least 1, got {settings.games}")
    names = task_names() if settings.tasks == "all" else [n.strip() for n in settings.tasks.split(",")]
    unknown = [n for n in names if n not in task_names()]
    if unknown:
        raise SystemExit(f"--tasks: unknown task(s) {unknown}; the tasks are {task_names()} (or all)")
    print(f"recipe: {settings.train_shaping!r}, {settings.games} games each from seed {settings.seed}")
    print("| task | scripted | random | the recipe |\n|---|---|---|---|")
    results = {}
    for name in names:
        results[name] = shaped_returns(name, settings.train_shaping, settings.games, settings.seed)
        print(report_line(name, results[name]), flush=True)
    return results


def main(argv: list[str] | None = None) -> dict[str, dict[str, dict[str, Any]]]:
    return check(parse_settings(CheckSettings, argv, description=__doc__.splitlines()[0]))


if __name__ == "__main__":
    main()
