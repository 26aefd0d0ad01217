"""Rules of movement: R-TURN-06..10 (allowance, Stamina for squares, interleaving, occupied squares,
no diagonals), the hand-off mechanics of rulings D-04/D-05, Evasion movement details (R-CTS-04's
2 Stamina a square; Exhausted and surprised heroes cannot Evade; hand-offs), and that every
movement-type phase ends.

Arena squares used (tests/data/arena.toml; the board is in dungeon_env/content/board.txt)::

    room A: x 1..5, y 1..5 (walled; doors (3,0)-(3,1) and (5,3)-(6,3))
    corridor row y=6 (segments d, e, f) and y=13 (g, h, i): open from x=0 to x=23
    room F: x 7..11, y 7..12, a table on (9,9); blockage on (6,20); exit on (23,27)
"""

from __future__ import annotations

import random
from collections import deque

import pytest

from dungeon_env.engine import Game, Phase
from dungeon_env.engine.actions import (
    DEFER,
    DIR_DX,
    DIR_DY,
    DRAG_ACTIONS,
    END,
    EXTRA_MOVE,
    HANDOFF_ACTIONS,
    JUMP_ACTIONS,
    MOVE_ACTIONS,
    Action,
    Decision,
)
from dungeon_env.engine.game import IllegalActionError
from dungeon_env.engine.state import ACTIVE, EXITED
from dungeon_env.engine.units import kill_hero
from tests.builders import (
    add_monster,
    apply_past_explore,
    arena_game,
    at,
    enter_phase,
    events,
    line_up,
    place,
    refresh,
    set_unit,
)

N, E, S, W = MOVE_ACTIONS


def walk(g: Game, *actions: int) -> None:
    for a in actions:
        g.apply(a)


# ------------------------------------------------------------------------------- R-TURN-06 .. 10


def reachable(g: Game, h: int) -> dict[tuple[int, int], int]:
    """Squares hero ``h`` can reach with steps alone (no Stamina, no doors), each with the fewest
    squares of movement used, explored through the engine's own legal actions on copies."""
    start = at(g, h)
    best = {start: 0}
    todo = deque([g])
    while todo:
        cur = todo.popleft()
        for a in cur.legal_actions():
            if a not in MOVE_ACTIONS:
                continue
            nxt = cur.copy()
            before = int(nxt.state.move_left[h])
            nxt.apply(a)
            if at(nxt, h) == at(cur, h):  # an Open Doors attempt, not a step
                continue
            assert int(nxt.state.move_left[h]) == before - 1
            used = int(g.state.move_left[h]) - int(nxt.state.move_left[h])
            sq = at(nxt, h)
            if sq not in best or used < best[sq]:
                best[sq] = used
                if nxt.decision == (Decision.HERO_MOVE, h):
                    todo.append(nxt)
    return best


def test_R_TURN_06_movement_allowance_reaches_manhattan_5_not_6():
    """Corvin (Movement 5) in the top-left corner (1,1) of the empty 5x5 room A (doors closed):
    the squares he can reach are exactly those at Manhattan distance <= 5.

        y1  h . . . .      reachable: every square with dx + dy <= 5
        y2  . . . . .      not reachable (6 or more): (5,3) (4,4) (3,5) (5,4) (4,5) (5,5)
        ...
    """
    g = arena_game()
    place(g, 0, 1, 1)
    refresh(g)
    assert int(g.state.move_left[0]) == 5
    got = reachable(g, 0)
    room = {(x, y) for x in range(1, 6) for y in range(1, 6)}
    assert set(got) == {(x, y) for x, y in room if (x - 1) + (y - 1) <= 5}
    assert all(used == (x - 1) + (y - 1) for (x, y), used in got.items())
    assert (5, 2) in got and (3, 4) in got and (5, 3) not in got and (4, 4) not in got


