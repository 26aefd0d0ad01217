"""The heroes' lens in the core (``src/core/lens.cpp``, ``_core.HeroLens``): folded over a core game's
log after every action, it gives the events heroes may know exactly as ``knowledge.HeroLens`` does
(the side knowledge's fold, ruling D-24: which events, each monster by the heroes' own numbering,
secret rolls and door indices left out, room events by room, face-down cards as None), and names
the monsters in sight that no event named as ``HeroKnowledge`` does (in square order)."""

from __future__ import annotations

import collections
import copy
import json
import pickle
import random
import re

import pytest

from dungeon_env import _core
from dungeon_env.content import adventure_names, load_heroes
from dungeon_env.engine import Game
from dungeon_env.engine.knowledge import HeroLens, core_rules, monsters_in_sight
from dungeon_env.engine.side_knowledge import knowledge_of
from tests.core_shadow import CASTERS, _kit, bold_choice

ROSTER = sorted(load_heroes())


def _game(k: int) -> Game:
    """Core game ``k``: adventure k (cycling), 3-5 heroes with both casters, carried kits in odd games."""
    rng = random.Random(k)
    others = [h for h in ROSTER if h not in CASTERS]
    heroes = [*CASTERS, *rng.sample(others, 1 + k % 3)]
    names = adventure_names()
    return Game.new(
        adventure=names[k % len(names)],
        heroes=heroes,
        seed=k,
        max_turns=30,
        carried=_kit(rng, len(heroes)) if k % 2 else None,
    )


def _fold_both(k: int, bold: bool):
    """Game ``k`` played out; the heroes' knowledge's events and numbers, and the core lens's."""
    game = _game(k)
    knowledge = knowledge_of(game, "heroes")
    lens = _core.HeroLens(core_rules())
    folded = lens.fold(game._engine, 0)
    rng = random.Random(f"lens/{k}")
    while not game.over:
        legal = game.legal_actions()
        start = game.n_events
        game.apply(bold_choice(rng, legal) if bold else rng.choice(legal))
        folded += lens.fold(game._engine, start)
        in_sight = _core.HeroLens.monsters_in_sight(game._engine)
        assert in_sight == monsters_in_sight(game).tolist(), "the core's monsters in sight are knowledge.py's"
    return game, knowledge, lens, folded


def test_the_core_lens_shows_heroes_what_the_python_lens_shows_in_random_games():
    seen = collections.Counter()
    for k in range(24):
        game, knowledge, lens, folded = _fold_both(k, bold=k % 2 == 1)
        want = [[index, event] for index, event in knowledge.numbered_since(0)]
        assert json.dumps([list(pair) for pair in folded]) == json.dumps(want), f"game {k}"
        assert lens.numbers == dict(knowledge.numbers()), f"game {k}"
        python_lens = knowledge.lens
        assert lens.names == python_lens.names and lens.where == python_lens.where, f"game {k}"
        assert lens.revealed == python_lens.revealed, f"game {k}"
        slain = {
            e["unit"]: any(x.startswith("hero_") for x in e["killers"])
            for e in game.events
            if e["type"] == "slain"
        }
        assert lens.slain == slain, f"game {k}"
        seen["slain by a hero"] += sum(slain.values())
        shown = {index for index, _ in folded}
        for index, event in enumerate(game.events):
            kind = event["type"]
            if kind == "roll" and event["check"] in ("detect_traps", "room_detect"):
                seen["secret roll hidden"] += index not in shown
            elif kind == "spawn" and event["unit"]["side"] == "monster":
                seen["monster spawned in sight"] += index in shown
            elif kind == "move" and event["unit"].startswith("m"):
                seen["monster move shown" if index in shown else "monster move in the fog"] += 1
            elif kind in ("door_opened", "secret_door"):
                seen["door event"] += 1
        for _, event in folded:
            seen["room event by room"] += "area_event" in event
            seen["face-down card hidden"] += "card" in event and event["card"] is None
    for case in (
        "secret roll hidden",
        "monster spawned in sight",
        "monster move shown",
        "monster move in the fog",
        "door event",
        "room event by room",
        "face-down card hidden",
        "slain by a hero",
    ):
        assert seen[case] > 0, (case, seen)


