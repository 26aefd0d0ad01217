"""``PolicyAgent``: plays a trained MaskablePPO checkpoint (sb3-contrib) with the action mask.

``PolicyAgent(path=None, role="heroes" | "dm", deterministic=None, env=None, game=None, seed=None)``
loads ``path`` (a ``.zip`` saved by ``MaskablePPO.save``); ``path=None`` loads the bundled policy of
the role, ``agents/policies/<role>.zip`` (the shipped AI opponents). The model is loaded on the CPU
at first use. ``deterministic=None`` plays a bundled policy the way it was measured to play best
(``BUNDLED_DETERMINISTIC``: both greedily, as their league training evaluated them) and any other
checkpoint greedily.

Two kinds of checkpoint are played, told apart by the model's observation size:

- *plain*: the policy reads the env's flat observation, or its dict format (a checkpoint trained
  with ``observation_format="dict"``, ``MultiInputPolicy``); ``act(observation, mask)`` takes
  either format whatever the checkpoint reads and needs nothing else, so the agent works as a
  ``RoleEnv`` opponent or in an AEC loop as it is;
- *advised* (``agents.advised``; the bundled policies are): the policy also reads its scripted
  advisor's choice, which needs the engine's game: pass ``env=`` or ``game=`` (or ``bind`` later),
  as for the scripted agents.

``choose(game)`` plays from the engine's game alone (it builds the observation itself), for loops
that skip the env. Sampling uses the agent's own generator (``seed``), never torch's global one.

A checkpoint trained on an older observation layout and action table (the policies shipped until
issue 17: commit 2df847b, 76 actions, before ``back`` and the hero abilities; the heroes' is kept as
``tests/data/policy_2df847b/heroes.zip``) plays on the layout it was trained with:
the layout is recorded as ``agents/policies/layout_<commit>.json`` (``agents.obs_layout``) and found
by the model's observation size; its observation is built from the game (so such a checkpoint needs
``env=`` or ``game=``): the v0 observation of ``agents.observation_v0`` mapped to the recorded
layout by names (layout v1 replaced v0's one-hot columns by ids, which no renaming maps back), and the policy
picks only among the first ``n`` actions of the mask (``n`` its action table's size; those ids are
unchanged). A decision that offers none of them raises an error (every decision that offers a newer
action also offers an older one, so it does not happen).
"""

from __future__ import annotations

from pathlib import Path

import gymnasium
import numpy as np

from agents import observation_v0
from agents.advised import ADVISED_SIZE, AdvisedObserver, role_of
from agents.base import game_of
from agents.obs_layout import Translator, advised_size, load_layout, v0_layout
from dungeon_env.observation import DICT_PIECES, as_dict, as_flat, dict_high

POLICY_DIR = Path(__file__).parent / "policies"
ROLES = ("heroes", "dm")
# How each bundled policy is played: greedily, both, as their league training evaluated them
# (sampling adds the residual policy's random deviations from its advisor). See docs/AGENTS.md.
BUNDLED_DETERMINISTIC = {"heroes": True, "dm": True}


def default_path(role: str) -> Path:
    return POLICY_DIR / f"{role}.zip"


def recorded_layouts() -> list[dict]:
    """The older observation layouts shipped beside the policies (``layout_<commit>.json``)."""
    return [load_layout(path) for path in sorted(POLICY_DIR.glob("layout_*.json"))]


def _is_dict_space(space) -> bool:
    return isinstance(space, gymnasium.spaces.Dict)


def _check_dict_space(space, path: Path) -> None:
    """A dict checkpoint must read today's pieces, each of today's size."""
    high = dict_high()
    sizes = {k: int(np.prod(v.shape)) for k, v in space.spaces.items()}
    wanted = {k: int(high[k].size) for k in DICT_PIECES}
    if sizes != wanted:
        raise ValueError(
            f"{path.name} reads a dict observation with the pieces {sizes}; today's dict format has "
            f"{wanted} (older layouts are played only from flat checkpoints)"
        )


def layout_for(size: int) -> tuple[dict | None, bool]:
    """``(layout, advised)`` of a checkpoint whose observations have ``size`` floats: None for
    today's layout; else the recorded layout with that plain or advised size."""
    from dungeon_env.observation import OBS_SPEC

    if size in (ADVISED_SIZE, OBS_SPEC.size):
        return None, size == ADVISED_SIZE
    for layout in recorded_layouts():
        if size in (advised_size(layout), layout["size"]):
            return layout, size == advised_size(layout)
    known = ", ".join(f"{lay['commit']} ({lay['size']} / {advised_size(lay)})" for lay in recorded_layouts())
    raise ValueError(
        f"no observation layout has {size} floats: today's is {OBS_SPEC.size} (advised {ADVISED_SIZE}); "
        f"recorded: {known or 'none'} (scripts/record_layout.py records another)"
    )


