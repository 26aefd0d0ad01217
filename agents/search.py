"""A search agent for either side: information-set Monte Carlo tree search (ISMCTS) over its view.

At a decision with several legal actions, ``SearchAgent`` runs ``rollouts`` iterations (and stops
early once ``seconds`` of wall time are spent, if given) of single-observer ISMCTS (Cowling, Powley
and Whitehouse 2012) with a policy prior (PUCT, as in AlphaZero):

1. **Determinise.** Each iteration plays on a fresh copy of the side's view of the game
   (``dungeon_env.engine.sideview``, ruling D-24) with dice of its own, seeded from the agent's RNG:
   the chance outcomes (every roll, every card drawn) are sampled anew, and what the side cannot see
   is not in the copy. For the heroes that is ``heroes_view(game)``: no hidden traps, no monsters in
   the fog, no undiscovered secret doors, no unread room events, ambushes or Patrols, face-down
   cards as their deck's placeholder: the world as the heroes know it, with nothing hidden in it
   (their determinisation of the unknown is its absence, as a player plans with the board they see).
   For the DM, who knows everything but the future dice, ``dm_view(game)``.
2. **Select and expand.** The tree holds the side's own decisions (each node a sequence of the
   side's actions from the decision searched, an information set of the side): at each, the action
   maximising ``Q + exploration * P * sqrt(A) / (1 + n)`` among those legal in this determinisation
   (``Q`` its mean value, the parent's for an untried one; ``n`` its visits; ``A`` the times it was
   legal there, ISMCTS's availability count; ``P`` the prior: ``prior`` on the rollout policy's own
   choice, the rest shared evenly). The other side's decisions between are played by the rollout
   policy (its model of the opponent). The first action not yet in the tree is added, and the
   iteration goes on to its rollout.
3. **Roll out** with a fast policy (``rollout="scripted"``: the scripted heroes and DM;
   ``"random"``: uniform legal actions; ``"policy"``: for the searching side the MaskablePPO
   checkpoint ``policy`` played greedily, which it needs, as no policy ships with the package, and
   for the other side its scripted agent) until the game ends or ``depth`` decisions (of both
   sides, from the root) have been played. The searching side's rollout policy is also the prior's
   choice. A trained policy reads the observation of the determinisation, so it too knows only the
   side's view; it costs more CPU than a scripted rollout.
4. **Score and back up.** A finished game is +1 / -1 / 0 for the heroes (completed / failed /
   truncated; the DM's the opposite); a cut-off one the heuristic :func:`score` in [-0.5, 0.5]
   (Health, monsters' Health, objectives met, the way out once the goals are in hand).

The action played is the root's most visited (ties: the best mean, then the lower action id); a
single legal action is taken at once. A search stops before its ``rollouts`` once the choice is
settled: when the most visited action leads every other by more than the iterations left, none can
overtake it, so the choice is the one the whole budget would make (it saves about a third of the
iterations, measured on a DM's game of warlocks_crypt). The seeds of the iterations not run are
drawn all the same, so the agent's later searches, and its games, are those of the whole budget.
With a small budget the prior keeps the search on its rollout policy's choice unless another
proves better. Given a ``seed`` and no ``seconds`` limit it is
deterministic; with ``seconds`` the number of iterations depends on the machine's speed.
``last_stats`` holds the last search's iterations, seconds, each root action's visits and mean, and
the prior's choice at the root (``prior``: the rollout policy's choice there, the most frequent over
the iterations' determinisations), so that a caller can tell where the search left its prior
(``scripts/search_departures.py`` counts those decisions over whole games).
"""

from __future__ import annotations

import math
import time
from collections import Counter
from pathlib import Path

from agents._common import active_monsters
from agents.base import GameAgent, RandomAgent
from agents.scripted_dm import ScriptedDM
from agents.scripted_heroes import ScriptedHeroes
from dungeon_env.engine import Game
from dungeon_env.engine.dice import Dice
from dungeon_env.engine.objectives import objective_met
from dungeon_env.engine.side_knowledge import heroes_view, knowledge_of
from dungeon_env.engine.sideview import DM, HEROES, dm_view, playable, view_side
from dungeon_env.engine.units import active_heroes
from dungeon_env.rewards import exit_potential

ROLLOUT_POLICIES = ("scripted", "random", "policy")
DEFAULT_ROLLOUTS = 24  # iterations per decision: a whole adventure in well under a minute here
DEFAULT_DEPTH = 30  # decisions of both sides per iteration, about a turn of the game