@pytest.mark.parametrize("how", ["copy", "pickle", "deepcopy"])
def test_a_copied_or_pickled_core_lens_folds_on_as_the_original(how):
    """A copy (a search's world), a pickle or a deep copy (a saved env) keeps what the fold tracked,
    and folds on apart: the same events as the original's from there on."""
    game = _game(4)
    lens = _core.HeroLens(core_rules())
    lens.fold(game._engine, 0)
    rng = random.Random(4)
    for _ in range(250):
        start = game.n_events
        game.apply(rng.choice(game.legal_actions()))
        lens.fold(game._engine, start)
    twin = {"copy": lambda: lens.copy(), "pickle": lambda: pickle.loads(pickle.dumps(lens))}.get(
        how, lambda: copy.deepcopy(lens)
    )()
    assert (twin.numbers, twin.where, twin.slain) == (lens.numbers, lens.where, lens.slain)
    assert twin.revealed == lens.revealed
    other = game.copy()
    while not game.over:
        action = rng.choice(game.legal_actions())
        start = game.n_events
        game.apply(action)
        other.apply(action)
        assert json.dumps(twin.fold(other._engine, start)) == json.dumps(lens.fold(game._engine, start))
    assert twin.numbers == lens.numbers and len(lens.numbers) > 0


@pytest.mark.parametrize("field", ["public", "about", "open_checks", "figure_fields", "figures_of"])
def test_the_core_lens_takes_its_rules_from_knowledge_py(field):
    """The rules are knowledge.py's tables handed over (one owner): a wrong kind of table is refused."""
    good = {
        "public": {"setup"},
        "about": {"move": "unit"},
        "open_checks": {"jump"},
        "figure_fields": ["unit"],
        "figures_of": {"move": ["a"]},
    }
    _core.HeroRules(**good)
    with pytest.raises(TypeError):
        _core.HeroRules(**{**good, field: 3})


def _knowledge_after(game: Game, actions: list[int]):
    for action in actions:
        game.apply(action)
    return knowledge_of(game, "heroes")


def _random_actions(k: int, n: int) -> list[int]:
    game = _game(k)
    rng = random.Random(f"actions/{k}")
    out = []
    while not game.over and len(out) < n:
        out.append(rng.choice(game.legal_actions()))
        game.apply(out[-1])
    return out


def test_the_heroes_knowledge_of_a_core_game_folds_with_the_core_lens_as_on_the_python_rules():
    actions = _random_actions(5, 500)
    on_core, on_python = _game(5), _game(5)
    on_python.use_engine("python")
    core_known, python_known = _knowledge_after(on_core, actions), _knowledge_after(on_python, actions)
    assert isinstance(core_known.lens, _core.HeroLens) and not isinstance(python_known.lens, _core.HeroLens)
    assert json.dumps(core_known.numbered_since(0)) == json.dumps(python_known.numbered_since(0))
    assert core_known.numbers() == python_known.numbers() and len(core_known.numbers()) > 0
    assert core_known.kills() == python_known.kills()
    assert core_known.snapshot() == python_known.snapshot()


def test_a_game_moved_between_the_engines_carries_its_heroes_knowledge_over():
    """The lens that folded so far is handed to the other engine's kind with what it tracked."""
    actions = _random_actions(7, 600)
    stayed, moved = _game(7), _game(7)
    known = knowledge_of(moved, "heroes")
    for i, action in enumerate(actions):
        if i in (150, 300):
            moved.use_engine("python" if i == 150 else "core")
        moved.apply(action)
        stayed.apply(action)
        if i == 200:
            assert not isinstance(known.lens, _core.HeroLens)
    assert isinstance(known.lens, _core.HeroLens)
    reference = knowledge_of(stayed, "heroes")
    assert json.dumps(known.numbered_since(0)) == json.dumps(reference.numbered_since(0))
    assert known.numbers() == reference.numbers() and known.kills() == reference.kills()


def test_a_pickled_core_game_keeps_its_heroes_knowledge_and_folds_on():
    actions = _random_actions(8, 400)
    game = _game(8)
    known = _knowledge_after(game, actions[:200])
    restored = pickle.loads(pickle.dumps(game))
    assert json.dumps(knowledge_of(restored, "heroes").numbered_since(0)) == json.dumps(
        known.numbered_since(0)
    )
    for action in actions[200:]:
        game.apply(action)
        restored.apply(action)
    assert json.dumps(knowledge_of(restored, "heroes").numbered_since(0)) == json.dumps(
        known.numbered_since(0)
    )


@pytest.mark.parametrize(
    "event, missing",
    [
        ({"type": "move", "from": [1, 1], "to": [1, 2]}, "'move' event without its 'unit' field"),
        ({"type": "damage", "amount": 1}, "'damage' event without its 'unit' field"),
        ({"type": "roll", "actor": "hero_0"}, "'roll' event without its 'check' field"),
    ],
)
def test_a_hand_logged_event_without_a_field_its_type_has_is_refused_by_name(event, missing):
    """The Python lens raises a KeyError on such an event; the core's lens names the field."""
    game = _game(1)
    start = game.n_events
    game.log(event)
    with pytest.raises(KeyError):
        HeroLens(game).see(event)
    with pytest.raises(ValueError, match=re.escape(missing)):
        _core.HeroLens(core_rules()).fold(game._engine, start)
