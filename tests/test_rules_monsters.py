"""Rules MON (R-MON-01..11): Guards, Patrols and Ambushers, and how monsters move.

Most positions are on the test arena (tests/data/arena.toml). Patrols and Ambushers need an adventure
that has them, so a variant of the arena (``monster_arena``) is written to a temporary folder: the
same board with a Patrol set, one ambush in corridor ``e`` and room K secret.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from dungeon_env.content import adventure_names, load_adventure, load_monsters
from dungeon_env.content.model import ENCOUNTER_TYPES
from dungeon_env.engine import Decision, Game, Phase, encounters
from dungeon_env.engine.actions import ACTION_NAMES, END, MOVE_ACTIONS, SPEND_ACTIONS
from dungeon_env.engine.state import ACTIVE, GONE, How
from dungeon_env.engine.units import kill_hero
from tests.builders import (
    ARENA,
    PLAIN,
    add_monster,
    arena_game,
    enter_phase,
    events,
    monster_blocked,
    monster_walk_field,
    next_to_hero,
    place,
    rolls,
    set_unit,
    squares_next_to_heroes,
)
from tests.sampling import assert_rate, trials_for

N, E, S, W = MOVE_ACTIONS
PATROL = ["goblin_scout", "goblin_scout", "hobgoblin"]


@pytest.fixture(scope="module")
def monster_arena(tmp_path_factory) -> str:
    text = Path(ARENA).read_text()
    text = text.replace('id = "arena"', 'id = "monster_arena"')
    text = text.replace("patrol = []", f"patrol = {PATROL!r}".replace("'", '"') + '\nsecret_rooms = ["K"]')
    text += '\n[[ambush]]\narea = "e"\nmonsters = ["giant_spider", "giant_spider"]\nat = [[10, 6], [9, 6]]\n'
    path = tmp_path_factory.mktemp("advs") / "monster_arena.toml"
    path.write_text(text)
    return str(path)


def _game(adventure: str, seed: int = 0) -> Game:
    return Game.new(adventure=adventure, heroes=PLAIN, seed=seed)


def _default(g: Game) -> int:
    legal = g.legal_actions()
    return END if END in legal else legal[0]


def _advance(g: Game, until, limit: int = 5_000) -> None:
    """Apply END (or the first legal action) until ``until(g)`` holds or the game is over."""
    for _ in range(limit):
        if g.over or until(g):
            return
        g.apply(_default(g))
    raise AssertionError("condition not reached")


def _next_turn(g: Game) -> None:
    turn = g.state.turn
    _advance(g, lambda g: g.state.turn > turn)


def _monsters(g: Game) -> list[int]:
    s = g.state
    return [u for u in range(s.n_heroes, len(s.unit_status)) if s.unit_status[u] == ACTIVE]


# ------------------------------------------------------------------------------------------- MON-01


def test_R_MON_01_every_monster_card_has_one_encounter_type():
    monsters = load_monsters()
    assert ENCOUNTER_TYPES == ("guard", "patrol", "ambusher")
    for card in monsters.values():
        assert isinstance(card.encounter, str) and card.encounter in ENCOUNTER_TYPES
    assert {c.encounter for c in monsters.values()} == set(ENCOUNTER_TYPES)
    for name in adventure_names():
        adv = load_adventure(name)
        assert all(monsters[gd.monster].encounter == "guard" for gd in adv.guards)
        assert all(monsters[p].encounter == "patrol" for p in adv.patrol)
        for amb in adv.ambushes:
            assert all(monsters[m].encounter == "ambusher" for m in amb.monsters)


def test_R_MON_01_every_monster_instance_records_how_it_came(monster_arena):
    """Guard (set-up), Patrol (Turn Start roll) and Ambush (entering corridor e) instances."""
    # Guards placed by the adventure when hero_2 opens the door of the guard room P
    g = Game.new(adventure="goblin_warrens", heroes=3, seed=1)
    g.apply(END)
    g.apply(END)
    assert g.decision == (Decision.HERO_MOVE, 2)
    g.dice.force(6, 6, 6, 6)  # the door opens; three surprise rolls
    g.apply(N)  # (20,27) -> the door to (20,26)
    assert g.dice.forced_left == 0
    guards = events(g, "spawn", how="guard")
    assert len(guards) == 3
    for e in guards:
        u = g.unit_by_label(e["unit"]["id"])
        assert g.state.unit_how[u] == How.GUARD
    # a Patrol and an Ambush on the variant arena
    g = _game(monster_arena)
    place(g, 0, 6, 6)
    place(g, 1, 8, 0)
    g.state.turn = 2
    g.state.patrol_corridors[g.tables.board.area_names.index("b")] = True
    g.dice.force(1, 6, 6, 6)  # patrol appears; three surprise rolls
    enter_phase(g, Phase.TURN_START)
    assert g.decision == (Decision.HERO_MOVE, 0)
    g.dice.force(6, 6, 6)  # ambush surprise rolls
    g.apply(E)  # hero_0 enters corridor e
    hows = [(e["unit"]["name"], e["how"]) for e in events(g, "spawn")]
    assert hows == [
        ("Goblin Scout", "patrol"),
        ("Goblin Scout", "patrol"),
        ("Hobgoblin", "patrol"),
        ("Giant Spider", "ambush"),
        ("Giant Spider", "ambush"),
    ]
    assert sorted(int(g.state.unit_how[u]) for u in _monsters(g)) == [How.PATROL] * 3 + [How.AMBUSH] * 2
    assert g.dice.forced_left == 0


# ------------------------------------------------------------------------------------------- MON-02


def test_R_MON_02_unseen_guard_never_moves_until_a_hero_sees_it():
    """
    y=0   . 1 2 . 3 . .      corridor a (heroes); the door below (3,0) is closed
          - - + - -
    y=3   . . o . . +        room A: the orc Guard at (3,3), asleep; the door east is closed
    """
    g = arena_game()
    m = add_monster(g, "orc", 3, 3, awake=False)
    for _ in range(3):
        _next_turn(g)
    assert not any(e["type"] == "move" and e["unit"] == "m0" for e in g.events)
    assert g.xy(int(g.state.unit_pos[m])) == (3, 3)
    assert g.state.inactive[m]
    # no MONSTER_MOVE decision was ever asked: the DM never acted for it
    phases = [e["phase"] for e in events(g, "phase")]
    assert phases.count("monster_movement") == 3
    # hero_1 opens the door: the orc is in sight and acts from then on
    assert g.decision == (Decision.HERO_MOVE, 0)
    g.apply(END)
    g.apply(E)  # hero_1 (2,0) -> (3,0)
    g.dice.force(6)
    g.apply(S)  # open the door (3,0)/(3,1)
    assert g.state.door_open[0]
    assert not g.state.inactive[m]
    assert events(g, "guard_alert", unit="m0")
    _advance(g, lambda g: g.state.phase == Phase.MONSTER_MOVEMENT)
    assert g.decision == (Decision.MONSTER_MOVE, m)
    assert g.agent == "dm"
    g.apply(N)
    assert g.xy(int(g.state.unit_pos[m])) == (3, 2)


def test_R_MON_02_asleep_guard_is_skipped_in_monster_movement_but_awake_one_moves():
    g = arena_game()
    asleep = add_monster(g, "goblin", 2, 3, awake=False)
    awake = add_monster(g, "goblin", 4, 3, awake=True)
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    assert g.decision == (Decision.MONSTER_MOVE, awake)
    g.apply(END)
    assert g.state.phase != Phase.MONSTER_MOVEMENT
    assert g.xy(int(g.state.unit_pos[asleep])) == (2, 3)


# ------------------------------------------------------------------------------------------- MON-03


def test_R_MON_03_guards_fight_to_the_death_no_flee_action():
    """
    room A:  . . o . .     orc Guard at 1 Health, hero_0 below it: the Fight is mandatory
             . . 1 . .
    """
    for name in ACTION_NAMES:
        assert not any(word in name for word in ("flee", "retreat", "surrender", "escape"))
    g = arena_game()
    m = add_monster(g, "orc", 3, 2)
    g.state.health[m] = 1
    place(g, 0, 3, 3)
    enter_phase(g, Phase.FIGHTING)
    # the DM's only choice for the guard is how much Stamina to spend
    assert g.decision == (Decision.FIGHT_STAMINA, m)
    assert g.legal_actions() == list(SPEND_ACTIONS)
    g.dice.force(6, 6, 1, 1)
    g.apply(SPEND_ACTIONS[0])
    g.apply(SPEND_ACTIONS[0])
    assert g.dice.forced_left == 0
    assert events(g, "fight")[-1]["winner"] == "hero_0"
    assert g.state.unit_status[m] == GONE
    assert events(g, "slain", unit="m0")[0]["killers"] == ["hero_0"]


def _monster_turn(g: Game, m: int) -> None:
    """Start the Monsters' Movement with monster ``m`` asked first (the other heroes far away)."""
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    assert g.decision == (Decision.MONSTER_MOVE, m)


