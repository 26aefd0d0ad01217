"""One knowledge per side: everything a side may know of one game, kept up to date as it goes.

``knowledge_of(game, "heroes")`` (or ``"dm"``) is the side's :class:`SideKnowledge` of ``game``:
made at the first call (folding the log so far) and then updated after every action the game
applies (the game calls :meth:`SideKnowledge.after_apply`), never rebuilt at each decision. A copy
of the game (``game.copy()``, the search's determinisations) carries a copy of it. Every channel a
side receives reads this object and nothing else of the game (DESIGN.md, "One knowledge per side"):

- ``events`` / :meth:`events_since`: the side's events, as ``knowledge.HeroLens`` (heroes) or
  ``knowledge.dm_event`` (the DM) gives them, each judged as the game stood when it was logged;
- :meth:`monsters_seen`, :meth:`name` / :meth:`number`: the monsters the side sees now and the
  side's name for each. The heroes' names are ``m0``, ``m1``, ... in the order heroes first saw
  each monster (in an event that shows it, or, for monsters standing in an area as it is revealed,
  in square order): a monster keeps its name for its whole life, and a name counts no monster the
  heroes have not seen (ruling D-24). The DM knows every monster by the engine's id;
- :meth:`view`: the side's view, a ``Game`` holding only what the side may know
  (``sideview.heroes_view_named`` / ``dm_view``) with the side's monster names (``unit_uid``) and
  events, made once per position and shared by every reader of that position;
- :meth:`snapshot`: all of the above as plain data, equal for two games that differ only in what
  the side may not know (the twin-game tests compare these).

The rule of what heroes see of the figures is ``knowledge.monsters_in_sight``; of the board,
``knowledge.seen_squares`` and the view's tables (``sideview``).
"""

from __future__ import annotations

import bisect

import numpy as np

from dungeon_env.engine.core import _core
from dungeon_env.engine.game import Game
from dungeon_env.engine.knowledge import HeroLens, core_rules, dm_event, monsters_in_sight
from dungeon_env.engine.sideview import DM, HEROES, UNIT_FIELDS, dm_view, heroes_view_named, view_side
from dungeon_env.engine.state import (
    ACTIVE,
    EFFECT_UID,
    EFFECT_UNIT,
    FIGHT_MONSTER,
    MENTAL_AGGRESSOR,
    MENTAL_DEFENDER,
    SIDE_MONSTER,
)

SIDES = (HEROES, DM)


