"""Decision datasets from a teacher: every decision of one side, played by the teacher, to clone.

    python -m training.dataset --teacher scripted@v2 --opponent scripted@v2 --side heroes \\
        --adventure goblin_warrens --heroes 3 --heroes 4 --games 20 --seed 0 --out data/x

Every (adventure, party size) cell plays ``--games`` games; game ``i`` of a cell is played from the
seed ``seed + i`` (``RoleEnv.reset(seed=seed + i)``, as the difficulty tool numbers its games). The
learning side is a :class:`~dungeon_env.wrappers.RoleEnv` (the env a cloned network is later
fine-tuned in), the other side its opponent from the agent language, and the teacher (any agent
spec) answers each of the side's decisions from the observation and mask the env hands the side,
bound to the env as every agent of the agent language is. At each decision is stored what the side
was handed, never the teacher's own view of the game: the flat observation v1 and the mask, then the
teacher's action, the decision kind (the env's ``info["decision"]``), the agent asked, and the game's
final return for the side; where the teacher is the search v2 (``TurnSearchAgent``) and it searched
at that decision, the value of its choice (``search_value``, the mean over its rounds of the side's
chance of completing with the goals, 1 minus it for the DM; NaN elsewhere). The search's visit
counts are not stored: it plays every root option once per round, so its visits are equal by
construction, and its options are whole Movements (an end square, a hero to hunt), not actions of
the flat table. The files: ``training.dataset_files``.

With ``--driver`` (an agent spec of the side, e.g. a clone ``policy:runs/clone/model.zip``) the
driver's actions are played and the teacher's are stored: the teacher labels the states the driver
reaches, which is DAgger's data (Ross, Gordon and Bagnell, 2011), the cure for a clone's compounding
errors. The games' action lists are then the driver's (a game still replays from its seed), the
returns the driver's games'.

With ``--workers N`` the games are played in parallel, a chunk of up to ``--games-per-shard`` games
of one cell at a time (``play_chunk``, which builds its own env and agents from the specs), by the
difficulty tool's backends (``difficulty.backends``): ``--backend local`` (the default with more
than one worker) worker processes, ``ray`` Ray tasks (``--ray-address auto`` joins a cluster whose
nodes have this package installed; by default a local Ray starts; Ray is the optional extra
``pip install -e '.[ray]'``), ``serial`` this process. ``--workers 1`` (the default) plays in this
process. A game depends only on its cell, its seed and the specs, and the shards are written in the
plan's order whatever order the chunks finish in: the arrays and the manifest's games are the same
whatever the workers and backend (its ``seconds`` and ``code_version`` aside).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agents.spec import AgentSpecError, from_spec, parse_spec
from agents.turn_search import TurnSearchAgent
from difficulty.backends import make_backend
from difficulty.console import whole_number
from difficulty.spec import BACKENDS
from dungeon_env.episode import agent_seeds
from dungeon_env.wrappers import RoleEnv
from training.common import CountProgress, other_side
from training.dataset_files import (
    DECISION_ARRAYS,
    DECISION_KINDS,
    DM_AGENT,
    NO_VALUE,
    shard_name,
    write_manifest,
    write_shard,
)

SIDES = ("heroes", "dm")


@dataclass
class GameRecord:
    """One game played for a dataset: its decisions (``rows``: one dict per decision of the side,
    keys of ``DECISION_ARRAYS`` but ``game`` and ``side_return``), its description and its actions."""

    info: dict
    actions: list[int]
    rows: list[dict] = field(default_factory=list)


def searched_value(teacher, stats_before: dict) -> np.float32:
    """The search v2's value of the option it chose, if it searched at the decision just answered
    (its ``last_stats`` is a new dict then), else NaN."""
    stats = getattr(teacher, "last_stats", None)
    if not isinstance(teacher, TurnSearchAgent) or stats is stats_before or not stats:
        return NO_VALUE
    return np.float32(stats["options"][stats["choice"]][1])


def agent_index(agent: str) -> int:
    return DM_AGENT if agent == "dm" else int(agent.removeprefix("hero_"))


def play_game(env: RoleEnv, teacher, side: str, seed: int, driver=None) -> GameRecord:
    """Play one game of ``env`` from ``seed`` with ``teacher`` answering the side's decisions; with a
    ``driver``, the driver's actions are played and the teacher's stored (DAgger's labels of the
    states the driver reaches)."""
    observation, info = env.reset(seed=seed)
    game_seed = int(env.env.episode_seed)
    teacher.seed(agent_seeds(game_seed)[SIDES.index(side)])
    if driver is not None:
        driver.seed(agent_seeds(game_seed)[SIDES.index(side)])
    rows, total, done, same = [], 0.0, False, 0
    while not done:
        mask = env.action_masks()
        before = getattr(teacher, "last_stats", None)
        action = int(teacher.act(observation, mask.astype(np.int8)))
        played = action if driver is None else int(driver.act(observation, mask.astype(np.int8)))
        same += played == action
        rows.append(
            {
                "observation": observation,
                "action_mask": mask,
                "action": action,
                "decision": DECISION_KINDS.index(info["decision"]),
                "agent": agent_index(info["agent"]),
                "step": len(env.env.actions),
                "search_value": searched_value(teacher, before),
            }
        )
        observation, reward, terminated, truncated, info = env.step(played)
        total += reward
        done = terminated or truncated
    description = {
        "adventure": env.env.adventure,
        "party": list(env.env.hero_ids),
        "party_size": len(env.env.hero_ids),
        "reset_seed": seed,
        "game_seed": game_seed,
        "decisions": len(rows),
        "teacher_played": same,  # decisions where the action played is the teacher's (all without a driver)
        "side_return": total,
        "outcome": info["outcome"],
    }
    return GameRecord(description, list(env.env.actions), rows)


def decision_arrays(records: list[GameRecord], first_game: int) -> dict[str, np.ndarray]:
    """The decision arrays of ``records`` (game indices from ``first_game``)."""
    columns: dict[str, list] = {name: [] for name in DECISION_ARRAYS}
    for k, record in enumerate(records):
        for row in record.rows:
            for name, value in row.items():
                columns[name].append(value)
            columns["game"].append(first_game + k)
            columns["side_return"].append(record.info["side_return"])
    return {
        name: np.asarray(values, dtype).reshape(-1, *shape)
        for (name, values), (dtype, shape) in zip(columns.items(), DECISION_ARRAYS.values(), strict=True)
    }


def code_version() -> str:
    """The commit the code was at (``git rev-parse HEAD``, ``+dirty`` if files differ), or ``""``."""
    here = Path(__file__).parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=here,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""
    return head + ("+dirty" if dirty else "")


@dataclass
class Plan:
    """What a dataset plays: the teacher and opponent specs, the side, the cells, games per cell."""

    teacher: str
    opponent: str
    side: str
    adventures: list[str]
    parties: list[int]
    games: int
    seed: int = 0
    max_turns: int = 100
    games_per_shard: int = 10
    driver: str | None = None  # the side's agent whose actions are played (None: the teacher's)

    def cells(self) -> list[tuple[str, int]]:
        return [(adventure, party) for adventure in self.adventures for party in self.parties]


def check_plan(plan: Plan) -> None:
    """ValueError (AgentSpecError for a spec) naming the first thing wrong with ``plan``."""
    if plan.side not in SIDES:
        raise ValueError(f"side must be one of {SIDES}, got {plan.side!r}")
    parse_spec(plan.teacher, plan.side)
    parse_spec(plan.opponent, other_side(plan.side))
    if plan.driver is not None:
        parse_spec(plan.driver, plan.side)
    if plan.games < 1 or plan.games_per_shard < 1:
        raise ValueError(
            f"games and games per shard must be at least 1, got {plan.games}, {plan.games_per_shard}"
        )
    bad = [n for n in plan.parties if not 3 <= n <= 5]
    if bad:
        raise ValueError(f"a party has 3 to 5 heroes, got {bad}")


def make_env(plan: Plan, adventure: str, party: int) -> tuple[RoleEnv, object, object]:
    """The side's env for a cell (the opponent built and bound by ``RoleEnv``), the teacher and the
    driver (None if the teacher drives), bound to it; an illegal action raises rather than ending the
    game."""
    env = RoleEnv(
        role=plan.side,
        opponent=plan.opponent,
        illegal_action="raise",
        adventure=adventure,
        heroes=party,
        max_turns=plan.max_turns,
    )
    driver = None if plan.driver is None else from_spec(plan.driver, plan.side, env=env.env)
    return env, from_spec(plan.teacher, plan.side, env=env.env), driver


@dataclass(frozen=True)
class Chunk:
    """A unit of work: the games ``first .. first + count - 1`` of one cell of ``plan`` (played from
    the seeds ``plan.seed + first ..``)."""

    plan: Plan
    adventure: str
    party: int
    first: int
    count: int


def chunks(plan: Plan) -> list[Chunk]:
    """The chunks of ``plan`` in its order: every cell's games, ``games_per_shard`` at a time."""
    size = plan.games_per_shard
    return [
        Chunk(plan, adventure, party, first, min(size, plan.games - first))
        for adventure, party in plan.cells()
        for first in range(0, plan.games, size)
    ]


