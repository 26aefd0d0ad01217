"""Scripted heroes v2: the v1 script (``agents.scripted_heroes``) played as a party, every threshold
and weight read from the tuned :class:`agents.scripted_params.HeroParams`.

What changes from v1 (everything else is v1's rule of the decision):

- **Where a Movement ends, chosen as a whole** (``end_square``). v1 walks every square it can
  towards its target. v2 first picks the square to end the Movement on, among those it can reach
  this Movement through free squares, by a score in squares:

  - the progress towards v1's target (the goal, the exit, or the monsters it goes to fight);
  - minus ``patrol_weight`` for every corridor segment that would hold a hero at the turn's end
    (each costs a Patrol roll at the next Turn Start, R-MON-04; rooms cost none). The segments
    counted are the hero's own, those of comrades who have ended their Movement or stand in a Fight
    (they hold their square), and one for every comrade still to move who can reach no room and not
    the hero's area this turn. Patrols are priced while some room is unrevealed: the heroes cannot
    know which rooms count for R-MON-07, nor whether the adventure has a Patrol at all;
  - minus ``apart_weight`` per square that the nearest comrade would stand beyond ``apart_radius``
    of it once that comrade's own Movement is spent (a comrade still to move counts its squares
    left: it can catch up). Nobody walks off alone;
  - with monsters in sight, plus ``room_fight_weight`` for a square in a room: the party meets them
    where more heroes can fight and fewer monsters reach.

  So the party ends its turns in rooms, or together in one corridor segment, rather than strung out
  over several. Then it walks there by v1's paths, and buys a square with Stamina only when one more
  square would move that end (``open_step_ahead``).
- **Waiting is bounded.** With monsters in sight, a plan that makes no progress waits for them; it
  does so only while some monster in sight has a way to the hero through open doors (monsters open
  none, A-31) and for at most ``wait_turns`` turns in a row (a Guard holds its post until it sees a
  hero, R-MON-02, and the heroes cannot tell it from a monster about to come). Otherwise v1 goes to
  them.
- **The Light against the way still to go.** When the Light left, in Movements, is short of
  ``light_margin`` times the way still to go to the target, the Patrol price falls in proportion:
  the party hurries rather than stops short.
- **A wounded front hero steps back** (``relieve``). In the Movement phase, a hero next to a monster
  and wounded past ``relieve_hurt`` (or at Death's Door), with a healthier comrade still to move,
  steps to a free square next to no monster, if it has one, and stays back that turn.

The heroes read only the heroes' side view (as v1; ruling D-24): the Patrol rule is public, the
Patrol set is not used.

On the compiled core (a game's default engine) the choice is made in compiled code
(``src/agents/scripted_heroes_v2.cpp``, ``_core.agents.scripted_heroes_v2_choose``), which reads the
heroes' view made by the core (``_core.heroes_view``'s state on a content for reading only,
``sideview.reading_maps``) with the heroes' lens of the game, and keeps the agent's memory in the same
dicts (``intent``, ``relieved``, ``waited``). The Python methods here are the reference it is checked
against (tests/test_scripted_heroes_native.py) and play the games on ``engine="python"``, the
subclasses that override one of the methods the port replaces (``PORTED``; e.g. the search's
``DirectedHeroes``), and a decision the compiled choice names ``NOT_PORTED``: every kind is ported,
so that is only where the script has a gap (no legal action found), which the Python rule then
raises as ``IllegalChoiceError``.
"""

from __future__ import annotations

from typing import NamedTuple

from agents._common import INF, adjacent_foes, around, foes_next_to_square, hurt, ported_as_is, usable_steps
from agents.scripted_heroes import ScriptedHeroes
from agents.scripted_params import HeroParams, shipped_v2
from dungeon_env import _core
from dungeon_env.engine import Decision, Game
from dungeon_env.engine.actions import END, MOVE_ACTIONS
from dungeon_env.engine.side_knowledge import knowledge_of
from dungeon_env.engine.sideview import HEROES, reading_maps, target_candidates, view_side
from dungeon_env.engine.state import ACTIVE
from dungeon_env.engine.tables import UNREACHABLE, memoised, path_distances

