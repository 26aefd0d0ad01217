"""Spells: selection (2.1), casting while fighting, resolution (2.5), Overcast, other casting
times, memorizing and forgetting, Mental Combat.

OWNER: the magic & items work (issue 3). Hooks the rest of the engine calls (keep the names):
- ``begin_spell_selection(g)`` / ``resume_spell_selection(g)``: phase 2.1; when done,
  ``g.goto(Phase.MONSTER_MOVEMENT)``.
- ``ask_cast_while_fighting(g)``: called by combat at the start of 2.4 after the Fights are known;
  pushes a CAST_WHILE_FIGHTING decision for each casting hero that is in a Fight (A-24).
- ``on_evade(g, h)``: the hero Evaded: its spell fails (R-CTS-05).
- ``begin_spell_resolution(g)`` / ``resume_spell_resolution(g)``: phase 2.5; when done,
  ``g.goto(Phase.TURN_END if any_monster(g) else Phase.EXPLORE)``.
- ``spell_actions(g, h, when) -> list[int]``: SPELL_k actions the hero may take now, ``when`` one of
  "movement", "explore" (movement-phase casting and Explore actions); ``pick_spell(g, h, k, when)``
  follows a SPELL_k in the Movement phase.
- ``begin_cast(g, h, spell, item)``: cast outside 2.1/2.5 (resolves at once: mode, target...).
- Decisions: SPELL_SELECT, CAST_WHILE_FIGHTING, CAST_MODE, CHOOSE_TARGET (dispatches by purpose:
  spells, item targets, trade targets), MENTAL_BID, SPELL_VERB (legal_* / do_* below).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dungeon_env.engine.actions import END, Phase
from dungeon_env.engine.units import any_monster

if TYPE_CHECKING:
    from dungeon_env.engine.game import Game


def begin_spell_selection(g: Game) -> None:
    g.goto(Phase.MONSTER_MOVEMENT)


def resume_spell_selection(g: Game) -> None:
    g.goto(Phase.MONSTER_MOVEMENT)


def ask_cast_while_fighting(g: Game) -> None:
    return None


def on_evade(g: Game, h: int) -> None:
    return None


def begin_spell_resolution(g: Game) -> None:
    g.goto(Phase.TURN_END if any_monster(g) else Phase.EXPLORE)


def resume_spell_resolution(g: Game) -> None:
    g.goto(Phase.TURN_END if any_monster(g) else Phase.EXPLORE)


def spell_actions(g: Game, h: int, when: str) -> list[int]:
    return []


def pick_spell(g: Game, h: int, k: int, when: str) -> None:
    """The hero picked its k-th spell (SPELL_k) in the Movement phase: cast it now."""
    return None


def legal_spell_select(g: Game, unit: int, a: int, b: int) -> list[int]:
    return [END]


def do_spell_select(g: Game, unit: int, a: int, b: int, action: int) -> None:
    return None


def legal_cast_while_fighting(g: Game, unit: int, a: int, b: int) -> list[int]:
    return [END]


def do_cast_while_fighting(g: Game, unit: int, a: int, b: int, action: int) -> None:
    return None


def legal_cast_mode(g: Game, unit: int, a: int, b: int) -> list[int]:
    return [END]


def do_cast_mode(g: Game, unit: int, a: int, b: int, action: int) -> None:
    return None


def legal_target(g: Game, unit: int, a: int, b: int) -> list[int]:
    return [END]


def do_target(g: Game, unit: int, a: int, b: int, action: int) -> None:
    return None


def legal_mental_bid(g: Game, unit: int, a: int, b: int) -> list[int]:
    return [END]


def do_mental_bid(g: Game, unit: int, a: int, b: int, action: int) -> None:
    return None


def legal_spell_verb(g: Game, unit: int, a: int, b: int) -> list[int]:
    return [END]


def do_spell_verb(g: Game, unit: int, a: int, b: int, action: int) -> None:
    return None
