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
"""

from __future__ import annotations

import importlib
import inspect
import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from dungeon_env import core_parity
from dungeon_env.content import load_heroes
from dungeon_env.engine import Game

MAX_REPORTED = 5


class Shadow:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()  # comparisons made, by name
        self.calls: Counter[str] = Counter()  # calls seen, by name
        self.kinds: Counter[str] = Counter()  # comparisons made, by the kind of call (wrap's kind)
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
        kind: Callable | None = None,
        rare: Iterable[str] = (),
    ) -> Callable:
        """A stand-in for ``original(g, *args)``: compares ``python_call(twin, g, *args)`` (default
        ``original(twin, *args)``) with ``core_call(engine, g, *args)``, then returns
        ``original(g, *args)``. ``kind(g, *args)`` names the kind of call (counted in ``kinds``
        when compared); every call of a ``rare`` kind is compared, of the others every
        ``every``-th."""
        rare = set(rare)

        def wrapper(g: Game, *args: Any) -> Any:
            if not self._busy:
                what = kind(g, *args) if kind is not None else None
                self.calls[name] += 1
                if what in rare or self.calls[name] % every == 0:
                    if what is not None:
                        self.kinds[what] += 1
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
        assert not self.failures, f"{len(self.failures)} differences:\n" + "\n".join(
            self.failures[:MAX_REPORTED]
        )
        assert not self.not_ported, f"the core lacks (calls): {dict(self.not_ported)}"
        short = {name: self.counts[name] for name, n in least.items() if self.counts[name] < n}
        assert not short, f"too few comparisons: {short} (all: {dict(self.counts)})"


def play(
    adventures: Iterable[str],
    seeds: Iterable[int],
    max_turns: int = 30,
    on_decision: Callable[[Game], None] | None = None,
    on_end: Callable[[Game], None] | None = None,
) -> int:
    """Random games on each adventure, 3-5 heroes drawn from the whole roster; ``on_decision(g)``
    before each action, ``on_end(g)`` after each game. Returns the number of actions played."""
    actions = 0
    seeds = list(seeds)
    roster = list(load_heroes())
    for adventure in adventures:
        for seed in seeds:
            rng = random.Random(f"{adventure}/{seed}")
            heroes = rng.sample(roster, 3 + seed % 3)
            g = Game.new(adventure=adventure, heroes=heroes, seed=seed, max_turns=max_turns)
            while not g.over:
                if on_decision is not None:
                    on_decision(g)
                g.apply(rng.choice(g.legal_actions()))
                actions += 1
            if on_end is not None:
                on_end(g)
    return actions


def run_rule_tests(*modules: str, skip: Iterable[str] = ()) -> int:
    """Run the rule tests of ``tests/<module>.py`` that take no fixture nor parameter and are not
    statistical nor in ``skip`` (their hand-built positions reach cases random play seldom does:
    forced dice, traits, items). Returns how many ran."""
    skip = set(skip)
    ran = 0
    for name in modules:
        module = importlib.import_module(f"tests.{name}")
        for test_name, test in inspect.getmembers(module, inspect.isfunction):
            plain = not inspect.signature(test).parameters and not hasattr(test, "pytestmark")
            own = test.__module__ == module.__name__
            chosen = (
                test_name.startswith("test_") and "statistical" not in test_name and test_name not in skip
            )
            if chosen and plain and own:
                test()
                ran += 1
    return ran
