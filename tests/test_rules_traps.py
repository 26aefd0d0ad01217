"""Traps (R-TRAP-01..09), jumping traps and hazards (R-JUMP-02/05/06), monsters and traps (R-MON-10).

The trap arena is the test arena plus six traps in a row along corridor g (y = 13), at distances 1..6
from the square (1, 13), a blocking pit in corridor h, and a trap in room F::

    x:    0  1  2  3  4  5  6  7  8 ... 12
    y13   .  h  0  1  2  3  4  5  .  ...  P      0..5: darts (1 damage), P: the pit (blocks, 2 damage)
    room F (x 7..11, y 7..12): trap 7 at (10, 10), the table at (9, 9)

Statistical tests run the real rule functions (``traps.detect_traps``, ``traps.room_detect``, the
DISARM decision) n times on one game sharing one dice stream, and pass iff
|p_hat - p| <= 4 sqrt(p (1 - p) / n), n from a power calculation (``tests/sampling.py``).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from dungeon_env.engine import Decision, Dice, Game, IllegalActionError, Phase, traps
from dungeon_env.engine.actions import DISARM_ACTIONS, END, EXPLORE, JUMP_ACTIONS, MOVE_ACTIONS, STAY
from dungeon_env.engine.state import ACTIVE, CORPSE, EXITED
from dungeon_env.engine.units import kill_hero, take_off
from dungeon_env.engine.visibility import sees
from tests.builders import (
    add_monster,
    arena_variant,
    at,
    enter_phase,
    events,
    place,
    quiet,
    rolls,
)
from tests.sampling import band, trials_for, trials_for_all

# Each detection, room-text detect and disarm is one d6 roll (plus modifiers), and every rate below is
# some k/6: a rule that gets any face wrong moves a rate by 1/6 or more, which N finds with
# probability >= 0.9999 (tests/sampling.py).
N = trials_for_all([Fraction(k, 6) for k in range(1, 6)], Fraction(1, 6))
# Retrying a disarm until it is done: P(disarmed at last) = P(disarmed) / (P(disarmed) + P(sprung))
# = 3/4. A retry whose roll gets one face wrong (a modifier added on retries) moves it by 1/20 or
# more (3/6 : 1/6 becomes 4/6 : 1/6, 4/5), so the disarm trials are as many as find 1/20 at 3/4.
N_DISARM = trials_for(Fraction(3, 4), Fraction(1, 20))
MN, ME, MS, MW = MOVE_ACTIONS
JN, JE, JS, JW = JUMP_ACTIONS
DN, DE, DS, DW = DISARM_ACTIONS
PLAIN = ["corvin", "ysolde", "hob"]  # ysolde is Perceptive; none is Strong
ROW = [(2 + k, 13) for k in range(6)]  # traps 0..5
PIT, ROOM_TRAP = 6, 7

TRAPS = "".join(
    f'[[trap]]\nat = [{x}, {y}]\nname = "dart {k}"\neffect = {{ kind = "damage", amount = 1 }}\n'
    for k, (x, y) in enumerate(ROW)
) + (
    '[[trap]]\nat = [12, 13]\nname = "pit"\neffect = { kind = "damage", amount = 2 }\nblocks = true\n'
    '[[trap]]\nat = [10, 10]\nname = "needle"\neffect = { kind = "damage", amount = 1 }\n'
    '[[event]]\narea = "F"\nscope = "exploring"\nkind = "detect"\ntext = "Newer slabs."\n'
)


@pytest.fixture(scope="module")
def trap_arena(tmp_path_factory) -> str:
    return arena_variant(tmp_path_factory.mktemp("traps"), "trap_arena", TRAPS)


def new(path: str, heroes=None, at=((1, 13), (1, 0), (2, 0))) -> Game:
    """Heroes placed on ``at`` (by default hero_0 at the head of the trap row, the others far away)."""
    g = Game.new(adventure=path, heroes=heroes or PLAIN, seed=0)
    for u in range(3):
        place(g, u, 20 + u, 27)
    for u, (x, y) in enumerate(at):
        place(g, u, x, y)
    return g


def movement(g: Game, h: int = 0) -> None:
    """Restart this turn's Movement phase with hero ``h`` in control."""
    enter_phase(g, Phase.HERO_MOVEMENT)
    while g.decision != (Decision.HERO_MOVE, h):
        g.apply(END)


