"""Units on the board: placing heroes and monsters, labels, traits, damage, death and corpses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dungeon_env.content.model import TRAITS, HeroCard, MonsterCard
from dungeon_env.engine.board import next_to
from dungeon_env.engine.state import (
    ACTIVE,
    CORPSE,
    EMPTY,
    GONE,
    MAX_UNITS,
    NO_UNIT,
    SIDE_HERO,
    SIDE_MONSTER,
    How,
)

if TYPE_CHECKING:
    from dungeon_env.engine.context import Context

TRAIT_BIT = {name: 1 << i for i, name in enumerate(TRAITS)}


def label(g: Context, u: int) -> str:
    """The stable id of a unit: ``hero_<i>`` or ``m<uid>``."""
    s = g.state
    return f"hero_{u}" if u < s.n_heroes else f"m{int(s.unit_uid[u])}"


def has_trait(g: Context, u: int, trait: str) -> bool:
    return bool(g.state.unit_traits[u] & TRAIT_BIT[trait])


def traits_of(g: Context, u: int) -> list[str]:
    return [t for t in TRAITS if g.state.unit_traits[u] & TRAIT_BIT[t]]


def unit_info(g: Context, u: int) -> dict:
    s = g.state
    card = g.card(u)
    return {
        "id": label(g, u),
        "name": card.name,
        "side": "hero" if s.unit_side[u] == SIDE_HERO else "monster",
        "traits": traits_of(g, u),
        "move": int(s.base_move[u]),
        "fight": int(s.base_fight[u]),
        "health": int(s.base_health[u]),
        "stamina": int(s.base_stamina[u]),
        "magic": int(s.base_magic[u]),
        "damage": int(s.base_damage[u]),
    }


def _fill_profile(g: Context, u: int, card: HeroCard | MonsterCard) -> None:
    s = g.state
    s.base_move[u], s.base_fight[u], s.base_damage[u] = card.move, card.fight, card.damage
    s.base_health[u], s.base_stamina[u], s.base_magic[u] = card.health, card.stamina, card.magic
    s.health[u], s.stamina[u], s.magic[u] = card.health, card.stamina, card.magic
    s.deaths_door[u] = s.exhausted[u] = s.surprised[u] = s.skip_move[u] = s.inactive[u] = False
    s.acted[u] = s.fought[u] = s.rested_last[u] = False
    s.dragging[u] = NO_UNIT
    if u < len(s.downed_by):
        s.downed_by[u] = []


def place_hero(g: Context, u: int, card_index: int, sq: int) -> None:
    s = g.state
    card = g.heroes[card_index]
    s.unit_status[u], s.unit_side[u], s.unit_card[u] = ACTIVE, SIDE_HERO, card_index
    s.unit_uid[u], s.unit_how[u] = u, How.HERO
    s.unit_traits[u] = sum(TRAIT_BIT[t] for t in card.traits)
    _fill_profile(g, u, card)
    put(g, u, sq)


def free_slot(g: Context) -> int:
    status = g.state.unit_status
    for u in range(g.state.n_heroes, MAX_UNITS):
        if status[u] == EMPTY or status[u] == GONE:
            return u
    return NO_UNIT


def place_monster(g: Context, monster_id: str, sq: int, how: How) -> int:
    """Put a new monster on ``sq``; returns its slot, or NO_UNIT if every slot is taken."""
    s = g.state
    u = free_slot(g)
    if u == NO_UNIT:
        return NO_UNIT
    card_index = g.monster_index[monster_id]
    s.unit_status[u], s.unit_side[u], s.unit_card[u] = ACTIVE, SIDE_MONSTER, card_index
    s.unit_uid[u], s.unit_how[u], s.unit_traits[u] = s.next_uid, how, 0
    s.next_uid += 1
    _fill_profile(g, u, g.monsters[card_index])
    put(g, u, sq)
    g.log({"type": "spawn", "unit": unit_info(g, u), "how": How(how).name.lower(), "at": list(g.xy(sq))})
    return u


def put(g: Context, u: int, sq: int) -> None:
    g.state.unit_pos[u] = sq
    g.state.occupant[sq] = u


def take_off(g: Context, u: int) -> None:
    s = g.state
    if s.unit_pos[u] >= 0 and s.occupant[s.unit_pos[u]] == u:
        s.occupant[s.unit_pos[u]] = NO_UNIT
    s.unit_pos[u] = -1


def active_heroes(g: Context) -> list[int]:
    status = g.state.unit_status
    return [u for u in range(g.state.n_heroes) if status[u] == ACTIVE]


def active_monsters(g: Context) -> list[int]:
    """Monsters on the board in the DM's reading order (top to bottom, left to right)."""
    s = g.state
    found = ((s.unit_status == ACTIVE) & (s.unit_side == SIDE_MONSTER)).nonzero()[0]
    return sorted((int(u) for u in found), key=lambda u: int(s.unit_pos[u]))


def any_monster(g: Context) -> bool:
    s = g.state
    return bool(((s.unit_status == ACTIVE) & (s.unit_side == SIDE_MONSTER)).any())


def spend_stamina(g: Context, u: int, amount: int) -> None:
    """Spend Stamina; depleting it to 0 makes the unit Exhausted (R-EXH-01). Spending nothing
    exhausts nobody: a unit with no Stamina at all (a Skeleton, base 0) is never Exhausted."""
    s = g.state
    if amount > s.stamina[u] or (amount > 0 and s.exhausted[u]):
        raise AssertionError("stamina spend must have been checked by the legality mask")
    s.stamina[u] -= amount
    if amount > 0 and s.stamina[u] == 0 and not s.exhausted[u]:
        s.exhausted[u] = True
        g.log({"type": "exhausted", "unit": label(g, u), "turn": s.turn})


