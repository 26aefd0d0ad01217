"""Items: the five decks, inventories, using items (ruling A-58), identifying (R-IDENT-01..06),
Magic from items (R-REST-01), Light (R-LIGHT-01/03), healing off Death's Door (R-DMG-08), surprise
(R-SURP-06) and the bonuses of carried gear.

Positions on the test arena (tests/data/arena.toml): room B is x 7-11, y 1-5; the heroes not in
use wait in corridor c at (14,0), (16,0), (18,0). Items are put into a hero's hands with
``give_item`` (a new copy of a card: face down for potions, scrolls and magic items unless told).
Statistical tests call the engine's own ``items.identify`` n times and check
|p_hat - p| <= 4 sqrt(p (1 - p) / n), n from a power calculation (``tests/sampling.py``).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from dungeon_env.content import load_items
from dungeon_env.content.model import DECKS
from dungeon_env.engine import Decision, Game, Phase, effects, inventory, items, turn
from dungeon_env.engine.actions import (
    ABILITY_0,
    BACK,
    END,
    GIVE,
    IDENTIFY,
    MAX_ITEMS_HELD,
    MOVE_ACTIONS,
    TARGET_0,
    TARGET_GIVE,
    USE,
)
from dungeon_env.engine.game import IllegalActionError
from tests.builders import (
    add_monster,
    arena_game,
    enter_phase,
    events,
    finish_turn,
    give_item,
    item_action,
    my_move,
    pick_item,
    place,
    play_to,
    rolls,
    set_unit,
    to_hero_act,
)
from tests.sampling import assert_rate, trials_for, trials_for_all

# An identify roll is one d6: a rule that gets any face wrong moves a result's rate (1/6, 1/3, 1/2) by
# 1/6 or more. Retrying until a result sticks identifies with P(identified) / (P(identified) +
# P(never)) = 3/4, which a retry roll with one face wrong moves by 1/20 or more (3/6 : 1/6 becomes
# 4/6 : 1/6, 4/5). Each count finds its deviation with probability >= 0.9999 (tests/sampling.py).
N = trials_for_all([Fraction(1, 6), Fraction(1, 3), Fraction(1, 2)], Fraction(1, 6))
N_RETRIED = trials_for(Fraction(3, 4), Fraction(1, 20))
PLAIN_LEARNED = ("orwin", "bram", "hob")  # Orwin: Learned, no identify_bonus ability (Ilsabet has +1)
MOVE_N, MOVE_E, MOVE_S, MOVE_W = MOVE_ACTIONS


def game(heroes=("ilsabet", "bram", "hob"), seed: int = 4) -> Game:
    """Ilsabet (Learned, Perceptive), Bram (Strong, Iron-Willed), Hob; moved to corridor c."""
    g = arena_game(list(heroes), seed=seed)
    for u, x in zip(range(len(heroes)), (14, 16, 18), strict=False):
        place(g, u, x, 0)
    return g


# -------------------------------------------------------------------------------------------- decks


def test_five_decks_hold_every_copy_shuffled_from_the_decks_stream():
    """R-BOARD-04: the five decks exist, each holding every copy of its cards; the order depends on
    the seed only (the "decks" stream), and the set-up shuffle leaves forced dice alone."""
    cards = load_items()
    g1, g2, g3 = game(seed=1), game(seed=1), game(seed=2)
    orders = []
    for g in (g1, g2, g3):
        order = []
        for d, deck in enumerate(DECKS):
            drawn = [int(c) for c in g.state.deck_cards[d] if c >= 0]
            expected = Counter({g.item_index[c.id]: c.copies for c in cards.values() if c.deck == deck})
            assert Counter(drawn) == expected
            order.append(drawn)
        orders.append(order)
    assert orders[0] == orders[1] and orders[0] != orders[2]
    forced = Game.new(
        adventure=g1.adventure_ref, heroes=["ilsabet", "bram", "hob"], seed=1, forced_dice=(6, 6)
    )
    assert forced.state.deck_cards.tolist() == g1.state.deck_cards.tolist()
    assert sum(e["type"] == "roll" for e in forced.events) + forced.dice.forced_left == 2


def test_draw_takes_the_top_card_and_an_empty_deck_gives_nothing():
    g = game()
    d = DECKS.index("treasure")
    top = int(g.state.deck_cards[d, 0])
    slot = inventory.draw(g, "treasure")
    assert g.state.item_card[slot] == top and g.state.item_holder[slot] == inventory.NOBODY
    size = sum(c.copies for c in g.item_cards if c.deck == "treasure")
    for _ in range(size - 1):
        assert inventory.draw(g, "treasure") >= 0
    assert inventory.draw(g, "treasure") == -1
    assert [e["deck"] for e in events(g, "draw")] == ["treasure"] * size


def test_inventory_holds_at_most_12_items():
    g = game()
    for _ in range(MAX_ITEMS_HELD):
        give_item(g, 0, "torch")
    extra = inventory.create(g, "torch")
    assert not inventory.can_hold(g, 0) and not inventory.give(g, extra, 0)
    assert len(inventory.held(g, 0)) == MAX_ITEMS_HELD and g.state.item_holder[extra] == inventory.NOBODY


# ------------------------------------------------------------------------------------------ IDENT 01


def test_R_IDENT_01_potions_scrolls_and_magic_items_are_drawn_face_down():
    g = game()
    for deck in DECKS:
        slot = inventory.draw(g, deck)
        assert bool(g.state.item_known[slot]) == (deck in ("treasure", "gear")), deck


# ------------------------------------------------------------------------------------------ IDENT 02


def test_R_IDENT_02_only_a_learned_hero_identifies_once_per_explore_phase():
    """Bram (not Learned) cannot identify; Ilsabet (Learned) tries once (die 2: not yet), then not
    again in this phase; in the next Explore phase she may try again (die 5: identified)."""
    g = game()
    mine = give_item(g, 0, "ring_of_valor")
    other = give_item(g, 0, "healing_potion")
    bram = give_item(g, 1, "ring_of_valor")
    assert IDENTIFY not in items.item_verbs(g, 1, bram, "explore")
    to_hero_act(g, 0)
    assert item_action(g, 0, mine) in g.legal_actions()
    g.dice.force(2)
    pick_item(g, 0, mine)  # IDENTIFY is the ring's only verb: taken at once (D-08)
    assert g.decision == (Decision.HERO_ACT, 0)
    assert [r["result"] for r in rolls(g, "identify")] == ["not_yet"]
    assert IDENTIFY not in items.item_verbs(g, 0, mine, "explore")
    assert IDENTIFY not in items.item_verbs(g, 0, other, "explore")  # one attempt per phase, any item
    assert item_action(g, 0, mine) not in g.legal_actions()
    with pytest.raises(IllegalActionError):
        pick_item(g, 0, mine)
    assert items.item_actions(g, 1, "explore") == []  # Bram has nothing to do with his ring
    finish_turn(g)
    to_hero_act(g, 0)
    g.dice.force(5)
    pick_item(g, 0, mine)
    assert g.state.item_known[mine]
    assert events(g, "item_identified")[0]["how"] == "identify"


def test_R_IDENT_02_R_REST_02_identifying_breaks_rest():
    g = game()
    ring = give_item(g, 0, "ring_of_valor")
    to_hero_act(g, 0)
    g.dice.force(3)
    pick_item(g, 0, ring)
    finish_turn(g)
    assert "hero_0" not in [e["unit"] for e in events(g, "rest")]


# ------------------------------------------------------------------------------------------ IDENT 03


@pytest.mark.parametrize(
    ("die", "result"), [(1, "never"), (2, "not_yet"), (3, "not_yet"), (4, "identified"), (6, "identified")]
)
def test_R_IDENT_03_identify_roll_bands(die, result):
    g = game(PLAIN_LEARNED)
    ring = give_item(g, 0, "ring_of_valor")
    g.dice.force(die)
    items.identify(g, 0, ring)
    assert rolls(g, "identify")[0]["result"] == result
    assert bool(g.state.item_known[ring]) == (result == "identified")
    assert bool(g.state.item_locked[ring]) == (result == "never")


def test_R_IDENT_03_identify_statistics_and_eventual_success():
    """One roll: 1/6 never, 1/3 not yet, 1/2 identified. Retrying every Explore phase until a
    result sticks identifies the item with probability 3/4."""
    g = game(PLAIN_LEARNED)
    s = g.state
    ring = give_item(g, 0, "ring_of_valor")
    for _ in range(N):
        s.item_known[ring] = s.item_locked[ring] = s.identified[0] = False
        items.identify(g, 0, ring)
    results = Counter(e["result"] for e in rolls(g, "identify"))
    assert_rate(results["never"], N, Fraction(1, 6))
    assert_rate(results["not_yet"], N, Fraction(1, 3))
    assert_rate(results["identified"], N, Fraction(1, 2))
    g.events.clear()
    eventually = 0
    for _ in range(N_RETRIED):
        s.item_known[ring] = s.item_locked[ring] = False
        while not (s.item_known[ring] or s.item_locked[ring]):
            s.identified[0] = False  # a new Explore phase
            items.identify(g, 0, ring)
        eventually += bool(s.item_known[ring])
    assert_rate(eventually, N_RETRIED, Fraction(3, 4))


def test_A_43_an_identify_1_locks_the_item_for_everyone_until_the_adventure_ends():
    """Orwin rolls 1 on the ring; he gives it to Maelis (Learned): she cannot try either. At the
    adventure's end it is identified."""
    g = game(("orwin", "maelis", "hob"))
    ring = give_item(g, 0, "ring_of_valor")
    g.dice.force(1)
    items.identify(g, 0, ring)
    inventory.give(g, ring, 1)
    assert not items.can_identify(g, 1, ring)
    assert items.item_verbs(g, 1, ring, "explore") == []
    inventory.end_adventure(g)
    assert g.state.item_known[ring] and not g.state.item_locked[ring]


