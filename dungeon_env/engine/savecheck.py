"""Checks a loaded state against the domain of every field, so that a hand-edited or corrupt save
fails at load with the field, the value and what was expected, instead of misbehaving in play (an
unknown phase made ``apply`` spin for ever; a position off the board raised a bare IndexError).

``check_state(state, domain)`` raises :class:`SaveError` (a ``ValueError``) at the first field
outside its domain. :class:`SaveDomain` holds what the domains depend on: the adventure's tables,
the rules' constants, the turn cap and the sizes of the card catalogues. ``Game.from_json`` calls
it on every save it loads. The checks are the ones the rules guarantee of every state the engine
reaches between two decisions (tests/test_save_validation.py checks many random games load):

- scalars: ``phase`` a :class:`Phase`, ``outcome`` set exactly at ``GAME_OVER``, Light
  ``0..light.max`` (nothing raises it above the cap, R-LIGHT-01), turn ``1..max_turns``,
  ``n_heroes`` 3..5 and the save's hero count, bit masks within their doors, areas and heroes;
- arrays: the shape and dtype a game of this adventure has (doors, areas, guards, traps, events,
  spells from the tables and catalogues; units, items and decks from :mod:`state`);
- units: status, side and encounter type in their enums; hero slots hold the save's heroes;
  Health, Stamina and Magic ``0..base`` (heals, rests and gains are all capped at base; only a
  slain monster's Health may be below 0); a figure on the board (active, or a hero's corpse) on a
  square ``0..n_squares-1`` that ``occupant`` gives back, every other unit at -1;
- items, decks and spells: card indices within the catalogues, items held only by heroes (at most
  12 each, the ``item_k`` actions);
- the turn's bookkeeping: each pending decision ``[kind, unit, a, b]`` a :class:`Decision` about a
  unit slot, with the one on top about a unit on the board, and a decision pending while the game
  is not over; Fights, lasting effects, the spell being cast and a Mental Combat with rows of their
  length and units, spells and items in range.

This module reads only the state, the action vocabulary, the tables and the content.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, fields
from enum import IntEnum

import numpy as np

from dungeon_env.content.model import EFFECT_KINDS, TRAITS
from dungeon_env.content.rules import Rules
from dungeon_env.engine.actions import MAX_ABILITIES, MAX_HEROES, MAX_ITEMS_HELD, MIN_HEROES, Decision, Phase
from dungeon_env.engine.state import (
    ACTIVE,
    CAST_CASTER,
    CAST_ITEM,
    CAST_MODE,
    CAST_MOMENT,
    CAST_SPELL,
    CAST_TARGET,
    CORPSE,
    EFFECT_KIND,
    EFFECT_TURNS,
    EFFECT_UID,
    EFFECT_UNIT,
    EMPTY,
    FIGHT_H_SPEND,
    FIGHT_HERO,
    FIGHT_M_SPEND,
    FIGHT_MONSTER,
    FIGHT_WINNER,
    GONE,
    MAX_DECK,
    MAX_ITEMS,
    MAX_UNITS,
    MENTAL_AGGRESSOR,
    MENTAL_BID,
    MENTAL_DEFENDER,
    MENTAL_PURPOSE,
    STACK_B,
    STACK_KIND,
    STACK_UNIT,
    How,
    Side,
    State,
    Status,
)
from dungeon_env.engine.tables import Tables

OUTCOMES = ("", "completed", "failed", "truncated")
HERO_STATUSES = (Status.ACTIVE, Status.EXITED, Status.CORPSE, Status.CORPSE_OUT, Status.GONE)
MONSTER_STATUSES = (Status.EMPTY, Status.ACTIVE, Status.GONE)
_HERO_SLOT = "a hero slot: status 1..5 (active, exited, corpse, corpse_out, gone), side 0 (hero)"
_MONSTER_SLOT = "a monster slot: status 0, or 1 (active) or 5 (gone) with side 1 (monster)"
N_ACT_STEPS = 3  # explore.STEP_CHOICE, STEP_EVENTS, STEP_ACTS


class SaveError(ValueError):
    """A saved state with a field outside its domain: names the field, the value and the domain."""

    def __init__(self, field: str, value, expected: str) -> None:
        self.field, self.value, self.expected = field, value, expected
        super().__init__(f"saved state: {field} is {value!r}; expected {expected}")


@dataclass(frozen=True)
class SaveDomain:
    """What the domains of a game's state depend on."""

    tables: Tables
    rules: Rules
    max_turns: int
    hero_cards: tuple[int, ...]  # the roster index of each hero in play, in seat order
    n_monster_cards: int
    n_spells: int
    n_item_cards: int


