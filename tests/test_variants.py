"""Rule and content variants (issue 6): parsing and every kind of error, files, the effect of each
kind of key on the game it names, and JSON / save / replay / env round trips.

Rule tests use the test arena (``tests/data/arena.toml``: no monsters, no patrol) with the heroes
corvin (agile), ysolde (agile, perceptive) and hob (agile, iron-willed) unless they say otherwise;
rolls are scripted with ``dice.force``.
"""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path

import numpy as np
import pytest

import dungeon_env
from dungeon_env import replay
from dungeon_env.content import Variant, VariantError, load_heroes, load_items, load_monsters, load_spells
from dungeon_env.content.rules import BASE_RULES, MAX_ITEMS_HELD, MAX_SPELLS_KNOWN, MAX_SPEND, RULE_KEYS
from dungeon_env.content.variants import ListEdit, key_specs, keys_markdown
from dungeon_env.engine import (
    Game,
    Phase,
    actions,
    combat,
    encounters,
    explore,
    inventory,
    items,
    mental,
    movement,
    traps,
    units,
)
from dungeon_env.engine import spells as spell_rules
from dungeon_env.engine.actions import DISARM_N, END, MOVE_ACTIONS, SPEND_0
from dungeon_env.engine.state import How
from tests.builders import ARENA, add_monster, arena_variant, enter_phase, events, give_item, place, rolls

PLAIN = ["corvin", "ysolde", "hob"]
DOC = Path(__file__).resolve().parent.parent / "docs" / "VARIANTS.md"


def game(variant=None, heroes=None, adventure=ARENA, seed: int = 0) -> Game:
    return Game.new(adventure=adventure, heroes=heroes or PLAIN, seed=seed, variant=variant)


def v(*entries: str, name: str | None = None) -> Variant:
    return Variant.parse(list(entries), name=name)


def random_game(variant=None, seed: int = 3, adventure: str = "goblin_warrens", max_turns: int = 25) -> Game:
    g = Game.new(adventure=adventure, heroes=4, seed=seed, max_turns=max_turns, variant=variant)
    rng = random.Random(seed)
    while not g.over:
        g.apply(rng.choice(g.legal_actions()))
    return g


# ------------------------------------------------------------------------------------------ parsing


def test_parse_normalises_and_types_the_overrides():
    var = v("light.start=15", " monsters.orc.fight = 3 ", "heroes.bram.traits=+perceptive", name="light15")
    assert var.name == "light15" and bool(var)
    assert var.overrides == {
        "heroes.bram.traits": ListEdit(add=("perceptive",)),
        "light.start": 15,
        "monsters.orc.fight": 3,
    }
    assert var.to_args() == ["heroes.bram.traits=+perceptive", "light.start=15", "monsters.orc.fight=3"]
    assert Variant.parse(var.to_args(), name="light15") == var
    assert var.rules.light_start == 15 and var.rules.light_max == BASE_RULES.light_max


def test_the_base_variant():
    base = Variant()
    assert base == Variant.base() == Variant.parse([]) == Variant({})
    assert not base and base.name == "base" and base.overrides == {}
    assert base.rules == BASE_RULES
    content = base.content()
    assert content.heroes == load_heroes() and content.monsters == load_monsters()
    assert content.spells == load_spells() and content.items == load_items()


def test_default_name_lists_the_overrides():
    assert v("light.start=15", "rules.patrol_max=2").name == "light.start=15 rules.patrol_max=2"


def test_equality_and_hashing():
    a = v("light.start=15", "heroes.bram.traits=+agile,+perceptive", name="x")
    b = v("heroes.bram.traits=+perceptive,+agile", "light.start=15", name="x")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != v("light.start=15", "heroes.bram.traits=+agile,+perceptive", name="y")  # names differ
    assert a != v("light.start=16", "heroes.bram.traits=+agile,+perceptive", name="x")
    assert {a: 1}[b] == 1


def test_list_values_add_remove_and_replace():
    var = v(
        "heroes.bram.traits=+agile,-iron_willed",
        "heroes.sela.traits=perceptive,learned",
        "heroes.corvin.traits=",
        "monsters.goblin.abilities=+mental_combat",
    )
    heroes, monsters = var.content().heroes, var.content().monsters
    assert heroes["bram"].traits == ("strong", "agile")
    assert heroes["sela"].traits == ("perceptive", "learned")
    assert heroes["corvin"].traits == ()
    assert monsters["goblin"].abilities == ("mental_combat",)
    assert str(var.overrides["heroes.bram.traits"]) == "+agile,-iron_willed"
    assert str(var.overrides["heroes.corvin.traits"]) == ""


def test_a_list_key_given_twice_applies_in_order_and_cancels_out():
    assert v("heroes.bram.traits=+agile", "heroes.bram.traits=+perceptive").overrides == {
        "heroes.bram.traits": ListEdit(add=("agile", "perceptive"))
    }
    assert not v("heroes.bram.traits=-strong", "heroes.bram.traits=+strong")
    replaced = v("heroes.bram.traits=agile", "heroes.bram.traits=+learned")
    assert replaced.content().heroes["bram"].traits == ("agile", "learned")


