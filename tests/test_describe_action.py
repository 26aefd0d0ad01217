"""``describe_action(game, action)``: every action named in the context of its decision, on
hand-built positions (tests/builders.py), the Fight odds against the checklist's exact table B1/B2,
and random games (every legal action of every decision named, nothing hidden named for heroes)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from agents import ScriptedDM, ScriptedHeroes
from dungeon_env import describe_action
from dungeon_env.engine import Decision, Game, Phase
from dungeon_env.engine.actions import (
    ABILITY_ACTIONS,
    ACTION_NAMES,
    BACK,
    DISARM_ACTIONS,
    END,
    EXTRA_MOVE,
    GIVE,
    IDENTIFY,
    JUMP_ACTIONS,
    MOVE_ACTIONS,
    SPEND_0,
    USE,
)
from dungeon_env.engine.side_knowledge import heroes_view
from dungeon_env.render.actions import action_idle, action_warning, decision_text, win_chance
from play.views import decision_json, figures_json
from tests.builders import (
    add_monster,
    arena_game,
    arena_variant,
    enter_phase,
    give_item,
    item_action,
    learn,
    place,
    play_to,
    set_unit,
)

# checklist B1: P(win), P(tie), P(lose) for score difference d
B1 = {
    -3: (Fraction(103, 648), Fraction(13, 162)),
    -1: (Fraction(145, 432), Fraction(35, 324)),
    0: (Fraction(575, 1296), Fraction(73, 648)),
    2: (Fraction(287, 432), Fraction(125, 1296)),
}


@pytest.mark.parametrize("d", sorted(B1))
def test_fight_odds_match_checklist_table_b1(d):
    won, lost, tie = win_chance(5 + d, 5, hero_strong=False)
    p_win, p_tie = B1[d]
    assert won == pytest.approx(float(p_win), abs=1e-12) and tie == pytest.approx(float(p_tie), abs=1e-12)
    assert lost == pytest.approx(1 - float(p_win + p_tie), abs=1e-12)
    strong, _, strong_tie = win_chance(5 + d, 5, hero_strong=True)  # R-FIGHT-08: a Strong hero wins ties
    assert strong == pytest.approx(float(p_win + p_tie), abs=1e-12) and strong_tie == 0


def test_fight_odds_of_a_caster_who_keeps_casting_match_table_b2():
    assert win_chance(5, 5, False, hero_double_ones=True)[0] == 0  # d = 0: win 0
    assert win_chance(6, 5, False, hero_double_ones=True)[0] == pytest.approx(1 / 36)  # d = +1
    assert win_chance(6, 5, False, hero_double_ones=True)[2] == pytest.approx(2 / 36)


def test_moves_doors_and_exits_are_named_by_direction_and_square():
    g = arena_game()
    place(g, 0, 3, 0)  # below it, (3, 1), is room A behind the door [3,0]-[3,1]
    names = {a: describe_action(g, a) for a in MOVE_ACTIONS}
    assert names[MOVE_ACTIONS[1]] == "Step east (4,0)"
    assert names[MOVE_ACTIONS[2]].startswith("Try to open the door to the south: opens on 5+ (33%)")
    assert describe_action(g, END) == "End Corvin Nightbloom's movement" or describe_action(
        g, END
    ).startswith("End ")
    assert "squares left" in decision_text(g) and "(3,0)" in decision_text(g)


def test_an_exit_step_says_it_leaves_the_dungeon():
    g = arena_game()
    place(g, 0, 22, 27)  # the arena's exit is (23, 27)
    assert describe_action(g, MOVE_ACTIONS[1]) == "Step east (23,27) and leave the dungeon by the exit"


def test_items_are_named_face_up_and_face_down_and_never_for_heroes_when_face_down():
    g = arena_game()
    known = give_item(g, 0, "healing_potion", known=True)
    hidden = give_item(g, 0, "greater_healing_potion", known=False)
    assert describe_action(g, item_action(g, 0, known)) == "Item: Potion of Healing"
    assert describe_action(g, item_action(g, 0, hidden)) == "Item: Potion of Greater Healing (face down)"
    view = heroes_view(g)
    assert describe_action(view, item_action(g, 0, hidden)) == "Item: a face-down potions card"
    g.apply(item_action(g, 0, known))
    assert g.decision[0] == Decision.ITEM_VERB
    assert describe_action(g, USE) == "Drink: Potion of Healing"
    assert describe_action(g, BACK) == "Back: keep Potion of Healing for now"


def test_explore_verbs_name_the_item():
    g = arena_game(["orwin", "sela", "bram"])  # orwin is Learned: he may identify
    slot = give_item(g, 0, "greater_healing_potion", known=False)
    enter_phase(g, Phase.EXPLORE)
    play_to(g, Decision.HERO_ACT, 0)
    g.apply(item_action(g, 0, slot))
    legal = g.legal_actions()
    assert IDENTIFY in legal
    odds = ": identified on 4+ (50%); on 1 never this adventure (17%)"
    assert describe_action(g, IDENTIFY) == "Try to identify: Potion of Greater Healing (face down)" + odds
    assert describe_action(heroes_view(g), IDENTIFY) == "Try to identify: a face-down potions card" + odds
    assert "Give" in describe_action(g, GIVE)


def test_the_fight_stamina_choice_shows_both_scores_and_the_odds():
    g = arena_game(["bram", "sela", "orwin"])  # bram is Strong: he wins ties
    place(g, 0, 3, 3)
    orc = add_monster(g, "orc", 3, 4)
    for u in (1, 2):
        place(g, u, 10 + u, 10)
    enter_phase(g, Phase.FIGHTING)
    play_to(g, Decision.FIGHT_STAMINA, 0)
    hero_score, orc_score = int(g.state.base_fight[0]), int(g.state.base_fight[orc])
    spend = int(g.state.fights[0][2])  # what the DM declared for the orc (A-09: the DM first)
    text = describe_action(g, SPEND_0 + 1)
    won = win_chance(hero_score + 1, orc_score + spend, hero_strong=True)[0]
    assert text.startswith(f"Spend 1 Stamina: Fight {hero_score + 1} against Orc Warrior")
    assert f"{orc_score + spend}: win {won:.0%}" in text


def test_spells_and_targets_are_named():
    g = arena_game(["orwin", "sela", "bram"])
    learn(g, 0, "sleep", only=True)
    place(g, 0, 3, 3)
    add_monster(g, "orc", 3, 5)
    enter_phase(g, Phase.SPELL_SELECTION)
    play_to(g, Decision.SPELL_SELECT, 0)
    names = [describe_action(g, a) for a in g.legal_actions()]
    assert "Begin casting Sleep (level 2): 2 Magic when it resolves" in names
    assert "Cast no spell this turn" in names


@pytest.mark.slow
def test_every_legal_action_of_random_games_gets_a_name():
    rng = np.random.default_rng(0)
    adventures = ["flooded_cellar", "goblin_warrens", "warlocks_crypt", "bandit_keep", "sunless_throne"]
    kinds = set()
    for seed in range(15):
        g = Game.new(
            adventure=adventures[seed % 5], heroes=["bram", "sela", "orwin"], seed=seed, max_turns=40
        )
        heroes, dm = ScriptedHeroes(game=g, seed=seed), ScriptedDM(game=g, seed=seed)
        while not g.over:
            legal = g.legal_actions()
            hero_turn = g.agent != "dm"
            view = heroes_view(g) if hero_turn else g
            texts = [describe_action(view, a) for a in legal]
            assert all(t and t not in ACTION_NAMES for t in texts), list(zip(legal, texts, strict=True))
            if hero_turn:
                hidden = _face_down_names(g)
                assert not any(name in t for t in texts for name in hidden), (texts, hidden)
            kinds.add(int(g.decision[0]))
            agent = dm if g.agent == "dm" else heroes
            g.apply(int(agent.choose(g)) if rng.random() < 0.85 else int(rng.choice(legal)))
    assert len(kinds) >= 12  # most kinds of decision were named


def _face_down_names(g: Game) -> set[str]:
    s = g.state
    cards = list(zip(s.item_card, s.item_known, strict=True))
    face_up = {g.item_cards[int(c)].name for c, k in cards if c >= 0 and k}
    return {
        g.item_cards[int(c)].name
        for c, k in cards
        if c >= 0 and not k and g.item_cards[int(c)].name not in face_up
    }


# ----------------------------------------------------------------- issue 49: each choice's cost and risk
TRAP = '[[trap]]\nat = [0, 8]\nname = "loose flagstone"\neffect = { kind = "damage", amount = 1 }\n'
N, E, S, W = MOVE_ACTIONS


def _trap_game(tmp_path, detected: bool | None):
    """Corvin at (0,7) in corridor q, a trap on (0,8) below him: detected, undetected (a twin of the
    first, equal in all the heroes may know but the trap), or no trap at all (None)."""
    adventure = arena_variant(tmp_path, "flagstone", TRAP) if detected is not None else None
    g = arena_game(adventure=adventure) if adventure else arena_game()
    place(g, 0, 0, 7)
    if detected:
        g.state.trap_detected[0] = True
        g.state_edited()
    return g


def test_a_step_onto_a_known_trap_says_so_and_asks_for_a_confirmation(tmp_path):
    """
    x=0
    y=7   1     Corvin
    y=8   ^     a trap the heroes detected
    """
    g = _trap_game(tmp_path, detected=True)
    text = "Step south onto the trap at (0,8); it springs: loose flagstone, 1 damage"
    assert describe_action(g, S) == text
    assert describe_action(heroes_view(g), S) == text
    assert (
        action_warning(g, S) == "Corvin Blackthorn would spring the trap at (0,8): loose flagstone, 1 damage."
    )
    assert action_warning(g, N) is None and describe_action(g, N) == "Step north (0,6)"
    choice = next(
        c for c in decision_json(heroes_view(g), True, None, "heroes")["choices"] if c["action"] == S
    )
    assert choice["warning"].endswith("loose flagstone, 1 damage.")
    jump = describe_action(g, JUMP_ACTIONS[2])
    assert jump.startswith("Jump south over (0,8) to (0,9), 2 squares: lands on 4+ (67%)")  # Corvin is Agile
    assert jump.endswith("short: lands on the trap at (0,8), it springs: loose flagstone, 1 damage")


def test_an_undetected_trap_leaves_the_label_plain_like_a_square_with_no_trap(tmp_path):
    """The twin of the test above: the trap is on (0,8) but the heroes have not found it. A hero's
    words, its warning and the page's choices are those of a game with no trap there at all."""
    hidden, none = _trap_game(tmp_path, detected=False), _trap_game(tmp_path, detected=None)
    for g in (hidden, heroes_view(hidden), none):
        assert describe_action(g, S) == "Step south (0,8)"
        assert action_warning(g, S) is None
    choices = [decision_json(heroes_view(g), True, None, "heroes")["choices"] for g in (hidden, none)]
    assert choices[0] == choices[1]


