"""The compiled core (``dungeon_env._core``, C++ in ``src/core``, docs/CORE.md) as the engine uses it.

The rules move into the core one piece at a time; each piece keeps its Python version as the
reference its parity tests compare against, until the whole engine runs on the core. This module
imports the extension (with an error that says how to build it) and hands it the adventure's static
tables once per adventure (memoised in ``Tables.cache``).
"""

from __future__ import annotations

import numpy as np

from dungeon_env.content.model import WIDTH

try:
    import dungeon_env._core as _core
except ImportError as error:  # pragma: no cover - a broken install, not a code path
    raise ImportError(
        "dungeon_env's compiled core (dungeon_env._core) is not built in this environment: install the "
        "package with `pip install -e .` (it needs a C++ compiler and CMake; `make test` installs both), "
        f"then import again. The import failed with: {error}"
    ) from error


UNREACHABLE = _core.UNREACHABLE  # the distance of a square no search reaches (tables.UNREACHABLE)


def board(tables) -> _core.Board:
    """The core's copy of the adventure's static board, from its ``tables.Tables`` (built once per
    adventure; this module sits below ``tables``, so it reads the tables without importing them)."""
    found = tables.cache.get("core.board")
    if found is None:
        sides = np.asarray(tables.sides, dtype=np.int32)  # [sq, d, (neighbour, door)]
        traps = [y * WIDTH + x for x, y in (trap.at for trap in tables.adventure.traps)]
        found = tables.cache["core.board"] = _core.Board(
            np.ascontiguousarray(sides[:, :, 0]),
            np.ascontiguousarray(sides[:, :, 1]),
            np.ascontiguousarray(tables.furniture, dtype=bool),
            np.ascontiguousarray(tables.blockage, dtype=bool),
            np.asarray(traps, dtype=np.int32),
        )
    return found


def distances(
    tables, door_open: np.ndarray, sources, limit: int = UNREACHABLE, around: int = -1, blank=None
) -> tuple[int, ...]:
    """Walking distance from the nearest of ``sources`` to every square, one step at a time through
    passages with no door or an open one (``door_open``); a square never reached is UNREACHABLE.

    ``blank`` (an int32 array, one entry per square) says where the search may walk: UNREACHABLE
    there, negative where it may not (a source counts 0 even there). Squares farther than ``limit``
    are not reached; with ``around`` a square, the limit counts from the depth at which that square
    is reached."""
    return _core.distances(board(tables), door_open, blank, list(sources), limit, around)


def costs(tables, door_passable: np.ndarray, cost: list[int], targets, inf: int) -> list[int]:
    """The cheapest way from every square to the nearest of ``targets``, where walking into square
    ``q`` costs ``cost[q]`` (at least 1; ``inf`` or more: reached but never walked through),
    through passages whose door is absent or ``door_passable``; a square never reached holds ``inf``."""
    return _core.costs(board(tables), door_passable, cost, list(targets), inf)


def content(game, fresh: bool = False) -> _core.Content:
    """The core's copy of what never changes in ``game``: its tables, adventure, cards and rules
    (built once per adventure and variant, memoised in ``Tables.cache``; ``fresh``: built anew from
    the game's own cards, for a game whose cards were changed by hand)."""
    if fresh:
        return _core.make_content(game, board(game.tables))
    key = ("core.content", game.variant)
    found = game.tables.cache.get(key)
    if found is None:
        found = game.tables.cache[key] = _core.make_content(game, board(game.tables))
    return found


def engine(game) -> _core.Engine:
    """A core engine playing on from ``game``'s state, dice and event log (copied: the two then play
    apart)."""
    if game.engine == "core":  # a game on the core: a copy of its engine, with its hand edits
        game.state_edited()
        return game._engine.copy()
    return _core.make_engine(
        content(game), game.state, game.dice, game.max_turns, list(game.hero_ids), game.events_since(0)
    )


def set_up(game, forced_dice: tuple[int, ...] = (), carried=None) -> _core.Engine:
    """A core engine with ``game``'s adventure set up in the core (``Game.new``'s set-up: the heroes of
    ``game.hero_ids`` on their start squares, the decks shuffled, ``carried`` handed over, the first
    look) and played up to its first decision, with ``game``'s seed, dice streams and turn cap, and
    ``forced_dice`` queued first. ``game`` only lends its content: its own state is not read."""
    return _core.new_engine(
        content(game),
        list(game.hero_ids),
        game.seed,
        game.dice._state,
        list(forced_dice),
        game.max_turns,
        carried,
    )