def within(hits: int, p: Fraction, n: int = N) -> bool:
    lo, hi = band(n, float(p))
    return lo <= hits <= hi


def detect_events(g: Game, hero: str) -> list[dict]:
    return events(g, "detect_traps", hero=hero)


# -------------------------------------------------------------------------------------------- TRAP-01


def test_R_TRAP_01_one_detect_roll_per_living_hero_at_the_end_of_each_explore_phase(trap_arena):
    """hero_0 explores, hero_1 and hero_2 stay put: all three roll, after the explore choices and
    before the Trade phase; a dead hero and a hero that has left do not roll."""
    g = new(trap_arena)
    enter_phase(g, Phase.EXPLORE)
    g.dice.force(1, 1, 1)
    for choice in (EXPLORE, STAY, STAY):
        g.apply(choice)
    assert g.dice.forced_left == 0
    detect = rolls(g, "detect_traps")
    assert [r["actor"] for r in detect] == ["hero_0", "hero_1", "hero_2"]
    kinds = [e["type"] for e in g.events]
    last_choice = max(i for i, k in enumerate(kinds) if k == "explore_choice")
    first_roll = g.events.index(detect[0])
    trade = next(i for i, e in enumerate(g.events) if e.get("phase") == "trade")
    assert last_choice < first_roll < trade
    # next Explore phase: hero_1 is dead (a corpse), hero_2 has left the dungeon
    kill_hero(g, 1)
    take_off(g, 2)
    g.state.unit_status[2] = EXITED
    enter_phase(g, Phase.EXPLORE)
    g.apply(STAY)
    assert [r["actor"] for r in rolls(g, "detect_traps")][3:] == ["hero_0"]


def test_R_TRAP_01_no_hidden_trap_left_means_no_dice_but_the_same_news(trap_arena):
    """Ruling D-T1: with every trap detected or gone, the heroes still each get an (empty)
    detect_traps event, and no die is rolled."""
    g = new(trap_arena)
    g.state.trap_detected[:] = True
    enter_phase(g, Phase.EXPLORE)
    for _ in range(3):
        g.apply(STAY)
    assert not rolls(g, "detect_traps")
    assert [e["found"] for e in events(g, "detect_traps")] == [[], [], []]


# -------------------------------------------------------------------------------------------- TRAP-02


@pytest.mark.parametrize("die", [1, 3, 6])
def test_R_TRAP_02_a_roll_of_d_detects_the_traps_at_distance_1_to_d(trap_arena, die):
    """hero_0 on (1,13), traps at distance 1..6 along the corridor, all in sight."""
    g = new(trap_arena)
    for k, (x, y) in enumerate(ROW):
        assert sees(g, g.square(1, 13), g.square(x, y)), k
    g.dice.force(die, 1, 1)
    traps.detect_traps(g)
    assert [e["found"] for e in detect_events(g, "hero_0")] == [[list(sq) for sq in ROW[:die]]]
    assert list(g.state.trap_detected[:6]) == [k < die for k in range(6)]


def test_R_TRAP_02_needs_line_of_sight_and_an_open_path(trap_arena):
    """From (0,10) in corridor q the first dart (2,13) is 5 steps away round the corner but out of
    sight: a 6 does not find it. A trap behind a closed door is out of reach: none in room F is found
    from (9,6) (door (9,5)-(9,6) is the arena's only door there; F has no door at all)."""
    g = new(trap_arena, at=((0, 10), (1, 0), (2, 0)))
    assert not sees(g, g.square(0, 10), g.square(2, 13))
    g.dice.force(6, 1, 1)
    traps.detect_traps(g)
    assert detect_events(g, "hero_0")[-1]["found"] == []
    g = new(trap_arena, at=((9, 13), (1, 0), (2, 0)))  # corridor h, below room F's wall
    g.dice.force(6, 1, 1)
    traps.detect_traps(g)
    assert [10, 10] not in detect_events(g, "hero_0")[-1]["found"]


def detection_counts(path: str, hero: str, light: int) -> Counter:
    g = new(path, heroes=[hero, "hob", "bram"])
    g.state.light = light
    g.dice = Dice(31 + light + len(hero))
    counts: Counter = Counter()
    for _ in range(N):
        g.state.trap_detected[:] = False
        del g.events[:]
        traps.detect_traps(g)
        (found,) = [e["found"] for e in g.events if e["type"] == "detect_traps" and e["hero"] == "hero_0"]
        for k in range(len(found)):
            counts[k + 1] += 1
    return counts


