"""A text picture of a game: the board with walls and doors, the figures, status lines and a legend.

Each square is two characters wide (the second is the wall or door on its east side). Column numbers
(two lines, tens over units) run along the top and bottom, row numbers down both sides. Legend:
``.`` revealed floor, blank unrevealed, ``#`` blockage, ``T`` furniture, ``+`` closed door (``/``
open), ``|`` and ``-`` walls, ``1``..``5`` heroes, letters monsters, ``%`` a corpse, ``E`` an exit
square, ``^`` a trap the heroes found, ``=`` a sprung trap left in the way (a pit), and in the
full picture (``fog=False``, the DM's) ``~`` a trap the heroes have not found; the legend block
under the status lines says so, and names each monster shown: its letter, card name and kind (its
card id).

``render_compact(game, lines=...)`` is the same board cut to the square rows around the figure
asked to act and the heroes, with a few status lines, in at most ``lines`` lines: the text mode
(``play.text``) keeps it, the story and the choices on one screen.

Monster letters are stable: a :class:`MonsterLetters` remembers the letter of each monster (by its
uid) from the first picture that showed it, ``a``..``z`` then ``A``..``Z`` (but ``E`` and ``T``, which
mark exits and furniture) and then the letters again with a digit (``a1``; the board shows the letter
only, the legend and status lines the whole name). ``render_text(game, letters=...)`` uses and updates
the helper passed (the env keeps one per episode); without one, a fresh helper letters the monsters of
this picture in slot order.

With ``fog=True`` (the default, and the env's ``ansi`` render) the picture is drawn from the heroes'
view (``engine.side_knowledge``: their knowledge of the game), so it holds only what heroes may
know; the fog is drawn over what that view does not show: the squares, furniture, blockages and exits of
revealed areas; walls and doors on an edge with a revealed square on at least one side, an
undiscovered secret door drawn as a wall; heroes and their corpses wherever they are, monsters on
revealed squares only. Monsters are lettered in the order the pictures showed them, so a letter counts
only monsters heroes saw, and are listed by letter and card (their ``m<uid>`` labels count every
monster placed, those in the fog too); a decision about a figure heroes do not see reads "Waiting for
dm". ``fog=False`` is the full picture (the DM's). Use one helper with one ``fog`` setting.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from dungeon_env.content.model import HEIGHT, WIDTH
from dungeon_env.engine.actions import PHASE_NAMES, Decision
from dungeon_env.engine.board import trap_at
from dungeon_env.engine.game import Game
from dungeon_env.engine.side_knowledge import heroes_view
from dungeon_env.engine.sideview import HEROES, view_side
from dungeon_env.engine.state import Side, Status
from dungeon_env.render.actions import figure_flags
from dungeon_env.render.story import PHASES

LEFT = 3  # characters before a board line's first square: the row number and a space
TOP = 2  # lines before the first square row: the column numbers (tens, units)
BOARD_LINES = TOP + 2 * HEIGHT - 1 + 2  # the numbered board, column numbers under it too
LEGEND_WIDTH = 80

_LETTERS = "abcdefghijklmnopqrstuvwxyz" + "ABCDFGHIJKLMNOPQRSUVWXYZ"  # no E, T: exits, furniture

LEGEND = (
    "Legend: 1-5 heroes  a-z A-Z monsters  % corpse  . floor  # blockage  T furniture  E exit",
    "        + closed door  / open door  | - walls  ^ trap found  = pit  blank: not seen",
)
DM_LEGEND = "        ~ a trap the heroes have not found"
KEY = "Key: % corpse  # rubble  T furniture  E exit  + door  / open door  ^ trap  = pit"
DM_KEY = "Key: % corpse # rubble T furniture E exit + / door ^ trap ~ trap not found = pit"


class MonsterLetters:
    """Stable monster letters for a run of pictures of one game: each monster (by uid) keeps the
    letter it got when a picture first showed it, given in that order (ties in slot order)."""

    def __init__(self) -> None:
        self.letters: dict[int, str] = {}  # uid -> letter, in the order given
        self.rank: dict[int, int] = {}  # uid -> its place in that order

    def __len__(self) -> int:
        return len(self.letters)

    def assign(self, uids: Iterable[int]) -> None:
        """Letter the monsters of ``uids`` that have none yet, in that order."""
        for uid in uids:
            if uid not in self.letters:
                self.rank[uid] = len(self.letters)
                self.letters[uid] = self.nth(len(self.letters))

    def get(self, uid: int) -> str | None:
        return self.letters.get(uid)

    @staticmethod
    def nth(n: int) -> str:
        """The ``n``-th letter: a..z, A..Z (no E, T), then again with a digit (a1, ..., a2, ...)."""
        rounds, k = divmod(n, len(_LETTERS))
        return _LETTERS[k] + (str(rounds) if rounds else "")


def render_text(game: Game, fog: bool = True, letters: MonsterLetters | None = None) -> str:
    """The numbered board, then one status line per figure, a line for the turn and the decision,
    and the legend. ``letters``: the helper that keeps monster letters stable across pictures (it is
    updated with the monsters this picture shows); None: a fresh one."""
    letters = MonsterLetters() if letters is None else letters
    game = _drawn(game, fog)
    marks, names = _figure_marks(game, fog, letters)
    lines = _column_numbers()
    for y in range(HEIGHT):
        lines.append(f"{y:2d} {_square_row(game, y, marks, fog)} {y}")
        if y < HEIGHT - 1:
            lines.append(f"{'':{LEFT}}{_wall_row(game, y, fog)}")
    lines.extend(_column_numbers())
    lines.append("")
    lines.extend(_status_lines(game, marks, names, fog))
    lines.append("")
    lines.extend(_legend(game, names, fog))
    return "\n".join(lines)


def _drawn(game: Game, fog: bool) -> Game:
    """The game a picture is drawn from: with fog, the heroes' view of it (what their knowledge
    holds), else the game itself."""
    if fog and view_side(game) != HEROES:
        return heroes_view(game, playable=False)
    return game


def _column_numbers() -> list[str]:
    tens = " ".join(str(x // 10) if x >= 10 else " " for x in range(WIDTH))
    units = " ".join(str(x % 10) for x in range(WIDTH))
    return [f"{'':{LEFT}}{tens}".rstrip(), f"{'':{LEFT}}{units}"]


def _legend(game: Game, names: dict[int, str], fog: bool = True) -> list[str]:
    """What the characters mean, the heroes by number, the monsters shown by kind (their card) and
    letters, wrapped to ``LEGEND_WIDTH``."""
    s = game.state
    heroes = [f"{u + 1} {game.card(u).name}" for u in range(s.n_heroes) if s.unit_status[u] != Status.EMPTY]
    kinds: dict[str, list[str]] = {}  # "<name> (<card id>)" -> its letters, in letter order
    for u, name in names.items():
        card = game.card(u)
        kinds.setdefault(f"{card.name} ({card.id})", []).append(name)
    out = list(LEGEND)
    if not fog:
        out.append(DM_LEGEND)
    out += textwrap.wrap("Heroes: " + ", ".join(heroes), LEGEND_WIDTH, subsequent_indent="  ")
    if kinds:
        monsters = ", ".join(f"{' '.join(letters)} {kind}" for kind, letters in kinds.items())
        out += textwrap.wrap("Monsters: " + monsters, LEGEND_WIDTH, subsequent_indent="  ")
    return out


def _known(game: Game, sq: int, fog: bool) -> bool:
    """The square's area is revealed (everything is known without fog)."""
    return not fog or bool(game.state.revealed[game.tables.area[sq]])