def _steps(g: Game) -> set[int]:
    return set(g.legal_actions()) & set(MOVE_ACTIONS)


def _goblin_facing_hero_0(hero: tuple[int, int], goblin: tuple[int, int]) -> tuple[Game, int]:
    """The arena with hero_0 at ``hero``, the other heroes far away in corridor o, and a Goblin."""
    g = arena_game()
    place(g, 0, *hero)
    place(g, 1, 20, 26)
    place(g, 2, 21, 26)
    return g, add_monster(g, "goblin", *goblin)


def test_R_MON_03_an_awake_guard_next_to_a_hero_may_only_step_along_the_fight_or_stay():
    """Revised 2026-12-01 (A-53 duty 1): the Goblin next to hero_0 may stay (END) but not step to
    a square next to no hero; once hero_1 stands at (8, 4), the step west keeps it in the fight.

        room B   y=3   .  g  .        g = Goblin (9, 3)
                 y=4   1  0  .        0 = hero_0 (9, 4); 1 = hero_1 (8, 4), second position only
    """
    g, m = _goblin_facing_hero_0((9, 4), (9, 3))
    _monster_turn(g, m)
    assert _steps(g) == set() and END in g.legal_actions()
    place(g, 1, 8, 4)
    assert _steps(g) == {W}
    g.apply(W)
    assert END in g.legal_actions() and _steps(g) == {E}  # (8, 2), (7, 3): next to nobody


