"""The core's port of engine/trade.py against the Python module, at the moments random games over
every adventure call each function (tests/shadow_play.py): same return values, events, dice and
state. The engine reaches the trade functions through tables built at import (turn's phase tables,
decisions' TRADE_ACT and TARGETS): the stand-ins go there."""

from __future__ import annotations

import dataclasses
from collections import Counter

from dungeon_env import _core
from dungeon_env.content import adventure_names
from dungeon_env.engine import Decision, Phase, decisions, inventory, trade, turn
from dungeon_env.engine.actions import END, LOOT, TARGET_0, TARGET_GIVE, TARGET_LOOT
from dungeon_env.engine.units import kill_hero
from tests.builders import arena_game, enter_phase, place
from tests.shadow_play import Shadow, play

core = _core.rules.trade


def _watch(monkeypatch) -> tuple[Shadow, Counter[str]]:
    """Every trade function the engine calls is compared with its port from now on."""
    shadow = Shadow()
    kinds: Counter[str] = Counter()

    def seen(kind):
        kinds[kind] += 1
        return True

    def wrap(name, core_call, **kw):
        return shadow.wrap(name, getattr(trade, name), core_call, **kw)

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
        when=lambda g, u, a, b, action: seen({END: "end", LOOT: "loot"}[action]),
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
    give_to = wrap("give_to", lambda e, g, *args: core.give_to(e, *args), when=lambda g, *a: seen("give"))
    loot = wrap(
        "loot",
        lambda e, g, u, found: core.loot(e, u, found),
        python_call=lambda twin, g, u, found: trade.loot(twin, u, found),
        when=lambda g, *a: seen("looted"),
    )
    monkeypatch.setitem(
        decisions.TARGETS, TARGET_GIVE, dataclasses.replace(decisions.TARGETS[TARGET_GIVE], choose=give_to)
    )
    monkeypatch.setitem(
        decisions.TARGETS,
        TARGET_LOOT,
        dataclasses.replace(decisions.TARGETS[TARGET_LOOT], choose=lambda g, u, b, found: loot(g, u, found)),
    )
    return shadow, kinds


def test_trade_matches_python(monkeypatch):
    shadow, kinds = _watch(monkeypatch)
    play(adventure_names(), seeds=range(4), max_turns=40)
    shadow.check(
        begin_trade=50,
        resume_trade=50,
        receivers=50,
        corpse_items=50,
        legal_trade_act=50,
        giving_items=50,
        do_trade_act=50,
        give_to=5,
    )
    assert kinds["give"] >= 5 and kinds["end"] >= 50, kinds


def test_looting_matches_python(monkeypatch):
    """Random play seldom leaves a corpse with items beside a living hero out of combat: hero_1 lies
    dead in corridor a of the test arena with a sword and a torch (tests/test_rules_trade.py)."""
    shadow, kinds = _watch(monkeypatch)
    g = arena_game(["corvin", "ysolde", "hob"])
    for u, (x, y) in enumerate(((1, 0), (2, 0), (4, 0))):
        place(g, u, x, y)
    for u, card in ((1, "short_sword"), (1, "torch"), (2, "battle_axe")):
        inventory.give(g, inventory.create(g, card), u)
    kill_hero(g, 1)
    enter_phase(g, Phase.TRADE)
    assert g.decision == (Decision.HERO_ACT, 0)
    for action in (LOOT, TARGET_0 + 1, END, LOOT):  # hero_2 loots the one item left
        g.apply(action)
    shadow.check(loot=2, corpse_items=4, legal_trade_act=3, do_trade_act=3)
    assert kinds["looted"] == 2