class Node:
    """One information set of the searching side: its children by action, visits, value, and how
    often each action was legal here."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.available: dict[int, int] = {}
        self.visits = 0
        self.total = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class SearchAgent(GameAgent):
    """ISMCTS for the side asked (see the module docstring)."""

    def __init__(
        self,
        game: Game | None = None,
        env=None,
        seed: int | None = 0,
        rollouts: int = DEFAULT_ROLLOUTS,
        seconds: float | None = None,
        depth: int = DEFAULT_DEPTH,
        rollout: str = "scripted",
        exploration: float = 1.0,
        prior: float = 0.5,
        policy: str | None = None,
    ) -> None:
        if rollout not in ROLLOUT_POLICIES:
            raise ValueError(f"rollout must be one of {ROLLOUT_POLICIES}, got {rollout!r}")
        if rollout == "policy" and policy is None:
            raise ValueError(
                "rollout=policy rolls out the searching side's checkpoint: give it as policy=FILE.zip "
                "(no policy ships with the package)"
            )
        if policy is not None and rollout != "policy":
            raise ValueError(
                f"policy is the checkpoint of rollout=policy; with rollout={rollout!r} it is not read"
            )
        if policy is not None and not Path(policy).is_file():
            raise FileNotFoundError(f"policy: no checkpoint at {policy} (a .zip saved by MaskablePPO.save)")
        if rollouts < 1:
            raise ValueError(f"rollouts must be at least 1, got {rollouts}")
        if depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"seconds must be positive (or None), got {seconds}")
        if not 0.0 <= prior <= 1.0:
            raise ValueError(f"prior must be between 0 and 1, got {prior}")
        super().__init__(game=game, env=env, seed=seed)
        self.rollouts, self.seconds, self.depth, self.rollout = int(rollouts), seconds, int(depth), rollout
        self.exploration, self.prior = float(exploration), float(prior)
        self.policy = policy
        self._policies: dict = {}  # rollout="policy": searching side -> its PolicyAgent
        self.last_stats: dict = {}
        self._prior_votes: Counter = Counter()  # the prior's choice at the root, per iteration

    def choose(self, game: Game) -> int:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        side = "dm" if game.agent == "dm" else "heroes"
        if view_side(game) != (DM if side == "dm" else HEROES):
            game = dm_view(game) if side == "dm" else heroes_view(game)
        worlds = search_worlds(game, side)
        root = Node()
        self._prior_votes = Counter()
        start = time.perf_counter()
        done = 0
        while done < self.rollouts:
            if self.seconds is not None and done and time.perf_counter() - start > self.seconds:
                break
            self.iterate(worlds, root, side, self.rng.getrandbits(62))
            done += 1
            if settled(root, self.rollouts - done):
                for _ in range(self.rollouts - done):  # the seeds a whole search would have drawn
                    self.rng.getrandbits(62)
                break
        best = max(root.children, key=lambda a: (root.children[a].visits, root.children[a].mean, -a))
        self.last_stats = {
            "rollouts": done,
            "seconds": time.perf_counter() - start,
            "visits": {a: n.visits for a, n in sorted(root.children.items())},
            "means": {a: n.mean for a, n in sorted(root.children.items())},
            "prior": self.prior_choice(),
        }
        return best

    def prior_choice(self) -> int | None:
        """The prior's choice at the last search's root: the rollout policy's most frequent choice
        over the iterations (ties: the lower action id); None if no iteration reached a choice."""
        votes = self._prior_votes
        return min(votes, key=lambda a: (-votes[a], a)) if votes else None

    # ------------------------------------------------------------------------------ one iteration
    def iterate(self, view: Game, root: Node, side: str, seed: int) -> None:
        """One ISMCTS iteration from ``view`` (the side's view): determinise, select and expand
        through the side's decisions, roll out, back the value up the path."""
        g = view.copy()
        g.take_dice(Dice(seed % (2**31)))
        policies = self.policies(g, seed, side)
        node, path, steps = root, [root], 0
        while not g.over and steps < self.depth:
            acting = "dm" if g.agent == "dm" else "heroes"
            policy = policies[acting]
            if acting != side:
                g.apply(policy.choose(g))
                steps += 1
                continue
            legal = g.legal_actions()
            if len(legal) == 1:
                g.apply(legal[0])
                steps += 1
                continue
            suggested = policy.choose(g)
            if node is root:
                self._prior_votes[suggested] += 1
            action = self.select(node, legal, suggested)
            g.apply(action)
            steps += 1
            if action not in node.children:
                node.children[action] = Node()
                path.append(node.children[action])
                break
            node = node.children[action]
            path.append(node)
        while not g.over and steps < self.depth:
            g.apply(policies["dm" if g.agent == "dm" else "heroes"].choose(g))
            steps += 1
        value = score(g) if side == "heroes" else -score(g)
        for n in path:
            n.visits += 1
            n.total += value

    def select(self, node: Node, legal: list[int], suggested: int) -> int:
        """The PUCT choice among ``legal`` at ``node``; counts each as available once."""
        for a in legal:
            node.available[a] = node.available.get(a, 0) + 1
        others = (1.0 - self.prior) / len(legal)
        parent_mean = node.mean

        def value(a: int) -> tuple[float, int]:
            child = node.children.get(a)
            q, n = (child.mean, child.visits) if child is not None else (parent_mean, 0)
            p = others + (self.prior if a == suggested else 0.0)
            return q + self.exploration * p * math.sqrt(node.available[a]) / (1 + n), -a

        return max(legal, key=value)

    def policies(self, g: Game, seed: int, side: str) -> dict:
        """The rollout policy of each side on the determinisation ``g``, ``side`` searching."""
        if self.rollout == "scripted":
            return {"heroes": ScriptedHeroes(game=g), "dm": ScriptedDM(game=g, seed=seed)}
        if self.rollout == "policy":
            own = self.rollout_policy(side)
            other = ScriptedDM(game=g, seed=seed) if side == "heroes" else ScriptedHeroes(game=g)
            return {side: own, ("dm" if side == "heroes" else "heroes"): other}
        agent = RandomAgent(seed)
        return {"heroes": agent, "dm": agent}

    def rollout_policy(self, side: str):
        """``rollout="policy"``: the searching ``side``'s ``PolicyAgent`` of ``policy`` (greedy),
        made at its first search."""
        if side not in self._policies:
            from agents.policy import PolicyAgent  # needs the training extra (torch, sb3-contrib)

            self._policies[side] = PolicyAgent(self.policy, role=side, deterministic=True)
        return self._policies[side]


def search_worlds(view: Game, side: str) -> Game:
    """What each iteration of a search from ``view`` determinises: ``view``, or a playable copy of
    a view read only (``sideview.playable``). Searching for the DM, it carries the heroes' knowledge
    of the position, folded here once: each iteration's copy carries a copy of it, which the heroes'
    rollout policy reads (their view), instead of folding the whole log again."""
    worlds = playable(view)
    if side == DM:
        knowledge_of(worlds, HEROES)
    return worlds


def settled(root: Node, left: int) -> bool:
    """No action can overtake the root's most visited in ``left`` more iterations (one not yet
    tried counts as visited 0 times)."""
    visits = sorted((child.visits for child in root.children.values()), reverse=True)
    first, second = (visits + [0, 0])[:2]
    return first - second > left


def score(g: Game) -> float:
    """The heroes' value of a game: its outcome, or a heuristic in [-0.5, 0.5] if it is not over
    (their Health left, the monsters' in sight, the objectives met, the way out once the goals are
    in hand)."""
    if g.over:
        return {"completed": 1.0, "failed": -1.0}.get(g.outcome, 0.0)
    s = g.state
    heroes = active_heroes(g)
    h_share = sum(int(s.health[h]) for h in heroes) / max(
        1, sum(int(s.base_health[h]) for h in range(s.n_heroes))
    )
    monsters = active_monsters(g)
    m_left = sum(int(s.health[m]) for m in monsters)
    objectives = g.tables.adventure.objectives
    met = sum(objective_met(g, i) for i, o in enumerate(objectives) if o.kind != "escape") / max(
        1, len(objectives)
    )
    way_out = 1.0 + exit_potential(g) / max(1, s.n_heroes)  # 0 .. 1, 1 when every hero is out
    value = 0.3 * h_share + 0.3 * met + 0.2 * way_out - 0.02 * m_left - 0.2
    return max(-0.5, min(0.5, value))


__all__ = ["DEFAULT_DEPTH", "DEFAULT_ROLLOUTS", "Node", "SearchAgent", "score", "search_worlds", "settled"]
