"""Surprise (R-SURP-01..14): who rolls, what a surprised hero loses, when the monsters are surprised.

Deterministic tests drive the real paths (an Open Doors roll that reveals a Guard room, a hero walking
into an ambush corridor, a Patrol roll at Turn Start) on small variants of the test arena, written
to a temporary directory: the arena plus one Guard, or one Ambusher, or a one-monster Patrol.
Statistical tests call ``encounters.encounter`` (the function every reveal, Patrol and ambush goes
through) on a built game n times, and check |p_hat - p| <= 4 sqrt(p (1 - p) / n), n from a power
calculation (``tests/sampling.py``; the counts below say what deviation they detect).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from dungeon_env.engine import Decision, Game, Phase
from dungeon_env.engine.actions import END, EXTRA_MOVE, MOVE_ACTIONS, SPEND_0
from dungeon_env.engine.encounters import encounter
from dungeon_env.engine.state import How
from tests.builders import (
    ARENA,
    add_monster,
    arena_game,
    decisions_until,
    end_or_first,
    enter_phase,
    events,
    finish_turn,
    place,
    rolls,
    set_unit,
)
from tests.sampling import assert_rate, trials_for, trials_for_all

MOVE_N, MOVE_E, MOVE_S, MOVE_W = MOVE_ACTIONS
# A hero's Surprise roll is one d6 (plus modifiers): a rule that gets any face wrong moves that hero's
# rate by 1/6 or more, and N_TRIALS finds that, for every per-hero rate checked below (1/6 to 1), with
# probability >= 0.9999 (tests/sampling.py).
PER_HERO_RATES = [Fraction(k, 6) for k in range(1, 7)]
N_TRIALS = trials_for_all(PER_HERO_RATES, Fraction(1, 6))

# The Guard variant: an Orc Guard waits at (2, 3) in room A, behind the closed door (3,0)-(3,1).
GUARD_EXTRA = '\n[[guard]]\nmonster = "orc"\nat = [2, 3]\n'
# The Ambush variant: a Giant Spider drops into corridor t (x = 6, y = 1..5) at (6, 4).
AMBUSH_EXTRA = '\n[[ambush]]\narea = "t"\nmonsters = ["giant_spider"]\nat = [[6, 4]]\n'
PATROL_SET = '["goblin_scout"]'


# ------------------------------------------------------------------------------------------ helpers


@pytest.fixture(scope="module")
def variant(tmp_path_factory):
    """``variant(name)`` -> path of an arena variant: "guard", "ambush" or "patrol"."""
    folder = tmp_path_factory.mktemp("surprise_adventures")
    base = Path(ARENA).read_text()

    def make(name: str) -> str:
        path = folder / f"arena_{name}.toml"
        if not path.exists():
            text = base.replace('id = "arena"', f'id = "arena_{name}"')
            if name == "patrol":
                text = text.replace("patrol = []", f"patrol = {PATROL_SET}")
            text += {"guard": GUARD_EXTRA, "ambush": AMBUSH_EXTRA, "patrol": ""}[name]
            path.write_text(text)
        return str(path)

    return make


def surprise_rolls(g: Game, check: str = "surprise") -> list[tuple[str, int, bool]]:
    """(actor, die, surprised) of every Surprise roll of the log."""
    return [(e["actor"], e["dice"][0], e["result"] == "surprised") for e in rolls(g, check)]


def door_position(path: str, heroes=("corvin", "hob", "bram")) -> Game:
    """hero_0 stands outside room A's north door, the Orc Guard waits inside (not yet revealed)::

    y=0   .  1  .  0  .  .  .  |  .  .  .  2        corridor a, b (hero_2 at (10, 0))
          -  -  -  +  -  -         + = door (3,0)-(3,1), closed
    y=1      A  A  A  A  A
    y=3      A  O  A  A  A        O = Orc Guard at (2, 3), placed when A is revealed
    """
    g = Game.new(adventure=path, heroes=list(heroes), seed=11)
    place(g, 0, 3, 0)
    place(g, 1, 1, 0)
    place(g, 2, 10, 0)
    enter_phase(g, Phase.HERO_MOVEMENT)
    assert g.decision == (Decision.HERO_MOVE, 0)
    return g


def orc(g: Game) -> int:
    found = [u for u in range(g.state.n_heroes, 64) if g.state.unit_status[u] == 1]
    assert len(found) == 1
    return found[0]


def surprise_trials(g: Game, group: list[int], how: How, n: int) -> tuple[list[int], int]:
    """Run ``encounter`` n times on a fresh surprise state; returns (times each hero was surprised,
    times the group was surprised)."""
    s = g.state
    per_hero = [0] * s.n_heroes
    group_surprised = 0
    for _ in range(n):
        s.surprised[:] = False
        s.skip_move[:] = False
        g.events.clear()
        encounter(g, group, how)
        for h in range(s.n_heroes):
            per_hero[h] += bool(s.surprised[h])
        group_surprised += bool(s.skip_move[group[0]])
    return per_hero, group_surprised


# -------------------------------------------------------------------------------------------- SURP-01


def test_R_SURP_01_one_roll_per_hero_when_monsters_are_encountered(variant):
    """4 heroes; hero_0 opens the door of room A (die 6): the Orc Guard is placed and exactly 4
    Surprise rolls follow, one per hero in slot order."""
    g = door_position(variant("guard"), heroes=("corvin", "hob", "bram", "tovar"))
    g.dice.force(6, 3, 4, 5, 6)
    g.apply(MOVE_S)
    assert g.dice.forced_left == 0
    assert [e["result"] for e in rolls(g, "open_door")] == ["opened"]
    assert len(events(g, "spawn")) == 1 and len(events(g, "combat_start")) == 1
    assert surprise_rolls(g) == [
        ("hero_0", 3, False),
        ("hero_1", 4, False),
        ("hero_2", 5, False),
        ("hero_3", 6, False),
    ]


def test_R_SURP_01_no_rolls_when_combat_is_already_in_effect(variant):
    """A-26: a second group revealed while a monster is on the board causes no Surprise rolls."""
    g = door_position(variant("guard"))
    add_monster(g, "goblin", 20, 24, awake=False)  # far away in room P: combat is in effect
    g.dice.force(6)
    g.apply(MOVE_S)
    assert g.dice.forced_left == 0
    assert len(events(g, "spawn")) == 2  # the goblin, then the Orc Guard
    assert rolls(g, "surprise") == [] and events(g, "combat_start") == []
    assert events(g, "monsters_surprised") == []


# -------------------------------------------------------------------------------------- SURP-02..04


@pytest.mark.parametrize("die, surprised", [(1, True), (2, True), (3, False), (6, False)])
def test_R_SURP_02_roll_of_1_2_surprises(variant, die, surprised):
    g = door_position(variant("guard"))
    g.dice.force(6, die, 6, 6)
    g.apply(MOVE_S)
    assert g.dice.forced_left == 0
    first = rolls(g, "surprise")[0]
    assert (first["actor"], first["dice"], first["modifier"], first["total"]) == ("hero_0", [die], 0, die)
    assert first["result"] == ("surprised" if surprised else "ready")
    assert bool(g.state.surprised[0]) is surprised
    assert not g.state.surprised[1] and not g.state.surprised[2]


def test_R_SURP_02_statistical_one_in_three():
    g = arena_game(["corvin", "hob", "bram"], seed=202)
    m = add_monster(g, "orc", 20, 24)
    per_hero, _ = surprise_trials(g, [m], How.GUARD, N_TRIALS)
    for h in range(3):
        assert_rate(per_hero[h], N_TRIALS, Fraction(1, 3))


def test_R_SURP_03_perceptive_die_2_is_not_surprised(variant):
    """hero_1 is Ysolde (Perceptive): die 2 + 1 = 3 is not surprised; Corvin's die 2 is."""
    g = door_position(variant("guard"), heroes=("corvin", "ysolde", "hob"))
    g.dice.force(6, 2, 2, 6)
    g.apply(MOVE_S)
    assert g.dice.forced_left == 0
    r0, r1 = rolls(g, "surprise")[:2]
    assert (r1["actor"], r1["modifiers"], r1["total"], r1["result"]) == (
        "hero_1",
        {"perceptive": 1},
        3,
        "ready",
    )
    assert (r0["modifiers"], r0["total"], r0["result"]) == ({}, 2, "surprised")
    assert g.state.surprised[0] and not g.state.surprised[1]


