"""Heroes v2 (``agents.scripted_heroes_v2``): each behaviour on a hand-built position of the test
arena, against v1 or against v2 with the behaviour's knob at zero, so every test can fail."""

from __future__ import annotations

import dataclasses

import pytest

from agents.scripted_heroes import ScriptedHeroes
from agents.scripted_heroes_v2 import ScriptedHeroesV2
from agents.scripted_params import HeroParams
from dungeon_env.engine import ACTION_NAMES, Decision
from dungeon_env.engine.actions import END, MOVE_ACTIONS
from tests.builders import add_monster, arena_game, place, set_unit

V2 = HeroParams()  # the knobs' defaults; the tests do not depend on the tuned set shipped


def walk_movement(g, heroes, h: int) -> tuple[int, int]:
    """Play hero ``h``'s Movement (it holds control: the others are done) and return its square."""
    while g.decision == (Decision.HERO_MOVE, h):
        g.apply(heroes.choose(g))
    return g.xy(int(g.state.unit_pos[h]))


def hero_0_by_room_a_east_door(move_left: int):
    """hero_0 in room A at (5, 3), by the door to corridor t (x = 6), with ``move_left`` squares to
    walk towards the exit (23, 27); its comrades done, in room A too."""
    g = arena_game()
    place(g, 0, 5, 3)
    place(g, 1, 2, 2)
    place(g, 2, 3, 3)
    door = int(g.tables.edge_door[g.square(5, 3), 1])
    g.state.door_open[door] = True
    g.state.move_done[1] = g.state.move_done[2] = True
    set_unit(g, 0, move_left=move_left)
    g.state_edited()
    return g


def test_v2_hero_ends_its_movement_in_the_room_rather_than_start_a_corridor_it_cannot_cross():
    """Two squares of a corridor are not worth a Patrol roll (R-MON-04): v2 stays in room A; v1
    (and v2 with ``patrol_weight`` 0) walk into corridor t."""
    for agent, stays in [
        (ScriptedHeroesV2(params=V2), True),
        (ScriptedHeroesV2(params=dataclasses.replace(V2, patrol_weight=0.0)), False),
        (ScriptedHeroes(), False),
    ]:
        g = hero_0_by_room_a_east_door(move_left=2)
        agent.bind(game=g)
        end = walk_movement(g, agent, 0)
        assert (end == (5, 3)) is stays, (type(agent).__name__, agent.params.patrol_weight, end)


def test_v2_hero_joins_the_corridor_segment_a_comrade_holds_rather_than_open_another():
    """hero_1 ended its Movement in corridor t; hero_0, in room A by the door, walks into the same
    segment (no new Patrol roll) rather than stopping short: the price is per segment, not per hero."""
    g = hero_0_by_room_a_east_door(move_left=2)
    place(g, 1, 6, 5)  # corridor t's segment from (6, 1) to (6, 5)
    g.state.move_done[1] = True
    g.state_edited()
    heroes = ScriptedHeroesV2(game=g, params=V2)
    end = walk_movement(g, heroes, 0)
    assert g.tables.area[g.square(*end)] == g.tables.area[g.square(6, 5)], end


def wounded_front_hero(health: int):
    """hero_0 in room A next to an orc at (3, 4), ``health`` left; hero_1 healthy and still to move."""
    g = arena_game()
    place(g, 0, 3, 3)
    place(g, 1, 1, 1)
    place(g, 2, 1, 2)
    add_monster(g, "orc", 3, 4)
    g.state.move_done[2] = True
    set_unit(g, 0, health=health)
    g.state_edited()
    return g


@pytest.mark.parametrize("health, steps_back", [(1, True), (None, False)])
def test_v2_wounded_front_hero_steps_back_for_a_healthier_comrade(health, steps_back):
    """A hero next to a monster and wounded past ``relieve_hurt`` steps to a square next to no
    monster while a healthier comrade is still to move, and stays back that turn; unhurt, it holds
    (as v1 does)."""
    g = wounded_front_hero(1)
    if health is None:
        set_unit(g, 0, health=int(g.state.base_health[0]))
        g.state_edited()
    heroes = ScriptedHeroesV2(game=g, params=dataclasses.replace(V2, relieve_hurt=0.5))
    choice = heroes.choose(g)
    assert (choice in MOVE_ACTIONS) is steps_back, ACTION_NAMES[choice]
    if steps_back:
        g.apply(choice)
        assert heroes.choose(g) != choice  # stays back: ends or hands control on, never returns
        assert ScriptedHeroes(game=wounded_front_hero(1)).choose(wounded_front_hero(1)) not in MOVE_ACTIONS


def test_v2_waits_for_monsters_only_a_few_turns_in_a_row():
    """Monsters in sight that could come: a hero in a room may wait for them there rather than step
    into a corridor, but not more than ``wait_turns`` turns in a row; then it goes to them as v1
    does. (A Guard holds its post until it sees a hero, R-MON-02: it would never come.)"""
    params = dataclasses.replace(V2, wait_turns=2, room_fight_weight=8.0)
    heroes = ScriptedHeroesV2(params=params)
    waited = []
    for turn in (5, 6, 7, 9):
        g = hero_0_by_room_a_east_door(move_left=4)
        add_monster(g, "orc", 6, 9)  # down corridor t, the door open: it can come
        g.state.revealed[g.tables.area[g.square(6, 9)]] = True
        g.state.turn = turn
        g.state_edited()
        heroes.bind(game=g)
        waited.append(heroes.choose(g) == END)
    assert waited == [True, True, False, True], waited
