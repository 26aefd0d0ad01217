"""The shaping terms read off the game's state (``dungeon_env.rewards.StateShaping``): the
potential-based ``exit_path`` (minus each hero's share of the way to the nearest exit on the board as
heroes know it; the env, the Gymnasium view and ``measure`` pay its change at every step, so a game's
shaping adds up to the potential's end minus its start) and ``explored`` (each area heroes search in
an Explore phase for the first time)."""

from __future__ import annotations

import numpy as np
import pytest
from test_tasks import scripted_aec_return

from dungeon_env.engine.state import CORPSE, EXITED
from dungeon_env.engine.tables import path_distances
from dungeon_env.episode import agent_seeds
from dungeon_env.rewards import EXIT_PATH_CAP, GUESSED_DOOR, StateShaping, exit_distances, exit_potential
from dungeon_env.tasks import HELD_OUT_SEED, TASKS, measure
from dungeon_env.tasks import _start as task_start


def _start(name: str):
    return task_start(TASKS[name], HELD_OUT_SEED)


def _hero_distance(game, h: int) -> int:
    return exit_distances(game)[int(game.state.unit_pos[h])]


def test_the_potential_is_each_heroes_share_of_the_way_out_capped():
    game = _start("heroes/one-guard")
    s = game.state
    shares = [min(_hero_distance(game, h), EXIT_PATH_CAP) / EXIT_PATH_CAP for h in range(s.n_heroes)]
    assert min(shares) > 0 and max(shares) < 1  # the way out is known from the start here
    assert exit_potential(game) == pytest.approx(-sum(shares))


def test_a_hero_out_counts_nothing_and_a_dead_hero_the_whole_way():
    game = _start("heroes/one-guard")
    before = exit_potential(game)
    share0 = min(_hero_distance(game, 0), EXIT_PATH_CAP) / EXIT_PATH_CAP
    share1 = min(_hero_distance(game, 1), EXIT_PATH_CAP) / EXIT_PATH_CAP
    game.state.unit_status[0] = EXITED
    game.state.unit_status[1] = CORPSE
    assert exit_potential(game) == pytest.approx(before + share0 + share1 - 1.0)
    game.state.unit_status[: game.state.n_heroes] = EXITED
    assert exit_potential(game) == 0.0  # zero exactly when every hero got out


def test_the_way_out_guesses_doors_only_in_walls_between_unseen_areas():
    """heroes/guards at the start: the heroes see corridor a and the door into room A; the way on
    through rooms nobody has seen is guessed (a wall between two unseen areas costs GUESSED_DOOR
    squares), so it is longer than the real way with every door, and never crosses a known wall:
    from corridor a it goes through the door at (3,0)-(3,1)."""
    game = _start("heroes/guards")
    dist = exit_distances(game)
    exits = [game.square(x, y) for x, y in game.tables.adventure.exits]
    every_door = path_distances(game.tables, exits, np.ones(game.tables.n_doors, bool))
    here = int(game.state.unit_pos[0])
    assert every_door[here] < dist[here] < EXIT_PATH_CAP
    at = game.square
    assert dist[at(3, 0)] == dist[at(3, 1)] + 1
    assert dist[at(1, 0)] == dist[at(3, 0)] + 2  # along the corridor to the door, not through a wall
    assert dist[at(3, 1)] >= GUESSED_DOOR  # room A is unseen: the way on from it is a guess


def test_the_way_out_does_not_change_with_what_heroes_cannot_know():
    """Twin games: room B's doors (unseen) made secret in one changes nothing heroes know, so neither
    the distances nor the potential; once heroes see the room, it does."""
    game = _start("heroes/guards")
    twin = _start("heroes/guards")
    for pair in (((6, 2), (7, 2)), ((9, 5), (9, 6))):
        door = twin.tables.door_squares.index(tuple(twin.square(*q) for q in pair))
        twin.state.door_hidden[door] = True
    assert exit_distances(twin) == exit_distances(game)
    assert exit_potential(twin) == exit_potential(game)
    room_b = twin.tables.area[twin.square(8, 3)]
    for g in (game, twin):
        g.state.revealed[room_b] = True
    assert exit_distances(twin) != exit_distances(game)


def test_exit_path_steps_pay_the_change_of_the_potential():
    game = _start("heroes/one-guard")
    term = StateShaping(game, {"exit_path": 0.5})
    start = exit_potential(game)
    assert term.step(game) == 0.0  # nothing moved
    game.state.unit_status[0] = EXITED
    assert term.step(game) == pytest.approx(0.5 * (exit_potential(game) - start))
    assert term.step(game) == 0.0


