"""The core's port of engine/spells.py against the Python module, call by call in real play.

Random games over every adventure, with both casters in the party, run with every public function of
``spells`` hooked (tests/shadow_spells_items.py): at each call the engine makes, the core's version
runs on the same position and must return the same value and leave the same events, dice and state.
"""

from __future__ import annotations

import random

import pytest

from dungeon_env import _core, core_parity
from dungeon_env.engine import Game, core, spells
from dungeon_env.engine.actions import Moment
from tests.builders import add_statue, arena_game, give_item, place
from tests.shadow_spells_items import Shadows, play, public_functions

# the queries the legal lists ask at every step: a sample of them is enough
QUERIES = [
    "known",
    "may_cast",
    "castable",
    "at_once_allowed",
    "spell_actions",
    "scroll_spell",
    "can_cast_scroll",
    "can_memorize",
    "selection_options",
    "spell_level_total",
]
RATE = {f"spells.{name}": 0.2 for name in QUERIES}
CAPS = {f"spells.{name}": 150 for name in QUERIES}
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
    "mind_lash",
]


@pytest.fixture(scope="module")
def shadows() -> Shadows:
    record = Shadows(rate=RATE, cap=300, caps=CAPS)
    with record.hooked(spells, public_functions(spells), _core.rules.spells):
        for _ in play(n_games=10):
            pass
        warlock_games(n_games=4)
    return record


def warlock_games(n_games: int) -> None:
    """Random play on the arena with the Dread Warlock (Mental Combat) in sight of the casters: its
    Mind Lash comes first in Spell Resolution (the random adventures seldom reach it)."""
    for k in range(n_games):
        game = arena_game(["orwin", "maelis", "hob"], seed=k, max_turns=12)
        add_statue(game, "dread_warlock", 9, 1)
        place(game, 1, 9, 4)
        place(game, 0, 9, 5)
        rng = random.Random(k)
        while not game.over:
            game.apply(rng.choice(game.legal_actions()))


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


@pytest.mark.parametrize("why", ["magic", "in_play", "gone", "cast"])
def test_a_selected_spell_resolving_matches_python(why):
    """Maelis selected Valor at 2.1; at 2.5 it fails for want of Magic (A-57), because Valor already
    lasts on someone (A-23) or because its scroll is no longer hers, or it is cast."""
    game = arena_game(["orwin", "maelis", "hob"], seed=3)
    s, valor = game.state, game.spell_index["valor"]
    s.casting_spell[1] = valor
    if why == "magic":
        s.magic[1] = 0
    elif why == "in_play":
        s.effects.append([2, 5, 1, 2, valor, int(s.unit_uid[2])])
    elif why == "gone":
        s.casting_item[1] = give_item(game, 0, "scroll_valor", known=True)
    game.state_edited()
    assert (
        core_parity.shadow(
            game, lambda g: spells.resolve_selected(g, 1), lambda e: _core.rules.spells.resolve_selected(e, 1)
        )
        == []
    )