def test_R_SURP_03_statistical_perceptive_one_in_six():
    g = arena_game(["sela", "ysolde", "ilsabet"], seed=303)
    m = add_monster(g, "orc", 20, 24)
    per_hero, _ = surprise_trials(g, [m], How.GUARD, N_TRIALS)
    for h in range(3):
        assert_rate(per_hero[h], N_TRIALS, Fraction(1, 6))


def test_R_SURP_04_light_0_die_3_is_surprised(variant):
    g = door_position(variant("guard"), heroes=("corvin", "ysolde", "hob"))
    g.state.light = 0
    g.dice.force(6, 3, 3, 4)
    g.apply(MOVE_S)
    assert g.dice.forced_left == 0
    r0, r1, r2 = rolls(g, "surprise")
    assert (r0["modifiers"], r0["total"], r0["result"]) == ({"light": -1}, 2, "surprised")
    assert (r1["modifiers"], r1["total"], r1["result"]) == ({"perceptive": 1, "light": -1}, 3, "ready")
    assert (r2["total"], r2["result"]) == (3, "ready")


@pytest.mark.parametrize(
    "heroes, p",
    [(["corvin", "hob", "bram"], Fraction(1, 2)), (["sela", "ysolde", "ilsabet"], Fraction(1, 3))],
    ids=["plain", "perceptive"],
)
def test_R_SURP_04_statistical_light_0(heroes, p):
    g = arena_game(heroes, seed=404)
    g.state.light = 0
    m = add_monster(g, "orc", 20, 24)
    per_hero, _ = surprise_trials(g, [m], How.GUARD, N_TRIALS)
    for h in range(3):
        assert_rate(per_hero[h], N_TRIALS, p)


