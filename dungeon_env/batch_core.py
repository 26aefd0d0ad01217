"""The games of a ``BatchedRoleEnv`` stepped in the compiled core (``_core.RoleBatch``, src/core/batch.cpp).

A step plays the side's action in every game, then the random opponent's moves until the side is
asked again, and writes each game's observation and mask into the batch's arrays: all in C++, on
several threads, without the GIL. What stays in Python is rare and keeps its one owner here: each
episode's start (``RoleEnv.reset``'s rule: its generator draws the game's and the opponent's seeds,
``raw_env.episode_start`` sets the game up in the core, an episode the opponent ends before the side
is asked is drawn again), an episode's end (the outcome reward, ``terminated`` / ``truncated``, the
final info: ``dungeon_env.episode.ending_info``), the illegal action's penalty, and rendering. The
opponent draws as ``wrappers.RandomOpponent`` does (numpy's PCG64, its state handed to the core), so
that game ``i`` plays exactly what a ``RoleEnv`` plays: ``tests/test_batched_core.py`` checks it.

:func:`refusal` says why a batch's options need the Python games instead (an opponent other than
``"random"``, shaping, a campaign, info events, a window).
"""

from __future__ import annotations

import os
import random

import numpy as np
from gymnasium.utils import seeding

from dungeon_env.aec import IllegalActionError, raw_env, warn_illegal
from dungeon_env.engine.core import _core
from dungeon_env.engine.knowledge import core_rules
from dungeon_env.episode import ending_info
from dungeon_env.observation import core_layout
from dungeon_env.rewards import outcome_reward, turn_cap_terminates
from dungeon_env.wrappers import MAX_REDRAWS, OPPONENTS

ASKED, ENDED, REFUSED, SKIPPED = 0, 1, 2, 3  # a game's status after a step (batch.hpp's SlotStatus)
_MASK64 = (1 << 64) - 1


def refusal(env_kwargs: dict, opponent="random") -> str | None:
    """Why the core cannot step games with these options and opponent (None: it can)."""
    if not (isinstance(opponent, str) and opponent.strip() == "random"):
        return f"the core plays only the random opponent ({list(OPPONENTS)}), not {opponent!r}"
    if env_kwargs.get("shaping"):
        return "shaping rewards are paid by the Python games"
    if env_kwargs.get("campaign") is not None:
        return "a campaign is played by the Python games"
    if env_kwargs.get("info_events"):
        return "info events are told by the Python games"
    if env_kwargs.get("render_mode") == "human":
        return "render_mode='human' opens a window per game: the Python games"
    return None


def usable_cores() -> int:
    """The cores this process may run on (its affinity where the system says it, else the count)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def pcg_state(rng: np.random.Generator) -> tuple[int, int, int, int, bool, int]:
    """A numpy PCG64 generator's state as ``_core.RoleBatch.set`` takes it."""
    st = rng.bit_generator.state
    if st["bit_generator"] != "PCG64":
        raise ValueError(f"the core draws as numpy's PCG64, not {st['bit_generator']}")
    state, inc = st["state"]["state"], st["state"]["inc"]
    return (state >> 64, state & _MASK64, inc >> 64, inc & _MASK64, bool(st["has_uint32"]), st["uinteger"])