def test_an_int_key_twice_with_the_same_value_is_fine():
    assert v("light.start=15", "light.start=15") == v("light.start=15")


def test_the_mapping_constructor_takes_typed_or_text_values():
    a = Variant({"light.start": 15, "heroes.bram.traits": ["strong", "agile"]}, name="m")
    b = Variant({"light.start": "15", "heroes.bram.traits": "agile,strong"}, name="m")
    assert a == b and a.content().heroes["bram"].traits == ("strong", "agile")


def test_merged_other_wins_and_list_edits_compose():
    common = v("light.start=15", "heroes.bram.traits=+agile", name="common")
    arm = v("light.start=12", "heroes.bram.traits=+perceptive", "rules.patrol_max=2", name="arm")
    both = common.merged(arm)
    assert both.name == "common+arm"
    assert both.overrides["light.start"] == 12 and both.overrides["rules.patrol_max"] == 2
    assert both.content().heroes["bram"].traits == ("strong", "iron_willed", "agile", "perceptive")
    assert Variant().merged(arm) == arm and arm.merged(Variant()) == arm
    with pytest.raises(VariantError, match="light.start=25, light.max=20"):
        v("light.max=30").merged(v("light.start=25")).merged(v("light.max=20"))


def test_to_json_and_from_json_round_trip():
    var = v("light.start=15", "heroes.bram.traits=+agile,-iron_willed", "heroes.sela.traits=", name="x")
    data = json.loads(json.dumps(var.to_json()))
    assert data == {
        "name": "x",
        "set": {"heroes.bram.traits": "+agile,-iron_willed", "heroes.sela.traits": "", "light.start": 15},
    }
    assert Variant.from_json(data) == var


def test_coerce_takes_what_the_env_takes(tmp_path):
    path = tmp_path / "dark.toml"
    path.write_text('[set]\n"light.start" = 12\n')
    var = v("light.start=12")
    assert Variant.coerce(None) == Variant()
    assert Variant.coerce(var) is var
    assert Variant.coerce(["light.start=12"]) == var and Variant.coerce("light.start=12") == var
    assert Variant.coerce(var.to_json()) == var
    assert Variant.coerce(path).overrides == var.overrides and Variant.coerce(str(path)).name == "dark"
    with pytest.raises(VariantError, match="expected None, a Variant, a list"):
        Variant.coerce(3)


# ------------------------------------------------------------------------------------------ errors

ERRORS = [
    # malformed entries
    (["light.start15"], "malformed entry 'light.start15': expected key=value, e.g. light.start=15"),
    (["=3"], "malformed entry '=3': expected key=value"),
    ([7], "7: expected a 'key=value' string"),
    # unknown keys and ids, with the valid choices or close matches
    (["lite.start=1"], "lite.start: unknown key; did you mean light.start?"),
    (
        ["foo.bar=1"],
        "foo.bar: unknown section 'foo'; expected one of: light, rules, heroes, monsters, spells",
    ),
    (["rules.surprise=1"], "rules.surprise: unknown key; .* did you mean surprise_max\\?"),
    (
        ["light.strat=1"],
        "light.strat: unknown key; .*start, max, per_turn, dark_penalty; did you mean start\\?",
    ),
    (["heroes.dwarf.fight=3"], "heroes.dwarf.fight: unknown hero id 'dwarf'; expected one of: bram, tovar"),
    (["monsters.ork.fight=3"], "monsters.ork.fight: unknown monster id 'ork'; .* did you mean orc\\?"),
    (
        ["heroes.bram.fihgt=3"],
        "heroes.bram.fihgt: unknown field 'fihgt' of hero 'bram'; expected one of: move",
    ),
    (["heroes.bram=3"], "heroes.bram: expected heroes.<id>.<field>, e.g. heroes.bram.move"),
    (
        ["items.torch.effect.duration=2"],
        "unknown field 'effect.duration' of item 'torch'; .*copies, effect.amount",
    ),
    (["spells.far_sight.overcast.amount=3"], "spells.far_sight.overcast.amount: unknown field"),
    (["adventures.nowhere.difficulty=3"], "unknown adventure id 'nowhere'; expected one of: "),
    # ill-typed or out-of-range values
    (["monsters.orc.fight=abc"], "monsters.orc.fight='abc': expected an integer in 0..12"),
    (["heroes.bram.fight=7.5"], "heroes.bram.fight='7.5': expected an integer in 3..7"),
    (["light.start="], "light.start='': expected an integer in 0..99"),
    (["heroes.bram.health=0"], "heroes.bram.health=0: out of range; expected an integer in 5..12"),
    (["heroes.bram.fight=8"], "heroes.bram.fight=8: out of range; expected an integer in 3..7"),
    (["rules.max_items=13"], "rules.max_items=13: out of range; expected an integer in 1..12"),
    (["items.torch.copies=0"], "items.torch.copies=0: out of range; expected an integer in 1..8"),
    # list values
    (
        ["heroes.bram.traits=+perceptiv"],
        "unknown trait 'perceptiv'; expected one of: strong, agile.*did you mean",
    ),
    (
        ["heroes.bram.traits=+agile,strong"],
        "heroes.bram.traits='\\+agile,strong': mixes edits and a replacement",
    ),
    (["heroes.bram.traits=agile,agile"], "heroes.bram.traits='agile,agile': an entry is given twice"),
    (
        ["heroes.bram.traits=+strong"],
        "heroes.bram.traits='\\+strong': bram already has 'strong'; it has strong",
    ),
    (
        ["heroes.bram.traits=-agile"],
        "heroes.bram.traits='-agile': bram has no 'agile'; it has strong, iron_willed",
    ),
    (["monsters.orc.abilities=+mind"], "unknown ability 'mind'; expected one of: mental_combat"),
    (["heroes.orwin.spells=+fire_brust"], "unknown spell 'fire_brust'; .*did you mean fire_burst\\?"),
    # keys together
    (["light.start=3", "light.start=4"], "light.start='4': given twice with different values \\(3 first\\)"),
    (["light.start=25"], "light.start=25, light.max=20: light.start must be at most light.max"),
    (["rules.door_alert_max=5"], "rules.door_alert_max=5, rules.door_open_min=5: .* must be below"),
    (["rules.identify_min=1"], "rules.identify_never_max=1, rules.identify_min=1"),
    # the content files' own validation
    (["heroes.orwin.magic=2"], "heroes.orwin.magic=2: a caster needs base magic >= 3"),
    (["heroes.orwin.magic=3"], "heroes.orwin.magic=3: starting spells total level 4, above base magic 3"),
    (["spells.sleep.level=3", "heroes.orwin.magic=4"], "starting spells total level"),
    (["heroes.bram.spells=+sleep"], "heroes.bram.spells='\\+sleep': only the two casters"),
    (["heroes.tovar.traits=-strong", "heroes.gunnhild.traits=-strong"], "trait 'strong' is held by 1 hero"),
    (["spells.sleep.effect.duration=0"], "spells.sleep.effect.duration=0: a sleep effect needs a duration"),
    (["items.healing_potion.copies=8", "items.greater_healing_potion.copies=8"], None),  # fits
    (
        ["spells.arcane_bolt.range=13"],
        "spells.arcane_bolt.range=13: out of range; expected an integer in 0..12",
    ),
]


