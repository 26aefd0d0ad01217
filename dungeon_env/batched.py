"""Batched games for learners: N games stepped by one call into preallocated numpy arrays.

Two views:

- :class:`BatchedRoleEnv`: N games of one side (``role="heroes"`` or ``"dm"``, the options of
  ``dungeon_env.wrappers.RoleEnv``: ``opponent``, ``illegal_action``, ``observation_format`` and the
  env's options), a ``gymnasium.vector.VectorEnv``.
- :class:`BatchedGames`: N games of both sides, each game asking one agent at a time (the AEC env's
  turn order): per call, for each game, the agent asked, its observation and mask, every agent's
  reward and the game's end.

```python
import numpy as np
from dungeon_env.batched import BatchedRoleEnv

envs = BatchedRoleEnv(16, role="heroes", adventure="goblin_warrens", heroes=3, opponent="random")
obs, infos = envs.reset(seed=0)  # game i is seeded 0 + i
rng = np.random.default_rng(0)
for _ in range(100):
    masks = envs.action_masks()  # (16, N_ACTIONS) bool, also infos["action_mask"]
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
    obs, rewards, terminations, truncations, infos = envs.step(actions)
envs.close()
```

**Stepped in the core** (``native``): with the random opponent and the env's outcome rewards (no
``shaping``, ``campaign``, ``info_events`` or ``render_mode="human"``), a step runs in the compiled
core (``dungeon_env.batch_core``): every game's action, the opponent's moves, the heroes' knowledge,
the observation and the mask into the arrays, on ``threads`` threads (default: every core) without
the GIL; Python only starts and ends episodes. The games, arrays, ends and infos are exactly those of
the Python games (``tests/test_batched_core.py``). ``native=None`` (the default) steps in the core
when the options allow it, else in Python, game by game (``RoleEnv`` / ``raw_env`` copies: any
opponent spec, shaping, campaigns); ``native=True`` asks for the core and is a ``ValueError`` naming
the option it cannot play; ``native=False`` asks for Python. ``envs.native`` says which.

**BatchedRoleEnv**, the rule:

- ``reset(seed=s)`` resets game ``i`` with seed ``s + i`` (a list gives each game its own seed, None
  leaves a game's generator as it is), as Gymnasium's ``SyncVectorEnv`` does (``options`` goes to
  every game, which ignores it; Gymnasium's ``reset_mask`` option is not offered: the autoreset is
  same-step); game ``i`` plays exactly what a ``RoleEnv`` reset with ``s + i`` plays given the same
  actions, and its later episodes continue reproducibly from its seed (in Python each game is a
  ``RoleEnv``, ``envs.envs[i]``).
- ``step(actions)``: ``actions`` is an integer array of shape ``(num_envs,)`` with values in
  ``0 .. N_ACTIONS - 1``; anything else is a ``ValueError`` saying what was expected, raised before any
  game moves. An action the mask forbids follows ``illegal_action`` per game: ``"penalize"`` (the
  default, as ``RoleEnv``) ends that game with ``illegal_reward`` for the side and a warning,
  ``"raise"`` raises ``IllegalActionError`` (other games of the batch have then moved: the batch is
  for masked learners; reset it after such an error).
- Arrays: observations ``(num_envs, size)`` float32 (``observation_format="dict"``: a dict of
  ``(num_envs, *piece)`` views into one buffer), rewards ``(num_envs,)`` float64 (as
  ``SyncVectorEnv``), terminations and truncations ``(num_envs,)`` bool, action masks
  ``(num_envs, N_ACTIONS)`` bool. They are **preallocated and reused**: every ``step`` and ``reset``
  returns the same array objects, overwritten in place (Gymnasium's ``SyncVectorEnv(copy=False)``).
  The observations are read-only (the batch writes only what changed into them); keep a copy of
  what you store or change (a CleanRL-style loop writes ``obs_buffer[t] = obs``, which copies);
  ``copy=True`` returns fresh, writable copies instead.
- Autoreset: ``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP``. A game whose episode ends
  in a step is reset within that step: the returned observation and mask rows are those of its next
  episode's first decision (so every mask row has a legal action, always), its reward, termination
  and truncation those of the step that ended the episode. As Gymnasium documents for that mode,
  ``infos["final_obs"]`` (an object array, ``None`` for games that did not end) holds the ended
  episode's last observation (the side's view of the end) and ``infos["final_info"]`` its final info
  (``RoleEnv``'s: ``agent``, ``decision``, ``unit``, ``outcome``, ``reason``, ``objectives``,
  ``goals_met``), batched as Gymnasium batches infos (a dict of arrays, each key with its ``_key``
  mask of the games that have it), plus ``episode`` = ``{"r": return, "l": length}`` (the side's
  return and decisions in the episode: ``infos["final_info"]["episode"]["r"][i]``). Gymnasium's
  ``wrappers.vector.RecordEpisodeStatistics`` (its ``infos["episode"]``) counts same-step autoreset
  right from Gymnasium 1.4 on; 1.2's counts as if it were next-step (each later episode one step
  short), so read ``final_info["episode"]`` there.
- ``autoreset_mode="NextStep"`` (``AutoresetMode.NEXT_STEP``; what RLlib expects of a vector env)
  instead: as Gymnasium's ``SyncVectorEnv`` in that mode, a game whose episode ends returns its
  final observation in its row (its mask row all True: nothing is asked) and the final info and
  ``episode`` among the step's infos; at the next step it starts its next episode (its action is
  not used; reward 0, neither terminated nor truncated).
- Gymnasium's ``make_vec`` builds a task's batch from its id (``dungeon_env.tasks.make_task_vector``,
  the ids' vector entry point): ``gymnasium.make_vec("dungeon_env/heroes-one-guard-v1", num_envs=16,
  opponent="random")``; RLlib takes it so with ``gym_env_vectorize_mode=VECTOR_ENTRY_POINT`` and
  ``autoreset_mode="NextStep"`` in the env config.
- Infos at every ``reset`` and ``step``: ``action_mask``, the masks array (also ``action_masks()``),
  with ``_action_mask`` all True; plus the end keys above for the games that ended.
- ``terminated`` / ``truncated``: ``RoleEnv``'s (the env card's turn-cap rule).
- An opponent given as an object (``act(observation, action_mask)``) is shared by every game; one
  given as a spec (``"random"``, ``"scripted"``, ...) is built once per game (seeded at each of its
  game's resets from that game's generator, as ``RoleEnv`` does).

**BatchedGames**, the rule: ``num_envs`` games of ``dungeon_env.raw_env(**options)`` (``illegal_action``
``"penalize"`` unless given, as ``dungeon_env.env()``).

- ``reset(seed=s)`` resets game ``i`` with ``s + i``; a game whose episode ends is reset at once with
  no seed, so it draws its next seed from its own generator as ``raw_env.reset()`` does: game ``i``
  plays exactly ``dungeon_env.env()`` reset with ``s + i``, then reset without a seed after each end.
- ``step(actions)`` plays, in each game, the action of the agent that game asks (same checks as
  above). It returns ``(observations, rewards, terminations, truncations, infos)``:
  ``observations`` and the masks (``action_masks()``, ``infos["action_mask"]``) are the rows of the
  agent each game asks next; ``infos["agent"]`` (also ``agent_index``) is its index in
  ``possible_agents`` and ``infos["is_dm"]`` is True where it is the Dungeon Master (``agent_names()``
  gives the names); ``rewards`` is ``(num_envs, len(possible_agents))``: every agent's reward of the
  step, in the order of ``possible_agents`` (summed over an episode, each agent's AEC return);
  ``terminations`` / ``truncations`` per game (every agent ends together). Autoreset is same-step as
  above: an ended game's ``infos["final_obs"]`` is a dict of every agent's final observation,
  ``infos["final_info"]`` has each agent's final info by agent name, and its rows are the next
  episode's first decision.
- The arrays are preallocated and reused as above (``copy=True``: fresh copies).
- A hero's row comes only when a hero is asked, and its observation never shows what the DM decides
  about monsters in the fog; but the number of calls between two hero rows of a game counts those
  decisions, as the AEC env's steps do. Keep per-game streams of the heroes' rows (not the call
  count) for a hero learner that must not know it; ``dungeon_env.parallel`` hides the count.

With Stable-Baselines3 installed, ``SB3BatchedVecEnv(BatchedRoleEnv(...))`` is the same games as an
SB3 ``VecEnv`` with ``action_masks()`` for sb3-contrib's ``MaskablePPO`` (SB3's own same-step
autoreset: ``terminal_observation``, ``TimeLimit.truncated`` and ``episode`` in the ended games'
infos; observations copied, as SB3 keeps the previous ones).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from dungeon_env._optional import lazy_class
from dungeon_env.aec import OBSERVATION_FORMATS, make_observation_space, raw_env
from dungeon_env.batch_core import SKIPPED, CoreAecGames, CoreGames, refusal
from dungeon_env.observation import CONTEXT, DICT_PIECES, OBS_SPEC, as_dict
from dungeon_env.wrappers import ROLES, RoleEnv

MASK_KEY = "action_mask"


def check_actions(actions: Any, num_envs: int, n_actions: int) -> list[int]:
    """``actions`` as a list of ints, or a ValueError saying what was expected: an integer array of
    shape ``(num_envs,)`` with values in ``0 .. n_actions - 1``."""
    return action_array(actions, num_envs, n_actions).tolist()


def action_array(actions: Any, num_envs: int, n_actions: int) -> np.ndarray:
    """``actions`` as a new int64 array (what the core's step reads), checked as
    :func:`check_actions` checks them."""
    array = np.asarray(actions)
    expected = f"an integer array of shape ({num_envs},), one action per game, values in 0..{n_actions - 1}"
    if array.shape != (num_envs,):
        raise ValueError(f"actions: expected {expected}; got shape {array.shape}")
    if array.dtype.kind not in "iu":
        raise ValueError(f"actions: expected {expected}; got dtype {array.dtype}")
    bad = np.flatnonzero((array < 0) | (array >= n_actions))
    if bad.size:
        raise ValueError(
            f"actions: expected {expected}; got {array[bad[:5]].tolist()} in games {bad[:5].tolist()}"
        )
    return array.astype(np.int64)


def game_seeds(seed: int | list | tuple | None, num_envs: int) -> list[int | None]:
    """Each game's reset seed: ``seed + i``, a list's own entries, or None for every game."""
    if seed is None:
        return [None] * num_envs
    if isinstance(seed, list | tuple):
        if len(seed) != num_envs:
            raise ValueError(f"seed: a list of seeds needs one per game ({num_envs}), got {len(seed)}")
        return [None if s is None else int(s) for s in seed]
    return [int(seed) + i for i in range(num_envs)]


class _Observations:
    """The preallocated observation rows: one float32 buffer ``(num_envs, size)`` that only the batch
    writes (``flat``), handed out read-only (``public``: the core clears a game's row where it wrote it
    last instead of zeroing it whole, which holds only while nobody else writes into it); the dict
    format's pieces are views into it (``(num_envs, *piece)``), so that a row is written with one copy."""

    def __init__(self, num_envs: int, observation_format: str) -> None:
        if observation_format not in OBSERVATION_FORMATS:
            raise ValueError(
                f"observation_format must be one of {OBSERVATION_FORMATS}, got {observation_format!r}"
            )
        self.flat = np.zeros((num_envs, OBS_SPEC.size), np.float32)
        # read-only through a read-only buffer: its WRITEABLE flag cannot be set again
        self.public = np.asarray(memoryview(self.flat).toreadonly())
        space = make_observation_space(observation_format)
        if observation_format == "flat":
            self.space = space["observation"]
            self.batch = self.public
        else:
            self.space = gymnasium.spaces.Dict({k: space[k] for k in DICT_PIECES})
            self.batch = {k: self._piece(k) for k in DICT_PIECES}
        self.dict = observation_format == "dict"

    def _piece(self, name: str) -> np.ndarray:
        """The read-only view of the dict piece ``name`` into the rows (``as_dict``'s layout)."""
        if name == "context":  # the context pieces, adjacent and last, as one vector
            return self.public[:, OBS_SPEC.offsets[CONTEXT[0]] :]
        shape = dict(OBS_SPEC.pieces)[name]
        return self.public[:, OBS_SPEC.slice(name)].reshape(len(self.public), *shape)

    def single(self, flat: np.ndarray):
        """One game's observation (a fresh flat vector) as this format gives it."""
        return as_dict(flat) if self.dict else flat

    def out(self, copy: bool):
        if not copy:
            return self.batch
        if self.dict:
            return {k: v.copy() for k, v in self.batch.items()}
        return self.batch.copy()


class BatchedRoleEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of one side as a Gymnasium vector env; the rule: the module docstring."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["ansi", "rgb_array"]}

    def __init__(
        self,
        num_envs: int,
        role: str = "heroes",
        opponent="random",
        illegal_action: str = "penalize",
        observation_format: str = "flat",
        copy: bool = False,
        native: bool | None = None,
        threads: int | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
        **env_kwargs,
    ) -> None:
        if int(num_envs) < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs!r}")
        if role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, got {role!r}")
        self.num_envs = n = int(num_envs)
        self.role = role
        self.autoreset_mode = autoreset_mode_of(autoreset_mode)
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self._next_step = self.autoreset_mode == AutoresetMode.NEXT_STEP
        self._waiting = np.zeros(n, bool)  # next-step autoreset: the games that ended in the last step
        self.copy = bool(copy)
        self._obs = _Observations(n, observation_format)
        self.native = _native_choice(native, refusal(env_kwargs, opponent), threads)
        if self.native:
            self._core = CoreGames(n, role, illegal_action, threads, env_kwargs)
            first = self._core.env
            self.render_mode = first.render_mode
        else:
            self._role_envs = [
                RoleEnv(role=role, opponent=opponent, illegal_action=illegal_action, **env_kwargs)
                for _ in range(n)
            ]
            first = self._role_envs[0]
            self.render_mode = first.render_mode
        self.single_observation_space = self._obs.space
        self.single_action_space = first.action_space("dm") if self.native else first.action_space
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self.n_actions = int(self.single_action_space.n)
        self._rewards = np.zeros(n, np.float64)
        self._terminations = np.zeros(n, bool)
        self._truncations = np.zeros(n, bool)
        self._masks = np.zeros((n, self.n_actions), bool)
        self._every_game = np.ones(n, bool)
        self._returns = np.zeros(n, np.float64)
        self._lengths = np.zeros(n, np.int64)
        self._ready = False

    @property
    def envs(self) -> list[RoleEnv]:
        """Each game's ``RoleEnv`` (the Python games, ``native=False``); a native batch has none."""
        if self.native:
            raise AttributeError(
                "a native BatchedRoleEnv steps its games in the core: it has no RoleEnv per game"
            )
        return self._role_envs

    def reset(self, *, seed: int | list | None = None, options: dict | None = None):
        flat, masks = self._obs.flat, self._masks
        for i, s in enumerate(game_seeds(seed, self.num_envs)):
            if self.native:
                self._core.start(i, s)
                self._core.observe(i, flat[i], masks[i])
            else:
                env = self._role_envs[i]
                flat[i], _info = env.reset(seed=s, options=options)
                masks[i] = env.action_masks()
        self._rewards[:] = 0.0
        self._terminations[:] = False
        self._truncations[:] = False
        self._returns[:] = 0.0
        self._lengths[:] = 0
        self._waiting[:] = False
        self._ready = True
        return self._obs.out(self.copy), self._infos()

    def step(self, actions):
        if not self._ready:
            raise RuntimeError("BatchedRoleEnv: call reset() before step()")
        chosen = action_array(actions, self.num_envs, self.n_actions)
        waiting = self._waiting.copy()  # next-step autoreset: these games start again, their actions unused
        if self.native:
            ended = self._step_core(chosen, waiting)
        else:
            ended = self._step_python(chosen.tolist(), waiting)
        rewards = self._rewards
        self._returns += rewards
        self._lengths += ~waiting
        infos = self._infos()
        for i, obs, info in ended:
            self._end(infos, i, obs, info)
        out = self._obs.out(self.copy)
        if self.copy:
            return out, rewards.copy(), self._terminations.copy(), self._truncations.copy(), infos
        return out, rewards, self._terminations, self._truncations, infos

    def _step_python(self, chosen: list[int], waiting: np.ndarray) -> list[tuple]:
        """Each game's ``RoleEnv`` steps (one that ended resets, at once or, waiting, in the next
        step); the games that ended."""
        flat, masks, rewards = self._obs.flat, self._masks, self._rewards
        terminations, truncations = self._terminations, self._truncations
        ended = []
        for i, env in enumerate(self._role_envs):
            if waiting[i]:
                obs, _info = env.reset()
                rewards[i], terminations[i], truncations[i] = 0.0, False, False
            else:
                obs, rewards[i], terminations[i], truncations[i], info = env.step(chosen[i])
                if terminations[i] or truncations[i]:
                    ended.append((i, obs, info))
                    if not self._next_step:
                        obs, _info = env.reset()
            flat[i] = obs
            masks[i] = env.action_masks()
        self._waiting[:] = False
        return ended

    def _step_core(self, chosen: np.ndarray, waiting: np.ndarray) -> list[tuple]:
        """The core steps every game but the waiting ones; those that ended (or refused their
        action) start again here, at once or (next-step autoreset) in the next step."""
        core, flat, masks = self._core, self._obs.flat, self._masks
        status = core.step(np.where(waiting, -1, chosen) if waiting.any() else chosen, flat, masks)
        self._rewards[:] = 0.0
        self._terminations[:] = False
        self._truncations[:] = False
        self._waiting[:] = False
        ended = []
        for i in np.flatnonzero(status).tolist():
            if status[i] == SKIPPED:  # it ended in the last step: its next episode
                core.start(i, None)
                core.observe(i, flat[i], masks[i])
                continue
            reward, terminated, truncated, info = core.end(i, int(chosen[i]))
            self._rewards[i], self._terminations[i], self._truncations[i] = reward, terminated, truncated
            ended.append((i, flat[i].copy(), info))
            if self._next_step:
                masks[i] = True  # nothing is asked at an end (as RoleEnv's action_masks)
            else:
                core.start(i, None)
                core.observe(i, flat[i], masks[i])
        return ended

    def action_masks(self) -> np.ndarray:
        """The legal actions of the decision each game asks, ``(num_envs, N_ACTIONS)`` bool (the
        preallocated array, overwritten by the next step; a copy with ``copy=True``)."""
        return self._masks.copy() if self.copy else self._masks

    def render(self):
        if self.native:
            return tuple(self._core.render(i) for i in range(self.num_envs))
        return tuple(env.render() for env in self._role_envs)

    def close_extras(self, **kwargs: Any) -> None:
        for env in getattr(self, "_role_envs", ()):  # also when __init__ failed (Gymnasium closes on del)
            env.close()

    # ----- helpers -----
    def _infos(self) -> dict:
        masks = self._masks.copy() if self.copy else self._masks
        return {MASK_KEY: masks, f"_{MASK_KEY}": self._every_game}

    def _end(self, infos: dict, i: int, obs: np.ndarray, info: dict) -> None:
        """Game ``i``'s episode ended: its final observation and info, and its return and length,
        into the step's infos (Gymnasium's batching of infos) before the counts start again. With
        the next-step autoreset, its row is its final observation and its info the final info; it
        starts again at the next step."""
        episode = {"r": float(self._returns[i]), "l": int(self._lengths[i])}
        if self._next_step:
            self._add_info(infos, info | {"episode": episode}, i)
            self._waiting[i] = True
        else:
            final = {"final_obs": self._obs.single(obs), "final_info": info | {"episode": episode}}
            self._add_info(infos, final, i)
        self._returns[i] = 0.0
        self._lengths[i] = 0


