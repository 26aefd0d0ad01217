"""The observation of ``dungeon_v0`` (layout v0, before issue 13), frozen: kept for the policies trained
on it (the bundled ``agents/policies/*.zip``, through ``agents.obs_layout``) until they are retrained.
The env's observation is ``dungeon_env.observation`` (layout v1); do not change this module.

Observations from named pieces: one float32 vector, its layout declared once as ``[(name, shape)]``.

Every agent gets the same layout (one shared observation space); the ``role`` piece tells heroes
from the Dungeon Master. All values lie in ``[0, 1]``. Run ``python -m dungeon_env.observation`` (or
call :func:`layout_markdown`) for the table of pieces, planes and columns, generated from the spec.

What each side sees:

- **Heroes** see what heroes may know, each thing shown because heroes may know it (never because
  nobody listed it as hidden): the layout (rooms, corridors, walls, doors, furniture, blockages,
  exits) of revealed areas, an edge's wall or door if a square on either side is revealed, an
  undiscovered secret door as a wall; detected traps and hazards on revealed squares; every hero
  (on the board, out, or a corpse) and the monsters on revealed squares, nothing of any other figure
  (effects, ability flags, acting and candidate marks included); and the identity of identified
  items only (a face-down item shows its deck, never its card; ``all_items`` lists the cards held by
  heroes or lying where found). The ``items`` and ``spells`` pieces are the observing hero's own
  (``ITEM_k`` / ``SPELL_k`` pick row ``k``). Hero abilities are public, as the hero cards are: every
  observer sees which abilities each hero has (``ability_*``) and which Active ones have a use left
  (``ready_k``, for ``ABILITY_k``). Their ``units`` columns are their own numbering: the
  heroes in their slots, then the monsters they see in the order the monsters appeared (a monster's
  engine slot counts the fog monsters that held lower slots when it was placed, so it is not shown;
  a candidate's ``slot`` and a Mental Combat's opponent are given as the heroes' column too).
- **The DM** sees everything heroes see plus the layout of unrevealed areas, every monster, hidden
  traps (``trap_hidden``), undiscovered secret doors (``secret_door``) and every item's identity.

The pieces that describe the decision (``phase``, ``decision``, ``decision_args``,
``target_purpose``, ``acting``, the ``acting`` unit column and ``acting_unit`` plane, and the
``candidates`` of a ``choose_target`` decision) say who is asked what. The DM sees them all. Heroes
see them when the decision is about a figure they see (a hero, or a monster on a revealed square);
about any other figure (the DM moving a monster in the fog) they see only ``acting`` = dm and the
phase. In heroes' ``decision_args`` each arg is shown by a rule of its decision kind
(``_HERO_ARGS``): public values as they are (item slots, spell ids, target purposes, ability
indices, moments, bids), a unit slot as the unit's column if heroes see it, and a room event
(``event_choice``, ``claim_item``: ``a`` is its index in the adventure's list, which counts events
in rooms heroes have not seen) as its room's board area index instead; an arg with no rule is not
shown.

``Observer`` builds an observation for one agent with a handful of numpy operations: the board
planes that change only when an area is revealed, a door opens or a trap is found are cached per
role, the per-unit columns that change only when a figure is placed are cached until the next
placement, and only the figures, the unit values and the decision context are written per call.
"""

from __future__ import annotations

import operator

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
from dungeon_env.engine.decisions import target_candidates
from dungeon_env.engine.knowledge import seen_squares
from dungeon_env.engine.state import ACTIVE, CORPSE, CORPSE_OUT, EXITED, MAX_ITEMS, MAX_UNITS, How
from dungeon_env.observation import N_PLANES, PLANE, PLANES, _hero_args, _layout_block

HERO, DM = 0, 1  # roles
N_SQUARES = WIDTH * HEIGHT
SIDES = "nesw"

# The board planes, the heroes' decision-arg rules and the board layout are v1's, unchanged from v0
# (and the advised view the shipped policies read drops the board).

