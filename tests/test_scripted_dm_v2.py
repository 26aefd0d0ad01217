"""The scripted Dungeon Master v2 (``agents.scripted_dm_v2``) on hand-built positions of the test
arena, and v1 (``agents.scripted_dm``) unchanged by its parameter set.

The arena's corridor at y = 13 runs the board's width, walled north and south but at x = 0, 6 and
17 (side corridors): a figure in it is fought from the squares east and west of it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json

import pytest

from agents._common import adjacent_foes
from agents.scripted_dm import ScriptedDM
from agents.scripted_dm_v2 import ScriptedDMV2
from agents.scripted_heroes import ScriptedHeroes
from agents.scripted_params import DMParams
from dungeon_env.engine import Decision, Game, Phase
from dungeon_env.engine.actions import EXTRA_MOVE, MOVE_ACTIONS
from tests.builders import add_monster, arena_game, at, enter_phase, events, place, set_unit
from tests.test_scripted_golden import EXPECTED

N, E, S, W = MOVE_ACTIONS


def corridor_game(hero_0: tuple[int, int], hero_1=(20, 26), hero_2=(21, 26)) -> Game:
    """The arena with the three heroes placed (by default hero_1 and hero_2 far off in room
    corners), every hero at 8 Health of 8, no Magic."""
    g = arena_game()
    for u, (x, y) in enumerate((hero_0, hero_1, hero_2)):
        place(g, u, x, y)
        set_unit(g, u, health=8, base_health=8, base_magic=0, magic=0)
    return g


def monster_movement(g: Game, dm: ScriptedDM, m: int) -> tuple[list[tuple[int, int]], list[int]]:
    """Enter the Monsters' Movement with monster ``m`` asked and let ``dm`` move it: the squares it
    stood on and the actions the DM chose."""
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    assert g.decision == (Decision.MONSTER_MOVE, m)
    path, chosen = [at(g, m)], []
    while g.decision == (Decision.MONSTER_MOVE, m):
        action = dm.choose(g)
        chosen.append(action)
        g.apply(action)
        if at(g, m) != path[-1]:
            path.append(at(g, m))
    return path, chosen


def v2(g: Game, **knobs) -> ScriptedDMV2:
    """DM v2 with its default knobs but ``knobs``; ``hold_exit`` off unless given (the arena's exit
    lies far beyond the heroes, so a monster there would stop one square closer)."""
    knobs.setdefault("hold_exit", 0)
    return ScriptedDMV2(game=g, seed=0, params=dataclasses.replace(DMParams(), **knobs))


# ----------------------------------------------------------------------------- Stamina for squares
def test_a_monster_buys_a_square_that_brings_it_into_a_fight():
    """A Goblin (Movement 5, Stamina 2) six squares from hero_0's fight square (3, 13) buys one
    square and fights, keeping a point of Stamina for the Fight (``keep_stamina`` 1, the default);
    keeping two, it buys none.

        y=13   . . 0 . . . . . . g      0 = hero_0 (2, 13), g = Goblin (9, 13)
    """
    g = corridor_game((2, 13))
    m = add_monster(g, "goblin", 9, 13)
    path, chosen = monster_movement(g, v2(g, keep_stamina=1), m)
    assert path[-1] == (3, 13) and adjacent_foes(g, m) == [0]
    assert chosen.count(EXTRA_MOVE) == 1 and g.state.stamina[m] == 1
    g = corridor_game((2, 13))
    m = add_monster(g, "goblin", 9, 13)
    path, chosen = monster_movement(g, v2(g, keep_stamina=2), m)
    assert path[-1] == (4, 13) and EXTRA_MOVE not in chosen and g.state.stamina[m] == 2


@pytest.mark.parametrize("start", [10, 11])
def test_a_monster_buys_no_square_that_does_not_bring_it_into_a_fight(start):
    """Seven or eight squares from the fight square: two squares bought would leave the Goblin no
    Stamina for the Fight (``keep_stamina`` 1), three it does not have. It walks its five squares
    towards hero_0 and stops, its Stamina kept."""
    g = corridor_game((2, 13))
    m = add_monster(g, "goblin", start, 13)
    path, chosen = monster_movement(g, v2(g, keep_stamina=1), m)
    assert EXTRA_MOVE not in chosen and g.state.stamina[m] == 2
    assert path[-1] == (start - 5, 13) and not adjacent_foes(g, m)
    assert not events(g, "extra_move")


def test_keeping_no_stamina_for_the_fight_buys_two_squares():
    """The knob ``keep_stamina`` is read: with 0 kept the Goblin seven squares away buys two."""
    g = corridor_game((2, 13))
    m = add_monster(g, "goblin", 10, 13)
    path, chosen = monster_movement(g, v2(g, keep_stamina=0), m)
    assert path[-1] == (3, 13) and chosen.count(EXTRA_MOVE) == 2 and g.state.stamina[m] == 0


def test_a_monster_between_the_party_and_the_exit_stops_one_square_closer():
    """The Goblin stands nearer the arena's exit (23, 27) than hero_0 and has no Fight in reach
    this turn (``keep_stamina`` 2): it comes one square closer, as the rules require, and stops in
    the party's way (``hold_exit``); without the knob it walks its five squares."""
    g = corridor_game((2, 13))
    m = add_monster(g, "goblin", 9, 13)
    path, _ = monster_movement(g, v2(g, hold_exit=1, keep_stamina=2), m)
    assert path == [(9, 13), (8, 13)]
    g = corridor_game((2, 13))
    m = add_monster(g, "goblin", 9, 13)
    path, _ = monster_movement(g, v2(g, hold_exit=0, keep_stamina=2), m)
    assert path[-1] == (4, 13)


