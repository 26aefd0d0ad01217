"""An image of a game drawn with numpy: the board, the fog, doors, traps, figures with health bars, a
legend column, an optional caption and a status strip.
``render_image(game, caption=None) -> uint8 [height, width, 3]``.

The picture is the spectator's (the DM's) view: unrevealed areas are drawn dimmed, hidden traps
as small dark marks and undiscovered secret doors as walls with a violet tint. Heroes are discs in
their colour with their number; monsters are square badges with a look per kind (monster card): a
colour from a fixed palette indexed by the card's place in the game's catalogue, and a letter, the
initial of the card's name where it is free (else another letter of it; ``monster_glyphs``). A dim
badge is a monster asleep. The legend column right of the board names every hero by number and every
monster kind on the board by its badge. ``caption``: up to ``CAPTION_LINES`` lines of text drawn under
the board (each cut to ``caption_chars()`` characters); a frame with a caption, even an empty one, is
taller than one without, by ``CAPTION``.

Everything that does not depend on the game's progress (the lit and dimmed board of each adventure,
the figure sprites and badges, the letters of the font) is drawn once and cached; a frame composes
them.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from dungeon_env.content.model import HEIGHT, WIDTH
from dungeon_env.engine.actions import DECISION_NAMES, PHASE_NAMES
from dungeon_env.engine.state import ACTIVE, CORPSE

TILE = 20
STATUS_LINES = 3
SCALE = 2  # the status font is 3x5 pixels, drawn twice as large
CHAR_W = 4 * SCALE  # a character's advance
LINE_H = 6 * SCALE + 4
PANEL = STATUS_LINES * LINE_H + 6
LEGEND_W = 160  # the legend column right of the board
LEGEND_ROW = TILE + 4
CAPTION_LINES = 2
CAPTION = CAPTION_LINES * LINE_H + 4  # the caption strip's height, when there is a caption
BOARD_W, BOARD_H = WIDTH * TILE, HEIGHT * TILE
FRAME_W = BOARD_W + LEGEND_W

ROOM, ROOM_DARK = (206, 196, 174), (70, 66, 60)
CORRIDOR, CORRIDOR_DARK = (150, 142, 128), (52, 50, 47)
WALL, DOOR, SECRET = (28, 24, 20), (150, 92, 36), (120, 60, 150)
FURNITURE, BLOCKAGE, EXIT = (118, 80, 44), (72, 72, 76), (60, 170, 84)
TRAP, HIDDEN_TRAP, HAZARD = (210, 40, 40), (120, 30, 30), (15, 15, 15)
HERO_COLORS = ((52, 110, 220), (40, 170, 170), (230, 160, 30), (150, 80, 200), (90, 180, 60))
CORPSE_COLOR = (110, 110, 110)
# Monster kinds' colours, by the card's index in the game's catalogue (dark enough for a white letter).
MONSTER_COLORS = (
    (190, 40, 40),
    (120, 90, 30),
    (70, 110, 40),
    (140, 20, 90),
    (30, 110, 120),
    (170, 90, 20),
    (60, 60, 60),
    (110, 40, 40),
    (40, 70, 150),
    (120, 120, 40),
    (150, 60, 120),
    (40, 120, 80),
)
PANEL_BG, TEXT, LIGHT_BAR = (20, 20, 24), (230, 230, 230), (240, 200, 60)
LEGEND_BG, CAPTION_BG, CAPTION_TEXT = (32, 30, 34), (12, 12, 14), (250, 240, 200)
HEALTH_OK, HEALTH_LOW = (60, 200, 80), (200, 50, 40)


def render_image(game, caption: str | None = None) -> np.ndarray:
    """The board with its legend column, the caption strip if ``caption`` is not None, and a status
    strip, as an RGB uint8 image of shape ``(28 * 20 [+ CAPTION] + PANEL, 24 * 20 + LEGEND_W, 3)``.
    ``caption``: text, its lines (``\\n``) the last ``CAPTION_LINES`` of them shown, each cut to
    :func:`caption_chars` characters."""
    s, t = game.state, game.tables
    lit, dark = _boards(t)
    revealed = np.kron(s.revealed[t.area].reshape(HEIGHT, WIDTH), np.ones((TILE, TILE), bool))
    board = np.where(revealed[:, :, None], lit, dark)
    _draw_doors(board, game)
    _draw_traps(board, game)
    _draw_figures(board, game)
    strip = CAPTION if caption is not None else 0
    frame = np.empty((BOARD_H + strip + PANEL, FRAME_W, 3), np.uint8)
    frame[:BOARD_H, :BOARD_W] = board
    _draw_legend(frame[:BOARD_H, BOARD_W:], game)
    if caption is not None:
        _draw_caption(frame[BOARD_H : BOARD_H + strip], caption)
    _draw_panel(frame[BOARD_H + strip :], game)
    return frame


def caption_chars() -> int:
    """How many characters a caption line holds."""
    return (FRAME_W - 8) // CHAR_W


def monster_look(game, u: int) -> tuple[tuple[int, int, int], str]:
    """The colour and the letter of the badge of the monster in slot ``u`` (by its card)."""
    card = int(game.state.unit_card[u])
    return MONSTER_COLORS[card % len(MONSTER_COLORS)], monster_glyphs(tuple(c.name for c in game.monsters))[
        card
    ]


@lru_cache(maxsize=8)
def monster_glyphs(names: tuple[str, ...]) -> tuple[str, ...]:
    """A letter per monster card, in catalogue order: the initial of the name's last word (the noun:
    Giant *R*at, Orc *W*arrior), else of its first word, else another letter of the name, else any
    free letter, so that kinds differ where 26 letters allow."""
    used: set[str] = set()
    out = []
    for name in names:
        words = [w for w in name.upper().split() if w[:1].isalpha()] or ["?"]
        letters = [words[-1][0], words[0][0], *"".join(words)]
        letters += [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in letters]
        pick = next((c for c in letters if c.isalpha() and c not in used), words[-1][0])
        used.add(pick)
        out.append(pick)
    return tuple(out)


# ----------------------------------------------------------------------------------------- assets


@lru_cache(maxsize=16)
def _boards(tables) -> tuple[np.ndarray, np.ndarray]:
    """The lit and the dimmed board of an adventure: floors, walls, furniture, blockages, exits."""
    images = []
    for room, corridor in ((ROOM, CORRIDOR), (ROOM_DARK, CORRIDOR_DARK)):
        img = np.empty((HEIGHT * TILE, WIDTH * TILE, 3), np.uint8)
        dim = room == ROOM_DARK
        for sq in range(WIDTH * HEIGHT):
            tile = _tile(img, sq)
            tile[:] = corridor if tables.is_corridor[tables.area[sq]] else room
            tile[0, :] = tile[:, 0] = np.maximum(tile[0, 0].astype(int) - 12, 0)  # a faint grid
            if tables.blockage[sq]:
                tile[:] = _dim(BLOCKAGE, dim)
            elif tables.furniture[sq]:
                tile[4:-4, 4:-4] = _dim(FURNITURE, dim)
            elif tables.exit[sq]:
                tile[2:-2, 2:-2] = _dim(EXIT, dim)
                tile[5:-5, 5:-5] = room
        for sq in range(WIDTH * HEIGHT):
            for d in range(4):
                if tables.wall[sq, d]:
                    _edge(img, sq, d, WALL, 2)
        images.append(img)
    return images[0], images[1]


def _dim(color, dim: bool):
    return tuple(c // 2 for c in color) if dim else color


@lru_cache(maxsize=1)
def _sprites() -> dict[str, np.ndarray]:
    """Boolean masks of one tile: a disc, a ring, a cross."""
    y, x = np.mgrid[0:TILE, 0:TILE] + 0.5
    r = np.hypot(x - TILE / 2, y - TILE / 2)
    cross = (np.abs(x - y) < 1.6) | (np.abs(x + y - TILE) < 1.6)
    inner = (x > 3) & (x < TILE - 3) & (y > 3) & (y < TILE - 3)
    return {
        "disc": r < TILE * 0.38,
        "ring": (r < TILE * 0.42) & (r >= TILE * 0.3),
        "dot": r < TILE * 0.15,
        "cross": cross & inner,
        "frame": ~((x > 2) & (x < TILE - 2) & (y > 2) & (y < TILE - 2)),
        "badge": (np.abs(x - TILE / 2) < TILE * 0.36)
        & (np.abs(y - TILE / 2 + 1) < TILE * 0.36)
        & (np.abs(x - TILE / 2) + np.abs(y - TILE / 2 + 1) < TILE * 0.6),
    }


_GLYPHS = {
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111", "3": "111001111001111",
    "4": "101101111001001", "5": "111100111001111", "6": "111100111101111", "7": "111001010010010",
    "8": "111101111101111", "9": "111101111001111", "A": "010101111101101", "B": "110101110101110",
    "C": "011100100100011", "D": "110101101101110", "E": "111100110100111", "F": "111100110100100",
    "G": "011100101101011", "H": "101101111101101", "I": "111010010010111", "J": "001001001101010",
    "K": "101101110101101", "L": "100100100100111", "M": "101111111101101", "N": "110101101101101",
    "O": "010101101101010", "P": "110101110100100", "Q": "010101101110011", "R": "110101110101101",
    "S": "011100010001110", "T": "111010010010010", "U": "101101101101111", "V": "101101101101010",
    "W": "101101111111101", "X": "101101010101101", "Y": "101101010010010", "Z": "111001010100111",
    " ": "000000000000000", "/": "001001010100100", ":": "000010000010000", "_": "000000000000111",
    "-": "000000111000000", ".": "000000000000010", "(": "010100100100010", ")": "010001001001010",
    ",": "000000000010100", "'": "010010000000000", "+": "000010111010000", "=": "000111000111000",
    "!": "010010010000010", "?": "111001010000010", ";": "000010000010100", "%": "101001010100101",
    "#": "101111101111101", "<": "001010100010001", ">": "100010001010100", "*": "000101010101000",
    "[": "110100100100110", "]": "011001001001011", "&": "010101010101011", '"': "101101000000000",
}  # fmt: skip
_SAME = {"—": "-", "–": "-", "…": "."}


@lru_cache(maxsize=1)
def _font() -> dict[str, np.ndarray]:
    """The status font: 3x5 glyphs scaled up, as boolean masks."""
    glyph = {}
    for ch, bits in _GLYPHS.items():
        small = np.array([int(b) for b in bits], bool).reshape(5, 3)
        glyph[ch] = np.kron(small, np.ones((SCALE, SCALE), bool))
    return glyph


# ----------------------------------------------------------------------------------------- drawing


def _tile(img: np.ndarray, sq: int) -> np.ndarray:
    x, y = sq % WIDTH, sq // WIDTH
    return img[y * TILE : (y + 1) * TILE, x * TILE : (x + 1) * TILE]


def _edge(
    img: np.ndarray, sq: int, d: int, color, width: int, span: tuple[float, float] = (0.0, 1.0)
) -> None:
    """Paint the edge on side ``d`` (N, E, S, W) of a square, over ``span`` of its length."""
    tile = _tile(img, sq)
    a, b = int(span[0] * TILE), int(span[1] * TILE)
    if d == 0:
        tile[:width, a:b] = color
    elif d == 1:
        tile[a:b, TILE - width :] = color
    elif d == 2:
        tile[TILE - width :, a:b] = color
    else:
        tile[a:b, :width] = color


def _draw_doors(img: np.ndarray, game) -> None:
    s, t = game.state, game.tables
    for door, (a, b) in enumerate(t.door_squares):
        for sq, other in ((a, b), (b, a)):
            d = [k for k in range(4) if t.neighbor[sq, k] == other][0]
            if s.door_hidden[door]:
                _edge(img, sq, d, SECRET, 2)
            elif s.door_open[door]:
                _edge(img, sq, d, DOOR, 3, (0.0, 0.2))
                _edge(img, sq, d, DOOR, 3, (0.8, 1.0))
            else:
                _edge(img, sq, d, DOOR, 3, (0.15, 0.85))


def _draw_traps(img: np.ndarray, game) -> None:
    s, spr = game.state, _sprites()
    for i, trap in enumerate(game.tables.adventure.traps):
        tile = _tile(img, trap.at[1] * WIDTH + trap.at[0])
        if s.trap_detected[i] and s.trap_armed[i]:
            tile[spr["cross"]] = TRAP
        elif s.trap_detected[i]:
            tile[spr["disc"]] = HAZARD
        elif s.trap_armed[i]:
            tile[spr["dot"]] = HIDDEN_TRAP


def _draw_figures(img: np.ndarray, game) -> None:
    s, spr = game.state, _sprites()
    acting = game.decision[1] if game.decision is not None else -1
    for u in np.flatnonzero(s.unit_pos >= 0).tolist():
        status = int(s.unit_status[u])
        if status not in (ACTIVE, CORPSE):
            continue
        tile = _tile(img, int(s.unit_pos[u]))
        if status == CORPSE:
            tile[spr["cross"]] = CORPSE_COLOR
            continue
        if u < s.n_heroes:
            _hero_badge(tile, u)
        else:
            color, letter = monster_look(game, u)
            _monster_badge(tile, color, letter, asleep=bool(s.inactive[u]))
        if s.deaths_door[u]:
            tile[spr["ring"]] = HEALTH_LOW
        base = max(int(s.base_health[u]), 1)
        filled = int(round((TILE - 4) * min(int(s.health[u]), base) / base))
        tile[TILE - 3 : TILE - 1, 2 : TILE - 2] = HEALTH_LOW
        tile[TILE - 3 : TILE - 1, 2 : 2 + filled] = HEALTH_OK
        if u == acting:
            tile[spr["frame"]] = LIGHT_BAR


def _hero_badge(tile: np.ndarray, u: int) -> None:
    """A hero: a disc in its colour with its number."""
    tile[_sprites()["disc"]] = HERO_COLORS[u % len(HERO_COLORS)]
    _glyph_on(tile, str(u + 1))


def _monster_badge(tile: np.ndarray, color, letter: str, asleep: bool = False) -> None:
    """A monster: a badge in its kind's colour with its kind's letter; dimmed while asleep."""
    tile[_sprites()["badge"]] = tuple(c // 2 + 30 for c in color) if asleep else color
    _glyph_on(tile, letter, (200, 200, 200) if asleep else (255, 255, 255))


def _glyph_on(tile: np.ndarray, ch: str, color=(255, 255, 255)) -> None:
    glyph = _font().get(ch, _font()[" "])
    y0, x0 = (TILE - glyph.shape[0]) // 2 - 1, (TILE - glyph.shape[1]) // 2
    tile[y0 : y0 + glyph.shape[0], x0 : x0 + glyph.shape[1]][glyph] = color


def legend(game) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """What the legend column lists: ``(hero slot, first name)`` for every hero, and ``(monster card
    index, name)`` for every monster kind on the board, in catalogue order."""
    s = game.state
    heroes = [(u, game.card(u).name.split()[0]) for u in range(s.n_heroes)]
    kinds = sorted(
        {
            int(s.unit_card[u])
            for u in range(s.n_heroes, len(s.unit_status))
            if s.unit_status[u] == ACTIVE and s.unit_pos[u] >= 0
        }
    )
    return heroes, [(card, game.monsters[card].name) for card in kinds]


def _draw_legend(col: np.ndarray, game) -> None:
    """Every hero by its disc and first name, then every monster kind on the board by its badge and
    name, one a row; kinds that do not fit are counted in a last row."""
    col[:] = LEGEND_BG
    col[:, :2] = WALL
    heroes, kinds = legend(game)
    chars = (LEGEND_W - TILE - 12) // CHAR_W
    y = 4
    _text(col, 6, y + 2, "HEROES")
    y += LINE_H
    for u, name in heroes:
        _hero_badge(col[y : y + TILE, 4 : 4 + TILE], u)
        _text(col, TILE + 8, y + 4, name[:chars])
        y += LEGEND_ROW
    if not kinds:
        return
    y += 4
    _text(col, 6, y + 2, "MONSTERS")
    y += LINE_H
    glyphs = monster_glyphs(tuple(c.name for c in game.monsters))
    room = (col.shape[0] - y) // LEGEND_ROW
    shown = kinds if len(kinds) <= room else kinds[: max(room - 1, 0)]
    for card, name in shown:
        _monster_badge(
            col[y : y + TILE, 4 : 4 + TILE], MONSTER_COLORS[card % len(MONSTER_COLORS)], glyphs[card]
        )
        _text(col, TILE + 8, y + 4, name[:chars])
        y += LEGEND_ROW
    if len(shown) < len(kinds):
        _text(col, 6, y + 4, f"+{len(kinds) - len(shown)} MORE")


def _draw_caption(strip: np.ndarray, caption: str) -> None:
    strip[:] = CAPTION_BG
    width = caption_chars()
    lines = [line if len(line) <= width else line[: width - 3] + "..." for line in caption.split("\n")]
    for i, line in enumerate(lines[-CAPTION_LINES:]):
        _text(strip, 4, 4 + i * LINE_H, line, CAPTION_TEXT)


def _draw_panel(panel: np.ndarray, game) -> None:
    s = game.state
    panel[:] = PANEL_BG
    lines = [f"TURN {s.turn}/{game.max_turns}  LIGHT {s.light}  {PHASE_NAMES[s.phase]}"]
    d = game.decision
    if d is not None:
        lines.append(f"ASKED: {game.agent} {DECISION_NAMES[d[0]]} ({game.label(d[1])})")
    if s.outcome:
        lines.append(f"{s.outcome} ({s.end_reason})")
    for i, line in enumerate(lines[:STATUS_LINES]):
        _text(panel, 4, 4 + i * LINE_H, line)
    width = panel.shape[1] - 8
    panel[-4:-1, 4 : 4 + width * min(s.light, 20) // 20] = LIGHT_BAR


def _text(img: np.ndarray, x: int, y: int, text: str, color=TEXT) -> None:
    font = _font()
    for ch in text.upper():
        glyph = font.get(_SAME.get(ch, ch), font[" "])
        if x + glyph.shape[1] > img.shape[1]:
            return
        img[y : y + glyph.shape[0], x : x + glyph.shape[1]][glyph] = color
        x += CHAR_W