ROOMS_MEMO_SIZE = 64  # revealed-area configurations whose room squares are kept per adventure
NOT_PORTED = _core.agents.NOT_PORTED  # the compiled choice leaves this decision to the Python methods
# the methods the compiled choice replaces: a subclass that overrides one plays the Python methods
PORTED = (
    "choose_reference",
    "_choose",
    "_dispatch",
    "once",
    "names",
    "area_squares",
    "goal_targets",
    "_goal_targets",
    "approach_targets",
    "unexplored_targets",
    "costs",
    "board_costs",
    "distances",
    "within_one_step",
    "terrain_key",
    "in_sight",
    "wants_rest",
    "rests_now",
    "targets",
    "exit_in_reach",
    "reachable",
    "hero_move",
    "movement_step",
    "step_towards",
    "end_square",
    "weighed",
    "end_square_options",
    "party",
    "apart_cost",
    "apart_weight",
    "may_wait",
    "monsters_can_come",
    "can_reach",
    "room_squares",
    "squares_left",
    "patrol_price",
    "patrols_may_come",
    "open_step_ahead",
    "reachable_squares",
    "relieve",
    "comrade_in_the_way",
    "waiting_comrade",
    "jump_out",
    "clear_corpse",
    "drag",
    "tried_door_squares",
    "tried_door_ahead",
    "step_aside",
    "hero_evade",
    "in_danger",
    "potion_actions",
    "heal_spell_actions",
    "most_hurt",
    "heal_now",
    "ability_now",
    "pick_item",
    "fight_stamina",
    "cast_while_fighting",
    "item_verb",
    "mental_bid",
    "explore_choice",
    "hero_act",
    "trade_act",
    "spell_select",
    "choose_target",
    "ability_target",
)


class Party(NamedTuple):
    """A hero's comrades as its plan sees them: ``fields`` their path costs to every square,
    ``held`` the corridor segments they will hold at the turn's end (done moving, or in a Fight),
    ``stranded`` those still to move who can reach no room this turn."""

    comrades: list[int]
    fields: dict[int, tuple[int, ...]]
    held: frozenset[int]
    stranded: list[int]


