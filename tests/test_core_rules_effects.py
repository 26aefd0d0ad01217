"""The core's port of engine/effects.py against the Python module (core_parity.shadow): the hooks at
the moments the engine calls them in random games over every adventure, and every effect kind
applied to every unit of positions those games reach."""

from __future__ import annotations

import random

from dungeon_env import _core
from dungeon_env.content.model import EFFECT_KINDS, Effect
from dungeon_env.core_parity import _plain
from dungeon_env.engine import effects
from dungeon_env.engine.state import ACTIVE, EFFECT_SOURCE
from tests.core_shadow import Shadows, engine, play_out, positions

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


CASES = {
    "apply_effect": lambda g, effect, *rest, **kw: effect.kind,
    "tick": lambda g: "rows" if g.state.effects else "none",
}


def test_the_hooks_match_python_where_the_engine_calls_them(monkeypatch):
    shadows = Shadows(budget=40)
    for name in HOOKS:
        shadows.hook(monkeypatch, effects, name, getattr(core, name), case=CASES.get(name))
    called = {
        name: 1 for name in HOOKS if name not in ("spell_in_play", "asleep")
    }  # the tests below ask these

    def done():
        reached = shadows.reached(**called) and shadows.calls["apply_effect"] >= 20
        return reached and shadows.cases["tick", "rows"] > 0 and shadows.results["fight_modifiers", True] > 0

    play_out(range(20), max_turns=25, until=done)
    shadows.check(**called)
    assert done(), (shadows.calls, shadows.cases, shadows.results)


def test_every_effect_kind_on_every_unit_matches_python():
    shadows = Shadows()
    kinds = [k for k in EFFECT_KINDS if k not in ("treasure", "revive")] + ["treasure"]
    checked = 0
    for game in positions(range(100, 108), every=80):
        if checked > 150:  # every kind on 10 units at least
            break
        s = game.state
        units = [u for u in range(64) if s.unit_status[u] == ACTIVE]
        for i, u in enumerate(units):
            kind = kinds[(checked + i) % len(kinds)]
            amount = 9 if kind == "damage" and i % 2 else 2  # some blows kill
            effect = Effect(kind, amount, i % 3)
            by = units[(i + 1) % len(units)] if i % 3 else -1
            source = ("spell:sleep", "item:healing_potion", "trap:pit", "event:hall")[i % 4]
            shadows.compare(
                "apply_effect", game, effects.apply_effect, core.apply_effect, effect, source, u, by
            )
            checked += 1
        dark = game.copy()  # Light raised from 0: in the Heroes' Movement the dark's penalty lifts at once
        dark.state.light = 0
        for position in (game, dark):
            light = Effect("light", 3)
            shadows.compare(
                "apply_effect", position, effects.apply_effect, core.apply_effect, light, "item:torch", -1
            )
    shadows.check()
    assert checked > 150


def test_the_look_ups_match_python_on_random_positions():
    shadows = Shadows(budget=10**6)
    bonus_kinds = [k for k in EFFECT_KINDS if k.endswith("_bonus") or k == "armour"]
    rows_seen = found = 0
    for game in positions(range(100, 106), every=60, bold=True):
        s = game.state
        e = engine(game)
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
                assert _plain(effects.carried(game, u, kind)) == _plain(core.carried(e, u, kind))
                assert _plain(effects.innate(game, u, kind)) == _plain(core.innate(e, u, kind))
            for check in ("jump", "open_door", "disarm", "detect_traps", "room_detect", "identify", "other"):
                assert effects.check_modifiers(game, u, check) == core.check_modifiers(e, u, check)
            if u < s.n_heroes:
                found += bool(effects.detect_traps_near(game.copy(), u, 5, "spell:x"))
                near = (effects.detect_traps_near, core.detect_traps_near)
                shadows.compare("detect_traps_near", game, *near, u, 5, "spell:x")
        for sp in range(len(game.spells)):
            assert effects.spell_in_play(game, sp) == core.spell_in_play(e, sp)
        for row in s.effects:
            assert effects.live(game, row) == core.live(e, row)
            assert effects.source_name(game, row[EFFECT_SOURCE]) == core.source_name(e, row[EFFECT_SOURCE])
            rows_seen += 1
    shadows.check()
    assert shadows.calls["detect_traps_near"] > 20
    assert found >= 10
    assert rows_seen > 0


def test_sources_and_ability_codes_match_python():
    for game in positions(range(1), every=1, max_turns=1):
        e = engine(game)
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


def _bonuses(g, units, n_spells):
    per_unit = [
        (
            effects.fight_modifiers(g, u),
            effects.damage_of(g, u, units[0]),
            effects.move_bonus(g, u),
            effects.asleep(g, u),
            effects.rows_of(g, u),
        )
        for u in units
    ]
    return per_unit, [effects.spell_in_play(g, sp) for sp in range(n_spells)]


def _core_bonuses(e, units, n_spells):
    per_unit = [
        (
            core.fight_modifiers(e, u),
            core.damage_of(e, u, units[0]),
            core.move_bonus(e, u),
            core.asleep(e, u),
            core.rows_of(e, u),
        )
        for u in units
    ]
    return per_unit, [core.spell_in_play(e, sp) for sp in range(n_spells)]


def test_lasting_effects_count_down_and_give_their_bonuses_as_in_python():
    """Positions of random games given lasting effects of every source (spell, item, ability, trap)
    on their units, some of them then slain (void rows): the bonuses, sleep, the recast ban and
    each Turn End's count-down."""
    shadows = Shadows(budget=10**6)
    pick = random.Random(4)
    kinds = ("fight_bonus", "move_bonus", "damage_bonus", "armour", "sleep")
    ended = 0
    for n, game in enumerate(positions(range(100, 106), every=80)):
        if n == 25:
            break
        twin = game.copy()
        s = twin.state
        units = [u for u in range(64) if s.unit_status[u] == ACTIVE]
        sources = [f"spell:{sp.id}" for sp in twin.spells] + [f"item:{it.id}" for it in twin.item_cards]
        sources += [f"ability:{a.id}" for h in twin.heroes for a in h.abilities] + ["trap:pit", "event:hall"]
        for _ in range(6):
            effect = Effect(pick.choice(kinds), pick.randint(1, 3), pick.randint(0, 2))
            effects.add_lasting(twin, effect, pick.choice(sources), pick.choice(units))
        monsters = [u for u in units if u >= s.n_heroes]
        if monsters:  # a slain monster's rows are void
            effects.apply_effect(twin, Effect("damage", 99), "trap:pit", pick.choice(monsters))
        for _ in range(3):
            shadows.compare("bonuses", twin, _bonuses, _core_bonuses, units, len(twin.spells))
            shadows.compare("tick", twin, effects.tick, core.tick)
            start = twin.n_events
            effects.tick(twin)
            ended += sum(ev["type"] == "effect_ends" for ev in twin.events_since(start))
    shadows.check()
    assert shadows.calls["tick"] == 75
    assert ended >= 50
