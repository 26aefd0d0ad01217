"""The Explore phase (R-EXPL-01..07): explore or stay, room and corridor events, other Explore actions,
trap detection last; event ambushes and secret doors; new objectives (R-END-02/03).

The event arena is the test arena plus a secret door between rooms B and C and these events::

    e0  room A      all        effect   1 damage to every hero in A
    e1  room A      exploring  effect   2 damage to the exploring heroes in A
    e2  room F      exploring  choice   "Drink" (1 damage) / "Pocket the coin" (a Pouch of Gold)
    e3  room F      exploring  item     a Short Sword for an exploring hero
    e4  room B      exploring  secret   reveals door 4, (11,1)-(12,1), into room C
    e5  room B      all        check    Strong: a Blood Ruby on a success, 1 damage on a failure
    e6  corridor t  exploring  ambush   two Goblins (Ambusher rules all the same, R-MON-09)
    e7  corridor u  exploring  ambush   a Giant Spider (an Ambusher)

plus one hidden trap far away in corridor o (so that the Detect Traps dice are rolled). Areas in
board reading order: A (first square (1,1)), t ((6,1)), B ((7,1)), u ((6,7)), F ((7,7)).
"""

from __future__ import annotations

import pytest

from dungeon_env.content import adventure_names, load_adventure
from dungeon_env.content.model import TRAITS
from dungeon_env.engine import Decision, Game, IllegalActionError, Phase, inventory
from dungeon_env.engine.actions import (
    CHOICE_0,
    END,
    EXPLORE,
    IDENTIFY,
    ITEM_0,
    MOVE_ACTIONS,
    PASS,
    STAY,
    TAKE,
)
from dungeon_env.engine.state import ACTIVE, EXITED
from dungeon_env.engine.units import kill_hero, slay_monster, take_off
from dungeon_env.engine.visibility import sees
from tests.builders import add_monster, arena_variant, enter_phase, events, idle, place, quiet, rolls

MN, ME, MS, MW = MOVE_ACTIONS
PLAIN = ["corvin", "ysolde", "hob"]  # no Strong, no Learned
SECRET = 4

EXTRA = """
[[door]]
between = [[11, 1], [12, 1]]
secret = true

[[trap]]
at = [20, 27]
name = "far trap"
effect = { kind = "damage", amount = 1 }

[[event]]
area = "A"
scope = "all"
kind = "effect"
text = "Dust and grit fall from the ceiling."
effect = { kind = "damage", amount = 1 }

[[event]]
area = "A"
scope = "exploring"
kind = "effect"
text = "A loose stone falls on whoever pokes at the wall."
effect = { kind = "damage", amount = 2 }

[[event]]
area = "F"
scope = "exploring"
kind = "choice"
text = "A fountain, and a coin at its bottom."
options = [
    { text = "Drink", effect = { kind = "damage", amount = 1 } },
    { text = "Pocket the coin", item = "gold_pouch" },
]

[[event]]
area = "F"
scope = "exploring"
kind = "item"
text = "A sword on a rack."
item = "short_sword"

[[event]]
area = "B"
scope = "exploring"
kind = "secret"
text = "A draught from the east wall."
door = 4

[[event]]
area = "B"
scope = "all"
kind = "check"
text = "A heavy lid."
options = [{ text = "Lift it", trait = "strong", item = "ruby", fail = { kind = "damage", amount = 1 } }]

[[event]]
area = "t"
scope = "exploring"
kind = "ambush"
text = "Goblins!"
monsters = ["goblin", "goblin"]
at = [[6, 1], [6, 2]]

[[event]]
area = "u"
scope = "exploring"
kind = "ambush"
text = "A spider drops."
monsters = ["giant_spider"]
at = [[6, 7]]
"""


@pytest.fixture(scope="module")
def arena(tmp_path_factory) -> str:
    return arena_variant(tmp_path_factory.mktemp("explore"), "event_arena", EXTRA)


def new(path: str, at, heroes=None) -> Game:
    g = Game.new(adventure=path, heroes=heroes or PLAIN, seed=0)
    for u in range(3):
        place(g, u, 20 + u, 26)
    for u, (x, y) in enumerate(at):
        place(g, u, x, y)
    return g


def explore(g: Game, *choices: int) -> None:
    """Start the Explore phase and give the heroes' EXPLORE / STAY answers in slot order."""
    enter_phase(g, Phase.EXPLORE)
    for choice in choices:
        assert g.decision[0] == Decision.EXPLORE_CHOICE
        g.apply(choice)


