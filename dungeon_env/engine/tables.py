"""Static lookup tables compiled once per adventure: areas, adjacency, walls, doors, line of sight.

Nothing here changes during a game, so a game's state never copies it. Squares are flat indices
``y * width + x``. Line of sight (ruling A-56) is precomputed for every pair of squares as
``los_static`` (blocked by walls or blockages whatever the doors do) and ``los_doors`` (a bitmask
of the doors the sight line crosses): ``a`` sees ``b`` iff ``not los_static[a, b]`` and
``los_doors[a, b] & closed_doors == 0``.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from dungeon_env.content import load_adventure, load_board, load_monsters
from dungeon_env.content.model import HEIGHT, WIDTH, Adventure, Board
from dungeon_env.engine import core
from dungeon_env.engine.actions import DIR_DX, DIR_DY

OPEN, WALL, DOOR = 0, 1, 2
MAX_DOORS = 64


@dataclass(frozen=True, eq=False)
class Tables:
    """Everything about the board and the adventure that never changes during a game."""

    adventure: Adventure
    board: Board
    area: np.ndarray  # int16 [N]: area index of each square (rooms first, then corridor segments)
    neighbor: np.ndarray  # int16 [N, 4]: square one step N/E/S/W, or -1 off the board
    wall: np.ndarray  # bool [N, 4]: a wall (not a door) on that side
    edge_door: np.ndarray  # int16 [N, 4]: door index on that side, or -1
    furniture: np.ndarray  # bool [N]
    blockage: np.ndarray  # bool [N]
    exit: np.ndarray  # bool [N]
    los_static: np.ndarray  # bool [N, N]
    los_doors: np.ndarray  # uint64 [N, N]
    area_squares: tuple[np.ndarray, ...]  # squares of each area
    is_corridor: np.ndarray  # bool [A]
    patrol_rooms: np.ndarray  # int [R]: rooms with an ordinary door (all revealed -> no more patrols)
    door_squares: tuple[tuple[int, int], ...]  # the two squares of each door
    # Plain-Python copies of some arrays above for the per-step hot paths (indexing a tuple is several
    # times faster than indexing a numpy array one element at a time):
    sides: tuple[tuple[tuple[int, int], ...], ...]  # [sq][d]: (neighbour, or -1 through a wall; door or -1)
    obstacle: tuple[bool, ...]  # [sq]: furniture or a blockage
    cache: dict = field(default_factory=dict)  # derived look-ups filled lazily (visible areas)

    def __getstate__(self) -> dict:
        """Pickled with an empty cache: it only memoises (the compiled core's copies of the board and
        content among it, which do not pickle), and the loading process fills it again."""
        state = self.__dict__.copy()
        state["cache"] = {}
        return state

    def __deepcopy__(self, memo: dict) -> Tables:
        """Tables never change (their cache only memoises): a deep copy shares them."""
        memo[id(self.cache)] = self.cache
        return self

    @property
    def n_squares(self) -> int:
        return self.area.shape[0]

    @property
    def n_areas(self) -> int:
        return len(self.area_squares)

    @property
    def n_doors(self) -> int:
        return len(self.door_squares)

    def area_char(self, area_index: int) -> str:
        return self.board.area_names[area_index]


def square(x: int, y: int) -> int:
    if not (0 <= x < WIDTH and 0 <= y < HEIGHT):
        raise ValueError(f"square ({x}, {y}) is off the {WIDTH}x{HEIGHT} board")
    return y * WIDTH + x


def xy(sq: int) -> tuple[int, int]:
    return sq % WIDTH, sq // WIDTH


@lru_cache(maxsize=32)
def tables_for(adventure: str) -> Tables:
    """Tables of a bundled adventure id or an adventure file path (cached per process)."""
    board = load_board()
    return compile_tables(load_adventure(adventure, board=board, monsters=load_monsters()), board)


def compile_tables(adv: Adventure, board: Board) -> Tables:
    n = WIDTH * HEIGHT
    area = board.area.reshape(-1).astype(np.int16)
    n_areas = board.n_areas
    is_room = np.arange(n_areas) < board.n_rooms
    door_squares = tuple((square(*d.a), square(*d.b)) for d in adv.doors)
    if len(door_squares) > MAX_DOORS:
        raise ValueError(f"{adv.source}: at most {MAX_DOORS} doors are supported")
    door_at = {}
    for i, (a, b) in enumerate(door_squares):
        door_at[(a, b)] = door_at[(b, a)] = i

    neighbor = np.full((n, 4), -1, np.int16)
    wall = np.zeros((n, 4), bool)
    edge_door = np.full((n, 4), -1, np.int16)
    for s in range(n):
        x, y = xy(s)
        for d in range(4):
            nx, ny = x + DIR_DX[d], y + DIR_DY[d]
            if not (0 <= nx < WIDTH and 0 <= ny < HEIGHT):
                continue
            t = ny * WIDTH + nx
            neighbor[s, d] = t
            if area[s] != area[t] and (is_room[area[s]] or is_room[area[t]]):
                if (s, t) in door_at:
                    edge_door[s, d] = door_at[(s, t)]
                else:
                    wall[s, d] = True

    def mask(squares) -> np.ndarray:
        out = np.zeros(n, bool)
        for x, y in squares:
            out[square(x, y)] = True
        return out

    furniture = mask(sq for f in adv.furniture for sq in f.squares)
    blockage = mask(adv.blockages)
    los_static, los_doors = _line_of_sight(wall, edge_door, blockage)
    area_squares = tuple(np.flatnonzero(area == a).astype(np.int16) for a in range(n_areas))
    patrol_rooms = np.array(_patrol_rooms(adv, board, area, door_squares), dtype=np.int16)
    return Tables(
        adventure=adv,
        board=board,
        area=area,
        neighbor=neighbor,
        wall=wall,
        edge_door=edge_door,
        furniture=furniture,
        blockage=blockage,
        exit=mask(adv.exits),
        los_static=los_static,
        los_doors=los_doors,
        area_squares=area_squares,
        is_corridor=~is_room,
        patrol_rooms=patrol_rooms,
        door_squares=door_squares,
        sides=_sides(neighbor, wall, edge_door),
        obstacle=tuple((furniture | blockage).tolist()),
    )


def _patrol_rooms(adv: Adventure, board: Board, area: np.ndarray, door_squares) -> list[int]:
    """The rooms whose revealing ends the Patrol rolls (R-MON-07 revised): every room that is not
    secret and that the adventure gives at least one ordinary (not secret) door; a room with no door
    can never be entered or seen, so it does not count."""
    secret = {board.area_names.index(c) for c in adv.secret_rooms}
    with_door = {
        int(area[sq])
        for door, squares in zip(adv.doors, door_squares, strict=True)
        if not door.secret
        for sq in squares
    }
    return [a for a in range(board.n_rooms) if a not in secret and a in with_door]


def _sides(neighbor: np.ndarray, wall: np.ndarray, edge_door: np.ndarray) -> tuple:
    """``[sq][d]``: ``(neighbour, door)`` one step in direction ``d`` (N/E/S/W); the neighbour is -1
    off the board or through a wall, the door is -1 where there is none."""
    return tuple(
        side_row(*rows) for rows in zip(neighbor.tolist(), wall.tolist(), edge_door.tolist(), strict=True)
    )


def side_row(neighbors: list[int], walls: list[bool], doors: list[int]) -> tuple:
    """One square's row of ``Tables.sides`` from its rows of ``neighbor``, ``wall`` and ``edge_door``."""
    return tuple(
        (-1 if walled else to, door) for to, walled, door in zip(neighbors, walls, doors, strict=True)
    )