def test_R_TURN_06_allowance_is_per_hero_and_runs_out():
    """Ysolde (Movement 6) walks 6 squares east along corridor row y=6 and then cannot step."""
    g = arena_game(["ysolde", "bram", "hob"])
    place(g, 0, 7, 6)
    refresh(g)
    walk(g, *[E] * 6)
    assert at(g, 0) == (13, 6) and int(g.state.move_left[0]) == 0
    assert E not in g.legal_actions() and W not in g.legal_actions()
    with pytest.raises(IllegalActionError):
        g.apply(E)
    assert [e["to"] for e in events(g, "move", unit="hero_0")] == [[x, 6] for x in range(8, 14)]


def test_R_TURN_07_up_to_3_stamina_for_3_more_squares():
    """Bram (Movement 4, Stamina 5) on corridor row y=6: 1 Stamina before walking, 2 more later
    (one point at a time, D-05), 7 squares in all; a 4th point is rejected; Stamina 5 -> 2.

        y6  . h . . . . . . .      (7,6) -> (14,6)
    """
    g = arena_game(["bram", "sela", "hob"])
    place(g, 0, 7, 6)
    refresh(g)
    g.apply(EXTRA_MOVE)
    assert int(g.state.move_left[0]) == 5 and int(g.state.stamina[0]) == 4
    walk(g, E, E, E, E, E)
    assert int(g.state.move_left[0]) == 0
    g.apply(EXTRA_MOVE)
    g.apply(E)
    g.apply(EXTRA_MOVE)
    assert EXTRA_MOVE not in g.legal_actions()
    with pytest.raises(IllegalActionError):
        g.apply(EXTRA_MOVE)
    g.apply(E)
    assert at(g, 0) == (14, 6)
    assert int(g.state.stamina[0]) == 2 and not g.state.exhausted[0]
    assert E not in g.legal_actions()
    assert [e["stamina"] for e in events(g, "extra_move", unit="hero_0")] == [4, 3, 2]
    # the limit is per Movement phase: next turn 3 more may be bought
    apply_past_explore(g, END)
    while g.state.turn == 1:
        apply_past_explore(g, END)
    assert EXTRA_MOVE in g.legal_actions() and g.decision == (Decision.HERO_MOVE, 0)
    g.apply(EXTRA_MOVE)
    g.apply(EXTRA_MOVE)
    g.apply(EXTRA_MOVE)
    assert int(g.state.move_left[0]) == 7 and EXTRA_MOVE not in g.legal_actions()


def test_R_TURN_08_split_moves_interleave():
    """A (Corvin, Movement 5) moves 2, hands to B (Ysolde) who moves 3, B hands back and A moves
    its last 3, through the square B has left.

        y13  . A . . . B . . .      A (5,13), B (10,13), C (20,13)
    """
    g = arena_game()
    line_up(g, (5, 13), (10, 13), (20, 13))
    refresh(g)
    walk(g, E, E)
    assert int(g.state.move_left[0]) == 3
    g.apply(HANDOFF_ACTIONS[1])
    assert g.decision == (Decision.HERO_MOVE, 1)
    walk(g, E, E, E)
    g.apply(HANDOFF_ACTIONS[0])
    assert g.decision == (Decision.HERO_MOVE, 0)
    walk(g, E, E, E)
    assert at(g, 0) == (10, 13) and at(g, 1) == (13, 13)
    assert int(g.state.move_left[0]) == 0 and int(g.state.move_left[1]) == 3
    order = [(e["unit"], e["to"][0]) for e in events(g, "move")]
    assert order == [
        ("hero_0", 6),
        ("hero_0", 7),
        ("hero_1", 11),
        ("hero_1", 12),
        ("hero_1", 13),
        ("hero_0", 8),
        ("hero_0", 9),
        ("hero_0", 10),
    ]
    assert [e["to"] for e in events(g, "handoff")] == ["hero_1", "hero_0"]