class SideKnowledge:
    """What one side may know of one game (see the module docstring); made by :func:`knowledge_of`."""

    side: str
    _in_sight: tuple | None = None  # (position, the slots of the monsters the side sees there)
    _unnamed_possible = False  # the heroes: a monster may be in sight that no event named

    def __init__(self, game: Game) -> None:
        self.game = game
        self._events: list[dict] = []  # the side's events still kept (see hold)
        self._at: list[int] = []  # per kept event: its index in the game's log
        self._folded = 0  # the game's events folded so far
        self._token = game.log_token
        self._view: tuple | None = None  # (position, view)
        self._readers: dict[int, int] = {}  # id(reader) -> the game's index it reads from (hold)
        self._start()
        self.sync()

    # ----- keeping up with the game -----
    def _start(self) -> None:
        """Forget everything: the log is folded anew from its first event."""
        self._events, self._at, self._folded, self._view = [], [], 0, None
        self._token = self.game.log_token

    def after_apply(self) -> None:
        """Called by the game after each action it applies."""
        self.sync()

    def state_edited(self) -> None:
        """Called by ``game.state_edited()`` after a hand edit of the state (tests, tools): the
        view of the position is made anew."""
        self._view = None
        self._in_sight = None
        self._unnamed_possible = True
        self.sync()

    def sync(self) -> None:
        """Fold the events logged since the last call (the whole log again if it was replaced)."""
        game = self.game
        if game.log_token is not self._token:
            self._start()
        new = game.events_since(self._folded)
        if new:
            start = self._folded
            for k, event in enumerate(new):
                seen = self._see(event)
                if seen is not None:
                    self._events.append(seen)
                    self._at.append(start + k)
            self._folded += len(new)
        self._after_fold()

    def _see(self, event: dict) -> dict | None:
        raise NotImplementedError

    def _after_fold(self) -> None:
        """What the side learns from the position itself after the new events (nothing by default)."""

    def copy_for(self, game: Game) -> SideKnowledge:
        """An independent copy of this knowledge for ``game``, a copy of this one's game."""
        out = type(self).__new__(type(self))
        out.__dict__.update(self.__dict__)
        out.game, out._events, out._at, out._view = game, list(self._events), list(self._at), None
        out._readers = {}  # a copy's readers are its own
        return out

    def __getstate__(self) -> dict:
        """Pickled or deep-copied (with its game, or an env holding it), the knowledge forgets its
        readers: they are the process's objects, known by identity, and hold their places anew."""
        state = self.__dict__.copy()
        state["_readers"] = {}
        return state

    def __setstate__(self, state: dict) -> None:
        if "events" in state:  # pickled before the events were kept as _events
            state["_events"] = state.pop("events")
        self.__dict__.update(state)

    # ----- reading -----
    @property
    def events(self) -> list[dict]:
        """The side's events still kept (see :meth:`hold`), in the log's order."""
        return self._events

    def events_since(self, start: int) -> list[dict]:
        """The side's events among the game's events from index ``start`` on (a new list)."""
        return self._events[bisect.bisect_left(self._at, start) :]

    def numbered_since(self, start: int) -> list[tuple[int, dict]]:
        """``(index in the game's log, event)`` of the side's events from the game's index ``start`` on."""
        k = bisect.bisect_left(self._at, start)
        return list(zip(self._at[k:], self._events[k:], strict=True))

    def hold(self, reader: object, start: int) -> None:
        """``reader`` (an env, a story teller) will read the side's events from the game's index
        ``start`` on, no earlier: once every reader said so, the events before the earliest of them
        are dropped (an env's memory stays that of the game's compact log). Without readers the
        knowledge keeps every event."""
        readers = self._readers
        readers[id(reader)] = start
        self._forget_before(min(readers.values()) if len(readers) > 1 else start)

    def _forget_before(self, first: int) -> None:
        """Drop the kept events logged before the game's index ``first`` (every reader is past them)."""
        k = bisect.bisect_left(self._at, first)
        if k:
            del self._events[:k], self._at[:k]

    def monsters_seen(self) -> np.ndarray:
        """The slots of the monsters the side sees now."""
        raise NotImplementedError

    def number(self, slot: int) -> int:
        """The side's number of the monster in ``slot`` (``k`` of its name ``m<k>``), -1 if unknown."""
        raise NotImplementedError

    def name(self, slot: int) -> str:
        """The side's name of a figure: ``hero_<i>``, ``m<k>``, or None for a monster it does not know."""
        if slot < self.game.state.n_heroes:
            return f"hero_{slot}"
        k = self.number(slot)
        return None if k < 0 else f"m{k}"

    def view(self) -> Game:
        """The side's view of the game as it stands, for reading (made once per position and
        shared by every reader of it: read it, never change it; ``view.copy()`` to play on)."""
        game = self.game
        position = (game.log_token, game.n_events, game.moves)
        cached = self._view
        if cached is not None and cached[0] == position:
            return cached[1]
        self._catch_up()
        view = self._make_view(playable=False)
        self._view = (position, view)
        return view

    def playable_view(self, *, seed: int = 0, engine: str | None = None) -> Game:
        """A new view of the game as it stands that the caller owns and may play on (a
        determinisation: the world as the side knows it, with dice of its own seeded ``seed``),
        holding the side's events, playing on ``engine`` (``"core"``, or ``"python"`` for the parity
        tests' reference; None: the game's own)."""
        self._catch_up()
        return self._make_view(playable=True, seed=seed, engine=engine)

    def _catch_up(self) -> None:
        """Fold what was logged without an action (a position set up by hand: tests, tools; what
        stands in sight may not have come by an event)."""
        if self.game.n_events != self._folded or self.game.log_token is not self._token:
            self._unnamed_possible = True
            self.sync()

    def _make_view(self, playable: bool, seed: int = 0, engine: str | None = None) -> Game:
        raise NotImplementedError

    def snapshot(self) -> dict:
        """Everything the side knows now, as plain data (twin games must give equal snapshots)."""
        view = self.view()
        state = _by_name(view)
        return {
            "side": self.side,
            "events": self.events_since(0),
            "names": [self.name(int(u)) for u in self.monsters_seen()],
            "state": state,
            "legal": list(view.legal_actions()),
            "adventure": _adventure_data(view),
        }


