"""Spell and item cards: the bundled ``spells.toml`` / ``items.toml`` meet the content the rules
imply (checklist section D), and broken files fail loudly with file, key and reason.

Each broken-file test writes a variant of a bundled file into ``tmp_path`` and checks the
``ContentError`` message.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import dungeon_env.content
from dungeon_env.content import ContentError, load_heroes, load_items, load_spells
from dungeon_env.content.cards import check_starting_spells, parse_items
from dungeon_env.content.model import CASTING_TIMES, DECKS, EFFECT_KINDS

CONTENT = Path(dungeon_env.content.__file__).parent


# ------------------------------------------------------------------------------------ bundled spells


def test_bundled_spells_cover_what_the_rules_need():
    spells = load_spells()
    cards = list(spells.values())
    assert len(cards) >= 16
    assert {c.level for c in cards} == {1, 2, 3}
    assert {c.casting for c in cards} == set(CASTING_TIMES)
    assert sum(c.overcast is not None for c in cards) >= 8
    assert any(c.ongoing for c in cards)
    assert any(c.mental for c in cards)
    assert {c.mental_tie for c in cards if c.mental} == {"caster", "target"}
    assert any(c.effect.kind == "heal" for c in cards)
    assert any(c.effect.kind == "light" for c in cards)
    for c in cards:
        assert c.effect.kind in EFFECT_KINDS
        assert c.overcast is None or c.overcast.kind == c.effect.kind


def test_bundled_items_cover_the_five_decks():
    items = load_items()
    by_deck = Counter(c.deck for c in items.values())
    assert set(by_deck) == set(DECKS)
    assert by_deck["gear"] >= 8 and by_deck["potions"] >= 6 and by_deck["magic_items"] >= 8
    assert by_deck["treasure"] >= 1
    assert all(
        c.effect.kind == "treasure" and c.effect.amount > 0 for c in items.values() if c.deck == "treasure"
    )
    gear = [c for c in items.values() if c.deck == "gear"]
    assert any(c.effect.kind == "fight_bonus" and c.use == "passive" for c in gear)  # a weapon
    assert any(c.effect.kind == "damage_bonus" and c.use == "passive" for c in gear)
    assert any(c.effect.kind == "armour" for c in gear)
    assert any(c.effect.kind == "light" for c in gear)  # the torch
    assert "rope" in items
    potions = {c.effect.kind for c in items.values() if c.deck == "potions"}
    assert {"heal", "stamina", "magic"} <= potions
    magic = [c for c in items.values() if c.deck == "magic_items"]
    assert {c.use for c in magic} >= {"passive", "reusable"}
    revive = sorted(c.id for c in items.values() if c.effect is not None and c.effect.kind == "revive")
    assert revive == ["elixir_of_life", "holy_talisman"]
    assert all(items[i].timing == "campaign" for i in revive)


def test_one_scroll_per_spell():
    scrolls = Counter(c.spell for c in load_items().values() if c.deck == "spells")
    assert scrolls == Counter(set(load_spells()))
    assert all(c.face_down for c in load_items().values() if c.deck in ("potions", "spells", "magic_items"))


def test_bundled_starting_spells_fit_the_casters():
    check_starting_spells(load_heroes(), load_spells())


def test_starting_spells_checked(tmp_path):
    heroes, spells = load_heroes(), load_spells()
    orwin = heroes["orwin"]
    too_many = dict(heroes, orwin=type(orwin)(**{**vars(orwin), "spells": ("fire_burst", "sleep", "valor")}))
    with pytest.raises(
        ContentError, match=r"hero\[8\]\.spells: starting spells total level 7, above base magic 5"
    ):
        check_starting_spells(too_many, spells)
    unknown = dict(heroes, orwin=type(orwin)(**{**vars(orwin), "spells": ("fireball",)}))
    with pytest.raises(ContentError, match=r"hero\[8\]\.spells\[0\]: unknown spell 'fireball'"):
        check_starting_spells(unknown, spells)


def test_loading_is_cached_and_returns_copies():
    a, b = load_spells(), load_spells()
    assert a == b and a is not b
    assert load_items() == load_items()


# ------------------------------------------------------------------------------------ broken files


def _variant(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = (CONTENT / name).read_text()
    assert old in text, old
    path = tmp_path / f"broken_{name}"
    path.write_text(text.replace(old, new, 1))
    return path


def _expect(load, path: Path, key: str, reason: str) -> None:
    with pytest.raises(ContentError) as info:
        load(path)
    message = str(info.value)
    assert path.name in message, message
    assert f": {key}:" in message, message
    assert reason in message, message


BOLT = 'id = "arcane_bolt"'
SPELL_CASES = [
    ("unknown_key", "range = 6\n", "rnage = 6\n", "spell[0].rnage", "unknown key"),
    (
        "missing_key",
        'casting = "combat"\ntarget = "enemy"\nrange = 6\n',
        'target = "enemy"\nrange = 6\n',
        "spell[0].casting",
        "missing required key",
    ),
    ("level_range", "level = 1", "level = 4", "spell[0].level", "4 is out of range; expected 1..3"),
    ("level_type", "level = 1", 'level = "1"', "spell[0].level", "expected an integer, got str"),
    (
        "casting",
        'casting = "combat"',
        'casting = "always"',
        "spell[0].casting",
        "unknown casting time 'always'",
    ),
    ("target", 'target = "enemy"', 'target = "foe"', "spell[0].target", "unknown target 'foe'"),
    (
        "effect_kind",
        '{ kind = "damage", amount = 2 }',
        '{ kind = "fireball", amount = 2 }',
        "spell[0].effect.kind",
        "unknown effect kind 'fireball'",
    ),
    (
        "effect_not_for_spells",
        '{ kind = "damage", amount = 2 }',
        '{ kind = "treasure", amount = 2 }',
        "spell[0].effect.kind",
        "cannot be a spell's",
    ),
    (
        "effect_key",
        '{ kind = "damage", amount = 2 }',
        '{ kind = "damage", amont = 2 }',
        "spell[0].effect.amont",
        "unknown key",
    ),
    (
        "zero_amount",
        '{ kind = "damage", amount = 2 }',
        '{ kind = "damage" }',
        "spell[0].effect.amount",
        "needs a non-zero amount",
    ),
    (
        "instant_with_duration",
        '{ kind = "damage", amount = 2 }',
        '{ kind = "damage", amount = 2, duration = 2 }',
        "spell[0].effect.duration",
        "is instant",
    ),
    (
        "wrong_target_for_kind",
        'target = "enemy"\nrange = 6\neffect = { kind = "damage"',
        'target = "ally"\nrange = 6\neffect = { kind = "damage"',
        "spell[0].target",
        "targets enemy, not 'ally'",
    ),
    (
        "overcast_kind",
        'overcast = { kind = "damage", amount = 4 }',
        'overcast = { kind = "heal", amount = 4 }',
        "spell[0].overcast.kind",
        "stronger 'damage', not 'heal'",
    ),
    (
        "tie_without_mental",
        "range = 6\n",
        'range = 6\nmental_tie = "caster"\n',
        "spell[0].mental_tie",
        "only a Mental Combat spell",
    ),
    (
        "duplicate_id",
        'id = "healing_touch"',
        'id = "arcane_bolt"',
        "spell[1].id",
        "duplicate id 'arcane_bolt'",
    ),
    ("bad_toml", 'name = "Arcane Bolt"', "name = Arcane Bolt", "toml", "invalid TOML"),
    (
        "range_for_none",
        'target = "none"\nrange = 0',
        'target = "none"\nrange = 2',
        "spell[2].range",
        "has range 0",
    ),
    (
        "bonus_without_duration",
        '{ kind = "armour", amount = 1, duration = 2 }',
        '{ kind = "armour", amount = 1 }',
        "spell[4].effect.duration",
        "needs a duration",
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "key", "reason"), [c[1:] for c in SPELL_CASES], ids=[c[0] for c in SPELL_CASES]
)
def test_broken_spells(tmp_path, old, new, key, reason):
    _expect(load_spells, _variant(tmp_path, "spells.toml", old, new), key, reason)


def test_mental_tie_value(tmp_path):
    path = _variant(tmp_path, "spells.toml", 'mental_tie = "target"', 'mental_tie = "nobody"')
    _expect(load_spells, path, "spell[7].mental_tie", "unknown tie rule 'nobody'")


def test_mental_spell_must_target_an_enemy(tmp_path):
    path = _variant(tmp_path, "spells.toml", "range = 1\n", "range = 1\nmental = true\n")
    _expect(load_spells, path, "spell[1].mental", "targets an enemy")


ITEM_CASES = [
    ("unknown_key", 'deck = "treasure"', 'dek = "treasure"', "item[0].dek", "unknown key"),
    ("deck", 'deck = "treasure"', 'deck = "loot"', "item[0].deck", "unknown deck 'loot'"),
    ("use", 'use = "passive"', 'use = "wielded"', "item[0].use", "unknown use 'wielded'"),
    ("copies", "copies = 4", "copies = 9", "item[0].copies", "9 is out of range; expected 1..8"),
    (
        "treasure_value",
        '{ kind = "treasure", amount = 10 }',
        '{ kind = "treasure", amount = 0 }',
        "item[0].effect.amount",
        "0 is out of range",
    ),
    (
        "treasure_kind",
        '{ kind = "treasure", amount = 10 }',
        '{ kind = "heal", amount = 10 }',
        "item[0].effect.kind",
        "cannot be a treasure's",
    ),
    (
        "effect_kind",
        '{ kind = "fight_bonus", amount = 1 }',
        '{ kind = "sharpness", amount = 1 }',
        "item[4].effect.kind",
        "unknown effect kind 'sharpness'",
    ),
    (
        "passive_duration",
        '{ kind = "fight_bonus", amount = 1 }',
        '{ kind = "fight_bonus", amount = 1, duration = 2 }',
        "item[4].effect.duration",
        "while it is carried",
    ),
    (
        "passive_kind",
        '{ kind = "fight_bonus", amount = 1 }',
        '{ kind = "heal", amount = 1 }',
        "item[4].effect.kind",
        "cannot be carried",
    ),
    (
        "used_kind",
        '{ kind = "light", amount = 3 }',
        '{ kind = "damage", amount = 3 }',
        "item[8].effect.kind",
        "cannot be used",
    ),
    (
        "used_target",
        'target = "none"\neffect = { kind = "light", amount = 3 }',
        'target = "ally"\neffect = { kind = "light", amount = 3 }',
        "item[8].target",
        "targets none, not 'ally'",
    ),
    (
        "timing",
        'timing = "campaign"',
        'timing = "any"',
        "item[22].timing",
        "a revive item has timing 'campaign'",
    ),
    (
        "scroll_spell",
        'spell = "arcane_bolt"',
        'spell = "fireball"',
        "item[23].spell",
        "unknown spell 'fireball'",
    ),
    (
        "scroll_effect",
        'spell = "arcane_bolt"',
        'spell = "arcane_bolt"\neffect = { kind = "light", amount = 1 }',
        "item[23].effect",
        "a scroll has no own effect",
    ),
    (
        "spell_not_scroll",
        'effect = { kind = "treasure", amount = 10 }',
        'effect = { kind = "treasure", amount = 10 }\nspell = "sleep"',
        "item[0].spell",
        "only a scroll",
    ),
    (
        "missing_effect",
        'effect = { kind = "fight_bonus", amount = 1 }\ncopies = 2',
        "copies = 2",
        "item[4].effect",
        "missing required key",
    ),
    ("duplicate_id", 'id = "silver_chalice"', 'id = "gold_pouch"', "item[1].id", "duplicate id 'gold_pouch'"),
    (
        "used_bonus_no_duration",
        '{ kind = "fight_bonus", amount = 2, duration = 1 }',
        '{ kind = "fight_bonus", amount = 2 }',
        "item[18].effect.duration",
        "needs a duration",
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "key", "reason"), [c[1:] for c in ITEM_CASES], ids=[c[0] for c in ITEM_CASES]
)
def test_broken_items(tmp_path, old, new, key, reason):
    _expect(load_items, _variant(tmp_path, "items.toml", old, new), key, reason)


def test_a_deck_too_big_for_the_engine(tmp_path):
    text = (CONTENT / "items.toml").read_text()
    extra = "".join(
        f'\n[[item]]\nid = "coin_{i}"\nname = "Coin {i}"\ndeck = "treasure"\nuse = "passive"\n'
        f'effect = {{ kind = "treasure", amount = 1 }}\ncopies = 8\n'
        for i in range(8)
    )
    path = tmp_path / "big_items.toml"
    path.write_text(text + extra)
    _expect(load_items, path, "item", "deck 'treasure' has 72 cards; at most 64 fit")


def test_scrolls_are_checked_against_the_given_spells(tmp_path):
    spells = {k: v for k, v in load_spells().items() if k != "sleep"}
    with pytest.raises(ContentError, match=r"item\[\d+\]\.spell: unknown spell 'sleep'"):
        parse_items(CONTENT / "items.toml", spells)
