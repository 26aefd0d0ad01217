"""A fitted evaluation of a game not yet over: the heroes' chance to complete the adventure with
every primary goal met (the balance tool's ``completed_with_goals``, ``difficulty.metrics.is_won``).

``features(game)`` reads a few numbers off any :class:`~dungeon_env.engine.Game` (a real game, a side
view or a copy of one); :class:`Evaluation` weighs them and maps the sum through the logistic
function. The shipped weights (``agents/policies/search_eval.json``, :meth:`Evaluation.shipped`) are
fitted by ``python -m training.fit_evaluation`` (a logistic regression on positions of games played
by the scripted agents, labelled with how each game ended); docs/EVALUATION.md has the figures.

The features (``FEATURES``, in this order), each about in [0, 1] or [-1, 1]:

| name | what |
|---|---|
| ``health`` | the Health of the heroes on the board over their starting Health (0 if none is) |
| ``deaths_door`` | the share of the party at Death's Door |
| ``dead`` | the share of the party dead (a corpse, carried out or lost) |
| ``out`` | the share of the party out of the dungeon |
| ``goals`` | the share of the primary goals but escaping met or in hand (``goal_in_hand``); 1 if none |
| ``way_out`` | 0 until the goals are in hand, then the mean over the living heroes of ``1 - d / 40``, |
|  | ``d`` the way to the nearest exit (capped at 40; one out counts 1): ``exit_potential`` over the |
|  | living, so that a death weighs on ``dead`` alone |
| ``light_slack`` | turns of Light left minus the turns the party needs to reach its target, over 20, |
|  | clipped to [-1, 1]: the target is the exit once the goals are in hand (the farthest hero's way), |
|  | else the nearest unmet goal and on to the exit (the nearest hero's way), at the mean Movement; |
|  | the ways on the board as heroes know it (``rewards.exit_distances``, doors guessed) |
| ``way_to_go`` | the squares of that way (``way_to_go``), over 80: the progress a position has made |
| ``explored`` | the share of the board's rooms revealed |
| ``patrols`` | corridor segments holding a hero now, over the party, while some room is unrevealed |
|  | (Patrols may still be rolled, R-MON-07, as far as the heroes can tell) |
| ``threat_near`` | the sum of Health × Damage of the monsters in sight within ``NEAR`` squares of a hero, |
|  | over the party's starting Health |
| ``threat_total`` | the same for every monster in sight |
| ``turn`` | the turn over the turn cap |
| ``party`` | ``(heroes - 3) / 2``: 0 for three heroes, 1 for five |

Monsters count only in revealed areas, so that a real game, the DM's view and the heroes' view (which
has no monster in the fog) give the same features. Cost of a ``value`` call: 35-50 µs on a mid-game
position (turns 11-21 of each adventure, four heroes), 50-80 µs on a fresh copy of the heroes' view,
once the distances of that known board are memoised (the first call on a new board walks it, a few
ms); the old ``search.score`` takes 18-36 µs on the same positions.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from agents._common import active_monsters
from dungeon_env.content.model import WIDTH
from dungeon_env.engine import Game
from dungeon_env.engine.sideview import _public_objectives, heroes_tables
from dungeon_env.engine.state import ACTIVE, CORPSE, CORPSE_OUT, EXITED, GONE
from dungeon_env.engine.tables import memoised
from dungeon_env.rewards import (
    EXIT_PATH_CAP,
    _guessing_distances,
    exit_distances,
    goal_in_hand,
)

FEATURES = (
    "health",
    "deaths_door",
    "dead",
    "out",
    "goals",
    "way_out",
    "light_slack",
    "way_to_go",
    "explored",
    "patrols",
    "threat_near",
    "threat_total",
    "turn",
    "party",
)
# The sign each weight must have for the value to rank positions as the game does, other things
# equal (+1: more is better for the heroes, -1: worse, 0: free). The fit keeps to them
# (``training.fit_evaluation``): a plain fit on played positions gave Patrol exposure a positive
# weight (heroes in corridors are heroes on their way) and the Light slack a negative one (long
# adventures give more Light), which a search that maximises the value would exploit.
SIGNS = {
    "health": 1,
    "deaths_door": -1,
    "dead": -1,
    "out": 1,
    "goals": 1,
    "way_out": 1,
    "light_slack": 1,
    "way_to_go": -1,
    "explored": 1,
    "patrols": -1,
    "threat_near": -1,
    "threat_total": -1,
    "turn": 0,
    "party": 0,
}
SHIPPED = Path(__file__).parent / "policies" / "search_eval.json"
NEAR = 4  # squares (along the grid, walls ignored) within which a monster counts as near a hero
SLACK_SCALE = 20  # turns of Light slack that make ``light_slack`` 1
WAY_SCALE = 80  # squares of way that make the ``way_to_go`` feature 1 (each leg is capped at 80)
DEAD = (CORPSE, CORPSE_OUT, GONE)
TARGET_MEMO_SIZE = 16  # goal targets whose distances are kept, per known board


def features(game: Game) -> list[float]:
    """The features of ``game`` (``FEATURES``, in order; see the module docstring)."""
    s = game.state
    n = s.n_heroes
    status = s.unit_status[:n].tolist()
    active = [h for h in range(n) if status[h] == ACTIVE]
    goals = primary_goals(game)
    in_hand = [goal_in_hand(game, i) for i in goals]
    exits = exit_distances(game) if active else ()
    full = max(1, int(s.base_health[:n].sum()))
    near, total = threat(game, active)
    targets = None if all(in_hand) else goal_squares(game, goals, in_hand)
    way = way_to_go(game, active, exits, targets) if active else 0.0
    standing = max(1, sum(int(s.base_health[h]) for h in active))
    return [
        sum(int(s.health[h]) for h in active) / standing,
        sum(bool(s.deaths_door[h]) for h in active) / n,
        sum(st in DEAD for st in status) / n,
        status.count(EXITED) / n,
        sum(in_hand) / len(goals) if goals else 1.0,
        way_out(game, status, exits) if all(in_hand) else 0.0,
        light_slack(game, active, exits, targets, way),
        way / WAY_SCALE,
        explored_share(game),
        patrol_exposure(game, active) / n,
        near / full,
        total / full,
        s.turn / game.max_turns,
        (n - 3) / 2,
    ]


def primary_goals(game: Game) -> list[int]:
    """The indices of the adventure's primary goals but escaping."""
    return [i for i, o in enumerate(game.tables.adventure.objectives) if o.primary and o.kind != "escape"]


