"""Single-role views of the game for single-agent libraries (Gymnasium, stable-baselines3).

``RoleEnv(role="heroes" | "dm", opponent=..., **env_kwargs)`` is a ``gymnasium.Env`` in which one
policy plays every decision of its side (all heroes share it: the observation's ``me`` and
``acting`` pieces say which hero is asked) and the other side is played by an opponent: any object
with ``act(observation, action_mask) -> int`` (observation: the flat float32 vector, mask: int8), or
an agent spec (``make_opponent``): ``"random"`` (uniform among the legal actions, seeded from
``reset``'s seed) or any other of ``agents.spec`` (``"scripted"``, ``"search[iterations=8]"``,
``"policy:<file>.zip"``, a checkpoint path...), built for the other side and bound to this env.

``dungeon_env`` imports nothing from ``agents`` (a later layer): the specs it does not resolve itself
are built by the function registered as the entry point ``from_spec`` of group ``dungeon_env.agents``
(``agent_from_spec``); this project's ``pyproject.toml`` registers ``agents.spec:from_spec`` there.
An agent reads the game of a ``RoleEnv`` as of any env here: ``env.unwrapped.game``.

- observation: the env's flat observation vector, ``Box(0, high, (size,), float32)``; with
  ``observation_format="dict"``, a ``gymnasium.spaces.Dict`` of its pieces (``board``, ``figures``,
  ..., ``context``: ``dungeon_env.observation.DICT_PIECES``) for SB3's ``MultiInputPolicy``, without
  the mask (the opponent is always handed the flat vector)
- action: ``Discrete(N_ACTIONS)``; ``action_masks()`` gives the legal actions as booleans, for
  sb3-contrib's ``MaskablePPO`` (also through ``SubprocVecEnv``/``DummyVecEnv`` via ``env_method``)
- reward: the side's own: the team reward for ``"heroes"`` (counted once, not once per hero: every
  hero agent of the AEC env gets that same return), its opposite for ``"dm"``, shaping included if
  asked, summed over the opponent's moves in between; the episode's return is the outcome's reward
  (``reward_completed`` with every primary goal met, ``reward_completed_without_goal`` without,
  ``reward_failed``, ``reward_truncated``) plus any shaping
- terminated: the adventure is completed or failed (or an illegal action ended it), or it reached
  a turn cap that the task pays for (``reward_truncated`` not 0: the heroes' tasks); truncated: a
  turn cap that pays nothing (``reward_truncated`` 0, the default: a time limit outside the task).
  The rule is the env's (``raw_env.time_limit_reached``, the env card). ``illegal_action`` defaults
  to ``"penalize"`` here (the episode ends with ``illegal_reward`` for the side), so that unmasked
  libraries and checkers run.
- info: steady, the same keys at every step (values ``""``/False where unused, never None):
  ``agent``, ``decision`` and ``unit`` asked next (``""`` at the end); ``outcome`` and ``reason``
  (``""`` until the end), ``objectives`` (each goal: ``{"kind", "text", "primary", "met"}``, ``met``
  False until the end) and ``goals_met`` (False until the end); a campaign's infos add ``campaign``.
- An episode that ends before the side is asked anything (the opponent finished it) is skipped by
  ``reset``, which draws the next seed: every episode has at least one decision.
"""

from __future__ import annotations

import functools
import os
from importlib.metadata import entry_points

import gymnasium
import numpy as np

from dungeon_env.aec import OBSERVATION_FORMATS, make_observation_space, raw_env
from dungeon_env.observation import as_dict

ROLES = ("heroes", "dm")
MAX_REDRAWS = 100


