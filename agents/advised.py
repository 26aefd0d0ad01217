"""Advised observations: the compact view a trained policy sees, plus its scripted advisor's choice.

A policy trained from scratch on this game's long, sparse-reward episodes needs far more than an
hour of a 2-core machine to reach the scripted agents' level. The trained agents here therefore
learn a *residual* policy on top of the scripted one (as in "residual policy learning", Silver et
al. 2018, and kick-starting): the observation carries the scripted agent's suggested action as a
one-hot, and the policy network's action logits get that one-hot times a learned weight added
(``agents.advised_policy.AdvisedPolicy``). At the start of training the policy plays like its
advisor; PPO then learns where deviating from the advice wins more games.

The observation is the env's observation without its two biggest pieces (the 19 board planes and
``item_table``; the advisor already reads the board), followed by the advice:

``advised = [figures, items, spells, candidates, role, me, ..., turn] + one_hot(advice, N_ACTIONS)``

``AdvisedObserver`` builds it from the engine's game (for agents) or from the env's flat observation.
Given the ``layout`` of an older version (``agents.obs_layout``; the shipped policies were trained on
commit 2df847b's), it builds that version's advised observation instead, from the game: the v0
observation (``agents.observation_v0``, the env's layout before issue 13), its kept pieces mapped to
the old layout by names, then an advice one-hot of the old action table's size (advice beyond it, a
newer action, gives no one-hot).
"""

from __future__ import annotations

import numpy as np

from agents import observation_v0
from agents.obs_layout import advised_size, advised_translator, compact_size
from dungeon_env.engine import Game
from dungeon_env.engine.actions import N_ACTIONS
from dungeon_env.observation import DM, HERO, OBS_SPEC, Observer

SIDES = ("heroes", "dm")
DROPPED_PIECES = ("board", "item_table")
COMPACT_SLICES = tuple(OBS_SPEC.slice(name) for name, _ in OBS_SPEC.pieces if name not in DROPPED_PIECES)
COMPACT_SIZE = sum(s.stop - s.start for s in COMPACT_SLICES)
ADVISED_SIZE = COMPACT_SIZE + N_ACTIONS
# the upper bound of every entry (1, or an id column's bound; the advice one-hot: 1)
ADVISED_HIGH = np.concatenate([OBS_SPEC.high()[s] for s in COMPACT_SLICES] + [np.ones(N_ACTIONS, np.float32)])


def compact_observation(flat: np.ndarray) -> np.ndarray:
    """The env's flat observation without the board planes and ``item_table``."""
    return np.concatenate([flat[s] for s in COMPACT_SLICES])


def advised_observation(flat: np.ndarray, advice: int | None) -> np.ndarray:
    """The compact observation followed by the one-hot of ``advice`` (all zeros for ``None``)."""
    out = np.zeros(ADVISED_SIZE, np.float32)
    start = 0
    for s in COMPACT_SLICES:
        stop = start + (s.stop - s.start)
        out[start:stop] = flat[s]
        start = stop
    if advice is not None:
        out[COMPACT_SIZE + int(advice)] = 1.0
    return out


def make_advisor(side: str, seed: int | None = None):
    """The scripted agent that advises ``side``: ``ScriptedHeroes`` or ``ScriptedDM``, v1 (the frozen
    reference the shipped advised policies were trained on; pinned, never the latest version)."""
    from agents.scripted_dm import ScriptedDM
    from agents.scripted_heroes import ScriptedHeroes

    if side not in SIDES:
        raise ValueError(f"side must be one of {SIDES}, got {side!r}")
    return ScriptedHeroes(seed=seed) if side == "heroes" else ScriptedDM(seed=seed)


def role_of(agent: str) -> tuple[int, int]:
    """The observation role and hero index of a PettingZoo agent name (``hero_2`` -> (HERO, 2))."""
    if agent == "dm":
        return DM, -1
    if agent.startswith("hero_") and agent[5:].isdigit():
        return HERO, int(agent[5:])
    raise ValueError(f"unknown agent {agent!r}: expected 'dm' or 'hero_<k>'")


class AdvisedObserver:
    """Advised observations of one side: the advisor's choice for the decision asked, appended to
    the compact observation."""

    def __init__(self, side: str, seed: int | None = None, layout: dict | None = None) -> None:
        self.side = side
        self.advisor = make_advisor(side, seed)
        self._observer = Observer() if layout is None else observation_v0.Observer()
        self.layout = layout
        self._translate = advised_translator(layout) if layout is not None else None
        self.size = advised_size(layout) if layout is not None else ADVISED_SIZE
        self.compact = compact_size(layout) if layout is not None else COMPACT_SIZE
        self.n_advice = int(layout["advised"]["advice"]) if layout is not None else N_ACTIONS

    def seed(self, seed: int | None) -> None:
        self.advisor.seed(seed)

    def advice(self, game: Game) -> int:
        """The advisor's action for the decision ``game`` asks now, computed on the asked side's
        view of the game (the advisor's ``view``, ``side_knowledge.side_view`` or the heroes' view for
        reading only: the heroes' advice never reads hidden state)."""
        return int(self.advisor.choose(self.advisor.view(game)))

    def from_flat(self, flat: np.ndarray, game: Game | None) -> np.ndarray:
        """The advised observation of a flat observation (the env's; with an older ``layout``, a v0
        vector of ``agents.observation_v0``, as ``from_game`` builds); ``game`` is ``None`` (no
        advice) when nothing is asked (the episode is over)."""
        advice = None if game is None or game.over else self.advice(game)
        if self._translate is None:
            return advised_observation(flat, advice)
        out = np.zeros(self.size, np.float32)
        out[: self.compact] = self._translate(flat)
        if advice is not None and advice < self.n_advice:  # a newer action has no old one-hot
            out[self.compact + advice] = 1.0
        return out

    def from_game(self, game: Game) -> tuple[np.ndarray, np.ndarray]:
        """The advised observation and the action mask of the agent ``game`` asks now."""
        role, me = role_of(game.agent)
        obs = self._observer.observe(game, role, me, True, game.max_turns)
        return self.from_flat(obs["observation"], game), obs["action_mask"]


__all__ = [
    "ADVISED_HIGH",
    "ADVISED_SIZE",
    "COMPACT_SIZE",
    "AdvisedObserver",
    "advised_observation",
    "compact_observation",
    "make_advisor",
    "role_of",
]
