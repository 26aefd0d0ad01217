"""Learning tasks: named set-ups of the real game, from one door to the full adventures.

A task is a small adventure on the real board under the real rules (or one of the bundled
adventures), a party, a turn cap, the side that learns and the default opponent that plays the
other side (an agent spec, ``agents.spec``). Each is one line to create::

    from dungeon_env.tasks import make_task, make_task_gym

    env = make_task("heroes/one-guard")  # the PettingZoo AEC env, both sides to play
    gym_env = make_task_gym("heroes/one-guard")  # the heroes as a Gymnasium env, the DM scripted
    gym_env = make_task_gym("dm/ambush", opponent="random")  # another opponent

and, once this module is imported, with Gymnasium (id: the name with ``/`` as ``-``, in the
``dungeon_env`` namespace, version 1)::

    import gymnasium
    import dungeon_env.tasks  # registers every task

    env = gymnasium.make("dungeon_env/heroes-one-guard-v1")
    env = gymnasium.make("dungeon_env.tasks:dungeon_env/heroes-one-guard-v1")  # without the import

Gymnasium 1.x loads no plugin entry points, so the tasks are registered when this module is
imported; the ``module:id`` form makes ``gymnasium.make`` import it. ``gymnasium.make`` wraps the
env (order enforcing, the passive checker): the action masks of sb3-contrib's ``MaskablePPO`` are
``env.unwrapped.action_masks()`` (or ``env.get_wrapper_attr("action_masks")()``).

Every task has a card (``Task.card``, ``docs/TASKS.md``, ``tasks_markdown()``): what is learned,
the reward, the episode length, and the scores of the scripted and of the random learning side
against the default opponent, measured by :func:`measure` on held-out seeds (``HELD_OUT_SEED`` +
i: training draws its seeds from the env's own generator) with 95% Wilson intervals. The score of
a hero task is the share of games completed with every primary goal met (the heroes' win); of a
Dungeon Master task the share of games in which every hero died (the DM's win).

Rewards are the env's outcome rewards (``help(dungeon_env.aec)``): the heroes' tasks set
``reward_truncated=-1``, so that running out of turns is as bad as dying and a policy cannot do
better by stalling; the Dungeon Master's keep the default 0 (the duty to attack keeps its monsters
from stalling). The turn cap follows the env's one rule (``dungeon_env.rewards.turn_cap_terminates``,
the env card): the observation shows the clock, so a cap the task pays for is part of the task and
ends a hero task ``terminated``; a cap that pays nothing is a time limit and ends a Dungeon Master
task ``truncated``. Each card says which.

The top of the ladder, ``heroes/campaign``, is the bundled campaign as one episode (the env's
``campaign`` option, ``engine.campaign.Campaign``): the five adventures in order, the survivors
carrying their items on, a dead hero replaced from the roster, a failed adventure played again.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from dungeon_env.ending import GAME_ENDINGS, WINS, Ending

TASK_DIR = Path(__file__).resolve().parent / "content" / "tasks"
NAMESPACE = "dungeon_env"
VERSION = 1
HELD_OUT_SEED = 1_000_000  # measure() plays games HELD_OUT_SEED + i
MEASURED_GAMES = 200
# The scripted agents the task cards were measured with, and every task's default opponent: v1, the
# frozen reference of 2026-12-06 (agents.spec: plain "scripted" names the latest version), so that the
# cards' scores and the tasks' Gymnasium ids keep naming the same games when a later version ships.
SCRIPTED = "scripted@v1"
SIDES = ("heroes", "dm")
BUNDLED = ("flooded_cellar", "goblin_warrens", "warlocks_crypt", "bandit_keep", "sunless_throne")
# The "does it learn at all" task: no constant policy ("action k if legal, else the first legal") and
# no untrained network wins it (tests/test_entry_task.py; scripts/entry_task.py measures both and
# MaskablePPO's learning curves, docs/benchmark/entry-task/). heroes/walk-out is too easy for that:
# "move south if legal, else end" wins it every time.
ENTRY_TASK = "heroes/exit-doors"


@dataclass(frozen=True)
class Score:
    """A measured score: ``wins`` of ``games`` (the learning side's win), with the ways the games
    ended (``ends``: each of ``dungeon_env.ending.GAME_ENDINGS`` and its count) and the mean
    episode return of the learning side under the task's rewards, the mean turns a game lasted and
    the mean decisions (env steps) of the learning side per game."""

    wins: int
    games: int
    ends: tuple[tuple[str, int], ...] = ()
    mean_return: float = 0.0
    mean_turns: float = 0.0
    mean_steps: float = 0.0

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    def text(self) -> str:
        lo, hi = self.interval
        return f"{self.wins}/{self.games} = {100 * self.rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


@dataclass(frozen=True)
class Task:
    """One learning task (see the module docstring). ``options`` are the env options besides the
    adventure, the heroes and the turn cap (read-only; ``env_kwargs()`` gives a fresh copy);
    ``card`` says what is learned, the reward, the episode length and the measured scores
    (``scores``: ``scripted`` and ``random`` learning side, ``idle`` for hero tasks: a side that
    ends every Movement and stays put, the agent spec ``idle``, ``agents.IdleAgent``)."""

    name: str
    side: str
    adventure: str
    heroes: tuple[str, ...]
    max_turns: int
    opponent: str = SCRIPTED
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    card: str = ""
    scores: Mapping[str, Score] = field(default_factory=lambda: MappingProxyType({}), hash=False)

    @property
    def gym_id(self) -> str:
        """The Gymnasium id: ``dungeon_env/heroes-one-guard-v1``."""
        return gym_id(self.name)

    def env_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``dungeon_env.env()`` / ``RoleEnv`` for this task (a new dict,
        safe to change)."""
        return {
            "adventure": self.adventure,
            "heroes": list(self.heroes),
            "max_turns": self.max_turns,
            **{key: _thaw(value) for key, value in self.options.items()},
        }


def _freeze(value: Any) -> Any:
    """A read-only copy of an option's value (mappings become read-only views, lists tuples)."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    """A fresh, plain copy of a frozen option's value (what the env's checks expect)."""
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return copy.deepcopy(value)


def gym_id(name: str) -> str:
    return f"{NAMESPACE}/{name.replace('/', '-')}-v{VERSION}"


def wilson_interval(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a rate ``successes / n`` (SciPy's ``binomtest(...).proportion_ci``,
    method ``wilson``), ``z`` standard errors wide: 1.96, the project's 95% (a confidence of
    0.950004); ``(0.0, 1.0)`` when ``n == 0``. ``successes`` outside ``0..n`` raises ``ValueError``.
    The one Wilson interval of the project (``training.evaluate`` and ``difficulty.metrics`` use it)."""
    if n == 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be in 0..n, got {successes} of {n}")
    from scipy.special import erf  # imported here: SciPy's stats take most of a second to import
    from scipy.stats import binomtest

    confidence = float(erf(z / math.sqrt(2.0)))  # P(|N(0, 1)| < z), so SciPy's z is this z
    low, high = binomtest(int(successes), int(n)).proportion_ci(confidence_level=confidence, method="wilson")
    return (float(low), float(high))