def _shown(game: Game, u: int, fog: bool) -> bool:
    """A figure drawn on the board: a hero or a hero's corpse anywhere, a monster on a known square."""
    s = game.state
    if s.unit_status[u] not in (Status.ACTIVE, Status.CORPSE) or s.unit_pos[u] < 0:
        return False
    return s.unit_side[u] == Side.HERO or _known(game, int(s.unit_pos[u]), fog)


def _figure_marks(game: Game, fog: bool, letters: MonsterLetters) -> tuple[dict[int, str], dict[int, str]]:
    """The mark of every figure drawn, and the full letter of every monster drawn (by slot); monsters
    get their letters from ``letters``, the newly shown ones in slot order."""
    s = game.state
    marks = {}
    shown = []
    for u in range(len(s.unit_status)):
        if not _shown(game, u, fog):
            continue
        if s.unit_status[u] == Status.CORPSE:
            marks[u] = "%"
        elif s.unit_side[u] == Side.HERO:
            marks[u] = str(u + 1)
        else:
            shown.append(u)
    letters.assign(int(s.unit_uid[u]) for u in shown)
    shown.sort(key=lambda u: letters.rank[int(s.unit_uid[u])])
    names = {u: letters.letters[int(s.unit_uid[u])] for u in shown}  # in letter order
    marks.update((u, name[0]) for u, name in names.items())
    return marks, names


