"""The public way to play: create a game, ask who decides what, apply one action at a time.

game = Game.new(adventure="...", heroes=["...", "...", "..."], seed=7)
while not game.over:
    action = random.choice(game.legal_actions())   # ints from the flat Action table
    game.apply(action)
print(game.outcome, game.events[-1])
"""

from __future__ import annotations

import copy
import dataclasses
import json
import numbers
import os
import pickle
import zlib
from collections.abc import MutableMapping
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from dungeon_env.content import adventure_names, load_heroes
from dungeon_env.content.model import WIDTH, HeroCard, ItemCard, MonsterCard, Spell
from dungeon_env.content.rules import Rules
from dungeon_env.content.variants import Variant
from dungeon_env.engine import core, inventory, spells, turn
from dungeon_env.engine.actions import ACTION_NAMES, MAX_HEROES, MIN_HEROES, Action, Decision, Phase
from dungeon_env.engine.decisions import HANDLERS
from dungeon_env.engine.dice import STREAMS, Dice, check_forced
from dungeon_env.engine.objectives import ending, goals_met, objectives_report
from dungeon_env.engine.savecheck import SaveDomain, SaveError, check_state
from dungeon_env.engine.state import (
    ACTIVE,
    EMPTY,
    MAX_UNITS,
    NO_UNIT,
    SIDE_MONSTER,
    STACK_A,
    STACK_B,
    STACK_KIND,
    STACK_UNIT,
    State,
    copied_field,
)
from dungeon_env.engine.tables import Tables, square, tables_for, xy
from dungeon_env.engine.units import active_heroes, has_trait, label, place_hero, unit_info
from dungeon_env.engine.visibility import look

SAVE_FORMAT = "dungeon_env.game/1"
MAX_AUTO_STEPS = 100_000  # automatic steps in one turn before _advance calls the state stuck
LOG_CHUNK = 64  # events per compressed chunk of a compact log (see Game.events)


class IllegalActionError(ValueError):
    """An action that is not legal for the decision being asked."""


_DECISIONS = tuple(Decision)  # by value: Decision(k) is _DECISIONS[k] (the enum call costs ~1 us)
if [int(d) for d in _DECISIONS] != list(range(len(_DECISIONS))):
    raise RuntimeError("game: Decision values must be 0..n-1 in order")
_HERO_AGENTS = tuple(f"hero_{i}" for i in range(MAX_HEROES))


