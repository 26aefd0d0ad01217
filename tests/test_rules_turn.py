"""Rules TURN (R-TURN-01..05, 11..15), REST (R-REST-01..07), EXH (R-EXH-01..04) and LIGHT
(R-LIGHT-01..04): the general turn sequence, recovery, resting, exhaustion and the Light track.

Movement rules proper (R-TURN-06..10, Evasion, hand-offs) are in test_rules_movement.py.

The test arena (tests/data/arena.toml), top-left corner; heroes start on corridor a::

    x:   0  1  2  3  4  5  6
    y0   .  h0 h1 .  h2 .  .      corridor a; door 0 joins (3,0) and (3,1)
    y1   .  A  A  A  A  A  .      room A: x 1..5, y 1..5 (walled but for its doors)
    y3   .  A  A  A  A  A  .      door 1 joins (5,3) and corridor t (6,3)
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from dungeon_env.engine import Game, Phase
from dungeon_env.engine.actions import END, EXTRA_MOVE, MOVE_ACTIONS, SPEND_ACTIONS, USE, Decision
from dungeon_env.engine.game import IllegalActionError
from dungeon_env.engine.state import ACTIVE
from dungeon_env.engine.units import slay_monster
from tests.builders import (
    ARENA,
    PLAIN,
    add_monster,
    arena_game,
    enter_phase,
    events,
    finish_turn,
    give_item,
    item_action,
    place,
    quiet,
    refresh,
    rolls,
    set_unit,
)

N = 20_000


# ------------------------------------------------------------------------------------------ helpers


def arena_with(tmp_path_factory, name: str, extra: str = "", patrol: str = "[]") -> str:
    """The arena adventure file with another Patrol set and ``extra`` TOML appended (Guards)."""
    text = Path(ARENA).read_text().replace("patrol = []", f"patrol = {patrol}")
    path = tmp_path_factory.mktemp(name) / "arena.toml"  # the id must match the file name
    path.write_text(text + "\n" + extra)
    return str(path)


@pytest.fixture(scope="module")
def guard_arena(tmp_path_factory) -> str:
    """Arena + a Goblin Guard at (3,3) in room A (behind the closed door (3,0)-(3,1))."""
    return arena_with(tmp_path_factory, "guard", '[[guard]]\nmonster = "goblin"\nat = [3, 3]\n')


@pytest.fixture(scope="module")
def patrol_arena(tmp_path_factory) -> str:
    """Arena with a one-Goblin-Scout Patrol set."""
    return arena_with(tmp_path_factory, "patrol", patrol='["goblin_scout"]')


def trace(g: Game, turn: int | None = None) -> list[str]:
    """The phases begun, in order (of one turn, or of the whole game)."""
    return [e["phase"] for e in g.events if e["type"] == "phase" and (turn is None or e["turn"] == turn)]


def phase_of_events(g: Game) -> list[tuple[str, dict]]:
    """Each event with the phase it happened in."""
    out, phase = [], "setup"
    for e in g.events:
        if e["type"] == "phase":
            phase = e["phase"]
        out.append((phase, e))
    return out


def real_steps(g: Game, h: int) -> list[int]:
    """MOVE actions of hero ``h`` that are a step (not an Open Doors attempt)."""
    s, t = g.state, g.tables
    out = []
    for a in g.legal_actions():
        if a in MOVE_ACTIONS:
            door = t.edge_door[s.unit_pos[h], a]
            if door < 0 or s.door_open[door]:
                out.append(a)
    return out


def walker(g: Game) -> int:
    """Heroes take one step per Movement phase (so they never Rest), everything else idles."""
    kind, u = g.decision
    if kind == Decision.HERO_MOVE and not g.state.moved[u]:
        steps = real_steps(g, u)
        if steps:
            return steps[0]
    return quiet(g)


# On to the next turn, by default doing nothing (``quiet``: END, STAY, PASS, else the first legal
# action, which is 0 Stamina in Fights), for up to 5,000 decisions.
play_turn = partial(finish_turn, choose=quiet, limit=5_000)


GENERAL = ["turn_start", "hero_movement", "explore", "trade", "turn_end"]
COMBAT = [
    "turn_start",
    "hero_movement",
    "spell_selection",
    "monster_movement",
    "evasion",
    "fighting",
    "spell_resolution",
    "turn_end",
]


# -------------------------------------------------------------------------------------------- TURN


def test_R_TURN_01_general_turn_runs_steps_1_to_5_in_order():
    g = arena_game()
    assert g.state.phase == Phase.HERO_MOVEMENT and g.state.turn == 1
    play_turn(g)
    play_turn(g, choose=walker)
    assert trace(g, 1) == GENERAL
    assert trace(g, 2) == GENERAL
    assert trace(g)[10] == "turn_start" and g.state.turn == 3


def test_R_TURN_02_patrol_rolls_happen_only_in_turn_start(patrol_arena):
    """Heroes stay in corridor a: from turn 2 on, one Patrol d6 per occupied corridor, all inside
    Step 1. Dice 6 = no Patrol."""
    g = Game.new(adventure=patrol_arena, heroes=PLAIN, seed=1)
    for _ in range(4):
        g.dice.force(6)
        play_turn(g)
    assert g.dice.forced_left == 0
    patrol = [(ph, e) for ph, e in phase_of_events(g) if e["type"] == "roll" and e["check"] == "patrol"]
    assert [e["turn"] for _, e in patrol] == [2, 3, 4, 5]  # none in turn 1
    assert {ph for ph, _ in patrol} == {"turn_start"}
    assert all(e["dice"] == [6] and e["result"] == "none" for _, e in patrol)
    # and in Step 1 before the recovery of the heroes
    ev = g.events
    i_roll = ev.index(patrol[0][1])
    i_recover = next(i for i, e in enumerate(ev) if e["type"] == "recover" and e["turn"] == 2)
    assert i_roll < i_recover


def test_R_TURN_03_turn_start_gives_1_stamina_capped():
    """h0 (Ysolde, Stamina 5) at 2/5 and h1 (Bram, 5) at 5/5; both take a step (no Rest)."""
    g = arena_game(["ysolde", "bram", "hob"])
    set_unit(g, 0, stamina=2)
    play_turn(g, choose=walker)
    s = g.state
    assert int(s.stamina[0]) == 3
    assert int(s.stamina[1]) == 5
    rec = events(g, "recover", turn=2)
    assert [(e["unit"], e["rested"], e["stamina"]) for e in rec[:2]] == [
        ("hero_0", False, 3),
        ("hero_1", False, 5),
    ]


def test_R_TURN_04_rested_hero_gets_2_stamina_and_1_magic_learned_2():
    """h0 Ysolde (not Learned), h1 Maelis (Learned, Magic 4): both do nothing in turn 1."""
    g = arena_game(["ysolde", "maelis", "hob"])
    set_unit(g, 0, stamina=1, magic=0)
    set_unit(g, 1, stamina=1, magic=0)
    play_turn(g)
    s = g.state
    assert (int(s.stamina[0]), int(s.magic[0])) == (3, 1)
    assert (int(s.stamina[1]), int(s.magic[1])) == (3, 2)
    assert [e["rested"] for e in events(g, "recover", turn=2)] == [True, True, True]


def test_R_TURN_05_turn_start_recovery_also_in_combat_turns():
    """An awake Orc far off in room P keeps the combat sequence going; h0 at Stamina 2 steps each
    turn, so it does not Rest."""
    g = arena_game()
    add_monster(g, "orc", 20, 24)
    set_unit(g, 0, stamina=2)
    play_turn(g, choose=walker)
    assert trace(g, 1)[2] == "spell_selection"  # turn 1 was a combat turn
    assert int(g.state.stamina[0]) == 3
    play_turn(g, choose=walker)
    assert trace(g, 2) == COMBAT
    assert int(g.state.stamina[0]) == 4


def test_R_TURN_11_revealing_monsters_rolls_surprise_and_combat_follows_in_same_turn(guard_arena):
    """h0 at (3,0) opens the door of room A (die 5): the Goblin Guard at (3,3) is revealed, the 3
    heroes roll Surprise (3, 4, 5: none surprised) and the turn goes on with Spell Selection.

        y0  a h1 [h0] h2     <- h0 placed on (3,0)
        y1  A  A  =   A      '=' closed door
        y3  A  A  g   A      g: Goblin
    """
    g = Game.new(adventure=guard_arena, heroes=PLAIN, seed=0)
    place(g, 0, 3, 0)
    refresh(g)
    assert not any(s == "spell_selection" for s in trace(g))
    g.dice.force(5, 3, 4, 5)
    g.apply(MOVE_ACTIONS[2])  # south: the Open Doors attempt
    assert g.dice.forced_left == 0
    assert [e["result"] for e in rolls(g, "open_door")] == ["opened"]
    surprise = rolls(g, "surprise")
    assert [e["actor"] for e in surprise] == ["hero_0", "hero_1", "hero_2"]
    assert len(events(g, "combat_start")) == 1
    # the Surprise rolls happened inside this Movement phase, right after the door roll
    order = [e["type"] if e["type"] != "roll" else e["check"] for e in g.events]
    assert order.index("open_door") < order.index("surprise")
    assert g.state.phase == Phase.HERO_MOVEMENT and g.decision == (Decision.HERO_MOVE, 0)
    play_turn(g)
    last_move = max(i for i, p in enumerate(trace(g, 1)) if p == "hero_movement")
    assert trace(g, 1)[last_move:] == COMBAT[1:]


def test_R_TURN_12_explore_is_skipped_in_combat():
    """With a monster on the board no Explore step runs; once it is gone Explore is back.
    (Explore actions and room text arrive with the exploration rules: only the step is checked.)"""
    g = arena_game()
    m = add_monster(g, "orc", 20, 24)
    play_turn(g)
    assert "explore" not in trace(g, 1)
    assert not [e for e in g.events if e["type"].startswith("explore")]
    slay_monster(g, m, [])
    play_turn(g)
    assert "explore" in trace(g, 2)


def test_R_TURN_13_trade_is_skipped_in_combat():
    """No Trade step in a combat turn (trade actions arrive with the item rules)."""
    g = arena_game()
    add_monster(g, "orc", 20, 24, awake=False)
    play_turn(g)
    play_turn(g)
    assert "trade" not in trace(g, 1) and "trade" not in trace(g, 2)
    assert not [e for e in g.events if e["type"].startswith("trade")]


def test_R_TURN_14_turn_end_rolls_deaths_door_first_then_light_drops():
    """h0 and h2 at Death's Door take a step (no Rest): their rolls (5, 6: survive) come before
    the Light event, all within Turn End."""
    g = arena_game()
    set_unit(g, 0, health=0, deaths_door=True)
    set_unit(g, 2, health=0, deaths_door=True)
    g.dice.force(5, 6)
    play_turn(g, choose=walker)
    assert g.dice.forced_left == 0
    tagged = [(ph, e) for ph, e in phase_of_events(g) if e["type"] in ("roll", "light") and e["turn"] == 1]
    assert [(ph, e["type"], e.get("actor")) for ph, e in tagged] == [
        ("turn_end", "roll", "hero_0"),
        ("turn_end", "roll", "hero_2"),
        ("turn_end", "light", None),
    ]
    assert tagged[-1][1]["light"] == 19 and g.state.light == 19


def test_R_TURN_15_inactive_guard_keeps_combat_sequence_running():
    """A Guard no hero has seen (inactive, room P) never moves, yet the combat sequence runs every
    turn; when it is removed the general sequence returns."""
    g = arena_game()
    m = add_monster(g, "orc", 20, 24, awake=False)
    for turn in (1, 2, 3):
        play_turn(g)
        assert trace(g, turn) == COMBAT
    assert g.state.unit_pos[m] == g.square(20, 24) and g.state.inactive[m]
    assert not events(g, "move", unit=g.label(m))
    slay_monster(g, m, [])
    play_turn(g)
    assert trace(g, 4) == GENERAL


# -------------------------------------------------------------------------------------------- REST


def test_R_REST_01_magic_is_not_regained_without_rest():
    """Heroes below base Magic that act every turn keep their Magic for 5 turns."""
    g = arena_game(["ysolde", "maelis", "hob"])
    set_unit(g, 0, magic=0)
    set_unit(g, 1, magic=1)
    for _ in range(5):
        play_turn(g, choose=walker)
    assert (int(g.state.magic[0]), int(g.state.magic[1])) == (0, 1)
    assert all(not e["rested"] for e in events(g, "recover") if e["turn"] > 1)
    assert not events(g, "rest")


def rested_after(g: Game) -> list[str]:
    """Labels of the heroes logged as Rested at the end of the turn just played."""
    return [e["unit"] for e in events(g, "rest", turn=g.state.turn - 1)]


@pytest.mark.parametrize(
    "activity", ["nothing", "handoff_only", "step", "extra_move", "door_fail", "door_open", "jump_fail"]
)
def test_R_REST_02_rest_is_judged_after_the_fact(activity):
    """h0 (Corvin) does one thing in turn 1, h1 and h2 do nothing. Doing nothing (or only passing
    control) is a Rest; a step, Stamina on movement, an Open Doors attempt (failed or not) or a
    Jump (failed) is not. (Trading, spells, items, Explore actions arrive later.)

        h0 on (1,0), or on (3,0) above the door of room A, or for the jump on (8,9) west of the
        table (9,9) in room F."""
    g = arena_game()
    if activity in ("door_fail", "door_open"):
        place(g, 0, 3, 0)
    if activity == "jump_fail":
        place(g, 0, 8, 9)
    refresh(g)
    if activity == "handoff_only":
        g.apply(20)  # hand to hero_1
        g.apply(19)  # and back to hero_0
    elif activity == "step":
        g.apply(MOVE_ACTIONS[3])  # (1,0) -> (0,0)
    elif activity == "extra_move":
        g.apply(EXTRA_MOVE)
    elif activity in ("door_fail", "door_open"):
        g.dice.force(3 if activity == "door_fail" else 6)
        g.apply(MOVE_ACTIONS[2])
    elif activity == "jump_fail":
        g.dice.force(1)
        g.apply(5)  # JUMP_E
    play_turn(g)
    assert g.dice.forced_left == 0
    expected = (
        ["hero_0", "hero_1", "hero_2"] if activity in ("nothing", "handoff_only") else ["hero_1", "hero_2"]
    )
    assert rested_after(g) == expected
    assert bool(g.state.rested_last[0]) == (activity in ("nothing", "handoff_only"))


def test_R_REST_02_fighting_and_evading_break_rest():
    """In a combat turn: h0 next to an Orc fights, h1 Evades one square, h2 does nothing.

    y0  O h0 h1 . h2     O: Orc on (0,0); h1 evades (2,0) -> (3,0)
    """
    g = arena_game()
    m = add_monster(g, "orc", 0, 0)
    enter_phase(g, Phase.EVASION)
    assert g.decision == (Decision.HERO_EVADE, 0)
    g.apply(END)  # h0 does not evade
    assert g.decision == (Decision.HERO_EVADE, 1)
    g.apply(MOVE_ACTIONS[1])  # h1 evades (2,0) -> (3,0)
    g.apply(END)
    g.apply(END)  # h2
    g.dice.force(3, 3, 3, 3)  # tie, no Strong: nobody wins
    play_turn(g)
    assert g.dice.forced_left == 0
    assert [e["a"] for e in events(g, "fight")] == ["hero_0"]
    assert rested_after(g) == ["hero_2"]
    assert g.state.unit_status[m] == ACTIVE


def test_R_REST_02_surprised_hero_that_cannot_move_rests():
    """Ruling D-13: a surprised hero in no Fight that could not move still Rests."""
    g = arena_game()
    set_unit(g, 1, surprised=True)
    add_monster(g, "orc", 20, 24)
    refresh(g)
    assert g.state.move_left[1] == 0 and g.state.move_done[1]
    play_turn(g, choose=walker)
    assert rested_after(g) == ["hero_1"]


def test_R_REST_03_benefits_arrive_at_next_turn_start():
    """Rest in turn 1: nothing changes at Turn End, +2 Stamina +1 Magic at turn 2's Turn Start."""
    g = arena_game(["ysolde", "bram", "hob"])
    set_unit(g, 0, stamina=1, magic=0)
    enter_phase(g, Phase.TURN_END)
    assert g.state.turn == 2
    rest_i = next(i for i, e in enumerate(g.events) if e["type"] == "rest" and e["unit"] == "hero_0")
    rec_i = next(i for i, e in enumerate(g.events) if e["type"] == "recover" and e["turn"] == 2)
    assert rest_i < rec_i
    assert (int(g.state.stamina[0]), int(g.state.magic[0])) == (3, 1)
    # only once: acting in turn 2 gives the plain +1 at turn 3
    play_turn(g, choose=walker)
    assert (int(g.state.stamina[0]), int(g.state.magic[0])) == (4, 1)


