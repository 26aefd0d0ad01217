"""The Trade phase (R-TRADE-01..04): give one, receive one, within one room or corridor; none in
combat; a resting hero may trade; looting a corpse.

Positions on the test arena: corridor a is the top row (x 0..6, y 0); room A (x 1..5, y 1..5) is
behind the closed door (3,0)-(3,1)::

    y0    .  h0 h1 .  h2 .  .      corridor a
          ====== door ======
    y1..5 room A
"""

from __future__ import annotations

from dungeon_env.engine import Decision, Game, Phase, inventory
from dungeon_env.engine.actions import BACK, END, GIVE, ITEM_0, LOOT, TARGET_0, TARGET_GIVE, TARGET_LOOT
from dungeon_env.engine.units import kill_hero
from tests.builders import add_monster, arena_game, enter_phase, events, place, quiet

PLAIN = ["corvin", "ysolde", "hob"]


def party(at=((1, 0), (2, 0), (4, 0)), gear=((0, "short_sword"), (0, "torch"))) -> tuple[Game, list[int]]:
    g = arena_game(PLAIN)
    for u in range(3):
        place(g, u, 20 + u, 26)
    for u, (x, y) in enumerate(at):
        place(g, u, x, y)
    made = []
    for u, card in gear:
        item = inventory.create(g, card)
        inventory.give(g, item, u)
        made.append(item)
    enter_phase(g, Phase.TRADE)
    return g, made


def give(g: Game, k: int, target: int) -> None:
    """The hero being asked gives its k-th item to the target-th candidate: ITEM_k, the verb GIVE,
    then the receiver (both questions also offer BACK, ruling D-08b)."""
    g.apply(ITEM_0 + k)
    assert g.decision[0] == Decision.ITEM_VERB and g.legal_actions() == [GIVE, BACK]
    g.apply(GIVE)
    assert g.decision[0] == Decision.CHOOSE_TARGET and g.decision_args[0] == TARGET_GIVE
    assert g.legal_actions()[-1] == BACK
    g.apply(TARGET_0 + target)


# ------------------------------------------------------------------------------------------- TRADE-01


def test_R_TRADE_01_each_hero_gives_at_most_one_and_receives_at_most_one():
    """hero_0 holds a sword and a torch: it gives the sword to hero_1 (candidates hero_1, hero_2);
    then it may not give again (its turn ends by itself). hero_1, who has received, may still give,
    to hero_0 or hero_2."""
    g, (sword, torch) = party()
    assert g.decision == (Decision.HERO_ACT, 0)
    assert g.legal_actions() == [END, ITEM_0, ITEM_0 + 1]
    g.apply(ITEM_0)
    g.apply(GIVE)
    assert g.decision[0] == Decision.CHOOSE_TARGET and g.decision_args == (TARGET_GIVE, sword)
    assert g.legal_actions() == [TARGET_0, TARGET_0 + 1, BACK]  # hero_1, hero_2
    g.apply(TARGET_0)
    assert g.state.item_holder[sword] == 1 and g.state.gave[0] and g.state.received[1]
    assert events(g, "trade") == [
        {"type": "trade", "from": "hero_0", "to": "hero_1", "item": sword, "turn": 1}
    ]
    assert g.decision == (Decision.HERO_ACT, 1)  # hero_0 had nothing left to do
    g.apply(ITEM_0)
    g.apply(GIVE)
    assert g.legal_actions() == [TARGET_0, TARGET_0 + 1, BACK]  # hero_0, hero_2
    g.apply(TARGET_0 + 1)
    assert g.state.item_holder[sword] == 2 and g.state.item_holder[torch] == 0


def test_R_TRADE_01_a_hero_that_has_received_is_no_candidate():
    """hero_0 gives to hero_1; then hero_2's torch can only go to hero_0."""
    g, (sword, torch) = party(gear=((0, "short_sword"), (2, "torch")))
    give(g, 0, 0)
    assert g.state.item_holder[sword] == 1
    assert g.decision == (Decision.HERO_ACT, 1)  # hero_1 may pass the sword on: it does not
    g.apply(END)
    assert g.decision == (Decision.HERO_ACT, 2)
    give(g, 0, 0)  # the single candidate
    assert g.state.item_holder[torch] == 0
    assert [(e["from"], e["to"]) for e in events(g, "trade")] == [("hero_0", "hero_1"), ("hero_2", "hero_0")]


# ------------------------------------------------------------------------------------------- TRADE-02


def test_R_TRADE_02_both_sides_in_the_same_room_or_corridor():
    """hero_2 is in room A behind the door: hero_0's only candidate is hero_1, and hero_2, alone in
    its room, has nobody to trade with (it is not even asked, ruling D-08)."""
    g, (sword, torch) = party(at=((1, 0), (2, 0), (3, 2)), gear=((0, "short_sword"), (2, "torch")))
    give(g, 0, 0)  # the single candidate
    assert g.state.item_holder[sword] == 1 and g.state.item_holder[torch] == 2
    assert g.decision == (Decision.HERO_ACT, 1)
    g.apply(END)
    assert [(e["from"], e["to"]) for e in events(g, "trade")] == [("hero_0", "hero_1")]
    assert g.state.turn == 2


