"""Side views of a game: what each side may know, as a real ``Game`` an agent can read (D-24).

``heroes_view_named(game, ...)`` is a redacted copy holding only what the heroes may know (made by
the heroes' knowledge, ``side_knowledge.HeroKnowledge.view``, which says which monsters they see and
their names for them); ``dm_view(game)`` is
the whole game but for the future dice. Both are ordinary :class:`~dungeon_env.engine.game.Game`
objects, so code written against the engine (the scripted agents, search rollouts) reads them
unchanged, and playable: a copy of a view can be played on (a *determinisation*: the world as the
side knows it, with dice of its own).

The heroes may know (ruling D-24, ``docs/RULINGS.md``):

- **Public**: the printed board (areas and walls of ``board.txt``), the adventure's scenario text
  (id, name, goal, objectives, and for a ``retrieve`` or ``claim`` objective the room holding its
  item: the quest names where to go, ``Objective.area``), start squares and exits, the catalogue of
  cards and the rules, Light, turn, phase, the decision asked and its legal actions (and a
  ``choose_target`` decision's candidates, ``view.target_candidates``), every hero's state, which
  items each hero holds (their identity only if face up), the decks' sizes.
- **Revealed areas only**: doors on an edge with a revealed side (an undiscovered secret door is a
  wall), furniture and blockages (and a blockage next to a revealed square: it blocks sight like a
  wall, so it is seen from there as a wall is, and the legal moves show it), the monsters standing
  there (with their state), the hazards.
- **Detected traps.**

Everything else is absent from the heroes' view: the seed and the dice (the view has fresh dice and
``seed`` None), undetected traps, the cards behind face-down items and the decks' order (each such
card is its deck's placeholder, ``PLACEHOLDER_ITEMS``, appended to ``view.item_cards``; an unread
scroll's spell is ``PLACEHOLDER_SPELL``), monsters in the fog (their slots empty, their effects,
Fights and queue places dropped), the DM's book (guards not yet met, ambushes, the Patrol set, room
events not yet read, traps not yet found), the doors, furniture and blockages of unrevealed areas.
Lists sized by hidden content are re-indexed to the public lists: the view's
``tables.adventure.doors`` / ``traps`` / ``guards`` / ``events`` hold only the known ones and the
state arrays follow them (``door_*``, ``trap_*``, ``guard_*``, ``event_done``; no ambushes). Monster
ids are the heroes' names (``unit_uid``: ``m<k>`` is the k-th monster heroes first saw, stable for
its life), so they count no fog monster. The event log (``view.events``) is what the caller passes
as ``events=`` (the heroes' lens of the log), by default nothing.

The view's tables are its own object (fresh ``cache``): walls where the printed board or an unknown
door edge has one, the known doors re-indexed, furniture and blockages of revealed areas, and line
of sight from those (computed a row at a time from a per-adventure table, ``_los_param``). They are
cached per public configuration in the real tables' cache (``sideview.heroes``, a small LRU), so
building a view costs a state copy and a few array operations.

A playable heroes' view of a game on the compiled core plays on the core, with content built from
the view's own tables (``core.content``, kept in their cache; their line of sight handed over whole,
``_LosRows.whole``); the copies of any heroes' view (:class:`HeroesView`) play on the game's engine.
``engine="python"`` builds the reference on the Python rules for the parity tests, never a product
path's (docs/CORE.md, "The side views on the core", "The Python rules retire").

Objectives on the view read the view: a ``slay`` goal is met when the heroes saw its guard slain
(its ``slain`` event names a hero among the killers); ``retrieve`` and ``claim`` count only items
whose card the heroes know.
"""

from __future__ import annotations

import dataclasses
import weakref

import numpy as np

from dungeon_env.content.model import DECKS, Effect, ItemCard, Spell
from dungeon_env.engine import core, effects
from dungeon_env.engine.actions import (
    Decision,
    Phase,
)
from dungeon_env.engine.core import _core
from dungeon_env.engine.decisions import target_candidates as target_candidates_of
from dungeon_env.engine.dice import Dice
from dungeon_env.engine.explore import STEP_EVENTS
from dungeon_env.engine.game import Game
from dungeon_env.engine.knowledge import dm_event, known_doors, known_traps
from dungeon_env.engine.state import (
    _NESTED,
    CAST_ITEM,
    CAST_SPELL,
    EFFECT_UID,
    EFFECT_UNIT,
    FIGHT_MONSTER,
    MAX_UNITS,
    MENTAL_AGGRESSOR,
    MENTAL_DEFENDER,
    NO_UNIT,
    SIDE_MONSTER,
    State,
)
from dungeon_env.engine.tables import (
    DOOR,
    WALL,
    Tables,
    _edge_grids,
    _line_of_sight,
    _patrol_rooms,
    memoised,
    passage_row,
    passages,
    side_row,
    sight_lines,
    square,
    xy,
)

