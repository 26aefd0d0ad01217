"""The core's sight and monster arrival rules (src/core/rules/visibility.cpp, encounters.cpp) against
engine/visibility.py and engine/encounters.py: every call random games make to reveal areas, place
and wake Guards, roll and spawn Patrols, spring Ambushers and roll Surprise, run by both engines on
the same position and compared (events, dice, every state field, the result); and the sight lines
and visible areas of every square on positions random games reach."""

from __future__ import annotations

from dungeon_env import _core
from dungeon_env.engine import board, encounters, units, visibility
from dungeon_env.engine.state import How
from tests.core_shadow import Shadows, engine, play_out, positions, same

V, E = _core.rules.visibility, _core.rules.encounters


def _events(game, call) -> list[str]:
    twin = game.copy()
    call(twin)
    return [ev["type"] for ev in twin.events_since(game.n_events)]


def test_sight_and_arrivals_match_python_in_play(monkeypatch):
    shadows = Shadows(budget=60)
    shadows.hook(monkeypatch, visibility, "look", V.look, case=lambda g, heroes, alert=False: alert)
    shadows.hook(monkeypatch, visibility, "wake_guards", V.wake_guards)
    shadows.hook(
        monkeypatch,
        encounters,
        "encounter",
        E.encounter,
        case=lambda g, group, how, unsurprisable=False: How(how).name,
    )
    for name in ("roll_patrols", "spawn_patrol", "trigger_ambushes"):
        shadows.hook(monkeypatch, encounters, name, getattr(E, name))
    called = dict(look=1, wake_guards=1, encounter=1, roll_patrols=1, spawn_patrol=1, trigger_ambushes=1)

    def done():
        met = shadows.cases_of("encounter").keys() >= {"GUARD", "PATROL", "AMBUSH"}
        return met and shadows.cases["look", True] > 0 and shadows.reached(**called)

    play_out(range(15), max_turns=40, until=done)
    shadows.check(**called)
    assert done(), shadows.cases


def test_patrols_and_surprise_under_variant_rules_match_python(monkeypatch):
    """More Patrols, paused while two are on the board (rules.patrol_board_max), Surprise on 1-3,
    and Light running out (its Surprise penalty)."""
    variant = ["rules.patrol_max=3", "rules.patrol_board_max=2", "rules.surprise_max=3", "light.start=6"]
    shadows = Shadows(budget=60)
    shadows.hook(
        monkeypatch,
        encounters,
        "roll_patrols",
        E.roll_patrols,
        case=lambda g: "paused" if encounters.patrols_paused(g) else "rolls",
    )
    shadows.hook(monkeypatch, encounters, "spawn_patrol", E.spawn_patrol)
    shadows.hook(
        monkeypatch,
        encounters,
        "encounter",
        E.encounter,
        case=lambda g, group, how, unsurprisable=False: "dark" if g.state.light == 0 else "light",
    )

    def done():
        paused = shadows.cases_of("roll_patrols").keys() == {"paused", "rolls"}
        return (
            paused
            and shadows.cases_of("encounter").keys() == {"dark", "light"}
            and shadows.reached(spawn_patrol=1)
        )

    play_out(range(10), max_turns=30, variant=variant, until=done)
    shadows.check(spawn_patrol=1)
    assert done(), shadows.cases


def test_sight_lines_and_visible_areas_match_python():
    seen = {"positions": 0, "blocked": 0, "seen": 0}
    for game in positions(range(5), every=100):
        e = engine(game)
        t = game.tables
        for sq in range(t.n_squares):
            assert V.visible_areas(e, sq) == list(visibility.visible_areas(game, sq)), sq
            for b in range(sq % 13, t.n_squares, 13):
                got = V.sees(e, sq, b)
                assert got == visibility.sees(game, sq, b), (sq, b)
                seen["seen" if got else "blocked"] += 1
        assert E.surprise_lasts_until(e) == encounters.surprise_lasts_until(game)
        assert E.patrols_relevant(e) == encounters.patrols_relevant(game)
        assert E.patrol_monsters_on_board(e) == encounters.patrol_monsters_on_board(game)
        assert E.patrols_paused(e) == encounters.patrols_paused(game)
        seen["positions"] += 1
    assert all(n > 0 for n in seen.values()), seen


def test_arrivals_match_python_where_play_rarely_goes():
    """A Patrol spawned in every corridor, every hero looking round with an alerted door, the
    Ambushers of every area sprung by every hero in turn, Surprise with and without Light."""
    seen = {"patrol": 0, "ambush": 0, "surprise_fail": 0}
    for k, game in enumerate(positions(range(5), every=200, max_turns=30)):
        t, s = game.tables, game.state
        heroes = [h for h in range(s.n_heroes) if s.unit_status[h] == 1]
        for area in range(t.n_areas):
            if t.is_corridor[area] and area % 3 == k % 3:
                same(
                    game,
                    lambda g, a=area: encounters.spawn_patrol(g, a),
                    lambda e, a=area: E.spawn_patrol(e, a),
                )
                seen["patrol"] += "spawn" in _events(game, lambda g, a=area: encounters.spawn_patrol(g, a))
        for h in heroes:
            same(game, lambda g, h=h: visibility.look(g, [h], True), lambda e, h=h: V.look(e, [h], True))
            for sq in [int(q) for q in t.area_squares[(k + h) % t.n_areas] if board.free(game, int(q))][:1]:
                moved = game.copy()
                units.take_off(moved, h)
                units.put(moved, h, sq)
                moved.state.ambush_fired[:] = False
                same(
                    moved,
                    lambda g, h=h: encounters.trigger_ambushes(g, h),
                    lambda e, h=h: E.trigger_ambushes(e, h),
                )
                seen["ambush"] += "spawn" in _events(moved, lambda g, h=h: encounters.trigger_ambushes(g, h))
        if heroes and s.unit_status[s.n_heroes :].any():
            dark = game.copy()
            dark.state.light = 0
            dark.state.casting_spell[heroes[0]] = 0
            monsters = [u for u in range(s.n_heroes, 64) if s.unit_status[u] == 1][:2]
            for how in (How.GUARD, How.AMBUSH):
                same(
                    dark,
                    lambda g, how=how, m=monsters: encounters.encounter(g, m, how),
                    lambda e, how=how, m=monsters: E.encounter(e, m, int(how)),
                )
            seen["surprise_fail"] += "spell_fail" in _events(
                dark, lambda g, m=monsters: encounters.encounter(g, m, How.AMBUSH)
            )
    assert all(n > 0 for n in seen.values()), seen