class RandomOpponent:
    """Plays a uniformly random legal action."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(self.rng.choice(np.flatnonzero(action_mask)))


OPPONENTS = {"random": RandomOpponent}  # the names resolved here, without the agents package
AGENT_GROUP, AGENT_ENTRY = "dungeon_env.agents", "from_spec"  # the declared way to the agent specs


class AgentProviderError(ImportError):
    """No installed package builds agents from spec text (or more than one claims to)."""


@functools.cache
def agent_provider():
    """The function that builds an agent from spec text, ``from_spec(spec, side, *, seed=None,
    env=None, **options)``: the entry point ``from_spec`` of group ``dungeon_env.agents``, which this
    project's ``agents`` package registers (``agents.spec:from_spec``). :class:`AgentProviderError`,
    naming what to install, when no package registers it or it cannot be loaded."""
    found = list(entry_points(group=AGENT_GROUP, name=AGENT_ENTRY))
    how = (
        f"dungeon_env builds the agents named by spec through the entry point {AGENT_ENTRY!r} of group "
        f"{AGENT_GROUP!r}, which the project's agents package registers: install the project with it "
        "(pip install -e . in its repository, or pip install dungeon_env); or pass opponent='random' or "
        "an object with act(observation, action_mask) -> int"
    )
    if not found:
        raise AgentProviderError(f"no agent provider is installed: {how}")
    if len({entry.value for entry in found}) > 1:
        claims = ", ".join(f"{entry.value} ({entry.dist.name if entry.dist else '?'})" for entry in found)
        raise AgentProviderError(f"more than one agent provider is installed: {claims}; keep one")
    try:
        return found[0].load()
    except ImportError as error:
        raise AgentProviderError(
            f"the agent provider {found[0].value} cannot be imported ({error}): {how}"
        ) from error


def agent_from_spec(spec, side: str, **kwargs):
    """The agent for ``side`` that ``spec`` names, built by the installed :func:`agent_provider`
    (the agent-spec language of ``agents.spec``); ``kwargs`` (``seed``, ``env``, options) go to it."""
    return agent_provider()(spec, side, **kwargs)


def make_opponent(opponent, side: str | None = None, env=None):
    """An opponent for ``side`` (``"heroes"`` or ``"dm"``): an object with ``act`` as it is;
    ``"random"`` (``OPPONENTS``) a :class:`RandomOpponent`; any other agent spec (``"scripted"``,
    ``"search[iterations=8]"``, ``"policy:<file>.zip"``, a checkpoint ``.zip``, ``"pool:<dir>"``, an
    ``agents.AgentSpec``; the language of ``agents.spec``) the agent :func:`agent_from_spec` builds
    for ``side``, bound to ``env``.

    ``dungeon_env`` does not depend on ``agents`` (a later layer, which imports this package): the
    installed agent provider is loaded here only at the first spec other than ``"random"``, never
    when this module is imported, and ``"random"`` works without it."""
    if callable(getattr(opponent, "act", None)):
        return opponent
    if isinstance(opponent, str) and opponent.strip() in OPPONENTS:
        return OPPONENTS[opponent.strip()]()
    if side is None:  # an agent spec is read for a side; anything else needs act
        error = ValueError if isinstance(opponent, str | os.PathLike) else TypeError
        raise error(
            f"opponent {opponent!r}: an opponent is an object with act(observation, action_mask) -> int, "
            "or an agent spec; say which side it plays (side='heroes' or 'dm')"
        )
    return agent_from_spec(opponent, side, env=env)


class RoleEnv(gymnasium.Env):
    """One side of the game as a Gymnasium env; see the module docstring."""

    def __init__(
        self,
        role: str = "heroes",
        opponent="random",
        illegal_action: str = "penalize",
        observation_format: str = "flat",
        **env_kwargs,
    ):
        if role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, got {role!r}")
        if observation_format not in OBSERVATION_FORMATS:
            raise ValueError(
                f"observation_format must be one of {OBSERVATION_FORMATS}, got {observation_format!r}"
            )
        self.role = role
        self.observation_format = observation_format
        self.env = raw_env(illegal_action=illegal_action, **env_kwargs)
        self.opponent = make_opponent(opponent, side="heroes" if role == "dm" else "dm", env=self.env)
        self.render_mode = self.env.render_mode
        self.metadata = {"render_modes": self.env.metadata["render_modes"], "render_fps": 4}
        space = make_observation_space(observation_format)
        self.observation_space = (
            space["observation"]
            if observation_format == "flat"
            else gymnasium.spaces.Dict({k: v for k, v in space.spaces.items() if k != "action_mask"})
        )
        self.action_space = self.env.action_space("dm")
        self._mask = np.ones(self.action_space.n, bool)
        self._final_info: dict = {}  # the side's final info of the episode, once it is over

    @property
    def game(self):
        """The engine game being played (``None`` before the first ``reset``): what an agent bound to
        this env (or to a Gymnasium wrapper of it) reads as ``env.unwrapped.game``."""
        return self.env.game

    # ----- the Gymnasium API -----
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        for _ in range(MAX_REDRAWS):
            game_seed, opponent_seed = (int(x) for x in self.np_random.integers(0, 2**62, size=2))
            if hasattr(self.opponent, "seed"):
                self.opponent.seed(opponent_seed)
            self.env.reset(seed=game_seed)
            self._final_info = {}
            self._play_opponent()
            if self.env.agents:  # else the episode ended before the side was asked anything: redraw
                return self._observe(), self._info()
        raise RuntimeError(f"{MAX_REDRAWS} episodes in a row ended before the {self.role} side was asked")

    def step(self, action):
        env = self.env
        if not env.agents:
            raise RuntimeError("the episode is over: call reset() before step()")
        env.step(int(action) if isinstance(action, np.integer | np.ndarray) else action)
        reward = env.side_rewards[self.role] + self._play_opponent()
        done = bool(env.game.outcome) or env.illegal is not None
        truncated = env.time_limit_reached()
        return self._observe(), float(reward), done and not truncated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions (booleans) of the decision the side is asked; all True once the episode
        is over (nothing is asked then, and a library's forward pass never sees an all-False mask)."""
        return self._mask.copy()

    def render(self):
        return self.env.render()

    def close(self) -> None:
        self.env.close()

    # ----- helpers -----
    def _ours(self, agent: str) -> bool:
        return (agent == "dm") == (self.role == "dm")

    def _play_opponent(self) -> float:
        """Let the opponent play until our side is asked or the episode is over (then every agent
        takes its closing dead-step); returns our side's reward over those steps."""
        env, total = self.env, 0.0
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                if not self._final_info:  # the first dead-step: every agent's final info is there
                    self._final_info = dict(env.infos["dm" if self.role == "dm" else env.possible_agents[0]])
                env.step(None)
                continue
            if self._ours(agent):
                break
            obs = env.observe(agent)
            env.step(self.opponent.act(obs["observation"], obs["action_mask"]))
            total += env.side_rewards[self.role]
        return total

    def _observe(self) -> np.ndarray:
        env = self.env
        if env.agents:
            obs = env.observe(env.agent_selection)
            self._mask = obs["action_mask"].astype(bool)
        else:  # the episode is over: the side's view of the end
            obs = env.observe("dm" if self.role == "dm" else env.possible_agents[0])
            self._mask = np.ones(self.action_space.n, bool)
        if self.observation_format == "dict":
            return as_dict(obs["observation"])
        return obs["observation"]

    def _info(self) -> dict:
        """The env's steady info and the agent asked: the selected agent's while the episode goes
        on; once it is over, the side's final info (read before the closing dead-steps)."""
        env = self.env
        if env.agents:
            agent = env.agent_selection
            return {"agent": agent, **env.infos[agent]}
        return {"agent": "", **self._final_info}


__all__ = [
    "AGENT_ENTRY",
    "AGENT_GROUP",
    "OPPONENTS",
    "ROLES",
    "AgentProviderError",
    "RandomOpponent",
    "RoleEnv",
    "agent_from_spec",
    "agent_provider",
    "make_opponent",
]
