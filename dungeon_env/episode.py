"""One episode of the game: its rules in one place, and the one loop that plays it.

An episode is one adventure, or a campaign (``engine.campaign.Campaign``) played as one episode.
:class:`Episode` owns what happens to an episode as it goes, a step at a time: the heroes' team
reward of each step (shaping on the step's events as heroes know them, the outcome reward when an
adventure ends: ``dungeon_env.rewards``), the campaign's next adventure, the turn-cap rule, the
:class:`~dungeon_env.ending.Ending` and the final info's keys. The PettingZoo env
(``dungeon_env.aec``) steps one action at a time and asks it at every step;
:func:`play_episode` plays a whole episode with two agents that choose from the game
(``choose(game) -> action``: the scripted, search, random and trained agents of ``agents``) and asks
it the same questions, so ``tasks.measure``, the difficulty tool, ``training.evaluate`` and the demo
count rewards, goals and endings exactly as the env pays them::

    from dungeon_env.engine import Game
    from dungeon_env.episode import play_episode, seed_agents

    game = Game.new(adventure="flooded_cellar", heroes=["bram", "sela", "orwin"], seed=7)
    seed_agents(heroes, dm, 7)
    result = play_episode(heroes, dm, game, shaping={"damage": 0.1})
    result.ending, result.team_return, result.steps  # Ending, the heroes' return, decisions by side
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from dungeon_env.content import load_adventure
from dungeon_env.ending import Ending, campaign_ending_of, ending_of
from dungeon_env.engine import Game
from dungeon_env.engine.campaign import Campaign, campaign_order
from dungeon_env.engine.side_knowledge import SideKnowledge, knowledge_of
from dungeon_env.rewards import (
    StateShaping,
    check_shaping,
    goals_in_hand,
    needs_goals,
    outcome_reward,
    outcome_table,
    shaping_reward,
    turn_cap_terminates,
)

DEFAULT_REWARDS = outcome_table(1.0, 0.0, -1.0, 0.0)  # the env's defaults (reward_completed, ...)


class Episode:
    """The bookkeeping of one episode (the module docstring), begun at ``start`` (a game, or a
    campaign whose first adventure it begins), paying the outcome ``rewards`` (a table of
    ``rewards.outcome_table``; default the env's) and the ``shaping`` weights (None: none)."""

    def __init__(
        self,
        start: Game | Campaign,
        rewards: Mapping[str, float] | None = None,
        shaping: Mapping[str, float] | None = None,
    ) -> None:
        self.rewards = dict(DEFAULT_REWARDS if rewards is None else rewards)
        self.shaping = check_shaping(dict(shaping) if shaping else None)
        self.campaign = start if isinstance(start, Campaign) else None
        self.begin(start.next_game() if self.campaign is not None else start)

    def begin(self, game: Game) -> None:
        """Play ``game`` from its set-up (the episode's first adventure or a campaign's next): the
        per-game shaping state starts afresh (the set-up earns nothing). The heroes' shaping reads
        their knowledge of the game (``engine.side_knowledge``) and nothing else."""
        self.game = game
        self.known: SideKnowledge = knowledge_of(game, "heroes")
        self.squares_seen: set[tuple[int, int]] = set()  # the shaping term ``squares``: stood on
        wanted = StateShaping.wanted(self.shaping)  # no view is made without the terms
        self.state_terms = StateShaping(self.known.view(), self.shaping) if wanted else None

    # ----- rewards
    def shaping_reward(self, known: Sequence[dict]) -> float:
        """The heroes' shaping reward of one step's events as heroes know them (their knowledge's
        events of the step), so that the heroes' reward never counts what happens out of their
        sight (:func:`dungeon_env.rewards.shaping_reward`, plus the state-read terms, which read the
        heroes' view: the goals in hand, the way out, the areas explored)."""
        in_hand = needs_goals(known, self.shaping) and goals_in_hand(self.known.view())
        reward = shaping_reward(known, self.shaping, self.squares_seen, in_hand)
        if self.state_terms is not None:
            reward += self.state_terms.step(self.known.view())
        return reward

    def outcome_reward(self) -> float:
        """The heroes' reward for the way the adventure in play ended (the DM gets its opposite)."""
        game = self.game
        return outcome_reward(game.outcome, game.goals_met, self.rewards)

    def step_reward(self, known: Sequence[dict]) -> float:
        """The heroes' team reward of the step just taken: its shaping (with shaping weights, on the
        step's events as heroes know them) and, when it ended the adventure, the outcome reward."""
        team = self.shaping_reward(known) if self.shaping else 0.0
        if self.game.over:
            team += self.outcome_reward()
        return team

    # ----- adventures and ends
    def goes_on(self) -> bool:
        """Once the adventure in play is over: record it in the campaign (if one is played); True
        when the episode goes on with another adventure (:meth:`next_game`)."""
        if self.campaign is None:
            return False
        self.campaign.record(self.game)
        return not self.campaign.over

    def next_game(self) -> Game:
        """The campaign's next adventure (the next, or this one again by a new party), begun."""
        self.begin(self.campaign.next_game())
        return self.game

    @property
    def turn_cap_terminates(self) -> bool:
        """The turn cap is an end of the task (``terminated``), not a time limit: the one rule of
        ``dungeon_env.rewards.turn_cap_terminates``."""
        return turn_cap_terminates(self.rewards)

    def time_limit_reached(self) -> bool:
        """The adventure ended at a turn cap that pays nothing: Gymnasium's ``truncated``."""
        return self.game.outcome == "truncated" and not self.turn_cap_terminates

    def ending(self) -> Ending:
        """How the finished episode ended: the campaign's ending once a campaign is over, else the
        adventure's (:mod:`dungeon_env.ending`)."""
        if self.campaign is not None and self.campaign.over:
            return campaign_ending_of(self.campaign)
        return ending_of(self.game)

    def final_info(self, outcome: str | None = None, reason: str | None = None) -> dict:
        """The keys every agent's final info carries: nobody is asked anything any more; the
        ``outcome`` and ``reason`` (default: the game's), the adventure's goals; a finished
        campaign's own (:func:`campaign_info`)."""
        info = ending_info(self.game, outcome, reason)
        if self.campaign is not None and self.campaign.over:
            info |= campaign_info(self.campaign)
        return info


def ending_info(game: Game, outcome: str | None = None, reason: str | None = None) -> dict:
    """The final-info keys of a finished adventure (:meth:`Episode.final_info` without a campaign):
    nobody is asked anything any more; the ``outcome`` and ``reason`` (default: the game's), the
    adventure's goals."""
    return {
        "decision": "",
        "unit": "",
        "outcome": game.outcome if outcome is None else outcome,
        "reason": (game.state.end_reason if reason is None else reason) or "",
        "objectives": game.objectives(),
        "goals_met": game.goals_met,
    }


# ----------------------------------------------------------------------------------- the loop


@dataclass
class EpisodeResult:
    """A played episode: its ``ending``, the heroes' ``team_return`` (the DM's is its opposite),
    the decisions each side took (``steps``: ``heroes``, ``dm``) and every adventure played, in
    order (``games``: one, or a campaign's)."""

    ending: Ending
    team_return: float
    steps: dict[str, int]
    games: list[Game] = field(default_factory=list)

    @property
    def game(self) -> Game:
        """The last adventure played."""
        return self.games[-1]

    @property
    def turns(self) -> int:
        """The turns of every adventure played, added up."""
        return sum(int(g.state.turn) for g in self.games)

    def side_return(self, side: str) -> float:
        """The episode return of ``side`` (``heroes`` or ``dm``)."""
        return self.team_return if side == "heroes" else -self.team_return


def play_episode(
    heroes: Any,
    dm: Any,
    start: Game | Campaign,
    rewards: Mapping[str, float] | None = None,
    shaping: Mapping[str, float] | None = None,
    on_step: Callable[[Game], None] | None = None,
) -> EpisodeResult:
    """Play one episode from ``start`` (a new game, or a campaign) to its end: ``heroes`` chooses
    for every hero, ``dm`` for every monster (each ``choose(game) -> action``; bound to each new
    game with ``bind(game=...)`` when they have it). Rewards, shaping, the campaign's next
    adventure and the ending are :class:`Episode`'s, as the env pays them; ``on_step(game)`` is
    called after every action.

    Heroes that can play a whole game against ``dm`` in compiled code (``heroes.compiled_play(dm,
    game)``, e.g. the scripted agents v2 on the core: ``agents.scripted_play``) do so when nothing
    reads the game between two moves (no shaping, no ``on_step``): the same moves, log and result."""
    episode = Episode(start, rewards, shaping)
    steps = {"heroes": 0, "dm": 0}
    team, games, game = 0.0, [], episode.game
    compiled = getattr(heroes, "compiled_play", None) if not episode.shaping and on_step is None else None
    while True:
        for agent in (heroes, dm):
            if hasattr(agent, "bind"):
                agent.bind(game=game)
        known = episode.known
        played = compiled(dm, game) if compiled is not None and not game.over else None
        if played is not None:  # (the game is over: only its outcome is paid, as the last step pays it)
            for side, n in played.items():
                steps[side] += n
            team += episode.step_reward(())
            known.hold(episode, game.n_events)
        while not game.over:
            side = "dm" if game.agent == "dm" else "heroes"
            steps[side] += 1
            before = game.n_events
            game.apply(int((dm if side == "dm" else heroes).choose(game)))
            team += episode.step_reward(known.events_since(before) if episode.shaping else ())
            known.hold(episode, game.n_events)  # read: its memory stays that of the compact log
            if on_step is not None:
                on_step(game)
        games.append(game)
        if not episode.goes_on():
            return EpisodeResult(episode.ending(), team, steps, games)
        game = episode.next_game()


def seed_agents(heroes: Any, dm: Any, game_seed: int) -> None:
    """Seed both agents from a game's seed (``SeedSequence(game_seed).generate_state(2)``), so that
    the same game index gets the same agent choices in every process: the one rule of
    ``tasks.measure``, the difficulty tool and ``training.evaluate``."""
    for agent, seed in zip((heroes, dm), agent_seeds(game_seed), strict=True):
        if hasattr(agent, "seed"):
            agent.seed(seed)


def agent_seeds(game_seed: int) -> tuple[int, int]:
    """The heroes' and the DM's agent seeds of the game played with ``game_seed``."""
    heroes, dm = np.random.SeedSequence(game_seed).generate_state(2)
    return int(heroes), int(dm)


# ----------------------------------------------------------------------------------- campaigns


def campaign_adventures(campaign: list[str] | str | None, adventure: str | None) -> list[str]:
    """The adventures of the ``campaign`` option in order (``"bundled"``: the bundled campaign,
    ``engine.campaign.campaign_order()``), [] for none, or a ValueError naming what is wrong."""
    if campaign is None:
        return []
    if campaign == "bundled":
        adventures = campaign_order()
    elif isinstance(campaign, list | tuple) and campaign and all(isinstance(a, str | Path) for a in campaign):
        adventures = [str(a) for a in campaign]
    else:
        raise ValueError(
            f"campaign must be 'bundled' or a non-empty list of adventures (bundled names or .toml "
            f"paths), got {campaign!r}"
        )
    for name in adventures:
        load_adventure(name)  # an unknown name or a broken file: its own clear error
    if adventure is not None and adventure != adventures[0]:
        raise ValueError(
            f"adventure={adventure!r} and campaign={campaign!r}: a campaign starts with its own first "
            f"adventure ({adventures[0]!r}); give one of the two"
        )
    return adventures


def campaign_progress(campaign: Campaign) -> dict:
    """The ``campaign`` key of every info of a campaign: its outcome (``won``, ``lost``,
    ``truncated``; ``""`` while it goes on), the adventures completed, their number and the history
    of every adventure played so far."""
    won = campaign.outcome == "won"
    return {
        "outcome": campaign.outcome or "",
        "adventures_completed": campaign.index + won,
        "adventures": len(campaign.adventures),
        "history": [dict(entry) for entry in campaign.history],
    }


def campaign_info(campaign: Campaign) -> dict:
    """A finished campaign's final-info keys: ``outcome`` (its :class:`Ending`'s outcome word:
    ``completed`` when won, ``failed`` when lost, ``truncated``), ``goals_met`` (won), the reason
    of a lost one and ``campaign`` (:func:`campaign_progress`)."""
    ending = campaign_ending_of(campaign)
    info = {
        "outcome": ending.outcome,
        "goals_met": ending is Ending.COMPLETED_WITH_GOALS,
        "campaign": campaign_progress(campaign),
    }
    if ending is Ending.FAILED:
        info["reason"] = "no hero left to replace the dead"
    return info


__all__ = [
    "DEFAULT_REWARDS",
    "Episode",
    "EpisodeResult",
    "agent_seeds",
    "campaign_adventures",
    "campaign_info",
    "campaign_progress",
    "ending_info",
    "play_episode",
    "seed_agents",
]
