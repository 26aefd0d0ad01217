"""A Dungeon Master that keeps its monsters away from the heroes whenever the rules let it.

A stress test, not an opponent: it measures what the rules themselves force a reluctant DM to do.
Each monster takes the legal step that leaves it farthest from the nearest living hero (path
distance through open doors, figures ignored) and ends its movement as soon as no legal step gets
it farther; it never spends Stamina to move. Under the corrected rules (checklist R-MON-03, A-53)
the legal actions oblige an awake monster to attack, so this DM fights when it must; under the
engine before those corrections it stalled every game to the turn cap. Fights and Mental Combat are
played like :class:`agents.scripted_dm.ScriptedDM`.
"""

from __future__ import annotations

from agents.scripted_dm import ScriptedDM
from dungeon_env.engine import Decision, Game
from dungeon_env.engine.actions import END, EXTRA_MOVE, MOVE_ACTIONS
from dungeon_env.engine.tables import UNREACHABLE, path_distances
from dungeon_env.engine.units import active_heroes


class RunawayDM(ScriptedDM):
    """Monsters flee from the heroes as far as the legal actions allow; see the module docstring."""

    def choose(self, game: Game) -> int:
        kind, u = game.decision
        legal = game.legal_actions()
        if kind == Decision.MONSTER_MOVE and len(legal) > 1:
            return self.flee(game, u, legal)
        return super().choose(game)

    def flee(self, g: Game, m: int, legal: list[int]) -> int:
        """The legal step to the square farthest from every hero, or END if none is farther than
        here (a step is taken when END is not legal: the rules oblige the monster to move)."""
        s, t = g.state, g.tables
        heroes = [int(s.unit_pos[h]) for h in active_heroes(g)]
        if not heroes:
            return END if END in legal else legal[0]
        dist = path_distances(t, heroes, s.door_open)
        here = int(s.unit_pos[m])
        steps = [
            (dist[nxt], -a, a)
            for a, nxt in zip(MOVE_ACTIONS, t.neighbor[here].tolist(), strict=True)
            if a in legal and nxt >= 0
        ]
        best = max(steps, default=None)
        if END in legal and (best is None or best[0] <= dist[here] or dist[here] >= UNREACHABLE):
            return END
        if best is not None:
            return best[2]
        return EXTRA_MOVE if EXTRA_MOVE in legal else legal[0]


__all__ = ["RunawayDM"]