# ------------------------------------------------------------------------------------------ IDENT 04


def test_R_IDENT_04_every_unidentified_item_is_identified_at_the_end():
    g = game()
    slots = [
        give_item(g, u, card) for u, card in ((0, "ring_of_valor"), (1, "scroll_sleep"), (2, "mana_potion"))
    ]
    lying = inventory.draw(g, "potions")
    assert not any(g.state.item_known[slots])
    inventory.end_adventure(g)
    assert all(g.state.item_known[slots]) and g.state.item_known[lying]
    assert [e["how"] for e in events(g, "item_identified")] == ["adventure_end"] * 4


# ------------------------------------------------------------------------------------------ IDENT 05


def test_R_IDENT_05_an_unidentified_magic_item_cannot_be_used_nor_give_its_bonus():
    """Bram holds a face-down Staff of Mending (usable) and Runeblade (+2 while carried): neither
    is offered in his Movement and the blade adds nothing to his Fight until identified."""
    g = game()
    staff = give_item(g, 1, "staff_of_mending")
    blade = give_item(g, 1, "runeblade")
    set_unit(g, 1, health=5)
    my_move(g, 1)
    assert item_action(g, 1, staff) not in g.legal_actions()
    assert effects.fight_modifiers(g, 1) == {}
    g.state.item_known[[staff, blade]] = True
    g.state_edited()
    assert item_action(g, 1, staff) in g.legal_actions()
    assert effects.fight_modifiers(g, 1) == {"item:runeblade": 2}


