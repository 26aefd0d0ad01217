"""The play server (``play.server`` over ``play.table.Table``): whole games through its HTTP and
WebSocket API with the humans simulated, the refusals, save and load, and what every endpoint
tells a hero seat (never what heroes may not know)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from agents import ScriptedDM, ScriptedHeroes  # noqa: E402
from dungeon_env.engine.actions import N_ACTIONS  # noqa: E402
from dungeon_env.engine.state import How, Side  # noqa: E402
from dungeon_env.engine.units import place_monster  # noqa: E402
from dungeon_env.render.story import describe_event  # noqa: E402
from play.server import create_app  # noqa: E402
from play.table import Refused, Table  # noqa: E402

SHORT = "tests/data/short_walk.toml"
LAST = N_ACTIONS - 1  # the last action's number
PARTY = ["bram", "sela", "orwin"]
ALL_HUMAN = {"hero_0": "human", "hero_1": "human", "hero_2": "human", "dm": "human"}
SEED = 918_273_645_546  # distinctive: it must never appear in a seat's answer
ROOT = Path(__file__).resolve().parents[1]


def _client(table: Table) -> TestClient:
    return TestClient(create_app(table, delay=0.0))


def _simulated_humans(table: Table, seed: int = 0):
    """Humans simulated by the scripted agents: they pick on the real game, send through the API."""
    heroes, dm = ScriptedHeroes(game=table.game, seed=seed), ScriptedDM(game=table.game, seed=seed)
    return lambda: int((dm if table.game.agent == "dm" else heroes).choose(table.game))


# --------------------------------------------------------------------------- whole games


def test_whole_game_over_http_with_humans_at_every_seat():
    table = Table(adventure="flooded_cellar", heroes=PARTY, seats=ALL_HUMAN, seed=3, max_turns=40)
    pick = _simulated_humans(table)
    with _client(table) as client:
        steps = 0
        while not table.over:
            token = table.seats[table.game.agent].token
            view = client.get(f"/api/seat/{token}").json()
            assert view["decision"]["yours"] and view["decision"]["choices"]
            action = pick()
            assert action in [c["action"] for c in view["decision"]["choices"]]
            answer = client.post(
                f"/api/seat/{token}/act", json={"decision": view["version"], "action": action}
            )
            assert answer.status_code == 200, answer.text
            steps += 1
        end = client.get(f"/api/seat/{table.seats['hero_0'].token}").json()
    assert end["outcome"] in ("completed", "failed", "truncated")
    assert end["decision"]["choices"] == [] and steps == table.version
    assert any("over" in line["text"] or table.game.outcome in line["text"] for line in end["story"][-3:])


def test_whole_game_over_websockets_against_the_scripted_dm():
    table = Table(
        adventure=SHORT, heroes=PARTY, seats={s: "human" for s in ("hero_0", "hero_1", "hero_2")}, seed=4
    )
    pick = _simulated_humans(table)
    with _client(table) as client, client.websocket_connect(f"/ws/seat/{table.hot_seat}") as ws:
        view = ws.receive_json()["view"]
        while view["outcome"] is None:
            if view["decision"]["yours"]:
                ws.send_json({"decision": view["version"], "action": pick()})
            message = ws.receive_json()
            assert "error" not in message, message
            view = message["view"]
    assert view["outcome"] == "completed"
    assert all(goal["met"] for goal in view["objectives"] if goal["primary"])


def test_agents_play_their_seats_on_their_own():
    table = Table(adventure=SHORT, heroes=PARTY, seats={"hero_0": "scripted", "dm": "scripted"}, seed=5)
    assert all(seat.agent != "human" for seat in table.seats.values())
    with _client(table) as client:
        host = client.get(f"/api/host/{table.host}").json()
        while host["outcome"] is None:
            host = client.get(f"/api/host/{table.host}", params={"since": host["version"]}).json()
    assert host["outcome"] == "completed" and table.version > 10


# --------------------------------------------------------------------------- refusals


def _state_of(table: Table) -> tuple:
    return table.version, table.game.n_events, table.game.agent


@pytest.mark.parametrize(
    "body, status, words",
    [
        ({"decision": 0, "action": 13}, 403, "turn"),  # hero_1 acting at hero_0's decision
        ({"decision": 7, "action": 13}, 409, "stale"),
        ({"decision": 0}, 400, "expected"),
        ({"decision": "0", "action": 13}, 400, "whole number"),
        ({"decision": 0, "action": 999}, 400, "not legal"),
        ("not json{", 400, "JSON"),
    ],
)
def test_a_refused_request_names_the_problem_and_changes_nothing(body, status, words):
    table = Table(adventure=SHORT, heroes=PARTY, seats={"hero_0": "human", "hero_1": "human"}, seed=6)
    before = _state_of(table)
    token = table.seats["hero_1" if status == 403 else "hero_0"].token
    with _client(table) as client:
        if isinstance(body, str):
            answer = client.post(f"/api/seat/{token}/act", content=body)
        else:
            answer = client.post(f"/api/seat/{token}/act", json=body)
    assert answer.status_code == status
    assert words in answer.json()["error"]
    assert _state_of(table) == before


def test_unknown_links_are_refused():
    table = Table(adventure=SHORT, heroes=PARTY, seats={"hero_0": "human"}, seed=7)
    hero = table.seats["hero_0"].token
    with _client(table) as client:
        assert client.get("/api/seat/not-a-token").status_code == 404
        assert client.get("/seat/not-a-token").status_code == 404
        assert client.post("/api/seat/nope/act", json={"decision": 0, "action": 13}).status_code == 404
        assert client.get(f"/api/host/{hero}").status_code == 404  # a seat's link is not the host's
        assert client.post(f"/api/host/{hero}/load", json={"file": "x.json"}).status_code == 404
        assert client.get(f"/seat/{hero}").status_code == 200
        assert "text/html" in client.get(f"/seat/{hero}").headers["content-type"]
        with client.websocket_connect(f"/ws/seat/{hero}") as ws:
            ws.send_text("{not json")
            assert ws.receive_json()["view"]["version"] == 0
            assert ws.receive_json()["status"] == 400
            ws.send_json({"decision": 5, "action": 13})
            assert ws.receive_json()["status"] == 409
    assert table.version == 0


def test_a_seat_acts_only_for_itself():
    table = Table(adventure=SHORT, heroes=PARTY, seats={"hero_0": "human", "hero_1": "human"}, seed=8)
    with pytest.raises(Refused) as refused:
        table.act(table.seats["hero_1"].token, 0, 13)
    assert refused.value.status == 403 and "hero_0" in refused.value.message
    table.act(table.hot_seat, 0, 13)  # the hot seat plays both
    assert table.version == 1


def test_bad_seats_are_refused_before_play():
    with pytest.raises(ValueError, match="hero_7"):
        Table(adventure=SHORT, heroes=PARTY, seats={"hero_7": "human"})
    from agents.spec import AgentSpecError

    with pytest.raises(AgentSpecError):
        Table(adventure=SHORT, heroes=PARTY, seats={"dm": "no_such_agent"})


# --------------------------------------------------------------------------- save and load


def test_save_and_load_continue_the_same_game(tmp_path):
    table = Table(adventure="flooded_cellar", heroes=PARTY, seats=ALL_HUMAN, seed=9, saves=tmp_path)
    pick = _simulated_humans(table)
    for _ in range(120):
        table.act(table.hot_seat, table.version, pick())
    token = table.seats["hero_0"].token
    with _client(table) as client:
        saved = client.post(f"/api/seat/{token}/save").json()
        assert str(SEED) not in json.dumps(saved) and "seed" not in json.dumps(saved)
        path = tmp_path / saved["file"]
        assert path.is_file()
        host = client.get(f"/api/host/{table.host}").json()
        assert saved["file"] in host["saved_games"]
    other = Table(adventure="flooded_cellar", heroes=PARTY, seats=ALL_HUMAN, seed=1, saves=tmp_path)
    other.load(path)
    assert other.version == table.version
    assert other.game.events == table.game.events
    assert other.view(other.seats["hero_0"].token)["figures"] == table.view(token)["figures"]
    with _client(other) as client:
        answer = client.post(f"/api/host/{other.host}/load", json={"file": "../../etc/passwd"})
        assert answer.status_code == 404 and "no saved game" in answer.json()["error"]


def test_a_broken_save_is_refused(tmp_path):
    table = Table(adventure=SHORT, heroes=PARTY, seats={"hero_0": "human"}, seed=10, saves=tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    with pytest.raises(Refused, match="not a saved game"):
        table.load(bad)
    good = table.save("good.json")
    data = json.loads(good.read_text())
    data["actions"] = [N_ACTIONS]
    bad.write_text(json.dumps(data))
    out_of_range = f"actions[0]: expected an action, a whole number 0..{LAST}; found {N_ACTIONS}"
    with pytest.raises(Refused, match=re.escape(out_of_range)):
        table.load(bad)
    data["actions"] = [_illegal_now(table)]
    bad.write_text(json.dumps(data))
    with pytest.raises(Refused, match="not legal"):
        table.load(bad)
    assert table.version == 0


def _illegal_now(table: Table) -> int:
    """An action in range that is not legal at the table's decision now."""
    return next(a for a in range(N_ACTIONS) if a not in table.game.legal_actions())