def test_a_monster_knows_every_trap(tmp_path):
    g = _trap_game(tmp_path, detected=False)
    place(g, 0, 3, 3)
    orc = add_monster(g, "orc", 0, 7)
    for u in (1, 2):
        place(g, u, 0, 10 + u)  # heroes below the trap: the orc must close in
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    play_to(g, Decision.MONSTER_MOVE, orc)
    assert S in g.legal_actions()
    assert describe_action(g, S).startswith("Step south onto the trap at (0,8)")
    assert action_warning(g, S).startswith("Orc Warrior m")


def test_an_evade_step_shows_its_stamina_cost_and_what_else_it_costs():
    g = arena_game()
    add_monster(g, "orc", 8, 1)
    place(g, 0, 8, 2)
    enter_phase(g, Phase.EVASION)
    play_to(g, Decision.HERO_EVADE, 0)
    assert describe_action(g, W) == "Evade west (7,2), 2 Stamina"
    assert (
        decision_text(g)
        == "Corvin Blackthorn's evasion: each Evade step costs 2 Stamina; Stamina 6, at (8,2)"
    )
    set_unit(g, 0, stamina=2)
    g.state_edited()
    assert describe_action(g, W) == "Evade west (7,2), 2 Stamina (Exhausted after)"


def test_an_evade_step_of_a_caster_says_the_spell_fails():
    g = arena_game(["orwin", "sela", "bram"])
    learn(g, 0, "sleep", only=True)
    add_monster(g, "orc", 8, 1)
    place(g, 0, 8, 3)
    enter_phase(g, Phase.SPELL_SELECTION)
    play_to(g, Decision.SPELL_SELECT, 0)
    begin = next(a for a in g.legal_actions() if describe_action(g, a).startswith("Begin casting Sleep"))
    assert describe_action(g, begin) == "Begin casting Sleep (level 2): 2 Magic when it resolves"
    g.apply(begin)
    play_to(g, Decision.HERO_EVADE, 0)
    assert describe_action(g, E) == "Evade east (9,3), 2 Stamina; Sleep (level 2) fails"