# -------------------------------------------------------------------------------------- SURP-05..08


def test_R_SURP_05_surprised_heroes_lose_their_movement(variant):
    """hero_0 opens the door with all 5 squares left and is surprised (die 1): its movement ends at
    once; hero_1 (not moved yet) is surprised too and is never asked; control goes to hero_2."""
    g = door_position(variant("guard"))
    assert g.state.move_left[0] == 5
    g.dice.force(6, 1, 2, 3)
    g.apply(MOVE_S)
    assert g.dice.forced_left == 0
    s = g.state
    assert [bool(s.surprised[h]) for h in range(3)] == [True, True, False]
    assert s.move_left[0] == 0 and s.move_done[0] and s.move_done[1] and not s.move_done[2]
    assert g.decision == (Decision.HERO_MOVE, 2)
    assert s.unit_pos[0] == g.square(3, 0)
    asked = decisions_until(g, Phase.SPELL_SELECTION)
    assert all(unit == 2 for kind, unit in asked if kind == Decision.HERO_MOVE)
    assert [e["unit"] for e in events(g, "move")] == []  # nobody stepped; hero_2 ended at once


def test_R_SURP_05_surprise_at_turn_start_skips_the_whole_movement(variant):
    """A Patrol met at Turn Start: the surprised hero gets no Movement decision at all."""
    g2 = Game.new(adventure=variant("patrol"), heroes=["corvin", "hob", "bram"], seed=5)
    g2.dice.force(1, 1, 6, 6)  # Patrol roll 1 (appears), then hero_0 surprised, others ready
    finish_turn(g2, end_or_first, limit=50)
    assert g2.dice.forced_left == 0
    s = g2.state
    assert s.turn == 2 and s.surprised[0] and not s.surprised[1]
    assert s.move_left[0] == 0 and s.move_done[0]
    assert g2.decision == (Decision.HERO_MOVE, 1)


