"""The play server (``play.server`` over ``play.table.Table``): whole games through its HTTP and
WebSocket API with the humans simulated, the refusals, save and load, and what every endpoint
tells a hero seat (never what heroes may not know)."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from agents import ScriptedDM, ScriptedHeroes  # noqa: E402
from dungeon_env.engine.state import How, Side  # noqa: E402
from dungeon_env.engine.units import place_monster  # noqa: E402
from dungeon_env.render.story import describe_event  # noqa: E402
from play.server import create_app  # noqa: E402
from play.table import Refused, Table  # noqa: E402

SHORT = "tests/data/short_walk.toml"
PARTY = ["bram", "sela", "orwin"]
ALL_HUMAN = {"hero_0": "human", "hero_1": "human", "hero_2": "human", "dm": "human"}
SEED = 918_273_645_546  # distinctive: it must never appear in a seat's answer


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
    data["actions"] = [99]
    bad.write_text(json.dumps(data))
    with pytest.raises(Refused, match="not legal"):
        table.load(bad)
    assert table.version == 0


# --------------------------------------------------------------------------- what a hero seat is told


def _hero_answers(client: TestClient, table: Table) -> list[str]:
    """Every answer a hero seat can get, as text: its view (HTTP, long poll form, WebSocket), an
    action's answer is covered by the game loops, its page, its save's answer."""
    token = table.seats["hero_0"].token
    out = [
        client.get(f"/api/seat/{token}").text,
        client.get(f"/api/seat/{token}", params={"since": table.version - 1, "story": 0}).text,
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
                body = {"decision": table.version, "action": pick()}
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
        assert "not legal" in client.post("/api/replay", json=broken).json()["error"]
