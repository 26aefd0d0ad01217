"""Play N games for any pairing of agents and print both win rates and how the games ended, with
95% Wilson intervals.

    python -m training.evaluate --heroes-agent random --dm-agent runs/<run>/final_model.zip --games 1000

Each side is ``random``, a name the ``agents`` package knows (``scripted``, ``search``, ...), a
MaskablePPO checkpoint (``.zip``, its actions sampled) or ``policy:<checkpoint>`` (played greedily).
Game ``i`` is played with seed ``seed + i`` (agents are seeded from it too), so a result repeats
exactly; ``--workers k`` splits the games over ``k`` processes.

Agents that choose from the engine's game (the scripted, search, random and trained agents of
``agents``) play on the bare engine, by the one episode loop (``dungeon_env.episode.play_episode``);
others (an object with only ``act``, a pool) play through the env. Both play the same games.

The two win rates (``win_rates`` in the JSON): ``completed`` (every surviving hero left the dungeon,
the adventure's goals met or not) and ``completed_with_goals`` (completed with every primary goal
met). How the games ended (``counts``, ``rates``, ``intervals``; they add up to the games played),
named by ``dungeon_env.ending.Ending``: ``completed_with_goals``, ``completed_without_goals``,
``failed`` (every hero dead) and ``truncated`` (the turn cap). :func:`read_result` reads a saved
JSON back, the names of files written before 2026-12-06 (``walked_out``) included.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math
import multiprocessing
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from dungeon_env.aec import raw_env
from dungeon_env.ending import GAME_ENDINGS, Ending, classify, read_ending
from dungeon_env.episode import play_episode, seed_agents
from dungeon_env.tasks import wilson_interval  # SciPy's Wilson interval; imported from here too
from training.common import CountProgress, EnvSettings, make_agent, parse_settings

ENDS = tuple(end.value for end in GAME_ENDINGS)
WIN_RATES = {
    "completed": (Ending.COMPLETED_WITH_GOALS.value, Ending.COMPLETED_WITHOUT_GOALS.value),
    "completed_with_goals": (Ending.COMPLETED_WITH_GOALS.value,),
}
WIN_TEXT = {
    "completed": "completed (every surviving hero left, goals met or not)",
    "completed_with_goals": "completed with every primary goal met",
}


@dataclasses.dataclass
class Settings(EnvSettings):
    """Play N games between a hero side and a DM side and print both win rates (completed, and
    completed with every primary goal met) and how the games ended, with 95% Wilson intervals."""

    heroes_agent: str = "random"
    """the heroes' side: random, an agents name (policy: the shipped one), a MaskablePPO checkpoint
    (.zip, actions sampled) or policy:<checkpoint> (played greedily)"""
    dm_agent: str = "random"
    """the DM's side, as for the heroes"""
    games: int = 100
    """number of games"""
    seed: int = 0
    """game i is played with seed seed + i"""
    workers: int = 1
    """processes to play in (1: in this process)"""
    json_out: str = ""
    """also write the counts and intervals to this JSON file ('' for none)"""
    progress: bool = True
    """show the games played and the time left (a bar on a terminal, else a line every 10% or minute)"""


def play_games(heroes_agent: Any, dm_agent: Any, env_kwargs: dict[str, Any], seeds: list[int]) -> Counter:
    """Play one game per seed (both agents seeded from it, ``episode.seed_agents``); returns how many
    ended each way (``ENDS``). Agents that choose from the game play on the bare engine
    (``episode.play_episode``), others through the env."""
    env = raw_env(**env_kwargs)
    heroes, dm = make_agent(heroes_agent, "heroes", env=env), make_agent(dm_agent, "dm", env=env)
    on_engine = all(callable(getattr(agent, "choose", None)) for agent in (heroes, dm))
    counts: Counter = Counter()
    for seed in seeds:
        seed_agents(heroes, dm, seed)
        if on_engine:
            ending = play_episode(heroes, dm, env.episode_start(seed)).ending
        else:
            ending = _play_env_game(env, heroes, dm, seed)
        counts[ending.value] += 1
    env.close()
    return counts


def _play_env_game(env: raw_env, heroes: Any, dm: Any, seed: int) -> Ending:
    """One game through the env, for agents that read only observations; its ending."""
    env.reset(seed=seed)
    final: dict[str, Any] = {}
    for agent in env.agent_iter():
        obs, _reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final = final or info  # every agent's final info says how the episode ended
            env.step(None)
            continue
        actor = dm if agent == "dm" else heroes
        env.step(int(actor.act(obs["observation"], obs["action_mask"])))
    return classify(final["outcome"], final["goals_met"])