def test_one_more_square_that_reaches_nothing_says_so_and_is_idle():
    """
    x=0 1 2
    y=0 . 1 2 3 .   Ysolde (hero_1) between Corvin and Hob, both done moving; walls south
    """
    g = arena_game()
    place(g, 1, 7, 0)
    place(g, 0, 6, 0)
    place(g, 2, 8, 0)  # corridor a/b along y=0; rooms B below (wall)
    s = g.state
    s.move_done[0] = s.move_done[2] = True
    s.controller = 1
    g.state.stack.clear()
    g.push(Decision.HERO_MOVE, 1)
    g.state_edited()
    assert g.decision == (Decision.HERO_MOVE, 1)
    legal = g.legal_actions()
    assert EXTRA_MOVE in legal and not set(legal) & set(MOVE_ACTIONS)
    assert describe_action(g, EXTRA_MOVE).endswith("(no square to reach)")
    assert action_idle(g, EXTRA_MOVE)
    choice = next(c for c in decision_json(g, True, None, "dm")["choices"] if c["action"] == EXTRA_MOVE)
    assert choice.get("idle") is True
    # Hob still to move may step aside: the square matters again
    s.move_done[2] = False
    g.state_edited()
    assert not describe_action(g, EXTRA_MOVE).endswith("(no square to reach)")
    assert not action_idle(g, EXTRA_MOVE)


