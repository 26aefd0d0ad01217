"""The game state: plain data, a dataclass of numpy arrays and small scalars.

Units (heroes and monsters) are a fixed-capacity struct of arrays; slot ``i`` of every ``unit_*``
array describes unit ``i``. Heroes take slots ``0..n_heroes-1``; monsters take the other slots (a
slain monster's slot is reused, its stable id ``m<uid>`` is not). The turn structure is data too:
``phase`` and a stack of pending decisions, each ``(decision kind, unit slot)``; the decision on top
is the one being asked. Copying is a handful of ``ndarray.copy()`` calls; JSON round-trips exactly.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np

from dungeon_env.content._abilities import MAX_HERO_ABILITIES
from dungeon_env.content.model import HEIGHT, MAX_HEROES, WIDTH
from dungeon_env.content.rules import BASE_RULES

MAX_UNITS = 64
MAX_ITEMS = 96  # item instances in one game (cards drawn, carried in, found)
MAX_DECK = 64  # cards in one deck
N_DECKS = 5
NO_UNIT = -1


class Status(IntEnum):
    EMPTY = 0  # free slot
    ACTIVE = 1  # on the board and alive
    EXITED = 2  # a hero that left the dungeon
    CORPSE = 3  # a dead hero whose corpse lies on the board
    CORPSE_OUT = 4  # a dead hero whose corpse was carried out of the dungeon
    GONE = 5  # a slain monster, or a dead hero whose corpse was lost


class Side(IntEnum):
    NONE = -1
    HERO = 0
    MONSTER = 1


class How(IntEnum):
    """How a unit came onto the board (its encounter type, for monsters)."""

    HERO = 0
    GUARD = 1
    PATROL = 2
    AMBUSH = 3
    EVENT = 4


# Plain ints for the hot paths (IntEnum member look-ups are slow on Python 3.11).
EMPTY, ACTIVE, EXITED, CORPSE, CORPSE_OUT, GONE = range(6)
SIDE_HERO, SIDE_MONSTER = 0, 1


# Row layouts of the state's list fields, the one place their columns are named (use the names,
# never a bare index).
# stack: a pending decision and its two args
STACK_KIND, STACK_UNIT, STACK_A, STACK_B = range(4)
# fights: one Fight (the winner is written when it is resolved)
FIGHT_MONSTER, FIGHT_HERO, FIGHT_M_SPEND, FIGHT_H_SPEND, FIGHT_WINNER = range(5)
# cast: the spell resolving (its moment is the index in spells.SPELL_MOMENTS)
CAST_CASTER, CAST_SPELL, CAST_ITEM, CAST_MODE, CAST_TARGET, CAST_MOMENT = range(6)
# mental: a Mental Combat
MENTAL_AGGRESSOR, MENTAL_DEFENDER, MENTAL_BID, MENTAL_PURPOSE = range(4)
# effects: one lasting effect (the unit's uid guards against a reused slot)
EFFECT_UNIT, EFFECT_KIND, EFFECT_AMOUNT, EFFECT_TURNS, EFFECT_SOURCE, EFFECT_UID = range(6)


def _units(dtype, fill=0) -> np.ndarray:
    return np.full(MAX_UNITS, fill, dtype)


def _heroes(dtype, fill=0, columns: int | None = None) -> np.ndarray:
    """One row per hero slot (``[hero]``, or ``[hero, columns]``)."""
    return np.full(MAX_HEROES if columns is None else (MAX_HEROES, columns), fill, dtype)


@dataclass
class State:
    # --- units: identity and base profile (cards) ---
    unit_status: np.ndarray = field(default_factory=lambda: _units(np.int8))
    unit_side: np.ndarray = field(default_factory=lambda: _units(np.int8, Side.NONE))
    unit_card: np.ndarray = field(default_factory=lambda: _units(np.int16, -1))  # roster/monster index
    unit_uid: np.ndarray = field(default_factory=lambda: _units(np.int16, -1))  # stable id number
    unit_how: np.ndarray = field(default_factory=lambda: _units(np.int8))
    unit_traits: np.ndarray = field(default_factory=lambda: _units(np.uint8))  # bit i = TRAITS[i]
    base_move: np.ndarray = field(default_factory=lambda: _units(np.int16))
    base_fight: np.ndarray = field(default_factory=lambda: _units(np.int16))
    base_damage: np.ndarray = field(default_factory=lambda: _units(np.int16))
    base_health: np.ndarray = field(default_factory=lambda: _units(np.int16))
    base_stamina: np.ndarray = field(default_factory=lambda: _units(np.int16))
    base_magic: np.ndarray = field(default_factory=lambda: _units(np.int16))
    # --- units: current values ---
    unit_pos: np.ndarray = field(default_factory=lambda: _units(np.int16, -1))  # square or -1
    health: np.ndarray = field(default_factory=lambda: _units(np.int16))
    stamina: np.ndarray = field(default_factory=lambda: _units(np.int16))
    magic: np.ndarray = field(default_factory=lambda: _units(np.int16))
    deaths_door: np.ndarray = field(default_factory=lambda: _units(bool))
    exhausted: np.ndarray = field(default_factory=lambda: _units(bool))
    surprised: np.ndarray = field(default_factory=lambda: _units(bool))  # heroes, until surprise_until
    surprise_until: np.ndarray = field(default_factory=lambda: _units(np.int16))  # last turn of it
    skip_move: np.ndarray = field(default_factory=lambda: _units(bool))  # surprised: skip the next 2.2
    inactive: np.ndarray = field(default_factory=lambda: _units(bool))  # Guards no hero has seen yet
    acted: np.ndarray = field(default_factory=lambda: _units(bool))  # did something that breaks Rest
    fought: np.ndarray = field(default_factory=lambda: _units(bool))  # in a Fight this turn
    rested_last: np.ndarray = field(default_factory=lambda: _units(bool))  # Rested in the previous turn
    # --- units: this phase's movement ---
    move_left: np.ndarray = field(default_factory=lambda: _units(np.int16))
    move_bought: np.ndarray = field(default_factory=lambda: _units(np.int8))  # Stamina spent on movement
    move_done: np.ndarray = field(default_factory=lambda: _units(bool))
    move_from: np.ndarray = field(default_factory=lambda: _units(np.int16, -1))  # square it began on
    moved: np.ndarray = field(default_factory=lambda: _units(bool))  # took a step / acted this phase
    jumped: np.ndarray = field(default_factory=lambda: _units(bool))
    deferred: np.ndarray = field(default_factory=lambda: _units(bool))
    dragging: np.ndarray = field(default_factory=lambda: _units(np.int16, NO_UNIT))  # corpse slot
    # --- board ---
    occupant: np.ndarray = field(default_factory=lambda: np.full(HEIGHT * WIDTH, NO_UNIT, np.int16))
    door_open: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    door_alert: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    door_tried: np.ndarray = field(default_factory=lambda: _heroes(bool, columns=0))  # [hero, door]
    revealed: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))  # [area]
    visited: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))  # [area] a hero has stood in
    guard_uid: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int16))  # [guard]: uid or -1
    guard_slain: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))  # [guard]
    ambush_fired: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))  # [ambush index]
    patrol_corridors: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))  # heroes at last end
    # --- items: one slot per card instance; a hero's k-th item is its k-th held slot in slot order ---
    item_card: np.ndarray = field(default_factory=lambda: np.full(MAX_ITEMS, -1, np.int16))  # catalogue
    item_holder: np.ndarray = field(default_factory=lambda: np.full(MAX_ITEMS, -1, np.int16))  # unit or -1
    item_known: np.ndarray = field(default_factory=lambda: np.zeros(MAX_ITEMS, bool))  # face up
    item_locked: np.ndarray = field(default_factory=lambda: np.zeros(MAX_ITEMS, bool))  # Identify rolled 1
    item_claimed: np.ndarray = field(default_factory=lambda: np.zeros(MAX_ITEMS, bool))  # a hero held it
    deck_cards: np.ndarray = field(default_factory=lambda: np.full((N_DECKS, MAX_DECK), -1, np.int16))
    deck_next: np.ndarray = field(default_factory=lambda: np.zeros(N_DECKS, np.int16))  # next card to draw
    # --- spells: [hero, spell catalogue index] ---
    spell_known: np.ndarray = field(default_factory=lambda: _heroes(bool, columns=0))
    # items and spells a hero picked and then went BACK from, this phase: not offered again (D-08b)
    declined_items: np.ndarray = field(default_factory=lambda: _heroes(bool, columns=MAX_ITEMS))
    declined_spells: np.ndarray = field(default_factory=lambda: _heroes(bool, columns=0))
    casting_spell: np.ndarray = field(default_factory=lambda: _heroes(np.int16, -1))  # selected in 2.1
    casting_item: np.ndarray = field(default_factory=lambda: _heroes(np.int16, -1))  # the scroll, or -1
    double_ones: np.ndarray = field(default_factory=lambda: _units(bool))  # keeps casting while fighting
    # ongoing effects, EFFECT_*: [unit, kind, amount, turns left, source, uid]
    effects: list = field(default_factory=list)
    # --- per-turn flags of the Explore and Trade phases, [hero] ---
    exploring: np.ndarray = field(default_factory=lambda: _heroes(bool))
    memorized: np.ndarray = field(default_factory=lambda: _heroes(bool))
    identified: np.ndarray = field(default_factory=lambda: _heroes(bool))
    gave: np.ndarray = field(default_factory=lambda: _heroes(bool))
    received: np.ndarray = field(default_factory=lambda: _heroes(bool))
    disarm_tried: np.ndarray = field(default_factory=lambda: _heroes(bool))
    # --- traps, room events, secret doors ---
    trap_armed: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))  # [trap]
    trap_detected: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))  # [trap] known to heroes
    event_done: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))  # [event]
    door_hidden: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))  # [door] secret, unrevealed
    # --- turn structure ---
    turn: int = 1
    light: int = BASE_RULES.light_start  # set from the game's rules (light.start) at set-up
    phase: int = 0
    phase_started: bool = False  # the current phase's automatic opening work has run
    n_heroes: int = 0
    next_uid: int = 0
    idle_handoffs: int = 0  # bitmask: heroes that handed off without acting first, this phase (D-04)
    progress: bool = False  # the unit in control has acted since it got control
    closed_bits: int = 0  # bitmask of closed doors, for line of sight
    controller: int = 0  # the unit in control of a movement-type phase (heroes hand it on)
    stack: list = field(default_factory=list)  # pending decisions, STACK_*: [kind, unit, arg a, arg b]
    queue: list = field(default_factory=list)  # monsters still to move this phase
    # this phase's Fights, FIGHT_*: [monster, hero, monster spend, hero spend, winner]
    fights: list = field(default_factory=list)
    fight_index: int = 0
    outcome: str = ""  # "", "completed", "failed", "truncated"
    end_reason: str = ""
    # --- magic & items (issue 3): see engine/spells.py, engine/items.py, engine/mental.py ---
    spell_turn: np.ndarray = field(default_factory=lambda: _heroes(np.int16))  # turn of the last spell
    item_used_turn: np.ndarray = field(default_factory=lambda: np.zeros(MAX_ITEMS, np.int16))  # reusable
    # the spell resolving, CAST_*: [caster, spell, item, mode, target, moment]
    cast: list = field(default_factory=list)
    mental: list = field(default_factory=list)  # Mental Combat, MENTAL_*: [aggressor, defender, bid, purpose]
    mind_queue: list = field(default_factory=list)  # monsters still to attack minds in this 2.5
    # --- the Explore and Trade phases (explore.py, trade.py) ---
    act_step: int = 0  # the step the current Explore / Trade phase is at (explore.STEP_*)
    act_todo: list = field(default_factory=list)  # what that step has left: hero slots or event indices
    explored_bits: int = 0  # bit a: a hero explored area a in some Explore phase (rescue objectives)
    # --- hero abilities (abilities.py): [hero, k] for the card's k-th ability; uses this adventure, and
    # the turn of the last use (0: never used) ---
    ability_uses: np.ndarray = field(default_factory=lambda: _heroes(np.int16, columns=MAX_HERO_ABILITIES))
    ability_turn: np.ndarray = field(default_factory=lambda: _heroes(np.int16, columns=MAX_HERO_ABILITIES))
    # --- [hero]: the labels of what put the hero on Death's Door (named by its death at Turn End); rows
    # are replaced, never edited ---
    downed_by: list = field(default_factory=lambda: [[] for _ in range(MAX_HEROES)])

    def copy(self) -> State:
        return State(
            **{f.name: copied_field(f.name, getattr(self, f.name)) for f in dataclasses.fields(self)}
        )

    def to_json(self) -> dict:
        out = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, np.ndarray):
                out[f.name] = {"dtype": value.dtype.str, "shape": list(value.shape), "data": value.tolist()}
            elif isinstance(value, list):
                out[f.name] = [list(item) for item in value] if f.name in _NESTED else list(value)
            else:
                out[f.name] = value
        return out

    @classmethod
    def from_json(cls, data: dict, fallback: State | None = None) -> State:
        """The state of a save. A save from before a field of ``ADDED_FIELDS`` existed lacks it: it is
        copied from ``fallback`` (``Game.from_json`` passes a fresh game's set-up); any other missing
        or unknown field is an error."""
        names = {f.name for f in dataclasses.fields(cls)}
        older = [n for n in ADDED_FIELDS if n not in data] if fallback is not None else []
        if set(data) | set(older) != names:
            missing, extra = sorted(names - set(data) - set(older)), sorted(set(data) - names)
            raise ValueError(f"saved state: missing fields {missing}, unknown fields {extra}")
        defaults = cls()
        values = {name: copy.deepcopy(getattr(fallback, name)) for name in older}
        for name, value in data.items():
            try:
                values[name] = _field_from_json(name, value, getattr(defaults, name))
            except (KeyError, TypeError, ValueError) as err:
                raise ValueError(f"saved state: field {name!r}: {err}") from err
        return cls(**values)

    def equals(self, other: State) -> bool:
        for f in dataclasses.fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if isinstance(a, np.ndarray):
                if a.dtype != b.dtype or not np.array_equal(a, b):
                    return False
            elif a != b:
                return False
        return True

    def nbytes(self) -> int:
        """Approximate memory of the state's own data (arrays and lists), in bytes."""
        total = 0
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, np.ndarray):
                total += value.nbytes
            elif isinstance(value, list):
                total += 8 * sum(len(item) if isinstance(item, list) else 1 for item in value)
            else:
                total += 8
        return total


