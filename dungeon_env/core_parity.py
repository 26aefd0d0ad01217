"""The core engine against the Python engine, in lockstep: where, if anywhere, they part.

While the rules are ported into the compiled core (issue 54, docs/CORE.md) the Python engine is the
reference. :func:`lockstep` plays one game on both from the same set-up: after the set-up's
automatic steps and after every action it compares the legal actions, the new events, the dice
and every field of the state, and stops at the first difference with a report that names the step,
the action, the decision asked and what differs. The actions come from the random driver of the
golden logs (``parity.action_rng``) or from agents choosing on the Python game.

``python -m dungeon_env.core_parity --games 150`` runs the random games of the golden list (every
adventure, 3-5 heroes) and prints each game's verdict.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from dungeon_env.content import adventure_names
from dungeon_env.engine import core
from dungeon_env.engine.actions import ACTION_NAMES, DECISION_NAMES
from dungeon_env.engine.game import Game
from dungeon_env.engine.state import State
from dungeon_env.parity import GameCase, action_rng, canonical, game_list


@dataclasses.dataclass
class Divergence:
    """The first difference between the two engines in one game."""

    case: GameCase
    step: int  # actions applied before it showed (0: in the set-up's automatic steps)
    action: int | None  # the action just applied (None: the set-up)
    asked: str  # the decision the action answered
    differences: list[str]

    def __str__(self) -> str:
        what = (
            "after the set-up"
            if self.action is None
            else (f"after action {self.step} ({self.action} {ACTION_NAMES[self.action]}) at {self.asked}")
        )
        return f"{self.case.id}: the engines part {what}:\n  " + "\n  ".join(self.differences)


def new_pair(case: GameCase, variant=None, forced_dice: tuple[int, ...] = ()) -> tuple[Game, Any]:
    """The Python game and a core engine, both set up for ``case`` up to the set-up's automatic
    steps (``advance()`` on each runs them)."""
    game = Game._new_placed(
        case.adventure, case.heroes, case.seed, case.max_turns, forced_dice, None, variant
    )
    return game, core.engine(game)


class CoreGame:
    """A game played by the core engine alone, with the play interface of the golden logs' games
    (``over``, ``outcome``, ``legal_actions()``, ``apply()``, ``agent``, ``decision``, ``events``),
    set up in the core as ``Game.new`` sets up a game on it.
    ``scripts/golden_logs.py check --engine dungeon_env.core_parity:CoreGame --kind random``."""

    def __init__(self, engine: Any, n_heroes: int) -> None:
        self.engine, self.n_heroes = engine, n_heroes

    @classmethod
    def new(cls, **options: Any) -> CoreGame:
        game = Game.new(engine="core", **options)
        return cls(game._engine, len(game.hero_ids))

    @property
    def over(self) -> bool:
        return self.engine.over

    @property
    def outcome(self) -> str:
        return self.engine.outcome

    def legal_actions(self) -> list[int]:
        return self.engine.legal_actions()

    def apply(self, action: int) -> None:
        self.engine.apply(action)

    @property
    def decision(self) -> tuple[int, int] | None:
        return self.engine.decision

    @property
    def agent(self) -> str | None:
        return self.engine.agent

    @property
    def events(self) -> list[dict]:
        return self.engine.events(0)


class PythonGame:
    """``Game.new`` on the Python rules, the reference (``--engine dungeon_env.core_parity:PythonGame``
    of ``scripts/golden_logs.py``)."""

    @staticmethod
    def new(**options: Any) -> Game:
        return Game.new(engine="python", **options)


class CheckedGame(Game):
    """A Python game shadowed by a core engine: each action is applied to both, the legal actions
    and the end are compared after each, and ``events`` is the core's log. Agents read the Python game, so
    the golden logs' scripted games can check the core: ``scripts/golden_logs.py check --engine
    dungeon_env.core_parity:CheckedGame``. A RuntimeError names what differs where the two part."""

    @classmethod
    def new(cls, **options: Any) -> CheckedGame:
        game = cls._new_placed(**options)
        game.core = core.engine(game)
        game._advance()
        game.core.advance()
        game._check(None)
        return game

    def _check(self, action: int | None) -> None:
        diff = [] if self.over == self.core.over else [f"over: Python {self.over}, core {self.core.over}"]
        if list(Game.legal_actions(self)) != list(self.core.legal_actions()):
            diff.append(f"legal actions: Python {Game.legal_actions(self)}, core {self.core.legal_actions()}")
        if diff:
            raise RuntimeError(f"the engines part after action {action}: " + "; ".join(diff))

    def apply(self, action: int) -> None:
        super().apply(action)
        self.core.apply(action)
        self._check(action)

    @property
    def events(self) -> list[dict]:
        """The core's event log (the digest a golden check computes is the core's)."""
        return self.core.events(0)


def differences(game: Game, engine: Any, events_from: int, legal: bool = True) -> list[str]:
    """What differs between the Python game and the core engine now (empty: nothing); ``legal``:
    compare the legal actions too (not in the middle of a rule, where no decision is on top)."""
    out = []
    ours, theirs = game.events_since(events_from), engine.events(events_from)
    if len(ours) != len(theirs) or any(
        canonical(a) != canonical(b) for a, b in zip(ours, theirs, strict=False)
    ):
        out.append(_event_difference(ours, theirs, events_from))
    if game.over != engine.over:
        out.append(f"over: Python {game.over}, core {engine.over}")
    elif legal and not game.over and list(game.legal_actions()) != list(engine.legal_actions()):
        out.append(f"legal actions: Python {game.legal_actions()}, core {engine.legal_actions()}")
    if game.dice.to_json() != engine.dice():
        out.append(f"dice: Python {game.dice.to_json()}, core {engine.dice()}")
    out.extend(state_differences(game.state, engine.state()))
    return out


def state_differences(state: State, fields: dict) -> list[str]:
    """Each field of ``state`` whose value the core's ``fields`` do not have."""
    out = []
    for f in dataclasses.fields(State):
        ours, theirs = getattr(state, f.name), fields.get(f.name)
        if isinstance(ours, np.ndarray):
            same = (
                isinstance(theirs, np.ndarray)
                and ours.dtype == theirs.dtype
                and ours.shape == theirs.shape
                and np.array_equal(ours, theirs)
            )
            if not same:
                where = _where(ours, theirs)
                out.append(f"state.{f.name}: {where}")
        elif ours != theirs:
            out.append(f"state.{f.name}: Python {ours!r}, core {theirs!r}")
    return out