def test_one_more_square_past_the_end_of_a_move_reaches_a_square():
    g = arena_game()
    s = g.state
    s.move_left[0] = 0
    g.state_edited()
    text = describe_action(g, EXTRA_MOVE)
    assert text.startswith("Spend 1 Stamina for 1 more square (0 left") and "no square" not in text


def test_a_door_a_disarm_and_an_overcast_show_their_chances(tmp_path):
    g = arena_game(["bram", "sela", "orwin"])  # Bram is Strong: +1 to open doors
    place(g, 0, 3, 0)
    assert describe_action(g, S) == (
        "Try to open the door to the south: opens on 5+ (50%); 2 or less alerts what is behind it (17%)"
    )
    g = _trap_game(tmp_path, detected=True)
    place(g, 0, 0, 9)
    enter_phase(g, Phase.EXPLORE)
    g.state.stack.clear()
    g.push(Decision.DISARM, 0)
    g.state_edited()
    assert describe_action(g, DISARM_ACTIONS[0]) == (
        "Try to disarm the trap to the north (0,8): disarmed on 4+ (50%); "
        "on 1 it springs on you (loose flagstone, 1 damage) (17%)"
    )


def test_abilities_show_their_uses_left():
    g = arena_game(["sela", "bram", "orwin"])
    ability = ABILITY_ACTIONS[0]
    assert ability in g.legal_actions()
    assert describe_action(g, ability) == "Use Dash (1 use left this adventure)"


def test_the_page_is_told_what_each_monster_spent_of_its_stamina():
    """The DM declares the orc's 2 Stamina for its Fight with Bram (A-09): the JSON of both sides
    says so while Bram decides; and what the orc bought for its movement."""
    g = arena_game(["bram", "sela", "orwin"])
    place(g, 0, 3, 3)
    orc = add_monster(g, "orc", 3, 4)
    for u in (1, 2):
        place(g, u, 10 + u, 10)
    g.state.move_bought[orc] = 1
    enter_phase(g, Phase.FIGHTING)
    play_to(g, Decision.FIGHT_STAMINA, orc)
    before = _monster(figures_json(g), "orc")["stamina_spent"]
    assert before == {"movement": 1, "fights": []}  # not declared yet
    g.apply(SPEND_0 + 2)
    assert g.decision == (Decision.FIGHT_STAMINA, 0)
    for view in (g, heroes_view(g)):
        spent = _monster(figures_json(view), "orc")["stamina_spent"]
        assert spent == {"movement": 1, "fights": [{"against": "Bram Ironhide", "stamina": 2}]}


def _monster(figures: list[dict], kind: str) -> dict:
    return next(f for f in figures if f["kind"] == kind)


def test_heroes_json_carries_the_card_text_of_items_spells_and_abilities():
    g = arena_game(["orwin", "sela", "bram"])
    give_item(g, 0, "healing_potion", known=True)
    give_item(g, 0, "greater_healing_potion", known=False)
    orwin = figures_json(heroes_view(g))[0]
    assert orwin["item_cards"][0] == {
        "name": "Potion of Healing",
        "deck": "potions",
        "text": "The holder or a hero next to it regains 4 Health.",
    }
    assert orwin["item_cards"][1]["name"] == "a face-down potions card"
    assert "Greater" not in str(orwin)
    assert {c["name"] for c in orwin["spell_cards"]} >= {"Arcane Bolt", "Sleep"}
    assert all(c["text"] for c in orwin["spell_cards"] + orwin["abilities"])
