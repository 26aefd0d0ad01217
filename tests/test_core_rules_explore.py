"""The core's port of engine/explore.py against the Python module (docs/CORE.md).

The Explore phase's opening and continuation, its decisions (explore or stay, event choices, item
claims), room events, trait checks, ambushes and secret doors are run by both engines at the moment
random games over every adventure call them (``core_parity.shadow``): the same events, dice, state
and returned values.
"""

from __future__ import annotations

from dungeon_env import _core
from dungeon_env.content import adventure_names
from dungeon_env.engine import Game, explore
from tests.core_shadow import Shadows, play_out, reference_game, same

core = _core.rules.explore


def _option_index(g, e, option, h):  # the core binding takes the option's index
    return e, g.tables.adventure.events[e].options.index(option), h


def test_the_explore_phase_matches_python(monkeypatch):
    shadows = Shadows(budget=60)
    kind_of = lambda g, e: g.tables.adventure.events[e].kind  # noqa: E731
    shadows.hook(monkeypatch, explore, "fire_event", core.fire_event, case=kind_of)
    for name in (
        "affected",
        "trait_check",
        "spawn_event_monsters",
        "reveal_door",
        "area_order",
        # the phase's hooks in the turn's tables, and the decisions it owns
        "begin_explore",
        "resume_explore",
        "legal_explore_choice",
        "do_explore_choice",
        "legal_event_choice",
        "do_event_choice",
        "legal_claim",
        "do_claim",
    ):
        shadows.hook(monkeypatch, explore, name, getattr(core, name))
    shadows.hook(
        monkeypatch,
        explore,
        "resolve_option",
        core.resolve_option,
        args=_option_index,
        python_call=lambda t, e, k, h: explore.resolve_option(
            t, e, t.tables.adventure.events[e].options[k], h
        ),
    )
    called = dict(trait_check=1, resolve_option=1, do_event_choice=1, do_claim=1)
    calls = shadows.calls

    def done():
        kinds = shadows.cases_of("fire_event").keys() >= {"item", "check", "choice", "ambush"}
        full = calls["begin_explore"] == calls["resume_explore"] == calls["do_explore_choice"] == 60
        return kinds and full and shadows.reached(**called)

    play_out(range(200, 230), max_turns=40, bold=True, until=done)
    shadows.check(**called)
    assert done(), (calls, shadows.cases)


def _placed(adventure: str, e: int, on_spawn: bool) -> Game:
    """A new game with every hero moved into event ``e``'s area, exploring; with ``on_spawn`` the
    first hero stands on the event's first monster square (an ambush then looks for the nearest
    free square)."""
    game = reference_game(adventure=adventure, heroes=["orwin", "bram", "sela", "maelis"], seed=e)
    s, t = game.state, game.tables
    event = t.adventure.events[e]
    area = t.board.area_names.index(event.area)
    free = [
        int(q) for q in t.area_squares[area] if s.occupant[q] < 0 and not t.furniture[q] and not t.blockage[q]
    ]
    if on_spawn and event.at:
        spot = game.square(*event.at[0])
        free = [spot] + [q for q in free if q != spot]
    for h in range(s.n_heroes):
        s.occupant[s.unit_pos[h]] = -1
        s.unit_pos[h] = free[h]
        s.occupant[free[h]] = h
        s.exploring[h] = True
    game.state_edited()
    return game


def test_every_room_event_of_every_adventure_fires_as_in_python():
    kinds: set[str] = set()
    for adventure in adventure_names():
        for e, event in enumerate(reference_game(adventure=adventure, heroes=3).tables.adventure.events):
            for on_spawn in (False, True) if event.kind == "ambush" else (False,):
                game = _placed(adventure, e, on_spawn)
                same(
                    game,
                    lambda g, e=e: explore.fire_event(g, e),
                    lambda en, e=e: core.fire_event(en, e),
                    f"{adventure} event {e} ({event.kind})",
                )
                kinds.add(event.kind)
    assert kinds == {"effect", "check", "choice", "item", "detect", "ambush", "secret"}, kinds