class HeroKnowledge(SideKnowledge):
    """What the heroes may know (ruling D-24): their lens of the log, the monsters on revealed
    squares by the names heroes gave them, the redacted view."""

    side = HEROES
    # None: a knowledge pickled before it kept the kills (the view then reads them from the log)
    slain: dict[str, bool] | None = None
    # _core.ShownEvents: the shown events of a game on the core, kept there until read; ``_events``
    # and ``_at`` then hold the ones read so far as dicts (the oldest of the store, each made once)
    _shown = None

    def _start(self) -> None:
        super()._start()
        on_core = self._folds_on_core()
        self.lens = _core.HeroLens(core_rules()) if on_core else HeroLens(self.game)
        self._shown = _core.ShownEvents() if on_core else None
        self._numbers: dict[int, int] | None = None  # the core lens's numbers, once read after a fold
        self._in_sight = None
        self._unnamed_possible = True  # the first fold: whatever stands in sight
        # engine monster label -> a hero is among the killers of its last ``slain`` event (the
        # view's ``guard_slain`` reads it: a guard slain before the heroes' eyes); the core lens
        # keeps its own
        self.slain: dict[str, bool] = {}

    def _folds_on_core(self) -> bool:
        """The log is folded by the core's lens (``_core.HeroLens``, the same rules applied in C++):
        for a game on the core; the Python lens (``knowledge.HeroLens``) folds any other."""
        return self.game._engine is not None  # (game.engine == "core")

    def sync(self) -> None:
        game = self.game
        if game.log_token is not self._token:
            self._start()
        on_core = self._folds_on_core()
        lens = self.lens
        if on_core != isinstance(lens, _core.HeroLens):  # the game moved to the other engine
            self._carry_lens_over(on_core)
            lens = self.lens
        if not on_core:
            super().sync()
            return
        engine = game._engine
        start, now = self._folded, engine.n_events
        if start == now and not (self._unnamed_possible or lens.unnamed_possible):
            return  # nothing new to fold, nobody to name
        if self._unnamed_possible:
            lens.unnamed_possible = True
            self._unnamed_possible = False
        if self._shown is None:  # (a knowledge pickled while its events were kept as dicts)
            self._keep_shown_in_core()
        lens.fold_into(engine, start, self._shown)
        self._folded = now
        self._numbers = None

    def _keep_shown_in_core(self) -> None:
        """The shown events kept as dicts handed to a store in the core (the lens moved to it); the
        dicts stay, as those read."""
        self._shown = _core.ShownEvents()
        for index, event in zip(self._at, self._events, strict=True):
            self._shown.append(index, event)

    # ----- reading (the shown events kept in the core, for a game on the core) -----
    @property
    def events(self) -> list[dict]:
        """On the core, the store's events made dicts once each: those read before, then the ones
        logged since (a view is built from them at every heroes' decision of a search)."""
        if self._shown is not None:
            at = self._at
            for index, event in self._shown.numbered_since(at[-1] + 1 if at else 0):
                at.append(index)
                self._events.append(event)
        return self._events

    def events_since(self, start: int) -> list[dict]:
        if self._shown is None:
            return super().events_since(start)
        return self._shown.since(start)

    def numbered_since(self, start: int) -> list[tuple[int, dict]]:
        if self._shown is None:
            return super().numbered_since(start)
        return self._shown.numbered_since(start)

    def _forget_before(self, first: int) -> None:
        super()._forget_before(first)
        if self._shown is not None:
            self._shown.drop_before(first)

    def _carry_lens_over(self, to_core: bool) -> None:
        """The lens that folded so far handed to the other engine's kind, with what it tracked."""
        old = self.lens
        if to_core:
            names = self.game.tables.board.area_names
            revealed = [int(name in old.revealed) for name in names]
            state = (
                core_rules(),
                revealed,
                set(old.revealed),
                dict(old.where),
                dict(old.numbers),
                dict(self.slain or {}),
                True,
            )
            self.lens = _core.HeroLens.__new__(_core.HeroLens)
            self.lens.__setstate__(state)
        else:
            self.lens = HeroLens(self.game)
            self.lens.revealed, self.lens.where = set(old.revealed), dict(old.where)
            self.lens.numbers, self.slain = dict(old.numbers), dict(old.slain)
        if to_core:
            self._keep_shown_in_core()
        elif self._shown is not None:
            pairs = self._shown.numbered_since(0)
            self._at, self._events = [index for index, _ in pairs], [event for _, event in pairs]
            self._shown = None
        self._numbers = None
        self._unnamed_possible = True

    def _see(self, event: dict) -> dict | None:
        kind = event["type"]
        if kind == "reveal":
            self._unnamed_possible = True
        elif kind == "slain" and self.slain is not None:
            self.slain[event.get("unit")] = any(str(k).startswith("hero_") for k in event.get("killers", ()))
        return self.lens.see(event)

    def _after_fold(self) -> None:
        """Name the monsters heroes see that no event named yet, in square order (the order heroes
        take them in at one glance): those standing in an area as it is revealed, the only way a
        monster comes into their sight without an event that shows it (a hand-edited position
        aside: ``state_edited``). The core's lens does the same at the end of its fold."""
        if not self._unnamed_possible:
            return
        self._unnamed_possible = False
        s, lens = self.game.state, self.lens
        in_sight = self.monsters_seen().tolist()
        unnamed = [u for u in in_sight if int(s.unit_uid[u]) not in lens.numbers]
        for u in sorted(unnamed, key=lambda u: int(s.unit_pos[u])):
            lens.name(f"m{int(s.unit_uid[u])}")

    def copy_for(self, game: Game) -> HeroKnowledge:
        out = super().copy_for(game)
        out.lens = self.lens.copy() if isinstance(self.lens, _core.HeroLens) else self.lens.copy(game)
        if self._shown is not None:
            out._shown = self._shown.copy()
        if out.slain is not None:
            out.slain = dict(out.slain)
        return out

    def kills(self) -> dict[str, bool] | None:
        """Engine monster label -> a hero was among the killers of its last ``slain`` event (None: a
        knowledge pickled before it kept them)."""
        return self.lens.slain if isinstance(self.lens, _core.HeroLens) else self.slain

    def monsters_seen(self) -> np.ndarray:
        """The slots of the monsters heroes see now (``knowledge.monsters_in_sight``, once a position:
        keyed by what it reads, so a position edited by hand is read anew)."""
        game = self.game
        if self._folds_on_core():  # the same rule, in the core
            return np.array(_core.HeroLens.monsters_in_sight(game._engine), np.int64)
        s = game.state
        position = (s.unit_pos.tobytes(), s.unit_status.tobytes(), s.revealed.tobytes())
        found = self._in_sight
        if found is None or found[0] != position:
            found = self._in_sight = (position, monsters_in_sight(game))
        return found[1]

    def number(self, slot: int) -> int:
        s = self.game.state
        if slot < s.n_heroes:
            return -1
        return self.numbers().get(int(s.unit_uid[slot]), -1)

    def numbers(self) -> dict[int, int]:
        """Engine monster id -> the heroes' number, for every monster heroes have seen (read it,
        never change it)."""
        if not isinstance(self.lens, _core.HeroLens):
            return self.lens.numbers
        if self._numbers is None:
            self._numbers = self.lens.numbers
        return self._numbers

    def _make_view(self, playable: bool, seed: int = 0, engine: str | None = None) -> Game:
        # a playable view made in the core takes the shown events from the store, not as dicts
        shown = self._shown if playable and self._shown is not None else None
        return heroes_view_named(
            self.game,
            seen=self.monsters_seen(),
            numbers=self.numbers(),
            events=self.events if shown is None else shown,
            seed=seed,
            playable=playable,
            engine=engine,
            slain=self.kills(),
        )


