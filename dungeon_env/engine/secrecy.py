"""Which decisions the heroes may know were asked: the one rule every channel that paces the game
for heroes reads (the parallel view's steps, the play server's hero version and pushes).

A DM decision is *hidden* from the heroes when

- it is about a figure heroes do not see: a monster that is not on the board, or stands on a
  square of an area not revealed (ruling D-24: heroes know the monsters in revealed areas, with
  their state). The observation shows such a decision to heroes the same way
  (``observation._fill_context``: only the agent asked and the phase); or
- it has one choice besides ``defer``. ``defer`` is legal only while another monster is still to
  move, fog ones included, and a decision with a single legal choice is taken by the engine at
  once (ruling D-08): so whether the DM is asked at all would tell heroes that a monster they do
  not see is waiting to move.

Every other decision is *public*: a hero's, and the DM's real choices about a figure heroes see. A
channel that paces the game for heroes counts public decisions (and the end) only, so the number
of decisions the DM took about figures heroes do not see reaches no hero.
"""

from __future__ import annotations

from typing import Protocol

from dungeon_env.engine.actions import DEFER
from dungeon_env.engine.context import Context
from dungeon_env.engine.state import ACTIVE, SIDE_HERO, SIDE_MONSTER, STACK_UNIT


class Asked(Context, Protocol):
    """A game whose decision asked now lists its legal actions (``Game``, a side view)."""

    def legal_actions(self) -> list[int]: ...


def heroes_see_unit(g: Context, unit: int) -> bool:
    """Heroes see figure ``unit``: a hero, or a monster on the board on a square of a revealed area."""
    s = g.state
    side = int(s.unit_side[unit])
    if side == SIDE_HERO:
        return True
    if side != SIDE_MONSTER or s.unit_status[unit] != ACTIVE:
        return False
    pos = int(s.unit_pos[unit])
    return pos >= 0 and bool(s.revealed[g.tables.area[pos]])


def dm_decision_is_hidden(g: Asked) -> bool:
    """The decision asked now is the DM's and hidden from the heroes (the module docstring). False
    when the game is over or a hero is asked: an end and a hero's decision are public."""
    s = g.state
    if s.outcome or not s.stack:
        return False
    unit = int(s.stack[-1][STACK_UNIT])
    if unit < s.n_heroes:
        return False
    if not heroes_see_unit(g, unit):
        return True
    legal = g.legal_actions()
    return DEFER in legal and len(legal) == 2


__all__ = ["Asked", "dm_decision_is_hidden", "heroes_see_unit"]
