"""The compiled core (``dungeon_env._core``, C++ in ``src/core``, docs/CORE.md) as the engine uses it.

The rules move into the core one piece at a time; each piece keeps its Python version as the
reference its parity tests compare against, until the whole engine runs on the core. This module
imports the extension (with an error that says how to build it) and hands it the adventure's static
tables once per adventure (memoised in ``Tables.cache``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from dungeon_env.engine.tables import square

if TYPE_CHECKING:
    from dungeon_env.engine.tables import Tables

try:
    import dungeon_env._core as _core
except ImportError as error:  # pragma: no cover - a broken install, not a code path
    raise ImportError(
        "dungeon_env's compiled core (dungeon_env._core) is not built in this environment: install the "
        "package with `pip install -e .` (it needs a C++ compiler and CMake; `make test` installs both), "
        f"then import again. The import failed with: {error}"
    ) from error


def board(tables: Tables) -> _core.Board:
    """The core's copy of the adventure's static board (built once per adventure)."""
    found = tables.cache.get("core.board")
    if found is None:
        sides = np.asarray(tables.sides, dtype=np.int32)  # [sq, d, (neighbour, door)]
        traps = [square(*trap.at) for trap in tables.adventure.traps]
        found = tables.cache["core.board"] = _core.Board(
            np.ascontiguousarray(sides[:, :, 0]),
            np.ascontiguousarray(sides[:, :, 1]),
            ~(tables.furniture | tables.blockage),
            np.ascontiguousarray(tables.blockage, dtype=bool),
            np.asarray(traps, dtype=np.int32),
        )
    return found
