"""``PoolAgent``: a self-play opponent drawn from a directory of past checkpoints (spec ``pool:<dir>``).

At every episode (``RoleEnv.reset`` calls ``seed``) it plays one checkpoint drawn uniformly from the
newest ``window`` files ``<side>_*.zip`` of ``pool_dir`` (a :class:`PolicyAgent`, sampling its
actions); ``base`` (an agent; default a :class:`RandomAgent`) plays while the pool is empty, and in a
share ``base_share`` of the episodes when it is not (a league keeps a fixed opponent among the past
checkpoints: ``training.league``). ``also`` (another agent, e.g. a ``SearchAgent``) plays a share
``also_share`` of the episodes, whether the pool is empty or not. ``training.selfplay`` and
``training.league`` fill the pool.

The pool is handed agents, not agent specs: the spec language (``agents.spec``, which imports this
module) reads ``pool:<dir>[base=scripted,also=search,...]`` and builds ``base`` and ``also`` itself.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import RandomAgent
from agents.policy import PolicyAgent


class PoolAgent:
    """Self-play opponent over the checkpoints ``<side>_*.zip`` of ``pool_dir``; see the module docstring."""

    def __init__(
        self,
        pool_dir: str | os.PathLike,
        side: str,
        window: int = 5,
        base: Any = None,
        env: Any = None,
        seed: int | None = None,
        base_share: float = 0.0,
        also: Any = None,
        also_share: float = 0.0,
    ):
        for name, share in (("base_share", base_share), ("also_share", also_share)):
            if not 0.0 <= share <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1, got {share}")
        if also_share > 0 and also is None:
            raise ValueError(
                f"also_share={also_share} needs the agent that plays it: also=<agent>, e.g. a SearchAgent"
            )
        for name, agent in (("base", base), ("also", also)):
            if agent is not None and not callable(getattr(agent, "act", None)):
                raise TypeError(
                    f"a pool's {name} is an agent (act(observation, action_mask) -> int), got {agent!r}; "
                    "agent specs are read by agents.spec (pool:<dir>[base=scripted])"
                )
        self.pool_dir, self.side, self.window, self.env = Path(pool_dir), side, window, None
        self.base_share, self.also_share = base_share, also_share
        self.base = RandomAgent() if base is None else base
        self.also = also
        self.rng = np.random.default_rng()
        self.cache: dict[str, Any] = {}
        self.current: Any = self.base
        if env is not None:
            self.bind(env=env)
        if seed is not None:
            self.seed(seed)

    def bind(self, env: Any = None, game: Any = None) -> PoolAgent:
        """Attach the env (or game) that scripted members read; returns the pool."""
        self.env = env
        for agent in (self.base, self.also, *self.cache.values()):
            if hasattr(agent, "bind"):
                agent.bind(env=env, game=game)
        return self

    def members(self) -> list[Path]:
        return sorted(self.pool_dir.glob(f"{self.side}_*.zip"))[-self.window :]

    def seed(self, seed: int | None) -> None:
        """Draw the member that plays the next episode (reproducibly given ``seed``) and seed it."""
        self.rng = np.random.default_rng(seed)
        members = self.members()
        if self.also is not None and self.also_share > 0 and self.rng.random() < self.also_share:
            self.current = self.also
        elif not members or (self.base_share > 0 and self.rng.random() < self.base_share):
            self.current = self.base
        else:
            path = str(members[int(self.rng.integers(len(members)))])
            if path not in self.cache:
                self.cache = {k: v for k, v in self.cache.items() if k in {str(m) for m in members}}
                # its actions sampled, as the spec language's bare checkpoint path
                self.cache[path] = PolicyAgent(path, role=self.side, deterministic=False, env=self.env)
            self.current = self.cache[path]
        self.current.seed(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.current.act(observation, action_mask)


__all__ = ["PoolAgent"]