class Game:
    """One adventure in play: static tables, the state, the dice and the event log.

    ``variant`` (a :class:`~dungeon_env.content.variants.Variant`, or anything ``Variant.coerce``
    takes; None: the rules as written) gives the cards and ``rules``, the rules' constants."""

    read_only = False  # a view sharing another game's state (``heroes_view(..., playable=False)``)
    # the compiled core's engine this game plays on (docs/CORE.md); None: it plays on the Python
    # rules (the reference the core is checked against, in the tests only), or it is a side view
    # for reading only (never played on: its copies play on the core)
    _engine = None
    # what ``new`` and ``from_json`` play on when not told (tests may switch it for a block)
    default_engine = "core"
    # the agent asked, for a side's view whose stack holds no decision (the heroes' view while the DM
    # decides about a figure they do not see: who is asked is public, what about is not)
    asked: str | None = None

    def __init__(
        self,
        adventure: str,
        hero_ids: list[str],
        seed: int,
        max_turns: int,
        variant: Variant | None = None,
        *,
        state: bool = True,
    ) -> None:
        self.adventure_ref = adventure
        self.variant = Variant.coerce(variant)
        content = self.variant.content()
        self.rules: Rules = content.rules
        self.tables: Tables = _tables(adventure, content.difficulty)
        roster = content.heroes
        self.heroes: list[HeroCard] = list(roster.values())
        self.monsters: list[MonsterCard] = list(content.monsters.values())
        self.monster_index = {m.id: i for i, m in enumerate(self.monsters)}
        self.spells: list[Spell] = list(content.spells.values())
        self.spell_index = {sp.id: i for i, sp in enumerate(self.spells)}
        self.item_cards: list[ItemCard] = list(content.items.values())
        self.item_index = {it.id: i for i, it in enumerate(self.item_cards)}
        self.carried: list[list[tuple[str, bool]]] | None = None
        self.hero_ids = _check_heroes(hero_ids, roster)
        if not _is_int(seed):
            raise ValueError(f"seed must be an int, got {seed!r}")
        self.seed = int(seed)
        if not (_is_int(max_turns) and max_turns >= 1):
            raise ValueError(f"max_turns must be a positive int, got {max_turns!r}")
        max_turns = int(max_turns)
        self.max_turns = max_turns
        self.vis_cache = self.tables.cache
        self._dice = Dice(self.seed)
        self._log: list[dict] = []  # the newest events (all of them once the log is plain)
        self._log_chunks: list[bytes] = []  # the older ones, LOG_CHUNK a chunk, compressed
        self._log_frozen = 0  # events in _log_chunks
        self._log_compact = True  # False once someone took the whole list (Game.events)
        self.log_token = object()  # the same while the log is only added to (see events.setter)
        self._state = State() if state else None  # None: the core sets the game up (``new``)
        self._legal: list[int] | None = None
        self.moves = 0  # actions applied (a position's number, with the log's length)
        # each side's knowledge of this game (``side_knowledge.knowledge_of``), kept up to date
        self.knowledge: dict = {}

    # ----- creation -----
    @classmethod
    def new(
        cls,
        adventure: str | None = None,
        heroes: list[str] | int = 3,
        seed: int = 0,
        max_turns: int = 100,
        forced_dice: tuple[int, ...] = (),
        carried: list[list[tuple[str, bool]]] | None = None,
        variant: Variant | list[str] | dict | None = None,
        engine: str | None = None,
    ) -> Game:
        """Set up an adventure: heroes on the start squares, Light 20 (``light.start``), first phase
        Turn Start.

        ``carried`` gives, per hero, the items it brings from earlier adventures as
        ``(item card id, identified)`` pairs (campaigns, R-CAMP-01). ``variant``: the rules and cards
        to play with (``dungeon_env.content.variants``; None: the rules as written). ``engine``:
        ``"core"``, the compiled core (docs/CORE.md), or ``"python"``, the Python rules it is
        checked against; both play every game alike (None: ``Game.default_engine``, the core).
        ``"python"`` is the parity tests' reference only: no product path plays on it
        (tests/test_python_rules_retired.py; docs/CORE.md, "The Python rules retire")."""
        engine = engine or cls.default_engine
        if engine != "core":
            game = cls._new_placed(adventure, heroes, seed, max_turns, forced_dice, carried, variant)
            game.use_engine(engine)
            game._advance()
            return game
        # the set-up in the core (src/core/setup.cpp): the same game as _place's, checked by
        # tests/test_core_setup.py, without a Python state made and handed over
        game = cls._new_unplaced(adventure, heroes, seed, max_turns, variant, state=False)
        check_forced(tuple(forced_dice), None)
        game.carried = carried
        game._attach(core.set_up(game, tuple(forced_dice), carried))
        return game

    @classmethod
    def _new_placed(
        cls,
        adventure: str | None = None,
        heroes: list[str] | int = 3,
        seed: int = 0,
        max_turns: int = 100,
        forced_dice: tuple[int, ...] = (),
        carried: list[list[tuple[str, bool]]] | None = None,
        variant: Variant | list[str] | dict | None = None,
    ) -> Game:
        """``new`` up to the set-up's automatic steps (the set-up placed, nothing run yet)."""
        game = cls._new_unplaced(adventure, heroes, seed, max_turns, variant)
        game.carried = carried
        game.dice.force(*forced_dice)
        game._place()
        return game

    @classmethod
    def _new_unplaced(
        cls,
        adventure: str | None,
        heroes: list[str] | int,
        seed: int,
        max_turns: int,
        variant: Variant | list[str] | dict | None,
        state: bool = True,
    ) -> Game:
        """A game of ``new``'s arguments, checked, before its set-up (``state``: with a blank Python
        state; False: none yet, for a set-up in the core)."""
        adventure = adventure or adventure_names()[0]
        if not isinstance(adventure, str | os.PathLike):
            raise ValueError(
                f"adventure must be a bundled id ({', '.join(adventure_names())}) or a path to a .toml "
                f"file, got {adventure!r}"
            )
        roster_ids = list(load_heroes())
        if _is_int(heroes):
            if not (MIN_HEROES <= heroes <= MAX_HEROES):
                raise ValueError(f"heroes: {heroes} heroes asked; the game is for {MIN_HEROES}-{MAX_HEROES}")
            heroes = roster_ids[: int(heroes)]
        elif isinstance(heroes, str | bytes) or not hasattr(heroes, "__iter__"):
            raise ValueError(f"heroes must be a count (3-5) or a list of hero ids, got {heroes!r}")
        return cls(adventure, list(heroes), seed, max_turns, variant, state=state)

    def use_engine(self, engine: str) -> None:
        """Play on from here on ``engine``: ``"core"`` (the compiled core) or ``"python"`` (the
        Python rules: the parity tests' reference only, never a product path's)."""
        if engine == "core":
            if self._engine is None:
                self._attach(core.engine(self))
        elif engine == "python":
            if self._engine is not None:
                self._detach()
        else:
            raise ValueError(f"engine must be 'core' or 'python', got {engine!r}")

    @property
    def engine(self) -> str:
        """``"core"`` or ``"python"``: what this game plays on (see :meth:`use_engine`)."""
        return "python" if self._engine is None else "core"

    @property
    def core_engine(self):
        """The compiled engine this game plays on (``_core.Engine``), with what Python changed in the
        state handed back first, for compiled code that reads the position (the scripted agents'
        choices, ``src/agents``); None on the Python rules."""
        if self._engine is not None and self._state._dirty:
            self._push()
        return self._engine

    @property
    def engine_nbytes(self) -> int:
        """The memory the compiled engine holds (state, dice, log), which Python's own allocator
        does not count; 0 on the Python rules."""
        return 0 if self._engine is None else self._engine.nbytes

    def _attach(self, eng) -> None:
        """Play on ``eng``, a core engine holding this game's position: the state's arrays become
        views of its memory, and the dice and the log are its."""
        self._engine = eng
        self._state = CoreState.of(eng)
        self._dice = CoreDice(eng)
        self._bound_dice = None
        self._log, self._log_chunks, self._log_frozen, self._log_compact = [], [], 0, False
        self._core_events = CoreLog(eng)
        self._legal = None

    def _engine_moved(self) -> None:
        """The engine was moved by the core itself, not through :meth:`apply` (the batched env's
        games step in C++): read it anew, its position, legal actions and moves."""
        self._attach(self._engine)
        self.moves = self._engine.moves

    def engine_to_move(self):
        """The compiled engine, for compiled code that will move it itself (the scripted agents'
        play, ``agents.scripted_play``): what Python changed in the state and the dice given to the
        game handed to it first, as :meth:`apply` does before a move. Call :meth:`engine_moved`
        after it moved. None on the Python rules."""
        if self._engine is not None and (self._state._held or self._bound_dice is not None):
            self._push(moving=True)
        return self._engine

    def engine_moved(self) -> None:
        """After compiled code moved the engine (:meth:`engine_to_move`): the position, legal
        actions, moves and the dice given to the game read from it, as :meth:`apply` leaves them.
        The sides' knowledge is the caller's to bring up to date."""
        dice = self._bound_dice
        self._engine_moved()
        if dice is not None:
            self._bound_dice = dice
            self._pull_dice()

    def _detach(self) -> None:
        """Back to the Python rules, with the engine's position, dice and log as plain objects."""
        eng = self._engine
        self._push()
        state, dice, events = (
            self._state.copy(),
            self._bound_dice or Dice.from_json(eng.dice()),
            eng.events(0),
        )
        self._engine = None
        self.__dict__.pop("_core_events", None)
        self.__dict__.pop("_bound_dice", None)
        self._state, self._dice = state, dice
        self.events = events
        self._legal = None

    def _push(self, moving: bool = False, edited: bool = False) -> None:
        """Hand the engine what Python may have changed in the state (when ``edited``, any array
        put in place of a view too; ``moving``: the engine moves next, see ``CoreState.hand_back``)
        and the dice given to the game, if any."""
        state = self._state  # (hand_back does nothing unless the engine moves, an edit, or fields to give)
        if (moving or edited or state._dirty) and state.hand_back(moving, edited, edited):
            self._legal = None
        if self._bound_dice is not None:
            self._engine.set_dice(self._bound_dice)

    def _pull_dice(self) -> None:
        """After the engine moved with dice given to the game: its dice into them."""
        moved = Dice.from_json(self._engine.dice())
        bound = self._bound_dice
        if isinstance(bound, CoreDice):  # another core game's dice
            bound._engine.set_dice(moved)
        else:
            bound._state, bound._forced = moved._state, moved._forced
            bound._stream_forced = moved._stream_forced

    @property
    def state(self) -> State:
        """The position: arrays, scalars and lists (``engine/state.py``). On the core it reads the
        engine's memory (:class:`CoreState`): after editing it by hand, call :meth:`state_edited`."""
        return self._state

    @state.setter
    def state(self, state: State) -> None:
        """A new position; on the core, the engine takes a copy of it and ``state`` reads the
        engine's again."""
        if self._engine is None:
            self._state = state
            return
        self._state.hand_back(moving=True)
        self._engine.set_state(state)
        self._state, self._legal = CoreState.of(self._engine), None

    @property
    def dice(self):
        """The dice (:class:`~dungeon_env.engine.dice.Dice`'s API); on the core, the engine's."""
        return self._dice

    @dice.setter
    def dice(self, dice) -> None:
        """The game rolls ``dice`` from now on: the object itself, so that games given the same
        dice share their streams (on the core, the engine rolls a copy brought back after each
        move; :meth:`take_dice` saves that cost where nobody else holds the dice)."""
        self._dice = dice
        if self._engine is not None:
            own = isinstance(dice, CoreDice) and dice._engine is self._engine
            self._bound_dice = None if own else dice
            self._engine.set_dice(dice)

    def take_dice(self, dice) -> None:
        """The game rolls ``dice`` from now on, which the caller gives up (on the core, the engine
        takes their streams and queues once)."""
        if self._engine is None:
            self._dice = dice
        else:
            self._engine.set_dice(dice)
            self._dice, self._bound_dice = CoreDice(self._engine), None

    def _setup(self) -> None:
        self._place()
        self._advance()

    def _place(self) -> None:
        """Set-up up to the first automatic step: the board, the heroes, their items, the first look."""
        s, t = self.state, self.tables
        adv = t.adventure
        n = len(self.hero_ids)
        s.n_heroes = n
        s.light = self.rules.light_start
        s.door_open = np.zeros(t.n_doors, bool)
        s.door_alert = np.zeros(t.n_doors, bool)
        s.door_tried = np.zeros((MAX_HEROES, t.n_doors), bool)
        s.closed_bits = (1 << t.n_doors) - 1
        s.revealed = np.zeros(t.n_areas, bool)
        s.visited = np.zeros(t.n_areas, bool)
        s.patrol_corridors = np.zeros(t.n_areas, bool)
        s.guard_uid = np.full(len(adv.guards), -1, np.int16)
        s.guard_slain = np.zeros(len(adv.guards), bool)
        s.ambush_fired = np.zeros(len(adv.ambushes), bool)
        s.trap_armed = np.ones(len(adv.traps), bool)
        s.trap_detected = np.zeros(len(adv.traps), bool)
        s.event_done = np.zeros(len(adv.events), bool)
        s.door_hidden = np.array([d.secret for d in adv.doors], bool)
        s.spell_known = np.zeros((MAX_HEROES, len(self.spells)), bool)
        s.declined_spells = np.zeros((MAX_HEROES, len(self.spells)), bool)
        roster_index = {h.id: i for i, h in enumerate(self.heroes)}
        for u, hero_id in enumerate(self.hero_ids):
            place_hero(self, u, roster_index[hero_id], square(*adv.start[u]))
            s.visited[t.area[s.unit_pos[u]]] = True
            for spell_id in self.heroes[roster_index[hero_id]].spells:
                s.spell_known[u, self.spell_index[spell_id]] = True  # starting spells
        inventory.setup_items(self, self.carried)
        self.log(
            {
                "type": "setup",
                "adventure": adv.id,
                "seed": self.seed,
                "goal": adv.goal,
                "light": s.light,
                "max_turns": self.max_turns,
                "units": [unit_info(self, u) for u in range(n)],
            }
        )
        s.phase = Phase.TURN_START
        look(self, active_heroes(self))

    # ----- the public loop -----
    @property
    def over(self) -> bool:
        eng = self._engine
        if eng is None or self._state._dirty:  # (on the core, Python may have edited the state)
            return bool(self._state.outcome)
        return eng.over

    @property
    def outcome(self) -> str:
        """ "" while playing, then "completed", "failed" or "truncated"."""
        return self.state.outcome

    @property
    def goals_met(self) -> bool:
        """Every primary goal of the adventure is met (so far; R-END-03). An adventure is
        ``completed`` when every surviving hero has left, met or not (R-END-01)."""
        return goals_met(self)

    def objectives(self) -> list[dict]:
        """Each goal of the adventure: ``{"kind", "text", "primary", "met"}`` (met so far)."""
        return objectives_report(self)

    @property
    def decision(self) -> tuple[Decision, int] | None:
        """The decision being asked, ``(kind, unit slot)``, or None when the game is over."""
        eng = self._engine
        if eng is not None and not self._state._dirty:
            top = eng.decision
            return None if top is None else (_DECISIONS[top[0]], top[1])
        s = self._state
        if s.outcome or not s.stack:
            return None
        top = s.stack[-1]
        return _DECISIONS[top[STACK_KIND]], top[STACK_UNIT]

    @property
    def agent(self) -> str | None:
        """The agent that must act: ``hero_<i>`` or ``dm`` (None when the game is over)."""
        eng = self._engine
        if eng is not None and not self._state._dirty:
            agent = eng.agent
            return agent if agent is not None or eng.over else self.asked
        s = self._state
        if s.outcome:
            return None
        if not s.stack:
            return self.asked
        unit = s.stack[-1][STACK_UNIT]
        return _HERO_AGENTS[unit] if unit < s.n_heroes else "dm"

    def legal_actions(self) -> list[int]:
        """The legal actions (sorted ints of :class:`Action`) of the decision being asked."""
        eng = self._engine
        if eng is None:
            if self._state.outcome:
                return []
            if self._legal is None:
                self._legal = self._legal_for_top()
            return self._legal
        legal = self._legal
        if legal is None:
            if self._state._dirty or self._bound_dice is not None:
                self._push()  # Python's edits first (the outcome among them)
            legal = self._legal = eng.legal_actions()  # [] once the game is over
        elif self._state._dirty and self._state.outcome:
            return []  # ended by hand (state_edited() not called yet)
        return legal

    def state_edited(self) -> None:
        """Forget the cached legal actions after ``state`` was edited by hand (tests, side views):
        the next ``legal_actions()`` recomputes them from the decision on top, and each side's
        knowledge catches up with the edited position."""
        self._legal = None
        if self._engine is not None:
            self._push(edited=True)  # (the engine does not move: lists read stay held)
        for side in self.knowledge.values():
            side.state_edited()

    def content_edited(self) -> None:
        """After changing this game's cards or rules by hand (tests): the legal actions are computed
        anew, and a game on the core plays on with the changed content."""
        self._legal = None
        if self._engine is not None:
            self._engine.set_content(core.content(self, fresh=True))

    def apply(self, action: int) -> None:
        """Apply one legal action of the current decision, then run the game on to the next one."""
        eng = self._engine
        if eng is not None:  # the engine checks the action itself (an illegal one changes nothing there)
            if self._state._held or self._bound_dice is not None:
                self._push(moving=True)  # Python's edits first
            if type(action) is not int:
                action = self._core_action(action)
            try:
                eng.apply(action)
            except (ValueError, TypeError, OverflowError):
                refused = self._refused(action)
                if refused is None:
                    raise  # not the action's fault: let the engine's error through
                raise refused from None
            self._legal = None
            if self._bound_dice is not None:
                self._pull_dice()
        else:
            if self.over:
                raise self._over()
            if self.read_only:
                raise ValueError(
                    "this view shares the real game's state and is for reading only: "
                    "apply actions to a copy of it (view.copy()), or build it with playable=True"
                )
            legal = self.legal_actions()
            if not _is_int(action) or action not in legal:
                raise self._illegal(action, legal)
            self._apply_top(int(action))
            self._advance()
        self.moves += 1
        if self.knowledge:
            for side in self.knowledge.values():
                side.after_apply()

    def _core_action(self, action) -> int:
        """An action that is not a Python int, as the engine takes it (a numpy int), else the error
        naming it."""
        if _is_int(action):
            return int(action)
        raise self._over() if self._engine.over else self._illegal(action, self.legal_actions())

    def _refused(self, action: int) -> IllegalActionError | None:
        """Why the engine refused ``action``, named as the Python rules name it (None: not the
        action's fault)."""
        eng = self._engine
        if eng.over:
            return self._over()
        if -(2**31) <= action < 2**31 and action in eng.legal_actions():
            return None
        return self._illegal(action, self.legal_actions())

    def _over(self) -> IllegalActionError:
        return IllegalActionError(f"the game is over ({self.outcome}); no action can be applied")

    def _illegal(self, action, legal: list[int]) -> IllegalActionError:
        kind, unit = self.decision
        return IllegalActionError(
            f"{self.agent} cannot play action {int(action) if _is_int(action) else repr(action)} "
            f"({_action_name(action)}) at decision "
            f"{kind.name.lower()} for {label(self, unit)}; legal: "
            + ", ".join(f"{a} ({ACTION_NAMES[a]})" for a in legal)
        )

    # ----- the engine loop -----
    def _legal_for_top(self) -> list[int]:
        kind, unit, a, b = self.state.stack[-1]
        return HANDLERS[kind][0](self, unit, a, b)

    def _apply_top(self, action: int) -> None:
        kind, unit, a, b = self.state.stack.pop()
        self._legal = None
        HANDLERS[kind][1](self, unit, a, b, action)

    def _advance(self) -> None:
        """Run automatic steps until a decision with a real choice is on top (a decision with a
        single legal action is taken at once) or the game is over. A state that makes no progress (a
        turn that is still the same after ``MAX_AUTO_STEPS`` steps) raises a RuntimeError naming
        the phase and the stack, instead of spinning for ever."""
        if self._engine is not None:
            self._push(moving=True)
            self._legal = None
            self._engine.advance()
            if self._bound_dice is not None:
                self._pull_dice()
            return
        s = self.state
        steps, turn_seen = 0, s.turn
        while not s.outcome:
            steps += 1
            if steps > MAX_AUTO_STEPS:  # a whole turn of automatic steps is far fewer: stuck?
                if s.turn == turn_seen:
                    raise RuntimeError(
                        f"the engine made no progress in {MAX_AUTO_STEPS} automatic steps of turn {s.turn}: "
                        f"phase {_phase_name(s.phase)}, phase_started {s.phase_started}, stack {s.stack} "
                        "(a corrupt or hand-edited state?)"
                    )
                steps, turn_seen = 0, s.turn
            if s.stack:
                legal = self._legal_for_top()
                if len(legal) > 1:
                    self._legal = legal
                    return
                self._apply_top(legal[0])
            elif not s.phase_started:
                s.phase_started = True
                turn.begin(self)
            else:
                turn.resume(self)
        s.stack.clear()
        self._legal = None

    # ----- helpers the rule modules call -----
    def push(self, kind: Decision, unit: int, a: int = -1, b: int = -1) -> None:
        """Ask a decision of the agent owning ``unit``; ``a`` and ``b`` are its context."""
        self.state.stack.append([int(kind), int(unit), int(a), int(b)])

    @property
    def decision_args(self) -> tuple[int, int]:
        """The two context ints of the decision being asked (their meaning depends on its kind)."""
        if not self.state.stack:
            return (-1, -1)
        top = self.state.stack[-1]
        return top[STACK_A], top[STACK_B]

    def goto(self, phase: Phase) -> None:
        self.state.phase = int(phase)
        self.state.phase_started = False

    def log(self, event: dict) -> None:
        if self._engine is not None:
            self._engine.log(event)
            return
        log = self._log
        log.append(event)
        if self._log_compact and len(log) >= 2 * LOG_CHUNK:  # keep at least LOG_CHUNK as dicts
            self._log_chunks.append(_freeze(log[:LOG_CHUNK]))
            del log[:LOG_CHUNK]
            self._log_frozen += LOG_CHUNK

    @property
    def events(self) -> list[dict]:
        """The whole event log: the list of JSON-serialisable dicts, in order (DESIGN.md).

        Until someone asks for it, a game keeps its older events compressed (chunks of
        ``LOG_CHUNK`` events, pickled and zlib-compressed: about 16 bytes an event instead of about
        300 as dicts) and only the newest ones as dicts. The first read decodes the chunks into
        dicts equal to those logged (same keys in the same order, values of the same types) and
        makes the log plain: from then on this list is the log itself, which later events are
        appended to, as before. :attr:`n_events` and
        :meth:`events_since` read the log without making it plain (the env reads only those).
        On the core, the log is the engine's, and this list a copy brought up to date at each read."""
        if self._engine is not None:
            return self._core_events.caught_up()
        if self._log_chunks:
            self._log[:0] = _thaw(self._log_chunks)
            self._log_chunks, self._log_frozen = [], 0
        self._log_compact = False
        return self._log

    @events.setter
    def events(self, events: list[dict]) -> None:
        if self._engine is not None:
            self._engine.set_events(events)
            self._core_events = CoreLog(self._engine)
        else:
            self._log, self._log_chunks, self._log_frozen, self._log_compact = events, [], 0, False
        self.log_token = object()  # a new log: what was read of the old one no longer holds

    @property
    def n_events(self) -> int:
        """``len(game.events)``, without decoding a compact log."""
        if self._engine is not None:
            return self._engine.n_events
        return self._log_frozen + len(self._log)

    def events_since(self, start: int) -> list[dict]:
        """``game.events[start:]`` (``start`` >= 0) as a new list, without making a compact log
        plain (only the chunks holding events from ``start`` on are decoded)."""
        if self._engine is not None:
            return self._engine.events(start)
        frozen = self._log_frozen
        if start >= frozen:
            return self._log[start - frozen :]
        first = start // LOG_CHUNK
        return _thaw(self._log_chunks[first:])[start - first * LOG_CHUNK :] + self._log

    def events_of_types(self, types) -> list[dict]:
        """The events of the log whose ``type`` is one of ``types``, in order, as a new list (on the
        core only those are made dicts: a reader of a few types, such as a game's record, skips the
        conversion of the rest)."""
        if self._engine is not None:
            return self._engine.events_of_types(list(types))
        wanted = set(types)
        return [e for e in self.events_since(0) if e.get("type") in wanted]

    def check(self, check: str, actor: str, stream: str, modifiers: dict, classify) -> int:
        """Roll one d6 check, log it as a ``roll`` event and return the modified total."""
        face = self.dice.d6(stream)
        modifier = sum(modifiers.values())
        total = face + modifier
        self.log(
            {
                "type": "roll",
                "check": check,
                "actor": actor,
                "dice": [face],
                "modifiers": modifiers,
                "modifier": modifier,
                "total": total,
                "result": classify(total),
                "turn": self.state.turn,
            }
        )
        return total

    def finish(self, outcome: str, reason: str) -> None:
        s = self.state
        s.outcome, s.end_reason = outcome, reason
        s.phase = int(Phase.GAME_OVER)
        s.stack.clear()
        inventory.end_adventure(self)  # every item is identified at the adventure's end (R-IDENT-04)
        spells.end_adventure(self)  # memorized spell cards are discarded (R-END-04)
        self.log(
            {
                "type": "end",
                "outcome": outcome,
                "reason": reason,
                "turn": s.turn,
                "light": s.light,
                "objectives": objectives_report(self),
                "goals_met": goals_met(self),
            }
        )

    def check_end(self) -> None:
        if not self.state.outcome:
            result = ending(self)
            if result:
                self.finish(*result)

    def monsters_besides(self, group: list[int]) -> bool:
        s = self.state
        return any(
            s.unit_status[u] == ACTIVE and s.unit_side[u] == SIDE_MONSTER and u not in group
            for u in range(s.n_heroes, MAX_UNITS)
        )

    def card(self, u: int) -> HeroCard | MonsterCard:
        card = int(self.state.unit_card[u])
        return self.heroes[card] if u < self.state.n_heroes else self.monsters[card]

    def label(self, u: int) -> str:
        return label(self, u)

    def has_trait(self, u: int, trait: str) -> bool:
        return has_trait(self, u, trait)

    def active_heroes(self) -> list[int]:
        return active_heroes(self)

    def unit_by_label(self, unit_id: str) -> int:
        for u in range(MAX_UNITS):
            if self.state.unit_status[u] != EMPTY and label(self, u) == unit_id:
                return u
        return NO_UNIT

    @staticmethod
    def xy(sq: int) -> tuple[int, int]:
        return xy(sq)

    @staticmethod
    def square(x: int, y: int) -> int:
        return square(x, y)

    # ----- copies and saves -----
    def __getstate__(self) -> dict:
        """What pickling keeps: all but the tables of a bundled adventure, which the loading process
        builds (or has) itself; a game of an adventure file, or with tables of its own, keeps them."""
        state = self.__dict__.copy()
        if self._engine is not None:  # the position as plain objects, played on by a new engine
            self._push()
            del state["_engine"], state["_core_events"], state["_bound_dice"]
            state["_state"], state["_dice"] = self._state.copy(), Dice.from_json(self._engine.dice())
            state["_log"], state["_log_chunks"], state["_log_frozen"] = self._engine.events(0), [], 0
            state["_on_core"] = True
        del state["vis_cache"]  # the tables' cache: the loading process fills its own
        if _bundled_tables(self):
            del state["tables"]
        return state

    def __setstate__(self, state: dict) -> None:
        for old, new in (("state", "_state"), ("dice", "_dice")):  # pickled before the core
            if old in state:
                state[new] = state.pop(old)
        on_core = state.pop("_on_core", False)
        self.__dict__.update(state)
        self.__dict__.setdefault("moves", 0)  # pickled before positions were counted
        self.__dict__.setdefault("knowledge", {})
        if "tables" not in state:
            self.tables = _tables(self.adventure_ref, self.variant.content().difficulty)
        self.vis_cache = self.tables.cache
        if on_core:
            self._attach(core.engine(self))

    def __deepcopy__(self, memo: dict) -> Game:
        """``copy.deepcopy`` of a game (or of an env or agent holding one): independent like
        ``copy``, and likewise sharing the never-changing tables and their look-up cache, which
        after some games in a process hold megabytes of memoised paths."""
        memo[id(self.tables)] = self.tables
        memo[id(self.vis_cache)] = self.vis_cache
        clone = Game.__new__(Game)
        memo[id(self)] = clone
        on_core = self._engine is not None
        if on_core:
            self._push()
        for name, value in self.__dict__.items():
            if not (on_core and name in _ENGINE_HELD):
                clone.__dict__[name] = copy.deepcopy(value, memo)
        clone.__dict__.pop("read_only", None)  # its own state now: playable
        if on_core:
            clone._attach(self._engine.copy())
            clone._legal = self._legal
        return clone

    def copy(self) -> Game:
        """An independent game at the same decision (shares only the never-changing tables)."""
        clone = Game.__new__(Game)
        clone.__dict__.update(self.__dict__)
        if self._engine is not None:
            self._push()
            clone._attach(self._engine.copy())
            clone._legal = self._legal
        else:
            clone._state = self._state.copy()
            clone._dice = self._dice.copy()
            clone._log = list(self._log)
            clone._log_chunks = list(self._log_chunks)
            clone._legal = None
        clone.__dict__.pop("read_only", None)
        clone.__dict__.pop("asked", None)
        clone.knowledge = {side: known.copy_for(clone) for side, known in self.knowledge.items()}
        return clone

    def to_json(self) -> dict:
        return {
            "format": SAVE_FORMAT,
            "adventure": self.adventure_ref,
            "heroes": list(self.hero_ids),
            "seed": self.seed,
            "max_turns": self.max_turns,
            "variant": self.variant.to_json(),
            "state": self.state.to_json(),
            "dice": self.dice.to_json(),
            "events": self.events_since(0),
        }

    @classmethod
    def from_json(cls, data: dict, engine: str | None = None) -> Game:
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            found = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise ValueError(f"not a saved game: expected format {SAVE_FORMAT!r}, found {found!r}")
        missing = [
            k
            for k in ("adventure", "heroes", "seed", "max_turns", "state", "dice", "events")
            if k not in data
        ]
        if missing:
            raise ValueError(f"saved game is missing keys {missing}")
        variant = data.get("variant")  # saves from before variants have none: the base rules
        game = cls(data["adventure"], list(data["heroes"]), data["seed"], data["max_turns"], variant)
        fresh = game._fresh_state()
        game.state = State.from_json(data["state"], fallback=fresh)  # older saves: new fields from it
        game._check_fits(game.state, fresh)
        game.dice = Dice.from_json(data["dice"])
        if not (isinstance(data["events"], list) and all(isinstance(e, dict) for e in data["events"])):
            raise ValueError("saved game: events must be a list of event objects")
        game.events = list(data["events"])
        game.use_engine(engine or cls.default_engine)
        return game

    def _fresh_state(self) -> State:
        """The state a new game of this configuration starts with (after its set-up, made in the
        core as ``new`` makes it: the Python set-up, ``_setup``, is the parity tests' reference)."""
        fresh = Game(self.adventure_ref, self.hero_ids, self.seed, self.max_turns, self.variant, state=False)
        return State(**core.set_up(fresh).state())

    def _check_fits(self, state: State, fresh: State) -> None:
        """A loaded state must fit this game: every array with the shape and dtype of a new game's,
        and every field within its domain (``savecheck``); else a :class:`SaveError`."""
        for name, value in vars(fresh).items():
            if isinstance(value, np.ndarray):
                got = getattr(state, name)
                if got.shape != value.shape or got.dtype != value.dtype:
                    raise SaveError(
                        f"field {name!r}",
                        f"shape {list(got.shape)} and dtype {got.dtype.str}",
                        f"shape {list(value.shape)} and dtype {value.dtype.str} in this adventure",
                    )
        roster = {h.id: i for i, h in enumerate(self.heroes)}
        domain = SaveDomain(
            tables=self.tables,
            rules=self.rules,
            max_turns=self.max_turns,
            hero_cards=tuple(roster[h] for h in self.hero_ids),
            n_monster_cards=len(self.monsters),
            n_spells=len(self.spells),
            n_item_cards=len(self.item_cards),
        )
        check_state(state, domain)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json()))

    @classmethod
    def load(cls, path: str | Path, engine: str | None = None) -> Game:
        try:
            data = json.loads(Path(path).read_text())
        except json.JSONDecodeError as err:
            raise ValueError(f"{path}: not valid JSON ({err})") from err
        return cls.from_json(data, engine)