def read_result(data: dict[str, Any]) -> dict[str, Any]:
    """A saved result (``--json-out``) with today's names of the endings (``Ending``; files written
    before 2026-12-06 said ``walked_out``)."""
    result = dict(data)
    for key in ("counts", "rates", "intervals"):
        if key in result:
            result[key] = {read_ending(end).value: value for end, value in result[key].items()}
    return result


def _play_chunk_here(args: tuple) -> Counter:
    return play_games(*args)


def _play_chunk(args: tuple) -> Counter:
    if importlib.util.find_spec("torch"):  # checkpoint agents: one thread per worker process
        import torch

        torch.set_num_threads(1)
    return play_games(*args)


def evaluate(
    heroes_agent: Any,
    dm_agent: Any,
    env_kwargs: dict[str, Any],
    games: int,
    seed: int = 0,
    workers: int = 1,
    progress: bool = False,
) -> dict[str, Any]:
    """Play ``games`` games (in ``workers`` processes) and return both win rates and how the games
    ended, as counts, rates and Wilson intervals; ``progress``: show the games done and the time
    left (``training.common.CountProgress``)."""
    seeds = [seed + i for i in range(games)]
    size = max(1, min(25, math.ceil(games / (4 * max(workers, 1)))))  # a line or a bar step per chunk
    chunks = [seeds[i : i + size] for i in range(0, games, size)]
    jobs = [(heroes_agent, dm_agent, env_kwargs, c) for c in chunks]
    bar = CountProgress(games, f"{heroes_agent} vs {dm_agent}", enabled=progress)
    counts: Counter = Counter()
    try:
        if workers <= 1:
            parts = map(_play_chunk_here, jobs)
            for chunk, part in zip(chunks, parts, strict=True):
                counts += part
                bar.advance(len(chunk))
        else:
            context = multiprocessing.get_context("forkserver")
            with ProcessPoolExecutor(min(workers, len(chunks)), mp_context=context) as pool:
                for chunk, part in zip(chunks, pool.map(_play_chunk, jobs), strict=True):
                    counts += part
                    bar.advance(len(chunk))
    finally:
        bar.close()
    ends = list(ENDS) + sorted(set(counts) - set(ENDS))
    wins = {name: sum(counts[e] for e in kinds) for name, kinds in WIN_RATES.items()}
    return {
        "heroes_agent": str(heroes_agent),
        "dm_agent": str(dm_agent),
        "adventure": env_kwargs.get("adventure"),
        "games": games,
        "win_rates": {
            name: {"count": c, "rate": c / games if games else 0.0, "interval": wilson_interval(c, games)}
            for name, c in wins.items()
        },
        "counts": {e: counts[e] for e in ends},
        "rates": {e: counts[e] / games if games else 0.0 for e in ends},
        "intervals": {e: wilson_interval(counts[e], games) for e in ends},
    }


def _row(name: str, count: int, rate: float, interval) -> str:
    low, high = interval
    return f"| {name} | {count} | {rate:.3f} | [{low:.3f}, {high:.3f}] |"


def format_table(result: dict[str, Any]) -> str:
    """The result as two markdown tables (games, rate, 95% Wilson interval): the two win rates, and
    how the games ended (adding up to the games played)."""
    lines = [
        f"heroes: {result['heroes_agent']}  vs  dm: {result['dm_agent']}  on {result['adventure']}, "
        f"{result['games']} games",
        "",
        "| win rate | games | rate | 95% Wilson interval |",
        "|---|---:|---:|---|",
    ]
    for name, w in result["win_rates"].items():
        lines.append(_row(WIN_TEXT.get(name, name), w["count"], w["rate"], w["interval"]))
    lines += ["", "| end | games | rate | 95% Wilson interval |", "|---|---:|---:|---|"]
    for end, count in result["counts"].items():
        lines.append(_row(read_ending(end).text, count, result["rates"][end], result["intervals"][end]))
    lines.append(f"| total | {sum(result['counts'].values())} | | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    settings = parse_settings(Settings, argv)
    start = time.perf_counter()
    result = evaluate(
        settings.heroes_agent,
        settings.dm_agent,
        settings.env_kwargs(),
        settings.games,
        seed=settings.seed,
        workers=settings.workers,
        progress=settings.progress,
    )
    print(format_table(result))
    print(f"({time.perf_counter() - start:.1f} s)")
    if settings.json_out:
        with open(settings.json_out, "w") as f:
            json.dump(result, f, indent=2)
    return result


if __name__ == "__main__":
    main()
