"""The event log told as a story (dungeon_env.render.story): every event of random games, of the full
log and of the heroes' lens, gets a readable sentence; specific events give exact sentences; the
heroes' story names no face-down card."""

from __future__ import annotations

import random

import pytest

from dungeon_env.content import adventure_names, load_heroes
from dungeon_env.content.rules import Rules
from dungeon_env.engine import Game
from dungeon_env.engine.knowledge import ABOUT, PUBLIC, HeroLens
from dungeon_env.render.story import Story, describe_event, roll_target

N_GAMES = 300
CHUNKS = 3
ADVENTURES = adventure_names()
ROSTER = list(load_heroes())
ITEM_EVENTS = ("item_found", "trade", "loot", "draw", "back", "item_left")


def _play(i: int):
    """One random game, folding the heroes' lens as it goes (so each event is judged as the game
    stood when it was logged). Returns the game, the lens's events, and per lens event the item
    slots that were face down when it was handed over."""
    rng = random.Random(i)
    heroes = rng.sample(ROSTER, 3 + i % 3)
    g = Game.new(
        adventure=ADVENTURES[i % len(ADVENTURES)], heroes=heroes, seed=i, max_turns=rng.randint(5, 12)
    )
    lens = HeroLens(g)
    hero, hidden = [], []

    def fold(start: int) -> None:
        face_down = {int(k) for k in (g.state.item_card >= 0).nonzero()[0] if not g.state.item_known[k]}
        for e in lens.view(g.events_since(start)):
            if e is not None:
                hero.append(e)
                hidden.append(face_down)

    fold(0)
    while not g.over:
        start = g.n_events
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
        fold(start)
    return g, hero, hidden


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_are_told_event_by_event(chunk):
    known = PUBLIC | set(ABOUT)
    for i in range(chunk, N_GAMES, CHUNKS):
        g, hero, hidden = _play(i)
        for events in (g.events, hero):
            story = Story()
            for e in events:
                line = story.tell(e)
                assert isinstance(line, str) and line.strip(), (i, e)
                if e["type"] in known:
                    assert not line.startswith("["), f"a known event told generically: {line}"
        # the heroes' story never names the card of an item face down when its event was handed over
        story = Story()
        for e, face_down in zip(hero, hidden, strict=True):
            line = story.tell(e)
            item = e.get("item")
            if e["type"] in ITEM_EVENTS and isinstance(item, int) and item in face_down:
                card = g.item_cards[int(g.state.item_card[item])] if g.state.item_card[item] >= 0 else None
                if card is not None:
                    assert card.name not in line, (i, line)
                if e["type"] in ("item_found", "trade", "loot"):
                    assert "face-down item" in line, line


def test_every_event_type_has_its_own_sentence():
    for kind in PUBLIC | set(ABOUT):
        assert hasattr(Story, f"_t_{kind}"), f"no sentence for {kind} events"


NAMES = {"hero_0": "Bram Ironhide", "hero_3": "Sela Quickstep", "m3": "Orc"}


def test_a_roll_shows_every_die_its_modifiers_total_and_result():
    roll = {
        "type": "roll",
        "check": "open_door",
        "actor": "hero_0",
        "dice": [4, 2],
        "modifiers": {"strong": 1},
        "modifier": 1,
        "total": 7,
        "result": "opened",
        "turn": 2,
    }
    assert describe_event(roll, NAMES) == (
        "Bram (hero_0) tries to open a door: rolled 4+2, +1 strong = 7 (needed 5+; 2 or less alerts): opened"
    )
    story = Story(NAMES)
    story.tell({"type": "move", "unit": "hero_0", "from": [5, 6], "to": [5, 7], "turn": 2})
    assert story.tell(roll) == (
        "Bram (hero_0), at (5,7), tries to open a door: rolled 4+2, +1 strong = 7 "
        "(needed 5+; 2 or less alerts): opened"
    )
    patrol = {
        **roll,
        "check": "patrol",
        "actor": "dm",
        "dice": [1],
        "modifiers": {},
        "total": 1,
        "result": "appears",
    }
    assert describe_event(patrol) == (
        "The Dungeon Master rolls for a wandering patrol: rolled 1 = 1 (a patrol on 1): a patrol appears"
    )


# check -> (dice, modifiers, total, result, the line's end): what was needed and what came of it
TARGETS = {
    "jump": ([3], {"agile": 1}, 4, "success", "rolled 3, +1 agile = 4 (needed 4+): success"),
    "surprise": ([2], {}, 2, "surprised", "rolled 2 = 2 (3+ to be ready): surprised"),
    "ambush_surprise": ([5], {"perceptive": 1}, 6, "ready", "= 6 (6+ to be ready): ready"),
    "disarm": ([1], {}, 1, "sprung", "rolled 1 = 1 (needed 4+; 1 springs it): sprung"),
    "identify": ([3], {}, 3, "not_yet", "rolled 3 = 3 (needed 4+; 1: never): not yet"),
    "deaths_door": ([3], {"iron_willed": 1}, 4, "survives", "= 4 (4+ to survive): survives"),
    "overcast": ([4], {}, 4, "wound", "rolled 4 = 4 (1 forgets, 6+ is safe): a wound"),
    "trait_check": ([4], {}, 4, "success", "rolled 4 = 4 (needed 4+): success"),
    "room_detect": ([2], {}, 2, "fail", "rolled 2 = 2 (needed 4+): fail"),
    "detect_traps": ([5], {}, 5, 5, "rolled 5 = 5 (the total is how many squares it searches)"),
}