@pytest.mark.parametrize(
    ("hero", "light", "p_of_k"),
    [
        ("corvin", 20, lambda k: Fraction(7 - k, 6)),
        ("ysolde", 20, lambda k: min(Fraction(1), Fraction(8 - k, 6))),
        ("corvin", 0, lambda k: Fraction(max(0, 6 - k), 6)),
    ],
    ids=["plain", "perceptive", "light_0"],
)
def test_R_TRAP_02_statistics_of_detection_by_distance(trap_arena, hero, light, p_of_k):
    """P(a trap at distance k is found) = (7-k)/6; Perceptive min(1, (8-k)/6); Light 0 (6-k)/6."""
    counts = detection_counts(trap_arena, hero, light)
    for k in range(1, 7):
        p = p_of_k(k)
        if p in (0, 1):
            assert counts[k] == (N if p == 1 else 0), (k, counts)
        else:
            assert within(counts[k], p), (k, counts[k] / N, float(p))


# -------------------------------------------------------------------------------------------- TRAP-03


def test_R_TRAP_03_heroes_learn_the_squares_never_the_number(trap_arena):
    """The heroes' event carries the squares found and nothing else; the number is only in the DM's
    roll event."""
    g = new(trap_arena)
    g.dice.force(2, 1, 1)
    traps.detect_traps(g)
    (news,) = detect_events(g, "hero_0")
    assert set(news) == {"type", "hero", "found", "turn"}
    assert news["found"] == [[2, 13], [3, 13]]
    roll = rolls(g, "detect_traps")[0]
    assert (roll["actor"], roll["total"], roll["result"]) == ("hero_0", 2, 2)


# -------------------------------------------------------------------------------------------- TRAP-04


@pytest.mark.parametrize(
    ("hero", "light", "mods"),
    [
        ("corvin", 20, {}),
        ("ysolde", 20, {"perceptive": 1}),
        ("corvin", 0, {"light": -1}),
        ("ysolde", 0, {"perceptive": 1, "light": -1}),
    ],
)
def test_R_TRAP_04_perceptive_adds_1_and_light_0_takes_1_from_detect_rolls(trap_arena, hero, light, mods):
    g = new(trap_arena, heroes=[hero, "hob", "bram"])
    g.state.light = light
    g.dice.force(3, 1, 1)
    traps.detect_traps(g)
    roll = rolls(g, "detect_traps")[0]
    assert roll["modifiers"] == mods and roll["total"] == 3 + sum(mods.values())
    assert len(detect_events(g, "hero_0")[0]["found"]) == max(0, 3 + sum(mods.values()))


def test_R_TRAP_04_neither_helps_disarming(trap_arena):
    """Perceptive Ysolde at Light 0 disarms with a plain d6."""
    g = new(trap_arena, heroes=["ysolde", "hob", "bram"], at=((1, 13), (1, 0), (2, 0)))
    g.state.light = 0
    g.state.trap_detected[0] = True
    movement(g)
    g.apply(END)
    g.dice.force(3)
    g.apply(DE)
    roll = rolls(g, "disarm")[0]
    assert roll["modifiers"] == {} and roll["total"] == 3 and roll["result"] == "failed"


# -------------------------------------------------------------------------------------------- TRAP-05


def room_detect_counts(path: str, hero: str, light: int) -> int:
    g = new(path, heroes=[hero, "hob", "bram"], at=((9, 10), (1, 0), (2, 0)))
    g.state.light = light
    g.dice = Dice(77 + light + len(hero))
    area = int(g.tables.area[g.square(10, 10)])
    hits = 0
    for _ in range(N):
        g.state.trap_detected[:] = False
        hits += traps.room_detect(g, 0, area)
    return hits


@pytest.mark.parametrize(
    ("hero", "light", "p"),
    [
        ("corvin", 20, Fraction(1, 2)),
        ("ysolde", 20, Fraction(2, 3)),
        ("corvin", 0, Fraction(1, 3)),
        ("ysolde", 0, Fraction(1, 2)),
    ],
    ids=["plain", "perceptive", "light_0", "perceptive_light_0"],
)
def test_R_TRAP_05_statistics_of_room_text_detect_rolls(trap_arena, hero, light, p):
    assert within(room_detect_counts(trap_arena, hero, light), p)