HEROES, DM = "heroes", "dm"
# public configurations whose hero tables are kept per adventure (about 70 KB each), and the state
# fields they were found by: a designer's run of scripted games meets a few new ones a game, and
# building one costs about 3.5 ms (256/512 against 32/64: 2.7 -> 0.8 builds a game, SPEED.md)
VIEW_MEMO_SIZE = 256
VIEW_FIELDS_MEMO_SIZE = 512
NO_EFFECT = Effect(kind="treasure", amount=0)  # "no use in play": what an unknown card does
PLACEHOLDER_SPELL = Spell(
    id="unknown_spell",
    name="Unknown spell",
    level=1,
    casting="any",
    target="self",
    range=0,
    effect=NO_EFFECT,
    text="The spell of a scroll nobody has read yet.",
)
PLACEHOLDER_ITEMS = tuple(
    ItemCard(
        id=f"unknown_{deck}",
        name=f"Unknown {deck.replace('_', ' ')} card",
        deck=deck,
        use="consumable" if deck in ("potions", "spells") else "passive",
        effect=NO_EFFECT if deck == "potions" else None,
        spell=PLACEHOLDER_SPELL.id if deck == "spells" else None,
        copies=0,
        text="A card whose face the heroes have not seen.",
    )
    for deck in DECKS
)
_DECK = {deck: d for d, deck in enumerate(DECKS)}
_BLANK = State()
UNIT_FIELDS = tuple(  # the per-unit arrays, with the value of an empty slot
    (f.name, getattr(_BLANK, f.name)[0])
    for f in dataclasses.fields(State)
    if isinstance(getattr(_BLANK, f.name), np.ndarray) and getattr(_BLANK, f.name).shape == (MAX_UNITS,)
)
_REPLACED = {  # state fields the heroes' view rebuilds rather than copies
    "door_open",
    "door_alert",
    "door_tried",
    "door_hidden",
    "trap_armed",
    "trap_detected",
    "guard_uid",
    "guard_slain",
    "ambush_fired",
    "event_done",
    "deck_cards",
    "spell_known",
    "declined_spells",
    "effects",
    "fights",
    "queue",
    "mind_queue",
    "stack",
    "act_todo",
}
_COPY = tuple(  # (field, 0: array, 1: list of lists, 2: list, 3: a plain value) of the others
    (
        f.name,
        0 if isinstance(v, np.ndarray) else (1 if f.name in _NESTED else 2) if isinstance(v, list) else 3,
    )
    for f in dataclasses.fields(State)
    if f.name not in _REPLACED
    for v in (getattr(_BLANK, f.name),)
)
_FIELD_NAMES = tuple(f.name for f in dataclasses.fields(State))
_ARRAY_NAMES = tuple(n for n in _FIELD_NAMES if isinstance(getattr(_BLANK, n), np.ndarray))
_OTHER_NAMES = tuple(n for n in _FIELD_NAMES if n not in _ARRAY_NAMES)  # the scalars and lists
_REPLACED_LISTS = tuple(n for n in _OTHER_NAMES if n in _REPLACED and isinstance(getattr(_BLANK, n), list))
_LATER_FIELDS = (  # what _redact makes when first read in a view for reading only (_Later)
    "door_alert",
    "door_tried",
    "door_hidden",
    "closed_bits",
    "ambush_fired",
    "event_done",
    "guard_uid",
    "guard_slain",
    "downed_by",
    "deck_cards",
    "spell_known",
    "declined_spells",
)
_LATER_SET = frozenset(_LATER_FIELDS)
_LATER_SCALARS = ("closed_bits", "downed_by")  # of those, the fields that are no arrays
_EDITED = ("unit_uid", "occupant", "item_card", "casting_spell", "cast")  # what _redact edits in place
_DICE: dict[int, Dice] = {}
_NONE = np.zeros(0, bool)
_EXPLORE = int(Phase.EXPLORE)  # fresh dice by seed, copied for each view
_UNIT_BLANK = dict(UNIT_FIELDS)
_GAME_FIELDS = (  # what a view takes from the game as it is (the rest is redacted or replaced)
    "adventure_ref",
    "variant",
    "rules",
    "heroes",
    "monsters",
    "monster_index",
    "hero_ids",
    "max_turns",
)


# ------------------------------------------------------------------------------------------ the views


def view_side(game: Game) -> str | None:
    """``"heroes"`` or ``"dm"`` for a side view, None for a real game."""
    return getattr(game, "side", None)


def dm_view(game: Game, *, seed: int = 0) -> Game:
    """The Dungeon Master's view: the same game, but with fresh dice (seeded ``seed``, not the real
    streams), ``seed`` None and the log as ``knowledge.dm_event`` gives it (no seed, no secret
    roll)."""
    legal = list(game.legal_actions())
    view = game.copy()
    view.knowledge = {}  # its own, made when asked (the real game's would refold a new log)
    view.seed = None
    view.take_dice(fresh_dice(seed))
    view.events = _dm_log(game)
    _settle(view, DM, legal, game)
    return view


# Each game's log as the DM may know it, filtered so far: a log is only added to, so the next view
# filters the new events alone (filtering the whole log at every DM decision took a third of the
# env's time on heroes/goblin-warrens). A log replaced is read anew; a game gone takes its entry.
_DM_LOGS: weakref.WeakKeyDictionary[Game, tuple[object, int, list[dict]]] = weakref.WeakKeyDictionary()


def _dm_log(game: Game) -> list[dict]:
    """``game``'s events as ``knowledge.dm_event`` gives them, as a new list."""
    token, seen, known = _DM_LOGS.get(game, (None, 0, []))
    if token is not game.log_token:
        seen, known = 0, []
    known.extend(e for e in map(dm_event, game.events_since(seen)) if e is not None)
    _DM_LOGS[game] = (game.log_token, game.n_events, known)
    return list(known)


def heroes_view_named(
    game: Game,
    *,
    seen: np.ndarray,
    numbers: dict[int, int],
    events=(),
    seed: int = 0,
    playable: bool = True,
    engine: str | None = None,
    slain: dict[str, bool] | None = None,
) -> Game:
    """The heroes' view: a playable copy of ``game`` holding only what heroes may know (see the
    module docstring), made from the heroes' knowledge (``side_knowledge.HeroKnowledge.view``, the
    way to get one): ``seen``, the slots of the monsters heroes see; ``numbers``, engine monster id
    -> the heroes' number of that monster (the view's ``unit_uid``: labels ``m<k>`` are the heroes'
    names); ``events``, the log as heroes know it (``view.events``). Its ``legal_actions()`` are the
    real game's. ``seed`` seeds the view's own dice.

    ``playable=False``: the same view for reading only, made in a fraction of the time. Its state
    shares with ``game`` every array the view does not change (so it must not be edited), each
    taken when first read, and makes the fields agents seldom read (doors' alerts and tries,
    guards, decks, ...) when first read too: read it at the position it was made for (it is made
    per position, ``SideKnowledge.view``). ``view.apply`` raises; ``view.copy()`` is a playable
    copy.

    ``engine``: what the view and its copies play on, ``"core"`` (the compiled core, with content
    of the view's own tables: ``core.content``) or ``"python"`` (the Python rules: only the parity
    tests' reference asks for it); None: the game's own engine (the core, for every game the
    product makes). A view for reading only holds its state as
    Python objects either way (it is read, never played on); its copies play on ``engine``.

    ``slain``: engine monster label -> whether a hero is among the killers of its last ``slain``
    event, as the heroes' knowledge keeps it while it folds the log (None: read from the log).

    A playable view of a game on the core, playing on the core, is made by the core
    (``_core.heroes_view``: ``_redact`` in C++, on the view's content); ``events`` may then be the
    knowledge's ``_core.ShownEvents`` store, whose events become the view's log without a dict."""
    engine = engine or game.engine
    if engine not in ("core", "python"):
        raise ValueError(f"engine must be 'core' or 'python', got {engine!r}")
    legal = list(game.legal_actions())
    ht = _hero_tables(game)
    view = HeroesView.__new__(HeroesView)
    view.copies_engine = engine
    for name in _GAME_FIELDS:
        setattr(view, name, getattr(game, name))
    view.tables = ht.tables
    view.vis_cache = ht.tables.cache
    view.carried = None
    view.seed = None
    view.knowledge = {}
    view.moves = game.moves
    view.item_cards, view.item_index, view.spells, view.spell_index = _catalogue(game)
    if playable and engine == "core" and game.engine == "core":  # made in the core
        eng = _core.heroes_view(
            game.core_engine,  # (Python's edits to the state handed back first)
            _core_maps(view, ht, len(game.item_cards), len(game.spells)),
            seen.tolist(),
            numbers,
            _guards_slain(game, slain),
            events,
        )
        eng.set_dice(fresh_dice(seed))
        view.log_token = object()
        view._attach(eng)
        _settle(view, HEROES, legal, game)
        return view
    if isinstance(events, _core.ShownEvents):
        events = events.since(0)
    view.dice = fresh_dice(seed)
    view.events = list(events) if playable else events  # read only: the knowledge's own list
    view.state = _redact(
        game, ht, len(game.item_cards), len(game.spells), seen.tolist(), numbers, not playable, slain
    )
    if not playable:
        view.read_only = True
    elif engine == "core":
        view.use_engine("core")
    _settle(view, HEROES, legal, game)
    return view