class BatchedGames:
    """``num_envs`` games of both sides, one decision per game per call; the rule: the module
    docstring."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}
    _add_info = gymnasium.vector.VectorEnv._add_info  # Gymnasium's batching of infos

    def __init__(
        self,
        num_envs: int,
        observation_format: str = "flat",
        copy: bool = False,
        native: bool | None = None,
        threads: int | None = None,
        **env_kwargs,
    ) -> None:
        if int(num_envs) < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs!r}")
        self.num_envs = n = int(num_envs)
        self.copy = bool(copy)
        env_kwargs.setdefault("illegal_action", "penalize")
        self._obs = _Observations(n, observation_format)
        self.native = _native_choice(native, refusal(env_kwargs), threads)
        if self.native:
            self._core = CoreAecGames(n, threads, env_kwargs)
            first = self._core.env
        else:
            self._games = [raw_env(**env_kwargs) for _ in range(n)]
            first = self._games[0]
        self.possible_agents = list(first.possible_agents)
        self._index = {agent: j for j, agent in enumerate(self.possible_agents)}
        self.single_observation_space = self._obs.space
        self.single_action_space = first.action_space("dm")
        self.observation_space = batch_space(self.single_observation_space, n)
        self.n_actions = int(self.single_action_space.n)
        self.agent_index = np.zeros(n, np.int64)
        self._dm = np.zeros(n, bool)
        self._rewards = np.zeros((n, len(self.possible_agents)), np.float64)
        self._terminations = np.zeros(n, bool)
        self._truncations = np.zeros(n, bool)
        self._masks = np.zeros((n, self.n_actions), bool)
        self._every_game = np.ones(n, bool)
        self._ready = False

    @property
    def games(self) -> list:
        """Each game's ``raw_env`` (the Python games, ``native=False``); a native batch has none."""
        if self.native:
            raise AttributeError("a native BatchedGames steps its games in the core: no raw_env per game")
        return self._games

    def reset(self, *, seed: int | list | None = None, options: dict | None = None):
        for i, s in enumerate(game_seeds(seed, self.num_envs)):
            if self.native:
                self._core.start(i, s)
                self._ask_core(i)
            else:
                game = self._games[i]
                game.reset(seed=s, options=options)
                self._ask(i, game)
        self._rewards[:] = 0.0
        self._terminations[:] = False
        self._truncations[:] = False
        self._ready = True
        return self._obs.out(self.copy), self._infos()

    def step(self, actions):
        if not self._ready:
            raise RuntimeError("BatchedGames: call reset() before step()")
        chosen = action_array(actions, self.num_envs, self.n_actions)
        ended = self._step_core(chosen) if self.native else self._step_python(chosen.tolist())
        infos = self._infos()
        for i, final in ended:
            infos = self._add_info(infos, final, i)
        out = self._obs.out(self.copy)
        rewards, terminations, truncations = self._rewards, self._terminations, self._truncations
        if self.copy:
            return out, rewards.copy(), terminations.copy(), truncations.copy(), infos
        return out, rewards, terminations, truncations, infos

    def _step_python(self, chosen: list[int]) -> list[tuple]:
        rewards, terminations, truncations = self._rewards, self._terminations, self._truncations
        ended = []
        for i, game in enumerate(self._games):
            game.step(chosen[i])
            rewards[i] = list(game.rewards.values())
            agent = game.agent_selection
            terminations[i] = game.terminations[agent]
            truncations[i] = game.truncations[agent]
            if terminations[i] or truncations[i]:
                ended.append((i, self._finish(game)))
                game.reset()
            self._ask(i, game)
        return ended

    def _step_core(self, chosen: np.ndarray) -> list[tuple]:
        """The core steps every game; the ones that ended (or refused their action) start again here."""
        core = self._core
        status = core.step(chosen, self._obs.flat, self._masks)
        self._rewards[:] = 0.0
        self._terminations[:] = False
        self._truncations[:] = False
        ended = []
        for i in np.flatnonzero(status).tolist():
            rewards, terminated, truncated, final_info = core.end(i, int(chosen[i]))
            self._rewards[i], self._terminations[i], self._truncations[i] = rewards, terminated, truncated
            obs, mask = np.empty(OBS_SPEC.size, np.float32), np.empty(self.n_actions, bool)
            final_obs = {}
            for agent in self.possible_agents:
                core.observe(i, obs, mask, agent)
                final_obs[agent] = self._obs.single(obs.copy())
            ended.append((i, {"final_obs": final_obs, "final_info": final_info}))
            core.start(i, None)
        seats = core.seats
        np.copyto(self.agent_index, np.where(seats < 0, len(self.possible_agents) - 1, seats))
        np.less(seats, 0, out=self._dm)
        for i, _final in ended:
            self._ask_core(i)
        return ended

    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent each game asks, ``(num_envs, N_ACTIONS)`` bool."""
        return self._masks.copy() if self.copy else self._masks

    def agent_names(self) -> list[str]:
        """The name of the agent each game asks (``hero_0`` .. ``dm``)."""
        return [self.possible_agents[j] for j in self.agent_index.tolist()]

    def render(self):
        if self.native:
            return tuple(self._core.render(i) for i in range(self.num_envs))
        return tuple(game.render() for game in self._games)

    def close(self) -> None:
        for game in getattr(self, "_games", ()):
            game.close()

    # ----- helpers -----
    def _ask(self, i: int, game) -> None:
        """Row ``i``: the agent ``game`` asks now, its observation and mask."""
        agent = game.agent_selection
        obs = game.observe(agent)
        self._obs.flat[i] = obs["observation"]
        self._masks[i] = obs[MASK_KEY]
        self.agent_index[i] = self._index[agent]
        self._dm[i] = agent == "dm"

    def _ask_core(self, i: int) -> None:
        """Row ``i`` of a native batch: the agent game ``i`` asks now, its observation and mask."""
        self._core.observe(i, self._obs.flat[i], self._masks[i])
        agent = self._core.agent_asked(i)
        self.agent_index[i] = self._index[agent]
        self._dm[i] = agent == "dm"

    def _finish(self, game) -> dict:
        """The ended game's final observations and infos of every agent, then its dead-steps."""
        single = self._obs.single
        final_obs = {a: single(game.observe(a)["observation"]) for a in game.agents}
        final_info = {a: dict(game.infos[a]) for a in game.agents}
        while game.agents:
            game.step(None)
        return {"final_obs": final_obs, "final_info": final_info}

    def _infos(self) -> dict:
        copy = self.copy
        masks = self._masks.copy() if copy else self._masks
        index = self.agent_index.copy() if copy else self.agent_index
        dm = self._dm.copy() if copy else self._dm
        every = self._every_game
        infos = {MASK_KEY: masks, "agent": index, "is_dm": dm}
        return infos | {f"_{key}": every for key in tuple(infos)}