@pytest.mark.parametrize("check", sorted(TARGETS))
def test_a_roll_says_what_it_needed(check):
    dice, modifiers, total, result, end = TARGETS[check]
    roll = {"type": "roll", "check": check, "actor": "hero_0", "dice": dice, "modifiers": modifiers}
    roll.update(modifier=sum(modifiers.values()), total=total, result=result, turn=1)
    assert describe_event(roll, NAMES).endswith(end)


def test_a_variants_rules_give_the_target():
    roll = {"type": "roll", "check": "jump", "actor": "hero_0", "dice": [4], "modifiers": {}, "total": 4}
    assert (
        Story(NAMES, rules=Rules(jump_min=5))
        .tell({**roll, "result": "fail"})
        .endswith("(needed 5+): falls short")
    )


def test_the_dice_of_a_real_game_show_their_targets():
    """Every open roll of random games names what it needed, as the rules of the game say."""
    checks = set()
    for i in range(12):
        g, _, _ = _play(i)
        for e, line in zip(g.events, Story.lines(g.events), strict=True):
            if e["type"] == "roll":
                checks.add(e["check"])
                assert f"({roll_target(e['check'], g.rules)})" in line, line
    assert {"surprise", "patrol", "detect_traps"} <= checks


def test_a_fight_shows_both_sides():
    fight = {
        "type": "fight",
        "a": "hero_0",
        "b": "m3",
        "a_dice": [3, 5],
        "b_dice": [2, 2],
        "a_modifiers": {"stamina": 1},
        "b_modifiers": {},
        "a_score": 4,
        "b_score": 3,
        "a_total": 12,
        "b_total": 7,
        "winner": "hero_0",
        "turn": 3,
    }
    assert describe_event(fight, NAMES) == (
        "Bram (hero_0) fights Orc m3: Bram 3+5 + score 4 (spent 1 Stamina) = 12, "
        "Orc 2+2 + score 3 = 7: Bram wins"
    )
    tie = {**fight, "winner": None, "a_modifiers": {"enemies": -1, "stamina": 2}}
    assert describe_event(tie, NAMES).endswith(
        "(-1 enemies, spent 2 Stamina) = 12, Orc 2+2 + score 3 = 7: nobody wins"
    )


def test_specific_sentences():
    story = Story()
    setup = {
        "type": "setup",
        "adventure": "flooded_cellar",
        "goal": "Get out.",
        "light": 20,
        "max_turns": 9,
        "units": [{"id": "hero_0", "name": "Bram Ironhide"}, {"id": "hero_1", "name": "Sela Quickstep"}],
    }
    assert story.tell(setup).startswith("The Flooded Cellar")
    assert "Bram (hero_0) and Sela (hero_1)" in story.tell(setup)
    spawn = {
        "type": "spawn",
        "unit": {"id": "m0", "name": "Orc Warrior", "side": "monster"},
        "how": "guard",
        "at": [4, 5],
    }
    assert story.tell(spawn) == "Orc Warrior m0 appears at (4,5), on guard"
    assert story.tell({"type": "move", "unit": "m0", "from": [4, 5], "to": [4, 6], "turn": 1}) == (
        "Orc Warrior m0 moves to (4,6)"
    )
    assert (
        story.tell({"type": "phase", "phase": "hero_movement", "turn": 3}) == "— Turn 3: Heroes' Movement —"
    )
    assert story.tell(
        {"type": "damage", "unit": "m0", "amount": 2, "source": "hero_1", "health": 4, "turn": 3}
    ) == ("Orc Warrior m0 takes 2 damage from Sela (hero_1) (Health 4)")
    assert story.tell({"type": "slain", "unit": "m0", "killers": ["hero_1"], "turn": 3}) == (
        "Orc Warrior m0 is slain by Sela (hero_1)"
    )
    assert (
        story.tell({"type": "deaths_door", "unit": "hero_0", "turn": 3})
        == "Bram (hero_0) falls to Death's Door"
    )
    assert story.tell({"type": "death", "unit": "hero_0", "killers": ["m0"], "turn": 3}) == (
        "Bram (hero_0) dies by Orc Warrior m0"
    )
    assert story.tell({"type": "reveal", "area": "K", "turn": 1}) == "Room K comes into view"
    assert story.tell({"type": "reveal", "area": "k", "turn": 1}) == "Corridor k comes into view"
    assert story.tell({"type": "light", "light": 17, "turn": 3}) == "The Light falls to 17"
    assert story.tell({"type": "door_opened", "by": "hero_0", "squares": [[3, 0], [3, 1]], "turn": 1}) == (
        "Bram (hero_0) opens the door between (3,0) and (3,1)"
    )
    cast = {
        "type": "cast",
        "unit": "hero_1",
        "spell": "arcane_bolt",
        "mode": "normal",
        "target": "m0",
        "magic": 1,
    }
    assert (
        story.tell({**cast, "scroll": False}) == "Sela (hero_1) casts Arcane Bolt on Orc Warrior m0 (1 Magic)"
    )
    fail = {"type": "spell_fail", "unit": "hero_1", "spell": None, "reason": "no_target"}
    assert story.tell(fail) == "Sela (hero_1)'s spell fails (no target)"
    end = {
        "type": "end",
        "outcome": "completed",
        "reason": "every hero left",
        "objectives": [{"kind": "escape", "text": "Leave.", "primary": True, "met": True}],
        "goals_met": True,
    }
    assert story.tell(end) == "The adventure is completed: goals met (every hero left); Leave. (met)"


