"""Content layer: the bundled data loads and meets the rules' constraints; broken files fail loudly.

Each broken-file test writes a variant of a bundled file into ``tmp_path`` and checks that the
``ContentError`` message names the file, the key and the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import dungeon_env.content
from dungeon_env.content import (
    ContentError,
    adventure_names,
    load_adventure,
    load_board,
    load_heroes,
    load_monsters,
    reachable_squares,
)
from dungeon_env.content.model import ENCOUNTER_TYPES, HEIGHT, TRAITS, WIDTH

CONTENT = Path(dungeon_env.content.__file__).parent
ADVENTURE = "goblin_warrens"  # the bundled adventure the broken variants start from


# ---------------------------------------------------------------------------------------- bundled board


def _expected_char(x: int, y: int) -> str:
    """The layout the engine relies on, restated from the spec."""
    cols = [(1, 5), (7, 11), (12, 16), (18, 22)]
    rows = [(1, 5), (7, 12), (14, 19), (21, 26)]
    room_col = next((i for i, (a, b) in enumerate(cols) if a <= x <= b), None)
    room_row = next((i for i, (a, b) in enumerate(rows) if a <= y <= b), None)
    if room_col is not None and room_row is not None:
        return "ABCDEFGHIJKLMNOP"[room_row * 4 + room_col]
    if room_row is None:  # a horizontal corridor row (junctions included)
        band = [0, 6, 13, 20, 27].index(y)
        part = 0 if x <= 6 else (1 if x <= 16 else 2)
        return "abcdefghijklmno"[band * 3 + part]
    return {0: "pqrs", 6: "tuvw", 17: "xyz0", 23: "1234"}[x][room_row]


def test_board_matches_the_fixed_layout():
    board = load_board()
    assert board.area.shape == (HEIGHT, WIDTH)
    assert board.area.dtype == np.int16
    assert board.n_rooms == 16
    assert board.area_names[:16] == tuple("ABCDEFGHIJKLMNOP")
    assert board.n_areas == 16 + 31
    for y in range(HEIGHT):
        for x in range(WIDTH):
            assert board.area_names[board.area[y, x]] == _expected_char(x, y), (x, y)


def test_board_is_cached_and_read_only():
    board = load_board()
    assert load_board() is board
    with pytest.raises(ValueError):
        board.area[0, 0] = 3


# ---------------------------------------------------------------------------------------- bundled cards


def test_hero_roster_meets_the_rules():
    heroes = load_heroes()
    assert len(heroes) == 10
    cards = list(heroes.values())
    assert list(heroes) == [card.id for card in cards]
    assert len({card.name for card in cards}) == 10
    for trait in TRAITS:
        assert sum(trait in card.traits for card in cards) >= 2, trait
    casters = [card for card in cards if card.caster]
    assert len(casters) == 2
    assert all(card.magic >= 3 for card in casters)
    assert sum(card.magic >= 1 and not card.caster for card in cards) >= 2
    for card in cards:
        assert 4 <= card.move <= 6 and 3 <= card.fight <= 7 and 1 <= card.damage <= 3
        assert 5 <= card.health <= 12 and 3 <= card.stamina <= 7 and 0 <= card.magic <= 5


def test_load_heroes_returns_a_fresh_dict():
    first = load_heroes()
    first.clear()
    assert len(load_heroes()) == 10


def test_monsters_cover_the_minimum_set():
    monsters = load_monsters()
    assert len(monsters) >= 10
    cards = list(monsters.values())
    assert all(card.encounter in ENCOUNTER_TYPES for card in cards)
    guards = [card for card in cards if card.encounter == "guard"]
    assert any(card.health <= 3 for card in guards)  # weak
    assert any(5 <= card.health <= 8 for card in guards)  # medium
    assert any(card.health >= 12 and card.fight >= 6 for card in guards)  # boss
    assert sum(card.encounter == "patrol" for card in cards) >= 3
    assert any(card.encounter == "ambusher" for card in cards)
    assert any("mental_combat" in card.abilities for card in cards)


# ----------------------------------------------------------------------------------- bundled adventures


def _threat(adventure, monsters) -> int:
    def value(monster_id: str) -> int:
        card = monsters[monster_id]
        return card.fight + card.health + 2 * card.damage

    placed = [g.monster for g in adventure.guards] + [m for a in adventure.ambushes for m in a.monsters]
    placed += [m for e in adventure.events for m in e.monsters]  # event ambushes
    return sum(map(value, placed)) + 3 * sum(map(value, adventure.patrol))


def _ambushes(adventure) -> int:
    return len(adventure.ambushes) + sum(e.kind == "ambush" for e in adventure.events)


def test_adventures_are_sorted_and_rise_in_difficulty():
    names = adventure_names()
    adventures = [load_adventure(name) for name in names]
    assert [a.difficulty for a in adventures] == [1, 2, 3, 4, 5]
    monsters = load_monsters()
    threats = [_threat(a, monsters) for a in adventures]
    assert threats == sorted(threats) and len(set(threats)) == 5
    assert [_ambushes(a) for a in adventures] == sorted(_ambushes(a) for a in adventures)


def test_the_last_adventure_is_the_campaign_final():
    adventures = [load_adventure(name) for name in adventure_names()]
    assert [a.final for a in adventures] == [False, False, False, False, True]


def test_adventures_have_goals_beyond_the_exit():
    """Between them the adventures ask for every kind of goal, and the later ones make some primary."""
    adventures = [load_adventure(name) for name in adventure_names()]
    kinds = {o.kind for a in adventures for o in a.objectives}
    assert {"escape", "slay", "retrieve", "rescue", "claim"} <= kinds
    primary = [{o.kind for o in a.objectives if o.primary} for a in adventures]
    # the final adventure's primary goals need nothing carried out, not even the heroes
    assert primary[3] > {"escape"} and primary[4] == {"slay", "claim"}


@pytest.mark.parametrize("name", adventure_names())
def test_bundled_adventure_has_traps_events_and_items_to_find(name):
    adventure = load_adventure(name)
    assert len(adventure.traps) >= 3 and any(t.blocks for t in adventure.traps)
    kinds = {e.kind for e in adventure.events}
    assert {"item", "detect"} <= kinds and ({"check", "choice"} & kinds)
    assert {e.scope for e in adventure.events} == {"all", "exploring"}


def test_adventures_use_every_kind_of_room_event():
    kinds = {e.kind for name in adventure_names() for e in load_adventure(name).events}
    assert kinds == {"effect", "check", "choice", "item", "detect", "ambush", "secret"}
    secret = [name for name in adventure_names() if any(d.secret for d in load_adventure(name).doors)]
    assert len(secret) >= 3


@pytest.mark.parametrize("name", adventure_names())
def test_bundled_adventure_is_sound(name):
    board, monsters = load_board(), load_monsters()
    adventure = load_adventure(name)
    assert adventure.id == name
    assert load_adventure(name) is adventure  # cached
    assert load_adventure(name, board=board, monsters=monsters) is adventure
    assert len(adventure.start) >= 5
    assert len({board.area[y, x] for x, y in adventure.start}) == 1
    assert set(adventure.exits).isdisjoint(adventure.start)  # leaving is not free
    assert 6 <= len(adventure.doors) <= 12
    assert adventure.blockages and adventure.furniture and adventure.guards
    assert 2 <= len(adventure.patrol) <= 3
    primary = [o for o in adventure.objectives if o.primary]
    escape = [o for o in adventure.objectives if o.kind == "escape"]
    assert len(escape) == 1 and escape[0].primary is not adventure.final  # A-55 for the final one
    assert all(o.kind != "reach" for o in primary)

    reachable = reachable_squares(board, adventure)
    assert set(adventure.exits) <= reachable
    assert all(guard.at in reachable for guard in adventure.guards)
    for door in adventure.doors:  # every room with a door can be reached; the others are sealed
        assert door.a in reachable or door.b in reachable, door
    for area in adventure.secret_rooms:
        assert board.is_room(board.area_names.index(area))

    slays = [o for o in adventure.objectives if o.kind == "slay"]
    if adventure.difficulty >= 2:
        assert slays
    for objective in slays:
        target = next(g.monster for g in adventure.guards if g.at == objective.at)
        assert monsters[target].health >= 12  # the boss


def test_load_adventure_by_path_equals_bundled():
    path = CONTENT / "adventures" / f"{ADVENTURE}.toml"
    assert load_adventure(path) == load_adventure(ADVENTURE)
    assert load_adventure(str(path)) == load_adventure(ADVENTURE)


def test_unknown_bundled_adventure():
    with pytest.raises(ContentError, match="no bundled adventure 'nowhere'"):
        load_adventure("nowhere")


def test_adventure_checked_against_given_monsters():
    monsters = {k: v for k, v in load_monsters().items() if k != "troll"}
    with pytest.raises(ContentError, match=r"guard\[14\]\.monster: unknown monster 'troll'"):
        load_adventure(ADVENTURE, monsters=monsters)


# ------------------------------------------------------------------------------------------ broken files


def _expect(load: Callable, path: Path, key: str, reason: str) -> None:
    with pytest.raises(ContentError) as info:
        load(path)
    message = str(info.value)
    assert path.name in message, message
    assert f": {key}" in message, message
    assert reason in message, message


def _board_rows() -> list[str]:
    lines = (CONTENT / "board.txt").read_text().splitlines()
    return [line for line in lines if line and not line.startswith("#")]


def _set(rows: list[str], x: int, y: int, char: str) -> list[str]:
    rows = list(rows)
    rows[y] = rows[y][:x] + char + rows[y][x + 1 :]
    return rows


BOARD_CASES = [
    ("short_row", lambda r: r[:5] + [r[5][:-1]] + r[6:], "row 5", "expected 24 characters, got 23"),
    ("unknown_char", lambda r: _set(r, 4, 3, "?"), "row 3", "unknown character '?' at x=4"),
    ("not_rectangle", lambda r: _set(r, 6, 3, "A"), "room A", "not a filled rectangle"),
    ("too_few_rows", lambda r: r[:-1], "rows", "expected 28 map rows, got 27"),
    ("missing_room", lambda r: [row.replace("P", "o") for row in r], "room P", "missing from the map"),
    ("split_corridor", lambda r: _set(r, 3, 6, "a"), "corridor 'a'", "not connected"),
]


@pytest.mark.parametrize(
    ("edit", "key", "reason"), [c[1:] for c in BOARD_CASES], ids=[c[0] for c in BOARD_CASES]
)
def test_broken_board(tmp_path, edit, key, reason):
    path = tmp_path / "broken_board.txt"
    path.write_text("# a comment\n" + "\n".join(edit(_board_rows())) + "\n")
    _expect(load_board, path, key, reason)


def _variant(tmp_path: Path, source: Path, name: str, old: str, new: str) -> Path:
    text = source.read_text()
    assert old in text, old
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1))
    return path


HERO_CASES = [
    ("unknown_key", "fight = 6", "fihgt = 6", "hero[0].fihgt", "unknown key"),
    ("missing_key", "stamina = 5\n", "", "hero[0].stamina", "missing required key"),
    ("wrong_type", "move = 4", 'move = "4"', "hero[0].move", "expected an integer, got str"),
    ("out_of_range", "health = 11", "health = 13", "hero[0].health", "13 is out of range; expected 5..12"),
    ("unknown_trait", '"iron_willed"]', '"ironwilled"]', "hero[0].traits[1]", "unknown trait 'ironwilled'"),
    ("duplicate_trait", '["strong", "iron', '["strong", "strong", "iron', "hero[0].traits[1]", "duplicate"),
    ("duplicate_id", 'id = "tovar"', 'id = "bram"', "hero[1].id", "duplicate id 'bram'"),
    (
        "few_casters",
        'caster = true\nspells = ["arcane_bolt", "sleep", "reveal_traps"]\n',
        "",
        "hero",
        "expected exactly 2 casters",
    ),
    ("bad_toml", 'name = "Bram Ironhide"', "name = Bram", "toml", "invalid TOML"),
    (
        "spells_non_caster",
        'traits = ["strong"]\n',
        'traits = ["strong"]\nspells = ["x"]\n',
        "hero[1].spells",
        "only",
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "key", "reason"), [c[1:] for c in HERO_CASES], ids=[c[0] for c in HERO_CASES]
)
def test_broken_heroes(tmp_path, old, new, key, reason):
    path = _variant(tmp_path, CONTENT / "heroes.toml", "broken_heroes.toml", old, new)
    _expect(load_heroes, path, key, reason)


def test_roster_trait_coverage(tmp_path):
    text = (CONTENT / "heroes.toml").read_text().replace('["agile", "perceptive"]', '["agile"]')
    path = tmp_path / "heroes.toml"
    path.write_text(text)
    _expect(load_heroes, path, "hero", "trait 'perceptive' is held by 1 hero(es)")


def test_roster_size(tmp_path):
    text = (CONTENT / "heroes.toml").read_text()
    path = tmp_path / "heroes.toml"
    path.write_text(text[: text.rindex("[[hero]]")])
    _expect(load_heroes, path, "hero", "expected exactly 10 heroes, got 9")


MONSTER_CASES = [
    (
        "unknown_encounter",
        'encounter = "patrol"',
        'encounter = "wanderer"',
        "monster[6].encounter",
        "'wanderer'",
    ),
    ("unknown_ability", '"mental_combat"', '"mind_blast"', "monster[5].abilities[0]", "unknown ability"),
    ("duplicate_id", 'id = "goblin"', 'id = "giant_rat"', "monster[1].id", "duplicate id 'giant_rat'"),
    ("bool_for_int", "fight = 2", "fight = true", "monster[0].fight", "expected an integer, got bool"),
]


@pytest.mark.parametrize(
    ("old", "new", "key", "reason"), [c[1:] for c in MONSTER_CASES], ids=[c[0] for c in MONSTER_CASES]
)
def test_broken_monsters(tmp_path, old, new, key, reason):
    path = _variant(tmp_path, CONTENT / "monsters.toml", "broken_monsters.toml", old, new)
    _expect(load_monsters, path, key, reason)


SLAY = 'text = "Slay the cave troll in its lair."\nat = [20, 3]'
ADVENTURE_CASES = [
    ("unknown_key", "blockages =", "blockage =", "blockage", "unknown key"),
    (
        "wrong_type",
        "start = [[18, 27], [19, 27], [20, 27], [21, 27], [22, 27]]",
        'start = "north"',
        "start",
        "expected an array, got str",
    ),
    ("few_start", "start = [[18, 27], ", "start = [", "start", "expected at least 5 entries"),
    ("off_board", "[[22, 0], [23, 0]]", "[[22, 0], [24, 0]]", "exits[1]", "off the board"),
    (
        "not_adjacent",
        "[[20, 27], [20, 26]]",
        "[[20, 27], [20, 25]]",
        "door[0].between",
        "not orthogonally adjacent",
    ),
    (
        "two_corridors",
        "[[20, 27], [20, 26]]",
        "[[16, 27], [17, 27]]",
        "door[0].between",
        "both corridor squares",
    ),
    ("same_area", "[[20, 27], [20, 26]]", "[[20, 25], [20, 26]]", "door[0].between", "both in area P"),
    ("duplicate_door", "[[20, 21], [20, 20]]", "[[20, 26], [20, 27]]", "door[1].between", "duplicate door"),
    ("door_blocked", "[[17, 22], [16, 22]]", "[[17, 24], [16, 24]]", "door[2].between", "blockages[0]"),
    (
        "unknown_guard",
        'monster = "troll"',
        'monster = "trolll"',
        "guard[14].monster",
        "unknown monster 'trolll'",
    ),
    ("guard_kind", 'monster = "troll"', 'monster = "cave_wolf"', "guard[14].monster", "expected 'guard'"),
    ("guard_on_blockage", "at = [18, 24]", "at = [17, 24]", "guard[0].at", "already taken by blockages[0]"),
    ("guard_on_furniture", "at = [18, 24]", "at = [22, 26]", "guard[0].at", "already taken by furniture[1]"),
    ("guard_on_start", "at = [18, 24]", "at = [19, 27]", "guard[0].at", "already taken by start"),
    ("blockage_in_room", "[15, 27], ", "[15, 27], [20, 22], ", "blockages[3]", "is in room P"),
    (
        "furniture_kind",
        'kind = "throne"',
        'kind = "sofa"',
        "furniture[11].kind",
        "unknown furniture kind 'sofa'",
    ),
    (
        "furniture_two_rooms",
        "at = [[18, 22], [19, 22]]",
        "at = [[17, 22], [18, 22]]",
        "furniture[0].at",
        "one room",
    ),
    ("patrol_kind", 'patrol = ["goblin_scout"', 'patrol = ["goblin"', "patrol[0]", "expected 'patrol'"),
    (
        "patrol_size",
        'patrol = ["goblin_scout", ',
        'patrol = ["goblin_scout", "ghoul", ',
        "patrol",
        "at most 3",
    ),
    (
        "ambush_outside",
        "[[19, 13], [21, 13]]",
        "[[19, 12], [21, 13]]",
        "ambush[0].at[0]",
        "not in the ambush area i",
    ),
    ("ambush_count", "[[19, 13], [21, 13]]", "[[19, 13]]", "ambush[0].at", "expected 2 squares"),
    ("ambush_area", 'area = "i"', 'area = "Z"', "ambush[0].area", "unknown area 'Z'"),
    (
        "slay_no_guard",
        SLAY,
        SLAY.replace("[20, 3]", "[20, 4]"),
        "objective[1].at",
        "no guard stands on square",
    ),
    ("slay_without_at", SLAY, SLAY.replace("at = [20, 3]", ""), "objective[1].at", "missing required key"),
    (
        "escape_not_primary",
        'text = "Climb out by the well shaft in the north-east corner."\nprimary = true',
        'text = "Climb out by the well shaft in the north-east corner."',
        "objective",
        "exactly one objective of kind 'escape', with primary = true",
    ),
    ("slay_with_area", SLAY, SLAY + '\narea = "D"', "objective[1].area", "a slay objective has no `area`"),
    (
        "reach_unknown_area",
        'kind = "slay"\n' + SLAY,
        'kind = "reach"\ntext = "x"\narea = "Z"',
        "objective[1].area",
        "unknown area 'Z'",
    ),
    ("objective_kind", 'kind = "slay"', 'kind = "guard"', "objective[1].kind", "unknown objective kind"),
    ("exit_unreachable", "exits = [[22, 0], [23, 0]]", "exits = [[3, 3]]", "exits[0]", "cannot be reached"),
    ("secret_room", "patrol =", 'secret_rooms = ["a"]\npatrol =', "secret_rooms[0]", "unknown room 'a'"),
    ("difficulty", "difficulty = 2", "difficulty = 0", "difficulty", "out of range"),
]


# Traps, room events, secret doors, the new objectives and ``final`` (issue 3). Events of the goblin
# warrens, in file order: 0 P item, 1 O choice, 2 K check, 3 K item, 4 L ambush, 5 L item, 6 H detect,
# 7 G choice, 8 D item (the ruby); objectives: 0 escape, 1 slay.
DART = 'name = "dart trap"\neffect = { kind = "damage", amount = 1 }'
PIT = 'name = "covered pit"\neffect = { kind = "damage", amount = 2 }\nblocks = true'
P_ITEM = (
    'area = "P"\nscope = "exploring"\nkind = "item"\n'
    'text = "The guard room\'s chest is full of goblin junk, and one useful thing."\ndeck = "gear"'
)
K_OPTION = '{ text = "Steel your mind", trait = "iron_willed", fail = { kind = "damage", amount = 1 } }'
RUBY_EVENT = 'text = "Among the bones of the troll\'s hoard gleams the Blood Ruby."\nitem = "ruby"'
SLAY_ENTRY = 'kind = "slay"\n' + SLAY
GUARD_DOOR = "[[door]]  # o -> P, the guard room\nbetween = [[20, 27], [20, 26]]"
WOLVES = 'monsters = ["cave_wolf", "cave_wolf"]\nat = [[20, 15], [21, 18]]'


def _event(area: str, kind: str, extra: str) -> str:
    return f'\n\n[[event]]\narea = "{area}"\nscope = "exploring"\nkind = "{kind}"\ntext = "x"\n{extra}'


NEW_KEY_CASES = [
    ("trap_key", DART, DART.replace("name", "nmae"), "trap[0].nmae", "unknown key"),
    ("trap_on_guard", "at = [22, 13]", "at = [18, 24]", "trap[0].at", "already taken by guard[0]"),
    ("trap_on_start", "at = [22, 13]", "at = [19, 27]", "trap[0].at", "already taken by start"),
    ("trap_effect_kind", DART, DART.replace('"damage"', '"bleed"'), "trap[0].effect.kind", "'bleed'"),
    ("trap_effect_amount", DART, DART.replace("amount = 1", "amount = 99"), "trap[0].effect.amount", "99"),
    (
        "trap_effect_key",
        DART,
        DART.replace("amount = 1", "amount = 1, turns = 2"),
        "trap[0].effect.turns",
        "unknown key",
    ),
    ("trap_blocks", PIT, PIT.replace("true", '"yes"'), "trap[2].blocks", "expected true or false"),
    ("event_area", P_ITEM, P_ITEM.replace('"P"', '"Q"'), "event[0].area", "unknown area 'Q'"),
    (
        "event_scope",
        P_ITEM,
        P_ITEM.replace('"exploring"', '"everyone"'),
        "event[0].scope",
        "unknown event scope",
    ),
    ("event_kind", P_ITEM, P_ITEM.replace('"item"', '"treasure"'), "event[0].kind", "unknown event kind"),
    ("item_scope", P_ITEM, P_ITEM.replace('"exploring"', '"all"'), "event[0].scope", "must be 'exploring'"),
    ("item_and_deck", P_ITEM, P_ITEM + '\nitem = "ruby"', "event[0].deck", "not both"),
    (
        "item_nothing",
        P_ITEM,
        P_ITEM.replace('deck = "gear"', ""),
        "event[0].item",
        "needs an `item` or a `deck`",
    ),
    ("item_deck", P_ITEM, P_ITEM.replace('"gear"', '"weapons"'), "event[0].deck", "unknown deck 'weapons'"),
    (
        "item_unknown",
        RUBY_EVENT,
        RUBY_EVENT.replace('"ruby"', '"rubyy"'),
        "event[8].item",
        "unknown item 'rubyy'",
    ),
    (
        "key_of_other_kind",
        P_ITEM,
        P_ITEM + '\neffect = { kind = "heal" }',
        "event[0].effect",
        "an event of kind 'item' has no `effect`",
    ),
    ("check_two_options", K_OPTION, K_OPTION + ", " + K_OPTION, "event[2].options", "at most 1 entries"),
    (
        "check_no_trait",
        K_OPTION,
        '{ text = "Steel your mind" }',
        "event[2].options[0].trait",
        "missing required key",
    ),
    (
        "fail_no_trait",
        K_OPTION,
        K_OPTION.replace('trait = "iron_willed", ', ""),
        "event[2].options[0].fail",
        "cannot fail",
    ),
    (
        "option_trait",
        '"perceptive"',
        '"sharp_eyed"',
        "event[1].options[0].trait",
        "unknown trait 'sharp_eyed'",
    ),
    ("choice_one_option", '    { text = "Leave it" },\n', "", "event[7].options", "at least 2 entries"),
    (
        "ambush_outside",
        WOLVES,
        WOLVES.replace("[20, 15]", "[20, 12]"),
        "event[4].at[0]",
        "not in the ambush area L",
    ),
    (
        "ambush_mixed",
        WOLVES,
        WOLVES.replace('"cave_wolf"]', '"giant_spider"]'),
        "event[4].monsters",
        "mixes ambushers",
    ),
    ("ambush_no_at", WOLVES, WOLVES.split("\n")[0], "event[4].at", "missing required key"),
    (
        "ambush_on_guard",
        WOLVES,
        WOLVES.replace("[20, 15]", "[20, 16]"),
        "event[4].at[0]",
        "already taken by guard",
    ),
    (
        "secret_door_type",
        GUARD_DOOR,
        GUARD_DOOR + '\nsecret = "yes"',
        "door[0].secret",
        "expected true or false",
    ),
    (
        "secret_never_revealed",
        GUARD_DOOR,
        GUARD_DOOR + "\nsecret = true",
        "door[0].secret",
        "no event of kind 'secret'",
    ),
    (
        "secret_not_secret",
        RUBY_EVENT,
        RUBY_EVENT + _event("P", "secret", "door = 1"),
        "event[9].door",
        "is not a secret door",
    ),
    (
        "secret_other_room",
        GUARD_DOOR,
        GUARD_DOOR + "\nsecret = true" + _event("H", "secret", "door = 0"),
        "event[0].door",
        "is not on a wall of area H",
    ),
    (
        "secret_door_index",
        RUBY_EVENT,
        RUBY_EVENT + _event("P", "secret", "door = 40"),
        "event[9].door",
        "out of range",
    ),
    (
        "retrieve_unknown",
        SLAY_ENTRY,
        'kind = "retrieve"\ntext = "x"\nitem = "rubbish"',
        "objective[1].item",
        "'rubbish'",
    ),
    (
        "retrieve_unplaced",
        SLAY_ENTRY,
        'kind = "retrieve"\ntext = "x"\nitem = "jewelled_crown"',
        "objective[1].item",
        "no event places",
    ),
    (
        "retrieve_no_item",
        SLAY_ENTRY,
        'kind = "retrieve"\ntext = "x"',
        "objective[1].item",
        "missing required key",
    ),
    (
        "retrieve_at",
        SLAY_ENTRY,
        'kind = "retrieve"\ntext = "x"\nitem = "ruby"\nat = [1, 1]',
        "objective[1].at",
        "has no `at`",
    ),
    (
        "rescue_area",
        SLAY_ENTRY,
        'kind = "rescue"\ntext = "x"\narea = "Z"',
        "objective[1].area",
        "unknown area 'Z'",
    ),
    (
        "rescue_item",
        SLAY_ENTRY,
        'kind = "rescue"\ntext = "x"\narea = "D"\nitem = "ruby"',
        "objective[1].item",
        "a rescue objective has no `item`",
    ),
    (
        "rescue_sealed",
        SLAY_ENTRY,
        'kind = "rescue"\ntext = "x"\narea = "A"',
        "objective[1].area",
        "cannot be reached",
    ),
    ("final", "difficulty = 2", 'difficulty = 2\nfinal = "yes"', "final", "expected true or false"),
]


@pytest.mark.parametrize(
    ("old", "new", "key", "reason"), [c[1:] for c in NEW_KEY_CASES], ids=[c[0] for c in NEW_KEY_CASES]
)
def test_broken_adventure_new_keys(tmp_path, old, new, key, reason):
    source = CONTENT / "adventures" / f"{ADVENTURE}.toml"
    path = _variant(tmp_path, source, f"{ADVENTURE}.toml", old, new)
    _expect(load_adventure, path, key, reason)


def test_adventure_items_checked_against_given_cards(tmp_path):
    from dungeon_env.content import load_board
    from dungeon_env.content._adventure import parse_adventure

    path = CONTENT / "adventures" / f"{ADVENTURE}.toml"
    with pytest.raises(ContentError, match=r"event\[8\]\.item: unknown item 'ruby'"):
        parse_adventure(path, load_board(), load_monsters(), items={})


@pytest.mark.parametrize(
    ("old", "new", "key", "reason"), [c[1:] for c in ADVENTURE_CASES], ids=[c[0] for c in ADVENTURE_CASES]
)
def test_broken_adventure(tmp_path, old, new, key, reason):
    source = CONTENT / "adventures" / f"{ADVENTURE}.toml"
    path = _variant(tmp_path, source, f"{ADVENTURE}.toml", old, new)
    _expect(load_adventure, path, key, reason)


def test_adventure_id_must_match_file_stem(tmp_path):
    source = CONTENT / "adventures" / f"{ADVENTURE}.toml"
    path = _variant(tmp_path, source, "renamed.toml", "difficulty = 2", "difficulty = 2")
    _expect(load_adventure, path, "id", "must equal the file name stem 'renamed'")


def test_too_many_doors(tmp_path):
    source = CONTENT / "adventures" / f"{ADVENTURE}.toml"
    extra = "\n[[door]]\nbetween = [[20, 27], [20, 26]]\n" * 60
    path = tmp_path / f"{ADVENTURE}.toml"
    path.write_text(source.read_text() + extra)
    _expect(load_adventure, path, "door", "expected at most 64 entries, got 69")