def test_R_MON_03_a_guard_that_can_reach_a_hero_must_end_next_to_one():
    """Duty 2: the Goblin (Movement 5) three squares from a fight square is offered no END until it
    stands next to hero_0; with no Stamina to buy squares and a Movement of exactly 3, only the steps
    of a shortest way are offered.

        room B   y=1   .  g  .        g = Goblin (9, 1)
                 y=5   .  0  .        0 = hero_0 (9, 5)
    """
    g, m = _goblin_facing_hero_0((9, 5), (9, 1))
    _monster_turn(g, m)
    assert END not in g.legal_actions()
    assert {S, E, W} <= _steps(g)  # any way that still gets there with 5 squares (and 2 Stamina)
    g.apply(E)
    assert END not in g.legal_actions()
    for action in (S, S, S, W):
        g.apply(action)
    assert g.xy(int(g.state.unit_pos[m])) == (9, 4)
    assert END in g.legal_actions()
    # tight: Movement 3, no Stamina: only the shortest way, a single legal step each time, so the
    # engine walks it without asking the DM (ruling D-08)
    g, m = _goblin_facing_hero_0((9, 5), (9, 1))
    set_unit(g, m, base_move=3, stamina=0)
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    assert g.xy(int(g.state.unit_pos[m])) == (9, 4)
    assert [e["to"] for e in events(g, "move", unit=g.label(m))] == [[9, 2], [9, 3], [9, 4]]


def test_R_MON_03_a_guard_out_of_reach_must_end_closer_and_never_farther():
    """Duty 3: a Goblin in corridor l, far from the heroes in corridor a: END is not offered until it
    has come closer by path distance, and the step away (east) is never offered.

        y=20   . . . g .        g = Goblin (20, 20); the way to the heroes runs west
    """
    g = arena_game()
    m = add_monster(g, "goblin", 20, 20)
    _monster_turn(g, m)
    assert END not in g.legal_actions() and _steps(g) == {E, W}
    g.apply(E)  # a step away is allowed while it can still end closer...
    assert END not in g.legal_actions()
    g.apply(W)
    assert END not in g.legal_actions()  # ...but back where it began is not closer
    g.apply(W)
    assert END in g.legal_actions()
    g.apply(END)
    assert g.xy(int(g.state.unit_pos[m])) == (19, 20)
    # with one square left, the step away is no longer offered
    g = arena_game()
    m = add_monster(g, "goblin", 20, 20)
    set_unit(g, m, base_move=1, stamina=0)
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    assert g.xy(int(g.state.unit_pos[m])) == (19, 20)  # the only legal step, taken by the engine


