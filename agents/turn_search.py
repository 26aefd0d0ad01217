"""The search agent v2: determinised information-set Monte Carlo tree search over whole Movements.

``TurnSearchAgent`` plays either side. Where its side's best scripted agent (v2) would decide a
whole Movement — where a hero ends it, which hero a monster hunts — the search weighs that choice
against the next best ones by playing them out on sampled worlds; everywhere else it plays as v2.

**Moves of the tree** (``Option``; one per *macro point*, a figure's Movement not planned yet):

- a hero's Movement: "end this Movement on square q", q among the squares v2 weighs
  (``ScriptedHeroesV2.end_square_options``: the squares the hero can reach this Movement, scored by
  v2's plan), the best ``candidates`` of them, v2's own choice always among them. The hero then
  walks there by v2's paths (doors, squares bought, hand-offs as v2 plays them): ``DirectedHeroes``.
  A Movement in which v2 does something else first (drinks, rests, steps back from the front) or
  in which a monster stands next to the hero (the Fight decides) is no macro point.
- a monster's Movement: "hunt hero h" (``ScriptedDMV2.victim_options``: the heroes the monster has
  a way to, by v2's score), ``DirectedDM``; the walk, the squares bought and the Fight are v2's.

A plan lasts the Movement, and is dropped when something the side did not know is revealed on the
way (an area, a monster: ``knowledge_mark``); the next decision of that figure is then a macro
point again, searched anew. The env's step-by-step actions stay what they are: the agent answers
every decision with the step its plan's walker (v2 with the plan fixed) takes.

**One iteration** (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012):

1. *Determinise*: a full hidden state sampled from what the side knows
   (``agents.determinise.determinise``: for the heroes a Patrol set, Guards in the rooms not yet
   seen, traps on squares not yet searched and face-down cards drawn from public priors; for the DM
   only the dice), with dice of its own.
2. *Select and expand*: at each macro point of the searching side, the option maximising
   ``Q + exploration * P * sqrt(N) / (1 + n)`` among the options available in this determinisation
   (``P``: ``prior`` on v2's choice, the rest shared evenly; ``N`` the times the option was
   available, ISMCTS's availability count), until an option not yet tried is added.
3. *Roll out* with v2 for both sides (the searching side's walker, its later plans unfixed) to the
   ``horizon``: the rest of this turn and ``horizon`` turns more (a Patrol rolled at the next Turn
   Start, and its Fights, are inside the default horizon of 1).
4. *Evaluate*: a finished game is 1 or 0 for the heroes (completed with the goals, or not); a game
   at the horizon the fitted evaluation (``agents.evaluation``: the heroes' chance of completing from
   the position). The DM's value is one minus the heroes', except that a game ended at the turn cap
   is worth 0 to both: the DM never gains by stalling.

The root's options are played in rounds: every option of the root is tried once on the same
determinisation (its hidden state and dice seed) before the next is drawn, so that the options are
compared on the same worlds (common random numbers); below the root, selection is by the rule above.
The search leaves v2's choice only for the option whose mean paired difference from it over the
rounds exceeds ``margin`` standard errors of that difference (a departure must be measured, not
noise; the evaluation's values are probabilities, so a fixed margin would mean nothing on an
adventure the heroes seldom win). ``last_stats`` holds the last search's iterations, seconds, each
option's visits and mean, v2's choice, the choice, and the best option's paired gain and its
standard error; ``scripts/search_departures.py`` reports where and why the search leaves v2. Given a
``seed`` and no ``seconds`` limit the agent is deterministic.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from typing import NamedTuple

from agents._common import active_monsters
from agents.base import GameAgent
from agents.determinise import determinise, prior_of
from agents.evaluation import Evaluation
from agents.scripted_dm_v2 import ScriptedDMV2
from agents.scripted_heroes_v2 import NOT_PORTED, ScriptedHeroesV2
from agents.scripted_play import OVER, TURN, play_on
from agents.search import Node, search_worlds  # a node of an ISMCTS tree; what its iterations copy
from dungeon_env import _core
from dungeon_env.engine import Decision, Game
from dungeon_env.engine.side_knowledge import heroes_view
from dungeon_env.engine.sideview import DM, HEROES, dm_view, view_side

DEFAULT_ITERATIONS = 12  # per macro point; see docs/SEARCH.md for the cost of a game
DEFAULT_CANDIDATES = 3  # options weighed at a macro point, v2's own among them
DEFAULT_HORIZON = 1  # turns played out after the current one
DEFAULT_MARGIN = 1.0  # standard errors by which an option must beat v2's choice to be played
DEFAULT_SPREAD = {"heroes": 6.0, "dm": 20.0}  # v2's score of an option at most this below its choice
FREE = -1  # a plan that leaves the Movement to v2 (its own choice was played): no macro point again


def knowledge_mark(g: Game) -> tuple[int, int]:
    """What a plan was made knowing: the areas revealed and the monsters in sight."""
    return int(g.state.revealed.sum()), len(active_monsters(g, visible_only=True))


class Option(NamedTuple):
    """A move of the tree: ``figure`` (a hero, or a monster's slot) and its ``target`` (the square a
    hero ends its Movement on, the hero a monster hunts); ``target`` None is v2's own choice."""

    figure: int
    target: int | None