@pytest.mark.parametrize(("entries", "message"), ERRORS, ids=[" ".join(map(str, e)) for e, _ in ERRORS])
def test_every_mistake_is_a_variant_error_that_says_what_is_expected(entries, message):
    if message is None:
        Variant.parse(entries)
        return
    with pytest.raises(VariantError, match=message):
        Variant.parse(entries)


def test_variant_error_is_a_value_error():
    assert issubclass(VariantError, ValueError)


def test_bad_names_and_shapes():
    with pytest.raises(VariantError, match="name=''"):
        Variant(name="")
    with pytest.raises(VariantError, match="name=3: expected a non-empty string"):
        Variant.from_json({"name": 3, "set": {}})
    with pytest.raises(VariantError, match="expected a mapping"):
        Variant(["light.start=3"])
    with pytest.raises(VariantError, match="expected a list of 'key=value' strings"):
        Variant.parse({"light.start": 3})
    with pytest.raises(VariantError, match="unknown top-level key 'sets'"):
        Variant.from_json({"sets": {}})
    with pytest.raises(VariantError, match="set: expected a table"):
        Variant.from_json({"set": 3})
    with pytest.raises(VariantError, match="light.start=True: expected an integer"):
        Variant({"light.start": True})
    with pytest.raises(VariantError, match="heroes.bram.traits=3: expected a list of strong"):
        Variant({"heroes.bram.traits": 3})


def test_a_deck_too_big_for_the_engine_is_refused():
    too_many = [f"items.{i}.copies=8" for i, c in load_items().items() if c.deck == "potions"]
    with pytest.raises(VariantError, match="deck 'potions' has .* cards; at most 64 fit"):
        Variant.parse(too_many)


# ------------------------------------------------------------------------------------------ files


def test_from_file_reads_dotted_keys_nested_tables_and_arrays(tmp_path):
    path = tmp_path / "darker.toml"
    path.write_text(
        'name = "darker"\n'
        "[set]\n"
        '"light.start" = 15\n'
        "rules.deaths_door_max = 2\n"
        '"heroes.bram.traits" = "+perceptive"\n'
        "[set.monsters.orc]\n"
        "fight = 4\n"
        "abilities = []\n"
        "[set.heroes.sela]\n"
        'traits = ["learned", "perceptive"]\n'
    )
    var = Variant.from_file(path)
    assert var == v(
        "light.start=15",
        "rules.deaths_door_max=2",
        "heroes.bram.traits=+perceptive",
        "monsters.orc.fight=4",
        "monsters.orc.abilities=",
        "heroes.sela.traits=perceptive,learned",
        name="darker",
    )
    unnamed = tmp_path / "plain.toml"
    unnamed.write_text("[set]\nlight.max = 25\n")
    assert Variant.from_file(unnamed).name == "plain"
    assert Variant.from_file(_write(tmp_path, "empty.toml", "")) == Variant(name="empty")


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def test_file_errors_name_the_file_and_the_key(tmp_path):
    bad = _write(tmp_path, "bad.toml", '[set]\n"light.start" = 200\n')
    with pytest.raises(
        VariantError, match=r"bad.toml: light.start=200: out of range; expected an integer in 0..99"
    ):
        Variant.from_file(bad)
    twice = _write(tmp_path, "twice.toml", '[set]\n"light.start" = 1\n[set.light]\nstart = 2\n')
    with pytest.raises(VariantError, match="twice.toml: light.start: given twice"):
        Variant.from_file(twice)
    broken = _write(tmp_path, "broken.toml", "[set\n")
    with pytest.raises(VariantError, match="broken.toml: invalid TOML"):
        Variant.from_file(broken)
    extra = _write(tmp_path, "extra.toml", 'nmae = "x"\n')
    with pytest.raises(VariantError, match="extra.toml: unknown top-level key 'nmae'"):
        Variant.from_file(extra)
    with pytest.raises(VariantError, match="missing.toml: cannot read the variant file"):
        Variant.from_file(tmp_path / "missing.toml")