class ViewKnowledge(HeroKnowledge):
    """The heroes' knowledge of a heroes' view (a determinisation that a search plays on): the
    view holds only what heroes know, by their names, so all of it is known as it stands."""

    def _start(self) -> None:
        SideKnowledge._start(self)

    def _folds_on_core(self) -> bool:
        return False  # a view's events are the heroes' already: it folds nothing

    def sync(self) -> None:
        SideKnowledge.sync(self)

    def _see(self, event: dict) -> dict | None:
        return event

    def _after_fold(self) -> None:
        pass

    def copy_for(self, game: Game) -> ViewKnowledge:
        return SideKnowledge.copy_for(self, game)

    def number(self, slot: int) -> int:
        s = self.game.state
        return -1 if slot < s.n_heroes else int(s.unit_uid[slot])

    def numbers(self) -> dict[int, int]:
        s = self.game.state
        return {
            int(uid): int(uid) for uid in s.unit_uid[s.n_heroes :][s.unit_side[s.n_heroes :] == SIDE_MONSTER]
        }

    def _make_view(self, playable: bool, seed: int = 0, engine: str | None = None) -> Game:
        if not playable:
            return self.game
        out = self.game.copy()
        if engine is not None:
            out.use_engine(engine)
        return out


class DMKnowledge(SideKnowledge):
    """What the Dungeon Master may know: the whole game but the seed, the future dice and the faces
    of the secret rolls (``knowledge.dm_event``); every monster by the engine's id.

    What the DM knows of an event is a function of the event alone, so its events are read from the
    game's log when asked (those from the earliest kept on, up to the last fold), never copied as
    the game goes."""

    side = DM
    _kept = 0  # the game's index of the earliest event still kept (see hold)

    def _start(self) -> None:
        super()._start()
        self._kept = 0

    def sync(self) -> None:
        game = self.game
        if game.log_token is not self._token:
            self._start()
        self._folded = game.n_events

    def _see(self, event: dict) -> dict | None:
        return dm_event(event)

    @property
    def events(self) -> list[dict]:
        return self.events_since(self._kept)

    def numbered_since(self, start: int) -> list[tuple[int, dict]]:
        first = max(start, self._kept)
        if first >= self._folded:
            return []
        logged = self.game.events_since(first)[: self._folded - first]
        pairs = ((first + k, dm_event(event)) for k, event in enumerate(logged))
        return [(index, event) for index, event in pairs if event is not None]

    def events_since(self, start: int) -> list[dict]:
        return [event for _index, event in self.numbered_since(start)]

    def _forget_before(self, first: int) -> None:
        self._kept = max(self._kept, first)

    def monsters_seen(self) -> np.ndarray:
        s = self.game.state
        return np.flatnonzero((s.unit_side == SIDE_MONSTER) & (s.unit_status == ACTIVE) & (s.unit_pos >= 0))

    def number(self, slot: int) -> int:
        s = self.game.state
        return -1 if slot < s.n_heroes else int(s.unit_uid[slot])

    def _make_view(self, playable: bool, seed: int = 0, engine: str | None = None) -> Game:
        out = dm_view(self.game, seed=seed)
        if engine is not None:
            out.use_engine(engine)
        return out