class DirectedHeroes(ScriptedHeroesV2):
    """Heroes v2 whose end squares a search may fix, one Movement at a time (``plans``), and who
    can list the squares v2 weighs at a hero's Movement (``listing``)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.plans: dict[int, tuple[int, int, tuple[int, int]]] = {}  # hero -> (turn, square, mark)
        self.listing: dict | None = None  # hero -> (options, v2's choice) while a caller listens

    def seed(self, seed: int | None) -> None:
        super().seed(seed)
        self.plans = {}

    def plan(self, g: Game, h: int, square: int) -> None:
        """End hero ``h``'s Movement of this turn on ``square`` (``FREE``: where v2 likes), unless
        something is revealed first."""
        self.plans[h] = (int(g.state.turn), square, knowledge_mark(g))

    def planned(self, g: Game, h: int) -> int | None:
        """The square hero ``h``'s plan still holds for (``FREE``: v2's; None: no plan, or a reveal
        ended it)."""
        plan = self.plans.get(h)
        if plan is None:
            return None
        turn, square, mark = plan
        if turn == int(g.state.turn) and mark == knowledge_mark(g):
            return square
        del self.plans[h]
        return None

    def choose(self, game: Game) -> int:
        """On a heroes' world on the core (the search's determinisations) while nobody listens, v2's
        compiled choice with the deciding hero's plan (``ScriptedHeroesV2.choose_world``: its
        ``end_square`` gives the planned square, and a stale plan is dropped when the end square is
        asked, as ``planned`` drops it); else the Python methods."""
        compiled = type(self) is DirectedHeroes and getattr(game, "core_engine", None) is not None
        if (
            compiled
            and self.listing is not None
            and view_side(game) == HEROES
            and int(game.decision[1]) not in self.plans
        ):
            action = self.choose_listing(game)  # a macro point's listing, on a heroes' world
            if action != NOT_PORTED:
                return action
        on_core = compiled and self.listing is None
        if (
            on_core
            and view_side(game) == DM
            and game.agent not in (None, "dm")
            and int(game.decision[1]) not in self.plans
        ):
            action = self.choose_native(game)  # the DM's world (a DM's search): through the heroes' view
            if action != NOT_PORTED:
                return action
        elif on_core and view_side(game) == HEROES:
            h = int(game.decision[1])
            plan, fixed = self.plans.get(h), -1
            stale = False
            if plan is not None:
                turn, square, mark = plan
                stale = turn != int(game.state.turn) or mark != knowledge_mark(game)
                fixed = -1 if stale or square == FREE else square
            action, asked = self.choose_world(game, fixed)
            if asked and stale:
                del self.plans[h]
            if action != NOT_PORTED:
                return action
        return self.choose_reference(game)

    def choose_listing(self, game: Game) -> int:
        """The compiled choice on a heroes' world without a plan for the deciding hero while a caller
        listens (``src/agents/scripted_heroes_v2.cpp``'s ``HeroListing``): the action (or
        ``NOT_PORTED``), recording into ``listing`` what v2 weighed, as ``weighed`` does."""
        native = self._compiled()
        action, _, weighed = _core.agents.scripted_heroes_v2_list_world(
            game.core_engine,
            list(game.legal_actions()),
            native[1],
            self.intent,
            self.relieved,
            self.waited,
            native[2],
        )
        if action != NOT_PORTED:
            for h, options, choice in weighed:
                self.listing.setdefault(
                    h,
                    (
                        {q: (score, steps) for q, score, steps, _ in options},
                        None if choice < 0 else choice,
                        {q: progress for q, _, _, progress in options},
                    ),
                )
        return action

    def end_square(self, g: Game, h: int, dist: list[int], bought: int = 0) -> int | None:
        square = self.planned(g, h)
        if square is not None and square != FREE:
            return square
        return super().end_square(g, h, dist, bought)

    def weighed(
        self, g: Game, h: int, dist: list[int], bought: int, options: dict[int, tuple], choice: int | None
    ) -> None:
        if self.listing is not None and bought == 0 and h not in self.listing:
            here = dist[int(g.state.unit_pos[h])]
            self.listing[h] = (options, choice, {q: here - dist[q] for q in options})

    def alternatives(
        self, g: Game, scores: dict[int, tuple], choice: int | None, spread: float, progress: dict[int, int]
    ) -> list[int]:
        """The squares worth weighing against v2's ``choice`` (None: v2 walks as v1): the best square
        of every other area the hero can end in (where the Movement ends matters by its area: a room
        or a corridor, which corridor), scored within ``spread`` of v2's best and bringing the hero
        at least as near its target as v2's choice does (``progress``: squares nearer, by v2's
        distances), best first. The search weighs where to stand, not whether to go on: a short
        look ahead sees the monsters a step forward reveals but not what going on gains, and left
        free it held heroes back (docs/SEARCH.md)."""
        area = g.tables.area
        top = max(scores.values())[0]
        mine = int(area[choice]) if choice is not None else -1
        least = progress[choice] if choice is not None else max(0, max(progress.values()))
        best: dict[int, tuple[tuple, int]] = {}
        for q, key in scores.items():
            a = int(area[q])
            if a == mine or key[0] < top - spread or progress[q] < least:
                continue
            if a not in best or key > best[a][0]:
                best[a] = (key, q)
        return [q for _, q in sorted(best.values(), reverse=True)]


class DirectedDM(ScriptedDMV2):
    """DM v2 whose monsters' victims a search may fix, one Movement at a time (``plans``), and which
    can list the heroes v2 weighs for a monster (``listing``). The compiled choice plays the plans and
    the listing too (``src/agents/scripted_dm_v2.cpp``: they are kept in its memory as well); the
    Python methods are its reference."""

    PORTED = (*ScriptedDMV2.PORTED, "plan", "planned", "victim_v2", "choose_native")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.plans: dict[int, tuple[int, int, int]] = {}  # monster slot -> (turn, uid, hero)
        self.listing: dict | None = None

    def seed(self, seed: int | None) -> None:
        super().seed(seed)
        self.plans = {}
        self._native_memory.clear_plans()

    def plan(self, g: Game, m: int, hero: int) -> None:
        turn, uid = int(g.state.turn), int(g.state.unit_uid[m])
        self.plans[m] = (turn, uid, hero)
        self._native_memory.plan(m, turn, uid, hero)

    def planned(self, g: Game, m: int) -> int | None:
        plan = self.plans.get(m)
        if plan is None:
            return None
        turn, uid, hero = plan
        if turn == int(g.state.turn) and uid == int(g.state.unit_uid[m]):
            return hero
        del self.plans[m]
        return None

    def choose_native(self, game: Game) -> int:
        """The compiled choice, recording into ``listing`` (while it is not None) what v2 weighed, as
        ``victim_v2`` does."""
        memory = self._native_memory
        memory.listening = self.listing is not None
        try:
            action = super().choose_native(game)
        finally:
            memory.listening = False
            weighed = memory.take_listing()
        for m, options, choice in weighed:
            scores = {h: (-int(far), -score) for h, far, score in options}
            self.listing.setdefault(m, (scores, None if choice < 0 else choice, None))
        return action

    def victim_v2(
        self, g: Game, m: int, heroes: list[int], fields: dict, committed: int | None
    ) -> int | None:
        hero = self.planned(g, m)
        here = int(g.state.unit_pos[m])
        if hero is not None and hero != FREE and hero in heroes and 0 <= fields[hero][here] < 10**6:
            return hero
        choice = super().victim_v2(g, m, heroes, fields, committed)
        if self.listing is not None and m not in self.listing and committed is None:
            options = self.victim_options(g, m, heroes, fields, committed)
            if options:
                self.listing[m] = ({h: tuple(-x for x in key) for h, key in options.items()}, choice, None)
        return choice

    def alternatives(
        self, g: Game, scores: dict[int, tuple], choice: int | None, spread: float, progress: None = None
    ) -> list[int]:
        """The heroes worth hunting instead of v2's ``choice``: those within reach as v2's is (this
        turn, or not), scored within ``spread`` of it, best first."""
        if choice is None:
            return []
        reach, top = scores[choice]
        near = [
            (key, h)
            for h, key in scores.items()
            if h != choice and key[0] == reach and key[1] >= top - spread
        ]
        return [h for _, h in sorted(near, reverse=True)]


class TurnSearchAgent(GameAgent):
    """Determinised ISMCTS over whole Movements for the side asked (see the module docstring).

    ``iterations``: iterations per macro point (rounded up to whole rounds of the root's options);
    ``seconds``: stop after this much wall time (at a round's end; the search is then no longer
    deterministic); ``candidates``: options weighed at a macro point, v2's among them; ``horizon``:
    turns played out after the current one; ``exploration``, ``prior``: the selection rule's
    constants; ``margin``: the standard errors by which an option's paired gain over v2's choice
    must exceed zero for it to be played; ``spread``: how far below v2's choice (in v2's own score)
    an option may be and still be weighed (default ``DEFAULT_SPREAD`` of the side)."""

    def __init__(
        self,
        game: Game | None = None,
        env=None,
        seed: int | None = 0,
        iterations: int = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        candidates: int = DEFAULT_CANDIDATES,
        horizon: int = DEFAULT_HORIZON,
        exploration: float = 0.5,
        prior: float = 0.5,
        margin: float = DEFAULT_MARGIN,
        spread: float | None = None,
    ) -> None:
        for name, value, low in (
            ("iterations", iterations, 1),
            ("candidates", candidates, 2),
            ("horizon", horizon, 0),
        ):
            if value < low:
                raise ValueError(f"{name} must be at least {low}, got {value}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"seconds must be positive (or None), got {seconds}")
        if not 0.0 <= prior <= 1.0:
            raise ValueError(f"prior must be between 0 and 1, got {prior}")
        if margin < 0:
            raise ValueError(f"margin must be at least 0, got {margin}")
        self.iterations, self.seconds = int(iterations), seconds
        self.candidates, self.horizon = int(candidates), int(horizon)
        self.exploration, self.prior, self.margin = float(exploration), float(prior), float(margin)
        self.spread = {
            side: DEFAULT_SPREAD[side] if spread is None else float(spread) for side in (HEROES, DM)
        }
        self.evaluation = Evaluation.shipped()
        # the walkers of the real game (their plans last a Movement) and of the iterations
        self.walkers = {HEROES: DirectedHeroes(), DM: DirectedDM()}
        self.rollout_walkers = {HEROES: DirectedHeroes(), DM: DirectedDM()}
        self.last_stats: dict = {}
        super().__init__(game=game, env=env, seed=seed)

    def seed(self, seed: int | None) -> None:
        super().seed(seed)
        for walker in self.walkers.values():
            walker.seed(seed)

    # ------------------------------------------------------------------------------ a decision
    def choose(self, game: Game) -> int:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        side = DM if game.agent == "dm" else HEROES
        view = game if view_side(game) == side else (dm_view(game) if side == DM else heroes_view(game))
        walker = self.walkers[side]
        point = macro_point(view, walker, self.candidates, self.spread[side])
        if point is None:
            self.last_stats = {}
            return walker.choose(view)
        options, v2_action, v2_target = point
        option = self.search(view, side, options, v2_target)
        walker.plan(view, option.figure, FREE if option.target is None else option.target)
        return v2_action if option.target is None else walker.choose(view)

    def search(self, view: Game, side: str, options: list[Option], v2_target: int | None = None) -> Option:
        """The option to play at the macro point of ``view`` (``options[0]`` is v2's choice, whose
        square or hero is ``v2_target``, kept for ``last_stats``): the
        best other option by its mean paired difference from v2's over the rounds' worlds, if that
        difference exceeds ``margin`` standard errors; else v2's."""
        root = Node()
        start = time.perf_counter()
        rounds = max(1, math.ceil(self.iterations / len(options)))
        values: dict[Option, list[float]] = {o: [] for o in options}
        worlds = search_worlds(view, side)
        for _ in range(rounds):
            if self.seconds is not None and values[options[0]] and time.perf_counter() - start > self.seconds:
                break
            world = self.rng.getrandbits(62)
            for option in options:
                values[option].append(self.iterate(worlds, root, side, world, option))
        v2 = options[0]
        edges = {o: paired_edge(values[o], values[v2]) for o in options[1:]}
        best = max(options[1:], key=lambda o: (edges[o][0], -options.index(o)))
        gain, se = edges[best]
        choice = best if gain > 0 and gain > self.margin * se else v2
        self.last_stats = {
            "iterations": sum(len(v) for v in values.values()),
            "seconds": time.perf_counter() - start,
            "figure": v2.figure,
            "options": {o.target: (len(values[o]), statistics.fmean(values[o])) for o in options},
            "prior": v2.target,
            "v2_target": v2_target,
            "choice": choice.target,
            "gain": gain,
            "standard_error": se,
        }
        return choice

    # ------------------------------------------------------------------------------ one iteration
    def iterate(self, view: Game, root: Node, side: str, world: int, first: Option) -> float:
        """One iteration from ``view``: on the world ``world`` (a determinisation's seed), play
        ``first`` at the root, then select and expand through the side's macro points, roll out to
        the horizon, and back the value up the path."""
        rng = random.Random(world)
        g = determinise(view, rng, prior_of(view) if side == HEROES else None)
        walkers = self.rollout_walkers
        for who, walker in walkers.items():
            walker.seed(world % (2**31))
            if who == HEROES:
                own = self.walkers[HEROES]
                walker.relieved, walker.waited = dict(own.relieved), dict(own.waited)
        stop = int(g.state.turn) + self.horizon + 1
        mine = walkers[side]
        mine.plan(g, first.figure, FREE if first.target is None else first.target)  # the root's move
        node = root.children.setdefault(first, Node())
        path, expanding = [root, node], True
        while not g.over and int(g.state.turn) < stop:
            if roll_out(g, walkers, stop, side if expanding else None, self.spread[side]):
                continue  # (played to the end or the horizon; else a decision handed back, played below)
            acting = DM if g.agent == "dm" else HEROES
            walker = walkers[acting]
            point = (
                macro_point(g, walker, self.candidates, self.spread[acting])
                if acting == side and expanding
                else None
            )
            if point is None:
                g.apply(walker.choose(g))
                continue
            options, v2_action, _ = point
            option = self.select(node, options)
            walker.plan(g, option.figure, FREE if option.target is None else option.target)
            g.apply(v2_action if option.target is None else walker.choose(g))
            child = node.children.get(option)
            if child is None:
                child = node.children[option] = Node()
                expanding = False  # one new node per iteration: the rest is the rollout
            node = child
            path.append(node)
        value = self.value(g, side)
        for n in path:
            n.visits += 1
            n.total += value
        return value

    def select(self, node: Node, options: list[Option]) -> Option:
        """The selection rule's choice among ``options`` at ``node``; counts each as available."""
        for o in options:
            node.available[o] = node.available.get(o, 0) + 1
        others = (1.0 - self.prior) / len(options)
        parent = node.mean

        def key(o: Option) -> tuple[float, bool]:
            child = node.children.get(o)
            q, n = (child.mean, child.visits) if child is not None else (parent, 0)
            p = others + (self.prior if o.target is None else 0.0)
            return q + self.exploration * p * math.sqrt(node.available[o]) / (1 + n), o.target is None

        return max(options, key=key)

    def value(self, g: Game, side: str) -> float:
        """The side's value of an iteration's end (module docstring, step 4)."""
        if g.over and g.outcome == "truncated":
            return 0.0
        heroes = self.evaluation.value(g)
        return heroes if side == HEROES else 1.0 - heroes