# ------------------------------------------------------------------------------------------ IDENT 06


def test_R_IDENT_06_an_unidentified_potion_can_be_drunk_and_is_revealed():
    """Hob drinks a face-down potion in his Movement: it was Healing (+4); it is revealed and gone,
    and he keeps all his movement (A-58: no movement cost)."""
    g = game()
    potion = give_item(g, 2, "healing_potion")
    set_unit(g, 2, health=1)
    my_move(g, 2)
    left = int(g.state.move_left[2])
    pick_item(g, 2, potion)  # USE, the only verb (D-08)
    assert g.state.health[2] == 5 and g.state.move_left[2] == left
    assert events(g, "item_identified")[0]["how"] == "use"
    assert inventory.held(g, 2) == [] and g.state.item_holder[potion] == inventory.DESTROYED
    assert g.decision == (Decision.HERO_MOVE, 2)


def test_R_IDENT_06_an_unidentified_elixir_of_life_is_revealed_and_kept():
    """The Elixir only works between adventures (timing "campaign"): drunk face-down in the dungeon
    it is revealed, has no effect and stays; identified, it cannot be used in play at all."""
    g = game()
    elixir = give_item(g, 2, "elixir_of_life")
    my_move(g, 2)
    pick_item(g, 2, elixir)
    assert g.state.item_known[elixir] and inventory.held(g, 2) == [elixir]
    assert events(g, "item_wasted")[0]["card"] == "elixir_of_life"
    assert item_action(g, 2, elixir) not in g.legal_actions()
    talisman = give_item(g, 2, "holy_talisman", known=True)
    assert not items.can_use(g, 2, talisman, "explore")