def way_out(game: Game, status: list[int], exits) -> float:
    """Once the goals are in hand: the mean over the living heroes (on the board or out) of
    ``1 - min(d, cap) / cap``, ``d`` a hero's way to the nearest exit (one out counts 1): the
    ``exit_path`` potential of ``rewards.exit_potential`` over the living, so that a death weighs on
    ``dead`` alone. 0 if no hero lives."""
    pos = game.state.unit_pos
    total, living = 0.0, 0
    for h, st in enumerate(status):
        if st == ACTIVE:
            total += 1.0 - min(exits[int(pos[h])], EXIT_PATH_CAP) / EXIT_PATH_CAP
            living += 1
        elif st == EXITED:
            total += 1.0
            living += 1
    return total / living if living else 0.0


def explored_share(game: Game) -> float:
    """The share of the board's rooms revealed: what the heroes have found out, the progress a
    search's short look ahead cannot otherwise see in opening a room (where the monsters it reveals
    count against it)."""
    t = game.tables
    rooms = ~t.is_corridor
    return float(game.state.revealed[: t.n_areas][rooms].sum()) / max(1, int(rooms.sum()))


def threat(game: Game, active: list[int]) -> tuple[float, float]:
    """Health × Damage summed over the monsters in sight: those within ``NEAR`` squares of an active
    hero, and all of them."""
    s, width = game.state, WIDTH
    heroes = [divmod(int(s.unit_pos[h]), width) for h in active]
    near = total = 0.0
    for m in active_monsters(game, visible_only=True):
        power = float(s.health[m]) * float(s.base_damage[m])
        total += power
        y, x = divmod(int(s.unit_pos[m]), width)
        if any(abs(y - hy) + abs(x - hx) <= NEAR for hy, hx in heroes):
            near += power
    return near, total


