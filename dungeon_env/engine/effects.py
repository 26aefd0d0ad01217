"""Structured effects of spells, items, traps and room events, and the bonuses they give.

Contract used by other modules:
- ``apply_effect(g, effect, source, target, by=-1)`` applies one content ``Effect`` to a unit
  (``target`` may be -1 for effects without a target, e.g. ``light``; for ``detect_traps`` it is the
  unit that looks); ``source`` is a label for the event log (``"item:<id>"``, ``"spell:<id>"``,
  ``"trap:<name>"``, ``"event:<area>"``); ``by`` is the unit credited with a kill, if any.
- ``fight_modifiers(g, u) -> dict[str, int]``: situational Fighting Score modifiers from items and
  ongoing effects, named ``item:<id>`` / ``spell:<id>`` (R-FIGHT-04); combat adds them.
- ``damage_of(g, u, target=-1) -> int``: the unit's Damage with its bonuses (A-61), less the
  target's armour (never below 1).
- ``move_bonus(g, u) -> int``: extra Movement from items and ongoing effects.
- ``check_modifiers(g, u, check) -> dict[str, int]``: item and ability bonuses to a die check
  (``"jump"``: jump_bonus, ``"open_door"``: door_bonus, ``"disarm"``: disarm_bonus,
  ``"detect_traps"`` / ``"room_detect"``: detect_bonus, ``"identify"``: identify_bonus), to merge
  into that check's modifiers.
- ``tick(g)``: at Turn End, count ongoing effects down and end the expired ones.
- ``spell_in_play(g, spell)``: an ongoing effect of that spell lasts (the recast ban, A-23);
  ``asleep(g, u)``: a sleep effect holds the monster (it skips its movement).

Lasting effects are rows of ``state.effects``: ``[unit, kind index (EFFECT_KINDS), amount, turns
left, source, unit uid]`` where source is the spell index (>= 0), ``-1 - item card index`` for an
item, or ``OTHER`` for traps and events. An effect of duration N lasts the rest of the turn it
starts in and the next N turns: it is counted down at every Turn End and ends when it reaches 0.
A row whose unit has left the board (or whose slot now holds another monster) is void.
Passive items give their bonus while carried, once identified (R-IDENT-05). A hero's Passive
abilities (R-BOARD-04) give theirs always, or while their condition holds ("outnumbered": two or
more Fights this Fighting phase; "wounded": Health at most half its base), named ``ability:<id>``;
an Active ability's lasting bonus has the source ``ABILITY_SOURCE - index`` (``ability_codes``).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from dungeon_env.content.model import EFFECT_KINDS
from dungeon_env.engine.actions import Phase
from dungeon_env.engine.state import (
    ACTIVE,
    EFFECT_AMOUNT,
    EFFECT_KIND,
    EFFECT_SOURCE,
    EFFECT_TURNS,
    EFFECT_UID,
    EFFECT_UNIT,
    FIGHT_HERO,
)
from dungeon_env.engine.tables import path_distances
from dungeon_env.engine.units import (
    active_heroes,
    any_monster,
    check_corpses,
    gain_stamina,
    heal,
    hurt_hero,
    label,
    slay_monster,
)
from dungeon_env.engine.visibility import sees

if TYPE_CHECKING:
    from dungeon_env.content.model import Effect, HeroCard
    from dungeon_env.engine.context import Context

KIND = {kind: i for i, kind in enumerate(EFFECT_KINDS)}
OTHER = -1000  # the source of a lasting effect from a trap or a room event
ABILITY_SOURCE = -2000  # an Active ability's lasting effect: ABILITY_SOURCE - its catalogue index
FIGHT, MOVE, DAMAGE, ARMOUR, SLEEP = (
    KIND[k] for k in ("fight_bonus", "move_bonus", "damage_bonus", "armour", "sleep")
)
CHECK_KINDS = {
    "jump": "jump_bonus",
    "open_door": "door_bonus",
    "disarm": "disarm_bonus",
    "detect_traps": "detect_bonus",
    "room_detect": "detect_bonus",
    "identify": "identify_bonus",
}


# ------------------------------------------------------------------------------------------- sources


def source_code(g: Context, source: str) -> int:
    """The ``source`` column of a lasting effect from its log label."""
    kind, _, name = source.partition(":")
    if kind == "spell" and name in g.spell_index:
        return g.spell_index[name]
    if kind == "item" and name in g.item_index:
        return -1 - g.item_index[name]
    codes = ability_codes(tuple(g.heroes))
    if kind == "ability" and name in codes:
        return ABILITY_SOURCE - codes[name]
    return OTHER


def source_name(g: Context, code: int) -> str:
    if code >= 0:
        return f"spell:{g.spells[code].id}"
    if code <= ABILITY_SOURCE:
        return f"ability:{list(ability_codes(tuple(g.heroes)))[ABILITY_SOURCE - code]}"
    if code != OTHER:
        return f"item:{g.item_cards[-1 - code].id}"
    return "effect"


@functools.lru_cache(maxsize=64)
def ability_codes(heroes: tuple[HeroCard, ...]) -> dict[str, int]:
    """Every hero ability id of a roster, numbered in card order (ids are unique in a roster)."""
    return {ability.id: i for i, ability in enumerate(a for hero in heroes for a in hero.abilities)}


# -------------------------------------------------------------------------------------- lasting rows


def live(g: Context, row: list[int]) -> bool:
    s = g.state
    u = row[EFFECT_UNIT]
    return s.unit_status[u] == ACTIVE and s.unit_uid[u] == row[EFFECT_UID]


def rows_of(g: Context, u: int) -> list[list[int]]:
    return [row for row in g.state.effects if row[EFFECT_UNIT] == u and live(g, row)]


def spell_in_play(g: Context, spell: int) -> bool:
    """An ongoing effect of this spell lasts, on anyone (the recast ban is global, ruling A-23)."""
    return any(row[EFFECT_SOURCE] == spell and live(g, row) for row in g.state.effects)


def asleep(g: Context, u: int) -> bool:
    return any(row[EFFECT_KIND] == SLEEP for row in rows_of(g, u))


def add_lasting(g: Context, effect: Effect, source: str, target: int) -> None:
    s = g.state
    turns = effect.duration + 1  # the rest of this turn, then `duration` more turns
    s.effects.append(
        [target, KIND[effect.kind], effect.amount, turns, source_code(g, source), int(s.unit_uid[target])]
    )
    g.log(
        {
            "type": "effect_starts",
            "unit": label(g, target),
            "kind": effect.kind,
            "amount": effect.amount,
            "turns": effect.duration,
            "source": source,
            "turn": s.turn,
        }
    )


def tick(g: Context) -> None:
    """Turn End: every lasting effect counts down one turn; the expired and void ones end."""
    s = g.state
    kept = []
    for row in s.effects:
        if not live(g, row):
            continue
        row[EFFECT_TURNS] -= 1
        if row[EFFECT_TURNS] > 0:
            kept.append(row)
            continue
        g.log(
            {
                "type": "effect_ends",
                "unit": label(g, row[EFFECT_UNIT]),
                "kind": EFFECT_KINDS[row[EFFECT_KIND]],
                "source": source_name(g, row[EFFECT_SOURCE]),
                "turn": s.turn,
            }
        )
    s.effects = kept


# ---------------------------------------------------------------------------------------- carried items


def carried(g: Context, u: int, kind: str) -> list[tuple[str, int]]:
    """``(item id, amount)`` of the identified passive items ``u`` holds that give ``kind``."""
    s = g.state
    if u >= s.n_heroes:
        return []
    out = []
    for slot in (s.item_holder == u).nonzero()[0].tolist():
        if not s.item_known[slot]:
            continue
        card = g.item_cards[int(s.item_card[slot])]
        if card.use == "passive" and card.effect is not None and card.effect.kind == kind:
            out.append((card.id, card.effect.amount))
    return out


def innate(g: Context, u: int, kind: str) -> list[tuple[str, int]]:
    """``(ability id, amount)`` of hero ``u``'s Passive abilities that give ``kind`` now."""
    s = g.state
    if u >= s.n_heroes:
        return []
    out = []
    for ability in g.heroes[int(s.unit_card[u])].abilities:
        if ability.use == "passive" and ability.effect.kind == kind and _holds(g, u, ability.condition):
            out.append((ability.id, ability.effect.amount))
    return out


