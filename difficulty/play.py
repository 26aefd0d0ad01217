"""Play the games of one cell and return their records.

``play_task(task)`` is what every backend runs: ``task`` is a plain dict (it crosses process and Ray
boundaries as it is) naming the cell and the game indices to play::

    {"adventure": "flooded_cellar", "party": ["bram", "tovar", "gunnhild"], "max_turns": 100,
     "heroes_agent": "scripted_heroes", "dm_agent": "scripted_dm", "variant": None | Variant.to_json(),
     "seed": 0, "indices": [0, 1, 2]}

Game ``i`` is played with seed ``seed + i``, and the two agents are reseeded before it from that
seed (``SeedSequence(seed + i).generate_state(2)``, as ``training.evaluate`` does): the same game
index gets the same dice and the same agent choices in every variant and every process.

Every agent of the ``agents`` package plays on the bare engine (``agent.choose(game)``: the scripted,
search and random agents build no observation, trained policies build only their own); the env
path (``dungeon_env.raw_env``, like ``training.evaluate.play_games``) plays the very same games and
is kept for agents that only have ``act(observation, mask)``.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from difficulty.record import record_of
from difficulty.spec import AgentSpec, parse_agent

_VARIANTS: dict[str, Any] = {}
_ENV_PLAYERS: dict[str, tuple] = {}


def make_side(spec: AgentSpec, side: str, env: Any = None) -> Any:
    """The agent for ``side`` from its spec (bound to ``env`` when given and the agent reads games)."""
    options = dict(spec.options)
    import agents

    if spec.name == "random":
        return agents.RandomAgent(**options)
    if spec.is_checkpoint:  # plain or advised MaskablePPO checkpoints
        agent = agents.make("policy", path=spec.name, role=side, **options)
    elif spec.name == "policy":
        agent = agents.make("policy", role=side, **options)
    else:
        agent = agents.make(spec.name, **options)
    if env is not None and hasattr(agent, "bind"):
        agent.bind(env=env)
    return agent


ENGINE_AGENTS = ("random", "scripted_heroes", "scripted_dm", "runaway_dm", "search", "policy")


def plays_on_engine(spec: AgentSpec) -> bool:
    """True for agents that choose from the engine's game: all but foreign agents that need the env.
    Trained policies build their own observation from the game (``PolicyAgent.choose``), so they
    skip the env's per-step bookkeeping."""
    return spec.name in ENGINE_AGENTS or spec.is_checkpoint


def variant_from(data: Any) -> Any:
    """The ``Variant`` of a task (built once per process and variant)."""
    if data is None:
        return None
    key = json.dumps(data, sort_keys=True)
    if key not in _VARIANTS:
        from dungeon_env.content.variants import Variant

        _VARIANTS[key] = Variant.from_json(data)
    return _VARIANTS[key]


def _reseed(agent: Any, seed: int) -> None:
    if hasattr(agent, "seed"):
        agent.seed(int(seed))


def agent_seeds(game_seed: int) -> tuple[int, int]:
    heroes, dm = np.random.SeedSequence(game_seed).generate_state(2)
    return int(heroes), int(dm)


def _game_kwargs(task: dict, seed: int) -> dict[str, Any]:
    kwargs = {"adventure": task["adventure"], "heroes": list(task["party"]), "seed": seed}
    kwargs["max_turns"] = task["max_turns"]
    variant = variant_from(task.get("variant"))
    if variant is not None:
        kwargs["variant"] = variant
    return kwargs


def play_engine_game(task: dict, index: int, heroes: Any, dm: Any) -> dict:
    """One game on the bare engine; ``heroes`` and ``dm`` have ``choose(game)``."""
    from dungeon_env.engine import Game

    seed = task["seed"] + index
    game = Game.new(**_game_kwargs(task, seed))
    for agent, agent_seed in zip((heroes, dm), agent_seeds(seed), strict=True):
        _reseed(agent, agent_seed)
        if hasattr(agent, "bind"):
            agent.bind(game=game)
    while not game.over:
        game.apply(int((dm if game.agent == "dm" else heroes).choose(game)))
    return record_of(game, index)


def _env_players(task: dict) -> tuple:
    """The env and the two agents of a cell (built once per process and cell: checkpoints load once)."""
    key = json.dumps({k: v for k, v in task.items() if k not in ("indices", "seed")}, sort_keys=True)
    if key not in _ENV_PLAYERS:
        from dungeon_env.env import raw_env

        kwargs = _game_kwargs(task, 0)
        kwargs.pop("seed")
        env = raw_env(**kwargs)
        heroes = make_side(parse_agent(task["heroes_agent"], "heroes"), "heroes", env=env)
        dm = make_side(parse_agent(task["dm_agent"], "dm"), "dm", env=env)
        _ENV_PLAYERS[key] = (env, heroes, dm)
    return _ENV_PLAYERS[key]


def play_env_game(task: dict, index: int) -> dict:
    """One game through the PettingZoo env, for agents that need observations."""
    env, heroes, dm = _env_players(task)
    seed = task["seed"] + index
    env.reset(seed=seed)
    for agent, agent_seed in zip((heroes, dm), agent_seeds(seed), strict=True):
        _reseed(agent, agent_seed)
    for name in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        actor = dm if name == "dm" else heroes
        env.step(int(actor.act(obs["observation"], obs["action_mask"])))
    return record_of(env.game, index)


def prepare(task: dict) -> None:
    """Load what the games of ``task`` need (content, board tables, variant cards, agents) without
    playing: a process forked afterwards starts with it all in memory."""
    from dungeon_env.engine import Game

    Game.new(**_game_kwargs(task, 0))
    specs = parse_agent(task["heroes_agent"], "heroes"), parse_agent(task["dm_agent"], "dm")
    if all(plays_on_engine(spec) for spec in specs):
        make_side(specs[0], "heroes"), make_side(specs[1], "dm")


def play_task(task: dict) -> list[dict]:
    """The records of the games ``task["indices"]`` of one cell, in that order."""
    specs = parse_agent(task["heroes_agent"], "heroes"), parse_agent(task["dm_agent"], "dm")
    if all(plays_on_engine(spec) for spec in specs):
        heroes, dm = make_side(specs[0], "heroes"), make_side(specs[1], "dm")
        return [play_engine_game(task, i, heroes, dm) for i in task["indices"]]
    return [play_env_game(task, i) for i in task["indices"]]


__all__ = [
    "agent_seeds",
    "make_side",
    "play_engine_game",
    "play_env_game",
    "play_task",
    "plays_on_engine",
    "prepare",
]