def test_items_face_down_and_face_up():
    full, heroes = Story(NAMES), Story(NAMES)
    draw = {"type": "draw", "deck": "potions", "item": 4, "card": "healing_potion", "turn": 1}
    found = {"type": "item_found", "unit": "hero_3", "item": 4, "event": 0, "turn": 1}
    assert full.tell(draw) == "A card is drawn from the potions deck: Potion of Healing"
    assert full.tell(found) == "Sela (hero_3) finds an item: Potion of Healing"
    assert heroes.tell({**draw, "card": None}) == "A card is drawn from the potions deck, face down"
    line = heroes.tell(
        {"type": "item_found", "unit": "hero_3", "item": 4, "turn": 1, "area": "N", "area_event": 0}
    )
    assert line == "Sela (hero_3) finds a face-down item in room N"
    assert heroes.tell({"type": "trade", "from": "hero_3", "to": "hero_0", "item": 4}) == (
        "Sela (hero_3) gives a face-down item to Bram (hero_0)"
    )
    identified = {
        "type": "item_identified",
        "item": 4,
        "card": "healing_potion",
        "unit": "hero_0",
        "how": "use",
    }
    assert heroes.tell(identified) == "Bram (hero_0) identifies an item: Potion of Healing (by using it)"
    assert heroes.tell({"type": "trade", "from": "hero_0", "to": "hero_3", "item": 4}) == (
        "Bram (hero_0) gives Potion of Healing to Sela (hero_3)"
    )
    # a new face-down card drawn into the same slot is not named by the old one
    heroes.tell({**draw, "card": None})
    assert "face-down" in heroes.tell({"type": "trade", "from": "hero_0", "to": "hero_3", "item": 4})


def test_a_real_face_down_item_is_not_named_in_the_heroes_story():
    """A game where a hero finds an item: its card is in the full story, not in the heroes'."""
    for i in range(200):
        g, hero, hidden = _play(i)
        found = [
            (e, h) for e, h in zip(hero, hidden, strict=True) if e["type"] == "item_found" and e["item"] in h
        ]
        if found:
            break
    else:
        pytest.fail("no random game found a face-down item")
    lines = dict(zip(map(id, hero), Story.lines(hero), strict=True))
    full = Story.lines(g.events)
    for e, _ in found:
        card = g.item_cards[int(g.state.item_card[e["item"]])]
        line = lines[id(e)]
        assert "face-down item" in line and card.name not in line
        assert any(card.name in f and "finds" in f for f in full), "the full story names it"


def test_odd_and_unknown_events_never_raise():
    story = Story()
    for e in [
        {"type": "damage"},
        {"type": "fight", "a": None, "b": None},
        {"type": "roll"},
        {"type": "roll", "check": "open_door", "actor": None, "dice": None, "modifiers": None},
        {"type": "spawn", "unit": None},
        {"type": "setup", "units": [None, {"id": None}]},
        {"type": "move", "unit": "m9", "to": "nowhere"},
        {"type": "slain", "unit": "m1", "killers": [None]},
        {"type": "end"},
        {"type": "mental", "a": "hero_0", "b": None, "a_dice": [3], "winner": None},
        {"type": "monsters_surprised", "units": [None, "m2"]},
        {"type": "effect_starts", "unit": "hero_0", "kind": "sleep", "amount": None, "turns": "x"},
        {"type": "brand_new_thing", "unit": "hero_0", "payload": list(range(100))},
        {},
    ]:
        line = story.tell(e)
        assert isinstance(line, str) and line
    assert story.tell(None) is None
    assert describe_event({"type": "brand_new_thing", "unit": "hero_0"}) == "[brand new thing] unit hero_0"
    assert describe_event({"type": "monsters_surprised", "units": [None, "m2"]}) == (
        "Someone unseen and monster m2 are surprised"
    )