@pytest.mark.parametrize("blocker", ["ally", "monster", "corpse", "furniture", "blockage"])
def test_R_TURN_09_no_moving_through_or_onto_occupied_squares(blocker):
    """h0 faces an occupied square to its east (south for the blockage); it can neither step there
    nor get past it (the only way on is through it).

        ally/monster/corpse: y13  h0 X .   h0 (5,13), X (6,13)
        furniture:           y9   h0 T .   h0 (8,9), table (9,9)
        blockage:            x=6  h0 (6,19) above the blockage (6,20)  (its east is wall)
    """
    g = arena_game(["bram", "tovar", "gunnhild"])  # no Agile hero
    line_up(g, (5, 13), (2, 27), (3, 27))
    toward = E
    if blocker == "ally":
        place(g, 1, 6, 13)
    elif blocker == "monster":
        add_monster(g, "goblin", 6, 13)
    elif blocker == "corpse":
        place(g, 1, 6, 13)
        place(g, 2, 4, 13)  # a living hero stays with the corpse in corridor g
        kill_hero(g, 1)
    elif blocker == "furniture":
        place(g, 0, 8, 9)
    elif blocker == "blockage":
        place(g, 0, 6, 19)
        toward = S
    refresh(g)
    legal = g.legal_actions()
    assert toward not in legal
    with pytest.raises(IllegalActionError):
        g.apply(toward)
    before = at(g, 0)
    # nor around it in one line of steps: every reachable square keeps the blocker's square free
    got = reachable(g, 0)
    x, y = before
    dx, dy = DIR_DX[toward], DIR_DY[toward]
    assert (x + dx, y + dy) not in got
    if blocker in ("ally", "monster", "corpse"):
        assert (x + 2 * dx, y + 2 * dy) not in got  # corridor g is one square wide
    if blocker == "blockage":
        assert (6, 21) not in got


def test_R_TURN_09_monsters_do_not_pass_occupied_squares_either():
    """A Goblin on the junction (6,13) between another Goblin (5,13) and h0 (7,13): it may step
    north (6,12) or south (6,14), never east or west (h1 and h2 keep those two squares in the
    fight, so the duty to attack, R-MON-03, allows them).

        x:    5 6 7
        y11     h1
        y12     u
        y13   g G h0
        y14     v
        y15     h2
    """
    g = arena_game()
    line_up(g, (7, 13), (6, 11), (6, 15))
    m = add_monster(g, "goblin", 6, 13)
    add_monster(g, "goblin", 5, 13)
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    assert g.decision[0] == Decision.MONSTER_MOVE
    if g.decision != (Decision.MONSTER_MOVE, m):
        g.apply(DEFER)  # the Goblin on (5,13) comes first in reading order: it waits its turn
    assert g.decision == (Decision.MONSTER_MOVE, m)
    legal = g.legal_actions()
    assert E not in legal and W not in legal
    assert N in legal and S in legal


def test_R_TURN_10_no_diagonal_steps():
    """From (3,3) in room A every single action leaves Corvin on an orthogonal neighbour (or in
    place); the diagonal (4,4) is reached only by two steps costing 2 squares."""
    assert [a.name for a in Action][:4] == ["MOVE_N", "MOVE_E", "MOVE_S", "MOVE_W"]
    assert all(abs(dx) + abs(dy) == 1 for dx, dy in zip(DIR_DX, DIR_DY, strict=True))
    g = arena_game()
    place(g, 0, 3, 3)
    refresh(g)
    landed = set()
    for a in g.legal_actions():
        c = g.copy()
        c.apply(a)
        landed.add(at(c, 0))
    assert landed == {(3, 3), (3, 2), (4, 3), (3, 4), (2, 3)}
    got = reachable(g, 0)
    assert got[(4, 4)] == 2 and got[(2, 2)] == 2


# ------------------------------------------------------------------------------ hand-offs (D-04/05)


def test_D04_handoff_to_any_unfinished_hero_and_end_passes_in_index_order():
    """h0 hands to h2; h2 ends: control goes to the next unfinished hero after h2 in index order
    (wrapping), h0; h0 ends: h1; a finished hero cannot be handed control."""
    g = arena_game()
    assert g.legal_actions()[-2:] == [HANDOFF_ACTIONS[1], HANDOFF_ACTIONS[2]]
    g.apply(HANDOFF_ACTIONS[2])
    assert g.decision == (Decision.HERO_MOVE, 2)
    apply_past_explore(g, END)
    assert g.decision == (Decision.HERO_MOVE, 0)
    assert HANDOFF_ACTIONS[2] not in g.legal_actions()
    g.apply(W)
    apply_past_explore(g, END)
    assert g.decision == (Decision.HERO_MOVE, 1)
    assert not set(HANDOFF_ACTIONS) & set(g.legal_actions())  # everyone else is done
    apply_past_explore(g, END)  # the last hero done: the phase ends (no monster: the turn runs on to turn 2)
    assert g.state.turn == 2
    assert [e["phase"] for e in g.events if e["type"] == "phase" and e["turn"] == 1][1:3] == [
        "hero_movement",
        "explore",
    ]