# ------------------------------------------------------------------------------------------ the base rules


def test_the_base_variant_plays_the_identical_game():
    plain = random_game(None)
    assert random_game(Variant()).events == plain.events
    assert random_game(Variant(name="control")).events == plain.events
    assert len(plain.events) > 300


def test_a_variant_keeps_the_dice_streams_common_random_numbers():
    """Same seed, any variant: the same streams with the same seeds (only what is drawn differs)."""
    base = Game(ARENA, PLAIN, 11, 50)
    for var in (
        v("light.start=5"),
        v("items.torch.copies=8", "monsters.orc.fight=9"),
        v("rules.patrol_max=6"),
    ):
        assert Game(ARENA, PLAIN, 11, 50, var).dice.to_json() == base.dice.to_json()
    changed = game(v("light.start=5", "rules.surprise_max=0"), seed=11)
    assert changed.dice.to_json() == game(seed=11).dice.to_json()  # set-up draws the same dice


def test_rules_constants_match_the_action_table():
    assert MAX_ITEMS_HELD == actions.MAX_ITEMS_HELD and MAX_SPELLS_KNOWN == actions.MAX_SPELLS_KNOWN
    assert len(actions.SPEND_ACTIONS) - 1 == MAX_SPEND


# ------------------------------------------------------------------------------------------ light


def test_light_start_sets_the_starting_light_and_the_setup_event():
    g = game(v("light.start=15"))
    assert g.state.light == 15 and g.events[0]["type"] == "setup" and g.events[0]["light"] == 15
    _next_turn(g)
    assert events(g, "light")[-1]["light"] == 14 and g.state.light == 14


def _next_turn(g: Game) -> None:
    turn = g.state.turn
    while g.state.turn == turn and not g.over:
        legal = g.legal_actions()
        g.apply(END if END in legal else legal[0])


def test_light_per_turn_is_the_light_lost_at_turn_end():
    g = game(v("light.per_turn=3"))
    _next_turn(g)
    assert g.state.light == 17 and events(g, "light")[-1]["light"] == 17
    g = game(v("light.per_turn=0"))
    _next_turn(g)
    assert g.state.light == 20


def test_light_max_caps_raised_light():
    from dungeon_env.engine import effects

    for var, expected in ((None, 20), (v("light.max=25"), 25), (v("light.max=22"), 22)):
        g = game(var)
        effects.raise_light(g, 10, "test")
        assert g.state.light == expected and events(g, "light_raised")[-1]["light"] == expected


def test_light_dark_penalty_applies_at_light_zero():
    for var, penalty in ((None, 1), (v("light.dark_penalty=2"), 2), (v("light.dark_penalty=0"), 0)):
        g = game(var)
        g.state.light = 0
        mods = combat.hero_modifiers(g, 0, 1, 0)
        assert mods.get("light", 0) == -penalty
        assert traps._detect_modifiers(g, 0).get("light", 0) == -penalty
        g.dice.force(6)
        encounters._surprise_roll(g, 0, ambush=False)
        assert rolls(g, "surprise")[-1]["modifiers"].get("light", 0) == -penalty
        enter_phase(g, Phase.HERO_MOVEMENT)
        assert int(g.state.move_left[0]) == g.heroes[g.state.unit_card[0]].move - penalty


# ------------------------------------------------------------------------------------------ d6 bands


def _surprise(g):
    encounters._surprise_roll(g, 0, ambush=False)  # corvin: no modifiers


def _ambush(g):
    encounters._surprise_roll(g, 0, ambush=True)


def _patrol(g):
    g.state.turn = 2
    g.state.patrol_corridors[int(g.tables.area[g.state.unit_pos[0]])] = True
    encounters.roll_patrols(g)


def _deaths_door(g):
    units.deaths_door_roll(g, 0)


def _door(g):
    movement._open_door(g, 0, 0)  # corvin is not Strong


def _jump(g):
    place(g, 0, 8, 9)  # west of the table at (9, 9); corvin is Agile: +1
    g.state.move_left[0] = 5
    movement._jump(g, 0, 1)


def _identify(g):
    items.identify(g, 0, give_item(g, 0, "ring_of_valor"))