def _holds(g: Context, u: int, condition: str) -> bool:
    s = g.state
    if condition == "outnumbered":
        return sum(row[FIGHT_HERO] == u for row in s.fights) >= 2
    if condition == "wounded":
        return 2 * int(s.health[u]) <= int(s.base_health[u])
    return True


def _bonus(g: Context, u: int, kind: str) -> int:
    total = sum(amount for _, amount in carried(g, u, kind))
    total += sum(amount for _, amount in innate(g, u, kind))
    k = KIND[kind]
    return total + sum(row[EFFECT_AMOUNT] for row in rows_of(g, u) if row[EFFECT_KIND] == k)


# ------------------------------------------------------------------------------------------ the hooks


def fight_modifiers(g: Context, u: int) -> dict[str, int]:
    mods: dict[str, int] = {}
    for item_id, amount in carried(g, u, "fight_bonus"):
        name = f"item:{item_id}"
        mods[name] = mods.get(name, 0) + amount
    for ability_id, amount in innate(g, u, "fight_bonus"):
        mods[f"ability:{ability_id}"] = amount
    for row in rows_of(g, u):
        if row[EFFECT_KIND] in (FIGHT, SLEEP):
            name = source_name(g, row[EFFECT_SOURCE])
            amount = row[EFFECT_AMOUNT] if row[EFFECT_KIND] == FIGHT else -row[EFFECT_AMOUNT]
            mods[name] = mods.get(name, 0) + amount
    return {k: v for k, v in mods.items() if v}


