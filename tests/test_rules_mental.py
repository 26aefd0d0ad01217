"""Mental Combat (R-MENT-01..04, Table B3): Mental Combat spells and the Dread Warlock's Mind Lash.

Positions on the test arena (tests/data/arena.toml), room B (x 7-11, y 1-5); unused heroes wait in
corridor c at (14,0), (16,0), (18,0). A Mental Combat rolls the aggressor's die, then the defender's.
Bids are MENTAL_BID decisions (SPEND_k = k Magic), the aggressor's first. Statistical tests call
``mental.roll`` (the function every Mental Combat uses) n times and check
|p_hat - p| <= 4 sqrt(p (1 - p) / n), n from a power calculation (``tests/sampling.py``): a Mental
Combat rolls two d6, so a rule that gets any of their 36 combinations wrong moves the rate of a win
or a tie by 1/36 or more, and n finds that with probability >= 0.9999.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from dungeon_env.engine import Decision, Phase, mental, spells
from dungeon_env.engine.actions import NORMAL_CAST, SPEND_0
from tests.builders import (
    add_statue,
    arena_game,
    enter_phase,
    events,
    idle,
    learn,
    place,
    play_to,
    set_unit,
    spell_action,
)
from tests.sampling import assert_rate, trials_for_all


def trials(win: Fraction, tie: Fraction) -> int:
    """The duels a check of these two rates takes (the module docstring says why)."""
    return trials_for_all([win, tie], Fraction(1, 36))


def game(heroes=("orwin", "maelis", "corvin"), seed: int = 5):
    g = arena_game(list(heroes), seed=seed)
    for u, x in zip(range(len(heroes)), (14, 16, 18), strict=False):
        place(g, u, x, 0)
    return g


def cast_at(g, h: int, spell_id: str) -> None:
    """Hero ``h`` selects the spell in 2.1 and casts it normally in 2.5 (the single target in reach)."""
    enter_phase(g, Phase.SPELL_SELECTION)
    play_to(g, Decision.SPELL_SELECT, h)
    g.apply(spell_action(g, h, spell_id))
    play_to(g, Decision.CAST_MODE, h)
    g.apply(NORMAL_CAST)


# ----------------------------------------------------------------------------------- MENT 01, 04, B3


def duel_rates(g, a: int, b: int, n: int, a_bid: int = 0, b_bid: int = 0) -> tuple[int, int]:
    wins = ties = 0
    for _ in range(n):
        result = mental.roll(g, a, b, a_bid, b_bid)
        wins += result == mental.AGGRESSOR_WINS
        ties += result == mental.TIE
    g.events.clear()
    return wins, ties


def test_R_MENT_01_equal_bonuses_win_15_36_tie_6_36():
    """Corvin (no Iron Will) against a Goblin, no Magic: d6 against d6."""
    g = game()
    m = add_statue(g, "goblin", 9, 2)
    n = trials(Fraction(15, 36), Fraction(6, 36))
    wins, ties = duel_rates(g, 2, m, n)
    assert_rate(wins, n, Fraction(15, 36))
    assert_rate(ties, n, Fraction(6, 36))


def test_R_MENT_04_iron_willed_wins_21_36():
    """Orwin (Iron-Willed) against a Goblin: +1 is the only difference."""
    g = game()
    m = add_statue(g, "goblin", 9, 2)
    n = trials(Fraction(21, 36), Fraction(5, 36))
    wins, ties = duel_rates(g, 0, m, n)
    assert_rate(wins, n, Fraction(21, 36))
    assert_rate(ties, n, Fraction(5, 36))


def test_R_MENT_04_iron_willed_modifier_in_the_event():
    g = game()
    m = add_statue(g, "goblin", 9, 2)
    g.dice.force(3, 4)
    assert mental.roll(g, 0, m, 2, 0) == mental.AGGRESSOR_WINS
    assert events(g, "mental")[0] == {
        "type": "mental",
        "a": "hero_0",
        "b": g.label(m),
        "a_dice": [3],
        "b_dice": [4],
        "a_modifiers": {"iron_willed": 1, "magic": 2},
        "b_modifiers": {},
        "a_score": 3,
        "b_score": 0,
        "a_total": 6,
        "b_total": 4,
        "winner": "hero_0",
        "turn": 1,
    }


B3 = {  # k: (P(win), P(tie)) for d6 + k against d6
    -1: (Fraction(10, 36), Fraction(5, 36)),
    0: (Fraction(15, 36), Fraction(6, 36)),
    1: (Fraction(21, 36), Fraction(5, 36)),
    2: (Fraction(26, 36), Fraction(4, 36)),
    3: (Fraction(30, 36), Fraction(3, 36)),
    4: (Fraction(33, 36), Fraction(2, 36)),
}


@pytest.mark.parametrize("k", sorted(B3))
def test_B3_mental_combat_table(k):
    """k made of real modifiers: k = -1 is a plain Warlock attacking Iron-Willed Maelis; k >= 1 is
    Iron-Willed Orwin bidding k - 1 Magic against a Goblin; k = 0 is Corvin against a Goblin."""
    g = game()
    goblin = add_statue(g, "goblin", 9, 2)
    warlock = add_statue(g, "dread_warlock", 9, 4)
    n = trials(*B3[k])
    if k == -1:
        wins, ties = duel_rates(g, warlock, 1, n)
    elif k == 0:
        wins, ties = duel_rates(g, 2, goblin, n)
    else:
        wins, ties = duel_rates(g, 0, goblin, n, a_bid=k - 1)
    assert_rate(wins, n, B3[k][0])
    assert_rate(ties, n, B3[k][1])


# ----------------------------------------------------------------------------------- MENT 02, 03


def test_R_MENT_02_R_MENT_03_bids_aggressor_first_visible_to_the_defender_paid_even_by_the_loser():
    """Orwin (Magic 5) casts Sleep (level 2) at the Dread Warlock (Magic 5): he pays 2, then bids 2;
    the Warlock, seeing the bid in its decision, bids 3 and wins (dice 1 vs 6). Orwin ends at Magic
    1, the Warlock at 2; the Warlock is not asleep."""
    g = game()
    w = add_statue(g, "dread_warlock", 9, 1)
    place(g, 0, 9, 5)
    cast_at(g, 0, "sleep")
    assert g.decision == (Decision.MENTAL_BID, 0)
    assert g.decision_args == (w, -1)
    assert g.state.magic[0] == 3  # the spell's level is paid first (R-MENT-02: "on top of")
    assert g.legal_actions() == [SPEND_0, SPEND_0 + 1, SPEND_0 + 2, SPEND_0 + 3]
    g.apply(SPEND_0 + 2)
    assert g.decision == (Decision.MENTAL_BID, w)
    assert g.decision_args == (0, 2)  # the aggressor's bid is part of the defender's decision
    assert g.agent == "dm"
    g.dice.force(1, 6)
    g.apply(SPEND_0 + 3)
    duel = events(g, "mental")[-1]  # the first was the Warlock's own Mind Lash at the start of 2.5
    assert duel["a"] == "hero_0" and duel["winner"] == g.label(w)
    assert duel["a_modifiers"] == {"iron_willed": 1, "magic": 2} and duel["b_modifiers"] == {"magic": 3}
    assert g.state.magic[0] == 1 and g.state.magic[w] == 2
    assert events(g, "effect_starts") == []


def test_R_MENT_02_a_bid_is_limited_by_current_magic():
    g = game()
    w = add_statue(g, "dread_warlock", 9, 1)
    place(g, 0, 9, 5)
    set_unit(g, 0, magic=3)
    cast_at(g, 0, "sleep")
    assert g.state.magic[0] == 1
    assert g.legal_actions() == [SPEND_0, SPEND_0 + 1]
    g.apply(SPEND_0 + 1)
    assert g.state.magic[0] == 0 and g.decision == (Decision.MENTAL_BID, w)


# --------------------------------------------------------------------------------- tie rules, effects


def test_sleep_tie_favours_the_target_and_a_win_puts_the_monster_to_sleep():
    """Sleep (ties: the target) on an Orc (no Magic: its bid of 0 is not asked). Orwin, Iron-Willed,
    rolls 3 against 4: a tie, and nothing happens; the Magic stays spent."""
    g = game()
    add_statue(g, "orc", 9, 1)
    place(g, 0, 9, 5)
    cast_at(g, 0, "sleep")
    g.dice.force(3, 4)
    g.apply(SPEND_0)
    assert events(g, "mental")[0]["winner"] is None
    assert events(g, "effect_starts") == [] and g.state.magic[0] == 3


def test_sleep_win_the_monster_skips_its_movement_and_fights_at_minus_2():
    """Orwin wins (6 vs 1): the Orc sleeps for the rest of turn 1 and all of turn 2: in turn 2 it
    does not move, and in its Fight it has -2 named after the spell; in turn 3 it is awake."""
    g = game()
    m = add_statue(g, "orc", 9, 1)
    place(g, 0, 9, 5)
    cast_at(g, 0, "sleep")
    g.dice.force(6, 1)
    g.apply(SPEND_0)
    assert events(g, "effect_starts")[0]["kind"] == "sleep"
    assert g.state.turn == 2
    place(g, 2, 9, 2)  # Corvin next to the sleeping Orc
    set_unit(g, m, stamina=0, base_move=5)  # awake, it could walk; Fight Stamina 0 without asking
    enter_phase(g, Phase.SPELL_SELECTION)
    asked = []
    while g.decision != (Decision.FIGHT_STAMINA, 2):
        asked.append(g.decision)
        g.apply(idle(g))
    assert (Decision.MONSTER_MOVE, m) not in asked and g.state.unit_pos[m] == g.square(9, 1)
    assert events(g, "phase", phase="monster_movement", turn=2)
    g.dice.force(3, 3, 3, 3)
    g.apply(SPEND_0)
    fight = events(g, "fight")[0]
    assert fight["b_modifiers"] == {"spell:sleep": -2} and fight["b_score"] == 5 - 2
    while g.state.turn == 2:
        g.apply(idle(g))
    assert events(g, "effect_ends")[0]["kind"] == "sleep" and events(g, "effect_ends")[0]["turn"] == 2
    assert not spells.effects.asleep(g, m)


def test_mind_spike_tie_favours_the_caster():
    """Maelis learns Mind Spike (ties: the caster): a tie deals its 3 damage."""
    g = game()
    m = add_statue(g, "orc", 9, 1)
    learn(g, 1, "mind_spike")
    place(g, 1, 9, 5)
    cast_at(g, 1, "mind_spike")
    g.dice.force(3, 4)  # 3 + Iron Will 1 = 4
    g.apply(SPEND_0)
    assert events(g, "mental")[0]["winner"] is None
    assert g.state.health[m] == 6 - 3


# ---------------------------------------------------------------------------------------- Mind Lash


def test_mind_lash_the_warlock_attacks_the_nearest_hero_in_sight_at_spell_resolution():
    """Ruling: at the start of 2.5 the awake Warlock attacks the nearest hero it sees within 6
    squares: Maelis at distance 3, not Orwin at distance 4. The DM bids first, then Maelis. The
    Warlock wins (6 vs 1): Maelis loses 2 Health."""
    g = game()
    w = add_statue(g, "dread_warlock", 9, 1)
    place(g, 1, 9, 4)
    place(g, 0, 9, 5)
    enter_phase(g, Phase.SPELL_SELECTION)
    play_to(g, Decision.MENTAL_BID)
    assert g.state.phase == Phase.SPELL_RESOLUTION
    assert g.decision == (Decision.MENTAL_BID, w) and g.agent == "dm"
    g.apply(SPEND_0 + 1)
    assert g.decision == (Decision.MENTAL_BID, 1) and g.decision_args == (w, 1)
    g.dice.force(6, 1)
    g.apply(SPEND_0)
    assert events(g, "mind_lash")[0]["target"] == "hero_1"
    assert events(g, "mental")[0]["winner"] == g.label(w)
    assert g.state.health[1] == 8 - 2 and g.state.magic[w] == 4


def test_mind_lash_a_hero_win_or_tie_does_nothing_and_defending_does_not_break_rest():
    """Maelis ties (5 vs 4 + Iron Will): no damage; she did nothing else, so she Rests (A-32)."""
    g = game()
    w = add_statue(g, "dread_warlock", 9, 1)
    place(g, 1, 9, 4)
    enter_phase(g, Phase.SPELL_SELECTION)
    play_to(g, Decision.MENTAL_BID, w)
    g.apply(SPEND_0)
    g.dice.force(5, 4)
    g.apply(SPEND_0)
    assert events(g, "mental")[0]["winner"] is None
    assert g.state.health[1] == 8
    assert "hero_1" in [e["unit"] for e in events(g, "rest")]


def test_mind_lash_not_when_asleep_unseen_or_out_of_reach():
    g = game()
    w = add_statue(g, "dread_warlock", 9, 1)
    place(g, 0, 3, 3)  # room A: no line of sight
    assert mental.lash_target(g, w) == -1
    place(g, 1, 16, 0)
    assert mental.lash_target(g, w) == -1
    place(g, 2, 9, 5)
    assert mental.lash_target(g, w) == 2
    g.state.inactive[w] = True
    assert mental.lashers(g) == []
    g.state.inactive[w] = False
    assert mental.lashers(g) == [w]
    g.state.effects.append([w, spells.effects.SLEEP, 2, 2, g.spell_index["sleep"], int(g.state.unit_uid[w])])
    assert mental.lashers(g) == []


def test_A_57_magic_spent_defending_before_resolution_makes_the_spell_fail():
    """Maelis (Magic 2) selects Valor (level 2); the Warlock's Mind Lash comes first in 2.5; she
    bids 1 to defend, so at her turn she has 1 Magic: Valor fails, at no further cost."""
    g = game()
    w = add_statue(g, "dread_warlock", 9, 1)
    place(g, 1, 9, 4)
    set_unit(g, 1, magic=2)
    enter_phase(g, Phase.SPELL_SELECTION)
    play_to(g, Decision.SPELL_SELECT, 1)
    g.apply(spell_action(g, 1, "valor"))
    play_to(g, Decision.MENTAL_BID, w)
    g.apply(SPEND_0)
    g.dice.force(1, 1)
    g.apply(SPEND_0 + 1)
    assert g.state.magic[1] == 1
    assert events(g, "spell_fail")[0]["reason"] == "magic"
    assert events(g, "cast") == []