# ------------------------------------------------------------------------------------------ agents


def _agent(spec, side: str):
    """An agent with ``choose(game)`` as it is; any agent spec (``"idle"``, ``"scripted"``, ...) built
    by the installed agent provider (``dungeon_env.wrappers.agent_from_spec``: ``agents.spec``)."""
    if callable(getattr(spec, "choose", None)):
        return spec
    from dungeon_env.wrappers import agent_from_spec

    return agent_from_spec(spec, side)


# ------------------------------------------------------------------------------------------ measure


def measure(
    name: str,
    agent: Any = SCRIPTED,
    games: int = MEASURED_GAMES,
    seed: int = HELD_OUT_SEED,
    opponent: Any = None,
) -> Score:
    """Play ``games`` games of task ``name`` on the bare engine: the learning side played by
    ``agent`` (an agent spec, ``"idle"`` for ``agents.IdleAgent``, or an agent with ``choose(game)``),
    the other by ``opponent`` (default: the task's), game ``i`` with seed ``seed + i`` and both
    agents reseeded from it (``episode.seed_agents``, as ``difficulty.play`` does), each played by
    the one episode loop (``episode.play_episode``: the task's rewards and shaping as the env pays
    them, a campaign task's next adventures). Returns the learning side's :class:`Score` (its wins,
    how the games ended and its mean return under the task's rewards)."""
    from dungeon_env.episode import play_episode, seed_agents

    task = TASKS[name]
    other = "dm" if task.side == "heroes" else "heroes"
    learner = _agent(agent, task.side)
    rival = _agent(task.opponent if opponent is None else opponent, other)
    heroes, dm = (learner, rival) if task.side == "heroes" else (rival, learner)
    rewards, shaping = _rewards_of(task)
    ends = dict.fromkeys(GAME_ENDINGS, 0)
    total = turns = steps = 0.0
    for i in range(games):
        seed_agents(heroes, dm, seed + i)
        result = play_episode(heroes, dm, _start(task, seed + i), rewards, shaping)
        ends[result.ending] += 1
        total += result.side_return(task.side)
        turns += result.turns
        steps += result.steps[task.side]
    wins = ends[WINS[task.side]]
    n = max(games, 1)
    ends_named = tuple((end.value, count) for end, count in ends.items())
    return Score(wins, games, ends_named, round(total / n, 3), round(turns / n, 1), round(steps / n, 1))


def _rewards_of(task: Task) -> tuple[dict[str, float], dict[str, float] | None]:
    """The task's outcome reward table and shaping weights (its env options, as the env reads them)."""
    from dungeon_env.rewards import outcome_table

    kwargs = task.env_kwargs()
    table = outcome_table(
        kwargs.get("reward_completed", 1.0),
        kwargs.get("reward_completed_without_goal", 0.0),
        kwargs.get("reward_failed", -1.0),
        kwargs.get("reward_truncated", 0.0),
    )
    return table, kwargs.get("shaping")


def _start(task: Task, seed: int):
    """The start of a game of ``task`` played with ``seed``: a new game, or the campaign of a
    campaign task (as the env plays it)."""
    from dungeon_env.engine import Game

    party, campaign = list(task.heroes), task.options.get("campaign")
    if not campaign:
        return Game.new(adventure=task.adventure, heroes=party, seed=seed, max_turns=task.max_turns)
    from dungeon_env.engine.campaign import Campaign
    from dungeon_env.episode import campaign_adventures

    adventures = campaign_adventures(_thaw(campaign), task.adventure)
    return Campaign(heroes=party, adventures=adventures, seed=seed, max_turns=task.max_turns)


# ------------------------------------------------------------------------------------------ the tasks

HERO_OPTIONS = {"reward_truncated": -1.0}  # the heroes' tasks: running out of turns is a loss
PARTY = ("bram", "sela", "orwin")  # a fighter, a scout and a spellcaster (the README's party)
FIGHTERS = ("bram", "tovar", "gunnhild")  # the bundled adventures' party (docs/example_report)


