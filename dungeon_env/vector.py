"""SuperSuit's vector envs of the parallel view for sb3-contrib's ``MaskablePPO``.

SuperSuit makes one vector row per agent per game (``pettingzoo_env_to_vec_env_v1``, then
``concat_vec_envs_v1``); ``MaskablePPO`` asks a vector env for masks with
``env.env_method("action_masks")`` after checking ``env.has_attr("action_masks")``, which SuperSuit's
``ConcatVecEnv`` does not have. ``MaskedVecEnv`` is the Stable-Baselines3 ``VecEnv`` over SuperSuit's
vector env that has them:

```python
import supersuit as ss
from sb3_contrib import MaskablePPO

import dungeon_env
from dungeon_env.vector import MaskedVecEnv

par = dungeon_env.parallel_env(adventure="flooded_cellar", heroes=3, max_turns=30, lockstep=True)
vec = ss.pettingzoo_env_to_vec_env_v1(par)
venv = MaskedVecEnv(ss.concat_vec_envs_v1(vec, 2, num_cpus=0, base_class="stable_baselines3"))
model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, seed=0)
model.learn(10_000)
```

The rule:

- Input: ``concat_vec_envs_v1(...)`` with ``base_class="stable_baselines3"`` or ``"gymnasium"`` (any
  ``num_cpus``) over ``pettingzoo_env_to_vec_env_v1(dungeon_env.parallel_env(..., lockstep=True))``
  (SuperSuit's rows need every agent in every step: ``dungeon_env.parallel``'s ``lockstep``).
- Observations: the vector without the mask (``observation_space`` is the parallel view's
  ``observation`` Box; with ``observation_format="dict"`` the Dict of pieces, for
  ``MultiInputPolicy``). The masks come from the observation's ``action_mask``, or from the infos
  with ``parallel_env(action_mask_in="info")`` (then SuperSuit's observation wrappers, which take a
  ``Box`` only, may sit between: ``dtype_v0``, ``normalize_obs_v0``, ``flatten_v0``...).
- ``action_masks()`` (and ``env_method("action_masks")``) gives one boolean row per vector row:
  the legal actions of the agent the game asks, all False for the other agents of that game (their
  actions are ignored; ``MaskablePPO`` gives an all-False row a uniform distribution with no
  gradient, so those rows train the value function only).
- ``step_wait`` returns SB3's ``dones``; a finished game restarts at once (SuperSuit), its rows' infos
  hold ``terminal_observation`` (without the mask) and ``TimeLimit.truncated`` (True when the game
  was truncated, so SB3 bootstraps the value of the last observation).
- ``seed(seed)`` seeds the next ``reset``: game ``i`` gets ``seed + i`` (SuperSuit's ``ConcatVecEnv``
  rule); later games of each copy continue reproducibly from its seed.

Stable-Baselines3 and SuperSuit are optional (``training`` and ``marl`` extras): they are imported
when ``MaskedVecEnv`` is first used.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dungeon_env._optional import lazy_class

MASK_KEY = "action_mask"


class _MaskedVec:
    """The methods of ``MaskedVecEnv`` (which also derives from SB3's ``VecEnv``, imported when it
    is first used); the rule: the module docstring."""

    def __init__(self, venv: Any) -> None:
        from gymnasium import spaces
        from supersuit.vector.sb3_vector_wrapper import SB3VecEnvWrapper

        self.supersuit_env = venv.venv if isinstance(venv, SB3VecEnvWrapper) else venv
        space = self.supersuit_env.observation_space
        self._mask_in_obs = isinstance(space, spaces.Dict) and MASK_KEY in space.spaces
        if self._mask_in_obs:
            rest = {k: v for k, v in space.spaces.items() if k != MASK_KEY}
            space = rest["observation"] if set(rest) == {"observation"} else spaces.Dict(rest)
        self._render_mode = getattr(self.supersuit_env, "render_mode", None)
        self._seed: int | None = None
        self._masks = np.zeros((0, 0), dtype=bool)
        super().__init__(self.supersuit_env.num_envs, space, self.supersuit_env.action_space)

    def _split(self, obs: Any) -> Any:
        if not self._mask_in_obs:
            return obs
        rest = {k: v for k, v in obs.items() if k != MASK_KEY}
        return rest["observation"] if set(rest) == {"observation"} else rest

    def _keep_masks(self, obs: Any, infos: list[dict]) -> None:
        if self._mask_in_obs:
            masks = obs[MASK_KEY]
        else:
            missing = [i for i, info in enumerate(infos) if MASK_KEY not in info]
            if missing:
                raise ValueError(
                    "MaskedVecEnv finds no action mask: the observation has no 'action_mask' and the "
                    f"infos of rows {missing[:5]} have none; make the parallel view with "
                    "action_mask_in='observation' (the default) or 'info'"
                )
            masks = np.stack([info[MASK_KEY] for info in infos])
        self._masks = np.asarray(masks).astype(bool)

    def reset(self):
        obs, infos = self.supersuit_env.reset(seed=self._seed)
        self._seed = None
        if hasattr(self.supersuit_env, "idx_starts"):  # SuperSuit 3.11's ProcConcatVec (num_cpus > 0)
            from supersuit.vector.multiproc_vec import decompress_info  # returns its reset infos packed

            infos = decompress_info(self.num_envs, self.supersuit_env.idx_starts, infos)
        self.reset_infos = list(infos)
        self._keep_masks(obs, infos)
        return self._split(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self.supersuit_env.step_async(actions)

    def step_wait(self):
        obs, rewards, terminations, truncations, infos = self.supersuit_env.step_wait()
        terminations = np.asarray(terminations, dtype=bool)
        truncations = np.asarray(truncations, dtype=bool)
        dones = terminations | truncations
        infos = [dict(info) for info in infos]
        for i in np.flatnonzero(dones):
            info = infos[i]
            info["TimeLimit.truncated"] = bool(truncations[i] and not terminations[i])
            if "terminal_observation" in info:
                info["terminal_observation"] = self._split(info["terminal_observation"])
        self._keep_masks(obs, infos)
        return self._split(obs), np.asarray(rewards, dtype=np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """One row per vector row: the legal actions of the agent asked, all False elsewhere."""
        return self._masks.copy()

    def seed(self, seed: int | None = None) -> list[int | None]:
        self._seed = seed
        return [None if seed is None else seed + i for i in range(self.num_envs)]

    def has_attr(self, attr_name: str) -> bool:
        return attr_name in ("action_masks", "render_mode")

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        if attr_name == "render_mode":
            return [self._render_mode] * len(list(self._get_indices(indices)))
        raise AttributeError(f"MaskedVecEnv rows have no attribute {attr_name!r} (only action_masks)")

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        raise AttributeError(f"MaskedVecEnv cannot set {attr_name!r} on SuperSuit's rows")

    def env_method(self, method_name: str, *args: Any, indices=None, **kwargs: Any) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(f"MaskedVecEnv rows have no method {method_name!r} (only action_masks)")
        return [self._masks[i].copy() for i in list(self._get_indices(indices))]

    def env_is_wrapped(self, wrapper_class: type, indices=None) -> list[bool]:
        return [False] * len(list(self._get_indices(indices)))

    def render(self, mode: str | None = None):
        return self.supersuit_env.render()

    def close(self) -> None:
        self.supersuit_env.close()


def __getattr__(name: str):
    if name == "MaskedVecEnv":  # built once, on first use, so that SB3 stays optional
        return lazy_class(
            __name__,
            name,
            _MaskedVec,
            "stable_baselines3.common.vec_env:VecEnv",
            "stable-baselines3 and supersuit: pip install 'dungeon_env[training,marl]'",
            "SuperSuit's vector env with ``action_masks`` for MaskablePPO (``dungeon_env.vector``).",
        )
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["MaskedVecEnv"]  # noqa: F822 (built on first use)
