"""Scripted heroes that play the rules competently: one object plays every hero.

What they do, decision by decision (``ScriptedHeroes.choose``):

- **Movement.** Each hero walks the cheapest way (path costs through doors that are not hidden;
  a closed door on the way is opened by walking into it; a detected armed trap costs a detour,
  furniture, corpses and hazards are avoided) to its current target: with the goals in hand and
  an exit within its Movement, the exit, past any monster (leaving ends the adventure for it);
  else the monsters next to it; else, while monsters are in sight and a way to them is known, the
  monsters if the hero is healthy and the odds are good (the party is at least as many) or the
  party stands at its goal;
  else the next unmet primary objective (a guard to slay, the room the quest names for an item to
  retrieve or claim, a captive's room to explore, an area to reach), then the exit. Paths are
  planned on what the heroes know: in unrevealed areas an edge is passable only where the printed
  board has no wall (a door nobody has seen is not assumed), so the plan is made again after each
  reveal. A target it cannot reach yet (no door to it is known) sends it first to the unrevealed
  squares next to the target's area (going there reveals the doors on that side), else to the
  nearest room no hero has explored yet or area no hero has seen. A hero who finds a door it
  already tried blocking the way steps aside for one who has not, and does not step back onto it
  that turn. A hero shut in (a corpse or a pit on every way on) jumps over it if that gets it
  nearer; else, when a comrade's corpse next to it is what shuts the way, it drags the corpse off
  its square. Stamina buys extra squares only on the way out with no monster in sight, and only
  when a step ahead is free.
- **Order of moving.** Heroes move one at a time (ruling D-04). A hero whose next square holds a
  comrade who has not finished moving hands that comrade control instead of ending its Movement
  there; a hero done with its Movement first hands control to the nearest comrade who has not
  stepped yet. So a file of heroes walks on behind its leader rather than standing still.
- **Resting.** A hero that is Exhausted, or at 1 Stamina or less, or at Death's Door while a
  comrade who is not is still in the dungeon (to heal it), with no monster in sight, ends its
  movement at once (and stays in the Explore phase) to Rest. Being hurt is no reason: Rest
  restores no Health; and a hero at Death's Door with nobody left to heal it walks out.
- **Abilities.** An Active ability is used where it obviously helps: a heal when the hero or a
  neighbour is hurt (on the most hurt), Magic when the hero lacks it, Light at 10 or below, trap
  detection at the start of a Movement (unless resting), a Fight or Damage bonus when the hero (or,
  for an ally's bonus, a neighbour) stands next to a monster and ends its move or evades no more.
  Movement bonuses are not used.
- **Items and spells.** A hurt hero drinks a potion (or hands it to a hurt neighbour); a healer
  casts its healing on the most hurt hero; in 2.1 a caster picks a damage spell (or a sleep / fight
  spell) when a monster is in sight, a heal when a hero is hurt; targets are the monster most
  likely to die (lowest Health) or the most hurt hero. Casters never Overcast and let a spell fail
  rather than fight on double ones unless the hero is healthy and the spell is strong.
- **Fights.** The Stamina spent is chosen from the exact 2d6-against-2d6 odds: spend while a point
  raises the chance of winning enough, more when losing would put the hero at Death's Door or
  kill it, keeping a point back for Evasion when possible.
- **Evasion.** With the goals in hand, a hero steps towards the exit (2 Stamina a square) while a
  step brings it nearer. Otherwise a hero outnumbered (three or more monsters on it, or two once
  it has lost half its Health) or about to die (Health 2 or less, or Death's Door) steps away to
  the free square with the fewest monsters next to it, towards its target.
- **Explore phase.** Explore (unless resting); take every item found; choose a room event's first
  option; Learned heroes identify unknown items; scrolls of spells the hero lacks are memorized;
  potions are drunk when hurt.
- **Traps.** A hero that ends its Movement next to a detected trap tries to disarm it.
- **Trade.** Potions go to the most hurt hero in the area who has none; a corpse in the area is
  looted.
- **A fallen comrade.** When no monster is in sight and every primary objective is met, a hero next
  to a comrade's corpse drags it towards the exit.

Every decision is answered by the rule of its kind above, which picks one of the decision's legal
actions on purpose (a decision with a single legal action is taken at once). A rule that finds none
raises ``IllegalChoiceError`` naming the decision and the legal actions: a gap in the script is
fixed in the script, never papered over by ending the move or staying put.

Knowledge: the heroes read only the heroes' side view of the game (the heroes' knowledge's view,
``dungeon_env.engine.side_knowledge.heroes_view``, ruling D-24), which ``choose`` asks for when it
is handed the real game. They know the printed board, the adventure's scenario text (its objectives,
and for an item to retrieve or claim the room the quest names), the start squares and exits, the
cards and rules, every hero's state and items (a face-down item only as "an unknown card of its
deck": an unread scroll in 2.1 counts as a weak spell, so its caster lets it fail rather than
fight on double ones), the doors, furniture, blockages and monsters of revealed areas, the traps
they detected and the hazards they saw, and the decision's legal actions and target candidates.
They do not know, because the view does not hold them: the dice, undetected traps, face-down
identities, monsters in the fog, undiscovered secret doors, doors and furniture of unrevealed
areas, and the DM's book (guards not met yet, ambushes, the Patrol set, room events not read yet).
Fight odds use the monster's declared Stamina (A-09: the DM declares first).
"""

