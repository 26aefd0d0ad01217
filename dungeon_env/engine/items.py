"""Items in play: which items may be used or identified now, using them, identifying (IDENT).

The decks, slots and holders are ``inventory`` (imported here, not the other way round).

Hooks the rest of the engine calls (keep the names):
- ``item_actions(g, h, when) -> list[int]``: ITEM_k actions legal now, ``when`` one of "movement",
  "evasion", "explore", "trade"; ``pick_item(g, h, k, when)`` follows an ITEM_k: it asks the verb
  (ITEM_VERB with ``a`` = the item slot, ``b`` = the index of ``when`` in ITEM_MOMENTS).
- Decision ITEM_VERB: ``legal_item_verb`` / ``do_item_verb``. Verbs by moment: Movement and
  Evasion: USE; Explore: USE, MEMORIZE (scrolls), IDENTIFY; Trade: GIVE (which pushes CHOOSE_TARGET
  with ``a`` = TARGET_GIVE, ``b`` = the item, resolved by ``trade``); BACK always (nothing happens,
  and the item is not offered again this phase). An item is offered (ITEM_k) only if some verb
  is legal.
- Using an item that targets an ally (the holder or a hero next to it) asks CHOOSE_TARGET with
  ``a`` = TARGET_ITEM, ``b`` = the item (candidates ``item_targets``; ``finish_use`` once chosen,
  routed by ``decisions``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dungeon_env.engine import effects, spells
from dungeon_env.engine.actions import (
    BACK,
    GIVE,
    IDENTIFY,
    IN_EVASION,
    IN_EXPLORE,
    IN_MOVEMENT,
    IN_TRADE,
    ITEM_0,
    MAX_ITEMS_HELD,
    MEMORIZE,
    TARGET_GIVE,
    TARGET_ITEM,
    USE,
    Decision,
)
from dungeon_env.engine.board import heroes_beside
from dungeon_env.engine.inventory import card_of, destroy, held, reveal
from dungeon_env.engine.state import ACTIVE
from dungeon_env.engine.units import has_trait, label

if TYPE_CHECKING:
    from dungeon_env.engine.context import Context

ITEM_MOMENTS = (IN_MOVEMENT, IN_EVASION, IN_EXPLORE, IN_TRADE)  # ITEM_VERB's ``b``


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
    if when not in (IN_MOVEMENT, IN_EVASION, IN_EXPLORE):
        return False
    if not known:
        return card.deck == "potions"  # unidentified: potions may be drunk, magic items not
    if card.use == "passive" or card.effect is None or card.timing == "campaign":
        return False
    if card.timing == IN_EXPLORE and when != IN_EXPLORE:
        return False
    if not effects.usable_now(g, card.effect):
        return False  # no trap detection in combat (R-TRAP-08)
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
    if when == IN_TRADE:
        return [GIVE] if not s.gave[h] else []
    if not _may_act(g, h):
        return []
    verbs = [USE] if can_use(g, h, item, when) else []
    if when == IN_EXPLORE:
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
    g.push(Decision.ITEM_VERB, h, held(g, h)[k], ITEM_MOMENTS.index(when))


def legal_item_verb(g: Context, unit: int, a: int, b: int) -> list[int]:
    """The verbs that apply to the picked item now, and always BACK (picking never commits the hero
    to losing it: issue "destructive single choices", ruling D-08b)."""
    return sorted([*item_verbs(g, unit, a, ITEM_MOMENTS[b]), BACK])


def do_item_verb(g: Context, unit: int, a: int, b: int, action: int) -> None:
    when = ITEM_MOMENTS[b]
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
    if card.timing == "campaign" or (card.timing == IN_EXPLORE and when != IN_EXPLORE):
        g.log({"type": "item_wasted", "unit": label(g, h), "item": item, "card": card.id, "turn": s.turn})
        return
    if known and card.target == "ally" and len(item_targets(g, h)) > 1:
        g.push(Decision.CHOOSE_TARGET, h, TARGET_ITEM, item)
        return
    finish_use(g, h, item, h)


def item_targets(g: Context, h: int) -> list[int]:
    """Who an ally item held by ``h`` may be used on: the holder and the heroes next to it."""
    return heroes_beside(g, h)


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
