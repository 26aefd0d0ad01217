"""The core's port of engine/turn.py against the Python module (docs/CORE.md).

Each phase's opening (``turn.begin``: every phase function behind it) and continuation
(``turn.resume``) and the hand-offs are run by both engines at the moment random games over every
adventure call them (``core_parity.shadow``): the same events, dice, state and decisions pushed.
"""

from __future__ import annotations

import random
from collections import Counter

from dungeon_env import _core, core_parity
from dungeon_env.content import adventure_names, load_heroes
from dungeon_env.engine import turn
from dungeon_env.engine.actions import Phase
from dungeon_env.parity import GameCase, game_list
from tests.core_shadow import Shadows, bold_choice, engine, play, play_out, reference_game

core = _core.rules.turn


def test_every_phase_begins_and_resumes_as_in_python(monkeypatch):
    shadows = Shadows(budget=40)
    phase = lambda g: Phase(g.state.phase).name  # noqa: E731
    shadows.hook(monkeypatch, turn, "begin", core.begin, case=phase)
    shadows.hook(monkeypatch, turn, "resume", core.resume, case=phase)
    outcomes = Counter()
    resumable = {"HERO_MOVEMENT", "EVASION", "MONSTER_MOVEMENT", "SPELL_RESOLUTION", "EXPLORE", "TRADE"}

    def done():
        begun = set(shadows.cases_of("begin")) == {p.name for p in Phase} - {"GAME_OVER"}
        resumed = resumable <= set(shadows.cases_of("resume"))
        # the turn cap (Turn End's finish)
        return begun and resumed and shadows.cases["begin", "TURN_END"] == 40 and outcomes["truncated"] > 0

    for g, action in play(range(40), max_turns=15, bold=True, until=done):
        if action is None:
            outcomes[g.outcome] += 1
    shadows.check()
    assert done(), (outcomes, shadows.cases)


def test_handoffs_match_python(monkeypatch):
    shadows = Shadows(budget=50)
    original = {}

    def offered(g, h):
        if not g.state.progress and g.state.idle_handoffs >> h & 1:
            return "idle one spent"
        return "some" if original["handoffs"](g, h) else "none"

    def made(g, to):
        return "idle" if not g.state.progress else "after acting"

    original["handoffs"] = shadows.hook(monkeypatch, turn, "handoffs", core.handoffs, case=offered)
    shadows.hook(monkeypatch, turn, "handoff", core.handoff, case=made)
    play_out(range(10, 14), max_turns=10, bold=True)
    shadows.check()
    assert set(shadows.cases_of("handoffs")) == {"idle one spent", "some", "none"}, shadows.cases
    assert set(shadows.cases_of("handoff")) == {"idle", "after acting"}, shadows.cases


def test_whole_games_play_the_same_on_both_engines(monkeypatch):
    """The loop itself (game.cpp's advance/apply with turn and decisions on top of every rule
    module): whole games in lockstep, the golden list's first random games and games with heroes
    from the whole roster played by the bold chooser, under a variant."""
    for case in game_list("random", 5, adventure_names()):
        assert core_parity.lockstep(case) is None
    roster, heroes = list(load_heroes()), {}

    def new_pair(case, variant=None, forced_dice=()):
        game = reference_game(
            placed=True,
            adventure=case.adventure,
            heroes=heroes[case.seed],
            seed=case.seed,
            max_turns=case.max_turns,
            variant=variant,
        )
        return game, engine(game)

    monkeypatch.setattr(core_parity, "new_pair", new_pair)
    for k in range(3):
        rng = random.Random(k)
        heroes[k] = rng.sample(roster, 3 + k)
        case = GameCase("random", adventure_names()[k], len(heroes[k]), k, 30)

        def choose(g, rng=rng):
            return bold_choice(rng, g.legal_actions())

        assert (
            core_parity.lockstep(case, choose=choose, variant=["rules.patrol_max=3", "light.start=8"]) is None
        )