def _room_detect(g):
    traps.room_detect(g, 0, int(g.tables.area[g.state.unit_pos[0]]))


def _trait_check(g):
    explore.trait_check(g, 0, "strong")


def _overcast(g):
    spell_rules.backlash(g, 0, g.spell_index["arcane_bolt"], -1)


TRAP = '[[trap]]\nat = [2, 13]\nname = "dart"\neffect = { kind = "damage", amount = 1 }\n'


def _disarm(g):
    place(g, 0, 1, 13)
    g.state.trap_detected[0] = True
    traps.do_disarm(g, 0, -1, -1, DISARM_N + 1)  # east


# (key, value, check, trigger, die, result with the base rules, result with the variant)
BANDS = [
    ("rules.surprise_max", 3, "surprise", _surprise, 3, "ready", "surprised"),
    ("rules.ambush_ready_min", 5, "ambush_surprise", _ambush, 5, "surprised", "ready"),
    ("rules.patrol_max", 2, "patrol", _patrol, 2, "none", "appears"),
    ("rules.deaths_door_max", 4, "deaths_door", _deaths_door, 4, "survives", "dies"),
    ("rules.door_open_min", 4, "open_door", _door, 4, "failed", "opened"),
    ("rules.door_alert_max", 3, "open_door", _door, 3, "failed", "failed_alert"),
    ("rules.jump_min", 3, "jump", _jump, 2, "fail", "success"),
    ("rules.disarm_min", 3, "disarm", _disarm, 3, "failed", "disarmed"),
    ("rules.disarm_spring_max", 2, "disarm", _disarm, 2, "failed", "sprung"),
    ("rules.identify_min", 3, "identify", _identify, 3, "not_yet", "identified"),
    ("rules.identify_never_max", 2, "identify", _identify, 2, "not_yet", "never"),
    ("rules.room_detect_min", 3, "room_detect", _room_detect, 3, "fail", "success"),
    ("rules.trait_check_min", 3, "trait_check", _trait_check, 3, "fail", "success"),
    ("rules.overcast_safe_min", 5, "overcast", _overcast, 5, "wound", "none"),
    ("rules.overcast_forget_max", 2, "overcast", _overcast, 2, "wound", "forget"),
]


@pytest.mark.parametrize(
    ("key", "value", "check", "trigger", "die", "base", "changed"), BANDS, ids=[b[0] for b in BANDS]
)
def test_a_band_key_moves_the_band_of_its_check(tmp_path, key, value, check, trigger, die, base, changed):
    adventure = ARENA
    if check == "patrol":
        adventure = "flooded_cellar"
    elif check == "disarm":
        adventure = arena_variant(tmp_path, "trap_arena", TRAP)
    results = []
    for var in (None, Variant.parse([f"{key}={value}"])):
        g = game(var, adventure=adventure)
        g.dice.force(die)
        trigger(g)
        results.append(rolls(g, check)[-1]["result"])
    assert results == [base, changed]


def test_a_patrol_max_of_zero_still_rolls_the_die():
    g = game(v("rules.patrol_max=0"), adventure="flooded_cellar")
    g.dice.force(1)
    _patrol(g)
    assert rolls(g, "patrol")[-1]["result"] == "none" and rolls(g, "patrol")[-1]["dice"] == [1]


def test_a_patrol_board_max_pauses_the_patrol_rolls_while_that_many_patrol_monsters_are_on_the_board():
    """``rules.patrol_board_max=2`` on flooded_cellar (a Patrol of two goblin scouts): a Patrol
    appears on a 1; while its two monsters live there is no roll at all; once one is slain the rolls
    come back. With the rules as written (0) every Turn Start rolls."""
    appeared = []
    for var in (None, v("rules.patrol_board_max=2")):
        g = game(var, adventure="flooded_cellar")
        for _ in range(2):
            g.dice.force(1)
            _patrol(g)
        appeared.append([r["result"] for r in rolls(g, "patrol")])
        if var is not None:
            assert encounters.patrol_monsters_on_board(g) == 2
            scout = next(
                u for u in range(g.state.n_heroes, len(g.state.unit_how)) if g.state.unit_how[u] == How.PATROL
            )
            units.slay_monster(g, scout, ["hero_0"])
            g.dice.force(1)
            _patrol(g)
            appeared.append([r["result"] for r in rolls(g, "patrol")])
    assert appeared == [["appears", "appears"], ["appears"], ["appears", "appears"]]


# ------------------------------------------------------------------------------------------ other rules


def _turn_start(g: Game) -> None:
    enter_phase(g, Phase.TURN_START)


def test_recovery_keys():
    heroes = ["ilsabet", "corvin", "hob"]  # ilsabet is Learned (base magic 2); corvin is not (magic 1)
    var = v(
        "rules.recover_stamina=2", "rules.rest_stamina=4", "rules.rest_magic=0", "rules.rest_magic_learned=1"
    )
    for variant, (tired, rested, learned_magic, plain_magic) in ((None, (1, 2, 2, 1)), (var, (2, 4, 1, 0))):
        g = game(variant, heroes=heroes)
        g.state.stamina[:3] = 0
        g.state.magic[:3] = 0
        g.state.rested_last[:2] = True  # ilsabet and corvin rested, hob did not
        _turn_start(g)
        assert [int(g.state.stamina[u]) for u in range(3)] == [rested, rested, tired]
        assert [int(g.state.magic[u]) for u in range(2)] == [learned_magic, plain_magic]