def playable(view: Game) -> Game:
    """``view`` itself, or for a view read only (``playable=False``) a playable copy of it: what a
    search copies at each iteration (a copy of a view read only is a new game on its engine, built
    from its Python state; a copy of a playable one is a memory copy of its engine)."""
    return view.copy() if view.read_only else view


class HeroesView(Game):
    """A heroes' view as ``heroes_view_named`` makes it: a ``Game`` whose legal actions at the
    decision it was made for are the real game's (``_settle``), and whose copies (plain games)
    compute their own from the view's world and play on ``copies_engine``: the core, unless the
    view was made with ``engine="python"`` (the parity tests' reference)."""

    copies_engine = "core"

    def copy(self) -> Game:
        clone = Game.copy(self)
        clone._legal = None  # the real game's: they hold for this view's decision only
        if self.copies_engine == "core" and clone.engine == "python":
            clone.use_engine("core")
        return clone

    def legal_actions(self) -> list[int]:
        """The real game's legal actions at the decision the view was made for; at a DM decision
        about a figure the heroes see (the DM's real choices are not theirs to know), the view's
        world's own: on a view for reading only they are computed by a copy on ``copies_engine``
        (the Python rules play only for the reference, ``engine="python"``)."""
        if self._engine is None and self._legal is None and self.copies_engine == "core":
            if self._state.outcome:
                return []
            self._legal = self.copy().legal_actions()
        return Game.legal_actions(self)


def _settle(view: Game, side: str, legal: list[int] | None, game: Game) -> None:
    """The view's side, and the real game's legal actions and target candidates, which hold for
    the decision asked now only: a copy or an applied action recomputes them from the view."""
    view.side = side
    view.asked = game.agent
    if side == HEROES and game.agent == DM:
        # the DM's real choices are not the heroes' to know (they hang on a trap, a monster still to
        # move in the fog): the view's own (its world's: computed from it when asked), none for a
        # decision about a figure the view does not hold
        legal = None if view.state.stack else []
    view._legal = legal
    view.target_candidates = (legal, _candidates(game) if legal else None)


def target_candidates(game: Game) -> list | None:
    """The candidates of the ``choose_target`` decision asked now, in ``TARGET_k`` order, as the
    real game lists them (for a view, at the decision it was built for), else None (compute them
    from the game)."""
    stored = getattr(game, "target_candidates", None)
    if stored is None or stored[0] is not game._legal:
        return None
    return stored[1]


_CATALOGUES: dict[tuple[int, int], tuple] = {}


def _catalogue(game: Game) -> tuple:
    """The view's item cards and spells: the game's, then the placeholders (the lists are shared by
    the views of one catalogue: read them, never change them)."""
    key = (id(game.item_cards), id(game.spells))
    found = _CATALOGUES.get(key)
    if found is None or found[0] is not game.item_cards or found[1] is not game.spells:
        base = len(game.item_cards)
        found = (
            game.item_cards,
            game.spells,
            [*game.item_cards, *PLACEHOLDER_ITEMS],
            {**game.item_index, **{c.id: base + d for d, c in enumerate(PLACEHOLDER_ITEMS)}},
            [*game.spells, PLACEHOLDER_SPELL],
            {**game.spell_index, PLACEHOLDER_SPELL.id: len(game.spells)},
        )
        if len(_CATALOGUES) >= 16:
            _CATALOGUES.clear()
        _CATALOGUES[key] = found
    return found[2:]


def fresh_dice(seed: int) -> Dice:
    """New dice seeded ``seed`` (a copy of a kept template: making one hashes every stream's seed)."""
    dice = _DICE.get(seed)
    if dice is None:
        if len(_DICE) >= 64:
            _DICE.clear()
        dice = _DICE[seed] = Dice(seed)
    return dice.copy()


def _candidates(game: Game) -> list | None:
    """The candidates of a ``choose_target`` decision in ``TARGET_k`` order, as the real game lists
    them (the observation shows them to the agent asked): units, or ``(corpse, item)`` for a loot."""
    d = game.decision
    if d is None or d[0] != Decision.CHOOSE_TARGET:
        return None
    unit, (purpose, b) = d[1], game.decision_args
    return candidates_of(game, unit, purpose, b)


def candidates_of(game: Game, unit: int, purpose: int, b: int) -> list:
    """The candidates of a ``choose_target`` decision about ``unit`` (``purpose``, ``b``: its
    args) in ``TARGET_k`` order: the core's for a game on the core, else the Python rules' (a view
    for reading only holds a Python state)."""
    eng = game.core_engine
    if eng is not None:
        return _core.rules.decisions.target_candidates(eng, unit, purpose, b)
    return target_candidates_of(game, unit, purpose, b)


# ------------------------------------------------------------------------------ the heroes' tables


@dataclasses.dataclass(frozen=True)
class _HeroTables:
    tables: Tables
    doors: np.ndarray  # the real index of each view door
    traps: np.ndarray  # ... of each view trap
    guards: np.ndarray  # ... of each view guard
    events: np.ndarray  # ... of each view room event
    event_map: np.ndarray  # real room event -> view index, or -1