def roll_out(g: Game, walkers: dict, stop: int, points: str | None = None, spread: float = math.nan) -> bool:
    """An iteration's rollout played in compiled code by both walkers, as ``TurnSearchAgent.iterate``'s
    loop plays it move by move, to its end, or while the tree is still descended (``points``, the
    searching side) up to that side's next Movement that no plan holds for (a possible macro point,
    which the caller weighs; with ``spread``, the search's, only up to one where ``macro_point`` finds
    options to weigh, the others played as the loop plays them): on a heroes' world
    (``_core.agents.play_world``: the heroes' plans read and the stale ones dropped as
    ``DirectedHeroes.choose`` drops them; the DM's in its compiled memory), or on the DM's world
    (``agents.scripted_play.play_on``, the heroes through their view from their knowledge, as
    ``DirectedHeroes.choose`` plays them there). False, having played nothing or up to a decision a
    compiled choice leaves to Python (the caller plays it), when the walkers are not the search's own
    or the world is on the Python rules."""
    heroes, dm = walkers[HEROES], walkers[DM]
    if (
        type(heroes) is not DirectedHeroes
        or type(dm) is not DirectedDM
        or getattr(g, "core_engine", None) is None
    ):
        return False
    side = view_side(g)
    marks = {None: _core.agents.NO_POINTS, HEROES: _core.agents.HERO_POINTS, DM: _core.agents.DM_POINTS}
    if side == DM and not heroes.plans and points != HEROES:
        return "point" not in play_on(g, heroes, dm, stop, marks[points], spread)
    if side != HEROES:
        return False
    hero_params, hero_cache = heroes.native_parts()
    stop_reason, n_heroes, n_dm = _core.agents.play_world(
        g.engine_to_move(),
        hero_params,
        heroes.intent,
        heroes.relieved,
        heroes.waited,
        hero_cache,
        heroes.plans,
        dm.native_parts(),
        dm._native_memory,
        stop,
        marks[points],
        spread,
    )
    if n_heroes or n_dm:
        g.engine_moved()
    return stop_reason in (OVER, TURN)


