"""The agent interface and the base classes every agent here builds on.

Every agent has one method, ``act(observation, action_mask) -> int``: the flat observation vector
(or the env's observation dict) and the int8 mask of the decision asked; it returns a legal action.
That is what ``dungeon_env.wrappers.RoleEnv`` calls for its opponent and what an AEC loop calls:

```python
env = dungeon_env.env(adventure="flooded_cellar", heroes=3)
heroes, dm = ScriptedHeroes(env=env), ScriptedDM(env=env)
env.reset(seed=1)
for name in env.agent_iter():
    obs, _, term, trunc, _ = env.last()
    agent = dm if name == "dm" else heroes
    env.step(None if term or trunc else agent.act(obs["observation"], obs["action_mask"]))
```

Scripted and search agents (:class:`GameAgent`) read the engine's game, which the observation
vector does not make easy to use. They get it in one of three ways, looked up at every call (an env
builds a new game at each ``reset``):

- ``Agent(env=env)``: any env holding the game: the PettingZoo env (wrapped or raw, the game is
  ``env.unwrapped.game``) or a ``RoleEnv`` (``role_env.env.game``). For a ``RoleEnv`` opponent the
  agent is built first and bound after: ``dm = ScriptedDM(); env = RoleEnv("heroes", opponent=dm);
  dm.bind(env=env)``.
- ``Agent(game=game)`` / ``agent.bind(game)``: a bare engine ``Game``.
- ``agent.choose(game)``: the engine-level call, no observation needed (what search rollouts use).

Each reads its own side's view of the game (``dungeon_env.engine.sideview``, ruling D-24):
``act`` hands ``choose`` the side view of the side asked (``GameAgent.view``): at a hero's decision
the heroes' view (a redacted copy holding only what heroes may know: no hidden traps, face-down
identities, fog monsters, undiscovered secret doors or the DM's book), at the DM's the DM's view
(the whole game but the future dice). The agents that play one side also make that view themselves
when ``choose`` is handed the real game (``ScriptedHeroes``, ``SearchAgent``), so the engine-level
call reads only their side's knowledge too.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

import numpy as np

from dungeon_env.engine import Game
from dungeon_env.engine.sideview import side_view


@runtime_checkable
class Agent(Protocol):
    """Anything that picks a legal action from an observation and its action mask."""

    def act(self, observation, action_mask) -> int: ...


def _mask_of(observation, action_mask) -> np.ndarray:
    if action_mask is None and isinstance(observation, dict):
        action_mask = observation["action_mask"]
    return np.asarray(action_mask)


class RandomAgent:
    """Uniformly random among the legal actions of the mask; reproducible given ``seed``."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask=None) -> int:
        return int(self.rng.choice(np.flatnonzero(_mask_of(observation, action_mask))))

    def choose(self, game: Game) -> int:
        return int(self.rng.choice(game.legal_actions()))


def find_game(source) -> Game:
    """The engine game behind ``source``: a ``Game``, a PettingZoo env (wrapped or raw) or a
    ``RoleEnv``."""
    seen = 0
    while not isinstance(source, Game):
        seen += 1
        if seen > 8:
            break
        if getattr(source, "game", None) is not None:
            source = source.game
        elif getattr(source, "unwrapped", None) is not None and source.unwrapped is not source:
            source = source.unwrapped
        elif getattr(source, "env", None) is not None:
            source = source.env
        else:
            break
    if not isinstance(source, Game):
        raise TypeError(f"no dungeon_env game found behind {source!r}; pass game=... or env=...")
    return source


class GameAgent:
    """Base of the agents that read the engine's game (see the module docstring).

    Subclasses implement ``choose(game) -> int`` (a legal action of ``game``'s current decision)
    and may use ``self.rng`` (seeded by ``seed``). ``act`` finds the game and calls ``choose`` on
    its side view (``view``; the view's legal actions are the game's); a choice outside the mask it
    is given is a bug, and raises ``ValueError`` rather than being swapped for some legal action."""

    def __init__(self, game: Game | None = None, env=None, seed: int | None = None) -> None:
        self._game = game
        self._env = env
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = random.Random(seed)

    def bind(self, game: Game | None = None, env=None):
        """Attach the game (or an env holding it); returns the agent."""
        self._game, self._env = game, env
        return self

    @property
    def game(self) -> Game:
        if self._env is not None:
            return find_game(self._env)
        if self._game is None:
            raise RuntimeError(
                f"{type(self).__name__} needs the game: construct it with game=... or env=..., or call bind()"
            )
        return self._game

    def view(self, game: Game) -> Game:
        """The side view of ``game`` that ``choose`` reads: the heroes' view at a hero's decision,
        the DM's view at the DM's (``sideview.side_view``); a view is returned as it is."""
        return side_view(game)

    def act(self, observation=None, action_mask=None) -> int:
        game = self.game
        if action_mask is None and isinstance(observation, dict):
            action_mask = observation.get("action_mask")
        action = int(self.choose(self.view(game)))
        if action_mask is not None and not np.asarray(action_mask)[action]:
            legal = np.flatnonzero(np.asarray(action_mask)).tolist()
            raise ValueError(
                f"{type(self).__name__} chose action {action} for {game.agent}, which the mask does not "
                f"allow (legal: {legal}); the agent is not reading the game the env is playing"
            )
        return action

    def choose(self, game: Game) -> int:  # pragma: no cover - abstract
        raise NotImplementedError


__all__ = ["Agent", "GameAgent", "RandomAgent", "find_game"]