class CoreLog(list):
    """``Game.events`` of a game on the core: the engine's log as a list of dicts, brought up to
    date when the game hands it out. Changing the list changes the engine's log, as changing a
    Python game's log list does (tests clear it between trials)."""

    __slots__ = ("_engine",)

    def __init__(self, engine) -> None:
        super().__init__()
        self._engine = engine

    def caught_up(self) -> CoreLog:
        n = self._engine.n_events
        if len(self) > n:
            list.clear(self)
        if len(self) < n:
            list.extend(self, self._engine.events(len(self)))
        return self

    def _changed(self) -> None:
        self._engine.set_events(self)

    def append(self, event: dict) -> None:
        list.append(self, event)
        self._engine.log(event)

    def extend(self, events) -> None:
        for event in events:
            self.append(event)

    def __iadd__(self, events):
        self.extend(events)
        return self

    def clear(self) -> None:
        list.clear(self)
        self._changed()

    def __delitem__(self, key) -> None:
        list.__delitem__(self, key)
        self._changed()

    def __setitem__(self, key, value) -> None:
        list.__setitem__(self, key, value)
        self._changed()

    def insert(self, index, event) -> None:
        list.insert(self, index, event)
        self._changed()

    def pop(self, index=-1):
        event = list.pop(self, index)
        self._changed()
        return event

    def remove(self, event) -> None:
        list.remove(self, event)
        self._changed()


