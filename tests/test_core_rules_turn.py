"""The core's port of engine/turn.py against the Python module (docs/CORE.md).

Each phase's opening (``turn.begin``: every phase function behind it) and continuation
(``turn.resume``) and the hand-offs are run by both engines at the moment random games over every
adventure call them (``core_parity.shadow``): the same events, dice, state and decisions pushed.
"""

from __future__ import annotations

import random

from turn_play import BOLD, Compared, play

from dungeon_env import _core, core_parity
from dungeon_env.content import adventure_names, load_heroes
from dungeon_env.engine import Game, core, turn
from dungeon_env.engine.actions import Phase
from dungeon_env.parity import GameCase, game_list


def test_every_phase_begins_and_resumes_as_in_python(monkeypatch):
    compared = Compared(budget=40)
    core = _core.rules.turn
    phase = lambda what: lambda g: f"{what} {Phase(g.state.phase).name}"  # noqa: E731
    monkeypatch.setattr(turn, "begin", compared.wrap("begin", turn.begin, core.begin, phase("begin")))
    monkeypatch.setattr(turn, "resume", compared.wrap("resume", turn.resume, core.resume, phase("resume")))
    outcomes = play(12, max_turns=15, first_seed=0)
    assert outcomes["truncated"] > 0, outcomes  # the turn cap (Turn End's finish)
    begun = {key.split()[1] for key in compared.seen if key.startswith("begin")}
    assert begun == {p.name for p in Phase} - {"GAME_OVER"}, compared.seen
    resumed = {key.split()[1] for key in compared.seen if key.startswith("resume")}
    assert {"HERO_MOVEMENT", "EVASION", "MONSTER_MOVEMENT", "SPELL_RESOLUTION", "EXPLORE", "TRADE"} <= resumed
    assert compared.seen["begin TURN_END"] == 40, compared.seen


def test_handoffs_match_python(monkeypatch):
    compared = Compared(budget=50)
    core = _core.rules.turn

    def offered(g, h):
        if not g.state.progress and g.state.idle_handoffs >> h & 1:
            return "handoffs: idle one spent"
        return "handoffs: some" if turn.handoffs.__wrapped__(g, h) else "handoffs: none"

    def made(g, to):
        return "handoff: idle" if not g.state.progress else "handoff: after acting"

    original = turn.handoffs
    wrapped = compared.wrap("handoffs", original, core.handoffs, offered)
    wrapped.__wrapped__ = original
    monkeypatch.setattr(turn, "handoffs", wrapped)
    monkeypatch.setattr(turn, "handoff", compared.wrap("handoff", turn.handoff, core.handoff, made))
    play(4, max_turns=10, first_seed=10)
    assert min(compared.seen.values()) > 0 and len(compared.seen) == 5, compared.seen


def test_whole_games_play_the_same_on_both_engines(monkeypatch):
    """The loop itself (game.cpp's advance/apply with turn and decisions on top of every rule
    module): whole games in lockstep, the golden list's first random games and games with heroes
    from the whole roster played by the bold chooser, under a variant."""
    for case in game_list("random", 5, adventure_names()):
        assert core_parity.lockstep(case) is None
    roster, heroes = list(load_heroes()), {}

    def new_pair(case, variant=None, forced_dice=()):
        game = Game(case.adventure, heroes[case.seed], case.seed, case.max_turns, variant)
        game._place()
        return game, core.engine(game)

    monkeypatch.setattr(core_parity, "new_pair", new_pair)
    for k in range(3):
        rng = random.Random(k)
        heroes[k] = rng.sample(roster, 3 + k)
        case = GameCase("random", adventure_names()[k], len(heroes[k]), k, 30)

        def choose(g, rng=rng):
            legal = g.legal_actions()
            bold = [a for a in legal if a in BOLD]
            return rng.choice(bold if bold and rng.random() < 0.6 else legal)

        assert (
            core_parity.lockstep(case, choose=choose, variant=["rules.patrol_max=3", "light.start=8"]) is None
        )