def test_R_MON_03_no_path_to_any_hero_means_no_duty():
    """Heroes shut in room A behind its closed doors: the Goblin cannot reach anyone (monsters open
    no doors, A-31), so it may stay or walk either way."""
    g = arena_game()
    for u, (x, y) in enumerate(((2, 2), (3, 2), (4, 2))):
        place(g, u, x, y)
    m = add_monster(g, "goblin", 20, 20)
    _monster_turn(g, m)
    assert END in g.legal_actions() and _steps(g) == {E, W}


def _runaway_step(g: Game, m: int, fields: list[list[int]]) -> int:
    """The legal action of monster ``m`` that takes it farthest from the nearest hero by the walking
    distance ``fields`` (one per hero it can reach); END when legal and no step is farther: the
    choice of a DM that wants to hold back."""
    legal = g.legal_actions()
    here = int(g.state.unit_pos[m])

    def spread(q: int) -> int:
        return min(f[q] for f in fields)

    best, best_far = (END if END in legal else None), spread(here)
    for action in sorted(_steps(g)):
        to = int(g.tables.neighbor[here, action - N])
        if best is None or spread(to) > best_far:
            best, best_far = action, spread(to)
    return best if best is not None else legal[0]


def _play_monster_movement(g: Game, m: int, heroes: tuple[int, ...]) -> tuple[int, int, list]:
    """Enter the Monsters' Movement and let a runaway DM move monster ``m`` away from ``heroes``;
    its start and end squares and the walking-distance fields of those heroes."""
    _monster_turn(g, m)
    start = int(g.state.unit_pos[m])
    fields = [monster_walk_field(g, m, [int(g.state.unit_pos[h])]) for h in heroes]
    while g.decision == (Decision.MONSTER_MOVE, m):
        g.apply(_runaway_step(g, m, fields))
    return start, int(g.state.unit_pos[m]), fields


def test_R_MON_03_a_guard_ahead_of_heroes_in_single_file_must_close_in():
    """Revised 2026-12-06 (A-53 duty 3, section F): three heroes in single file in corridor x=0, an
    awake Orc (Movement 4) six squares ahead. The middle hero is boxed in by its comrades: no path
    reaches it, and it must neither create nor satisfy the duty. A DM that wants to hold back may
    not walk away: the Orc ends every Movement closer, by path, to a hero it can reach (here the
    runaway goes round the loop towards hero_2, the nearer way by the rules' measure), or fights.

        x=0   y=2   o        o = Orc (0, 2)
              y=8   0        0 = hero_0 (0, 8), 1 = hero_1 (0, 9): no free square beside it
              y=9   1        2 = hero_2 (0, 10)
              y=10  2
    """
    g = arena_game()
    for u, y in enumerate((8, 9, 10)):
        place(g, u, 0, y)
    m = add_monster(g, "orc", 0, 2)
    fields = [monster_walk_field(g, m, [int(g.state.unit_pos[h])]) for h in range(3)]
    assert fields[1][g.square(0, 2)] >= 10**6  # the middle hero is out of every path
    for _ in range(4):
        start, end, walk = _play_monster_movement(g, m, (0, 2))
        if any(next_to_hero(g, q) for q in (start, end)):
            break
        assert any(f[end] < f[start] for f in walk), (g.xy(start), g.xy(end))


def test_R_MON_03_a_hero_shut_behind_a_closed_door_does_not_excuse_the_others():
    """Revised 2026-12-06: hero_0 shut in room A (doors closed, monsters open none), hero_1 and
    hero_2 in the bottom corridor. The Goblin in corridor x=6 cannot reach hero_0, so it must come
    closer to the others: END is not offered at once, and a runaway DM still ends closer to them.

        room A  (3, 3) 0     corridor x=6: g = Goblin (6, 10)     y=27: 1 (20, 27), 2 (21, 27)
    """
    g = arena_game()
    place(g, 0, 3, 3)
    place(g, 1, 20, 27)
    place(g, 2, 21, 27)
    m = add_monster(g, "goblin", 6, 10)
    _monster_turn(g, m)
    assert END not in g.legal_actions()
    start, end, fields = _play_monster_movement(g, m, (1, 2))
    assert any(f[end] < f[start] for f in fields), (g.xy(start), g.xy(end))


