"""Mental Combat (MENT): each side rolls a d6 and adds 0-3 Magic it bids (+1 Iron-Willed); the
higher total wins; what a tie does depends on the effect.

The aggressor bids first (a MENTAL_BID decision with ``a`` = the defender, ``b`` = -1), then the
defender (``a`` = the aggressor, ``b`` = the aggressor's bid, so the defender sees it, R-MENT-03).
Bids are paid at once, win or lose (R-MENT-02). ``state.mental`` holds the combat in progress:
``[aggressor, defender, aggressor's bid, purpose]``.

Purposes: a Mental Combat spell (``PURPOSE_SPELL``: the spell's resolution goes on in
``spells.after_mental``, which ``decisions.MENTAL_OUTCOMES`` calls with the result ``do_bid``
returns), or the Mind Lash of a monster with the ``mental_combat`` ability
(``PURPOSE_LASH``): at the start of each Spell Resolution (2.5), before the heroes' spells, every
awake monster with the ability that is not asleep attacks the nearest hero it can see within
6 squares (``rules.lash_range``; path distance, A-39; ties in reading order). If the monster wins,
the hero loses 2 Health (``rules.lash_damage``) under the Death's Door rules; a tie or a loss does
nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dungeon_env.engine import effects
from dungeon_env.engine.actions import SPEND_0, Decision
from dungeon_env.engine.state import ACTIVE, MENTAL_BID, MENTAL_PURPOSE
from dungeon_env.engine.tables import path_distances
from dungeon_env.engine.units import (
    active_heroes,
    active_monsters,
    check_corpses,
    has_trait,
    hurt_hero,
    label,
)
from dungeon_env.engine.visibility import sees

if TYPE_CHECKING:
    from dungeon_env.engine.context import Context

PURPOSE_SPELL, PURPOSE_LASH = 0, 1
ABILITY = "mental_combat"
AGGRESSOR_WINS, TIE, DEFENDER_WINS = 1, 0, -1


def start(g: Context, aggressor: int, defender: int, purpose: int) -> None:
    """Begin a Mental Combat: the aggressor is asked its bid first."""
    g.state.mental = [aggressor, defender, -1, purpose]
    g.push(Decision.MENTAL_BID, aggressor, defender, -1)


def legal_bid(g: Context, unit: int, a: int, b: int) -> list[int]:
    return [SPEND_0 + k for k in range(min(g.rules.mental_bid_max, int(g.state.magic[unit])) + 1)]


def do_bid(g: Context, unit: int, a: int, b: int, action: int) -> tuple[int, int, int, int] | None:
    """A bid is made: the defender is asked next, or the duel is rolled and its outcome returned as
    ``(purpose, aggressor, defender, result)`` for the purpose's continuation (``decisions``
    routes it: a spell lands or not, a Mind Lash hurts or not)."""
    s = g.state
    bid = action - SPEND_0
    s.magic[unit] -= bid  # paid whatever the outcome (R-MENT-02)
    if b < 0:
        s.mental[MENTAL_BID] = bid
        g.push(Decision.MENTAL_BID, a, unit, bid)
        return None
    purpose = s.mental[MENTAL_PURPOSE]
    s.mental = []
    return purpose, a, unit, roll(g, a, unit, b, bid)


def modifiers(g: Context, u: int, bid: int) -> dict[str, int]:
    mods = {}
    if u < g.state.n_heroes and has_trait(g, u, "iron_willed"):
        mods["iron_willed"] = 1  # R-MENT-04
    if bid:
        mods["magic"] = bid
    return mods


def roll(g: Context, a: int, b: int, a_bid: int, b_bid: int) -> int:
    """One d6 each (the aggressor's first), plus modifiers; logs a ``mental`` event and returns
    AGGRESSOR_WINS, TIE or DEFENDER_WINS (R-MENT-01)."""
    a_mods, b_mods = modifiers(g, a, a_bid), modifiers(g, b, b_bid)
    a_dice, b_dice = g.dice.roll("misc", 1), g.dice.roll("misc", 1)
    a_score, b_score = sum(a_mods.values()), sum(b_mods.values())
    a_total, b_total = a_dice[0] + a_score, b_dice[0] + b_score
    result = AGGRESSOR_WINS if a_total > b_total else (DEFENDER_WINS if b_total > a_total else TIE)
    g.log(
        {
            "type": "mental",
            "a": label(g, a),
            "b": label(g, b),
            "a_dice": a_dice,
            "b_dice": b_dice,
            "a_modifiers": a_mods,
            "b_modifiers": b_mods,
            "a_score": a_score,
            "b_score": b_score,
            "a_total": a_total,
            "b_total": b_total,
            "winner": {AGGRESSOR_WINS: label(g, a), DEFENDER_WINS: label(g, b), TIE: None}[result],
            "turn": g.state.turn,
        }
    )
    return result


# ------------------------------------------------------------------------------------------- Mind Lash


def lashers(g: Context) -> list[int]:
    """Monsters that attack minds this Spell Resolution, in reading order."""
    s = g.state
    return [
        m
        for m in active_monsters(g)
        if ABILITY in g.card(m).abilities and not s.inactive[m] and not effects.asleep(g, m)
    ]


def lash_target(g: Context, m: int) -> int:
    """The nearest hero the monster sees within ``rules.lash_range`` squares (ties: reading order), or -1."""
    s = g.state
    reach = g.rules.lash_range
    here = int(s.unit_pos[m])
    dist = path_distances(g.tables, [here], s.door_open)
    near = [
        (dist[int(s.unit_pos[h])], int(s.unit_pos[h]), h)
        for h in active_heroes(g)
        if dist[int(s.unit_pos[h])] <= reach and sees(g, here, int(s.unit_pos[h]))
    ]
    return min(near)[2] if near else -1


def monster_attack(g: Context, m: int) -> None:
    """The monster's Mind Lash, if it is still on the board and a hero is in reach."""
    s = g.state
    if s.unit_status[m] != ACTIVE:
        return
    h = lash_target(g, m)
    if h < 0:
        return
    g.log({"type": "mind_lash", "unit": label(g, m), "target": label(g, h), "turn": s.turn})
    start(g, m, h, PURPOSE_LASH)


def lash_lands(g: Context, m: int, h: int, result: int) -> None:
    """A Mind Lash's duel is decided: the hero loses Health if the monster won."""
    if result != AGGRESSOR_WINS:
        return
    hurt_hero(g, h, g.rules.lash_damage, label(g, m), (label(g, m),))
    check_corpses(g)
    if not active_heroes(g):
        g.check_end()
