"""``AdvisedRoleEnv``: a ``RoleEnv`` whose observations are advised (``agents.advised``): the compact
observation plus the one-hot of the action the side's scripted agent would take. Train an
``agents.advised_policy.AdvisedPolicy`` on it; ``agents.PolicyAgent`` plays the result."""

from __future__ import annotations

import gymnasium
import numpy as np

from agents.advised import ADVISED_HIGH, ADVISED_SIZE, AdvisedObserver
from dungeon_env.wrappers import RoleEnv


class AdvisedRoleEnv(gymnasium.Wrapper):
    """``RoleEnv`` with advised observations; actions, rewards, masks and infos are the RoleEnv's."""

    def __init__(self, env: RoleEnv) -> None:
        super().__init__(env)
        self.observer = AdvisedObserver(env.role)
        self.observation_space = gymnasium.spaces.Box(0.0, ADVISED_HIGH, (ADVISED_SIZE,), np.float32)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        self.observer.seed(int(self.env.np_random.integers(0, 2**62)))
        return self._advise(obs), info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._advise(obs), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()

    def _advise(self, flat: np.ndarray) -> np.ndarray:
        inner = self.env.unwrapped.env  # the raw PettingZoo env
        return self.observer.from_flat(flat, inner.game if inner.agents else None)


__all__ = ["AdvisedRoleEnv"]
