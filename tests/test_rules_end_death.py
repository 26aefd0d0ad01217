"""Rules END (R-END-01..05) and DEATH (R-DEATH-01..04): leaving the dungeon, how an adventure ends,
corpses and dragging them.

Positions are on the test arena (tests/data/arena.toml; its exit is (23,27), the far corner), except
where a bundled adventure's goals are needed. PLAIN heroes: hero_0 Corvin (Movement 5), hero_1 Ysolde
(6), hero_2 Hob (5); none of them is Strong or Learned, Hob is Iron-Willed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dungeon_env.content import load_adventure
from dungeon_env.content.model import ContentWarning
from dungeon_env.engine import Decision, Game, IllegalActionError, Phase, inventory
from dungeon_env.engine.actions import DRAG_ACTIONS, END, EXTRA_MOVE, JUMP_ACTIONS, MOVE_ACTIONS
from dungeon_env.engine.state import ACTIVE, CORPSE, CORPSE_OUT, EXITED, GONE, NO_UNIT
from dungeon_env.engine.units import kill_hero
from dungeon_env.engine.visibility import look, sees
from tests.builders import (
    ARENA,
    PLAIN,
    add_monster,
    apply_past_explore,
    arena_game,
    enter_phase,
    events,
    place,
    set_unit,
)

N, E, S, W = MOVE_ACTIONS


def at(g: Game, u: int) -> tuple[int, int] | None:
    sq = int(g.state.unit_pos[u])
    return None if sq < 0 else g.xy(sq)


def _default(g: Game) -> int:
    legal = g.legal_actions()
    return END if END in legal else legal[0]


def _advance(g: Game, until, limit: int = 5_000) -> None:
    for _ in range(limit):
        if g.over or until(g):
            return
        g.apply(_default(g))
    raise AssertionError("condition not reached")


def _corpse_of(g: Game, u: int, x: int, y: int) -> None:
    """Hero ``u`` lies dead at (x, y) (built by hand with the engine's own kill)."""
    place(g, u, x, y)
    kill_hero(g, u)
    assert g.state.unit_status[u] == CORPSE


# --------------------------------------------------------------------------------------------- END


def test_R_END_01_adventure_completes_when_the_last_living_hero_exits():
    """
    corridor o (y=27) and corridor 4 (x=23):        . . . . 2 .     hero_1 at (23,26)
                                                    . . . 3 1 E     E = exit (23,27)
                                                      21 22 23
    """
    g = arena_game()
    place(g, 0, 22, 27)
    place(g, 1, 23, 26)
    place(g, 2, 21, 27)
    assert g.decision == (Decision.HERO_MOVE, 0)
    g.apply(E)
    assert g.state.unit_status[0] == EXITED and at(g, 0) is None
    assert g.state.occupant[g.square(23, 27)] == NO_UNIT
    assert events(g, "exit", unit="hero_0")
    assert not g.over
    assert g.decision == (Decision.HERO_MOVE, 1)  # the exited hero takes no further part
    g.apply(S)
    assert g.state.unit_status[1] == EXITED and not g.over
    assert g.decision == (Decision.HERO_MOVE, 2)
    g.apply(E)
    assert not g.over
    g.apply(E)
    assert g.over and g.outcome == "completed"
    end = g.events[-1]
    assert end["type"] == "end" and end["outcome"] == "completed" and end["turn"] == 1
    assert end["objectives"] == [
        {"kind": "escape", "text": "Walk out at the far corner.", "primary": True, "met": True}
    ]
    assert g.decision is None and g.agent is None and g.legal_actions() == []


def test_R_END_01_dead_heroes_need_not_exit():
    g = arena_game()
    place(g, 0, 22, 27)
    place(g, 1, 23, 26)
    _corpse_of(g, 2, 21, 27)
    enter_phase(g, Phase.HERO_MOVEMENT)
    g.apply(E)  # hero_0 exits: hero_2's corpse is alone in corridor o and is lost
    assert g.state.unit_status[2] == GONE
    assert not g.over
    g.apply(S)  # hero_1, the last living hero, exits
    assert g.outcome == "completed"
    assert g.state.end_reason == "every surviving hero left the dungeon with the goals met"


@pytest.fixture(scope="module")
def no_exit_arena(tmp_path_factory) -> str:
    text = Path(ARENA).read_text().replace('id = "arena"', 'id = "no_exit_arena"')
    text = text.replace("exits = [[23, 27]]\n", "")
    path = tmp_path_factory.mktemp("advs") / "no_exit_arena.toml"
    path.write_text(text)
    return str(path)


def test_R_END_02_exit_is_the_entrance_by_default(no_exit_arena):
    """No ``exits`` in the adventure: the start squares (1..6, 0) are the exits (and the loader
    says so, ruling D-25)."""
    with pytest.warns(ContentWarning, match="no exits given, so the heroes leave by the entrance"):
        adv = load_adventure(no_exit_arena)
        g = Game.new(adventure=no_exit_arena, heroes=PLAIN)
    assert adv.exits == adv.start
    exits = {g.xy(int(q)) for q in range(g.tables.n_squares) if g.tables.exit[q]}
    assert exits == set(adv.start)
    assert not g.tables.exit[g.square(23, 27)]
    apply_past_explore(g, END)
    apply_past_explore(g, END)
    assert g.decision == (Decision.HERO_MOVE, 2)
    g.apply(E)  # Hob (4,0) -> (5,0), an unused start square: he leaves the dungeon
    assert g.state.unit_status[2] == EXITED
    assert events(g, "exit", unit="hero_2")


@pytest.mark.parametrize("name", ["flooded_cellar", "goblin_warrens", "warlocks_crypt"])
def test_R_END_02_a_scenario_exit_replaces_the_entrance(name):
    adv = load_adventure(name)
    g = Game.new(adventure=name, heroes=3)
    exits = {g.xy(int(q)) for q in range(g.tables.n_squares) if g.tables.exit[q]}
    assert exits == set(adv.exits)
    assert not exits & set(adv.start)


def test_R_END_02_walking_onto_a_start_square_is_not_an_exit():
    g = Game.new(adventure="goblin_warrens", heroes=3)
    apply_past_explore(g, END)
    apply_past_explore(g, END)
    assert g.decision == (Decision.HERO_MOVE, 2)
    g.apply(E)  # (20,27) -> (21,27): a start square, not an exit
    assert g.state.unit_status[2] == ACTIVE and at(g, 2) == (21, 27)


def _escape_warrens(g: Game) -> None:
    """Heroes next to the well shaft (22,0)/(23,0) walk out: bram, tovar, gunnhild."""
    place(g, 0, 21, 0)
    place(g, 1, 20, 0)
    place(g, 2, 19, 0)
    enter_phase(g, Phase.HERO_MOVEMENT)
    g.apply(E)
    g.apply(E)
    g.apply(E)
    g.apply(E)
    g.apply(E)
    g.apply(E)


@pytest.mark.parametrize("troll_slain", [False, True])
def test_R_END_03_secondary_goal_is_reported_separately(troll_slain):
    g = Game.new(adventure="goblin_warrens", heroes=3, seed=2)
    adv = g.tables.adventure
    troll = next(i for i, gd in enumerate(adv.guards) if gd.monster == "troll")
    if troll_slain:
        g.state.guard_slain[troll] = True
    _escape_warrens(g)
    assert g.outcome == "completed"  # the optional goal does not decide completion
    report = {o["kind"]: (o["primary"], o["met"]) for o in g.events[-1]["objectives"]}
    assert report == {"escape": (True, True), "slay": (False, troll_slain)}


def test_R_END_04_adventure_end_is_final_and_reported():
    """Only the end itself is testable now: discarding memorized spells and identifying items at the
    end arrive with the spell and item rules."""
    g = arena_game()
    place(g, 0, 22, 27)
    place(g, 1, 23, 26)
    place(g, 2, 21, 27)
    for action in (E, S, E, E):
        g.apply(action)
    assert g.over
    assert g.state.phase == Phase.GAME_OVER
    assert [e["type"] for e in g.events].count("end") == 1
    with pytest.raises(IllegalActionError, match="the game is over"):
        apply_past_explore(g, END)


def test_R_END_05_all_heroes_dead_fails_the_adventure():
    """Every hero at Death's Door takes a step (so none Rests) and rolls 1 at Turn End."""
    g = arena_game()
    for u in range(3):
        set_unit(g, u, health=0, deaths_door=True)
    g.apply(W)  # hero_0 (1,0) -> (0,0)
    apply_past_explore(g, END)
    g.apply(E)  # hero_1 (2,0) -> (3,0)
    apply_past_explore(g, END)
    g.dice.force(1, 1, 1)
    g.apply(E)  # hero_2 (4,0) -> (5,0)
    apply_past_explore(g, END)
    assert g.dice.forced_left == 0
    assert [e["unit"] for e in events(g, "death")] == ["hero_0", "hero_1", "hero_2"]
    assert g.outcome == "failed"
    assert g.state.end_reason == "every hero is dead"
    assert g.events[-1]["type"] == "end" and g.events[-1]["outcome"] == "failed"


def test_R_END_05_game_goes_on_while_one_hero_lives():
    g = arena_game()
    for u in range(3):
        set_unit(g, u, health=0, deaths_door=True)
    for action in (W, END, E, END, E):
        g.apply(action)
    g.dice.force(1, 1, 6)  # Hob (Iron-Willed) survives
    apply_past_explore(g, END)
    assert g.dice.forced_left == 0
    assert not g.over
    assert g.state.unit_status[2] == ACTIVE and g.state.turn == 2


# ------------------------------------------------------------------------------------------- DEATH


def test_R_DEATH_01_dead_hero_becomes_a_corpse_on_its_square():
    """
    corridor b (y=0):   . 1 . 2 .        hero_0 at Death's Door steps (8,0) -> (9,0) and dies at
                        7 8 9 10         Turn End; hero_1 at (10,0) stays with the body.
    """
    g = arena_game()
    place(g, 0, 8, 0)
    place(g, 1, 10, 0)
    set_unit(g, 0, health=0, deaths_door=True)
    g.apply(E)
    apply_past_explore(g, END)
    apply_past_explore(g, END)
    g.dice.force(2)  # Corvin's Death's Door roll: 2 -> dies
    apply_past_explore(g, END)
    assert g.dice.forced_left == 0
    assert events(g, "death", unit="hero_0")
    assert g.state.unit_status[0] == CORPSE
    assert at(g, 0) == (9, 0)
    assert g.state.occupant[g.square(9, 0)] == 0
    assert not g.state.deaths_door[0]
    assert not events(g, "corpse_lost")
    # the game goes on without the dead hero
    assert g.state.turn == 2 and g.decision == (Decision.HERO_MOVE, 1)


def test_R_DEATH_02_corpse_blocks_movement_but_not_sight():
    """
    corridor b:  . . % 2 .      hero_0's corpse at (9,0), hero_1 at (10,0)
                 7 8 9 10
    """
    g = arena_game()
    _corpse_of(g, 0, 9, 0)
    place(g, 1, 10, 0)
    enter_phase(g, Phase.HERO_MOVEMENT)
    assert g.decision == (Decision.HERO_MOVE, 1)
    legal = g.legal_actions()
    assert W not in legal  # cannot walk onto or through the corpse
    assert JUMP_ACTIONS[3] in legal  # but it is a one-square obstacle to jump
    a, b = g.square(8, 0), g.square(10, 0)
    assert sees(g, a, b) and sees(g, b, a)
    # a blockage, by contrast, blocks sight: (6,20) between (5,20) and (7,20)
    assert not sees(g, g.square(5, 20), g.square(7, 20))
    # heroes see past a corpse when revealing: a corpse in corridor d's junction does not hide e
    g2 = arena_game()
    _corpse_of(g2, 0, 7, 6)  # a corpse in corridor e, next to corridor d
    place(g2, 1, 5, 6)
    g2.state.revealed[:] = False
    look(g2, [1])
    assert g2.state.revealed[g2.tables.area[g2.square(12, 6)]]  # corridor e, behind the corpse


def test_R_DEATH_03_corpse_left_alone_is_lost_at_once():
    """
    corridor a | corridor b:   3 . . . . . . | 2 . % .      hero_1 (7,0) steps west into corridor a:
                               1           6   7 8 9        the corpse at (9,0) is alone in b
    """
    g = arena_game()
    _corpse_of(g, 0, 9, 0)
    place(g, 1, 7, 0)
    place(g, 2, 1, 0)
    enter_phase(g, Phase.HERO_MOVEMENT)
    assert g.decision == (Decision.HERO_MOVE, 1)
    g.apply(W)
    assert at(g, 1) == (6, 0)
    lost = events(g, "corpse_lost")
    assert lost == [{"type": "corpse_lost", "unit": "hero_0", "area": "b", "turn": 1}]
    assert g.state.unit_status[0] == GONE and at(g, 0) is None
    assert g.state.occupant[g.square(9, 0)] == NO_UNIT
    # the move goes on (the corpse was lost mid-move, the hero keeps its movement)
    assert g.decision == (Decision.HERO_MOVE, 1) and g.state.move_left[1] == 5


def test_R_DEATH_03_corpse_with_a_hero_in_its_area_stays():
    g = arena_game()
    _corpse_of(g, 0, 9, 0)
    place(g, 1, 7, 0)
    place(g, 2, 12, 0)  # hero_2 stays in corridor b
    enter_phase(g, Phase.HERO_MOVEMENT)
    g.apply(W)
    assert g.state.unit_status[0] == CORPSE and not events(g, "corpse_lost")


def test_R_DEATH_03_hero_dying_alone_is_lost_at_once():
    """Ruling D-15: nobody is in corridor b with hero_0 when it dies at Turn End."""
    g = arena_game()
    place(g, 0, 9, 0)
    set_unit(g, 0, health=0, deaths_door=True)
    g.apply(E)
    apply_past_explore(g, END)
    apply_past_explore(g, END)
    g.dice.force(1)
    apply_past_explore(g, END)
    assert [e["type"] for e in g.events if e.get("unit") == "hero_0"][-2:] == ["death", "corpse_lost"]
    assert g.state.unit_status[0] == GONE


def test_R_DEATH_04_dragging_costs_one_square_and_the_corpse_trails():
    """
    corridor b:  . . % 3 . . . .      Hob (Movement 5) starts next to the corpse: DRAG west, then
                 7 8 9 10      14     4 steps east; the corpse follows into each square he leaves.
    """
    g = arena_game()
    _corpse_of(g, 0, 9, 0)
    place(g, 1, 1, 0)
    place(g, 2, 10, 0)
    enter_phase(g, Phase.HERO_MOVEMENT)
    apply_past_explore(g, END)  # hero_1
    assert g.decision == (Decision.HERO_MOVE, 2)
    assert DRAG_ACTIONS[3] in g.legal_actions()
    g.apply(DRAG_ACTIONS[3])
    assert g.state.move_left[2] == 4
    assert g.state.dragging[2] == 0
    assert not set(DRAG_ACTIONS) & set(g.legal_actions())  # one corpse at a time
    trail = []
    for _ in range(4):
        g.apply(E)
        trail.append((at(g, 2), at(g, 0)))
    assert trail == [((11, 0), (10, 0)), ((12, 0), (11, 0)), ((13, 0), (12, 0)), ((14, 0), (13, 0))]
    assert g.state.move_left[2] == 0
    assert E not in g.legal_actions()
    assert g.state.occupant[g.square(13, 0)] == 0 and g.state.occupant[g.square(9, 0)] == NO_UNIT
    # Stamina may still buy the squares back (R-TURN-07), dragging included
    assert EXTRA_MOVE in g.legal_actions()


def test_R_DEATH_04_drag_only_from_the_start_of_the_move():
    g = arena_game()
    _corpse_of(g, 0, 9, 0)
    place(g, 1, 1, 0)
    place(g, 2, 11, 0)
    enter_phase(g, Phase.HERO_MOVEMENT)
    apply_past_explore(g, END)
    g.apply(W)  # Hob (11,0) -> (10,0): now next to the corpse, but he has already moved
    assert not set(DRAG_ACTIONS) & set(g.legal_actions())


def test_R_DEATH_04_dragged_corpse_is_safe_across_areas():
    """Hob drags the corpse from corridor b into corridor a; for a moment the corpse is alone in b,
    but a corpse being dragged is not lost (ruling A-46)."""
    g = arena_game()
    _corpse_of(g, 0, 9, 0)
    place(g, 1, 1, 0)
    place(g, 2, 8, 0)
    enter_phase(g, Phase.HERO_MOVEMENT)
    apply_past_explore(g, END)
    g.apply(DRAG_ACTIONS[1])  # the corpse is east of Hob
    for _ in range(3):
        g.apply(W)
    assert at(g, 2) == (5, 0) and at(g, 0) == (6, 0)
    assert g.state.unit_status[0] == CORPSE and not events(g, "corpse_lost")


def test_R_DEATH_04_corpse_carried_out_through_the_exit():
    g = arena_game()
    _corpse_of(g, 0, 21, 27)
    place(g, 1, 1, 0)
    place(g, 2, 22, 27)
    enter_phase(g, Phase.HERO_MOVEMENT)
    apply_past_explore(g, END)
    g.apply(DRAG_ACTIONS[3])
    g.apply(E)  # Hob steps onto the exit (23,27) with the corpse trailing
    assert g.state.unit_status[2] == EXITED
    assert g.state.unit_status[0] == CORPSE_OUT
    assert at(g, 0) is None and at(g, 2) is None
    for x in (21, 22, 23):
        assert g.state.occupant[g.square(x, 27)] == NO_UNIT
    assert events(g, "corpse_out") == [
        {"type": "corpse_out", "unit": "hero_0", "carrier": "hero_2", "turn": 1}
    ]
    assert not events(g, "corpse_lost")
    assert not g.over  # hero_1 is still inside


def test_R_DEATH_03_hero_next_to_the_corpse_across_a_segment_boundary_keeps_it():
    """Revised 2026-12-01: Hob drags the corpse so that it ends in corridor b while he stands next to
    it in corridor a. The drag ends with his Movement, but a living hero on a square next to the
    corpse keeps it (segment boundaries are invisible to players); when he steps away next turn,
    it is alone and lost at once.

        y=0   1 . . . . . 3 %      (6, 0) Hob in corridor a, (7, 0) the corpse in corridor b
    """
    g = arena_game()
    _corpse_of(g, 0, 9, 0)
    place(g, 1, 1, 0)
    place(g, 2, 8, 0)
    enter_phase(g, Phase.HERO_MOVEMENT)
    apply_past_explore(g, END)
    g.apply(DRAG_ACTIONS[1])
    g.apply(W)
    g.apply(W)
    assert at(g, 2) == (6, 0) and at(g, 0) == (7, 0)
    assert g.tables.area[g.square(6, 0)] != g.tables.area[g.square(7, 0)]
    apply_past_explore(g, END)
    assert g.state.turn == 2 and g.decision == (Decision.HERO_MOVE, 1)
    assert g.state.unit_status[0] == CORPSE and g.state.dragging[2] == -1
    apply_past_explore(g, END)  # hero_1 ends; Hob's turn
    assert g.decision == (Decision.HERO_MOVE, 2)
    g.apply(W)
    assert g.state.unit_status[0] == GONE
    assert events(g, "corpse_lost", unit="hero_0")


def test_R_DEATH_04_the_drag_ends_with_the_movement_evade_steps_do_not_pull_the_corpse():
    """Revised 2026-12-01: Hob drags the corpse two squares west in his Movement of a combat turn (a
    sleeping Guard far away keeps the Combat Turn Sequence running); then he Evades one square: the
    corpse stays where his Movement left it (hero_1 in corridor b keeps it).

        y=0   . . . . . . 3 % . . . . 1      Hob (7, 0) after his Movement, the corpse (8, 0)
    """
    g = arena_game(["corvin", "ysolde", "hob"])
    _corpse_of(g, 0, 10, 0)
    place(g, 1, 12, 0)
    place(g, 2, 9, 0)
    add_monster(g, "goblin", 20, 20, awake=False)
    enter_phase(g, Phase.HERO_MOVEMENT)
    apply_past_explore(g, END)  # hero_1 stays
    assert g.decision == (Decision.HERO_MOVE, 2)
    g.apply(DRAG_ACTIONS[1])
    g.apply(W)
    g.apply(W)
    assert at(g, 2) == (7, 0) and at(g, 0) == (8, 0)
    g.apply(END)
    assert g.state.dragging[2] == NO_UNIT
    while g.decision != (Decision.HERO_EVADE, 2):
        g.apply(_default(g))
    g.apply(W)  # an Evade step: 2 Stamina
    assert at(g, 2) == (6, 0) and at(g, 0) == (8, 0)
    assert g.state.unit_status[0] == CORPSE


def test_R_DEATH_04_a_corpse_trails_one_dragger_only():
    """
    room B:  y=1  . . . . .     start: hero_1 at (9,2), Hob at (10,2), hero_0's corpse at (9,3).
             y=2  . . 1 3 .     hero_1 drags the corpse north: she steps to (9,1), the corpse to
             y=3  . . % . .     (9,2). Hob, now next to it and not yet moved, takes it over and
                  7 8 9 10 11   walks E, S, S: the corpse trails him to (11,3). When hero_1 steps
                                again, the corpse must not jump back to the square she leaves.
    """
    from dungeon_env.engine.actions import HANDOFF_ACTIONS

    g = arena_game()
    _corpse_of(g, 0, 9, 3)
    place(g, 1, 9, 2)
    place(g, 2, 10, 2)
    enter_phase(g, Phase.HERO_MOVEMENT)
    g.apply(DRAG_ACTIONS[2])
    g.apply(N)
    assert at(g, 1) == (9, 1) and at(g, 0) == (9, 2)
    g.apply(HANDOFF_ACTIONS[2])
    assert DRAG_ACTIONS[3] not in g.legal_actions()  # hero_1 holds it: Hob cannot take it too
    g.apply(HANDOFF_ACTIONS[1])
    g.apply(W)
    assert at(g, 1) == (8, 1) and at(g, 0) == (9, 1)  # it still trails hero_1 only


def _arena_with_goal(tmp_path, objective: str) -> str:
    text = Path(ARENA).read_text() + "\n" + objective
    path = tmp_path / "arena.toml"
    path.write_text(text)
    return str(path)


def _walk_everyone_out(g: Game) -> None:
    """Put each hero next to the exit (23, 27) in turn and step out."""
    for h in range(g.state.n_heroes):
        enter_phase(g, Phase.HERO_MOVEMENT)
        place(g, h, 23, 26)
        g.state.controller = h
        g.state.stack[-1] = [int(Decision.HERO_MOVE), h, -1, -1]
        g.state_edited()
        g.apply(S)


def test_R_END_01_leaving_without_the_primary_goal_completes_it_reported_not_met(tmp_path):
    """Revised 2026-12-01 (ruling D-01 withdrawn): the adventure is complete when every surviving
    hero has exited, goals met or not; the unmet primary goal is reported beside the outcome."""
    adventure = _arena_with_goal(
        tmp_path,
        '[[objective]]\nkind = "reach"\ntext = "Find the shrine in room K."\narea = "K"\nprimary = true',
    )
    g = Game.new(adventure=adventure, heroes=PLAIN, seed=0)
    _walk_everyone_out(g)
    assert g.outcome == "completed" and not g.goals_met
    end = events(g, "end")[0]
    assert end["goals_met"] is False
    assert "goals not met: Find the shrine in room K." in end["reason"]
    assert [o["met"] for o in end["objectives"]] == [True, False]


def test_R_END_03_a_primary_reach_goal_met_is_reported_met(tmp_path):
    adventure = _arena_with_goal(
        tmp_path, '[[objective]]\nkind = "reach"\ntext = "Walk the corridor l."\narea = "4"\nprimary = true'
    )
    g = Game.new(adventure=adventure, heroes=PLAIN, seed=0)
    enter_phase(g, Phase.HERO_MOVEMENT)
    place(g, 0, 23, 20)  # corridor l; one step south is corridor 4
    g.state.stack[-1] = [int(Decision.HERO_MOVE), 0, -1, -1]
    g.state_edited()
    g.apply(S)
    assert g.state.visited[g.tables.board.area_names.index("4")]
    _walk_everyone_out(g)
    assert g.outcome == "completed" and g.goals_met
    assert all(o["met"] for o in events(g, "end")[0]["objectives"])
    assert events(g, "end")[0]["goals_met"] is True


# --------------------------------------------------------------------------------- the final adventure

FINAL_GOALS = """
[[guard]]
monster = "orc"
at = [9, 2]

[[objective]]
kind = "escape"
text = "Walk out at the far corner."

[[objective]]
kind = "slay"
text = "Slay the Orc."
at = [9, 2]
primary = true
"""


def _final_arena(tmp_path) -> str:
    text = Path(ARENA).read_text().replace('id = "arena"', 'id = "final_arena"\nfinal = true')
    text = text[: text.index("[[objective]]")] + FINAL_GOALS
    path = tmp_path / "final_arena.toml"
    path.write_text(text)
    return str(path)


def _last_stand(tmp_path, dice: tuple[int, ...]) -> Game:
    """hero_0, the last hero alive and at Death's Door, fights the final Guard (1 Health) at (9, 2)
    and a Goblin at (10, 3); the other two heroes are dead.

        room B   y=2   .  O  .        O = the Orc Guard the final goal names
                 y=3   .  0  g
    """
    g = Game.new(adventure=_final_arena(tmp_path), heroes=PLAIN, seed=0)
    place(g, 0, 9, 3)
    for u, x in ((1, 14), (2, 16)):
        place(g, u, x, 0)
        kill_hero(g, u)
    orc = add_monster(g, "orc", 9, 2)
    g.state.guard_uid[0] = g.state.unit_uid[orc]  # it is the adventure's Guard
    add_monster(g, "goblin", 10, 3)
    set_unit(g, 0, health=0, deaths_door=True)
    for u in range(64):
        set_unit(g, u, stamina=0)
    set_unit(g, orc, health=1)
    g.dice.force(*dice)
    enter_phase(g, Phase.FIGHTING)
    return g


def test_A_55_final_goal_met_in_the_step_the_last_hero_dies_completes_the_adventure(tmp_path):
    """Revised 2026-12-01 (A-55, R-CAMP-05): hero_0 slays the final Guard and loses to the Goblin in
    the same Fighting phase; the extra Death's Door die (1) kills it. The goal is judged before
    "every hero is dead": the adventure is completed, its primary goal met."""
    g = _last_stand(tmp_path, (6, 6, 1, 1, 1, 1, 6, 6, 1))
    assert g.over and g.outcome == "completed" and g.goals_met
    assert events(g, "death", unit="hero_0") and events(g, "slain")
    end = events(g, "end")[0]
    assert end["goals_met"] is True and "gave their lives" in end["reason"]


def test_A_55_final_goal_not_met_and_every_hero_dead_is_a_failure(tmp_path):
    """The same stand, but hero_0 loses both Fights: the Guard lives, and the adventure fails."""
    g = _last_stand(tmp_path, (1, 1, 6, 6, 1, 1, 6, 6, 1))
    assert g.outcome == "failed" and not g.goals_met


def test_A_55_the_bundled_final_adventure_needs_nothing_carried_out():
    """sunless_throne's primary goals are the Crown taken (claim) and Malgrath slain; escaping (and
    anything else carried out) is not among them."""
    adv = load_adventure("sunless_throne")
    assert adv.final
    primary = sorted(o.kind for o in adv.objectives if o.primary)
    assert primary == ["claim", "slay"]


def test_A_55_a_final_adventure_with_a_primary_escape_or_retrieve_is_refused(tmp_path):
    from dungeon_env.content.loader import ContentError

    for extra in ('kind = "escape"\ntext = "Out."\nprimary = true', 'kind = "slay"\ntext = "x"\nat = [9, 2]'):
        text = Path(_final_arena(tmp_path)).read_text()
        text = text.replace('kind = "escape"\ntext = "Walk out at the far corner."', extra, 1)
        (tmp_path / "bad").mkdir(exist_ok=True)
        bad = tmp_path / "bad" / "final_arena.toml"
        bad.write_text(text)
        with pytest.raises(ContentError, match="A-55"):
            load_adventure(str(bad))


def test_claim_objective_is_met_once_a_hero_has_held_the_item(tmp_path):
    """A claim goal stays met after the item is given away or its holder dies."""

    g = Game.new(adventure="sunless_throne", heroes=PLAIN, seed=0)
    claim = next(i for i, o in enumerate(g.tables.adventure.objectives) if o.kind == "claim")
    assert not g.objectives()[claim]["met"]
    crown = inventory.create(g, "jewelled_crown")
    assert not g.objectives()[claim]["met"]  # lying in the vault
    inventory.give(g, crown, 0)
    kill_hero(g, 0)
    assert g.objectives()[claim]["met"]
