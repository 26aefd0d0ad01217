"""The observation: its layout round-trips, it stays in its space, and a hero's observation holds no
trace of what heroes may not know (undetected traps, face-down item identities, figures in the fog,
undiscovered secret doors, secret rolls) while the DM's holds all of it."""

from __future__ import annotations

import random

import numpy as np
import pytest

import dungeon_env
from dungeon_env.aec import hero_events, hero_view
from dungeon_env.content import adventure_names, load_items
from dungeon_env.engine.knowledge import dm_events
from dungeon_env.engine.state import ACTIVE
from dungeon_env.observation import (
    FCOL,
    FIGURE_COLUMNS,
    ICOL,
    ITEM_CARDS,
    OBS_SPEC,
    PLANE,
    PLANES,
    TCOL,
    layout_markdown,
    unflatten,
)
from tests.builders import ARENA, add_monster, give_item


def views(env, agent: str) -> dict[str, np.ndarray]:
    return unflatten(env.observe(agent))


def marked(plane: np.ndarray) -> set[tuple[int, int]]:
    """The squares ``(x, y)`` a board plane marks."""
    ys, xs = np.nonzero(plane)
    return set(zip(xs.tolist(), ys.tolist(), strict=True))


def test_the_layout_round_trips():
    env = dungeon_env.raw_env(adventure="flooded_cellar", heroes=4)
    env.reset(seed=0)
    flat = env.observe(env.agent_selection)["observation"]
    pieces = unflatten(flat)
    assert list(pieces) == [name for name, _ in OBS_SPEC.pieces]
    assert all(pieces[name].shape == shape for name, shape in OBS_SPEC.pieces)
    assert np.array_equal(np.concatenate([p.ravel() for p in pieces.values()]), flat)
    pieces["light"][0] = 0.123  # views, not copies
    assert flat[OBS_SPEC.offsets["light"]] == np.float32(0.123)
    assert env.observation_space("dm")["observation"].shape == (OBS_SPEC.size,)
    assert unflatten({"observation": flat})["board"].shape == (len(PLANES), 28, 24)
    with pytest.raises(ValueError, match="shape"):
        unflatten(flat[:-1])


def test_the_layout_table_names_every_piece_plane_and_column():
    text = layout_markdown()
    for name, _ in OBS_SPEC.pieces:
        assert f"`{name}`" in text
    for name, _ in PLANES:
        assert f"`{name}`" in text
    for name, _ in FIGURE_COLUMNS:
        assert f"`{name}`" in text
    assert str(OBS_SPEC.size) in text


def test_the_pieces_describe_the_decision_and_the_figures():
    env = dungeon_env.raw_env(adventure="flooded_cellar", heroes=4)
    env.reset(seed=0)
    game = env.game
    agent = env.agent_selection
    kind, unit = game.decision
    p = views(env, agent)
    assert p["role"].tolist() == [1.0, 0.0] and p["me"][unit] == 1.0 and p["my_turn"][0] == 1.0
    assert p["decision"][kind] == 1.0 and p["phase"][game.state.phase] == 1.0 and p["acting"][unit] == 1.0
    assert p["figures"][unit, FCOL["acting"]] == 1.0 and p["figures"][unit, FCOL["me"]] == 1.0
    x, y = game.xy(int(game.state.unit_pos[unit]))
    assert p["board"][PLANE["acting_unit"], y, x] == 1.0 and p["board"][PLANE["heroes"], y, x] == 1.0
    assert p["figures"][unit, FCOL["x"]] == pytest.approx(x / 23) and p["figures"][
        unit, FCOL["y"]
    ] == pytest.approx(y / 27)
    assert (
        p["figures"][unit, FCOL["health"]] == 1.0 and p["figures"][: game.state.n_heroes, FCOL["hero"]].all()
    )
    other = views(env, "dm")
    assert other["role"].tolist() == [0.0, 1.0] and other["my_turn"][0] == 0.0 and not other["me"].any()
    assert np.array_equal(env.state(), env.observe("dm")["observation"])


