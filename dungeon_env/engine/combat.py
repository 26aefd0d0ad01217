"""The Fighting phase (FIGHT, DMG): who fights whom, Stamina declarations, the rolls, and
simultaneous damage.

``state.fights`` holds one row per Fight in resolution order:
``[monster, hero, monster stamina, hero stamina, winner]`` with winner ``-1`` unresolved,
``0`` nobody (a tie), ``1`` the hero, ``2`` the monster.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dungeon_env.engine import effects, spells
from dungeon_env.engine.actions import SPEND_ACTIONS, Decision
from dungeon_env.engine.board import open_side
from dungeon_env.engine.state import (
    ACTIVE,
    FIGHT_H_SPEND,
    FIGHT_HERO,
    FIGHT_M_SPEND,
    FIGHT_MONSTER,
    FIGHT_WINNER,
    SIDE_HERO,
)
from dungeon_env.engine.units import (
    active_heroes,
    active_monsters,
    check_corpses,
    has_trait,
    hurt_hero,
    label,
    slay_monster,
    spend_stamina,
)

if TYPE_CHECKING:
    from dungeon_env.engine.context import Context

UNRESOLVED, TIE, HERO_WON, MONSTER_WON = -1, 0, 1, 2


def gather_fights(g: Context) -> list[list[int]]:
    """Every hero fights every monster orthogonally adjacent to it with no wall or closed door
    between them (R-FIGHT-01). Order: monster square, then hero square, in reading order (A-09)."""

    s = g.state
    fights = []
    for m in active_monsters(g):
        sq = int(s.unit_pos[m])
        heroes = []
        for d in range(4):
            nxt = open_side(g, sq, d)
            if nxt < 0:
                continue
            u = int(s.occupant[nxt])
            if u >= 0 and s.unit_side[u] == SIDE_HERO and s.unit_status[u] == ACTIVE:
                heroes.append(u)
        for h in sorted(heroes, key=lambda u: int(s.unit_pos[u])):
            fights.append([m, h, 0, 0, UNRESOLVED])
    return fights


def enemy_counts(fights: list[list[int]]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for row in fights:
        counts[row[FIGHT_MONSTER]] = counts.get(row[FIGHT_MONSTER], 0) + 1
        counts[row[FIGHT_HERO]] = counts.get(row[FIGHT_HERO], 0) + 1
    return counts


def begin_fighting(g: Context) -> bool:
    """Set up the phase's Fights; returns False if there are none."""
    s = g.state
    s.fights = gather_fights(g)
    s.fight_index = 0
    for row in s.fights:
        s.fought[row[FIGHT_MONSTER]] = s.fought[row[FIGHT_HERO]] = True
    if not s.fights:
        return False
    _ask_stamina(g)
    spells.ask_cast_while_fighting(g)  # casters in a Fight choose first
    return True


def _ask_stamina(g: Context) -> None:
    """The DM declares the monster's Stamina first, then the hero (A-09): the hero's question is
    pushed first so that the DM's is on top of the stack."""
    row = g.state.fights[g.state.fight_index]
    g.push(Decision.FIGHT_STAMINA, row[FIGHT_HERO])
    g.push(Decision.FIGHT_STAMINA, row[FIGHT_MONSTER])


def legal_fight_stamina(g: Context, u: int) -> list[int]:
    s = g.state
    if s.exhausted[u]:
        return [SPEND_ACTIONS[0]]
    return list(SPEND_ACTIONS[: min(g.rules.fight_stamina_max, int(s.stamina[u])) + 1])


def do_fight_stamina(g: Context, u: int, action: int) -> None:
    s = g.state
    amount = action - SPEND_ACTIONS[0]
    row = s.fights[s.fight_index]
    spend_stamina(g, u, amount)
    if u == row[FIGHT_MONSTER]:
        row[FIGHT_M_SPEND] = amount
        return
    row[FIGHT_H_SPEND] = amount
    resolve_fight(g, row)
    s.fight_index += 1
    if s.fight_index < len(s.fights):
        _ask_stamina(g)
    else:
        apply_fight_damage(g)


def hero_modifiers(g: Context, h: int, enemies: int, spend: int) -> dict[str, int]:
    """-1 per enemy beyond the first (``rules.enemy_penalty``), surprised -1, Light 0 -1
    (``light.dark_penalty``), items and effects, Stamina spent."""
    s, r = g.state, g.rules
    mods = {}
    if enemies > 1 and r.enemy_penalty:
        mods["enemies"] = -(enemies - 1) * r.enemy_penalty
    if s.surprised[h]:
        mods["surprised"] = -1
    if s.light == 0 and r.light_dark_penalty:
        mods["light"] = -r.light_dark_penalty
    mods.update(effects.fight_modifiers(g, h))
    if spend:
        mods["stamina"] = spend
    return mods