@pytest.mark.slow
def test_R_MON_03_random_play_every_monster_movement_obeys_the_duty_to_attack():
    """Many random games on every bundled adventure: at every END of a monster's movement (with no
    trap sprung on the way), an independent computation checks the three duties of A-53."""
    import random

    ends = {"stay": 0, "attack": 0, "approach": 0}
    for seed in range(10):
        for adventure in adventure_names():
            g = Game.new(adventure=adventure, heroes=PLAIN, seed=seed, max_turns=25)
            rng = random.Random(seed)
            sprung = 0
            while not g.over:
                decision, legal = g.decision, g.legal_actions()
                action = rng.choice(legal)
                if decision[0] == Decision.MONSTER_MOVE and action == END and not sprung:
                    m = decision[1]
                    s = g.state
                    start, here = int(s.move_from[m]), int(s.unit_pos[m])
                    heroes = [int(s.unit_pos[h]) for h in range(s.n_heroes) if s.unit_status[h] == ACTIVE]
                    blocked = monster_blocked(g, m)
                    fight = [q for q in squares_next_to_heroes(g) if q not in blocked]
                    to_fight = monster_walk_field(g, m, fight)
                    if next_to_hero(g, start) or to_fight[start] <= s.base_move[m]:
                        assert next_to_hero(g, here), (adventure, seed, g.label(m))
                        ends["stay" if next_to_hero(g, start) else "attack"] += 1
                    else:
                        fields = [monster_walk_field(g, m, [h]) for h in heroes]
                        if any(f[start] < 10**6 for f in fields):
                            assert any(f[here] < f[start] for f in fields), (adventure, seed, g.label(m))
                            ends["approach"] += 1
                before = g.n_events
                g.apply(action)
                if g.decision is None or g.decision[0] != Decision.MONSTER_MOVE:
                    sprung = 0
                elif any(e["type"] == "trap_sprung" for e in g.events_since(before)):
                    sprung = 1
    assert all(n > 10 for n in ends.values()), ends


# ------------------------------------------------------------------------------------------- MON-04


def test_R_MON_04_one_roll_per_corridor_held_at_last_turn_end(monster_arena):
    """Turn 1: no roll. Heroes end turn 1 in corridors a, b and p: three rolls at turn 2's Turn Start,
    none for room A where nobody stood."""
    g = _game(monster_arena)
    place(g, 0, 1, 0)  # corridor a
    place(g, 1, 9, 0)  # corridor b
    place(g, 2, 0, 3)  # corridor p
    assert not rolls(g, "patrol")
    g.dice.force(2, 3, 4)
    _next_turn(g)
    patrol = rolls(g, "patrol")
    assert len(patrol) == 3
    assert all(r["turn"] == 2 and r["actor"] == "dm" and r["result"] == "none" for r in patrol)
    assert g.dice.forced_left == 0
    # rolls happen in Step 1, before the recovery of that Turn Start
    first_recover = next(i for i, e in enumerate(g.events) if e["type"] == "recover" and e["turn"] == 2)
    turn_start = next(
        i for i, e in enumerate(g.events) if e == {"type": "phase", "phase": "turn_start", "turn": 2}
    )
    assert all(turn_start < g.events.index(r) < first_recover for r in patrol)
    # move hero_2 into room A: two corridors at the end of turn 2, two rolls in turn 3
    place(g, 2, 2, 2)
    g.dice.force(5, 5)
    _next_turn(g)
    assert len([r for r in rolls(g, "patrol") if r["turn"] == 3]) == 2


