"""The web server of ``dungeon-env play``: a Starlette app over one :class:`~play.table.Table`.

Pages (plain HTML, CSS and JavaScript from ``play/static``, no build step):

- ``/``: what this server is and how to join: the seats, each a person or an AI (no seat's link);
- ``/seat/{token}``: a seat's page (its own link; a hot-seat link plays several seats);
- ``/host/{token}``: the host's page: every seat's link, the game as the DM sees it, saved games;
- ``/replay``: the replay viewer (open a replay or saved-game file from your disk);
- ``/rules``: the game's rules (``docs/RULES.md``).

The API, every answer JSON; a refusal is ``{"error": message}`` with status 400 (malformed: any body
that is not the JSON asked for, nested too deeply or of the wrong types), 403 (not this seat's turn),
404 (no such seat or file) or 409 (stale: the game has moved on):

- ``GET /api/seat/{token}?since=V&story=N``: the seat's view (story lines from N); with ``since``,
  it waits (up to 25 s) until the game is past decision V of the seat's side (its ``version``);
- ``POST /api/seat/{token}/act`` ``{"decision": V, "action": A}``: play A for the seat, answering V;
- ``POST /api/seat/{token}/save``: save the game on the host's disk; answers the file's name;
- ``WS /ws/seat/{token}``: the seat's view pushed whenever its side's version moves; send
  ``{"decision", "action"}``;
- ``GET /api/host/{token}?since=V``: the host's view (everything), the seats' links, saved games;
- ``POST /api/host/{token}/load`` ``{"file": NAME}``: continue a saved game;
- ``POST /api/replay`` (a replay file's JSON): open a replay, answers ``{"id", "steps", "turns"}``;
- ``GET /api/replay/{id}/{step}?side=heroes|dm``: the game after ``step`` actions, as that side saw it.

Seats played by agents move on their own, one action every ``delay`` seconds, in a background task.

Versions, pushes and wakeups are the seat's side's (``play.table``): a hero seat's ``version``
counts only the actions that left the game at a decision heroes may know of, and a hero seat's long
poll or WebSocket is woken only when that version moves (or a game is loaded), never by a DM
decision about a monster heroes do not see. The DM's agent plays those at once, without the delay.
While a human DM is asked about monsters heroes do not see, a hero seat that asks sees that the DM
is playing (whose turn it is, as in the AEC loop), never how many such decisions there are; the
time the DM takes shows as waiting: a server cannot hide the clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from dungeon_env import replay
from play.replays import ReplayBook
from play.table import HUMAN, Refused, Table
from play.views import DM, HEROES

STATIC = Path(__file__).parent / "static"
RULES = Path(__file__).resolve().parents[1] / "docs" / "RULES.md"
WAIT_SECONDS = 25.0
DISCONNECT_CHECK_SECONDS = 0.5  # how often a waiting long poll checks that its client is still there
MAX_BODY = 5_000_000  # bytes of a request body (a replay file of a long game is ~100 KB)


class Changes:
    """Wakes whoever waits for the game to move (long polls, WebSockets), side by side: a side's
    waiters are woken only when its version moved (``Table.version_of``) or a game was loaded, so a
    hero seat is never woken by a decision hidden from the heroes. ``count[side]``: the wakeups of
    that side so far; ``loads``: the games loaded so far."""

    def __init__(self, table: Table) -> None:
        self._table = table
        self._events = {side: asyncio.Event() for side in (HEROES, DM)}
        self.count = dict.fromkeys(self._events, 0)
        self.loads = 0
        self._seen = self._versions()

    def _versions(self) -> dict[str, int]:
        return {side: self._table.version_of(side) for side in self._events}

    def notify(self, loaded: bool = False) -> None:
        """After an action (or, ``loaded``, a load): wake the sides whose version moved."""
        versions = self._versions()
        self.loads += loaded
        for side, event in self._events.items():
            if loaded or versions[side] != self._seen[side]:
                self.count[side] += 1
                event.set()
                self._events[side] = asyncio.Event()
        self._seen = versions

    async def wait(self, side: str, timeout: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._events[side].wait(), timeout)


def _refusal(err: Refused) -> JSONResponse:
    return JSONResponse({"error": err.message}, status_code=err.status)


async def _body(request: Request) -> Any:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise Refused(400, f"request body too large ({len(raw)} bytes; at most {MAX_BODY})")
    return _parsed(raw)


def _parsed(raw: bytes | str) -> Any:
    """The JSON of a request body or a WebSocket message; a 400 :class:`Refused` for anything else."""
    try:
        return json.loads(raw or "null")
    except RecursionError:
        raise Refused(400, "the JSON sent is nested too deeply: send the object asked for") from None
    except ValueError as err:  # JSONDecodeError, UnicodeDecodeError
        raise Refused(400, f"the request body must be JSON: {err}") from err


async def _message(ws: WebSocket) -> Any:
    """The next message of a WebSocket, parsed as JSON (text or bytes frames alike)."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    return _parsed(message.get("text") or message.get("bytes") or "")