def damage_of(g: Context, u: int, target: int = -1) -> int:
    """``u``'s Damage with its weapons and effects, less ``target``'s armour; never below 1."""
    damage = int(g.state.base_damage[u]) + _bonus(g, u, "damage_bonus")
    if target >= 0:
        damage -= _bonus(g, target, "armour")
    return max(1, damage)


def move_bonus(g: Context, u: int) -> int:
    return _bonus(g, u, "move_bonus")


def check_modifiers(g: Context, u: int, check: str) -> dict[str, int]:
    kind = CHECK_KINDS.get(check)
    if kind is None:
        return {}
    mods: dict[str, int] = {}
    for item_id, amount in carried(g, u, kind):
        mods[f"item:{item_id}"] = mods.get(f"item:{item_id}", 0) + amount
    for ability_id, amount in innate(g, u, kind):
        mods[f"ability:{ability_id}"] = amount
    return mods


# ----------------------------------------------------------------------------------- applying effects


def usable_now(g: Context, effect: Effect | None) -> bool:
    """Whether a card's effect may be used at this moment of the game: nothing detects traps while a
    monster is on the board (R-TRAP-08 revised 2026-12-06; no card of the game says it works in
    combat). Abilities, items and spells ask this before they are offered."""
    return effect is None or effect.kind != "detect_traps" or not any_monster(g)


def raise_light(g: Context, amount: int, source: str) -> None:
    """Light rises, never above the cap: 20, ``light.max`` (R-LIGHT-01/03). Raised from 0 in the
    Heroes' Movement, the dark's penalty lifts at once (A-12 revised 2026-12-06): each hero still in
    its Movement gets back the square the darkness took from its allowance."""
    s = g.state
    before = s.light
    s.light = min(g.rules.light_max, s.light + amount)
    if before == 0 and s.light > 0 and s.phase == Phase.HERO_MOVEMENT:
        _give_back_dark_squares(g)
    g.log(
        {
            "type": "light_raised",
            "amount": s.light - before,
            "light": s.light,
            "source": source,
            "turn": s.turn,
        }
    )


