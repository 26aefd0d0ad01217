"""Rules BOARD (R-BOARD-01..06) and SETUP (R-SETUP-01..07): the board, the dice, the players and the
state of a game right after set-up."""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

from dungeon_env.content import adventure_names, load_adventure, load_board, load_heroes, load_monsters
from dungeon_env.content.model import DECKS, HEIGHT, PIECE_TYPES, WIDTH
from dungeon_env.engine import Decision, Dice, Game, Phase
from dungeon_env.engine.actions import END, MOVE_ACTIONS, SPEND_ACTIONS
from dungeon_env.engine.state import ACTIVE, Status
from dungeon_env.engine.tables import square, tables_for, xy
from tests.builders import ARENA, add_monster, arena_game, enter_phase, events, place

ADVENTURES = adventure_names()
ALL_MAPS = [*ADVENTURES, ARENA]


# ------------------------------------------------------------------------------------------- BOARD


def test_R_BOARD_01_board_is_24_by_28_and_rejects_outside_squares():
    board = load_board()
    assert board.area.shape == (HEIGHT, WIDTH) == (28, 24)
    assert board.area.size == 672
    t = tables_for(ADVENTURES[0])
    assert t.n_squares == 672
    assert t.neighbor.shape == (672, 4)
    # corners are on the board, one step further is not
    assert square(0, 0) == 0 and square(23, 27) == 671
    assert xy(671) == (23, 27)
    for x, y in [(24, 0), (-1, 0), (0, 28), (0, -1), (24, 28)]:
        with pytest.raises(ValueError, match="off the 24x28 board"):
            square(x, y)
    # edge squares have no neighbour off the board
    assert t.neighbor[square(0, 0), 0] == -1 and t.neighbor[square(0, 0), 3] == -1
    assert t.neighbor[square(23, 27), 1] == -1 and t.neighbor[square(23, 27), 2] == -1


def test_R_BOARD_02_room_geometry_is_fixed_only_doors_and_blockages_differ():
    tables = [tables_for(name) for name in ALL_MAPS]
    first = tables[0]
    rooms = {}
    for letter in "ABCDEFGHIJKLMNOP":
        a = first.board.area_names.index(letter)
        ys, xs = np.nonzero(first.board.area == a)
        rooms[letter] = (xs.min(), xs.max(), ys.min(), ys.max(), len(xs))
        # every room is a filled rectangle
        assert (xs.max() - xs.min() + 1) * (ys.max() - ys.min() + 1) == len(xs)
    assert len(rooms) == 16
    for t in tables[1:]:
        assert np.array_equal(t.area, first.area)
        assert t.board.area_names == first.board.area_names
    # what the adventures do change: their doors and blockages (and so the walls' openings)
    door_sets = [frozenset(t.door_squares) for t in tables]
    blockage_sets = [frozenset(np.flatnonzero(t.blockage).tolist()) for t in tables]
    assert len(set(door_sets)) == len(tables)
    assert len(set(blockage_sets)) == len(tables)
    # a wall edge differs between two adventures only where one of them has a door
    for t in tables[1:]:
        diff = np.argwhere(first.wall != t.wall)
        for sq, d in diff:
            assert first.edge_door[sq, d] >= 0 or t.edge_door[sq, d] >= 0


def test_R_BOARD_03_the_only_die_is_a_d6():
    public = {name for name in dir(Dice) if not name.startswith("_")}
    assert {name for name in public if re.fullmatch(r"d\d+", name)} == {"d6"}
    assert not public & {"randint", "random", "uniform", "choice", "d3", "roll_die", "die"}
    assert {"d6", "roll", "force"} <= public
    # roll(stream, n) is n d6 calls on that stream, nothing else
    assert inspect.signature(Dice.roll).parameters.keys() == {"self", "stream", "n"}
    a, b = Dice(11), Dice(11)
    assert a.roll("combat", 2) == [b.d6("combat"), b.d6("combat")]
    assert a.to_json() == b.to_json()
    faces = Dice(3).roll("misc", 6000)
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    # forced faces must be d6 faces
    for bad in (0, 7, 3.0):
        with pytest.raises(ValueError):
            Dice(0).force(bad)


