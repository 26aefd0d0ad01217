"""The AEC env's step in the core: one binding call per step (``_core.AecStep``, src/core/aec_bind.cpp).

For a game on the core whose heroes' knowledge folds on the core's lens, ``raw_env`` moves the game
with one call that applies the action, folds the heroes' lens over its events and names the agent
asked next with its info's decision and figure, and builds each observation with another: the same
rules, lens and observation builder as ``Game.apply``, ``side_knowledge`` and ``observation``, without
the Python between them. What those keep in Python (the game's legal actions and move count, each
side's place in the log, the readers of the heroes' events) is brought up to date here, so that
every other reader of the game and its knowledge sees what ``Game.apply`` would have left.

A step goes the general way (``Game.apply``, ``Observer``) whenever this one cannot stand for it:
Python holds state fields read or edited since the last move, the game rolls dice given to it, its
log or its heroes' lens was replaced, a monster may stand in sight unnamed (a hand edit), the action
is not a Python int or the engine refuses it (the general way then names the error). The env's
``_core_steps = False`` sends every step the general way (the differential tests compare the two).
"""

from __future__ import annotations

from dungeon_env.engine.actions import DECISION_NAMES
from dungeon_env.engine.core import _core
from dungeon_env.engine.game import Game
from dungeon_env.engine.side_knowledge import knowledge_of
from dungeon_env.engine.sideview import DM, HEROES
from dungeon_env.observation import core_layout


class CoreStep:
    """One game's steps in the core for one env (see the module docstring); :meth:`of` makes it."""

    def __init__(self, game: Game, max_turns: int, agents: list[str]) -> None:
        self.game, self.max_turns, self.agents = game, max_turns, list(agents)
        self.engine = game._engine
        self.heroes = knowledge_of(game, HEROES)
        self.dm = knowledge_of(game, DM)
        self.lens, self.shown = self.heroes.lens, self.heroes._shown
        self.core = _core.AecStep(
            self.engine,
            core_layout(game.tables),
            max_turns,
            self.lens,
            self.shown,
            agents,
            list(DECISION_NAMES),
        )

    def __reduce__(self):
        """Copied or pickled (with its env), a step is made anew for the copy of its game."""
        return CoreStep, (self.game, self.max_turns, self.agents)

    @classmethod
    def of(cls, game: Game, max_turns: int, agents: list[str]) -> CoreStep | None:
        """The core's step of ``game``, or None for a game it cannot play: one on the Python rules,
        a side's view, heroes' knowledge folded by the Python lens."""
        if game._engine is None or game.asked is not None or len(agents) != len(game.hero_ids) + 1:
            return None
        heroes = knowledge_of(game, HEROES)
        if not isinstance(heroes.lens, _core.HeroLens) or heroes._shown is None:
            return None
        return cls(game, max_turns, agents)

    def apply(self, action: int, reader: object, plain: bool) -> tuple | None:
        """Apply ``action`` (a Python int) as ``Game.apply`` does, the knowledge folded: ``(first new
        event's index, the log's length, agent asked, decision, figure named)``, the last three None
        once the game is over; None if the general way must take the step (nothing moved then).

        ``plain``: ``reader`` (the env) reads none of the heroes' shown events (no shaping, no
        info_events); if no other reader holds a place either, the lens folds without keeping them
        and both sides' places move to the log's end here (``SideKnowledge.hold``); else the
        shown events are kept and the caller holds its places as usual. ``moved[5]``: whether the
        places were moved here."""
        game, heroes, dm = self.game, self.heroes, self.dm
        # the game, its log and the heroes' knowledge are as the last step left them: nothing for
        # Game.apply or HeroKnowledge.sync to hand over or fold anew first
        if (
            game._engine is not self.engine
            or game._state._held
            or game._bound_dice is not None
            or game.log_token is not heroes._token
            or heroes.lens is not self.lens
            or heroes._shown is not self.shown
            or heroes._unnamed_possible
        ):
            return None
        key = id(reader)
        hr, dr = heroes._readers, dm._readers
        plain = (
            plain
            and not heroes._at
            and (not hr or (len(hr) == 1 and key in hr))
            and (not dr or (len(dr) == 1 and key in dr))
        )
        try:
            moved = self.core.apply(action, not plain)
        except (ValueError, TypeError, OverflowError):
            return None  # refused (the engine changed nothing): Game.apply names why
        game._legal = None
        game.moves += 1
        now = moved[1]
        heroes._folded = dm._folded = now
        heroes._numbers = None
        if plain:  # SideKnowledge.hold(reader, now) of each side, its only reader
            hr[key] = dr[key] = now
            if dm._kept < now:
                dm._kept = now
        return moved + (plain,)

    def observe(self, role: int, me: int, to_act: bool) -> dict | None:
        """``Observer.observe``'s result for the game (None: the general way must build it)."""
        game = self.game
        if (
            game._engine is not self.engine
            or game._state._dirty
            or game._bound_dice is not None
            or self.heroes.lens is not self.lens
        ):
            return None
        return self.core.observe(role, me, to_act)