class _EngineField:
    """A scalar or list field of a :class:`CoreState` (``turn``, ``stack``, ...): read from the
    engine the first time it is read after a move, then held in the state's ``__dict__`` (which
    shadows this descriptor) until the next move. A list read is handed back before the next move,
    since callers may change it in place."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, state, owner=None):
        if state is None:
            return self
        d, name = state.__dict__, self.name
        value = d[name] = d["_engine"].get(name)
        d["_held"].append(name)
        if type(value) is list:
            d["_dirty"].append(name)
        return value


class CoreState(State):
    """The state of a game on the core, read from the engine's memory on demand: each array field is
    a view of the engine's memory, made the first time it is read (a copy for a search that never
    reads an array costs none); each scalar and list is read from the engine when first read after a
    move (:class:`_EngineField`). What Python may have changed — a field assigned, a list read (and
    perhaps changed in place) — is handed back before the engine computes legal actions or moves
    (:meth:`hand_back`), so a game that plays without reading its state copies nothing. Assigning a
    field replaces the attribute, as on a plain :class:`State`; ``Game.state_edited()`` also copies
    a new array into the engine and puts the view back."""

    @classmethod
    def of(cls, engine) -> CoreState:
        state = cls.__new__(cls)
        d = state.__dict__
        d["_engine"] = engine
        d["_held"] = []  # the scalars and lists in __dict__ now
        d["_dirty"] = []  # those to hand back: assigned, or lists read
        return state

    def __getattr__(self, name: str):
        engine = self.__dict__.get("_engine")
        view = None if engine is None else engine.view(name)
        if view is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self.__dict__[name] = view
        return view

    def __setattr__(self, name: str, value) -> None:
        d = self.__dict__
        if name in _ENGINE_FIELD_SET and "_held" in d:
            if name not in d:
                d["_held"].append(name)
            if name not in d["_dirty"]:
                d["_dirty"].append(name)
        d[name] = value

    def hand_back(self, moving: bool, arrays: bool = False, edited: bool = False) -> bool:
        """Give the engine the fields Python may have changed (with ``arrays``, any array put in
        place of a view too). ``moving``: the engine moves next, so the scalars and lists read are
        forgotten (the move makes them stale); else they stay, and a list read stays to be handed
        back again (it may still be changed in place). ``edited``: the legal actions are computed
        again in any case. Whether the engine's state changed."""
        d = self.__dict__
        dirty = d["_dirty"]
        changed = False
        if dirty or arrays or edited:
            changed = d["_engine"].push(self, dirty, arrays, edited)
        if moving:
            held = d["_held"]
            for name in held:
                d.pop(name, None)
            held.clear()
            dirty.clear()
        return changed

    def copy(self) -> State:
        """A plain :class:`State` with this state's values (Python's edits not handed back yet
        included)."""
        values = self._engine.state()  # (the engine's values, copied out: shared with nothing)
        for name in _STATE_FIELDS:
            if name in self.__dict__:
                values[name] = copied_field(name, self.__dict__[name])
        return State(**values)

    def to_json(self) -> dict:
        return self.copy().to_json()

    def __copy__(self) -> State:
        return self.copy()

    def __deepcopy__(self, memo: dict) -> State:
        return self.copy()

    def __reduce__(self):
        return State, (), vars(self.copy())


