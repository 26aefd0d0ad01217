"""Observations (layout v1, env ``dungeon_v1``): named pieces a network can use, declared once.

One float32 vector, its layout declared once as ``[(name, shape)]`` (``OBS_SPEC``), in three parts:

- ``board``: planes ``[C, 28, 24]`` (``PLANES``), first in the vector, for convolution;
- entity tables, one row per thing: ``figures`` ``[64, F]`` (one row per figure slot, the acting
  figure marked), ``own_items`` and ``own_spells`` (the observing hero's, row ``k`` is ``ITEM_k``
  / ``SPELL_k``), ``candidates`` (row ``k`` is ``TARGET_k``) and ``item_table`` (every item card in
  play). Identities (a figure's card, an item's card, a spell) are small integer ids (``kind``,
  ``card``, ``spell``: 1 + the index in the catalogue, 0 for none or unknown), and so are pointers
  to a row (``holder``, ``row``: 1 + the row, 0 for none): an embedding reads them;
- the decision context: role, whose turn, phase, the decision asked, its args, Light, turn.

Every agent gets the same layout (one shared observation space); the ``role`` piece tells heroes
from the Dungeon Master. Values lie in ``[0, 1]`` except the id columns, whose bound is the
observation space's ``high``. ``observation_format="dict"`` gives the same pieces as a
``gymnasium.spaces.Dict`` (``DICT_PIECES``: the tables by name, the context pieces concatenated as
``context``). Run ``python -m dungeon_env.observation`` (or call :func:`layout_markdown`) for the
table of pieces, planes and columns, generated from the spec (``docs/OBSERVATION.md``).

What each side sees:

- **Heroes** see what heroes may know, each thing shown because heroes may know it (never because
  nobody listed it as hidden): the layout (rooms, corridors, walls, doors, furniture, blockages,
  exits) of revealed areas, an edge's wall or door if a square on either side is revealed, an
  undiscovered secret door as a wall; detected traps and hazards on revealed squares; every hero
  (on the board, out, or a corpse) and the monsters on revealed squares, nothing of any other figure
  (effects, ability flags, acting and candidate marks included); and the identity of identified
  items only (a face-down item shows its deck, never its card; ``item_table`` lists the cards held
  by heroes or lying where found). Hero abilities are public, as the hero cards are: a hero's
  ``kind`` names its card, hence its abilities, and ``ready_k`` says which Active ones have a use
  left (for ``ABILITY_k``). Their ``figures`` rows are their own numbering: the heroes in their
  slots, then the monsters they see in the order heroes first saw them, each with its ``name``
  (``m<k>``: the k-th monster heroes saw, the same for its whole life; the rows and names come
  from the heroes' knowledge, ``engine.side_knowledge``). A monster's engine slot and id count
  the fog monsters, so neither is shown; a
  candidate's ``row``, an item's ``holder`` and a Mental Combat's opponent are given in the heroes'
  numbering too).
- **The DM** sees everything heroes see plus the layout of unrevealed areas, every monster, hidden
  traps (``trap_hidden``), undiscovered secret doors (``secret_door``) and every item's identity.

The pieces that describe the decision (``phase``, ``decision``, ``decision_args``,
``target_purpose``, ``acting``, the ``acting`` figure column and ``acting_unit`` plane, and the
``candidates`` of a ``choose_target`` decision) say who is asked what. The DM sees them all. Heroes
see them when the decision is about a figure they see (a hero, or a monster on a revealed square);
about any other figure (the DM moving a monster in the fog) they see only ``acting`` = dm and the
phase. In heroes' ``decision_args`` each arg is shown by a rule of its decision kind
(``_HERO_ARGS``): public values as they are (item slots, spell ids, target purposes, ability
indices, moments, bids), a unit slot as the figure's row if heroes see it, and a room event
(``event_choice``, ``claim_item``: ``a`` is its index in the adventure's list, which counts events
in rooms heroes have not seen) as its room's board area index instead; an arg with no rule is not
shown.

``Observer`` builds an observation with a handful of numpy operations into a copy of a per-role
template: the board planes that change only when an area is revealed, a door opens or a trap is
found, and the figure columns that change only when a figure is placed, dies or leaves or an item
changes hands, are kept between calls; only the figures' values and squares and the decision
context are written per call. A game on the compiled core is observed by the core instead
(``src/core/observe.cpp``, the same values bit for bit, docs/CORE.md "The observation in the core").

Layout history: v0 (``dungeon_v0``; its observer and the policies trained on it were kept in
``agents/`` until issue 53 retired them) had a ``units`` piece ``[feature, slot]`` with one-hot
card columns and an ``all_items`` table of one-hot cards (25,083 floats); v1 has the ``figures``
table ``[slot, feature]``, integer ids instead of the one-hots (the ability columns follow from
``kind``), ``item_table``, and the observing hero's ``own_items`` / ``own_spells`` (``items`` /
``spells`` in v0; a dict key ``items`` would clash with ``torch.nn.ModuleDict.items`` in SB3's
extractors).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

import numpy as np

from dungeon_env.content import load_heroes, load_items, load_monsters, load_spells
from dungeon_env.content.model import DECKS, HEIGHT, TRAITS, WIDTH
from dungeon_env.engine import abilities
from dungeon_env.engine.actions import (
    DECISION_NAMES,
    MAX_ABILITIES,
    MAX_HEROES,
    MAX_ITEMS_HELD,
    MAX_SPELLS_KNOWN,
    MAX_TARGETS,
    N_ACTIONS,
    PHASE_NAMES,
    TARGET_LOOT,
    Decision,
)
from dungeon_env.engine.core import _core
from dungeon_env.engine.decisions import target_candidates
from dungeon_env.engine.knowledge import known_traps, seen_squares
from dungeon_env.engine.side_knowledge import HEROES, knowledge_of
from dungeon_env.engine.state import (
    ACTIVE,
    CORPSE,
    CORPSE_OUT,
    EFFECT_UNIT,
    EXITED,
    MAX_ITEMS,
    MAX_UNITS,
    How,
)

HERO, DM = 0, 1  # roles
_core_rules = _core.rules
MAX_NAME = 2**15  # a monster's ``name`` column: 1 + its number (the engine's ids are int16)
N_SQUARES = WIDTH * HEIGHT

# Reviewed for v1: each plane carries something a player decides on; none could be merged without
# losing it (an open door still marks where one room ends; a hazard blocks, a detected armed trap
# can be disarmed or jumped; corpses can be dragged and looted). The two DM-only planes stay 0 for
# heroes, so that both sides share one space.
PLANES = (
    ("revealed", "the square's room or corridor has been revealed (0: still in the fog)"),
    ("corridor", "a corridor square; a known square that is not a corridor is a room (layout)"),
    ("wall_e", "a wall on the square's east side (the west side is the east side of the square before)"),
    ("wall_s", "a wall on the south side (the north side is the south side of the square above)"),
    ("door_closed_e", "a closed door on the east side"),
    ("door_closed_s", "a closed door on the south side"),
    ("door_open_e", "an open door on the east side"),
    ("door_open_s", "an open door on the south side"),
    ("secret_door", "DM only: an undiscovered secret door on the east or south side (heroes see a wall)"),
    ("furniture", "furniture (an obstacle that can be jumped)"),
    ("blockage", "a blockage (blocks movement and sight)"),
    ("exit", "an exit square"),
    ("trap_detected", "an armed trap the heroes have detected (heroes: on revealed squares)"),
    ("hazard", "a sprung trap that stays and blocks movement, a pit (heroes: on revealed squares)"),
    ("trap_hidden", "DM only: an armed trap the heroes have not detected"),
    ("heroes", "a living hero on the board"),
    ("monsters", "a monster (heroes: in revealed areas only)"),
    ("corpses", "a hero's corpse"),
    ("acting_unit", "the figure the current decision is about (heroes: a figure they see)"),
)
PLANE = {name: i for i, (name, _) in enumerate(PLANES)}
N_PLANES = len(PLANES)

_HERO_IDS = tuple(load_heroes())
_MONSTER_IDS = tuple(load_monsters())
_ITEM_IDS = tuple(load_items())
_SPELL_IDS = tuple(load_spells())
KINDS = _HERO_IDS + _MONSTER_IDS  # a figure's ``kind`` is 1 + its index here
ITEM_CARDS = _ITEM_IDS  # an item's ``card`` is 1 + its index here
SPELLS = _SPELL_IDS  # a spell's ``spell`` is 1 + its index here

FIGURE_COLUMNS = (
    ("present", "the row holds a figure the observer may see (all other columns 0 otherwise)"),
    ("hero", "side: hero"),
    ("monster", "side: monster"),
    ("me", "the observing hero itself"),
    ("acting", "the figure the current decision is about (heroes: a figure they see)"),
    ("candidate", "a candidate of the current choose_target decision"),
    ("active", "status: on the board and alive"),
    ("exited", "status: a hero that left the dungeon"),
    ("dead", "status: a dead hero (its corpse on the board or carried out)"),
    ("x", "column / 23 (0 when off the board)"),
    ("y", "row / 27 (0 when off the board)"),
    ("health", "Health / base Health"),
    ("stamina", "Stamina / base Stamina"),
    ("magic", "Magic / base Magic"),
    ("move_left", "squares left this Movement phase / 15"),
    ("move_bought", "Stamina spent on movement this phase / 3"),
    ("deaths_door", "at Death's Door"),
    ("exhausted", "Exhausted"),
    ("surprised", "surprised"),
    ("inactive", "a Guard that has not woken"),
    ("acted", "did something that breaks Rest this turn"),
    ("fought", "in a Fight this turn"),
    ("move_done", "finished its movement this phase"),
    ("dragging", "dragging a corpse"),
    ("effects", "ongoing effects on it / 3"),
    ("items_held", "items held / 12"),
    ("base_health", "base Health / 20"),
    ("base_stamina", "base Stamina / 10"),
    ("base_magic", "base Magic / 10"),
    ("fight", "base Fighting Score / 10"),
    ("move", "base Movement / 10"),
    ("damage", "base Damage / 5"),
    *((t, f"trait {t}") for t in TRAITS),
    *((f"how_{h.name.lower()}", f"a monster that came as: {h.name.lower()}") for h in How if h != How.HERO),
    *(
        (f"ready_{k}", f"the k-th ability of its card (k = {k}) is Active with a use left: ABILITY_{k}")
        for k in range(MAX_ABILITIES)
    ),
    ("kind", f"id: its card, 1 + the index in KINDS (the {len(_HERO_IDS)} heroes, then the monsters)"),
    (
        "name",
        "id: a monster's name for the observer, 1 + k of its id m<k> (heroes: the k-th monster they "
        "first saw, the same for its whole life; the DM: the engine's id); 0 for a hero",
    ),
)
FCOL = {name: i for i, (name, _) in enumerate(FIGURE_COLUMNS)}

_CARD_TEXT = "id: the card, 1 + the index in ITEM_CARDS; 0 while face down (heroes; the DM sees all)"
ITEM_COLUMNS = (
    ("present", "the row holds an item"),
    ("identified", "face up: its identity is known"),
    ("locked", "an Identify roll of 1: no more tries this adventure"),
    ("used_this_turn", "a reusable item already used this turn"),
    *((f"deck_{d}", f"deck: {d}") for d in DECKS),
    ("card", _CARD_TEXT),
)
ICOL = {name: i for i, (name, _) in enumerate(ITEM_COLUMNS)}
SPELL_COLUMNS = (
    ("present", "the row holds a known spell"),
    ("level", "spell level / 3"),
    ("spell", "id: the spell, 1 + the index in SPELLS"),
)
SCOL = {name: i for i, (name, _) in enumerate(SPELL_COLUMNS)}
CANDIDATE_COLUMNS = (
    ("present", "TARGET_k is a candidate"),
    ("unit", "the candidate is a figure"),
    ("item", "the candidate is an item (loot from a corpse)"),
    ("row", "id: 1 + its figures row (heroes: in their numbering), or 1 + its item_table row"),
    ("x", "the figure's (or the corpse's) column / 23"),
    ("y", "row / 27"),
    ("identified", "an item candidate that is face up"),
    *((f"deck_{d}", f"deck: {d}") for d in DECKS),
    ("card", _CARD_TEXT),
)
CCOL = {name: i for i, (name, _) in enumerate(CANDIDATE_COLUMNS)}
ITEM_TABLE_COLUMNS = (
    ("present", "the item slot holds a card the observer may know of"),
    ("holder", "id: 1 + the figures row of its holder, 0 if nobody holds it"),
    ("lying", "found and left lying (held by nobody)"),
    *ITEM_COLUMNS[1:],
)
TCOL = {name: i for i, (name, _) in enumerate(ITEM_TABLE_COLUMNS)}
TARGET_PURPOSES = ("spell", "item", "give", "loot", "ability")
ACTING = tuple(f"hero_{i}" for i in range(MAX_HEROES)) + ("dm",)
# The bound of each id column (its values are 0..bound); every other value lies in [0, 1].
ID_BOUNDS = {
    "kind": len(KINDS),
    "name": MAX_NAME,
    "card": len(ITEM_CARDS),
    "spell": len(SPELLS),
    "holder": MAX_UNITS,
    "row": max(MAX_UNITS, MAX_ITEMS),
}


class Spec:
    """An observation layout: named pieces with shapes, laid end to end in one float32 vector, each
    with the names of its last axis' columns (or None) for the per-entry bounds."""

    def __init__(self, pieces: list[tuple[str, tuple[int, ...], str, tuple | None]]) -> None:
        self.pieces = tuple((name, tuple(shape)) for name, shape, _, _ in pieces)
        self.meaning = {name: text for name, _, text, _ in pieces}
        self.columns = {name: columns for name, _, _, columns in pieces}
        self.offsets: dict[str, int] = {}
        offset = 0
        for name, shape in self.pieces:
            self.offsets[name] = offset
            offset += int(np.prod(shape))
        self.size = offset

    def slice(self, name: str) -> slice:
        start = self.offsets[name]
        return slice(start, start + int(np.prod(dict(self.pieces)[name])))

    def views(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """Named views (no copies) into a flat vector of this layout."""
        if flat.shape != (self.size,):
            raise ValueError(f"expected a flat observation of shape ({self.size},), got {flat.shape}")
        return {name: flat[self.slice(name)].reshape(shape) for name, shape in self.pieces}

    def high(self) -> np.ndarray:
        """The upper bound of every entry: 1, or the bound of an id column (``ID_BOUNDS``)."""
        high = np.ones(self.size, np.float32)
        for name, shape in self.pieces:
            columns = self.columns[name]
            if columns is None:
                continue
            view = high[self.slice(name)].reshape(shape)
            for j, (column, _) in enumerate(columns):
                if column in ID_BOUNDS:
                    view[..., j] = ID_BOUNDS[column]
        return high


OBS_SPEC = Spec(
    [
        (
            "board",
            (N_PLANES, HEIGHT, WIDTH),
            "board planes, [plane, row y, column x]: see the plane table",
            None,
        ),
        (
            "figures",
            (MAX_UNITS, len(FIGURE_COLUMNS)),
            "[figure slot, feature]: one row per slot (heroes first), see the figure columns; heroes: "
            "the monsters they see follow the heroes, in the order heroes first saw them "
            "(column name: their stable name)",
            FIGURE_COLUMNS,
        ),
        (
            "own_items",
            (MAX_ITEMS_HELD, len(ITEM_COLUMNS)),
            "the observing hero's items; row k is ITEM_k",
            ITEM_COLUMNS,
        ),
        (
            "own_spells",
            (MAX_SPELLS_KNOWN, len(SPELL_COLUMNS)),
            "the observing hero's spells; row k is SPELL_k",
            SPELL_COLUMNS,
        ),
        (
            "candidates",
            (MAX_TARGETS, len(CANDIDATE_COLUMNS)),
            "choose_target: row k is TARGET_k",
            CANDIDATE_COLUMNS,
        ),
        (
            "item_table",
            (MAX_ITEMS, len(ITEM_TABLE_COLUMNS)),
            "every item card in play by item slot: holder, deck, card (heroes: cards held by heroes or "
            "lying where found, identified cards only)",
            ITEM_TABLE_COLUMNS,
        ),
        ("role", (2,), "one-hot: hero, dm", None),
        ("me", (MAX_HEROES,), "one-hot: the observing hero's index (all 0 for the DM)", None),
        ("my_turn", (1,), "1 if the observer is the agent asked to act now", None),
        ("acting", (len(ACTING),), "one-hot: the agent asked to act (hero_0..hero_4, dm)", None),
        ("phase", (len(PHASE_NAMES),), "one-hot: the turn phase, combat sub-steps included", None),
        (
            "decision",
            (len(DECISION_NAMES),),
            "one-hot: the kind of decision asked (heroes: 0 when about a figure they do not see)",
            None,
        ),
        (
            "decision_args",
            (2,),
            "the decision's two context ints a, b as (v + 1) / 128 (0 when unused or not shown; "
            "heroes: a room event's a is its room's board area index)",
            None,
        ),
        (
            "target_purpose",
            (len(TARGET_PURPOSES),),
            "choose_target: what is chosen (spell, item, give, loot, ability)",
            None,
        ),
        ("combat", (1,), "a monster is on the board: the Combat Turn Sequence is in effect", None),
        ("light", (1,), "Light / 20", None),
        ("turn", (1,), "turn / max_turns", None),
    ]
)
TABLES = ("board", "figures", "own_items", "own_spells", "candidates", "item_table")
CONTEXT = tuple(name for name, _ in OBS_SPEC.pieces if name not in TABLES)
# observation_format="dict": the tables by name, the context pieces (adjacent, last) as one vector
DICT_PIECES = (*TABLES, "context")
_CONTEXT = slice(OBS_SPEC.offsets[CONTEXT[0]], OBS_SPEC.size)
if [name for name, _ in OBS_SPEC.pieces] != [*TABLES, *CONTEXT]:
    raise RuntimeError("observation: the tables come first, the context pieces last")


def unflatten(obs) -> dict[str, np.ndarray]:
    """The named pieces (views, no copies for a flat vector) of an observation in either format:
    a flat vector, ``{"observation": flat, ...}``, a ``state()``, or a dict-format observation."""
    if isinstance(obs, dict) and "context" in obs:
        flat = as_flat(obs)
    else:
        flat = obs["observation"] if isinstance(obs, dict) else obs
    return OBS_SPEC.views(np.asarray(flat))


def as_dict(flat: np.ndarray) -> dict[str, np.ndarray]:
    """A flat observation as the dict format's pieces (views into ``flat``)."""
    views = OBS_SPEC.views(flat)
    out = {name: views[name] for name in TABLES}
    out["context"] = flat[_CONTEXT]
    return out


def as_flat(pieces: dict[str, np.ndarray]) -> np.ndarray:
    """A dict-format observation (its ``DICT_PIECES``; other keys such as ``action_mask`` are
    ignored) as the flat vector: the inverse of :func:`as_dict`."""
    return np.concatenate([np.asarray(pieces[name], np.float32).ravel() for name in DICT_PIECES])


def dict_high() -> dict[str, np.ndarray]:
    """Per dict piece, the upper bound of each entry (see ``Spec.high``)."""
    return as_dict(OBS_SPEC.high())


def layout_markdown(spec: Spec = OBS_SPEC) -> str:
    """Markdown tables of the layout: the pieces, then the board planes and the table columns."""
    rows = ["| piece | shape | offset | meaning |", "|---|---|---:|---|"]
    for name, shape in spec.pieces:
        rows.append(
            f"| `{name}` | {'x'.join(map(str, shape))} | {spec.offsets[name]} | {spec.meaning[name]} |"
        )
    rows.append(f"| | **{spec.size}** floats | | |")
    parts = ["\n".join(rows)]
    parts.append(
        '`observation_format="dict"`: the keys '
        + ", ".join(f"`{name}`" for name in DICT_PIECES)
        + " and `action_mask`; `context` is "
        + ", ".join(f"`{name}`" for name in CONTEXT)
        + f" end to end ({_CONTEXT.stop - _CONTEXT.start} floats, in this order)."
    )
    ids = ", ".join(f"`{name}` 0..{bound}" for name, bound in ID_BOUNDS.items())
    parts.append(f"Id columns (small integers, 0 for none; every other value lies in [0, 1]): {ids}.")
    for title, columns in (
        ("Board planes (`board[i]`, one 28x24 plane each)", PLANES),
        ("Figure columns (`figures[:, j]`, one row per figure slot)", FIGURE_COLUMNS),
        ("Item columns (`own_items[:, j]`)", ITEM_COLUMNS),
        ("Spell columns (`own_spells[:, j]`)", SPELL_COLUMNS),
        ("Candidate columns (`candidates[:, j]`)", CANDIDATE_COLUMNS),
        ("Item-table columns (`item_table[:, j]`)", ITEM_TABLE_COLUMNS),
    ):
        table = ["| index | name | meaning |", "|---:|---|---|"]
        table += [f"| {i} | `{name}` | {text} |" for i, (name, text) in enumerate(columns)]
        parts.append(f"{title}:\n\n" + "\n".join(table))
    for title, names in (("KINDS", KINDS), ("ITEM_CARDS", ITEM_CARDS), ("SPELLS", SPELLS)):
        parts.append(
            f"`{title}` (id = 1 + index): " + ", ".join(f"{i + 1} `{n}`" for i, n in enumerate(names))
        )
    return "\n\n".join(parts)


# --------------------------------------------------------------------------------- static look-ups

_NF = len(FIGURE_COLUMNS)
_BOARD = N_PLANES * N_SQUARES  # the board is the first piece
_FIGURES = OBS_SPEC.slice("figures")
_ITEMS = OBS_SPEC.slice("own_items")
_SPELLS = OBS_SPEC.slice("own_spells")
_ITEM_TABLE = OBS_SPEC.slice("item_table")
_OFF = OBS_SPEC.offsets
# x, y of every square, plus a last row of zeros for "off the board" (position -1)
_XY = np.zeros((N_SQUARES + 1, 2), np.float32)
_XY[:N_SQUARES, 0] = (np.arange(N_SQUARES) % WIDTH) / (WIDTH - 1)
_XY[:N_SQUARES, 1] = (np.arange(N_SQUARES) // WIDTH) / (HEIGHT - 1)
_TRAIT_BITS = np.array([[(b >> i) & 1 for i in range(len(TRAITS))] for b in range(256)], np.float32)
# The per-figure values written at every call: state field and normaliser, in column order (the
# first three are ratios to the base value instead).
_DYNAMIC = (
    ("health", 0),
    ("stamina", 0),
    ("magic", 0),
    ("move_left", 15),
    ("move_bought", 3),
    ("deaths_door", 1),
    ("exhausted", 1),
    ("surprised", 1),
    ("inactive", 1),
    ("acted", 1),
    ("fought", 1),
    ("move_done", 1),
)
_GET_DYNAMIC = operator.attrgetter(*(name for name, _ in _DYNAMIC))
# The figure columns scaled from a base value that are kept between calls: column, state field, normaliser.
_STATIC_NORMS = (
    ("base_health", "base_health", 20),
    ("base_stamina", "base_stamina", 10),
    ("base_magic", "base_magic", 10),
    ("fight", "base_fight", 10),
    ("move", "base_move", 10),
    ("damage", "base_damage", 5),
)
_EFFECTS_NORM = 3  # the effects column: ongoing effects / 3
_LIGHT_NORM = 20  # Light / 20
_ARGS_NORM, _ARGS_MAX = 128, 127  # a decision arg v: (v + 1) / 128, 1 from 127 on
_SPELL_LEVEL_NORM = 3  # a spell's level / 3
_D0 = FCOL["health"]
_D1 = _D0 + len(_DYNAMIC)
if [FCOL[name] for name, _ in _DYNAMIC] != list(range(_D0, _D1)):
    raise RuntimeError("observation: the dynamic figure columns must be contiguous and in _DYNAMIC order")
_N_HERO_CARDS = len(_HERO_IDS)
_READY = FCOL["ready_0"]
_ITEM_CARDS = tuple(load_items().values())
# each card's deck, then the heroes' view's placeholder of each deck (a face-down card in their view:
# ``sideview.PLACEHOLDER_ITEMS``, after the catalogue)
_DECK_OF = np.array([DECKS.index(c.deck) for c in _ITEM_CARDS] + list(range(len(DECKS))), np.int64)
MASKS_KEPT = 4096  # legal-action lists whose masks are kept (shared by the process's observers)
_MASKS: dict[tuple, np.ndarray] = {}
_XY_COL = FCOL["x"]
_XY_T = np.ascontiguousarray(_XY.T)
if (FCOL["y"], _D0) != (_XY_COL + 1, _XY_COL + 2):
    raise RuntimeError("observation: x, y come just before the dynamic figure columns")
_ME_COL = FCOL["me"]
_ACTING_COL = FCOL["acting"]
_CANDIDATE_COL = FCOL["candidate"]
_EFFECTS_COL = FCOL["effects"]


def _item_rows(s, slots: np.ndarray, show_all: bool, columns: dict[str, int]) -> np.ndarray:
    """Table rows for item slots: identified / locked / used flags, deck one-hot and card id
    (the card only if the item is face up, or ``show_all``)."""
    rows = np.zeros((len(slots), len(columns)), np.float32)
    n = np.arange(len(slots))
    cards = s.item_card[slots].astype(np.int64)
    known = s.item_known[slots]
    rows[:, columns["present"]] = 1.0
    rows[:, columns["identified"]] = known
    rows[:, columns["locked"]] = s.item_locked[slots]
    rows[:, columns["used_this_turn"]] = s.item_used_turn[slots] == s.turn
    rows[n, columns["deck_treasure"] + _DECK_OF[cards]] = 1.0
    rows[:, columns["card"]] = np.where(known | show_all, cards + 1, 0)
    return rows


# --------------------------------------------------------------------------------- the observer


class Observer:
    """Builds the observations of one env's game for any agent, with small caches between calls.

    Per role it keeps a *template*: the board planes that change only when an area is revealed, a
    door opens or a trap is found (as bytes: they are 0 or 1), and the rest of the vector with the
    figure columns that change only when a figure is placed, dies or leaves, or an item changes
    hands (:class:`_Figures`). A call copies the template into a fresh vector, then writes the
    figures, the per-figure values and the decision context.

    A game that plays on the compiled core (``game.engine == "core"``) is observed by the core's
    builder (``src/core/observe.cpp``: the same values bit for bit, from the engine's state, with
    the layout handed over from this module's tables, :func:`core_layout`); only what heroes know
    of the monsters comes from Python (``engine.side_knowledge``); a heroes' side view on the core
    too. A game on the Python rules (the reference) is observed by the numpy builder, and so is
    every game if ``use_core`` is False (the reference the core is checked against)."""

    def __init__(self, use_core: bool = True) -> None:
        self.use_core = use_core
        self.reset()

    def reset(self) -> None:
        self._templates: dict[int, _Template] = {}  # by role
        self._figures: _Figures | None = None
        self._block = np.zeros((_D1 - _XY_COL, MAX_UNITS), np.float32)  # x, y, the dynamic values

    def observe(self, game, role: int, me: int, to_act: bool, max_turns: int) -> dict[str, np.ndarray]:
        """``{"observation": float32 vector, "action_mask": int8}`` for hero ``me`` (role HERO) or
        the DM; the mask holds the legal actions if ``to_act``, else zeros."""
        engine = game._engine if self.use_core and game.asked is None else None
        if engine is not None:
            out = np.empty(OBS_SPEC.size, np.float32)
            mask = np.empty(N_ACTIONS, np.int8)
            _core_fill(game, engine, role, me, to_act, max_turns, out, mask)
            return {"observation": out, "action_mask": mask}
        out = self._fill(game, role, me, to_act, max_turns)
        return {"observation": out, "action_mask": self.mask(game, to_act)}

    @staticmethod
    def mask(game, to_act: bool) -> np.ndarray:
        """The action mask: the legal actions of the decision asked if ``to_act``, else zeros (a
        fresh array; the masks of legal-action lists are kept for every observer of the process)."""
        if not to_act:
            return np.zeros(N_ACTIONS, np.int8)
        legal = tuple(game.legal_actions())
        mask = _MASKS.get(legal)
        if mask is None:
            if len(_MASKS) >= MASKS_KEPT:
                _MASKS.clear()
            mask = _MASKS[legal] = np.zeros(N_ACTIONS, np.int8)
            mask[list(legal)] = 1
        return mask.copy()

    def state(self, game, max_turns: int) -> np.ndarray:
        """The global state: the DM's view, which is everything (identities, traps, the fog's content)."""
        engine = game._engine if self.use_core and game.asked is None else None
        if engine is not None:
            out = np.empty(OBS_SPEC.size, np.float32)
            _core_fill(game, engine, DM, -1, False, max_turns, out, np.empty(N_ACTIONS, np.int8))
            return out
        return self._fill(game, DM, -1, False, max_turns)

    def _fill(self, game, role: int, me: int, to_act: bool, max_turns: int) -> np.ndarray:
        s = game.state
        figures = self._figures_of(game)
        template = self._template(game, role, figures)
        out = np.empty(OBS_SPEC.size, np.float32)
        out[:_BOARD] = template.board
        out[_BOARD:] = template.rest
        table = out[_FIGURES].reshape(MAX_UNITS, _NF)
        pos = s.unit_pos
        # per-figure x, y and values, built [value, figure] (contiguous: fast) then put in place in
        # one copy: scaled (0 for absent figures) and clipped
        block = self._block
        np.multiply(_XY_T.take(pos, axis=1), figures.present, out=block[:2])
        np.multiply(np.array(_GET_DYNAMIC(s)), figures.scale, out=block[2:])
        np.minimum(block[2:], 1.0, out=block[2:])
        table[:, _XY_COL:_D1] = block.T
        slots, planes, sight = figures.slots, figures.planes, None
        if role == HERO:
            # The figures heroes may see, by their knowledge: every hero, and the monsters it says
            # they see, in the order they first saw them, by their names for them.
            sight = figures.sight(s, knowledge_of(game, HEROES) if figures.any_monster else None)
            slots, planes = sight.slots, sight.planes
            if 0 <= me < s.n_heroes:
                table[me, _ME_COL] = 1.0
                cards = figures.cards(game, me)
                if cards is not None:
                    out[_ITEMS.start : _SPELLS.stop] = cards
        out[planes + pos[slots]] = 1.0  # the figures on the board (heroes: those they see)
        if s.effects:
            counts = np.bincount([row[EFFECT_UNIT] for row in s.effects], minlength=MAX_UNITS)[:MAX_UNITS]
            table[:, _EFFECTS_COL] = np.minimum(counts / _EFFECTS_NORM, 1.0) * figures.present
        column = None if sight is None else sight.column
        _fill_context(game, role, me, to_act, max_turns, out, table, len(figures.monsters) > 0, column)
        if sight is not None:
            sight.to_hero_rows(table)
        return out

    def _figures_of(self, game) -> _Figures:
        s = game.state
        key = (
            s.next_uid,
            s.turn,
            s.ability_uses.tobytes(),
            s.ability_turn.tobytes(),
            s.unit_status.tobytes(),
            s.dragging.tobytes(),
            s.item_card.tobytes(),
            s.item_holder.tobytes(),
            s.item_known.tobytes(),
            s.item_locked.tobytes(),
            s.item_used_turn.tobytes(),
            s.spell_known.tobytes(),
        )
        if self._figures is None or self._figures.key != key:
            self._figures = _Figures(key, s)
            # Active abilities with a use left (public, like cards): they change only with the key
            for h, k in abilities.ready_pairs(game):
                self._figures.static[h, _READY + k] = 1.0
        return self._figures

    def _template(self, game, role: int, figures: _Figures) -> _Template:
        s = game.state
        board_key = (
            s.closed_bits,
            s.revealed.tobytes(),
            s.door_hidden.tobytes(),
            s.trap_armed.tobytes(),
            s.trap_detected.tobytes(),
        )
        template = self._templates.get(role)
        if template is None:
            template = self._templates[role] = _Template(
                np.zeros(_BOARD, np.uint8), np.zeros(OBS_SPEC.size - _BOARD, np.float32)
            )
        if template.board_key != board_key:
            template.board[:] = _layout_block(game, role)
            template.board_key = board_key
        if template.figures is not figures:
            rest = template.rest
            rest[_FIGURES.start - _BOARD : _FIGURES.stop - _BOARD] = figures.static.ravel()
            rest[_ITEM_TABLE.start - _BOARD : _ITEM_TABLE.stop - _BOARD] = figures.item_table(s, role)
            template.figures = figures
        return template


@dataclass(slots=True)
class _Template:
    """What one role's observations keep between calls (see :class:`Observer`)."""

    board: np.ndarray  # the board planes, figures left at 0; 0 / 1 as bytes, a quarter of the floats' memory
    rest: np.ndarray  # float32: the rest of the vector, with the static figure rows and the item table
    board_key: tuple | None = None  # the doors, reveals and traps ``board`` was made for
    figures: _Figures | None = None  # the figures ``rest`` was made for


class _Figures:
    """What changes only when a figure is placed, dies or leaves, an item changes hands or is
    identified, a spell is learned, an ability is used, or a turn begins: the static figure rows
    (with the ``ready_k`` flags, set by ``Observer._figures_of``), the [value, figure]
    scales of the per-call values (0 for absent figures), the figures on the board with the offsets
    of their planes, the monsters on the board, the present heroes and monsters (for what heroes
    see), and (made when first asked) each hero's items and spells and the item table."""

    def __init__(self, key, s) -> None:
        self.key = key
        status, side = s.unit_status, s.unit_side
        hero, monster = side == 0, side == 1
        present = (monster & (status == ACTIVE)) | (
            hero & np.isin(status, (ACTIVE, EXITED, CORPSE, CORPSE_OUT))
        )
        self.present = present.astype(np.float32)
        self.heroes = hero & present  # every hero is known to heroes: on the board, out or dead
        self.monsters_present = monster & present
        self.any_monster = bool(self.monsters_present.any())
        self.hero_rows = np.where(self.heroes, np.arange(MAX_UNITS), -1)  # monsters: see _Sight
        self._sights: dict[bytes, _Sight] = {}
        self.static = _static_rows(s, hero, monster, present)
        scale = np.zeros((len(_DYNAMIC), MAX_UNITS), np.float32)
        for i, (name, norm) in enumerate(_DYNAMIC):
            scale[i] = 1.0 / norm if norm else 1.0 / np.maximum(getattr(s, f"base_{name}"), 1)
        self.scale = scale * self.present
        on_board = ((status == ACTIVE) | (hero & (status == CORPSE))) & (s.unit_pos >= 0)
        self.slots = np.flatnonzero(on_board)
        plane = np.where(
            status[self.slots] == CORPSE,
            PLANE["corpses"],
            np.where(hero[self.slots], PLANE["heroes"], PLANE["monsters"]),
        )
        self.planes = plane.astype(np.int64) * N_SQUARES
        self.monsters = np.flatnonzero(on_board & monster)
        self._cards: dict[int, np.ndarray | None] = {}

    def sight(self, s, known) -> _Sight:
        """What heroes see of the figures, by their knowledge ``known`` (None: no monster on the
        board): the monsters it says they see, by their names."""
        if known is None:
            seen, numbers = _NO_SLOTS, ()
        else:
            seen = known.monsters_seen()
            numbers = tuple(known.number(int(u)) for u in seen)
        key = (seen.tobytes(), numbers)
        sight = self._sights.get(key)
        if sight is None:
            sight = self._sights[key] = _Sight(self, s, seen, numbers)
        return sight

    def cards(self, game, me: int) -> np.ndarray | None:
        """Hero ``me``'s own_items and own_spells pieces, or None if it has neither."""
        if me not in self._cards:
            self._cards[me] = _hero_cards(game.state, me, [spell.level for spell in game.spells])
        return self._cards[me]

    def item_table(self, s, role: int) -> np.ndarray:
        """The item_table piece for a role (heroes: face-down cards hidden, and only the cards lying
        where found or held by a hero; a holder is a hero, whose row is its slot)."""
        table = np.zeros((MAX_ITEMS, len(ITEM_TABLE_COLUMNS)), np.float32)
        holders = s.item_holder
        known = (holders >= -1) if role == DM else ((holders >= -1) & (holders < s.n_heroes))
        slots = np.flatnonzero((s.item_card >= 0) & known)
        if len(slots):
            rows = _item_rows(s, slots, role == DM, TCOL)
            holder = s.item_holder[slots]
            rows[:, TCOL["holder"]] = holder + 1
            rows[:, TCOL["lying"]] = holder < 0
            table[slots] = rows
        return table.ravel()


def _hero_cards(s, me: int, spell_levels: list[int]) -> np.ndarray | None:
    """Hero ``me``'s items (face-down identities hidden) and spells as the own_items and own_spells
    pieces, or None."""
    held = np.flatnonzero(s.item_holder == me)[:MAX_ITEMS_HELD]
    known = np.flatnonzero(s.spell_known[me])[:MAX_SPELLS_KNOWN].tolist()
    if len(held) == 0 and not known:
        return None
    items = np.zeros((MAX_ITEMS_HELD, len(ITEM_COLUMNS)), np.float32)
    items[: len(held)] = _item_rows(s, held, False, ICOL)
    spells = np.zeros((MAX_SPELLS_KNOWN, len(SPELL_COLUMNS)), np.float32)
    for k, sp in enumerate(known):
        spells[k, SCOL["present"]] = 1.0
        # the game's cards: a variant may change levels
        spells[k, SCOL["level"]] = spell_levels[sp] / _SPELL_LEVEL_NORM
        spells[k, SCOL["spell"]] = sp + 1
    return np.concatenate([items.ravel(), spells.ravel()])


def _static_rows(s, hero: np.ndarray, monster: np.ndarray, present: np.ndarray) -> np.ndarray:
    """The figure columns that are not written per call (absent figures: all zeros)."""
    t = np.zeros((MAX_UNITS, _NF), np.float32)
    status = s.unit_status
    t[:, FCOL["present"]] = present
    t[:, FCOL["hero"]] = hero
    t[:, FCOL["monster"]] = monster
    t[:, FCOL["active"]] = status == ACTIVE
    t[:, FCOL["exited"]] = status == EXITED
    t[:, FCOL["dead"]] = hero & np.isin(status, (CORPSE, CORPSE_OUT))
    t[:, FCOL["dragging"]] = s.dragging >= 0
    held = s.item_holder[s.item_holder >= 0]
    t[:, FCOL["items_held"]] = np.bincount(held, minlength=MAX_UNITS)[:MAX_UNITS] / MAX_ITEMS_HELD
    for column, field, norm in _STATIC_NORMS:
        t[:, FCOL[column]] = getattr(s, field) / norm
    t[:, FCOL[TRAITS[0]] : FCOL[TRAITS[0]] + len(TRAITS)] = _TRAIT_BITS[s.unit_traits]
    for h in How:
        if h != How.HERO:
            t[:, FCOL[f"how_{h.name.lower()}"]] = (s.unit_how == h) & monster
    np.minimum(t, 1.0, out=t)
    used = np.flatnonzero(s.unit_side >= 0)
    kind = s.unit_card[used].astype(np.int64) + np.where(monster[used], _N_HERO_CARDS, 0)
    t[used, FCOL["kind"]] = kind + 1
    t[:, FCOL["name"]] = np.where(monster, s.unit_uid.astype(np.float32) + 1, 0.0)  # the DM's names
    t *= present[:, None]
    return t


def _fill_context(game, role, me, to_act, max_turns, out, table, combat: bool, column) -> None:
    """Role, whose turn, the phase, the decision asked (kind, agent, figure, args, candidates),
    combat, Light and turn. ``column`` (heroes; None for the DM): each slot's row in the heroes'
    figures, -1 for a figure heroes do not see; a decision about such a figure shows heroes only the
    agent asked (the DM) and the phase, and the args are shown by the rules of ``_HERO_ARGS``."""
    s = game.state
    ones = [_ROLE + role, _PHASE + s.phase]
    if me >= 0:
        ones.append(_ME + me)
    if to_act:
        ones.append(_MY_TURN)
    if combat:
        ones.append(_COMBAT)
    stack = s.stack
    agent = game.agent  # the engine says which agent is asked (a heroes' view: also about the unseen)
    if agent is not None:
        ones.append(_ACTING + _ACTING_INDEX[agent])
    if stack and not s.outcome:
        kind, unit, a, b = stack[-1]
        if column is None or column[unit] >= 0:
            ones.append(_DECISION + kind)
            table[unit, _ACTING_COL] = 1.0
            p = int(s.unit_pos[unit])
            if p >= 0:
                ones.append(_ACTING_PLANE + p)
            shown_a, shown_b = (
                (a, b) if column is None or a == b == -1 else _hero_args(game, kind, a, b, column)
            )
            if shown_a >= 0:
                out[_ARGS] = (shown_a + 1) / _ARGS_NORM if shown_a < _ARGS_MAX else 1.0
            if shown_b >= 0:
                out[_ARGS + 1] = (shown_b + 1) / _ARGS_NORM if shown_b < _ARGS_MAX else 1.0
            if kind == _CHOOSE_TARGET:
                ones.append(_PURPOSE + a)
                _fill_candidates(game, role, unit, a, b, out, table, column)
    out[ones] = 1.0
    light, turn = s.light, s.turn
    out[_LIGHT] = light / _LIGHT_NORM if light < _LIGHT_NORM else 1.0
    out[_TURN] = turn / max_turns if turn < max_turns else 1.0


# How heroes see each arg (a, b) of a decision, by kind: _PUBLIC as it is (a value heroes know whatever
# is hidden); _SEEN_UNIT a unit slot, shown as the figure's row in the heroes' figures piece if they
# see it (a slot counts the fog monsters that held lower slots when it was taken); _EVENT_AREA a room
# event's index, shown as its room's board area index (the adventure's list counts events in rooms
# heroes have not seen; the printed board is the same in every adventure). No rule: not shown.
_HIDDEN, _PUBLIC, _SEEN_UNIT, _EVENT_AREA = range(4)
_HERO_ARGS = {
    int(Decision.CAST_MODE): (_PUBLIC, _PUBLIC),  # the spell (a scroll turns face up as it is cast), item
    int(Decision.CHOOSE_TARGET): (_PUBLIC, _PUBLIC),  # purpose; the spell, item slot or ability index
    int(Decision.MENTAL_BID): (_SEEN_UNIT, _PUBLIC),  # the other side's slot; the aggressor's bid (R-MENT-03)
    int(Decision.EVENT_CHOICE): (_EVENT_AREA, _HIDDEN),  # the room event
    int(Decision.CLAIM_ITEM): (_EVENT_AREA, _PUBLIC),  # the room event; the item slot found
    int(Decision.ITEM_VERB): (_PUBLIC, _PUBLIC),  # the item slot; the moment (WHEN index)
    int(Decision.SPELL_VERB): (_PUBLIC, _HIDDEN),  # the spell
}
_NO_ARGS = (_HIDDEN, _HIDDEN)


def _hero_args(game, kind: int, a: int, b: int, column: np.ndarray) -> tuple[int, int]:
    """The decision's args as heroes see them (-1: not shown), by the rules of ``_HERO_ARGS``."""
    rules = _HERO_ARGS.get(kind, _NO_ARGS)
    return _hero_arg(game, rules[0], a, column), _hero_arg(game, rules[1], b, column)


def _hero_arg(game, rule: int, v: int, column: np.ndarray) -> int:
    if v < 0 or rule == _HIDDEN:
        return -1
    if rule == _PUBLIC:
        return v
    if rule == _SEEN_UNIT:
        return int(column[v]) if v < len(column) else -1
    return _static_planes(game.tables)["event_area"][v]  # _EVENT_AREA


_ROLE, _PHASE, _ME, _MY_TURN, _COMBAT = (_OFF[k] for k in ("role", "phase", "me", "my_turn", "combat"))
_DECISION, _ACTING, _ARGS, _PURPOSE = (
    _OFF[k] for k in ("decision", "acting", "decision_args", "target_purpose")
)
_ACTING_INDEX = {agent: i for i, agent in enumerate(ACTING)}
_LIGHT, _TURN = _OFF["light"], _OFF["turn"]
_CHOOSE_TARGET = int(Decision.CHOOSE_TARGET)
_NAME_COL = FCOL["name"]
_NO_SLOTS = np.zeros(0, np.int64)
_ACTING_PLANE = PLANE["acting_unit"] * N_SQUARES
if _ITEMS.stop != _SPELLS.start:
    raise RuntimeError("observation: the own_items and own_spells pieces must be adjacent")


class _Sight:
    """What heroes see of the figures, for one set of monsters in sight and their names:
    ``column[slot]``, the figure's row in the heroes' figures piece (-1: not seen), the heroes in
    their slots and then the monsters seen in the order heroes first saw them (by their names), so
    that no fog monster counts; the names for the ``name`` column; and the figures on the board
    they see, with the offsets of their planes."""

    def __init__(self, figures: _Figures, s, seen: np.ndarray, numbers: tuple[int, ...]) -> None:
        n_heroes = s.n_heroes
        column = figures.hero_rows.copy()
        by_name = np.argsort(np.array(numbers, np.int64), kind="stable")
        order = seen[by_name]
        column[order] = np.arange(n_heroes, n_heroes + len(order))
        self._names = np.array(numbers, np.float32)[by_name] + 1
        self.column = column
        shown = column[figures.slots] >= 0
        self.slots, self.planes = figures.slots[shown], figures.planes[shown]
        self._n_heroes = n_heroes
        if np.array_equal(order, np.arange(n_heroes, n_heroes + len(order))):
            self._order = None  # in place already (the common case: no fog monster holds a lower slot)
            # the rows anything may have written to (a present figure's) that heroes do not see
            self._hide = np.flatnonzero((figures.present > 0) & (column < 0))
        else:
            self._order, self._hide = order, None
            self._heroes = figures.heroes[:n_heroes].astype(np.float32)[:, None]

    def to_hero_rows(self, table: np.ndarray) -> None:
        """Last step of a hero's observation: the figures piece keeps the rows of the figures heroes
        see, in their rows; every other row is 0 (an absent figure's row is never written: its
        static row and value scales are 0, its x, y masked)."""
        n, k = self._n_heroes, len(self._names)
        if self._order is None:
            if len(self._hide):
                table[self._hide] = 0.0
        else:
            moved = table[self._order]
            table[:n] *= self._heroes
            table[n:] = 0.0
            table[n : n + k] = moved
        table[n : n + k, _NAME_COL] = self._names


def _fill_candidates(game, role, unit, purpose, b, out, table, column=None) -> None:
    """Rows of the candidates of a choose_target decision, in TARGET_k order (the engine's lists).

    They are the candidates of the decision asked now (the acting agent's), shown to heroes only when
    that decision is about a figure they see (``_fill_context``). The engine offers a hero only figures
    heroes see (in its line of sight, or next to it; tests/test_hero_observation_fog.py checks it in
    random play); a figure heroes do not see (``column`` -1) would get no row all the same. For
    heroes a figure's ``row`` is its row in their figures piece."""
    s = game.state
    rows = out[OBS_SPEC.slice("candidates")].reshape(MAX_TARGETS, len(CANDIDATE_COLUMNS))
    if purpose == TARGET_LOOT:
        for k, (corpse, item) in enumerate(target_candidates(game, unit, purpose, b)[:MAX_TARGETS]):
            card = int(s.item_card[item])
            row = rows[k]
            row[[CCOL["present"], CCOL["item"]]] = 1.0
            row[CCOL["row"]] = item + 1
            row[CCOL["x"] : CCOL["x"] + 2] = _XY[s.unit_pos[corpse]]
            row[CCOL["identified"]] = bool(s.item_known[item])
            row[CCOL["deck_treasure"] + _DECK_OF[card]] = 1.0
            if s.item_known[item] or role == DM:
                row[CCOL["card"]] = card + 1
        return
    chosen = target_candidates(game, unit, purpose, b)
    for k, u in enumerate(chosen[:MAX_TARGETS]):
        if column is not None and column[u] < 0:
            continue
        row = rows[k]
        row[[CCOL["present"], CCOL["unit"]]] = 1.0
        row[CCOL["row"]] = (u if column is None else column[u]) + 1
        row[CCOL["x"] : CCOL["x"] + 2] = _XY[s.unit_pos[u]]
        table[u, _CANDIDATE_COL] = 1.0


# --------------------------------------------------------------------------------- the core's builder


def _core_fill(game, engine, role: int, me: int, to_act: bool, max_turns: int, out, mask) -> None:
    """The observation and the mask of a game on the core, by the core's builder, into ``out``
    and ``mask``. Heroes: what they know of the monsters (the ones they see, their numbers for
    them) comes from their knowledge, as in :meth:`Observer._fill`. The Python state's scalars and
    lists are handed to the engine first (rule code run from Python on a core game, or a hand edit,
    changes them there until the next move), so that both builders read the same position."""
    game._push()
    if role == HERO:
        known = game.knowledge.get(HEROES) or knowledge_of(game, HEROES)
        lens = getattr(known, "lens", None)
        if isinstance(lens, _core.HeroLens):  # the core's lens knows both: no Python between them
            layout = core_layout(game.tables)
            _core_observe(engine, layout, out, mask, role, me, to_act, max_turns, lens, None)
            return
        seen = known.monsters_seen()
        if len(seen):  # their numbers: known.number(slot) for each, in one pass
            names = known.numbers()
            numbers = [names.get(uid, -1) for uid in game.state.unit_uid[seen].tolist()]
            seen = seen.tolist()
        else:
            seen = numbers = ()
    else:
        seen = numbers = ()
    _core_observe(engine, core_layout(game.tables), out, mask, role, me, to_act, max_turns, seen, numbers)


def core_layout(tables):
    """The layout as the core's builder reads it (``_core.rules.observe.Layout``): ``OBS_SPEC``'s
    offsets, this module's columns, planes, normalisers, ids and arg rules, and the adventure's
    static planes (:func:`_static_planes`); made once per adventure, kept in its tables' cache."""
    layout = tables.cache.get("obs_core_layout")
    if layout is None:
        st = _static_planes(tables)
        arrays = {
            "xy": _XY.ravel(),
            "deck_of": _DECK_OF,
            "hero_args": _CORE_HERO_ARGS,
            "corridor": st["corridor"],
            "wall_e": np.ascontiguousarray(st["walls"][0]),
            "wall_s": np.ascontiguousarray(st["walls"][1]),
            "furniture": st["furniture"],
            "blockage": st["blockage"],
            "exit": st["exit"],
            "door_sides": np.array(st["door_sides"], np.int64).reshape(-1, 3),
            "trap_sq": np.array(st["trap_sq"], np.int64),
            "event_area": np.array(st["event_area"], np.int64),
        }
        layout = tables.cache["obs_core_layout"] = _core_rules.observe.Layout(
            _CORE_INTS, arrays, _CORE_DYNAMIC, _CORE_STATICS
        )
    return layout


def _core_ints() -> dict[str, int]:
    """The layout's numbers the core's builder reads, by name (``ObsLayout`` in observe.hpp)."""
    shapes = dict(OBS_SPEC.pieces)
    ints = {"size": OBS_SPEC.size, **{f"off.{name}": offset for name, offset in OBS_SPEC.offsets.items()}}
    ints |= {f"len.{name}": shapes[name][0] for name in CONTEXT}
    ints |= {f"plane.{name}": i for name, i in PLANE.items()}
    for prefix, columns in (("fcol", FCOL), ("icol", ICOL), ("scol", SCOL), ("ccol", CCOL), ("tcol", TCOL)):
        ints |= {f"{prefix}.{name}": i for name, i in columns.items()}
    ints |= {f"fcol.how{int(h)}": FCOL[f"how_{h.name.lower()}"] for h in How if h != How.HERO}
    deck0 = f"deck_{DECKS[0]}"
    for columns in (FCOL, ICOL, CCOL, TCOL):  # the runs of columns the builder indexes from their first
        for run in (
            [f"deck_{d}" for d in DECKS],
            list(TRAITS),
            [f"ready_{k}" for k in range(MAX_ABILITIES)],
            [name for name, _ in _DYNAMIC],
        ):
            if run[0] in columns and [columns[name] for name in run] != list(
                range(columns[run[0]], columns[run[0]] + len(run))
            ):
                raise RuntimeError(f"observation: the columns {run} must be adjacent and in order")
    if ACTING[:MAX_HEROES] != tuple(f"hero_{i}" for i in range(MAX_HEROES)):
        raise RuntimeError("observation: ACTING lists hero_0.. first")
    ints |= {
        "n_squares": N_SQUARES,
        "width": WIDTH,
        "height": HEIGHT,
        "n_planes": N_PLANES,
        "max_units": shapes["figures"][0],
        "nf": shapes["figures"][1],
        "max_items_held": shapes["own_items"][0],
        "ni": shapes["own_items"][1],
        "max_spells": shapes["own_spells"][0],
        "ns": shapes["own_spells"][1],
        "max_targets": shapes["candidates"][0],
        "nc": shapes["candidates"][1],
        "max_items": shapes["item_table"][0],
        "nt": shapes["item_table"][1],
        "n_decks": len(DECKS),
        "n_traits": len(TRAITS),
        "n_ready": MAX_ABILITIES,
        "fcol.trait0": FCOL[TRAITS[0]],
        "fcol.ready0": _READY,
        "fcol.dynamic0": _D0,
        "icol.deck0": ICOL[deck0],
        "ccol.deck0": CCOL[deck0],
        "tcol.deck0": TCOL[deck0],
        "norm.items_held": MAX_ITEMS_HELD,
        "norm.effects": _EFFECTS_NORM,
        "norm.light": _LIGHT_NORM,
        "norm.args": _ARGS_NORM,
        "args_max": _ARGS_MAX,
        "norm.spell_level": _SPELL_LEVEL_NORM,
        "n_hero_cards": _N_HERO_CARDS,
        "acting.dm": ACTING.index("dm"),
        "decision.choose_target": _CHOOSE_TARGET,
        "target.loot": TARGET_LOOT,
    }
    return ints


_CORE_INTS = _core_ints()
_CORE_HERO_ARGS = np.array([_HERO_ARGS.get(k, _NO_ARGS) for k in range(len(DECISION_NAMES))], np.int64)
# the per-call values: state field, the base field of a ratio ("" if normalised), normaliser (0: ratio)
_CORE_DYNAMIC = [(name, "" if norm else f"base_{name}", norm) for name, norm in _DYNAMIC]
_CORE_STATICS = [(FCOL[column], field, norm) for column, field, norm in _STATIC_NORMS]
_core_observe = _core_rules.observe.observe


# --------------------------------------------------------------------------------- board layout


def _static_planes(tables) -> dict[str, np.ndarray]:
    """Per-adventure planes that never change, made once and kept in the adventure's tables."""
    cached = tables.cache.get("obs_planes")
    if cached is None:
        door_sides = [  # (door, square, 0 east / 1 south) for every door edge, seen from its west / north
            (int(tables.edge_door[sq, d]), sq, i)
            for sq in range(N_SQUARES)
            for i, d in enumerate((1, 2))
            if tables.edge_door[sq, d] >= 0
        ]
        cached = {
            "corridor": tables.is_corridor[tables.area].astype(np.float32),
            "walls": tables.wall[:, [1, 2]].T.astype(np.float32),  # [east, south] x square
            "furniture": tables.furniture.astype(np.float32),
            "blockage": tables.blockage.astype(np.float32),
            "exit": tables.exit.astype(np.float32),
            "door_sides": door_sides,
            "trap_sq": [int(tr.at[1]) * WIDTH + int(tr.at[0]) for tr in tables.adventure.traps],
            "event_area": [tables.board.area_names.index(e.area) for e in tables.adventure.events],
        }
        tables.cache["obs_planes"] = cached
    return cached


def _layout_block(game, role: int) -> np.ndarray:
    """The board planes that change only with reveals, doors and traps (figures left at 0).

    Heroes see what their knowledge's rules say (``engine.knowledge``): the layout of a square if
    it is seen (``seen_squares``), or, for an edge, if the square on either side is (an
    undiscovered secret door: a wall); a trap they know (``known_traps``)."""
    s, t = game.state, game.tables
    st = _static_planes(t)
    block = np.zeros((N_PLANES, N_SQUARES), np.float32)
    revealed = seen_squares(game)
    known = np.ones(N_SQUARES, np.float32) if role == DM else revealed.astype(np.float32)
    block[PLANE["revealed"]] = revealed
    for name in ("corridor", "furniture", "blockage", "exit"):
        block[PLANE[name]] = st[name] * known
    block[PLANE["wall_e"] : PLANE["wall_e"] + 2] = st["walls"] * _edge_known(known)
    step = (1, WIDTH)
    for door, sq, i in st["door_sides"]:
        if not (known[sq] or known[sq + step[i]]):
            continue
        if s.door_hidden[door]:
            if role == DM:
                block[PLANE["door_closed_e"] + i, sq] = 1.0
                block[PLANE["secret_door"], sq] = 1.0
            else:
                block[PLANE["wall_e"] + i, sq] = 1.0
        elif s.door_open[door]:
            block[PLANE["door_open_e"] + i, sq] = 1.0
        else:
            block[PLANE["door_closed_e"] + i, sq] = 1.0
    known_trap = known_traps(game) if role != DM else None
    for i, sq in enumerate(st["trap_sq"]):
        armed, detected = bool(s.trap_armed[i]), bool(s.trap_detected[i])
        if known_trap is not None and not known_trap[i]:
            continue
        if armed and detected:
            block[PLANE["trap_detected"], sq] = 1.0
        elif detected:
            block[PLANE["hazard"], sq] = 1.0
        elif armed:
            block[PLANE["trap_hidden"], sq] = 1.0
    return block.ravel()


def _edge_known(known: np.ndarray) -> np.ndarray:
    """[east, south] x square: the edge is known if the square or its neighbour that way is."""
    grid = known.reshape(HEIGHT, WIDTH)
    east, south = grid.copy(), grid.copy()
    east[:, :-1] = np.maximum(grid[:, :-1], grid[:, 1:])
    south[:-1] = np.maximum(grid[:-1], grid[1:])
    return np.stack([east.ravel(), south.ravel()])


if __name__ == "__main__":
    print(layout_markdown())
