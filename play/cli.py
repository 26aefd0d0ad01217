"""``dungeon-env play``: options, checks, and the start of the server or the text mode.

    dungeon-env play                                   # three human heroes against the scripted DM
    dungeon-env play --seat hero_0=human --seat dm=trained --adventure goblin_warrens
    dungeon-env play --seat dm=human --heroes bram,sela,orwin,mira   # you are the Dungeon Master
    dungeon-env play --text                            # the same game in this terminal
    dungeon-env play --load saves/game-20261201-120000-42.json

Seats: ``hero_0`` .. ``hero_{k-1}`` and ``dm``, each ``human`` or an agent spec (``scripted``,
``trained``, ``search``, ``random``, ``runaway`` for the DM, ``policy:FILE.zip``...; see
``agents.spec``). With no ``--seat`` every hero is human and the DM scripted; with some, the seats
not named are scripted.
"""

from __future__ import annotations

import argparse
import sys
import webbrowser

from play.table import HUMAN, Refused, Table

DEFAULT_PORT = 8765


def add_parser(commands) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "play",
        help="play any seat against the AI, in a browser (or --text in this terminal)",
        description="Serve a game to your browser on 127.0.0.1: every human seat gets its own link that "
        "shows only what its side may know. See docs/PLAY.md and docs/RULES.md.",
    )
    parser.add_argument("--adventure", default="flooded_cellar", help="an adventure or a path to one")
    parser.add_argument(
        "--heroes", default="3", metavar="N|IDS", help="the party: 3-5 or hero ids, comma-separated (3)"
    )
    parser.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="SEAT=WHO",
        help="hero_k=human|AGENT or dm=human|AGENT, repeatable (agents: scripted, trained, search, random, "
        "runaway, policy:FILE.zip ...); default: every hero human, the DM scripted",
    )
    parser.add_argument("--seed", type=int, default=None, help="the game's seed (default: a random one)")
    parser.add_argument("--max-turns", type=int, default=100, help="turn cap (default: 100)")
    parser.add_argument("--load", metavar="FILE", help="continue a saved game (or any replay file)")
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
    """``["hero_0=human", "dm=trained"]`` -> ``{"hero_0": "human", "dm": "trained"}``."""
    seats: dict[str, str] = {}
    for item in items:
        name, sep, who = item.partition("=")
        name, who = name.strip(), who.strip()
        if not sep or not name or not who:
            raise ValueError(f"--seat {item!r}: expected SEAT=WHO, e.g. hero_0=human or dm=trained")
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
    """The table the options describe; a mistake raises ValueError (or a content error) naming it."""
    seats = seats_of(args.seat)
    _check_agents(seats)
    party: list[str] | int = party_of(args.heroes)
    if args.load:
        from dungeon_env import replay

        party = replay.load(args.load).options.get("heroes", party)
    table = Table(
        adventure=args.adventure,
        heroes=party,
        seats=seats,
        seed=args.seed,
        max_turns=args.max_turns,
        saves=args.saves,
    )
    if args.load:
        table.load(args.load)
    return table


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from dungeon_env.content import ContentError

    try:
        table = table_of(args)
    except (ValueError, ContentError, Refused, FileNotFoundError) as error:
        message = error.message if isinstance(error, Refused) else str(error)
        parser.exit(2, f"dungeon-env play: error: {message}\n")
    if args.text:
        from play.text import play_in_terminal

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
    for seat in table.seats.values():
        if seat.agent != HUMAN:
            print(f"  {seat.name:9} played by {seat.agent}")
    first = links.get("hot seat") or next((p for s, p in links.items() if s in table.seats), links["host"])
    if host not in ("127.0.0.1", "localhost", "::1"):
        warning = "serving beyond this machine: anyone with a link can play that seat"
        print(f"  warning: {warning}", file=sys.stderr)
    if browser:
        webbrowser.open(base + first)
    print("Ctrl-C stops the server (a game not finished is saved first).")
    server.run()
    if not table.over and table.version > 0:
        path = table.save()
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