def health(g: Game) -> list[int]:
    return [int(g.state.health[u]) for u in range(g.state.n_heroes)]


def fired(g: Game) -> list[int]:
    return [e["event"] for e in events(g, "room_event")]


def phases(g: Game) -> list[str]:
    return [e["phase"] for e in g.events if e["type"] == "phase"]


# -------------------------------------------------------------------------------------------- EXPL-01


def test_R_EXPL_01_no_explore_phase_while_a_monster_is_on_the_board(arena):
    """Heroes in room A with a Goblin far away: the turn has no Explore phase, no choice and no event;
    once the Goblin is gone, the next turn's Explore phase reads room A's text."""
    g = new(arena, [(2, 2), (3, 2), (4, 2)])
    m = add_monster(g, "goblin", 20, 20)
    enter_phase(g, Phase.HERO_MOVEMENT)
    while g.state.turn == 1:
        g.apply(quiet(g))
    assert "explore" not in phases(g) and not events(g, "explore_choice") and not fired(g)
    assert not g.state.event_done.any()
    slay_monster(g, m, [])
    while g.state.phase != Phase.EXPLORE:
        g.apply(quiet(g))
    assert g.decision == (Decision.EXPLORE_CHOICE, 0)


# -------------------------------------------------------------------------------------------- EXPL-02


def test_R_EXPL_02_each_living_hero_on_the_board_explores_or_stays(arena):
    """hero_0 explores, hero_2 stays; hero_1 (dead) is not asked. The flags are in the state and in
    the log; they last until the turn ends."""
    g = new(arena, [(20, 20), (21, 20), (22, 20)])
    kill_hero(g, 1)
    enter_phase(g, Phase.EXPLORE)
    asked = []
    while g.decision and g.decision[0] == Decision.EXPLORE_CHOICE:
        asked.append(g.decision[1])
        assert g.legal_actions() == [EXPLORE, STAY]
        if asked == [0, 2]:
            assert list(g.state.exploring[:3]) == [True, False, False]
        g.apply(EXPLORE if g.decision[1] == 0 else STAY)
    assert asked == [0, 2]
    logged = [(e["unit"], e["explore"]) for e in events(g, "explore_choice")]
    assert logged == [("hero_0", True), ("hero_2", False)]
    assert not g.state.exploring.any()  # the flags last until the turn ends


def test_R_EXPL_02_exploring_breaks_rest_staying_put_does_not(arena):
    g = new(arena, [(20, 20), (21, 20), (22, 20)])
    explore(g, EXPLORE, STAY, STAY)
    while g.state.turn == 1:
        g.apply(quiet(g))
    assert [e["unit"] for e in events(g, "rest")] == ["hero_1", "hero_2"]


# -------------------------------------------------------------------------------------------- EXPL-03


def test_R_EXPL_03_the_text_of_every_occupied_area_in_reading_order(arena):
    """hero_0 in B, hero_1 in A, nobody in F: A's event fires before B's (A comes first in reading
    order), F's do not. Events of scope "all" fire once: the next Explore phase reads nothing."""
    g = new(arena, [(8, 2), (2, 2), (20, 20)], heroes=["bram", "ysolde", "hob"])
    g.dice.force(6)  # Bram's Strong check in B
    explore(g, STAY, STAY, STAY)
    assert fired(g) == [0, 5]
    assert events(g, "room_event")[0]["heroes"] == ["hero_1"]
    explore(g, STAY, STAY, STAY)
    assert fired(g) == [0, 5]


# -------------------------------------------------------------------------------------------- EXPL-04


def test_R_EXPL_04_explore_only_text_affects_only_the_exploring_heroes(arena):
    """All three in room A, only hero_1 explores: e0 (all) costs everyone 1, e1 (exploring) costs
    hero_1 2 more."""
    g = new(arena, [(2, 2), (3, 2), (4, 2)])
    before = health(g)
    explore(g, STAY, EXPLORE, STAY)
    assert fired(g) == [0, 1]
    assert [b - a for a, b in zip(health(g), before, strict=True)] == [1, 3, 1]
    assert events(g, "room_event")[1]["heroes"] == ["hero_1"]


def test_R_EXPL_04_explore_only_text_waits_for_an_explorer(arena):
    g = new(arena, [(2, 2), (3, 2), (4, 2)])
    explore(g, STAY, STAY, STAY)
    assert fired(g) == [0]
    explore(g, STAY, STAY, EXPLORE)
    assert fired(g) == [0, 1]


