"""What heroes can see: revealing rooms and corridors (A-52) and waking Guards (R-MON-02)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from dungeon_env.engine.encounters import encounter
from dungeon_env.engine.state import ACTIVE, How
from dungeon_env.engine.units import active_heroes, place_monster

if TYPE_CHECKING:
    from dungeon_env.engine.context import Context


def sees(g: Context, a: int, b: int) -> bool:
    """Line of sight between two squares given the doors that are closed now."""
    t = g.tables
    return not t.los_static[a, b] and (int(t.los_doors[a, b]) & g.state.closed_bits) == 0


def visible_areas(g: Context, sq: int) -> tuple[int, ...]:
    """Areas with at least one square in sight of ``sq`` (cached per door configuration)."""
    t, closed = g.tables, g.state.closed_bits
    key = (sq, closed)
    cached = g.vis_cache.get(key)
    if cached is None:
        seen = ~t.los_static[sq] & ((t.los_doors[sq] & np.uint64(closed)) == 0)
        cached = tuple(int(a) for a in np.unique(t.area[seen]))
        g.vis_cache[key] = cached
    return cached


def look(g: Context, heroes: list[int], alert: bool = False) -> None:
    """Reveal every area the given heroes can see; place the Guards of newly revealed areas and
    start the encounter. ``alert`` marks monsters revealed by a door flagged by a 1-2 Open Doors
    roll, which cannot be surprised (R-SURP-13)."""
    s = g.state
    new_areas = []
    revealed = s.revealed.tolist()  # read as a list, written to both
    for h in heroes:
        for a in visible_areas(g, int(s.unit_pos[h])):
            if not revealed[a]:
                revealed[a] = s.revealed[a] = True
                new_areas.append(a)
    group = []
    for a in sorted(new_areas):
        g.log({"type": "reveal", "area": g.tables.area_char(a), "turn": s.turn})
        group.extend(_place_guards(g, a))
    if group:
        encounter(g, group, How.GUARD, unsurprisable=alert)
    wake_guards(g, heroes)


def _place_guards(g: Context, area: int) -> list[int]:
    s, t = g.state, g.tables
    placed = []
    for i, guard in enumerate(t.adventure.guards):
        sq = g.square(*guard.at)
        if s.guard_uid[i] >= 0 or t.area[sq] != area or s.occupant[sq] >= 0:
            continue
        u = place_monster(g, guard.monster, sq, How.GUARD)
        if u >= 0:
            s.guard_uid[i] = s.unit_uid[u]
            s.inactive[u] = True
            placed.append(u)
    return placed


def wake_guards(g: Context, heroes: list[int] | None = None) -> None:
    """A Guard acts from the moment any hero has line of sight to it (R-MON-02)."""
    s = g.state
    sleeping = [u for u in s.inactive.nonzero()[0].tolist() if s.unit_status[u] == ACTIVE]
    if not sleeping:
        return
    watchers = active_heroes(g) if heroes is None else heroes
    for u in sleeping:
        if any(sees(g, int(s.unit_pos[h]), int(s.unit_pos[u])) for h in watchers):
            s.inactive[u] = False
            g.log({"type": "guard_alert", "unit": g.label(u), "turn": s.turn})