def play_chunk(chunk: Chunk) -> list[GameRecord]:
    """The games of ``chunk``, in order, on an env and agents of its own (built from the specs, so
    it runs as well in a worker process or a Ray task as here)."""
    plan = chunk.plan
    env, teacher, driver = make_env(plan, chunk.adventure, chunk.party)
    try:
        return [
            play_game(env, teacher, plan.side, plan.seed + i, driver)
            for i in range(chunk.first, chunk.first + chunk.count)
        ]
    finally:
        env.close()


def warm_chunk(chunk: Chunk) -> None:
    """Load what a chunk's games need of the content (adventure, board and view tables) without the
    agents (a network would load torch before the local workers are forked)."""
    env = RoleEnv(
        role=chunk.plan.side,
        opponent="random",
        adventure=chunk.adventure,
        heroes=chunk.party,
        max_turns=chunk.plan.max_turns,
    )
    env.reset(seed=chunk.plan.seed)
    env.close()


def open_backend(plan: Plan, workers: int = 1, backend: str | None = None, ray_address: str | None = None):
    """Where ``plan``'s chunks run: ``backend`` (``serial``, ``local`` or ``ray``; default ``local``
    with more than one worker, else ``serial``, in this process) with ``workers`` processes or Ray
    CPUs. RuntimeError if the ray backend is asked for and Ray is not installed."""
    name = backend or ("local" if workers > 1 else "serial")
    first_of_cells = [c for c in chunks(plan) if c.first == 0]
    return make_backend(name, workers, ray_address, first_of_cells, play=play_chunk, warm=warm_chunk)