# ------------------------------------------------------------------------------------------


def test_A_58_R_SURP_06_items_in_movement_and_evasion_but_not_while_surprised():
    """In combat: Hob uses a torch in his Movement and a ration in Evasion; surprised, he can do
    neither (R-SURP-06) and is not asked at all."""
    g = game()
    add_monster(g, "orc", 9, 1)
    place(g, 2, 9, 4)
    torch = give_item(g, 2, "torch")
    rations = give_item(g, 2, "rations")
    g.state.light = 10
    set_unit(g, 2, stamina=4)
    my_move(g, 2)
    pick_item(g, 2, torch)
    assert g.state.light == 13
    play_to(g, Decision.HERO_EVADE, 2)
    assert item_action(g, 2, rations) in g.legal_actions()
    pick_item(g, 2, rations)
    assert g.state.stamina[2] == 7
    g.state.surprised[2] = True
    assert items.item_actions(g, 2, "movement") == items.item_actions(g, 2, "explore") == []
    assert items.item_actions(g, 2, "evasion") == []


def test_A_58_a_hero_at_1_stamina_drinks_a_potion_in_evasion():
    """Revised 2026-12-06: Hob at Stamina 1 cannot pay for an Evade step, but he is still asked in
    the Evasion phase, right after the monsters have moved, because he holds a Stamina Draught:
    he drinks it (no Evade step offered before), and with the Stamina back he may then Evade."""
    g = game()
    add_monster(g, "orc", 9, 1)
    place(g, 2, 9, 4)
    draught = give_item(g, 2, "stamina_draught", known=True)
    set_unit(g, 2, stamina=1)
    play_to(g, Decision.HERO_EVADE, 2)
    legal = g.legal_actions()
    assert item_action(g, 2, draught) in legal and not set(legal) & set(MOVE_ACTIONS)
    pick_item(g, 2, draught)
    assert g.state.stamina[2] > 1 and events(g, "item_used", unit="hero_2")
    assert g.decision == (Decision.HERO_EVADE, 2) and set(g.legal_actions()) & set(MOVE_ACTIONS)


def test_A_58_an_exhausted_hero_with_nothing_to_do_in_evasion_is_not_asked():
    """Revised 2026-12-06: the window is offered when there is something to do in it. An Exhausted
    Hob is asked for his Hearty Rations (an Active ability of his Evasion); once it is used up, with
    no item either, he is not asked; with a known potion he is, and may only drink it or end."""
    g = game()
    add_monster(g, "orc", 9, 1)
    place(g, 2, 9, 4)
    set_unit(g, 2, stamina=3, exhausted=True)
    enter_phase(g, Phase.EVASION)
    while g.decision != (Decision.HERO_EVADE, 2):
        g.apply(END)
    assert g.legal_actions() == sorted([END, ABILITY_0, *turn.handoffs(g, 2)])
    g = game()
    add_monster(g, "orc", 9, 1)
    place(g, 2, 9, 4)
    set_unit(g, 2, stamina=3, exhausted=True)
    g.state.ability_uses[2, 0] = 1  # Hearty Rations: once per adventure, used
    enter_phase(g, Phase.EVASION)
    asked = []
    while g.state.phase == Phase.EVASION and not g.over:
        asked.append(g.decision)
        g.apply(END)
    assert (Decision.HERO_EVADE, 2) not in asked
    g = game()
    add_monster(g, "orc", 9, 1)
    place(g, 2, 9, 4)
    set_unit(g, 2, stamina=3, exhausted=True)
    g.state.ability_uses[2, 0] = 1
    potion = give_item(g, 2, "healing_potion", known=True)
    enter_phase(g, Phase.EVASION)
    while g.decision != (Decision.HERO_EVADE, 2):
        assert g.state.phase == Phase.EVASION
        g.apply(END)
    assert g.legal_actions() == sorted([END, item_action(g, 2, potion), *turn.handoffs(g, 2)])