def test_R_EXPL_04_a_choice_goes_to_the_first_exploring_hero(arena):
    """In room F hero_0 stays, hero_1 and hero_2 explore: hero_1 chooses; option 1 is a Pouch of Gold."""
    g = new(arena, [(8, 8), (8, 10), (10, 11)])
    explore(g, STAY, EXPLORE, EXPLORE)
    assert g.decision == (Decision.EVENT_CHOICE, 1)
    assert g.legal_actions() == [CHOICE_0, CHOICE_0 + 1]
    g.apply(CHOICE_0 + 1)
    pouch = [i for i in inventory.held(g, 1) if g.item_cards[int(g.state.item_card[i])].id == "gold_pouch"]
    assert pouch and events(g, "event_choice", unit="hero_1", option=1)


# -------------------------------------------------------------------------------------------- EXPL-05


def test_R_EXPL_05_an_item_found_goes_to_an_exploring_hero_who_takes_it(arena):
    """The sword in F is offered to the exploring heroes in slot order: hero_0 passes, hero_1 (staying)
    is never asked, hero_2 takes it."""
    g = new(arena, [(8, 8), (8, 10), (10, 11)])
    explore(g, EXPLORE, STAY, EXPLORE)
    g.apply(CHOICE_0)  # hero_0 answers the fountain first (file order)
    assert g.decision == (Decision.CLAIM_ITEM, 0)
    g.apply(PASS)
    assert g.decision == (Decision.CLAIM_ITEM, 2)
    g.apply(TAKE)
    (found,) = events(g, "item_found")
    assert found["unit"] == "hero_2" and g.state.item_holder[found["item"]] == 2
    assert g.item_cards[int(g.state.item_card[found["item"]])].id == "short_sword"


def test_R_EXPL_05_an_item_every_explorer_passes_is_left(arena):
    g = new(arena, [(8, 8), (8, 10), (10, 11)])
    explore(g, EXPLORE, STAY, STAY)
    g.apply(CHOICE_0)
    g.apply(PASS)
    (left,) = events(g, "item_left")
    assert g.state.item_holder[left["item"]] < 0
    assert not any(inventory.held(g, u) for u in range(3))
    with pytest.raises(IllegalActionError):
        g.apply(TAKE)  # nobody is being asked any more


# -------------------------------------------------------------------------------------------- EXPL-06


def test_R_EXPL_06_choices_then_text_then_other_actions_then_trap_detection(arena):
    """Ilsabet (Learned) holds a face-down potion: in room A the order is the explore choices, A's
    text, her Identify roll (an other Explore action), then the Detect Traps rolls."""
    g = new(arena, [(2, 2), (3, 2), (4, 2)], heroes=["ilsabet", "corvin", "hob"])
    potion = inventory.create(g, "healing_potion")
    inventory.give(g, potion, 0)
    explore(g, EXPLORE, STAY, STAY)
    assert g.decision == (Decision.HERO_ACT, 0)
    assert ITEM_0 in g.legal_actions()
    g.apply(ITEM_0)
    assert IDENTIFY in g.legal_actions()
    g.apply(IDENTIFY)
    g.apply(END)
    kinds = [(e["type"], e.get("check")) for e in g.events]
    order = [
        max(i for i, k in enumerate(kinds) if k[0] == "explore_choice"),
        min(i for i, k in enumerate(kinds) if k[0] == "room_event"),
        kinds.index(("roll", "identify")),
        kinds.index(("roll", "detect_traps")),
        next(i for i, e in enumerate(g.events) if e.get("phase") == "trade"),
    ]
    assert order == sorted(order)
    assert min(i for i, k in enumerate(kinds) if k[0] == "explore_choice") > kinds.index(("phase", None))


# -------------------------------------------------------------------------------------------- EXPL-07


def test_R_EXPL_07_the_five_traits():
    assert TRAITS == ("strong", "agile", "perceptive", "learned", "iron_willed")