class _CoreBatch:
    """What both kinds of core games share: the options (a ``raw_env`` of them, which checks them and
    starts each episode), the core's batch, each game's ``Game``, and rendering."""

    def __init__(self, num_envs: int, sides: int, threads: int | None, env_kwargs: dict) -> None:
        if threads is not None and (not isinstance(threads, int) or threads < 1):
            raise ValueError(f"threads must be a positive int or None (every core), got {threads!r}")
        self.env = raw_env(**env_kwargs)  # the options, checked
        self.threads = threads or usable_cores()
        probe = self.env.episode_start(0)
        if probe.engine != "core":
            raise ValueError(f"the batch steps games on the core; Game.default_engine is {probe.engine!r}")
        self.batch = _core.RoleBatch(num_envs, sides, core_layout(probe.tables), core_rules())
        self.games: list = [None] * num_envs
        self.letters: list = [None] * num_envs  # the ansi render's monster letters, per game
        self.status = np.zeros(num_envs, np.int8)

    def game(self, i: int):
        """Game ``i`` as the engine's ``Game`` (read anew: the core moved it)."""
        game = self.games[i]
        game._engine_moved()
        return game

    def _begin(self, i: int, game, opponent=(0, 0, 0, 0, False, 0)) -> None:
        self.batch.set(i, game._engine, opponent)
        self.games[i], self.letters[i] = game, None

    def refused(self, i: int, action: int, reward: float) -> IllegalActionError:
        """Game ``i`` refused ``action``: the error naming it, raised with ``illegal_action="raise"``,
        else warned of (the episode ends with ``reward`` for the agent asked)."""
        game = self.game(i)
        err = game._illegal(action, game.legal_actions())
        if self.env.illegal_action == "raise":
            raise err
        warn_illegal(err, reward, game.agent, stacklevel=5)
        return err

    def render(self, i: int):
        mode = self.env.render_mode
        if mode is None:
            return self.env.render()  # Gymnasium's warning, as each env gives it
        if mode == "ansi":
            from dungeon_env.render.text import MonsterLetters, render_text

            if self.letters[i] is None:
                self.letters[i] = MonsterLetters()
            return render_text(self.game(i), letters=self.letters[i])
        from dungeon_env.render.image import render_image

        return render_image(self.game(i))


