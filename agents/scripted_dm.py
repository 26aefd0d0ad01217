"""A scripted Dungeon Master that plays the monsters with intent.

- **Movement.** Each monster picks a victim: the hero with the lowest score of path distance +
  2 x Health left + 3 if another hero stands within 2 squares of it - 4 at Death's Door (so the weak
  and the isolated are hunted first, a hero at Death's Door most of all), and walks the shortest way
  (open doors only) to a square next to it, never onto an armed trap. It buys an extra square with
  Stamina when that square brings it into a Fight this turn and it keeps Stamina (3) for the Fight.
  A monster blocked by another defers so that the front ranks move first. A monster already in a
  Fight stays put.
- **Fights.** Stamina (monsters never recover it) is spent from the exact 2d6 odds: all it can
  when a win would kill the hero or a loss would kill the monster, one point when that turns the
  odds, none otherwise.
- **Mental Combat.** Bids all the Magic it may (the Warlock's Magic has no other use).
- Any other decision (rare for the DM) is a seeded random legal action.

Every number above is a knob of :class:`agents.scripted_params.DMParams` (``params``); the defaults
are the values given here, which ``ScriptedDM()`` plays.

The DM sees everything; so does this script (it is the DM's view).
"""

from __future__ import annotations

from agents._common import adjacent_foes, around, p_win
from agents.base import GameAgent
from agents.scripted_params import DMParams
from dungeon_env.engine import Decision, Game, combat
from dungeon_env.engine.actions import DEFER, END, EXTRA_MOVE, MOVE_ACTIONS, SPEND_0
from dungeon_env.engine.state import FIGHT_HERO, FIGHT_MONSTER
from dungeon_env.engine.tables import UNREACHABLE, memoised, path_distances
from dungeon_env.engine.units import active_heroes

SPOTS_MEMO_SIZE = 64  # hero placements (and door states) whose victim facts are kept (~5 KB a hero)
# a hero's victim facts: its slot, the squares from which it can be fought, the distances to them
# (None: none a walk can end on) and whether another hero stands within 2 squares of it
HeroSpots = tuple[int, tuple[int, ...], tuple[int, ...] | None, bool]
TRAPS_MEMO_SIZE = 64  # armed-trap configurations whose squares are kept


