"""What a rule module may use of the game it plays on: the :class:`Context` protocol.

Rule functions take ``g: Context``, never the concrete ``game.Game``, so that no rule module
imports ``game.py`` (``game.py`` imports the rule modules; tests/test_layers.py checks the engine's
import drawing has no circle). ``Game`` is the one class that provides it; a side view
(``sideview``) is a ``Game`` too.

It is a typing protocol only: nothing here runs at play time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable

    from dungeon_env.content.model import HeroCard, ItemCard, MonsterCard, Spell
    from dungeon_env.content.rules import Rules
    from dungeon_env.content.variants import Variant
    from dungeon_env.engine.actions import Decision, Phase
    from dungeon_env.engine.dice import Dice
    from dungeon_env.engine.state import State
    from dungeon_env.engine.tables import Tables


class Context(Protocol):
    """The game as the rules see it: its data, its dice and log, and the few moves of the engine
    loop (ask a decision, change phase, end the game)."""

    # ----- data: the state, the static tables, the rules' constants and the cards -----
    state: State
    tables: Tables
    rules: Rules
    variant: Variant
    heroes: list[HeroCard]  # the hero roster (a hero's unit_card indexes it)
    hero_ids: list[str]  # the heroes in play, in seat order
    monsters: list[MonsterCard]
    monster_index: dict[str, int]
    spells: list[Spell]
    spell_index: dict[str, int]
    item_cards: list[ItemCard]
    item_index: dict[str, int]
    carried: list[list[tuple[str, bool]]] | None  # items brought from earlier adventures
    max_turns: int
    vis_cache: dict  # the tables' per-adventure cache (sight lines, ...)

    # ----- chance and the record -----
    dice: Dice
    events: list[dict]

    def log(self, event: dict) -> None: ...

    def check(
        self, check: str, actor: str, stream: str, modifiers: dict, classify: Callable[[int], str]
    ) -> int:
        """Roll one d6 check, log it and return the modified total."""
        ...

    # ----- the engine loop -----
    def push(self, kind: Decision, unit: int, a: int = -1, b: int = -1) -> None: ...

    def goto(self, phase: Phase) -> None: ...

    def finish(self, outcome: str, reason: str) -> None: ...

    def check_end(self) -> None: ...

    @property
    def decision_args(self) -> tuple[int, int]: ...

    # ----- small look-ups -----
    def monsters_besides(self, group: list[int]) -> bool: ...

    def card(self, u: int) -> HeroCard | MonsterCard: ...

    def label(self, u: int) -> str: ...

    def has_trait(self, u: int, trait: str) -> bool: ...

    def active_heroes(self) -> list[int]: ...

    def unit_by_label(self, unit_id: str) -> int: ...

    @staticmethod
    def xy(sq: int) -> tuple[int, int]: ...

    @staticmethod
    def square(x: int, y: int) -> int: ...
