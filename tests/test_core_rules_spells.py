"""The core's port of engine/spells.py against the Python module, call by call in real play.

Random games over every adventure, with both casters in the party, run with every public function of
``spells`` hooked (tests/shadow_spells_items.py): at each call the engine makes, the core's version
runs on the same position and must return the same value and leave the same events, dice and state.
"""

from __future__ import annotations

import pytest

from dungeon_env import _core
from dungeon_env.engine import Game, core, spells
from dungeon_env.engine.actions import Moment
from tests.shadow_spells_items import Shadows, play, public_functions

# the queries the legal lists ask at every step: a sample of them is enough
QUERIES = ["known", "may_cast", "castable", "at_once_allowed", "spell_actions"]
RATE = {f"spells.{name}": 0.2 for name in QUERIES}
# what real play must have reached for the comparison to mean something
CALLED = [
    "spell_actions",
    "pick_spell",
    "begin_cast",
    "do_cast_mode",
    "cast_at",
    "targets",
    "begin_spell_selection",
    "do_spell_select",
    "begin_spell_resolution",
    "resolve_selected",
    "resume_spell_resolution",
    "legal_spell_verb",
    "do_spell_verb",
    "can_cast_scroll",
    "end_adventure",
    "after_mental",
    "backlash",
    "ask_cast_while_fighting",
    "do_cast_while_fighting",
]
LOGGED = [
    "cast",
    "spell_select",
    "spell_fail",
    "forget",
    "back",
    "keep_casting",
    "spell_discarded",
    "roll",
]


@pytest.fixture(scope="module")
def shadows() -> Shadows:
    record = Shadows(rate=RATE, cap=300)
    with record.hooked(spells, public_functions(spells), _core.rules.spells):
        for _ in play(n_games=10):
            pass
    return record


def test_every_call_matches_python(shadows):
    assert shadows.failures == []


def test_the_hard_cases_were_reached(shadows):
    calls, events = shadows.calls, shadows.events
    for name in CALLED:
        assert calls[f"spells.{name}"] > 0, name
    for kind in LOGGED:
        assert events[kind] > 0, kind
    assert shadows.results["spells.targets", True] > 0


def test_fits_matches_python():
    game = Game.new(heroes=3, seed=0)
    engine = core.engine(game)
    for sp, spell in enumerate(game.spells):
        for when in (Moment.COMBAT, Moment.MOVEMENT, Moment.EXPLORE):
            assert _core.rules.spells.fits(engine, sp, when.value) == spells.fits(spell, when)