_NESTED = {"stack", "fights", "effects"}
_LABEL_ROWS = {"downed_by"}  # lists of lists of strings
# Fields added after saves were first written, with what a fresh game's set-up gives them: a save
# from before one existed loads with that value (State.from_json's fallback).
ADDED_FIELDS = (
    "surprise_until",
    "move_from",
    "item_claimed",
    "declined_items",
    "declined_spells",
    "ability_uses",
    "ability_turn",
    "downed_by",
)


def _field_from_json(name: str, value, default):
    """One state field back from JSON, checked against the kind of value the field holds."""
    if isinstance(default, np.ndarray):
        if not isinstance(value, dict):
            raise TypeError(f"expected an array object, found {type(value).__name__}")
        return np.array(value["data"], dtype=np.dtype(value["dtype"])).reshape(value["shape"])
    if isinstance(default, list):
        if not isinstance(value, list):
            raise TypeError(f"expected a list, found {type(value).__name__}")
        if name in _LABEL_ROWS:
            if len(value) != len(default) or not all(
                isinstance(row, list) and all(isinstance(v, str) for v in row) for row in value
            ):
                raise TypeError(f"expected {len(default)} lists of labels, one a hero slot")
            return [list(row) for row in value]
        return [[int(v) for v in item] for item in value] if name in _NESTED else list(value)
    if isinstance(default, bool | int | str) and type(value) is not type(default):
        raise TypeError(f"expected {type(default).__name__}, found {value!r}")
    return value


def copied_field(name: str, value):
    """A copy of the value of the state field ``name`` that shares nothing with ``value`` (an array
    copied, a list and its rows copied; an immutable value as it is)."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, list):
        return [list(item) for item in value] if name in _NESTED else list(value)
    return value
