"""Both scripted agents v2 playing a game on in compiled code (``src/agents/scripted_play.cpp``).

``ScriptedHeroesV2`` and ``ScriptedDMV2`` each choose in compiled code on a game on the core; played
against each other through Python, every decision still crosses into Python and back (the agent's
call, ``Game.apply``, the heroes' knowledge folding the new events). ``play_on`` hands the game to
one compiled loop instead, which asks both compiled choices in turn, applies each move and folds the
heroes' lens over its events as ``Game.apply`` and ``side_knowledge`` do, until the game is over or
a stop is reached. It hands back:

- a decision either port leaves to Python (``NOT_PORTED``): the agent's own ``choose`` plays it;
- a hero's decision at a public configuration of the board met for the first time: the heroes'
  view maps of it are made (``sideview.reading_maps``) and kept by its key for the next games.

Then it goes on. The game, its log, both sides' knowledge and both agents' memories are those the
same choices made one at a time through Python leave (``tests/test_scripted_play.py`` plays both
ways side by side). ``dungeon_env.episode.play_episode`` takes this way when both agents offer it
(``compiled_play``) and nothing reads the game between moves.
"""

from __future__ import annotations

import math

from agents._common import ported_as_is
from dungeon_env import _core
from dungeon_env.engine import Game
from dungeon_env.engine.side_knowledge import knowledge_of
from dungeon_env.engine.sideview import DM, HEROES, reading_maps, view_side

OVER, TURN, MOVES, NEED_MAPS, HEROES_LEFT, DM_LEFT, POINT = range(7)  # scripted_play.hpp's Stop
MAPS_KEPT = 512  # state fields whose heroes' view maps are kept per adventure (sideview's memo)


def plays_compiled(heroes, dm, game: Game) -> bool:
    """Whether ``play_on`` can play ``game`` with these agents: the scripted heroes and DM v2 (their
    ``COMPILED_SIDE``; this module is below them: the heroes' ``compiled_play`` calls it), or
    subclasses that override none of the methods the compiled choices replace, on a real game on
    the core whose heroes' knowledge folds on the core's lens."""
    return (
        getattr(heroes, "COMPILED_SIDE", None) == HEROES
        and ported_as_is(type(heroes))
        and getattr(dm, "COMPILED_SIDE", None) == DM
        and ported_as_is(type(dm))
        and game._engine is not None
        and view_side(game) is None
        and isinstance(knowledge_of(game, HEROES).lens, _core.HeroLens)
    )


def play_on(
    game: Game, heroes, dm, stop_turn: int | None = None, points: int = -1, spread: float = math.nan
) -> dict[str, int]:
    """Play ``game`` on with ``heroes`` and ``dm`` (``plays_compiled``) until it is over or the turn
    ``stop_turn`` begins; the decisions each side took (``{"heroes": n, "dm": n}``). ``points``
    (``_core.agents.DM_POINTS``; -1: none): stop too before a monster's Movement that no plan of the DM's
    compiled memory holds for (a search's macro point, ``steps["point"]`` then 1); with ``spread`` (the
    search's), only before one where the search weighs options (``_core.agents.play_scripted``)."""
    steps = {"heroes": 0, "dm": 0}
    known = knowledge_of(game, HEROES)
    dm_known = knowledge_of(game, DM)
    maps = _maps_of(game)
    hero_params, hero_cache = heroes.native_parts()
    dm_params = dm.native_parts()
    while not game.over and (stop_turn is None or int(game.state.turn) < stop_turn):
        known._catch_up()  # (a position set up by hand: what Game.apply's fold would have done)
        stop, n_heroes, n_dm, _first, now, key = _core.agents.play_scripted(
            game.engine_to_move(),
            known.lens,
            known._shown,
            hero_params,
            heroes.intent,
            heroes.relieved,
            heroes.waited,
            hero_cache,
            dm_params,
            dm._native_memory,
            maps,
            -1 if stop_turn is None else stop_turn,
            -1,
            points,
            spread,
        )
        if n_heroes or n_dm:  # what Game.apply and the knowledge's fold leave after each move
            game.engine_moved()
            known._folded = dm_known._folded = now
            known._numbers = None
            steps["heroes"] += n_heroes
            steps["dm"] += n_dm
        if stop == POINT:
            steps["point"] = 1
            break
        if stop == NEED_MAPS:
            if len(maps) >= MAPS_KEPT:
                maps.clear()
            maps[key] = reading_maps(game)
        elif stop in (HEROES_LEFT, DM_LEFT):  # the Python methods play what the port leaves
            side = "dm" if stop == DM_LEFT else "heroes"
            game.apply(int((dm if side == "dm" else heroes).choose(game)))
            steps[side] += 1
    return steps


def _maps_of(game: Game) -> dict:
    """The heroes' view maps of ``game``'s adventure met so far, by public key (kept in its tables'
    cache per variant and catalogue, as ``reading_maps`` keeps each)."""
    key = ("agents.scripted_play.maps", game.variant, len(game.item_cards), len(game.spells))
    return game.tables.cache.setdefault(key, {})


__all__ = ["play_on", "plays_compiled"]