_STATE_FIELDS = tuple(f.name for f in dataclasses.fields(State))
# the fields that are not arrays (the engine's scalars and lists: src/core/bridge.cpp's FIELDS)
_ENGINE_FIELDS = tuple(n for n in _STATE_FIELDS if not isinstance(getattr(State(), n), np.ndarray))
_ENGINE_FIELD_SET = frozenset(_ENGINE_FIELDS)
for _name in _ENGINE_FIELDS:
    setattr(CoreState, _name, _EngineField(_name))
del _name
_ENGINE_HELD = ("_engine", "_state", "_dice", "_core_events", "_bound_dice")  # a core game's: not deep-copied


class CoreDice:
    """The dice of a game on the core: :class:`Dice`'s API over the engine's own streams."""

    __slots__ = ("_engine",)

    def __init__(self, engine) -> None:
        self._engine = engine

    @property
    def seed(self) -> int:
        return self._engine.dice_seed

    @property
    def _state(self) -> _StreamStates:
        return _StreamStates(self._engine)

    def force(self, *faces: int, stream: str | None = None) -> None:
        check_forced(faces, stream)
        if faces:
            self._engine.force(list(faces), stream)

    @contextmanager
    def unforced(self):
        saved = self._engine.dice()
        plain = Dice.from_json({**saved, "forced": [], "forced_streams": {}})
        self._engine.set_dice(plain)
        try:
            yield self
        finally:
            now = self._engine.dice()
            merged = Dice.from_json(saved)
            merged._state = dict(now["streams"])
            merged.force(*now["forced"])
            for name, faces in now.get("forced_streams", {}).items():
                merged.force(*faces, stream=name)
            self._engine.set_dice(merged)

    @property
    def forced_left(self) -> int:
        return self._engine.forced_left

    def forced_for(self, stream: str | None = None) -> list[int]:
        return self._engine.forced_for(stream)

    def d6(self, stream: str) -> int:
        return self._engine.d6(stream)

    def roll(self, stream: str, n: int) -> list[int]:
        return [self._engine.d6(stream) for _ in range(n)]

    def copy(self) -> Dice:
        """A plain :class:`Dice` with these dice's streams and queues."""
        return Dice.from_json(self._engine.dice())

    def to_json(self) -> dict:
        return self._engine.dice()