@pytest.mark.parametrize(("die", "found"), [(4, True), (3, False)])
def test_R_TRAP_05_room_text_detect_succeeds_on_4_to_6(trap_arena, die, found):
    """Room F's text asks exploring heroes for a Detect roll: 4-6 finds the room's trap (10,10)."""
    g = new(trap_arena, at=((8, 10), (8, 11), (8, 12)))
    enter_phase(g, Phase.EXPLORE)
    g.dice.force(die, 1, 1, 1)  # the room's Detect roll, then the end-of-phase rolls: 1 each
    g.apply(EXPLORE)  # hero_0 explores
    g.apply(STAY)
    g.apply(STAY)
    roll = rolls(g, "room_detect")[0]
    assert (roll["actor"], roll["result"]) == ("hero_0", "success" if found else "fail")
    assert bool(g.state.trap_detected[ROOM_TRAP]) == found
    assert len(rolls(g, "room_detect")) == 1  # only the exploring hero rolls


# -------------------------------------------------------------------------------------------- TRAP-06


def test_R_TRAP_06_ending_movement_next_to_a_detected_trap_offers_one_disarm(trap_arena):
    """hero_0 on (1,13) next to detected dart 0 (2,13): END asks DISARM (east) or END; after a
    failed try there is no other try this turn, and there is one next turn."""
    g = new(trap_arena)
    g.state.trap_detected[0] = True
    movement(g)
    g.apply(END)
    assert g.decision == (Decision.DISARM, 0)
    assert g.legal_actions() == [END, DE]
    g.dice.force(2)
    g.apply(DE)
    assert g.state.trap_armed[0] and rolls(g, "disarm")[0]["result"] == "failed"
    assert g.decision != (Decision.DISARM, 0)
    enter_phase(g, Phase.HERO_MOVEMENT)  # same turn: the hero has had its try
    g.apply(END)
    assert g.decision != (Decision.DISARM, 0)
    while g.state.turn == 1:
        g.apply(quiet(g))
    assert g.decision == (Decision.HERO_MOVE, 0)
    g.apply(END)
    assert g.decision == (Decision.DISARM, 0)


@pytest.mark.parametrize("case", ["hidden", "not_adjacent", "diagonal"])
def test_R_TRAP_06_no_disarm_without_a_detected_trap_next_to_the_hero(trap_arena, case):
    """Dart 0 (2,13) not detected, with hero_0 beside it; dart 0 detected, hero_0 two squares away
    on (0,13); the needle trap (10,10) of room F detected, hero_0 diagonal to it on (11,9)."""
    where = {"hidden": (1, 13), "not_adjacent": (0, 13), "diagonal": (11, 9)}[case]
    g = new(trap_arena, at=(where, (1, 0), (2, 0)))
    g.state.trap_detected[ROOM_TRAP if case == "diagonal" else 0] = case != "hidden"
    movement(g)
    g.apply(END)
    assert g.decision != (Decision.DISARM, 0)
    assert not rolls(g, "disarm")


def test_R_TRAP_06_disarming_is_an_activity_that_breaks_rest(trap_arena):
    g = new(trap_arena)
    g.state.trap_detected[0] = True
    movement(g)
    g.apply(END)
    g.dice.force(2)
    g.apply(DE)
    while g.state.turn == 1:
        g.apply(quiet(g))
    assert not events(g, "rest", unit="hero_0") and events(g, "rest", unit="hero_1")


# -------------------------------------------------------------------------------------------- TRAP-07


def ready_to_disarm(path: str) -> Game:
    g = new(path)
    g.state.trap_detected[0] = True
    movement(g)
    g.apply(END)
    assert g.decision == (Decision.DISARM, 0)
    return g


