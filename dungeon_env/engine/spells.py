"""Spells: selection (2.1), casting while fighting, resolution (2.5), Overcast, other casting
times, scrolls, memorizing and forgetting (SPELL); Mental Combat spells go through ``mental``.

Hooks the rest of the engine calls (keep the names):
- ``begin_spell_selection(g)`` / ``resume_spell_selection(g)``: phase 2.1; when done,
  ``g.goto(Phase.MONSTER_MOVEMENT)``.
- ``ask_cast_while_fighting(g)``: called by combat at the start of 2.4 after the Fights are known;
  pushes a CAST_WHILE_FIGHTING decision for each casting hero that is in a Fight (A-24).
- ``begin_spell_resolution(g)`` / ``resume_spell_resolution(g)``: phase 2.5; when done,
  ``g.goto(Phase.TURN_END if any_monster(g) else Phase.EXPLORE)``.
- ``spell_actions(g, h, when) -> list[int]``: SPELL_k actions the hero may take now, ``when`` one of
  "movement" (castable spells: picking one casts it at once, outside combat only) or "explore"
  (every known spell: it may be cast or forgotten); ``pick_spell(g, h, k, when)`` follows a
  SPELL_k: in the Movement phase it casts, in the Explore phase it asks SPELL_VERB (``a`` = the
  spell index).
- ``begin_cast(g, h, spell, item, when)``: cast outside 2.1/2.5 (resolves at once: mode, target...).
- ``can_cast_scroll`` / ``cast_scroll`` / ``can_memorize`` / ``memorize`` (used by ``items``).
- ``end_adventure(g)``: memorized spell cards are discarded and ongoing effects end (R-END-04).
- Decisions: SPELL_SELECT, CAST_WHILE_FIGHTING, CAST_MODE (``a`` = spell, ``b`` = scroll item or -1),
  CHOOSE_TARGET (``a`` = TARGET_SPELL with ``b`` = spell, or TARGET_ITEM with ``b`` = item),
  MENTAL_BID, SPELL_VERB (legal_* / do_* below).

Rules in force: while any monster is on the board (the Combat Turn Sequence), every spell, from
memory or a scroll, is begun at 2.1 and resolved at 2.5, whatever its Casting line (ruling D-M2,
revised 2026-12-06: ``fits``, ``at_once_allowed``); a hero begins at most one spell a turn (A-19;
``state.spell_turn``), and not while surprised (R-SURP-06); selecting needs current Magic >= level
unless from a scroll (A-17, A-57); Magic is paid and a scroll destroyed only when the spell resolves
(A-17, A-18); an ongoing spell cannot be cast while its effect lasts, by anyone (A-23); casting
breaks Rest (R-REST-02).
``state.cast`` is the spell resolving now: ``[caster, spell, scroll item or -1, mode, target, when]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from dungeon_env.engine import effects, inventory, mental
from dungeon_env.engine.actions import (
    BACK,
    END,
    FORGET,
    IN_COMBAT,
    IN_EXPLORE,
    IN_MOVEMENT,
    ITEM_0,
    KEEP_CASTING,
    LET_FAIL,
    MAX_ITEMS_HELD,
    MAX_SPELLS_KNOWN,
    MAX_TARGETS,
    NORMAL_CAST,
    OVERCAST,
    SPELL_0,
    TARGET_SPELL,
    USE,
    Decision,
    Phase,
)
from dungeon_env.engine.casting import fail_spell
from dungeon_env.engine.state import (
    ACTIVE,
    CAST_MODE,
    CAST_SPELL,
    CAST_TARGET,
    EFFECT_KIND,
    EFFECT_UNIT,
    SIDE_HERO,
    SIDE_MONSTER,
)
from dungeon_env.engine.tables import path_distances
from dungeon_env.engine.units import active_heroes, any_monster, check_corpses, hurt_hero, label
from dungeon_env.engine.visibility import sees

if TYPE_CHECKING:
    from dungeon_env.content.model import Spell
    from dungeon_env.engine.context import Context

SPELL_MOMENTS = (IN_COMBAT, IN_MOVEMENT, IN_EXPLORE)  # a cast row's moment
NORMAL, OVERCAST_MODE = 0, 1


# ------------------------------------------------------------------------------------------- queries


COMBAT_TURN_CASTING = ("combat", "any", "movement")  # the Casting lines a combat turn has moments of


def fits(spell: Spell, when: str) -> bool:
    """The spell's Casting field allows this moment (R-SPELL-10). In a combat turn (``IN_COMBAT``:
    begun at 2.1, resolved at 2.5) every spell whose Casting names a moment that turn has, combat,
    any or movement, is cast that way (ruling D-M2, revised 2026-12-06); the Explore phase is
    skipped in combat (R-TURN-12), so an Explore spell waits for the monsters to be gone."""
    if when == IN_COMBAT:
        return spell.casting in COMBAT_TURN_CASTING
    return spell.casting == "any" or spell.casting == when


def at_once_allowed(g: Context, when: str) -> bool:
    """A spell may be cast to resolve at once (Movement, Explore) only outside combat: while any
    monster is on the board every spell is begun at Spell Selection (2.1) and resolved at 2.5
    (ruling D-M2 revised 2026-12-06, checklist section F)."""
    return when == IN_COMBAT or not any_monster(g)


def known(g: Context, h: int) -> list[int]:
    """The hero's spells in catalogue order (SPELL_k is the k-th)."""
    return g.state.spell_known[h].nonzero()[0].tolist()[:MAX_SPELLS_KNOWN]