UNIT_COLUMNS = (
    ("present", "the slot holds a figure the observer may see (all other columns 0 otherwise)"),
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
)
_HERO_IDS = tuple(load_heroes())
_MONSTER_IDS = tuple(load_monsters())
UNIT_COLUMNS += tuple((f"type_{c}", f"card: {c}") for c in _HERO_IDS + _MONSTER_IDS)
# Hero abilities (R-BOARD-04; public: every hero card is on the table): which a figure has, by id in
# roster order, and whether its k-th ability is Active with a use left (engine.abilities.ready).
_ABILITIES = tuple(a for hero in load_heroes().values() for a in hero.abilities)
UNIT_COLUMNS += tuple((f"ability_{a.id}", f"has the {a.use} ability {a.name}") for a in _ABILITIES)
UNIT_COLUMNS += tuple(
    (f"ready_{k}", f"the k-th ability of its card (k = {k}) is Active with a use left: ABILITY_{k}")
    for k in range(MAX_ABILITIES)
)
UCOL = {name: i for i, (name, _) in enumerate(UNIT_COLUMNS)}

_ITEM_IDS = tuple(load_items())
_SPELL_IDS = tuple(load_spells())
ITEM_COLUMNS = (
    ("present", "the row holds an item"),
    ("identified", "face up: its identity is known"),
    ("locked", "an Identify roll of 1: no more tries this adventure"),
    ("used_this_turn", "a reusable item already used this turn"),
    *((f"deck_{d}", f"deck: {d}") for d in DECKS),
    *((f"card_{c}", f"card: {c} (heroes: identified items only)") for c in _ITEM_IDS),
)
ICOL = {name: i for i, (name, _) in enumerate(ITEM_COLUMNS)}
SPELL_COLUMNS = (
    ("present", "the row holds a known spell"),
    ("level", "spell level / 3"),
    *((f"spell_{c}", f"spell: {c}") for c in _SPELL_IDS),
)
CANDIDATE_COLUMNS = (
    ("present", "TARGET_k is a candidate"),
    ("unit", "the candidate is a figure"),
    ("item", "the candidate is an item (loot from a corpse)"),
    ("slot", "its unit slot / 63 (heroes: its units column), or its item slot / 95"),
    ("x", "the figure's (or the corpse's) column / 23"),
    ("y", "row / 27"),
    ("identified", "an item candidate that is face up"),
    *((f"deck_{d}", f"deck: {d}") for d in DECKS),
    *((f"card_{c}", f"card: {c} (heroes: identified items only)") for c in _ITEM_IDS),
)
CCOL = {name: i for i, (name, _) in enumerate(CANDIDATE_COLUMNS)}
ALL_ITEM_COLUMNS = (
    ("present", "the item slot holds a card"),
    ("holder", "held by unit slot (value (slot + 1) / 64), 0 if nobody"),
    ("lying", "found and left lying (held by nobody)"),
    *ITEM_COLUMNS[1:],
)
ACOL = {name: i for i, (name, _) in enumerate(ALL_ITEM_COLUMNS)}
TARGET_PURPOSES = ("spell", "item", "give", "loot", "ability")
ACTING = tuple(f"hero_{i}" for i in range(MAX_HEROES)) + ("dm",)


class Spec:
    """An observation layout: named pieces with shapes, laid end to end in one float32 vector."""

    def __init__(self, pieces: list[tuple[str, tuple[int, ...], str]]) -> None:
        self.pieces = tuple((name, tuple(shape)) for name, shape, _ in pieces)
        self.meaning = {name: text for name, _, text in pieces}
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


OBS_SPEC = Spec(
    [
        ("board", (N_PLANES, HEIGHT, WIDTH), "board planes, [plane, row y, column x]: see the plane table"),
        (
            "units",
            (len(UNIT_COLUMNS), MAX_UNITS),
            "[feature, figure slot]: one column per slot (heroes first), see the unit features; heroes: "
            "the monsters they see follow the heroes, in the order they appeared",
        ),
        (
            "all_items",
            (MAX_ITEMS, len(ALL_ITEM_COLUMNS)),
            "every item card in play by item slot: holder, deck, card (heroes: identified cards only)",
        ),
        ("items", (MAX_ITEMS_HELD, len(ITEM_COLUMNS)), "the observing hero's items; row k is ITEM_k"),
        ("spells", (MAX_SPELLS_KNOWN, len(SPELL_COLUMNS)), "the observing hero's spells; row k is SPELL_k"),
        ("candidates", (MAX_TARGETS, len(CANDIDATE_COLUMNS)), "choose_target: row k is TARGET_k"),
        ("role", (2,), "one-hot: hero, dm"),
        ("me", (MAX_HEROES,), "one-hot: the observing hero's index (all 0 for the DM)"),
        ("my_turn", (1,), "1 if the observer is the agent asked to act now"),
        ("acting", (len(ACTING),), "one-hot: the agent asked to act (hero_0..hero_4, dm)"),
        ("phase", (len(PHASE_NAMES),), "one-hot: the turn phase, combat sub-steps included"),
        (
            "decision",
            (len(DECISION_NAMES),),
            "one-hot: the kind of decision asked (heroes: 0 when about a figure they do not see)",
        ),
        (
            "decision_args",
            (2,),
            "the decision's two context ints a, b as (v + 1) / 128 (0 when unused or not shown; "
            "heroes: a room event's a is its room's board area index)",
        ),
        (
            "target_purpose",
            (len(TARGET_PURPOSES),),
            "choose_target: what is chosen (spell, item, give, loot, ability)",
        ),
        ("combat", (1,), "a monster is on the board: the Combat Turn Sequence is in effect"),
        ("light", (1,), "Light / 20"),
        ("turn", (1,), "turn / max_turns"),
    ]
)