class ScriptedDM(GameAgent):
    """Plays the DM's decisions; see the module docstring. ``ScriptedDM(env=env, seed=0)``;
    ``params``: the knobs (default ``DMParams()``, v1's values)."""

    def __init__(
        self, game: Game | None = None, env=None, seed: int | None = None, params: DMParams | None = None
    ) -> None:
        super().__init__(game=game, env=env, seed=seed)
        self.params = DMParams() if params is None else params

    def choose(self, game: Game) -> int:
        g = game
        kind, u = g.decision
        legal = g.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if kind == Decision.MONSTER_MOVE:
            return self.monster_move(g, u, legal)
        if kind == Decision.FIGHT_STAMINA:
            return self.fight_stamina(g, u, legal)
        if kind == Decision.MENTAL_BID:
            return max(legal)
        return self.rng.choice(legal)

    # ----------------------------------------------------------------------------- movement
    def trap_squares(self, g: Game) -> frozenset[int]:
        """The squares of the armed traps (memoised per armed-trap configuration)."""
        s, adv = g.state, g.tables.adventure

        def compute() -> frozenset[int]:
            return frozenset(g.square(*tr.at) for i, tr in enumerate(adv.traps) if s.trap_armed[i])

        return memoised(g.tables, "agents.dm_traps", TRAPS_MEMO_SIZE, s.trap_armed.tobytes(), compute)

    def hero_spots(self, g: Game, heroes: list[int]) -> tuple[HeroSpots, ...]:
        """For each active hero: the squares from which it can be fought, the path distance of every
        square to the nearest of those a walk can end on (no blockage; None if there is none), and
        whether another hero stands within ``company_radius`` squares of it. Memoised on where the
        heroes stand and which doors are open: they stay put while the monsters move, so every
        monster's ``victim`` reads the same facts."""
        s = g.state
        where = tuple(int(s.unit_pos[h]) for h in heroes)
        radius = self.params.company_radius

        def compute() -> tuple[HeroSpots, ...]:
            at = [g.xy(q) for q in where]
            blockage = g.tables.blockage
            out = []
            for k, (h, (hx, hy)) in enumerate(zip(heroes, at, strict=True)):
                company = any(j != k and abs(x - hx) + abs(y - hy) <= radius for j, (x, y) in enumerate(at))
                spots = tuple(around(g, where[k]))
                entries = [q for q in spots if not blockage[q]]
                reach = path_distances(g.tables, entries, s.door_open) if entries else None
                out.append((h, spots, reach, company))
            return tuple(out)

        key = (tuple(heroes), where, s.door_open.tobytes(), radius)
        return memoised(g.tables, "agents.dm_hero_spots", SPOTS_MEMO_SIZE, key, compute)

    def victim(self, g: Game, m: int) -> int | None:
        """The hero monster ``m`` hunts (see the module docstring), or None.

        The monster's path distance to a hero's fight squares is read from the distances searched
        *from* those squares (``hero_spots``): a walk enters no blockage, so between two squares
        that are not blockages it is as long either way, and the squares' distances stay the same
        while the heroes stand still, so every monster of the phase reads the same ones."""
        s, t = g.state, g.tables
        heroes = active_heroes(g)
        if not heroes:
            return None
        here = int(s.unit_pos[m])
        # a monster never stands on a blockage; if one did, distances from its own square
        dist = path_distances(t, [here], s.door_open) if t.blockage[here] else None
        health, deaths_door = s.health, s.deaths_door
        p = self.params
        best, pick = None, None
        for h, spots, reach, company in self.hero_spots(g, heroes):
            if dist is not None:
                d = min((dist[q] for q in spots), default=UNREACHABLE)
            else:
                d = UNREACHABLE if reach is None else reach[here]
            if d >= UNREACHABLE:
                continue
            score = (
                d
                + p.health_weight * int(health[h])
                + (p.company_weight if company else 0)
                - (p.deaths_door_bonus if deaths_door[h] else 0)
            )
            if best is None or score < best:
                best, pick = score, h
        return pick

    def monster_move(self, g: Game, m: int, legal: list[int]) -> int:
        s, t = g.state, g.tables
        if adjacent_foes(g, m):
            return END
        h = self.victim(g, m)
        if h is None:
            return END if END in legal else self.closest_legal(g, m, legal)
        goal = around(g, int(s.unit_pos[h]))
        dist = path_distances(t, goal, s.door_open)
        traps = self.trap_squares(g)
        here = int(s.unit_pos[m])
        best, choice = dist[here], END
        for a, nxt in zip(MOVE_ACTIONS, t.neighbor[here].tolist(), strict=True):
            if a in legal and nxt >= 0 and nxt not in traps and dist[nxt] < best:
                best, choice = dist[nxt], a
        if choice == END:
            if (
                s.move_left[m] == 0
                and EXTRA_MOVE in legal
                and dist[here] == 1
                and s.stamina[m] >= self.params.extra_move_stamina
            ):
                return EXTRA_MOVE
            if DEFER in legal and 0 < dist[here] < UNREACHABLE:
                return DEFER  # blocked: let the others move first
        return choice if choice in legal else self.closest_legal(g, m, legal)

    def closest_legal(self, g: Game, m: int, legal: list[int]) -> int:
        """When the rules forbid stopping here (R-MON-03): the legal step that gets nearest to any
        hero, else a Stamina-bought square, else waiting for the others (DEFER)."""
        s, t = g.state, g.tables
        goal = [q for h in active_heroes(g) for q in around(g, int(s.unit_pos[h]))]
        dist = path_distances(t, goal, s.door_open) if goal else None
        here = int(s.unit_pos[m])
        steps = [
            (dist[nxt] if dist else 0, a)
            for a, nxt in zip(MOVE_ACTIONS, t.neighbor[here].tolist(), strict=True)
            if a in legal
        ]
        if steps:
            return min(steps)[1]
        for action in (EXTRA_MOVE, DEFER, END):
            if action in legal:
                return action
        raise ValueError(f"no movement choice for {g.label(m)} among the legal actions {legal}")

    # ----------------------------------------------------------------------------- fights
    def fight_stamina(self, g: Game, m: int, legal: list[int]) -> int:
        s, p = g.state, self.params
        row = s.fights[s.fight_index]
        h = row[FIGHT_HERO]
        counts_m = sum(1 for r in s.fights if r[FIGHT_MONSTER] == m)
        counts_h = sum(1 for r in s.fights if r[FIGHT_HERO] == h)
        m_score = int(s.base_fight[m]) + sum(combat.monster_modifiers(g, m, counts_m, 0).values())
        h_score = int(s.base_fight[h]) + sum(combat.hero_modifiers(g, h, counts_h, 0).values())
        h_spend = min(3, int(s.stamina[h])) if not s.exhausted[h] else 0
        diff = m_score - h_score - int(h_spend * p.hero_spend_share)  # the hero answers
        kill = s.health[h] <= int(s.base_damage[m]) or s.deaths_door[h]
        dying = s.health[m] <= int(s.base_damage[h])
        most = max(legal) - SPEND_0
        if kill or dying:
            return SPEND_0 + most
        gain = p_win(diff + 1) - p_win(diff)
        return SPEND_0 + (1 if most >= 1 and gain > p.spend_gain and s.stamina[m] >= p.spend_stamina else 0)


__all__ = ["ScriptedDM"]
