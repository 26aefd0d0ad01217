"""The core's port of engine/traps.py against the Python module (core_parity.shadow): springing,
the Detect Traps rolls, room detection and disarming where the engine does them in random games
over every adventure, and detection from every hero of the positions reached."""

from __future__ import annotations

import random

from dungeon_env import _core
from dungeon_env.engine import traps
from dungeon_env.engine.state import ACTIVE
from tests.core_shadow import Shadows, play, play_out

core = _core.rules.traps

HOOKS = ("on_enter", "spring", "detect_traps", "room_detect", "disarm_actions")


CASES = {
    "spring": lambda g, *args: f"hazard={args[1]}",
    "do_disarm": lambda g, h, a, b, action: action,
}


def test_traps_match_python_where_the_engine_springs_detects_and_disarms_them(monkeypatch):
    shadows = Shadows(budget=100)
    original = {}
    cases = {**CASES, "disarm_actions": lambda g, h: bool(original["disarm_actions"](g, h))}  # offered?
    for name in (*HOOKS, "legal_disarm", "do_disarm"):
        original[name] = shadows.hook(monkeypatch, traps, name, getattr(core, name), case=cases.get(name))
    called = dict(on_enter=1, spring=1, detect_traps=1, disarm_actions=1, legal_disarm=1, do_disarm=1)

    def done():
        return shadows.reached(**called) and shadows.cases["disarm_actions", True] > 0

    play_out(range(40), max_turns=30, until=done)
    shadows.check(**called)
    assert done(), (shadows.calls, shadows.cases)


def test_detection_from_every_hero_matches_python_on_random_positions():
    """Positions of random games, as they are and with every armed trap hidden again (as at set-up):
    Detect Traps from each hero at every reach, the room text's roll, the phase's rolls."""
    shadows = Shadows(budget=10**6)
    pick = random.Random(3)
    found = 0
    enough = lambda: shadows.reached(detect_from=50, room_detect=20) and found >= 20  # noqa: E731
    for game, action in play(range(200, 210), max_turns=30, until=enough):
        if action is None or pick.random() > 0.03:
            continue
        s = game.state
        heroes = [h for h in range(s.n_heroes) if s.unit_status[h] == ACTIVE]
        for h in heroes:
            shadows.compare("disarm_actions", game, traps.disarm_actions, core.disarm_actions, h)
        hidden = game.copy()
        hidden.state.trap_detected[hidden.state.trap_armed] = False
        for position in (game, hidden):
            for h in heroes:
                limit = pick.randint(-1, 9)
                found += bool(traps.detect_from(position, h, limit))
                shadows.compare("detect_from", position, traps.detect_from, core.detect_from, h, limit)
                if game.tables.adventure.traps:
                    trap = pick.choice(game.tables.adventure.traps)
                    area = int(game.tables.area[game.square(*trap.at)])
                    shadows.compare("room_detect", position, traps.room_detect, core.room_detect, h, area)
            shadows.compare("detect_traps", position, traps.detect_traps, core.detect_traps)
    shadows.check(detect_from=50, room_detect=20)
    assert found >= 20


def test_every_disarm_outcome_matches_python():
    """Heroes of random games standing next to an armed trap: with the trap known to them (as after
    a Detect Traps roll), the DISARM actions offered, and each attempt with a die of every outcome
    (sprung, failed, disarmed), on the position Game.apply gives do_disarm."""
    shadows = Shadows(budget=10**6)
    outcomes = set()
    for game, _ in play(range(300, 320), max_turns=30):
        s = game.state
        if len(outcomes) == 4 and shadows.calls["do_disarm"] >= 60:
            break
        if not game.tables.adventure.traps or not s.trap_armed.any():
            continue
        twin = game.copy()
        twin.state.trap_detected[:] = twin.state.trap_armed
        twin.state.disarm_tried[:] = False
        for h in range(s.n_heroes):
            acts = traps.disarm_actions(twin, h)
            if not acts:
                continue
            shadows.compare("legal_disarm", twin, traps.legal_disarm, core.legal_disarm, h, -1, -1)
            for face in (1, 2, 4, 6):
                attempt = twin.copy()
                attempt.dice.force(face, stream="traps")
                for action in acts:
                    shadows.compare("do_disarm", attempt, traps.do_disarm, core.do_disarm, h, -1, -1, action)
                outcomes.add(face)
    shadows.check(do_disarm=40)
    assert outcomes == {1, 2, 4, 6}
