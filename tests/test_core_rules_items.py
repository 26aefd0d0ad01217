"""The core's port of engine/items.py against the Python module, call by call in real play.

Random games over every adventure (both casters, who are Learned, in the party) run with every public
function of ``items`` hooked (tests/core_shadow.py): at each call the engine makes, the core's
version runs on the same position and must return the same value and leave the same events, dice and
state.
"""

from __future__ import annotations

import pytest

from dungeon_env import _core
from dungeon_env.engine import inventory, items
from tests.builders import give_item
from tests.core_shadow import Shadows, arena, play_out, public_functions, same

BUDGET = 100  # comparisons of each function at most
# the queries the legal lists ask at every step: every fifth call is enough
QUERIES = ("item_actions", "item_verbs", "can_use", "can_identify")
# what real play must have reached for the comparison to mean something
CALLED = (
    "item_actions pick_item legal_item_verb do_item_verb decline identify use_item item_targets finish_use"
)
LOGGED = "item_used back roll memorize item_identified item_wasted"


def _holds(g, h, when) -> bool:  # the case of an item_actions call: does the hero hold anything?
    return bool(inventory.held(g, h))


def test_every_call_matches_python_and_the_hard_cases_were_reached(monkeypatch):
    shadows = Shadows(budget=BUDGET)
    for name in public_functions(items):
        every = 5 if name in QUERIES else 1
        case = _holds if name == "item_actions" else None
        shadows.hook(monkeypatch, items, name, getattr(_core.rules.items, name), every=every, case=case)

    def done():
        logged = all(shadows.events[kind] > 0 for kind in LOGGED.split())
        called = shadows.reached(**dict.fromkeys(CALLED.split(), 1))
        return logged and called and shadows.results["item_actions", True] > 0

    play_out(range(20), max_turns=40, casters=True, until=done)
    shadows.check(**dict.fromkeys(CALLED.split(), 1))
    assert done(), (shadows.calls, shadows.events)


@pytest.mark.parametrize("face", range(1, 7))
def test_identify_every_roll_matches_python(face):
    """Each face of the Identify roll (1 locks the item, 2-3 not yet, 4-6 identified) on a
    face-down potion held by a Learned hero."""
    game = arena(["orwin", "maelis", "hob"], seed=face)
    item = give_item(game, 0, "healing_potion", known=False)
    game.dice.force(face, stream="misc")
    same(game, lambda g: items.identify(g, 0, item), lambda e: _core.rules.items.identify(e, 0, item))