def play_games(plan: Plan, backend=None, progress: bool = False):
    """Every game of ``plan``, in order (cells in turn, seeds ``seed .. seed + games - 1``), played
    in chunks on ``backend`` (None: in this process); chunks that finish early wait their turn, and
    at most twice as many as the backend has workers are out at once."""
    backend = backend or make_backend("serial", play=play_chunk)
    todo = chunks(plan)
    window = 2 * max(int(backend.workers), 1)
    positions: dict = {}  # handle -> the chunk's position in todo
    finished: dict[int, list[GameRecord]] = {}
    submitted = yielded = 0
    bar = CountProgress(
        len(plan.cells()) * plan.games, f"{plan.teacher} as the {plan.side}", enabled=progress
    )
    try:
        while yielded < len(todo):
            while submitted < len(todo) and submitted - yielded < window:
                positions[backend.submit(todo[submitted])] = submitted
                submitted += 1
            while yielded not in finished:
                for handle, records in backend.wait():
                    finished[positions.pop(handle)] = records
                    bar.advance(len(records))
            yield from finished.pop(yielded)
            yielded += 1
    finally:
        for handle in positions:
            backend.cancel(handle)
        bar.close()


def build_dataset(plan: Plan, out: str | Path, progress: bool = False, backend=None) -> dict:
    """Play ``plan`` on ``backend`` (``open_backend``; None: in this process) and write its dataset to
    ``out`` (shards of ``games_per_shard`` games and the manifest); returns the manifest. The caller
    closes the backend it opened."""
    check_plan(plan)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    games, shards, pending = [], [], []

    def flush() -> None:
        first = len(games) - len(pending)
        name = shard_name(len(shards))
        arrays = decision_arrays(pending, first)
        write_shard(out / name, arrays, [r.actions for r in pending])
        shards.append({"file": name, "games": len(pending), "decisions": len(arrays["action"])})
        pending.clear()

    for record in play_games(plan, backend, progress):
        games.append(dict(record.info, game=len(games)))
        pending.append(record)
        if len(pending) == plan.games_per_shard:
            flush()
    if pending:
        flush()
    manifest = {
        "side": plan.side,
        "teacher": str(parse_spec(plan.teacher, plan.side)),
        "opponent": str(parse_spec(plan.opponent, other_side(plan.side))),
        "driver": None if plan.driver is None else str(parse_spec(plan.driver, plan.side)),
        "adventures": plan.adventures,
        "parties": plan.parties,
        "games_per_cell": plan.games,
        "seeds": [plan.seed, plan.seed + plan.games - 1],
        "max_turns": plan.max_turns,
        "decisions": sum(s["decisions"] for s in shards),
        "decision_kinds": DECISION_KINDS,
        "code_version": code_version(),
        "seconds": round(time.perf_counter() - start, 1),
        "shards": shards,
        "games": games,
    }
    write_manifest(out, manifest)
    return manifest