def test_R_REST_04_learned_hero_regains_2_magic():
    """Ilsabet (Learned, Magic 2) and Orwin (Learned, Magic 5) against Hob (not Learned)."""
    g = arena_game(["ilsabet", "orwin", "hob"])
    for h in range(3):
        set_unit(g, h, magic=0)
    play_turn(g)
    assert [int(g.state.magic[h]) for h in range(3)] == [2, 2, 1]


def test_R_REST_05_recovery_caps_at_base_stamina_and_magic():
    """Orwin (Magic 5, Stamina 3) at Magic 4 and Stamina 2; Ysolde (Magic 1, Stamina 5) at full."""
    g = arena_game(["orwin", "ysolde", "hob"])
    set_unit(g, 0, magic=4, stamina=2)
    play_turn(g)
    assert (int(g.state.magic[0]), int(g.state.stamina[0])) == (5, 3)
    assert (int(g.state.magic[1]), int(g.state.stamina[1])) == (1, 5)


def test_R_REST_06_rested_hero_skips_deaths_door_roll():
    """h0 at 0 Health, Death's Door, Rests: no Turn End roll; h1 at Death's Door steps: it rolls."""
    g = arena_game()
    set_unit(g, 0, health=0, deaths_door=True)
    set_unit(g, 1, health=0, deaths_door=True)
    g.apply(END)  # h0 does nothing
    g.dice.force(6)  # h1's Death's Door roll

    def choose(game):
        return walker(game) if game.decision[1] == 1 else quiet(game)

    play_turn(g, choose=choose)
    assert g.dice.forced_left == 0
    assert [e["actor"] for e in rolls(g, "deaths_door")] == ["hero_1"]
    assert g.state.deaths_door[0] and g.state.unit_status[0] == ACTIVE and g.state.health[0] == 0


