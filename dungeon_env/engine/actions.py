"""The flat action table and the kinds of decision an agent can be asked to make.

Every decision in the game is one pick from this single table, masked to what is legal at that
moment. Multi-part choices are consecutive decisions (for example a Fight asks the DM for the
monster's Stamina, then the hero for its own). ``ACTION_NAMES[i]`` describes action ``i``.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum

# the game is for 3-5 heroes (R-BOARD-01): limits of the content, re-exported for the engine
from dungeon_env.content.model import MAX_HEROES as MAX_HEROES
from dungeon_env.content.model import MIN_HEROES as MIN_HEROES

DIRECTIONS = ("north", "east", "south", "west")
DIR_DX = (0, 1, 0, -1)
DIR_DY = (-1, 0, 1, 0)


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
    ITEM_0 = 24  # pick the k-th item the hero holds (then a verb, a target...)
    ITEM_1 = 25
    ITEM_2 = 26
    ITEM_3 = 27
    ITEM_4 = 28
    ITEM_5 = 29
    ITEM_6 = 30
    ITEM_7 = 31
    ITEM_8 = 32
    ITEM_9 = 33
    ITEM_10 = 34
    ITEM_11 = 35
    SPELL_0 = 36  # pick the k-th spell the hero knows
    SPELL_1 = 37
    SPELL_2 = 38
    SPELL_3 = 39
    SPELL_4 = 40
    SPELL_5 = 41
    SPELL_6 = 42
    SPELL_7 = 43
    USE = 44  # verb: cast (a spell or scroll), drink, use
    MEMORIZE = 45  # verb: memorize the picked scroll (Explore)
    IDENTIFY = 46  # verb: try to identify the picked item (Explore, Learned)
    FORGET = 47  # verb: forget the picked spell
    GIVE = 48  # verb: give the picked item (Trade; then the receiver as a target)
    LOOT = 49  # Trade: take an item from a corpse in the same area (then the item as a target)
    TARGET_0 = 50  # the k-th candidate of the decision (units in slot order, items in order)
    TARGET_1 = 51
    TARGET_2 = 52
    TARGET_3 = 53
    TARGET_4 = 54
    TARGET_5 = 55
    TARGET_6 = 56
    TARGET_7 = 57
    TARGET_8 = 58
    TARGET_9 = 59
    NORMAL_CAST = 60  # cast the spell's normal version
    OVERCAST = 61  # cast its Overcast version (backlash roll follows)
    KEEP_CASTING = 62  # fight this phase on double ones and keep the spell
    LET_FAIL = 63  # let the spell fail and fight normally
    EXPLORE = 64  # Explore phase: explore the room or corridor
    STAY = 65  # Explore phase: stay put
    CHOICE_0 = 66  # a room event's options
    CHOICE_1 = 67
    CHOICE_2 = 68
    CHOICE_3 = 69
    TAKE = 70  # take the item found
    PASS = 71  # leave it to the next exploring hero
    DISARM_N = 72  # try to disarm the detected trap on that side (end of Movement)
    DISARM_E = 73
    DISARM_S = 74
    DISARM_W = 75
    BACK = 76  # change one's mind: leave a verb or give decision without losing anything
    ABILITY_0 = 77  # use the k-th ability of the hero's card (offered only for an Active one)
    ABILITY_1 = 78


N_ACTIONS = len(Action)


def _ints(names: str) -> tuple[int, ...]:
    return tuple(int(Action[name]) for name in names.split())


# Plain ints of the Action table for the hot paths (IntEnum member look-ups are slow on Python 3.11).
MOVE_N, JUMP_N, DRAG_N, EXTRA_MOVE, END, DEFER, SPEND_0, HANDOFF_0 = _ints(
    "MOVE_N JUMP_N DRAG_N EXTRA_MOVE END DEFER SPEND_0 HANDOFF_0"
)
ITEM_0, SPELL_0, USE, MEMORIZE, IDENTIFY, FORGET, GIVE, LOOT, TARGET_0 = _ints(
    "ITEM_0 SPELL_0 USE MEMORIZE IDENTIFY FORGET GIVE LOOT TARGET_0"
)
NORMAL_CAST, OVERCAST, KEEP_CASTING, LET_FAIL, EXPLORE, STAY = _ints(
    "NORMAL_CAST OVERCAST KEEP_CASTING LET_FAIL EXPLORE STAY"
)
CHOICE_0, TAKE, PASS, DISARM_N, BACK, ABILITY_0 = _ints("CHOICE_0 TAKE PASS DISARM_N BACK ABILITY_0")
# How many of each numbered action there are (counted from the table).
MAX_ITEMS_HELD, MAX_SPELLS_KNOWN, MAX_TARGETS, MAX_CHOICES, MAX_ABILITIES = (
    sum(a.name.startswith(prefix) for a in Action)
    for prefix in ("ITEM_", "SPELL_", "TARGET_", "CHOICE_", "ABILITY_")
)
# What a CHOOSE_TARGET decision is choosing (its arg ``a``); ``b`` carries the item or spell.
TARGET_SPELL, TARGET_ITEM, TARGET_GIVE, TARGET_LOOT, TARGET_ABILITY = 0, 1, 2, 3, 4
MOVE_ACTIONS = tuple(range(MOVE_N, MOVE_N + 4))
JUMP_ACTIONS = tuple(range(JUMP_N, JUMP_N + 4))
DRAG_ACTIONS = tuple(range(DRAG_N, DRAG_N + 4))
SPEND_ACTIONS = tuple(range(SPEND_0, SPEND_0 + 4))
HANDOFF_ACTIONS = tuple(range(HANDOFF_0, HANDOFF_0 + MAX_HEROES))
ITEM_ACTIONS = tuple(range(ITEM_0, ITEM_0 + MAX_ITEMS_HELD))
SPELL_ACTIONS = tuple(range(SPELL_0, SPELL_0 + MAX_SPELLS_KNOWN))
TARGET_ACTIONS = tuple(range(TARGET_0, TARGET_0 + MAX_TARGETS))
CHOICE_ACTIONS = tuple(range(CHOICE_0, CHOICE_0 + MAX_CHOICES))
DISARM_ACTIONS = tuple(range(DISARM_N, DISARM_N + 4))
ABILITY_ACTIONS = tuple(range(ABILITY_0, ABILITY_0 + MAX_ABILITIES))

ACTION_NAMES = tuple(a.name.lower() for a in Action)


class Moment(StrEnum):
    """When in the turn a hero uses an item, a spell or an ability; the values are the content
    files' words (an item's ``when``, a spell's ``when``, an ability's moments)."""

    COMBAT = "combat"  # 2.1 Spell Selection, the Combat Turn Sequence's casting moment
    MOVEMENT = "movement"  # the hero's own Movement
    EVASION = "evasion"  # the hero's own Evasion
    EXPLORE = "explore"  # the Explore phase's actions
    TRADE = "trade"  # the Trade phase


# The moments under plain module names for the hot paths (an Enum member look-up costs ~150 ns).
IN_COMBAT, IN_MOVEMENT, IN_EVASION, IN_EXPLORE, IN_TRADE = Moment


class Decision(IntEnum):
    """What the agent on top of the pending-decision stack is being asked."""

    HERO_MOVE = 0  # a hero's Movement phase step (move, door, jump, drag, extra move, end, hand off)
    HERO_EVADE = 1  # a hero's Evasion (2 Stamina per square)
    MONSTER_MOVE = 2  # DM: one monster's movement
    FIGHT_STAMINA = 3  # Stamina spent on one Fight (DM for a monster, the hero for itself)
    SPELL_SELECT = 4  # 2.1: a hero picks a spell or scroll to begin casting, or none (END)
    CAST_WHILE_FIGHTING = 5  # a caster in a Fight: KEEP_CASTING (double ones) or LET_FAIL
    CAST_MODE = 6  # NORMAL_CAST or OVERCAST, as the spell resolves
    CHOOSE_TARGET = 7  # TARGET_k among the candidates (args: what is being targeted)
    MENTAL_BID = 8  # Magic added to a Mental Combat roll, 0..3 (aggressor first)
    EXPLORE_CHOICE = 9  # EXPLORE or STAY
    EVENT_CHOICE = 10  # CHOICE_k of a room event
    CLAIM_ITEM = 11  # TAKE or PASS an item found while exploring
    HERO_ACT = 12  # Explore actions or Trade: pick an item (ITEM_k), a spell (SPELL_k), LOOT, or END
    ITEM_VERB = 13  # what to do with the picked item: USE, MEMORIZE, IDENTIFY, GIVE (END: nothing)
    SPELL_VERB = 14  # what to do with the picked spell: USE (cast), FORGET (END: nothing)
    DISARM = 15  # end of Movement next to detected traps: DISARM_d or END


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