def may_cast(g: Context, h: int) -> bool:
    """On the board, not surprised (R-SURP-06), no spell begun yet this turn (A-19)."""
    s = g.state
    return s.unit_status[h] == ACTIVE and not s.surprised[h] and int(s.spell_turn[h]) != s.turn


def targets(g: Context, h: int, sp: int) -> list[int]:
    """Candidate targets of the spell cast by ``h``: heroes (ally, in seat order) or monsters (enemy,
    in the order they came on the board, which counts no figure the heroes never saw, unlike the
    slots that are reused) within range by path distance (A-39) and in line of sight; at most the
    10 nearest."""
    s = g.state
    spell = g.spells[sp]
    if spell.target == "self":
        return [h]
    if spell.target == "none":
        return []
    side = SIDE_HERO if spell.target == "ally" else SIDE_MONSTER
    here = int(s.unit_pos[h])
    units = [int(u) for u in np.flatnonzero((s.unit_status == ACTIVE) & (s.unit_side == side))]
    if spell.range == 0:
        return [u for u in units if u == h]
    dist = path_distances(g.tables, [here], s.door_open)

    def order(u: int) -> int:
        return u if side == SIDE_HERO else int(s.unit_uid[u])

    near = [
        (dist[int(s.unit_pos[u])], order(u), u)
        for u in units
        if dist[int(s.unit_pos[u])] <= spell.range and sees(g, here, int(s.unit_pos[u]))
    ]
    return [u for _, _, u in sorted(sorted(near)[:MAX_TARGETS], key=lambda row: row[1])]


def castable(g: Context, h: int, sp: int, when: str, scroll: bool) -> bool:
    """The spell could be begun now: its timing, the recast ban, Magic (not for a scroll) and, cast
    at once (not in combat, where targets are chosen in 2.5), a target in reach."""
    s = g.state
    spell = g.spells[sp]
    if not fits(spell, when) or effects.spell_in_play(g, sp) or not at_once_allowed(g, when):
        return False
    if not effects.usable_now(g, spell.effect):
        return False  # no trap detection in combat (R-TRAP-08)
    if not scroll and s.magic[h] < spell.level:
        return False
    return when == IN_COMBAT or spell.target != "enemy" or bool(targets(g, h, sp))


def spell_level_total(g: Context, h: int) -> int:
    return sum(g.spells[sp].level for sp in known(g, h))


# ------------------------------------------------------------------------ Movement and Explore casting


def spell_actions(g: Context, h: int, when: str) -> list[int]:
    """SPELL_k for each known spell the hero may do something with now (in the Explore phase each
    may at least be forgotten), except one it went BACK from in this phase."""
    declined = g.state.declined_spells[h]
    if when == IN_EXPLORE:
        if g.state.unit_status[h] != ACTIVE or g.state.surprised[h]:
            return []
        return [SPELL_0 + k for k, sp in enumerate(known(g, h)) if not declined[sp]]
    if not may_cast(g, h):
        return []
    return [SPELL_0 + k for k, sp in enumerate(known(g, h)) if castable(g, h, sp, when, False)]


def pick_spell(g: Context, h: int, k: int, when: str) -> None:
    """The hero picked its k-th spell (SPELL_k): in the Movement phase cast it now; in the Explore
    phase ask what to do with it (SPELL_VERB)."""
    sp = known(g, h)[k]
    if when == IN_EXPLORE:
        g.push(Decision.SPELL_VERB, h, sp)
    else:
        begin_cast(g, h, sp, -1, when)