def test_R_SURP_06_surprised_hero_cannot_evade(variant):
    """Evasion after the door surprise: hero_0 and hero_1 (surprised, Stamina 6 and 7) are never
    asked; hero_2 (ready) is, and may step."""
    g = door_position(variant("guard"))
    g.dice.force(6, 1, 1, 6)
    g.apply(MOVE_S)
    asked = decisions_until(g, Phase.FIGHTING)
    evaders = {unit for kind, unit in asked if kind == Decision.HERO_EVADE}
    assert evaders == {2}
    assert g.state.stamina[0] >= 2 and g.state.stamina[1] >= 2
    assert not g.state.exhausted[0] and not g.state.exhausted[1]


def test_R_SURP_06_surprised_hero_evade_mask_is_empty(variant):
    """Directly: the Evasion opening marks a surprised hero done, so no Evade step is offered."""
    g = door_position(variant("guard"))
    g.dice.force(6, 1, 6, 6)
    g.apply(MOVE_S)
    decisions_until(g, Phase.EVASION)
    assert g.state.phase == Phase.EVASION and g.state.move_done[0]
    assert g.decision[1] != 0


def test_R_SURP_07_surprised_hero_fights_at_minus_1(variant):
    """The Orc walks to (3, 1), inside the open door, next to the surprised hero_0 (Corvin, Fighting
    Score 5): the fight log shows a -1 'surprised' modifier and score 4; the Orc has no modifier."""
    g = door_position(variant("guard"))
    g.dice.force(6, 1, 6, 6)
    g.apply(MOVE_S)
    decisions_until(g, Phase.MONSTER_MOVEMENT)
    m = orc(g)
    assert g.decision == (Decision.MONSTER_MOVE, m)
    for action in (MOVE_N, MOVE_N, MOVE_E):  # (2,3) -> (2,2) -> (2,1) -> (3,1)
        g.apply(action)
    g.apply(END)
    assert g.state.unit_pos[m] == g.square(3, 1)
    g.dice.force(3, 3, 3, 3)
    decisions_until(g, Phase.SPELL_RESOLUTION, choose=lambda g: END if END in g.legal_actions() else SPEND_0)
    assert g.dice.forced_left == 0
    (fight,) = events(g, "fight")
    assert (fight["a"], fight["a_modifiers"], fight["a_score"], fight["a_total"]) == (
        "hero_0",
        {"surprised": -1},
        4,
        10,
    )
    assert (fight["b_modifiers"], fight["b_score"], fight["winner"]) == ({}, 5, g.label(m))


def test_R_SURP_08_surprise_lasts_until_the_end_of_its_turn(variant):
    """Surprised in turn 1; in turn 2 hero_0 gets its full Movement and can Evade."""
    g = door_position(variant("guard"))
    g.dice.force(6, 1, 1, 6)
    g.apply(MOVE_S)
    assert g.state.surprised[0]
    finish_turn(g, end_or_first)
    s = g.state
    assert s.turn == 2 and not s.surprised[0] and not s.surprised[1]
    assert g.decision == (Decision.HERO_MOVE, 0) and s.move_left[0] == 5
    assert MOVE_W in g.legal_actions() and EXTRA_MOVE in g.legal_actions()
    g.apply(MOVE_W)  # hero_0 can move: (3,0) -> (2,0)
    asked = decisions_until(g, Phase.FIGHTING)
    evaders = {unit for kind, unit in asked if kind == Decision.HERO_EVADE}
    assert {0, 1} <= evaders


def test_R_SURP_09_monster_surprise_after_the_monsters_movement_skips_the_next_one():
    """A-25 revised: monsters surprised by an encounter after this turn's Monsters' Movement (here
    rolled in the Explore phase: every hero ready) skip the first Monsters' Movement that follows,
    next turn's, and move in the turn after."""
    g = arena_game(["corvin", "hob", "bram"], seed=3)
    for u, x in enumerate((14, 16, 18)):
        place(g, u, x, 0)
    m = add_monster(g, "goblin", 20, 20)
    g.state.phase = int(Phase.EXPLORE)
    g.dice.force(6, 6, 6)
    encounter(g, [m], How.GUARD)
    assert g.state.skip_move[m] and events(g, "monsters_surprised")
    enter_phase(g, Phase.TURN_END)
    assert g.state.turn == 2 and g.state.skip_move[m]
    asked = decisions_until(g, Phase.EVASION)
    assert (Decision.MONSTER_MOVE, m) not in asked and not g.state.skip_move[m]
    finish_turn(g, end_or_first)
    asked = decisions_until(g, Phase.EVASION)
    assert (Decision.MONSTER_MOVE, m) in asked