def test_R_REST_07_idle_hero_in_no_fight_rests_during_combat():
    """Combat turn: an Orc on (0,0) next to h0; h1 and h2 are in no Fight and do nothing."""
    g = arena_game()
    add_monster(g, "orc", 0, 0)
    g.dice.force(6, 6, 1, 1)  # h0 wins its Fight
    play_turn(g)
    assert g.dice.forced_left == 0
    assert "fighting" in trace(g, 1)
    assert rested_after(g) == ["hero_1", "hero_2"]
    rec = {e["unit"]: e["rested"] for e in events(g, "recover", turn=2)}
    assert rec == {"hero_0": False, "hero_1": True, "hero_2": True}


# --------------------------------------------------------------------------------------------- EXH


def test_R_EXH_01_stamina_0_exhausts_heroes():
    """Ysolde (Stamina 3 here) buys 3 extra squares: at 0 she is Exhausted."""
    g = arena_game(["ysolde", "bram", "hob"])
    set_unit(g, 0, stamina=3)
    refresh(g)
    g.apply(EXTRA_MOVE)
    g.apply(EXTRA_MOVE)
    assert not g.state.exhausted[0]
    g.apply(EXTRA_MOVE)
    assert int(g.state.stamina[0]) == 0 and g.state.exhausted[0]
    assert [e["unit"] for e in events(g, "exhausted")] == ["hero_0"]


