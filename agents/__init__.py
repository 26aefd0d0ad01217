"""Agents for dungeon_env, all behind ``act(observation, action_mask) -> int``.

- ``RandomAgent(seed)``: uniform among the legal actions.
- ``IdleAgent()``: does nothing it can help (the floor of the learning tasks, ``dungeon_env.tasks``).
- ``ScriptedHeroes(env=...)``: competent scripted heroes, v1 (``agents.scripted_heroes``).
- ``ScriptedDM(env=..., seed=...)``: a scripted DM hunting the weak and isolated, v1 (``agents.scripted_dm``).
- ``ScriptedHeroesV2``, ``ScriptedDMV2``: the scripted agents v2 (``agents.scripted_heroes_v2``,
  ``agents.scripted_dm_v2``): a party that ends its turns together, monsters that stop dithering,
  every knob in one parameter set (``agents.scripted_params``).
  v1 is the frozen reference of 2026-12-06; the spec ``scripted`` plays the latest version
  (``agents.spec.LATEST_SCRIPTED``), ``scripted@v1`` and ``scripted@v2`` a given one.
- ``RunawayDM(env=..., seed=...)``: a stress-test DM whose monsters flee as far as the rules allow
  (``agents.runaway_dm``).
- ``SearchAgent(env=..., rollouts=..., seconds=...)``: information-set Monte Carlo tree search
  (ISMCTS) over determinisations of its side's view of the game, either side (``agents.search``).
- ``PolicyAgent(path, role=...)``: a trained MaskablePPO checkpoint of one's own (``agents.policy``;
  no policy ships with the package).

- ``PoolAgent(pool_dir, side)``: a self-play opponent drawn from past checkpoints (``agents.pool``).

``from_spec(text_or_agent, side, seed=None, env=None, **options)`` builds one from the agent-spec
language every tool here shares (``agents.spec``: ``scripted``, ``scripted@v1``, ``search[rollouts=8]``,
``policy:<file>.zip``, ``<file>.zip``, ``pool:<dir>``, ...); ``make(name, **kw)`` calls a class by
its name with constructor arguments. The scripted and search agents read the engine's game, each
through its side's view (``dungeon_env.engine.sideview``): pass ``env=`` (any env whose
``env.unwrapped.game`` is the game: ``game_of``) or ``game=``, or call ``bind`` later. Every agent
has ``act``, ``seed`` and ``bind`` (the ``Agent`` protocol, ``agents.base``), and raises
``IllegalChoiceError`` rather than play an action the decision does not allow.

The package registers ``agents.spec:from_spec`` as the entry point ``from_spec`` of group
``dungeon_env.agents`` (``pyproject.toml``): that is how ``dungeon_env`` (which imports nothing from
here) builds the opponents its tools name by spec, e.g. ``RoleEnv(opponent="scripted")``.
"""

from __future__ import annotations

from agents.base import Agent, GameAgent, IdleAgent, IllegalChoiceError, RandomAgent, game_of
from agents.policy import PolicyAgent
from agents.pool import PoolAgent
from agents.runaway_dm import RunawayDM
from agents.scripted_dm import ScriptedDM
from agents.scripted_dm_v2 import ScriptedDMV2
from agents.scripted_heroes import ScriptedHeroes
from agents.scripted_heroes_v2 import ScriptedHeroesV2
from agents.search import SearchAgent
from agents.spec import AgentSpec, AgentSpecError, CheckpointNotFoundError, from_spec, parse_spec
from agents.turn_search import TurnSearchAgent

AGENTS = {
    "random": RandomAgent,
    "idle": IdleAgent,
    "scripted_heroes": ScriptedHeroes,
    "scripted_dm": ScriptedDM,
    "scripted_heroes_v2": ScriptedHeroesV2,
    "scripted_dm_v2": ScriptedDMV2,
    "runaway_dm": RunawayDM,
    "search": SearchAgent,
    "search_v2": TurnSearchAgent,
    "policy": PolicyAgent,
}


def make(name: str, **kw):
    """An agent by name: ``"random"``, ``"idle"``, ``"scripted_heroes"``, ``"scripted_dm"`` (v1),
    ``"scripted_heroes_v2"``, ``"scripted_dm_v2"``, ``"runaway_dm"``, ``"search"`` (v1),
    ``"search_v2"`` or ``"policy"`` (``PolicyAgent``, which needs ``path=``);
    keyword arguments go to its constructor. (The class names; the spec language of ``from_spec``
    names versions as ``scripted@v1``, ``scripted@v2``, ``search@v1``, ``search@v2``.)"""
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; the agents are {sorted(AGENTS)}")
    return AGENTS[name](**kw)


__all__ = [
    "AGENTS",
    "Agent",
    "AgentSpec",
    "AgentSpecError",
    "CheckpointNotFoundError",
    "GameAgent",
    "IdleAgent",
    "IllegalChoiceError",
    "PolicyAgent",
    "PoolAgent",
    "RandomAgent",
    "RunawayDM",
    "ScriptedDM",
    "ScriptedDMV2",
    "ScriptedHeroes",
    "ScriptedHeroesV2",
    "SearchAgent",
    "TurnSearchAgent",
    "from_spec",
    "game_of",
    "make",
    "parse_spec",
]