@pytest.mark.parametrize("corridors", [1, 3])
def test_R_MON_04_patrol_roll_probability(monster_arena, monkeypatch, corridors):
    """P(patrol) = 1/6 per corridor; with c corridors P(at least one) = 1 - (5/6)^c. A Patrol roll is
    one d6: a rule that gets a face wrong moves the rate per roll by 1/6, and the rate of at least
    one by 1/6 x (5/6)^(c - 1) or more; n finds both with probability >= 0.9999 (tests/sampling.py)."""
    p_any = 1 - Fraction(5, 6) ** corridors
    n = max(
        trials_for(Fraction(1, 6), Fraction(1, 6)),
        trials_for(p_any, Fraction(1, 6) * Fraction(5, 6) ** (corridors - 1)),
    )
    appeared: list[int] = []
    monkeypatch.setattr(encounters, "spawn_patrol", lambda g, area: appeared.append(area) or [])
    g = _game(monster_arena, seed=17)
    g.state.turn = 2
    names = g.tables.board.area_names
    for letter in "abp"[:corridors]:
        g.state.patrol_corridors[names.index(letter)] = True
    any_hits = 0
    for _ in range(n):
        before = len(appeared)
        encounters.roll_patrols(g)
        any_hits += len(appeared) > before
    assert len(rolls(g, "patrol")) == corridors * n
    assert_rate(len(appeared), corridors * n, Fraction(1, 6))
    assert_rate(any_hits, n, p_any)


# ------------------------------------------------------------------------------------------- MON-05


def test_R_MON_05_at_most_one_patrol_per_corridor_per_turn(monster_arena):
    """All three heroes in corridor b: one roll, one Patrol, not three."""
    g = _game(monster_arena)
    for u, x in enumerate((8, 9, 10)):
        place(g, u, x, 0)
    g.dice.force(1, 6, 6, 6)  # the patrol roll, then surprise for the three heroes
    _next_turn(g)
    assert len(rolls(g, "patrol")) == 1
    assert len(events(g, "spawn", how="patrol")) == len(PATROL)
    assert len(_monsters(g)) == len(PATROL)
    assert g.dice.forced_left == 0


# ------------------------------------------------------------------------------------------- MON-06


def test_R_MON_06_patrol_appears_farthest_from_the_heroes(monster_arena):
    """
    corridor b (y=0, x 7..16):  . 1 2 . . . . H S S      hero_2 is far away at (0,27)
                                7 8 9            16
    The farthest square of b from every hero is (16,0); the other members take the nearest free
    squares of b: (15,0), then (14,0).
    """
    g = _game(monster_arena)
    place(g, 0, 8, 0)
    place(g, 1, 9, 0)
    place(g, 2, 0, 27)
    names = g.tables.board.area_names
    assert names.index("b") < names.index("m")  # corridor rolls in area order: b, then m
    g.dice.force(1, 6, 6, 6, 6)  # b: patrol; m: none; three surprise rolls
    _next_turn(g)
    assert g.dice.forced_left == 0
    spawned = events(g, "spawn", how="patrol")
    assert [(e["unit"]["name"], e["at"]) for e in spawned] == [
        ("Goblin Scout", [16, 0]),
        ("Goblin Scout", [15, 0]),
        ("Hobgoblin", [14, 0]),
    ]
    # a fresh full copy each time: a second patrol in a later turn brings new, unhurt monsters
    first_ids = {e["unit"]["id"] for e in spawned}
    for u in _monsters(g):
        g.state.health[u] = 1
    n_surprise = len(rolls(g, "surprise"))
    g.dice.force(1, 6)  # b: patrol; m: none. Combat is already on: no surprise rolls this time
    turn = g.state.turn
    _advance(g, lambda g: g.state.turn > turn and g.state.phase == Phase.HERO_MOVEMENT)
    assert g.dice.forced_left == 0
    assert len(rolls(g, "surprise")) == n_surprise
    second = [e for e in events(g, "spawn", how="patrol") if e["unit"]["id"] not in first_ids]
    assert len(second) == len(PATROL)
    assert [e["unit"]["health"] for e in second] == [3, 3, 5]
    for e in second:
        u = g.unit_by_label(e["unit"]["id"])
        assert g.state.health[u] == g.state.base_health[u]


# ------------------------------------------------------------------------------------------- MON-07


def _rooms_with_an_ordinary_door(g: Game) -> list[int]:
    t = g.tables
    rooms = set()
    for door in t.adventure.doors:
        if not door.secret:
            for x, y in (door.a, door.b):
                area = int(t.area[g.square(x, y)])
                if area < t.board.n_rooms:
                    rooms.add(area)
    secret = {t.board.area_names.index(c) for c in t.adventure.secret_rooms}
    return sorted(rooms - secret)