def test_observations_stay_in_bounds_in_random_play():
    env = dungeon_env.raw_env(adventure="goblin_warrens", heroes=5, max_turns=30)
    space = env.observation_space("dm")
    rng = random.Random(4)
    env.reset(seed=4)
    n = 0
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        obs = env.observe(agent)
        if n % 7 == 0:
            assert space.contains(obs), f"out of bounds at step {n}"
            assert space["observation"].contains(env.state())
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        n += 1


# ------------------------------------------------------------------ what heroes may not know


def hero_and_dm(env) -> tuple[np.ndarray, np.ndarray]:
    return env.observe("hero_0")["observation"], env.observe("dm")["observation"]


def test_undetected_traps_leave_no_trace_for_heroes():
    env = dungeon_env.raw_env(adventure="flooded_cellar", heroes=3)
    env.reset(seed=0)
    s, traps = env.game.state, env.game.tables.adventure.traps
    assert traps, "the adventure has traps"
    s.trap_armed[:], s.trap_detected[:] = True, False
    hero_armed, dm_armed = hero_and_dm(env)
    s.trap_armed[:] = False  # as if there were no traps at all
    hero_none, dm_none = hero_and_dm(env)
    assert np.array_equal(hero_armed, hero_none), "a hidden trap changes nothing a hero sees"
    assert not np.array_equal(dm_armed, dm_none)
    hidden = unflatten(dm_armed)["board"][PLANE["trap_hidden"]]
    assert marked(hidden) == {tuple(t.at) for t in traps}, "the DM sees every hidden trap, nothing else"
    s.trap_armed[:], s.trap_detected[0] = True, True  # the heroes find the first one
    x, y = traps[0].at
    s.revealed[env.game.tables.area[env.game.square(x, y)]] = True  # in a room they see
    board = views(env, "hero_0")["board"]
    assert board[PLANE["trap_detected"], y, x] == 1.0 and board[PLANE["trap_detected"]].sum() == 1.0
    assert not board[PLANE["trap_hidden"]].any()


def test_face_down_items_show_no_identity_to_heroes():
    potions = [cid for cid, card in load_items().items() if card.deck == "potions" and card.face_down]
    assert len(potions) >= 2
    seen = {}
    for card_id in potions[:2]:
        env = dungeon_env.raw_env(adventure=ARENA, heroes=3)
        env.reset(seed=0)
        give_item(env.game, 0, card_id, known=False)
        seen[card_id] = hero_and_dm(env)
    (hero_a, dm_a), (hero_b, dm_b) = seen.values()
    assert np.array_equal(hero_a, hero_b), "two different face-down potions look the same to heroes"
    assert not np.array_equal(dm_a, dm_b), "the DM sees which potion it is"
    items = unflatten(hero_a)["own_items"]
    assert items[0, ICOL["present"]] == 1.0 and items[0, ICOL["identified"]] == 0.0
    assert items[0, ICOL["deck_potions"]] == 1.0  # its deck is known
    assert items[0, ICOL["card"]] == 0.0  # its card is not
    assert unflatten(dm_a)["item_table"][:, TCOL["card"]].max() > 0  # the DM's table names it
    env.game.state.item_known[env.game.state.item_holder == 0] = True  # identified
    row = views(env, "hero_0")["own_items"][0]
    assert row[ICOL["identified"]] == 1.0 and row[ICOL["card"]] == ITEM_CARDS.index(card_id) + 1