def test_R_SURP_06_caster_surprised_after_spell_selection_does_not_cast(variant):
    """Revised 2026-12-01: Maelis selects a spell in 2.1; Corvin Evades into corridor t, the Spider
    ambush springs and every hero rolls: Maelis is surprised (die 1). Her spell fails at once, no
    Magic is paid and nothing is cast at 2.5.

        y=0   M  .  .  .  h  g  C        M = Maelis (1, 0), C = Corvin (6, 0), g = a Goblin (5, 0)
    """
    g = ambush_position(variant("ambush"), ("maelis", "corvin", "hob"))
    place(g, 0, 1, 0)
    place(g, 1, 6, 0)
    add_monster(g, "goblin", 5, 0)
    decisions_until(g, Phase.SPELL_SELECTION)
    assert g.decision == (Decision.SPELL_SELECT, 0)
    spell = next(a for a in g.legal_actions() if a != END)
    magic = int(g.state.magic[0])
    g.apply(spell)
    assert g.state.casting_spell[0] >= 0
    decisions_until(g, Phase.EVASION)
    assert g.decision == (Decision.HERO_EVADE, 0)
    g.apply(END)  # Maelis does not Evade (that would fail the spell too)
    assert g.decision == (Decision.HERO_EVADE, 1)
    g.dice.force(1, 6, 6)
    g.apply(MOVE_S)  # Corvin Evades into corridor t: the ambush
    assert g.dice.forced_left == 0
    assert g.state.surprised[0] and g.state.casting_spell[0] == -1
    (fail,) = events(g, "spell_fail", unit="hero_0")
    assert fail["reason"] == "surprised"
    finish_turn(g, end_or_first)
    assert not events(g, "cast", unit="hero_0") and g.state.magic[0] == magic


# -------------------------------------------------------------------------------------- SURP-09..10


def test_R_SURP_09_no_hero_surprised_means_the_monsters_skip_movement(variant):
    """All heroes roll 3+: the Orc is surprised and gets no Monsters' Movement in this first combat
    turn; in turn 2 the DM moves it."""
    g = door_position(variant("guard"))
    g.dice.force(6, 3, 4, 5)
    g.apply(MOVE_S)
    m = orc(g)
    (ev,) = events(g, "monsters_surprised")
    assert ev["units"] == [g.label(m)] and g.state.skip_move[m]
    asked = decisions_until(g, Phase.TURN_END)
    assert (Decision.MONSTER_MOVE, m) not in asked
    assert events(g, "phase", phase="monster_movement") and events(g, "move", unit=g.label(m)) == []
    finish_turn(g, end_or_first)
    asked = decisions_until(g, Phase.EVASION)
    assert (Decision.MONSTER_MOVE, m) in asked and not g.state.skip_move[m]


def test_R_SURP_09_one_surprised_hero_means_no_monster_surprise(variant):
    g = door_position(variant("guard"))
    g.dice.force(6, 6, 2, 6)
    g.apply(MOVE_S)
    m = orc(g)
    assert events(g, "monsters_surprised") == [] and not g.state.skip_move[m]
    asked = decisions_until(g, Phase.EVASION)
    assert (Decision.MONSTER_MOVE, m) in asked