def test_D04_one_idle_handoff_per_hero_per_phase():
    """Hand-offs before acting: h0 -> h1 -> h2 -> h0, then h0 may not pass again without acting;
    once it has acted it may hand off again; h1 back in control (idle, already used) may not."""
    g = arena_game()
    g.apply(HANDOFF_ACTIONS[1])
    g.apply(HANDOFF_ACTIONS[2])
    g.apply(HANDOFF_ACTIONS[0])
    assert g.decision == (Decision.HERO_MOVE, 0)
    assert not set(HANDOFF_ACTIONS) & set(g.legal_actions())
    with pytest.raises(IllegalActionError):
        g.apply(HANDOFF_ACTIONS[1])
    g.apply(W)  # acting restores the right to pass control
    assert {HANDOFF_ACTIONS[1], HANDOFF_ACTIONS[2]} <= set(g.legal_actions())
    g.apply(HANDOFF_ACTIONS[1])
    assert g.decision == (Decision.HERO_MOVE, 1)
    assert not set(HANDOFF_ACTIONS) & set(g.legal_actions())
    g.apply(EXTRA_MOVE)  # acting: Stamina for a square counts
    assert HANDOFF_ACTIONS[2] in g.legal_actions()

    # the limit is per hero, not a shared count: h0 -> h1 -> h0 leaves h0 unable to pass again
    g = arena_game()
    g.apply(HANDOFF_ACTIONS[1])
    g.apply(HANDOFF_ACTIONS[0])
    assert g.decision == (Decision.HERO_MOVE, 0)
    assert not set(HANDOFF_ACTIONS) & set(g.legal_actions())


def test_D04_idle_handoff_allowance_renews_each_phase():
    """The idle hand-off used in turn 1's Movement is available again in turn 2's, and in Evasion."""
    g = arena_game()
    add_monster(g, "orc", 20, 24)
    g.apply(HANDOFF_ACTIONS[1])
    g.apply(HANDOFF_ACTIONS[0])
    assert not set(HANDOFF_ACTIONS) & set(g.legal_actions())
    while g.state.phase == Phase.HERO_MOVEMENT:
        apply_past_explore(g, END)
    while g.state.phase != Phase.EVASION:
        apply_past_explore(g, END)
    assert g.decision == (Decision.HERO_EVADE, 0)
    g.apply(HANDOFF_ACTIONS[1])
    g.apply(HANDOFF_ACTIONS[0])
    assert g.decision == (Decision.HERO_EVADE, 0)
    assert not set(HANDOFF_ACTIONS) & set(g.legal_actions())
    while g.state.turn == 1:
        g.apply(END if END in g.legal_actions() else g.legal_actions()[0])
    assert g.decision == (Decision.HERO_MOVE, 0)
    assert {HANDOFF_ACTIONS[1], HANDOFF_ACTIONS[2]} <= set(g.legal_actions())


def test_D04_surprised_or_exited_heroes_cannot_take_control():
    g = arena_game()
    set_unit(g, 1, surprised=True)
    refresh(g)
    assert HANDOFF_ACTIONS[1] not in g.legal_actions()
    assert HANDOFF_ACTIONS[2] in g.legal_actions()


