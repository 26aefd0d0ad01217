"""The scripted Dungeon Master v2: the v1 script (``agents.scripted_dm``) with monsters that stop
dithering, every threshold and weight read from the tuned :class:`agents.scripted_params.DMParams`.

See ``ScriptedDMV2`` for what changes from v1.
"""

from __future__ import annotations

from agents.scripted_dm import ScriptedDM
from agents.scripted_params import DMParams, shipped_v2
from dungeon_env.engine import Game


class ScriptedDMV2(ScriptedDM):
    """Plays the DM's decisions as v1 does, with the changes of the module docstring.
    ``params``: the knobs (default: the tuned set shipped, ``scripted_params.shipped_v2``)."""

    def __init__(
        self, game: Game | None = None, env=None, seed: int | None = None, params: DMParams | None = None
    ) -> None:
        super().__init__(game=game, env=env, seed=seed, params=shipped_v2().dm if params is None else params)


__all__ = ["ScriptedDMV2"]