def _static(t: Tables) -> dict:
    """Per-adventure look-ups (kept in the real tables' cache)."""
    cached = t.cache.get("sideview.static")
    if cached is None:
        adv, names = t.adventure, t.board.area_names
        slay_at = {o.at for o in adv.objectives if o.kind == "slay"}
        cached = {
            "slay_guards": np.array([gd.at in slay_at for gd in adv.guards], bool),
            "objectives": _public_objectives(adv, names),
            # the squares with a door on one of their edges: where the heroes' walls and door
            # indices can differ from the real board's
            "door_edge_squares": np.flatnonzero((t.edge_door >= 0).any(axis=1)).tolist(),
            # the squares next to a blockage: where the heroes' passages can differ (a blockage
            # they have not seen is not one to them)
            "next_to_blockage": sorted(
                {r for q in np.flatnonzero(t.blockage).tolist() for r, _ in t.sides[q] if r >= 0}
            ),
        }
        t.cache["sideview.static"] = cached
    return cached


def _public_objectives(adv, names) -> tuple:
    """The objectives with, for a retrieve or claim goal, the room of the room event that gives its
    item (``area``): the quest text says where to go."""
    out = []
    for obj in adv.objectives:
        if obj.kind in ("retrieve", "claim") and obj.area is None:
            room = next(
                (
                    ev.area
                    for ev in adv.events
                    if ev.item == obj.item or any(o.item == obj.item for o in ev.options)
                ),
                None,
            )
            obj = dataclasses.replace(obj, area=room)
        out.append(obj)
    return tuple(out)


def heroes_tables(game: Game) -> Tables:
    """The board as the heroes know it now: the ``tables`` of ``heroes_view(game)`` (walls where the
    printed board or an unknown door edge has one, the known doors re-indexed, the furniture and
    blockages of revealed areas), without building the rest of the view."""
    return _hero_tables(game).tables


def _hero_tables(game: Game) -> _HeroTables:
    """The heroes' tables of the game's public configuration (memoised per adventure), found first
    by the state fields that configuration is made of (areas revealed, secret doors, traps detected,
    guards placed, room events read: the same fields give the same tables), without working it out."""
    s, t = game.state, game.tables
    fields = (
        t.adventure.difficulty,
        s.revealed.tobytes(),
        s.door_hidden.tobytes(),
        s.trap_detected.tobytes(),
        s.guard_uid.tobytes(),
        s.event_done.tobytes(),
    )
    return memoised(
        t, "sideview.heroes_by_fields", VIEW_FIELDS_MEMO_SIZE, fields, lambda: _public_tables(game)
    )


def _public_tables(game: Game) -> _HeroTables:
    """``_hero_tables`` by the public configuration itself."""
    s, t = game.state, game.tables
    static = _static(t)
    revealed = s.revealed
    doors, traps = known_doors(game), known_traps(game)
    guards = (s.guard_uid >= 0) | static["slay_guards"]
    key = (
        t.adventure.difficulty,
        revealed.tobytes(),
        doors.tobytes(),
        traps.tobytes(),
        guards.tobytes(),
        s.event_done.tobytes(),
    )
    return memoised(
        t,
        "sideview.heroes",
        VIEW_MEMO_SIZE,
        key,
        lambda: _build_tables(
            t,
            revealed,
            np.flatnonzero(doors),
            np.flatnonzero(traps),
            np.flatnonzero(guards),
            np.flatnonzero(s.event_done),
            static,
        ),
    )


def _build_tables(t: Tables, revealed, doors, traps, guards, events, static) -> _HeroTables:
    adv = t.adventure
    seen = revealed[t.area]  # [square]: in a revealed area
    door_map = np.full(t.n_doors + 1, -1, np.int16)  # [-1] stays -1: "no door"
    door_map[doors] = np.arange(len(doors))
    edge_door = door_map[t.edge_door]
    wall = t.wall | ((t.edge_door >= 0) & (edge_door < 0))  # an unknown door edge is a wall
    furniture = t.furniture & seen
    blockage = t.blockage & seen
    for q in np.flatnonzero(t.blockage & ~seen).tolist():  # seen from next door, like a wall
        blockage[q] = any(r >= 0 and seen[r] for r, _ in t.sides[q])
    event_map = np.full(len(adv.events), -1, np.int16)
    event_map[events] = np.arange(len(events))

    def known_event(e: int):
        ev = adv.events[e]
        if ev.door is not None:
            door = int(door_map[ev.door])
            ev = dataclasses.replace(ev, door=door if door >= 0 else None)
        return ev

    door_squares = tuple(t.door_squares[i] for i in doors)
    view_adv = dataclasses.replace(
        adv,
        doors=tuple(adv.doors[i] for i in doors),
        blockages=tuple(q for q in adv.blockages if blockage[square(*q)]),
        furniture=tuple(f for f in adv.furniture if any(seen[square(*q)] for q in f.squares)),
        guards=tuple(adv.guards[i] for i in guards),
        patrol=(),
        ambushes=(),
        objectives=static["objectives"],
        secret_rooms=(),
        traps=tuple(adv.traps[i] for i in traps),
        events=tuple(known_event(int(e)) for e in events),
    )
    los_static, los_doors = _view_los(t, doors, blockage, wall, edge_door)
    tables = Tables(
        adventure=view_adv,
        board=t.board,
        area=t.area,
        neighbor=t.neighbor,
        wall=wall,
        edge_door=edge_door,
        furniture=furniture,
        blockage=blockage,
        exit=t.exit,
        los_static=los_static,
        los_doors=los_doors,
        area_squares=t.area_squares,
        is_corridor=t.is_corridor,
        patrol_rooms=np.array(_patrol_rooms(view_adv, t.board, t.area, door_squares), np.int16),
        door_squares=door_squares,
        sides=_view_sides(t, wall, edge_door, static["door_edge_squares"]),
        obstacle=tuple((furniture | blockage).tolist()),
    )
    tables.cache["passages"] = _view_passages(t, tables, static)
    tables.cache["core.board_arrays"] = _view_board_arrays(t, tables, static["door_edge_squares"])
    return _HeroTables(tables, doors, traps, guards, events, event_map)


def _view_sides(t: Tables, wall: np.ndarray, edge_door: np.ndarray, door_edge_squares: list[int]) -> tuple:
    """``tables.sides`` of the heroes' board (``_sides(t.neighbor, wall, edge_door)``), from the real
    board's: the two differ only on the squares with a door edge, which are built again (a whole
    build was most of the time of a view's tables)."""
    sides = list(t.sides)
    for q in door_edge_squares:
        sides[q] = side_row(t.neighbor[q].tolist(), wall[q].tolist(), edge_door[q].tolist())
    return tuple(sides)