def passage_row(sides_row: tuple, blockage) -> list[tuple[int, int]]:
    """One square's ``passages``: its steps (a row of ``Tables.sides``) onto no blockage."""
    return [(to, door) for to, door in sides_row if to >= 0 and not blockage[to]]


def _edge_grids(wall: np.ndarray, edge_door: np.ndarray, blockage: np.ndarray):
    """Vertical grid-line edges ``v[y, k]`` (between (k-1, y) and (k, y)) and horizontal ``h[j, x]``
    (between (x, j-1) and (x, j)) as OPEN/WALL/DOOR codes, with a door-bit grid for each."""
    v = np.zeros((HEIGHT, WIDTH + 1), np.int8)
    h = np.zeros((HEIGHT + 1, WIDTH), np.int8)
    vbit = np.zeros((HEIGHT, WIDTH + 1), np.uint64)
    hbit = np.zeros((HEIGHT + 1, WIDTH), np.uint64)
    for s in range(WIDTH * HEIGHT):
        x, y = xy(s)
        # east side (d=1) is grid line x+1; south side (d=2) is grid line y+1
        for d, grid, bits, idx in ((1, v, vbit, (y, x + 1)), (2, h, hbit, (y + 1, x))):
            if wall[s, d]:
                grid[idx] = WALL
            elif edge_door[s, d] >= 0:
                grid[idx] = DOOR
                bits[idx] = np.uint64(1) << np.uint64(int(edge_door[s, d]))
    for s in np.flatnonzero(blockage):  # a blockage blocks sight on all four sides
        x, y = xy(int(s))
        v[y, x] = v[y, x + 1] = WALL
        h[y, x] = h[y + 1, x] = WALL
    return v, h, vbit, hbit