@pytest.mark.parametrize(
    ("hero", "die", "success"), [("bram", 3, True), ("corvin", 3, False), ("corvin", 4, True)]
)
def test_R_EXPL_07_a_trait_check_is_d6_plus_1_with_the_trait_4_to_6_succeeds(arena, hero, die, success):
    """Room B's heavy lid checks Strong: a success gives the Blood Ruby, a failure costs 1 Health."""
    g = new(arena, [(8, 2), (20, 20), (21, 20)], heroes=[hero, "ysolde", "hob"])
    g.dice.force(die)
    before = health(g)[0]
    explore(g, STAY, STAY, STAY)
    (roll,) = rolls(g, "trait_check")
    assert roll["actor"] == "hero_0" and roll["modifiers"] == ({"strong": 1} if hero == "bram" else {})
    assert roll["result"] == ("success" if success else "fail")
    cards = [g.item_cards[int(g.state.item_card[i])].id for i in inventory.held(g, 0)]
    assert (cards == ["ruby"]) == success
    assert health(g)[0] == before - (0 if success else 1)


# -------------------------------------------------------------------------------------------- ambushes


def test_R_MON_09_event_ambush_monsters_follow_the_ambusher_rules_whatever_their_card(arena):
    """Revised 2026-12-01: exploring corridor t brings two Goblins (not Ambushers by their card) as
    an ambush: every hero makes an Ambusher Surprise roll (ready only on a 6), the Goblins are never
    surprised, and combat cuts the rest of the Explore and the Trade phase short (ruling D-E1)."""
    g = new(arena, [(6, 4), (6, 5), (20, 20)])
    g.dice.force(6, 6, 6)
    explore(g, EXPLORE, STAY, STAY)
    spawned = events(g, "spawn", how="ambush")
    assert [(e["unit"]["name"], e["at"]) for e in spawned] == [("Goblin", [6, 1]), ("Goblin", [6, 2])]
    assert len(rolls(g, "ambush_surprise")) == 3 and not rolls(g, "surprise")
    assert not events(g, "monsters_surprised") and not g.state.skip_move.any()
    assert not rolls(g, "detect_traps") and not events(g, "detect_traps")
    assert "trade" not in phases(g)[-3:] and g.state.turn == 2


def test_R_MON_09_event_ambush_die_5_surprises(arena):
    """A 5 is not enough against an event ambush of Goblins (Ambusher rules: a 6 is needed)."""
    g = new(arena, [(6, 4), (6, 5), (20, 20)])
    g.dice.force(5, 6, 6)
    explore(g, EXPLORE, STAY, STAY)
    assert [e["result"] for e in rolls(g, "ambush_surprise")] == ["surprised", "ready", "ready"]
    assert g.state.surprised[0] and not g.state.surprised[1]


def test_R_SURP_08_surprise_rolled_in_explore_lasts_through_the_next_turn(arena):
    """A-25 revised: surprised by the Explore-phase ambush of turn 1, hero_0 is still surprised all
    through turn 2 (the first turn of combat with the Goblins): it skips its Movement and cannot
    Evade; hero_1, ready, moves. In turn 3 hero_0 acts again."""
    g = new(arena, [(6, 4), (6, 5), (20, 20)])
    g.dice.force(1, 6, 6)
    explore(g, EXPLORE, STAY, STAY)
    s = g.state
    assert s.turn == 2 and s.surprised[0] and not s.surprised[1]
    asked = []
    while s.turn == 2 and not g.over:
        asked.append(g.decision)
        g.apply(idle(g))
    kinds_of_0 = {kind for kind, unit in asked if unit == 0}
    assert Decision.HERO_MOVE not in kinds_of_0 and Decision.HERO_EVADE not in kinds_of_0
    assert (Decision.HERO_MOVE, 1) in asked
    assert s.turn == 3 and not s.surprised[0]


def test_event_ambush_with_ambushers_uses_the_ambusher_rules(arena):
    g = new(arena, [(6, 10), (20, 20), (21, 20)])
    g.dice.force(6, 6, 6)
    explore(g, EXPLORE, STAY, STAY)
    assert [e["unit"]["name"] for e in events(g, "spawn", how="ambush")] == ["Giant Spider"]
    assert len(rolls(g, "ambush_surprise")) == 3 and not rolls(g, "surprise")


# -------------------------------------------------------------------------------------------- secret doors


def test_a_secret_door_is_a_wall_until_room_text_reveals_it(arena):
    """hero_0 on (11,1) in room B: the hidden door east is no door at all (no Open Doors attempt, no
    sight through it). Exploring B reveals it (and B's Strong check is made); then it can be opened."""
    g = new(arena, [(11, 1), (20, 20), (21, 20)])
    assert g.state.door_hidden[SECRET]
    enter_phase(g, Phase.HERO_MOVEMENT)
    assert ME not in g.legal_actions()
    assert not sees(g, g.square(11, 1), g.square(12, 1))
    g.dice.force(6)
    explore(g, EXPLORE, STAY, STAY)
    assert not g.state.door_hidden[SECRET]
    assert events(g, "secret_door")[0]["squares"] == [[11, 1], [12, 1]]
    enter_phase(g, Phase.HERO_MOVEMENT)
    assert ME in g.legal_actions()
    g.dice.force(6)
    g.apply(ME)
    assert rolls(g, "open_door")[-1]["result"] == "opened" and g.state.door_open[SECRET]


