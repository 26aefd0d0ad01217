"""The core's port of engine/turn.py against the Python module (docs/CORE.md).

Each phase's opening (``turn.begin``) and continuation (``turn.resume``) and the hand-offs are run
by both engines at the moment random games over every adventure call them (``core_parity.shadow``):
the same events, dice, state and decisions pushed.
"""

from __future__ import annotations

import random
from collections import Counter

from dungeon_env import _core, core_parity
from dungeon_env.content import adventure_names
from dungeon_env.engine import Game, turn
from dungeon_env.engine.actions import Phase


def _play(n_games: int, max_turns: int = 12, first_seed: int = 0) -> Counter:
    """Random games over every adventure, 3-5 heroes, each played to its end; their outcomes."""
    outcomes: Counter = Counter()
    names = adventure_names()
    for k in range(first_seed, first_seed + n_games):
        game = Game.new(adventure=names[k % len(names)], heroes=3 + k % 3, seed=k, max_turns=max_turns)
        rng = random.Random(k)
        while not game.over:
            game.apply(rng.choice(game.legal_actions()))
        outcomes[game.outcome] += 1
    return outcomes


def _shadowed(monkeypatch, module, name: str, core_call, seen: Counter, key):
    """Wrap ``module.name`` so that every call is first compared with the core (``core_call(engine,
    *args)``), counting the calls by ``key(game, *args)``."""
    original = getattr(module, name)

    def wrapper(g, *args):
        diff = core_parity.shadow(g, lambda twin: original(twin, *args), lambda e: core_call(e, *args))
        assert diff == [], f"{name}{args} at turn {g.state.turn}: {diff}"
        seen[key(g, *args)] += 1
        return original(g, *args)

    monkeypatch.setattr(module, name, wrapper)


def test_every_phase_begins_and_resumes_as_in_python(monkeypatch):
    begun, resumed = Counter(), Counter()
    phase = lambda g: Phase(g.state.phase).name  # noqa: E731
    _shadowed(monkeypatch, turn, "begin", _core.rules.turn.begin, begun, phase)
    _shadowed(monkeypatch, turn, "resume", _core.rules.turn.resume, resumed, phase)
    outcomes = _play(12)
    assert outcomes["truncated"] > 0, outcomes  # the turn cap (close_turn's finish)
    every_phase = {p.name for p in Phase} - {"GAME_OVER"}
    assert set(begun) == every_phase, begun
    assert {"HERO_MOVEMENT", "EVASION", "MONSTER_MOVEMENT", "EXPLORE", "TRADE"} <= set(resumed), resumed
    assert sum(begun.values()) > 500


def test_handoffs_match_python(monkeypatch):
    seen = Counter()
    original_handoffs, original_handoff = turn.handoffs, turn.handoff

    def handoffs(g, h):
        diff = core_parity.shadow(
            g, lambda twin: original_handoffs(twin, h), lambda e: _core.rules.turn.handoffs(e, h)
        )
        assert diff == [], diff
        acts = original_handoffs(g, h)
        seen["offered" if acts else "none"] += 1
        seen["idle spent"] += bool(not g.state.progress and g.state.idle_handoffs >> h & 1)
        return acts

    def handoff(g, to):
        diff = core_parity.shadow(g, lambda twin: original_handoff(twin, to), lambda e: _core.rules.turn.handoff(e, to))
        assert diff == [], diff
        seen["handoff idle" if not g.state.progress else "handoff"] += 1
        return original_handoff(g, to)

    monkeypatch.setattr(turn, "handoffs", handoffs)
    monkeypatch.setattr(turn, "handoff", handoff)
    _play(6)
    assert seen["offered"] > 50 and seen["none"] > 0 and seen["idle spent"] > 0, seen
    assert seen["handoff idle"] > 0 and seen["handoff"] > 0, seen
