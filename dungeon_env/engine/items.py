"""Items: the five decks, drawing, inventories, using items, identifying (IDENT).

Hooks the rest of the engine calls (keep the names):
- ``setup_items(g, carried)``: at set-up, build and shuffle the decks (stream "decks") and give the
  heroes the items they carry in (``carried``: per hero slot, a list of ``(card id, known)``).
- ``draw(g, deck) -> int``: the next card of a deck as a new item slot (-1 if the deck is empty);
  ``create(g, card_id) -> int``: a given card as a new item slot; ``give(g, item, unit) -> bool``
  (False if the unit already holds ``g.rules.max_items`` items); ``can_hold(g, unit)``;
  ``destroy(g, item)``.
- ``held(g, u) -> list[int]``: the unit's items in order (ITEM_k is the k-th).
- ``item_actions(g, h, when) -> list[int]``: ITEM_k actions legal now, ``when`` one of "movement",
  "evasion", "explore", "trade"; ``pick_item(g, h, k, when)`` follows an ITEM_k: it asks the verb
  (ITEM_VERB with ``a`` = the item slot, ``b`` = the index of ``when`` in WHEN).
- ``end_adventure(g)``: identify everything (R-IDENT-04).
- Decision ITEM_VERB: ``legal_item_verb`` / ``do_item_verb``. Verbs by moment: Movement and
  Evasion: USE; Explore: USE, MEMORIZE (scrolls), IDENTIFY; Trade: GIVE (which pushes CHOOSE_TARGET
  with ``a`` = TARGET_GIVE, ``b`` = the item, resolved by ``trade``); BACK always (nothing happens,
  and the item is not offered again this phase). An item is offered (ITEM_k) only if some verb
  is legal.
- Using an item that targets an ally (the holder or a hero next to it) asks CHOOSE_TARGET with
  ``a`` = TARGET_ITEM, ``b`` = the item (``legal_item_target`` / ``do_item_target``).

Item slots: ``state.item_card`` (-1: a free slot), ``item_holder`` (a unit, ``NOBODY`` = -1 for an
item lying unclaimed, ``DESTROYED`` = -2 for a used-up or lost card), ``item_known`` (face up),
``item_locked`` (an Identify roll of 1: no more tries until the adventure ends, ruling A-43).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from dungeon_env.content.model import DECKS
from dungeon_env.engine import effects, spells
from dungeon_env.engine.actions import (
    BACK,
    GIVE,
    IDENTIFY,
    ITEM_0,
    MAX_ITEMS_HELD,
    MEMORIZE,
    TARGET_0,
    TARGET_GIVE,
    TARGET_ITEM,
    USE,
    Decision,
)
from dungeon_env.engine.board import heroes_beside
from dungeon_env.engine.state import ACTIVE, MAX_DECK, MAX_ITEMS
from dungeon_env.engine.units import has_trait, label

if TYPE_CHECKING:
    from dungeon_env.content.model import ItemCard
    from dungeon_env.engine.context import Context

WHEN = ("movement", "evasion", "explore", "trade")
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


# ---------------------------------------------------------------------------------------- legality


def _may_act(g: Context, h: int) -> bool:
    """A hero on the board that is not surprised may use items (R-SURP-06)."""
    s = g.state
    return h < s.n_heroes and s.unit_status[h] == ACTIVE and not s.surprised[h]


def can_use(g: Context, h: int, item: int, when: str) -> bool:
    """USE is legal for this item now (timing A-58; R-IDENT-05/06; scrolls follow their spell)."""
    s = g.state
    card = card_of(g, item)
    known = bool(s.item_known[item])
    if card.deck == "spells":
        return spells.can_cast_scroll(g, h, item, when)
    if when not in ("movement", "evasion", "explore"):
        return False
    if not known:
        return card.deck == "potions"  # unidentified: potions may be drunk, magic items not
    if card.use == "passive" or card.effect is None or card.timing == "campaign":
        return False
    if card.timing == "explore" and when != "explore":
        return False
    return not (card.use == "reusable" and s.item_used_turn[item] == s.turn)


def can_identify(g: Context, h: int, item: int) -> bool:
    """A Learned hero, once per Explore phase, an unidentified item not locked by a 1 (R-IDENT-02)."""
    s = g.state
    return (
        has_trait(g, h, "learned")
        and not s.identified[h]
        and not s.item_known[item]
        and not s.item_locked[item]
    )


def item_verbs(g: Context, h: int, item: int, when: str) -> list[int]:
    s = g.state
    if when == "trade":
        return [GIVE] if not s.gave[h] else []
    if not _may_act(g, h):
        return []
    verbs = [USE] if can_use(g, h, item, when) else []
    if when == "explore":
        if spells.can_memorize(g, h, item):
            verbs.append(MEMORIZE)
        if can_identify(g, h, item):
            verbs.append(IDENTIFY)
    return verbs


def item_actions(g: Context, h: int, when: str) -> list[int]:
    """ITEM_k for each item the hero holds that some verb applies to now (k = its place in
    ``held``), except an item it went BACK from in this phase. In the Trade phase every held item,
    if the hero has not given one yet (the ``trade`` module offers them only when there is someone
    to give to)."""
    out = []
    declined = g.state.declined_items[h] if h < g.state.n_heroes else None
    for k, item in enumerate(held(g, h)[:MAX_ITEMS_HELD]):
        if item_verbs(g, h, item, when) and not (declined is not None and declined[item]):
            out.append(ITEM_0 + k)
    return out


def decline(g: Context, h: int, item: int) -> None:
    """BACK: the hero changes its mind about the picked item; nothing happens, and the item is not
    offered to it again in this phase (so every phase still ends, ruling D-08b)."""
    g.state.declined_items[h, item] = True
    g.log({"type": "back", "unit": label(g, h), "item": item, "turn": g.state.turn})


def pick_item(g: Context, h: int, k: int, when: str) -> None:
    """The hero picked its k-th item (ITEM_k): ask what to do with it."""
    g.push(Decision.ITEM_VERB, h, held(g, h)[k], WHEN.index(when))


def legal_item_verb(g: Context, unit: int, a: int, b: int) -> list[int]:
    """The verbs that apply to the picked item now, and always BACK (picking never commits the hero
    to losing it: issue "destructive single choices", ruling D-08b)."""
    return sorted([*item_verbs(g, unit, a, WHEN[b]), BACK])


def do_item_verb(g: Context, unit: int, a: int, b: int, action: int) -> None:
    when = WHEN[b]
    if action == BACK:
        decline(g, unit, a)
    elif action == GIVE:
        g.push(Decision.CHOOSE_TARGET, unit, TARGET_GIVE, a)
    elif action == IDENTIFY:
        identify(g, unit, a)
    elif action == MEMORIZE:
        spells.memorize(g, unit, a)
    else:
        use_item(g, unit, a, when)


# ------------------------------------------------------------------------------------------- actions


def identify(g: Context, h: int, item: int) -> None:
    """Identify roll (R-IDENT-03): 1 never (locked until the adventure ends, A-43), 2-3 not yet,
    4-6 identified (``rules.identify_never_max``, ``rules.identify_min``); an identify_bonus ability
    adds (ruling D-A3). Breaks Rest."""
    s = g.state
    s.identified[h] = True
    s.acted[h] = True
    never, identified = g.rules.identify_never_max, g.rules.identify_min

    def result(total: int) -> str:
        return "never" if total <= never else ("not_yet" if total < identified else "identified")

    total = g.check("identify", label(g, h), "misc", effects.check_modifiers(g, h, "identify"), result)
    if total <= never:
        s.item_locked[item] = True
    elif total >= identified:
        reveal(g, item, "identify")


def use_item(g: Context, h: int, item: int, when: str) -> None:
    """Use an item (A-58; breaks Rest). An unidentified potion or scroll is revealed and its true
    effect resolves (A-44); one whose effect cannot apply now (a revival elixir) stays, revealed."""
    s = g.state
    s.acted[h] = True
    card = card_of(g, item)
    if card.deck == "spells":
        spells.cast_scroll(g, h, item, when)
        return
    known = bool(s.item_known[item])
    reveal(g, item, "use")
    if card.timing == "campaign" or (card.timing == "explore" and when != "explore"):
        g.log({"type": "item_wasted", "unit": label(g, h), "item": item, "card": card.id, "turn": s.turn})
        return
    if known and card.target == "ally" and len(item_targets(g, h)) > 1:
        g.push(Decision.CHOOSE_TARGET, h, TARGET_ITEM, item)
        return
    finish_use(g, h, item, h)


def item_targets(g: Context, h: int) -> list[int]:
    """Who an ally item held by ``h`` may be used on: the holder and the heroes next to it."""
    return heroes_beside(g, h)


def legal_item_target(g: Context, unit: int, a: int, b: int) -> list[int]:
    return [TARGET_0 + k for k in range(len(item_targets(g, unit)))]


def do_item_target(g: Context, unit: int, a: int, b: int, action: int) -> None:
    finish_use(g, unit, b, item_targets(g, unit)[action - TARGET_0])


def finish_use(g: Context, h: int, item: int, target: int) -> None:
    s = g.state
    card = card_of(g, item)
    g.log(
        {
            "type": "item_used",
            "unit": label(g, h),
            "item": item,
            "card": card.id,
            "target": label(g, target) if card.target != "none" else None,
            "turn": s.turn,
        }
    )
    if card.use == "consumable":
        destroy(g, item)
    else:
        s.item_used_turn[item] = s.turn
    effects.apply_effect(g, card.effect, f"item:{card.id}", target if card.target != "none" else h, by=h)


__all__ = [
    "DESTROYED",
    "MAX_ITEMS",
    "NOBODY",
    "WHEN",
    "can_hold",
    "create",
    "destroy",
    "draw",
    "end_adventure",
    "give",
    "held",
    "item_actions",
    "pick_item",
    "setup_items",
]
