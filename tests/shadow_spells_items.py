"""Shared by tests/test_core_rules_spells.py and tests/test_core_rules_items.py: run the core's port of
a rule module beside its Python version at every call that real play makes.

``Shadows.hooked(module, names, core_module)`` swaps the code of each named Python function for a
trampoline (so that every reference to it, the decision tables' included, goes through the hook).
The hook runs ``core_parity.shadow`` on the game as it is at that call (the Python original on a
copy, the core function on an engine built from the game), records what differs, then lets the
original run on the real game. Calls made while a shadow runs (the original's own calls into the
module) go straight to the originals. The hooks come off when the ``with`` block ends.
"""

from __future__ import annotations

import contextlib
import inspect
import random
import types
from collections import Counter
from collections.abc import Callable, Iterator
from enum import Enum
from typing import Any

import numpy as np

from dungeon_env import core_parity
from dungeon_env.content import adventure_names, load_heroes, load_items
from dungeon_env.engine import Game

HOOKS = "__core_shadow_hooks__"
CASTERS = ("orwin", "maelis")  # the heroes that start with spells (orwin and maelis are Learned too)


def _plain(x: Any) -> Any:
    """An argument as the core's binding takes it (a moment's word, a Python int)."""
    if isinstance(x, Enum):
        return x.value
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.bool_):
        return bool(x)
    return x


class Shadows:
    """The hooks' record: calls compared per function, what differed, the events the calls made."""

    def __init__(
        self,
        rate: dict[str, float] | None = None,
        cap: int = 400,
        caps: dict[str, int] | None = None,
        seed: int = 0,
    ) -> None:
        self.rate = rate or {}  # the share of a function's calls compared (default: every call)
        self.cap = cap  # at most this many compared calls per function
        self.caps = caps or {}  # ... or as many as this says for it
        self.rng = random.Random(seed)
        self.calls: Counter[str] = Counter()
        self.events: Counter[str] = Counter()  # event types the compared calls logged (Python side)
        self.results: Counter[tuple[str, Any]] = Counter()  # (function, returned value) of queries
        self.failures: list[str] = []
        self.inside = False

    def _hook(self, key: str, original: Callable, core_fn: Callable) -> Callable:
        def call(g, *args):
            if (
                self.inside
                or self.calls[key] >= self.caps.get(key, self.cap)
                or self.rng.random() >= self.rate.get(key, 1.0)
            ):
                return original(g, *args)
            plain = [_plain(a) for a in args]

            def python_call(twin):
                start = twin.n_events
                out = original(twin, *args)
                self.events.update(e["type"] for e in twin.events_since(start))
                return out

            self.inside = True
            try:
                diff = core_parity.shadow(g, python_call, lambda e: core_fn(e, *plain))
            except Exception as error:  # noqa: BLE001 - reported with the call that raised it
                diff = [f"raised {type(error).__name__}: {error}"]
            finally:
                self.inside = False
            self.calls[key] += 1
            if diff and len(self.failures) < 20:
                self.failures.append(f"{key}{tuple(plain)} at turn {g.state.turn}: " + "\n    ".join(diff))
            out = original(g, *args)
            if isinstance(out, bool | list):
                self.results[key, bool(out)] += 1
            return out

        return call

    @contextlib.contextmanager
    def hooked(self, module: types.ModuleType, names: list[str], core_module: Any) -> Iterator[Shadows]:
        hooks = module.__dict__.setdefault(HOOKS, {})
        saved = {}
        short = module.__name__.rsplit(".", 1)[-1]
        try:
            for name in names:
                f = getattr(module, name)
                original = types.FunctionType(f.__code__, f.__globals__, name, f.__defaults__, f.__closure__)
                params = ", ".join(inspect.signature(f).parameters)
                namespace: dict = {}
                exec(f"def {name}({params}):\n    return {HOOKS}[{name!r}]({params})\n", {}, namespace)
                hooks[name] = self._hook(f"{short}.{name}", original, getattr(core_module, name))
                saved[name] = f.__code__
                f.__code__ = namespace[name].__code__
            yield self
        finally:
            for name, code in saved.items():
                getattr(module, name).__code__ = code
            module.__dict__.pop(HOOKS, None)


def roster(k: int) -> list[str]:
    """3-5 heroes, both casters among them and the rest drawn from the roster."""
    rng = random.Random(k)
    others = [h for h in load_heroes() if h not in CASTERS]
    return [*CASTERS, *rng.sample(others, 1 + k % 3)]


def kit(k: int, n_heroes: int) -> list[list[tuple[str, bool]]] | None:
    """In every other game, each hero brings three usable cards (potions, scrolls, magic items,
    gear), some identified and some not (``Game.new``'s ``carried``, as from earlier adventures),
    and hero_0 a face-down Elixir of Life."""
    if k % 2 == 0:
        return None
    rng = random.Random(k)
    usable = [c.id for c in load_items().values() if c.deck in ("potions", "spells", "magic_items", "gear")]
    kits = [[(rng.choice(usable), rng.random() < 0.5) for _ in range(3)] for _ in range(n_heroes)]
    kits[0].append(("elixir_of_life", False))  # a face-down potion of campaign timing: wasted if drunk
    return kits


def play(n_games: int, max_turns: int = 40) -> Iterator[Game]:
    """Random games over every adventure (the hooks compare as they go); yields each finished game."""
    for k in range(n_games):
        adventure = adventure_names()[k % len(adventure_names())]
        heroes = roster(k)
        game = Game.new(
            adventure=adventure, heroes=heroes, seed=k, max_turns=max_turns, carried=kit(k, len(heroes))
        )
        rng = random.Random(k)
        while not game.over:
            game.apply(rng.choice(game.legal_actions()))
        yield game


def public_functions(module: types.ModuleType, skip: tuple[str, ...] = ()) -> list[str]:
    """The module's own public functions that take the game first."""
    out = []
    for name, f in vars(module).items():
        if (
            name.startswith("_")
            or name in skip
            or not inspect.isfunction(f)
            or f.__module__ != module.__name__
        ):
            continue
        if next(iter(inspect.signature(f).parameters), None) == "g":
            out.append(name)
    return out
