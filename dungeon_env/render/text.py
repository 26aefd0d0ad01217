"""A text picture of a game: the board with walls and doors, the figures, and status lines.

Each square is two characters wide. Legend: ``.`` revealed floor, blank unrevealed, ``#`` blockage,
``T`` furniture, ``+`` closed door (``/`` open), ``|`` and ``-`` walls, ``1``..``5`` heroes,
``a``..``z`` monsters (see the status lines), ``%`` a corpse, ``E`` an exit square.

With ``fog=True`` (the default, and the env's ``ansi`` render) the picture holds only what heroes may
know, each thing drawn because heroes may know it: the squares, furniture, blockages and exits of
revealed areas; walls and doors on an edge with a revealed square on at least one side, an
undiscovered secret door drawn as a wall; heroes and their corpses wherever they are, monsters on
revealed squares only. Monsters are lettered and listed among the shown ones only, by letter and card
(their ``m<uid>`` labels count every monster placed, those in the fog too), and a decision about a
figure heroes do not see reads "Waiting for dm". ``fog=False`` is the full picture (the DM's).
"""

from __future__ import annotations

from dungeon_env.content.model import HEIGHT, WIDTH
from dungeon_env.engine.actions import PHASE_NAMES, Decision
from dungeon_env.engine.game import Game
from dungeon_env.engine.state import Side, Status


def render_text(game: Game, fog: bool = True) -> str:
    """The board, then one status line per figure and a line for the turn and the decision."""
    marks = _figure_marks(game, fog)
    lines = []
    for y in range(HEIGHT):
        lines.append(_square_row(game, y, marks, fog))
        if y < HEIGHT - 1:
            lines.append(_wall_row(game, y, fog))
    lines.append("")
    lines.extend(_status_lines(game, marks, fog))
    return "\n".join(lines)


def _known(game: Game, sq: int, fog: bool) -> bool:
    """The square's area is revealed (everything is known without fog)."""
    return not fog or bool(game.state.revealed[game.tables.area[sq]])


def _shown(game: Game, u: int, fog: bool) -> bool:
    """A figure drawn on the board: a hero or a hero's corpse anywhere, a monster on a known square."""
    s = game.state
    if s.unit_status[u] not in (Status.ACTIVE, Status.CORPSE) or s.unit_pos[u] < 0:
        return False
    return s.unit_side[u] == Side.HERO or _known(game, int(s.unit_pos[u]), fog)


def _figure_marks(game: Game, fog: bool) -> dict[int, str]:
    """The mark of every figure drawn, monsters lettered in slot order among the drawn ones."""
    s = game.state
    marks = {}
    monster_letter = 0
    for u in range(len(s.unit_status)):
        if not _shown(game, u, fog):
            continue
        if s.unit_status[u] == Status.CORPSE:
            marks[u] = "%"
        elif s.unit_side[u] == Side.HERO:
            marks[u] = str(u + 1)
        else:
            marks[u] = chr(ord("a") + monster_letter % 26)
            monster_letter += 1
    return marks


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
    return "."


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


def _name(game: Game, u: int, marks: dict[int, str], fog: bool) -> str:
    """A figure's label; with fog a monster's letter (its label counts the monsters in the fog)."""
    if fog and game.state.unit_side[u] != Side.HERO:
        return marks.get(u, "")
    return game.label(u)


def _status_lines(game: Game, marks: dict[int, str], fog: bool) -> list[str]:
    s = game.state
    lines = [
        f"Turn {s.turn}  Light {s.light}  Phase {PHASE_NAMES[s.phase]}"
        + (f"  Outcome: {s.outcome} ({s.end_reason})" if s.outcome else "")
    ]
    for u in range(len(s.unit_status)):
        if not _listed(game, u, marks, fog):
            continue
        card = game.card(u)
        flags = [
            name
            for name, on in (
                ("death's door", s.deaths_door[u]),
                ("exhausted", s.exhausted[u]),
                ("surprised", s.surprised[u]),
                ("asleep", s.inactive[u]),
            )
            if on
        ]
        where = (
            f"({game.xy(int(s.unit_pos[u]))[0]},{game.xy(int(s.unit_pos[u]))[1]})"
            if s.unit_pos[u] >= 0
            else ""
        )
        label = "monster" if fog and s.unit_side[u] != Side.HERO else game.label(u)
        lines.append(
            f"{marks.get(u, ' ')} {label:8} {card.name:22} {_status_name(s.unit_status[u]):10} "
            f"HP {s.health[u]}/{s.base_health[u]}  St {s.stamina[u]}/{s.base_stamina[u]}  "
            f"Mg {s.magic[u]}/{s.base_magic[u]}  {where} {' '.join(flags)}".rstrip()
        )
    d = game.decision
    if d is not None:
        kind, unit = d
        if s.unit_side[unit] == Side.HERO or not fog or unit in marks:
            lines.append(
                f"Waiting for {game.agent}: {Decision(kind).name.lower()} of {_name(game, unit, marks, fog)}"
            )
        else:
            lines.append(f"Waiting for {game.agent}")
    return lines


def _status_name(status: int) -> str:
    return Status(int(status)).name.lower()