@pytest.mark.parametrize(
    "heroes, p",
    [
        (["corvin", "hob", "bram"], Fraction(2, 3) ** 3),
        (["corvin", "hob", "bram", "tovar"], Fraction(2, 3) ** 4),
        (["corvin", "hob", "bram", "tovar", "gunnhild"], Fraction(2, 3) ** 5),
        (["corvin", "hob", "bram", "sela"], Fraction(2, 3) ** 3 * Fraction(5, 6)),
        (["corvin", "ysolde", "bram", "sela", "orwin"], Fraction(2, 3) ** 3 * Fraction(5, 6) ** 2),
    ],
    ids=["n3", "n4", "n5", "n4_one_perceptive", "n5_two_perceptive"],
)
def test_R_SURP_09_statistical_monsters_surprised(heroes, p):
    g = arena_game(heroes, seed=909 + len(heroes))
    m = add_monster(g, "orc", 20, 24)
    # The monsters are surprised when no hero is: p is a product of one factor per hero (2/3 or 5/6,
    # the chance that hero's d6 does not surprise it). One face of one hero's die wrong moves its
    # factor by 1/6, so p by at least p / 5 (1/6 over the largest factor, 5/6): n detects that.
    n = trials_for(p, p / 5)
    _, group_surprised = surprise_trials(g, [m], How.GUARD, n)
    assert_rate(group_surprised, n, p)


def test_R_SURP_10_surprised_monsters_fight_with_unmodified_scores(variant):
    """The surprised Orc stays put; hero_0 walks up to it this turn and the Fight shows the Orc at its
    plain Fighting Score 5 (no surprise penalty for monsters, ruling A-27)."""
    g = door_position(variant("guard"))
    g.dice.force(6, 4, 4, 4)  # nobody surprised: the Orc is
    g.apply(MOVE_S)
    m = orc(g)
    assert g.state.skip_move[m]
    # hero_0 walks through the door to (2, 2), next to the Orc at (2, 3)
    for action in (MOVE_S, MOVE_W, MOVE_S):
        g.apply(action)
    assert g.state.unit_pos[0] == g.square(2, 2)
    g.dice.force(2, 2, 2, 2)
    decisions_until(g, Phase.SPELL_RESOLUTION, choose=lambda g: END if END in g.legal_actions() else SPEND_0)
    assert g.dice.forced_left == 0
    (fight,) = events(g, "fight")
    assert (fight["b"], fight["b_modifiers"], fight["b_score"], fight["b_total"]) == (g.label(m), {}, 5, 9)
    assert (fight["a_modifiers"], fight["a_score"]) == ({}, 5)


# -------------------------------------------------------------------------------------- SURP-11..12


def ambush_position(path: str, heroes=("corvin", "ysolde", "hob")) -> Game:
    """hero_0 at the top of corridor t; the Spider ambush springs when a hero enters t::

    y=0   1  .  .  .  2  .  0        corridor a (hero_0 at (6, 0), the junction)
    y=1   A  A  A  A  A  |  t
    y=4   A  A  A  A  A  |  S        S = Giant Spider (Ambusher) at (6, 4)
    """
    g = Game.new(adventure=path, heroes=list(heroes), seed=12)
    place(g, 0, 6, 0)
    enter_phase(g, Phase.HERO_MOVEMENT)
    return g


@pytest.mark.parametrize(
    "light, die, heroes, surprised",
    [
        (20, 5, ("corvin", "ysolde", "hob"), True),  # 5 < 6
        (20, 6, ("corvin", "ysolde", "hob"), False),
        (20, 5, ("ysolde", "corvin", "hob"), False),  # Perceptive: 5 + 1 = 6
        (0, 6, ("corvin", "ysolde", "hob"), True),  # Light 0: 6 - 1 = 5
        (0, 6, ("ysolde", "corvin", "hob"), False),  # Light 0 + Perceptive: 6
    ],
    ids=["die5", "die6", "perceptive_die5", "light0_die6", "light0_perceptive_die6"],
)
def test_R_SURP_11_ambush_surprises_unless_mod_roll_is_6(variant, light, die, heroes, surprised):
    g = ambush_position(variant("ambush"), heroes)
    g.state.light = light
    g.dice.force(die, 6, 6)
    g.apply(MOVE_S)
    assert g.dice.forced_left == 0
    assert g.state.unit_pos[0] == g.square(6, 1)
    assert [e["how"] for e in events(g, "spawn")] == ["ambush"]
    first = rolls(g, "ambush_surprise")[0]
    assert first["actor"] == "hero_0" and first["result"] == ("surprised" if surprised else "ready")
    assert bool(g.state.surprised[0]) is surprised
    assert rolls(g, "surprise") == []


