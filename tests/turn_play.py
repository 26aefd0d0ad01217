"""Games for tests/test_core_rules_{turn,decisions,explore}.py: random play over every adventure with
3-5 heroes drawn from the whole roster (so casters play too), the chooser leaning towards the rarer
actions (items, spells, abilities, exploring, taking, disarming) so that their decisions are reached;
and ``compared``, a stand-in for a rule function that checks it against its core port
(``core_parity.shadow``) at the moment the engine calls it, up to a budget per case.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from dungeon_env import core_parity
from dungeon_env.content import adventure_names, load_heroes
from dungeon_env.engine import Game
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

BOLD = frozenset(
    (*ITEM_ACTIONS, *SPELL_ACTIONS, *ABILITY_ACTIONS, *DISARM_ACTIONS)
    + (USE, MEMORIZE, IDENTIFY, GIVE, LOOT, EXPLORE, TAKE, KEEP_CASTING, OVERCAST)
)


def play(n_games: int, max_turns: int, first_seed: int) -> Counter:
    """Play the games to their ends; their outcomes."""
    outcomes: Counter = Counter()
    names, roster = adventure_names(), list(load_heroes())
    for k in range(first_seed, first_seed + n_games):
        rng = random.Random(k)
        heroes = rng.sample(roster, 3 + k % 3)
        game = Game.new(adventure=names[k % len(names)], heroes=heroes, seed=k, max_turns=max_turns)
        while not game.over:
            legal = game.legal_actions()
            bold = [a for a in legal if a in BOLD]
            game.apply(rng.choice(bold if bold and rng.random() < 0.6 else legal))
        outcomes[game.outcome] += 1
    return outcomes


class Compared:
    """Counts the comparisons made (by case) and stops comparing a case after ``budget`` of them;
    a comparison made while another runs (a watched function calling another) is skipped."""

    def __init__(self, budget: int = 60) -> None:
        self.budget = budget
        self.seen: Counter = Counter()
        self._busy = False

    def wrap(
        self, name: str, original: Callable, core_call: Callable, case: Callable | None = None
    ) -> Callable:
        """A stand-in for ``original(g, *args)`` comparing it with ``core_call(engine, *args)``;
        ``case(g, *args)`` names the case counted (default ``name``)."""

        def wrapper(g: Game, *args: Any) -> Any:
            key = case(g, *args) if case else name
            self.check(g, key, lambda twin: original(twin, *args), lambda e: core_call(e, *args))
            return original(g, *args)

        return wrapper

    def check(self, g: Game, key: str, python_call: Callable, core_call: Callable) -> None:
        if self._busy or self.seen[key] >= self.budget:
            return
        self._busy = True
        try:
            diff = core_parity.shadow(g, python_call, core_call)
        finally:
            self._busy = False
        assert diff == [], f"{key} at turn {g.state.turn}, phase {g.state.phase}: {diff}"
        self.seen[key] += 1