def test_enemy_penalty_scales_the_multi_enemy_modifier():
    for variant, expected in (
        (None, -2),
        (v("rules.enemy_penalty=2"), -4),
        (v("rules.enemy_penalty=0"), None),
    ):
        g = game(variant)
        m = add_monster(g, "orc", 10, 20)
        assert combat.hero_modifiers(g, 0, 3, 0).get("enemies") == expected
        assert combat.monster_modifiers(g, m, 3, 0).get("enemies") == expected


def test_stamina_and_magic_limits():
    g = game(v("rules.fight_stamina_max=1", "rules.move_stamina_max=1", "rules.mental_bid_max=2"))
    base = game()
    for h in (g, base):
        h.state.stamina[0] = h.state.magic[0] = 5
    assert combat.legal_fight_stamina(g, 0) == [SPEND_0, SPEND_0 + 1]
    assert combat.legal_fight_stamina(base, 0) == [SPEND_0 + k for k in range(4)]
    assert mental.legal_bid(g, 0, -1, -1) == [SPEND_0 + k for k in range(3)]
    assert mental.legal_bid(base, 0, -1, -1) == [SPEND_0 + k for k in range(4)]
    g.state.move_bought[0] = base.state.move_bought[0] = 1
    assert not movement.can_buy_move(g, 0) and movement.can_buy_move(base, 0)


def test_evade_cost():
    for variant, cost in ((None, 2), (v("rules.evade_cost=3"), 3)):
        g = game(variant)
        place(g, 0, 10, 20)
        g.state.stamina[0] = 3
        able = movement.legal_evade(g, 0)
        assert any(a in MOVE_ACTIONS for a in able)
        g.state.stamina[0] = cost - 1
        assert not any(a in MOVE_ACTIONS for a in movement.legal_evade(g, 0))
        g.state.stamina[0] = 5
        g.state.move_done[0] = False
        movement.do_evade(g, 0, next(a for a in able if a in MOVE_ACTIONS))
        assert int(g.state.stamina[0]) == 5 - cost


def test_mind_lash_reach_and_damage():
    for variant, reach, damage in ((None, -1, 2), (v("rules.lash_range=8", "rules.lash_damage=4"), 0, 4)):
        g = game(variant)
        place(g, 0, 11, 11)  # room F: 8 squares from the warlock, in sight
        warlock = add_monster(g, "dread_warlock", 7, 7)
        assert mental.lash_target(g, warlock) == reach
        health = int(g.state.health[0])
        mental.lash_lands(g, warlock, 0, mental.AGGRESSOR_WINS)
        assert int(g.state.health[0]) == health - damage


def test_max_items_caps_what_a_hero_holds():
    g = game(v("rules.max_items=2"))
    assert inventory.can_hold(g, 0)
    give_item(g, 0, "torch")
    give_item(g, 0, "rope")
    assert not inventory.can_hold(g, 0)
    assert not inventory.give(g, inventory.create(g, "rations"), 0)
    assert inventory.can_hold(game(), 0)


def test_max_spells_caps_memorizing():
    heroes = ["orwin", "corvin", "hob"]  # orwin knows 3 spells of total level 4, base magic 5
    scroll = next(i for i, c in load_items().items() if c.spell == "kindle_light")
    for variant, allowed in ((None, True), (v("rules.max_spells=3"), False)):
        g = game(variant, heroes=heroes)
        slot = give_item(g, 0, scroll, known=True)
        assert spell_rules.can_memorize(g, 0, slot) == allowed


def test_every_rules_key_is_exercised_by_a_test():
    tested = {b[0] for b in BANDS} | {
        "light.start",
        "light.max",
        "light.per_turn",
        "light.dark_penalty",
        "rules.recover_stamina",
        "rules.rest_stamina",
        "rules.rest_magic",
        "rules.rest_magic_learned",
        "rules.enemy_penalty",
        "rules.fight_stamina_max",
        "rules.move_stamina_max",
        "rules.mental_bid_max",
        "rules.lash_range",
        "rules.lash_damage",
        "rules.evade_cost",
        "rules.max_items",
        "rules.max_spells",
        "rules.patrol_board_max",
    }
    assert tested == set(RULE_KEYS)


# ------------------------------------------------------------------------------------------ cards


def test_hero_stats_show_in_the_setup_unit_info_and_the_state():
    var = v(
        *(
            f"heroes.corvin.{k}={val}"
            for k, val in dict(move=6, fight=7, damage=3, health=12, stamina=3, magic=0).items()
        )
    )
    g = game(var)
    info = g.events[0]["units"][0]
    assert {k: info[k] for k in ("move", "fight", "damage", "health", "stamina", "magic")} == {
        "move": 6,
        "fight": 7,
        "damage": 3,
        "health": 12,
        "stamina": 3,
        "magic": 0,
    }
    s = g.state
    assert (int(s.base_fight[0]), int(s.health[0]), int(s.stamina[0]), int(s.magic[0])) == (7, 12, 3, 0)
    assert game().events[0]["units"][0]["fight"] == 5


