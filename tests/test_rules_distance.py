"""Rules DIST (R-DIST-01..04): path distances (``tables.path_distances``, ruling A-39) and line of
sight (``visibility.sees``, ruling A-56).

Arena squares used (tests/data/arena.toml, board in dungeon_env/content/board.txt)::

    room A: x 1..5, y 1..5; door 0 (3,0)-(3,1) to corridor a, door 1 (5,3)-(6,3) to corridor t
    room B: x 7..11, y 1..5; door 3 (9,5)-(9,6) to corridor e; door 2 (11,3)-(12,3) to room C
    room F: x 7..11, y 7..12, table on (9,9)
    blockage on (6,20), where corridors v (x=6, y 14..19), j/k (y=20) and w (x=6, y 21..26) meet
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from dungeon_env.content import adventure_names
from dungeon_env.content.model import HEIGHT, WIDTH
from dungeon_env.engine import Game, Phase
from dungeon_env.engine.actions import MOVE_ACTIONS, Decision
from dungeon_env.engine.game import IllegalActionError
from dungeon_env.engine.tables import (
    OPEN,
    UNREACHABLE,
    WALL,
    _edge_grids,
    _trace_sight_lines,
    path_distances,
    sight_lines,
    tables_for,
)
from dungeon_env.engine.units import kill_hero
from dungeon_env.engine.visibility import sees
from tests.builders import (
    ARENA,
    add_monster,
    arena_game,
    enter_phase,
    events,
    line_up,
    place,
)

MN, ME, MS, MW = MOVE_ACTIONS


def dist(g: Game, a: tuple[int, int], b: tuple[int, int], door_open=None) -> int:
    doors = g.state.door_open if door_open is None else door_open
    return path_distances(g.tables, [g.square(*a)], doors)[g.square(*b)]


def los(g: Game, a: tuple[int, int], b: tuple[int, int]) -> bool:
    return sees(g, g.square(*a), g.square(*b))


def open_door(g: Game, door: int) -> None:
    """Open a door through the engine: a hero on its outer square rolls a forced 5."""
    a, b = g.tables.door_squares[door]
    side = a if g.tables.is_corridor[g.tables.area[a]] else b
    line_up(g, g.xy(side), (12, 27), (13, 27))
    enter_phase(g, Phase.HERO_MOVEMENT)
    other = b if side == a else a
    d = next(d for d in range(4) if g.tables.neighbor[side, d] == other)
    g.dice.force(5)
    g.apply(MOVE_ACTIONS[d])
    assert g.state.door_open[door]


# -------------------------------------------------------------------------------------------- DIST


def test_R_DIST_01_distance_is_orthogonal_steps_in_an_open_room():
    """In room A: dist((1,1),(3,4)) = 5, and every pair of its squares is at Manhattan distance."""
    g = arena_game()
    assert dist(g, (1, 1), (3, 4)) == 5
    room = [(x, y) for x in range(1, 6) for y in range(1, 6)]
    for a in room:
        d = path_distances(g.tables, [g.square(*a)], g.state.door_open)
        assert all(d[g.square(*b)] == abs(a[0] - b[0]) + abs(a[1] - b[1]) for b in room)


def test_R_DIST_01_distance_goes_round_walls_and_only_through_open_doors():
    """(1,1) in room A to (7,1) in room B (Manhattan 6): all doors closed, unreachable; door 0 and
    door 3 open, 22 via corridor a and t; all doors open, 20 via door 1.

        (1,1) -> (3,1) -> door 0 -> (3,0) -> (6,0) -> down t -> (6,6) -> (9,6) -> door 3 -> (9,5)
              -> (7,1): 2 + 1 + 3 + 6 + 3 + 1 + 6 = 22
        (1,1) -> (5,3) -> door 1 -> (6,3) -> (6,6) -> (9,6) -> (9,5) -> (7,1): 6+1+3+3+1+6 = 20
    """
    g = arena_game()
    closed = np.zeros(g.tables.n_doors, bool)
    assert dist(g, (1, 1), (7, 1), closed) == UNREACHABLE
    some = closed.copy()
    some[[0, 3]] = True
    assert dist(g, (1, 1), (7, 1), some) == 22
    assert dist(g, (1, 1), (7, 1), np.ones(g.tables.n_doors, bool)) == 20
    # symmetric, and a door opened through the engine counts
    assert dist(g, (7, 1), (1, 1), some) == 22
    open_door(g, 0)
    assert dist(g, (1, 1), (0, 0)) == 2 + 1 + 3


def test_R_DIST_01_occupants_are_ignored_and_blockages_are_not():
    """Ruling A-39: figures on the path do not change a distance; a blockage is not a square of the
    path. Corridor g row y=13: (0,13) to (10,13) is 10 with a Goblin on (5,13); from (6,19) to
    (6,21) round the blockage (6,20) is not 2."""
    g = arena_game()
    before = dist(g, (0, 13), (10, 13))
    add_monster(g, "goblin", 5, 13)
    line_up(g, (3, 13), (7, 13), (8, 13))
    assert before == dist(g, (0, 13), (10, 13)) == 10
    assert dist(g, (6, 19), (6, 21)) > 2
    d = path_distances(g.tables, [g.square(6, 19)], g.state.door_open)
    assert d[g.square(6, 20)] == UNREACHABLE


def test_R_DIST_02_closed_door_blocks_sight_open_door_does_not():
    """(3,0) and (3,2) across door 0: no line of sight while it is shut, sight once a hero opens
    it; room A is revealed at that moment (A-52), not before."""
    g = arena_game()
    assert not los(g, (3, 0), (3, 2)) and not los(g, (3, 2), (3, 0))
    assert not g.state.revealed[g.tables.area[g.square(3, 2)]]
    open_door(g, 0)
    assert los(g, (3, 0), (3, 2)) and los(g, (3, 0), (3, 5))
    assert "A" in [e["area"] for e in events(g, "reveal")]


def test_R_DIST_02_walls_block_sight():
    """Room A to room B and to corridor a (all across walls); inside a room sight is clear."""
    g = arena_game()
    assert not los(g, (1, 1), (7, 1))
    assert not los(g, (1, 1), (1, 0))
    assert los(g, (1, 1), (5, 5)) and los(g, (5, 1), (1, 5))


def test_R_DIST_02_blockage_blocks_sight():
    """The blockage on (6,20): vertically (6,18)/(6,22) and horizontally (5,20)/(7,20) there is no
    sight past it, while squares on one side still see each other."""
    g = arena_game()
    assert not los(g, (6, 18), (6, 22)) and not los(g, (6, 19), (6, 21))
    assert not los(g, (5, 20), (7, 20)) and not los(g, (0, 20), (12, 20))
    assert los(g, (0, 20), (5, 20)) and los(g, (7, 20), (16, 20)) and los(g, (6, 14), (6, 19))


def test_R_DIST_02_touching_a_corner_does_not_block():
    """(0,5) and (1,6) on the corridor outside room A's bottom-left corner: the sight line passes
    exactly through the corner point (1,6) and only touches room A's walls: it is clear. From inside
    the room, (1,5) to (0,6) through that same corner point, the walls enclose the square left:
    blocked."""
    g = arena_game()
    assert los(g, (0, 5), (1, 6)) and los(g, (1, 6), (0, 5))
    assert not los(g, (1, 5), (0, 6))


@pytest.mark.parametrize("what", ["furniture", "monster", "corpse", "ally"])
def test_R_DIST_03_figures_furniture_and_corpses_do_not_block_sight(what):
    """Row y=9 of room F: (7,9) sees (11,9) past the table (9,9), and past a monster, a corpse or
    an ally on (8,9)/(10,9)."""
    g = arena_game()
    line_up(g, (1, 0), (2, 0), (4, 0))
    if what == "monster":
        add_monster(g, "orc", 8, 9)
        add_monster(g, "goblin", 10, 9)
    elif what in ("corpse", "ally"):
        place(g, 1, 8, 9)
        place(g, 2, 10, 9)
        if what == "corpse":
            kill_hero(g, 1)
    assert g.tables.furniture[g.square(9, 9)]
    assert los(g, (7, 9), (11, 9)) and los(g, (11, 9), (7, 9))
    assert los(g, (7, 8), (11, 10))


def test_R_DIST_03_a_guard_wakes_when_seen_past_a_monster_and_furniture():
    """The engine's use of sight: an inactive Orc on (11,9) wakes at Monsters' Movement because
    h0 on (7,9) sees it past a Goblin (8,9) and the table (9,9); an inactive Goblin in room G on
    (12,9), behind the wall, stays asleep."""
    g = arena_game()
    line_up(g, (7, 9), (1, 0), (2, 0))
    add_monster(g, "goblin", 8, 9)
    orc = add_monster(g, "orc", 11, 9, awake=False)
    hidden = add_monster(g, "goblin", 12, 9, awake=False)
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    assert not g.state.inactive[orc] and g.state.inactive[hidden]
    assert [e["unit"] for e in events(g, "guard_alert")] == [g.label(orc)]


@pytest.mark.parametrize("what", ["furniture", "monster", "corpse", "ally"])
def test_R_DIST_04_figures_furniture_and_corpses_block_movement(what):
    """h0 on (8,10) in room F with the blocker north of it on (8,9) (the table case: h0 on (9,10)
    under the table): no step north, and for the monster the other way round too."""
    g = arena_game(["bram", "tovar", "gunnhild"])
    line_up(g, (8, 10), (1, 0), (2, 0))
    m = None
    if what == "furniture":
        place(g, 0, 9, 10)
    elif what == "monster":
        m = add_monster(g, "orc", 8, 9)
    else:
        place(g, 1, 8, 9)
        place(g, 2, 7, 9)
        if what == "corpse":
            kill_hero(g, 1)
    enter_phase(g, Phase.HERO_MOVEMENT)
    assert g.decision == (Decision.HERO_MOVE, 0)
    assert MN not in g.legal_actions()
    with pytest.raises(IllegalActionError):
        g.apply(MN)
    assert ME in g.legal_actions()  # the same hero can step elsewhere
    if m is not None:
        enter_phase(g, Phase.MONSTER_MOVEMENT)
        assert g.decision == (Decision.MONSTER_MOVE, m)
        assert MS not in g.legal_actions()


# ---------------------------------------------------------------------- line of sight, properties


def _check_pair_exact(t, a: int, b: int) -> tuple[bool, int] | None:
    """An independent, exact (rational) walk along the centre-to-centre line: (blocked by walls or
    blockages, OR of the door bits crossed), or None if the line passes a grid corner."""
    (ax, ay), (bx, by) = (a % WIDTH, a // WIDTH), (b % WIDTH, b // WIDTH)
    cx0, cy0 = Fraction(2 * ax + 1, 2), Fraction(2 * ay + 1, 2)
    dx, dy = bx - ax, by - ay
    blocked, bits = False, 0
    crossings = []
    for k in range(min(ax, bx) + 1, max(ax, bx) + 1):  # vertical grid lines x = k
        tt = (k - cx0) / dx
        y = cy0 + tt * dy
        if y.denominator == 1:
            return None
        row = int(y)  # floor, y > 0
        crossings.append((row * WIDTH + k - 1, 1))  # the edge east of (k-1, row)
    for j in range(min(ay, by) + 1, max(ay, by) + 1):  # horizontal grid lines y = j
        tt = (j - cy0) / dy
        x = cx0 + tt * dx
        if x.denominator == 1:
            return None
        col = int(x)
        crossings.append(((j - 1) * WIDTH + col, 2))  # the edge south of (col, j-1)
    for sq, d in crossings:
        other = int(t.neighbor[sq, d])
        if t.wall[sq, d] or t.blockage[sq] or t.blockage[other]:
            blocked = True
        elif t.edge_door[sq, d] >= 0:
            bits |= 1 << int(t.edge_door[sq, d])
    return blocked, bits


@pytest.mark.parametrize("adventure", [ARENA, *adventure_names()])
def test_R_DIST_02_sight_matches_an_exact_line_walk(adventure):
    """On 4,000 random pairs whose line avoids grid corners, the precomputed sight tables equal an
    exact walk over the edges the line crosses: walls and blockages block for good, each door
    crossed must be open."""
    t = tables_for(adventure)
    rng = random.Random(5)
    checked = 0
    while checked < 4_000:
        a, b = rng.randrange(WIDTH * HEIGHT), rng.randrange(WIDTH * HEIGHT)
        got = _check_pair_exact(t, a, b)
        if got is None:
            continue
        checked += 1
        assert (bool(t.los_static[a, b]), int(t.los_doors[a, b])) == got, (a % WIDTH, a // WIDTH, b)


def test_sight_lines_are_kept_per_edge_grid_and_traced_again_for_another():
    """``sight_lines`` keeps its answer per process by its whole input: equal grids (another copy)
    give the same read-only arrays, equal to a fresh trace; one more wall gives new ones, a fresh
    trace's, in which the two squares that wall parts no longer see each other."""
    t = tables_for(ARENA)
    grids = _edge_grids(t.wall, t.edge_door, t.blockage)
    first = sight_lines(*grids)
    again = sight_lines(*(g.copy() for g in grids))
    assert again[0] is first[0] and again[1] is first[1]
    assert not first[0].flags.writeable and not first[1].flags.writeable
    fresh = _trace_sight_lines(*grids)
    assert np.array_equal(first[0], fresh[0]) and np.array_equal(first[1], fresh[1])
    v, h, vbit, hbit = (g.copy() for g in grids)
    y, k = np.argwhere(v[:, 1:WIDTH] == OPEN)[0]
    v[y, k + 1] = WALL  # between (k, y) and (k + 1, y)
    walled = sight_lines(v, h, vbit, hbit)
    fresh = _trace_sight_lines(v, h, vbit, hbit)
    assert walled[0] is not first[0]
    assert np.array_equal(walled[0], fresh[0]) and np.array_equal(walled[1], fresh[1])
    a, b = y * WIDTH + k, y * WIDTH + k + 1
    assert not first[0][a, b] and walled[0][a, b] and walled[0][b, a]


@pytest.mark.parametrize("adventure", [ARENA, *adventure_names()])
def test_R_DIST_02_sight_is_symmetric(adventure):
    """The sight tables are symmetric over all 672 x 672 pairs, every square sees itself, and
    ``sees`` is symmetric on 5,000 random pairs under random open/closed door sets."""
    t = tables_for(adventure)
    assert np.array_equal(t.los_static, t.los_static.T)
    assert np.array_equal(t.los_doors, t.los_doors.T)
    assert not t.los_static.diagonal().any() and not t.los_doors.diagonal().any()
    g = Game.new(adventure=adventure, heroes=3, seed=0)
    rng = random.Random(9)
    for i in range(5_000):
        if i % 100 == 0:
            g.state.closed_bits = rng.getrandbits(t.n_doors) if t.n_doors else 0
        a, b = rng.randrange(WIDTH * HEIGHT), rng.randrange(WIDTH * HEIGHT)
        assert sees(g, a, b) == sees(g, b, a)