END_LABELS = {  # the cards' words for each ending
    Ending.COMPLETED_WITH_GOALS: "completed with the goals",
    Ending.COMPLETED_WITHOUT_GOALS: "walked out without them",
    Ending.FAILED: "every hero dead",
    Ending.TRUNCATED: "truncated",
}


def _num(x: float) -> str:
    return "0" if x == 0 else f"{x:+g}"


def _reward_text(side: str, options: Mapping[str, Any]) -> str:
    completed = options.get("reward_completed", 1.0)
    without = options.get("reward_completed_without_goal", 0.0)
    failed = options.get("reward_failed", -1.0)
    truncated = options.get("reward_truncated", 0.0)
    shaping = options.get("shaping") or {}
    if options.get("campaign"):
        return (
            f"each adventure's outcome as it ends: {_num(completed)} completed with every primary goal "
            f"met, {_num(without)} walked out without them, {_num(failed)} every hero dead (the "
            f"adventure is played again by a new party), {_num(truncated)} at the turn cap, which ends "
            "the campaign" + (" (stalling is as bad as dying)" if truncated == failed else "")
        )
    if side == "heroes":
        text = (
            f"the outcome, once, at the end: {_num(completed)} completed with every primary goal met, "
            f"{_num(without)} walked out without them, {_num(failed)} every hero dead, "
            f"{_num(truncated)} at the turn cap"
        )
        if truncated == failed:
            text += " (stalling is as bad as dying)"
    else:
        text = (
            f"the heroes' outcome reward negated, once, at the end: {_num(-failed)} when every hero is "
            f"dead, {_num(-completed)} when they get out with every primary goal met, {_num(-without)} "
            f"without them, {_num(-truncated)} at the turn cap"
        )
    for term, weight in shaping.items():
        text += f"; shaping `{term}` {weight:g}"
        if term == "damage":
            text += f" (-{weight:g} per point of Health a hero loses, +{weight:g} per point a monster loses)"
    return text


def _cap_text(task: Task) -> str:
    """How the turn cap ends the task's episodes (``dungeon_env.rewards.turn_cap_terminates``)."""
    from dungeon_env.rewards import turn_cap_terminates

    paid = task.options.get("reward_truncated", 0.0)
    if turn_cap_terminates({"truncated": paid}):
        return (
            f"the cap, which the observation shows, is part of the task: it pays {_num(paid)} and the "
            "episode ends `terminated`"
        )
    return "the cap is a time limit: it pays nothing and the episode ends `truncated`"


def _card(task: Task, summary: str, learns: str, notes: str = "") -> str:
    side = "heroes" if task.side == "heroes" else "Dungeon Master"
    other = "Dungeon Master" if task.side == "heroes" else "heroes"
    adventure = Path(task.adventure).stem if task.adventure.endswith(".toml") else task.adventure
    where = (
        f"`dungeon_env/content/tasks/{adventure}.toml`"
        if task.adventure.endswith(".toml")
        else f"the bundled adventure `{adventure}`"
    )
    if task.options.get("campaign"):
        where = "the bundled campaign (" + ", ".join(f"`{a}`" for a in BUNDLED) + ", in order)"
    lines = [
        f"{task.name}: {summary}",
        "",
        f"Learns: {learns.rstrip('.')}.",
        f"Set-up: {where}; heroes {', '.join(task.heroes)}; the learning side is "
        f"{'the heroes (one policy for every hero)' if task.side == 'heroes' else 'the Dungeon Master'}, "
        f"against the {task.opponent} {other}.",
        f"Reward: {_reward_text(task.side, task.options)}.",
    ]
    scripted = task.scores.get("scripted")
    per = " per adventure" if task.options.get("campaign") else ""
    length = f"Episode: at most {task.max_turns} turns{per} ({_cap_text(task)})"
    if scripted is not None:
        verb = "take" if task.side == "heroes" else "takes"
        length += (
            f"; the scripted {side} {verb} {scripted.mean_steps:g} decisions over "
            f"{scripted.mean_turns:g} turns a game on average"
        )
    lines.append(length + ".")
    win = "completed with every primary goal met" if task.side == "heroes" else "every hero dead"
    for who in ("scripted", "random", "idle"):
        score = task.scores.get(who)
        if score is None:
            continue
        ends = ", ".join(f"{END_LABELS[k]} {v}" for k, v in score.ends if v)
        lines.append(
            f"Score, {who} {side}: {score.text()} {win} (95% Wilson; {ends}; mean return "
            f"{score.mean_return:+.3f})."
        )
    if task.scores:
        games = next(iter(task.scores.values())).games
        lines.append(
            f"Measured by `measure()` over {games} games on the held-out seeds {HELD_OUT_SEED:,} + i, "
            f"against the default opponent."
        )
    if notes:
        lines.append(notes)
    return "\n".join(lines)


def _task(
    name: str,
    adventure: str,
    max_turns: int,
    summary: str,
    learns: str,
    heroes: tuple[str, ...] = PARTY,
    options: Mapping[str, Any] | None = None,
    notes: str = "",
) -> Task:
    side = name.split("/", 1)[0]
    if side not in SIDES:
        raise ValueError(f"task {name!r}: the name starts with the learning side, one of {SIDES}")
    opts = dict(HERO_OPTIONS if side == "heroes" else {}) | dict(options or {})
    path = adventure if adventure in BUNDLED else str(TASK_DIR / f"{adventure}.toml")
    task = Task(
        name=name,
        side=side,
        adventure=path,
        heroes=tuple(heroes),
        max_turns=max_turns,
        opponent=SCRIPTED,
        options=_freeze(opts),
        scores=MappingProxyType(dict(SCORES.get(name, {}))),
    )
    return dataclasses.replace(task, card=_card(task, summary, learns, notes))