def test_R_MON_07_no_patrol_rolls_once_every_room_with_an_ordinary_door_is_revealed(monster_arena):
    """Revised 2026-12-01: the arena gives doors to rooms A, B and C only; once those three are
    revealed no more Patrol rolls are made, although the other rooms (no door: never enterable) and
    the secret room K stay in the fog."""
    g = _game(monster_arena)
    for u, x in enumerate((8, 9, 10)):
        place(g, u, x, 0)
    t = g.tables
    secret = t.board.area_names.index("K")
    assert t.patrol_rooms.tolist() == _rooms_with_an_ordinary_door(g)
    assert [t.area_char(int(a)) for a in t.patrol_rooms] == ["A", "B", "C"]
    # all rooms but one: rolls go on
    for a in t.patrol_rooms[:-1]:
        g.state.revealed[a] = True
    g.dice.force(6)
    _next_turn(g)
    assert len(rolls(g, "patrol")) == 1 and g.dice.forced_left == 0
    # every room with an ordinary door revealed, nothing else: no more rolls
    g.state.revealed[t.patrol_rooms[-1]] = True
    assert not g.state.revealed[secret] and g.state.revealed[: t.board.n_rooms].sum() == 3
    g.dice.force(1)
    _next_turn(g)
    _next_turn(g)
    assert len(rolls(g, "patrol")) == 1
    assert g.dice.forced_left == 1


@pytest.mark.parametrize("adventure", adventure_names())
def test_R_MON_07_bundled_adventures_stop_patrols_when_their_door_rooms_are_revealed(adventure):
    """In every bundled adventure the rooms that count are exactly those with an ordinary door, and
    revealing them (and nothing else) ends the Patrol rolls."""
    from dungeon_env.engine.encounters import patrols_relevant

    g = Game.new(adventure=adventure, heroes=PLAIN, seed=0)
    rooms = _rooms_with_an_ordinary_door(g)
    assert g.tables.patrol_rooms.tolist() == rooms
    g.state.revealed[:] = False
    for a in rooms:
        g.state.revealed[a] = True
    assert not patrols_relevant(g)
    g.state.revealed[rooms[0]] = False
    assert patrols_relevant(g)


# ------------------------------------------------------------------------------------------- MON-08


def test_R_MON_08_patrol_starts_combat_and_surprise(monster_arena):
    g = _game(monster_arena)
    place(g, 0, 8, 0)
    g.dice.force(1, 3, 3, 3)  # patrol; nobody surprised -> the patrol is surprised
    _next_turn(g)
    assert g.dice.forced_left == 0
    assert len(events(g, "combat_start")) == 1
    surprise = rolls(g, "surprise")
    assert [r["actor"] for r in surprise] == ["hero_0", "hero_1", "hero_2"]
    assert events(g, "monsters_surprised")[0]["units"] == [e["unit"]["id"] for e in events(g, "spawn")]
    # the combat sequence takes effect in this very turn
    _advance(g, lambda g: g.state.phase != Phase.HERO_MOVEMENT)
    turn2 = [e["phase"] for e in events(g, "phase") if e["turn"] == 2]
    assert turn2[:3] == ["turn_start", "hero_movement", "spell_selection"]
    assert "explore" not in turn2


def test_R_MON_08_patrol_during_combat_rolls_no_surprise(monster_arena):
    g = _game(monster_arena)
    place(g, 0, 8, 0)
    add_monster(g, "goblin", 3, 3, awake=False)  # combat already in effect
    g.dice.force(1)
    _next_turn(g)
    assert g.dice.forced_left == 0
    assert len(events(g, "spawn", how="patrol")) == len(PATROL)
    assert not rolls(g, "surprise") and not events(g, "combat_start")


# ------------------------------------------------------------------------------------------- MON-09


