"""The agent interface and the base classes every agent here builds on.

Every agent plays through ``act(observation, action_mask) -> int``: the flat observation vector
(or the env's observation dict) and the int8 mask of the decision asked; it returns a legal action,
and raises :class:`IllegalChoiceError` rather than return another. Beside it every agent here has
``seed(seed)`` and ``bind(env=None, game=None)`` (the :class:`Agent` protocol). ``act`` is what
``dungeon_env.wrappers.RoleEnv`` calls for its opponent and what an AEC loop calls:

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

- ``Agent(env=env)``: any env whose ``env.unwrapped.game`` is the game (:func:`game_of`, the one
  declared interface; nothing else is looked for): the PettingZoo env (wrapped or raw), its parallel
  view, a ``RoleEnv`` or a Gymnasium wrapper of one. For a ``RoleEnv`` opponent the
  agent is built first and bound after: ``dm = ScriptedDM(); env = RoleEnv("heroes", opponent=dm);
  dm.bind(env=env)``.
- ``Agent(game=game)`` / ``agent.bind(game=game)``: a bare engine ``Game``.
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

from dungeon_env.engine import ACTION_NAMES, N_ACTIONS, Action, Game
from dungeon_env.engine.side_knowledge import side_view


@runtime_checkable
class Agent(Protocol):
    """The agent protocol: every agent class here has these three methods.

    - ``act(observation, action_mask) -> int``: a legal action of the decision asked;
    - ``seed(seed)``: reseed the agent's own random choices (``None``: fresh entropy); callers seed
      every agent before a game this way (``RoleEnv.reset``, ``training.evaluate``, ``difficulty``);
    - ``bind(env=None, game=None) -> self``: attach the env (or bare game) the agent plays in, for the
      agents that read the engine's game; the others ignore it.

    Callers call ``seed`` and ``bind`` on every agent ``agents.from_spec`` builds, never probing
    constructor signatures. An object of one's own needs only ``act`` to play as an opponent
    (``from_spec`` returns it as it is; ``RoleEnv`` seeds it if it has ``seed``)."""

    def act(self, observation, action_mask) -> int: ...

    def seed(self, seed: int | None) -> None: ...

    def bind(self, env=None, game: Game | None = None) -> Agent: ...


class IllegalChoiceError(ValueError):
    """An agent chose an action the decision does not allow (or found none to choose): a bug in the
    agent, raised rather than hidden by playing some other legal action."""


def illegal_choice(agent, game: Game, action, legal, why: str = "") -> IllegalChoiceError:
    """The error for ``agent`` choosing ``action`` at ``game``'s decision, which allows ``legal``:
    it names the agent, the player asked, the decision kind, the action and the legal ones."""
    kind, unit = game.decision
    names = ", ".join(f"{a} ({ACTION_NAMES[a]})" for a in legal)
    chosen = (
        f"{action} ({ACTION_NAMES[action]})"
        if isinstance(action, int) and 0 <= action < N_ACTIONS
        else repr(action)
    )
    return IllegalChoiceError(
        f"{type(agent).__name__} chose action {chosen} for {game.agent} ({game.label(unit)}) at decision "
        f"{kind.name.lower()}, which the decision does not allow (legal: {names})"
        + (f"; {why}" if why else "")
    )


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

    def bind(self, env=None, game: Game | None = None) -> RandomAgent:
        """Nothing to attach: a random agent reads only the mask (``choose``: the game it is handed)."""
        return self

    def choose(self, game: Game) -> int:
        return int(self.rng.choice(game.legal_actions()))


class IdleAgent:
    """A side that does nothing it can help (spec ``idle``): it ends every Movement, stays put in the
    Explore phase, spends nothing, takes nothing and lets every spell fail (the first legal action of
    a decision that offers none of these). The hero tasks are not won this way (``dungeon_env.tasks``
    measures it as their floor)."""

    PREFERRED = ("END", "STAY", "SPEND_0", "PASS", "LET_FAIL", "DEFER", "BACK")

    def __init__(self, seed: int | None = None) -> None:
        self._order = [int(Action[name]) for name in self.PREFERRED]

    def seed(self, seed: int | None) -> None:
        """Nothing to seed: the agent is deterministic."""

    def bind(self, env=None, game: Game | None = None) -> IdleAgent:
        """Nothing to attach: it reads only the legal actions."""
        return self

    def _pick(self, legal) -> int:
        legal = {int(a) for a in legal}
        for action in self._order:
            if action in legal:
                return action
        return min(legal)

    def choose(self, game: Game) -> int:
        return self._pick(game.legal_actions())

    def act(self, observation, action_mask=None) -> int:
        return self._pick(np.flatnonzero(_mask_of(observation, action_mask)))


ACCEPTED_SOURCES = (
    "an engine Game, or an env whose .unwrapped has .game (dungeon_env.env() wrapped or raw, "
    "dungeon_env.parallel_env(), dungeon_env.wrappers.RoleEnv or a Gymnasium wrapper of it, a task's env)"
)


def game_of(source) -> Game:
    """The engine game an agent bound to ``source`` reads, through one declared interface: ``source``
    itself if it is a ``Game``, else ``source.unwrapped.game`` (Gymnasium and PettingZoo both name
    ``.unwrapped`` the way to the base env, and every base env of ``dungeon_env`` has ``.game``).
    TypeError for anything else, naming what was given and what is accepted; RuntimeError for an env
    that has no game yet (before its first ``reset``)."""
    if isinstance(source, Game):
        return source
    base = getattr(source, "unwrapped", None)
    game = getattr(base, "game", None)
    if isinstance(game, Game):
        return game
    if base is not None and hasattr(base, "game") and game is None:
        raise RuntimeError(f"{type(source).__name__} has no game yet: call reset() before an agent reads it")
    raise TypeError(
        f"an agent reads the game of {ACCEPTED_SOURCES}; got {type(source).__name__} ({source!r:.200})"
    )


class GameAgent:
    """Base of the agents that read the engine's game (see the module docstring).

    Subclasses implement ``choose(game) -> int`` (a legal action of ``game``'s current decision)
    and may use ``self.rng`` (seeded by ``seed``). ``act`` finds the game and calls ``choose`` on
    its side view (``view``; the view's legal actions are the game's); a choice outside the mask it
    is given (or, without a mask, the game's legal actions) is a bug, and raises
    :class:`IllegalChoiceError` rather than being swapped for some legal action."""

    def __init__(self, game: Game | None = None, env=None, seed: int | None = None) -> None:
        self._game = game
        self._env = env
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = random.Random(seed)

    def bind(self, env=None, game: Game | None = None) -> GameAgent:
        """Attach the env holding the game (or the game itself); returns the agent."""
        self._game, self._env = game, env
        return self

    @property
    def game(self) -> Game:
        if self._env is not None:
            return game_of(self._env)
        if self._game is None:
            raise RuntimeError(
                f"{type(self).__name__} needs the game: construct it with game=... or env=..., or call bind()"
            )
        return self._game

    def view(self, game: Game) -> Game:
        """The side view of ``game`` that ``choose`` reads: the heroes' view at a hero's decision,
        the DM's view at the DM's (``side_knowledge.side_view``); a view is returned as it is."""
        return side_view(game)

    def act(self, observation=None, action_mask=None) -> int:
        """``choose`` on the side view of the bound game; :class:`IllegalChoiceError` if the choice is
        not among the legal actions (those of the mask given, else the game's)."""
        game = self.game
        if action_mask is None and isinstance(observation, dict):
            action_mask = observation.get("action_mask")
        action = int(self.choose(self.view(game)))
        if action_mask is None:
            legal = game.legal_actions()
            if action not in legal:
                raise illegal_choice(self, game, action, legal)
            return action
        mask = np.asarray(action_mask)
        if not (0 <= action < len(mask) and mask[action]):
            raise illegal_choice(
                self,
                game,
                action,
                np.flatnonzero(mask).tolist(),
                "the mask does not allow it: is the agent reading the game the env is playing?",
            )
        return action

    def choose(self, game: Game) -> int:  # pragma: no cover - abstract
        raise NotImplementedError


__all__ = [
    "ACCEPTED_SOURCES",
    "Agent",
    "GameAgent",
    "IdleAgent",
    "IllegalChoiceError",
    "RandomAgent",
    "game_of",
    "illegal_choice",
]
