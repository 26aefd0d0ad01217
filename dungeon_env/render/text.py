"""A text picture of a game: the board with walls and doors, the figures, and status lines.

Each square is two characters wide. Legend: ``.`` revealed floor, blank unrevealed, ``#`` blockage,
``T`` furniture, ``+`` closed door (``/`` open), ``|`` and ``-`` walls, ``1``..``5`` heroes,
``a``..``z`` monsters (see the status lines), ``%`` a corpse, ``E`` an exit square.
"""

from __future__ import annotations

from dungeon_env.content.model import HEIGHT, WIDTH
from dungeon_env.engine.actions import PHASE_NAMES, Decision
from dungeon_env.engine.game import Game
from dungeon_env.engine.state import Side, Status


def render_text(game: Game, fog: bool = True) -> str:
    """The board, then one status line per figure and a line for the turn and the decision."""
    marks = _figure_marks(game)
    lines = []
    for y in range(HEIGHT):
        lines.append(_square_row(game, y, marks, fog))
        if y < HEIGHT - 1:
            lines.append(_wall_row(game, y))
    lines.append("")
    lines.extend(_status_lines(game, marks))
    return "\n".join(lines)


def _figure_marks(game: Game) -> dict[int, str]:
    s = game.state
    marks = {}
    monster_letter = 0
    for u in range(len(s.unit_status)):
        if s.unit_status[u] not in (Status.ACTIVE, Status.CORPSE) or s.unit_pos[u] < 0:
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
    s, t = game.state, game.tables
    u = int(s.occupant[sq])
    if u >= 0 and u in marks:
        return marks[u]
    if fog and not s.revealed[t.area[sq]]:
        return " "
    if t.blockage[sq]:
        return "#"
    if t.furniture[sq]:
        return "T"
    if t.exit[sq]:
        return "E"
    return "."


def _square_row(game: Game, y: int, marks: dict[int, str], fog: bool) -> str:
    t, s = game.tables, game.state
    out = []
    for x in range(WIDTH):
        sq = y * WIDTH + x
        out.append(_square_char(game, sq, marks, fog))
        if x < WIDTH - 1:
            door = t.edge_door[sq, 1]
            if door >= 0:
                out.append("/" if s.door_open[door] else "+")
            else:
                out.append("|" if t.wall[sq, 1] else " ")
    return "".join(out)


def _wall_row(game: Game, y: int) -> str:
    t, s = game.tables, game.state
    out = []
    for x in range(WIDTH):
        sq = y * WIDTH + x
        door = t.edge_door[sq, 2]
        if door >= 0:
            out.append("/" if s.door_open[door] else "+")
        else:
            out.append("-" if t.wall[sq, 2] else " ")
        if x < WIDTH - 1:
            out.append(" ")
    return "".join(out)


def _status_lines(game: Game, marks: dict[int, str]) -> list[str]:
    s = game.state
    lines = [
        f"Turn {s.turn}  Light {s.light}  Phase {PHASE_NAMES[s.phase]}"
        + (f"  Outcome: {s.outcome} ({s.end_reason})" if s.outcome else "")
    ]
    for u in range(len(s.unit_status)):
        if s.unit_status[u] == Status.EMPTY or (
            s.unit_side[u] == Side.MONSTER and s.unit_status[u] != Status.ACTIVE
        ):
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
        lines.append(
            f"{marks.get(u, ' ')} {game.label(u):8} {card.name:22} {_status_name(s.unit_status[u]):10} "
            f"HP {s.health[u]}/{s.base_health[u]}  St {s.stamina[u]}/{s.base_stamina[u]}  "
            f"Mg {s.magic[u]}/{s.base_magic[u]}  {where} {' '.join(flags)}".rstrip()
        )
    d = game.decision
    if d is not None:
        lines.append(f"Waiting for {game.agent}: {Decision(d[0]).name.lower()} of {game.label(d[1])}")
    return lines


def _status_name(status: int) -> str:
    return Status(int(status)).name.lower()