def _where(ours: np.ndarray, theirs: Any) -> str:
    if not isinstance(theirs, np.ndarray):
        return f"core gave {type(theirs).__name__}"
    if ours.dtype != theirs.dtype or ours.shape != theirs.shape:
        return f"Python {ours.dtype}{list(ours.shape)}, core {theirs.dtype}{list(theirs.shape)}"
    index = np.argwhere(ours != theirs)[:4]
    return ", ".join(
        f"[{', '.join(map(str, i))}] Python {ours[tuple(i)]} core {theirs[tuple(i)]}" for i in index
    )


def _event_difference(ours: list[dict], theirs: list[dict], start: int) -> str:
    for k in range(max(len(ours), len(theirs))):
        a = ours[k] if k < len(ours) else None
        b = theirs[k] if k < len(theirs) else None
        if a is None or b is None or canonical(a) != canonical(b):
            return (
                f"event {start + k}: Python {json.dumps(a, sort_keys=True)}\n"
                f"  {' ' * len(f'event {start + k}: ')}core   {json.dumps(b, sort_keys=True)}"
            )
    return "events differ"


def shadow(game: Game, python_call: Callable[[Game], Any], core_call: Callable[[Any], Any]) -> list[str]:
    """One rule function run on the same position by both engines: ``python_call(copy of game)`` and
    ``core_call(engine)`` (an engine built from ``game``; ``_core.rules.<module>.<function>`` take it
    first). What differs afterwards, the returned values included; ``game`` is left as it was."""
    twin = game.copy()
    twin.use_engine("python")  # the reference: the Python rules on a plain copy
    engine = core.engine(game)
    start = twin.n_events
    want = python_call(twin)
    got = core_call(engine)
    out = differences(twin, engine, start, legal=False)
    if _plain(want) != _plain(got):
        out.insert(0, f"returned: Python {want!r}, core {got!r}")
    return out


def _plain(value: Any) -> Any:
    """Tuples, numpy arrays and numpy scalars as the lists and ints they hold."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def lockstep(
    case: GameCase,
    choose: Callable[[Game], int] | None = None,
    variant=None,
    forced_dice: tuple[int, ...] = (),
) -> Divergence | None:
    """Play ``case`` on both engines, choosing with ``choose(python_game)`` (default: the random
    driver of the golden logs); the first :class:`Divergence`, or None if they never part."""
    game, engine = new_pair(case, variant, forced_dice)
    game._advance()
    try:
        engine.advance()
    except Exception as error:  # noqa: BLE001 - the core's error is the finding
        return Divergence(case, 0, None, "", [f"the core raised {type(error).__name__}: {error}"])
    diff = differences(game, engine, 0)
    if diff:
        return Divergence(case, 0, None, "", diff)
    rng = action_rng(case.seed)
    choose = choose or (lambda g: rng.choice(g.legal_actions()))
    step = 0
    while not game.over:
        kind, unit = game.decision
        asked = f"{DECISION_NAMES[int(kind)]} for {game.label(unit)}"
        action = int(choose(game))
        start = game.n_events
        game.apply(action)
        try:
            engine.apply(action)
        except Exception as error:  # noqa: BLE001 - the core's error is the finding
            return Divergence(
                case, step + 1, action, asked, [f"the core raised {type(error).__name__}: {error}"]
            )
        step += 1
        diff = differences(game, engine, start)
        if diff:
            return Divergence(case, step, action, asked, diff)
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=15, help="random games of the golden list (default 15)")
    parser.add_argument("--first", type=int, default=0, help="skip the list's first games")
    parser.add_argument("--adventure", action="append", help="only these adventures (repeatable)")
    parser.add_argument("--stop", action="store_true", help="stop at the first game that parts")
    args = parser.parse_args(argv)
    adventures = adventure_names()
    cases = game_list("random", args.first + args.games, adventures)[args.first :]
    if args.adventure:
        cases = [c for c in cases if c.adventure in args.adventure]
    failed = 0
    for case in cases:
        found = lockstep(case)
        if found is None:
            print(f"{case.id}: same")
            continue
        failed += 1
        print(found)
        if args.stop:
            break
    print(f"{len(cases) - failed} of {len(cases)} games the same on both engines")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
