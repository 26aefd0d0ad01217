"""The scripted Dungeon Master v2: the v1 script (``agents.scripted_dm``) with monsters that stop
dithering and focus their attacks, every threshold and weight read from the tuned
:class:`agents.scripted_params.DMParams`.

What changes from v1 (Mental Combat is played as v1 plays it):

- **Distances count the figures.** v1 walks by the board's distances, which ignore the figures: a
  monster whose way a comrade or a hero blocks finds no step that gets closer, and when the duty to
  attack (R-MON-03) forbids it to stop, it took the legal step nearest to any hero, then the step
  back, buying squares with Stamina to go on; and its victim, scored afresh at every step, could
  change as it walked (in v1's games against the scripted heroes on goblin_warrens and bandit_keep,
  about one monster step in five went back onto a square it had stood on in the same Movement). v2
  measures the way to each hero's free fight squares over the board as it is (the figures, armed
  traps and hazards are in the way), so every step it takes shortens a walk that exists, and it
  remembers the squares it stood on in the Movement: it never steps back onto one unless that step
  reaches a Fight.
- **One victim for the Movement.** A hero the monster can reach this turn (with the squares left
  and all the Stamina it may spend) comes before any other: the rules make it fight one of those when
  its allowance reaches one. Among them, the hero of lowest score (``victim_v2``): the walk to it,
  + ``later_penalty`` if the Fight needs more Stamina than it may spend (below), + ``buy_weight``
  per square bought, + ``health_weight`` x Health left, + ``company_weight`` per comrade within
  ``company_radius``, - ``wounded_weight`` x the share of Health lost, - ``deaths_door_bonus`` at
  Death's Door, - ``caster_bonus`` for a hero with Magic, - ``carrier_bonus`` for a hero holding an
  item a primary goal needs carried out, - ``gang_bonus`` per monster already next to it. Once
  picked, it keeps ``commit_bonus`` off its score for the rest of the Movement.
- **Stamina buys a Fight or nothing.** A square is bought only when the walk to the victim's fight
  square fits in the squares left plus the Stamina bought, and at least ``keep_stamina`` is left
  for the Fight.
- **One Fight at a time** (``single_fight``). A monster seeks a fight square next to its victim
  alone when it can still reach one this turn (a Fight with two heroes costs it -1 in each), and a
  monster next to two heroes steps, where the rules let it, to a square next to one.
- **The way out held** (``hold_exit``). A monster nearer the exit than every hero, with no Fight in
  reach this turn, stops as soon as the rules let it (one square closer to a hero) instead of
  walking down the corridor into the party: the party has to come through it.
- **Fights.** As v1, but a monster spends at least ``fight_spend`` Stamina in every Fight (it never
  recovers Stamina, and what it holds when it dies is lost).
- A monster with no way to any hero defers (the front ranks move first) as v1 does; one that still
  has none goes by the board's distances as v1 does, but never back onto its trail.

Measured against the v1 scripted heroes (400 games each, 3-5 heroes, development seeds 200-599,
2026-12-06): the heroes completed goblin_warrens with its goals in 39.0% of the games (51.5%
against v1), bandit_keep in 69.8% (75.8%); games at the turn cap 2.5% (1.3%) and 3.0% (3.5%): in
those looked at, no monster had a way to a free square next to the heroes left (shut in by corpses
and monsters), or no monster was left; a game takes about as long as with v1.

The memory of a Movement (the trail, the victim) is keyed by the turn, the monster and the square
it began on, and checked against where the monster stands, so a search that copies the game and
plays on cannot mislead it.

On the compiled core (a game's default engine) the choice is made in compiled code
(``src/agents/scripted_dm_v2.cpp``, ``_core.agents.scripted_dm_v2_choose``), with its own memory of
the Movements; the Python methods here are the reference it is checked against
(tests/test_scripted_dm_native.py) and play the games on ``engine="python"``, the decisions the port
leaves to Python (v1's seeded random choice, which it names by returning ``NOT_PORTED``), and the
subclasses that override one of the methods the port replaces (``PORTED``).
"""