def test_D05_stamina_squares_can_be_bought_mid_move_after_a_handoff():
    """Bram walks his 4, hands off, gets control back with 0 left and buys a square then."""
    g = arena_game(["bram", "sela", "hob"])
    line_up(g, (7, 6), (2, 27), (3, 27))
    refresh(g)
    walk(g, E, E, E, E)
    g.apply(HANDOFF_ACTIONS[1])
    g.apply(HANDOFF_ACTIONS[0])
    assert g.legal_actions() == sorted([EXTRA_MOVE, END, HANDOFF_ACTIONS[1], HANDOFF_ACTIONS[2]])
    g.apply(EXTRA_MOVE)
    g.apply(E)
    assert at(g, 0) == (12, 6) and int(g.state.stamina[0]) == 4


def _adversarial(rng: random.Random):
    """A policy that tries not to end phases: hand off or defer when it can, otherwise anything
    but END (random), END only when nothing else is legal."""

    def choose(g: Game) -> int:
        legal = g.legal_actions()
        stall = [a for a in legal if a in HANDOFF_ACTIONS or a == DEFER]
        if stall and rng.random() < 0.8:
            return rng.choice(stall)
        others = [a for a in legal if a != END]
        return rng.choice(others) if others else END

    return choose


def test_every_phase_ends_under_a_stalling_policy():
    """30 games of up to 6 turns, with monsters awake nearby, played by a policy that hands off and
    defers whenever it can and never ends a move voluntarily: every phase still ends, well within
    a bound on decisions."""
    rng = random.Random(1234)
    longest = 0
    for seed in range(30):
        g = arena_game(seed=seed, max_turns=6)
        add_monster(g, "goblin", 8, 13)
        add_monster(g, "giant_rat", 12, 6)
        line_up(g, (7, 13), (10, 13), (12, 13))
        refresh(g)
        choose = _adversarial(rng)
        key, count = None, 0
        for _ in range(20_000):
            if g.over:
                break
            now = (g.state.turn, g.state.phase)
            count = count + 1 if now == key else 1
            key = now
            longest = max(longest, count)
            assert count <= 400, f"phase {Phase(now[1]).name} of turn {now[0]} does not end"
            g.apply(choose(g))
        assert g.over
    assert longest > 10  # the policy really did stall


# --------------------------------------------------------------------------------------- Evasion


def evasion_game(heroes=None, monster=(20, 24)) -> Game:
    """h0 (1,0), h1 (2,0), h2 (4,0); an Orc (far away by default); Evasion phase begun."""
    g = arena_game(heroes)
    add_monster(g, "orc", *monster)
    enter_phase(g, Phase.EVASION)
    return g


def test_evasion_costs_2_stamina_a_square():
    """Ysolde (Stamina 5) Evades 2 squares (5 -> 3 -> 1), then cannot; her Movement allowance plays
    no part and no Stamina can be bought for squares."""
    g = evasion_game(["ysolde", "bram", "hob"])
    assert g.decision == (Decision.HERO_EVADE, 0)
    assert EXTRA_MOVE not in g.legal_actions()
    g.apply(W)
    g.apply(S)
    assert at(g, 0) == (0, 1) and int(g.state.stamina[0]) == 1
    assert [e["stamina"] for e in events(g, "evade", unit="hero_0")] == [3, 1]
    assert not set(MOVE_ACTIONS) & set(g.legal_actions())
    with pytest.raises(IllegalActionError):
        g.apply(S)


def test_evasion_not_limited_by_movement_allowance():
    """Hob (Movement 5, Stamina 7) at Light 0 still Evades 3 squares (7 -> 1)."""
    g = arena_game(["hob", "bram", "tovar"])
    add_monster(g, "orc", 20, 24)
    set_unit(g, 0, stamina=7)
    place(g, 0, 7, 6)
    g.state.light = 0
    enter_phase(g, Phase.EVASION)
    walk(g, E, E, E)
    assert at(g, 0) == (10, 6) and int(g.state.stamina[0]) == 1


def test_evasion_exhausted_or_low_stamina_hero_cannot_evade():
    """h0 Exhausted at Stamina 4 and h1 at Stamina 1 are not asked; h2 (Stamina 7) is."""
    g = arena_game()
    add_monster(g, "orc", 20, 24)
    set_unit(g, 0, stamina=4, exhausted=True)
    set_unit(g, 1, stamina=1)
    enter_phase(g, Phase.EVASION)
    assert g.decision == (Decision.HERO_EVADE, 2)
    assert HANDOFF_ACTIONS[0] not in g.legal_actions() and HANDOFF_ACTIONS[1] not in g.legal_actions()
    g.apply(E)
    assert int(g.state.stamina[2]) == 5


