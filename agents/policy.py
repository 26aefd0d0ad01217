"""``PolicyAgent``: plays a trained MaskablePPO checkpoint (sb3-contrib) with the action mask.

``PolicyAgent(path=None, role="heroes" | "dm", deterministic=True)`` loads ``path`` (a ``.zip``
saved by ``MaskablePPO.save``); ``path=None`` loads the bundled default for the role,
``agents/policies/<role>.zip``. It needs only the observation vector and the mask, so it works as a
``RoleEnv`` opponent or in an AEC loop as it is. The model is loaded on the CPU at first use.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

POLICY_DIR = Path(__file__).parent / "policies"
ROLES = ("heroes", "dm")


def default_path(role: str) -> Path:
    return POLICY_DIR / f"{role}.zip"


class PolicyAgent:
    """A trained MaskablePPO policy behind ``act(observation, action_mask) -> int``."""

    def __init__(self, path: str | Path | None = None, role: str = "heroes", deterministic: bool = True):
        if role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, got {role!r}")
        self.role = role
        self.path = Path(path) if path is not None else default_path(role)
        self.deterministic = deterministic
        if not self.path.exists():
            hint = (
                "no bundled policy has been trained yet; train one with the scripts in training/ "
                "(MaskablePPO on dungeon_env.wrappers.RoleEnv) and save it there, or pass path=..."
                if path is None
                else "pass the path of a checkpoint saved by MaskablePPO.save"
            )
            raise FileNotFoundError(f"policy checkpoint for role {role!r} not found: {self.path} ({hint})")
        self._model = None

    @property
    def model(self):
        if self._model is None:
            try:
                from sb3_contrib import MaskablePPO
            except ImportError as err:  # pragma: no cover - depends on the install
                raise ImportError(
                    "PolicyAgent needs sb3-contrib and torch: "
                    "pip install torch, then pip install -e '.[training]'"
                ) from err
            self._model = MaskablePPO.load(str(self.path), device="cpu")
        return self._model

    def act(self, observation, action_mask=None) -> int:
        if isinstance(observation, dict):
            if action_mask is None:
                action_mask = observation["action_mask"]
            observation = observation["observation"]
        mask = np.asarray(action_mask).astype(bool)
        action, _ = self.model.predict(
            np.asarray(observation, np.float32), action_masks=mask, deterministic=self.deterministic
        )
        action = int(action)
        if not mask[action]:  # cannot happen with a masked policy; kept as a guard
            action = int(np.flatnonzero(mask)[0])
        return action


__all__ = ["POLICY_DIR", "PolicyAgent", "default_path"]