class CoreGames(_CoreBatch):
    """``num_envs`` games of ``role`` against the random opponent, in the core; the rule: the module
    docstring. ``threads``: the threads a step uses (None: every core)."""

    def __init__(
        self, num_envs: int, role: str, illegal_action: str, threads: int | None, env_kwargs: dict
    ) -> None:
        super().__init__(
            num_envs, 0 if role == "heroes" else 1, threads, env_kwargs | {"illegal_action": illegal_action}
        )
        self.role = role
        self.seat = 0 if role == "heroes" else -1  # whose view the side's end is shown in
        self.np_random: list[np.random.Generator | None] = [None] * num_envs

    def start(self, i: int, seed: int | None) -> None:
        """Game ``i``'s next episode, as ``RoleEnv.reset(seed=seed)`` starts it."""
        if seed is not None:
            self.np_random[i], _ = seeding.np_random(seed)
        elif self.np_random[i] is None:
            self.np_random[i], _ = seeding.np_random()
        for _ in range(MAX_REDRAWS):
            game_seed, opponent_seed = (int(x) for x in self.np_random[i].integers(0, 2**62, size=2))
            self._begin(i, self.env.episode_start(game_seed), pcg_state(np.random.default_rng(opponent_seed)))
            if self.batch.settle(i) == ASKED:  # else the opponent ended it before the side was asked
                return
        raise RuntimeError(f"{MAX_REDRAWS} episodes in a row ended before the {self.role} side was asked")

    def observe(self, i: int, obs: np.ndarray, mask: np.ndarray) -> None:
        """Game ``i``'s row: the decision the side is asked."""
        self.batch.observe(i, obs, mask, self.batch.seat(i), True)

    def step(self, actions: np.ndarray, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One action per game (checked in range); each game's status (``ASKED``, ``ENDED``,
        ``REFUSED``), the rows of the asked games written."""
        self.batch.step(actions, self.status, obs, masks, None, self.threads)
        return self.status

    def end(self, i: int, action: int) -> tuple[float, bool, bool, dict]:
        """Game ``i`` ended in the step, or refused ``action``: the side's reward of the step,
        ``terminated``, ``truncated`` and the final info, as ``RoleEnv.step`` gives them."""
        env = self.env
        if self.status[i] == REFUSED:
            err = self.refused(i, action, env.illegal_reward)
            info = ending_info(self.games[i], "illegal_action", str(err))
            return env.illegal_reward, True, False, {"agent": ""} | info
        game = self.game(i)
        table = env.outcome_rewards
        team = outcome_reward(game.outcome, game.goals_met, table)
        truncated = game.outcome == "truncated" and not turn_cap_terminates(table)
        reward = team if self.role == "heroes" else -team
        return reward, not truncated, truncated, {"agent": ""} | ending_info(game)


class CoreAecGames(_CoreBatch):
    """``num_envs`` games of both sides, in the core, each step one decision of the agent each game
    asks: ``BatchedGames``' games, each as ``dungeon_env.raw_env`` plays it (its seeds: ``reset(seed)``
    then a draw of its ``random.Random`` at each later episode; its rewards, ends and final infos)."""

    def __init__(self, num_envs: int, threads: int | None, env_kwargs: dict) -> None:
        super().__init__(num_envs, 2, threads, env_kwargs)
        self.possible_agents = list(self.env.possible_agents)
        self.seed_rng: list[random.Random | None] = [None] * num_envs
        self.seats = np.zeros(num_envs, np.int64)

    def start(self, i: int, seed: int | None) -> None:
        """Game ``i``'s next episode, as ``raw_env.reset(seed=seed)`` starts it."""
        if seed is not None:
            self.seed_rng[i] = random.Random(int(seed))
            episode_seed = int(seed)
        else:
            if self.seed_rng[i] is None:
                self.seed_rng[i] = random.Random()
            episode_seed = self.seed_rng[i].getrandbits(63)
        self._begin(i, self.env.episode_start(episode_seed))
        self.seats[i] = self.batch.seat(i)

    def observe(self, i: int, obs: np.ndarray, mask: np.ndarray, agent: str | None = None) -> None:
        """Game ``i``'s row: the decision of the agent it asks; or ``agent``'s view with no legal
        action (an end's)."""
        if agent is None:
            self.batch.observe(i, obs, mask, int(self.seats[i]), True)
        else:
            self.batch.observe(i, obs, mask, -1 if agent == "dm" else int(agent[5:]), False)

    def step(self, actions: np.ndarray, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One action per game (of the agent it asks); each game's status, the rows of the asked
        games and the seats they ask (``seats``) written."""
        self.batch.step(actions, self.status, obs, masks, self.seats, self.threads)
        return self.status

    def end(self, i: int, action: int) -> tuple[list[float], bool, bool, dict]:
        """Game ``i`` ended in the step, or refused ``action``: every agent's reward of the step
        (``possible_agents``' order), ``terminated``, ``truncated`` and each agent's final info, as
        ``raw_env`` gives them."""
        env, agents = self.env, self.possible_agents
        if self.status[i] == REFUSED:
            offender = self.agent_asked(i)
            err = self.refused(i, action, env.illegal_reward)
            info = ending_info(self.games[i], "illegal_action", str(err))
            rewards = [env.illegal_reward if a == offender else 0.0 for a in agents]
            return rewards, True, False, {a: dict(info) for a in agents}
        game = self.game(i)
        table = env.outcome_rewards
        team = outcome_reward(game.outcome, game.goals_met, table)
        truncated = game.outcome == "truncated" and not turn_cap_terminates(table)
        rewards = [-team if a == "dm" else team for a in agents]
        info = ending_info(game)
        return rewards, not truncated, truncated, {a: dict(info) for a in agents}

    def agent_asked(self, i: int) -> str:
        seat = int(self.seats[i])
        return "dm" if seat < 0 else f"hero_{seat}"


__all__ = [
    "ASKED",
    "ENDED",
    "REFUSED",
    "SKIPPED",
    "CoreAecGames",
    "CoreGames",
    "pcg_state",
    "refusal",
    "usable_cores",
]
