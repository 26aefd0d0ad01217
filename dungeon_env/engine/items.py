"""Items: the five decks, drawing, inventories, using items, identifying (IDENT).

OWNER: the magic & items work (issue 3). Hooks the rest of the engine calls (keep the names):
- ``setup_items(g, carried)``: at set-up, build and shuffle the decks (stream "decks") and give the
  heroes the items they carry in (``carried``: per hero slot, a list of ``(card id, known)``).
- ``draw(g, deck) -> int``: the next card of a deck as a new item slot (-1 if the deck is empty);
  ``create(g, card_id) -> int``: a given card as a new item slot; ``give(g, item, unit)``.
- ``held(g, u) -> list[int]``: the unit's items in order (ITEM_k is the k-th).
- ``item_actions(g, h, when) -> list[int]``: ITEM_k actions legal now, ``when`` one of "movement",
  "evasion", "explore", "trade"; ``pick_item(g, h, k, when)`` follows an ITEM_k in Movement/Evasion.
- ``end_adventure(g)``: identify everything (R-IDENT-04).
- Decision ITEM_VERB: ``legal_item_verb`` / ``do_item_verb``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from dungeon_env.engine.actions import END

if TYPE_CHECKING:
    from dungeon_env.engine.game import Game


def setup_items(g: Game, carried: list[list[tuple[str, bool]]] | None) -> None:
    return None


def held(g: Game, u: int) -> list[int]:
    return [int(i) for i in np.flatnonzero(g.state.item_holder == u)]


def item_actions(g: Game, h: int, when: str) -> list[int]:
    return []


def pick_item(g: Game, h: int, k: int, when: str) -> None:
    """The hero picked its k-th item (ITEM_k) in the Movement or Evasion phase: ask the verb."""
    return None


def end_adventure(g: Game) -> None:
    return None


def legal_item_verb(g: Game, unit: int, a: int, b: int) -> list[int]:
    return [END]


def do_item_verb(g: Game, unit: int, a: int, b: int, action: int) -> None:
    return None
