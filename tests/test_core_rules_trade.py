"""The core's port of engine/trade.py against the Python module, at the moments random games over
every adventure call each function (tests/shadow_fight.py): same return values, events, dice and
state. The engine reaches the trade functions through tables built at import (turn's phase tables,
decisions' TRADE_ACT and TARGETS): the stand-ins go there."""

from __future__ import annotations

import dataclasses

from dungeon_env import _core
from dungeon_env.content import adventure_names
from dungeon_env.engine import Decision, Game, Phase, decisions, inventory, trade, turn
from dungeon_env.engine.actions import END, GIVE, ITEM_0, LOOT, TARGET_0, TARGET_GIVE, TARGET_LOOT
from dungeon_env.engine.units import kill_hero
from tests.builders import arena_game, enter_phase, place
from tests.shadow_fight import Shadow, play, run_rule_tests

core = _core.rules.trade


def _watch(monkeypatch, every: int = 1) -> Shadow:
    """Every trade function the engine calls is compared with its port from now on (on every
    ``every``-th call; each gift and loot); ``shadow.kinds`` counts the gifts, loots and ENDs
    compared."""
    shadow = Shadow()

    def wrap(name, core_call, **kw):
        return shadow.wrap(name, getattr(trade, name), core_call, every=every, rare=("give", "looted"), **kw)

    monkeypatch.setitem(turn._BEGIN, Phase.TRADE, wrap("begin_trade", lambda e, g: core.begin_trade(e)))
    monkeypatch.setitem(turn._RESUME, Phase.TRADE, wrap("resume_trade", lambda e, g: core.resume_trade(e)))
    for module, name, core_call in (
        (trade, "receivers", lambda e, g, h: core.receivers(e, h)),
        (trade, "corpse_items", lambda e, g, h: core.corpse_items(e, h)),
    ):  # called by the functions below and by decisions' TARGETS
        monkeypatch.setattr(module, name, wrap(name, core_call))
    legal_act = wrap("legal_trade_act", lambda e, g, *args: core.legal_trade_act(e, *args))
    do_act = wrap(
        "do_trade_act",
        lambda e, g, *args: core.do_trade_act(e, *args),
        kind=lambda g, u, a, b, action: {END: "end", LOOT: "loot"}[action],
    )
    giving = wrap("giving_items", lambda e, g, *args: core.giving_items(e, *args))
    act, items_part = decisions.TRADE_ACT.parts
    monkeypatch.setattr(
        decisions,
        "TRADE_ACT",
        decisions.Route(
            (
                dataclasses.replace(act, legal=legal_act, apply=do_act),
                dataclasses.replace(items_part, legal=giving),
            )
        ),
    )
    give_to = wrap("give_to", lambda e, g, *args: core.give_to(e, *args), kind=lambda g, *a: "give")
    loot = wrap(
        "loot",
        lambda e, g, u, found: core.loot(e, u, found),
        python_call=lambda twin, g, u, found: trade.loot(twin, u, found),
        kind=lambda g, *a: "looted",
    )
    monkeypatch.setitem(
        decisions.TARGETS, TARGET_GIVE, dataclasses.replace(decisions.TARGETS[TARGET_GIVE], choose=give_to)
    )
    monkeypatch.setitem(
        decisions.TARGETS,
        TARGET_LOOT,
        dataclasses.replace(decisions.TARGETS[TARGET_LOOT], choose=lambda g, u, b, found: loot(g, u, found)),
    )
    return shadow


def test_trade_matches_python(monkeypatch):
    """Random play: the phase opens, heroes are asked and pass (they seldom hold anything to give)."""
    shadow = _watch(monkeypatch, every=3)
    play(adventure_names(), seeds=range(3), max_turns=40)
    shadow.check(
        begin_trade=50,
        resume_trade=100,
        receivers=100,
        corpse_items=100,
        legal_trade_act=100,
        giving_items=100,
        do_trade_act=100,
    )


def _party(gear, dead=None) -> Game:
    """hero_0, hero_1, hero_2 at (1, 0), (2, 0), (4, 0) in corridor a of the test arena with
    ``gear`` ((hero, card) pairs), ``dead`` killed, at the start of the Trade phase (as in
    tests/test_rules_trade.py)."""
    g = arena_game(["corvin", "ysolde", "hob"])
    for u in range(3):
        place(g, u, 20 + u, 26)
    for u, (x, y) in enumerate(((1, 0), (2, 0), (4, 0))):
        place(g, u, x, y)
    for u, card in gear:
        inventory.give(g, inventory.create(g, card), u)
    if dead is not None:
        kill_hero(g, dead)
    enter_phase(g, Phase.TRADE)
    return g


def test_giving_matches_python(monkeypatch):
    """hero_0 gives its sword to hero_2 (the second receiver), then hero_1 its torch back to hero_0."""
    shadow = _watch(monkeypatch)
    g = _party(((0, "short_sword"), (1, "torch")))
    assert g.decision == (Decision.HERO_ACT, 0)
    for action in (ITEM_0, GIVE, TARGET_0 + 1, ITEM_0, GIVE, TARGET_0, END):
        g.apply(action)
    shadow.check(give_to=2, receivers=4, giving_items=3, legal_trade_act=3)
    assert shadow.kinds["give"] == 2


def test_looting_matches_python(monkeypatch):
    """Random play seldom leaves a corpse with items beside a living hero out of combat: hero_1 lies
    dead in corridor a of the test arena with a sword and a torch (tests/test_rules_trade.py)."""
    shadow = _watch(monkeypatch)
    g = _party(((1, "short_sword"), (1, "torch"), (2, "battle_axe")), dead=1)
    assert g.decision == (Decision.HERO_ACT, 0)
    for action in (LOOT, TARGET_0 + 1, END, LOOT):  # hero_2 loots the one item left
        g.apply(action)
    shadow.check(loot=2, corpse_items=4, legal_trade_act=3, do_trade_act=3)
    assert shadow.kinds["looted"] == 2


def test_trade_rule_positions_match_python(monkeypatch):
    """The hand-built positions of the trade rule tests, each call compared."""
    shadow = _watch(monkeypatch)
    assert run_rule_tests("test_rules_trade") >= 8
    shadow.check(begin_trade=5, give_to=3, loot=1, receivers=5, legal_trade_act=5)