def paired_edge(values: list[float], reference: list[float]) -> tuple[float, float]:
    """The mean of the paired differences ``values - reference`` (one per world) and its standard
    error (infinite with a single world)."""
    diffs = [a - b for a, b in zip(values, reference, strict=True)]
    if len(diffs) < 2:
        return statistics.fmean(diffs), math.inf
    return statistics.fmean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs))


def macro_point(
    g: Game, walker: DirectedHeroes | DirectedDM, candidates: int, spread: float
) -> tuple[list[Option], int, int | None] | None:
    """At a figure's Movement not planned yet where v2 weighs its options: the options (v2's own
    choice first, then the best others, ``walker.alternatives``: at most ``candidates`` in all,
    none scored by v2 more than ``spread`` below its choice), v2's action and v2's choice (its end
    square, or the hero it hunts; None if it has none); else None."""
    kind, u = g.decision
    if kind not in (Decision.HERO_MOVE, Decision.MONSTER_MOVE) or walker.planned(g, u) is not None:
        return None
    walker.listing = {}
    try:
        action = walker.choose(g)
        entry = walker.listing.get(u)
    finally:
        walker.listing = None
    if entry is None:
        return None
    scores, choice, progress = entry
    others = walker.alternatives(g, scores, choice, spread, progress)[: candidates - 1]
    if not others:
        return None
    return [Option(u, None)] + [Option(u, t) for t in others], action, choice


__all__ = [
    "DEFAULT_CANDIDATES",
    "DEFAULT_HORIZON",
    "DEFAULT_ITERATIONS",
    "FREE",
    "DirectedDM",
    "DirectedHeroes",
    "Option",
    "TurnSearchAgent",
    "knowledge_mark",
    "macro_point",
]
