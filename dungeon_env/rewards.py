"""The heroes' team reward, as small pure functions (the env hands it out; the DM gets its opposite).

Two parts, both in the heroes' terms:

- **The outcome**, once, when the adventure ends: :func:`outcome_reward` looks the way it ended up in
  a table made by :func:`outcome_table` (``completed`` with every primary goal met,
  ``completed_without_goal``, ``failed``, ``truncated``). :func:`turn_cap_terminates` says from it
  how the turn cap ends an episode: ``terminated`` when it pays, ``truncated`` when it pays nothing.
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
  | ``goal_exits`` | ``+w`` per hero who leaves when, that step done, every other primary goal is in
    hand (:func:`goals_in_hand`: met, or the crown to carry out held face up by a hero), ``-w`` per
    hero who leaves before (``exit`` and the caller's ``in_hand``: the same as ``exits`` where
    the one primary goal is to escape; a charge for walking out before what must be carried out is
    found, and none for making way for its carrier) |
  | ``squares`` | ``+w`` per square a hero steps into that no hero had stood on before in this game |
    (``move``; the squares so far are the caller's ``squares_seen`` set) |

- **Potential-based shaping** (Ng, Harada and Russell 1999), per step: ``exit_path`` pays
  ``w * (phi(after) - phi(before))`` with ``phi = exit_potential(game)``, minus each hero's share of
  the way still to go to the nearest exit on the board *as heroes know it* (:func:`exit_distances`),
  once every other primary goal is in hand (:func:`goals_in_hand`). Over a game it adds up to
  ``w * (phi(end) - phi(start))``: a step towards the exit earns what a step back costs, so it leads
  the heroes on without paying for walking about.
- **Explored**, per step: ``explored`` pays ``w`` per area the heroes explore (search, in an Explore
  phase) for the first time in the game (``state.explored_bits``: heroes know where they searched).

:class:`StateShaping` keeps these two state-read terms for one game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from dungeon_env.ending import Ending, classify

SHAPING_TERMS = (
    "damage",
    "kills",
    "treasure",
    "exploration",
    "doors",
    "exits",
    "goal_exits",
    "squares",
    "exit_path",
    "explored",
)
EXIT_PATH_CAP = 40  # squares: a hero this far from an exit (or with no way there) counts as -1
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


def turn_cap_terminates(table: Mapping[str, float]) -> bool:
    """Whether reaching the turn cap is an end of the task (Gymnasium's ``terminated``) rather than
    a time limit outside it (``truncated``): the one rule of the env and every task. Every
    observation shows the clock (``turn / max_turns``), so the cap is part of the task exactly when
    the task pays for it, ``table["truncated"]`` not 0 (the heroes' tasks: -1); a cap that pays 0 is
    a time limit, and a truncation then never pays an outcome reward."""
    return table["truncated"] != 0.0


TABLE_KEYS = {  # each ending's key in the table: the reward options' names (reward_<key>)
    Ending.COMPLETED_WITH_GOALS: "completed",
    Ending.COMPLETED_WITHOUT_GOALS: "completed_without_goal",
    Ending.FAILED: "failed",
    Ending.TRUNCATED: "truncated",
}


def outcome_reward(outcome: str, goals_met: bool, table: Mapping[str, float]) -> float:
    """The heroes' reward for the way the adventure ended (``dungeon_env.ending.classify``): the
    table's entry for its ending, keyed by the reward options' names (``TABLE_KEYS``: ``completed``
    with every primary goal met, ``completed_without_goal``, ``failed``, ``truncated``)."""
    return table[TABLE_KEYS[classify(outcome, goals_met)]]


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
    """Whether :func:`shaping_reward` reads ``in_hand`` for ``events``: a ``goal_exits`` weight and
    a hero leaving among them (the caller can then skip checking the goals on every other step)."""
    return bool(weights.get("goal_exits")) and any(e is not None and e["type"] == "exit" for e in events)


def shaping_reward(
    events: Iterable[dict | None],
    weights: Mapping[str, float],
    squares_seen: set | None = None,
    in_hand: bool = False,
) -> float:
    """The heroes' shaping reward for ``events`` (one step's events as heroes know them; None: an
    event they do not know, which earns nothing) under ``weights`` (a missing term weighs 0).
    ``squares_seen``: the squares heroes have stood on so far in the game, which the ``squares``
    term reads and adds to (one set per game; None: the term earns nothing). ``in_hand``:
    every primary goal of the adventure but escaping is in hand once these events are done
    (:func:`goals_in_hand`, read by the ``goal_exits`` term; the goals are public, in every agent's
    ``objectives``)."""
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
            goal_sign = 1.0 if in_hand else -1.0
            total += weights.get("exits", 0.0) + goal_sign * weights.get("goal_exits", 0.0)
    return total


def exit_distances(game) -> tuple[int, ...]:
    """Path length from every square to the nearest exit of the adventure, on the board as heroes know
    it (``engine.sideview.heroes_tables``: the printed board's walls, the doors of revealed areas
    walked through as if open, the blockages they saw). A wall between two areas nobody has seen
    may hide a door nobody has seen: crossing it counts ``GUESSED_DOOR`` squares, so a way out
    is always guessed and a dead end found costs a few squares of the potential, not all of it. The
    exits are public (ruling D-24). Memoised per known board, and across boards by what the
    distances read (``_EXIT_MEMO``: the heroes' tables of a search's sampled worlds are objects of
    their own, with the walls of the view they were sampled from); ``UNREACHABLE`` where no way
    leads out even so (walled in by known walls and blockages)."""
    from dungeon_env.engine.sideview import heroes_tables
    from dungeon_env.engine.tables import square

    tables = heroes_tables(game)
    cached = tables.cache.get("rewards.exit_distances")
    if cached is None:
        revealed = game.state.revealed[game.tables.area]
        exits = tuple(square(x, y) for x, y in game.tables.adventure.exits)
        key = (
            id(tables.board),
            tables.wall.tobytes(),
            tables.blockage.tobytes(),
            revealed.tobytes(),
            exits,
        )
        found = _EXIT_MEMO.get(key)
        if found is None or found[0] is not tables.board:  # (the board held: its id names it)
            if len(_EXIT_MEMO) >= EXIT_MEMO_SIZE:
                _EXIT_MEMO.clear()
            found = _EXIT_MEMO[key] = (
                tables.board,
                _guessing_distances(tables, revealed.tolist(), list(exits)),
            )
        cached = tables.cache["rewards.exit_distances"] = found[1]
    return cached


# (board id, the heroes' walls and blockages, the squares revealed, the exits) -> (board, distances):
# everything ``_guessing_distances`` reads of the heroes' tables (their passages are their walls
# and blockages on the board's neighbours)
_EXIT_MEMO: dict[tuple, tuple] = {}
EXIT_MEMO_SIZE = 256


GUESSED_DOOR = 6  # squares a step through a wall between two unseen areas counts (:func:`exit_distances`)


def _guessing_distances(tables, revealed: list[bool], sources: list[int]) -> tuple[int, ...]:
    """Dijkstra from ``sources`` over the known passages (1 a step) and the walls between two
    unrevealed squares (``GUESSED_DOOR`` a step); squares holding a known blockage are never entered."""
    import heapq

    from dungeon_env.engine.tables import UNREACHABLE, passages

    steps = passages(tables)
    dist = [UNREACHABLE] * tables.n_squares
    heap = []
    for q in sources:
        dist[q] = 0
        heap.append((0, q))
    blocked = tables.blockage.tolist()
    neighbours, walls = tables.neighbor.tolist(), tables.wall.tolist()
    while heap:
        d, q = heapq.heappop(heap)
        if d > dist[q]:
            continue
        moves = [(r, 1) for r, _door in steps[q]]
        if not revealed[q]:
            moves += [
                (r, GUESSED_DOOR)
                for r, wall in zip(neighbours[q], walls[q], strict=True)
                if wall and r >= 0 and not revealed[r] and not blocked[r]
            ]
        for r, cost in moves:
            if d + cost < dist[r]:
                dist[r] = d + cost
                heapq.heappush(heap, (d + cost, r))
    return tuple(dist)


def goals_in_hand(game) -> bool:
    """Every primary goal but escaping is met, or as good as met for heroes who now leave: an item
    to carry out is held face up by a hero, a captive's room is explored (R-END-03's goals, as the
    ``objectives`` every agent gets report them)."""
    objectives = game.tables.adventure.objectives
    return all(
        goal_in_hand(game, i) for i, obj in enumerate(objectives) if obj.primary and obj.kind != "escape"
    )


def goal_in_hand(game, index: int) -> bool:
    """The adventure's objective ``index`` is met, or as good as met for heroes who now leave (an
    item to carry out held face up by a hero, a captive's room explored): :func:`goals_in_hand`'s
    test of one goal."""
    from dungeon_env.engine.objectives import objective_met

    if objective_met(game, index):
        return True
    s, t = game.state, game.tables
    obj = t.adventure.objectives[index]
    if obj.kind == "retrieve":
        card = game.item_index.get(obj.item, -1)
        held = (s.item_card == card) & s.item_known & (s.item_holder >= 0) & (s.item_holder < s.n_heroes)
        return bool(card >= 0 and held.any())
    if obj.kind == "rescue":
        return bool(s.explored_bits >> t.board.area_names.index(obj.area) & 1)
    return False


def exit_potential(game, cap: int = EXIT_PATH_CAP) -> float:
    """The ``exit_path`` potential: minus the sum over the heroes of ``min(d, cap) / cap``, ``d`` a
    hero's path length to the nearest exit (:func:`exit_distances`); a hero who left counts 0, a dead
    hero -1 (as far as can be), so the potential is 0 exactly when every hero got out. Until every
    other primary goal is in hand (:func:`goals_in_hand`: the crown to carry out found, ...) every
    hero counts -1, on the board or out: the way out leads nowhere yet, leaving early earns nothing,
    and finding the goal earns the rise."""
    from dungeon_env.engine.state import ACTIVE, EXITED

    s = game.state
    status = s.unit_status[: s.n_heroes].tolist()
    if not goals_in_hand(game):
        return -float(len(status))
    dist = exit_distances(game) if ACTIVE in status else None
    total = 0.0
    for h, st in enumerate(status):
        if st == ACTIVE:
            total -= min(dist[int(s.unit_pos[h])], cap) / cap
        elif st != EXITED:
            total -= 1.0
    return total


def areas_explored(game) -> int:
    """How many areas heroes have explored (searched in an Explore phase, ``state.explored_bits``)."""
    return int(game.state.explored_bits).bit_count()


class StateShaping:
    """The shaping terms read off a game's state rather than its events, for one game: ``exit_path``
    (:func:`exit_potential`'s change) and ``explored`` (``+w`` per area heroes explore for the
    first time). ``step(game)`` is their reward since the last call (or since the set-up, when the
    object was made); None from :meth:`of` when ``weights`` has neither term."""

    def __init__(self, game, weights: Mapping[str, float]) -> None:
        self.exit_weight = weights.get("exit_path", 0.0)
        self.explored_weight = weights.get("explored", 0.0)
        self.potential = exit_potential(game) if self.exit_weight else 0.0
        self.explored = areas_explored(game)

    @staticmethod
    def wanted(weights: Mapping[str, float] | None) -> bool:
        """``weights`` has a state-read term (``exit_path`` or ``explored``)."""
        return bool(weights) and bool(weights.get("exit_path") or weights.get("explored"))

    @classmethod
    def of(cls, game, weights: Mapping[str, float] | None) -> StateShaping | None:
        return cls(game, weights) if cls.wanted(weights) else None

    def step(self, game) -> float:
        reward = 0.0
        if self.exit_weight:
            now = exit_potential(game)
            reward += self.exit_weight * (now - self.potential)
            self.potential = now
        if self.explored_weight:
            now = areas_explored(game)
            reward += self.explored_weight * (now - self.explored)
            self.explored = now
        return reward


__all__ = [
    "EXIT_PATH_CAP",
    "GUESSED_DOOR",
    "OUTCOMES",
    "SHAPING_TERMS",
    "TABLE_KEYS",
    "StateShaping",
    "areas_explored",
    "check_reward",
    "check_shaping",
    "exit_distances",
    "exit_potential",
    "goal_in_hand",
    "goals_in_hand",
    "outcome_reward",
    "outcome_table",
    "needs_goals",
    "shaping_reward",
    "turn_cap_terminates",
]
