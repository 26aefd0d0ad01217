"""Small MaskablePPO checkpoints for tests (they need the ``training`` extra: sb3-contrib and torch).

- ``tiny_checkpoint(path, role)``: an untrained policy of today's observation and action table, for
  ``role``'s ``RoleEnv``: it plays, and unlike the scripted agents;
- ``checkpoint_of_size(path, size, n_actions)``: a policy of a flat observation of ``size`` floats
  over ``n_actions`` actions, as a checkpoint trained on another layout would be.
"""

from __future__ import annotations

from pathlib import Path

import gymnasium
import numpy as np


def tiny_checkpoint(path: Path, role: str = "heroes", adventure: str = "flooded_cellar") -> Path:
    from sb3_contrib import MaskablePPO

    from dungeon_env.wrappers import RoleEnv

    env = RoleEnv(role=role, opponent="random", adventure=adventure, heroes=3, max_turns=10)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, policy_kwargs={"net_arch": [16]}, seed=0)
    model.save(path)
    return Path(path)


class _Sized(gymnasium.Env):
    def __init__(self, size: int, n_actions: int) -> None:
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, (size,), np.float32)
        self.action_space = gymnasium.spaces.Discrete(n_actions)

    def reset(self, *, seed=None, options=None):
        return np.zeros(self.observation_space.shape, np.float32), {}

    def step(self, action):
        return np.zeros(self.observation_space.shape, np.float32), 0.0, True, False, {}


def checkpoint_of_size(path: Path, size: int, n_actions: int) -> Path:
    from sb3_contrib import MaskablePPO

    model = MaskablePPO(
        "MlpPolicy", _Sized(size, n_actions), n_steps=8, batch_size=8, policy_kwargs={"net_arch": [8]}, seed=0
    )
    model.save(path)
    return Path(path)
