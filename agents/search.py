"""A search agent for either side: flat Monte Carlo over copies of its side's view of the game.

At a decision with several legal actions, ``SearchAgent`` spends its budget (``rollouts`` in total,
and at most ``seconds`` of wall time if given) round-robin over the legal actions: each rollout
copies the side's view of the game (``dungeon_env.engine.sideview``, ruling D-24), gives the copy
dice of its own (seeded from the agent's RNG, so the search does not foresee the real rolls),
applies the action and plays on with a fast policy (``rollout="scripted"``: the scripted
heroes and DM; ``"random"``: uniform legal actions) for at most ``depth`` decisions. A finished game
scores +1 / -1 / 0 for the searching side (completed / failed / truncated, the DM's the opposite);
a cut-off one is scored by a heuristic in [-0.5, 0.5] (the share of Health, heroes' against
monsters', and the objectives met). The action with the best mean wins; ties go to the lower
action id. A single legal action is taken at once.

What it searches over: for the heroes, copies of ``heroes_view(game)``, a determinisation that holds
only what heroes know (no hidden traps, no monsters in the fog, no undiscovered secret doors, no
unread room events, ambushes or Patrols, face-down cards as their deck's placeholder card): the
world as the heroes see it, with nothing hidden in it. For the DM, copies of the whole game (the DM
knows it all) with fresh dice. An action the heroes' view does not allow (rare: say a target list
the view computes differently) is scored by a rollout whose first step the rollout policy picks.
Given a ``seed`` and no ``seconds`` limit it is deterministic; with ``seconds`` the number of
rollouts depends on the machine's speed.
"""

from __future__ import annotations

import time

from agents._common import active_monsters
from agents.base import GameAgent, RandomAgent
from agents.scripted_dm import ScriptedDM
from agents.scripted_heroes import ScriptedHeroes
from dungeon_env.engine import Game
from dungeon_env.engine.dice import Dice
from dungeon_env.engine.objectives import objective_met
from dungeon_env.engine.sideview import DM, HEROES, dm_view, heroes_view, view_side
from dungeon_env.engine.units import active_heroes

ROLLOUT_POLICIES = ("scripted", "random")


class SearchAgent(GameAgent):
    """Flat Monte Carlo search for the side asked (see the module docstring)."""

    def __init__(
        self,
        game: Game | None = None,
        env=None,
        seed: int | None = 0,
        rollouts: int = 32,
        seconds: float | None = None,
        depth: int = 400,
        rollout: str = "scripted",
    ) -> None:
        if rollout not in ROLLOUT_POLICIES:
            raise ValueError(f"rollout must be one of {ROLLOUT_POLICIES}, got {rollout!r}")
        if rollouts < 1:
            raise ValueError(f"rollouts must be at least 1, got {rollouts}")
        super().__init__(game=game, env=env, seed=seed)
        self.rollouts, self.seconds, self.depth, self.rollout = int(rollouts), seconds, int(depth), rollout
        self.last_stats: dict = {}

    def choose(self, game: Game) -> int:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        side = "dm" if game.agent == "dm" else "heroes"
        if view_side(game) != (DM if side == "dm" else HEROES):
            game = dm_view(game) if side == "dm" else heroes_view(game)
        totals = dict.fromkeys(legal, 0.0)
        counts = dict.fromkeys(legal, 0)
        start = time.perf_counter()
        done = 0
        while done < self.rollouts:
            if self.seconds is not None and done >= len(legal) and time.perf_counter() - start > self.seconds:
                break
            action = legal[done % len(legal)]
            totals[action] += self.simulate(game, action, side, self.rng.getrandbits(62))
            counts[action] += 1
            done += 1
        means = {a: totals[a] / counts[a] for a in legal if counts[a]}
        best = max(means, key=lambda a: (means[a], -a))
        self.last_stats = {"rollouts": done, "seconds": time.perf_counter() - start, "means": means}
        return best

    def simulate(self, game: Game, action: int, side: str, seed: int) -> float:
        """One rollout from ``game`` (a side view) after ``action``; its value for ``side``."""
        g = game.copy()
        g.dice = Dice(seed % (2**31))
        if self.rollout == "scripted":
            heroes, dm = ScriptedHeroes(game=g), ScriptedDM(game=g, seed=seed)
        else:
            heroes = dm = RandomAgent(seed)
        if action not in g.legal_actions():  # the view's own rules do not offer it: the policy plays
            action = (dm if g.agent == "dm" else heroes).choose(g)
        g.apply(action)
        steps = 0
        while not g.over and steps < self.depth:
            g.apply((dm if g.agent == "dm" else heroes).choose(g))
            steps += 1
        value = score(g)
        return value if side == "heroes" else -value


def score(g: Game) -> float:
    """The heroes' value of a game: its outcome, or a heuristic in [-0.5, 0.5] if it is not over."""
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
    return max(-0.5, min(0.5, 0.3 * h_share + 0.3 * met - 0.02 * m_left - 0.1))


__all__ = ["SearchAgent", "score"]