def unflatten(obs) -> dict[str, np.ndarray]:
    """The named pieces (views, no copies) of a flat observation, of ``{"observation": ...}`` or of a
    ``state()``."""
    flat = obs["observation"] if isinstance(obs, dict) else obs
    return OBS_SPEC.views(np.asarray(flat))


def layout_markdown(spec: Spec = OBS_SPEC) -> str:
    """Markdown tables of the layout: the pieces, then the board planes and the table columns."""
    rows = ["| piece | shape | offset | meaning |", "|---|---|---:|---|"]
    for name, shape in spec.pieces:
        rows.append(
            f"| `{name}` | {'x'.join(map(str, shape))} | {spec.offsets[name]} | {spec.meaning[name]} |"
        )
    rows.append(f"| | **{spec.size}** floats | | |")
    parts = ["\n".join(rows)]
    for title, columns in (
        ("Board planes (`board[i]`, one 28x24 plane each)", _grouped(PLANES, "", "")),
        (
            "Unit features (`units[j, :]`, one value per figure slot)",
            _grouped(UNIT_COLUMNS, "type_", "card type, one-hot"),
        ),
        ("Item columns (`items[:, j]`)", _grouped(ITEM_COLUMNS, "card_", "card, one-hot")),
        ("Spell columns (`spells[:, j]`)", _grouped(SPELL_COLUMNS, "spell_", "spell, one-hot")),
        ("Candidate columns (`candidates[:, j]`)", _grouped(CANDIDATE_COLUMNS, "card_", "card, one-hot")),
        ("All-item columns (`all_items[:, j]`)", _grouped(ALL_ITEM_COLUMNS, "card_", "card, one-hot")),
    ):
        table = ["| index | name | meaning |", "|---:|---|---|"]
        table += [f"| {i} | `{name}` | {text} |" for i, name, text in columns]
        parts.append(f"{title}:\n\n" + "\n".join(table))
    return "\n\n".join(parts)


def _grouped(columns, prefix: str, text: str) -> list[tuple[str, str, str]]:
    """Columns as (index, name, meaning), runs of one-hot ``prefix*`` columns folded into one row."""
    out, i = [], 0
    while i < len(columns):
        name, meaning = columns[i]
        if prefix and name.startswith(prefix):
            j = i
            while j < len(columns) and columns[j][0].startswith(prefix):
                j += 1
            names = [c[0][len(prefix) :] for c in columns[i:j]]
            out.append((f"{i}..{j - 1}", f"{prefix}*", f"{text} in catalogue order: {', '.join(names)}"))
            i = j
        else:
            out.append((str(i), name, meaning))
            i += 1
    return out


# --------------------------------------------------------------------------------- static look-ups

