"""The Trade phase (TRADE): each hero gives and receives at most one item, within one room or
corridor or between heroes side by side; items may be taken from a corpse there (A-45).

Heroes are asked in slot order (HERO_ACT, ``act_todo`` holds the heroes still to ask): ITEM_k picks
an item to give (``items.pick_item`` asks the verb GIVE, then pushes CHOOSE_TARGET with purpose
TARGET_GIVE: the receiver), LOOT takes an item from a corpse in the same area (CHOOSE_TARGET with
purpose TARGET_LOOT: the item), END passes to the next hero. Trading is the one activity a
resting hero may do (R-TRADE-03): nothing here breaks Rest.

OWNER: the dungeon work (issue 3). Hooks: ``begin_trade(g)`` / ``resume_trade(g)`` run phase 4 and
end with ``g.goto(Phase.TURN_END)``. In the Trade phase ``decisions`` routes the HERO_ACT decision
here (``legal_trade_act`` / ``do_trade_act``, and ``giving_items`` for ITEM_k), and the choices of
CHOOSE_TARGET with purpose TARGET_GIVE (``receivers``, ``give_to``) or TARGET_LOOT
(``corpse_items``, ``loot``).

Events: ``trade`` ``{from, to, item, turn}`` and ``loot`` ``{unit, corpse, item, turn}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dungeon_env.engine import inventory, items
from dungeon_env.engine.actions import (
    END,
    IN_TRADE,
    LOOT,
    MAX_TARGETS,
    TARGET_LOOT,
    Decision,
    Phase,
)
from dungeon_env.engine.state import ACTIVE, CORPSE
from dungeon_env.engine.units import active_heroes, any_monster, label, together

if TYPE_CHECKING:
    from dungeon_env.engine.context import Context


def begin_trade(g: Context) -> None:
    """Step 4, outside combat only (R-TURN-13, R-TRADE-03)."""
    s = g.state
    s.act_todo = [] if any_monster(g) else active_heroes(g)
    resume_trade(g)


def resume_trade(g: Context) -> None:
    s = g.state
    if s.outcome:
        return
    while s.act_todo:
        h = s.act_todo[0]
        if s.unit_status[h] == ACTIVE:
            g.push(Decision.HERO_ACT, h)
            return
        s.act_todo.pop(0)
    g.goto(Phase.TURN_END)


def receivers(g: Context, h: int) -> list[int]:
    """Heroes that may receive from ``h``: on the board in its room or corridor, or side by side
    with it (R-TRADE-02 revised), and not received yet."""
    s = g.state
    return [
        r
        for r in active_heroes(g)
        if r != h and not s.received[r] and together(g, h, r) and _room_for_one(g, r)
    ][:MAX_TARGETS]


def _room_for_one(g: Context, h: int) -> bool:
    return inventory.can_hold(g, h)


def corpse_items(g: Context, h: int) -> list[tuple[int, int]]:
    """``(corpse, item)`` pairs a hero may loot: items on hero corpses in its room or corridor, or
    next to it (as for trading)."""
    s = g.state
    found = [
        (c, item)
        for c in range(s.n_heroes)
        if s.unit_status[c] == CORPSE and together(g, h, c)
        for item in inventory.held(g, c)
    ]
    return found[:MAX_TARGETS]


def legal_trade_act(g: Context, unit: int, a: int, b: int) -> list[int]:
    """END, and LOOT if a corpse near the hero holds an item it may take."""
    s = g.state
    acts = [END]
    if not s.received[unit] and _room_for_one(g, unit) and corpse_items(g, unit):
        acts.append(LOOT)
    return acts


def giving_items(g: Context, unit: int, a: int, b: int) -> list[int]:
    """ITEM_k for the items the hero may give now: it gave nothing yet and a hero may receive."""
    if g.state.gave[unit] or not receivers(g, unit):
        return []
    return items.item_actions(g, unit, IN_TRADE)


def do_trade_act(g: Context, unit: int, a: int, b: int, action: int) -> None:
    s = g.state
    if action == END:
        if s.act_todo and s.act_todo[0] == unit:
            s.act_todo.pop(0)
    elif action == LOOT:
        g.push(Decision.CHOOSE_TARGET, unit, TARGET_LOOT, -1)


def give_to(g: Context, unit: int, item: int, to: int) -> None:
    """GIVE: the item goes to the chosen receiver (R-TRADE-01/02)."""
    s = g.state
    inventory.give(g, item, to)
    s.gave[unit] = True
    s.received[to] = True
    g.log({"type": "trade", "from": label(g, unit), "to": label(g, to), "item": item, "turn": s.turn})


def loot(g: Context, unit: int, found: tuple[int, int]) -> None:
    """LOOT: the chosen ``(corpse, item)``'s item goes to the looter, which counts as its receive
    (R-TRADE-04, A-45)."""
    s = g.state
    corpse, item = found
    inventory.give(g, item, unit)
    s.received[unit] = True
    event = {"type": "loot", "unit": label(g, unit), "corpse": label(g, corpse), "item": item}
    g.log({**event, "turn": s.turn})