def _view_board_arrays(t: Tables, view: Tables, door_edge_squares: list[int]) -> tuple:
    """``core.board_arrays`` of the heroes' board ``view`` from the real board's: each square's
    neighbour and door per direction differ only on the squares with a door edge, which are taken
    from the view's sides (the whole conversion of its sides was most of a new view's tables in
    scripted games)."""
    side_to, side_door, _, _ = core.board_arrays(t)
    side_to, side_door = side_to.copy(), side_door.copy()
    if door_edge_squares:
        rows = np.asarray([view.sides[q] for q in door_edge_squares], dtype=np.int32)  # [k, d, 2]
        side_to[door_edge_squares] = rows[:, :, 0]
        side_door[door_edge_squares] = rows[:, :, 1]
    return (
        side_to,
        side_door,
        np.ascontiguousarray(view.furniture, dtype=bool),
        np.ascontiguousarray(view.blockage, dtype=bool),
    )


def _view_passages(t: Tables, view: Tables, static: dict) -> list:
    """``tables.passages`` of the heroes' board ``view``, from the real board's: they differ only on
    the squares with a door edge (walls, door indices) and those next to a blockage (the heroes'
    blockages are the real ones they have seen), which are built again."""
    out = list(passages(t))
    blockage = view.blockage.tolist()
    for q in {*static["door_edge_squares"], *static["next_to_blockage"]}:
        out[q] = passage_row(view.sides[q], blockage)
    return out


# ------------------------------------------------------------------------------ line of sight


def _los_param(t: Tables):
    """Line of sight of the adventure with every door and every blockage given a bit of its own
    (doors first, then blockages in square order): ``(static, bits, blockage squares)``, where
    ``static`` is blocked by the printed walls alone and ``bits`` holds what else a line crosses.
    Computed once per adventure; None if doors and blockages need more than 64 bits."""
    cached = t.cache.get("sideview.los")
    if cached is None:
        blocks = [int(q) for q in np.flatnonzero(t.blockage)]
        if t.n_doors + len(blocks) > 64:
            cached = ()
        else:
            v, h, vbit, hbit = _edge_grids(t.wall, t.edge_door, np.zeros_like(t.blockage))
            for j, q in enumerate(blocks):
                bit = np.uint64(1) << np.uint64(t.n_doors + j)
                x, y = xy(q)
                for grid, bits, at in (
                    (v, vbit, (y, x)),
                    (v, vbit, (y, x + 1)),
                    (h, hbit, (y, x)),
                    (h, hbit, (y + 1, x)),
                ):
                    if grid[at] != WALL:
                        grid[at] = DOOR
                        bits[at] |= bit
            cached = (*sight_lines(v, h, vbit, hbit), tuple(blocks))
        t.cache["sideview.los"] = cached
    return cached or None


def _view_los(t: Tables, doors, blockage, wall, edge_door):
    """The view's ``los_static`` and ``los_doors``: unknown doors and known blockages block, unknown
    blockages do not, known doors carry their view bit. Nothing is computed until a row is read
    (tables built for their paths alone, as ``rewards.exit_distances`` builds them for the search's
    views, never pay for a sight line)."""
    rows = _LosRows(lambda: _los_rows(t, doors, blockage, wall, edge_door), t.n_squares)
    return rows.static, rows.doors


def _los_rows(t: Tables, doors, blockage, wall, edge_door, compiled: bool = True):
    """``rows(a) -> (static, doors)`` of the view's line of sight from square ``a`` (or from every
    square at once, with ``a`` a slice: the whole table in the core, ``_core.view_sight``, unless
    ``compiled`` is False: the numpy reference)."""
    param = _los_param(t)
    if param is None:  # too many doors and blockages for the bit table: compute it all (slow)
        static_all, doors_all = _line_of_sight(wall, edge_door, blockage)
        return lambda a: (static_all[a], doors_all[a])
    static_param, bits_param, blocks = param
    known = np.zeros(t.n_doors, bool)
    known[doors] = True
    hide_bits = 0
    for i in range(t.n_doors):
        if not known[i]:
            hide_bits |= 1 << i
    for j, q in enumerate(blocks):
        if blockage[q]:
            hide_bits |= 1 << (t.n_doors + j)
    hide = np.uint64(hide_bits)
    # view door bits from the real ones, 8 real bits at a time through a look-up table
    view_bit = {int(i): k for k, i in enumerate(doors)}
    patterns = np.arange(256, dtype=np.uint64)
    luts = []
    for start in range(0, t.n_doors, 8):
        lut = np.zeros(256, np.uint64)
        for k in range(8):
            if start + k in view_bit:
                lut |= ((patterns >> np.uint64(k)) & np.uint64(1)) << np.uint64(view_bit[start + k])
        luts.append((np.uint64(start), lut))
    byte = np.uint64(255)

    def rows(a) -> tuple[np.ndarray, np.ndarray]:
        if compiled and isinstance(a, slice) and a == slice(None):
            view_bits = [view_bit.get(i, -1) for i in range(t.n_doors)]
            return _core.view_sight(static_param, bits_param, hide_bits, view_bits)
        bits = bits_param[a]
        static = static_param[a] | ((bits & hide) != 0)
        view_doors = np.zeros(bits.shape, np.uint64)
        for start, lut in luts:
            view_doors |= lut[((bits >> start) & byte).astype(np.intp)]
        return static, view_doors

    return rows


class _LosRows:
    """The view's line of sight, computed one source square (row) at a time, when first read, or
    whole (``whole()``, for the compiled core's content); ``setup()`` gives the row function, made
    at the first read."""

    def __init__(self, setup, n: int) -> None:
        self._setup, self._row_of = setup, None
        self._rows: list = [None] * n
        self._whole: tuple[np.ndarray, np.ndarray] | None = None
        self.static = _LazyTable(self, 0, (n, n), np.dtype(bool))
        self.doors = _LazyTable(self, 1, (n, n), np.dtype(np.uint64))

    def _rows_of(self):
        if self._row_of is None:
            self._row_of, self._setup = self._setup(), None
        return self._row_of

    def row(self, a: int) -> tuple[np.ndarray, np.ndarray]:
        row = self._rows[a]
        if row is None:
            whole = self._whole
            row = self._rows[a] = (whole[0][a], whole[1][a]) if whole is not None else self._rows_of()(a)
        return row

    def whole(self) -> tuple[np.ndarray, np.ndarray]:
        """``(los_static, los_doors)`` as whole ``[N, N]`` arrays (computed once; read them, never
        change them)."""
        if self._whole is None:
            static, doors = self._rows_of()(slice(None))
            self._whole = (np.ascontiguousarray(static, dtype=bool), np.ascontiguousarray(doors, np.uint64))
        return self._whole