@pytest.mark.parametrize(
    "heroes, light, p",
    [
        (["corvin", "hob", "bram"], 20, Fraction(5, 6)),
        (["sela", "ysolde", "ilsabet"], 20, Fraction(2, 3)),
        (["corvin", "hob", "bram"], 0, Fraction(1)),
        (["sela", "ysolde", "ilsabet"], 0, Fraction(5, 6)),
    ],
    ids=["plain", "perceptive", "light0", "light0_perceptive"],
)
def test_R_SURP_11_statistical_ambush(heroes, light, p):
    g = arena_game(heroes, seed=1111 + light)
    g.state.light = light
    m = add_monster(g, "giant_spider", 20, 24, how=How.AMBUSH)
    per_hero, group_surprised = surprise_trials(g, [m], How.AMBUSH, N_TRIALS)
    for h in range(3):
        assert_rate(per_hero[h], N_TRIALS, p)
    assert group_surprised == 0  # R-SURP-12


def test_R_SURP_12_ambushers_are_never_surprised(variant):
    """Every hero rolls 6: nobody is surprised, yet the Spider moves in 2.2 of this turn."""
    g = ambush_position(variant("ambush"))
    g.dice.force(6, 6, 6)
    g.apply(MOVE_S)
    assert g.dice.forced_left == 0
    assert not any(g.state.surprised[:3])
    spider = orc(g)
    assert not g.state.skip_move[spider] and events(g, "monsters_surprised") == []
    asked = decisions_until(g, Phase.EVASION)
    assert (Decision.MONSTER_MOVE, spider) in asked


def test_R_SURP_12_ambush_during_combat_still_rolls(variant):
    """A-26: an Ambusher spawn makes every hero roll even while combat is already in effect."""
    g = ambush_position(variant("ambush"))
    add_monster(g, "goblin", 20, 24, awake=False)
    g.dice.force(6, 2, 6)
    g.apply(MOVE_S)
    assert g.dice.forced_left == 0
    assert [e["actor"] for e in rolls(g, "ambush_surprise")] == ["hero_0", "hero_1", "hero_2"]
    assert g.state.surprised[1] and events(g, "combat_start") == []


def test_R_SURP_05_06_ambush_in_evasion_ends_the_surprised_heros_evasion(variant):
    """An Evade step into corridor t springs the ambush; hero_0 is surprised (die 1) and can take
    no further Evade step although it still has 4 Stamina: control passes on.

        y=0   .  .  .  .  .  g  0        g = Goblin at (5, 0), adjacent to hero_0 at (6, 0)
    """
    g = ambush_position(variant("ambush"))
    goblin = add_monster(g, "goblin", 5, 0)
    decisions_until(g, Phase.EVASION)
    assert g.decision == (Decision.HERO_EVADE, 0) and g.state.stamina[0] == 6
    g.dice.force(1, 6, 6)
    g.apply(MOVE_S)  # Evade (6,0) -> (6,1): 2 Stamina, springs the ambush
    assert g.dice.forced_left == 0
    assert g.state.surprised[0] and g.state.stamina[0] == 4
    assert g.decision is None or g.decision[1] != 0
    asked = decisions_until(g, Phase.FIGHTING)
    assert (Decision.HERO_EVADE, 0) not in asked
    assert g.state.unit_pos[0] == g.square(6, 1) and g.state.unit_pos[goblin] == g.square(5, 0)


# -------------------------------------------------------------------------------------- SURP-13..14


