"""Inventory basics: the five decks, item slots, who holds what, identification (IDENT).

The bottom of the item rules, imported by every mechanic that moves or reads items (``items`` for
using them, ``spells`` for scrolls, ``explore`` for finding them, ``trade``) and importing none of
them.

- ``setup_items(g, carried)``: at set-up, build and shuffle the decks (stream "decks") and give the
  heroes the items they carry in (``carried``: per hero slot, a list of ``(card id, known)``).
- ``draw(g, deck) -> int``: the next card of a deck as a new item slot (-1 if the deck is empty);
  ``create(g, card_id) -> int``: a given card as a new item slot; ``give(g, item, unit) -> bool``
  (False if the unit already holds ``g.rules.max_items`` items); ``can_hold(g, unit)``;
  ``destroy(g, item)``; ``reveal(g, item, how)`` turns it face up.
- ``held(g, u) -> list[int]``: the unit's items in order (ITEM_k is the k-th).
- ``end_adventure(g)``: identify everything (R-IDENT-04).

Item slots: ``state.item_card`` (-1: a free slot), ``item_holder`` (a unit, ``NOBODY`` = -1 for an
item lying unclaimed, ``DESTROYED`` = -2 for a used-up or lost card), ``item_known`` (face up),
``item_locked`` (an Identify roll of 1: no more tries until the adventure ends, ruling A-43).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from dungeon_env.content.model import DECKS
from dungeon_env.engine.state import MAX_DECK
from dungeon_env.engine.units import label

if TYPE_CHECKING:
    from dungeon_env.content.model import ItemCard
    from dungeon_env.engine.context import Context

NOBODY, DESTROYED = -1, -2


# ------------------------------------------------------------------------------------ decks and slots


def uniform(g: Context, n: int) -> int:
    """A uniform integer in ``0..n-1`` from d6 rolls only (R-BOARD-03): base-6 digits, redrawn when
    they fall above the largest multiple of ``n``."""
    if n <= 1:
        return 0
    digits, limit = _base6_draw(n)
    d6 = g.dice.d6
    while True:
        value = 0
        for _ in range(digits):
            value = value * 6 + d6("decks") - 1
        if value < limit:
            return value % n


@lru_cache(maxsize=256)
def _base6_draw(n: int) -> tuple[int, int]:
    """How many d6 digits a draw in ``0..n-1`` takes, and the bound below which a draw is kept."""
    digits = 1
    while 6**digits < n:
        digits += 1
    span = 6**digits
    return digits, span - span % n


def _shuffle(g: Context, cards: list[int]) -> list[int]:
    """Fisher-Yates with d6-made uniform draws."""
    for i in range(len(cards) - 1, 0, -1):
        j = uniform(g, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def setup_items(g: Context, carried: list[list[tuple[str, bool]]] | None) -> None:
    """Build and shuffle the five decks, then hand the heroes the items they carry in."""
    s = g.state
    unshuffled = {deck: [] for deck in DECKS}  # each card's copies, in catalogue order
    for i, card in enumerate(g.item_cards):
        if card.deck in unshuffled:
            unshuffled[card.deck].extend([i] * card.copies)
    # The shuffle draws from the "decks" stream itself, never from faces a test forced (those are meant
    # for the game's checks; a test that needs a deck order sets state.deck_cards).
    with g.dice.unforced():
        for d, deck in enumerate(DECKS):
            cards = _shuffle(g, unshuffled[deck])[:MAX_DECK]
            s.deck_cards[d, :] = -1
            s.deck_cards[d, : len(cards)] = cards
            s.deck_next[d] = 0
    for u, items in enumerate(carried or []):
        for card_id, known in items:
            slot = create(g, card_id)
            if slot >= 0:
                s.item_known[slot] = bool(known) or not g.item_cards[g.item_index[card_id]].face_down
                give(g, slot, u)


def create(g: Context, card_id: str) -> int:
    """A new item slot holding a copy of the card (face down for potions, scrolls and magic items,
    R-IDENT-01), held by nobody; -1 if every slot is taken."""
    s = g.state
    free = np.flatnonzero(s.item_card < 0)
    if len(free) == 0:
        return -1
    slot = int(free[0])
    card = g.item_index[card_id]
    s.item_card[slot] = card
    s.item_holder[slot] = NOBODY
    s.item_known[slot] = not g.item_cards[card].face_down
    s.item_locked[slot] = False
    s.item_claimed[slot] = False
    s.item_used_turn[slot] = 0
    return slot


def draw(g: Context, deck: str) -> int:
    """The top card of ``deck`` as a new item slot held by nobody; -1 if the deck is empty (decks are
    not reshuffled)."""
    s = g.state
    d = DECKS.index(deck)
    nxt = int(s.deck_next[d])
    if nxt >= MAX_DECK or s.deck_cards[d, nxt] < 0:
        return -1
    slot = create(g, g.item_cards[int(s.deck_cards[d, nxt])].id)
    if slot >= 0:
        s.deck_next[d] = nxt + 1
        g.log(
            {
                "type": "draw",
                "deck": deck,
                "item": slot,
                "card": g.item_cards[int(s.item_card[slot])].id,
                "turn": s.turn,
            }
        )
    return slot


def held(g: Context, u: int) -> list[int]:
    return (g.state.item_holder == u).nonzero()[0].tolist()


def can_hold(g: Context, u: int) -> bool:
    """Room for one more item: at most 12 (``rules.max_items``, ruling D-M17)."""
    return len(held(g, u)) < g.rules.max_items


def give(g: Context, item: int, unit: int) -> bool:
    """``unit`` now holds the item; False (nothing changes) if it already holds the most it can."""
    if not can_hold(g, unit):
        return False
    g.state.item_holder[item] = unit
    if unit < g.state.n_heroes:
        g.state.item_claimed[item] = True  # a hero has held it (claim objectives)
    return True


def destroy(g: Context, item: int) -> None:
    g.state.item_holder[item] = DESTROYED


def card_of(g: Context, item: int) -> ItemCard:
    return g.item_cards[int(g.state.item_card[item])]


def reveal(g: Context, item: int, how: str) -> None:
    """The item turns face up (identified)."""
    s = g.state
    if s.item_known[item]:
        return
    s.item_known[item] = True
    s.item_locked[item] = False
    holder = int(s.item_holder[item])
    g.log(
        {
            "type": "item_identified",
            "item": item,
            "card": card_of(g, item).id,
            "unit": label(g, holder) if holder >= 0 else None,
            "how": how,
            "turn": s.turn,
        }
    )


def end_adventure(g: Context) -> None:
    """Every item still unidentified is identified at the adventure's end (R-IDENT-04, R-END-04)."""
    s = g.state
    for item in np.flatnonzero((s.item_card >= 0) & (s.item_holder != DESTROYED)):
        reveal(g, int(item), "adventure_end")
    s.item_locked[:] = False
