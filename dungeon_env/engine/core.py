"""The compiled core (``dungeon_env._core``, C++ in ``src/core``, docs/CORE.md) as the engine uses it.

The rules move into the core one piece at a time; each piece keeps its Python version as the
reference its parity tests compare against, until the whole engine runs on the core. This module
imports the extension (with an error that says how to build it) and hands it a game's static tables
and cards once per ``Tables`` object (memoised in that tables' ``cache``): the tables of an adventure,
or those of a side view or a determinisation (``sideview``, ``agents.determinise``), which are
objects of their own with their own cache.
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
    """The core's copy of a ``tables.Tables``' static board (built once per tables object; this
    module sits below ``tables``, so it reads the tables without importing them)."""
    found = tables.cache.get("core.board")
    if found is None:
        side_to, side_door, furniture, blockage = board_arrays(tables)
        traps = [y * WIDTH + x for x, y in (trap.at for trap in tables.adventure.traps)]
        found = tables.cache["core.board"] = _core.Board(
            side_to, side_door, furniture, blockage, np.asarray(traps, dtype=np.int32)
        )
    return found


def board_arrays(tables) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The arrays of ``board(tables)`` that depend on the walls, doors, furniture and blockages
    alone (not on the traps): each square's neighbour and door per direction, furniture, blockage.
    Kept in the tables' cache as ``core.board_arrays``, which a determinisation of a side view
    shares with its view (``agents.determinise.SHARED_CACHE``)."""
    found = tables.cache.get("core.board_arrays")
    if found is None:
        sides = np.asarray(tables.sides, dtype=np.int32)  # [sq, d, (neighbour, door)]
        found = tables.cache["core.board_arrays"] = (
            np.ascontiguousarray(sides[:, :, 0]),
            np.ascontiguousarray(sides[:, :, 1]),
            np.ascontiguousarray(tables.furniture, dtype=bool),
            np.ascontiguousarray(tables.blockage, dtype=bool),
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


def sight_lines(v, h, vbit, hbit) -> tuple[np.ndarray, np.ndarray]:
    """``tables.sight_lines``' answer computed in the core (``src/core/sight.cpp``; the reference is
    ``tables._trace_sight_lines``): ``(static, bits)`` for every pair of squares."""
    return _core.sight_lines(v, h, vbit, hbit)


def content(game, fresh: bool = False) -> _core.Content:
    """The core's copy of what never changes in ``game``: its tables, adventure, cards and rules.
    Built once per tables object, variant and catalogue, memoised in ``game.tables.cache``: a real
    game's tables are the adventure's, a side view's or a determinisation's are their own (with
    their own doors, traps, guards and line of sight), so each gets content of its own. ``fresh``:
    built anew from the game's own cards, for a game whose cards were changed by hand."""
    if fresh:
        return _core.make_content(_Source(game), board(game.tables))
    key = ("core.content", game.variant, len(game.item_cards), len(game.spells))
    cache = game.tables.cache
    found = cache.get(key)
    if found is None:
        parent = cache.get(DERIVED_FROM)
        base = parent.cache.get(key) if parent is not None else None
        found = cache[key] = (
            _core.make_content(_Source(game), board(game.tables))
            if base is None
            else _core.derive_content(base, game.tables.adventure, board(game.tables))
        )
    return found


# In a tables' cache: the tables they differ from by their adventure alone (a determinisation's tables
# hold their view's), whose content, once made, gives theirs by a copy (``_core.derive_content``)
DERIVED_FROM = "core.derived_from"


class _Source:
    """What ``_core.make_content`` reads of a game: its cards and rules, and its tables with the line
    of sight as whole arrays (a side view's tables compute theirs a row at a time, when read:
    ``los_arrays()`` gives them whole)."""

    __slots__ = ("game", "tables")

    def __init__(self, game) -> None:
        self.game = game
        t = game.tables
        self.tables = t if isinstance(t.los_static, np.ndarray) else _WholeSight(t)

    def __getattr__(self, name: str):
        return getattr(self.game, name)


class _WholeSight:
    """Tables whose ``los_static`` / ``los_doors`` are read whole (``los_arrays()`` of the lazy
    tables a side view has); every other field is the tables' own."""

    __slots__ = ("_tables", "los_doors", "los_static")

    def __init__(self, tables) -> None:
        self._tables = tables
        self.los_static, self.los_doors = tables.los_static.los_arrays()

    def __getattr__(self, name: str):
        return getattr(self._tables, name)


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


def play_on(game, state) -> None:
    """``game`` (on the core), whose tables were replaced (a determinisation's: more guards and
    traps, another Patrol), plays on with their content and ``state``, a plain ``State`` whose
    arrays sized by the content (``guard_*``, ``trap_*``, ...) fit them: the engine takes both, and
    the game's state, dice and log are the engine's again."""
    eng = game._engine
    eng.set_content(content(game), state)
    game._attach(eng)