def legal_spell_verb(g: Context, unit: int, a: int, b: int) -> list[int]:
    """FORGET, USE if it can be cast now, and always BACK: a spell that cannot be cast here is never
    forgotten by picking it (ruling D-08b)."""
    verbs = [FORGET, BACK]
    if may_cast(g, unit) and castable(g, unit, a, IN_EXPLORE, False):
        verbs.append(USE)
    return sorted(verbs)


def do_spell_verb(g: Context, unit: int, a: int, b: int, action: int) -> None:
    if action == USE:
        begin_cast(g, unit, a, -1, IN_EXPLORE)
    elif action == BACK:
        g.state.declined_spells[unit, a] = True
        g.log({"type": "back", "unit": label(g, unit), "spell": g.spells[a].id, "turn": g.state.turn})
    else:
        forget(g, unit, a, "choice")


def forget(g: Context, h: int, sp: int, reason: str) -> None:
    """The spell card is discarded: gone for the rest of the adventure (R-SPELL-07, A-21)."""
    g.state.spell_known[h, sp] = False
    g.log(
        {
            "type": "forget",
            "unit": label(g, h),
            "spell": g.spells[sp].id,
            "reason": reason,
            "turn": g.state.turn,
        }
    )


# ---------------------------------------------------------------------------------- scrolls, memorize


def scroll_spell(g: Context, item: int) -> int:
    return g.spell_index[inventory.card_of(g, item).spell]


def can_cast_scroll(g: Context, h: int, item: int, when: str) -> bool:
    """A scroll is read at its spell's moments; an unidentified one at any spell moment (its spell
    is not known yet, R-SPELL-14)."""
    if when not in SPELL_MOMENTS or not may_cast(g, h) or not at_once_allowed(g, when):
        return False
    if not g.state.item_known[item]:
        return True
    return castable(g, h, scroll_spell(g, item), when, True)


def cast_scroll(g: Context, h: int, item: int, when: str) -> None:
    begin_cast(g, h, scroll_spell(g, item), item, when)


def can_memorize(g: Context, h: int, item: int) -> bool:
    """Explore phase only (the caller's), one a phase, an identified scroll, a spell not known yet,
    and the total level within base Magic (R-SPELL-04/06, R-SPELL-14, A-21, A-22)."""
    s = g.state
    card = inventory.card_of(g, item)
    if card.deck != "spells" or not s.item_known[item] or s.memorized[h] or s.base_magic[h] <= 0:
        return False
    sp = g.spell_index[card.spell]
    if s.spell_known[h, sp] or len(known(g, h)) >= g.rules.max_spells:
        return False
    return spell_level_total(g, h) + g.spells[sp].level <= s.base_magic[h]


def memorize(g: Context, h: int, item: int) -> None:
    s = g.state
    sp = scroll_spell(g, item)
    s.spell_known[h, sp] = True
    s.memorized[h] = True
    s.acted[h] = True
    inventory.destroy(g, item)
    g.log({"type": "memorize", "unit": label(g, h), "spell": g.spells[sp].id, "item": item, "turn": s.turn})


# ------------------------------------------------------------------------------ 2.1 Spell Selection


def begin_spell_selection(g: Context) -> None:
    """2.1: monsters held by a sleep effect will skip their movement; then each hero that may begin a
    combat spell (or read a scroll) is asked, hero_0 first."""
    s = g.state
    for row in s.effects:
        if row[EFFECT_KIND] == effects.SLEEP and effects.live(g, row):
            s.skip_move[row[EFFECT_UNIT]] = True
    for h in reversed(range(s.n_heroes)):
        if selection_options(g, h):
            g.push(Decision.SPELL_SELECT, h)


def resume_spell_selection(g: Context) -> None:
    g.goto(Phase.MONSTER_MOVEMENT)


def selection_options(g: Context, h: int) -> list[int]:
    if not may_cast(g, h):
        return []
    opts = [SPELL_0 + k for k, sp in enumerate(known(g, h)) if castable(g, h, sp, IN_COMBAT, False)]
    for k, item in enumerate(inventory.held(g, h)[:MAX_ITEMS_HELD]):
        if inventory.card_of(g, item).deck == "spells" and can_cast_scroll(g, h, item, IN_COMBAT):
            opts.append(ITEM_0 + k)
    return opts


def legal_spell_select(g: Context, unit: int, a: int, b: int) -> list[int]:
    return sorted([END, *selection_options(g, unit)])


