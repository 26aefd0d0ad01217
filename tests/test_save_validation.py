"""Saves are checked field by field at load (``engine/savecheck.py``), and the engine loop never spins.

- a hand-edited save (an unknown phase, Light -4, Health above base, a figure off the board, an
  unknown decision kind, an array of the wrong length, ...) fails in ``Game.from_json`` with a
  :class:`SaveError` (a ``ValueError``) naming the field, the bad value and the domain;
- every save of many random games loads (no false alarms), also under a variant that moves a bound;
- a state that makes no progress (hand-edited in memory, past the load checks) raises a RuntimeError
  naming the phase and the stack after a bounded number of automatic steps, instead of looping.
"""

from __future__ import annotations

import json
import random

import pytest

from dungeon_env.content import adventure_names
from dungeon_env.engine import Game, turn
from dungeon_env.engine.actions import END, Decision, Phase
from dungeon_env.engine.savecheck import SaveError

ADVENTURES = adventure_names()


def _play(g: Game, rng: random.Random, n: int) -> None:
    for _ in range(n):
        if g.over:
            return
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])


def _save(seed: int = 1, actions: int = 60) -> dict:
    g = Game.new(adventure="goblin_warrens", heroes=4, seed=seed, max_turns=20)
    _play(g, random.Random(seed), actions)
    assert not g.over
    return json.loads(json.dumps(g.to_json()))


def _refused(data: dict, *parts: str) -> SaveError:
    with pytest.raises(SaveError) as err:
        Game.from_json(data)
    message = str(err.value)
    assert message.startswith("saved state: ")
    for part in parts:
        assert part in message, f"{part!r} not in {message!r}"
    assert isinstance(err.value, ValueError)
    return err.value


def _array(data: dict, name: str) -> list:
    return data["state"][name]["data"]


# ------------------------------------------------------------------------------------------ hand edits


def test_an_unknown_phase_is_refused_at_load():
    data = _save()
    data["state"]["phase"] = 99
    err = _refused(data, "phase is 99", "a Phase (0 turn_start", "10 game_over)")
    assert (err.field, err.value) == ("phase", 99)


def test_light_below_zero_or_above_the_cap_is_refused():
    data = _save()
    data["state"]["light"] = -4
    _refused(data, "light is -4", "an int 0..20 (Light 0..light.max)")
    data["state"]["light"] = 21
    _refused(data, "light is 21", "0..20")


def test_light_up_to_a_variants_cap_loads():
    g = Game.new(adventure="flooded_cellar", heroes=3, seed=2, variant=["light.max=30", "light.start=25"])
    data = json.loads(json.dumps(g.to_json()))
    assert Game.from_json(data).state.light == 25
    data["state"]["light"] = 31
    _refused(data, "light is 31", "0..30")


def test_health_above_base_is_refused():
    data = _save()
    base = _array(data, "base_health")[0]
    _array(data, "health")[0] = 99
    err = _refused(data, "health[0] is 99", f"0..{base} (0..base_health)")
    assert err.field == "health[0]"


@pytest.mark.parametrize("pool", ["stamina", "magic"])
def test_stamina_and_magic_above_base_or_below_zero_are_refused(pool):
    data = _save()
    _array(data, pool)[1] = _array(data, f"base_{pool}")[1] + 1
    _refused(data, f"{pool}[1] is", f"(0..base_{pool})")
    data = _save()
    _array(data, pool)[1] = -1
    _refused(data, f"{pool}[1] is -1", f"0..base_{pool}")


def test_a_position_off_the_board_is_refused():
    data = _save()
    _array(data, "unit_pos")[0] = 5000
    _refused(data, "unit_pos[0] is 5000", "a square 0..671 or -1 off the board")


def test_a_figure_on_the_board_without_a_square_is_refused():
    data = _save()
    _array(data, "unit_pos")[0] = -1  # hero_0 is active: it stands on a square
    _refused(data, "unit_pos[0] (hero_0) is -1", "a square 0..671: it is on the board")


def test_occupant_and_positions_must_agree():
    data = _save()
    sq = _array(data, "unit_pos")[0]
    _array(data, "occupant")[sq] = 1
    _refused(data, f"occupant[{sq}] is 1", "0, the unit at that square")


def test_an_unknown_decision_kind_is_refused():
    data = _save()
    data["state"]["stack"][-1][0] = 42
    _refused(data, "decision kind) is 42", "a Decision (0 hero_move", "15 disarm)")


def test_a_decision_about_a_unit_not_on_the_board_is_refused():
    data = _save()
    data["state"]["stack"][-1][1] = 63  # a free monster slot
    _refused(data, "is 63", "a unit on the board")


def test_an_empty_stack_while_the_game_goes_on_is_refused():
    data = _save()
    data["state"]["stack"] = []
    _refused(data, "stack is []", "the pending decision on top while the game is not over")


def test_a_stack_entry_of_the_wrong_length_is_refused():
    data = _save()
    data["state"]["stack"][-1] = [int(Decision.HERO_MOVE), 0]
    _refused(data, "stack[", "a list of 4 ints")


