"""The board as it stands now: the look-ups every mechanic shares (the bottom of the rule layers).

Static geometry is in ``tables``; this module adds what depends on the state: open doors, figures,
traps. It imports no rule module, so movement, combat, encounters, items and traps all build on it.

- ``open_side(g, sq, d)``: the square one step away in direction ``d`` with no wall or closed door
  between, or -1.
- ``open_neighbours(g, sq)``: those squares in all four directions.
- ``next_to(g, a, b)``: squares ``a`` and ``b`` side by side with nothing closed between them.
- ``free(g, sq)``: nothing stands on the square (R-TURN-09).
- ``trap_at``, ``traps_in_area``, ``is_hazard``, ``blocks``, ``is_jumpable``: where the adventure's
  traps are and what they do to movement (TRAP).
- ``heroes_beside(g, h)``: the hero and the heroes next to it (an ally item or ability's reach).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dungeon_env.engine.state import ACTIVE, CORPSE
from dungeon_env.engine.tables import square

if TYPE_CHECKING:
    from dungeon_env.engine.context import Context


def open_side(g: Context, sq: int, d: int) -> int:
    """The square one step from ``sq`` in direction ``d`` if no wall or closed door is between
    them, else -1."""
    nxt, door = g.tables.sides[sq][d]
    if door >= 0 and not g.state.door_open[door]:
        return -1
    return nxt


def open_neighbours(g: Context, sq: int) -> list[int]:
    """The squares next to ``sq`` with no wall or closed door between (``open_side`` all round)."""
    door_open = g.state.door_open
    return [q for q, door in g.tables.sides[sq] if q >= 0 and (door < 0 or door_open[door])]


def next_to(g: Context, a: int, b: int) -> bool:
    """Squares ``a`` and ``b`` are orthogonally adjacent with no wall or closed door between them."""
    door_open = g.state.door_open
    return any(q == b and (door < 0 or door_open[door]) for q, door in g.tables.sides[a])


def free(g: Context, sq: int) -> bool:
    """Nothing stands on the square: no figure, corpse, furniture, blockage or trap hazard (R-TURN-09)."""
    if g.state.occupant[sq] >= 0 or g.tables.obstacle[sq]:
        return False
    i = trap_squares(g)[sq]
    return i < 0 or not is_hazard(g, i)


def is_corpse(g: Context, sq: int) -> bool:
    """A hero's corpse lies on ``sq``."""
    u = g.state.occupant[sq]
    return u >= 0 and g.state.unit_status[u] == CORPSE


def heroes_beside(g: Context, h: int) -> list[int]:
    """The hero and the heroes orthogonally next to it with no wall or closed door between, in
    slot order (who an ally item or an ability may reach, ruling D-M14)."""
    s = g.state
    here = int(s.unit_pos[h])
    near = {here, *open_neighbours(g, here)}
    return [u for u in range(s.n_heroes) if s.unit_status[u] == ACTIVE and int(s.unit_pos[u]) in near]


# ----------------------------------------------------------------------------------------- traps


def trap_squares(g: Context) -> list[int]:
    """For each square the index of the adventure's trap on it, or -1 (built once per adventure)."""
    found = g.tables.cache.get("trap_at")
    if found is None:
        found = [-1] * g.tables.n_squares
        for i, trap in enumerate(g.tables.adventure.traps):
            found[square(*trap.at)] = i
        g.tables.cache["trap_at"] = found
    return found


def trap_at(g: Context, sq: int) -> int:
    """The index of the adventure's trap on ``sq``, or -1."""
    return trap_squares(g)[sq]


def traps_in_area(g: Context, area: int) -> list[int]:
    t = g.tables
    return [i for i, trap in enumerate(t.adventure.traps) if t.area[square(*trap.at)] == area]


def is_hazard(g: Context, i: int) -> bool:
    """A sprung blocking trap: it stays on the board and blocks movement."""
    return not g.state.trap_armed[i] and bool(g.state.trap_detected[i])


def blocks(g: Context, sq: int) -> bool:
    """A hazard on ``sq`` stops movement like an obstacle (it never blocks line of sight)."""
    i = trap_at(g, sq)
    return i >= 0 and is_hazard(g, i)


def is_jumpable(g: Context, sq: int) -> bool:
    """A detected armed trap or a hazard, with nobody on it, can be jumped (R-JUMP-02)."""
    i = trap_at(g, sq)
    return i >= 0 and bool(g.state.trap_detected[i]) and g.state.occupant[sq] < 0
