"""The core's port of engine/effects.py against the Python module (core_parity.shadow): the hooks at
the moments the engine calls them in random games over every adventure, and every effect kind
applied to every unit of positions those games reach."""

from __future__ import annotations

import random

from dungeon_env import _core
from dungeon_env.content.model import EFFECT_KINDS, Effect
from dungeon_env.engine import core as engine_core
from dungeon_env.engine import effects
from dungeon_env.engine.state import ACTIVE, EFFECT_SOURCE

from shadow_play import Shadows, games

core = _core.rules.effects

HOOKS = (
    "apply_effect",
    "tick",
    "fight_modifiers",
    "damage_of",
    "move_bonus",
    "check_modifiers",
    "spell_in_play",
    "asleep",
    "usable_now",
    "raise_light",
)


def _note(name):
    if name == "apply_effect":
        return lambda g, args, result: f"apply:{args[0].kind}"
    if name == "tick":
        return lambda g, args, result: "tick:rows" if g.state.effects else None
    if name == "fight_modifiers":
        return lambda g, args, result: "fight_modifiers:some" if result else None
    if name == "check_modifiers":
        return lambda g, args, result: "check_modifiers:some" if result else None
    if name == "asleep":
        return lambda g, args, result: "asleep:yes" if result else None
    return None


def test_the_hooks_match_python_where_the_engine_calls_them(monkeypatch):
    shadows = Shadows(budget=120)
    for name in HOOKS:
        wrapped = shadows.wrap(name, getattr(effects, name), getattr(core, name), _note(name))
        monkeypatch.setattr(effects, name, wrapped)
    for _ in games(12, max_turns=25):
        pass
    assert not shadows.failures, shadows.report()
    for name in ("apply_effect", "tick", "fight_modifiers", "damage_of", "move_bonus", "check_modifiers", "usable_now"):
        assert shadows.calls[name] > 0, name
    assert shadows.calls["apply_effect"] >= 20
    assert shadows.cases["tick:rows"] > 0
    assert shadows.cases["fight_modifiers:some"] > 0


def _positions(n_games: int, every: int):
    pick = random.Random(n_games)
    for game, _ in games(n_games, max_turns=30, offset=100):
        if pick.random() < 1 / every:
            yield game


def test_every_effect_kind_on_every_unit_matches_python():
    shadows = Shadows()
    kinds = [k for k in EFFECT_KINDS if k not in ("treasure", "revive")] + ["treasure"]
    checked = 0
    for game in _positions(8, every=60):
        s = game.state
        units = [u for u in range(64) if s.unit_status[u] == ACTIVE]
        for i, u in enumerate(units):
            kind = kinds[(checked + i) % len(kinds)]
            amount = 9 if kind == "damage" and i % 2 else 2  # some blows kill
            effect = Effect(kind, amount, i % 3)
            by = units[(i + 1) % len(units)] if i % 3 else -1
            source = ("spell:sleep", "item:healing_potion", "trap:pit", "event:hall")[i % 4]
            shadows.compare(
                "apply_effect",
                game,
                lambda t: effects.apply_effect(t, effect, source, u, by=by),
                lambda e: core.apply_effect(e, effect, source, u, by),
                (kind, u),
            )
            checked += 1
        shadows.compare("apply_effect", game, lambda t: effects.apply_effect(t, Effect("light", 3), "x", -1),
                        lambda e: core.apply_effect(e, Effect("light", 3), "x", -1))
    assert not shadows.failures, shadows.report()
    assert checked > 150


def test_the_look_ups_match_python_on_random_positions():
    shadows = Shadows(budget=10**6)
    bonus_kinds = ("fight_bonus", "move_bonus", "damage_bonus", "armour", "jump_bonus", "door_bonus",
                   "disarm_bonus", "detect_bonus", "identify_bonus")
    rows_seen = 0
    for game in _positions(6, every=60):
        s = game.state
        e = engine_core.engine(game)
        for u in range(64):
            if s.unit_status[u] != ACTIVE:
                continue
            assert effects.rows_of(game, u) == core.rows_of(e, u)
            assert effects.move_bonus(game, u) == core.move_bonus(e, u)
            assert effects.fight_modifiers(game, u) == core.fight_modifiers(e, u)
            assert effects.asleep(game, u) == core.asleep(e, u)
            for v in (-1, 0, s.n_heroes, u):
                assert effects.damage_of(game, u, v) == core.damage_of(e, u, v)
            for kind in bonus_kinds:
                assert [list(x) for x in effects.carried(game, u, kind)] == [list(x) for x in core.carried(e, u, kind)]
                assert [list(x) for x in effects.innate(game, u, kind)] == [list(x) for x in core.innate(e, u, kind)]
            for check in ("jump", "open_door", "disarm", "detect_traps", "room_detect", "identify", "other"):
                assert effects.check_modifiers(game, u, check) == core.check_modifiers(e, u, check)
            if u < s.n_heroes:
                shadows.compare("detect_traps_near", game,
                                lambda t: effects.detect_traps_near(t, u, 5, "spell:x"),
                                lambda e2: core.detect_traps_near(e2, u, 5, "spell:x"), (u,))
        for sp in range(len(game.spells)):
            assert effects.spell_in_play(game, sp) == core.spell_in_play(e, sp)
        for row in s.effects:
            assert effects.live(game, row) == core.live(e, row)
            assert effects.source_name(game, row[EFFECT_SOURCE]) == core.source_name(e, row[EFFECT_SOURCE])
            rows_seen += 1
    assert not shadows.failures, shadows.report()
    assert shadows.calls["detect_traps_near"] > 20
    assert rows_seen > 0


def test_sources_and_ability_codes_match_python():
    for game, _ in games(5, max_turns=1):
        e = engine_core.engine(game)
        assert effects.ability_codes(tuple(game.heroes)) == core.ability_codes(e)
        labels = ["effect", "nothing", "spell:", "trap:pit", "event:hall", "item:no_such"]
        labels += [f"spell:{sp.id}" for sp in game.spells]
        labels += [f"item:{it.id}" for it in game.item_cards]
        labels += [f"ability:{a.id}" for h in game.heroes for a in h.abilities]
        for label in labels:
            code = effects.source_code(game, label)
            assert code == core.source_code(e, label), label
            assert effects.source_name(game, code) == core.source_name(e, code), label
        break