class ScriptedHeroesV2(ScriptedHeroes):
    """Plays every hero's decisions as v1 does, but as a party (see the module docstring).
    ``params``: the knobs (default: the tuned set shipped, ``scripted_params.shipped_v2``)."""

    PORTED = PORTED  # what the compiled choice replaces (see ``_common.ported_as_is``)
    COMPILED_SIDE = HEROES  # the side it plays in compiled code (``agents.scripted_play``)

    def __init__(
        self, game: Game | None = None, env=None, seed: int | None = None, params: HeroParams | None = None
    ) -> None:
        params = shipped_v2().heroes if params is None else params
        super().__init__(game=game, env=env, seed=seed, params=params)
        self.relieved: dict[int, tuple[int, int]] = {}  # hero -> (turn, square) it stepped back to
        self.waited: dict[int, tuple[int, int]] = {}  # hero -> (last turn it waited, turns in a row)

    def seed(self, seed: int | None) -> None:
        """Reseed, and forget the last game's turns (callers seed every agent before a game)."""
        super().seed(seed)
        self.relieved, self.waited = {}, {}

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state["_native"] = None  # made again from ``params`` when next needed
        return state

    # ----------------------------------------------------------------------------- the compiled choice
    def view(self, game: Game) -> Game:
        """The game itself where the compiled choice reads it (it makes the heroes' view in the
        core), else the heroes' view for reading only (``ScriptedHeroes.view``)."""
        if self._native_kind(game) == "game":
            return game
        return super().view(game)

    def _native_kind(self, game: Game) -> str | None:
        """How the compiled choice reads ``game``: ``"game"`` (a real game on the core at a hero's
        decision: through the heroes' view it makes), ``"world"`` (a heroes' view or world on the
        core: as it is), or None (the Python methods play)."""
        if getattr(game, "core_engine", None) is None or not ported_as_is(type(self)):
            return None
        side = view_side(game)
        if side is None:
            return "game" if game.agent not in (None, "dm") else None
        if side != HEROES or target_candidates(game) is not None:
            return None  # (a view at the decision it was made for: its targets are the real game's)
        return "world"

    def choose(self, game: Game) -> int:
        """The compiled choice on a game on the core (unless a subclass overrides a method it
        replaces), else, or where it names the decision ``NOT_PORTED``, ``choose_reference``."""
        kind = self._native_kind(game)
        if kind is not None:
            action = self.choose_native(game) if kind == "game" else self.choose_world(game)[0]
            if action != NOT_PORTED:
                return action
        return self.choose_reference(game)

    def _compiled(self) -> tuple:
        """(params, their compiled copy, the path costs' memo), made again when ``params`` change."""
        native = self.__dict__.get("_native")
        if native is None or native[0] is not self.params:
            p = self.params
            native = self._native = (
                p,
                _core.agents.HeroParams([float(getattr(p, name)) for name in _core.agents.HERO_PARAMS]),
                _core.agents.HeroCache(),
            )
        return native

    def native_parts(self) -> tuple:
        """The compiled choice's ``(_core.agents.HeroParams, _core.agents.HeroCache)`` (for
        ``agents.scripted_play``)."""
        return self._compiled()[1:]

    def compiled_play(self, dm, game: Game) -> dict[str, int] | None:
        """Play ``game`` to its end against ``dm`` in compiled code where both agents choose there
        (``agents.scripted_play``): the decisions each side took; None if they cannot (the caller
        then plays one decision at a time). ``dungeon_env.episode.play_episode`` asks for it."""
        from agents.scripted_play import play_on, plays_compiled  # (it imports this module)

        return play_on(game, self, dm) if plays_compiled(self, dm, game) else None

    def choose_native(self, game: Game, memory: tuple[dict, dict, dict] | None = None) -> int:
        """The compiled choice (``src/agents/scripted_heroes_v2.cpp``) for a hero's decision of a real
        game on the core, read through the heroes' view it makes, or ``NOT_PORTED`` for a decision it
        leaves to ``choose_reference``. ``memory``: the ``(intent, relieved, waited)`` dicts it reads
        and changes (default: the agent's own)."""
        native = self._compiled()
        known = knowledge_of(game, HEROES)
        known._catch_up()  # (what view() does first: a position set up by hand is folded)
        intent, relieved, waited = (self.intent, self.relieved, self.waited) if memory is None else memory
        return _core.agents.scripted_heroes_v2_choose(
            game.core_engine, reading_maps(game), known.lens, native[1], intent, relieved, waited, native[2]
        )

    def choose_world(
        self, game: Game, fixed_end: int = -1, memory: tuple[dict, dict, dict] | None = None
    ) -> tuple[int, bool]:
        """The compiled choice for a hero's decision of a game on the core that is the heroes' world
        already (a heroes' view played on, or a determinisation), read as it is: the action (or
        ``NOT_PORTED``) and whether it asked for the end square of the Movement, which ``fixed_end``
        (a search's plan, -1: none) then gives (``turn_search.DirectedHeroes``)."""
        native = self._compiled()
        intent, relieved, waited = (self.intent, self.relieved, self.waited) if memory is None else memory
        return _core.agents.scripted_heroes_v2_choose_world(
            game.core_engine,
            list(game.legal_actions()),
            native[1],
            intent,
            relieved,
            waited,
            native[2],
            fixed_end,
        )

    def choose_reference(self, game: Game) -> int:
        """The Python choice: the reference of the compiled one, on any engine."""
        return super().choose(game)

    # ----------------------------------------------------------------------------- movement
    def movement_step(self, g: Game, h: int, legal: list[int]) -> int:
        turn, here = int(g.state.turn), int(g.state.unit_pos[h])
        if self.relieved.get(h) == (turn, here) and END in legal:
            return END  # it left the front this turn: it stays back
        step_back = self.relieve(g, h, legal)
        if step_back is not None:
            d = MOVE_ACTIONS.index(step_back)
            self.relieved[h] = (turn, int(g.tables.neighbor[here, d]))
            return step_back
        return super().movement_step(g, h, legal)

    def step_towards(self, g: Game, h: int, legal: list[int], dist: list[int]) -> int:
        """v1's step, towards the square chosen to end the Movement on (``end_square``)."""
        end = self.once(g, ("end", h, id(dist)), lambda g: self.end_square(g, h, dist))
        if end is not None:
            here = int(g.state.unit_pos[h])
            if end == here:
                return END
            dist = self.distances(g, [end])
        return super().step_towards(g, h, legal, dist)

    def end_square(self, g: Game, h: int, dist: list[int], bought: int = 0) -> int | None:
        """The square the hero should end this Movement on (module docstring), or None to walk as v1
        (monsters next to it, or no known way to the target)."""
        options = self.end_square_options(g, h, dist, bought)
        if options is None:
            return None
        choice: int | None = max(options, key=options.__getitem__)  # the first of the best, in walking order
        if dist[choice] >= dist[int(g.state.unit_pos[h])] and self.in_sight(g) and not self.may_wait(g, h):
            choice = None  # waiting for monsters that do not come would stall: v1's way to them
        self.weighed(g, h, dist, bought, options, choice)
        return choice

    def weighed(
        self, g: Game, h: int, dist: list[int], bought: int, options: dict[int, tuple], choice: int | None
    ) -> None:
        """Told of every end square v2 chose (None: it walks as v1) among ``options``; v2 ignores it,
        a search listens (``agents.turn_search.DirectedHeroes``)."""

    def end_square_options(
        self, g: Game, h: int, dist: list[int], bought: int = 0
    ) -> dict[int, tuple] | None:
        """Every square the hero could end this Movement on with its key (score, -steps), the
        higher the better (module docstring), in walking order; None when the plan does not apply
        (monsters next to the hero, or no known way to the target)."""
        s, t = g.state, g.tables
        here = int(s.unit_pos[h])
        if g.decision[0] != Decision.HERO_MOVE or dist[here] >= INF or adjacent_foes(g, h):
            return None
        party = self.party(g, h)
        patrol = self.patrol_price(g, h, dist) if self.patrols_may_come(g) else 0.0
        room_bonus = self.params.room_fight_weight if self.in_sight(g) else 0.0
        joins: dict[int, int] = {}  # area -> comrades still to move who could not end in it or a room
        options: dict[int, tuple] = {}
        area_of, corridor = self.once(g, "area_lists", lambda g: (t.area.tolist(), t.is_corridor.tolist()))
        gaps = [(party.fields[k], self.squares_left(g, k)) for k in party.comrades]  # apart_cost's terms
        for q, steps in self.reachable_squares(g, h, bought).items():
            if dist[q] >= INF:
                continue
            area = area_of[q]
            if area not in joins:
                squares = t.area_squares[area].tolist()
                joins[area] = sum(
                    1 for k in party.stranded if not self.can_reach(g, k, party.fields[k], squares)
                )
            segments = len(party.held | {area}) if corridor[area] else len(party.held)
            score = float(dist[here] - dist[q]) - patrol * (segments + joins[area])
            if not corridor[area]:
                score += room_bonus  # more heroes fight from a room, fewer monsters reach
            score -= self.apart_weight(min((field[q] - left for field, left in gaps), default=0))
            options[q] = (score, -steps)
        return options or {here: (0.0, 0)}

    def party(self, g: Game, h: int) -> Party:
        """Where hero ``h``'s comrades will end the turn, as far as its plan can tell (``Party``)."""
        s, t = g.state, g.tables
        comrades = [k for k in range(s.n_heroes) if k != h and s.unit_status[k] == ACTIVE]
        fields = {k: self.distances(g, [int(s.unit_pos[k])]) for k in comrades}
        # a comrade done moving, or in a Fight (it holds its square), ends the turn where it stands
        done = [k for k in comrades if s.move_done[k] or adjacent_foes(g, k)]
        held = {int(t.area[s.unit_pos[k]]) for k in done if t.is_corridor[t.area[s.unit_pos[k]]]}
        rooms = self.room_squares(g)
        stranded = [k for k in comrades if k not in done and not self.can_reach(g, k, fields[k], rooms)]
        return Party(comrades, fields, frozenset(held), stranded)

    def apart_cost(self, g: Game, q: int, party: Party) -> float:
        """``apart_weight`` per square the nearest comrade would stand beyond ``apart_radius`` of ``q``
        once its own Movement is spent."""
        return self.apart_weight(
            min((party.fields[k][q] - self.squares_left(g, k) for k in party.comrades), default=0)
        )

    def apart_weight(self, gap: int) -> float:
        """``apart_cost`` of a nearest comrade ``gap`` squares away once its Movement is spent."""
        return self.params.apart_weight * max(0, gap - self.params.apart_radius)

    def may_wait(self, g: Game, h: int) -> bool:
        """Whether the hero may wait for the monsters in sight rather than go to them: some monster
        has a way to it through open doors (monsters open none, A-31) and the hero has not waited
        more than ``wait_turns`` turns in a row already (a Guard holds its post until it sees a hero,
        R-MON-02: heroes cannot tell it from a monster about to come)."""
        if not self.monsters_can_come(g, h):
            return False
        turn = int(g.state.turn)
        last, count = self.waited.get(h, (-1, 0))
        if last != turn:
            count = count + 1 if last == turn - 1 else 1
            self.waited[h] = (turn, count)
        return count <= self.params.wait_turns

    def monsters_can_come(self, g: Game, h: int) -> bool:
        """Whether a monster in sight has a way to the hero through open doors (monsters open none,
        A-31): only then does waiting for them make sense."""
        s = g.state
        field = path_distances(g.tables, around(g, int(s.unit_pos[h])), s.door_open)
        return any(field[int(s.unit_pos[m])] < UNREACHABLE for m in self.in_sight(g))

    def can_reach(self, g: Game, k: int, field: tuple[int, ...], squares: list[int]) -> bool:
        """Whether comrade ``k`` (its path costs ``field``) could end its Movement on one of ``squares``."""
        left = self.squares_left(g, k)
        return any(field[q] <= left for q in squares)

    def room_squares(self, g: Game) -> list[int]:
        """The squares of the rooms the heroes have revealed (memoised per adventure on the areas
        revealed; read the list, never change it)."""
        s, t = g.state, g.tables

        def compute() -> list[int]:
            corridor, revealed = t.is_corridor.tolist(), s.revealed.tolist()
            rooms = [a for a in range(t.n_areas) if not corridor[a] and revealed[a]]
            return [int(q) for a in rooms for q in t.area_squares[a].tolist()]

        return memoised(t, "agents.room_squares", ROOMS_MEMO_SIZE, s.revealed.tobytes(), compute)

    def squares_left(self, g: Game, k: int) -> int:
        """How far comrade ``k`` may still walk this Movement phase: none once it is done."""
        s = g.state
        return 0 if s.move_done[k] else int(s.move_left[k])

    def patrol_price(self, g: Game, h: int, dist: list[int]) -> float:
        """``patrol_weight``, lowered in proportion when the Light left (in Movements) is short of
        ``light_margin`` times the way still to go."""
        s, p = g.state, self.params
        per_turn = max(1, int(s.base_move[h]))
        way = dist[int(s.unit_pos[h])]
        need = p.light_margin * way / per_turn
        if need <= int(s.light) or need <= 0:
            return p.patrol_weight
        return p.patrol_weight * int(s.light) / need

    def patrols_may_come(self, g: Game) -> bool:
        """Whether the heroes must reckon with Patrol rolls: some room is not revealed yet (R-MON-07;
        which rooms count, by their doors, and whether the adventure has a Patrol at all, the heroes
        cannot know before they see them, so every unrevealed room counts)."""
        t = g.tables
        return bool((~g.state.revealed[: t.n_areas] & ~t.is_corridor).any())

    def open_step_ahead(self, g: Game, h: int, dist: list[int]) -> bool:
        """v1's test for buying a square, and the square bought is one the plan would walk: with one
        more square the hero would end its Movement elsewhere (``end_square``)."""
        if not super().open_step_ahead(g, h, dist):
            return False
        end = self.end_square(g, h, dist, bought=1)
        return end is None or end != int(g.state.unit_pos[h])

    def reachable_squares(self, g: Game, h: int, bought: int = 0) -> dict[int, int]:
        """The squares the hero could end its Movement on, with the steps to each: walked through
        free squares within its squares left (closed doors it may try count as open, the cost of a
        known armed trap or worse is never walked)."""
        s = g.state
        here = int(s.unit_pos[h])
        left = int(s.move_left[h]) + bought
        cost = self.once(g, "costs", self.costs)
        steps = usable_steps(g, doors_closed_ok=True)
        occupant, obstacle = s.occupant.tolist(), g.tables.obstacle
        seen = {here: 0}
        frontier = [here]
        for d in range(1, left + 1):
            nxt = []
            for q in frontier:
                for r in steps[q]:
                    if r not in seen and cost[r] == 1 and occupant[r] < 0 and not obstacle[r]:
                        seen[r] = d
                        nxt.append(r)
            frontier = nxt
        return seen

    # ----------------------------------------------------------------------------- the front
    def relieve(self, g: Game, h: int, legal: list[int]) -> int | None:
        """A wounded hero next to a monster steps back to a free square next to no monster when a
        healthier comrade is still to move (module docstring); else None."""
        s, t = g.state, g.tables
        if not adjacent_foes(g, h) or not (hurt(g, h) >= self.params.relieve_hurt or s.deaths_door[h]):
            return None
        fresher = [
            k
            for k in range(s.n_heroes)
            if k != h
            and s.unit_status[k] == ACTIVE
            and not s.move_done[k]
            and not s.deaths_door[k]
            and hurt(g, k) < self.params.relieve_hurt
        ]
        if not fresher:
            return None
        here = int(s.unit_pos[h])
        for a, nxt in zip(MOVE_ACTIONS, t.neighbor[here].tolist(), strict=True):
            if (
                a in legal
                and nxt >= 0
                and t.edge_door[here, MOVE_ACTIONS.index(a)] < 0
                and s.occupant[nxt] < 0
                and foes_next_to_square(g, nxt, int(s.unit_side[h])) == 0
            ):
                return a
        return None


__all__ = ["NOT_PORTED", "PORTED", "ScriptedHeroesV2"]
