"""What the tests of the core's bottom rule layer share (board, units, casting, inventory, objectives,
visibility, encounters): positions of random games, and the engine's own calls of a Python rule
function shadowed by its core port (``core_parity.shadow``), so the states compared are exactly those
of real play."""

from __future__ import annotations

import random
import sys
from collections import Counter

import numpy as np

from dungeon_env import core_parity
from dungeon_env.content import adventure_names, load_heroes
from dungeon_env.engine import Game


def new_game(k: int, max_turns: int, variant=None) -> Game:
    """Game k of the random ones: adventure k (cycling), 3-5 heroes drawn from the whole roster."""
    names, roster = adventure_names(), sorted(load_heroes())
    heroes = random.Random(k).sample(roster, 3 + k % 3)
    return Game.new(
        adventure=names[k % len(names)], heroes=heroes, seed=k, max_turns=max_turns, variant=variant
    )


def positions(n_games: int = 10, every: int = 7, max_turns: int = 30, first: int = 0):
    """The positions random games reach, one every ``every`` actions, and each game's last."""
    for k in range(first, first + n_games):
        game = new_game(k, max_turns)
        rng = random.Random(k)
        step = 0
        while not game.over:
            if step % every == 0:
                yield game
            game.apply(rng.choice(game.legal_actions()))
            step += 1
        yield game


def plain(value):
    """An argument as the core's bindings take it: numpy scalars as ints, tuples as lists."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


_busy = False  # a shadow is running: the calls it makes are not shadowed again


class Shadowed:
    """While entered, every call the engine makes to ``module.name`` (wherever it was imported) is
    first run on a copy of the game by both engines and compared (``core_parity.shadow``), up to
    ``limit`` calls of each case ``classify(game, *args, **kwargs)`` names (one case without it);
    ``core_fn(engine, *args, **kwargs)`` is the port. ``calls`` counts the calls compared, ``cases``
    how many of each case, ``failures`` the differences found (with the call)."""

    def __init__(self, module, name: str, core_fn, limit: int = 60, classify=None):
        self.module, self.name, self.core_fn, self.limit = module, name, core_fn, limit
        self.classify = classify
        self.calls = 0
        self.cases: Counter = Counter()
        self.failures: list[str] = []
        self._patched: list = []

    def __enter__(self) -> Shadowed:
        original = getattr(self.module, self.name)

        def wrapper(g, *args, **kwargs):
            global _busy
            case = self.classify(g, *args, **kwargs) if self.classify and not _busy else None
            if not _busy and type(g) is Game and self.cases[case] < self.limit:
                _busy = True
                try:
                    self.cases[case] += 1
                    cargs = [plain(a) for a in args]
                    ckwargs = {k: plain(v) for k, v in kwargs.items()}
                    diff = core_parity.shadow(
                        g,
                        lambda twin: original(twin, *args, **kwargs),
                        lambda e: self.core_fn(e, *cargs, **ckwargs),
                    )
                    self.calls += 1
                    if diff and len(self.failures) < 5:
                        self.failures.append(f"{self.name}{tuple(cargs)} {ckwargs}: " + "\n".join(diff))
                finally:
                    _busy = False
            return original(g, *args, **kwargs)

        for mod in list(sys.modules.values()):
            if (
                getattr(mod, "__name__", "").startswith("dungeon_env")
                and getattr(mod, self.name, None) is original
            ):
                self._patched.append(mod)
                setattr(mod, self.name, wrapper)
        self._original = original
        return self

    def __exit__(self, *exc) -> None:
        for mod in self._patched:
            setattr(mod, self.name, self._original)


def play_shadowed(
    shadows: list[Shadowed], n_games: int = 10, max_turns: int = 30, first: int = 0, variant=None
) -> None:
    """Play random games (with the rules of ``variant``) with every one of ``shadows`` in force."""
    entered = []
    try:
        for s in shadows:
            entered.append(s.__enter__())
        for k in range(first, first + n_games):
            game = new_game(k, max_turns, variant)
            rng = random.Random(k)
            while not game.over:
                game.apply(rng.choice(game.legal_actions()))
    finally:
        for s in reversed(entered):
            s.__exit__()
