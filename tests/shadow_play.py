"""Rule functions run by both engines at the moments the Python engine calls them.

While random games play, :class:`Shadow` stands in for a rule function: each call first runs the
Python function on a copy of the game and its core port on a core engine built from the same game
(``core_parity.shadow``), records what differs, then runs the original on the real game, so the
game goes on exactly as it would have. Calls made while a comparison runs (a watched function
calling another) are not compared again.

    shadow = Shadow()
    monkeypatch.setattr(combat, "do_fight_stamina", shadow.wrap("do_fight_stamina", combat.do_fight_stamina,
                        lambda e, g, u, action: _core.rules.combat.do_fight_stamina(e, u, action)))
    play(adventure_names(), seeds=range(4))
    shadow.check(do_fight_stamina=50)

MERGED (port-turn): ``Shadows``, ``games`` and ``popped`` below are port-effects' helpers of the same
name-free kind, kept side by side with ``Shadow``/``play`` until the owners settle on one.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from dungeon_env import core_parity
from dungeon_env.content import adventure_names, load_heroes
from dungeon_env.engine import Game

MAX_REPORTED = 5


class Shadow:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()  # comparisons made, by name
        self.calls: Counter[str] = Counter()  # calls seen, by name
        self.failures: list[str] = []
        self.not_ported: Counter[str] = Counter()  # comparisons the core could not make, by what it lacked
        self._busy = False

    def wrap(
        self,
        name: str,
        original: Callable,
        core_call: Callable,
        python_call: Callable | None = None,
        every: int = 1,
        when: Callable | None = None,
    ) -> Callable:
        """A stand-in for ``original(g, *args)``: compares ``python_call(twin, g, *args)`` (default
        ``original(twin, *args)``) with ``core_call(engine, g, *args)`` on every ``every``-th call
        (and only where ``when(g, *args)``), then returns ``original(g, *args)``."""

        def wrapper(g: Game, *args: Any) -> Any:
            self.calls[name] += 1
            if not self._busy and self.calls[name] % every == 0 and (when is None or when(g, *args)):
                py = python_call or (lambda twin, _g, *a: original(twin, *a))
                self.compare(name, g, lambda twin: py(twin, g, *args), lambda e: core_call(e, g, *args))
            return original(g, *args)

        return wrapper

    def compare(self, name: str, g: Game, python_call: Callable, core_call: Callable) -> None:
        self._busy = True
        try:
            diff = core_parity.shadow(g, python_call, core_call)
        except Exception as error:  # noqa: BLE001 - the core's error is the finding
            diff = [f"raised {type(error).__name__}: {error}"]
        finally:
            self._busy = False
        self.counts[name] += 1
        if len(diff) == 1 and "is not ported to the core yet" in diff[0]:
            self.not_ported[diff[0].split(": ", 1)[1].split(" is not")[0]] += 1
        elif diff:
            state = g.state
            where = f"{name} at turn {state.turn}, phase {state.phase}, {g.tables.adventure.id}"
            if len(self.failures) < MAX_REPORTED:
                self.failures.append(where + ":\n  " + "\n  ".join(diff))
            else:
                self.failures.append(where)

    def check(self, **least: int) -> None:
        """No comparison differed, and each named function was compared at least that often."""
        assert not self.failures, f"{len(self.failures)} differences:\n" + "\n".join(self.failures[:MAX_REPORTED])
        assert not self.not_ported, f"the core lacks (calls): {dict(self.not_ported)}"
        short = {name: self.counts[name] for name, n in least.items() if self.counts[name] < n}
        assert not short, f"too few comparisons: {short} (all: {dict(self.counts)})"


def play(
    adventures: Iterable[str],
    seeds: Iterable[int],
    max_turns: int = 30,
    on_decision: Callable[[Game], None] | None = None,
) -> int:
    """Random games (3-5 heroes) on each adventure; ``on_decision(g)`` before each action. Returns
    the number of actions played."""
    actions = 0
    seeds = list(seeds)
    for adventure in adventures:
        for seed in seeds:
            rng = random.Random(f"{adventure}/{seed}")
            g = Game.new(adventure=adventure, heroes=3 + seed % 3, seed=seed, max_turns=max_turns)
            while not g.over:
                if on_decision is not None:
                    on_decision(g)
                g.apply(rng.choice(g.legal_actions()))
                actions += 1
    return actions


class Shadows:
    def __init__(self, budget: int = 150):
        self.busy = False
        self.budget = budget
        self.calls: Counter[str] = Counter()  # comparisons made, per function
        self.cases: Counter[str] = Counter()  # the interesting cases reached (named by the tests)
        self.failures: list[tuple[str, tuple, list[str]]] = []

    def compare(self, name: str, game: Game, python_call: Callable, core_call: Callable, args=()) -> None:
        """One comparison on ``game`` (left as it was)."""
        self.busy = True
        try:
            diff = core_parity.shadow(game, python_call, core_call)
        except Exception as error:  # noqa: BLE001 - the core's error is the finding
            diff = [f"raised {type(error).__name__}: {error}"]
        finally:
            self.busy = False
        self.calls[name] += 1
        if diff:
            self.failures.append((name, args, diff[:6]))

    def wrap(self, name: str, original: Callable, core_fn: Callable, note: Callable | None = None) -> Callable:
        """``original`` compared with ``core_fn`` (same arguments, the engine first) at every call;
        ``note(game, arguments, result)`` names the case the call reached (or None)."""

        def wrapper(g, *args, **kwargs):
            if self.busy:
                return original(g, *args, **kwargs)
            if self.calls[name] < self.budget:
                self.compare(
                    name, g, lambda t: original(t, *args, **kwargs), lambda e: core_fn(e, *args, **kwargs), args
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