def _square_char(game: Game, sq: int, marks: dict[int, str], fog: bool) -> str:
    t = game.tables
    u = int(game.state.occupant[sq])
    if u >= 0 and u in marks:
        return marks[u]
    if not _known(game, sq, fog):
        return " "
    if t.blockage[sq]:
        return "#"
    if t.furniture[sq]:
        return "T"
    if t.exit[sq]:
        return "E"
    return _trap_char(game, sq, fog)


def _trap_char(game: Game, sq: int, fog: bool) -> str:
    """``^`` a trap the heroes found, ``=`` a pit left by a sprung trap, ``~`` (no fog: the DM's
    picture) a trap the heroes have not found, else floor."""
    i = trap_at(game, sq)
    if i < 0:
        return "."
    s = game.state
    if s.trap_armed[i]:
        return "^" if s.trap_detected[i] else ("." if fog else "~")
    return "=" if s.trap_detected[i] else "."


def _edge_char(game: Game, sq: int, side: int, fog: bool) -> str:
    """The wall or door on the east (``side`` 1) or south (2) side of ``sq``: drawn with fog only if
    the square on either side is known, an undiscovered secret door as a wall."""
    t, s = game.tables, game.state
    if fog and not (_known(game, sq, fog) or _known(game, sq + (1 if side == 1 else WIDTH), fog)):
        return " "
    wall = "|" if side == 1 else "-"
    door = int(t.edge_door[sq, side])
    if door >= 0:
        if fog and s.door_hidden[door]:
            return wall
        return "/" if s.door_open[door] else "+"
    return wall if t.wall[sq, side] else " "


def _square_row(game: Game, y: int, marks: dict[int, str], fog: bool) -> str:
    out = []
    for x in range(WIDTH):
        sq = y * WIDTH + x
        out.append(_square_char(game, sq, marks, fog))
        if x < WIDTH - 1:
            out.append(_edge_char(game, sq, 1, fog))
    return "".join(out)


def _wall_row(game: Game, y: int, fog: bool) -> str:
    out = []
    for x in range(WIDTH):
        out.append(_edge_char(game, y * WIDTH + x, 2, fog))
        if x < WIDTH - 1:
            out.append(" ")
    return "".join(out)


def _listed(game: Game, u: int, marks: dict[int, str], fog: bool) -> bool:
    """A status line for every hero, and for every monster on the board (with fog: every drawn one)."""
    s = game.state
    if s.unit_status[u] == Status.EMPTY:
        return False
    if s.unit_side[u] == Side.HERO:
        return True
    return s.unit_status[u] == Status.ACTIVE and (not fog or u in marks)


def _name(game: Game, u: int, names: dict[int, str], fog: bool) -> str:
    """A figure's label; with fog a monster's letter (its label counts the monsters in the fog)."""
    if fog and game.state.unit_side[u] != Side.HERO:
        return names.get(u, "")
    return game.label(u)


def _status_lines(game: Game, marks: dict[int, str], names: dict[int, str], fog: bool) -> list[str]:
    s = game.state
    lines = [
        f"Turn {s.turn}  Light {s.light}  Phase {PHASE_NAMES[s.phase]}"
        + (f"  Outcome: {s.outcome} ({s.end_reason})" if s.outcome else "")
    ]
    for u in range(len(s.unit_status)):
        if not _listed(game, u, marks, fog):
            continue
        card = game.card(u)
        flags = figure_flags(s, u)
        where = (
            f"({game.xy(int(s.unit_pos[u]))[0]},{game.xy(int(s.unit_pos[u]))[1]})"
            if s.unit_pos[u] >= 0
            else ""
        )
        label = "monster" if fog and s.unit_side[u] != Side.HERO else game.label(u)
        lines.append(
            f"{names.get(u, marks.get(u, ' '))} {label:8} {card.name:22} {_status_name(s.unit_status[u]):10} "
            f"HP {s.health[u]}/{s.base_health[u]}  St {s.stamina[u]}/{s.base_stamina[u]}  "
            f"Mg {s.magic[u]}/{s.base_magic[u]}  {where} {' '.join(flags)}".rstrip()
        )
    d = game.decision
    if d is not None:
        kind, unit = d
        lines.append(
            f"Waiting for {game.agent}: {Decision(kind).name.lower()} of {_name(game, unit, names, fog)}"
        )
    elif not game.over:  # the heroes' view holds no decision about a figure they do not see
        lines.append("Waiting for dm")
    return lines