def test_R_EXH_01_stamina_0_exhausts_by_fighting_and_evading_too():
    """h0 spends its last 2 Stamina on a Fight; h1 (Stamina 2) Evades one square."""
    g = arena_game()
    m = add_monster(g, "goblin", 0, 0)  # next to h0 on (1,0)
    set_unit(g, 0, stamina=2)
    set_unit(g, 1, stamina=2)
    enter_phase(g, Phase.EVASION)
    assert g.decision == (Decision.HERO_EVADE, 0)
    g.apply(END)
    g.apply(MOVE_ACTIONS[1])  # h1 (2,0) -> (3,0)
    assert g.state.exhausted[1] and int(g.state.stamina[1]) == 0
    assert MOVE_ACTIONS[1] not in g.legal_actions()
    g.apply(END)
    g.apply(END)  # h2
    assert g.decision == (Decision.FIGHT_STAMINA, m)
    g.apply(SPEND_ACTIONS[0])  # the DM spends nothing
    g.dice.force(3, 3, 3, 3)
    g.apply(SPEND_ACTIONS[2])  # the game runs on to turn 2: Turn Start gives +1
    assert events(g, "fight")[0]["a_modifiers"] == {"stamina": 2}
    assert [(e["unit"], e["turn"]) for e in events(g, "exhausted")] == [("hero_1", 1), ("hero_0", 1)]
    assert g.state.turn == 2 and g.state.exhausted[0] and int(g.state.stamina[0]) == 1