# --------------------------------------------------------------------------- what a hero seat is told


def _hero_answers(client: TestClient, table: Table) -> list[str]:
    """Every answer a hero seat can get, as text: its view (HTTP, long poll form, WebSocket), an
    action's answer is covered by the game loops, its page, its save's answer."""
    token = table.seats["hero_0"].token
    out = [
        client.get(f"/api/seat/{token}").text,
        client.get(f"/api/seat/{token}", params={"since": table.hero_version - 1, "story": 0}).text,
        client.get(f"/seat/{token}").text,
    ]
    with client.websocket_connect(f"/ws/seat/{token}") as ws:
        out.append(json.dumps(ws.receive_json()))
    return out


def _hidden_facts(table: Table) -> list[str]:
    """Strings that would betray what heroes may not know now, checked against every answer."""
    game, s = table.game, table.game.state
    facts = [str(table._seed)]
    known_cards = {
        game.item_cards[int(c)].name for c, k in zip(s.item_card, s.item_known, strict=True) if c >= 0 and k
    }
    for card, known, holder in zip(s.item_card, s.item_known, s.item_holder, strict=True):
        name = game.item_cards[int(card)].name if card >= 0 else None
        if name and not known and name not in known_cards and holder >= 0:
            facts.append(name)
    return facts