def test_monsters_in_the_fog_leave_no_trace_for_heroes():
    env = dungeon_env.raw_env(adventure=ARENA, heroes=3)
    env.reset(seed=0)
    game = env.game
    fog = np.flatnonzero(
        ~game.state.revealed[game.tables.area] & (game.state.occupant < 0) & ~game.tables.blockage
    )
    before_hero, before_dm = hero_and_dm(env)
    assert unflatten(before_hero)["combat"][0] == 0.0, "the arena starts with no monster on the board"
    x, y = game.xy(int(fog[len(fog) // 2]))
    m = add_monster(game, "orc", x, y)
    after_hero, after_dm = hero_and_dm(env)
    differs = [
        name
        for name, piece in unflatten(after_hero).items()
        if not np.array_equal(piece, unflatten(before_hero)[name])
    ]
    # combat (a monster on the board) is the rules' public state: it is all that changes
    assert differs == ["combat"], f"a monster in the fog shows in {differs}"
    assert unflatten(after_hero)["combat"][0] == 1.0
    dm = unflatten(after_dm)
    assert dm["board"][PLANE["monsters"], y, x] == 1.0 and dm["figures"][m, FCOL["present"]] == 1.0
    assert not np.array_equal(before_dm, after_dm)
    game.state.revealed[game.tables.area[game.square(x, y)]] = True  # the heroes see its room now
    assert views(env, "hero_0")["board"][PLANE["monsters"], y, x] == 1.0


def test_undiscovered_secret_doors_look_like_walls_to_heroes():
    for name in adventure_names():
        env = dungeon_env.raw_env(adventure=name, heroes=3)
        env.reset(seed=0)
        s, doors = env.game.state, env.game.tables.adventure.doors
        secret = [i for i, d in enumerate(doors) if d.secret and s.door_hidden[i]]
        if secret:
            break
    else:
        pytest.skip("no bundled adventure has a secret door")
    s.revealed[:] = True  # the heroes know every area: only the secret stays secret
    hero, dm = views(env, "hero_0")["board"], views(env, "dm")["board"]
    first = [min(doors[i].a, doors[i].b, key=lambda q: (q[1], q[0])) for i in secret]  # the edge's square
    assert not hero[PLANE["secret_door"]].any()
    assert marked(dm[PLANE["secret_door"]]) == {tuple(q) for q in first}, "the DM sees each secret door"
    door = doors[secret[0]]
    (ax, ay), (bx, by) = sorted([door.a, door.b], key=lambda q: (q[1], q[0]))
    side = "e" if ay == by else "s"
    assert hero[PLANE[f"wall_{side}"], ay, ax] == 1.0 and hero[PLANE[f"door_closed_{side}"], ay, ax] == 0.0
    assert dm[PLANE[f"door_closed_{side}"], ay, ax] == 1.0


def test_heroes_never_get_secret_rolls_or_face_down_identities_in_their_events():
    env = dungeon_env.raw_env(adventure=ARENA, heroes=3)
    env.reset(seed=0)
    game = env.game
    slot = give_item(game, 1, "healing_potion", known=False)
    events = [
        {"type": "roll", "check": "detect_traps", "actor": "hero_0", "dice": [5], "total": 5, "turn": 1},
        {"type": "roll", "check": "jump", "actor": "hero_0", "dice": [3], "total": 3, "turn": 1},
        {"type": "draw", "deck": "potions", "item": slot, "card": "healing_potion", "turn": 1},
        {"type": "move", "unit": "m7", "from": [20, 20], "to": [20, 21], "turn": 1},
    ]
    view = hero_view(game, events)
    assert view[0] is None and view[1] == events[1] and view[3] is None
    assert view[2]["card"] is None and view[2]["item"] == slot
    assert [e["type"] for e in hero_events(game, events)] == ["roll", "draw"]


def test_infos_hand_each_agent_the_events_since_its_last_step():
    env = dungeon_env.raw_env(adventure="flooded_cellar", heroes=3, max_turns=20, info_events=True)
    env.reset(seed=6)
    assert env.infos[env.agent_selection]["events"][0]["type"] == "setup"
    rng = random.Random(6)
    dm_log = []  # the DM's infos, one after the other: its view of the whole log
    while env.agents:
        agent = env.agent_selection
        info = env.infos[agent]
        if agent != "dm":
            assert not any(e["type"] == "roll" and e["check"] == "detect_traps" for e in info["events"])
        else:
            dm_log += info["events"]
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    events = env.game.events
    assert any(e["type"] == "roll" and e["check"] == "detect_traps" for e in events), (
        "the game has secret rolls for the heroes' infos to leave out"
    )
    assert dm_log == dm_events(events), "the DM's infos hand it each event it may know once, in order"
    assert env.game.outcome == "truncated"  # seed 6 plays to the turn cap
    assert not [e for e in events if e["type"] in ("exit", "death")]  # no hero left the board...
    assert env.game.state.unit_status[:3].tolist() == [ACTIVE] * 3  # ...so all three are still on it