from __future__ import annotations

from agents._common import adjacent_foes, around, ported_as_is
from agents.scripted_dm import ScriptedDM
from agents.scripted_params import DMParams, shipped_v2
from dungeon_env import _core
from dungeon_env.engine import Decision, Game
from dungeon_env.engine.actions import DEFER, END, EXTRA_MOVE, MOVE_ACTIONS, SPEND_0
from dungeon_env.engine.pursuit import Walk
from dungeon_env.engine.state import ACTIVE
from dungeon_env.engine.tables import UNREACHABLE, path_distances
from dungeon_env.engine.units import active_heroes

FAR = 10**6  # a field's search limit: no limit
NOT_PORTED = _core.agents.NOT_PORTED  # the compiled choice leaves this decision to the Python methods
# the methods the compiled choice replaces: a subclass that overrides one plays the Python methods
PORTED = (
    "choose_reference",
    "movement_memory",
    "monster_move_v2",
    "fight_sources",
    "heroes_next_to",
    "in_fight",
    "spendable",
    "between_party_and_exit",
    "fight_now",
    "buys_fight",
    "victim_v2",
    "victim_options",
    "monsters_next_to",
    "goal_carriers",
    "fallback",
    "fight_stamina",
    "closest_legal",
    "trap_squares",
)