def _hero_view_is_fogged(view: dict, table: Table) -> None:
    s, t = table.game.state, table.game.tables
    for fig in view["figures"]:
        if fig["side"] == "monster" and fig["at"] is not None:
            sq = fig["at"][1] * 24 + fig["at"][0]
            assert s.revealed[t.area[sq]], f"a monster shown on an unrevealed square {fig['at']}"
    for trap in view["board"]["traps"]:
        assert trap["detected"], "a hero seat was sent an undetected trap"
    assert not any(door["secret"] for door in view["board"]["doors"])
    for sq in view["board"]["furniture"]:
        assert s.revealed[t.area[sq]], f"furniture of an unrevealed area at {sq}"
    assert {int(sq) for sq in view["board"]["furniture_kinds"]} <= set(view["board"]["furniture"])
    for sq in view["board"]["blockages"]:  # seen from a revealed square beside it (ruling D-24)
        beside = [int(n) for n in t.neighbor[sq] if n >= 0]
        assert s.revealed[t.area[sq]] or any(s.revealed[t.area[n]] for n in beside), sq
    if view["decision"]["agent"] == "dm":
        assert view["decision"]["choices"] == [] and "unit" not in view["decision"]


def test_every_hero_seat_answer_holds_only_what_heroes_may_know():
    # sunless_throne: its game holds the DM's secret rolls of both kinds (Detect Traps, room Detect)
    table = Table(adventure="sunless_throne", heroes=PARTY, seats=ALL_HUMAN, seed=SEED, max_turns=30)
    pick = _simulated_humans(table, seed=2)
    rng = np.random.default_rng(0)
    checked = acted = 0
    with _client(table) as client:
        while not table.over:
            if rng.random() < 0.08:
                facts = _hidden_facts(table)
                for answer in _hero_answers(client, table):
                    for fact in facts:
                        assert fact not in answer, f"a hero seat's answer holds {fact!r}"
                _hero_view_is_fogged(json.loads(_hero_answers(client, table)[0]), table)
                checked += 1
            if table.game.agent == "hero_0":  # the hero seat's own action: its answer is a view too
                body = {"decision": table.hero_version, "action": pick()}  # the hero seat's version
                answer = client.post(f"/api/seat/{table.seats['hero_0'].token}/act", json=body)
                assert answer.status_code == 200
                if not table.over:
                    assert not any(fact in answer.text for fact in _hidden_facts(table))
                    _hero_view_is_fogged(answer.json(), table)
                acted += 1
            else:
                table.act(table.hot_seat, table.version, pick())
    assert checked > 20 and acted > 50
    secret = [
        e for e in table.game.events if e["type"] == "roll" and e["check"] in ("detect_traps", "room_detect")
    ]
    told = {line["text"] for line in table.story("heroes")}
    assert secret, "the game had no Detect Traps roll to check"
    assert not told & {describe_event(e) for e in secret}, "a hero seat was told the DM's secret dice"


