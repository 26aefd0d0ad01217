"""The core's inventory (src/core/rules/inventory.cpp) and spell-failing (casting.cpp) rules against
engine/inventory.py and engine/casting.py: the calls random games make (the set-up's shuffles, draws,
identifying, giving, destroying, a spell failing) run by both engines on the same position and
compared (events, dice, every state field, the result), and calls made on purpose on every deck,
card and item slot."""

from __future__ import annotations

from dungeon_env import _core
from dungeon_env.content.model import DECKS
from dungeon_env.engine import casting, inventory
from dungeon_env.engine.state import MAX_UNITS
from tests.core_shadow import Shadows, engine, play_out, positions, reference_game, same

INV, C = _core.rules.inventory, _core.rules.casting


def test_inventory_rules_match_python_in_play(monkeypatch):
    shadows = Shadows(budget=60)
    for name in ("setup_items", "create", "draw", "give", "destroy", "end_adventure"):
        shadows.hook(monkeypatch, inventory, name, getattr(INV, name))
    shadows.hook(monkeypatch, inventory, "reveal", INV.reveal, case=lambda g, item, how: how)
    shadows.hook(monkeypatch, casting, "fail_spell", C.fail_spell, case=lambda g, h, reason: reason)
    # random play seldom fails a spell or passes an Identify roll: the next test does
    called = dict(setup_items=1, create=1, draw=1, give=1, destroy=1, end_adventure=1, reveal=1)

    def done():
        return shadows.reached(**called) and {"use", "adventure_end"} <= shadows.cases_of("reveal").keys()

    play_out(range(25), max_turns=80, until=done)
    shadows.check(**called)
    assert done(), shadows.cases


def test_setup_with_carried_items_matches_python(monkeypatch):
    carried = [[("healing_potion", False), ("rope", True)], [("healing_potion", True)], []]
    shadows = Shadows()
    shadows.hook(monkeypatch, inventory, "setup_items", INV.setup_items)
    for seed in range(3):
        reference_game(heroes=3, seed=seed, carried=carried)
    shadows.check(setup_items=3)
    assert shadows.calls["setup_items"] == 3


def test_inventory_calls_match_python_on_every_deck_card_and_slot():
    seen = {"positions": 0, "empty_deck": 0, "full_unit": 0, "revealed": 0, "unnamed_fail": 0}
    for k, game in enumerate(positions(range(5), every=300)):
        e = engine(game)
        s = game.state
        for u in range(MAX_UNITS):
            assert INV.held(e, u) == inventory.held(game, u)
            assert INV.can_hold(e, u) == inventory.can_hold(game, u)
        for item in range(len(s.item_card)):
            if s.item_card[item] >= 0:
                assert INV.card_of(e, item) == inventory.card_of(game, item).id
        for h in range(5):
            assert C.is_casting(e, h) == casting.is_casting(game, h)
        for n in (1, 2, 5, 6, 7, 36, 37, 61 + k):
            same(game, lambda g, n=n: inventory.uniform(g, n), lambda e, n=n: INV.uniform(e, n))
        for deck in DECKS:

            def draw_all(g, deck=deck, draw=inventory.draw):
                return [draw(g, deck) for _ in range(70)]  # more than a deck holds

            same(game, draw_all, lambda e, deck=deck: draw_all(e, deck, INV.draw))
            seen["empty_deck"] += -1 in draw_all(game.copy())
        card = game.item_cards[k % len(game.item_cards)].id
        same(game, lambda g, c=card: inventory.create(g, c), lambda e, c=card: INV.create(e, c))
        for item in range(len(s.item_card)):
            if s.item_card[item] >= 0 and not s.item_known[item]:
                same(
                    game,
                    lambda g, i=item: inventory.reveal(g, i, "test"),
                    lambda e, i=item: INV.reveal(e, i, "test"),
                )
                seen["revealed"] += 1
        hero = k % s.n_heroes

        def fill(g, create=inventory.create, give=inventory.give, hero=hero, card=card):
            return [give(g, create(g, card), hero) for _ in range(14)]

        same(game, fill, lambda e: fill(e, INV.create, INV.give))
        seen["full_unit"] += 1
        same(game, lambda g: inventory.end_adventure(g), lambda e: INV.end_adventure(e))
        for h in range(s.n_heroes):
            for spell, item in ((0, -1), (1, 0), (2, 1)):
                casting_now = game.copy()
                casting_now.state.casting_spell[h], casting_now.state.casting_item[h] = spell, item
                same(
                    casting_now,
                    lambda g, h=h: casting.fail_spell(g, h, "test"),
                    lambda e, h=h: C.fail_spell(e, h, "test"),
                )
                seen["unnamed_fail"] += item >= 0 and not s.item_known[item]
        seen["positions"] += 1
    assert all(n > 0 for n in seen.values()), seen