def _s(
    wins: int, games: int, ends: tuple[int, int, int, int], ret: float, turns: float, steps: float
) -> Score:
    keys = tuple(end.value for end in GAME_ENDINGS)
    return Score(wins, games, tuple(zip(keys, ends, strict=True)), ret, turns, steps)


# Measured with measure(name, agent, 200, HELD_OUT_SEED) against the default opponent (see main()).
SCORES: dict[str, dict[str, Score]] = {
    "heroes/walk-out": {
        "scripted": _s(200, 200, (200, 0, 0, 0), 1.0, 1.0, 12.0),
        "random": _s(27, 200, (27, 0, 0, 173), -0.73, 9.7, 146.4),
        "idle": _s(0, 200, (0, 0, 0, 200), -1.0, 10.0, 70.0),
    },
    "heroes/exit-doors": {
        "scripted": _s(200, 200, (200, 0, 0, 0), 1.0, 3.3, 47.8),
        "random": _s(0, 200, (0, 0, 0, 200), -1.0, 15.0, 244.3),
        "idle": _s(0, 200, (0, 0, 0, 200), -1.0, 15.0, 105.0),
    },
    "heroes/one-guard": {
        "scripted": _s(200, 200, (200, 0, 0, 0), 1.0, 4.6, 59.6),
        "random": _s(0, 200, (0, 0, 0, 200), -1.0, 12.0, 185.1),
        "idle": _s(0, 200, (0, 0, 0, 200), -1.0, 12.0, 81.6),
    },
    "heroes/guards": {
        "scripted": _s(196, 200, (196, 0, 0, 4), 0.96, 12.8, 172.8),
        "random": _s(0, 200, (0, 0, 0, 200), -1.0, 25.0, 385.4),
        "idle": _s(0, 200, (0, 0, 0, 200), -1.0, 25.0, 175.0),
    },
    "heroes/trapped-corridor": {
        "scripted": _s(200, 200, (200, 0, 0, 0), 0.4, 2.0, 52.0),
        "random": _s(0, 200, (0, 0, 0, 200), -1.212, 12.0, 187.7),
        "idle": _s(0, 200, (0, 0, 0, 200), -1.0, 12.0, 72.0),
    },
    "heroes/patrols": {
        "scripted": _s(193, 200, (193, 0, 1, 6), 0.93, 18.8, 262.5),
        "random": _s(0, 200, (0, 0, 2, 198), -1.0, 30.0, 404.8),
        "idle": _s(0, 200, (0, 0, 0, 200), -1.0, 30.0, 185.9),
    },
    "heroes/retrieve": {
        "scripted": _s(200, 200, (200, 0, 0, 0), 1.0, 6.6, 101.2),
        "random": _s(0, 200, (0, 0, 0, 200), -1.0, 15.0, 236.2),
        "idle": _s(0, 200, (0, 0, 0, 200), -1.0, 15.0, 105.0),
    },
    "heroes/spells": {
        "scripted": _s(188, 200, (188, 0, 0, 12), 0.88, 14.5, 229.4),
        "random": _s(0, 200, (0, 0, 0, 200), -1.0, 25.0, 423.5),
        "idle": _s(0, 200, (0, 0, 0, 200), -1.0, 25.0, 200.0),
    },
    "heroes/items": {
        "scripted": _s(188, 200, (188, 0, 0, 12), 0.88, 11.6, 141.2),
        "random": _s(0, 200, (0, 0, 0, 200), -1.0, 25.0, 414.2),
        "idle": _s(0, 200, (0, 0, 0, 200), -1.0, 25.0, 150.0),
    },
    "heroes/flooded-cellar": {
        "scripted": _s(200, 200, (200, 0, 0, 0), 1.0, 32.3, 342.2),
        "random": _s(0, 200, (0, 0, 23, 177), -1.0, 98.1, 1146.6),
        "idle": _s(0, 200, (0, 0, 0, 200), -1.0, 100.0, 581.7),
    },
    "heroes/goblin-warrens": {
        "scripted": _s(90, 200, (90, 0, 109, 1), -0.1, 31.5, 330.1),
        "random": _s(0, 200, (0, 0, 113, 87), -1.0, 80.6, 703.7),
        "idle": _s(0, 200, (0, 0, 0, 200), -1.0, 100.0, 459.0),
    },
    "heroes/warlocks-crypt": {
        "scripted": _s(8, 200, (8, 0, 187, 5), -0.92, 37.4, 375.9),
        "random": _s(0, 200, (0, 0, 81, 119), -1.0, 89.5, 1316.7),
        "idle": _s(0, 200, (0, 0, 0, 200), -1.0, 100.0, 600.0),
    },
    "heroes/bandit-keep": {
        "scripted": _s(156, 200, (156, 0, 44, 0), 0.56, 28.4, 328.8),
        "random": _s(0, 200, (0, 0, 0, 200), -1.0, 100.0, 1659.6),
        "idle": _s(0, 200, (0, 0, 0, 200), -1.0, 100.0, 600.0),
    },
    "heroes/sunless-throne": {
        "scripted": _s(9, 200, (9, 2, 185, 4), -0.9, 37.2, 383.4),
        "random": _s(0, 200, (0, 1, 128, 71), -0.995, 76.9, 937.5),
        "idle": _s(0, 200, (0, 0, 0, 200), -1.0, 100.0, 600.0),
    },
    "heroes/campaign": {
        "scripted": _s(0, 200, (0, 0, 148, 52), -0.825, 126.0, 1173.6),
        "random": _s(0, 200, (0, 0, 18, 182), -1.195, 106.6, 1238.9),
        "idle": _s(0, 200, (0, 0, 0, 200), -1.0, 100.0, 583.4),
    },
    "dm/small-dungeon": {
        "scripted": _s(25, 200, (163, 0, 25, 12), -0.69, 18.9, 85.6),
        "random": _s(21, 200, (165, 0, 21, 14), -0.72, 18.3, 83.8),
    },
    "dm/ambush": {
        "scripted": _s(22, 200, (174, 0, 22, 4), -0.76, 10.8, 45.3),
        "random": _s(10, 200, (187, 0, 10, 3), -0.885, 10.8, 43.3),
    },
    "dm/flooded-cellar": {
        "scripted": _s(0, 200, (200, 0, 0, 0), -1.0, 32.3, 361.0),
        "random": _s(0, 200, (200, 0, 0, 0), -1.0, 26.0, 434.9),
    },
    "dm/goblin-warrens": {
        "scripted": _s(109, 200, (90, 0, 109, 1), 0.095, 31.5, 451.3),
        "random": _s(53, 200, (145, 0, 53, 2), -0.46, 33.1, 637.6),
    },
    "dm/warlocks-crypt": {
        "scripted": _s(187, 200, (8, 0, 187, 5), 0.895, 37.4, 432.9),
        "random": _s(147, 200, (52, 0, 147, 1), 0.475, 38.4, 669.5),
    },
    "dm/bandit-keep": {
        "scripted": _s(44, 200, (156, 0, 44, 0), -0.56, 28.4, 350.8),
        "random": _s(24, 200, (175, 0, 24, 1), -0.755, 28.4, 450.2),
    },
    "dm/sunless-throne": {
        "scripted": _s(185, 200, (9, 2, 185, 4), 0.88, 37.2, 275.6),
        "random": _s(167, 200, (21, 8, 167, 4), 0.73, 37.1, 304.4),
    },
}