def test_a_monster_in_the_fog_changes_nothing_a_hero_seat_is_told():
    """Twins: the same game, one with an extra orc standing in an unrevealed room."""
    seats = {"hero_0": "human", "hero_1": "human", "hero_2": "human", "dm": "human"}
    plain = Table(adventure="flooded_cellar", heroes=PARTY, seats=seats, seed=11)
    twin = Table(adventure="flooded_cellar", heroes=PARTY, seats=seats, seed=11)
    g, t = twin.game, twin.game.tables
    hidden = next(
        sq
        for sq in range(24 * 28)
        if not g.state.revealed[t.area[sq]] and g.state.occupant[sq] < 0 and not t.obstacle[sq]
    )
    place_monster(g, "orc", hidden, How.EVENT)
    twin._catch_up()
    assert (g.state.unit_side == Side.MONSTER).sum() == (plain.game.state.unit_side == Side.MONSTER).sum() + 1

    def hero_text(table: Table) -> str:
        data = table.view(table.seats["hero_0"].token)
        data.pop("seat_agents")
        return json.dumps(data)

    moved = 0
    movement = plain.game.state.phase
    # in the Heroes' Movement (a monster anywhere on the board makes the next phases the Combat Turn
    # Sequence's, which the rules let heroes know)
    while twin.game.state.phase == movement and moved < 12:
        assert hero_text(plain) == hero_text(twin)
        legal = plain.game.legal_actions()
        action = legal[moved % len(legal)]
        plain.act(plain.hot_seat, plain.version, action)
        twin.act(twin.hot_seat, twin.version, action)
        moved += 1
    assert moved >= 6
    assert json.dumps(plain.view(plain.seats["dm"].token)) != json.dumps(twin.view(twin.seats["dm"].token))


def test_a_monster_in_the_fog_does_not_renumber_the_monsters_a_hero_seat_sees():
    """Twins (issue 50, ruling D-24): in one game an orc in the fog took the first free slot before a
    goblin appeared in sight, so the goblin's engine slot is one higher there. A hero seat's figures
    carry public keys (the heroes' ids, ``m0`` for the first monster they saw), never the slot: the
    two seats are told the same."""
    seats = {"hero_0": "human", "hero_1": "human", "hero_2": "human", "dm": "human"}
    plain = Table(adventure="flooded_cellar", heroes=PARTY, seats=seats, seed=11)
    twin = Table(adventure="flooded_cellar", heroes=PARTY, seats=seats, seed=11)
    g, t = twin.game, twin.game.tables
    free = [sq for sq in range(t.n_squares) if g.state.occupant[sq] < 0 and not t.obstacle[sq]]
    hidden = next(sq for sq in free if not g.state.revealed[t.area[sq]])
    in_sight = next(sq for sq in free if g.state.revealed[t.area[sq]])
    place_monster(g, "orc", hidden, How.EVENT)
    slots = [place_monster(table.game, "goblin", in_sight, How.EVENT) for table in (plain, twin)]
    assert slots[1] == slots[0] + 1  # the engine's slots differ
    for table in (plain, twin):
        table._catch_up()

    def hero_figures(table: Table) -> list[dict]:
        return table.view(table.seats["hero_0"].token)["figures"]

    assert hero_figures(plain) == hero_figures(twin)
    goblin = hero_figures(plain)[-1]
    assert (goblin["kind"], goblin["key"], goblin["name"]) == ("goblin", "m0", "Goblin m0")
    assert all("slot" not in f for f in hero_figures(plain))
    assert [f["key"] for f in hero_figures(plain)[:3]] == ["hero_0", "hero_1", "hero_2"]
    dm_keys = [f["key"] for f in twin.view(twin.seats["dm"].token)["figures"]]
    assert len(dm_keys) == 5 and dm_keys[:3] == ["hero_0", "hero_1", "hero_2"]  # the DM sees both