class _StreamStates(MutableMapping):
    """Each stream's generator state, read and written in the engine (``Dice._state``'s API)."""

    def __init__(self, engine) -> None:
        self._engine = engine

    def __getitem__(self, name: str) -> int:
        if name not in STREAMS:
            raise KeyError(name)
        return self._engine.stream_state(name)

    def __setitem__(self, name: str, value: int) -> None:
        self._engine.set_stream_state(name, value)

    def __delitem__(self, name: str) -> None:
        raise TypeError("a dice stream cannot be removed")

    def __iter__(self):
        return iter(STREAMS)

    def __len__(self) -> int:
        return len(STREAMS)


def _freeze(events: list[dict]) -> bytes:
    """A chunk of the log, pickled (a few times faster than JSON, and exact) and compressed; only
    this game's own :func:`_thaw` reads it."""
    return zlib.compress(pickle.dumps(events, pickle.HIGHEST_PROTOCOL), 1)


def _thaw(chunks: list[bytes]) -> list[dict]:
    """The events of the chunks, in order (a new list of new dicts)."""
    out: list[dict] = []
    for chunk in chunks:
        out += pickle.loads(zlib.decompress(chunk))  # noqa: S301 - bytes this process made
    return out


def _tables(adventure: str, difficulty: dict[str, int]) -> Tables:
    """The adventure's tables; a variant's difficulty for it replaces the label (the geometry and its
    cache are shared)."""
    tables = tables_for(adventure)
    if tables.adventure.id in difficulty:
        adv = dataclasses.replace(tables.adventure, difficulty=difficulty[tables.adventure.id])
        tables = dataclasses.replace(tables, adventure=adv)
    return tables


