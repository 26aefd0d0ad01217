"""How an episode ended: one name for each way, everywhere (env, tasks, evaluation, difficulty
records and reports, docs).

- ``completed_with_goals`` (the game's ``outcome`` ``completed``): every surviving hero left with every
  primary goal met (in the final adventure also a party that met them and died doing it, A-55): the
  heroes' win;
- ``completed_without_goals`` (``completed``): every surviving hero left without every primary goal;
- ``failed`` (``failed``): every hero died, the Dungeon Master's win;
- ``truncated`` (``truncated``): the turn cap (``max_turns``; checklist A-50);
- ``illegal_action`` (the env's final info's ``outcome``): an illegal action ended the episode
  (``illegal_action="penalize"``).

:func:`classify` names a finished game from its outcome and whether every primary goal was met,
:func:`ending_of` a finished :class:`~dungeon_env.engine.Game`, :func:`campaign_ending_of` a finished
campaign (won: ``completed_with_goals``, lost: ``failed``, ``truncated``), :func:`info_ending` an
env's final info; ``WINS`` is each side's win. :func:`read_ending` reads
a name back from a file and accepts the spellings of files written before this vocabulary
(``with_goals``, ``without_goals``, ``walked_out``, ``completed_without_goal``, ``all_dead``).
"""

from __future__ import annotations

from enum import StrEnum


class Ending(StrEnum):
    """The ways an episode ends (the module docstring); a ``str``, so it is its own JSON."""

    COMPLETED_WITH_GOALS = "completed_with_goals"
    COMPLETED_WITHOUT_GOALS = "completed_without_goals"
    FAILED = "failed"
    TRUNCATED = "truncated"
    ILLEGAL_ACTION = "illegal_action"

    @property
    def outcome(self) -> str:
        """The game's own outcome word for this ending (``completed``, ``failed``, ``truncated``;
        ``illegal_action`` for the env's)."""
        return "completed" if self.completed else self.value

    @property
    def completed(self) -> bool:
        """Every surviving hero left the dungeon, the goals met or not."""
        return self in (Ending.COMPLETED_WITH_GOALS, Ending.COMPLETED_WITHOUT_GOALS)

    @property
    def text(self) -> str:
        """A short phrase for tables and cards."""
        return TEXT[self]


GAME_ENDINGS = (Ending.COMPLETED_WITH_GOALS, Ending.COMPLETED_WITHOUT_GOALS, Ending.FAILED, Ending.TRUNCATED)
"""The four ways a game itself ends (every way but an illegal action): the columns of counts."""

TEXT = {
    Ending.COMPLETED_WITH_GOALS: "completed with every primary goal met",
    Ending.COMPLETED_WITHOUT_GOALS: "completed without every primary goal (the survivors left without them)",
    Ending.FAILED: "failed: every hero dead",
    Ending.TRUNCATED: "truncated: the turn cap",
    Ending.ILLEGAL_ACTION: "an illegal action",
}

OLD_SPELLINGS = {
    "with_goals": Ending.COMPLETED_WITH_GOALS,  # tasks.Score before 2026-12-06
    "without_goals": Ending.COMPLETED_WITHOUT_GOALS,  # tasks.Score
    "walked_out": Ending.COMPLETED_WITHOUT_GOALS,  # difficulty records, training.evaluate
    "completed_without_goal": Ending.COMPLETED_WITHOUT_GOALS,  # the reward table's key
    "all_dead": Ending.FAILED,  # difficulty records
}

CAMPAIGN_ENDINGS = {"won": Ending.COMPLETED_WITH_GOALS, "lost": Ending.FAILED, "truncated": Ending.TRUNCATED}


def classify(outcome: str, goals_met: bool) -> Ending:
    """The ending of a finished game from its ``outcome`` (the ``end`` event's, or the env's final
    info's: ``completed``, ``failed``, ``truncated``, ``illegal_action``) and whether every primary
    goal was met; a ValueError for anything else (a game not over has no ending)."""
    if outcome == "completed":
        return Ending.COMPLETED_WITH_GOALS if goals_met else Ending.COMPLETED_WITHOUT_GOALS
    if outcome in ("failed", "truncated", "illegal_action"):
        return Ending(outcome)
    raise ValueError(
        f"unknown outcome {outcome!r}; a finished game's outcome is completed, failed or truncated"
    )


def ending_of(game) -> Ending:
    """The ending of a finished ``game`` (``engine.Game``): :func:`classify` of its outcome and goals."""
    return classify(game.outcome, game.goals_met)


def campaign_ending_of(campaign) -> Ending:
    """The ending of a finished campaign (``engine.campaign.Campaign``): ``won`` is
    ``completed_with_goals`` (its final adventure completed with its goals), ``lost`` ``failed``
    (no hero left to take a dead hero's seat), ``truncated`` an adventure's turn cap."""
    return CAMPAIGN_ENDINGS[campaign.outcome]


def info_ending(info: dict) -> Ending | None:
    """The ending an env's final info tells (its ``outcome`` and ``goals_met``); None for an info
    that tells none (an episode still going on)."""
    outcome = info.get("outcome")
    return classify(outcome, bool(info.get("goals_met"))) if outcome else None


WINS = {"heroes": Ending.COMPLETED_WITH_GOALS, "dm": Ending.FAILED}
"""Each side's win: the heroes' is an adventure completed with every primary goal met, the Dungeon
Master's one where every hero died (``tasks.measure`` and the training benchmark score these)."""


def read_ending(name: str) -> Ending:
    """The :class:`Ending` named ``name`` in a saved file, today's spelling or an older one
    (``OLD_SPELLINGS``); a ValueError naming the accepted names otherwise."""
    if name in OLD_SPELLINGS:
        return OLD_SPELLINGS[name]
    try:
        return Ending(name)
    except ValueError:
        known = [e.value for e in Ending] + list(OLD_SPELLINGS)
        raise ValueError(f"unknown ending {name!r}; the endings are {known}") from None


__all__ = [
    "CAMPAIGN_ENDINGS",
    "GAME_ENDINGS",
    "OLD_SPELLINGS",
    "TEXT",
    "WINS",
    "Ending",
    "campaign_ending_of",
    "classify",
    "ending_of",
    "info_ending",
    "read_ending",
]