# ----------------------------------------------------------------------------- the victim
def two_heroes_either_side(**hero_1) -> tuple[Game, int]:
    """A Goblin at (10, 13) between hero_0 at (4, 13) and hero_1 at (16, 13): five squares to a
    fight square either way; hero_2 far off; ``hero_1``: values set on hero_1."""
    g = corridor_game((4, 13), (16, 13))
    set_unit(g, 1, **hero_1)
    return g, add_monster(g, "goblin", 10, 13)


def first_step(g: Game, m: int, dm: ScriptedDM) -> int:
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    assert g.decision == (Decision.MONSTER_MOVE, m)
    return dm.choose(g)


def test_with_the_heroes_alike_the_monster_goes_for_the_first():
    g, m = two_heroes_either_side()
    assert first_step(g, m, v2(g)) == W


def test_the_monster_goes_for_the_wounded_hero():
    g, m = two_heroes_either_side(health=4)
    assert first_step(g, m, v2(g)) == E
    # the share of Health lost counts beside the Health left: with Health weighing nothing, only
    # the wound does
    g, m = two_heroes_either_side(health=7)
    assert first_step(g, m, v2(g, health_weight=0.0)) == E
    g, m = two_heroes_either_side(health=7)
    assert first_step(g, m, v2(g, health_weight=0.0, wounded_weight=0.0)) == W


def test_the_monster_goes_for_the_isolated_hero():
    """hero_2 stands two squares from hero_0: the Goblin hunts hero_1, alone in the east; with
    hero_2 beside hero_1 instead, it hunts hero_0."""
    g = corridor_game((4, 13), (16, 13), (2, 13))
    m = add_monster(g, "goblin", 10, 13)
    assert first_step(g, m, v2(g)) == E
    g = corridor_game((4, 13), (16, 13), (18, 13))
    m = add_monster(g, "goblin", 10, 13)
    assert first_step(g, m, v2(g)) == W


def test_the_monster_goes_for_the_spell_caster():
    g, m = two_heroes_either_side(base_magic=2, magic=2)
    assert first_step(g, m, v2(g)) == E
    g, m = two_heroes_either_side(base_magic=2, magic=2)
    assert first_step(g, m, v2(g, caster_bonus=0.0)) == W


