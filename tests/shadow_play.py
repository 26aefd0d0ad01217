"""Random games in which Python rule functions are checked against their core ports at the moment
the engine calls them (``core_parity.shadow``), for tests/test_core_rules_{effects,abilities,mental,
traps}.py.

A ``Shadows`` wraps a Python function: each call runs ``shadow`` on the game as it is (the Python
function on a copy, the core port on an engine built from it), records what differs, then runs the
original. Calls made inside a comparison run unwrapped; each function is compared at most
``budget`` times (the rest run unwrapped) so that a test stays fast.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator

from dungeon_env import core_parity
from dungeon_env.content import adventure_names, load_heroes
from dungeon_env.engine import Game


class Shadows:
    def __init__(self, budget: int = 150):
        self.busy = False
        self.budget = budget
        self.calls: Counter[str] = Counter()  # comparisons made, per function
        self.cases: Counter[str] = Counter()  # the interesting cases reached (named by the tests)
        self.failures: list[tuple[str, tuple, list[str]]] = []

    def compare(self, name: str, game: Game, python_fn: Callable, core_fn: Callable, *args) -> None:
        """``python_fn(copy of game, *args)`` against ``core_fn(engine, *args)``; ``game`` is left as
        it was."""
        self.busy = True
        try:
            diff = core_parity.shadow(game, lambda t: python_fn(t, *args), lambda e: core_fn(e, *args))
        except Exception as error:  # noqa: BLE001 - the core's error is the finding
            diff = [f"raised {type(error).__name__}: {error}"]
        finally:
            self.busy = False
        self.calls[name] += 1
        if diff:
            self.failures.append((name, args, diff[:6]))

    def wrap(
        self, name: str, original: Callable, core_fn: Callable, note: Callable | None = None
    ) -> Callable:
        """``original`` compared with ``core_fn`` (same arguments, the engine first) at every call;
        ``note(game, arguments, result)`` names the case the call reached (or None)."""

        def wrapper(g, *args, **kwargs):
            if self.busy:
                return original(g, *args, **kwargs)
            if self.calls[name] < self.budget:
                self.compare(
                    name,
                    g,
                    lambda t, *a: original(t, *a, **kwargs),
                    lambda e, *a: core_fn(e, *a, **kwargs),
                    *args,
                )
            result = original(g, *args, **kwargs)
            if note is not None:
                case = note(g, (*args, *kwargs.values()), result)
                if case:
                    self.cases[case] += 1
            return result

        return wrapper

    def report(self) -> str:
        lines = [f"{name}{args}: " + "; ".join(diff) for name, args, diff in self.failures[:10]]
        return f"{len(self.failures)} differences:\n" + "\n".join(lines)


def games(n_games: int, max_turns: int = 30, offset: int = 0) -> Iterator[tuple[Game, int]]:
    """Random games over every adventure, 3-5 heroes drawn from the whole roster: yields ``(game,
    action)`` before each action (the caller may look at the game, not change it), then applies it."""
    names, roster = adventure_names(), list(load_heroes())
    for k in range(offset, offset + n_games):
        rng = random.Random(k)
        heroes = rng.sample(roster, 3 + k % 3)
        game = Game.new(adventure=names[k % len(names)], heroes=heroes, seed=k, max_turns=max_turns)
        while not game.over:
            action = rng.choice(game.legal_actions())
            yield game, action
            game.apply(action)


def popped(game: Game) -> tuple[Game, list[int]]:
    """A copy of ``game`` with the decision on top taken off, as ``Game.apply`` does before it
    routes the action (the position the decision's apply function sees), and that decision."""
    twin = game.copy()
    top = twin.state.stack.pop()
    return twin, top