_KINDS = {HEROES: HeroKnowledge, DM: DMKnowledge}


def knowledge_of(game: Game, side: str) -> SideKnowledge:
    """``side``'s knowledge of ``game`` (``"heroes"`` or ``"dm"``), kept with the game and up to
    date. The heroes' knowledge of a heroes' view is the view as it stands (``ViewKnowledge``)."""
    if side not in _KINDS:
        raise ValueError(f"side must be one of {', '.join(SIDES)}, got {side!r}")
    kind = _KINDS[side]
    if view_side(game) == HEROES:
        if side == DM:
            raise ValueError(
                "knowledge_of: a heroes' view holds no more than the heroes know; no DM's knowledge"
            )
        kind = ViewKnowledge
    found = game.knowledge.get(side)
    if found is None:
        found = game.knowledge[side] = kind(game)
    return found


def side_view(game: Game) -> Game:
    """The view of the side asked to decide now (the heroes', or the DM's, also when the game is
    over), from that side's knowledge. A view is returned as it is."""
    if view_side(game) is not None:
        return game
    return knowledge_of(game, DM if game.agent in (None, "dm") else HEROES).view()


def heroes_view(game: Game, *, playable: bool = True, seed: int = 0, engine: str | None = None) -> Game:
    """The heroes' view of ``game`` from their knowledge: a new playable view (``playable=True``,
    the caller's to play on, on ``engine``: ``"core"``, ``"python"`` for the parity tests'
    reference, None the game's own), or
    the shared one for reading (``playable=False``; its copies play on the game's engine)."""
    known = knowledge_of(game, HEROES)
    return known.playable_view(seed=seed, engine=engine) if playable else known.view()