class ScriptedDMV2(ScriptedDM):
    """Plays the DM's decisions as v1 does, with the changes of the module docstring.
    ``params``: the knobs (default: the tuned set shipped, ``scripted_params.shipped_v2``)."""

    PORTED = PORTED  # what the compiled choice replaces (see ``_common.ported_as_is``)
    COMPILED_SIDE = "dm"  # the side it plays in compiled code (``agents.scripted_play``)

    def __init__(
        self, game: Game | None = None, env=None, seed: int | None = None, params: DMParams | None = None
    ) -> None:
        self._native_memory = _core.agents.DMMemory()  # the compiled choice's own memory (seed reads it)
        super().__init__(game=game, env=env, seed=seed, params=shipped_v2().dm if params is None else params)
        # (turn, monster, square it began on) -> [trail of squares, victim]; only this turn's kept
        self._movement: dict[tuple[int, int, int], list] = {}
        self._turn = -1
        self._native_params: tuple | None = None  # (the DMParams read, their compiled copy)

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state["_native_params"] = None  # made again from ``params`` when next needed
        return state

    def choose(self, game: Game) -> int:
        """The compiled choice on a game on the core (unless a subclass overrides a method it
        replaces), else, or where it names the decision ``NOT_PORTED``, ``choose_reference``."""
        if getattr(game, "core_engine", None) is not None and ported_as_is(type(self)):
            action = self.choose_native(game)
            if action != NOT_PORTED:
                return action
        return self.choose_reference(game)

    def choose_native(self, game: Game) -> int:
        """The compiled choice (``src/agents/scripted_dm_v2.cpp``) for a game on the core, or
        ``NOT_PORTED`` for a decision it leaves to ``choose_reference``."""
        return _core.agents.scripted_dm_v2_choose(game.core_engine, self.native_parts(), self._native_memory)

    def native_parts(self):
        """The compiled copy of ``params`` (``_core.agents.DMParams``; made again when they are
        replaced)."""
        params = self._native_params
        if params is None or params[0] is not self.params:
            p = self.params
            params = self._native_params = (
                p,
                _core.agents.DMParams([float(getattr(p, name)) for name in _core.agents.DM_PARAMS]),
            )
        return params[1]

    def choose_reference(self, game: Game) -> int:
        """The Python choice: the reference of the compiled one, on any engine."""
        g = game
        kind, u = g.decision
        if kind == Decision.MONSTER_MOVE:
            legal = g.legal_actions()
            if len(legal) == 1:
                return legal[0]
            return self.monster_move_v2(g, u, legal)
        if kind == Decision.FIGHT_STAMINA and self.params.fight_spend:
            legal = g.legal_actions()
            v1 = self.fight_stamina(g, u, legal)
            return max(v1, min(max(legal), SPEND_0 + self.params.fight_spend))
        return super().choose(g)

    # ----------------------------------------------------------------------------- memory
    def movement_memory(self, g: Game, m: int) -> list:
        """``[trail, victim]`` of monster ``m``'s Movement: the squares it stood on (in order) and
        the hero it committed to (None before it picks). Started afresh when the turn, the monster's
        starting square or a gap in the trail says this is another Movement."""
        s = g.state
        turn = int(s.turn)
        if turn != self._turn:
            self._movement.clear()
            self._turn = turn
        here, start = int(s.unit_pos[m]), int(s.move_from[m])
        key = (turn, m, start)
        memo = self._movement.get(key)
        if memo is not None:
            trail = memo[0]
            if trail[-1] == here:
                return memo
            if here in g.tables.neighbor[trail[-1]].tolist():
                trail.append(here)
                return memo
        memo = self._movement[key] = [[start] if start == here else [start, here], None]
        return memo

    # ----------------------------------------------------------------------------- movement
    def monster_move_v2(self, g: Game, m: int, legal: list[int]) -> int:
        s = g.state
        foes = adjacent_foes(g, m)
        if foes:
            return self.in_fight(g, m, legal, len(foes))
        heroes = active_heroes(g)
        if not heroes:
            return END if END in legal else self.closest_legal(g, m, legal)
        memo = self.movement_memory(g, m)
        trail = memo[0]
        here = int(s.unit_pos[m])
        walk = Walk.of(g, m, here, tuple(int(s.unit_pos[h]) for h in heroes))
        fields = {h: walk.field(self.fight_sources(g, walk, h), FAR) for h in heroes}
        h = self.victim_v2(g, m, heroes, fields, memo[1])
        if h is not None and self.params.single_fight:
            # a square next to the victim alone (a Fight with two heroes costs the monster -1 in
            # each) when the monster can still reach one this turn
            alone = self.fight_sources(g, walk, h, alone=True)
            if alone and alone != self.fight_sources(g, walk, h):
                field = walk.field(alone, FAR)
                d = field[here]
                if 0 <= d < UNREACHABLE and (d <= s.move_left[m] or self.buys_fight(g, m, d)):
                    fields = {**fields, h: field}
        steps = [
            (a, nxt)
            for a, nxt in zip(MOVE_ACTIONS, g.tables.neighbor[here].tolist(), strict=True)
            if a in legal
        ]
        visited = set(trail)
        if h is not None:
            memo[1] = h
            field = fields[h]
            d = field[here]
            # a fight square ends the walk (0); any other square of the trail is not stood on again
            forward = [
                (field[q], a) for a, q in steps if 0 <= field[q] < d and (field[q] == 0 or q not in visited)
            ]
            if (
                forward
                and END in legal
                and self.params.hold_exit
                and not self.fight_now(g, m, d)
                and self.between_party_and_exit(g, m, heroes)
            ):
                return END  # stand in the way out rather than walk into the party's file
            if forward:
                return min(forward)[1]
            if d > 0 and s.move_left[m] == 0 and EXTRA_MOVE in legal and self.buys_fight(g, m, d):
                return EXTRA_MOVE
            if END in legal:
                return END
        elif DEFER in legal:
            return DEFER  # no way to any hero now: let the others move first
        return self.fallback(g, m, legal, steps, visited, fields)

    def fight_sources(self, g: Game, walk: Walk, h: int, alone: bool = False) -> tuple[int, ...]:
        """The free squares from which hero ``h`` can be fought (the walk's sources); with ``alone``
        only those next to no other hero."""
        blank = walk.blank
        out = [q for q in around(g, int(g.state.unit_pos[h])) if blank[q] > 0]
        if alone:
            out = [q for q in out if self.heroes_next_to(g, q) == 1]
        return tuple(sorted(out))

    def heroes_next_to(self, g: Game, q: int) -> int:
        """How many active heroes stand next to square ``q`` (the Fights a monster there joins)."""
        s = g.state
        n = 0
        for r in around(g, q):
            v = int(s.occupant[r])
            if 0 <= v < s.n_heroes and s.unit_status[v] == ACTIVE:
                n += 1
        return n

    def in_fight(self, g: Game, m: int, legal: list[int], foes: int) -> int:
        """Monster ``m`` stands next to ``foes`` heroes: it stays, unless a step (the rules offer
        only steps that stay next to a hero) leaves it fighting fewer of them (``single_fight``)."""
        if foes > 1 and self.params.single_fight:
            here = int(g.state.unit_pos[m])
            steps = [
                (self.heroes_next_to(g, q), a)
                for a, q in zip(MOVE_ACTIONS, g.tables.neighbor[here].tolist(), strict=True)
                if a in legal
            ]
            fewer = [(n, a) for n, a in steps if 1 <= n < foes]
            if fewer:
                return min(fewer)[1]
        return END if END in legal else self.closest_legal(g, m, legal)

    def spendable(self, g: Game, m: int) -> int:
        """Squares monster ``m`` may still buy with Stamina this Movement."""
        s = g.state
        if s.exhausted[m]:
            return 0
        return max(0, min(g.rules.move_stamina_max - int(s.move_bought[m]), int(s.stamina[m])))

    def between_party_and_exit(self, g: Game, m: int, heroes: list[int]) -> bool:
        """Monster ``m`` stands nearer the exit (by the board's distances) than every hero: on the
        party's way out, where the rules let it stop once it has come one square closer."""
        s, t = g.state, g.tables
        exits = tuple(sorted(g.square(x, y) for x, y in t.adventure.exits))
        if not exits:
            return False
        dist = path_distances(t, exits, s.door_open)
        mine = dist[int(s.unit_pos[m])]
        return mine < UNREACHABLE and all(mine < dist[int(s.unit_pos[h])] for h in heroes)

    def fight_now(self, g: Game, m: int, d: int) -> bool:
        """A walk of ``d`` squares to a fight square fits in monster ``m``'s Movement this turn."""
        return d <= int(g.state.move_left[m]) or self.buys_fight(g, m, d)

    def buys_fight(self, g: Game, m: int, d: int) -> bool:
        """Buying the ``d - move_left`` squares still missing brings monster ``m`` into a Fight this
        turn and leaves it ``keep_stamina`` for the Fight."""
        s = g.state
        buy = d - int(s.move_left[m])
        return buy <= self.spendable(g, m) and int(s.stamina[m]) - buy >= self.params.keep_stamina

    def victim_v2(
        self, g: Game, m: int, heroes: list[int], fields: dict, committed: int | None
    ) -> int | None:
        """The hero monster ``m`` hunts (the module docstring's score; a hero it can reach this
        turn, spending all the Stamina it may, before any other), or None if a walk reaches none of
        the heroes' free fight squares."""
        options = self.victim_options(g, m, heroes, fields, committed)
        return min(options, key=options.__getitem__) if options else None  # the first of the best

    def victim_options(
        self, g: Game, m: int, heroes: list[int], fields: dict, committed: int | None
    ) -> dict[int, tuple[bool, float]]:
        """Every hero monster ``m`` has a walk to, with its key (out of reach this turn, score), the
        lower the better (``victim_v2``), in the heroes' order."""
        s, p = g.state, self.params
        here = int(s.unit_pos[m])
        left = int(s.move_left[m])
        at = {h: g.xy(int(s.unit_pos[h])) for h in heroes}
        monsters_next = self.monsters_next_to(g, heroes)
        carriers = self.goal_carriers(g)
        budget = left + self.spendable(g, m)
        options: dict[int, tuple[bool, float]] = {}
        for h in heroes:
            d = fields[h][here]
            if not 0 <= d < UNREACHABLE:
                continue
            buy = max(0, d - left)
            now = buy == 0 or self.buys_fight(g, m, d)
            hx, hy = at[h]
            company = sum(
                1 for j in heroes if j != h and abs(at[j][0] - hx) + abs(at[j][1] - hy) <= p.company_radius
            )
            base = max(1, int(s.base_health[h]))
            score = (
                d
                + (p.buy_weight * buy if now else p.later_penalty)
                + p.health_weight * int(s.health[h])
                + p.company_weight * company
                - p.wounded_weight * (base - int(s.health[h])) / base
                - (p.deaths_door_bonus if s.deaths_door[h] else 0)
                - (p.caster_bonus if s.base_magic[h] > 0 else 0)
                - (p.carrier_bonus if h in carriers else 0)
                - p.gang_bonus * monsters_next.get(h, 0)
                - (p.commit_bonus if h == committed else 0)
            )
            # a hero within the squares and Stamina left first: the rules make the monster fight
            # one of those when it could reach one with its allowance (R-MON-03)
            options[h] = (d > budget, score)
        return options

    def monsters_next_to(self, g: Game, heroes: list[int]) -> dict[int, int]:
        """For each hero, how many active monsters stand next to it (a Fight's other enemies)."""
        s = g.state
        out = {}
        for h in heroes:
            n = 0
            for q in around(g, int(s.unit_pos[h])):
                v = int(s.occupant[q])
                if v >= s.n_heroes and s.unit_status[v] == ACTIVE:  # a monster
                    n += 1
            out[h] = n
        return out

    def goal_carriers(self, g: Game) -> set[int]:
        """The heroes holding an item that a primary goal needs carried out (``retrieve``)."""
        s = g.state
        cards = {
            g.item_index.get(o.item, -1)
            for o in g.tables.adventure.objectives
            if o.primary and o.kind == "retrieve"
        }
        cards.discard(-1)
        if not cards:
            return set()
        return {int(s.item_holder[i]) for i in range(len(s.item_card)) if int(s.item_card[i]) in cards}

    def fallback(self, g: Game, m: int, legal: list[int], steps, visited: set[int], fields: dict) -> int:
        """No step towards the victim (or no victim): the nearest Fight by the figures' walks, else
        the board's distances (as v1), never back onto the trail; END when allowed; else the
        least bad of what the rules leave (v1's ``closest_legal``)."""
        s, t = g.state, g.tables
        here = int(s.unit_pos[m])

        def nearest(q: int) -> int:
            return min((f[q] for f in fields.values() if 0 <= f[q] < UNREACHABLE), default=UNREACHABLE)

        d = nearest(here)
        forward = [
            (nearest(q), a) for a, q in steps if nearest(q) < d and (nearest(q) == 0 or q not in visited)
        ]
        if forward:
            return min(forward)[1]
        goal = [q for h in active_heroes(g) for q in around(g, int(s.unit_pos[h]))]
        dist = path_distances(t, goal, s.door_open) if goal else None
        traps = self.trap_squares(g)
        if dist is not None:
            fresh = [
                (dist[q], a) for a, q in steps if q not in visited and q not in traps and dist[q] < dist[here]
            ]
            if fresh:
                return min(fresh)[1]
        if END in legal:
            return END
        fresh = [(dist[q] if dist else 0, a) for a, q in steps if q not in visited]
        if fresh:
            return min(fresh)[1]
        return self.closest_legal(g, m, legal)


__all__ = ["NOT_PORTED", "PORTED", "ScriptedDMV2"]
