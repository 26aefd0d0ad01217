"""The flat action table and the kinds of decision an agent can be asked to make.

Every decision in the game is one pick from this single table, masked to what is legal at that
moment. Multi-part choices are consecutive decisions (for example a Fight asks the DM for the
monster's Stamina, then the hero for its own). ``ACTION_NAMES[i]`` describes action ``i``.
"""

from __future__ import annotations

from enum import IntEnum

DIRECTIONS = ("north", "east", "south", "west")
DIR_DX = (0, 1, 0, -1)
DIR_DY = (-1, 0, 1, 0)
MAX_HEROES = 5


class Action(IntEnum):
    MOVE_N = 0  # step (or Evade step, or attempt to open a closed door on that side)
    MOVE_E = 1
    MOVE_S = 2
    MOVE_W = 3
    JUMP_N = 4  # jump over the one-square obstacle on that side
    JUMP_E = 5
    JUMP_S = 6
    JUMP_W = 7
    DRAG_N = 8  # take hold of the corpse on that side before the first step of the move
    DRAG_E = 9
    DRAG_S = 10
    DRAG_W = 11
    EXTRA_MOVE = 12  # spend 1 Stamina for +1 square (at most 3 per Movement phase)
    END = 13  # end this unit's movement / evasion
    DEFER = 14  # DM: move this monster after the others (once per monster per phase)
    SPEND_0 = 15  # Stamina (or later Magic) to add to a Fight: 0..3
    SPEND_1 = 16
    SPEND_2 = 17
    SPEND_3 = 18
    HANDOFF_0 = 19  # let hero_k continue the heroes' movement now (interleaving)
    HANDOFF_1 = 20
    HANDOFF_2 = 21
    HANDOFF_3 = 22
    HANDOFF_4 = 23


N_ACTIONS = len(Action)
# Plain ints for the hot paths (IntEnum member look-ups are slow on Python 3.11).
MOVE_N, JUMP_N, DRAG_N, EXTRA_MOVE, END, DEFER, SPEND_0, HANDOFF_0 = 0, 4, 8, 12, 13, 14, 15, 19
MOVE_ACTIONS = tuple(range(MOVE_N, MOVE_N + 4))
JUMP_ACTIONS = tuple(range(JUMP_N, JUMP_N + 4))
DRAG_ACTIONS = tuple(range(DRAG_N, DRAG_N + 4))
SPEND_ACTIONS = tuple(range(SPEND_0, SPEND_0 + 4))
HANDOFF_ACTIONS = tuple(range(HANDOFF_0, HANDOFF_0 + MAX_HEROES))

ACTION_NAMES = tuple(a.name.lower() for a in Action)


class Decision(IntEnum):
    """What the agent on top of the pending-decision stack is being asked."""

    HERO_MOVE = 0  # a hero's Movement phase step (move, door, jump, drag, extra move, end, hand off)
    HERO_EVADE = 1  # a hero's Evasion (2 Stamina per square)
    MONSTER_MOVE = 2  # DM: one monster's movement
    FIGHT_STAMINA = 3  # Stamina spent on one Fight (DM for a monster, the hero for itself)


class Phase(IntEnum):
    """General turn steps 1..5 with the Combat Turn Sequence sub-steps 2.1..2.5 in between."""

    TURN_START = 0
    HERO_MOVEMENT = 1
    SPELL_SELECTION = 2
    MONSTER_MOVEMENT = 3
    EVASION = 4
    FIGHTING = 5
    SPELL_RESOLUTION = 6
    EXPLORE = 7
    TRADE = 8
    TURN_END = 9
    GAME_OVER = 10


PHASE_NAMES = tuple(p.name.lower() for p in Phase)
DECISION_NAMES = tuple(d.name.lower() for d in Decision)