def test_A_58_using_an_item_breaks_rest():
    g = game()
    torch = give_item(g, 2, "torch")
    my_move(g, 2)
    pick_item(g, 2, torch)
    finish_turn(g)
    rested = [e["unit"] for e in events(g, "rest")]
    assert "hero_2" not in rested and "hero_1" in rested


def test_A_58_an_item_of_timing_explore_is_used_only_in_the_explore_phase():
    g = game()
    orb = give_item(g, 0, "orb_of_seeing", known=True)
    my_move(g, 0)
    assert item_action(g, 0, orb) not in g.legal_actions()
    assert items.can_use(g, 0, orb, "explore")


def test_a_reusable_item_once_per_turn_and_kept():
    """The Amulet of Vigor gives 1 Stamina once a turn; it is not used up."""
    g = game()
    amulet = give_item(g, 2, "amulet_of_vigor", known=True)
    set_unit(g, 2, stamina=2)
    my_move(g, 2)
    pick_item(g, 2, amulet)
    assert g.state.stamina[2] == 3 and inventory.held(g, 2) == [amulet]
    assert item_action(g, 2, amulet) not in g.legal_actions()
    finish_turn(g)
    play_to(g, Decision.HERO_MOVE, 2)
    assert item_action(g, 2, amulet) in g.legal_actions()


def test_an_item_for_an_ally_asks_the_target_among_the_holder_and_its_neighbours():
    """Hob holds an identified Potion of Healing, Bram (at Death's Door) stands next to him and
    Ilsabet two squares away: the candidates are Bram and Hob (slot order); Bram is healed off
    Death's Door (R-DMG-08)."""
    g = game()
    potion = give_item(g, 2, "healing_potion", known=True)
    place(g, 2, 9, 3)
    place(g, 1, 9, 4)
    place(g, 0, 9, 1)
    set_unit(g, 1, health=0, deaths_door=True)
    my_move(g, 2)
    pick_item(g, 2, potion)
    assert g.decision == (Decision.CHOOSE_TARGET, 2) and g.legal_actions() == [TARGET_0, TARGET_0 + 1]
    g.apply(TARGET_0)
    assert g.state.health[1] == 4 and not g.state.deaths_door[1]
    assert events(g, "item_used")[0]["target"] == "hero_1"


def test_R_DMG_08_a_healing_potion_lifts_a_hero_off_deaths_door():
    g = game()
    bandages = give_item(g, 1, "bandages")
    set_unit(g, 1, health=0, deaths_door=True)
    my_move(g, 1)
    pick_item(g, 1, bandages)
    assert g.state.health[1] == 2 and not g.state.deaths_door[1]


# ------------------------------------------------------------------------------------------ REST 01


def test_R_REST_01_magic_comes_back_only_from_rest_or_items():
    """Ilsabet at Magic 0 walks 5 turns (no Rest): still 0. A Potion of Clarity gives 2 (capped at
    her base 2)."""
    g = game()
    set_unit(g, 0, magic=0)
    for _ in range(5):
        enter_phase(g, Phase.HERO_MOVEMENT)
        play_to(g, Decision.HERO_MOVE, 0)
        step = MOVE_E if MOVE_E in g.legal_actions() else MOVE_W
        g.apply(step)
        finish_turn(g)
    assert g.state.magic[0] == 0 and g.state.turn == 6
    potion = give_item(g, 0, "mana_potion")
    play_to(g, Decision.HERO_MOVE, 0)
    pick_item(g, 0, potion)
    assert g.state.magic[0] == 2


