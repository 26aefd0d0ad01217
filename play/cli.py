"""``dungeon-env play``: options, checks, and the start of the server or the text mode.

    dungeon-env play                                   # three human heroes against the scripted DM
    dungeon-env play --seat hero_0=human --seat dm=scripted --adventure goblin_warrens
    dungeon-env play --seat dm=human --heroes bram,sela,orwin,maelis   # you are the Dungeon Master
    dungeon-env play --text                            # the same game in this terminal
    dungeon-env play --load saves/game-20261201-120000-42.json
    dungeon-env play --load saves/game-20261201-120000-42.json --seat dm=human   # take over the DM

Seats: ``hero_0`` .. ``hero_{k-1}`` and ``dm``, each ``human`` or an agent spec (``scripted``,
``search``, ``random``, ``runaway`` for the DM, ``policy:FILE.zip``...; see ``agents.spec``, whose
``AGENT_LINES`` say what each is; ``--help`` lists them). With no ``--seat`` every hero is human and
the DM scripted; with some, the seats not named are scripted. ``--load`` continues a saved game with
its own adventure, party, turn cap, seed and seats; a ``--seat`` given with it replaces that seat
only (the server says which).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import textwrap
import webbrowser
from pathlib import Path

from play.table import HUMAN, HUMAN_LINE, Refused, Table

DEFAULT_PORT = 8765
DEFAULT_ADVENTURE, DEFAULT_PARTY, DEFAULT_MAX_TURNS = "flooded_cellar", "3", 100
FROM_THE_SAVE = ("adventure", "heroes", "max_turns", "seed")  # options a --load takes from its file
DESCRIPTION = """\
Serve a game to your browser on 127.0.0.1: every human seat gets its own link that shows
only what its side may know. See docs/PLAY.md and docs/RULES.md."""


def seats_help(width: int = 79) -> str:
    """The ``--seat`` choices, one plain line each (``agents.spec.AGENT_LINES``), for ``--help``."""
    from agents.spec import AGENT_LINES

    lines = ["who can sit in a seat (--seat SEAT=WHO, SEAT: hero_0 .. hero_4 or dm):"]
    for name, line in {HUMAN: HUMAN_LINE + " (the seat's own link)", **AGENT_LINES}.items():
        head = f"  {name:20} "
        indent = " " * len(head)
        lines.append(
            textwrap.fill(line, width, initial_indent=head, subsequent_indent=indent, break_on_hyphens=False)
        )
    lines.append("\ndefault: every hero human, the DM scripted; with --load, the seats of the save")
    return "\n".join(lines)


def add_parser(commands) -> argparse.ArgumentParser:
    from difficulty.console import whole_number

    parser = commands.add_parser(
        "play",
        help="play any seat against the AI, in a browser (or --text in this terminal)",
        description=DESCRIPTION,
        epilog=seats_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--adventure", default=None, help=f"an adventure or a path to one (default: {DEFAULT_ADVENTURE})"
    )
    parser.add_argument(
        "--heroes", default=None, metavar="N|IDS", help="the party: 3-5 or hero ids, comma-separated (3)"
    )
    parser.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="SEAT=WHO",
        help="hero_k=human|AGENT or dm=human|AGENT, repeatable (the agents are listed below)",
    )
    parser.add_argument(
        "--seed",
        type=whole_number(0),
        default=None,
        help="the game's seed, 0 or more (default: random)",
    )
    parser.add_argument(
        "--max-turns",
        type=whole_number(1, "turns"),
        default=None,
        help=f"turn cap (default: {DEFAULT_MAX_TURNS})",
    )
    parser.add_argument(
        "--load", metavar="FILE", help="continue a saved game (or any replay file) with its own seats"
    )
    parser.add_argument("--saves", default="saves", metavar="DIR", help="where games are saved (saves)")
    parser.add_argument(
        "--delay", type=_seconds, default=0.6, help="seconds between an AI seat's actions, 0 or more (0.6)"
    )
    parser.add_argument("--text", action="store_true", help="play in this terminal instead of a browser")
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1: this machine only)"
    )
    parser.add_argument(
        "--port", type=_port, default=DEFAULT_PORT, help=f"port 0-65535 ({DEFAULT_PORT}; 0: any)"
    )
    parser.add_argument("--no-browser", action="store_true", help="print the links, open no browser")
    return parser


def _port(text: str) -> int:
    """A TCP port: an integer from 0 (any free port) to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port: give an integer from 0 to 65535") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(
            f"{port} is not a port: give an integer from 0 to 65535 (0: any free)"
        )
    return port