def _act_fields(body: Any) -> tuple[Any, Any]:
    if not isinstance(body, dict) or "decision" not in body or "action" not in body:
        raise Refused(400, 'expected a JSON object {"decision": <number>, "action": <number>}')
    return body["decision"], body["action"]


def create_app(table: Table, *, delay: float = 0.6) -> Starlette:
    """The app serving ``table``; agents' seats play one action every ``delay`` seconds."""
    changes = Changes(table)
    book = ReplayBook()

    async def run_agents() -> None:
        while True:
            if table.ai_to_act():
                await asyncio.sleep(delay)
                acted = await asyncio.to_thread(table.step_ai)
                if acted:
                    changes.notify()
            else:
                await changes.wait(DM, 0.5)  # the DM's version moves at every action

    @contextlib.asynccontextmanager
    async def lifespan(app):
        task = asyncio.create_task(run_agents())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def wait_for_move(request: Request, side: str, since: int) -> None:
        """A long poll's wait: until the game is past decision ``since`` of ``side`` or a game is
        loaded (a load may go back), at most ``WAIT_SECONDS``; it ends early when the client has
        gone, so a closed page does not hold a handler (and the server's shutdown) for the whole
        wait."""
        loads = changes.loads
        deadline = asyncio.get_running_loop().time() + WAIT_SECONDS
        while table.version_of(side) <= since and changes.loads == loads:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0 or await request.is_disconnected():
                return
            await changes.wait(side, min(DISCONNECT_CHECK_SECONDS, left))

    async def page(request: Request) -> Response:
        token = request.path_params.get("token")
        try:
            if request.url.path.startswith("/seat/"):
                table.seats_of(token)
            elif request.url.path.startswith("/host/") and token != table.host:
                raise Refused(404, "not the host's link")
        except Refused as err:
            return PlainTextResponse(err.message, status_code=err.status)
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def home(request: Request) -> Response:
        return HTMLResponse(home_page(table), headers={"Cache-Control": "no-store"})

    async def rules(request: Request) -> Response:
        if not RULES.is_file():
            return PlainTextResponse("docs/RULES.md is not installed with this copy", status_code=404)
        return PlainTextResponse(RULES.read_text(), media_type="text/markdown; charset=utf-8")

    async def seat_view(request: Request) -> Response:
        token = request.path_params["token"]
        try:
            since, story = _query_int(request, "since", -1), _query_int(request, "story", 0)
            side = table.side_of_token(token)
            if since >= 0:
                await wait_for_move(request, side, since)
            return JSONResponse(table.view(token, story))
        except Refused as err:
            return _refusal(err)

    async def seat_act(request: Request) -> Response:
        token = request.path_params["token"]
        try:
            table.seats_of(token)
            decision, action = _act_fields(await _body(request))
            table.act(token, decision, action)
        except Refused as err:
            return _refusal(err)
        changes.notify()
        return JSONResponse(table.view(token, _query_int(request, "story", 0)))

    async def seat_save(request: Request) -> Response:
        try:
            table.seats_of(request.path_params["token"])
            path = table.save()
        except Refused as err:
            return _refusal(err)
        return JSONResponse({"file": path.name, "saved_in": str(table.saves)})

    async def host_view(request: Request) -> Response:
        token = request.path_params["token"]
        try:
            since, story = _query_int(request, "since", -1), _query_int(request, "story", 0)
            if token != table.host:
                raise Refused(404, "not the host's link")
            if since >= 0:
                await wait_for_move(request, DM, since)
            data = table.spectator_view(token, story)
        except Refused as err:
            return _refusal(err)
        data["links"] = table.links()
        data["saved_games"] = table.saved_games()
        return JSONResponse(data)

    async def host_load(request: Request) -> Response:
        try:
            if request.path_params["token"] != table.host:
                raise Refused(404, "not the host's link")
            body = await _body(request)
            name = body.get("file") if isinstance(body, dict) else None
            if not isinstance(name, str):
                expected = 'expected a JSON object {"file": NAME} naming a saved game'
                raise Refused(400, f"{expected}; got {replay.shown(body)}")
            if name not in table.saved_games():
                raise Refused(404, f"no saved game {name!r}; saved games: {table.saved_games()}")
            table.load(table.saves / name)
        except Refused as err:
            return _refusal(err)
        changes.notify(loaded=True)
        return JSONResponse({"loaded": name, "version": table.version})

    async def replay_open(request: Request) -> Response:
        try:
            return JSONResponse(book.open(await _body(request)))
        except Refused as err:
            return _refusal(err)

    async def replay_step(request: Request) -> Response:
        try:
            side = request.query_params.get("side", "heroes")
            step = _whole_text(request.path_params["step"], "step")
            return JSONResponse(await asyncio.to_thread(book.view, request.path_params["id"], step, side))
        except Refused as err:
            return _refusal(err)

    async def seat_socket(ws: WebSocket) -> None:
        token = ws.path_params["token"]
        try:
            table.seats_of(token)
        except Refused as err:
            await ws.close(code=4404, reason=err.message)
            return
        await ws.accept()
        side = table.side_of_token(token)

        async def push() -> None:
            sent = None
            while True:
                now = (changes.loads, table.version_of(side))
                if now != sent:
                    sent = now
                    await ws.send_json({"view": table.view(token)})
                await changes.wait(side, WAIT_SECONDS)

        pusher = asyncio.create_task(push())
        try:
            while True:
                try:
                    table.act(token, *_act_fields(await _message(ws)))
                    changes.notify()
                except Refused as err:
                    await ws.send_json({"error": err.message, "status": err.status})
        except WebSocketDisconnect:
            pass
        finally:
            pusher.cancel()

    routes = [
        Route("/", home),
        Route("/seat/{token}", page),
        Route("/host/{token}", page),
        Route("/replay", page),
        Route("/rules", rules),
        Route("/api/seat/{token}", seat_view),
        Route("/api/seat/{token}/act", seat_act, methods=["POST"]),
        Route("/api/seat/{token}/save", seat_save, methods=["POST"]),
        Route("/api/host/{token}", host_view),
        Route("/api/host/{token}/load", host_load, methods=["POST"]),
        Route("/api/replay", replay_open, methods=["POST"]),
        Route("/api/replay/{id}/{step}", replay_step),
        WebSocketRoute("/ws/seat/{token}", seat_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.changes = changes  # the wakeups per side (read by tests)
    return app


HOME = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>dungeon_env game server</title>
<link rel="icon" href="data:,">
<style>body {{ font: 16px/1.5 system-ui, sans-serif; max-width: 42rem; margin: 2rem auto; padding: 0 1rem; }}
code {{ background: #eee; padding: 0 .2em; }} li {{ margin: .3em 0; }}</style>
</head>
<body>
<h1>dungeon_env game server</h1>
<p>This server plays one game of <b id="adventure">{adventure}</b>, a dungeon_env adventure.</p>
<h2>How to join</h2>
<p id="join">Each player opens their own seat's link: the links are printed in the terminal where
<code>dungeon-env play</code> runs, so ask whoever started it for yours. A seat's link shows only
what that seat may know; this page holds none of them.</p>
<h2>Seats</h2>
<ul id="seats">
{seats}
</ul>
{more}</body>
</html>
"""


def home_page(table: Table) -> str:
    """The page at ``/``: what this server is, how to join, which seats are people and which are AI
    (by seat and agent: never a seat's link), and the server's other pages."""
    seats = "\n".join(_seat_item(table, seat) for seat in table.seats.values())
    more = ['<li><a href="/replay">The replay viewer</a>: open a replay or saved-game file</li>']
    if RULES.is_file():
        more.append('<li><a href="/rules">The rules</a> of the game</li>')
    pages = '<h2>Also on this server</h2>\n<ul id="pages">\n' + "\n".join(more) + "\n</ul>\n"
    name = table.game.tables.adventure.name
    return HOME.format(adventure=html.escape(name), seats=seats, more=pages)


def _seat_item(table: Table, seat) -> str:
    """A seat's line on the home page: its name, its hero, and who plays it."""
    who = "the Dungeon Master" if seat.name == "dm" else table.game.card(int(seat.name.split("_")[1])).name
    kind = "human" if seat.agent == HUMAN else f"AI, {seat.agent}"
    name, rest = (
        html.escape(seat.name),
        html.escape(f" ({who}): {kind} \N{EM DASH} {table.seat_about[seat.name]}"),
    )
    return f'<li data-seat="{name}" data-agent="{html.escape(seat.agent)}"><b>{name}</b>{rest}</li>'


def _query_int(request: Request, name: str, default: int) -> int:
    value = request.query_params.get(name)
    return default if value is None else _whole_text(value, name)


def _whole_text(value: str, name: str) -> int:
    try:
        return int(value)
    except ValueError as err:
        raise Refused(400, f"{name} must be a whole number, got {value!r}") from err


class BackgroundServer:
    """The app served by uvicorn in a thread (for tests and the text-less embedding of a table):
    ``with BackgroundServer(table) as url: ...``; ``port=0`` takes a free port."""

    def __init__(self, table: Table, *, host: str = "127.0.0.1", port: int = 0, delay: float = 0.6) -> None:
        import uvicorn

        config = uvicorn.Config(create_app(table, delay=delay), host=host, port=port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.host = host
        self._thread = None

    def __enter__(self) -> str:
        import threading
        import time

        self._thread = threading.Thread(target=self.server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the play server did not start within 20 s")
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        return f"http://{self.host}:{port}"

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