def test_R_TRADE_02_heroes_side_by_side_across_a_segment_boundary_may_trade():
    """Revised 2026-12-01: hero_0 at (6, 0) in corridor a and hero_1 at (7, 0) in corridor b stand
    side by side (segment boundaries are invisible to players): they may trade. hero_2, further
    along corridor b, is neither in hero_0's segment nor beside it: no candidate."""
    g, (sword,) = party(at=((6, 0), (7, 0), (12, 0)), gear=((0, "short_sword"),))
    assert g.tables.area[g.square(6, 0)] != g.tables.area[g.square(7, 0)]
    assert g.decision == (Decision.HERO_ACT, 0)
    g.apply(ITEM_0)
    g.apply(GIVE)
    assert g.legal_actions() == [TARGET_0, BACK]  # hero_1 only: hero_2 is neither in a nor beside
    g.apply(TARGET_0)
    assert g.state.item_holder[sword] == 1


def test_R_TRADE_02_no_trade_side_by_side_across_a_closed_door():
    """hero_0 at (3, 0) in corridor a and hero_1 at (3, 1) in room A, the closed door between: no
    trade."""
    g, made = party(at=((3, 0), (3, 1), (20, 20)), gear=((0, "short_sword"),))
    assert not events(g, "trade") and g.state.phase != Phase.TRADE


def test_D_08b_giving_away_offers_back_and_the_item_is_kept():
    """Issue "destructive single choices": a hero who picks an item to give can go back from the
    verb and from the receiver; the item stays, and is not offered again this phase."""
    g, (sword, torch) = party()
    g.apply(ITEM_0)
    g.apply(GIVE)
    g.apply(BACK)
    assert g.state.item_holder[sword] == 0 and not g.state.gave[0]
    assert g.decision == (Decision.HERO_ACT, 0) and g.legal_actions() == [END, ITEM_0 + 1]
    g.apply(ITEM_0 + 1)
    g.apply(BACK)  # nothing is left to offer hero_0, nobody else holds anything: the turn ends
    assert g.state.item_holder[torch] == 0 and g.state.turn == 2 and not events(g, "trade")
    assert [e.get("item") for e in events(g, "back")] == [sword, torch]


# ------------------------------------------------------------------------------------------- TRADE-03


def test_R_TRADE_03_no_trade_phase_in_combat():
    g = arena_game(PLAIN)
    sword = inventory.create(g, "short_sword")
    inventory.give(g, sword, 0)
    add_monster(g, "goblin", 20, 20)
    while g.state.turn == 1:
        assert g.state.phase != Phase.TRADE
        g.apply(quiet(g))
    assert not [e for e in g.events if e["type"] == "phase" and e["phase"] == "trade"]
    assert not events(g, "trade")


def test_R_TRADE_03_a_resting_hero_may_trade_and_still_rests():
    """Nobody moves; hero_0 gives its sword to hero_1 in the Trade phase: all three Rest."""
    g, (sword, torch) = party()
    give(g, 0, 0)
    while g.state.turn == 1:
        g.apply(quiet(g))
    assert [e["unit"] for e in events(g, "rest")] == ["hero_0", "hero_1", "hero_2"]


# ------------------------------------------------------------------------------------------- TRADE-04


def test_R_TRADE_04_looting_a_corpse_counts_as_the_receive():
    """hero_1 lies dead in corridor a with a sword and a torch: hero_0 loots the torch (the second
    candidate); then nobody may give to it, while hero_2 may still loot."""
    g, (sword, torch, axe) = party(gear=((1, "short_sword"), (1, "torch"), (2, "battle_axe")))
    kill_hero(g, 1)
    enter_phase(g, Phase.TRADE)
    assert g.decision == (Decision.HERO_ACT, 0) and g.legal_actions() == [END, LOOT]
    g.apply(LOOT)
    assert g.decision[0] == Decision.CHOOSE_TARGET and g.decision_args[0] == TARGET_LOOT
    assert g.legal_actions() == [TARGET_0, TARGET_0 + 1]
    g.apply(TARGET_0 + 1)
    assert g.state.item_holder[torch] == 0 and g.state.received[0]
    (loot,) = events(g, "loot")
    assert (loot["unit"], loot["corpse"], loot["item"]) == ("hero_0", "hero_1", torch)
    assert LOOT not in g.legal_actions()
    g.apply(END)
    assert g.decision == (Decision.HERO_ACT, 2)
    assert g.legal_actions() == [END, LOOT]  # no giving: hero_0 has received already


def test_R_TRADE_04_no_looting_across_a_door():
    """The corpse lies in room A, the living in corridor a: nothing to loot, nobody is asked."""
    g, made = party(at=((1, 0), (3, 2), (4, 0)), gear=((1, "short_sword"),))
    kill_hero(g, 1)
    turn = g.state.turn
    enter_phase(g, Phase.TRADE)
    assert not events(g, "loot") and g.state.turn == turn + 1
