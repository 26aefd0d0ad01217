"""Movement: heroes' Movement phase (steps, doors, jumps, dragging, exits), Evasion, and the DM's
monster movement. Each ``legal_*`` lists the legal actions of one decision; each ``do_*`` applies
one, already known to be legal."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from dungeon_env.engine import core, effects, pursuit, traps
from dungeon_env.engine.actions import (
    DEFER,
    DRAG_ACTIONS,
    DRAG_N,
    END,
    EXTRA_MOVE,
    JUMP_ACTIONS,
    JUMP_N,
    MOVE_ACTIONS,
    MOVE_N,
    Decision,
    Phase,
)
from dungeon_env.engine.board import free, is_corpse, is_jumpable, open_side
from dungeon_env.engine.casting import fail_spell, is_casting
from dungeon_env.engine.encounters import trigger_ambushes
from dungeon_env.engine.state import ACTIVE, CORPSE_OUT, EXITED, NO_UNIT
from dungeon_env.engine.units import check_corpses, has_trait, label, put, spend_stamina, take_off
from dungeon_env.engine.visibility import look

if TYPE_CHECKING:
    from dungeon_env.engine.context import Context

# the action ids the core offers in a Movement (engine/actions.py)
MOVE_IDS = (MOVE_N, EXTRA_MOVE, END, DEFER, JUMP_N, DRAG_N)


def _is_free_corpse(g: Context, sq: int) -> bool:
    """A corpse on ``sq`` that no hero is dragging already (a corpse trails one dragger)."""
    return is_corpse(g, sq) and not bool(np.any(g.state.dragging == g.state.occupant[sq]))


def can_buy_move(g: Context, u: int) -> bool:
    s = g.state
    return s.move_bought[u] < g.rules.move_stamina_max and s.stamina[u] > 0 and not s.exhausted[u]


def legal_hero_move(g: Context, h: int) -> list[int]:
    """A step or an Open Doors attempt, a Jump and a Drag in each direction, a bought square, END
    (R-MOVE, R-JUMP, A-29, A-42). Computed by the compiled core; :func:`legal_hero_move_reference` is
    its Python version."""
    return core._core.hero_move_actions(core.board(g.tables), g.state, h, g.rules.move_stamina_max, MOVE_IDS)


def legal_hero_move_reference(g: Context, h: int) -> list[int]:
    """The Python reference of :func:`legal_hero_move` (tests/test_core_pursuit.py)."""
    s = g.state
    sq = int(s.unit_pos[h])
    left = int(s.move_left[h])
    may_jump = left >= 2 and not s.jumped[h] and s.dragging[h] == NO_UNIT
    may_drag = left >= 1 and not s.moved[h] and s.dragging[h] == NO_UNIT
    acts = []
    door_open = s.door_open
    for d, (nxt, door) in enumerate(g.tables.sides[sq]):
        if nxt < 0:
            continue
        if door >= 0 and not door_open[door]:
            if not s.door_tried[h, door] and not s.door_hidden[door]:  # a hidden door is a wall
                acts.append(MOVE_ACTIONS[d])  # an Open Doors attempt (A-29: costs no movement)
            continue
        if left >= 1 and free(g, nxt):
            acts.append(MOVE_ACTIONS[d])
        if may_jump and _jumpable(g, nxt):
            land = open_side(g, nxt, d)
            if land >= 0 and free(g, land):
                acts.append(JUMP_ACTIONS[d])
        if may_drag and _is_free_corpse(g, nxt):
            acts.append(DRAG_ACTIONS[d])
    if can_buy_move(g, h):
        acts.append(EXTRA_MOVE)
    acts.append(END)
    return acts


def _jumpable(g: Context, sq: int) -> bool:
    """A one-square obstacle a hero may Jump: furniture, a corpse, a detected trap or a hazard
    (R-JUMP-02, A-42)."""
    return bool(g.tables.furniture[sq]) or is_corpse(g, sq) or is_jumpable(g, sq)


def do_hero_move(g: Context, h: int, action: int) -> None:
    """A step (or an Open Doors attempt), Jump, Drag, bought square or END of the hero's Movement."""
    s = g.state
    s.progress = True
    if action < JUMP_N:
        d = action - MOVE_N
        door = g.tables.edge_door[s.unit_pos[h], d]
        if door >= 0 and not s.door_open[door]:
            _open_door(g, h, int(door))
        else:
            s.move_left[h] -= 1
            step(g, h, int(g.tables.neighbor[s.unit_pos[h], d]))
    elif JUMP_N <= action < DRAG_N:
        _jump(g, h, action - JUMP_N)
    elif DRAG_N <= action < EXTRA_MOVE:
        corpse = int(s.occupant[g.tables.neighbor[s.unit_pos[h], action - DRAG_N]])
        s.dragging[h] = corpse
        s.move_left[h] -= 1
        s.acted[h] = True
        g.log({"type": "drag", "unit": label(g, h), "corpse": label(g, corpse), "turn": s.turn})
    elif action == EXTRA_MOVE:
        spend_stamina(g, h, 1)
        s.move_bought[h] += 1
        s.move_left[h] += 1
        s.acted[h] = True
        g.log({"type": "extra_move", "unit": label(g, h), "stamina": int(s.stamina[h]), "turn": s.turn})
    elif action == END:
        end_movement(g, h)
        if traps.disarm_actions(g, h):
            g.push(Decision.DISARM, h)