def test_R_EXH_01_stamina_0_exhausts_monsters():
    """A Goblin (Stamina 2) buys 2 extra squares in Monsters' Movement and is Exhausted."""
    g = arena_game()
    m = add_monster(g, "goblin", 10, 13)
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    assert g.decision == (Decision.MONSTER_MOVE, m)
    g.apply(EXTRA_MOVE)
    g.apply(EXTRA_MOVE)
    assert int(g.state.stamina[m]) == 0 and g.state.exhausted[m]
    assert EXTRA_MOVE not in g.legal_actions()
    assert [e["unit"] for e in events(g, "exhausted")] == [g.label(m)]


def test_R_EXH_02_exhausted_cannot_spend_stamina_even_after_recovering_some():
    """Ysolde Exhausted at 0 recovers to 1 at Turn Start: still no extra move, no Evade, and her
    Fight Stamina is 0 without being asked (D-08)."""
    g = arena_game(["ysolde", "bram", "hob"])
    set_unit(g, 0, stamina=0, exhausted=True)
    play_turn(g, choose=walker)
    assert int(g.state.stamina[0]) == 1 and g.state.exhausted[0]
    assert g.decision == (Decision.HERO_MOVE, 0)
    assert EXTRA_MOVE not in g.legal_actions()
    with pytest.raises(IllegalActionError):
        g.apply(EXTRA_MOVE)
    # Evade: at Stamina 3 but Exhausted the hero is not even asked (h0 stepped to (0,0) in turn 1)
    set_unit(g, 0, stamina=3)
    m = add_monster(g, "goblin", 0, 1)  # next to h0 on (0,0)
    enter_phase(g, Phase.EVASION)
    assert g.decision == (Decision.HERO_EVADE, 1)
    # Fight: the DM is asked, the hero is not (0 Stamina is its only choice)
    g.dice.force(6, 6, 1, 1)
    play_turn(g, choose=lambda game: SPEND_ACTIONS[0] if game.decision[1] == m else quiet(game))
    assert g.dice.forced_left == 0
    fight = events(g, "fight")
    assert len(fight) == 1 and fight[0]["a"] == "hero_0" and fight[0]["a_modifiers"] == {}
    assert int(g.state.stamina[0]) == 4 and g.state.exhausted[0]  # 3 + 1 at Turn Start, base 5


