"""The core's port of engine/explore.py against the Python module (docs/CORE.md).

The Explore phase's opening and continuation, its decisions (explore or stay, event choices, item
claims), room events, trait checks, ambushes and secret doors are run by both engines at the moment
random games over every adventure call them (``core_parity.shadow``): the same events, dice, state
and returned values.
"""

from __future__ import annotations

import random
from collections import Counter

from dungeon_env import _core, core_parity
from dungeon_env.content import adventure_names
from dungeon_env.engine import Game, decisions, explore, turn
from dungeon_env.engine.actions import Decision, Phase


def _play(n_games: int, max_turns: int = 25, first_seed: int = 200) -> None:
    names = adventure_names()
    for k in range(first_seed, first_seed + n_games):
        game = Game.new(adventure=names[k % len(names)], heroes=3 + k % 3, seed=k, max_turns=max_turns)
        rng = random.Random(k)
        while not game.over:
            game.apply(rng.choice(game.legal_actions()))


def _compare(name: str, original, core_call, seen: Counter, label=None):
    def wrapper(g, *args):
        diff = core_parity.shadow(g, lambda twin: original(twin, *args), lambda e: core_call(e, *args))
        assert diff == [], f"{name}{args} at turn {g.state.turn}: {diff}"
        seen[label(g, *args) if label else name] += 1
        return original(g, *args)

    return wrapper


def test_the_explore_phase_matches_python(monkeypatch):
    seen: Counter = Counter()
    core = _core.rules.explore
    kind_of = lambda g, e: "fire_event:" + g.tables.adventure.events[e].kind  # noqa: E731
    for name, label in [
        ("fire_event", kind_of),
        ("affected", None),
        ("trait_check", None),
        ("spawn_event_monsters", None),
        ("reveal_door", None),
        ("area_order", None),
    ]:
        monkeypatch.setattr(explore, name, _compare(name, getattr(explore, name), getattr(core, name), seen, label))
    # resolve_option: the core binding takes the option's index
    original_resolve = explore.resolve_option

    def resolve_option(g, e, option, h):
        k = g.tables.adventure.events[e].options.index(option)
        diff = core_parity.shadow(
            g, lambda twin: original_resolve(twin, e, option, h), lambda en: core.resolve_option(en, e, k, h)
        )
        assert diff == [], f"resolve_option({e}, {k}, {h}): {diff}"
        seen["resolve_option"] += 1
        return original_resolve(g, e, option, h)

    monkeypatch.setattr(explore, "resolve_option", resolve_option)
    # the phase's hooks in the turn's tables, and the decisions it owns
    monkeypatch.setitem(
        turn._BEGIN, Phase.EXPLORE, _compare("begin_explore", explore.begin_explore, core.begin_explore, seen)
    )
    monkeypatch.setitem(
        turn._RESUME, Phase.EXPLORE, _compare("resume_explore", explore.resume_explore, core.resume_explore, seen)
    )
    for kind, legal, apply in [
        (Decision.EXPLORE_CHOICE, "legal_explore_choice", "do_explore_choice"),
        (Decision.EVENT_CHOICE, "legal_event_choice", "do_event_choice"),
        (Decision.CLAIM_ITEM, "legal_claim", "do_claim"),
    ]:
        monkeypatch.setitem(
            decisions.HANDLERS,
            kind,
            (
                _compare(legal, getattr(explore, legal), getattr(core, legal), seen),
                _compare(apply, getattr(explore, apply), getattr(core, apply), seen),
            ),
        )
    _play(15)
    assert seen["begin_explore"] > 20 and seen["resume_explore"] > 20, seen
    assert seen["do_explore_choice"] > 50 and seen["fire_event:item"] > 0, seen
    assert seen["do_claim"] > 0 and seen["trait_check"] > 0, seen