def patrol_exposure(game: Game, active: list[int]) -> int:
    """Corridor segments holding an active hero now, while some room is unrevealed (0 otherwise):
    the public side of R-MON-07 (``encounters.patrols_relevant`` asks about the rooms that count, and
    whether the adventure has a Patrol, which the heroes' view does not tell)."""
    t = game.tables
    if not (~game.state.revealed[: t.n_areas] & ~t.is_corridor).any():
        return 0
    pos = game.state.unit_pos
    return len({a for a in (int(t.area[int(pos[h])]) for h in active) if t.is_corridor[a]})


def light_slack(
    game: Game, active: list[int], exits, targets: tuple[int, ...] | None, way: float | None = None
) -> float:
    """Turns of Light left minus the turns the party needs to reach its target (``targets``: the
    squares of the next goal, None for the exit; ``exits``: ``rewards.exit_distances``), over
    ``SLACK_SCALE`` and clipped to [-1, 1] (see the module docstring); ``way``: ``way_to_go``, if
    the caller has it."""
    if not active:
        return 1.0
    s = game.state
    per_turn = game.rules.light_per_turn
    light_turns = s.light / per_turn if per_turn > 0 else SLACK_SCALE + game.max_turns
    move = max(1.0, sum(int(s.base_move[h]) for h in active) / len(active))
    if way is None:
        way = way_to_go(game, active, exits, targets)
    slack = (light_turns - way / move) / SLACK_SCALE
    return max(-1.0, min(1.0, slack))


def way_to_go(game: Game, active: list[int], exits, targets: tuple[int, ...] | None) -> float:
    """Squares the party must still walk: to the exit (the farthest hero) with no ``targets``, else
    to the nearest of ``targets`` (the nearest hero) and on to the exit; each leg capped."""
    cap = 2 * EXIT_PATH_CAP
    pos = [int(game.state.unit_pos[h]) for h in active]
    if targets is None:
        return float(max(min(exits[q], cap) for q in pos))
    to_goal = target_distances(game, targets)
    there = min(min(to_goal[q], cap) for q in pos)
    back = min(min(exits[q], cap) for q in targets)
    return float(there + back)


def goal_squares(game: Game, goals: list[int], in_hand: list[bool]) -> tuple[int, ...] | None:
    """The squares of the first of ``goals`` not ``in_hand`` whose place is known (a Guard's post,
    an area), or None if none has a known place."""
    objectives = public_objectives(game)
    for i, done in zip(goals, in_hand, strict=True):
        if done:
            continue
        obj = objectives[i]
        if obj.kind == "slay" and obj.at is not None:
            return (game.square(*obj.at),)
        if obj.area is not None:
            return area_squares(game, obj.area)
    return None


def public_objectives(game: Game) -> tuple:
    """The adventure's objectives as the heroes' view has them: a retrieve or claim goal with the
    room its item is in, as the quest text tells (``sideview``, ruling D-24), so that a real game
    and its heroes' view aim at the same place (memoised per adventure)."""
    t = game.tables
    cached = t.cache.get("agents.evaluation.objectives")
    if cached is None:
        cached = t.cache["agents.evaluation.objectives"] = _public_objectives(t.adventure, t.board.area_names)
    return cached


def area_squares(game: Game, name: str) -> tuple[int, ...]:
    t = game.tables
    return tuple(t.area_squares[t.board.area_names.index(name)].tolist())


def target_distances(game: Game, targets: tuple[int, ...]) -> tuple[int, ...]:
    """Path lengths to the nearest of ``targets`` on the board as heroes know it, guessing doors
    between unseen areas as ``rewards.exit_distances`` does (so a real game and the heroes' view of
    it agree); memoised per known board."""
    tables = heroes_tables(game)

    def compute() -> tuple[int, ...]:
        revealed = game.state.revealed[game.tables.area].tolist()
        return _guessing_distances(tables, revealed, list(targets))

    return memoised(tables, "agents.evaluation.targets", TARGET_MEMO_SIZE, targets, compute)


# ----------------------------------------------------------------------------- the evaluation
def check_number(name: str, value) -> float:
    """``value`` as a finite float, or a ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number, got {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return float(value)


def logistic(x: float) -> float:
    """``1 / (1 + exp(-x))``, without overflow."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