def test_R_BOARD_04_component_decks_and_piece_types():
    assert DECKS == ("treasure", "gear", "potions", "spells", "magic_items")
    assert PIECE_TYPES == ("door", "blockage", "furniture", "hero", "monster")
    # the pieces on the board: doors, blockages and furniture come from the adventure, heroes and
    # monsters are figures; hero and monster cards carry a profile
    adv = load_adventure("goblin_warrens")
    assert adv.doors and adv.blockages and adv.furniture
    hero = next(iter(load_heroes().values()))
    monster = next(iter(load_monsters().values()))
    for card in (hero, monster):
        for stat in ("move", "fight", "damage", "health", "stamina", "magic", "abilities"):
            assert hasattr(card, stat)


@pytest.mark.parametrize("n", [2, 6])
def test_R_BOARD_05_two_or_six_heroes_are_rejected(n):
    roster = list(load_heroes())
    with pytest.raises(ValueError, match="3-5"):
        Game.new(adventure=ADVENTURES[0], heroes=roster[:n])
    with pytest.raises(ValueError, match="3-5"):
        Game.new(adventure=ADVENTURES[0], heroes=n)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_R_BOARD_05_three_to_five_heroes_and_one_dm(n):
    g = Game.new(adventure=ADVENTURES[0], heroes=n, seed=1)
    assert g.state.n_heroes == n
    assert [u["id"] for u in g.events[0]["units"]] == [f"hero_{i}" for i in range(n)]
    assert all(g.state.unit_status[u] == ACTIVE for u in range(n))
    assert g.agent == "hero_0"


def test_R_BOARD_06_only_the_dm_moves_and_spends_for_monsters():
    """
    Room A, rows 2-4 (x 1..5):   . . o . .     o = orc (awake), 1 = hero_0 below it
                                 . . 1 . .
    """
    g = arena_game()
    m = add_monster(g, "orc", 3, 2)
    place(g, 0, 3, 3)
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    assert g.decision == (Decision.MONSTER_MOVE, m)
    assert g.agent == "dm"
    assert END in g.legal_actions()
    g.apply(END)
    # Evasion asks the heroes (each one its own agent)
    while g.state.phase == Phase.EVASION:
        kind, unit = g.decision
        assert kind == Decision.HERO_EVADE and g.agent == f"hero_{unit}"
        g.apply(END)
    # Fighting: the DM declares the monster's Stamina first, then the hero
    assert g.decision == (Decision.FIGHT_STAMINA, m)
    assert g.agent == "dm"
    assert g.legal_actions() == list(SPEND_ACTIONS)
    g.dice.force(3, 3, 3, 3)
    g.apply(SPEND_ACTIONS[0])
    assert g.decision == (Decision.FIGHT_STAMINA, 0)
    assert g.agent == "hero_0"
    g.apply(SPEND_ACTIONS[0])
    assert g.dice.forced_left == 0
    fight = events(g, "fight")[-1]
    assert (fight["a"], fight["b"], fight["winner"]) == ("hero_0", "m0", None)


def test_R_BOARD_06_agents_match_unit_owners_through_a_game():
    g = Game.new(adventure="goblin_warrens", heroes=4, seed=5, max_turns=6)
    rng = np.random.default_rng(5)
    seen_dm = False
    while not g.over:
        kind, unit = g.decision
        if unit >= g.state.n_heroes:
            assert g.agent == "dm" and g.state.unit_side[unit] == 1
            assert kind in (Decision.MONSTER_MOVE, Decision.FIGHT_STAMINA)
            seen_dm = True
        else:
            assert g.agent == f"hero_{unit}"
        legal = g.legal_actions()
        g.apply(legal[int(rng.integers(len(legal)))])
    assert seen_dm


# ------------------------------------------------------------------------------------------- SETUP