_BUNDLED_TEXT = {
    "flooded_cellar": (
        "the first adventure (difficulty 1): down through two forced guard rooms to the river drain",
        "the whole game at its easiest: doors, weak Guards, a small Patrol, a few traps, room events, "
        "an optional treasure",
    ),
    "goblin_warrens": (
        "difficulty 2: north through the goblins' guard room and barracks, spiders in ambush",
        "the whole game: a long fight north, an ambush in a passage, an optional troll",
    ),
    "warlocks_crypt": (
        "difficulty 3: across the crypt past a Tomb Lurker, spiders and the Dread Warlock's sanctum",
        "the whole game: Ambushers, Mental Combat, a secret room, optional goals",
    ),
    "bandit_keep": (
        "difficulty 4: free the captive from the cells, then fight up through the keep and out",
        "the whole game with a rescue: explore the cells, then get the party out past the guards",
    ),
    "sunless_throne": (
        "difficulty 5, the campaign's final: take the Crown of Ages and slay Malgrath on his throne",
        "the whole game at its hardest: two primary goals, a boss, a troll, secret rooms; the final "
        "adventure is completed even by a party that dies meeting its goals",
    ),
}


def _bundled(side: str) -> list[Task]:
    tasks = []
    for adventure in BUNDLED:
        summary, learns = _BUNDLED_TEXT[adventure]
        if side == "dm":
            learns = "the Dungeon Master's side of " + learns
        name = f"{side}/{adventure.replace('_', '-')}"
        tasks.append(_task(name, adventure, 100, summary, learns, heroes=FIGHTERS))
    return tasks