def end_movement(g: Context, h: int) -> None:
    """The hero's Movement is over; a drag ends with it, so the corpse stays where it is and is
    safe only if a hero stays with it (R-DEATH-04 revised, A-46)."""
    s = g.state
    s.move_done[h] = True
    if s.dragging[h] != NO_UNIT:
        s.dragging[h] = NO_UNIT
        check_corpses(g)


def step(g: Context, u: int, to: int) -> None:
    """Move a figure one square (a dragged corpse follows into the square it left), then apply what
    entering the square does: exits, ambushes, revealing, corpse safety."""
    s = g.state
    frm = int(s.unit_pos[u])
    s.occupant[frm] = NO_UNIT
    put(g, u, to)
    s.moved[u] = True
    s.acted[u] = True
    corpse = int(s.dragging[u])
    if corpse != NO_UNIT:
        take_off(g, corpse)
        put(g, corpse, frm)
    g.log(
        {"type": "move", "unit": label(g, u), "from": list(g.xy(frm)), "to": list(g.xy(to)), "turn": s.turn}
    )
    traps.on_enter(g, u, to)
    if u >= s.n_heroes or s.unit_status[u] != ACTIVE:
        check_corpses(g)
        g.check_end()
        return
    if g.tables.exit[to] and s.phase in (Phase.HERO_MOVEMENT, Phase.EVASION):
        leave_dungeon(g, u)
        return
    if g.tables.area[to] != g.tables.area[frm]:
        s.visited[g.tables.area[to]] = True
        trigger_ambushes(g, u)
    look(g, [u])
    check_corpses(g)
    g.check_end()


def leave_dungeon(g: Context, h: int) -> None:
    """A hero entering an exit square leaves the board for good (ruling A-49); a corpse it drags
    leaves with it (A-48)."""
    s = g.state
    take_off(g, h)
    s.unit_status[h] = EXITED
    s.move_done[h] = True
    corpse = int(s.dragging[h])
    g.log({"type": "exit", "unit": label(g, h), "turn": s.turn})
    if corpse != NO_UNIT:
        take_off(g, corpse)
        s.unit_status[corpse] = CORPSE_OUT
        g.log({"type": "corpse_out", "unit": label(g, corpse), "carrier": label(g, h), "turn": s.turn})
    check_corpses(g)
    g.check_end()


def _open_door(g: Context, h: int, door: int) -> None:
    """Open Doors roll (R-DOOR-02..07): 1-2 failed and the door is alerted, 3-4 failed, 5-6 open
    (``rules.door_alert_max``, ``rules.door_open_min``)."""
    s = g.state
    s.door_tried[h, door] = True
    s.acted[h] = True
    alert, opened = g.rules.door_alert_max, g.rules.door_open_min
    modifiers = {"strong": 1} if has_trait(g, h, "strong") else {}
    modifiers.update(effects.check_modifiers(g, h, "open_door"))

    def result(total: int) -> str:
        return "failed_alert" if total <= alert else ("failed" if total < opened else "opened")

    total = g.check("open_door", label(g, h), "doors", modifiers, result)
    if total <= alert:
        s.door_alert[door] = True
    if total >= opened:
        s.door_open[door] = True
        s.closed_bits &= ~(1 << door)
        g.log(
            {
                "type": "door_opened",
                "door": door,
                "by": label(g, h),
                "squares": [list(g.xy(q)) for q in g.tables.door_squares[door]],
                "turn": s.turn,
            }
        )
        look(g, g.active_heroes(), alert=bool(s.door_alert[door]))