def _status_name(status: int) -> str:
    return Status(int(status)).name.lower()


# ------------------------------------------------------------------------------ the compact picture
def render_compact(
    game: Game,
    fog: bool = True,
    letters: MonsterLetters | None = None,
    lines: int = 30,
    width: int = LEGEND_WIDTH,
) -> list[str]:
    """The board cut to the square rows around the figure asked to act and the heroes (as many
    rows as fit), its column numbers above it, then a short key and compact status lines wrapped
    to ``width``: at most ``lines`` lines (at least three square rows are drawn)."""
    letters = MonsterLetters() if letters is None else letters
    game = _drawn(game, fog)
    marks, names = _figure_marks(game, fog, letters)
    status = _compact_status(game, marks, names, fog, width)
    rows = max(3, min(HEIGHT, (lines - len(status) - TOP + 1) // 2))
    top = _window(game, rows, marks)
    out = _column_numbers()
    for y in range(top, top + rows):
        out.append(f"{y:2d} {_square_row(game, y, marks, fog)} {y}")
        if y < top + rows - 1:
            out.append(f"{'':{LEFT}}{_wall_row(game, y, fog)}")
    return out + status


def _window(game: Game, rows: int, marks: dict[int, str]) -> int:
    """The first of ``rows`` square rows to draw: all the heroes on the board and the figure asked
    to act if they fit (centred), else centred on the figure asked to act."""
    s = game.state
    heroes = [u for u in range(s.n_heroes) if s.unit_status[u] == Status.ACTIVE and s.unit_pos[u] >= 0]
    ys = [game.xy(int(s.unit_pos[u]))[1] for u in heroes]
    acting = int(game.decision[1]) if game.decision is not None else -1
    focus = None
    if acting >= 0 and acting in marks and s.unit_pos[acting] >= 0:
        focus = game.xy(int(s.unit_pos[acting]))[1]
        ys.append(focus)
    if not ys:
        return 0
    low, high = min(ys), max(ys)
    if high - low + 1 <= rows:
        top = low - (rows - (high - low + 1)) // 2
    else:
        top = (focus if focus is not None else low) - rows // 2
    return max(0, min(HEIGHT - rows, top))


def _compact_status(
    game: Game, marks: dict[int, str], names: dict[int, str], fog: bool, width: int
) -> list[str]:
    """The turn line, the key, then the heroes and the monsters shown, a few to a line."""
    s = game.state
    phase = PHASE_NAMES[s.phase]
    head = f"Turn {s.turn}/{game.max_turns}  Light {s.light}  {PHASES.get(phase, phase)}"
    if s.outcome:
        head += f"  Outcome: {s.outcome} ({s.end_reason})"
    heroes, monsters = [], []
    for u in range(len(s.unit_status)):
        if not _listed(game, u, marks, fog):
            continue
        if s.unit_side[u] == Side.HERO:
            heroes.append(_compact_figure(game, u, str(u + 1), game.card(u).name.split()[0]))
        else:
            monsters.append(_compact_figure(game, u, names.get(u, marks.get(u, "?")), game.card(u).name))
    out = [head[:width], (KEY if fog else DM_KEY)[:width]]
    out += textwrap.wrap("  ".join(heroes), width, subsequent_indent="  ")
    if monsters:
        out += textwrap.wrap("  ".join(monsters), width, subsequent_indent="  ")
    return out


def _compact_figure(game: Game, u: int, mark: str, name: str) -> str:
    """ "1 Bram HP 8/8 St 5/5 [exhausted]" (Magic when it has any; its state when not on the board)."""
    s = game.state
    text = f"{mark} {name} HP {s.health[u]}/{s.base_health[u]} St {s.stamina[u]}/{s.base_stamina[u]}"
    if s.base_magic[u]:
        text += f" Mg {s.magic[u]}/{s.base_magic[u]}"
    if s.unit_status[u] != Status.ACTIVE:
        text += f" ({_status_name(s.unit_status[u])})"
    flags = figure_flags(s, u)
    return text + (f" [{', '.join(flags)}]" if flags else "")