def do_spell_select(g: Context, unit: int, a: int, b: int, action: int) -> None:
    """The hero begins casting one spell (R-CTS-02): it resolves in 2.5 unless it fails first."""
    s = g.state
    if action == END:
        return
    if action >= SPELL_0:
        sp, item = known(g, unit)[action - SPELL_0], -1
    else:
        item = inventory.held(g, unit)[action - ITEM_0]
        sp = scroll_spell(g, item)
    s.casting_spell[unit], s.casting_item[unit] = sp, item
    s.spell_turn[unit] = s.turn
    s.acted[unit] = True
    g.log(
        {
            "type": "spell_select",
            "unit": label(g, unit),
            "spell": g.spells[sp].id if item < 0 or s.item_known[item] else None,
            "item": item if item >= 0 else None,
            "turn": s.turn,
        }
    )


def fail(g: Context, h: int, reason: str) -> None:
    """The selected spell fails: no effect, no Magic paid, the scroll kept (R-SPELL-13)."""
    fail_spell(g, h, reason)


# ------------------------------------------------------------------------- 2.4 casting while fighting


def ask_cast_while_fighting(g: Context) -> None:
    """Each casting hero in a Fight chooses before its first Fight's dice (A-24), hero_0 first."""
    s = g.state
    for h in reversed(range(s.n_heroes)):
        if s.casting_spell[h] >= 0 and s.fought[h]:
            g.push(Decision.CAST_WHILE_FIGHTING, h)


def legal_cast_while_fighting(g: Context, unit: int, a: int, b: int) -> list[int]:
    return [KEEP_CASTING, LET_FAIL]


def do_cast_while_fighting(g: Context, unit: int, a: int, b: int, action: int) -> None:
    """KEEP_CASTING: every Fight this phase on double ones (R-FIGHT-10); LET_FAIL: the spell fails."""
    s = g.state
    if action == KEEP_CASTING:
        s.double_ones[unit] = True
        g.log({"type": "keep_casting", "unit": label(g, unit), "turn": s.turn})
    else:
        fail(g, unit, "let_fail")


# ------------------------------------------------------------------------------- 2.5 Spell Resolution


def begin_spell_resolution(g: Context) -> None:
    """2.5: first the Mind Lash of monsters with Mental Combat (``mental``), then each hero's spell
    that did not fail, hero_0 first."""
    g.state.mind_queue = mental.lashers(g)
    resume_spell_resolution(g)


def resume_spell_resolution(g: Context) -> None:
    s = g.state
    while not s.outcome:
        if s.stack:
            return
        if s.mind_queue:
            mental.monster_attack(g, s.mind_queue.pop(0))
            continue
        casting = [h for h in range(s.n_heroes) if s.casting_spell[h] >= 0]
        if not casting:
            break
        resolve_selected(g, casting[0])
    if not s.outcome:
        g.goto(Phase.TURN_END if any_monster(g) else Phase.EXPLORE)


def resolve_selected(g: Context, h: int) -> None:
    s = g.state
    sp, item = int(s.casting_spell[h]), int(s.casting_item[h])
    if s.unit_status[h] != ACTIVE or (item >= 0 and s.item_holder[item] != h):
        fail(g, h, "gone")
        return
    s.casting_spell[h] = s.casting_item[h] = -1
    _start(g, h, sp, item, IN_COMBAT)


# ------------------------------------------------------------------------------------------- casting


def begin_cast(g: Context, h: int, sp: int, item: int, when: str) -> None:
    """Cast now, outside 2.1/2.5 (Movement or Explore phase): it counts as the hero's spell of the
    turn and breaks Rest."""
    s = g.state
    s.spell_turn[h] = s.turn
    s.acted[h] = True
    _start(g, h, sp, item, when)


def _start(g: Context, h: int, sp: int, item: int, when: str) -> None:
    """Checks made as the spell resolves, then the Overcast choice (CAST_MODE)."""
    s = g.state
    spell = g.spells[sp]
    if item >= 0 and not s.item_known[item]:
        inventory.reveal(g, item, "cast")  # an unidentified scroll shows its spell (R-SPELL-14)
    reason = None
    if not fits(spell, when):
        reason = "timing"  # an unidentified scroll read at the wrong moment: revealed, kept
    elif effects.spell_in_play(g, sp):
        reason = "in_play"
    elif item < 0 and s.magic[h] < spell.level:
        reason = "magic"  # Magic spent since the selection
    if reason:
        g.log(
            {"type": "spell_fail", "unit": label(g, h), "spell": spell.id, "reason": reason, "turn": s.turn}
        )
        return
    s.cast = [h, sp, item, -1, -1, SPELL_MOMENTS.index(when)]
    g.push(Decision.CAST_MODE, h, sp, item)


