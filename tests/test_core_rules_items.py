"""The core's port of engine/items.py against the Python module, call by call in real play.

Random games over every adventure (both casters, who are Learned, in the party) run with every public
function of ``items`` hooked (tests/shadow_spells_items.py): at each call the engine makes, the core's
version runs on the same position and must return the same value and leave the same events, dice and
state.
"""

from __future__ import annotations

import pytest

from dungeon_env import _core, core_parity
from dungeon_env.engine import items
from tests.builders import arena_game, give_item
from tests.shadow_spells_items import Shadows, play, public_functions

# the queries the legal lists ask at every step: a sample of them is enough
QUERIES = ("item_actions", "item_verbs", "can_use", "can_identify")
RATE = {f"items.{name}": 0.2 for name in QUERIES}
CAPS = {f"items.{name}": 150 for name in QUERIES}
# what real play must have reached for the comparison to mean something
CALLED = (
    "item_actions pick_item legal_item_verb do_item_verb decline identify use_item item_targets finish_use"
)
LOGGED = "item_used back roll memorize item_identified item_wasted"


@pytest.fixture(scope="module")
def shadows() -> Shadows:
    record = Shadows(rate=RATE, cap=300, caps=CAPS)
    with record.hooked(items, public_functions(items), _core.rules.items):
        for _ in play(n_games=10):
            pass
    return record


def test_every_call_matches_python(shadows):
    assert shadows.failures == []


def test_the_hard_cases_were_reached(shadows):
    calls, events = shadows.calls, shadows.events
    for name in CALLED.split():
        assert calls[f"items.{name}"] > 0, name
    for kind in LOGGED.split():
        assert events[kind] > 0, kind
    assert shadows.results["items.item_actions", True] > 0


@pytest.mark.parametrize("face", range(1, 7))
def test_identify_every_roll_matches_python(face):
    """Each face of the Identify roll (1 locks the item, 2-3 not yet, 4-6 identified) on a
    face-down potion held by a Learned hero."""
    game = arena_game(["orwin", "maelis", "hob"], seed=face)
    item = give_item(game, 0, "healing_potion", known=False)
    game.dice.force(face, stream="misc")
    assert (
        core_parity.shadow(
            game, lambda g: items.identify(g, 0, item), lambda e: _core.rules.items.identify(e, 0, item)
        )
        == []
    )