def _bundled_tables(game: Game) -> bool:
    """Whether ``game.tables`` are the process's tables of a bundled adventure (a variant may relabel
    its difficulty): the same geometry any process builds from the adventure's id."""
    if game.adventure_ref not in adventure_names():
        return False
    return game.tables.los_static is tables_for(game.adventure_ref).los_static


def _phase_name(phase) -> str:
    return Phase(phase).name.lower() if phase in Phase._value2member_map_ else f"{phase!r} (not a Phase)"


def _action_name(action) -> str:
    if _is_int(action) and 0 <= action < len(Action):
        return ACTION_NAMES[int(action)]
    return f"not an action of 0..{len(Action) - 1}"


def _is_int(value) -> bool:
    """An integer (Python or numpy) that is not a bool."""
    return type(value) is int or (isinstance(value, numbers.Integral) and not isinstance(value, bool))


def _check_heroes(hero_ids: list[str], roster: dict) -> list[str]:
    if not (MIN_HEROES <= len(hero_ids) <= MAX_HEROES):
        raise ValueError(f"heroes: {len(hero_ids)} heroes given; the game is for {MIN_HEROES}-{MAX_HEROES}")
    by_name = {h.name.lower(): h.id for h in roster.values()}
    ids = []
    for ref in hero_ids:
        hero_id = ref if ref in roster else by_name.get(str(ref).lower())
        if hero_id is None:
            raise ValueError(f"heroes: unknown hero {ref!r}; the roster is {', '.join(roster)}")
        if hero_id in ids:
            raise ValueError(f"heroes: {ref!r} picked twice; each hero can be picked once (R-SETUP-01)")
        ids.append(hero_id)
    return ids


__all__ = ["Game", "IllegalActionError", "Action", "Decision", "Phase", "WIDTH"]