def test_a_hero_it_can_fight_this_turn_comes_before_a_weaker_one_farther_away():
    """hero_1 at Death's Door nine squares off (out of reach even with Stamina), hero_0 at full
    Health five squares off: the rules make the Goblin fight hero_0, and it walks there."""
    g = corridor_game((4, 13), (20, 13))
    set_unit(g, 1, health=0, deaths_door=True)
    m = add_monster(g, "goblin", 10, 13)
    path, _ = monster_movement(g, v2(g), m)
    assert path[-1] == (5, 13)


# ----------------------------------------------------------------------------- no dithering
def back_steps(dm_class, adventure: str, heroes: int, seed: int) -> tuple[int, int]:
    """Play scripted heroes against ``dm_class``: the monsters' steps, and those that went back onto
    a square the monster had stood on in the same Movement without bringing it into a Fight."""
    g = Game.new(adventure=adventure, heroes=heroes, seed=seed, max_turns=100)
    hero_agent, dm = ScriptedHeroes(game=g, seed=seed), dm_class(game=g, seed=seed)
    trails: dict[tuple[int, int, int], list[int]] = {}
    steps = back = 0
    while not g.over:
        agent = dm if g.agent == "dm" else hero_agent
        if g.decision[0] != Decision.MONSTER_MOVE:
            g.apply(agent.choose(g))
            continue
        m, s = g.decision[1], g.state
        trail = trails.setdefault((int(s.turn), m, int(s.move_from[m])), [int(s.move_from[m])])
        action = dm.choose(g)
        g.apply(action)
        if action in MOVE_ACTIONS:
            q = int(g.state.unit_pos[m])
            steps += 1
            back += q in trail and not adjacent_foes(g, m)
            trail.append(q)
    return steps, back


@pytest.mark.parametrize("adventure, heroes, seed", [("goblin_warrens", 4, 34), ("goblin_warrens", 5, 50)])
def test_no_monster_steps_back_onto_its_trail(adventure, heroes, seed):
    """In whole games where v1's monsters step back and forth (blocked by a comrade, the duty to
    attack forbidding them to stop), v2's never step back onto a square of the same Movement
    unless the step brings them into a Fight."""
    steps, back = back_steps(ScriptedDM, adventure, heroes, seed)
    assert steps > 100 and back > 10
    steps, back = back_steps(ScriptedDMV2, adventure, heroes, seed)
    assert steps > 50 and back == 0


def test_a_copied_game_does_not_mislead_the_memory_of_a_movement():
    """The DM's memory of a Movement is keyed by the turn, the monster and its starting square and
    checked against where the monster stands: a copy played on does not change the choices made
    in the original."""
    g = corridor_game((2, 13))
    m = add_monster(g, "goblin", 9, 13)
    dm = v2(g, keep_stamina=1)
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    g.apply(dm.choose(g))
    copy = g.copy()
    while copy.decision == (Decision.MONSTER_MOVE, m):
        copy.apply(dm.choose(copy))
    while g.decision == (Decision.MONSTER_MOVE, m):
        g.apply(dm.choose(g))
    assert at(g, m) == at(copy, m) == (3, 13)


# ----------------------------------------------------------------------------- v1 unchanged
def digest(game: Game) -> str:
    return hashlib.sha256(json.dumps(game.events, sort_keys=True).encode()).hexdigest()[:16]


def play(dm_of, adventure: str, heroes: int, seed: int) -> tuple[int, str, str]:
    g = Game.new(adventure=adventure, heroes=heroes, seed=seed, max_turns=100)
    hero_agent, dm = ScriptedHeroes(game=g, seed=seed), dm_of(g, seed)
    decisions = 0
    while not g.over:
        g.apply((dm if g.agent == "dm" else hero_agent).choose(g))
        decisions += 1
    return decisions, g.outcome, digest(g)


def test_v1_with_its_default_knobs_plays_the_recorded_game_and_reads_its_knobs():
    case = ("goblin_warrens", 4, 2)
    assert play(lambda g, s: ScriptedDM(game=g, seed=s, params=DMParams()), *case) == EXPECTED[case]
    changed = DMParams(health_weight=0.0, spend_stamina=1, spend_gain=0.0)
    assert play(lambda g, s: ScriptedDM(game=g, seed=s, params=changed), *case) != EXPECTED[case]
