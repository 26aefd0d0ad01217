"""Adventure goals: which objectives are met, and how the adventure ends (END, ruling D-01)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dungeon_env.engine.state import ACTIVE, EXITED

if TYPE_CHECKING:
    from dungeon_env.engine.game import Game


def objective_met(g: Game, index: int) -> bool:
    s, t = g.state, g.tables
    obj = t.adventure.objectives[index]
    if obj.kind == "escape":
        return any(s.unit_status[h] == EXITED for h in range(s.n_heroes))
    if obj.kind == "slay":
        guard = next(i for i, gd in enumerate(t.adventure.guards) if gd.at == obj.at)
        return bool(s.guard_slain[guard])
    if obj.kind == "reach":
        return bool(s.visited[t.board.area_names.index(obj.area)])
    raise ValueError(f"unknown objective kind {obj.kind!r}")


def objectives_report(g: Game) -> list[dict]:
    return [
        {"kind": o.kind, "text": o.text, "primary": o.primary, "met": objective_met(g, i)}
        for i, o in enumerate(g.tables.adventure.objectives)
    ]


def ending(g: Game) -> tuple[str, str] | None:
    """``(outcome, reason)`` once no hero is left on the board, else None.

    The adventure is completed when every surviving hero has left the dungeon (R-END-01) with the
    adventure's primary goals met; leaving without them is a failure (ruling D-01, docs/RULINGS.md).
    """
    s = g.state
    statuses = [s.unit_status[h] for h in range(s.n_heroes)]
    if any(st == ACTIVE for st in statuses):
        return None
    if not any(st == EXITED for st in statuses):
        return "failed", "every hero is dead"
    missing = [
        o.text
        for i, o in enumerate(g.tables.adventure.objectives)
        if o.primary and o.kind != "escape" and not objective_met(g, i)
    ]
    if missing:
        return "failed", "the heroes left the dungeon without completing: " + "; ".join(missing)
    return "completed", "every surviving hero left the dungeon with the goal met"
