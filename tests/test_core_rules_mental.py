"""The core's port of engine/mental.py against the Python module (core_parity.shadow): the duel's
steps (start, bids, roll, the Mind Lash's outcome) where the engine makes them in random games over
every adventure, and the Mind Lash on every monster and every duel result of the positions reached."""

from __future__ import annotations

import random

from dungeon_env import _core
from dungeon_env.engine import mental
from dungeon_env.engine.state import ACTIVE
from tests.core_shadow import Shadows, play, play_out

core = _core.rules.mental

HOOKS = ("start", "do_bid", "roll", "lashers", "monster_attack")


def test_mental_combat_matches_python_where_the_engine_calls_it(monkeypatch):
    shadows = Shadows(budget=30)
    for name in HOOKS:
        shadows.hook(monkeypatch, mental, name, getattr(core, name))
    shadows.hook(monkeypatch, mental, "legal_bid", core.legal_bid)
    shadows.hook(monkeypatch, mental, "lash_lands", core.lash_lands, case=lambda g, m, h, result: result)
    # a Mind Lash needs the Warlock's Crypt's boss, which random play seldom meets: the positions of
    # the test below make every monster lash
    called = dict(start=1, do_bid=1, roll=1, lashers=1, legal_bid=1)
    play_out(range(30), max_turns=25, until=lambda: shadows.reached(**called))
    shadows.check(**called)


def test_duels_and_the_mind_lash_match_python_on_random_positions():
    shadows = Shadows(budget=10**6)
    pick = random.Random(2)
    enough = lambda: shadows.reached(lash_target=30, lash_lands=30, do_bid=60)  # noqa: E731
    for game, action in play(range(50, 60), max_turns=30, until=enough):
        if action is None or pick.random() > 0.03:
            continue
        s = game.state
        heroes = [u for u in range(s.n_heroes) if s.unit_status[u] == ACTIVE]
        monsters = [u for u in range(s.n_heroes, 64) if s.unit_status[u] == ACTIVE]
        shadows.compare("lashers", game, mental.lashers, core.lashers)
        for h in heroes:
            shadows.compare("legal_bid", game, mental.legal_bid, core.legal_bid, h, -1, -1)
        for m in pick.sample(monsters, min(2, len(monsters))):
            h = pick.choice(heroes)
            shadows.compare("lash_target", game, mental.lash_target, core.lash_target, m)
            shadows.compare("monster_attack", game, mental.monster_attack, core.monster_attack, m)
            result = pick.choice((1, 0, -1))
            shadows.compare("lash_lands", game, mental.lash_lands, core.lash_lands, m, h, result)
            # a duel, bid by bid: a hero's Mental Combat spell at the monster, or the monster's Mind Lash
            a, b, purpose = (
                (h, m, mental.PURPOSE_SPELL) if pick.random() < 0.5 else (m, h, mental.PURPOSE_LASH)
            )
            shadows.compare("start", game, mental.start, core.start, a, b, purpose)
            duel = game.copy()
            mental.start(duel, a, b, purpose)
            duel.state.stack.pop()
            a_bid = pick.choice(mental.legal_bid(duel, a, b, -1))
            shadows.compare("do_bid", duel, mental.do_bid, core.do_bid, a, b, -1, a_bid)
            mental.do_bid(duel, a, b, -1, a_bid)
            _, _, _, bid = duel.state.stack.pop()
            b_bid = pick.choice(mental.legal_bid(duel, b, a, bid))
            shadows.compare("do_bid", duel, mental.do_bid, core.do_bid, b, a, bid, b_bid)
    shadows.check(lash_target=30, lash_lands=30, do_bid=60)