def _give_back_dark_squares(g: Context) -> None:
    """The squares the Light-0 penalty (``light.dark_penalty``) took from the allowance of every hero
    still in its Movement (not done: not surprised, not finished) come back."""
    s = g.state
    penalty = g.rules.light_dark_penalty
    for h in active_heroes(g):
        if not s.move_done[h]:
            allowance = int(s.base_move[h]) + move_bonus(g, h)
            s.move_left[h] += max(0, allowance) - max(0, allowance - penalty)


def detect_traps_near(g: Context, u: int, radius: int, source: str) -> list[int]:
    """Every armed trap within ``radius`` squares (path distance, A-39) of ``u`` that ``u`` can see
    becomes known to the heroes; returns the trap indices newly detected."""
    s, t = g.state, g.tables
    traps = t.adventure.traps
    if not traps or s.unit_pos[u] < 0:
        return []
    here = int(s.unit_pos[u])
    dist = path_distances(t, [here], s.door_open)
    found = []
    for i, trap in enumerate(traps):
        sq = g.square(*trap.at)
        if s.trap_armed[i] and not s.trap_detected[i] and dist[sq] <= radius and sees(g, here, sq):
            s.trap_detected[i] = True
            found.append(i)
    g.log(
        {
            "type": "traps_detected",
            "unit": label(g, u),
            "squares": [list(traps[i].at) for i in found],
            "source": source,
            "turn": s.turn,
        }
    )
    return found


def _damage(g: Context, amount: int, source: str, target: int, by: int) -> None:
    s = g.state
    if target < s.n_heroes:
        killers = (label(g, by),) if by >= 0 else (source,)
        hurt_hero(g, target, amount, source, killers)
        check_corpses(g)
        if not active_heroes(g):
            g.check_end()
        return
    s.health[target] -= amount
    g.log(
        {
            "type": "damage",
            "unit": label(g, target),
            "amount": amount,
            "source": label(g, by) if by >= 0 else source,
            "health": int(s.health[target]),
            "turn": s.turn,
        }
    )
    if s.health[target] <= 0:
        slay_monster(g, target, [label(g, by)] if by >= 0 else [source])
        g.check_end()


def _gain(g: Context, effect: Effect, source: str, target: int) -> None:
    s = g.state
    if effect.kind == "heal":
        heal(g, target, effect.amount)
        return
    if effect.kind == "stamina":
        gain_stamina(g, target, effect.amount)
    else:
        s.magic[target] = min(int(s.base_magic[target]), int(s.magic[target]) + effect.amount)
    g.log(
        {
            "type": effect.kind,  # "stamina" / "magic": a gain
            "unit": label(g, target),
            "amount": effect.amount,
            "stamina": int(s.stamina[target]),
            "magic": int(s.magic[target]),
            "source": source,
            "turn": s.turn,
        }
    )


def _lasting(g: Context, effect: Effect, source: str, target: int) -> None:
    s = g.state
    add_lasting(g, effect, source, target)
    if effect.kind == "move_bonus" and s.phase == Phase.HERO_MOVEMENT and not s.move_done[target]:
        s.move_left[target] = max(0, int(s.move_left[target]) + effect.amount)  # counts at once
    if effect.kind == "sleep" and s.phase in (Phase.SPELL_SELECTION, Phase.MONSTER_MOVEMENT):
        s.skip_move[target] = True


def apply_effect(g: Context, effect: Effect, source: str, target: int, by: int = -1) -> None:
    """Apply one effect; an effect on a unit that is no longer on the board does nothing."""
    s = g.state
    kind = effect.kind
    if kind == "light":
        raise_light(g, effect.amount, source)
        return
    if kind in ("treasure", "revive"):
        return  # treasure has no use in play; revival is the campaign's (items of timing "campaign")
    if target < 0 or s.unit_status[target] != ACTIVE:
        return
    if kind == "detect_traps":
        detect_traps_near(g, target, effect.amount, source)
    elif kind == "damage":
        _damage(g, effect.amount, source, target, by)
    elif kind in ("heal", "stamina", "magic"):
        _gain(g, effect, source, target)
    else:  # the bonus kinds and sleep last for their duration
        _lasting(g, effect, source, target)