def _line_of_sight(wall: np.ndarray, edge_door: np.ndarray, blockage: np.ndarray):
    """Centre-to-centre sight lines for every pair of squares, vectorised over pairs (A-56).

    A line is blocked where it crosses a wall edge (or a closed door edge: recorded as a door bit).
    Where it passes exactly through a grid corner it is blocked only if the walls meeting there
    separate the square it leaves from the square it enters; touching a corner is not blocking.
    """
    return sight_lines(*_edge_grids(wall, edge_door, blockage))


# sight_lines' answers by their edge grids (all of the input, so an answer is never stale): an
# adventure written again with only its traps, events or monsters changed, as tests and the
# difficulty tools do, and a side view's tables reuse the sight lines of the same walls and doors
_SIGHT_CACHE: OrderedDict[tuple, tuple[np.ndarray, np.ndarray]] = OrderedDict()
_SIGHT_CACHE_SIZE = 16  # about 4 MB each


def sight_lines(v, h, vbit, hbit) -> tuple[np.ndarray, np.ndarray]:
    """``(static, bits)`` for every pair of squares ``[a, b]``, given the edge grids: blocked by a
    wall edge, and the bits of the door edges the line crosses. A line is the same both ways (the
    crossings order each pair's ends), so only the pairs ``a < b`` are traced and then mirrored.

    The answer is kept per process for the last few grids (equal grids, equal answer) and shared:
    read-only arrays, as every table here."""
    grids = [
        np.ascontiguousarray(g, dtype) for g, dtype in zip((v, h, vbit, hbit), _GRID_DTYPES, strict=True)
    ]
    key = tuple((g.shape, g.dtype.str, g.tobytes()) for g in grids)
    cached = _SIGHT_CACHE.get(key)
    if cached is None:
        cached = core.sight_lines(*grids)  # (``_trace_sight_lines``, the reference, in compiled code)
        for table in cached:
            table.flags.writeable = False
        _SIGHT_CACHE[key] = cached
        while len(_SIGHT_CACHE) > _SIGHT_CACHE_SIZE:
            _SIGHT_CACHE.popitem(last=False)
    else:
        _SIGHT_CACHE.move_to_end(key)
    return cached


_GRID_DTYPES = (np.int8, np.int8, np.uint64, np.uint64)  # v, h (OPEN/WALL/DOOR codes), vbit, hbit


def _trace_sight_lines(v, h, vbit, hbit) -> tuple[np.ndarray, np.ndarray]:
    n = WIDTH * HEIGHT
    a, b = (ends.astype(np.int32) for ends in np.triu_indices(n, 1))
    ax, ay, bx, by = a % WIDTH, a // WIDTH, b % WIDTH, b // WIDTH
    static = np.zeros(a.size, bool)
    doors = np.zeros(a.size, np.uint64)
    _cross_vertical(ax, ay, bx, by, v, h, vbit, hbit, static, doors)
    _cross_horizontal(ax, ay, bx, by, h, hbit, static, doors)
    static_grid, doors_grid = np.zeros((n, n), bool), np.zeros((n, n), np.uint64)
    static_grid[a, b], doors_grid[a, b] = static, doors
    static_grid |= static_grid.T
    doors_grid |= doors_grid.T
    return static_grid, doors_grid


def _cross_vertical(ax, ay, bx, by, v, h, vbit, hbit, static, doors) -> None:
    swap = ax > bx
    x0, y0 = np.where(swap, bx, ax), np.where(swap, by, ay)
    x1, y1 = np.where(swap, ax, bx), np.where(swap, ay, by)
    for k in range(1, WIDTH):
        idx = np.flatnonzero((x0 < k) & (k <= x1))
        if idx.size == 0:
            continue
        dx, dy = x1[idx] - x0[idx], y1[idx] - y0[idx]
        num = (2 * y0[idx] + 1) * dx + (2 * k - 2 * x0[idx] - 1) * dy
        den = 2 * dx
        row = num // den
        corner = (num % den) == 0
        edge = ~corner
        e_idx, e_row = idx[edge], row[edge]
        code = v[e_row, k]
        static[e_idx[code == WALL]] = True
        is_door = code == DOOR
        doors[e_idx[is_door]] |= vbit[e_row[is_door], k]
        c_idx, r, down = idx[corner], row[corner], dy[corner] > 0
        _corner(c_idx, r, k, down, v, h, vbit, hbit, static, doors)


