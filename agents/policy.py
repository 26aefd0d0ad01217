"""``PolicyAgent``: plays a trained MaskablePPO checkpoint (sb3-contrib) with the action mask.

``PolicyAgent(path, role="heroes" | "dm", deterministic=True, env=None, game=None, seed=None)``
loads ``path`` (a ``.zip`` saved by ``MaskablePPO.save``) on the CPU at first use and plays it
greedily (its most likely legal action), or with ``deterministic=False`` samples among the legal
actions with the agent's own generator (``seed``), never torch's global one. No policy ships with
the package: ``path`` is a checkpoint of one's own (``python -m training.train_role``,
``python -m training.clone``, ``python -m training.league``).

The checkpoint reads today's observation: the env's flat observation, or its dict format (a
checkpoint trained with ``observation_format="dict"``, ``MultiInputPolicy``). ``act(observation,
mask)`` takes either format whatever the checkpoint reads and needs nothing else, so the agent works
as a ``RoleEnv`` opponent or in an AEC loop as it is; ``bind(env=..., game=...)`` is accepted, as by
every agent, and changes nothing. ``choose(game)`` plays from the engine's game alone (it builds the
observation itself), for loops that skip the env.

A checkpoint of another observation size or action table (one trained on an older layout) is
refused with :class:`CheckpointLayoutError` naming its size and today's: the older layouts, and
the translation that played the policies shipped on them, were retired in issue 53.
``check_checkpoint(path)`` checks a flat checkpoint's observation size and its action table from
the file's saved spaces without torch, so a tool can refuse such a file before it plays a game
(``agents.spec`` does); a dict checkpoint's pieces are checked when it is loaded.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import gymnasium
import numpy as np

from dungeon_env.engine.actions import N_ACTIONS
from dungeon_env.observation import DICT_PIECES, DM, HERO, OBS_SPEC, as_dict, as_flat, dict_high

ROLES = ("heroes", "dm")
RETIRED_LAYOUTS = "the older observation layouts were retired in issue 53"


class CheckpointLayoutError(ValueError):
    """A checkpoint trained on an observation or action table that is not today's."""


def _size_error(path: Path, size: int) -> CheckpointLayoutError:
    return CheckpointLayoutError(
        f"{path.name} reads observations of {size} floats; today's observation has {OBS_SPEC.size} "
        f"({RETIRED_LAYOUTS}, with the policies shipped on them): train or clone a policy on today's "
        "observation (python -m training.train_role, python -m training.clone)"
    )


def _actions_error(path: Path, n: int) -> CheckpointLayoutError:
    return CheckpointLayoutError(
        f"{path.name} chooses among {n} actions; today's action table has {N_ACTIONS} "
        f"({RETIRED_LAYOUTS}, with their action tables): train or clone a policy on today's env"
    )


def _check_dict_space(space, path: Path) -> None:
    """A dict checkpoint must read today's pieces, each of today's size."""
    high = dict_high()
    sizes = {k: int(np.prod(v.shape)) for k, v in space.spaces.items()}
    wanted = {k: int(high[k].size) for k in DICT_PIECES}
    if sizes != wanted:
        raise CheckpointLayoutError(
            f"{path.name} reads a dict observation with the pieces {sizes}; today's dict format has "
            f"{wanted} ({RETIRED_LAYOUTS})"
        )


def _check_spaces(observation_space, action_space, path: Path) -> bool:
    """Whether the checkpoint reads the dict format; CheckpointLayoutError if its spaces are not
    today's."""
    reads_dict = isinstance(observation_space, gymnasium.spaces.Dict)
    if reads_dict:
        _check_dict_space(observation_space, path)
    else:
        size = int(np.prod(observation_space.shape))
        if size != OBS_SPEC.size:
            raise _size_error(path, size)
    n = getattr(action_space, "n", None)
    if n is not None and int(n) != N_ACTIONS:
        raise _actions_error(path, int(n))
    return reads_dict


def check_checkpoint(path: str | Path) -> None:
    """CheckpointLayoutError if the checkpoint at ``path`` reads a flat observation of another size
    than today's, or chooses among another number of actions, as its saved spaces say (read from the
    file's ``data`` record, without torch). A file whose record cannot be read, or a dict checkpoint,
    passes here: loading it (``PolicyAgent.model``) checks it in full."""
    path = Path(path)
    try:
        with zipfile.ZipFile(path) as archive:
            data = json.loads(archive.read("data"))
        observation, action = data["observation_space"], data.get("action_space", {})
    except (OSError, KeyError, ValueError, zipfile.BadZipFile, TypeError):
        return
    if "Box" in str(observation.get(":type:", "")) and isinstance(observation.get("_shape"), list):
        size = int(np.prod(observation["_shape"]))
        if size != OBS_SPEC.size:
            raise _size_error(path, size)
    n = str(action.get("n", "")).strip()
    if n.isdigit() and int(n) != N_ACTIONS:  # SB3 writes a Discrete space's n as text
        raise _actions_error(path, int(n))