from __future__ import annotations

import numpy as np

from agents._common import (
    INF,
    active_monsters,
    adjacent_foes,
    around,
    dijkstra,
    foes_next_to_square,
    hurt,
    p_win,
    usable_steps,
)
from agents.base import GameAgent, illegal_choice
from agents.scripted_params import HeroParams
from dungeon_env.content.model import WIDTH
from dungeon_env.engine import Decision, Game, inventory
from dungeon_env.engine import abilities as ability_rules
from dungeon_env.engine import items as item_rules
from dungeon_env.engine import spells as spell_rules
from dungeon_env.engine.actions import (
    ABILITY_0,
    ABILITY_ACTIONS,
    BACK,
    CHOICE_0,
    DISARM_ACTIONS,
    DRAG_ACTIONS,
    END,
    EXPLORE,
    EXTRA_MOVE,
    GIVE,
    HANDOFF_ACTIONS,
    IDENTIFY,
    ITEM_0,
    JUMP_ACTIONS,
    KEEP_CASTING,
    LET_FAIL,
    LOOT,
    MAX_ITEMS_HELD,
    MEMORIZE,
    MOVE_ACTIONS,
    NORMAL_CAST,
    SPELL_0,
    SPEND_0,
    STAY,
    TAKE,
    TARGET_0,
    TARGET_ABILITY,
    TARGET_GIVE,
    TARGET_ITEM,
    TARGET_LOOT,
    TARGET_SPELL,
    USE,
    Phase,
)
from dungeon_env.engine.board import free, open_neighbours
from dungeon_env.engine.objectives import objective_met
from dungeon_env.engine.side_knowledge import heroes_view
from dungeon_env.engine.sideview import HEROES, target_candidates, view_side
from dungeon_env.engine.state import (
    ACTIVE,
    CORPSE,
    FIGHT_HERO,
    FIGHT_M_SPEND,
    FIGHT_MONSTER,
    NO_UNIT,
    SIDE_HERO,
)
from dungeon_env.engine.tables import memoised
from dungeon_env.engine.trade import corpse_items, receivers
from dungeon_env.engine.units import active_heroes

NEAR = 1  # a monster this close (in steps) is fought first (``within_one_step`` reads it as 1)
ATTACK_KINDS = ("damage", "sleep", "fight_bonus", "armour", "damage_bonus")
MAX_SPEND = 3
DISTANCES_MEMO_SIZE = 1024  # path-cost tuples kept per adventure (about 5 KB each)
# decisions whose rule reads only the legal actions and the deciding hero's own condition, which
# the heroes' view holds as the game does: answered from the game, without making the view
WITHOUT_VIEW = frozenset(
    {
        Decision.EXPLORE_CHOICE,
        Decision.EVENT_CHOICE,
        Decision.CLAIM_ITEM,
        Decision.SPELL_VERB,
        Decision.DISARM,
        Decision.CAST_MODE,
        Decision.MENTAL_BID,
    }
)


def _monsters_in_sight(g: Game) -> list[int]:
    return active_monsters(g, visible_only=True)