_TASK_LIST: list[Task] = [
    _task(
        "heroes/walk-out",
        "walk_out",
        10,
        "four squares across an empty room to the stairs",
        "moving square by square, ending a Movement, handing the move to the next hero; the "
        "smallest task (the random heroes win sometimes, and 'move south if legal, else end' every "
        "time: too easy to tell a learner from a constant policy; the entry task is heroes/exit-doors)",
    ),
    _task(
        "heroes/exit-doors",
        "exit_doors",
        15,
        "two closed doors between the heroes and the way out, nothing else",
        "opening doors (walk into a closed door: Open Doors, 5-6 opens, Strong +1, once per hero, door "
        "and turn) and getting the party through them in a one-square passage; Bram is Strong",
        notes="The entry task (`ENTRY_TASK`), the check that a learner learns at all: no constant policy "
        "wins it ('action k if legal, else the first legal' for every k, 'always the first legal', "
        "'always the last legal': 0 of 100 held-out games each; a test checks 30) and no untrained "
        "MaskablePPO network played greedily (0 of 100 for each of 4 initialisations). MaskablePPO "
        "with the library's default hyperparameters (`MaskablePPO('MlpPolicy', env, seed=s)`) did not "
        "learn it on 3 of 3 seeds in 10 training minutes (2026-12-06: one seed won 44 of 50 held-out "
        "games at 20k steps, then none from 30k on; the other two none in 41k-43k steps, two runs "
        "sharing the cores with another job, and one of them run again alone none in 86k). One setting "
        "makes it: the training env's `shaping={'exit_path': 1.0}` (potential-based: a step towards the "
        "exit earns what a step back costs; evaluated on the task's own rewards), with which 3 of 3 "
        "seeds won at least 40 of 50 held-out games within 10 minutes (at 20k to 40k steps, 2.4 to 5.1 "
        "minutes) and 50 of 50 from then on (`scripts/entry_task.py`, docs/BENCHMARK.md).",
    ),
    _task(
        "heroes/one-guard",
        "one_guard",
        12,
        "one Orc Warrior in a one-square passage between the heroes and the exit",
        "one Fight at a time: the Stamina to spend on each Fight (+1 each, 0-3, declared after the "
        "monster's), who stands in front, Evading out of a losing Fight",
    ),
    _task(
        "heroes/guards",
        "guards",
        25,
        "two guard rooms in a row: two Goblins and a Giant Rat, then an Orc Warrior and a Skeleton",
        "when to fight, when to Evade (2 Stamina a square), when to Rest (a whole turn doing nothing: +1 "
        "Stamina and +1 Magic more at the next Turn Start; Rest never heals) and when to heal (Maelis)",
        heroes=("bram", "gunnhild", "maelis"),
    ),
    _task(
        "heroes/trapped-corridor",
        "trapped_corridor",
        12,
        "a one-square passage with four hidden traps (3 damage each) on the way to the exit",
        "finding traps (the end-of-Explore Detect Traps roll, Ysolde's Scout Ahead), then Disarming "
        "(Hob: +1) or Jumping them instead of walking into them; running down the passage springs "
        "them all",
        heroes=("bram", "ysolde", "hob"),
        options={"shaping": {"damage": 0.05}},
        notes="Bram starts in front; the scripted heroes send him down the passage at full speed and "
        "he walks into every trap and survives: they always get out, about 12 damage down (return "
        "+0.4); a learner that finds the traps first keeps more of the +1. (With Ysolde in front "
        "the scripted heroes lost all of 100 games, before and after their fixes of 2026-12-05: "
        "in the game inspected she springs the traps, dies in the one-square passage, and her body "
        "blocks it.)",
    ),
    _task(
        "heroes/patrols",
        "patrols",
        30,
        "a walk of about 45 squares along the outer corridors, with Patrols of two Goblin Scouts",
        "speed against the Light (it falls to 0 after turn 20: -1 to Fight, Surprise, Detect and "
        "Movement), Stamina for extra squares, fighting or outrunning the Patrols (1 in 6 per "
        "occupied corridor and turn)",
    ),
    _task(
        "heroes/retrieve",
        "retrieve",
        15,
        "a crown in a side room guarded by a Goblin; the exit is a few squares from the start",
        "a goal before the exit: kill the Guard, Explore the room (only when no monster is on the "
        "board), take the crown, carry it out; walking straight out completes without the goal (0)",
    ),
    _task(
        "heroes/spells",
        "spells",
        25,
        "the two spellcasters and a fighter through two guarded rooms, a Fire Burst scroll on the way",
        "Spell Selection (2.1) and targets (2.5), Arcane Bolt, Sleep, Valor, Healing Touch, Overcast "
        "and its backlash, keeping a spell while fighting (double ones) or letting it fail, casting "
        "the scroll (Magic 0) or memorizing it",
        heroes=("orwin", "maelis", "gunnhild"),
    ),
    _task(
        "heroes/items",
        "items",
        25,
        "an armoury with a runeblade, a coat of warding mail and a potion, then two Orc Warriors",
        "exploring a room to find items, taking them, Identifying (Ilsabet is Learned: 4-6, 1 locks "
        "the item; magic items work only once identified), handing them over in the Trade phase, "
        "drinking a potion",
        heroes=("bram", "ilsabet", "gunnhild"),
    ),
    *_bundled("heroes"),
    _task(
        "heroes/campaign",
        "flooded_cellar",
        100,
        "the five bundled adventures in a row, from the flooded cellar to the sunless throne",
        "the whole game over a campaign: what to carry on, how much risk to take when a death costs "
        "a hero for good (the next hero of the roster takes the seat), playing a failed adventure again",
        heroes=FIGHTERS,
        options={"campaign": "bundled"},
        notes="The campaign is won when the final adventure is completed with its goals (ruling C-05); "
        "it is lost when no hero of the roster is left to take a dead hero's seat, and truncated when "
        "an adventure runs out of turns (C-02).",
    ),
    _task(
        "dm/small-dungeon",
        "small_dungeon",
        30,
        "two guard rooms and a Patrol between the scripted heroes and the exit",
        "the monsters' Movement (the duty to attack leaves a choice of whom and where), Stamina in "
        "Fights and Movement, ganging up (-1 per extra enemy), when to use the Patrol",
    ),
    _task(
        "dm/ambush",
        "ambush",
        20,
        "one room on the way, and two Giant Spiders and a Tomb Lurker wait in it",
        "an ambush (the heroes need a 6 to be ready; Ambushers are never surprised): whom to attack, "
        "surrounding a hero, Stamina in Fights",
    ),
    *_bundled("dm"),
]

TASKS: dict[str, Task] = {task.name: task for task in _TASK_LIST}
if len(TASKS) != len(_TASK_LIST):  # pragma: no cover - a typo in the list above
    raise RuntimeError("dungeon_env.tasks: two tasks share a name")


def task_names() -> list[str]:
    """The names of every task, easy hero tasks first, then the bundled adventures, then the DM's."""
    return list(TASKS)


def get_task(name: str) -> Task:
    """The task ``name`` (or its Gymnasium id); a KeyError listing the names otherwise."""
    if name in TASKS:
        return TASKS[name]
    for task in TASKS.values():
        if name in (task.gym_id, task.gym_id.split("/", 1)[1]):
            return task
    raise KeyError(f"unknown task {name!r}; the tasks are {task_names()}")


def make_task(name: str, **overrides: Any):
    """The PettingZoo AEC env of task ``name``: ``dungeon_env.env(**task.env_kwargs() | overrides)``
    (both sides to play; ``overrides``: any env option, e.g. ``render_mode="ansi"``)."""
    from dungeon_env.aec import env

    return env(**(get_task(name).env_kwargs() | overrides))