def test_a_dm_seat_sees_what_the_heroes_do_not():
    table = Table(adventure=SHORT, heroes=PARTY, seats={"hero_0": "human", "dm": "human"}, seed=SEED)
    hero = table.view(table.seats["hero_0"].token)
    dm = table.view(table.seats["dm"].token)
    assert not any(f["kind"] == "orc" for f in hero["figures"])  # the guard of room A, in the fog
    assert hero["board"]["guards"] == []
    assert dm["board"]["guards"] == [{"monster": "Orc Warrior", "kind": "orc", "at": [4, 4]}]
    assert hero["board"]["traps"] == [] and dm["board"]["traps"][0]["name"] == "pit"
    assert hero["board"]["furniture_kinds"] == {} and dm["board"]["furniture_kinds"] == {"74": "chest"}
    assert str(table._seed) not in json.dumps(dm)


# --------------------------------------------------------------------------- the replay viewer


def test_the_replay_viewer_steps_through_a_saved_game(tmp_path):
    table = Table(adventure=SHORT, heroes=PARTY, seats={"hero_0": "scripted"}, seed=13, saves=tmp_path)
    while not table.over:
        table.step_ai()
    data = json.loads(table.save("done.json").read_text())
    with _client(table) as client:
        opened = client.post("/api/replay", json=data).json()
        assert opened["steps"] == table.version and opened["turns"][0] == [1, 0]
        first = client.get(f"/api/replay/{opened['id']}/0", params={"side": "heroes"}).json()
        last = client.get(f"/api/replay/{opened['id']}/{opened['steps']}", params={"side": "dm"}).json()
        dm_first = client.get(f"/api/replay/{opened['id']}/0", params={"side": "dm"}).json()
        assert last["outcome"] == "completed" and first["outcome"] is None
        assert dm_first["board"]["guards"][0]["kind"] == "orc" and first["board"]["guards"] == []
        assert len(last["story"]) > len(first["story"])
        assert client.get(f"/api/replay/{opened['id']}/999999").status_code == 400
        assert client.get(f"/api/replay/{opened['id']}/0", params={"side": "x"}).status_code == 400
        assert client.get("/api/replay/nope/0").status_code == 404
        assert client.post("/api/replay", json={"format": "nope"}).status_code == 400
        broken = dict(data, actions=[5000])
        assert "actions[0]: expected an action" in client.post("/api/replay", json=broken).json()["error"]
        broken = dict(data, actions=[_illegal_now(Table(adventure=SHORT, heroes=PARTY, seed=13))])
        assert "not legal" in client.post("/api/replay", json=broken).json()["error"]


# --------------------------------------------------------------------------- a resumed game's seats


def _save_part_way(seats: dict[str, str], saves, steps: int = 4) -> tuple[Table, object]:
    """A game with ``seats`` (every AI seat scripted) played ``steps`` actions by the scripted agents
    and saved through a seat's Save (the HTTP API)."""
    table = Table(adventure=SHORT, heroes=PARTY, seats=seats, seed=21, max_turns=37, saves=saves)
    pick = _simulated_humans(table)
    for _ in range(steps):
        if not table.step_ai():
            token = table.seats[table.game.agent].token
            table.act(token, table.version_for(token), pick())
    human = next(s for s in table.seats.values() if s.token)
    with _client(table) as client:
        saved = client.post(f"/api/seat/{human.token}/save").json()
    return table, saves / saved["file"]


def _resumed(path, *seat_options: str, saves=None) -> Table:
    """The table ``dungeon-env play --load PATH [--seat ...]`` starts (the CLI's own path)."""
    from difficulty.cli import build_parser
    from play.cli import table_of

    argv = ["play", "--load", str(path), "--saves", str(saves or path.parent), "--no-browser"]
    for option in seat_options:
        argv += ["--seat", option]
    return table_of(build_parser().parse_args(argv))