def test_evasion_surprised_hero_cannot_evade():
    g = arena_game()
    add_monster(g, "orc", 20, 24)
    set_unit(g, 0, surprised=True)
    enter_phase(g, Phase.EVASION)
    assert g.decision == (Decision.HERO_EVADE, 1)
    assert HANDOFF_ACTIONS[0] not in g.legal_actions()
    assert int(g.state.stamina[0]) == 6


def test_evasion_hands_off_and_interleaves():
    """h0 Evades 1, hands to h1 who Evades 1 into the square h0 left, hands back, h0 Evades again."""
    g = evasion_game()
    g.apply(W)  # h0 (1,0) -> (0,0)
    g.apply(HANDOFF_ACTIONS[1])
    assert g.decision == (Decision.HERO_EVADE, 1)
    g.apply(W)  # h1 (2,0) -> (1,0)
    g.apply(HANDOFF_ACTIONS[0])
    g.apply(S)  # h0 (0,0) -> (0,1)
    assert at(g, 0) == (0, 1) and at(g, 1) == (1, 0)
    assert [e["unit"] for e in events(g, "evade")] == ["hero_0", "hero_1", "hero_0"]
    assert int(g.state.stamina[0]) == 2 and int(g.state.stamina[1]) == 3


def test_evasion_blocked_by_occupied_squares_closed_doors_and_no_jumps():
    """h0 on (3,0) (over the closed door of room A) between h1 (2,0) and h2 (4,0): no Evade step;
    next to the table (9,9) no Jump; Evasion never opens doors and never drags."""
    g = arena_game()
    add_monster(g, "orc", 20, 24)
    place(g, 0, 3, 0)
    enter_phase(g, Phase.EVASION)
    assert g.decision == (Decision.HERO_EVADE, 0)
    assert not set(MOVE_ACTIONS) & set(g.legal_actions())
    place(g, 0, 8, 9)
    g.state_edited()
    legal = g.legal_actions()
    assert E not in legal and not set(JUMP_ACTIONS) & set(legal) and not set(DRAG_ACTIONS) & set(legal)
    assert not rolls_of(g)


def rolls_of(g: Game) -> list[dict]:
    return [e for e in g.events if e["type"] == "roll"]


def test_evasion_in_the_real_combat_sequence_escapes_a_fight():
    """Through the real sequence: Movement (all END) -> Monsters' Movement (the DM ends) -> Evasion,
    where h0 Evades one square away from the Orc (only diagonal to it then): no Fight follows.

        x:   0  1  2
        y0   h0 .  h1        h0 evades (0,0) -> (1,0)
        y1   O               O: Orc on (0,1)
    """
    g = arena_game()
    m = add_monster(g, "orc", 0, 1)
    place(g, 0, 0, 0)
    refresh(g)
    while g.state.phase != Phase.EVASION:
        apply_past_explore(g, END)
    assert g.decision == (Decision.HERO_EVADE, 0)
    g.apply(E)
    while g.state.turn == 1:
        apply_past_explore(g, END)
    assert not events(g, "fight") and g.state.unit_status[m] == ACTIVE
    assert at(g, 0) == (1, 0) and int(g.state.stamina[0]) == 6 - 2 + 1  # +1 at turn 2's start


def test_evasion_into_the_exit_leaves_the_dungeon():
    """Ruling D-06: entering an exit square while Evading leaves the dungeon."""
    g = arena_game()
    add_monster(g, "orc", 20, 24)
    place(g, 0, 22, 27)
    enter_phase(g, Phase.EVASION)
    g.apply(E)
    assert g.state.unit_status[0] == EXITED
    assert [e["unit"] for e in events(g, "exit")] == ["hero_0"]
    assert g.decision == (Decision.HERO_EVADE, 1)
