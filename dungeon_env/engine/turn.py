"""The turn as a pipeline of phases (TURN, CTS).

``begin(g)`` runs the automatic opening of the current phase; it either pushes a decision or moves
on with ``g.goto(next_phase)``. After every applied decision, ``resume(g)`` asks the current phase
for its next decision or ends it. The Combat Turn Sequence is in effect while any monster is on the
board (R-TURN-15): after Movement come 2.1 Spell Selection, 2.2 Monsters' Movement, 2.3 Evasion,
2.4 Fighting and 2.5 Spell Resolution; then Explore and Trade if no monster remains (R-CTS-08).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dungeon_env.engine import abilities, effects, explore, items, movement, spells, trade
from dungeon_env.engine.actions import HANDOFF_ACTIONS, IN_EVASION, Decision, Phase
from dungeon_env.engine.combat import begin_fighting
from dungeon_env.engine.encounters import roll_patrols
from dungeon_env.engine.state import ACTIVE, NO_UNIT
from dungeon_env.engine.units import (
    active_heroes,
    active_monsters,
    any_monster,
    check_corpses,
    deaths_door_roll,
    gain_stamina,
    label,
)
from dungeon_env.engine.visibility import wake_guards

if TYPE_CHECKING:
    from dungeon_env.engine.context import Context

_PHASE_NAMES = {int(phase): phase.name.lower() for phase in Phase}  # as logged in "phase" events


def begin(g: Context) -> None:
    s = g.state
    g.log({"type": "phase", "phase": _PHASE_NAMES[s.phase], "turn": s.turn})
    s.declined_items[:] = False  # what a hero went back from is offered again in a new phase
    s.declined_spells[:] = False
    _BEGIN[s.phase](g)


def resume(g: Context) -> None:
    """Called when the stack is empty after a decision: continue or finish the current phase."""
    go_on = _RESUME.get(g.state.phase)
    if go_on is not None:
        go_on(g)


def turn_start(g: Context) -> None:
    """Step 1: Patrol rolls, then recovery: +1 Stamina, or +2 Stamina and +1 Magic (Learned +2)
    after a turn of Rest (R-TURN-03/04, R-REST-03..05; ``rules.recover_stamina``, ``rules.rest_*``)."""
    s, r = g.state, g.rules
    roll_patrols(g)
    for h in active_heroes(g):
        rested = bool(s.rested_last[h])
        gain_stamina(g, h, r.rest_stamina if rested else r.recover_stamina)
        if rested:
            magic = r.rest_magic_learned if g.has_trait(h, "learned") else r.rest_magic
            s.magic[h] = min(int(s.base_magic[h]), int(s.magic[h]) + magic)
        g.log(
            {
                "type": "recover",
                "unit": label(g, h),
                "rested": rested,
                "stamina": int(s.stamina[h]),
                "magic": int(s.magic[h]),
                "turn": s.turn,
            }
        )
    g.goto(Phase.HERO_MOVEMENT)


def hero_movement(g: Context) -> None:
    """Step 2: every hero not surprised gets its Movement allowance (-1 at Light 0,
    ``light.dark_penalty``)."""
    s = g.state
    penalty = g.rules.light_dark_penalty if s.light == 0 else 0
    for h in range(s.n_heroes):
        _reset_phase_flags(g, h)
        can_move = s.unit_status[h] == ACTIVE and not s.surprised[h]
        allowance = int(s.base_move[h]) + effects.move_bonus(g, h) - penalty
        s.move_left[h] = max(0, allowance) if can_move else 0
        s.move_done[h] = not can_move
    s.idle_handoffs, s.progress = 0, False
    _next_hero(g, start=0)


def _reset_phase_flags(g: Context, u: int) -> None:
    s = g.state
    s.move_bought[u] = 0
    s.moved[u] = s.jumped[u] = s.deferred[u] = False


def _next_hero(g: Context, start: int | None = None) -> None:
    """Give control to the hero that continues: the current one if it is not done, else the next
    hero (in index order, wrapping) that is not done; end the phase when all are done."""
    s = g.state
    if s.outcome:
        return
    current = s.controller if start is None else start
    n = s.n_heroes
    for k in range(n):
        h = (current + k) % n
        if s.unit_status[h] == ACTIVE and not s.move_done[h]:
            if h != current:
                s.progress = False
            s.controller = h
            kind = Decision.HERO_MOVE if s.phase == Phase.HERO_MOVEMENT else Decision.HERO_EVADE
            g.push(kind, h)
            return
    if s.phase == Phase.HERO_MOVEMENT:
        s.dragging[:] = NO_UNIT  # every drag ends with its dragger's Movement (R-DEATH-04 revised)
        check_corpses(g)
        g.goto(Phase.SPELL_SELECTION if any_monster(g) else Phase.EXPLORE)
    else:
        g.goto(Phase.FIGHTING)


def handoffs(g: Context, h: int) -> list[int]:
    """Heroes ``h`` may hand control to; none if ``h`` has not acted since it got control and has
    already made its one idle hand-off of the phase (ruling D-04)."""
    s = g.state
    if not s.progress and s.idle_handoffs >> h & 1:
        return []
    return [
        HANDOFF_ACTIONS[k]
        for k in range(s.n_heroes)
        if k != h and s.unit_status[k] == ACTIVE and not s.move_done[k]
    ]


def handoff(g: Context, to: int) -> None:
    """Give control to hero ``to`` (ruling D-04). A hand-off made before the hero in control has
    acted is idle: each hero may make one per phase (bit ``h`` of ``idle_handoffs``)."""
    s = g.state
    if not s.progress:
        s.idle_handoffs |= 1 << int(s.controller)
    s.progress = False
    s.controller = to
    g.log({"type": "handoff", "to": label(g, to), "turn": s.turn})


def spell_selection(g: Context) -> None:
    """2.1: heroes pick spells to begin casting."""
    spells.begin_spell_selection(g)


def monster_movement(g: Context) -> None:
    """2.2: every monster that is awake and not surprised moves, in reading order; the DM may
    defer a monster once (R-CTS-03, R-MON-02)."""
    s = g.state
    wake_guards(g)
    s.queue = []
    s.controller = NO_UNIT
    for m in active_monsters(g):
        _reset_phase_flags(g, m)
        s.move_done[m] = False
        s.move_left[m] = s.base_move[m]
        s.move_from[m] = s.unit_pos[m]
        if not s.skip_move[m] and not s.inactive[m]:
            s.queue.append(m)
    s.skip_move[:] = False  # a monster's surprise (or sleep) skips this one Monsters' Movement (A-25)
    _next_monster(g)


def _next_monster(g: Context) -> None:
    s = g.state
    if s.outcome:
        return
    owner = s.controller
    if owner >= s.n_heroes and not s.move_done[owner] and s.unit_status[owner] == ACTIVE:
        g.push(Decision.MONSTER_MOVE, owner)
        return
    while s.queue:
        m = s.queue.pop(0)
        if s.unit_status[m] == ACTIVE and not s.move_done[m]:
            s.controller = m
            g.push(Decision.MONSTER_MOVE, m)
            return
    s.controller = NO_UNIT
    g.goto(Phase.EVASION)


def evasion(g: Context) -> None:
    """2.3: every hero not surprised gets its Evasion window when it has anything it may do there
    (ruling A-58 revised 2026-12-06): an Evade step it can pay for (2 Stamina a square, not
    Exhausted: R-CTS-04, ``rules.evade_cost``), an item or an Active ability of that moment, even
    at Stamina below 2 or Exhausted."""
    s = g.state
    for h in range(s.n_heroes):
        _reset_phase_flags(g, h)
        able = s.unit_status[h] == ACTIVE and not s.surprised[h]
        s.move_done[h] = not (able and _has_evasion_choice(g, h))
    s.idle_handoffs, s.progress = 0, False
    _next_hero(g, start=0)


def _has_evasion_choice(g: Context, h: int) -> bool:
    return bool(
        movement.can_pay_evade(g, h)
        or items.item_actions(g, h, IN_EVASION)
        or abilities.ability_actions(g, h, IN_EVASION)
    )


def fighting(g: Context) -> None:
    """2.4: resolve all Fights."""
    if not begin_fighting(g):
        g.goto(Phase.SPELL_RESOLUTION)


def spell_resolution(g: Context) -> None:
    """2.5: spells that did not fail resolve; then Turn End if monsters remain, else Explore."""
    spells.begin_spell_resolution(g)


def turn_end(g: Context) -> None:
    """Step 5: Death's Door rolls for heroes that did not Rest, then Light -1 (R-TURN-14,
    ``light.per_turn``)."""
    s = g.state
    rested = {h: not s.acted[h] and not s.fought[h] for h in active_heroes(g)}
    for h in active_heroes(g):
        if rested[h]:
            g.log({"type": "rest", "unit": label(g, h), "turn": s.turn})
    for h in active_heroes(g):
        if s.deaths_door[h] and not rested[h]:
            deaths_door_roll(g, h, s.downed_by[h])  # a death names what put it on Death's Door
    effects.tick(g)
    s.light = max(0, s.light - g.rules.light_per_turn)
    g.log({"type": "light", "light": s.light, "turn": s.turn})
    check_corpses(g)
    g.check_end()
    if s.outcome:
        return
    _close_turn(g, rested)


def _close_turn(g: Context, rested: dict[int, bool]) -> None:
    s, t = g.state, g.tables
    s.patrol_corridors[:] = False
    for h in active_heroes(g):
        area = int(t.area[s.unit_pos[h]])
        if t.is_corridor[area]:
            s.patrol_corridors[area] = True
    s.rested_last[:] = False
    for h, rested_now in rested.items():
        s.rested_last[h] = rested_now
    s.surprised &= s.surprise_until > s.turn  # a surprise rolled after the Movement lasts one more turn
    s.acted[:] = False
    s.fought[:] = False
    for flags in (s.exploring, s.memorized, s.identified, s.gave, s.received, s.disarm_tried, s.double_ones):
        flags[:] = False
    s.door_tried[:] = False
    if s.turn >= g.max_turns:
        g.finish("truncated", f"turn cap of {g.max_turns} turns reached")
        return
    s.turn += 1
    g.goto(Phase.TURN_START)


_RESUME = {  # what resume() does in each phase that has decisions (none in the others)
    Phase.HERO_MOVEMENT: _next_hero,
    Phase.EVASION: _next_hero,
    Phase.MONSTER_MOVEMENT: _next_monster,
    Phase.FIGHTING: lambda g: g.goto(Phase.SPELL_RESOLUTION),
    Phase.SPELL_SELECTION: spells.resume_spell_selection,
    Phase.SPELL_RESOLUTION: spells.resume_spell_resolution,
    Phase.EXPLORE: explore.resume_explore,
    Phase.TRADE: trade.resume_trade,
}

_BEGIN = {
    Phase.TURN_START: turn_start,
    Phase.HERO_MOVEMENT: hero_movement,
    Phase.SPELL_SELECTION: spell_selection,
    Phase.MONSTER_MOVEMENT: monster_movement,
    Phase.EVASION: evasion,
    Phase.FIGHTING: fighting,
    Phase.SPELL_RESOLUTION: spell_resolution,
    Phase.EXPLORE: explore.begin_explore,
    Phase.TRADE: trade.begin_trade,
    Phase.TURN_END: turn_end,
}