@pytest.mark.parametrize(
    "seats",
    [{"dm": "human"}, {"hero_0": "human"}, {"hero_1": "human", "dm": "human"}],
    ids=["dm", "hero_0", "hero_1+dm"],
)
def test_a_resumed_game_keeps_its_seats(tmp_path, seats):
    """`dungeon-env play --load` of a save restores every seat as saved (issue 49: the default
    seats came back instead: three human heroes and a scripted DM)."""
    table, path = _save_part_way(seats, tmp_path)
    saved = json.loads(path.read_text())
    assert saved["play"]["seats"] == table.seat_agents()
    resumed = _resumed(path)
    assert resumed.seat_agents() == table.seat_agents()
    assert {s.name for s in resumed.seats.values() if s.token} == set(seats)
    assert resumed.version == len(saved["actions"]) >= 4
    assert resumed.game.events == table.game.events[: resumed.game.n_events]
    # the save's adventure, party and turn cap, not the defaults (flooded_cellar, the first 3 heroes, 100)
    assert resumed.game.tables.adventure.id == "short_walk" and resumed.game.max_turns == 37
    assert [resumed.game.card(k).name.split()[0] for k in range(3)] == ["Bram", "Sela", "Orwin"]
    with _client(resumed) as client:
        for name in seats:
            view = client.get(f"/api/seat/{resumed.seats[name].token}").json()
            assert view["seats"] == [name] and view["seat_agents"] == table.seat_agents()
        host = client.get(f"/api/host/{resumed.host}").json()
    assert {k for k in host["links"] if k.startswith(("hero_", "dm"))} == set(seats)
    assert resumed.saved_seats == table.seat_agents()


def test_a_seat_given_with_load_replaces_that_seat_only(tmp_path):
    from play.cli import override_lines

    table, path = _save_part_way({"dm": "human"}, tmp_path)
    resumed = _resumed(path, "dm=scripted", "hero_1=human")
    assert resumed.seat_agents() == {
        "hero_0": "scripted",
        "hero_1": "human",
        "hero_2": "scripted",
        "dm": "scripted",
    }
    assert override_lines(resumed) == [
        "hero_1: scripted in the save, human now (--seat)",
        "dm: human in the save, scripted now (--seat)",
    ]
    assert override_lines(_resumed(path, "dm=human")) == []  # the same as saved: nothing replaced
    assert resumed.version == len(json.loads(path.read_text())["actions"])


def test_the_server_prints_the_seats_a_load_replaced(tmp_path):
    """The real command: its start-up lines name every AI seat with what its agent is, and each
    seat --seat replaced; Ctrl-C saves the game again."""
    import signal
    import subprocess
    import sys

    from agents.spec import describe

    _, path = _save_part_way({"dm": "human"}, tmp_path)
    argv = [sys.executable, "-m", "difficulty.cli", "play", "--load", str(path), "--seat", "dm=scripted"]
    argv += [
        "--seat",
        "hero_2=human",
        "--saves",
        str(tmp_path),
        "--no-browser",
        "--port",
        "0",
        "--delay",
        "30",
    ]
    server = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    lines = []
    try:
        for line in server.stdout:
            lines.append(line.rstrip())
            if line.startswith("Ctrl-C"):
                break
        base = re.search(r"serving on (http://\S+)", lines[0])[1]
        home = _until_served(base + "/")
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=60)
    assert home.status_code == 200 and 'data-seat="hero_2" data-agent="human"' in home.text
    assert "The game is saved as" in out  # Ctrl-C saved the game again
    text = "\n".join(lines)
    assert "dm: human in the save, scripted now (--seat)" in text
    assert "hero_2: scripted in the save, human now (--seat)" in text
    assert f"dm        played by scripted: {describe('scripted', 'dm')}" in text
    assert f"hero_0    played by scripted: {describe('scripted', 'heroes')}" in text
    assert "Traceback" not in err and server.returncode == 0


def _until_served(url: str):
    """GET ``url`` once the server answers (within 30 s)."""
    import time

    import httpx

    deadline = time.monotonic() + 30
    while True:
        try:
            return httpx.get(url, timeout=5)
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


