"""Combat turn sequence (R-CTS-01..09) and Fighting (R-FIGHT-01..11).

Positions are hand-built on the test arena (tests/data/arena.toml): rooms A (x 1-5, y 1-5), B (x 7-11,
y 1-5), C (x 12-16, y 1-5); corridor a/b/c along y = 0; corridor t along x = 6, y 1-5; room A's east
door (5,3)-(6,3). Fight dice are forced: each Fight rolls the hero's 2 dice, then the monster's 2.
The statistical tests (Table B1) call ``combat.resolve_fight`` (the function the Fighting phase runs
for every Fight) n times on a built game and check |p_hat - p| <= 4 sqrt(p (1 - p) / n), n from a
power calculation (``tests/sampling.py``): n finds any rate off by 1/36 or more with probability
>= 0.9999. A score difference off by one (the next row of Table B1) moves the win rate by 52/648 or
more, and a tie given to the wrong side moves a rate by the tie rate (>= 13/162).
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial

import pytest

from dungeon_env.engine import Decision, Game, Phase
from dungeon_env.engine.actions import (
    END,
    EXTRA_MOVE,
    HANDOFF_ACTIONS,
    MOVE_ACTIONS,
    N_ACTIONS,
    SPEND_0,
    SPEND_ACTIONS,
)
from dungeon_env.engine.combat import HERO_WON, MONSTER_WON, TIE, UNRESOLVED, resolve_fight
from dungeon_env.engine.state import GONE
from tests.builders import (
    add_monster,
    arena_game,
    decisions_until,
    enter_phase,
    events,
    finish_turn,
    place,
    set_unit,
    tired,
)
from tests.sampling import assert_rate, trials_for, trials_for_all

MOVE_N, MOVE_E, MOVE_S, MOVE_W = MOVE_ACTIONS
DELTA = Fraction(1, 36)  # the deviation of a rate the statistical tests find (module docstring)
COMBAT_PHASES = [
    "turn_start",
    "hero_movement",
    "spell_selection",
    "monster_movement",
    "evasion",
    "fighting",
    "spell_resolution",
    "turn_end",
]


# ------------------------------------------------------------------------------------------ helpers


def spend_nothing(g: Game) -> int:
    legal = g.legal_actions()
    return END if END in legal else (SPEND_0 if SPEND_0 in legal else legal[0])


# this file plays on with ``spend_nothing``: to the next turn, and to a decision of a phase
play_turn = partial(finish_turn, choose=spend_nothing)
play_to = partial(decisions_until, choose=spend_nothing)


def phases_of_turn(g: Game, turn: int) -> list[str]:
    return [e["phase"] for e in events(g, "phase") if e["turn"] == turn]


def fight_game(heroes=("corvin", "hob", "bram"), seed: int = 3) -> Game:
    """The arena with the three heroes moved out of the way, into corridor b/c (y = 0)."""
    g = arena_game(list(heroes), seed=seed)
    for u, x in zip(range(len(heroes)), (14, 16, 18), strict=False):
        place(g, u, x, 0)
    return g


def fight_now(g: Game) -> None:
    """Start the Fighting phase of this turn (its Stamina questions are then asked)."""
    enter_phase(g, Phase.FIGHTING)


# --------------------------------------------------------------------------------------------- CTS


def test_R_CTS_01_combat_turn_phase_trace():
    """A monster on the board: turn 2 runs 1, 2, 2.1, 2.2, 2.3, 2.4, 2.5, 5 (no Explore, no Trade)."""
    g = arena_game(seed=1)
    add_monster(g, "orc", 9, 3)
    play_turn(g)
    play_turn(g)
    assert phases_of_turn(g, 2) == COMBAT_PHASES
    assert phases_of_turn(g, 1) == COMBAT_PHASES


def test_R_CTS_01_monster_free_turn_has_no_combat_substeps():
    g = arena_game(seed=1)
    play_turn(g)
    play_turn(g)
    assert phases_of_turn(g, 2) == ["turn_start", "hero_movement", "explore", "trade", "turn_end"]


def test_R_CTS_02_spell_selection_step_runs_between_movement_and_monsters():
    """2.1 comes in the trace right after Movement: the two casters are asked there, and declining
    (END) costs nothing (selection itself is tested in test_rules_spells.py)."""
    g = arena_game(["orwin", "maelis", "hob"], seed=2)  # the two casters
    add_monster(g, "orc", 9, 3)
    asked = play_to(g, Phase.MONSTER_MOVEMENT)
    assert {kind for kind, _ in asked} == {Decision.HERO_MOVE, Decision.SPELL_SELECT}
    assert sorted(u for kind, u in asked if kind == Decision.SPELL_SELECT) == [0, 1]
    assert phases_of_turn(g, 1)[-3:] == ["hero_movement", "spell_selection", "monster_movement"]
    assert g.state.magic[0] == 5 and g.state.magic[1] == 4


def east_end_game():
    """The arena with the heroes at the far east end of corridor c, (21..23, 0)."""
    g = arena_game(seed=3)
    for u, x in enumerate((21, 22, 23)):
        place(g, u, x, 0)
    return g


def test_R_CTS_03_monster_moves_allowance_plus_stamina():
    """The Orc (Movement 4, Stamina 3) buys 2 squares and walks 6 along corridor b towards the
    heroes at the far end, then can step no more; it keeps 1 Stamina and could still buy a 3rd
    square.

        y=0   .  .  .  .  .  .  .  .  .  O  .  .  .  .  .  .  .  .  .  .  .  0  1  2
                                         O = Orc at (9, 0) -> (15, 0)
    """
    g = east_end_game()
    m = add_monster(g, "orc", 9, 0)
    play_to(g, Phase.MONSTER_MOVEMENT)
    assert g.decision == (Decision.MONSTER_MOVE, m)
    g.apply(EXTRA_MOVE)
    g.apply(EXTRA_MOVE)
    for _ in range(6):
        g.apply(MOVE_E)
    s = g.state
    assert s.unit_pos[m] == g.square(15, 0) and s.stamina[m] == 1
    assert g.legal_actions() == [EXTRA_MOVE, END]
    assert [e["unit"] for e in events(g, "move")] == [g.label(m)] * 6


def test_R_CTS_03_monster_stamina_for_movement_capped_at_3():
    """The Troll (Stamina 4) may buy at most 3 squares in a phase; monsters have no Light penalty."""
    g = arena_game(seed=3)
    g.state.light = 0
    m = add_monster(g, "troll", 9, 0)
    play_to(g, Phase.MONSTER_MOVEMENT)
    assert g.decision == (Decision.MONSTER_MOVE, m) and g.state.move_left[m] == 4
    for _ in range(3):
        g.apply(EXTRA_MOVE)
    assert g.state.move_left[m] == 7 and g.state.stamina[m] == 1
    assert EXTRA_MOVE not in g.legal_actions()


def test_R_CTS_03_monster_may_stop_early():
    """One step closer to the heroes is enough for a monster that cannot reach them (R-MON-03)."""
    g = east_end_game()
    m = add_monster(g, "orc", 9, 0)
    play_to(g, Phase.MONSTER_MOVEMENT)
    g.apply(MOVE_E)
    assert END in g.legal_actions()
    g.apply(END)
    assert g.state.phase == Phase.EVASION and g.state.unit_pos[m] == g.square(10, 0)


def test_R_CTS_04_evade_costs_2_stamina_per_square():
    """Ysolde (Stamina 5) next to an Orc evades 2 squares and is left with 1: no more Evade steps.

    y=1   .  O  .          O = Orc at (8, 1) in room B
    y=2   .  1  .  .       hero_1 (Ysolde) at (8, 2), evades to (10, 2)
    """
    g = fight_game(("corvin", "ysolde", "hob"))
    m = add_monster(g, "orc", 8, 1)
    place(g, 1, 8, 2)
    play_to(g, Phase.EVASION)
    while g.decision != (Decision.HERO_EVADE, 1):
        g.apply(END)  # hero_0 passes
    assert g.state.stamina[1] == 5
    g.apply(MOVE_E)
    g.apply(MOVE_E)
    s = g.state
    assert s.stamina[1] == 1 and s.unit_pos[1] == g.square(10, 2)
    assert [e["stamina"] for e in events(g, "evade", unit="hero_1")] == [3, 1]
    # 1 Stamina left: no Evade step is offered any more (only END or a hand-off)
    assert g.decision == (Decision.HERO_EVADE, 1)
    assert not set(g.legal_actions()) & set(MOVE_ACTIONS)
    assert s.unit_pos[m] == g.square(8, 1)


def test_R_CTS_04_hero_with_1_stamina_or_exhausted_cannot_evade():
    g = fight_game(("corvin", "ysolde", "hob"))
    add_monster(g, "orc", 8, 1)
    set_unit(g, 0, stamina=1)
    set_unit(g, 1, stamina=4, exhausted=True)
    play_to(g, Phase.EVASION)
    asked = play_to(g, Phase.FIGHTING)
    assert {u for kind, u in asked if kind == Decision.HERO_EVADE} == {2}


def test_R_CTS_05_evasion_comes_before_fighting_and_spell_resolution():
    """Without spells only the order can be checked: an Evade in 2.3 happens before 2.4 and 2.5."""
    g = fight_game(("corvin", "ysolde", "hob"))
    add_monster(g, "orc", 8, 1)
    place(g, 1, 8, 2)
    play_to(g, Phase.EVASION)
    while g.decision != (Decision.HERO_EVADE, 1):
        g.apply(END)
    g.apply(MOVE_E)
    play_turn(g)
    kinds = [e["type"] if e["type"] != "phase" else e["phase"] for e in g.events if e.get("turn") == 1]
    assert kinds.index("evade") < kinds.index("fighting") < kinds.index("spell_resolution")
    assert events(g, "fight") == []  # the evader left the only adjacent square


def test_R_CTS_06_all_fights_resolve_in_step_2_4():
    """Two heroes next to one Orc: both Fights are logged inside the Fighting phase, before 2.5."""
    g = fight_game()
    add_monster(g, "orc", 9, 2)
    place(g, 0, 8, 2)
    place(g, 1, 10, 2)
    g.dice.force(*[3] * 8)
    play_turn(g)
    assert g.dice.forced_left == 0
    kinds = [e["type"] if e["type"] != "phase" else e["phase"] for e in g.events if e.get("turn") == 1]
    i_fight, i_res = kinds.index("fighting"), kinds.index("spell_resolution")
    fight_at = [i for i, k in enumerate(kinds) if k == "fight"]
    assert len(fight_at) == 2 and all(i_fight < i < i_res for i in fight_at)


def test_R_CTS_07_spell_resolution_follows_the_fights():
    """2.5 runs after every Fight; without spells Magic is untouched (target choice and payment arrive
    with the magic rules)."""
    g = fight_game(("orwin", "hob", "bram"))
    add_monster(g, "orc", 9, 2)
    place(g, 0, 9, 3)
    g.dice.force(3, 3, 3, 3)
    play_turn(g)
    kinds = [e["type"] if e["type"] != "phase" else e["phase"] for e in g.events if e.get("turn") == 1]
    assert kinds.index("fight") < kinds.index("spell_resolution") < kinds.index("turn_end")
    assert g.state.magic[0] == 5


def test_R_CTS_08_killing_the_last_monster_lets_explore_and_trade_run():
    """Corvin (Damage 2) kills a Health 1 Goblin in 2.4: this same turn goes on to Explore and Trade."""
    g = fight_game()
    m = add_monster(g, "goblin", 9, 2)
    set_unit(g, m, health=1)
    place(g, 0, 9, 3)
    g.dice.force(6, 6, 1, 1)
    play_turn(g)
    assert g.dice.forced_left == 0
    assert g.state.unit_status[m] == GONE
    assert phases_of_turn(g, 1)[-6:] == [
        "evasion",
        "fighting",
        "spell_resolution",
        "explore",
        "trade",
        "turn_end",
    ]


def test_R_CTS_08_monsters_remaining_skip_to_turn_end():
    g = fight_game()
    add_monster(g, "goblin", 9, 2)
    place(g, 0, 9, 3)
    g.dice.force(1, 1, 6, 6)
    play_turn(g)
    assert phases_of_turn(g, 1)[-3:] == ["fighting", "spell_resolution", "turn_end"]


def test_R_CTS_09_turn_start_and_turn_end_run_in_combat_turns():
    """In a combat turn, Stamina 2/6 rises to 3 at Turn Start and Light drops 20 -> 19 -> 18."""
    g = arena_game(seed=9)
    add_monster(g, "orc", 20, 24, awake=False)
    assert g.state.light == 20
    play_turn(g)
    assert g.state.light == 19
    set_unit(g, 0, stamina=2, acted=True)  # acted: no Rest bonus
    play_turn(g)
    assert phases_of_turn(g, 2) == COMBAT_PHASES
    assert g.state.light == 18
    assert [e["stamina"] for e in events(g, "recover", unit="hero_0", turn=3)] == [3]


# ------------------------------------------------------------------------------------------- FIGHT


def test_R_FIGHT_01_every_adjacent_pair_fights_once_diagonals_do_not():
    """hero_0 at (8, 2): Orcs at N (8, 1) and E (9, 2) fight it; a Goblin at (9, 3) is diagonal.

    y=1   .  O  .
    y=2   .  0  O
    y=3   .  .  g
    """
    g = fight_game()
    n = add_monster(g, "orc", 8, 1)
    e = add_monster(g, "orc", 9, 2)
    add_monster(g, "goblin", 9, 3)
    place(g, 0, 8, 2)
    g.dice.force(*[3] * 8)
    fight_now(g)
    asked = play_to(g, Phase.SPELL_RESOLUTION)
    assert g.dice.forced_left == 0
    pairs = [(f["a"], f["b"]) for f in events(g, "fight")]
    assert pairs == [("hero_0", g.label(n)), ("hero_0", g.label(e))]
    # the only choices offered are Stamina spends; nothing lets a unit decline a Fight
    assert {kind for kind, _ in asked} == {Decision.FIGHT_STAMINA}


def test_R_FIGHT_01_no_fight_through_a_wall_or_closed_door():
    """D-02: hero in corridor t at (6, 2) and (6, 3); Goblins in room A at (5, 2) (wall) and (5, 3)
    (closed door): no Fight. Once the door is open, the pair at the door fights."""
    g = fight_game()
    add_monster(g, "goblin", 5, 2)
    d = add_monster(g, "goblin", 5, 3)
    place(g, 0, 6, 2)
    place(g, 1, 6, 3)
    tired(g, *range(64))
    fight_now(g)
    assert events(g, "fight") == []
    g.state.door_open[1] = True
    tired(g, *range(64))
    g.dice.force(*[3] * 4)
    fight_now(g)
    assert g.dice.forced_left == 0
    assert [(f["a"], f["b"]) for f in events(g, "fight")] == [("hero_1", g.label(d))]


@pytest.mark.parametrize("n_enemies", [1, 2, 3, 4])
def test_R_FIGHT_02_multi_enemy_modifier(n_enemies):
    """hero_0 (Gunnhild, Fighting Score 6, unhurt: no ability counts) at (9, 3) with n Goblins on its
    N, E, S, W sides: -(n-1) in each of its Fights."""
    g = fight_game(("gunnhild", "hob", "corvin"))
    for x, y in [(9, 2), (10, 3), (9, 4), (8, 3)][:n_enemies]:
        add_monster(g, "goblin", x, y)
    place(g, 0, 9, 3)
    tired(g, *range(64))
    g.dice.force(*[3] * 4 * n_enemies)
    fight_now(g)
    assert g.dice.forced_left == 0
    fights = events(g, "fight")
    assert len(fights) == n_enemies
    expected = {"enemies": -(n_enemies - 1)} if n_enemies > 1 else {}
    assert all(f["a_modifiers"] == expected and f["a_score"] == 6 - (n_enemies - 1) for f in fights)
    assert all(f["b_modifiers"] == {} and f["b_score"] == 3 for f in fights)


def test_R_FIGHT_03_monster_between_two_heroes_gets_minus_1_in_both():
    """hero_0 . O . hero_1 in a row: the Orc faces 2 enemies (-1) in each Fight, each hero only 1."""
    g = fight_game()
    m = add_monster(g, "orc", 9, 2)
    place(g, 0, 8, 2)
    place(g, 1, 10, 2)
    tired(g, 0, 1, m)
    g.dice.force(*[3] * 8)
    fight_now(g)
    fights = events(g, "fight")
    assert [(f["a"], f["b_modifiers"], f["b_score"]) for f in fights] == [
        ("hero_0", {"enemies": -1}, 4),
        ("hero_1", {"enemies": -1}, 4),
    ]
    assert all(f["a_modifiers"] == {} for f in fights)


def test_R_FIGHT_03_counts_enemies_engaged_elsewhere():
    """hero_0 fights Orcs A and B; B is also next to hero_1. B's count is 2 (hero_0 and hero_1) and
    hero_0's is 2, although B is also busy with hero_1.

        y=2   A  0  .
        y=3   .  B  1
    """
    g = fight_game()
    a = add_monster(g, "orc", 8, 2)
    b = add_monster(g, "orc", 9, 3)
    place(g, 0, 9, 2)
    place(g, 1, 10, 3)
    tired(g, 0, 1, a, b)
    g.dice.force(*[3] * 12)
    fight_now(g)
    mods = {(f["a"], f["b"]): (f["a_modifiers"], f["b_modifiers"]) for f in events(g, "fight")}
    assert mods == {
        ("hero_0", g.label(a)): ({"enemies": -1}, {}),
        ("hero_0", g.label(b)): ({"enemies": -1}, {"enemies": -1}),
        ("hero_1", g.label(b)): ({}, {"enemies": -1}),
    }


def test_R_FIGHT_04_modifiers_stack_additively():
    """A surprised hero at Light 0 facing 2 enemies: -1 -1 -1 = -3 (Corvin 5 -> 2); the monsters get
    only their own multi-enemy modifier, no Light penalty."""
    g = fight_game()
    add_monster(g, "goblin", 9, 2)
    add_monster(g, "goblin", 10, 3)
    place(g, 0, 9, 3)
    set_unit(g, 0, surprised=True)
    g.state.light = 0
    tired(g, *range(64))
    g.dice.force(*[3] * 8)
    fight_now(g)
    for f in events(g, "fight"):
        assert f["a_modifiers"] == {"enemies": -1, "surprised": -1, "light": -1}
        assert f["a_score"] == 2 and f["a_total"] == 8
        assert f["b_modifiers"] == {} and f["b_score"] == 3


def test_R_FIGHT_05_fights_resolve_in_reading_order():
    """Monsters in reading order (top to bottom, then left to right), then heroes likewise; the DM
    declares each monster's Stamina before the hero. Slots are added out of that order on purpose.

        x=    8  9  10
        y=2   0  Q  2        Q = m1 (9, 2), added second
        y=3   P  1  .        P = m0 (8, 3), added first
    """
    g = fight_game()
    p = add_monster(g, "orc", 8, 3)
    q = add_monster(g, "orc", 9, 2)
    place(g, 0, 8, 2)
    place(g, 1, 9, 3)
    place(g, 2, 10, 2)
    faces = [1, 1, 1, 2, 1, 1, 1, 3, 1, 1, 1, 4, 1, 1, 1, 5, 1, 1, 1, 6]
    g.dice.force(*faces)
    fight_now(g)
    asked = play_to(g, Phase.SPELL_RESOLUTION)
    assert g.dice.forced_left == 0
    fights = events(g, "fight")
    lq, lp = g.label(q), g.label(p)
    assert [(f["b"], f["a"]) for f in fights] == [
        (lq, "hero_0"),
        (lq, "hero_2"),
        (lq, "hero_1"),
        (lp, "hero_0"),
        (lp, "hero_1"),
    ]
    assert [f["b_dice"] for f in fights] == [[1, 2], [1, 3], [1, 4], [1, 5], [1, 6]]
    assert asked == [
        (Decision.FIGHT_STAMINA, q),
        (Decision.FIGHT_STAMINA, 0),
        (Decision.FIGHT_STAMINA, q),
        (Decision.FIGHT_STAMINA, 2),
        (Decision.FIGHT_STAMINA, q),
        (Decision.FIGHT_STAMINA, 1),
        (Decision.FIGHT_STAMINA, p),
        (Decision.FIGHT_STAMINA, 0),
        (Decision.FIGHT_STAMINA, p),
        (Decision.FIGHT_STAMINA, 1),
    ]


def test_R_FIGHT_06_total_is_2d6_plus_modified_score_plus_stamina():
    """Corvin (5) spends 2 against an Orc (5, spends 1): 3+4+5+2 = 14 vs 6+1+5+1 = 13: hero wins."""
    g = fight_game()
    m = add_monster(g, "orc", 9, 2)
    place(g, 0, 9, 3)
    fight_now(g)
    g.apply(SPEND_0 + 1)
    g.dice.force(3, 4, 6, 1)
    g.apply(SPEND_0 + 2)
    assert g.dice.forced_left == 0
    (f,) = events(g, "fight")
    assert (f["a_dice"], f["a_score"], f["a_total"]) == ([3, 4], 7, 14)
    assert (f["b_dice"], f["b_score"], f["b_total"]) == ([6, 1], 6, 13)
    assert f["winner"] == "hero_0"
    # 6 - 2, then +1 at the next Turn Start; monsters do not recover
    assert g.state.stamina[0] == 5 and g.state.stamina[m] == 2


B1_WIN = {
    -3: Fraction(103, 648),
    -2: Fraction(155, 648),
    -1: Fraction(145, 432),
    0: Fraction(575, 1296),
    1: Fraction(721, 1296),
    2: Fraction(287, 432),
    3: Fraction(493, 648),
}
B1_TIE = {
    -3: Fraction(13, 162),
    -2: Fraction(125, 1296),
    -1: Fraction(35, 324),
    0: Fraction(73, 648),
    1: Fraction(35, 324),
    2: Fraction(125, 1296),
    3: Fraction(13, 162),
}
B1_STRONG_WIN = {
    -3: Fraction(155, 648),
    -2: Fraction(145, 432),
    -1: Fraction(575, 1296),
    0: Fraction(721, 1296),
    1: Fraction(287, 432),
    2: Fraction(493, 648),
    3: Fraction(545, 648),
}


def fight_outcomes(hero: str, d: int, seed: int, n: int) -> dict[int, int]:
    """Resolve n Fights hero vs Goblin with score difference d through ``resolve_fight``."""
    g = fight_game((hero, "hob", "ilsabet"), seed=seed)
    m = add_monster(g, "goblin", 9, 2)
    place(g, 0, 9, 3)
    set_unit(g, m, base_fight=int(g.state.base_fight[0]) - d)
    s = g.state
    counts = {HERO_WON: 0, MONSTER_WON: 0, TIE: 0}
    for i in range(n):
        row = [m, 0, 0, 0, UNRESOLVED]
        s.fights = [row]
        resolve_fight(g, row)
        counts[row[4]] += 1
        if i % 1000 == 0:
            g.events.clear()
    return counts


@pytest.mark.parametrize("d", range(-3, 4))
def test_R_FIGHT_06_statistical_table_B1(d):
    rates = {HERO_WON: B1_WIN[d], TIE: B1_TIE[d], MONSTER_WON: 1 - B1_WIN[d] - B1_TIE[d]}
    n = trials_for_all(rates.values(), DELTA)
    counts = fight_outcomes("corvin", d, seed=600 + d, n=n)
    for outcome, p in rates.items():
        assert_rate(counts[outcome], n, p)


@pytest.mark.parametrize("d", range(-3, 4))
def test_R_FIGHT_08_statistical_table_B1_strong(d):
    n = trials_for(B1_STRONG_WIN[d], DELTA)
    counts = fight_outcomes("tovar", d, seed=800 + d, n=n)
    assert counts[TIE] == 0
    assert_rate(counts[HERO_WON], n, B1_STRONG_WIN[d])


def test_R_FIGHT_06_each_fight_rolls_fresh_dice():
    """Two Fights for one hero: four distinct dice pairs are drawn, in order."""
    g = fight_game()
    add_monster(g, "goblin", 9, 2)
    add_monster(g, "goblin", 10, 3)
    place(g, 0, 9, 3)
    tired(g, *range(64))
    g.dice.force(1, 2, 3, 4, 5, 6, 6, 5)
    fight_now(g)
    assert g.dice.forced_left == 0
    assert [(f["a_dice"], f["b_dice"]) for f in events(g, "fight")] == [([1, 2], [3, 4]), ([5, 6], [6, 5])]


def test_R_FIGHT_07_equal_totals_are_a_tie():
    """Corvin (5, not Strong) vs Orc (5), dice 3+4 vs 4+3: a tie, no damage to anyone."""
    g = fight_game()
    m = add_monster(g, "orc", 9, 2)
    place(g, 0, 9, 3)
    tired(g, 0, m)
    g.dice.force(3, 4, 4, 3)
    fight_now(g)
    (f,) = events(g, "fight")
    assert f["a_total"] == f["b_total"] == 12 and f["winner"] is None
    assert events(g, "damage") == []
    assert g.state.health[0] == 8 and g.state.health[m] == 6


def test_R_FIGHT_08_strong_hero_wins_ties():
    """Bram (6, Strong) vs an Orc at 6: dice 3+4 vs 4+3 tie at 13, Bram wins, the Orc takes 2."""
    g = fight_game(("bram", "hob", "corvin"))
    m = add_monster(g, "orc", 9, 2)
    set_unit(g, m, base_fight=6)
    place(g, 0, 9, 3)
    tired(g, 0, m)
    g.dice.force(3, 4, 4, 3)
    fight_now(g)
    (f,) = events(g, "fight")
    assert f["a_total"] == f["b_total"] == 13 and f["winner"] == "hero_0"
    assert g.state.health[m] == 4 and g.state.health[0] == 11


def test_R_FIGHT_08_monsters_have_no_traits():
    """A-63: a monster never wins a tie (a non-Strong hero's tie is nobody's)."""
    g = fight_game()
    m = add_monster(g, "troll", 9, 2)
    assert g.state.unit_traits[m] == 0
    set_unit(g, m, base_fight=5)
    place(g, 0, 9, 3)
    tired(g, 0, m)
    g.dice.force(6, 6, 6, 6)
    fight_now(g)
    assert events(g, "fight")[0]["winner"] is None


def test_R_FIGHT_09_stamina_counts_for_one_fight_only():
    """Corvin (Stamina 6) next to two Goblins spends 2 in fight 1 and 0 in fight 2; 4 is never offered,
    and Stamina 1 left limits the offer to 0..1.

        y=2   .  g  .
        y=3   .  0  g
    """
    g = fight_game()
    a = add_monster(g, "goblin", 9, 2)
    b = add_monster(g, "goblin", 10, 3)
    place(g, 0, 9, 3)
    tired(g, a, b)
    fight_now(g)
    assert g.decision == (Decision.FIGHT_STAMINA, 0)
    assert g.legal_actions() == list(SPEND_ACTIONS)  # 0..3: a 4th point does not exist
    assert all(a_ not in g.legal_actions() for a_ in range(N_ACTIONS) if a_ not in SPEND_ACTIONS)
    g.dice.force(3, 3, 3, 3, 3, 3, 3, 3)
    g.apply(SPEND_0 + 2)
    assert g.decision == (Decision.FIGHT_STAMINA, 0)
    g.apply(SPEND_0)
    f1, f2 = events(g, "fight")
    assert f1["a_modifiers"] == {"enemies": -1, "stamina": 2} and f1["a_score"] == 6
    assert f2["a_modifiers"] == {"enemies": -1} and f2["a_score"] == 4
    assert g.state.stamina[0] == 5  # 6 - 2, then +1 at the next Turn Start


def test_R_FIGHT_09_spend_limited_by_current_stamina_and_exhaustion():
    """Stamina 1: only 0..1 is offered; spending it exhausts the hero, whose next Fight gets 0 without
    being asked (D-08). An Exhausted monster is never asked either."""
    g = fight_game()
    a = add_monster(g, "goblin", 9, 2)
    b = add_monster(g, "goblin", 10, 3)
    place(g, 0, 9, 3)
    set_unit(g, 0, stamina=1)
    set_unit(g, a, stamina=2, exhausted=True)
    tired(g, b)
    fight_now(g)
    assert g.decision == (Decision.FIGHT_STAMINA, 0)
    assert g.legal_actions() == [SPEND_0, SPEND_0 + 1]
    g.dice.force(*[3] * 8)
    g.apply(SPEND_0 + 1)
    assert g.dice.forced_left == 0
    assert len(events(g, "exhausted", unit="hero_0")) == 1 and g.state.exhausted[0]
    f1, f2 = events(g, "fight")
    assert f1["a_modifiers"].get("stamina") == 1 and "stamina" not in f2["a_modifiers"]
    assert f1["b_modifiers"] == {} and g.state.stamina[a] == 2


def test_R_FIGHT_09_stamina_declared_before_the_dice():
    """The DM declares, then the hero, and only then are the 4 dice rolled."""
    g = fight_game()
    add_monster(g, "orc", 9, 2)
    place(g, 0, 9, 3)
    g.dice.force(3, 3, 3, 3)
    fight_now(g)
    g.apply(SPEND_0 + 3)
    assert g.dice.forced_left == 4 and events(g, "fight") == []
    g.apply(SPEND_0)
    assert g.dice.forced_left == 0 and events(g, "fight")[0]["b_modifiers"] == {"stamina": 3}


def test_R_FIGHT_10_fighting_without_spells_rolls_real_dice():
    """The casting-while-fighting choice needs the spell rules (not in the engine yet): a caster who
    casts nothing rolls its own dice, not the double ones."""
    g = fight_game(("orwin", "hob", "bram"))
    m = add_monster(g, "orc", 9, 2)
    place(g, 0, 9, 3)
    tired(g, 0, m)
    g.dice.force(5, 6, 1, 1)
    fight_now(g)
    assert events(g, "fight")[0]["a_dice"] == [5, 6]


def test_R_FIGHT_11_a_creature_beaten_in_fight_1_still_wins_fight_2():
    """hero_0 (Health 1) loses fight 1 to Orc A, then wins fight 2 against Goblin B: both results
    stand; B takes 2, hero_0 goes to 0 (Death's Door), all after both Fights.

        y=2   .  A  .        A = Orc at (9, 2)
        y=3   .  0  B        B = Goblin at (10, 3)
    """
    g = fight_game()
    a = add_monster(g, "orc", 9, 2)
    b = add_monster(g, "goblin", 10, 3)
    place(g, 0, 9, 3)
    set_unit(g, 0, health=1)
    tired(g, 0, a, b)
    g.dice.force(1, 1, 6, 6, 6, 6, 1, 1, 6)  # fight 1, fight 2, the Turn End Death's Door roll
    fight_now(g)
    assert g.dice.forced_left == 0
    f1, f2 = events(g, "fight")
    assert f1["winner"] == g.label(a) and f2["winner"] == "hero_0"
    assert g.state.health[0] == 0 and g.state.deaths_door[0]
    assert g.state.health[b] == 1
    last_fight = max(i for i, e in enumerate(g.events) if e["type"] == "fight")
    first_damage = min(i for i, e in enumerate(g.events) if e["type"] == "damage")
    assert last_fight < first_damage


def test_R_CTS_04_evaders_interleave_in_any_order():
    """hero_0 evades 1 square and hands control to hero_2, which evades 1 and ends; hero_0 then
    evades again (Stamina 6 -> 4 -> 2). Both next to Orcs in room B.

        y=1   .  O  .  .  O  .        Orcs at (8, 1) and (11, 1)
        y=2   .  0  .  .  2  .        hero_0 (8, 2), hero_2 (11, 2)
    """
    g = fight_game()
    add_monster(g, "orc", 8, 1)
    add_monster(g, "orc", 11, 1)
    place(g, 0, 8, 2)
    place(g, 2, 11, 2)
    play_to(g, Phase.EVASION)
    assert g.decision == (Decision.HERO_EVADE, 0)
    g.apply(MOVE_S)
    g.apply(HANDOFF_ACTIONS[2])
    assert g.decision == (Decision.HERO_EVADE, 2)
    g.apply(MOVE_S)
    g.apply(END)
    while g.decision != (Decision.HERO_EVADE, 0):
        g.apply(END)  # hero_1 passes
    g.apply(MOVE_S)
    s = g.state
    assert s.unit_pos[0] == g.square(8, 4) and s.unit_pos[2] == g.square(11, 3)
    assert [e["unit"] for e in events(g, "evade")] == ["hero_0", "hero_2", "hero_0"]
    assert s.stamina[0] == 2 and s.stamina[2] == 3