# -------------------------------------------------------------------------------------------- END-02/03


@pytest.mark.parametrize("name", adventure_names())
def test_R_END_02_every_adventure_has_its_own_exit(name):
    adv = load_adventure(name)
    g = Game.new(adventure=name, heroes=3)
    exits = {g.xy(int(q)) for q in range(g.tables.n_squares) if g.tables.exit[q]}
    assert exits == set(adv.exits) and not exits & set(adv.start)


GOALS = """
[[objective]]
kind = "retrieve"
text = "Bring out the sword."
item = "short_sword"
{primary}
[[objective]]
kind = "rescue"
text = "Free whoever is in room B."
area = "B"
"""


def walk_out(g: Game) -> None:
    """Each living hero in turn is put next to the exit (23,27) and steps out."""
    for h in range(g.state.n_heroes):
        if g.state.unit_status[h] != ACTIVE:
            continue
        enter_phase(g, Phase.HERO_MOVEMENT)
        place(g, h, 23, 26)
        g.state.controller = h
        g.state.stack[-1] = [int(Decision.HERO_MOVE), h, -1, -1]
        g.state_edited()
        g.apply(MS)


def report(g: Game) -> dict:
    return {o["kind"]: (o["primary"], o["met"]) for o in events(g, "end")[0]["objectives"]}


@pytest.mark.parametrize("done", [False, True])
def test_R_END_03_retrieve_and_rescue_goals_are_reported_apart_from_completion(tmp_path, done):
    """Secondary goals: carry out the sword found in room F, explore room B and escape. Met or not,
    leaving completes the adventure; the end report says which goals were met."""
    path = arena_variant(tmp_path, "goal_arena", EXTRA + GOALS.format(primary=""))
    g = new(path, [(8, 8), (8, 2), (20, 20)])
    if done:
        g.dice.force(6)  # hero_1's Strong check in room B
        explore(g, EXPLORE, EXPLORE, STAY)
        g.apply(CHOICE_0)  # hero_0 at the fountain in F
        g.apply(TAKE)
        while g.state.phase != Phase.HERO_MOVEMENT:
            g.apply(quiet(g))
    walk_out(g)
    assert g.outcome == "completed"
    assert report(g) == {"escape": (True, True), "retrieve": (False, done), "rescue": (False, done)}


def test_R_END_03_rescue_needs_the_party_to_escape(tmp_path):
    """Room B explored, but every hero dies inside: the rescue is not met."""
    path = arena_variant(tmp_path, "goal_arena", EXTRA + GOALS.format(primary=""))
    g = new(path, [(8, 2), (9, 2), (10, 2)])
    g.dice.force(6)
    explore(g, EXPLORE, STAY, STAY)
    assert g.state.explored_bits >> g.tables.board.area_names.index("B") & 1
    for h in range(3):
        kill_hero(g, h)
    g.check_end()
    assert g.outcome == "failed" and report(g)["rescue"] == (False, False)


def test_R_END_03_a_retrieved_item_on_a_corpse_carried_out_counts(tmp_path):
    path = arena_variant(tmp_path, "goal_arena", EXTRA + GOALS.format(primary=""))
    g = new(path, [(22, 27), (21, 27), (20, 27)])
    sword = inventory.create(g, "short_sword")
    inventory.give(g, sword, 1)
    kill_hero(g, 1)
    take_off(g, 1)
    g.state.unit_status[1] = 4  # CORPSE_OUT: dragged out with its gear
    walk_out(g)
    assert report(g)["retrieve"] == (False, True)


def test_R_END_03_a_primary_retrieve_goal_not_met_is_reported_beside_completion(tmp_path):
    path = arena_variant(tmp_path, "goal_arena", EXTRA + GOALS.format(primary="primary = true"))
    g = new(path, [(20, 20), (21, 20), (22, 20)])
    walk_out(g)
    assert g.outcome == "completed" and not g.goals_met
    assert "goals not met: Bring out the sword." in g.state.end_reason
    assert all(g.state.unit_status[h] == EXITED for h in range(3))