_UNIT_ROWS = tuple(name for name, _ in UNIT_FIELDS)


def _by_name(view: Game) -> dict:
    """A view's state as plain data with its figures by name instead of by slot: a view keeps each
    figure in the engine's slot (agents must not read meaning into slot order: a slot can count the
    monsters that held lower slots when it was placed), so the figures' rows are listed by name and
    the fields that point at slots name the figure."""
    s = view.state
    shown = [u for u in range(len(s.unit_status)) if u < s.n_heroes or s.unit_side[u] == SIDE_MONSTER]
    shown = [u for u in shown if s.unit_status[u] != 0]
    name = {u: view.label(u) for u in shown}

    def who(u: int):
        return name.get(int(u), int(u) if int(u) < 0 else "?")

    out = {k: v for k, v in s.to_json().items() if k not in _UNIT_ROWS}
    out["figures"] = {
        name[u]: {k: getattr(s, k)[u].item() for k in _UNIT_ROWS if k != "unit_uid"} for u in shown
    }
    out["occupant"] = {int(q): who(u) for q, u in enumerate(s.occupant.tolist()) if u >= 0}
    out["item_holder"] = [who(u) if u >= s.n_heroes else u for u in s.item_holder.tolist()]
    out["queue"], out["mind_queue"] = [who(u) for u in s.queue], [who(u) for u in s.mind_queue]
    out["controller"] = who(s.controller)
    out["effects"] = [[who(row[EFFECT_UNIT]), *row[EFFECT_UNIT + 1 : EFFECT_UID]] for row in s.effects]
    out["fights"] = [[who(row[FIGHT_MONSTER]), *row[FIGHT_MONSTER + 1 :]] for row in s.fights]
    out["stack"] = [[kind, who(unit), a, b] for kind, unit, a, b in s.stack]
    if s.mental:
        out["mental"] = [who(s.mental[MENTAL_AGGRESSOR]), who(s.mental[MENTAL_DEFENDER]), *s.mental[2:]]
    return out


def _adventure_data(view: Game) -> dict:
    """The parts of a view's adventure tables that depend on hidden content (their lengths and
    places), as plain data."""
    adv = view.tables.adventure
    return {
        "doors": [[int(q) for q in d] for d in view.tables.door_squares],
        "traps": [repr(t) for t in adv.traps],
        "guards": [repr(g) for g in adv.guards],
        "events": [repr(e) for e in adv.events],
        "patrol": [repr(p) for p in adv.patrol],
        "walls": view.tables.wall.tobytes().hex(),
        "furniture": np.flatnonzero(view.tables.furniture).tolist(),
        "blockage": np.flatnonzero(view.tables.blockage).tolist(),
    }


__all__ = [
    "SIDES",
    "DMKnowledge",
    "HeroKnowledge",
    "SideKnowledge",
    "ViewKnowledge",
    "heroes_view",
    "knowledge_of",
    "side_view",
]
