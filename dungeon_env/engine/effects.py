"""Structured effects of spells, items, traps and room events, and the bonuses they give.

OWNER: the magic & items work (issue 3). Contract used by other modules:
- ``apply_effect(g, effect, source, target)`` applies one content ``Effect`` to a unit (``target``
  may be -1 for effects without a target, e.g. ``light``); ``source`` is a label for the event log
  (``"item:<id>"``, ``"spell:<id>"``, ``"trap:<name>"``, ``"event:<area>"``).
- ``fight_modifiers(g, u) -> dict[str, int]``: situational Fighting Score modifiers from items and
  ongoing effects, named ``item:<id>`` / ``spell:<id>`` (R-FIGHT-04); combat adds them.
- ``damage_of(g, u) -> int``: the unit's Damage with its bonuses (A-61).
- ``move_bonus(g, u) -> int``: extra Movement from items and ongoing effects.
- ``tick(g)``: at Turn End, count ongoing effects down and end the expired ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dungeon_env.content.model import Effect
    from dungeon_env.engine.game import Game


def apply_effect(g: Game, effect: Effect, source: str, target: int) -> None:
    raise NotImplementedError("effects arrive with the magic & items rules")


def fight_modifiers(g: Game, u: int) -> dict[str, int]:
    return {}


def damage_of(g: Game, u: int) -> int:
    return int(g.state.base_damage[u])


def move_bonus(g: Game, u: int) -> int:
    return 0


def tick(g: Game) -> None:
    return None