class _LazyTable:
    """A read-only ``[N, N]`` table whose rows come from ``_LosRows`` (``t[a]``, ``t[a, b]``, or as
    a whole through ``np.asarray``)."""

    def __init__(self, rows: _LosRows, which: int, shape, dtype) -> None:
        self._source, self._which, self.shape, self.dtype, self.ndim = rows, which, shape, dtype, 2

    def __getitem__(self, key):
        if isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], int | np.integer):
            return self._source.row(int(key[0]))[self._which][key[1]]
        if isinstance(key, int | np.integer):
            return self._source.row(int(key))[self._which]
        return np.asarray(self)[key]

    def __len__(self) -> int:
        return self.shape[0]

    def __array__(self, dtype=None, copy=None):
        out = self._source.whole()[self._which].copy()
        return out if dtype is None else out.astype(dtype)

    def los_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The view's ``(los_static, los_doors)`` as whole arrays, shared (read them only)."""
        return self._source.whole()


# ------------------------------------------------------------------------------ the heroes' state


def _redact(
    game: Game,
    ht: _HeroTables,
    item_base: int,
    spell_base: int,
    visible: list[int],
    numbers: dict[int, int],
    shared: bool = False,
    slain: dict[str, bool] | None = None,
) -> State:
    """The heroes' state (see the module docstring): ``visible``, the slots of the monsters heroes
    see; ``numbers``, engine monster id -> the heroes' number. ``shared``: sharing every field it
    does not change with ``game.state`` (a view for reading only). ``slain``: see
    ``heroes_view_named``."""
    s = game.state
    # --- figures: monsters heroes do not see (or gone) leave no trace ---
    pos = s.unit_pos.tolist()
    shown = set(visible)
    hidden = [u for u, side in enumerate(s.unit_side.tolist()) if side == SIDE_MONSTER and u not in shown]
    hide = set(hidden)
    v = _share_state(s, hidden) if shared else _copy_state(s, hidden)
    if hidden:
        occupant = v.occupant
        for u in hidden:
            if pos[u] >= 0 and occupant[pos[u]] == u:
                occupant[pos[u]] = NO_UNIT
    # monster ids: the heroes' names (first seen, first named), which count no fog monster
    for u in visible:
        v.unit_uid[u] = numbers[int(s.unit_uid[u])]
    unnamed = max(numbers.values(), default=-1) + 1  # a guard never seen: a number after the names
    v.next_uid = unnamed + len(ht.guards)
    # the game's lists and scalars as the view took them (``_copy_state``, ``_share_state``: read
    # once, and from a core game without marking them to be handed back)
    v.queue = [m for m in v.queue if m not in hide]
    v.mind_queue = [m for m in v.mind_queue if m not in hide]
    uid = v.unit_uid
    v.effects = [
        [*row[:EFFECT_UID], int(uid[row[EFFECT_UNIT]]), *row[EFFECT_UID + 1 :]]
        for row in v.effects
        if row[EFFECT_UNIT] not in hide and effects.live(game, row)
    ]
    fights = v.fights
    if hide:
        kept = [row[FIGHT_MONSTER] not in hide for row in fights]
        v.fights = [list(row) for row, keep in zip(fights, kept, strict=True) if keep]
        v.fight_index = sum(kept[: v.fight_index])
        if v.mental and (v.mental[MENTAL_AGGRESSOR] in hide or v.mental[MENTAL_DEFENDER] in hide):
            v.mental = []
        if v.controller in hide:
            v.controller = NO_UNIT
    else:
        v.fights = [list(row) for row in fights]
    # --- doors, traps, guards, room events: the known ones, re-indexed ---
    doors = ht.doors
    v.door_open = s.door_open[doors]
    v.trap_armed = s.trap_armed[ht.traps]
    v.trap_detected = s.trap_detected[ht.traps]
    # --- face-down cards: their deck's placeholder ---
    item_card, item_known = s.item_card.tolist(), s.item_known.tolist()
    unknown = [
        i
        for i, (card, known) in enumerate(zip(item_card, item_known, strict=True))
        if card >= 0 and not known
    ]
    for item in unknown:
        v.item_card[item] = item_base + _DECK[game.item_cards[item_card[item]].deck]
    # the fields agents seldom read: made now for a playable view, when first read for a view for
    # reading only (``_SharedState``)
    later = _Later(game, ht, numbers, unnamed, slain, item_base, v.downed_by, v.door_open)
    if shared:
        held = v.__dict__
        held["_later"] = later
        for name in _LATER_SCALARS:
            del held[name]  # (the game's value, taken by _share_state)
    else:
        for name in _LATER_FIELDS:
            setattr(v, name, later.make(name))
    unread = set(unknown)
    for h, item in enumerate(s.casting_item.tolist()):
        if item in unread:
            v.casting_spell[h] = spell_base
    if v.cast and v.cast[CAST_ITEM] in unread:
        v.cast[CAST_SPELL] = spell_base
    # --- the decisions pending: none about a hidden figure, room events re-indexed ---
    stack = []
    for kind, unit, a, b in v.stack:
        if unit in hide:
            continue
        if kind == Decision.EVENT_CHOICE or kind == Decision.CLAIM_ITEM:
            a = int(ht.event_map[a])
            if a < 0:
                continue
        elif kind == Decision.CAST_MODE and b in unread:
            a = spell_base
        stack.append([kind, unit, a, b])
    v.stack = stack
    if v.phase == _EXPLORE and v.act_step == STEP_EVENTS:
        v.act_todo = [int(ht.event_map[e]) for e in v.act_todo if ht.event_map[e] >= 0]
    else:
        v.act_todo = list(v.act_todo)
    return v


def _core_maps(view: Game, ht: _HeroTables, item_base: int, spell_base: int):
    """The ``_core.HeroTablesMaps`` of the view's tables (kept in their cache, per variant and
    catalogue, like the view's content)."""
    key = ("sideview.core_maps", view.variant, item_base, spell_base)
    cache = ht.tables.cache
    found = cache.get(key)
    if found is None:
        found = cache[key] = _core.HeroTablesMaps(
            ht.doors.tolist(),
            ht.traps.tolist(),
            ht.guards.tolist(),
            ht.events.tolist(),
            ht.event_map.tolist(),
            core.content(view),
            item_base,
            spell_base,
        )
    return found