@pytest.mark.parametrize("name", ["heroes/one-guard", "heroes/guards", "heroes/retrieve"])
def test_a_won_game_earns_the_potential_at_its_start_whatever_the_way(name):
    """Potential-based: the steps' shaping adds up to phi(end) - phi(start) = 0 - phi(start) in a game
    won with every hero out, however the heroes walked."""
    seed = HELD_OUT_SEED
    plain, _ = scripted_aec_return(name, seed)
    shaped, env = scripted_aec_return(name, seed, shaping={"exit_path": 2.0})
    game = env.unwrapped.game
    assert game.outcome == "completed" and game.goals_met and plain == 1.0
    start = exit_potential(_start(name))
    assert shaped == pytest.approx(1.0 - 2.0 * start)


def test_measure_pays_the_term_as_the_env_does(monkeypatch):
    """``measure`` (the bare engine) and the env pay the same return with the term on."""
    import dataclasses

    import dungeon_env.tasks as tasks

    name, seed = "heroes/guards", HELD_OUT_SEED + 3
    options = tasks._freeze({"shaping": {"exit_path": 1.0, "squares": 0.05}})
    shaped = dataclasses.replace(TASKS[name], options=options)
    monkeypatch.setitem(TASKS, name, shaped)
    score = measure(name, "scripted@v1", games=1, seed=seed)  # the v1 classes of scripted_aec_return
    total, env = scripted_aec_return(name, seed, agent_seeds=agent_seeds(seed))
    assert env.unwrapped.shaping["exit_path"] == 1.0
    assert total == pytest.approx(score.mean_return) and total != pytest.approx(-1.0)


def test_the_way_out_counts_only_once_the_crown_is_in_a_heros_hands():
    """heroes/retrieve: leaving before the crown is found meets no goal, so the potential stays at
    -1 a hero until a hero holds the crown face up; then it counts the way out."""
    from builders import give_item

    from dungeon_env.rewards import goals_in_hand

    game = _start("heroes/retrieve")
    assert _hero_distance(game, 0) < EXIT_PATH_CAP  # the exit is a few squares away
    assert not goals_in_hand(game) and exit_potential(game) == -game.state.n_heroes
    give_item(game, 1, "jewelled_crown", known=False)
    assert not goals_in_hand(game)  # a face-down card is not known to be the crown
    give_item(game, 2, "jewelled_crown", known=True)
    assert goals_in_hand(game) and exit_potential(game) > -game.state.n_heroes + 1


def test_leaving_before_the_crown_is_in_hand_earns_nothing_from_the_way_out():
    """heroes/retrieve: a hero who walks out before anyone holds the crown still counts the whole
    way (-1) until the crown is in a hero's hands; then, being out, it counts nothing."""
    from builders import give_item

    game = _start("heroes/retrieve")
    n = game.state.n_heroes
    game.state.unit_status[0] = EXITED
    assert exit_potential(game) == -n
    give_item(game, 2, "jewelled_crown", known=True)
    on_board = sum(min(_hero_distance(game, h), EXIT_PATH_CAP) / EXIT_PATH_CAP for h in range(1, n))
    assert exit_potential(game) == pytest.approx(-on_board)


def test_explored_pays_each_area_searched_for_the_first_time():
    """heroes/retrieve won by the scripted heroes: ``explored`` pays ``w`` per area in
    ``explored_bits`` at the end (the set-up explores nothing), however often they searched it."""
    from dungeon_env.rewards import areas_explored

    seed = HELD_OUT_SEED
    assert areas_explored(_start("heroes/retrieve")) == 0
    shaped, env = scripted_aec_return("heroes/retrieve", seed, shaping={"explored": 0.5})
    game = env.unwrapped.game
    searched = areas_explored(game)
    assert game.goals_met and searched >= 1
    assert shaped == pytest.approx(1.0 + 0.5 * searched)
    explores = [e for e in game.events if e["type"] == "explore_choice" and e["explore"]]
    assert len(explores) >= searched


def test_state_terms_are_off_without_their_weights():
    game = _start("heroes/one-guard")
    assert StateShaping.of(game, None) is None
    assert StateShaping.of(game, {"squares": 1.0, "exit_path": 0.0}) is None
    assert StateShaping.of(game, {"explored": 1.0}) is not None
