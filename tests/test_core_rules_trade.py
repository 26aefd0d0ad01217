"""The core's port of engine/trade.py against the Python module, at the moments random games over
every adventure call each function (tests/core_shadow.py): same return values, events, dice and
state. The engine reaches the trade functions through tables built at import too (turn's phase
tables, decisions' TRADE_ACT and TARGETS): the hooks catch those calls as well."""

from __future__ import annotations

from dungeon_env import _core
from dungeon_env.engine import Decision, Game, Phase, inventory, trade
from dungeon_env.engine.actions import END, GIVE, ITEM_0, LOOT, TARGET_0
from dungeon_env.engine.units import kill_hero
from tests.builders import enter_phase, place
from tests.core_shadow import Shadows, arena, play_out, run_rule_tests

core = _core.rules.trade
HOOKED = (
    "begin_trade resume_trade receivers corpse_items legal_trade_act do_trade_act giving_items give_to loot"
)
CASES = {
    "do_trade_act": lambda g, u, a, b, action: {END: "end", LOOT: "loot"}.get(action),
    "give_to": lambda g, *a: "give",
    "loot": lambda g, *a: "looted",
}


def _watch(monkeypatch, budgets: dict[str, int] | None = None) -> Shadows:
    """Every trade function the engine calls is compared with its port from now on (each kind of
    call ``budgets[function]`` times at most; each gift and loot); ``shadows.by_case()`` counts the
    gifts, loots and ENDs compared."""
    shadows = Shadows(budgets=budgets)
    for name in HOOKED.split():
        shadows.hook(
            monkeypatch, trade, name, getattr(core, name), case=CASES.get(name), rare=("give", "looted")
        )
    return shadows


# the comparisons random play must make (no more are made: the budgets)
LEAST = {
    "begin_trade": 50,
    "resume_trade": 100,
    "receivers": 100,
    "corpse_items": 100,
    "legal_trade_act": 100,
    "giving_items": 100,
    "do_trade_act": 100,
}


def test_trade_matches_python(monkeypatch):
    """Random play: the phase opens, heroes are asked and pass (they seldom hold anything to give)."""
    shadows = _watch(monkeypatch, budgets=LEAST)
    play_out(range(15), max_turns=40, until=lambda: shadows.reached(**LEAST))
    shadows.check(**LEAST)


def _party(gear, dead=None) -> Game:
    """hero_0, hero_1, hero_2 at (1, 0), (2, 0), (4, 0) in corridor a of the test arena with
    ``gear`` ((hero, card) pairs), ``dead`` killed, at the start of the Trade phase (as in
    tests/test_rules_trade.py)."""
    g = arena(["corvin", "ysolde", "hob"])
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
    shadows = _watch(monkeypatch)
    g = _party(((0, "short_sword"), (1, "torch")))
    assert g.decision == (Decision.HERO_ACT, 0)
    for action in (ITEM_0, GIVE, TARGET_0 + 1, ITEM_0, GIVE, TARGET_0, END):
        g.apply(action)
    shadows.check(give_to=2, receivers=4, giving_items=3, legal_trade_act=3)
    assert shadows.by_case()["give"] == 2


def test_looting_matches_python(monkeypatch):
    """Random play seldom leaves a corpse with items beside a living hero out of combat: hero_1 lies
    dead in corridor a of the test arena with a sword and a torch (tests/test_rules_trade.py)."""
    shadows = _watch(monkeypatch)
    g = _party(((1, "short_sword"), (1, "torch"), (2, "battle_axe")), dead=1)
    assert g.decision == (Decision.HERO_ACT, 0)
    for action in (LOOT, TARGET_0 + 1, END, LOOT):  # hero_2 loots the one item left
        g.apply(action)
    shadows.check(loot=2, corpse_items=4, legal_trade_act=3, do_trade_act=3)
    assert shadows.by_case()["looted"] == 2


def test_trade_rule_positions_match_python(monkeypatch):
    """The hand-built positions of the trade rule tests, each call compared."""
    shadows = _watch(monkeypatch)
    assert run_rule_tests("test_rules_trade") >= 8
    shadows.check(begin_trade=5, give_to=3, loot=1, receivers=5, legal_trade_act=5)