class ScriptedHeroes(GameAgent):
    """Plays every hero's decisions; see the module docstring. ``ScriptedHeroes(env=env)``."""

    def __init__(
        self, game: Game | None = None, env=None, seed: int | None = None, params: HeroParams | None = None
    ) -> None:
        super().__init__(game=game, env=env, seed=seed)
        self.params = HeroParams() if params is None else params  # v1's knobs by default
        self._now: dict | None = None  # what one decision computes more than once (see choose)
        # hero -> (verb, item slot, turn): what it picked that item for (read at the ITEM_VERB that
        # follows the ITEM_k; a pick of another item, turn or game does not match)
        self.intent: dict[int, tuple[int, int, int]] = {}
        self._handlers = self._dispatch()

    # ----------------------------------------------------------------------------- the dispatch
    def view(self, game: Game) -> Game:
        """What ``act`` hands ``choose``: at a hero's decision the heroes' view for reading only
        (``heroes_view(game, playable=False)``: the script reads the position, never plays on it)."""
        if view_side(game) is None and game.agent not in (None, "dm"):
            return heroes_view(game, playable=False)
        return super().view(game)

    def choose(self, game: Game) -> int:
        """The action for the decision asked, read from the heroes' view of ``game`` (made here
        unless ``game`` is one, or the decision is one of ``WITHOUT_VIEW``, whose rules read nothing
        the view would hide); facts of the position that several rules consult (the monsters in
        sight) are computed once per call."""
        if view_side(game) != HEROES and game.decision[0] not in WITHOUT_VIEW:
            game = heroes_view(game, playable=False)  # read, never played on
        self._now = {}
        try:
            return self._choose(game)
        finally:
            self._now = None

    def pick_item(self, g: Game, h: int, action: int, verb: int) -> int:
        """``action`` (an ITEM_k), remembering that the hero picked that item to ``verb`` it."""
        self.intent[h] = (verb, inventory.held(g, h)[action - ITEM_0], g.state.turn)
        return action

    def _choose(self, g: Game) -> int:
        kind, h = g.decision
        legal = g.legal_actions()
        if len(legal) == 1:
            return legal[0]
        handler = self._handlers.get(kind)
        action = handler(g, h, legal) if handler else None
        if action is None or action not in legal:  # a gap in the script: never papered over
            rule = "no rule of the script covers this decision" if handler is None else "the script's rule"
            raise illegal_choice(self, g, action, legal, f"{rule} found no legal action to take: a gap in it")
        return int(action)

    def _dispatch(self) -> dict:
        """Decision kind -> ``handler(game, hero, legal) -> action`` (built once per agent)."""
        return {
            Decision.HERO_MOVE: self.hero_move,
            Decision.HERO_EVADE: self.hero_evade,
            Decision.FIGHT_STAMINA: self.fight_stamina,
            Decision.SPELL_SELECT: self.spell_select,
            Decision.CAST_WHILE_FIGHTING: self.cast_while_fighting,
            Decision.CHOOSE_TARGET: self.choose_target,
            Decision.MENTAL_BID: self.mental_bid,
            Decision.EXPLORE_CHOICE: self.explore_choice,
            Decision.EVENT_CHOICE: lambda g, h, legal: CHOICE_0 if CHOICE_0 in legal else legal[0],
            Decision.CLAIM_ITEM: lambda g, h, legal: TAKE if TAKE in legal else legal[0],
            Decision.HERO_ACT: self.hero_act,
            Decision.ITEM_VERB: self.item_verb,
            Decision.SPELL_VERB: lambda g, h, legal: USE if USE in legal else BACK,
            Decision.DISARM: lambda g, h, legal: next((a for a in legal if a in DISARM_ACTIONS), END),
            Decision.CAST_MODE: lambda g, h, legal: NORMAL_CAST if NORMAL_CAST in legal else legal[0],
        }

    # ----------------------------------------------------------------------------- knowledge
    def names(self, g: Game) -> str:
        return g.tables.board.area_names

    def area_squares(self, g: Game, char: str) -> list[int]:
        return [int(q) for q in g.tables.area_squares[self.names(g).index(char)]]

    def goal_targets(self, g: Game) -> tuple[list[int], bool]:
        """The squares of the next unmet primary objective, or the exits; and whether it is the exit."""
        return self.once(g, "goal", self._goal_targets)

    def _goal_targets(self, g: Game) -> tuple[list[int], bool]:
        s, adv = g.state, g.tables.adventure
        for i, obj in enumerate(adv.objectives):
            if obj.kind == "escape" or not obj.primary or objective_met(g, i):
                continue
            if obj.kind == "slay":
                guard = next((k for k, gd in enumerate(adv.guards) if gd.at == obj.at), None)
                uid = int(s.guard_uid[guard]) if guard is not None else -1
                alive = np.flatnonzero((s.unit_uid == uid) & (s.unit_status == ACTIVE)) if uid >= 0 else []
                if len(alive):
                    return around(g, int(s.unit_pos[alive[0]])), False
                return [g.square(*obj.at)], False
            if obj.kind in ("retrieve", "claim"):
                card = g.item_index[obj.item]
                holders = s.item_holder[s.item_card == card]
                if np.any((holders >= 0) & (holders < s.n_heroes)):
                    continue  # a hero holds it already (face up: the heroes know which card it is)
                if obj.area is None:
                    continue  # the quest does not say where it is
                return self.area_squares(g, obj.area), False
            if obj.kind == "rescue" and s.explored_bits >> self.names(g).index(obj.area) & 1:
                continue
            if obj.kind in ("rescue", "reach"):
                return self.area_squares(g, obj.area), False
        return [g.square(*sq) for sq in adv.exits], True

    def approach_targets(self, g: Game, targets: list[int]) -> list[int]:
        """The squares next to the areas of ``targets`` that lie in areas nobody has seen yet: where
        a hero learns the doors on that side of a target it knows no way into."""
        s, t = g.state, g.tables
        goal = set(t.area[targets].tolist())
        out = set()
        for q in targets:
            for r in t.neighbor[q].tolist():
                if r >= 0 and int(t.area[r]) not in goal and not s.revealed[t.area[r]]:
                    out.add(r)
        return sorted(out)

    def unexplored_targets(self, g: Game) -> list[int]:
        """The squares of the rooms no hero has explored yet (``state.explored_bits``) and of the
        areas no hero has seen: where heroes look for the way on."""
        s, t = g.state, g.tables
        out = []
        for a in range(t.n_areas):
            room = not t.is_corridor[a]
            if (room and not s.explored_bits >> a & 1) or not s.revealed[a]:
                out.extend(t.area_squares[a].tolist())
        return out

    def costs(self, g: Game) -> list[int]:
        s, t = g.state, g.tables
        cost = list(self.board_costs(g))
        for i, tr in enumerate(t.adventure.traps):
            if s.trap_detected[i]:
                cost[g.square(*tr.at)] = self.params.trap_cost if s.trap_armed[i] else INF
        for u in range(s.n_heroes):
            if s.unit_status[u] == CORPSE:
                cost[int(s.unit_pos[u])] = INF
        return cost

    def board_costs(self, g: Game) -> tuple[int, ...]:
        """Step costs of the bare board: furniture and blockages are never walked through."""
        t = g.tables
        cost = t.cache.get("agents.board_costs")
        if cost is None:
            cost = tuple(np.where(t.furniture | t.blockage, INF, 1).tolist())
            t.cache["agents.board_costs"] = cost
        return cost

    def distances(self, g: Game, targets: list[int]) -> tuple[int, ...]:
        """Path costs to the nearest of ``targets`` (see ``costs``), memoised per adventure: they
        depend only on the targets and the terrain (``terrain_key``)."""
        key = (tuple(targets), self.once(g, "terrain", self.terrain_key))
        return memoised(
            g.tables,
            "agents.hero_distances",
            DISTANCES_MEMO_SIZE,
            key,
            lambda: tuple(dijkstra(g, targets, self.once(g, "costs", self.costs), doors_closed_ok=True)),
        )

    def within_one_step(self, g: Game, here: int, targets: list[int]) -> bool:
        """``distances(g, targets)[here] <= 1`` without computing the distances: every step costs at
        least 1, so a cost of 1 means ``here`` is a target or one step from a target whose square
        costs 1 to walk into (``dijkstra``'s first round)."""
        if here in targets:
            return True
        cost = self.once(g, "costs", self.costs)
        steps = usable_steps(g, doors_closed_ok=True)
        return any(cost[q] == 1 and here in steps[q] for q in targets)

    def terrain_key(self, g: Game) -> tuple:
        """What the path costs depend on besides the targets: hidden doors, traps, corpses."""
        s = g.state
        status = s.unit_status[: s.n_heroes].tolist()
        return (
            s.door_hidden.tobytes(),
            s.trap_detected.tobytes(),
            s.trap_armed.tobytes(),
            self.params.trap_cost,
            tuple(status),
            tuple(int(s.unit_pos[u]) for u, st in enumerate(status) if st == CORPSE),
        )

    def once(self, g: Game, name: str, compute):
        """``compute(g)``, computed once per decision (``choose``) and shared by the rules that ask
        for it; the result must not be modified."""
        now = self._now
        if now is None:
            return compute(g)
        if name not in now:
            now[name] = compute(g)
        return now[name]

    def in_sight(self, g: Game) -> list[int]:
        """The active monsters in revealed areas."""
        return self.once(g, "in_sight", _monsters_in_sight)

    def wants_rest(self, g: Game, h: int) -> bool:
        """Rest when it brings something: Stamina back from Exhausted or almost out, or, at Death's
        Door, the skipped Turn End roll (R-REST-06) while a comrade who is not at Death's Door is
        still in the dungeon to bring it healing. Rest restores no Health (R-REST-03), so being hurt
        alone is no reason, and a hero at Death's Door with nobody left to heal it walks on: resting
        would wait for a Patrol or the turn cap, while walking out ends the adventure either way."""
        s = g.state
        tired = s.exhausted[h] or s.stamina[h] <= 1
        if s.deaths_door[h] and not tired:
            tired = any(k != h and not s.deaths_door[k] for k in active_heroes(g))
        return bool(tired) and not self.in_sight(g)

    def rests_now(self, g: Game, h: int) -> bool:
        """The hero ends its Movement before its first step, to Rest (``wants_rest``)."""
        return not g.state.moved[h] and self.wants_rest(g, h)

    # ----------------------------------------------------------------------------- movement
    def targets(self, g: Game, h: int) -> tuple[list[int], bool]:
        s = g.state
        goal, is_exit = self.goal_targets(g)
        monsters = self.in_sight(g)
        if not monsters or (is_exit and self.exit_in_reach(g, h, goal)):
            return goal, is_exit
        mon_sq = [q for m in monsters for q in around(g, int(s.unit_pos[m]))]
        here = int(s.unit_pos[h])
        if self.within_one_step(g, here, mon_sq):  # NEAR
            return mon_sq, False
        heroes = active_heroes(g)
        healthy = hurt(g, h) < self.params.hurt and not s.deaths_door[h]
        good_odds = len(heroes) >= len(monsters) and healthy
        t = g.tables
        goal_areas = set(t.area[goal].tolist())
        at_goal = any(int(t.area[s.unit_pos[k]]) in goal_areas for k in heroes)
        fight = not is_exit and (good_odds or (at_goal and healthy))
        if fight and self.reachable(g, h, mon_sq):
            return mon_sq, False
        return goal, is_exit

    def exit_in_reach(self, g: Game, h: int, exits: list[int]) -> bool:
        """The hero can leave this Movement: a known way to an exit no longer than its squares left.
        With the goals in hand that beats any fight: the monsters near it are no reason to stay."""
        s = g.state
        return 0 < self.distances(g, exits)[int(s.unit_pos[h])] <= int(s.move_left[h])

    def reachable(self, g: Game, h: int, targets: list[int]) -> bool:
        """Whether the hero has a known way to ``targets`` (corpses, furniture and known pits shut
        a way; comrades and monsters do not)."""
        return self.distances(g, targets)[int(g.state.unit_pos[h])] < INF

    def step_towards(self, g: Game, h: int, legal: list[int], dist: list[int]) -> int:
        """The step that brings the hero nearest its target (by ``dist``), or END. It never steps back
        onto a door it failed to open this turn: having stepped aside (``step_aside``), it leaves the
        square to a comrade who may still try."""
        s, t = g.state, g.tables
        here = int(s.unit_pos[h])
        tried = self.tried_door_squares(g, h)
        best, choice = dist[here], END
        for action, nxt in zip(MOVE_ACTIONS, t.neighbor[here].tolist(), strict=True):
            if action in legal and nxt >= 0 and dist[nxt] < best and nxt not in tried:
                best, choice = dist[nxt], action
        return choice

    def hero_move(self, g: Game, h: int, legal: list[int]) -> int:
        """The hero's Movement step (``movement_step``); a hero about to end its Movement first
        hands control to a comrade who has not stepped yet (``waiting_comrade``): one that handed it
        control because it stood in the way can now step on."""
        action = self.movement_step(g, h, legal)
        if action == END and not self.rests_now(g, h):
            waiting = self.waiting_comrade(g, h, legal)
            if waiting is not None:
                return HANDOFF_ACTIONS[waiting]
        return action

    def movement_step(self, g: Game, h: int, legal: list[int]) -> int:
        s = g.state
        use = self.heal_now(g, h, legal, "movement")
        if use is None:
            use = self.ability_now(g, h, legal, fighting=False)
        if use is not None:
            return use
        if self.rests_now(g, h):
            return END
        targets, is_exit = self.targets(g, h)
        if is_exit and not self.in_sight(g):
            drag = self.drag(g, h, legal)
            if drag is not None:
                return drag
        dist = self.distances(g, targets)
        here = int(s.unit_pos[h])
        if dist[here] >= INF:  # shut in by a corpse or a pit: jump over, or pull a corpse away
            way_out = self.jump_out(g, h, legal, dist)
            if way_out == END:
                way_out = self.clear_corpse(g, h, legal, targets)
            if way_out != END:
                return way_out
        if dist[here] >= INF:  # no known way there: go and look for one
            approach = self.approach_targets(g, targets)
            if approach:
                dist = self.distances(g, approach)
            if dist[here] >= INF:
                dist = self.distances(g, self.unexplored_targets(g) or targets)
        choice = self.step_towards(g, h, legal, dist)
        if choice == END and dist[here] >= INF:  # boxed in (a corpse, a pit): jump out if it helps
            choice = self.jump_out(g, h, legal, dist)
        if choice == END:
            blocker = self.comrade_in_the_way(g, h, legal, dist)
            if blocker is not None:
                return HANDOFF_ACTIONS[blocker]
            if self.tried_door_ahead(g, h, dist) and s.move_left[h] > 0:
                return self.step_aside(g, h, legal, dist)
            bonus = self.ability_now(g, h, legal, fighting=True)
            if bonus is not None:
                return bonus
            if (
                EXTRA_MOVE in legal
                and is_exit
                and not self.in_sight(g)
                and s.move_left[h] == 0
                and 0 < dist[here] < INF
                and s.stamina[h] >= 4
                and self.open_step_ahead(g, h, dist)
            ):
                return EXTRA_MOVE
        return choice

    def open_step_ahead(self, g: Game, h: int, dist: list[int]) -> bool:
        """Whether a bought square could be walked now: a free square nearer the target (by
        ``dist``) through no wall or closed door, and not onto a door the hero failed this turn."""
        here = int(g.state.unit_pos[h])
        tried = self.tried_door_squares(g, h)
        return any(dist[q] < dist[here] and q not in tried and free(g, q) for q in open_neighbours(g, here))

    def comrade_in_the_way(self, g: Game, h: int, legal: list[int], dist: list[int]) -> int | None:
        """The comrade standing on the hero's next square towards its target (by ``dist``) who has
        not moved yet this phase, if the hero may hand it control (ruling D-04): it goes first and
        the hero follows, instead of ending its Movement where it stands."""
        s = g.state
        here = int(s.unit_pos[h])
        if s.move_left[h] <= 0 or not 0 < dist[here] < INF:
            return None
        for nxt in open_neighbours(g, here):  # the next square: no wall or closed door between
            k = int(s.occupant[nxt])
            if (
                0 <= k < s.n_heroes
                and dist[nxt] < dist[here]
                and HANDOFF_ACTIONS[k] in legal
                and s.unit_status[k] == ACTIVE
                and not s.move_done[k]
            ):
                return k
        return None

    def waiting_comrade(self, g: Game, h: int, legal: list[int]) -> int | None:
        """The nearest comrade who has not stepped yet this phase and is still to move (one the hero
        stood in the way of, or one whose turn comes anyway), if the hero may hand it control."""
        s = g.state
        y, x = divmod(int(s.unit_pos[h]), WIDTH)
        waiting = [
            (abs(int(s.unit_pos[k]) // WIDTH - y) + abs(int(s.unit_pos[k]) % WIDTH - x), k)
            for k in range(s.n_heroes)
            if k != h
            and HANDOFF_ACTIONS[k] in legal  # active and still to move (``handoffs``)
            and not s.moved[k]
        ]
        return min(waiting)[1] if waiting else None

    def jump_out(self, g: Game, h: int, legal: list[int], dist: list[int]) -> int:
        """The legal Jump whose landing square is nearest the target (by ``dist``), or END."""
        t = g.tables
        here = int(g.state.unit_pos[h])
        best, choice = INF, END
        for a in JUMP_ACTIONS:
            if a in legal:
                over = int(t.neighbor[here, a - JUMP_ACTIONS[0]])
                land = int(t.neighbor[over, a - JUMP_ACTIONS[0]]) if over >= 0 else -1
                if land >= 0 and dist[land] < best:
                    best, choice = dist[land], a
        return choice

    def clear_corpse(self, g: Game, h: int, legal: list[int], targets: list[int]) -> int:
        """A hero with no way to its target: if a comrade's corpse next to it is what shuts the
        way, it starts dragging that corpse (R-DEATH-04), and once dragging it steps to any free
        square, pulling the corpse off its square (the drag ends with the Movement). Else END."""
        s, t = g.state, g.tables
        here = int(s.unit_pos[h])
        if s.dragging[h] != NO_UNIT:
            return next((a for a in MOVE_ACTIONS if a in legal), END)
        if not any(a in legal for a in MOVE_ACTIONS):
            return END  # nowhere to pull it to
        for d, a in enumerate(DRAG_ACTIONS):
            if a not in legal:
                continue
            cost = list(self.once(g, "costs", self.costs))
            cost[int(t.neighbor[here, d])] = 1
            if dijkstra(g, targets, cost, doors_closed_ok=True)[here] < INF:
                return a
        return END

    def drag(self, g: Game, h: int, legal: list[int]) -> int | None:
        for a in DRAG_ACTIONS:
            if a in legal:
                return a
        return None

    def tried_door_squares(self, g: Game, h: int) -> set[int]:
        """The squares of the closed doors the hero tried to open this turn."""
        s, t = g.state, g.tables
        tried = s.door_tried[h]
        if not tried.any():  # most of the time: no door tried this turn
            return set()
        closed_tried = np.flatnonzero(tried & ~s.door_open).tolist()
        return {q for door in closed_tried for q in t.door_squares[door]}

    def tried_door_ahead(self, g: Game, h: int, dist: list[int]) -> bool:
        s, t = g.state, g.tables
        here = int(s.unit_pos[h])
        for d in range(4):
            door, nxt = int(t.edge_door[here, d]), int(t.neighbor[here, d])
            if door >= 0 and not s.door_open[door] and s.door_tried[h, door] and dist[nxt] < dist[here]:
                return True
        return False

    def step_aside(self, g: Game, h: int, legal: list[int], dist: list[int]) -> int:
        s, t = g.state, g.tables
        here = int(s.unit_pos[h])
        steps = [
            (dist[int(t.neighbor[here, d])], a)
            for d, a in enumerate(MOVE_ACTIONS)
            if a in legal and t.edge_door[here, d] < 0 and t.neighbor[here, d] >= 0
        ]
        others = [
            k for k in range(s.n_heroes) if k != h and s.unit_status[k] == ACTIVE and not s.move_done[k]
        ]
        return min(steps)[1] if steps and others else END

    def hero_evade(self, g: Game, h: int, legal: list[int]) -> int:
        s, t = g.state, g.tables
        use = self.heal_now(g, h, legal, "evasion")
        if use is not None:
            return use
        goal, is_exit = self.goal_targets(g)
        if is_exit:  # the goals in hand: every square nearer the exit is worth its 2 Stamina
            step = self.step_towards(g, h, legal, self.distances(g, goal))
            if step != END:
                return step
        foes = adjacent_foes(g, h)
        if not self.in_danger(g, h, foes):
            bonus = self.ability_now(g, h, legal, fighting=True)
            return END if bonus is None else bonus
        here = int(s.unit_pos[h])
        dist = self.distances(g, goal)
        now = len(foes)
        options = []
        for d, a in enumerate(MOVE_ACTIONS):
            if a not in legal:
                continue
            nxt = int(t.neighbor[here, d])
            options.append((foes_next_to_square(g, nxt, SIDE_HERO), dist[nxt], a))
        if not options:
            return END
        best = min(options)
        return best[2] if best[0] < now else END

    def in_danger(self, g: Game, h: int, foes: list[int]) -> bool:
        """Whether the hero should step away from ``foes`` (the monsters next to it): three or more,
        two once it has lost half its Health, or any when a lost Fight could finish it (Health 2 or
        less, or Death's Door). A healthier hero holds against two: stepping next to two monsters
        to reach its target and then away again in the Evasion phase would only repeat itself turn
        after turn, paying Stamina each time."""
        s = g.state
        about_to_die = bool(foes) and (s.health[h] <= 2 or s.deaths_door[h])
        outnumbered = len(foes) >= 3 or (len(foes) == 2 and hurt(g, h) >= self.params.hurt)
        return about_to_die or outnumbered

    # ----------------------------------------------------------------------------- items and spells
    def potion_actions(self, g: Game, h: int, legal: list[int]) -> list[int]:
        s = g.state
        out = []
        held = inventory.held(g, h)
        for a in legal:
            if ITEM_0 <= a < ITEM_0 + MAX_ITEMS_HELD and a - ITEM_0 < len(held):
                item = held[a - ITEM_0]
                card = g.item_cards[int(s.item_card[item])]
                heals = card.effect is not None and card.effect.kind == "heal"
                if card.deck == "potions" and (heals or not s.item_known[item]):
                    out.append(a)
        return out

    def heal_spell_actions(self, g: Game, h: int, legal: list[int]) -> list[int]:
        known = spell_rules.known(g, h)
        out = []
        for a in legal:
            if SPELL_0 <= a < SPELL_0 + 8 and a - SPELL_0 < len(known):
                sp = g.spells[known[a - SPELL_0]]
                if sp.effect.kind == "heal":
                    out.append(a)
        return out

    def most_hurt(self, g: Game, candidates: list[int]) -> int:
        return max(range(len(candidates)), key=lambda k: (hurt(g, candidates[k]), -k))

    def heal_now(self, g: Game, h: int, legal: list[int], when: str) -> int | None:
        """A potion for the hurt hero itself, or a healing spell for the most hurt hero in reach."""
        s = g.state
        if hurt(g, h) >= self.params.hurt or s.deaths_door[h]:
            potions = self.potion_actions(g, h, legal)
            if potions:
                return self.pick_item(g, h, potions[0], USE)
        if when in ("movement", "explore"):
            heroes = active_heroes(g)
            if heroes and max(hurt(g, k) for k in heroes) >= self.params.hurt:
                spells = self.heal_spell_actions(g, h, legal)
                if spells:
                    return spells[0]
        return None

    def ability_now(self, g: Game, h: int, legal: list[int], fighting: bool) -> int | None:
        """An Active ability worth using now (see the module docstring); ``fighting``: the hero is
        done moving, so a Fight bonus would count this turn."""
        s = g.state
        for a in legal:
            if a not in ABILITY_ACTIONS:
                continue
            ability = ability_rules.card_abilities(g, h)[a - ABILITY_0]
            kind, near = ability.effect.kind, ability_rules.targets(g, h)
            if kind == "heal":
                good = max(hurt(g, k) for k in near) >= self.params.hurt
            elif kind == "magic":
                good = s.magic[h] + ability.effect.amount <= s.base_magic[h]
            elif kind == "light":
                good = s.light <= self.params.light_ability
            elif kind == "detect_traps":
                good = not s.moved[h] and not self.wants_rest(g, h)
            elif kind in ("fight_bonus", "damage_bonus"):
                who = near if ability.target == "ally" else [h]
                good = fighting and any(adjacent_foes(g, k) for k in who)
            else:
                good = False
            if good:
                return a
        return None

    def spell_select(self, g: Game, h: int, legal: list[int]) -> int:
        """2.1: the spell (or scroll) with the best use now, or none."""
        s = g.state
        known = spell_rules.known(g, h)
        held = inventory.held(g, h)
        monsters = self.in_sight(g)
        most_hurt = max((hurt(g, k) for k in active_heroes(g)), default=0.0)
        best, choice = 0.0, END
        for a in legal:
            if SPELL_0 <= a < SPELL_0 + 8 and a - SPELL_0 < len(known):
                sp = g.spells[known[a - SPELL_0]]
            elif ITEM_0 <= a < ITEM_0 + MAX_ITEMS_HELD and a - ITEM_0 < len(held):
                item = held[a - ITEM_0]
                if not s.item_known[item]:
                    continue
                sp_id = g.item_cards[int(s.item_card[item])].spell
                if sp_id is None:
                    continue
                sp = g.spells[g.spell_index[sp_id]]
            else:
                continue
            kind, amount = sp.effect.kind, sp.effect.amount
            value = 0.0
            if sp.target == "enemy" and monsters:
                value = {"damage": 2.0 + amount, "sleep": 2.5, "fight_bonus": 1.5}.get(kind, 0.5)
            elif kind == "heal" and most_hurt >= self.params.hurt:
                value = 3.0 + most_hurt
            elif sp.target == "ally" and monsters and kind in ("fight_bonus", "armour", "damage_bonus"):
                value = 1.5
            if value > best:
                best, choice = value, a
        return choice

    def cast_while_fighting(self, g: Game, h: int, legal: list[int]) -> int:
        """Fight on double ones only for a strong spell (level 2+) of a healthy caster; an unread
        scroll's spell is unknown (the view's placeholder, level 1), so it is let fail."""
        s = g.state
        sp = int(s.casting_spell[h]) if h < len(s.casting_spell) else -1
        strong = sp >= 0 and g.spells[sp].level >= 2
        return KEEP_CASTING if strong and s.health[h] >= 5 and KEEP_CASTING in legal else LET_FAIL

    def choose_target(self, g: Game, h: int, legal: list[int]) -> int:
        s = g.state
        _, _, a, b = s.stack[-1]
        given = target_candidates(g)  # the decision's candidates as the real game lists them
        if a == TARGET_SPELL:
            cands = given if given is not None else spell_rules.targets(g, h, b)
            if not cands:
                return legal[0]
            if g.spells[b].target == "enemy":
                k = min(range(len(cands)), key=lambda i: (int(s.health[cands[i]]), i))
            else:
                k = self.most_hurt(g, cands)
                if g.spells[b].effect.kind not in ("heal", "stamina") and self.in_sight(g):
                    fighters = [i for i, u in enumerate(cands) if adjacent_foes(g, u)]
                    k = fighters[0] if fighters else k
            return TARGET_0 + k
        if a == TARGET_ITEM:
            return TARGET_0 + self.most_hurt(g, given if given is not None else item_rules.item_targets(g, h))
        if a == TARGET_GIVE:
            return TARGET_0 + self.most_hurt(g, given if given is not None else receivers(g, h))
        if a == TARGET_LOOT:
            return TARGET_0 if (given if given is not None else corpse_items(g, h)) else legal[0]
        if a == TARGET_ABILITY:
            return TARGET_0 + self.ability_target(g, h, b, given)
        return legal[0]

    def ability_target(self, g: Game, h: int, k: int, given: list[int] | None = None) -> int:
        """The most hurt candidate for a heal; for a Fight bonus the first one next to a monster."""
        cands = given if given is not None else ability_rules.targets(g, h)
        if ability_rules.card_abilities(g, h)[k].effect.kind in ("heal", "stamina", "magic"):
            return self.most_hurt(g, cands)
        return next((i for i, u in enumerate(cands) if adjacent_foes(g, u)), 0)

    def mental_bid(self, g: Game, h: int, legal: list[int]) -> int:
        s = g.state
        want = 3 if s.health[h] <= 3 else 1
        return max(a for a in legal if a - SPEND_0 <= want)

    # ----------------------------------------------------------------------------- fights
    def fight_stamina(self, g: Game, h: int, legal: list[int]) -> int:
        s = g.state
        row = s.fights[s.fight_index]
        m, m_spend = row[FIGHT_MONSTER], row[FIGHT_M_SPEND]
        fights = [r for r in s.fights if r[FIGHT_HERO] == h]
        counts_h = len(fights)
        counts_m = sum(1 for r in s.fights if r[FIGHT_MONSTER] == m)
        from dungeon_env.engine import combat

        h_score = int(s.base_fight[h]) + sum(combat.hero_modifiers(g, h, counts_h, 0).values())
        m_score = int(s.base_fight[m]) + sum(combat.monster_modifiers(g, m, counts_m, m_spend).values())
        diff = h_score - m_score
        dmg_taken = int(s.base_damage[m])
        dying = s.health[h] <= dmg_taken or s.deaths_door[h]
        kill = s.health[m] <= int(s.base_damage[h])
        p = self.params
        stake = 1.0 + (p.dying_stake if dying else 0.0) + (p.kill_stake if kill else 0.0)
        left = int(s.stamina[h])
        reserve = 0 if dying else (2 if len(adjacent_foes(g, h)) >= 2 else 1)
        best, choice = -1e9, legal[0]
        for a in legal:
            spend = a - SPEND_0
            if spend and left - spend < reserve:
                continue
            value = (
                stake * (p_win(diff + spend) - (1 - p_win(-(diff + spend) + 1)) * 0.5) - p.spend_cost * spend
            )
            if value > best + 1e-9:
                best, choice = value, a
        return choice

    # ----------------------------------------------------------------------------- Explore and Trade
    def explore_choice(self, g: Game, h: int, legal: list[int]) -> int:
        s = g.state
        if (s.deaths_door[h] or s.exhausted[h]) and STAY in legal:
            return STAY
        return EXPLORE if EXPLORE in legal else legal[0]

    def hero_act(self, g: Game, h: int, legal: list[int]) -> int:
        if g.state.phase == Phase.TRADE:
            return self.trade_act(g, h, legal)
        use = self.heal_now(g, h, legal, "explore")
        if use is not None:
            return use
        held = inventory.held(g, h)
        for a in legal:
            if ITEM_0 <= a < ITEM_0 + MAX_ITEMS_HELD and a - ITEM_0 < len(held):
                verbs = item_rules.item_verbs(g, h, held[a - ITEM_0], "explore")
                for verb in (IDENTIFY, MEMORIZE):
                    if verb in verbs:
                        return self.pick_item(g, h, a, verb)
        return END

    def trade_act(self, g: Game, h: int, legal: list[int]) -> int:
        s = g.state
        if LOOT in legal and corpse_items(g, h):
            return LOOT
        takers = receivers(g, h)
        if takers and max(hurt(g, r) for r in takers) >= self.params.hurt and hurt(g, h) < self.params.hurt:
            potions = self.potion_actions(g, h, legal)
            needy = [r for r in takers if not self.potion_actions(g, r, [ITEM_0 + k for k in range(12)])]
            if potions and needy and max(hurt(g, r) for r in needy) >= self.params.hurt:
                held = inventory.held(g, h)
                known = [a for a in potions if s.item_known[held[a - ITEM_0]]]
                if known:
                    return self.pick_item(g, h, known[0], GIVE)
        return END

    def item_verb(self, g: Game, h: int, legal: list[int]) -> int:
        verb, item, turn = self.intent.pop(h, (USE, -1, -1))
        want = verb if (item, turn) == (g.decision_args[0], g.state.turn) else USE
        if want in legal:
            return want
        return USE if USE in legal and want != GIVE else BACK


__all__ = ["ScriptedHeroes"]