def _seconds(text: str) -> float:
    """A delay in seconds: a number, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds (0 or more)") from None
    if not value >= 0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"{text} is not a delay: give 0 or more seconds")
    return value


def seats_of(items: list[str]) -> dict[str, str]:
    """``["hero_0=human", "dm=scripted"]`` -> ``{"hero_0": "human", "dm": "scripted"}``."""
    seats: dict[str, str] = {}
    for item in items:
        name, sep, who = item.partition("=")
        name, who = name.strip(), who.strip()
        if not sep or not name or not who:
            raise ValueError(f"--seat {item!r}: expected SEAT=WHO, e.g. hero_0=human or dm=scripted")
        if name in seats:
            raise ValueError(f"--seat {name} is given twice")
        seats[name] = who
    return seats


def party_of(text: str) -> list[str] | int:
    text = text.strip()
    if text.isdigit():
        return int(text)
    return [h.strip() for h in text.split(",") if h.strip()]


def _check_agents(seats: dict[str, str]) -> None:
    from agents.spec import parse_spec

    for name, who in seats.items():
        if who != HUMAN:
            parse_spec(who, "dm" if name == "dm" else "heroes")


def table_of(args: argparse.Namespace) -> Table:
    """The table the options describe; a mistake raises ValueError (or a content error, a
    :class:`Refused`) naming it. ``--load``: the save's game and seats, ``--seat`` replacing those
    it names (``Table.resume``)."""
    seats = seats_of(args.seat)
    _check_agents(seats)
    _check_saves(args.saves)
    if args.load:
        given = [f"--{name.replace('_', '-')}" for name in FROM_THE_SAVE if getattr(args, name) is not None]
        if given:
            raise ValueError(
                f"{' and '.join(given)} cannot go with --load: a saved game goes on with its own "
                "adventure, party, turn cap and seed (--seat may replace its seats)"
            )
        return Table.resume(args.load, seats, saves=args.saves)
    return Table(
        adventure=args.adventure or DEFAULT_ADVENTURE,
        heroes=party_of(args.heroes or DEFAULT_PARTY),
        seats=seats,
        seed=args.seed,
        max_turns=args.max_turns or DEFAULT_MAX_TURNS,
        saves=args.saves,
    )


def _check_saves(folder: str) -> None:
    """Refuse a ``--saves`` folder that cannot be written (it is made at the first save)."""
    path = Path(folder).absolute()
    existing = next(p for p in (path, *path.parents) if p.exists())
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        what = "is not a folder" if not existing.is_dir() else "cannot be written"
        raise ValueError(f"--saves {folder}: {existing} {what}; give a folder games can be saved in")


def override_lines(table: Table) -> list[str]:
    """What ``--seat`` changed in a resumed game's seats, a line each: ``dm: human in the save,
    scripted now (--seat)``."""
    saved = table.saved_seats
    return [
        f"{name}: {saved[name]} in the save, {seat.agent} now (--seat)"
        for name, seat in table.seats.items()
        if name in saved and saved[name] != seat.agent
    ]


def seat_lines(table: Table) -> list[str]:
    """Every AI seat with the agent playing it and what that agent is (``Table.seat_about``)."""
    return [
        f"{seat.name:9} played by {seat.agent}: {table.seat_about[seat.name]}"
        for seat in table.seats.values()
        if seat.agent != HUMAN
    ]


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from dungeon_env.content import ContentError

    try:
        table = table_of(args)
    except (ValueError, ContentError, Refused, FileNotFoundError) as error:
        message = error.message if isinstance(error, Refused) else str(error)
        parser.exit(2, f"dungeon-env play: error: {message}\n")
    if args.text:
        from play.text import play_in_terminal

        for line in override_lines(table):
            print(line)
        return play_in_terminal(table, delay=args.delay)
    return serve(table, host=args.host, port=args.port, delay=args.delay, browser=not args.no_browser)


def serve(table: Table, *, host: str, port: int, delay: float, browser: bool) -> int:
    import uvicorn

    from play.server import create_app

    if port == 0:
        port = _free_port(host)
    elif not _port_free(host, port):
        in_use = f"port {port} on {host} is in use; pass --port 0 (any free port)"
        print(f"dungeon-env play: error: {in_use}", file=sys.stderr)
        return 2
    config = uvicorn.Config(create_app(table, delay=delay), host=host, port=port, log_level="warning")
    server = uvicorn.Server(config)
    links = table.links()
    base = f"http://{host if host not in ('0.0.0.0', '::') else '127.0.0.1'}:{port}"
    print(f"dungeon-env play: {table.game.tables.adventure.name}, serving on {base}")
    for seat, path in links.items():
        who = table.seats[seat].agent if seat in table.seats else ""
        print(f"  {seat:9} {base}{path}  {who}".rstrip())
    for line in seat_lines(table):
        print(f"  {line}")
    for line in override_lines(table):
        print(f"  {line}")
    print(f"  how to join: {base}/")
    first = links.get("hot seat") or next((p for s, p in links.items() if s in table.seats), links["host"])
    if host not in ("127.0.0.1", "localhost", "::1"):
        warning = "serving beyond this machine: anyone with a link can play that seat"
        print(f"  warning: {warning}", file=sys.stderr)
    if browser:
        webbrowser.open(base + first)
    print("Ctrl-C stops the server (a game not finished is saved first).", flush=True)
    with contextlib.suppress(KeyboardInterrupt):  # a Ctrl-C before the server took its signals
        server.run()
    if not table.over and table.version > 0:
        try:
            path = table.save()
        except Refused as err:
            print(f"dungeon-env play: error: {err.message}", file=sys.stderr)
            return 1
        print(f"The game is saved as {path}: dungeon-env play --load {path}")
    return 0


def _port_free(host: str, port: int) -> bool:
    import socket

    with socket.socket() as sock:
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def _free_port(host: str) -> int:
    import socket

    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]
