"""The harness of the core's rule parity tests (tests/test_core_rules_*.py): each rule function of
``dungeon_env/engine/`` against its C++ port (``_core.rules.<module>.<function>``), compared by
``core_parity.shadow`` (the Python function on a copy of a game, the port on a core engine built from
it: the returned value, the new events, the dice and every state field).

One owner per idea:

- **The games.** Every Python reference game comes from :func:`reference_game` (``Game.new``'s
  arguments) and every core engine from :func:`engine`; the random ones from :func:`random_game`,
  the test arena's from :func:`arena`.
- **Shadowing a rule where the engine calls it.** A :class:`Shadows` records the comparisons;
  ``shadows.hook(monkeypatch, module, name, core_fn)`` makes every call of ``module.name`` (through
  any reference: other modules' imports, the decision and phase tables) first run ``compare``, then
  the original on the real game, so the game goes on as it would have. ``shadows.wrap`` gives the
  same stand-in for a table's entry (``monkeypatch.setitem``). Calls made while a comparison runs are
  not compared again; a budget per case and a sampling rate keep the frequent calls cheap.
- **Random play.** :func:`play` (every action of games over every adventure), :func:`positions`
  (some of their positions), :func:`play_out` (whole games, for the calls the hooks see).
- **Hand-built positions.** :func:`arena` (tests/builders.py places the figures), and
  :func:`run_rule_tests` (the Python rule tests' own positions, run under the hooks).

    shadows = Shadows(budget=50)
    shadows.hook(monkeypatch, combat, "do_fight_stamina", _core.rules.combat.do_fight_stamina)
    play_out(range(6))
    shadows.check(do_fight_stamina=50)
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import random
import types
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from enum import Enum
from typing import Any

import numpy as np

from dungeon_env import core_parity
from dungeon_env.content import adventure_names, load_heroes, load_items
from dungeon_env.engine import Game
from dungeon_env.engine import core as engine_core
from dungeon_env.engine.actions import (
    ABILITY_ACTIONS,
    DISARM_ACTIONS,
    EXPLORE,
    GIVE,
    IDENTIFY,
    ITEM_ACTIONS,
    KEEP_CASTING,
    LOOT,
    MEMORIZE,
    OVERCAST,
    SPELL_ACTIONS,
    TAKE,
    USE,
)
from tests.builders import ARENA, PLAIN

MAX_REPORTED = 5

# ---------------------------------------------------------------------------------------- the games


def reference_game(**kwargs: Any) -> Game:
    """A Python game playing on the Python rules (``Game.new``'s arguments): the reference every
    parity test compares the core with. With ``placed=True``, the game as ``Game._new_placed`` leaves
    it (set up, the automatic first steps not yet run)."""
    if kwargs.pop("placed", False):
        return Game._new_placed(**kwargs)
    return Game.new(engine="python", **kwargs)


def engine(game: Game) -> Any:
    """A core engine playing on from ``game`` (copied: the two then play apart)."""
    return engine_core.engine(game)


def arena(heroes: list[str] | None = None, seed: int = 0, max_turns: int = 100) -> Game:
    """A reference game on the test arena (tests/data/arena.toml) at its first decision; place the
    figures with tests/builders.py."""
    return reference_game(adventure=ARENA, heroes=heroes or PLAIN, seed=seed, max_turns=max_turns)


CASTERS = ("orwin", "maelis")  # the heroes that start with spells (both Learned too)


def _kit(rng: random.Random, n_heroes: int) -> list[list[tuple[str, bool]]]:
    """Three usable cards per hero (potions, scrolls, magic items, gear), some identified (as from
    earlier adventures), and hero_0 a face-down Elixir of Life (wasted if drunk)."""
    usable = [c.id for c in load_items().values() if c.deck in ("potions", "spells", "magic_items", "gear")]
    kits = [[(rng.choice(usable), rng.random() < 0.5) for _ in range(3)] for _ in range(n_heroes)]
    kits[0].append(("elixir_of_life", False))
    return kits


def random_game(k: int, max_turns: int = 30, variant=None, casters: bool = False) -> Game:
    """Random game ``k``: adventure k (cycling over the five), seed k, 3-5 heroes (3 + k % 3) drawn
    from the whole roster. With ``casters`` both casters are in the party and, in odd games, every
    hero brings three usable cards (``carried``)."""
    rng = random.Random(k)
    roster = sorted(load_heroes())
    if casters:
        others = [h for h in roster if h not in CASTERS]
        heroes = [*CASTERS, *rng.sample(others, 1 + k % 3)]
        carried = _kit(rng, len(heroes)) if k % 2 else None
    else:
        heroes, carried = rng.sample(roster, 3 + k % 3), None
    names = adventure_names()
    return reference_game(
        adventure=names[k % len(names)],
        heroes=heroes,
        seed=k,
        max_turns=max_turns,
        carried=carried,
        variant=variant,
    )


BOLD = frozenset(
    (*ITEM_ACTIONS, *SPELL_ACTIONS, *ABILITY_ACTIONS, *DISARM_ACTIONS)
    + (USE, MEMORIZE, IDENTIFY, GIVE, LOOT, EXPLORE, TAKE, KEEP_CASTING, OVERCAST)
)


def bold_choice(rng: random.Random, legal: list[int]) -> int:
    """The chooser that leans towards the rarer actions (items, spells, abilities, exploring,
    taking, disarming), so that their decisions are reached."""
    bold = [a for a in legal if a in BOLD]
    return rng.choice(bold if bold and rng.random() < 0.6 else legal)


def play(
    games: Iterable[int],
    max_turns: int = 30,
    bold: bool = False,
    until: Callable[[], bool] | None = None,
    **kwargs: Any,
) -> Iterator[tuple[Game, int | None]]:
    """The random games ``games`` (:func:`random_game`'s ``k``, its other arguments in ``kwargs``)
    played to their ends by a random chooser (``bold``: :func:`bold_choice`): yields ``(game,
    action)`` before each action (the caller may look at the game, not change it), then ``(game,
    None)`` at the end. With ``until``, no game starts once ``until()`` is true (the games are the
    same at every run: what a test needs is reached by the same first ones)."""
    for k in games:
        if until is not None and until():
            return
        game = random_game(k, max_turns, **kwargs)
        rng = random.Random(f"actions/{k}")
        while not game.over:
            legal = game.legal_actions()
            action = bold_choice(rng, legal) if bold else rng.choice(legal)
            yield game, action
            game.apply(action)
        yield game, None


def play_out(games: Iterable[int], max_turns: int = 30, **kwargs: Any) -> list[Game]:
    """The games of :func:`play` (its arguments), played to their ends (the hooks compare as they
    go)."""
    return [game for game, action in play(games, max_turns, **kwargs) if action is None]


def positions(games: Iterable[int], every: int, max_turns: int = 30, **kwargs: Any) -> Iterator[Game]:
    """The positions of :func:`play`'s games, one every ``every`` actions, and each game's last."""
    step = 0
    for game, action in play(games, max_turns, **kwargs):
        if action is None:
            step = 0
            yield game
        else:
            if step % every == 0:
                yield game
            step += 1


# ------------------------------------------------------------------------------------ the comparing


def plain(value: Any) -> Any:
    """An argument as the core's bindings take it: enums and numpy scalars as ints, tuples as lists."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


_busy = False  # a comparison is running: the calls it makes are not compared again


class Shadows:
    """The record of the comparisons: ``calls[name]`` made per function, ``cases[name, case]`` per
    case, ``events`` the event types the compared Python calls logged, ``results[name, bool]`` the
    truth of what they returned, ``failures`` what differed (with the call)."""

    def __init__(self, budget: int = 10**9, every: int = 1, budgets: dict[str, int] | None = None) -> None:
        self.budget = budget  # comparisons per (function, case) at most (``budgets``: per function) ...
        self.budgets = budgets or {}
        self.every = every  # ... of every ``every``-th call (a function's own ``every`` overrides)
        self.seen: Counter[str] = Counter()  # calls the stand-ins saw, per function
        self.calls: Counter[str] = Counter()
        self.cases: Counter[tuple[str, Any]] = Counter()
        self.events: Counter[str] = Counter()
        self.results: Counter[tuple[str, bool]] = Counter()
        self.failures: list[str] = []

    def compare(
        self, name: str, game: Game, python_call: Callable, core_call: Callable, *args: Any, case: Any = None
    ) -> list[str]:
        """``python_call(copy of game, *args)`` against ``core_call(engine, *plain args)`` (``game``
        is left as it was); what differed."""
        global _busy
        core_args = [plain(a) for a in args]
        result = []

        def python_side(twin):
            start = twin.n_events
            result.append(python_call(twin, *args))
            self.events.update(e["type"] for e in twin.events_since(start))
            return result[0]

        _busy = True
        try:
            diff = core_parity.shadow(game, python_side, lambda e: core_call(e, *core_args))
        except Exception as error:  # noqa: BLE001 - the core's error is the finding
            diff = [f"raised {type(error).__name__}: {error}"]
        finally:
            _busy = False
        self.calls[name] += 1
        self.cases[name, case] += 1
        if result:
            self.results[name, bool(result[0])] += 1
        if diff:
            state = game.state
            where = f"{name}{tuple(core_args)} at turn {state.turn}, phase {state.phase}"
            self.failures.append(where + ":\n  " + "\n  ".join(diff[:8]))
        return diff

    def wrap(
        self,
        name: str,
        original: Callable,
        core_fn: Callable,
        *,
        case: Callable | None = None,
        args: Callable | None = None,
        python_call: Callable | None = None,
        every: int | None = None,
        rare: Iterable[Any] = (),
        budget: int | None = None,
    ) -> Callable:
        """A stand-in for ``original(g, *a)``: compares it with ``core_fn(engine, *a)``, then returns
        ``original(g, *a)``. ``case(g, *a)`` names the case of the call; ``args(g, *a)`` gives the
        arguments both sides take instead of ``a`` (the Python side then runs ``python_call(twin,
        *those)``). A case is compared ``budget`` times at most, on every ``every``-th call (every
        call of a ``rare`` case)."""
        rare, every = set(rare), every or self.every
        budget = self.budgets.get(name, self.budget) if budget is None else budget
        python_call = python_call or original

        def stand_in(g, *a, **kw):
            if not _busy:
                what = case(g, *a, **kw) if case is not None else None
                self.seen[name] += 1
                due = what in rare or self.seen[name] % every == 0
                if due and self.cases[name, what] < budget:
                    both = args(g, *a, **kw) if args is not None else a
                    py = python_call if args is not None else (lambda t, *b: python_call(t, *b, **kw))
                    core_kw = {k: plain(v) for k, v in kw.items()}
                    self.compare(name, g, py, lambda e, *b: core_fn(e, *b, **core_kw), *both, case=what)
            return original(g, *a, **kw)

        return stand_in

    def hook(self, monkeypatch, module: types.ModuleType, name: str, core_fn: Callable, **options: Any):
        """Every call of ``module.name`` from now on (through any reference to it) goes through
        :meth:`wrap`'s stand-in (``options`` are its own), until ``monkeypatch`` undoes it. Returns
        the original function."""
        f = getattr(module, name)
        key = f"__core_shadow_{name}__"
        if key in f.__globals__:
            raise ValueError(f"{module.__name__}.{name} is hooked already")
        original = types.FunctionType(f.__code__, f.__globals__, name, f.__defaults__, f.__closure__)
        original.__kwdefaults__ = f.__kwdefaults__
        monkeypatch.setitem(f.__globals__, key, self.wrap(name, original, core_fn, **options))
        heading, passing, starred = [], [], False
        for p in inspect.signature(f).parameters.values():
            if p.kind is p.VAR_POSITIONAL:
                heading.append(f"*{p.name}")
                passing.append(f"*{p.name}")
                starred = True
            elif p.kind is p.VAR_KEYWORD:
                heading.append(f"**{p.name}")
                passing.append(f"**{p.name}")
            elif p.kind is p.KEYWORD_ONLY:
                heading += [p.name] if starred else ["*", p.name]
                passing.append(f"{p.name}={p.name}")
                starred = True
            else:
                heading.append(p.name)
                passing.append(p.name)
        namespace: dict = {}
        exec(f"def {name}({', '.join(heading)}):\n    return {key}({', '.join(passing)})\n", {}, namespace)
        monkeypatch.setattr(f, "__code__", namespace[name].__code__)
        return original

    def reached(self, **least: int) -> bool:
        """Each named function was compared at least that often."""
        return all(self.calls[name] >= n for name, n in least.items())

    def check(self, **least: int) -> None:
        """No comparison differed, and each named function was compared at least that often."""
        assert not self.failures, f"{len(self.failures)} differences:\n" + "\n".join(
            self.failures[:MAX_REPORTED]
        )
        short = {name: self.calls[name] for name, n in least.items() if self.calls[name] < n}
        assert not short, f"too few comparisons: {short} (all: {dict(self.calls)})"

    def by_case(self) -> Counter:
        """The comparisons per case, whatever the function."""
        out: Counter = Counter()
        for (_, case), n in self.cases.items():
            out[case] += n
        return out

    def cases_of(self, name: str) -> Counter:
        """The comparisons of ``name`` per case."""
        return Counter({case: n for (f, case), n in self.cases.items() if f == name})


def same(game: Game, python_call: Callable, core_call: Callable, what: str = "") -> None:
    """One comparison made on purpose (``core_parity.shadow``): nothing may differ (``what`` names
    the position in the report)."""
    diff = core_parity.shadow(game, python_call, core_call)
    assert diff == [], "\n".join([what, *diff] if what else diff)


def public_functions(module: types.ModuleType, skip: tuple[str, ...] = ()) -> list[str]:
    """The module's own public functions that take the game first."""
    out = []
    for name, f in vars(module).items():
        own = inspect.isfunction(f) and f.__module__ == module.__name__
        first = next(iter(inspect.signature(f).parameters), None) if own else None
        if first == "g" and not name.startswith("_") and name not in skip:
            out.append(name)
    return out


def run_rule_tests(*modules: str, skip: Iterable[str] = ()) -> int:
    """Run the rule tests of ``tests/<module>.py`` that take no fixture nor parameter and are not
    statistical nor in ``skip`` (their hand-built positions reach cases random play seldom does:
    forced dice, traits, items), on the Python rules (:func:`python_rules`: their games come from
    tests/builders.py's ``arena_game`` and ``Game.new``). Returns how many ran."""
    skip = set(skip)
    ran = 0
    with python_rules():
        for name in modules:
            module = importlib.import_module(f"tests.{name}")
            for test_name, test in inspect.getmembers(module, inspect.isfunction):
                bare = not inspect.signature(test).parameters and not hasattr(test, "pytestmark")
                own = test.__module__ == module.__name__
                chosen = (
                    test_name.startswith("test_") and "statistical" not in test_name and test_name not in skip
                )
                if chosen and bare and own:
                    test()
                    ran += 1
    return ran


@contextlib.contextmanager
def python_rules():
    """New games play on the Python rules inside this block (``Game.default_engine``), so that a
    rule test written for the public API reaches the Python functions the hooks shadow."""
    saved, Game.default_engine = Game.default_engine, "python"
    try:
        yield
    finally:
        Game.default_engine = saved