def _role_of(agent: str) -> tuple[int, int]:
    """The observation role and hero index of a PettingZoo agent name (``hero_2`` -> (HERO, 2))."""
    if agent == "dm":
        return DM, -1
    if agent.startswith("hero_") and agent[5:].isdigit():
        return HERO, int(agent[5:])
    raise ValueError(f"unknown agent {agent!r}: expected 'dm' or 'hero_<k>'")


class PolicyAgent:
    """A trained MaskablePPO policy behind ``act(observation, action_mask) -> int``."""

    def __init__(
        self,
        path: str | Path,
        role: str = "heroes",
        deterministic: bool | None = True,
        env=None,
        game=None,
        seed: int | None = None,
    ):
        if role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, got {role!r}")
        if path is None:
            raise TypeError(
                "PolicyAgent needs the path of a checkpoint saved by MaskablePPO.save; no policy ships "
                "with the package"
            )
        self.role = role
        self.path = Path(path)
        self.deterministic = True if deterministic is None else bool(deterministic)
        if not self.path.is_file():
            raise FileNotFoundError(
                f"policy checkpoint for role {role!r} not found: {self.path} (pass the path of a "
                "checkpoint saved by MaskablePPO.save)"
            )
        self._model = None
        self._plain = None  # an Observer, for choose()
        self._reads_dict = False  # the checkpoint reads the dict observation format
        self.bind(env=env, game=game)
        self.seed(seed)

    # ----- set-up -----
    def bind(self, env=None, game=None) -> PolicyAgent:
        """Accepted as every agent accepts it (a policy reads its observation, not the game); returns
        the agent."""
        self._game, self._env = game, env
        return self

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    @property
    def model(self):
        if self._model is None:
            try:
                from sb3_contrib import MaskablePPO
            except ImportError as err:  # pragma: no cover - depends on the install
                raise ImportError(
                    "PolicyAgent needs sb3-contrib and torch: "
                    "pip install torch==2.13.0, then pip install -e '.[training]'"
                ) from err
            check_checkpoint(self.path)  # a wrong size is told before torch reads the weights
            model = MaskablePPO.load(str(self.path), device="cpu")
            self._reads_dict = _check_spaces(model.observation_space, model.action_space, self.path)
            self._model = model
        return self._model

    # ----- playing -----
    def act(self, observation, action_mask=None) -> int:
        """The action for an observation of the env in either format (``{"observation": flat,
        "action_mask": ...}``, a dict-format observation, or a bare vector with ``action_mask``)."""
        if isinstance(observation, dict):
            if action_mask is None:
                action_mask = observation["action_mask"]
            observation = observation["observation"] if "observation" in observation else as_flat(observation)
        observation = np.asarray(observation, np.float32)
        return self._pick(observation, np.asarray(action_mask).astype(bool))

    def choose(self, game) -> int:
        """The action for the decision ``game`` asks now, from the engine's game alone."""
        observation, mask = self.observe(game)
        return self._pick(observation, mask.astype(bool))

    def observe(self, game) -> tuple[np.ndarray, np.ndarray]:
        """The flat observation and the action mask of the agent ``game`` asks now."""
        from dungeon_env.observation import Observer

        self._plain = self._plain or Observer()
        role, me = _role_of(game.agent)
        obs = self._plain.observe(game, role, me, True, game.max_turns)
        return obs["observation"], obs["action_mask"]

    def probabilities(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The policy's action probabilities for one flat observation, 0 outside ``mask``."""
        mask = self._legal(mask)
        logits = self.logits(observation)
        logits[~mask] = -np.inf
        weights = np.exp(logits - logits.max())
        return weights / weights.sum()

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """The policy's unmasked action logits for one flat observation (the actor's forward pass
        only: a fraction of SB3's ``predict`` cost, which matters in long evaluations)."""
        import torch

        policy = self.model.policy
        with torch.inference_mode():
            if self._reads_dict:
                pieces = as_dict(np.asarray(observation, np.float32))
                tensor = {k: torch.as_tensor(v).unsqueeze(0) for k, v in pieces.items()}
            else:
                tensor = torch.as_tensor(observation, dtype=torch.float32).unsqueeze(0)
            features = policy.extract_features(tensor)
            if isinstance(features, tuple):  # separate actor and critic feature extractors
                features = features[0]
            latent = policy.mlp_extractor.forward_actor(features)
            return policy.action_net(latent)[0].numpy().astype(np.float64)

    def _legal(self, mask: np.ndarray) -> np.ndarray:
        """The mask as booleans; a decision that offers no action is an error, never a random pick."""
        mask = np.asarray(mask, bool)
        if not mask.any():
            raise RuntimeError(f"{self.path.name}: the decision offers no legal action")
        return mask

    def _pick(self, observation: np.ndarray, mask: np.ndarray) -> int:
        if self.deterministic:
            mask = self._legal(mask)
            logits = self.logits(observation)
            logits[~mask] = -np.inf
            return int(np.argmax(logits))
        probs = self.probabilities(observation, mask)
        return int(self.rng.choice(len(probs), p=probs))


__all__ = ["CheckpointLayoutError", "PolicyAgent", "check_checkpoint"]