_NU = len(UNIT_COLUMNS)
_BOARD = N_PLANES * N_SQUARES  # the board is the first piece
_UNITS = OBS_SPEC.slice("units")
_ITEMS = OBS_SPEC.slice("items")
_SPELLS = OBS_SPEC.slice("spells")
_ALL_ITEMS = OBS_SPEC.slice("all_items")
_OFF = OBS_SPEC.offsets
# x, y of every square, plus a last row of zeros for "off the board" (position -1)
_XY = np.zeros((N_SQUARES + 1, 2), np.float32)
_XY[:N_SQUARES, 0] = (np.arange(N_SQUARES) % WIDTH) / (WIDTH - 1)
_XY[:N_SQUARES, 1] = (np.arange(N_SQUARES) // WIDTH) / (HEIGHT - 1)
_XY_T = np.ascontiguousarray(_XY.T)
_TRAIT_BITS = np.array([[(b >> i) & 1 for i in range(len(TRAITS))] for b in range(256)], np.float32)
# The per-unit values written at every call: state field and normaliser, in column order (the
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
_D0 = UCOL["health"]
_D1 = _D0 + len(_DYNAMIC)
if [UCOL[name] for name, _ in _DYNAMIC] != list(range(_D0, _D1)):
    raise RuntimeError("observation: the dynamic unit columns must be contiguous and in _DYNAMIC order")
_N_HERO_CARDS = len(_HERO_IDS)
# per hero card (roster order): the unit columns of its abilities; the ready columns
_ABILITY_COLS = [
    np.array([UCOL[f"ability_{a.id}"] for a in hero.abilities], np.int64) for hero in load_heroes().values()
]
_READY = UCOL["ready_0"]
_ITEM_CARDS = tuple(load_items().values())
_DECK_OF = np.array([DECKS.index(c.deck) for c in _ITEM_CARDS], np.int64)


def _card0(columns: dict[str, int]) -> int:
    return columns[f"card_{_ITEM_IDS[0]}"]


def _item_rows(s, slots: np.ndarray, show_all: bool, columns: dict[str, int]) -> np.ndarray:
    """Table rows for item slots: identified / locked / used flags, deck one-hot and card one-hot
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
    shown = n if show_all else n[known]
    rows[shown, _card0(columns) + cards[shown]] = 1.0
    return rows


# --------------------------------------------------------------------------------- the observer


class Observer:
    """Builds the observations of one env's game for any agent, with small caches between calls.

    Per role it keeps a *template*: the whole vector with the board planes that change only when an
    area is revealed, a door opens or a trap is found, and the unit columns that change only when a
    figure is placed, dies or leaves, or an item changes hands (:class:`_Figures`). A call copies
    the template, then writes the figures, the per-unit values and the decision context."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._templates: dict[int, list] = {}  # role -> [board key, figures, vector, revealed look-up]
        self._figures: _Figures | None = None
        self._masks: dict[tuple, np.ndarray] = {}  # legal actions -> mask

    def observe(self, game, role: int, me: int, to_act: bool, max_turns: int) -> dict[str, np.ndarray]:
        """``{"observation": float32 vector, "action_mask": int8}`` for hero ``me`` (role HERO) or
        the DM; the mask holds the legal actions if ``to_act``, else zeros."""
        out = self._fill(game, role, me, to_act, max_turns)
        if not to_act:
            return {"observation": out, "action_mask": np.zeros(N_ACTIONS, np.int8)}
        legal = tuple(game.legal_actions())
        mask = self._masks.get(legal)
        if mask is None:
            if len(self._masks) >= 4096:
                self._masks.clear()
            mask = self._masks[legal] = np.zeros(N_ACTIONS, np.int8)
            mask[list(legal)] = 1
        return {"observation": out, "action_mask": mask.copy()}

    def state(self, game, max_turns: int) -> np.ndarray:
        """The global state: the DM's view, which is everything (identities, traps, the fog's content)."""
        return self._fill(game, DM, -1, False, max_turns)

    def _fill(self, game, role: int, me: int, to_act: bool, max_turns: int) -> np.ndarray:
        s = game.state
        figures = self._figures_of(s)
        template = self._template(game, role, figures)
        out = template[2].copy()
        units = out[_UNITS].reshape(_NU, MAX_UNITS)
        pos = s.unit_pos
        # per-unit values, [value, unit]: scaled (0 for absent units) and clipped, straight into place
        values = units[_D0:_D1]
        np.multiply(np.array(_GET_DYNAMIC(s)), figures.scale, out=values)
        np.minimum(values, 1.0, out=values)
        np.take(_XY_T, pos, axis=1, out=units[_XY_COL : _XY_COL + 2])
        slots, planes, sight = figures.slots, figures.planes, None
        if role == HERO:
            # The figures heroes may see, decided positively: every hero, and each monster standing
            # on a square of a revealed area (template[3]: revealed per square, False off the board).
            seen = figures.monsters_present & template[3][pos] if figures.any_monster else figures.no_monster
            sight = figures.sight(s, seen)
            slots, planes = sight.slots, sight.planes
            if 0 <= me < s.n_heroes:
                units[_ME_COL, me] = 1.0
                cards = figures.cards(game, me)
                if cards is not None:
                    out[_CARDS] = cards
        out[planes + pos[slots]] = 1.0  # the figures on the board (heroes: those they see)
        for h, k in abilities.ready_pairs(game):  # Active abilities with a use left (public, like cards)
            units[_READY + k, h] = 1.0
        if s.effects:
            counts = np.bincount([row[0] for row in s.effects], minlength=MAX_UNITS)[:MAX_UNITS]
            units[UCOL["effects"]] = np.minimum(counts / 3, 1.0) * figures.present
        column = None if sight is None else sight.column
        _fill_context(game, role, me, to_act, max_turns, out, units, len(figures.monsters) > 0, column)
        if sight is not None:
            sight.to_hero_columns(units)
        return out

    def _figures_of(self, s) -> _Figures:
        key = (
            s.next_uid,
            s.turn,
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
        return self._figures

    def _template(self, game, role: int, figures: _Figures) -> list:
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
            template = self._templates[role] = [None, None, np.zeros(OBS_SPEC.size, np.float32), None]
        if template[0] != board_key:
            block, known = _layout_block(game, role), np.append(seen_squares(game), False)
            template[2][:_BOARD] = block
            template[0], template[3] = board_key, known
        if template[1] is not figures:
            template[2][_UNITS] = figures.static.ravel()  # [feature, unit]
            template[2][_ALL_ITEMS] = figures.all_items(s, role)
            template[1] = figures
        return template


class _Sight:
    """What heroes see of the figures, for one set of monsters in sight: ``column[slot]``, the
    figure's column in the heroes' units piece (-1: not seen), the heroes in their slots and then
    the monsters seen in the order they appeared (by id), so that no fog monster counts; and the
    figures on the board they see, with the offsets of their planes."""

    def __init__(self, figures: _Figures, s, seen_monsters: np.ndarray) -> None:
        n_heroes = s.n_heroes
        column = figures.hero_columns.copy()
        seen = np.flatnonzero(seen_monsters)
        order = seen[np.argsort(s.unit_uid[seen])]
        column[order] = np.arange(n_heroes, n_heroes + len(order))
        self.column = column
        shown = column[figures.slots] >= 0
        self.slots, self.planes = figures.slots[shown], figures.planes[shown]
        self._n_heroes = n_heroes
        if np.array_equal(order, np.arange(n_heroes, n_heroes + len(order))):
            self._order = None  # in place already (the common case: no fog monster holds a lower slot)
            self._keep = (column >= 0).astype(np.float32)
        else:
            self._order, self._keep = order, None
            self._heroes = figures.heroes[:n_heroes].astype(np.float32)

    def to_hero_columns(self, units: np.ndarray) -> None:
        """Last step of a hero's observation: the units piece keeps the columns of the figures heroes
        see, in their columns; every other column is 0, whoever wrote it."""
        if self._order is None:
            np.multiply(units, self._keep, out=units)
            return
        n, k = self._n_heroes, len(self._order)
        moved = units[:, self._order]
        units[:, :n] *= self._heroes
        units[:, n:] = 0.0
        units[:, n : n + k] = moved


def _fill_context(game, role, me, to_act, max_turns, out, units, combat: bool, column) -> None:
    """Role, whose turn, the phase, the decision asked (kind, agent, figure, args, candidates),
    combat, Light and turn. ``column`` (heroes; None for the DM): each slot's column in the heroes'
    units, -1 for a figure heroes do not see; a decision about such a figure shows heroes only the
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
    if stack and not s.outcome:
        kind, unit, a, b = stack[-1]
        ones.append(_ACTING + _ACTING_INDEX[game.agent])  # the engine says which agent is asked
        if column is None or column[unit] >= 0:
            ones.append(_DECISION + kind)
            units[_ACTING_COL, unit] = 1.0
            p = int(s.unit_pos[unit])
            if p >= 0:
                ones.append(_ACTING_PLANE + p)
            shown_a, shown_b = (
                (a, b) if column is None or a == b == -1 else _hero_args(game, kind, a, b, column)
            )
            if shown_a >= 0:
                out[_ARGS] = (shown_a + 1) / 128 if shown_a < 127 else 1.0
            if shown_b >= 0:
                out[_ARGS + 1] = (shown_b + 1) / 128 if shown_b < 127 else 1.0
            if kind == _CHOOSE_TARGET:
                ones.append(_PURPOSE + a)
                _fill_candidates(game, role, unit, a, b, out, units, column)
    out[ones] = 1.0
    light, turn = s.light, s.turn
    out[_LIGHT] = light / 20 if light < 20 else 1.0
    out[_TURN] = turn / max_turns if turn < max_turns else 1.0


_ROLE, _PHASE, _ME, _MY_TURN, _COMBAT = (_OFF[k] for k in ("role", "phase", "me", "my_turn", "combat"))
_DECISION, _ACTING, _ARGS, _PURPOSE = (
    _OFF[k] for k in ("decision", "acting", "decision_args", "target_purpose")
)
_ACTING_INDEX = {agent: i for i, agent in enumerate(ACTING)}
_LIGHT, _TURN = _OFF["light"], _OFF["turn"]
_CHOOSE_TARGET = int(Decision.CHOOSE_TARGET)
_XY_COL = UCOL["x"]
_ME_COL = UCOL["me"]
_ACTING_COL = UCOL["acting"]
_ACTING_PLANE = PLANE["acting_unit"] * N_SQUARES
_CARDS = slice(_ITEMS.start, _SPELLS.stop)
if _ITEMS.stop != _SPELLS.start:
    raise RuntimeError("observation: the items and spells pieces must be adjacent")


class _Figures:
    """What changes only when a figure is placed, dies or leaves, an item changes hands or is
    identified, a spell is learned, or a turn begins: the static unit rows, the [value, unit] scales
    of the per-call values (0 for absent units), the figures on the board with the offsets of their
    planes, the monsters on the board, the present heroes and monsters (for what heroes see), and
    (made when first asked) each hero's items and spells and the all-items table."""

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
        self.hero_columns = np.where(self.heroes, np.arange(MAX_UNITS), -1)  # monsters: see _Sight
        self.no_monster = np.zeros(MAX_UNITS, bool)
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

    def sight(self, s, seen_monsters: np.ndarray) -> _Sight:
        """What heroes see of the figures when ``seen_monsters`` (a mask by slot) are in sight."""
        key = seen_monsters.tobytes()
        sight = self._sights.get(key)
        if sight is None:
            sight = self._sights[key] = _Sight(self, s, seen_monsters)
        return sight

    def cards(self, game, me: int) -> np.ndarray | None:
        """Hero ``me``'s items and spells pieces, or None if it has neither."""
        if me not in self._cards:
            self._cards[me] = _hero_cards(game.state, me, [spell.level for spell in game.spells])
        return self._cards[me]

    def all_items(self, s, role: int) -> np.ndarray:
        """The all_items piece for a role (heroes: face-down cards hidden, and only the cards lying
        where found or held by a hero)."""
        table = np.zeros((MAX_ITEMS, len(ALL_ITEM_COLUMNS)), np.float32)
        holders = s.item_holder
        known = (holders >= -1) if role == DM else ((holders >= -1) & (holders < s.n_heroes))
        slots = np.flatnonzero((s.item_card >= 0) & known)
        if len(slots):
            rows = _item_rows(s, slots, role == DM, ACOL)
            holder = s.item_holder[slots]
            rows[:, ACOL["holder"]] = (holder + 1) / MAX_UNITS
            rows[:, ACOL["lying"]] = holder < 0
            table[slots] = rows
        return table.ravel()


def _hero_cards(s, me: int, spell_levels: list[int]) -> np.ndarray | None:
    """Hero ``me``'s items (face-down identities hidden) and spells as the two pieces, or None."""
    held = np.flatnonzero(s.item_holder == me)[:MAX_ITEMS_HELD]
    known = np.flatnonzero(s.spell_known[me])[:MAX_SPELLS_KNOWN].tolist()
    if len(held) == 0 and not known:
        return None
    items = np.zeros((MAX_ITEMS_HELD, len(ITEM_COLUMNS)), np.float32)
    items[: len(held)] = _item_rows(s, held, False, ICOL)
    spells = np.zeros((MAX_SPELLS_KNOWN, len(SPELL_COLUMNS)), np.float32)
    for k, sp in enumerate(known):
        spells[k, 0] = 1.0
        spells[k, 1] = spell_levels[sp] / 3  # the game's cards: a variant may change levels
        spells[k, 2 + sp] = 1.0
    return np.concatenate([items.ravel(), spells.ravel()])


def _static_rows(s, hero: np.ndarray, monster: np.ndarray, present: np.ndarray) -> np.ndarray:
    """The unit columns that are not written per call (absent units: all zeros)."""
    t = np.zeros((MAX_UNITS, _NU), np.float32)
    status = s.unit_status
    t[:, UCOL["present"]] = present
    t[:, UCOL["hero"]] = hero
    t[:, UCOL["monster"]] = monster
    t[:, UCOL["active"]] = status == ACTIVE
    t[:, UCOL["exited"]] = status == EXITED
    t[:, UCOL["dead"]] = hero & np.isin(status, (CORPSE, CORPSE_OUT))
    t[:, UCOL["dragging"]] = s.dragging >= 0
    held = s.item_holder[s.item_holder >= 0]
    t[:, UCOL["items_held"]] = np.bincount(held, minlength=MAX_UNITS)[:MAX_UNITS] / MAX_ITEMS_HELD
    t[:, UCOL["base_health"]] = s.base_health / 20
    t[:, UCOL["base_stamina"]] = s.base_stamina / 10
    t[:, UCOL["base_magic"]] = s.base_magic / 10
    t[:, UCOL["fight"]] = s.base_fight / 10
    t[:, UCOL["move"]] = s.base_move / 10
    t[:, UCOL["damage"]] = s.base_damage / 5
    t[:, UCOL[TRAITS[0]] : UCOL[TRAITS[0]] + len(TRAITS)] = _TRAIT_BITS[s.unit_traits]
    for h in How:
        if h != How.HERO:
            t[:, UCOL[f"how_{h.name.lower()}"]] = (s.unit_how == h) & monster
    for u in np.flatnonzero(hero & (s.unit_card >= 0)):
        t[u, _ABILITY_COLS[int(s.unit_card[u])]] = 1.0
    used = np.flatnonzero(s.unit_side >= 0)
    type_index = s.unit_card[used].astype(np.int64) + np.where(monster[used], _N_HERO_CARDS, 0)
    t[used, UCOL[f"type_{_HERO_IDS[0]}"] + type_index] = 1.0
    np.minimum(t, 1.0, out=t)
    t *= present[:, None]
    return np.ascontiguousarray(t.T)


def _fill_candidates(game, role, unit, purpose, b, out, units, column=None) -> None:
    """Rows of the candidates of a choose_target decision, in TARGET_k order (the engine's lists).

    They are the candidates of the decision asked now (the acting agent's), shown to heroes only when
    that decision is about a figure they see (``_fill_context``). The engine offers a hero only figures
    heroes see (in its line of sight, or next to it; tests/test_hero_observation_fog.py checks it in
    random play); a figure heroes do not see (``column`` -1) would get no row all the same. For
    heroes a figure's ``slot`` is its column in their units piece."""
    s = game.state
    table = out[OBS_SPEC.slice("candidates")].reshape(MAX_TARGETS, len(CANDIDATE_COLUMNS))
    if purpose == TARGET_LOOT:
        for k, (corpse, item) in enumerate(target_candidates(game, unit, purpose, b)[:MAX_TARGETS]):
            card = int(s.item_card[item])
            row = table[k]
            row[[CCOL["present"], CCOL["item"]]] = 1.0
            row[CCOL["slot"]] = item / (MAX_ITEMS - 1)
            row[CCOL["x"] : CCOL["x"] + 2] = _XY[s.unit_pos[corpse]]
            row[CCOL["identified"]] = bool(s.item_known[item])
            row[CCOL["deck_treasure"] + _DECK_OF[card]] = 1.0
            if s.item_known[item] or role == DM:
                row[_card0(CCOL) + card] = 1.0
        return
    chosen = target_candidates(game, unit, purpose, b)
    for k, u in enumerate(chosen[:MAX_TARGETS]):
        if column is not None and column[u] < 0:
            continue
        row = table[k]
        row[[CCOL["present"], CCOL["unit"]]] = 1.0
        row[CCOL["slot"]] = (u if column is None else column[u]) / (MAX_UNITS - 1)
        row[CCOL["x"] : CCOL["x"] + 2] = _XY[s.unit_pos[u]]
        units[UCOL["candidate"], u] = 1.0


if __name__ == "__main__":
    print(layout_markdown())