def test_R_EXH_03_exhaustion_ends_only_at_full_base_stamina():
    """Tovar (Stamina 4) Exhausted at 0, acting every turn: 1, 2, 3, then 4 at the 4th Turn Start,
    when Exhaustion ends. Resting gets there in 2 Turn Starts (0 -> 2 -> 4)."""
    g = arena_game(["tovar", "bram", "hob"])
    set_unit(g, 0, stamina=0, exhausted=True)
    seen = []
    for _ in range(4):
        play_turn(g, choose=walker)
        seen.append((int(g.state.stamina[0]), bool(g.state.exhausted[0])))
    assert seen == [(1, True), (2, True), (3, True), (4, False)]
    assert [e["turn"] for e in events(g, "exhaustion_ends", unit="hero_0")] == [5]

    g = arena_game(["tovar", "bram", "hob"])
    set_unit(g, 0, stamina=0, exhausted=True)
    seen = []
    for _ in range(2):
        play_turn(g)
        seen.append((int(g.state.stamina[0]), bool(g.state.exhausted[0])))
    assert seen == [(2, True), (4, False)]


def test_R_EXH_04_cannot_spend_more_than_current_stamina():
    """Ysolde at Stamina 2: a third extra square is rejected; in a Fight at Stamina 2 only 0..2
    may be spent, and Stamina never goes below 0."""
    g = arena_game(["ysolde", "bram", "hob"])
    set_unit(g, 0, stamina=2)
    refresh(g)
    g.apply(EXTRA_MOVE)
    g.apply(EXTRA_MOVE)
    assert int(g.state.stamina[0]) == 0 and int(g.state.move_left[0]) == 8
    with pytest.raises(IllegalActionError):
        g.apply(EXTRA_MOVE)

    g = arena_game(["ysolde", "bram", "hob"])
    m = add_monster(g, "orc", 0, 0)
    set_unit(g, 0, stamina=2)
    enter_phase(g, Phase.FIGHTING)
    g.apply(SPEND_ACTIONS[0])  # DM for the orc
    assert g.decision == (Decision.FIGHT_STAMINA, 0)
    assert g.legal_actions() == list(SPEND_ACTIONS[:3])
    with pytest.raises(IllegalActionError):
        g.apply(SPEND_ACTIONS[3])
    assert int(g.state.stamina[0]) == 2 and g.state.unit_status[m] == ACTIVE