def _jump(g: Context, h: int, d: int) -> None:
    """Jump roll d6 (+1 Agile): 4-6 lands beyond the obstacle and may go on; 1-3 ends the
    movement on the take-off square (R-JUMP-04/05; ``rules.jump_min``). A Jump costs 2 squares (A-42)."""
    s = g.state
    s.jumped[h] = True
    s.acted[h] = True
    need = g.rules.jump_min
    modifiers = {"agile": 1} if has_trait(g, h, "agile") else {}
    modifiers.update(effects.check_modifiers(g, h, "jump"))
    total = g.check("jump", label(g, h), "jump", modifiers, lambda v: "success" if v >= need else "fail")
    if total >= need:
        s.move_left[h] -= 2
        over = int(g.tables.neighbor[s.unit_pos[h], d])
        step(g, h, int(g.tables.neighbor[over, d]))
    else:
        s.move_left[h] = 0
        end_movement(g, h)
        over = int(g.tables.neighbor[s.unit_pos[h], d])
        if is_jumpable(g, over) and free(g, over):
            step(g, h, over)  # a trap that does not block movement: the hero lands on it (R-JUMP-06)


def can_pay_evade(g: Context, h: int) -> bool:
    """The hero can pay for an Evade step: 2 Stamina (``rules.evade_cost``) and not Exhausted."""
    s = g.state
    return bool(s.stamina[h] >= g.rules.evade_cost and not s.exhausted[h])


def legal_evade(g: Context, h: int) -> list[int]:
    s = g.state
    sq = int(s.unit_pos[h])
    acts = []
    if can_pay_evade(g, h):
        for d in range(4):
            nxt = open_side(g, sq, d)
            if nxt >= 0 and free(g, nxt):
                acts.append(MOVE_ACTIONS[d])
    acts.append(END)
    return acts


def do_evade(g: Context, h: int, action: int) -> None:
    """An Evade step (a spell being cast fails, R-CTS-05) or END of the hero's Evasion."""
    s = g.state
    s.progress = True
    if action == END:
        s.move_done[h] = True
        return
    if is_casting(g, h):
        fail_spell(g, h, "evade")
    spend_stamina(g, h, g.rules.evade_cost)
    g.log({"type": "evade", "unit": label(g, h), "stamina": int(s.stamina[h]), "turn": s.turn})
    step(g, h, open_side(g, int(s.unit_pos[h]), action - MOVE_N))


def legal_monster_move(g: Context, m: int) -> list[int]:
    """Steps, Stamina for movement, END and DEFER, as far as the duty to attack allows
    (``pursuit``, R-MON-03): a step or END that would hold the monster back is not offered.
    Computed by the compiled core; :func:`legal_monster_move_reference` is its Python version."""
    return core._core.monster_move_actions(
        core.board(g.tables), g.state, m, g.rules.move_stamina_max, MOVE_IDS
    )


def legal_monster_move_reference(g: Context, m: int) -> list[int]:
    """The Python reference of :func:`legal_monster_move` (tests/test_core_pursuit.py)."""
    s = g.state
    steps = []
    if s.move_left[m] >= 1:
        door_open = s.door_open
        for d, (nxt, door) in enumerate(g.tables.sides[int(s.unit_pos[m])]):  # open_side, all round
            if nxt >= 0 and (door < 0 or door_open[door]) and free(g, nxt):
                steps.append((MOVE_ACTIONS[d], nxt))
    acts, end_ok = pursuit.allowed(g, m, steps)  # steps kept in order: the list stays sorted
    if can_buy_move(g, m):
        acts.append(EXTRA_MOVE)
    if end_ok or not acts:
        acts.append(END)
    if s.queue and not s.moved[m] and not s.deferred[m]:
        acts.append(DEFER)
    return acts


def do_monster_move(g: Context, m: int, action: int) -> None:
    s = g.state
    if action < JUMP_N:
        s.move_left[m] -= 1
        step(g, m, open_side(g, int(s.unit_pos[m]), action - MOVE_N))
    elif action == EXTRA_MOVE:
        spend_stamina(g, m, 1)
        s.move_bought[m] += 1
        s.move_left[m] += 1
        g.log({"type": "extra_move", "unit": label(g, m), "stamina": int(s.stamina[m]), "turn": s.turn})
    elif action == DEFER:
        s.deferred[m] = True
        s.queue.append(m)
        s.controller = NO_UNIT
    elif action == END:
        s.move_done[m] = True
