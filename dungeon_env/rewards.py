"""The heroes' team reward, as small pure functions (the env hands it out; the DM gets its opposite).

Two parts, both in the heroes' terms:

- **The outcome**, once, when the adventure ends: :func:`outcome_reward` looks the way it ended up in
  a table made by :func:`outcome_table` (``completed`` with every primary goal met,
  ``completed_without_goal``, ``failed``, ``truncated``).
- **Shaping**, optional and off by default, per step: :func:`shaping_reward` sums the weights
  (checked by :func:`check_shaping`) of the step's events *as heroes know them* (the heroes' view of
  the log, :class:`dungeon_env.engine.knowledge.HeroLens`, where None stands for an event heroes do
  not know), so the heroes' reward never counts what happens out of their sight:

  | term | per event |
  |---|---|
  | ``damage`` | ``+w`` per point of ``damage`` to a monster, ``-w`` per point to a hero |
  | ``kills`` | ``+w`` per ``slain`` monster, ``-w`` per hero ``death`` |
  | ``treasure`` | ``+w`` per item a hero takes (``item_found``, ``loot``) |
  | ``exploration`` | ``+w`` per area revealed (``reveal``) |
  | ``doors`` | ``+w`` per door opened (``door_opened``) |
  | ``exits`` | ``+w`` per hero who leaves the dungeon (``exit``) |
  | ``goal_exits`` | ``+w`` per hero who leaves when, that step done, every primary goal is met, ``-w``
    per hero who leaves before (``exit`` and the caller's ``goals_met``: the same as ``exits`` where
    the one primary goal is to escape; a charge for walking out without what must be carried out) |
  | ``squares`` | ``+w`` per square a hero steps into that no hero had stood on before in this game |
    (``move``; the squares so far are the caller's ``squares_seen`` set) |
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

SHAPING_TERMS = ("damage", "kills", "treasure", "exploration", "doors", "exits", "goal_exits", "squares")
OUTCOMES = ("completed", "completed_without_goal", "failed", "truncated")


def check_reward(name: str, value) -> float:
    """``value`` as a float, or a ValueError naming the option ``name``."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise ValueError(f"{name} must be a number (a reward), got {value!r}")
    number = float(value)
    if not np.isfinite(number):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return number


def outcome_table(
    completed: float, completed_without_goal: float, failed: float, truncated: float
) -> dict[str, float]:
    """The heroes' reward for each way an adventure ends (keys :data:`OUTCOMES`), each checked by
    :func:`check_reward` under its option name (``reward_completed``, ...)."""
    given = (completed, completed_without_goal, failed, truncated)
    return {kind: check_reward(f"reward_{kind}", v) for kind, v in zip(OUTCOMES, given, strict=True)}


def outcome_reward(outcome: str, goals_met: bool, table: Mapping[str, float]) -> float:
    """The heroes' reward for the way the adventure ended: ``table[outcome]``, except that a
    ``completed`` adventure without every primary goal met pays ``table["completed_without_goal"]``."""
    if outcome == "completed" and not goals_met:
        return table["completed_without_goal"]
    return table[outcome]


def check_shaping(shaping) -> dict[str, float] | None:
    """The shaping weights as ``{term: float}``, None for no shaping (None or empty), or a
    ValueError naming what is wrong (not a dict, or a term not in :data:`SHAPING_TERMS`)."""
    if not shaping:
        return None
    if not isinstance(shaping, dict):
        raise ValueError(f"shaping must be a dict of weights by term {SHAPING_TERMS}, got {shaping!r}")
    unknown = sorted(set(shaping) - set(SHAPING_TERMS))
    if unknown:
        raise ValueError(f"shaping: unknown terms {unknown}; the terms are {list(SHAPING_TERMS)}")
    return {k: float(v) for k, v in shaping.items()}


def needs_goals(events: Iterable[dict | None], weights: Mapping[str, float]) -> bool:
    """Whether :func:`shaping_reward` reads ``goals_met`` for ``events``: a ``goal_exits`` weight and
    a hero leaving among them (the caller can then skip checking the goals on every other step)."""
    return bool(weights.get("goal_exits")) and any(e is not None and e["type"] == "exit" for e in events)


def shaping_reward(
    events: Iterable[dict | None],
    weights: Mapping[str, float],
    squares_seen: set | None = None,
    goals_met: bool = False,
) -> float:
    """The heroes' shaping reward for ``events`` (one step's events as heroes know them; None: an
    event they do not know, which earns nothing) under ``weights`` (a missing term weighs 0).
    ``squares_seen``: the squares heroes have stood on so far in the game, which the ``squares``
    term reads and adds to (one set per game; None: the term earns nothing). ``goals_met``: every
    primary goal of the adventure is met once these events are done (the ``goal_exits`` term;
    the goals are public, in every agent's ``objectives``)."""
    total = 0.0
    for e in filter(None, events):
        kind = e["type"]
        if kind == "move" and squares_seen is not None and str(e.get("unit")).startswith("hero_"):
            squares_seen.add(tuple(e["from"]))
            square = tuple(e["to"])
            if square not in squares_seen:
                squares_seen.add(square)
                total += weights.get("squares", 0.0)
            continue
        if kind == "damage":
            sign = -1.0 if e["unit"].startswith("hero_") else 1.0
            total += sign * weights.get("damage", 0.0) * e["amount"]
        elif kind == "slain":
            total += weights.get("kills", 0.0)
        elif kind == "death":
            total -= weights.get("kills", 0.0)
        elif kind in ("item_found", "loot"):
            total += weights.get("treasure", 0.0)
        elif kind == "reveal":
            total += weights.get("exploration", 0.0)
        elif kind == "door_opened":
            total += weights.get("doors", 0.0)
        elif kind == "exit":
            total += weights.get("exits", 0.0) + (1.0 if goals_met else -1.0) * weights.get("goal_exits", 0.0)
    return total


__all__ = [
    "OUTCOMES",
    "SHAPING_TERMS",
    "check_reward",
    "check_shaping",
    "outcome_reward",
    "outcome_table",
    "needs_goals",
    "shaping_reward",
]