def autoreset_mode_of(mode) -> AutoresetMode:
    """``mode`` (an ``AutoresetMode`` or its value) as a mode ``BatchedRoleEnv`` offers (same-step or
    next-step), else a ValueError naming them."""
    offered = (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP)
    try:
        found = AutoresetMode(mode)
    except ValueError:
        found = None
    if found not in offered:
        names = ", ".join(f"{m.value!r}" for m in offered)
        raise ValueError(
            f"autoreset_mode must be one of {names} (gymnasium.vector.AutoresetMode), got {mode!r}"
        )
    return found


def _native_choice(native, why_not: str | None, threads=None) -> bool:
    """Whether a batch steps its games in the core: ``native`` True (an error naming why not when it
    cannot), False, or None (when it can). ``threads`` is for games stepped in the core only."""
    if native not in (None, True, False):
        raise ValueError(f"native must be True, False or None (the core when it can), got {native!r}")
    if native and why_not:
        raise ValueError(f"native=True: {why_not}; pass native=False or None")
    chosen = why_not is None if native is None else native
    if threads is not None and not chosen:
        reason = f" ({why_not})" if why_not else ""
        raise ValueError(
            f"threads={threads!r}: the games step in Python{reason}, one at a time; leave threads out"
        )
    return chosen


class _SB3Batched:
    """The methods of ``SB3BatchedVecEnv`` (which also derives from SB3's ``VecEnv``, imported when
    it is first used): a :class:`BatchedRoleEnv` as an SB3 vector env; the rule: the module
    docstring."""

    def __init__(self, batched: BatchedRoleEnv) -> None:
        self.batched = batched
        self._actions = None
        self._render_mode = batched.render_mode
        super().__init__(batched.num_envs, batched.single_observation_space, batched.single_action_space)

    def reset(self):
        seeds = None if all(s is None for s in self._seeds) else list(self._seeds)
        obs, _infos = self.batched.reset(seed=seeds)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return _copied(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self):
        obs, rewards, terminations, truncations, infos = self.batched.step(self._actions)
        dones = terminations | truncations
        rows: list[dict] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final = infos["final_info"]
            for i in np.flatnonzero(dones):
                rows[i] = {key: _row(value, i) for key, value in final.items() if not key.startswith("_")}
                rows[i]["terminal_observation"] = infos["final_obs"][i]
                rows[i]["TimeLimit.truncated"] = bool(truncations[i] and not terminations[i])
        return _copied(obs), rewards.astype(np.float32), dones, rows

    def action_masks(self) -> np.ndarray:
        return self.batched.action_masks().copy()

    def has_attr(self, attr_name: str) -> bool:
        return attr_name in ("action_masks", "render_mode")

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        if attr_name == "render_mode":
            return [self._render_mode] * len(list(self._get_indices(indices)))
        return [getattr(self.batched.envs[i], attr_name) for i in list(self._get_indices(indices))]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        raise AttributeError(f"SB3BatchedVecEnv cannot set {attr_name!r} on its games")

    def env_method(self, method_name: str, *args: Any, indices=None, **kwargs: Any) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(f"SB3BatchedVecEnv games have no method {method_name!r} (only action_masks)")
        masks = self.batched.action_masks()
        return [masks[i].copy() for i in list(self._get_indices(indices))]

    def env_is_wrapped(self, wrapper_class: type, indices=None) -> list[bool]:
        return [False] * len(list(self._get_indices(indices)))

    def get_images(self):
        return list(self.batched.render())

    def close(self) -> None:
        self.batched.close()


def _row(value, i: int):
    """Game ``i``'s entry of a batched info value (a nested dict of batched values: its entries)."""
    if isinstance(value, dict):
        return {key: _row(v, i) for key, v in value.items() if not key.startswith("_")}
    return value[i]


def _copied(obs):
    return {k: v.copy() for k, v in obs.items()} if isinstance(obs, dict) else obs.copy()


def __getattr__(name: str):
    if name == "SB3BatchedVecEnv":  # built once, on first use, so that SB3 stays optional
        return lazy_class(
            __name__,
            name,
            _SB3Batched,
            "stable_baselines3.common.vec_env:VecEnv",
            "stable-baselines3: pip install 'dungeon_env[training]'",
            "A BatchedRoleEnv as a Stable-Baselines3 VecEnv with action_masks (dungeon_env.batched).",
        )
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BatchedGames", "BatchedRoleEnv", "SB3BatchedVecEnv", "check_actions", "game_seeds"]  # noqa: F822