def summary(manifest: dict) -> str:
    """A dataset's counts and its games' mean return by adventure, as lines of text."""
    returns: dict[str, list[float]] = {}
    for game in manifest["games"]:
        returns.setdefault(game["adventure"], []).append(game["side_return"])
    lines = [
        f"{len(manifest['games'])} games, {manifest['decisions']} decisions of the {manifest['side']} "
        f"({manifest['teacher']} against {manifest['opponent']}"
        + (f", {manifest['driver']} playing" if manifest.get("driver") else "")
        + f") in {manifest['seconds']} s"
    ]
    lines += [f"  {a}: {len(r)} games, mean return {np.mean(r):+.2f}" for a, r in returns.items()]
    if manifest.get("driver"):
        same = sum(g.get("teacher_played", 0) for g in manifest["games"])
        share = same / max(manifest["decisions"], 1)
        lines.append(f"  the driver chose as the teacher at {share:.1%} of the decisions")
    return "\n".join(lines)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m training.dataset",
        description="Play games with a teacher for one side and store every decision of that side "
        "(observation, mask, the teacher's action, decision kind, the game's return) for cloning.",
    )
    p.add_argument("--teacher", default="scripted@v2", help="the side's agent spec (default scripted@v2)")
    p.add_argument(
        "--opponent", default="scripted@v2", help="the other side's agent spec (default scripted@v2)"
    )
    p.add_argument(
        "--driver",
        help="the side's agent whose actions are played instead of the teacher's, which are still the "
        "stored labels (DAgger: pass a clone, policy:FILE.zip, to label the states it reaches)",
    )
    p.add_argument("--side", default="heroes", help="the learning side: heroes or dm (default heroes)")
    p.add_argument("--adventure", action="append", help="an adventure, repeatable (default goblin_warrens)")
    p.add_argument("--heroes", action="append", type=int, help="a party size 3-5, repeatable (default 3)")
    p.add_argument("--games", type=int, default=20, help="games per adventure and party size (default 20)")
    p.add_argument("--seed", type=int, default=0, help="game i of a cell is played from seed + i (default 0)")
    p.add_argument("--max-turns", type=int, default=100, help="the turn cap (default 100, the game's)")
    p.add_argument("--games-per-shard", type=int, default=10, help="games per .npz shard (default 10)")
    p.add_argument("--out", required=True, help="the dataset directory to write")
    p.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    run = p.add_argument_group("where to run")
    run.add_argument(
        "--workers",
        type=whole_number(1, "processes"),
        default=1,
        help="worker processes or Ray CPUs (default 1: every game in this process)",
    )
    run.add_argument(
        "--backend",
        choices=BACKENDS,
        help="local processes, ray, or serial (default local with more than one worker)",
    )
    run.add_argument("--ray-address", help="the Ray cluster to join, e.g. auto (default: start a local Ray)")
    return p


def main(argv: list[str] | None = None) -> dict:
    p = parser()
    args = p.parse_args(argv)
    plan = Plan(
        teacher=args.teacher,
        opponent=args.opponent,
        side=args.side,
        adventures=args.adventure or ["goblin_warrens"],
        parties=args.heroes or [3],
        games=args.games,
        seed=args.seed,
        max_turns=args.max_turns,
        games_per_shard=args.games_per_shard,
        driver=args.driver,
    )
    try:
        check_plan(plan)
        for adventure in plan.adventures:  # an unknown adventure: its own clear error, before playing
            RoleEnv(role="heroes", opponent="random", adventure=adventure, heroes=plan.parties[0])
    except (AgentSpecError, ValueError, FileNotFoundError) as error:
        p.error(str(error))
    try:  # before the progress bar's thread: local workers may be forked
        backend = open_backend(plan, args.workers, args.backend, args.ray_address)
    except RuntimeError as error:  # the ray backend without Ray
        p.exit(2, f"{p.prog}: error: {error}\n")
    try:
        manifest = build_dataset(plan, args.out, progress=not args.no_progress, backend=backend)
    finally:
        backend.close()
    print(summary(manifest))
    print(f"written to {args.out}")
    return manifest


if __name__ == "__main__":
    main(sys.argv[1:])