def check_state(state: State, domain: SaveDomain) -> None:
    """Raise :class:`SaveError` at the first field of ``state`` outside its domain."""
    _check_arrays(state, domain)
    _check_scalars(state, domain)
    _check_units(state, domain)
    _check_board(state, domain)
    _check_items(state, domain)
    _check_turn_lists(state, domain)


# ------------------------------------------------------------------------------------------ helpers


def _enum_text(enum: type[IntEnum]) -> str:
    names = ", ".join(f"{m.value} {m.name.lower()}" for m in enum)
    return f"a {enum.__name__} ({names})"


def _is_int(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _int_in(field: str, value, lo: int, hi: int, what: str = "") -> None:
    if not (_is_int(value) and lo <= value <= hi):
        raise SaveError(field, value, f"an int {lo}..{hi}" + (f" ({what})" if what else ""))


def _enum_in(field: str, value, enum: type[IntEnum]) -> None:
    if not (_is_int(value) and value in enum._value2member_map_):
        raise SaveError(field, value, _enum_text(enum))


def _first_bad(bad: np.ndarray) -> tuple[int, ...] | None:
    found = np.argwhere(bad)
    return tuple(int(i) for i in found[0]) if len(found) else None


def _array_in(state: State, name: str, lo, hi, where=None, what: str = "") -> None:
    """Every element of ``state.<name>`` (where ``where`` holds) within ``lo..hi`` (arrays or ints)."""
    value = getattr(state, name)
    bad = (value < lo) | (value > hi)
    if where is not None:
        bad &= where
    index = _first_bad(bad)
    if index is not None:
        low = lo if np.ndim(lo) == 0 else np.broadcast_to(lo, value.shape)[index]
        high = hi if np.ndim(hi) == 0 else np.broadcast_to(hi, value.shape)[index]
        field = f"{name}[{', '.join(map(str, index))}]"
        raise SaveError(
            field, value[index].item(), f"{int(low)}..{int(high)}" + (f" ({what})" if what else "")
        )


def _unit(state: State, u: int) -> str:
    return f"hero_{u}" if u < state.n_heroes else f"m{int(state.unit_uid[u])}"


# ------------------------------------------------------------------------------------------ checks


def _expected_shapes(domain: SaveDomain) -> dict[str, tuple[int, ...]]:
    t, adv = domain.tables, domain.tables.adventure
    shapes = {
        f.name: v.shape for f in fields(State) if isinstance(v := getattr(_DEFAULTS, f.name), np.ndarray)
    }
    n_doors, n_areas, n_spells = t.n_doors, t.n_areas, domain.n_spells
    shapes.update(
        occupant=(t.n_squares,),
        door_open=(n_doors,),
        door_alert=(n_doors,),
        door_hidden=(n_doors,),
        door_tried=(MAX_HEROES, n_doors),
        revealed=(n_areas,),
        visited=(n_areas,),
        patrol_corridors=(n_areas,),
        guard_uid=(len(adv.guards),),
        guard_slain=(len(adv.guards),),
        ambush_fired=(len(adv.ambushes),),
        trap_armed=(len(adv.traps),),
        trap_detected=(len(adv.traps),),
        event_done=(len(adv.events),),
        spell_known=(MAX_HEROES, n_spells),
        declined_spells=(MAX_HEROES, n_spells),
        ability_uses=(MAX_HEROES, MAX_ABILITIES),
        ability_turn=(MAX_HEROES, MAX_ABILITIES),
    )
    return shapes


def _check_arrays(state: State, domain: SaveDomain) -> None:
    for name, shape in _expected_shapes(domain).items():
        value, dtype = getattr(state, name), getattr(_DEFAULTS, name).dtype
        if not isinstance(value, np.ndarray):
            raise SaveError(name, type(value).__name__, f"an array of shape {list(shape)}")
        if value.shape != shape or value.dtype != dtype:
            raise SaveError(
                f"{name} (shape, dtype)",
                (list(value.shape), value.dtype.str),
                f"shape {list(shape)} and dtype {dtype.str} in this adventure",
            )


def _check_scalars(state: State, domain: SaveDomain) -> None:
    s, r, t = state, domain.rules, domain.tables
    _enum_in("phase", s.phase, Phase)
    if s.outcome not in OUTCOMES:
        raise SaveError("outcome", s.outcome, f"one of {', '.join(map(repr, OUTCOMES))}")
    if bool(s.outcome) != (s.phase == Phase.GAME_OVER):
        expected = "an outcome set at phase game_over and only there"
        raise SaveError("outcome at this phase", (s.outcome, Phase(s.phase).name.lower()), expected)
    n = len(domain.hero_cards)
    _int_in("n_heroes", s.n_heroes, n, n, f"the save's {n} heroes; a game has {MIN_HEROES}-{MAX_HEROES}")
    _int_in("light", s.light, 0, r.light_max, "Light 0..light.max")
    _int_in("turn", s.turn, 1, domain.max_turns, "the turn cap")
    _int_in("next_uid", s.next_uid, 0, 2**15 - 1)
    _int_in("controller", s.controller, -1, MAX_UNITS - 1, "a unit slot or -1")
    _int_in("idle_handoffs", s.idle_handoffs, 0, 2**MAX_HEROES - 1, "a bit per hero")
    _int_in("closed_bits", s.closed_bits, 0, 2**t.n_doors - 1, f"a bit per door, {t.n_doors} doors")
    _int_in("explored_bits", s.explored_bits, 0, 2**t.n_areas - 1, f"a bit per area, {t.n_areas} areas")
    _int_in("act_step", s.act_step, 0, N_ACT_STEPS - 1, "a step of Explore / Trade")
    _int_in("fight_index", s.fight_index, 0, len(s.fights), "0..the number of Fights")


def _check_units(state: State, domain: SaveDomain) -> None:
    s, n = state, state.n_heroes
    _array_in(s, "unit_status", 0, len(Status) - 1, what=_enum_text(Status))
    _array_in(s, "unit_side", -1, 1, what=_enum_text(Side))
    _array_in(s, "unit_how", 0, len(How) - 1, what=_enum_text(How))
    for u in range(MAX_UNITS):
        status, side = int(s.unit_status[u]), int(s.unit_side[u])
        if u < n:
            if status not in HERO_STATUSES or side != Side.HERO:
                raise SaveError(f"unit_status[{u}], unit_side[{u}]", (status, side), _HERO_SLOT)
            card = domain.hero_cards[u]
            _int_in(
                f"unit_card[{u}]", int(s.unit_card[u]), card, card, f"the roster card of the save's hero {u}"
            )
        elif status != EMPTY:
            if status not in MONSTER_STATUSES or side != Side.MONSTER:
                raise SaveError(f"unit_status[{u}], unit_side[{u}]", (status, side), _MONSTER_SLOT)
            _int_in(f"unit_card[{u}]", int(s.unit_card[u]), 0, domain.n_monster_cards - 1, "a monster card")
            _int_in(f"unit_uid[{u}]", int(s.unit_uid[u]), 0, s.next_uid - 1, "a monster id below next_uid")
    used = s.unit_status != EMPTY
    monsters = s.unit_uid[n:][used[n:]]
    if len(np.unique(monsters)) != len(monsters):
        raise SaveError("unit_uid", sorted(monsters.tolist()), "a distinct id for every monster")
    _array_in(s, "unit_traits", 0, 2 ** len(TRAITS) - 1, what="a bit per trait")
    for base in ("base_move", "base_fight", "base_damage", "base_health", "base_stamina", "base_magic"):
        _array_in(s, base, 0, np.iinfo(np.int16).max, used)
    slain = used & (s.unit_status == GONE) & (np.arange(MAX_UNITS) >= n)
    _array_in(s, "health", np.where(slain, np.iinfo(np.int16).min, 0), s.base_health, used, "0..base_health")
    _array_in(s, "stamina", 0, s.base_stamina, used, "0..base_stamina")
    _array_in(s, "magic", 0, s.base_magic, used, "0..base_magic")
    _array_in(s, "surprise_until", 0, np.iinfo(np.int16).max)
    _array_in(s, "move_left", 0, np.iinfo(np.int16).max)
    _array_in(s, "move_bought", 0, domain.rules.move_stamina_max, what="rules.move_stamina_max")
    _array_in(s, "move_from", -1, domain.tables.n_squares - 1, what="a square or -1")
    _array_in(s, "dragging", -1, n - 1, what="a hero's corpse or -1")


def _check_board(state: State, domain: SaveDomain) -> None:
    s, n_squares = state, domain.tables.n_squares
    _array_in(s, "unit_pos", -1, n_squares - 1, what=f"a square 0..{n_squares - 1} or -1 off the board")
    _array_in(s, "occupant", -1, MAX_UNITS - 1, what="a unit slot or -1")
    on_board = (s.unit_status == ACTIVE) | (s.unit_status == CORPSE)
    for u in range(MAX_UNITS):
        pos = int(s.unit_pos[u])
        if on_board[u] and pos < 0:
            raise SaveError(
                f"unit_pos[{u}] ({_unit(s, u)})", pos, f"a square 0..{n_squares - 1}: it is on the board"
            )
        if not on_board[u] and pos >= 0:
            raise SaveError(f"unit_pos[{u}]", pos, "-1: the unit is not on the board")
        if pos >= 0 and int(s.occupant[pos]) != u:
            raise SaveError(f"occupant[{pos}]", int(s.occupant[pos]), f"{u}, the unit at that square")
    for sq in np.flatnonzero(s.occupant >= 0).tolist():
        u = int(s.occupant[sq])
        if int(s.unit_pos[u]) != sq:
            raise SaveError(
                f"occupant[{sq}]", u, f"-1 or a unit standing there (unit {u} is at {int(s.unit_pos[u])})"
            )
    _array_in(s, "guard_uid", -1, s.next_uid - 1, what="a monster id or -1")


def _check_items(state: State, domain: SaveDomain) -> None:
    s, n = state, state.n_heroes
    _array_in(s, "item_card", -1, domain.n_item_cards - 1, what="an item card or -1")
    _array_in(
        s, "item_holder", -2, n - 1, what="a hero slot, -1 nobody, -2 destroyed: only heroes hold items"
    )
    held = s.item_holder >= 0
    _array_in(s, "item_card", 0, domain.n_item_cards - 1, held, "a held item is a card")
    counts = np.bincount(s.item_holder[held], minlength=n)
    _array_in_values("items held", counts, 0, MAX_ITEMS_HELD, "the item_k actions")
    _array_in(s, "item_used_turn", 0, s.turn, what="a turn so far")
    _array_in(s, "deck_cards", -1, domain.n_item_cards - 1, what="an item card or -1")
    _array_in(s, "deck_next", 0, MAX_DECK, what="a deck position")
    _array_in(s, "casting_spell", -1, domain.n_spells - 1, what="a spell or -1")
    _array_in(s, "casting_item", -1, MAX_ITEMS - 1, what="an item slot or -1")
    _array_in(s, "spell_turn", 0, s.turn, what="a turn so far")
    _array_in(s, "ability_uses", 0, np.iinfo(np.int16).max)
    _array_in(s, "ability_turn", 0, s.turn, what="a turn so far, 0: never")


def _array_in_values(field: str, values: np.ndarray, lo: int, hi: int, what: str) -> None:
    index = _first_bad((values < lo) | (values > hi))
    if index is not None:
        raise SaveError(f"{field}[{index[0]}]", int(values[index]), f"{lo}..{hi} ({what})")


def _int_rows(state: State, name: str, length: int) -> list[list[int]]:
    """``state.<name>``, a list of rows of ``length`` ints each."""
    rows = getattr(state, name)
    for i, row in enumerate(rows):
        if not (isinstance(row, list) and len(row) == length):
            raise SaveError(f"{name}[{i}]", row, f"a list of {length} ints")
        for j, v in enumerate(row):
            if not _is_int(v):
                raise SaveError(f"{name}[{i}][{j}]", v, "an int")
    return rows


def _ints(state: State, name: str) -> list[int]:
    """``state.<name>``, a flat list of ints."""
    values = getattr(state, name)
    for i, v in enumerate(values):
        if not _is_int(v):
            raise SaveError(f"{name}[{i}]", v, "an int")
    return values


def _columns(state: State, domain: SaveDomain) -> dict[str, tuple[tuple[int, str, int, int, str], ...]]:
    """Per list field of rows: ``(column, name, lowest, highest, what)`` of each column checked."""
    n, r, last_unit = state.n_heroes, domain.rules, MAX_UNITS - 1
    return {
        "stack": ((STACK_UNIT, "unit", 0, last_unit, "a unit slot"),),
        "fights": (
            (FIGHT_MONSTER, "monster", n, last_unit, "a monster slot"),
            (FIGHT_HERO, "hero", 0, n - 1, "a hero slot"),
            (FIGHT_M_SPEND, "monster Stamina", 0, r.fight_stamina_max, "rules.fight_stamina_max"),
            (FIGHT_H_SPEND, "hero Stamina", 0, r.fight_stamina_max, "rules.fight_stamina_max"),
            (FIGHT_WINNER, "winner", -1, 2, "-1 unresolved, 0 tie, 1 hero, 2 monster"),
        ),
        "effects": (
            (EFFECT_UNIT, "unit", 0, last_unit, "a unit slot"),
            (EFFECT_KIND, "kind", 0, len(EFFECT_KINDS) - 1, ", ".join(EFFECT_KINDS)),
            (EFFECT_TURNS, "turns left", 0, 2**31 - 1, ""),
        ),
        "cast": (
            (CAST_CASTER, "caster", 0, n - 1, "a hero slot"),
            (CAST_SPELL, "spell", 0, domain.n_spells - 1, "a spell"),
            (CAST_ITEM, "item", -1, MAX_ITEMS - 1, "an item slot or -1"),
            (CAST_MODE, "mode", -1, 1, "-1 not chosen, 0 normal, 1 overcast"),
            (CAST_TARGET, "target", -1, last_unit, "a unit slot or -1"),
            (CAST_MOMENT, "moment", 0, 2, "0 combat, 1 movement, 2 explore"),
        ),
        "mental": (
            (MENTAL_AGGRESSOR, "aggressor", 0, last_unit, "a unit slot"),
            (MENTAL_DEFENDER, "defender", 0, last_unit, "a unit slot"),
            (MENTAL_BID, "bid", -1, r.mental_bid_max, "rules.mental_bid_max, -1: not yet"),
            (MENTAL_PURPOSE, "purpose", 0, 1, "0 a spell, 1 a Mind Lash"),
        ),
    }


_ROW_LENGTHS = {  # the layouts of state.py
    "stack": STACK_B + 1,
    "fights": FIGHT_WINNER + 1,
    "effects": EFFECT_UID + 1,
    "cast": CAST_MOMENT + 1,
    "mental": MENTAL_PURPOSE + 1,
}
_SINGLE_ROWS = ("cast", "mental")  # [] or one row, not a list of rows


def _check_row(field: str, row: list[int], columns: tuple[tuple[int, str, int, int, str], ...]) -> None:
    for column, name, lo, hi, what in columns:
        _int_in(f"{field}[{column}] ({name})", row[column], lo, hi, what)


def _check_turn_lists(state: State, domain: SaveDomain) -> None:
    s, n = state, state.n_heroes
    for name, columns in _columns(s, domain).items():
        if name in _SINGLE_ROWS:
            row = _ints(s, name)
            if row and len(row) != _ROW_LENGTHS[name]:
                raise SaveError(name, row, f"[] or {_ROW_LENGTHS[name]} ints")
            if row:
                _check_row(name, row, columns)
        else:
            for i, row in enumerate(_int_rows(s, name, _ROW_LENGTHS[name])):
                _check_row(f"{name}[{i}]", row, columns)
    for i, row in enumerate(s.stack):
        _enum_in(f"stack[{i}][{STACK_KIND}] (decision kind)", row[STACK_KIND], Decision)
    if not s.outcome and not s.stack:
        raise SaveError("stack", [], "the pending decision on top while the game is not over")
    if s.stack and s.unit_status[s.stack[-1][STACK_UNIT]] != ACTIVE:
        field = f"stack[{len(s.stack) - 1}][{STACK_UNIT}]"
        raise SaveError(field, s.stack[-1][STACK_UNIT], "a unit on the board: the decision asked is its")
    for name in ("queue", "mind_queue"):
        for i, u in enumerate(_ints(s, name)):
            _int_in(f"{name}[{i}]", u, n, MAX_UNITS - 1, "a monster slot")
    for i, v in enumerate(_ints(s, "act_todo")):
        _int_in(f"act_todo[{i}]", v, 0, max(MAX_HEROES, len(domain.tables.adventure.events)) - 1)


_DEFAULTS = State()  # the dtype of every array, and the shape of those no adventure changes

__all__ = ["SaveDomain", "SaveError", "check_state"]
