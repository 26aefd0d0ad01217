"""The entry task (``dungeon_env.tasks.ENTRY_TASK``) is not won by a constant policy.

Every "play action k if legal, else the first legal action" policy (k over the whole action space),
"always the first legal" and "always the last legal" play 30 held-out games; none may win more than
3. (``heroes/walk-out``, the entry task before, fails this: "move south if legal, else end" wins it
every time.) The games are played on the bare engine against the task's opponent by ``measure``.
"""

from __future__ import annotations

import pytest

from dungeon_env.engine import Action
from dungeon_env.tasks import ENTRY_TASK, HELD_OUT_SEED, TASKS, measure

GAMES = 30
MOST_WINS = 3  # of GAMES: 10%


class Constant:
    """``k`` if legal, else the first legal action (``k=None``: always the first; ``last``: always
    the last); keeps every action that was legal at one of its decisions."""

    def __init__(self, k: int | None = None, last: bool = False) -> None:
        self.k, self.last, self.seen = k, last, set()

    def seed(self, seed) -> None:
        """Deterministic: nothing to seed."""

    def bind(self, env=None, game=None) -> Constant:
        return self

    def choose(self, game) -> int:
        legal = sorted(int(a) for a in game.legal_actions())
        self.seen.update(legal)
        if self.last:
            return legal[-1]
        return self.k if self.k in legal else legal[0]


def wins(task: str, agent, i: int) -> int:
    return measure(task, agent, games=1, seed=HELD_OUT_SEED + i).wins


def first_legal_games(task: str) -> list[tuple[int, set[int]]]:
    """Each game of "always the first legal": its win and the actions legal at one of its decisions."""
    games = []
    for i in range(GAMES):
        agent = Constant()
        games.append((wins(task, agent, i), agent.seen))
    return games


def constant_wins(task: str) -> dict[str, int]:
    """The wins of every constant policy over the GAMES games. A game where k was never legal in the
    first-legal game is that very game under "k if legal" (the game and its opponent are seeded by
    the game's seed), so only the games where k was legal are played again."""
    first = first_legal_games(task)
    scores = {"first legal": sum(w for w, _ in first)}
    scores["last legal"] = sum(wins(task, Constant(last=True), i) for i in range(GAMES))
    for action in Action:
        k = int(action)
        scores[action.name] = sum(
            wins(task, Constant(k), i) if k in seen else w for i, (w, seen) in enumerate(first)
        )
    return scores


def test_the_entry_task_is_a_hero_task_of_the_ladder():
    assert ENTRY_TASK in TASKS and TASKS[ENTRY_TASK].side == "heroes"
    assert ENTRY_TASK != "heroes/walk-out"


def test_no_constant_policy_wins_the_entry_task():
    scores = constant_wins(ENTRY_TASK)
    assert len(scores) == len(Action) + 2
    best = max(scores, key=scores.get)
    assert scores[best] <= MOST_WINS, f"{best} wins {scores[best]} of {GAMES} games of {ENTRY_TASK}"


def test_the_replay_shortcut_plays_the_same_games():
    """ "move south if legal" played in every game wins the games the shortcut counts."""
    first = first_legal_games(ENTRY_TASK)
    k = int(Action.MOVE_S)
    full = [wins(ENTRY_TASK, Constant(k), i) for i in range(GAMES)]
    short = [wins(ENTRY_TASK, Constant(k), i) if k in seen else w for i, (w, seen) in enumerate(first)]
    assert full == short


@pytest.mark.parametrize("task", ["heroes/walk-out"])
def test_the_check_catches_a_task_a_constant_policy_wins(task):
    """The same count on heroes/walk-out finds "move south if legal, else first legal" winning."""
    first = first_legal_games(task)
    k = int(Action.MOVE_S)
    won = sum(wins(task, Constant(k), i) if k in seen else w for i, (w, seen) in enumerate(first))
    assert won > MOST_WINS
