"""The core's port of engine/traps.py against the Python module (core_parity.shadow): springing,
the Detect Traps rolls, room detection and disarming where the engine does them in random games
over every adventure, and detection from every hero of the positions reached."""

from __future__ import annotations

import random

from shadow_play import Shadows, games

from dungeon_env import _core
from dungeon_env.engine import decisions, traps
from dungeon_env.engine.actions import Decision
from dungeon_env.engine.state import ACTIVE

core = _core.rules.traps

HOOKS = ("on_enter", "spring", "detect_traps", "room_detect", "disarm_actions")


def _note(name):
    if name == "spring":
        return lambda g, args, result: f"spring:hazard={args[2]}"
    if name == "disarm_actions":
        return lambda g, args, result: "disarm offered" if result else None
    if name == "detect_traps":
        return lambda g, args, result: "detect_traps"
    return None


def test_traps_match_python_where_the_engine_springs_detects_and_disarms_them(monkeypatch):
    shadows = Shadows(budget=250)
    for name in HOOKS:
        monkeypatch.setattr(
            traps, name, shadows.wrap(name, getattr(traps, name), getattr(core, name), _note(name))
        )
    monkeypatch.setitem(
        decisions.HANDLERS,
        Decision.DISARM,
        (
            shadows.wrap("legal_disarm", traps.legal_disarm, core.legal_disarm),
            shadows.wrap(
                "do_disarm", traps.do_disarm, core.do_disarm, lambda g, args, r: f"disarm:{args[3]}"
            ),
        ),
    )
    for _ in games(30, max_turns=30):
        pass
    assert not shadows.failures, shadows.report()
    for name in ("on_enter", "spring", "detect_traps", "disarm_actions", "legal_disarm", "do_disarm"):
        assert shadows.calls[name] > 0, name
    assert shadows.cases["disarm offered"] > 0


def test_detection_from_every_hero_matches_python_on_random_positions():
    """Positions of random games, as they are and with every armed trap hidden again (as at set-up):
    Detect Traps from each hero at every reach, the room text's roll, the phase's rolls."""
    shadows = Shadows(budget=10**6)
    pick = random.Random(3)
    found = 0
    for game, _ in games(10, max_turns=30, offset=200):
        if pick.random() > 0.008:
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
    assert not shadows.failures, shadows.report()
    assert shadows.calls["detect_from"] >= 50
    assert shadows.calls["room_detect"] >= 20
    assert found >= 20


def test_every_disarm_outcome_matches_python():
    """Heroes of random games standing next to an armed trap: with the trap known to them (as after
    a Detect Traps roll), the DISARM actions offered, and each attempt with a die of every outcome
    (sprung, failed, disarmed), on the position Game.apply gives do_disarm."""
    shadows = Shadows(budget=10**6)
    outcomes = set()
    for game, _ in games(20, max_turns=30, offset=300):
        s = game.state
        if not game.tables.adventure.traps or not s.trap_armed.any() or shadows.calls["do_disarm"] >= 120:
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
    assert not shadows.failures, shadows.report()
    assert shadows.calls["do_disarm"] >= 40
    assert outcomes == {1, 2, 4, 6}
