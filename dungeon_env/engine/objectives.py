"""Adventure goals: which objectives are met, and how the adventure ends (END, A-55).

Kinds: ``escape`` (a hero left by an exit), ``slay`` (the guard on ``at`` is slain), ``reach`` (a
hero stood in ``area``), ``retrieve`` (an item of card ``item`` was carried out of the dungeon, by a
hero or on a corpse dragged out), ``claim`` (a hero has held an item of card ``item``: taken, found or
looted), ``rescue`` (a hero explored ``area`` in an Explore phase and the party then escapes: a hero
has left by an exit).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dungeon_env.engine.state import ACTIVE, CORPSE_OUT, EXITED

if TYPE_CHECKING:
    from dungeon_env.engine.context import Context


def objective_met(g: Context, index: int) -> bool:
    s, t = g.state, g.tables
    obj = t.adventure.objectives[index]
    if obj.kind == "escape":
        return any(s.unit_status[h] == EXITED for h in range(s.n_heroes))
    if obj.kind == "slay":
        guard = next(i for i, gd in enumerate(t.adventure.guards) if gd.at == obj.at)
        return bool(s.guard_slain[guard])
    if obj.kind == "reach":
        return bool(s.visited[t.board.area_names.index(obj.area)])
    if obj.kind == "retrieve":
        return _carried_out(g, g.item_index.get(obj.item, -1))
    if obj.kind == "claim":
        card = g.item_index.get(obj.item, -1)
        return bool((s.item_claimed & (s.item_card == card)).any())
    if obj.kind == "rescue":
        explored = s.explored_bits >> t.board.area_names.index(obj.area) & 1
        return bool(explored) and any(s.unit_status[h] == EXITED for h in range(s.n_heroes))
    raise ValueError(f"unknown objective kind {obj.kind!r}")


def _carried_out(g: Context, card: int) -> bool:
    """An item of catalogue card ``card`` is held by a hero who left the dungeon, or by a corpse
    carried out (its gear goes back to the party, R-DEATH-05)."""
    s = g.state
    out = {h for h in range(s.n_heroes) if s.unit_status[h] in (EXITED, CORPSE_OUT)}
    return card >= 0 and any(
        int(s.item_holder[i]) in out for i in range(len(s.item_card)) if s.item_card[i] == card
    )


def objectives_report(g: Context) -> list[dict]:
    return [
        {"kind": o.kind, "text": o.text, "primary": o.primary, "met": objective_met(g, i)}
        for i, o in enumerate(g.tables.adventure.objectives)
    ]


def goals_met(g: Context) -> bool:
    """Every primary objective of the adventure is met (R-END-03: reported beside the outcome)."""
    return all(objective_met(g, i) for i, o in enumerate(g.tables.adventure.objectives) if o.primary)


def ending(g: Context) -> tuple[str, str] | None:
    """``(outcome, reason)`` once no hero is left on the board, else None.

    The adventure is completed when every surviving hero has left the dungeon (R-END-01), whether or
    not its goals were met: each goal is reported met or not met beside the outcome (R-END-03). It
    fails when every hero is dead (R-END-05), except that in the final adventure a party that met
    the primary goals and died doing it has completed it (A-55, R-CAMP-05).
    """
    s = g.state
    statuses = s.unit_status[: s.n_heroes].tolist()
    if ACTIVE in statuses:
        return None
    met = goals_met(g)
    if not any(st == EXITED for st in statuses):
        if g.tables.adventure.final and met:
            return "completed", "the heroes gave their lives to complete the final adventure"
        return "failed", "every hero is dead"
    if met:
        return "completed", "every surviving hero left the dungeon with the goals met"
    missing = [
        o.text for i, o in enumerate(g.tables.adventure.objectives) if o.primary and not objective_met(g, i)
    ]
    return "completed", "every surviving hero left the dungeon; goals not met: " + "; ".join(missing)
