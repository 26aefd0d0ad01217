"""Scripted heroes v2: the v1 script (``agents.scripted_heroes``) with the party's play of a good
player, every threshold and weight read from the tuned :class:`agents.scripted_params.HeroParams`.

See ``ScriptedHeroesV2`` for what changes from v1.
"""

from __future__ import annotations

from agents.scripted_heroes import ScriptedHeroes
from agents.scripted_params import HeroParams, shipped_v2
from dungeon_env.engine import Game


class ScriptedHeroesV2(ScriptedHeroes):
    """Plays every hero's decisions as v1 does, but as a party (see the module docstring).
    ``params``: the knobs (default: the tuned set shipped, ``scripted_params.shipped_v2``)."""

    def __init__(
        self, game: Game | None = None, env=None, seed: int | None = None, params: HeroParams | None = None
    ) -> None:
        super().__init__(
            game=game, env=env, seed=seed, params=shipped_v2().heroes if params is None else params
        )


__all__ = ["ScriptedHeroesV2"]