def test_a_monster_override_shows_in_its_spawn_and_its_fights():
    g = game(v("monsters.orc.fight=3", "monsters.orc.health=9"))
    place(g, 0, 10, 20)
    m = add_monster(g, "orc", 11, 20)
    spawn = events(g, "spawn")[-1]["unit"]
    assert spawn["fight"] == 3 and spawn["health"] == 9
    g.dice.force(3, 3, 3, 3)
    enter_phase(g, Phase.FIGHTING)
    while not events(g, "fight"):
        g.apply(SPEND_0)
    fight = events(g, "fight")[0]
    assert fight["b"] == units.label(g, m) and fight["b_score"] == 3 and fight["b_modifiers"] == {}


def test_an_added_trait_changes_a_rolls_modifiers():
    for variant, mods in ((None, {}), (v("heroes.corvin.traits=+perceptive"), {"perceptive": 1})):
        g = game(variant)
        g.dice.force(2)
        encounters._surprise_roll(g, 0, ambush=False)
        roll = rolls(g, "surprise")[-1]
        assert roll["modifiers"] == mods and roll["result"] == ("ready" if mods else "surprised")
    g = game(v("heroes.corvin.traits=-agile", "heroes.sela.traits=+strong"))
    assert g.events[0]["units"][0]["traits"] == []
    g.dice.force(6)
    _jump(g)
    assert rolls(g, "jump")[-1]["modifiers"] == {}


def test_starting_spells_override():
    g = game(v("heroes.orwin.spells=arcane_bolt,fire_burst"), heroes=["orwin", "corvin", "hob"])
    known = {g.spells[sp].id for sp in spell_rules.known(g, 0)}
    assert known == {"arcane_bolt", "fire_burst"}


def test_monster_abilities_override():
    g = game(v("monsters.goblin.abilities=+mental_combat", "monsters.dread_warlock.abilities=-mental_combat"))
    goblin, warlock = add_monster(g, "goblin", 10, 20), add_monster(g, "dread_warlock", 12, 20)
    assert mental.lashers(g) == [goblin]
    base = game()
    add_monster(base, "goblin", 10, 20)
    base_warlock = add_monster(base, "dread_warlock", 12, 20)
    assert mental.lashers(base) == [base_warlock]
    assert warlock not in mental.lashers(g)


def test_spell_fields():
    g = game(
        v("spells.arcane_bolt.effect.amount=5", "spells.arcane_bolt.level=2"),
        heroes=["orwin", "corvin", "hob"],
    )
    bolt = g.spells[g.spell_index["arcane_bolt"]]
    assert bolt.effect.amount == 5 and bolt.level == 2 and bolt.overcast.amount == 4
    g.state.magic[0] = 1
    assert not spell_rules.castable(g, 0, g.spell_index["arcane_bolt"], "combat", scroll=False)
    base = game(heroes=["orwin", "corvin", "hob"])
    base.state.magic[0] = 1
    assert spell_rules.castable(base, 0, base.spell_index["arcane_bolt"], "combat", scroll=False)


def test_item_fields():
    g = game(v("items.torch.effect.amount=5", "items.torch.copies=8"))
    base = game()
    for h, amount, copies in ((g, 5, 8), (base, 3, 4)):
        torch = h.item_index["torch"]
        assert int(np.count_nonzero(h.state.deck_cards == torch)) == copies
        h.state.light = 10
        items.use_item(h, 0, give_item(h, 0, "torch"), "movement")
        assert h.state.light == 10 + amount


def test_adventure_difficulty_is_a_label_on_the_games_adventure():
    g = Game.new(adventure="flooded_cellar", heroes=3, variant=v("adventures.flooded_cellar.difficulty=7"))
    assert g.tables.adventure.difficulty == 7
    plain = Game.new(adventure="flooded_cellar", heroes=3)
    assert plain.tables.adventure.difficulty == 1 and g.tables.wall is plain.tables.wall
    assert Game.new(adventure="goblin_warrens", heroes=3, variant=g.variant).tables.adventure.difficulty != 7


def test_a_no_op_card_override_makes_the_same_cards():
    content = v(
        "heroes.bram.fight=6", "spells.sleep.level=2", "items.torch.copies=4", "monsters.orc.fight=5"
    ).content()
    assert content.heroes == load_heroes() and content.spells == load_spells()
    assert content.items == load_items() and content.monsters == load_monsters()


# ------------------------------------------------------------------------------------------ round trips

DARK = ["light.start=12", "monsters.goblin.fight=5", "heroes.corvin.traits=+perceptive", "rules.patrol_max=3"]


