"""Play the games of one cell and return their records.

``play_task(task)`` is what every backend runs: ``task`` is a :class:`Task`, the typed cell (a
frozen dataclass; it pickles, so it crosses process and Ray boundaries as it is) naming the cell and
the game indices to play, its agent specs parsed once, when the experiment was read
(``runner.task_of``), never again by the workers. The plain dict form is accepted as well (and read
into a Task once, at the door)::

    {"adventure": "flooded_cellar", "party": ["bram", "tovar", "gunnhild"], "max_turns": 100,
     "heroes_agent": "scripted_heroes@v2", "dm_agent": "scripted_dm@v2", "variant": None | Variant.to_json(),
     "seed": 0, "indices": [0, 1, 2]}

Game ``i`` is played with seed ``seed + i``, and the two agents are reseeded before it from that
seed (``SeedSequence(seed + i).generate_state(2)``, as ``training.evaluate`` does): the same game
index gets the same dice and the same agent choices in every variant and every process.

Every agent of the ``agents`` package plays on the bare engine (``agent.choose(game)``: the scripted,
search and random agents build no observation, trained policies build only their own), by the one
episode loop (``dungeon_env.episode.play_episode``); the env path (``dungeon_env.raw_env``, like
``training.evaluate.play_games``) plays the very same games and is kept for agents that only have
``act(observation, mask)``. Both paths share the episode's bookkeeping (``dungeon_env.episode.Episode``:
the campaign, the rewards, the ending), so where they could differ is only in what an agent reads:
the game, or the observation the env builds from it.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from agents.spec import AgentSpec, from_spec
from difficulty.record import record_of
from difficulty.spec import parse_agent
from dungeon_env.episode import play_episode, seed_agents

_VARIANTS: dict[str, Any] = {}
_ENV_PLAYERS: dict[str, tuple] = {}
ENGINE_AGENTS = ("random", "scripted_heroes", "scripted_dm", "runaway_dm", "search", "policy", "checkpoint")


@dataclasses.dataclass(frozen=True)
class Task:
    """The games ``indices`` of one cell: the game's set-up, both sides' parsed agent specs, the
    variant's JSON form (``Variant.to_json()``, built into a Variant once per process; None for the
    base rules) and the experiment's seed."""

    adventure: str
    party: tuple[str, ...]
    max_turns: int
    heroes: AgentSpec
    dm: AgentSpec
    variant: Any = None
    seed: int = 0
    indices: tuple[int, ...] = ()

    @classmethod
    def of(cls, task: Task | dict) -> Task:
        """A Task as it is; the plain dict form read into one (its agent texts parsed here)."""
        if isinstance(task, Task):
            return task
        return cls(
            adventure=task["adventure"],
            party=tuple(task["party"]),
            max_turns=int(task["max_turns"]),
            heroes=parse_agent(task["heroes_agent"], "heroes"),
            dm=parse_agent(task["dm_agent"], "dm"),
            variant=task.get("variant"),
            seed=int(task.get("seed", 0)),
            indices=tuple(task.get("indices", ())),
        )

    def to_json(self) -> dict[str, Any]:
        """The plain dict form (see the module docstring)."""
        return {
            "adventure": self.adventure,
            "party": list(self.party),
            "max_turns": self.max_turns,
            "heroes_agent": self.heroes.to_json(),
            "dm_agent": self.dm.to_json(),
            "variant": self.variant,
            "seed": self.seed,
            "indices": list(self.indices),
        }

    def with_indices(self, indices) -> Task:
        return dataclasses.replace(self, indices=tuple(indices))

    @property
    def cell_key(self) -> str:
        """What tells the cell apart from others (all but the seed and the game indices)."""
        data = self.to_json()
        del data["seed"], data["indices"]
        return json.dumps(data, sort_keys=True)

    @property
    def on_engine(self) -> bool:
        """Both agents play on the bare engine (``plays_on_engine``)."""
        return plays_on_engine(self.heroes) and plays_on_engine(self.dm)


def make_side(spec: AgentSpec | str, side: str, env: Any = None) -> Any:
    """The agent for ``side`` from its spec (``agents.from_spec``), bound to ``env`` when given."""
    return from_spec(spec, side, env=env)