def reading_maps(game: Game):
    """The ``_core.HeroTablesMaps`` of the heroes' view of ``game`` for a compiled reader that never
    plays on it (the scripted heroes' compiled choice: ``_core.heroes_view``'s state with them): the
    view's content is ``_core.reading_content``, the view tables' board and known doors, traps,
    guards and room events without a line of sight, made in a fraction of a playable view's content
    (which computes the whole line of sight). Kept in the view tables' cache, per variant and
    catalogue."""
    ht = _hero_tables(game)
    item_base, spell_base = len(game.item_cards), len(game.spells)
    key = ("sideview.reading_maps", game.variant, item_base, spell_base)
    cache = ht.tables.cache
    found = cache.get(key)
    if found is None:
        vt = ht.tables
        doors, traps = ht.doors.tolist(), ht.traps.tolist()
        guards, events = ht.guards.tolist(), ht.events.tolist()
        content = _core.reading_content(
            _reading_base(game, item_base, spell_base),
            doors,
            traps,
            guards,
            events,
            core.board(vt),
            np.ascontiguousarray(vt.wall, dtype=bool),
            np.ascontiguousarray(vt.edge_door, dtype=np.int16),
            np.ascontiguousarray(vt.furniture, dtype=bool),
            np.ascontiguousarray(vt.blockage, dtype=bool),
        )
        found = cache[key] = _core.HeroTablesMaps(
            doors, traps, guards, events, ht.event_map.tolist(), content, item_base, spell_base
        )
    return found


def _reading_base(game: Game, item_base: int, spell_base: int):
    """``reading_maps``' base: the core's content of the adventure with the view's catalogue and the
    public objectives (once per adventure's tables, variant and catalogue)."""
    t = game.tables
    key = ("sideview.reading_base", game.variant, item_base, spell_base)
    found = t.cache.get(key)
    if found is None:
        found = t.cache[key] = _core.make_content(_ReadingSource(game), core.board(t))
    return found


class _ReadingSource:
    """What ``_core.make_content`` reads for ``_reading_base``: the game's rules and roster, the
    view's catalogue, the real tables with the public objectives."""

    def __init__(self, game: Game) -> None:
        self.rules, self.heroes, self.monsters = game.rules, game.heroes, game.monsters
        self.item_cards, _, self.spells, _ = _catalogue(game)
        self.tables = _PublicObjectives(game.tables)


class _PublicObjectives:
    """Tables whose adventure holds the public objectives (``_static``); every other field is the
    tables' own."""

    __slots__ = ("_tables", "adventure")

    def __init__(self, tables: Tables) -> None:
        self._tables = tables
        self.adventure = dataclasses.replace(tables.adventure, objectives=_static(tables)["objectives"])

    def __getattr__(self, name: str):
        return getattr(self._tables, name)


def _guards_slain(game: Game, slain: dict[str, bool] | None) -> dict[str, bool]:
    """``slain`` as the core's view reads it: for a knowledge that kept none, the guards slain read
    from the log (``_seen_slain``)."""
    if slain is not None:
        return slain
    s = game.state
    return {
        f"m{uid}": _seen_slain(game, uid)
        for uid, dead in zip(s.guard_uid.tolist(), s.guard_slain.tolist(), strict=True)
        if uid >= 0 and dead
    }


class _Later:
    """What ``_redact`` needs to make the view's fields that agents seldom read (``_LATER_FIELDS``):
    made at once for a playable view, when first read for a view for reading only (its state's
    ``_later``)."""

    __slots__ = ("door_open", "downed_by", "game", "ht", "item_base", "numbers", "slain", "unnamed")

    def __init__(self, game, ht, numbers, unnamed, slain, item_base, downed_by, door_open) -> None:
        self.game, self.ht, self.numbers, self.unnamed, self.slain = game, ht, numbers, unnamed, slain
        self.item_base, self.downed_by, self.door_open = item_base, downed_by, door_open

    def make(self, name: str):
        """The view's value of the field ``name``."""
        s, ht = self.game.state, self.ht
        if name == "door_alert":
            return s.door_alert[ht.doors]
        if name == "door_tried":
            return s.door_tried[:, ht.doors]
        if name == "door_hidden":
            return np.zeros(len(ht.doors), bool)
        if name == "closed_bits":
            return _closed_bits(self.door_open)
        if name == "ambush_fired":
            return _NONE.copy()
        if name == "event_done":
            return np.ones(len(ht.events), bool) if len(ht.events) else _NONE.copy()
        if name == "guard_uid" or name == "guard_slain":
            return _guards(self.game, ht, self.numbers, self.unnamed, self.slain)[name == "guard_slain"]
        if name == "downed_by":
            return [_renamed(row, self.numbers) for row in self.downed_by]
        if name == "deck_cards":
            return _deck_placeholders(s.deck_cards, self.item_base)
        if name == "spell_known":
            return _pad(s.spell_known)
        if name == "declined_spells":
            return _pad(s.declined_spells)
        raise KeyError(name)


def _closed_bits(door_open: np.ndarray) -> int:
    """Bit k set where door k is closed (``State.closed_bits``)."""
    return sum(1 << k for k, is_open in enumerate(door_open.tolist()) if not is_open)


def _guards(
    game: Game, ht: _HeroTables, numbers: dict[int, int], unnamed: int, slain: dict[str, bool] | None
) -> tuple[np.ndarray, np.ndarray]:
    """The view's ``guard_uid`` and ``guard_slain`` (see ``_redact``)."""
    s = game.state
    guard_uid = np.full(len(ht.guards), -1, np.int16)
    guard_slain = np.zeros(len(ht.guards), bool)
    real_uid, real_slain = s.guard_uid.tolist(), s.guard_slain.tolist()
    for j, i in enumerate(ht.guards.tolist()):
        real = real_uid[i]
        if real >= 0:
            guard_uid[j] = numbers.get(real, unnamed + j)
            if real_slain[i]:
                guard_slain[j] = _seen_slain(game, real) if slain is None else slain.get(f"m{real}", False)
    return guard_uid, guard_slain


_PLACEHOLDER_DECKS: dict[tuple[bytes, int], np.ndarray] = {}