def make_task_gym(name: str, opponent: Any = None, **overrides: Any):
    """Task ``name`` as a Gymnasium env of its learning side: ``RoleEnv(role=task.side,
    opponent=opponent or task.opponent, **task.env_kwargs() | overrides)`` (``overrides``: env
    options and RoleEnv's, e.g. ``observation_format="dict"``)."""
    from dungeon_env.wrappers import RoleEnv

    task = get_task(name)
    chosen = task.opponent if opponent is None else opponent
    return RoleEnv(role=task.side, opponent=chosen, **(task.env_kwargs() | overrides))


def make_task_vector(name: str, num_envs: int, opponent: Any = None, **overrides: Any):
    """Task ``name`` as a Gymnasium vector env of ``num_envs`` games of its learning side:
    ``dungeon_env.batched.BatchedRoleEnv(num_envs, role=task.side, opponent=opponent or
    task.opponent, **task.env_kwargs() | overrides)`` (stepped in the core when the opponent and the
    options allow it; ``overrides``: env options and the batch's, e.g. ``autoreset_mode="NextStep"``)."""
    from dungeon_env.batched import BatchedRoleEnv

    task = get_task(name)
    chosen = task.opponent if opponent is None else opponent
    return BatchedRoleEnv(num_envs, role=task.side, opponent=chosen, **(task.env_kwargs() | overrides))


# ------------------------------------------------------------------------------------------ Gymnasium


def register_envs() -> list[str]:
    """Register every task with Gymnasium as ``dungeon_env/<side>-<task>-v1``: ``gymnasium.make``
    builds :func:`make_task_gym` and ``gymnasium.make_vec`` (its ``"vector_entry_point"`` mode, the
    default for these ids) :func:`make_task_vector`; their keyword arguments go to them
    (``opponent=``, env options, ``render_mode``, the batch's). Done when this module is imported;
    returns the ids."""
    from gymnasium.envs.registration import register, registry

    for task in TASKS.values():
        if task.gym_id not in registry:
            register(
                id=task.gym_id,
                entry_point="dungeon_env.tasks:make_task_gym",
                vector_entry_point="dungeon_env.tasks:make_task_vector",
                kwargs={"name": task.name},
            )
    return [task.gym_id for task in TASKS.values()]


# ------------------------------------------------------------------------------------------ the doc