def plays_on_engine(spec: AgentSpec) -> bool:
    """True for agents that choose from the engine's game: all but foreign agents that need the env
    (and self-play pools). Trained policies build their own observation from the game
    (``PolicyAgent.choose``), so they skip the env's per-step bookkeeping."""
    return spec.name in ENGINE_AGENTS


def variant_from(data: Any) -> Any:
    """The ``Variant`` of a task (built once per process and variant)."""
    if data is None:
        return None
    key = json.dumps(data, sort_keys=True)
    if key not in _VARIANTS:
        from dungeon_env.content.variants import Variant

        _VARIANTS[key] = Variant.from_json(data)
    return _VARIANTS[key]


def _game_kwargs(task: Task, seed: int) -> dict[str, Any]:
    kwargs = {"adventure": task.adventure, "heroes": list(task.party), "seed": seed}
    kwargs["max_turns"] = task.max_turns
    variant = variant_from(task.variant)
    if variant is not None:
        kwargs["variant"] = variant
    return kwargs


def play_engine_game(task: Task | dict, index: int, heroes: Any, dm: Any) -> dict:
    """One game on the bare engine, played by the one episode loop (``dungeon_env.episode``);
    ``heroes`` and ``dm`` are agents of the ``agents`` package (``choose(game)``, ``seed``, ``bind``)."""
    from dungeon_env.engine import Game

    task = Task.of(task)
    seed = task.seed + index
    seed_agents(heroes, dm, seed)
    result = play_episode(heroes, dm, Game.new(**_game_kwargs(task, seed)))
    return record_of(result.game, index)


def _env_players(task: Task) -> tuple:
    """The env and the two agents of a cell (built once per process and cell: checkpoints load once)."""
    key = task.cell_key
    if key not in _ENV_PLAYERS:
        from dungeon_env.aec import raw_env

        kwargs = _game_kwargs(task, 0)
        kwargs.pop("seed")
        env = raw_env(**kwargs)
        _ENV_PLAYERS[key] = (
            env,
            make_side(task.heroes, "heroes", env=env),
            make_side(task.dm, "dm", env=env),
        )
    return _ENV_PLAYERS[key]


def play_env_game(task: Task | dict, index: int, heroes: Any = None, dm: Any = None) -> dict:
    """One game through the PettingZoo env, for agents that need observations: the env's own
    episode bookkeeping (``dungeon_env.episode.Episode``, as the engine path's loop). ``heroes`` and
    ``dm``: agents to bind to the env (default: the cell's, built once per process)."""
    task = Task.of(task)
    env, cell_heroes, cell_dm = _env_players(task)
    heroes = cell_heroes if heroes is None else heroes.bind(env=env)
    dm = cell_dm if dm is None else dm.bind(env=env)
    seed = task.seed + index
    env.reset(seed=seed)
    seed_agents(heroes, dm, seed)
    for name in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        actor = dm if name == "dm" else heroes
        env.step(int(actor.act(obs["observation"], obs["action_mask"])))
    return record_of(env.game, index)


def prepare(task: Task | dict) -> None:
    """Load what the games of ``task`` need (content, board tables, the heroes' view tables, variant
    cards, agents) without playing: a process forked afterwards starts with it all in memory."""
    from dungeon_env.engine import Game
    from dungeon_env.engine.side_knowledge import heroes_view

    task = Task.of(task)
    heroes_view(Game.new(**_game_kwargs(task, 0)))  # the view's line of sight: a second per adventure
    if task.on_engine:
        make_side(task.heroes, "heroes"), make_side(task.dm, "dm")


def play_task(task: Task | dict) -> list[dict]:
    """The records of the games ``task.indices`` of one cell, in that order."""
    task = Task.of(task)
    if task.on_engine:
        heroes, dm = make_side(task.heroes, "heroes"), make_side(task.dm, "dm")
        return [play_engine_game(task, i, heroes, dm) for i in task.indices]
    return [play_env_game(task, i) for i in task.indices]


__all__ = [
    "ENGINE_AGENTS",
    "Task",
    "make_side",
    "play_engine_game",
    "play_env_game",
    "play_task",
    "plays_on_engine",
    "prepare",
]