def _deck_placeholders(decks: np.ndarray, item_base: int) -> np.ndarray:
    """``decks`` (``[deck, k]``, a game's deck order, which never changes after set-up: only
    ``deck_next`` moves) with every card its deck's placeholder (a catalogue of ``item_base``
    cards); a copy of a kept result."""
    key = (decks.tobytes(), item_base)
    out = _PLACEHOLDER_DECKS.get(key)
    if out is None:
        placeholder = item_base + np.arange(len(DECKS), dtype=decks.dtype)[:, None]
        out = np.where(decks >= 0, placeholder, -1).astype(decks.dtype)
        if len(_PLACEHOLDER_DECKS) >= 64:
            _PLACEHOLDER_DECKS.clear()
        _PLACEHOLDER_DECKS[key] = out
    return out.copy()


def _copy_state(s: State, hidden: list[int]) -> State:
    """A copy of the state's fields but those the view rebuilds (``_REPLACED``), the slots of
    ``hidden`` emptied in the per-unit arrays."""
    out = State.__new__(State)
    values = out.__dict__
    index = np.array(hidden, np.intp) if hidden else None
    for name, kind in _COPY:
        value = getattr(s, name)
        if kind == 0:
            value = value.copy()
            if index is not None and name in _UNIT_BLANK:
                value[index] = _UNIT_BLANK[name]
        elif kind == 1:
            value = [list(item) for item in value]
        elif kind == 2:
            value = list(value)
        values[name] = value
    for name in _REPLACED_LISTS:  # the game's own, read by _redact, which replaces them
        values[name] = getattr(s, name)
    return out


def _share_state(s: State, hidden: list[int]) -> State:
    """``_copy_state`` for a view read only: the fields ``_redact`` edits in place (``_EDITED``) are
    copied; every other array is ``s``'s own, taken when first read (``_SharedState``), and a
    per-unit array a copy with the slots of ``hidden`` emptied (made when first read). The scalars
    and lists are taken now: from a core game's engine (``Engine.get``, each a new object) unless
    the state holds one already, so that reading them marks nothing to hand back to the engine
    (``CoreState``)."""
    out = _SharedState.__new__(_SharedState)
    values = out.__dict__
    values["_source"] = s
    held = s.__dict__
    engine = held.get("_engine")
    if engine is None:  # a plain State
        for name in _OTHER_NAMES:
            values[name] = getattr(s, name)
    else:
        get = engine.get
        for name in _OTHER_NAMES:
            values[name] = held[name] if name in held else get(name)
    index = values["_hidden"] = np.array(hidden, np.intp) if hidden else None
    for name in _EDITED:
        value = values.get(name)
        if value is not None:
            values[name] = list(value)
        else:
            value = values[name] = getattr(s, name).copy()
            if index is not None and name in _UNIT_BLANK:
                value[index] = _UNIT_BLANK[name]
    return out


class _SharedArray:
    """An array field of a ``_SharedState``: the source state's own array, taken (into the state's
    ``__dict__``, which then shadows this descriptor) when first read; for a per-unit array with
    hidden slots, a copy with those slots emptied."""

    __slots__ = ("blank", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self.blank = _UNIT_BLANK.get(name)

    def __get__(self, state, owner=None):
        if state is None:
            return self
        d = state.__dict__
        if self.name in _LATER_SET:
            value = d[self.name] = d["_later"].make(self.name)
            return value
        value = getattr(d["_source"], self.name)
        hidden = d["_hidden"]
        if hidden is not None and self.name in _UNIT_BLANK:
            value = value.copy()
            value[hidden] = self.blank
        d[self.name] = value
        return value


class _Deferred:
    """A scalar or list field of a ``_SharedState`` that ``_redact`` makes when first read
    (``_Later``)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, state, owner=None):
        if state is None:
            return self
        d = state.__dict__
        value = d[self.name] = d["_later"].make(self.name)
        return value


class _SharedState(State):
    """The state of a heroes' view for reading only (``_share_state``): a ``State`` whose arrays not
    redacted are the game's state's own, taken when first read (a view shares them either way: a
    reader reads a few). Copied, pickled or deep-copied, it is a plain ``State``."""

    def copy(self) -> State:
        return State.copy(self)

    def __copy__(self) -> State:
        return self.copy()

    def __deepcopy__(self, memo: dict) -> State:
        return self.copy()

    def __reduce__(self):
        return State, (), vars(self.copy())


for _name in _ARRAY_NAMES:
    setattr(_SharedState, _name, _SharedArray(_name))
for _name in _LATER_SCALARS:
    setattr(_SharedState, _name, _Deferred(_name))
del _name


def _renamed(labels: list[str], uid_map: dict[int, int]) -> list[str]:
    """Labels of what put a hero on Death's Door, in the heroes' naming: a monster by the heroes'
    name of it (one they never saw is left out: its engine id counts fog monsters); traps, spells
    and events by their own names."""
    out = []
    for name in labels:
        if name[:1] == "m" and name[1:].isdigit():
            if int(name[1:]) in uid_map:
                out.append(f"m{uid_map[int(name[1:])]}")
        else:
            out.append(name)
    return out


def _pad(known: np.ndarray) -> np.ndarray:
    """``[hero, spell]`` with a column for the placeholder spell (known by nobody)."""
    out = np.zeros((known.shape[0], known.shape[1] + 1), bool)
    out[:, :-1] = known
    return out


_SLAIN_AT: dict[tuple[object, int], tuple[int, dict]] = {}  # (log token, uid) -> (index, slain event)


def _seen_slain(game: Game, uid: int) -> bool:
    """The monster ``m<uid>`` was slain before the heroes' eyes: a hero is among its killers. Its
    ``slain`` event and place in the log are remembered per log (``game.log_token``, which a copy
    of the game shares): the copies of a game in a search find it at once where their logs still
    hold that very event (checked by identity, so a copy that logged another cannot mislead)."""
    name, log = f"m{uid}", game.events
    key = (game.log_token, uid)
    found = _SLAIN_AT.get(key)
    if found is not None and found[0] < len(log) and log[found[0]] is found[1]:
        event = found[1]
    else:
        at = next((k for k in range(len(log) - 1, -1, -1) if _is_slain(log[k], name)), -1)
        if at < 0:
            return False
        event = log[at]
        if len(_SLAIN_AT) >= 4096:
            _SLAIN_AT.clear()
        _SLAIN_AT[key] = (at, event)
    return any(str(k).startswith("hero_") for k in event.get("killers", ()))


def _is_slain(event: dict, name: str) -> bool:
    return event.get("type") == "slain" and event.get("unit") == name


__all__ = [
    "DM",
    "HEROES",
    "HeroesView",
    "PLACEHOLDER_ITEMS",
    "PLACEHOLDER_SPELL",
    "dm_view",
    "heroes_tables",
    "heroes_view_named",
    "playable",
    "target_candidates",
    "view_side",
]
