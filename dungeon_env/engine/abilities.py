"""Hero abilities (R-BOARD-04): using an Active ability, its target, its limits.

A hero card carries at most two abilities (``content/_abilities.py``), each Active or Passive.
Passive abilities are standing bonuses read by the modifier hooks of ``effects`` (``fight_modifiers``,
``damage_of``, ``move_bonus``, ``check_modifiers``) under the name ``ability:<id>``; this module only
uses Active ones.

Hooks the rest of the engine calls (keep the names):
- ``ability_actions(g, h, when) -> list[int]``: the ``ABILITY_k`` actions legal now, ``when`` one of
  "movement", "evasion", "explore" (the hero's own Movement or Evasion, the Explore phase's own
  actions: ruling A-58, as for items). Never while surprised (R-SURP-06).
- ``use(g, h, k, when)``: follows an ``ABILITY_k``. An ability that targets an ally (the hero or a
  hero orthogonally next to it, no wall or closed door between) asks CHOOSE_TARGET with ``a`` =
  ``TARGET_ABILITY``, ``b`` = ``k`` when there is more than one candidate (candidates
  ``targets(g, h)`` in slot order; the choice lands with ``land_on``, routed by ``decisions``).
- ``ready(g, h, k)``: the k-th ability is Active and has a use left (this adventure, and this turn
  for a once-per-turn one); the observation shows it.

Using one breaks Rest (R-REST-02), counts one use (``state.ability_uses[h, k]``, this adventure) and
the turn (``state.ability_turn[h, k]``, 0: never), logs ``{"type": "ability", "unit", "ability",
"name", "target", "when", "turn"}`` and applies the effect (source ``ability:<id>``; a bonus lasts the
rest of the turn plus its duration).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dungeon_env.engine import effects
from dungeon_env.engine.actions import (
    ABILITY_0,
    IN_EVASION,
    IN_EXPLORE,
    IN_MOVEMENT,
    MAX_ABILITIES,
    TARGET_ABILITY,
    Decision,
    Phase,
)
from dungeon_env.engine.board import heroes_beside
from dungeon_env.engine.state import ACTIVE
from dungeon_env.engine.units import label

if TYPE_CHECKING:
    from dungeon_env.content.model import Ability
    from dungeon_env.engine.context import Context

MOMENTS = (IN_MOVEMENT, IN_EVASION, IN_EXPLORE)
_MOMENT_OF_PHASE = {
    Phase.HERO_MOVEMENT: IN_MOVEMENT,
    Phase.EVASION: IN_EVASION,
    Phase.EXPLORE: IN_EXPLORE,
}


def card_abilities(g: Context, h: int) -> tuple[Ability, ...]:
    """Hero ``h``'s abilities, in card order (ABILITY_k is the k-th); none for a monster."""
    s = g.state
    if h >= s.n_heroes:
        return ()
    return g.heroes[int(s.unit_card[h])].abilities[:MAX_ABILITIES]


def ready(g: Context, h: int, k: int) -> bool:
    """The k-th ability is Active and has a use left: this adventure (``uses``), or this turn."""
    abilities = card_abilities(g, h)
    if k >= len(abilities) or not abilities[k].active:
        return False
    s = g.state
    if abilities[k].limit == "turn":
        return int(s.ability_turn[h, k]) != s.turn
    return int(s.ability_uses[h, k]) < abilities[k].uses


def ready_pairs(g: Context) -> list[tuple[int, int]]:
    """``(hero, k)`` for every Active ability of a hero on the board with a use left (``ready``),
    computed in one pass over plain lists (the observation asks at every step)."""
    s = g.state
    status, cards = s.unit_status.tolist(), s.unit_card.tolist()
    uses, last, turn = s.ability_uses.tolist(), s.ability_turn.tolist(), s.turn
    out = []
    for h in range(s.n_heroes):
        if status[h] != ACTIVE:
            continue
        for k, ability in enumerate(g.heroes[cards[h]].abilities[:MAX_ABILITIES]):
            if ability.use != "active":
                continue
            if (last[h][k] != turn) if ability.limit == "turn" else (uses[h][k] < ability.uses):
                out.append((h, k))
    return out


def ability_actions(g: Context, h: int, when: str) -> list[int]:
    """ABILITY_k for each Active ability hero ``h`` may use now: on the board, not surprised
    (R-SURP-06), in one of the ability's moments, with a use left, and an effect that works now
    (no trap detection in combat, R-TRAP-08)."""
    s = g.state
    if h >= s.n_heroes or s.unit_status[h] != ACTIVE or s.surprised[h]:
        return []
    return [
        ABILITY_0 + k
        for k, ability in enumerate(card_abilities(g, h))
        if ability.active
        and when in ability.when
        and ready(g, h, k)
        and effects.usable_now(g, ability.effect)
    ]


def use(g: Context, h: int, k: int, when: str) -> None:
    """Hero ``h`` uses its k-th ability (ABILITY_k, known to be legal): ask the target if there is a
    choice, else the effect lands at once."""
    ability = card_abilities(g, h)[k]
    if ability.target == "ally" and len(targets(g, h)) > 1:
        g.push(Decision.CHOOSE_TARGET, h, TARGET_ABILITY, k)
        return
    _land(g, h, k, h, when)


def targets(g: Context, h: int) -> list[int]:
    """The hero and the heroes next to it (as for an item used on an ally, ruling D-M14)."""
    return heroes_beside(g, h)


def land_on(g: Context, unit: int, k: int, target: int) -> None:
    """The hero chose the target of its k-th ability (a CHOOSE_TARGET among ``targets``)."""
    _land(g, unit, k, target, _MOMENT_OF_PHASE.get(g.state.phase, ""))


def _land(g: Context, h: int, k: int, target: int, when: str) -> None:
    s = g.state
    ability = card_abilities(g, h)[k]
    s.acted[h] = True  # using an ability is an activity: no Rest this turn (R-REST-02)
    s.ability_uses[h, k] += 1
    s.ability_turn[h, k] = s.turn
    g.log(
        {
            "type": "ability",
            "unit": label(g, h),
            "ability": ability.id,
            "name": ability.name,
            "target": label(g, target) if ability.target != "none" else None,
            "when": when,
            "turn": s.turn,
        }
    )
    effects.apply_effect(g, ability.effect, f"ability:{ability.id}", target, by=h)


__all__ = [
    "MOMENTS",
    "ability_actions",
    "card_abilities",
    "land_on",
    "ready",
    "ready_pairs",
    "targets",
    "use",
]