# ------------------------------------------------------------------------------------------- LIGHT


def test_R_LIGHT_01_light_starts_at_20_and_never_exceeds_it():
    """No item or spell can raise Light yet (they arrive later): the cap is checked on the track as
    played, and the engine's own cap constant."""
    g = arena_game()
    assert g.state.light == 20 == g.rules.light_max
    seen = [g.state.light]
    for _ in range(3):
        play_turn(g)
        seen.append(g.state.light)
    assert seen == [20, 19, 18, 17]
    assert max(e["light"] for e in events(g, "light")) <= 20


def test_R_LIGHT_02_light_drops_1_per_turn_with_floor_0_combat_included():
    """23 turns; from turn 5 on an inactive Guard makes them combat turns."""
    g = arena_game(max_turns=30)
    lights = []
    for t in range(1, 24):
        if t == 5:
            add_monster(g, "orc", 20, 24, awake=False)
        play_turn(g)
        lights.append(g.state.light)
    assert lights == [max(0, 20 - t) for t in range(1, 24)]
    assert "spell_selection" in trace(g, 6)
    assert [e["light"] for e in events(g, "light")] == lights


def test_R_LIGHT_03_light_changes_only_at_turn_end_for_now():
    """Items and spells that raise Light arrive later (gap). What can be checked now: Light only
    ever changes in Turn End, by -1, over turns full of movement, doors and fights."""
    g = arena_game()
    add_monster(g, "orc", 0, 1)
    g.dice.force(5)  # h0's door attempt below opens room A
    place(g, 0, 3, 0)
    refresh(g)
    g.apply(MOVE_ACTIONS[2])
    light = g.state.light
    for _ in range(4):
        play_turn(g, choose=walker)
    changes = [(ph, e["light"]) for ph, e in phase_of_events(g) if e["type"] == "light"]
    assert changes == [("turn_end", light - k) for k in range(1, 5)]


def _light_zero_game(heroes=None, adventure: str = ARENA) -> Game:
    """A game at the start of turn 21's Movement: Light 0 after 20 Turn Ends."""
    g = Game.new(adventure=adventure, heroes=heroes or PLAIN, seed=0, max_turns=30)
    for _ in range(20):
        play_turn(g)
    assert g.state.turn == 21 and g.state.light == 0
    return g


def test_R_LIGHT_04_light_0_costs_heroes_1_movement():
    """Corvin (Movement 5): 5 squares in turn 20 (Light 1), 4 in turn 21 (Light 0)."""
    g = arena_game(max_turns=30)
    for _ in range(19):
        play_turn(g)
    assert g.state.turn == 20 and g.state.light == 1
    assert int(g.state.move_left[0]) == 5
    play_turn(g)
    assert g.state.light == 0 and int(g.state.move_left[0]) == 4
    assert [int(g.state.move_left[h]) for h in range(3)] == [4, 5, 4]  # Ysolde 6, Hob 5