@pytest.mark.parametrize(("die", "result"), [(1, "sprung"), (2, "failed"), (3, "failed"), (4, "disarmed")])
def test_R_TRAP_07_disarm_roll_results(trap_arena, die, result):
    """1: the trap springs on the hero (1 damage) and is removed (A-41); 2-3: nothing; 4-6: removed."""
    g = ready_to_disarm(trap_arena)
    health = int(g.state.health[0])
    g.dice.force(die)
    g.apply(DE)
    assert rolls(g, "disarm")[0]["result"] == result
    armed, detected = bool(g.state.trap_armed[0]), bool(g.state.trap_detected[0])
    if result == "sprung":
        assert int(g.state.health[0]) == health - 1 and (armed, detected) == (False, False)
        assert events(g, "trap_sprung", unit="hero_0", trap="dart 0")
    elif result == "failed":
        assert int(g.state.health[0]) == health and (armed, detected) == (True, True)
    else:
        assert int(g.state.health[0]) == health and (armed, detected) == (False, False)
        assert events(g, "trap_disarmed", unit="hero_0", at=[2, 13])
        assert at(g, 0) == (1, 13)


def test_R_TRAP_07_statistics_of_disarming(trap_arena):
    """1/6 sprung, 1/3 failed, 1/2 disarmed; retried every turn until done, 3/4 end disarmed."""
    base = ready_to_disarm(trap_arena)
    dice = Dice(5)
    counts: Counter = Counter()
    eventually: Counter = Counter()
    for _ in range(N_DISARM):
        g = base.copy()
        g.dice = dice
        result = "failed"
        first = True
        while result == "failed":
            g.state.stack[-1:] = [[int(Decision.DISARM), 0, -1, -1]]
            g.state.disarm_tried[0] = False
            g.state_edited()
            k = len(g.events)
            g._apply_top(DE)
            result = next(e["result"] for e in g.events[k:] if e["type"] == "roll")
            if first:
                counts[result] += 1
                first = False
        eventually[result] += 1
    n = N_DISARM
    assert within(counts["sprung"], Fraction(1, 6), n) and within(counts["failed"], Fraction(1, 3), n)
    assert within(counts["disarmed"], Fraction(1, 2), n)
    assert within(eventually["disarmed"], Fraction(3, 4), n)


# -------------------------------------------------------------------------------------------- TRAP-08


def test_R_TRAP_08_no_disarming_and_no_detecting_in_combat(trap_arena):
    """A monster anywhere on the board: ending Movement next to the detected dart offers no DISARM,
    and the combat turn has no Explore phase, so no Detect roll."""
    g = new(trap_arena)
    g.state.trap_detected[0] = True
    add_monster(g, "goblin", 20, 20)
    movement(g)
    g.apply(END)
    assert g.decision != (Decision.DISARM, 0)
    while g.state.turn == 1:
        g.apply(quiet(g))
    assert not rolls(g, "disarm") and not rolls(g, "detect_traps") and not events(g, "detect_traps")


# -------------------------------------------------------------------------------------------- TRAP-09


@pytest.mark.parametrize("detected", [False, True])
def test_R_TRAP_09_a_hero_entering_an_armed_trap_springs_it(trap_arena, detected):
    """hero_0 steps east onto dart 0, detected or not: 1 damage, the trap is gone; stepping back on
    the square does nothing."""
    g = new(trap_arena)
    g.state.trap_detected[0] = detected
    movement(g)
    health = int(g.state.health[0])
    g.apply(ME)
    assert int(g.state.health[0]) == health - 1
    (sprung,) = events(g, "trap_sprung")
    assert sprung["unit"] == "hero_0" and sprung["at"] == [2, 13] and not sprung["hazard"]
    assert not g.state.trap_armed[0] and not g.state.trap_detected[0]
    damage = [e for e in g.events if e["type"] == "damage" and e["unit"] == "hero_0"]
    assert damage[-1]["source"] == "trap:dart 0"
    g.apply(MW)
    g.apply(ME)
    assert len(events(g, "trap_sprung")) == 1 and int(g.state.health[0]) == health - 1


def test_R_TRAP_09_a_blocking_trap_stays_as_a_hazard_nobody_may_enter(trap_arena):
    """The pit on (12,13): hero_0 walks in from (11,13), takes 2, and the pit stays as a known
    hazard; once the hero is off it, nobody can step onto it (but it can be jumped)."""
    g = new(trap_arena, at=((11, 13), (1, 0), (2, 0)))
    movement(g)
    health = int(g.state.health[0])
    g.apply(ME)
    assert at(g, 0) == (12, 13) and int(g.state.health[0]) == health - 2
    assert events(g, "trap_sprung")[0]["hazard"]
    assert not g.state.trap_armed[PIT] and g.state.trap_detected[PIT]
    g.apply(ME)  # off the pit, to (13,13)
    assert MW not in g.legal_actions() and JW in g.legal_actions()