def gain_stamina(g: Context, u: int, amount: int) -> None:
    s = g.state
    s.stamina[u] = min(int(s.base_stamina[u]), int(s.stamina[u]) + amount)
    if s.exhausted[u] and s.stamina[u] == s.base_stamina[u]:
        s.exhausted[u] = False
        g.log({"type": "exhaustion_ends", "unit": label(g, u), "turn": s.turn})


def heal(g: Context, u: int, amount: int) -> None:
    """Raise Health (capped at base); a hero raised above 0 leaves Death's Door (R-DMG-08)."""
    s = g.state
    s.health[u] = min(int(s.base_health[u]), int(s.health[u]) + amount)
    if s.deaths_door[u] and s.health[u] > 0:
        s.deaths_door[u] = False
        s.downed_by[u] = []
    g.log({"type": "heal", "unit": label(g, u), "amount": amount, "health": int(s.health[u]), "turn": s.turn})


def hurt_hero(
    g: Context, u: int, amount: int, source: str, killers=(), down_before: bool | None = None
) -> None:
    """Damage a hero (Health floors at 0). A hero brought to 0 is on Death's Door: one
    ``deaths_door`` event, however many blows of one damage step brought it there, and
    ``state.downed_by`` names them all (its death at Turn End names them). Damage to a hero already
    at Death's Door forces an immediate Death's Door roll (R-DMG-10, ruling A-14). ``down_before``:
    whether the hero was at 0 when the damage step began, for a step of simultaneous damage (the
    Fighting phase's): a hero brought to 0 by an earlier blow of the same step makes no extra roll
    (default: at 0 now)."""
    s = g.state
    if s.unit_status[u] != ACTIVE:
        return
    already_down = s.health[u] == 0 if down_before is None else down_before
    s.health[u] = max(0, int(s.health[u]) - amount)
    g.log(
        {
            "type": "damage",
            "unit": label(g, u),
            "amount": amount,
            "source": source,
            "health": int(s.health[u]),
            "turn": s.turn,
        }
    )
    cause = list(killers or (source,))
    if already_down:
        deaths_door_roll(g, u, cause)
    elif s.health[u] == 0 and s.deaths_door[u]:  # a further blow of the step that brought it to 0
        s.downed_by[u] = list(dict.fromkeys([*s.downed_by[u], *cause]))
    elif s.health[u] == 0:
        s.deaths_door[u] = True
        s.downed_by[u] = cause
        g.log({"type": "deaths_door", "unit": label(g, u), "turn": s.turn})


def deaths_door_roll(g: Context, u: int, killers=()) -> None:
    """d6 (Iron-Willed +1): dies on 1-3, ``rules.deaths_door_max`` (R-DMG-06/07)."""
    top = g.rules.deaths_door_max
    modifiers = {"iron_willed": 1} if has_trait(g, u, "iron_willed") else {}
    total = g.check(
        "deaths_door", label(g, u), "deaths_door", modifiers, lambda t: "dies" if t <= top else "survives"
    )
    if total <= top:
        kill_hero(g, u, killers)


def kill_hero(g: Context, u: int, killers=()) -> None:
    """The hero dies: its corpse stays on its square with its items (R-DEATH-01)."""
    s = g.state
    s.unit_status[u] = CORPSE
    s.deaths_door[u] = False
    s.downed_by[u] = []
    s.dragging[u] = NO_UNIT
    g.log({"type": "death", "unit": label(g, u), "killers": list(killers), "turn": s.turn})


def slay_monster(g: Context, u: int, killers: list[str]) -> None:
    s = g.state
    take_off(g, u)
    s.unit_status[u] = GONE
    s.guard_slain[s.guard_uid == s.unit_uid[u]] = True
    g.log({"type": "slain", "unit": label(g, u), "killers": killers, "turn": s.turn})


def together(g: Context, u: int, v: int) -> bool:
    """Two figures are in the same room or corridor segment, or side by side with no wall or closed
    door between (segment boundaries are invisible to players: R-TRADE-02, R-DEATH-03 revised)."""
    s = g.state
    a, b = int(s.unit_pos[u]), int(s.unit_pos[v])
    return a >= 0 and b >= 0 and (g.tables.area[a] == g.tables.area[b] or next_to(g, a, b))


def check_corpses(g: Context) -> None:
    """A corpse with no living hero in its room or corridor, nor on a square next to it, is lost at
    once (R-DEATH-03 revised), unless a hero is dragging it (ruling A-46)."""
    s = g.state
    status = s.unit_status[: s.n_heroes].tolist()
    if CORPSE not in status:
        return
    area = g.tables.area
    for c in range(s.n_heroes):
        if s.unit_status[c] != CORPSE:
            continue
        if any(s.dragging[h] == c for h in range(s.n_heroes) if s.unit_status[h] == ACTIVE):
            continue
        region = area[s.unit_pos[c]]
        if any(together(g, h, c) for h in active_heroes(g)):
            continue
        take_off(g, c)
        s.unit_status[c] = GONE
        g.log(
            {
                "type": "corpse_lost",
                "unit": label(g, c),
                "area": g.tables.area_char(int(region)),
                "turn": s.turn,
            }
        )