# --------------------------------------------------------------------------- bad bodies


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    "body, words",
    [
        (DEEP, "nested too deeply"),
        ('{"decision": 0, "action": ' + "[" * 50_000 + "]" * 50_000 + "}", "nested too deeply"),
        (b"\xff\xfe{", "must be JSON"),
        ("null", "expected a JSON object"),
        ("[0, 13]", "expected a JSON object"),
        ('{"decision": 0, "action": null}', "whole number"),
        ('{"decision": 0, "action": 13.0}', "whole number"),
        ('{"decision": 0, "action": true}', "whole number"),
        ('{"decision": 0, "action": [13]}', "whole number"),
        ('{"decision": 0, "action": {"a": 13}}', "whole number"),
        ('{"decision": 0, "action": ' + "9" * 5000 + "}", "must be JSON"),
        ('{"decision": 0, "action": 1e999}', "whole number"),
    ],
    ids=range(12),
)
def test_a_malformed_act_body_is_a_400_and_changes_nothing(body, words):
    table = Table(adventure=SHORT, heroes=PARTY, seats={"hero_0": "human"}, seed=6)
    before = _state_of(table)
    with _client(table) as client:  # the test client raises any server error: a 500 fails here
        answer = client.post(f"/api/seat/{table.seats['hero_0'].token}/act", content=body)
    assert answer.status_code == 400 and answer.headers["content-type"] == "application/json"
    assert words in answer.json()["error"]
    assert _state_of(table) == before


def test_a_malformed_websocket_message_is_answered_and_the_socket_stays_open():
    table = Table(adventure=SHORT, heroes=PARTY, seats={"hero_0": "human"}, seed=6)
    with _client(table) as client, client.websocket_connect(f"/ws/seat/{table.seats['hero_0'].token}") as ws:
        assert ws.receive_json()["view"]["version"] == 0
        for message in (DEEP, "[1, 2]", '{"decision": 0, "action": "13"}'):
            ws.send_text(message)
            answer = ws.receive_json()
            assert answer["status"] == 400 and answer["error"], message
        ws.send_bytes(DEEP.encode())
        assert "nested too deeply" in ws.receive_json()["error"]
        legal = table.game.legal_actions()[0]
        ws.send_bytes(json.dumps({"decision": 0, "action": int(legal)}).encode())  # still served
        assert ws.receive_json()["view"]["version"] == 1
    assert table.version == 1


def _saved_game(tmp_path) -> dict:
    table = Table(adventure=SHORT, heroes=PARTY, seats={"hero_0": "scripted"}, seed=13, saves=tmp_path)
    for _ in range(6):
        table.step_ai()
    return json.loads(table.save("six.json").read_text())


@pytest.mark.parametrize(
    "change, words",
    [
        ({"actions": None}, f"actions: expected a list of actions (whole numbers 0..{LAST}), found null"),
        ({"actions": "13"}, f'actions: expected a list of actions (whole numbers 0..{LAST}), found "13"'),
        ({"actions": [13, "1"]}, f'actions[1]: expected an action, a whole number 0..{LAST}; found "1"'),
        ({"actions": [True]}, f"actions[0]: expected an action, a whole number 0..{LAST}; found true"),
        ({"seed": -1}, "seed: expected a whole number, 0 or more, found -1"),
        ({"seed": None}, "seed: expected a whole number, 0 or more, found null"),
        ({"options": []}, "options: expected an object of dungeon_env.raw_env options, found a list of 0"),
        ({"options": {"nope": 1}}, "options: unknown ['nope']; a replay's options are adventure, heroes"),
        ({"options": {"adventure": ["x"]}}, "options.adventure: expected an adventure id or a path"),
        ({"options": {"adventure": "nosuch"}}, "options: they make no game: adventures: id: no bundled"),
        ({"events_sha256": 5}, 'events_sha256: expected "" or the 64 lower-case hex digits'),
        ({"illegal": 5}, 'illegal: expected null or an object with the illegal "action"'),
        (
            {"illegal": {"action": [1]}},
            'illegal: expected null or an object with the illegal "action" (a number',
        ),
        ({"format": None}, "not a replay: expected format 'dungeon_env.replay/1', found None"),
        ({"events_sha256": "0" * 64}, "wrong checksum: the file's events_sha256 is " + "0" * 64),
    ],
    ids=range(15),
)
def test_the_replay_viewer_refuses_a_broken_file_with_a_400(tmp_path, change, words):
    data = {**_saved_game(tmp_path), **change}
    table = Table(adventure=SHORT, heroes=PARTY, seats={"hero_0": "human"}, seed=6)
    with _client(table) as client:
        answer = client.post("/api/replay", json=data)
        assert answer.status_code == 400 and words in answer.json()["error"], answer.text
        for body in (DEEP, "null", '{"format": "dungeon_env.replay/1"}'):
            answer = client.post("/api/replay", content=body)
            assert answer.status_code == 400 and answer.json()["error"]


