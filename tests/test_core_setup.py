"""The set-up in the core (``src/core/setup.cpp``, ``core.set_up``): a game set up by the core is the
game ``Game.new`` sets up on the Python rules (``Game._place``, the reference), up to its first
decision: every state field, the dice streams, the event log (the ``setup`` event, the first look)
and the legal actions. R-SETUP: the heroes on the start squares, Light at ``light.start``, the decks
shuffled from the ``decks`` stream, carried items handed over (R-CAMP-01), starting spells (A-21)."""

from __future__ import annotations

import random

import pytest

from dungeon_env import _core
from dungeon_env.content import adventure_names, load_heroes, load_items
from dungeon_env.core_parity import differences
from dungeon_env.engine import Game, core
from tests.core_shadow import reference_game

ROSTER = sorted(load_heroes())
USABLE = sorted(c.id for c in load_items().values() if c.deck in ("potions", "spells", "magic_items", "gear"))


def _core_set_up(reference: Game, forced_dice=(), carried=None):
    """The core's set-up of the reference game's adventure, heroes, seed and cap."""
    blank = Game(
        reference.adventure_ref,
        list(reference.hero_ids),
        reference.seed,
        reference.max_turns,
        reference.variant,
    )
    return core.set_up(blank, tuple(forced_dice), carried)


def _kit(rng: random.Random, n: int) -> list[list[tuple[str, bool]]]:
    return [[(rng.choice(USABLE), rng.random() < 0.5) for _ in range(rng.randrange(0, 4))] for _ in range(n)]


CASES = [(adventure, n, seed) for adventure in adventure_names() for n in (3, 4, 5) for seed in range(4)]


@pytest.mark.parametrize("adventure, n, seed", CASES)
def test_R_SETUP_02_to_07_the_core_sets_up_every_adventure_and_party_as_python_does(adventure, n, seed):
    rng = random.Random(f"{adventure}{n}{seed}")
    heroes = rng.sample(ROSTER, n)
    carried = _kit(rng, n) if seed % 2 else None
    reference = reference_game(adventure=adventure, heroes=heroes, seed=seed, max_turns=60, carried=carried)
    engine = _core_set_up(reference, carried=carried)
    assert differences(reference, engine, 0) == []
    assert engine.events(0)[0]["type"] == "setup" and engine.events(0)[0]["seed"] == seed


def test_the_core_set_up_takes_forced_dice_for_the_first_rolls_and_not_for_the_shuffle():
    """Forced faces are for the game's checks, never the set-up's deck shuffles (inventory.setup_items)."""
    forced = (6, 1, 3, 2, 5, 4) * 3
    reference = Game.new(adventure="goblin_warrens", heroes=4, seed=9, forced_dice=forced, engine="python")
    engine = _core_set_up(reference, forced_dice=forced)
    assert differences(reference, engine, 0) == []
    assert engine.dice()["forced"] == reference.dice.to_json()["forced"]


def test_the_core_set_up_plays_a_variants_rules_and_cards():
    variant = ["light.max=30", "light.start=25", "heroes.bram.health=9"]
    reference = Game.new(
        adventure="flooded_cellar",
        heroes=["bram", "orwin", "maelis"],
        seed=2,
        variant=variant,
        engine="python",
    )
    engine = _core_set_up(reference)
    assert differences(reference, engine, 0) == []
    assert engine.state()["light"] == 25 and engine.events(0)[0]["units"][0]["health"] == 9


def test_a_game_set_up_in_the_core_plays_on_as_the_python_one():
    rng = random.Random(5)
    reference = Game.new(adventure="bandit_keep", heroes=5, seed=5, max_turns=30, engine="python")
    engine = _core_set_up(reference)
    for _ in range(400):
        if reference.over:
            break
        action = rng.choice(reference.legal_actions())
        reference.apply(action)
        engine.apply(action)
    assert differences(reference, engine, 0) == []


@pytest.mark.parametrize(
    "change, message",
    [
        ({"hero_ids": ["bram", "nobody", "orwin"]}, "no hero 'nobody' in the roster"),
        ({"hero_ids": ["bram", "orwin"]}, "2 heroes; the game is for 3-5"),
        ({"streams": {"combat": 1}}, "streams must give the state of each of the 10 dice streams"),
        ({"forced": [7]}, "a forced face must be 1..6"),
    ],
)
def test_R_BOARD_05_bad_input_to_the_core_set_up_is_a_value_error_naming_it(change, message):
    game = Game("goblin_warrens", ["bram", "orwin", "maelis"], 0, 50)
    args = {
        "content": core.content(game),
        "hero_ids": list(game.hero_ids),
        "seed": 0,
        "streams": game.dice._state,
        "forced": [],
        "max_turns": 50,
        **change,
    }
    with pytest.raises(ValueError, match=message):
        _core.new_engine(**args)