def test_copy_json_and_save_keep_the_variant(tmp_path):
    var = v(*DARK, name="dark")
    g = random_game(var, adventure="flooded_cellar", max_turns=6)
    assert g.copy().variant == var and g.copy().rules is g.rules
    data = json.loads(json.dumps(g.to_json()))
    assert data["variant"] == var.to_json()
    back = Game.from_json(data)
    assert back.variant == var and back.rules.light_start == 12 and back.state.equals(g.state)
    g.save(tmp_path / "g.json")
    loaded = Game.load(tmp_path / "g.json")
    assert loaded.variant == var and loaded.events == g.events
    assert loaded.monsters[loaded.monster_index["goblin"]].fight == 5
    pickled = pickle.loads(pickle.dumps(g))
    assert pickled.variant == var and pickled.rules.light_start == 12 and pickled.state.equals(g.state)
    assert pickled.tables.adventure == g.tables.adventure and pickled.tables.los_static is g.tables.los_static


def test_a_save_from_before_variants_loads_with_the_base_rules():
    data = json.loads(json.dumps(random_game(None, adventure="flooded_cellar", max_turns=4).to_json()))
    del data["variant"]
    assert Game.from_json(data).variant == Variant()


def test_a_corrupt_saved_variant_is_refused():
    data = json.loads(json.dumps(Game.new(adventure="flooded_cellar", heroes=3).to_json()))
    data["variant"] = {"set": {"light.strt": 3}}
    with pytest.raises(ValueError, match="light.strt: unknown key"):
        Game.from_json(data)


def _episode(env, seed: int) -> None:
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _agent in env.agent_iter():
        obs, _r, terminated, truncated, _i = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_the_env_takes_a_list_of_strings_and_a_replay_replays_the_variant(tmp_path):
    env = dungeon_env.env(adventure="flooded_cellar", heroes=3, max_turns=6, variant=DARK)
    raw = env.unwrapped
    assert raw.variant == Variant.parse(DARK) and raw.options["variant"] == Variant.parse(DARK).to_json()
    _episode(env, 5)
    assert raw.game.events[0]["light"] == 12 and raw.game.variant == raw.variant
    rep = replay.save(env, tmp_path / "episode.json")
    again = replay.play(replay.load(tmp_path / "episode.json"))
    assert again.events == raw.events and again.variant == raw.variant
    assert replay.load(tmp_path / "episode.json").variant == raw.variant == rep.variant
    plain = dungeon_env.raw_env(adventure="flooded_cellar", heroes=3, max_turns=6)
    assert plain.options["variant"] is None
    plain.reset(seed=5)
    assert plain.game.events[0]["light"] == 20


def test_an_old_replay_without_a_variant_plays_the_base_rules(tmp_path):
    env = dungeon_env.env(adventure="flooded_cellar", heroes=3, max_turns=4)
    _episode(env, 2)
    rep = replay.record(env)
    del rep.options["variant"]
    assert rep.variant == Variant() and replay.play(rep).events == env.unwrapped.events


def test_the_env_refuses_a_bad_variant_at_construction():
    with pytest.raises(VariantError, match="heroes.bram.health=0: out of range"):
        dungeon_env.env(variant=["heroes.bram.health=0"])
    with pytest.raises(VariantError, match="malformed entry"):
        dungeon_env.raw_env(variant=["light.start"])


def test_game_new_takes_any_variant_form(tmp_path):
    path = _write(tmp_path, "v.toml", '[set]\n"light.start" = 9\n')
    for form in (v("light.start=9"), ["light.start=9"], {"set": {"light.start": 9}}, str(path), path):
        assert Game.new(adventure=ARENA, heroes=PLAIN, variant=form).state.light == 9


# ------------------------------------------------------------------------------------------ the doc


def test_variants_doc_is_the_generated_one():
    assert DOC.read_text() == keys_markdown()


def test_every_key_is_in_the_doc_and_its_default_is_the_content():
    doc = keys_markdown()
    specs = key_specs()
    assert len(specs) > 300 and f"{len(specs)} keys in all." in doc
    for key in RULE_KEYS:
        assert f"`{key}`" in doc
    heroes = load_heroes()
    for key, spec in specs.items():
        section, ident, *_ = key.split(".")
        if section == "heroes" and spec.kind == "int":
            value = heroes[ident]
            for part in key.split(".")[2:]:  # a stat, or abilities.<k>.effect.amount / .uses
                value = value[int(part)] if part.isdigit() else getattr(value, part)
            assert spec.default == value
        assert f"`{ident}`" in doc or section in ("light", "rules")


def test_readme_variants_example_runs():
    readme = (DOC.parent.parent / "README.md").read_text()
    block = next(b.split("```", 1)[0] for b in readme.split("```python\n")[1:] if "Variant.parse" in b)
    exec(compile(block, "README.md", "exec"), {"__name__": "readme"})


def test_the_observation_shows_a_variants_spell_levels():
    import dungeon_env
    from dungeon_env.observation import SCOL, SPELLS, unflatten

    def arcane_bolt_level(variant):
        env = dungeon_env.env(adventure="flooded_cellar", heroes=["orwin", "bram", "sela"], variant=variant)
        env.reset(seed=0)
        spells = unflatten(env.observe("hero_0")["observation"])["own_spells"]
        row = spells[:, SCOL["spell"]] == SPELLS.index("arcane_bolt") + 1
        return spells[row, SCOL["level"]].tolist()

    assert arcane_bolt_level(None) == [pytest.approx(1 / 3)]
    assert arcane_bolt_level(["spells.arcane_bolt.level=2"]) == [pytest.approx(2 / 3)]