def test_the_host_load_refuses_a_wrong_checksum_and_a_bad_name(tmp_path):
    """A save whose checksum does not match its actions is refused (it loaded silently before), its
    message naming the file, both checksums and what to do; the game is unchanged."""
    table = Table(adventure=SHORT, heroes=PARTY, seats={"hero_0": "human"}, seed=6, saves=tmp_path)
    data = _saved_game(tmp_path)
    (tmp_path / "edited.json").write_text(json.dumps({**data, "events_sha256": "ab" * 32}))
    with _client(table) as client:
        answer = client.post(f"/api/host/{table.host}/load", json={"file": "edited.json"})
        error = answer.json()["error"]
        assert answer.status_code == 400
        assert error.startswith(
            f"{tmp_path / 'edited.json'}: wrong checksum: the file's events_sha256 is {'ab' * 32}"
        )
        assert f"its actions replay to {data['events_sha256']}" in error
        assert 'delete its "events_sha256" entry' in error
        for body in ({"file": ["six.json"]}, {"file": None}, [1], DEEP):
            kw = {"content": body} if isinstance(body, str) else {"json": body}
            answer = client.post(f"/api/host/{table.host}/load", **kw)
            assert answer.status_code == 400 and answer.json()["error"], body
        assert (
            table.version == 0
            and table.game.n_events == Table(adventure=SHORT, heroes=PARTY, seed=6).game.n_events
        )
        answer = client.post(f"/api/host/{table.host}/load", json={"file": "six.json"})
        assert answer.status_code == 200 and answer.json()["version"] == 6


# --------------------------------------------------------------------------- the home page and seat lines


def _tokens(table: Table) -> list[str]:
    return [s.token for s in table.seats.values() if s.token] + [t for t in (table.hot_seat, table.host) if t]


def test_the_home_page_says_how_to_join_and_holds_no_link():
    from agents.spec import describe
    from play.server import RULES

    table = Table(adventure=SHORT, heroes=PARTY, seats={"hero_0": "human", "hero_1": "human"}, seed=SEED)
    with _client(table) as client:
        page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    text = page.text
    assert "dungeon_env game server" in text and "A Short Walk" in text
    assert "printed in the terminal where\n<code>dungeon-env play</code> runs" in text
    hero_0 = '<li data-seat="hero_0" data-agent="human"><b>hero_0</b> (Bram Ironhide): human'
    assert hero_0 + " \N{EM DASH} a person at this computer</li>" in text
    dm = '<li data-seat="dm" data-agent="scripted"><b>dm</b> (the Dungeon Master): AI, scripted'
    assert dm + f" \N{EM DASH} {describe('scripted', 'dm')}" in text
    assert 'data-seat="hero_2" data-agent="scripted"' in text
    assert '<a href="/replay">' in text and ('<a href="/rules">' in text) == RULES.is_file()
    for secret in [*_tokens(table), str(SEED)]:
        assert secret not in text


def test_every_view_says_what_plays_each_seat():
    from agents.spec import describe

    table = Table(adventure=SHORT, heroes=PARTY, seats={"hero_0": "human", "dm": "random"}, seed=5)
    about = {
        "hero_0": "a person at this computer",
        "hero_1": describe("scripted", "heroes"),
        "hero_2": describe("scripted", "heroes"),
        "dm": describe("random", "dm"),
    }
    assert table.view(table.seats["hero_0"].token)["seat_about"] == about
    assert table.spectator_view(table.host)["seat_about"] == about
    with _client(table) as client:
        assert client.get(f"/api/seat/{table.seats['hero_0'].token}").json()["seat_about"] == about
        assert client.get(f"/api/host/{table.host}").json()["seat_about"] == about


def test_the_seat_help_lists_every_agent_with_its_line(capsys):
    from agents.spec import AGENT_LINES
    from difficulty import cli

    with pytest.raises(SystemExit) as end:
        cli.main(["play", "--help"])
    assert end.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "human a person at this computer" in text
    for name, line in AGENT_LINES.items():
        assert f"{name} {' '.join(line.split())}" in text, name
    assert "trained" not in text
