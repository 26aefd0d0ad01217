"""The core's port of engine/explore.py against the Python module (docs/CORE.md).

The Explore phase's opening and continuation, its decisions (explore or stay, event choices, item
claims), room events, trait checks, ambushes and secret doors are run by both engines at the moment
random games over every adventure call them (``core_parity.shadow``): the same events, dice, state
and returned values.
"""

from __future__ import annotations

from turn_play import Compared, play

from dungeon_env import _core, core_parity
from dungeon_env.content import adventure_names
from dungeon_env.engine import Game, decisions, explore, turn
from dungeon_env.engine.actions import Decision, Phase


def test_the_explore_phase_matches_python(monkeypatch):
    compared = Compared(budget=60)
    core = _core.rules.explore
    kind_of = lambda g, e: "fire_event " + g.tables.adventure.events[e].kind  # noqa: E731
    for name, case in [
        ("fire_event", kind_of),
        ("affected", None),
        ("trait_check", None),
        ("spawn_event_monsters", None),
        ("reveal_door", None),
        ("area_order", None),
    ]:
        monkeypatch.setattr(
            explore, name, compared.wrap(name, getattr(explore, name), getattr(core, name), case)
        )
    original_resolve = explore.resolve_option

    def resolve_option(g, e, option, h):  # the core binding takes the option's index
        k = g.tables.adventure.events[e].options.index(option)
        compared.check(
            g,
            "resolve_option",
            lambda t: original_resolve(t, e, option, h),
            lambda en: core.resolve_option(en, e, k, h),
        )
        return original_resolve(g, e, option, h)

    monkeypatch.setattr(explore, "resolve_option", resolve_option)
    # the phase's hooks in the turn's tables, and the decisions it owns
    monkeypatch.setitem(
        turn._BEGIN, Phase.EXPLORE, compared.wrap("begin", explore.begin_explore, core.begin_explore)
    )
    monkeypatch.setitem(
        turn._RESUME, Phase.EXPLORE, compared.wrap("resume", explore.resume_explore, core.resume_explore)
    )
    for kind, legal, apply in [
        (Decision.EXPLORE_CHOICE, "legal_explore_choice", "do_explore_choice"),
        (Decision.EVENT_CHOICE, "legal_event_choice", "do_event_choice"),
        (Decision.CLAIM_ITEM, "legal_claim", "do_claim"),
    ]:
        monkeypatch.setitem(
            decisions.HANDLERS,
            kind,
            (
                compared.wrap(legal, getattr(explore, legal), getattr(core, legal)),
                compared.wrap(apply, getattr(explore, apply), getattr(core, apply)),
            ),
        )
    play(30, max_turns=40, first_seed=200)
    seen = compared.seen
    assert seen["begin"] == 60 and seen["resume"] == 60 and seen["do_explore_choice"] == 60, seen
    for case in ("fire_event item", "fire_event check", "fire_event choice", "fire_event ambush", "do_claim"):
        assert seen[case] > 0, seen
    assert seen["trait_check"] > 0 and seen["resolve_option"] > 0 and seen["do_event_choice"] > 0, seen


def _placed(adventure: str, e: int, on_spawn: bool) -> Game:
    """A new game with every hero moved into event ``e``'s area, exploring; with ``on_spawn`` the
    first hero stands on the event's first monster square (an ambush then looks for the nearest
    free square)."""
    game = Game.new(adventure=adventure, heroes=["orwin", "bram", "sela", "maelis"], seed=e)
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
    core = _core.rules.explore
    kinds: set[str] = set()
    for adventure in adventure_names():
        for e, event in enumerate(Game.new(adventure=adventure, heroes=3).tables.adventure.events):
            for on_spawn in (False, True) if event.kind == "ambush" else (False,):
                game = _placed(adventure, e, on_spawn)
                diff = core_parity.shadow(
                    game, lambda g, e=e: explore.fire_event(g, e), lambda en, e=e: core.fire_event(en, e)
                )
                assert diff == [], f"{adventure} event {e} ({event.kind}): {diff}"
                kinds.add(event.kind)
    assert kinds == {"effect", "check", "choice", "item", "detect", "ambush", "secret"}, kinds
