"""The Trade phase (TRADE): each hero gives and receives at most one item, within one room or
corridor; items may be taken from a corpse there (A-45).

OWNER: the dungeon work (issue 3). Hooks: ``begin_trade(g)`` / ``resume_trade(g)`` run phase 4 and
end with ``g.goto(Phase.TURN_END)``. In the Trade phase the HERO_ACT decision is handled here
(``legal_trade_act`` / ``do_trade_act``), and CHOOSE_TARGET decisions with purpose TARGET_GIVE or
TARGET_LOOT (``legal_trade_target`` / ``do_trade_target``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dungeon_env.engine.actions import END, Phase

if TYPE_CHECKING:
    from dungeon_env.engine.game import Game


def begin_trade(g: Game) -> None:
    g.goto(Phase.TURN_END)


def resume_trade(g: Game) -> None:
    g.goto(Phase.TURN_END)


def legal_trade_act(g: Game, unit: int, a: int, b: int) -> list[int]:
    return [END]


def do_trade_act(g: Game, unit: int, a: int, b: int, action: int) -> None:
    return None


def legal_trade_target(g: Game, unit: int, a: int, b: int) -> list[int]:
    return [END]


def do_trade_target(g: Game, unit: int, a: int, b: int, action: int) -> None:
    return None