class PolicyAgent:
    """A trained MaskablePPO policy behind ``act(observation, action_mask) -> int``."""

    def __init__(
        self,
        path: str | Path | None = None,
        role: str = "heroes",
        deterministic: bool | None = None,
        env=None,
        game=None,
        seed: int | None = None,
    ):
        if role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, got {role!r}")
        self.role = role
        self.path = Path(path) if path is not None else default_path(role)
        if deterministic is None:  # the bundled policy's best mode; any other checkpoint: greedy
            deterministic = BUNDLED_DETERMINISTIC[role] if path is None else True
        self.deterministic = bool(deterministic)
        if not self.path.is_file():
            hint = (
                "the bundled policies are missing from this install; reinstall the package, or train "
                "one with python -m training.train_role and pass path=..."
                if path is None
                else "pass the path of a checkpoint saved by MaskablePPO.save"
            )
            raise FileNotFoundError(f"policy checkpoint for role {role!r} not found: {self.path} ({hint})")
        self._model = None
        self._advised: AdvisedObserver | None = None
        self._plain = None  # an Observer, for choose() with a plain checkpoint
        self._layout: dict | None = None  # an older layout the checkpoint was trained on (None: today's)
        self._is_advised = False
        self._reads_dict = False  # the checkpoint reads the dict observation format
        self._old_plain: Translator | None = None  # a plain checkpoint of an older layout
        self.bind(env=env, game=game)
        self.seed(seed)

    # ----- set-up -----
    def bind(self, env=None, game=None) -> PolicyAgent:
        """Attach the env holding the game (or the game itself), which advised checkpoints need; returns
        the agent."""
        self._game, self._env = game, env
        return self

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)
        if self._advised is not None:
            self._advised.seed(seed)
        self._seed = seed

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
            model = MaskablePPO.load(str(self.path), device="cpu")
            self._reads_dict = _is_dict_space(model.observation_space)
            if self._reads_dict:
                _check_dict_space(model.observation_space, self.path)
            else:
                self._layout, self._is_advised = layout_for(int(np.prod(model.observation_space.shape)))
            if self._is_advised:
                self._advised = AdvisedObserver(self.role, self._seed, self._layout)
            elif self._layout is not None:
                self._old_plain = Translator(self._layout, v0_layout())
            self._model = model
        return self._model

    @property
    def advised(self) -> bool:
        """Whether the checkpoint reads the advised observation (``agents.advised``)."""
        _ = self.model
        return self._is_advised

    @property
    def layout(self) -> str:
        """The commit of the observation layout the checkpoint reads (``"current"``: today's)."""
        _ = self.model
        return "current" if self._layout is None else self._layout["commit"]

    @property
    def n_actions(self) -> int:
        """The size of the checkpoint's action table (its ids are today's first ones)."""
        return int(self.model.action_space.n)

    @property
    def game(self):
        source = self._env if self._env is not None else self._game
        if source is None:
            raise RuntimeError(
                f"{self.path.name} needs the game (an advised policy asks its scripted advisor; a policy "
                "of an older layout reads the v0 observation built from it): construct PolicyAgent with "
                "env=... or game=..., or call bind()"
            )
        return game_of(source)

    # ----- playing -----
    def act(self, observation, action_mask=None) -> int:
        """The action for an observation of the env in either format (``{"observation": flat,
        "action_mask": ...}``, a dict-format observation, or a bare vector with ``action_mask``)."""
        if isinstance(observation, dict):
            if action_mask is None:
                action_mask = observation["action_mask"]
            observation = observation["observation"] if "observation" in observation else as_flat(observation)
        observation = np.asarray(observation, np.float32)
        _ = self.model  # loaded: its layout is known
        if self._layout is not None:  # an older layout: its observation is built from the game (v0)
            observation = self.observe(self.game)[0]
        elif self.advised and observation.shape != (ADVISED_SIZE,):
            observation = self._advised.from_flat(observation, self.game)
        return self._pick(observation, np.asarray(action_mask).astype(bool))

    def choose(self, game) -> int:
        """The action for the decision ``game`` asks now, from the engine's game alone."""
        observation, mask = self.observe(game)
        return self._pick(observation, mask.astype(bool))

    def observe(self, game) -> tuple[np.ndarray, np.ndarray]:
        """The observation this policy reads and the action mask, for the agent ``game`` asks now."""
        if self.advised:
            return self._advised.from_game(game)
        from dungeon_env.observation import Observer

        self._plain = self._plain or (Observer() if self._old_plain is None else observation_v0.Observer())
        role, me = role_of(game.agent)
        obs = self._plain.observe(game, role, me, True, game.max_turns)
        flat = obs["observation"] if self._old_plain is None else self._old_plain(obs["observation"])
        return flat, obs["action_mask"]

    def probabilities(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The policy's action probabilities over its own action table for one observation, 0
        outside ``mask`` (today's mask: the checkpoint's first ``n_actions`` entries are used)."""
        mask = self._own_mask(mask)
        logits = self.logits(observation)
        logits[~mask] = -np.inf
        weights = np.exp(logits - logits.max())
        return weights / weights.sum()

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """The policy's unmasked action logits for one observation (the actor's forward pass only:
        a fraction of SB3's ``predict`` cost, which matters in long evaluations)."""
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

    def _own_mask(self, mask: np.ndarray) -> np.ndarray:
        """The legal actions among the checkpoint's own ``n_actions`` (an older table's ids are
        today's first ones); a decision that leaves none is an error, never a random pick."""
        n = self.n_actions
        own = np.asarray(mask, bool)[:n]
        if not own.any():
            legal = np.flatnonzero(mask).tolist()
            raise RuntimeError(
                f"{self.path.name} knows actions 0..{n - 1} only, and this decision offers none of them "
                f"(legal: {legal}); every decision with a newer action should also offer an older one"
            )
        return own

    def _pick(self, observation: np.ndarray, mask: np.ndarray) -> int:
        if self.deterministic:
            mask = self._own_mask(mask)
            logits = self.logits(observation)
            logits[~mask] = -np.inf
            return int(np.argmax(logits))
        probs = self.probabilities(observation, mask)
        return int(self.rng.choice(len(probs), p=probs))


__all__ = [
    "BUNDLED_DETERMINISTIC",
    "POLICY_DIR",
    "PolicyAgent",
    "default_path",
    "layout_for",
    "recorded_layouts",
]