def legal_cast_mode(g: Context, unit: int, a: int, b: int) -> list[int]:
    return [NORMAL_CAST, OVERCAST] if g.spells[a].overcast is not None else [NORMAL_CAST]


def do_cast_mode(g: Context, unit: int, a: int, b: int, action: int) -> None:
    s = g.state
    s.cast[CAST_MODE] = OVERCAST_MODE if action == OVERCAST else NORMAL
    spell = g.spells[a]
    if spell.target in ("self", "none"):
        s.cast[CAST_TARGET] = unit if spell.target == "self" else -1
        _pay(g)
        return
    if not targets(g, unit, a):
        s.cast = []
        g.log(
            {
                "type": "spell_fail",
                "unit": label(g, unit),
                "spell": spell.id,
                "reason": "no_target",
                "turn": s.turn,
            }
        )
        return
    g.push(Decision.CHOOSE_TARGET, unit, TARGET_SPELL, a)


def cast_at(g: Context, unit: int, sp: int, target: int) -> None:
    """The caster chose the target of the spell it is casting (a CHOOSE_TARGET among
    ``targets(g, unit, sp)``): the spell is cast."""
    g.state.cast[CAST_TARGET] = target
    _pay(g)


def _pay(g: Context) -> None:
    """The spell is cast: Magic paid (none from a scroll, R-SPELL-03/08), the scroll destroyed
    (R-SPELL-02); a Mental Combat spell then fights for its effect."""
    s = g.state
    h, sp, item, mode, target = s.cast[:5]
    spell = g.spells[sp]
    cost = 0 if item >= 0 else spell.level
    s.magic[h] -= cost
    if item >= 0:
        inventory.destroy(g, item)
    g.log(
        {
            "type": "cast",
            "unit": label(g, h),
            "spell": spell.id,
            "mode": "overcast" if mode == OVERCAST_MODE else "normal",
            "target": label(g, target) if target >= 0 else None,
            "magic": cost,
            "scroll": item >= 0,
            "turn": s.turn,
        }
    )
    if spell.mental:
        mental.start(g, h, target, mental.PURPOSE_SPELL)
    else:
        _land(g, True)


def after_mental(g: Context, caster: int, target: int, result: int) -> None:
    """A Mental Combat spell's duel is decided: the effect lands on a win, or on a tie if the spell
    says ties favour the caster."""
    spell = g.spells[g.state.cast[CAST_SPELL]]
    _land(g, result == mental.AGGRESSOR_WINS or (result == mental.TIE and spell.mental_tie == "caster"))


def _land(g: Context, lands: bool) -> None:
    s = g.state
    h, sp, item, mode, target, _ = s.cast
    s.cast = []
    spell = g.spells[sp]
    if lands:
        effect = spell.overcast if mode == OVERCAST_MODE else spell.effect
        effects.apply_effect(g, effect, f"spell:{spell.id}", target if target >= 0 else h, by=h)
    if mode == OVERCAST_MODE and not s.outcome:
        backlash(g, h, sp, item)


def backlash(g: Context, h: int, sp: int, item: int) -> None:
    """After an Overcast, d6: 1 the spell is forgotten (from a scroll: the scroll is simply gone),
    2-5 the caster loses Health equal to the level under the Death's Door rules, 6 nothing
    (R-SPELL-11/12, A-20)."""
    s = g.state
    if s.unit_status[h] != ACTIVE:
        return
    spell = g.spells[sp]

    forget_max, safe = g.rules.overcast_forget_max, g.rules.overcast_safe_min

    def result(total: int) -> str:
        return "forget" if total <= forget_max else ("wound" if total < safe else "none")

    total = g.check("overcast", label(g, h), "misc", {}, result)
    if total <= forget_max:
        if item < 0:
            forget(g, h, sp, "overcast")
    elif total < safe:
        hurt_hero(g, h, spell.level, f"overcast:{spell.id}")
        check_corpses(g)
        if not active_heroes(g):
            g.check_end()


# ------------------------------------------------------------------------------------ adventure end


def end_adventure(g: Context) -> None:
    """The adventure is over: memorized spell cards are discarded (R-SPELL-05, R-END-04) and ongoing
    effects end. Starting spells come back with the next adventure's set-up (A-21)."""
    s = g.state
    for h in range(s.n_heroes):
        for sp in known(g, h):
            g.log({"type": "spell_discarded", "unit": label(g, h), "spell": g.spells[sp].id, "turn": s.turn})
    s.spell_known[:] = False
    s.casting_spell[:] = -1
    s.casting_item[:] = -1
    s.effects = []