@dataclass(frozen=True)
class Evaluation:
    """Weights of ``FEATURES`` (every one named) and an intercept: ``value(game)`` is the heroes'
    chance to complete the adventure with its goals, the logistic of the weighted sum.
    ``adventures``: an intercept of its own for each adventure fitted (by adventure id); another
    adventure takes ``intercept``."""

    weights: dict[str, float]
    intercept: float
    adventures: dict[str, float] = field(default_factory=dict)
    _vector: tuple[float, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        unknown = sorted(set(self.weights) - set(FEATURES))
        if unknown:
            raise ValueError(f"weights: unknown features {unknown}; the features are {list(FEATURES)}")
        missing = [f for f in FEATURES if f not in self.weights]
        if missing:
            raise ValueError(f"weights: missing features {missing}")
        weights = {f: check_number(f"weights.{f}", self.weights[f]) for f in FEATURES}
        object.__setattr__(self, "weights", weights)
        object.__setattr__(self, "intercept", check_number("intercept", self.intercept))
        if not isinstance(self.adventures, dict):
            raise ValueError(
                f"adventures must be an object of numbers by adventure id, got {self.adventures!r}"
            )
        adventures = {str(a): check_number(f"adventures.{a}", b) for a, b in self.adventures.items()}
        object.__setattr__(self, "adventures", adventures)
        object.__setattr__(self, "_vector", tuple(weights[f] for f in FEATURES))

    def logit(self, game: Game) -> float:
        """The weighted sum of the features of ``game`` (a game not over)."""
        intercept = self.adventures.get(game.tables.adventure.id, self.intercept)
        return intercept + sum(w * x for w, x in zip(self._vector, features(game), strict=True))

    def value(self, game: Game) -> float:
        """The heroes' chance to complete with every primary goal met: for a finished game 1.0 if it
        did, else 0.0; for one not over the logistic of :meth:`logit`."""
        if game.over:
            return 1.0 if game.outcome == "completed" and game.goals_met else 0.0
        return logistic(self.logit(game))

    def dm_value(self, game: Game) -> float:
        """The Dungeon Master's value: ``1 - value(game)``."""
        return 1.0 - self.value(game)

    def to_json(self, fitted: dict | None = None) -> dict:
        data = {"weights": dict(self.weights), "intercept": self.intercept}
        if self.adventures:
            data["adventures"] = dict(self.adventures)
        return data | ({"fitted": fitted} if fitted is not None else {})

    def save(self, path: str | Path, fitted: dict | None = None) -> None:
        """Write the weights, the intercept and ``fitted`` (how they were fitted) as JSON."""
        Path(path).write_text(json.dumps(self.to_json(fitted), indent=2) + "\n")

    @classmethod
    def from_json(cls, data) -> Evaluation:
        """An Evaluation from its JSON form; a ValueError naming what is wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"an evaluation is a JSON object, got {type(data).__name__}")
        for key in ("weights", "intercept"):
            if key not in data:
                raise ValueError(f"missing key {key!r}")
        if not isinstance(data["weights"], dict):
            raise ValueError(f"weights must be an object of numbers by feature, got {data['weights']!r}")
        adventures = data.get("adventures", {})
        if not isinstance(adventures, dict):
            raise ValueError(f"adventures must be an object of numbers by adventure id, got {adventures!r}")
        return cls(dict(data["weights"]), data["intercept"], dict(adventures))

    @classmethod
    def load(cls, path: str | Path) -> Evaluation:
        """Read a file written by :meth:`save`; a ValueError naming the file and what is wrong."""
        try:
            return cls.from_json(json.loads(Path(path).read_text()))
        except (ValueError, json.JSONDecodeError) as e:
            raise ValueError(f"{path}: {e}") from None

    @classmethod
    def shipped(cls) -> Evaluation:
        """The fitted weights shipped with the package (``agents/policies/search_eval.json``)."""
        return cls.load(SHIPPED)


__all__ = ["FEATURES", "NEAR", "SHIPPED", "SIGNS", "Evaluation", "features", "logistic"]