def test_R_MON_09_ambushers_spawn_when_a_hero_enters_their_area(monster_arena):
    """
    y=6  corridor d | corridor e:   . . . . . . 1 | . . S S . .     S = spiders appear at (9,6), (10,6)
                                             (6,6) (7,6)
    """
    g = _game(monster_arena)
    place(g, 0, 6, 6)
    assert [c.encounter for c in load_monsters().values() if c.id == "giant_spider"] == ["ambusher"]
    g.dice.force(6, 6, 5)  # ambush surprise rolls: only a 6 (modified) avoids surprise
    g.apply(E)  # hero_0 (6,6) -> (7,6): corridor e
    assert g.dice.forced_left == 0
    spawned = events(g, "spawn", how="ambush")
    assert [(e["unit"]["name"], e["at"]) for e in spawned] == [
        ("Giant Spider", [10, 6]),
        ("Giant Spider", [9, 6]),
    ]
    amb = rolls(g, "ambush_surprise")
    assert [(r["actor"], r["total"], r["result"]) for r in amb] == [
        ("hero_0", 6, "ready"),
        ("hero_1", 7, "ready"),
        ("hero_2", 5, "surprised"),
    ]
    assert not events(g, "monsters_surprised")  # ambushers are never surprised
    # the ambush fires once: leaving and re-entering spawns nothing new
    g.apply(W)
    g.apply(E)
    assert len(events(g, "spawn", how="ambush")) == 2


# ------------------------------------------------------------------------------------------- MON-10


def test_R_MON_10_dm_moves_monsters_with_full_knowledge_of_the_board():
    """The DM's choices do not depend on what the heroes have revealed. (Traps, and so a monster
    springing one, arrive with the trap rules: that part of R-MON-10 is not testable yet.)"""
    g = arena_game()
    m = add_monster(g, "goblin", 9, 8)  # room F, never revealed to the heroes
    area_f = g.tables.area[g.square(9, 8)]
    g.state.revealed[area_f] = False
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    assert g.decision == (Decision.MONSTER_MOVE, m)
    hidden = list(g.legal_actions())
    g2 = arena_game()
    m2 = add_monster(g2, "goblin", 9, 8)
    g2.state.revealed[area_f] = True
    enter_phase(g2, Phase.MONSTER_MOVEMENT)
    assert g2.decision == (Decision.MONSTER_MOVE, m2)
    assert g2.legal_actions() == hidden
    assert {N, E, W} <= set(hidden) and S not in hidden  # (9,9) is the table


# ------------------------------------------------------------------------------------------- MON-11


def test_R_MON_11_monsters_cannot_pass_closed_doors():
    """
    room A | corridor t:   . . . . o + .      orc at (5,3); the door (5,3)/(6,3) is closed
    """
    g = arena_game()
    m = add_monster(g, "orc", 5, 3)
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    assert g.decision == (Decision.MONSTER_MOVE, m)
    assert E not in g.legal_actions()
    assert {N, S, W} <= set(g.legal_actions())
    # once open (by a hero), the monster may pass
    g2 = arena_game()
    m2 = add_monster(g2, "orc", 5, 3)
    g2.state.door_open[1] = True
    g2.state.closed_bits &= ~(1 << 1)
    enter_phase(g2, Phase.MONSTER_MOVEMENT)
    assert E in g2.legal_actions()
    g2.apply(E)
    assert g2.xy(int(g2.state.unit_pos[m2])) == (6, 3)


def test_R_MON_11_monsters_cannot_pass_occupied_squares():
    """
    room F:   . . . 3 .        m = goblin at (9,8): north free, west a hero, east a corpse,
              . 2 m % .            south the table T at (9,9); hero_2 at (10,7) keeps the
              . . T . .            north square in the fight (the duty to attack, R-MON-03)
    corridor j: blockage # at (6,20); a second test monster at (5,20) cannot step onto it.
    """
    g = arena_game()
    place(g, 1, 8, 8)
    place(g, 2, 10, 7)
    place(g, 0, 10, 8)
    kill_hero(g, 0)  # hero_0's corpse at (10,8); hero_1 stays with it
    m = add_monster(g, "goblin", 9, 8)
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    assert g.decision == (Decision.MONSTER_MOVE, m)
    legal = g.legal_actions()
    assert N in legal
    assert E not in legal and S not in legal and W not in legal
    # a blockage
    g = arena_game()
    m = add_monster(g, "goblin", 5, 20)
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    assert g.decision == (Decision.MONSTER_MOVE, m)
    assert E not in g.legal_actions() and W in g.legal_actions()
    # monsters never stop on another figure either: walk it next to a hero and try to go on
    g = arena_game()
    m = add_monster(g, "goblin", 9, 2)  # room B
    place(g, 0, 9, 4)
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    g.apply(S)
    assert g.xy(int(g.state.unit_pos[m])) == (9, 3)
    assert S not in g.legal_actions()
