"""The turn-based parallel view: the AEC game as a PettingZoo ``ParallelEnv``.

```python
import dungeon_env

env = dungeon_env.parallel_env(adventure="flooded_cellar", heroes=3)
observations, infos = env.reset(seed=7)
while env.agents:
    actions = {a: policy(o["observation"], o["action_mask"]) for a, o in observations.items()}
    observations, rewards, terminations, truncations, infos = env.step(actions)
```

The game is turn-based: at every decision exactly one agent is asked, and the same agent is often
asked several times in a row (a hero moving square by square). The parallel view keeps that turn
order; **each parallel step is one AEC step of the agent the game asks**, and **a step is reported
to the agents who may know of it**: the DM is asked once per step of every awake monster, fog ones
included, and the heroes must not be able to count those decisions (ruling D-24; the observation
hides what they are about, the number of steps would tell how many there were).

- ``agents``: every agent (``hero_0`` .. ``hero_{k-1}``, ``dm``) from ``reset`` until the episode
  ends, then ``[]`` (a hero who exited or died stays, as in the AEC env; all agents end together).
- **Who is in a step's dicts.** A step that leaves the game at a decision heroes may know of (a
  hero's, or the DM's about a figure heroes see: a monster standing in a revealed area,
  ``engine.knowledge.dm_decision_is_hidden``), or at its end, reports to every agent. A step that
  leaves it at a
  DM decision about a figure heroes do not see (a monster in the fog) reports to the DM alone:
  ``observations``, ``rewards`` and ``infos`` hold ``dm`` only (``terminations`` and
  ``truncations`` hold every agent, all False: PettingZoo's API reads them for every live agent,
  and such a step never ends the game). So a hero's stream (the steps in which it is handed an
  observation) is the same whatever the DM did out of sight, counts included: the DM's run of
  decisions about fog monsters is, for the heroes, one step. The dicts are :class:`Handed`: looking
  up a live agent not handed the step gives what it holds between its steps (its observation as
  last handed with an all-zero mask, a blank info, a reward of 0), so loops over ``env.agents``
  still run (``parallel_api_test`` passes, warning that a live agent was given no observation);
  a learner that keeps one transition per step it is handed iterates the dicts instead.
- ``observations``: the observation after the step of every agent reported to. Only the agent asked
  next has a non-zero ``action_mask`` (exactly its legal actions); every other agent's mask is all
  zeros. The agent asked next is also ``infos[agent]["active_agent"]`` for every agent reported to,
  and ``active_agent``.
- ``step(actions)``: only the action of the agent asked is played; the other agents' actions are
  ignored (send anything, e.g. a masked sample, which is 0 for an all-zero mask, or leave them out).
  A missing action of the agent asked is a ``KeyError`` naming it. An illegal action follows the
  env's ``illegal_action`` option: ``"penalize"`` by default (the game ends, the offender gets
  ``illegal_reward``, a warning says why), ``"raise"`` raises ``IllegalActionError``.
- ``rewards``: each agent's reward since the last step reported to it (the AEC env's ``rewards``,
  summed over the steps it was not reported: a reward earned while the DM moved fog monsters is
  paid at the hero's next step): the sum over the parallel steps is each agent's AEC return.
- ``terminations`` / ``truncations``: all False until the step that ends the adventure, then all True
  together (terminated: completed, failed, an illegal action, or a turn cap the task pays for;
  truncated: a turn cap that pays nothing, ``reward_truncated`` 0; the AEC env's rule, the env
  card). The AEC env's dead-steps (``step(None)`` per agent) are taken inside that same step.
- ``infos``: steady (the AEC env's keys at every step for every agent reported to, plus
  ``active_agent``) and fresh, never stale: the agent asked next gets its AEC info (``decision``,
  ``unit``, ``events`` if ``info_events=True``), the others the AEC env's blank info
  (``raw_env.blank_info()``: ``""``, False, no events); on the last step every agent gets its final
  AEC info (``outcome``, ``reason``, ``objectives``, ``goals_met``) with ``active_agent`` None.
  (SuperSuit's vector env merges the next episode's first infos over the final ones, so with steady
  keys its final info shows the next episode's values: there, read how the episode ended from
  ``terminations`` and ``truncations``.)
- ``lockstep=True``: every agent in every step's dicts, for lock-step
  vector envs that give each agent a row at every step (SuperSuit's ``pettingzoo_env_to_vec_env_v1``
  refuses a step without every agent). A hero's row then counts the DM's steps about fog monsters:
  use it where one learner plays every side from the same rows (centralised training), not to train
  a hero with memory of its own stream.
- **Time.** A Python env cannot hide how long a step takes: a program that times ``step()`` may
  tell a run of DM decisions from one. The view hides the count, not the clock.
- ``action_mask_in="info"`` (default ``"observation"``): for libraries that want the observation
  without the mask and the mask in the infos (AgileRL: it refuses an ``action_mask`` key in the
  observation): each observation is the vector ``obs["observation"]`` alone (``observation_space(agent)``
  is that ``Box``; with the env's ``observation_format="dict"``, the dict of pieces without
  ``action_mask``) and every agent's info carries ``action_mask`` (int8, the same mask) at every step.
  (Named ``observation_format="flat"`` before issue 13; ``observation_format`` is now the env's option,
  ``"flat"`` or ``"dict"``, passed on to it.)
- ``state()`` / ``state_space``: the AEC env's global state (everything: for centralised
  critics); ``unwrapped`` is the raw AEC env (as with PettingZoo's own converters):
  ``env.unwrapped.events``, ``.game``, ``.episode_seed``.

The same seed and the same actions of the agents asked give the AEC env's trajectory exactly.

Why not ``pettingzoo.utils.conversions.turn_based_aec_to_parallel``: it runs, but a step after the end
returns four values instead of five, it writes ``active_agent`` into the AEC env's own info dicts and
so hands every agent its stale info of an earlier turn again (``events`` counted twice), the reset
infos have no ``active_agent``, and a missing action of the agent asked is a bare ``KeyError``.

PettingZoo's ``max_cycles_test`` does not apply: it steps with unmasked random actions (most are
illegal: a hero's first decision has 5 legal actions of 79, so the game ends at the first step),
and its AEC half counts on every agent acting once per cycle (round robin: the median agent acts
``max_cycles`` times), while here the game decides who acts, often one agent many times in a row.
The episode length is bounded by the env's ``max_turns`` (game turns), not a ``max_cycles`` option.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from dungeon_env.aec import env
from dungeon_env.engine.knowledge import dm_decision_is_hidden

DM = "dm"
MASK_KEY = "action_mask"
MASK_PLACES = ("observation", "info")


class Handed(dict):
    """A step's observations, rewards or infos: its keys are the agents handed the step. Looking up
    another live agent (a hero, in a step handed to the DM alone) gives what it holds between its
    steps: its observation as last handed, with an all-zero mask; a blank info; a reward of 0 (its
    rewards of such steps come with its next step). So a loop over ``env.agents`` works too; a loop
    over the dict sees the agents handed the step."""

    def __init__(self, handed: dict, between: dict) -> None:
        super().__init__(handed)
        self.between = between

    def __missing__(self, agent: str):
        return self.between[agent]


class TurnBasedParallelEnv(ParallelEnv):
    """A turn-based AEC env (``dungeon_env.env()``) seen as a ``ParallelEnv``; the rule is the
    module docstring. ``aec_env`` is the AEC env it plays, as given."""

    def __init__(self, aec_env: AECEnv, action_mask_in: str = "observation", lockstep: bool = False) -> None:
        if action_mask_in not in MASK_PLACES:
            raise ValueError(f"action_mask_in must be one of {MASK_PLACES}, got {action_mask_in!r}")
        self.aec_env = aec_env
        self.action_mask_in = action_mask_in
        self.lockstep = bool(lockstep)
        self._mask_in_info = action_mask_in == "info"
        self._owed: dict[str, float] = {}  # rewards of the steps an agent did not see, paid at its next
        self._last_obs: dict[str, Any] = {}  # the observation last handed to each agent
        raw = aec_env.unwrapped
        self.possible_agents = list(raw.possible_agents)
        self.agents: list[str] = []
        self.metadata = dict(raw.metadata)  # is_parallelizable stays False: aec_to_parallel does not apply
        self.render_mode = raw.render_mode
        self.state_space = raw.state_space
        self.active_agent: str | None = None

    @property
    def unwrapped(self) -> AECEnv:
        return self.aec_env.unwrapped

    def observation_space(self, agent: str) -> spaces.Space:
        space = self.aec_env.observation_space(agent)
        if not self._mask_in_info:
            return space
        if "observation" in space.spaces:
            return space["observation"]
        return spaces.Dict({k: v for k, v in space.spaces.items() if k != "action_mask"})

    def action_space(self, agent: str) -> spaces.Space:
        return self.aec_env.action_space(agent)

    def reset(self, seed: int | None = None, options: dict | None = None):
        aec = self.aec_env
        aec.reset(seed=seed, options=options)
        self.agents = list(aec.agents)
        self.active_agent = aec.agent_selection
        self._owed = dict.fromkeys(self.agents, 0.0)
        self._last_obs = {}
        return self._report(self._seeing(over=False), over=False)

    def step(self, actions: dict[str, Any]):
        if not self.agents:
            raise RuntimeError("step() after the episode ended: call reset()")
        aec = self.aec_env
        agent = self.active_agent
        if agent not in actions or actions[agent] is None:
            raise KeyError(
                f"{agent} is asked to act (infos[...]['active_agent'], the agent whose action_mask is "
                f"not all zeros) but actions has no action for it: {sorted(actions)}"
            )
        aec.step(actions[agent])
        agents = self.agents
        owed = self._owed
        for a in agents:
            owed[a] += float(aec.rewards[a])
        terminations = {a: bool(aec.terminations[a]) for a in agents}
        truncations = {a: bool(aec.truncations[a]) for a in agents}
        over = all(terminations[a] or truncations[a] for a in agents)
        self.active_agent = None if over else aec.agent_selection
        seeing = self._seeing(over)
        rewards = Handed({a: owed[a] for a in seeing}, {a: 0.0 for a in agents if a not in seeing})
        owed.update(dict.fromkeys(seeing, 0.0))
        observations, infos = self._report(seeing, over)
        if over:
            while aec.agents:  # PettingZoo's dead-step, one per agent
                aec.step(None)
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _seeing(self, over: bool) -> list[str]:
        """The agents handed this step: every agent, but at a DM decision hidden from the heroes
        (``engine.knowledge.dm_decision_is_hidden``) the DM alone (unless ``lockstep``)."""
        if over or self.lockstep or not dm_decision_is_hidden(self.aec_env.unwrapped.game):
            return list(self.agents)
        return [a for a in self.agents if a == DM]

    def _report(self, seeing: list[str], over: bool) -> tuple[dict, dict[str, dict]]:
        """The observation and info of each agent in ``seeing`` as the module docstring says (fresh
        AEC infos only)."""
        aec = self.aec_env
        active = self.active_agent
        blank = aec.unwrapped.blank_info
        observations, infos, between_obs, between_infos = {}, {}, {}, {}
        for a in self.agents:
            if a not in seeing:  # what it holds between its steps (Handed)
                if a not in self._last_obs:  # no step handed yet: as if handed now
                    self._last_obs[a] = self._handed(a, blank())[0]
                between_obs[a], between_infos[a] = self._handed(a, blank(), self._last_obs[a])
                continue
            info = dict(aec.infos[a]) if over or a == active else blank()
            obs, infos[a] = self._handed(a, info)
            observations[a] = self._last_obs[a] = obs
        return Handed(observations, between_obs), Handed(infos, between_infos)

    def _handed(self, agent: str, info: dict, obs=None) -> tuple[Any, dict]:
        """``agent``'s observation (now, or ``obs`` with an all-zero mask) and ``info`` as handed:
        with ``active_agent``, the mask in the observation or in the info."""
        if obs is None:
            obs = self.aec_env.observe(agent)
        elif isinstance(obs, dict) and MASK_KEY in obs:
            obs = obs | {MASK_KEY: np.zeros_like(obs[MASK_KEY])}
        info["active_agent"] = self.active_agent
        if self._mask_in_info:
            mask = obs.pop(MASK_KEY) if isinstance(obs, dict) and MASK_KEY in obs else None
            info[MASK_KEY] = np.zeros(self.action_space(DM).n, np.int8) if mask is None else mask
            obs = obs.get("observation", obs) if isinstance(obs, dict) else obs
        return obs, info

    def state(self) -> np.ndarray:
        return self.aec_env.state()

    def render(self):
        return self.aec_env.render()

    def close(self) -> None:
        self.aec_env.close()

    def __str__(self) -> str:
        return str(self.unwrapped)


def parallel_env(
    *, action_mask_in: str = "observation", lockstep: bool = False, **options: Any
) -> TurnBasedParallelEnv:
    """The parallel view of ``dungeon_env.env(**options)`` (same options, ``observation_format``
    included; ``illegal_action`` ``"penalize"`` unless given); ``action_mask_in`` ``"observation"``
    (the env's observation as it is) or ``"info"`` (the observation without the mask, the mask in
    the infos); ``lockstep``: every agent in every step's dicts, for lock-step vector envs (a hero's
    stream then counts the DM's steps about figures heroes do not see). The rule: this module's
    docstring."""
    return TurnBasedParallelEnv(env(**options), action_mask_in, lockstep)


__all__ = ["MASK_PLACES", "Handed", "TurnBasedParallelEnv", "parallel_env"]
