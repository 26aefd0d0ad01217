"""Monsters appearing: Surprise (SURP), Patrols (MON-04..08) and Ambushers (MON-09)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from dungeon_env.engine.actions import Phase
from dungeon_env.engine.board import free
from dungeon_env.engine.casting import fail_spell, is_casting
from dungeon_env.engine.state import ACTIVE, How
from dungeon_env.engine.tables import UNREACHABLE, path_distances
from dungeon_env.engine.units import active_heroes, has_trait, label, place_monster

if TYPE_CHECKING:
    from dungeon_env.engine.context import Context


def encounter(g: Context, group: list[int], how: How, unsurprisable: bool = False) -> None:
    """Newly placed monsters meet the heroes.

    Surprise is rolled only when this starts the combat sequence, except that Ambushers always
    make every hero roll (ruling A-26). If no hero is surprised, the group is (A-27), unless it was
    revealed by an alerted door (R-SURP-13) or is an Ambusher group (R-SURP-12); surprised monsters
    skip the first Monsters' Movement that follows (A-25).
    """
    s = g.state
    starting = not g.monsters_besides(group)
    if starting:
        g.log({"type": "combat_start", "turn": s.turn})
    if how == How.AMBUSH:
        for h in active_heroes(g):
            _surprise_roll(g, h, ambush=True)
        return
    if not starting:
        return
    surprised_any = False
    for h in active_heroes(g):
        surprised_any |= _surprise_roll(g, h, ambush=False)
    if not surprised_any and not unsurprisable:
        for u in group:
            s.skip_move[u] = True
        g.log({"type": "monsters_surprised", "units": [label(g, u) for u in group], "turn": s.turn})


def _surprise_roll(g: Context, h: int, ambush: bool) -> bool:
    """Surprised on a total of 1-2 (``rules.surprise_max``); facing Ambushers, unless 6
    (``rules.ambush_ready_min``). Perceptive +1, Light 0 -1 (``light.dark_penalty``)."""
    s, r = g.state, g.rules
    modifiers = {}
    if has_trait(g, h, "perceptive"):
        modifiers["perceptive"] = 1
    if s.light == 0 and r.light_dark_penalty:
        modifiers["light"] = -r.light_dark_penalty
    if ambush:
        ready = r.ambush_ready_min

        def ambush_result(t: int) -> str:
            return "surprised" if t < ready else "ready"

        total = g.check("ambush_surprise", label(g, h), "surprise", modifiers, ambush_result)
        is_surprised = total < ready
    else:
        top = r.surprise_max
        total = g.check(
            "surprise", label(g, h), "surprise", modifiers, lambda t: "surprised" if t <= top else "ready"
        )
        is_surprised = total <= top
    if is_surprised:
        s.surprised[h] = True
        s.surprise_until[h] = max(int(s.surprise_until[h]), surprise_lasts_until(g))
        if s.phase in (Phase.HERO_MOVEMENT, Phase.EVASION):
            s.move_done[h] = True  # forgoes the rest of its Movement or Evasion (R-SURP-05/06)
            s.move_left[h] = 0
        if is_casting(g, h):
            fail_spell(g, h, "surprised")  # a surprised hero cannot cast (R-SURP-06)
    return is_surprised


def surprise_lasts_until(g: Context) -> int:
    """The last turn of a Surprise rolled now: this one, or the next when it is rolled after this
    turn's Movement and combat sub-steps (an ambush in the Explore phase, ruling A-25 revised), so
    that it lasts through the first turn of combat with the monsters that caused it."""
    s = g.state
    return s.turn + (1 if s.phase >= Phase.SPELL_RESOLUTION else 0)


def patrols_relevant(g: Context) -> bool:
    """No more Patrol rolls once every room that counts has been revealed: not secret, with an
    ordinary door (R-MON-07 revised, ``Tables.patrol_rooms``)."""
    return not bool(g.state.revealed[g.tables.patrol_rooms].all())


def patrol_monsters_on_board(g: Context) -> int:
    """The Patrol monsters still fighting (for ``rules.patrol_board_max``)."""
    s = g.state
    return int(np.count_nonzero((s.unit_how == How.PATROL) & (s.unit_status == ACTIVE)))


def patrols_paused(g: Context) -> bool:
    """The variant key ``rules.patrol_board_max`` (0 by the rules: never): no Patrol rolls while at
    least that many Patrol monsters are on the board."""
    top = g.rules.patrol_board_max
    return top > 0 and patrol_monsters_on_board(g) >= top


def roll_patrols(g: Context) -> None:
    """Turn Start: one d6 per corridor that held a hero at the previous Turn End; a 1 brings a
    fresh copy of the Patrol set into that corridor (R-MON-04..06, rulings A-05..A-07; a roll of at
    most ``rules.patrol_max``; none while ``patrols_paused``)."""
    s, t = g.state, g.tables
    if s.turn == 1 or not t.adventure.patrol:
        return
    top = g.rules.patrol_max
    for area in s.patrol_corridors.nonzero()[0].tolist():
        if not patrols_relevant(g) or patrols_paused(g):
            return
        appears = g.check("patrol", "dm", "patrol", {}, lambda v: "appears" if v <= top else "none") <= top
        if appears:
            spawn_patrol(g, area)


def spawn_patrol(g: Context, area: int) -> list[int]:
    s, t = g.state, g.tables
    squares = [int(q) for q in t.area_squares[area] if free(g, int(q))]
    heroes = active_heroes(g)
    if not squares or not heroes:
        return []
    dist = path_distances(g.tables, [int(s.unit_pos[h]) for h in heroes], s.door_open)
    reachable = [q for q in squares if dist[q] < UNREACHABLE]
    if not reachable:
        return []
    first = max(reachable, key=lambda q: (dist[q], -q))
    members = _nearest_free_in_area(g, first, area, len(t.adventure.patrol))
    group = []
    for monster_id, sq in zip(t.adventure.patrol, members, strict=False):
        u = place_monster(g, monster_id, sq, How.PATROL)
        if u >= 0:
            group.append(u)
    if group:
        encounter(g, group, How.PATROL)
    return group


def _nearest_free_in_area(g: Context, start: int, area: int, count: int) -> list[int]:
    """Free squares of ``area`` in order of walking distance from ``start`` (ties: reading order)."""
    dist = path_distances(g.tables, [start], g.state.door_open)
    candidates = [int(q) for q in g.tables.area_squares[area] if free(g, int(q)) and dist[q] < UNREACHABLE]
    candidates.sort(key=lambda q: (dist[q], q))
    return candidates[:count]


def trigger_ambushes(g: Context, h: int) -> None:
    """The first time a hero enters an area with an ambush, its Ambushers spawn (R-MON-09)."""
    s, t = g.state, g.tables
    area = t.area[s.unit_pos[h]]
    char = t.area_char(int(area))
    for i, ambush in enumerate(t.adventure.ambushes):
        if s.ambush_fired[i] or ambush.area != char:
            continue
        s.ambush_fired[i] = True
        group = []
        for monster_id, (x, y) in zip(ambush.monsters, ambush.at, strict=True):
            sq = g.square(x, y)
            if not free(g, sq):
                spots = _nearest_free_in_area(g, sq, int(area), 1)
                if not spots:
                    continue
                sq = spots[0]
            u = place_monster(g, monster_id, sq, How.AMBUSH)
            if u >= 0:
                group.append(u)
        if group:
            encounter(g, group, How.AMBUSH)