def test_an_outcome_only_at_game_over():
    data = _save()
    data["state"]["outcome"] = "completed"
    _refused(data, "outcome at this phase", "an outcome set at phase game_over and only there")
    data = _save()
    data["state"]["outcome"] = "victory"
    _refused(data, "outcome is 'victory'", "'completed'")


def test_an_array_of_the_wrong_length_is_refused():
    data = _save()
    data["state"]["health"] = {"dtype": "<i2", "shape": [10], "data": [1] * 10}
    _refused(data, "field 'health'", "shape [10]", "expected shape [64] and dtype <i2 in this adventure")
    data = _save()
    doors = data["state"]["door_open"]
    doors["data"] = doors["data"] + [False]
    doors["shape"] = [len(doors["data"])]
    _refused(data, "field 'door_open'", f"expected shape [{len(doors['data']) - 1}]")


@pytest.mark.parametrize(
    "name, index, value, parts",
    [
        ("unit_status", 0, 9, ("unit_status[0] is 9", "a Status")),
        ("unit_side", 1, 1, ("unit_status[1], unit_side[1]", "a hero slot")),
        ("unit_card", 0, 9, ("unit_card[0] is 9", "the roster card of the save's hero 0")),
        ("item_card", 0, 999, ("item_card[0] is 999", "an item card or -1")),
        ("deck_cards", 0, 999, ("deck_cards[0, 0] is 999", "an item card or -1")),
        ("item_holder", 0, 40, ("item_holder[0] is 40", "only heroes hold items")),
        ("move_bought", 0, 7, ("move_bought[0] is 7", "rules.move_stamina_max")),
    ],
)
def test_out_of_range_entries_of_unit_and_item_arrays_are_refused(name, index, value, parts):
    data = _save()
    flat = _array(data, name)
    if isinstance(flat[0], list):
        flat[0][index] = value
    else:
        flat[index] = value
    _refused(data, *parts)


def test_n_heroes_must_be_the_saves_hero_count():
    data = _save()
    data["state"]["n_heroes"] = 7
    _refused(data, "n_heroes is 7", "the save's 4 heroes; a game has 3-5")


def test_rows_of_the_turns_lists_are_checked():
    data = _save()
    data["state"]["queue"] = ["m3"]
    _refused(data, "queue[0] is 'm3'", "an int")
    data = _save()
    data["state"]["fights"] = [[0, 1, 0, 0, -1]]  # a hero slot where the monster belongs
    _refused(data, "fights[0][0] (monster) is 0", "a monster slot")
    data = _save()
    data["state"]["cast"] = [0, 999, -1, -1, -1, 0]
    _refused(data, "cast[1] (spell) is 999", "a spell")


def test_what_put_heroes_on_deaths_door_must_be_a_list_of_labels_per_hero_slot():
    data = _save()
    data["state"]["downed_by"] = [["m3"], []]
    with pytest.raises(ValueError, match="field 'downed_by': expected 5 lists of labels"):
        Game.from_json(data)
    data["state"]["downed_by"] = [[3], [], [], [], []]
    with pytest.raises(ValueError, match="field 'downed_by'"):
        Game.from_json(data)
    del data["state"]["downed_by"]  # a save from before the field existed loads with none
    assert Game.from_json(data).state.downed_by == [[] for _ in range(5)]


# ------------------------------------------------------------------------------------------ no false alarms


@pytest.mark.parametrize("seed", range(20))
def test_every_save_of_random_games_loads(seed):
    """20 games, a save every few decisions and at the end: each one validates and loads equal."""
    g = Game.new(adventure=ADVENTURES[seed % len(ADVENTURES)], heroes=3 + seed % 3, seed=seed, max_turns=15)
    rng = random.Random(seed)
    checkpoints = 0
    while True:
        loaded = Game.from_json(json.loads(json.dumps(g.to_json())))
        assert loaded.state.equals(g.state)
        checkpoints += 1
        if g.over:
            break
        _play(g, rng, rng.randrange(1, 60))
    assert checkpoints >= 3


# ------------------------------------------------------------------------------------------ the loop guard


def test_a_state_that_makes_no_progress_raises_instead_of_spinning():
    """A phase that no code runs (edited in memory, after the load checks): applying an action runs
    out of decisions, and the loop stops with the phase and the stack named."""
    g = Game.new(adventure="flooded_cellar", heroes=3, seed=0)
    g.state.phase = 99
    with pytest.raises(RuntimeError, match=r"no progress .* turn 1: phase 99 \(not a Phase\), .*stack \[\]"):
        g.apply(END)


def test_a_resume_that_does_nothing_is_caught(monkeypatch):
    """A rule that stalls (the Python rules' ``turn.resume`` patched to do nothing: the core's loop
    has the same guard, which the test above reaches)."""
    g = Game.new(adventure="flooded_cellar", heroes=3, seed=0, engine="python")
    monkeypatch.setattr(turn, "resume", lambda game: None)
    with pytest.raises(RuntimeError, match=r"no progress in 100000 automatic steps .*phase hero_movement"):
        for _ in range(10):  # the heroes end their Movement: the phase would move on in resume
            g.apply(END)
    assert g.state.phase == Phase.HERO_MOVEMENT