# -------------------------------------------------------------------------------------------- JUMP


@pytest.mark.parametrize(
    ("state", "jumpable"),
    [("hidden", False), ("detected", True), ("hazard", True), ("disarmed", False)],
)
def test_R_JUMP_02_detected_traps_and_hazards_can_be_jumped(trap_arena, state, jumpable):
    """hero_0 on (1,13) facing dart 0 (2,13), landing (3,13) free (dart 1 there is hidden)."""
    g = new(trap_arena)
    s = g.state
    s.trap_armed[0], s.trap_detected[0] = {
        "hidden": (True, False),
        "detected": (True, True),
        "hazard": (False, True),
        "disarmed": (False, False),
    }[state]
    movement(g)
    assert (JE in g.legal_actions()) == jumpable
    assert (ME in g.legal_actions()) == (state != "hazard")


def test_R_JUMP_04_a_good_jump_clears_a_detected_trap(trap_arena):
    g = new(trap_arena)
    g.state.trap_detected[0] = True
    movement(g)
    g.dice.force(6)
    g.apply(JE)
    assert at(g, 0) == (3, 13) and g.state.trap_armed[0]
    assert [e["trap"] for e in events(g, "trap_sprung")] == ["dart 1"]  # landed on the hidden dart 1


def test_R_JUMP_06_a_failed_jump_over_a_trap_lands_on_it_and_springs_it(trap_arena):
    """Die 2 over detected dart 0: hero_0 lands on (2,13), takes 1, its movement is over."""
    g = new(trap_arena)
    g.state.trap_detected[0] = True
    movement(g)
    health = int(g.state.health[0])
    g.dice.force(2)
    g.apply(JE)
    assert at(g, 0) == (2, 13) and int(g.state.health[0]) == health - 1
    assert not g.state.trap_armed[0] and g.state.move_done[0]
    assert g.decision != (Decision.HERO_MOVE, 0)


def test_R_JUMP_05_a_failed_jump_over_a_hazard_stays_on_the_take_off_square(trap_arena):
    g = new(trap_arena, at=((11, 13), (1, 0), (2, 0)))
    g.state.trap_armed[PIT], g.state.trap_detected[PIT] = False, True  # the pit is open
    movement(g)
    g.dice.force(2)
    g.apply(JE)
    assert at(g, 0) == (11, 13) and g.state.move_done[0]
    assert not events(g, "trap_sprung")


# -------------------------------------------------------------------------------------------- MON-10


def test_R_MON_10_monsters_spring_traps_and_the_dm_knows_where_they_are(trap_arena):
    """A Goblin on (8,13) beside hidden dart 5 (7,13): the DM may
    step onto it (the move is legal; the DM's view of the state holds every trap), and it springs
    on the Goblin: 1 damage. Traps the heroes have not found are armed in the state the DM sees."""
    g = new(trap_arena, at=((1, 0), (2, 0), (4, 0)))
    m = add_monster(g, "goblin", 8, 13)
    assert list(g.state.trap_armed) == [True] * 8 and not g.state.trap_detected.any()
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    assert g.decision == (Decision.MONSTER_MOVE, m)
    assert MW in g.legal_actions()
    g.apply(MW)
    assert int(g.state.health[m]) == 3 - 1
    (sprung,) = events(g, "trap_sprung")
    assert sprung["unit"] == g.label(m) and sprung["trap"] == "dart 5"
    assert not g.state.trap_armed[5]


def test_R_MON_10_a_trap_can_kill_a_monster(trap_arena):
    g = new(trap_arena, at=((1, 0), (2, 0), (4, 0)))
    m = add_monster(g, "giant_rat", 13, 13)  # Health 2, the pit deals 2
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    g.apply(MW)
    assert g.state.unit_status[m] != ACTIVE and events(g, "slain", unit=g.label(m))
    assert g.state.unit_status[0] != CORPSE


def test_illegal_disarm_is_rejected(trap_arena):
    g = ready_to_disarm(trap_arena)
    with pytest.raises(IllegalActionError):
        g.apply(DW)
