"""The core's port of engine/spells.py against the Python module, call by call in real play.

Random games over every adventure, with both casters in the party, run with every public function of
``spells`` hooked (tests/core_shadow.py): at each call the engine makes, the core's version
runs on the same position and must return the same value and leave the same events, dice and state.
"""

from __future__ import annotations

import random

import pytest

from dungeon_env import _core
from dungeon_env.engine import spells
from dungeon_env.engine.actions import Moment
from tests.builders import add_statue, give_item, place
from tests.core_shadow import Shadows, arena, engine, play_out, public_functions, reference_game, same

BUDGET = 100  # comparisons of each function at most
# the queries the legal lists ask at every step: every fifth call is enough
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


def warlock_games(n_games: int) -> None:
    """Random play on the arena with the Dread Warlock (Mental Combat) in sight of the casters: its
    Mind Lash comes first in Spell Resolution (the random adventures seldom reach it)."""
    for k in range(n_games):
        game = arena(["orwin", "maelis", "hob"], seed=k, max_turns=12)
        add_statue(game, "dread_warlock", 9, 1)
        place(game, 1, 9, 4)
        place(game, 0, 9, 5)
        rng = random.Random(k)
        while not game.over:
            game.apply(rng.choice(game.legal_actions()))


def test_every_call_matches_python_and_the_hard_cases_were_reached(monkeypatch):
    shadows = Shadows(budget=BUDGET)
    for name in public_functions(spells):
        every = 5 if name in QUERIES else 1
        shadows.hook(monkeypatch, spells, name, getattr(_core.rules.spells, name), every=every)

    def done():
        logged = all(shadows.events[kind] > 0 for kind in LOGGED)
        return logged and shadows.reached(**dict.fromkeys(CALLED, 1)) and shadows.results["targets", True] > 0

    warlock_games(n_games=4)
    play_out(range(20), max_turns=40, casters=True, until=done)
    shadows.check(**dict.fromkeys(CALLED, 1))
    assert done(), (shadows.calls, shadows.events)


def test_fits_matches_python():
    game = reference_game(heroes=3, seed=0)
    e = engine(game)
    for sp, spell in enumerate(game.spells):
        for when in (Moment.COMBAT, Moment.MOVEMENT, Moment.EXPLORE):
            assert _core.rules.spells.fits(e, sp, when.value) == spells.fits(spell, when)


@pytest.mark.parametrize("why", ["magic", "in_play", "gone", "cast"])
def test_a_selected_spell_resolving_matches_python(why):
    """Maelis selected Valor at 2.1; at 2.5 it fails for want of Magic (A-57), because Valor already
    lasts on someone (A-23) or because its scroll is no longer hers, or it is cast."""
    game = arena(["orwin", "maelis", "hob"], seed=3)
    s, valor = game.state, game.spell_index["valor"]
    s.casting_spell[1] = valor
    if why == "magic":
        s.magic[1] = 0
    elif why == "in_play":
        s.effects.append([2, 5, 1, 2, valor, int(s.unit_uid[2])])
    elif why == "gone":
        s.casting_item[1] = give_item(game, 0, "scroll_valor", known=True)
    game.state_edited()
    same(game, lambda g: spells.resolve_selected(g, 1), lambda e: _core.rules.spells.resolve_selected(e, 1))