def test_R_SURP_13_alerted_door_makes_the_revealed_monsters_unsurprisable(variant):
    """hero_0 fails the door with a 1 (alerted) and steps aside; hero_1 walks up and opens it (5).
    Every hero then rolls 6, yet the Orc is not surprised and moves in 2.2.

        y=0   1  .  .  0  .  .  .        hero_0 (3, 0) at the door, hero_1 (1, 0)
    """
    g = door_position(variant("guard"))
    g.dice.force(1)
    g.apply(MOVE_S)
    assert [e["result"] for e in rolls(g, "open_door")] == ["failed_alert"]
    assert g.state.door_alert[0] and not g.state.door_open[0]
    assert MOVE_S not in g.legal_actions()  # one attempt per character per door per turn
    g.apply(MOVE_E)
    g.apply(END)
    assert g.decision == (Decision.HERO_MOVE, 1)
    g.apply(MOVE_E)
    g.apply(MOVE_E)
    g.dice.force(5, 6, 6, 6)
    g.apply(MOVE_S)
    assert g.dice.forced_left == 0
    assert [e["result"] for e in rolls(g, "open_door")] == ["failed_alert", "opened"]
    assert [e["result"] for e in rolls(g, "surprise")] == ["ready"] * 3
    m = orc(g)
    assert not g.state.skip_move[m] and events(g, "monsters_surprised") == []
    asked = decisions_until(g, Phase.EVASION)
    assert (Decision.MONSTER_MOVE, m) in asked


def test_R_SURP_13_alert_flag_survives_into_a_later_turn(variant):
    """A-30: the flag stays on the door until it is opened, by anyone, in any later turn."""
    g = door_position(variant("guard"))
    g.dice.force(2)
    g.apply(MOVE_S)
    assert g.state.door_alert[0]
    finish_turn(g, end_or_first)
    assert g.decision == (Decision.HERO_MOVE, 0) and g.state.door_alert[0]
    g.dice.force(6, 6, 6, 6)
    g.apply(MOVE_S)
    assert g.dice.forced_left == 0
    m = orc(g)
    assert not g.state.skip_move[m] and events(g, "monsters_surprised") == []


def test_R_SURP_14_patrol_outside_combat_triggers_surprise(variant):
    """Turn 1 ends with the heroes in corridor a; turn 2 Patrol roll 1: a Goblin Scout appears at
    (6, 0), the far end of a, and every hero rolls Surprise (3, 4, 5: the Scout is surprised)."""
    g = Game.new(adventure=variant("patrol"), heroes=["corvin", "hob", "bram"], seed=14)
    g.dice.force(1, 3, 4, 5)
    finish_turn(g, end_or_first)
    assert g.dice.forced_left == 0
    assert [e["result"] for e in rolls(g, "patrol")] == ["appears"]
    (spawn,) = events(g, "spawn")
    assert (spawn["how"], spawn["at"]) == ("patrol", [6, 0])
    assert len(events(g, "combat_start")) == 1
    assert [e["actor"] for e in rolls(g, "surprise")] == ["hero_0", "hero_1", "hero_2"]
    assert len(events(g, "monsters_surprised")) == 1


def test_R_SURP_14_patrol_during_combat_causes_no_surprise(variant):
    """With a Goblin already on the board (room P, far away), the Patrol appears with no rolls."""
    g = Game.new(adventure=variant("patrol"), heroes=["corvin", "hob", "bram"], seed=14)
    add_monster(g, "goblin", 20, 24, awake=False)
    g.dice.force(1)
    finish_turn(g, end_or_first)
    assert g.dice.forced_left == 0
    assert [e["how"] for e in events(g, "spawn")] == ["guard", "patrol"]
    assert rolls(g, "surprise") == [] and events(g, "combat_start") == []
    assert not any(g.state.surprised[:3]) and events(g, "monsters_surprised") == []


def test_R_SURP_07_surprised_hero_with_stamina_still_spends_in_fight():
    """Surprise removes nothing from a Fight but the -1: the hero may still add Stamina."""
    g = arena_game(["corvin", "hob", "bram"], seed=7)
    m = add_monster(g, "orc", 9, 2)
    place(g, 0, 9, 3)
    set_unit(g, 0, surprised=True)
    enter_phase(g, Phase.FIGHTING)
    assert g.decision == (Decision.FIGHT_STAMINA, m)
    g.apply(SPEND_0)
    assert g.decision == (Decision.FIGHT_STAMINA, 0)
    g.dice.force(4, 4, 4, 4)
    g.apply(SPEND_0 + 2)
    (fight,) = events(g, "fight")
    assert fight["a_modifiers"] == {"surprised": -1, "stamina": 2} and fight["a_score"] == 6