def _cell(score: Score | None) -> str:
    if score is None:
        return ""
    lo, hi = score.interval
    return f"{100 * score.rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def tasks_table() -> str:
    """The task table in Markdown: name, side, Gymnasium id, heroes, turn cap, the scripted and
    random (and idle) scores with their 95% intervals, and the scripted side's mean return."""
    rows = [
        "| task | side | Gymnasium id | heroes | max turns | scripted | random | idle | scripted return |",
        "|---|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for task in TASKS.values():
        scores = task.scores
        scripted = scores.get("scripted")
        rows.append(
            f"| `{task.name}` | {task.side} | `{task.gym_id}` | {', '.join(task.heroes)} | "
            f"{task.max_turns} | {_cell(scripted)} | {_cell(scores.get('random'))} | "
            f"{_cell(scores.get('idle'))} | {'' if scripted is None else f'{scripted.mean_return:+.2f}'} |"
        )
    return "\n".join(rows)


def _card_markdown(task: Task) -> str:
    head, _, body = task.card.partition("\n")
    summary = head.split(": ", 1)[1] if ": " in head else head
    lines = [f"### `{task.name}`", "", summary[0].upper() + summary[1:] + ".", ""]
    for line in body.strip().splitlines():
        key, sep, rest = line.partition(": ")
        lines.append(f"- **{key}:** {rest}" if sep and len(key) < 30 else f"- {line}")
    return "\n".join(lines)


def tasks_markdown() -> str:
    """``docs/TASKS.md``: the task table and every card (``python -m dungeon_env.tasks --markdown``)."""
    intro = f"""# Learning tasks

<!-- generated from dungeon_env/tasks.py by `python -m dungeon_env.tasks --markdown > docs/TASKS.md`;
tests/test_tasks.py checks that this file is what the code generates -->

{len(TASKS)} tasks on the real board under the real rules, from four squares across an empty room to
the five bundled adventures and the campaign, each with a learning side (the heroes, one policy for
every hero, or the Dungeon Master) and a default opponent for the other side (the scripted agent
v1, `{SCRIPTED}`). Each is one line:

```python
from dungeon_env.tasks import make_task, make_task_gym

env = make_task("heroes/one-guard")  # PettingZoo AEC env, both sides to play
env = make_task_gym("heroes/one-guard")  # Gymnasium env of the heroes, the scripted DM playing
env = make_task_gym("dm/ambush", opponent="random", observation_format="dict")

import gymnasium
import dungeon_env.tasks  # registers the tasks with Gymnasium

env = gymnasium.make("dungeon_env/heroes-one-guard-v1")
env = gymnasium.make("dungeon_env.tasks:dungeon_env/heroes-one-guard-v1")  # imports the module itself
```

Gymnasium 1.x loads no plugin entry points, so the tasks are registered when `dungeon_env.tasks` is
imported (the `module:id` form of `gymnasium.make` imports it). The env `gymnasium.make` returns is
wrapped: `env.unwrapped.action_masks()` gives the legal actions for sb3-contrib's `MaskablePPO`.
`make_task_gym(name, opponent=...)` (or `gymnasium.make(id, opponent=...)`) takes any agent spec
of `agents.spec`; other keyword arguments are env options (`render_mode`, `observation_format`,
`max_turns`, rewards, `shaping`...). `Task.env_kwargs()` gives a task's env options.

**Scores.** Measured by `dungeon_env.tasks.measure(name, agent, games, seed)` on the bare engine,
{MEASURED_GAMES} games per cell on the held-out seeds {HELD_OUT_SEED:,} + i (training draws its
seeds from the env's generator), against the task's default opponent, with 95% Wilson intervals.
A hero task's score is the share of games completed with every primary goal met (the heroes' win);
a Dungeon Master task's the share of games in which every hero died (the DM's win). *Scripted* is
the scripted agent of the learning side at version 1 (`{SCRIPTED}`, the frozen reference; it is also
every task's default opponent), *random* a uniformly random legal action, *idle* a side that
does nothing it can help (`IdleAgent`: it ends every Movement and stays put), which never wins a
hero task. The heroes' tasks pay `reward_truncated=-1`, so running out of turns is as bad as
dying; the Dungeon Master's keep 0 at the turn cap. One task adds shaping
(`heroes/trapped-corridor`: damage), said on its card; `Task.scores` holds every figure.

**The turn cap.** One rule for the env and every task (`dungeon_env.rewards.turn_cap_terminates`):
every observation shows the clock (`turn / max_turns`), so a turn cap that the task pays for is part
of the task and ends the episode `terminated` (the heroes' tasks: -1; a learner adds no value past
it), and a cap that pays nothing is a time limit outside the task and ends it `truncated` (the
Dungeon Master's tasks and the env's default, `reward_truncated=0`; a learner may bootstrap past it).
Either way the final info's `outcome` is `truncated`, the game's own name for the cap, and the
scores below count it as such. Each card says which end its cap is.

**Parties.** The small tasks play Bram, Sela and Orwin (a fighter, a scout, a spellcaster) unless
the skill needs others (a healer for the guard rooms, the two spellcasters, a Learned hero for the
items, the trap finders); the bundled adventures play Bram, Tovar and Gunnhild, the party of the
designer's example report, docs/example_report (with Bram, Sela and Orwin the scripted heroes won
flooded_cellar in 130 of the same 200 games and every hero died in 70).

**What the scripted heroes leave to learn.** Until 2026-12-05 a scripted hero that was badly hurt
(60% of its Health lost) and saw no monster Rested, and Rest never heals (ruling A-36): with no
healer or potion it rested until the turn cap, and the party waited for it. That was most of the
scripted heroes' truncated games here and most of the truncations of the Dungeon Master's tasks.
Now they rest only when Exhausted, or at 1 Stamina or less, or at Death's Door while a comrade who
is not is still in the dungeon to heal them (alone, resting at Death's Door only waited for the turn
cap); and a healthy hero no longer steps next to two monsters only to step back out in its Evasion,
paying Stamina, turn after turn. Later that day two more: heroes move one at a time, and a hero
whose next square held a comrade who had not moved yet ended its Movement where it stood (now it
hands that comrade control, ruling D-04, and follows); and heroes shut in behind a comrade's corpse
in a doorway stood there until the turn cap (now they drag it off the square). And a fifth: with
the goals in hand a hero makes for an exit it can reach this Movement past the monsters near it,
and steps towards the exit in every Evasion phase, where it used to turn and fight. Every score
below was measured again after all five: the scripted heroes win `guards` and `bandit-keep` 17 and
25 points more often than before the first, `goblin-warrens` 90 times in 200 (56 before the last,
25 before the last three), `patrols` 193 (174 before the last), and run into the turn cap far
less; the last cost `items` 7 games (188 against 195), where a hero left at once and its comrades,
one fewer, did not get out.

The last hero task, `heroes/campaign`, is the bundled campaign as one episode (the env's
`campaign="bundled"` option): the five adventures in order, the survivors carrying their items on,
each dead hero replaced by the next of the roster, a failed adventure played again by the new party;
each adventure pays its outcome as it ends, and the campaign is won when the final adventure is
completed with its goals.

"""
    cards = "\n\n".join(_card_markdown(task) for task in TASKS.values())
    return intro + tasks_table() + "\n\n## The cards\n\n" + cards + "\n"


# ------------------------------------------------------------------------------------------ command line


def main(argv: list[str] | None = None) -> int:
    """``python -m dungeon_env.tasks``: the task table; ``--markdown``: docs/TASKS.md;
    ``--measure NAME [--agent SPEC] [--games N] [--seed S]``: one score."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m dungeon_env.tasks", description=main.__doc__)
    parser.add_argument("--markdown", action="store_true", help="print docs/TASKS.md")
    parser.add_argument("--measure", metavar="NAME", help="measure one task")
    parser.add_argument(
        "--agent", default=SCRIPTED, help=f"the learning side's agent spec, or idle (default: {SCRIPTED})"
    )
    parser.add_argument("--opponent", default=None, help="the other side's agent spec (default: the task's)")
    parser.add_argument("--games", type=int, default=MEASURED_GAMES)
    parser.add_argument("--seed", type=int, default=HELD_OUT_SEED)
    args = parser.parse_args(argv)
    if args.measure:
        score = measure(args.measure, args.agent, args.games, args.seed, args.opponent)
        print(f"{args.measure} {args.agent}: {score}")
    elif args.markdown:
        print(tasks_markdown(), end="")
    else:
        print(tasks_table())
    return 0


register_envs()

__all__ = [
    "ENTRY_TASK",
    "HELD_OUT_SEED",
    "SCORES",
    "TASKS",
    "Score",
    "Task",
    "get_task",
    "gym_id",
    "make_task",
    "make_task_gym",
    "make_task_vector",
    "measure",
    "register_envs",
    "task_names",
    "tasks_markdown",
    "tasks_table",
    "wilson_interval",
]

if __name__ == "__main__":
    raise SystemExit(main())
