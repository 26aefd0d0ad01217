"""The spell a hero has begun casting in Spell Selection (2.1) and its failing, shared by the
modules that can make it fail: Evasion and Fights (``spells``) and Surprise (``encounters``).

``state.casting_spell[h]`` is the spell index (-1: none) and ``state.casting_item[h]`` the scroll it
is read from (-1: from memory) until the spell resolves at 2.5 or fails.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dungeon_env.engine.units import label

if TYPE_CHECKING:
    from dungeon_env.engine.context import Context


def is_casting(g: Context, h: int) -> bool:
    return h < len(g.state.casting_spell) and g.state.casting_spell[h] >= 0


def fail_spell(g: Context, h: int, reason: str) -> None:
    """The selected spell fails: no effect, no Magic paid, the scroll kept (R-SPELL-13). The log
    names the spell only if heroes may know it (not an unidentified scroll's)."""
    s = g.state
    sp, item = int(s.casting_spell[h]), int(s.casting_item[h])
    s.casting_spell[h] = s.casting_item[h] = -1
    g.log(
        {
            "type": "spell_fail",
            "unit": label(g, h),
            "spell": g.spells[sp].id if item < 0 or s.item_known[item] else None,
            "reason": reason,
            "turn": s.turn,
        }
    )
