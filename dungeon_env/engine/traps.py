"""Traps: springing, detecting, disarming, jumping over (TRAP).

OWNER: the dungeon work (issue 3). Hooks the rest of the engine calls (keep the names):
- ``on_enter(g, u, sq)``: a figure entered ``sq`` (movement, evasion, jump landing): an armed trap
  there springs (A-38); called by ``movement.step`` for heroes and monsters alike.
- ``is_jumpable(g, sq) -> bool``: a detected trap or a hazard a hero may Jump (R-JUMP-02).
- ``disarm_actions(g, h) -> list[int]``: DISARM_d actions for a hero ending its Movement next to a
  detected trap, outside combat, once per turn (A-41); movement pushes a DISARM decision if any.
- ``detect_traps(g)``: the end-of-Explore Detect Traps rolls (R-TRAP-01..04).
- Decision DISARM: ``legal_disarm`` / ``do_disarm``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dungeon_env.engine.actions import END

if TYPE_CHECKING:
    from dungeon_env.engine.game import Game


def on_enter(g: Game, u: int, sq: int) -> None:
    return None


def is_jumpable(g: Game, sq: int) -> bool:
    return False


def disarm_actions(g: Game, h: int) -> list[int]:
    return []


def detect_traps(g: Game) -> None:
    return None


def legal_disarm(g: Game, unit: int, a: int, b: int) -> list[int]:
    return [END]


def do_disarm(g: Game, unit: int, a: int, b: int, action: int) -> None:
    return None