def _corner(idx, r, k, down, v, h, vbit, hbit, static, doors) -> None:
    if idx.size == 0:
        return
    up_c, down_c = v[r - 1, k], v[r, k]
    left_c, right_c = h[r, k - 1], h[r, k]

    def blocks(up, dn, lf, rt):
        straight = (up & dn) | (lf & rt)
        # moving NW->SE (down) is cut off by walls enclosing NW or SE; SW->NE by SW or NE
        return straight | np.where(down, (up & lf) | (dn & rt), (dn & lf) | (up & rt))

    as_open = blocks(up_c == WALL, down_c == WALL, left_c == WALL, right_c == WALL)
    as_closed = blocks(up_c != OPEN, down_c != OPEN, left_c != OPEN, right_c != OPEN)
    static[idx[as_open]] = True
    via_door = as_closed & ~as_open
    bits = vbit[r - 1, k] | vbit[r, k] | hbit[r, k - 1] | hbit[r, k]
    doors[idx[via_door]] |= bits[via_door]


def _cross_horizontal(ax, ay, bx, by, h, hbit, static, doors) -> None:
    swap = ay > by
    x0, y0 = np.where(swap, bx, ax), np.where(swap, by, ay)
    x1, y1 = np.where(swap, ax, bx), np.where(swap, ay, by)
    for j in range(1, HEIGHT):
        idx = np.flatnonzero((y0 < j) & (j <= y1))
        if idx.size == 0:
            continue
        dy, dx = y1[idx] - y0[idx], x1[idx] - x0[idx]
        num = (2 * x0[idx] + 1) * dy + (2 * j - 2 * y0[idx] - 1) * dx
        den = 2 * dy
        edge = (num % den) != 0  # corners were handled with the vertical grid lines
        e_idx, col = idx[edge], (num // den)[edge]
        code = h[j, col]
        static[e_idx[code == WALL]] = True
        is_door = code == DOOR
        doors[e_idx[is_door]] |= hbit[j, col[is_door]]


def passages(tables: Tables) -> list[list[tuple[int, int]]]:
    """For each square, the ``(neighbour, door or -1)`` steps with no wall and no blockage."""
    cached = tables.cache.get("passages")
    if cached is None:
        blockage = tables.blockage.tolist()
        cached = [passage_row(row, blockage) for row in tables.sides]
        tables.cache["passages"] = cached
    return cached


UNREACHABLE = core.UNREACHABLE
PATH_MEMO_SIZE = 1024  # distance tuples kept per adventure (about 5 KB each)
STEPS_MEMO_SIZE = 64  # door configurations whose open steps are kept (about 50 KB each)


def memoised(tables: Tables, name: str, size: int, key, compute):
    """``compute()``, memoised in ``tables.cache[name]`` under ``key``, for values that depend only
    on the tables and the key; the memo keeps its ``size`` most recently used entries."""
    memo = tables.cache.setdefault(name, {})
    value = memo.pop(key, None)
    if value is None:
        if len(memo) >= size:
            del memo[next(iter(memo))]  # the least recently used
        value = compute()
    memo[key] = value  # (re)inserted last: the most recently used
    return value


def open_steps(tables: Tables, door_open: np.ndarray) -> tuple[tuple[int, ...], ...]:
    """For each square, the neighbours one step away through a passage or an open door (memoised
    per door configuration: a game opens only a few doors)."""

    def compute():
        is_open = door_open.tolist()
        return tuple(
            tuple(t for t, door in square_steps if door < 0 or is_open[door])
            for square_steps in passages(tables)
        )

    return memoised(tables, "open_steps", STEPS_MEMO_SIZE, door_open.tobytes(), compute)


def path_distances(tables: Tables, sources, door_open: np.ndarray) -> tuple[int, ...]:
    """Orthogonal path distance from the nearest source square, through open passages only, with
    occupants ignored (ruling A-39). Unreachable squares get ``UNREACHABLE``.

    A pure function of the squares and the open doors, so results are memoised per adventure (a
    bounded cache shared by every game of the adventure) and returned as immutable tuples."""
    sources = tuple(int(q) for q in sources)

    def compute():
        return core.distances(tables, door_open, sources)

    return memoised(tables, "path_distances", PATH_MEMO_SIZE, (sources, door_open.tobytes()), compute)
