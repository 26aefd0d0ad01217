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
    ACTION_NAMES,
    BACK,
    END,
    GIVE,
    IDENTIFY,
    MOVE_ACTIONS,
    SPEND_0,
    USE,
)
from dungeon_env.engine.sideview import heroes_view
from dungeon_env.render.actions import decision_text, win_chance
from tests.builders import add_monster, arena_game, enter_phase, give_item, item_action, learn, place, play_to

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
    assert names[MOVE_ACTIONS[2]] == "Try to open the door to the south"
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
    assert describe_action(g, IDENTIFY) == "Try to identify: Potion of Greater Healing (face down)"
    assert describe_action(heroes_view(g), IDENTIFY) == "Try to identify: a face-down potions card"
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
    assert "Begin casting Sleep (level 2)" in names and "Cast no spell this turn" in names


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