def test_R_SETUP_01_roster_of_10_and_no_duplicate_pick():
    roster = load_heroes()
    assert len(roster) == 10
    with pytest.raises(ValueError, match="picked twice"):
        Game.new(adventure=ADVENTURES[0], heroes=["bram", "sela", "bram"])
    # the same hero by id and by name is still a duplicate
    with pytest.raises(ValueError, match="picked twice"):
        Game.new(adventure=ADVENTURES[0], heroes=["bram", "sela", "Bram Ironhide"])
    with pytest.raises(ValueError, match="unknown hero"):
        Game.new(adventure=ADVENTURES[0], heroes=["bram", "sela", "nobody"])
    # any 3 distinct heroes of the 10 can be picked
    ids = list(roster)
    for i in range(0, 10, 3):
        pick = [ids[i % 10], ids[(i + 1) % 10], ids[(i + 2) % 10]]
        g = Game.new(adventure=ADVENTURES[0], heroes=pick)
        assert [u["name"] for u in g.events[0]["units"]] == [roster[h].name for h in pick]


@pytest.mark.parametrize("name", ADVENTURES)
@pytest.mark.parametrize("n", [3, 4, 5])
def test_R_SETUP_02_heroes_start_on_the_adventure_start_squares(name, n):
    adv = load_adventure(name)
    g = Game.new(adventure=name, heroes=n, seed=3)
    for u in range(n):
        assert xy(int(g.state.unit_pos[u])) == tuple(adv.start[u])
        assert g.state.occupant[g.state.unit_pos[u]] == u


@pytest.mark.parametrize("name", ALL_MAPS)
def test_R_SETUP_03_goal_text_is_in_the_setup_event(name):
    adv = load_adventure(name)
    g = Game.new(adventure=name, heroes=3)
    setup = g.events[0]
    assert setup["type"] == "setup"
    assert setup["goal"] == adv.goal
    assert len(setup["goal"]) > 10


@pytest.mark.parametrize("name", ALL_MAPS)
def test_R_SETUP_04_light_starts_at_20(name):
    g = Game.new(adventure=name, heroes=3)
    assert g.state.light == 20
    assert g.events[0]["light"] == 20


def test_R_SETUP_05_exactly_two_casters_in_the_roster():
    cards = list(load_heroes().values())
    casters = [c.id for c in cards if c.caster]
    assert len(casters) == 2
    assert sorted(casters) == ["maelis", "orwin"]
    # non-casters start with no spells; a caster's starting spells fit under its base Magic
    for c in cards:
        if not c.caster:
            assert c.spells == ()
        assert c.magic >= 0
    # several non-casters could pick up spells later (base Magic >= 1)
    assert sum(1 for c in cards if not c.caster and c.magic >= 1) >= 2


@pytest.mark.parametrize("name", ALL_MAPS)
def test_R_SETUP_06_heroes_start_full_not_at_deaths_door_not_exhausted(name):
    for n in (3, 5):
        g = Game.new(adventure=name, heroes=n, seed=n)
        s = g.state
        for u in range(n):
            assert s.unit_status[u] == Status.ACTIVE
            assert s.health[u] == s.base_health[u] > 0
            assert s.stamina[u] == s.base_stamina[u]
            assert s.magic[u] == s.base_magic[u]
            assert not s.deaths_door[u] and not s.exhausted[u]
            info = g.events[0]["units"][u]
            assert (info["health"], info["stamina"], info["magic"]) == (
                s.base_health[u],
                s.base_stamina[u],
                s.base_magic[u],
            )


@pytest.mark.parametrize("name", ALL_MAPS)
def test_R_SETUP_07_play_begins_at_turn_start(name):
    g = Game.new(adventure=name, heroes=4)
    phases = [e for e in g.events if e["type"] == "phase"]
    assert phases[0] == {"type": "phase", "phase": "turn_start", "turn": 1}
    assert phases[1]["phase"] == "hero_movement"
    # nothing of the turn happened before Turn Start (only setup, reveals and set-up encounters)
    first = g.events.index(phases[0])
    assert {e["type"] for e in g.events[:first]} <= {
        "setup",
        "reveal",
        "spawn",
        "combat_start",
        "roll",
        "monsters_surprised",
        "guard_alert",
    }
    assert g.state.turn == 1
    assert g.decision[0] == Decision.HERO_MOVE


def test_R_SETUP_07_first_decision_is_hero_0_movement_with_moves():
    g = arena_game()
    assert g.decision == (Decision.HERO_MOVE, 0)
    assert MOVE_ACTIONS[3] in g.legal_actions()  # hero_0 at (1,0) may step west to (0,0)