def monster_modifiers(g: Context, m: int, enemies: int, spend: int) -> dict[str, int]:
    mods = {}
    if enemies > 1 and g.rules.enemy_penalty:
        mods["enemies"] = -(enemies - 1) * g.rules.enemy_penalty
    mods.update(effects.fight_modifiers(g, m))
    if spend:
        mods["stamina"] = spend
    return mods


def resolve_fight(g: Context, row: list[int]) -> None:
    """Each side rolls 2d6 + modified Fighting Score; higher total wins, ties go to a Strong hero,
    otherwise nobody wins (R-FIGHT-06..08)."""
    s = g.state
    counts = enemy_counts(s.fights)
    m, h = row[FIGHT_MONSTER], row[FIGHT_HERO]
    h_mods = hero_modifiers(g, h, counts[h], row[FIGHT_H_SPEND])
    m_mods = monster_modifiers(g, m, counts[m], row[FIGHT_M_SPEND])
    h_dice = [1, 1] if s.double_ones[h] else g.dice.roll("combat", 2)  # keeps casting (R-FIGHT-10)
    m_dice = g.dice.roll("combat", 2)
    h_score = int(s.base_fight[h]) + sum(h_mods.values())
    m_score = int(s.base_fight[m]) + sum(m_mods.values())
    h_total, m_total = sum(h_dice) + h_score, sum(m_dice) + m_score
    if h_total > m_total or (h_total == m_total and has_trait(g, h, "strong")):
        row[FIGHT_WINNER] = HERO_WON
    elif m_total > h_total:
        row[FIGHT_WINNER] = MONSTER_WON
    else:
        row[FIGHT_WINNER] = TIE
    winner = {HERO_WON: label(g, h), MONSTER_WON: label(g, m), TIE: None}[row[FIGHT_WINNER]]
    g.log(
        {
            "type": "fight",
            "a": label(g, h),
            "b": label(g, m),
            "a_dice": h_dice,
            "b_dice": m_dice,
            "a_modifiers": h_mods,
            "b_modifiers": m_mods,
            "a_score": h_score,
            "b_score": m_score,
            "a_total": h_total,
            "b_total": m_total,
            "winner": winner,
            "turn": s.turn,
        }
    )


def apply_fight_damage(g: Context) -> None:
    """All Fight damage lands together after the last Fight (R-DMG-01..05): each winner deals its
    Damage to each enemy it beat; every creature that damaged a casualty shares the kill. The step
    is simultaneous (R-DMG-10, A-14): only a hero already at 0 when it began rolls an extra Death's
    Door die, once per Fight it lost."""
    s = g.state
    down_before = {row[FIGHT_HERO]: bool(s.health[row[FIGHT_HERO]] == 0) for row in s.fights}
    damagers: dict[int, list[str]] = {}
    for row in s.fights:
        if row[FIGHT_WINNER] in (HERO_WON, MONSTER_WON):
            winner, loser = (
                (row[FIGHT_HERO], row[FIGHT_MONSTER])
                if row[FIGHT_WINNER] == HERO_WON
                else (row[FIGHT_MONSTER], row[FIGHT_HERO])
            )
            damagers.setdefault(loser, []).append(label(g, winner))
    for row in s.fights:
        if row[FIGHT_WINNER] == HERO_WON:
            m = row[FIGHT_MONSTER]
            amount = effects.damage_of(g, row[FIGHT_HERO], m)
            s.health[m] -= amount
            g.log(
                {
                    "type": "damage",
                    "unit": label(g, m),
                    "amount": int(amount),
                    "source": label(g, row[FIGHT_HERO]),
                    "health": int(s.health[m]),
                    "turn": s.turn,
                }
            )
        elif row[FIGHT_WINNER] == MONSTER_WON:
            h = row[FIGHT_HERO]
            amount = effects.damage_of(g, row[FIGHT_MONSTER], h)
            hurt_hero(g, h, amount, label(g, row[FIGHT_MONSTER]), damagers[h], down_before=down_before[h])
    for m in active_monsters(g):
        if s.health[m] <= 0:
            slay_monster(g, m, damagers.get(m, []))
    s.fights = []
    s.fight_index = 0
    check_corpses(g)
    if not active_heroes(g):
        g.check_end()
