"""The Explore phase (EXPL): explore or stay, room and corridor events, other Explore actions
(memorize, identify, Explore spells, using items), then trap detection (R-EXPL-06).

OWNER: the dungeon work (issue 3). Hooks: ``begin_explore(g)`` / ``resume_explore(g)`` run phase 3
and end with ``g.goto(Phase.TRADE)``. Decisions EXPLORE_CHOICE, EVENT_CHOICE, CLAIM_ITEM and
HERO_ACT (in the Explore phase; in the Trade phase HERO_ACT belongs to ``trade``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dungeon_env.engine.actions import END, Phase

if TYPE_CHECKING:
    from dungeon_env.engine.game import Game


def begin_explore(g: Game) -> None:
    g.goto(Phase.TRADE)


def resume_explore(g: Game) -> None:
    g.goto(Phase.TRADE)


def legal_explore_choice(g: Game, unit: int, a: int, b: int) -> list[int]:
    return [END]


def do_explore_choice(g: Game, unit: int, a: int, b: int, action: int) -> None:
    return None


def legal_event_choice(g: Game, unit: int, a: int, b: int) -> list[int]:
    return [END]


def do_event_choice(g: Game, unit: int, a: int, b: int, action: int) -> None:
    return None


def legal_claim(g: Game, unit: int, a: int, b: int) -> list[int]:
    return [END]


def do_claim(g: Game, unit: int, a: int, b: int, action: int) -> None:
    return None


def legal_hero_act(g: Game, unit: int, a: int, b: int) -> list[int]:
    return [END]


def do_hero_act(g: Game, unit: int, a: int, b: int, action: int) -> None:
    return None