# -------------------------------------------------------------------------------------- LIGHT 01/03


def test_R_LIGHT_01_R_LIGHT_03_a_torch_at_light_19_gives_20():
    g = game()
    g.state.light = 19
    torch = give_item(g, 0, "torch")
    my_move(g, 0)
    pick_item(g, 0, torch)
    assert g.state.light == 20
    assert events(g, "light_raised")[0]["amount"] == 1


# ------------------------------------------------------------------------------------- carried gear


def test_carried_weapons_and_armour_count_in_fights():
    """Bram carries a Short Sword (+1 Fighting, shown in the Fight) and a Battle Axe (+1 Damage);
    Hob wears Leather Armour: the Orc's 2 damage becomes 1, a Goblin's 1 stays 1 (never below 1)."""
    g = game()
    orc = add_monster(g, "orc", 9, 2)
    goblin = add_monster(g, "goblin", 11, 4)
    give_item(g, 1, "short_sword")
    give_item(g, 1, "battle_axe")
    give_item(g, 2, "leather_armour")
    place(g, 1, 9, 3)
    place(g, 2, 11, 5)
    for u in (1, 2, orc, goblin):
        set_unit(g, u, stamina=0)
    assert effects.damage_of(g, 1, orc) == 3
    assert effects.damage_of(g, orc, 2) == 1 and effects.damage_of(g, goblin, 2) == 1
    g.dice.force(6, 6, 1, 1, 1, 1, 6, 6)  # Bram beats the Orc; the Goblin beats Hob
    enter_phase(g, Phase.FIGHTING)
    fight = events(g, "fight")[0]
    assert fight["a_modifiers"] == {"item:short_sword": 1} and fight["a_score"] == 6 + 1
    assert events(g, "damage", unit=g.label(orc))[0]["amount"] == 3
    assert events(g, "damage", unit="hero_2")[0]["amount"] == 1


def test_check_modifiers_rope_and_crowbar():
    g = game()
    give_item(g, 0, "rope")
    give_item(g, 0, "crowbar")
    assert effects.check_modifiers(g, 0, "jump") == {"item:rope": 1}
    assert effects.check_modifiers(g, 0, "open_door") == {"item:crowbar": 1}
    assert effects.check_modifiers(g, 1, "jump") == {}


def test_a_used_bonus_lasts_its_turns_and_a_movement_bonus_counts_at_once():
    """A Potion of Swiftness (+2 Movement, this turn and the next) drunk in the Movement phase."""
    g = game()
    potion = give_item(g, 2, "swiftness_potion")
    my_move(g, 2)
    left = int(g.state.move_left[2])
    pick_item(g, 2, potion)
    assert g.state.move_left[2] == left + 2
    assert effects.move_bonus(g, 2) == 2
    finish_turn(g)
    assert effects.move_bonus(g, 2) == 2 and g.state.move_left[2] == 5 + 2
    finish_turn(g)
    assert effects.move_bonus(g, 2) == 0


# ------------------------------------------------------------------------------------------- trade


def test_trade_offers_give_then_asks_the_receiver():
    """In the Trade phase the verb is GIVE (and BACK, D-08b), which asks CHOOSE_TARGET with
    purpose TARGET_GIVE."""
    g = game()
    torch = give_item(g, 0, "torch")
    assert items.item_verbs(g, 0, torch, "trade") == [GIVE]
    assert items.legal_item_verb(g, 0, torch, items.ITEM_MOMENTS.index("trade")) == [GIVE, BACK]
    g.state.stack.clear()
    items.do_item_verb(g, 0, torch, items.ITEM_MOMENTS.index("trade"), GIVE)
    assert g.state.stack[-1] == [int(Decision.CHOOSE_TARGET), 0, TARGET_GIVE, torch]
    g.state.gave[0] = True
    assert items.item_actions(g, 0, "trade") == []
    assert USE not in items.item_verbs(g, 0, torch, "trade")