def test_A_12_a_torch_at_light_0_gives_the_dark_square_back_at_once():
    """Revised 2026-12-06: at Light 0 Corvin (Movement 5) has 4 squares; after 2 steps he lights a
    torch: Light 3, and the square the darkness took comes back at once (3 left, not 2). Ysolde,
    whose Movement has not begun, gets hers back too (6); a hero done with its Movement does not."""
    g = _light_zero_game()
    place(g, 0, 14, 0)
    place(g, 1, 16, 0)
    place(g, 2, 18, 0)
    enter_phase(g, Phase.HERO_MOVEMENT)
    assert [int(g.state.move_left[h]) for h in range(3)] == [4, 5, 4]
    g.apply(MOVE_ACTIONS[3])  # west, twice
    g.apply(MOVE_ACTIONS[3])
    assert g.decision == (Decision.HERO_MOVE, 0) and int(g.state.move_left[0]) == 2
    g.state.move_done[2] = True  # as if Hob had finished his Movement already
    torch = give_item(g, 0, "torch", known=True)
    g.apply(item_action(g, 0, torch))
    if g.decision is not None and g.decision[0] == Decision.ITEM_VERB:
        g.apply(USE)
    assert g.state.light == 3
    assert [int(g.state.move_left[h]) for h in range(3)] == [3, 6, 4]


def test_R_LIGHT_04_light_0_does_not_touch_door_jump_or_deaths_door_rolls():
    """At Light 0: Gunnhild's (Strong) jump die 3 fails with no modifier, Ilsabet's door die 5
    opens with no modifier, Hob's Death's Door die 4 gets only his Iron-Willed +1 and survives."""
    g = _light_zero_game(["gunnhild", "ilsabet", "hob"])
    place(g, 1, 3, 0)  # Ilsabet (Learned, Perceptive) above the door
    place(g, 0, 8, 9)  # Gunnhild (Strong) west of the table (9,9)
    set_unit(g, 2, health=0, deaths_door=True)
    refresh(g)
    g.dice.force(3)  # Gunnhild's jump: 3 fails (no Light penalty would make a 4 fail too)
    g.apply(5)
    assert g.decision == (Decision.HERO_MOVE, 1)
    g.dice.force(5)
    g.apply(MOVE_ACTIONS[2])
    assert g.decision == (Decision.HERO_MOVE, 1)
    g.dice.force(4)  # Hob's Death's Door roll (Iron-Willed +1 only)

    def choose(game):
        return walker(game) if game.decision[1] == 2 else quiet(game)

    play_turn(g, choose=choose)
    assert g.dice.forced_left == 0
    jump, door, dd = rolls(g, "jump")[-1], rolls(g, "open_door")[-1], rolls(g, "deaths_door")[-1]
    assert jump["modifiers"] == {} and jump["result"] == "fail"
    assert door["modifiers"] == {} and door["total"] == 5 and door["result"] == "opened"
    assert dd["modifiers"] == {"iron_willed": 1} and dd["total"] == 5 and dd["result"] == "survives"


def test_R_LIGHT_04_light_0_penalties_are_for_heroes_only():
    """At Light 0 a hero's Fight gets -1 'light', the monster's none; monsters keep full Movement."""
    g = _light_zero_game()
    m = add_monster(g, "orc", 0, 0)
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    assert int(g.state.move_left[m]) == 4
    g.dice.force(3, 3, 3, 3)
    play_turn(g)
    fight = events(g, "fight")[0]
    assert fight["a_modifiers"] == {"light": -1} and fight["b_modifiers"] == {}
    assert fight["a_score"] == 5 - 1 and fight["b_score"] == 5


def test_R_LIGHT_04_light_0_surprise_rolls_get_minus_1(guard_arena):
    """Turn 21 on the Guard arena: h0 opens room A (die 5), Surprise dice 3, 3, 3 become 2, 3, 2
    (Ysolde is Perceptive): h0 and h2 are surprised."""
    g = _light_zero_game(adventure=guard_arena)
    place(g, 0, 3, 0)
    refresh(g)
    g.dice.force(5, 3, 3, 3)
    g.apply(MOVE_ACTIONS[2])
    assert g.dice.forced_left == 0
    sur = rolls(g, "surprise")
    assert [e["modifiers"] for e in sur] == [{"light": -1}, {"perceptive": 1, "light": -1}, {"light": -1}]
    assert [e["result"] for e in sur] == ["surprised", "ready", "surprised"]
