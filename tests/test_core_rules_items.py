"""The core's port of engine/items.py against the Python module, call by call in real play.

Random games over every adventure (both casters, who are Learned, in the party) run with every public
function of ``items`` hooked (tests/shadow_spells_items.py): at each call the engine makes, the core's
version runs on the same position and must return the same value and leave the same events, dice and
state.
"""

from __future__ import annotations

import pytest

from dungeon_env import _core
from dungeon_env.engine import items
from tests.shadow_spells_items import Shadows, play, public_functions

# the queries the legal lists ask at every step: a sample of them is enough
RATE = {f"items.{name}": 0.2 for name in ("item_actions", "item_verbs", "can_use", "can_identify")}
# what real play must have reached for the comparison to mean something
CALLED = (
    "item_actions pick_item legal_item_verb do_item_verb decline identify use_item item_targets finish_use"
)
LOGGED = "item_used back roll memorize item_identified item_wasted"


@pytest.fixture(scope="module")
def shadows() -> Shadows:
    record = Shadows(rate=RATE, cap=300)
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
