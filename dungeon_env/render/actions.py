"""Actions named for people, in the context of the decision asked: ``describe_action(game, action)``.

``ACTION_NAMES`` says what an action is in general (``item_3``, ``target_1``); this module says what
it does *now*, with what it costs and risks: "Evade west (0,8), 2 Stamina", "Cast Sleep (level 2):
2 Magic", "Spend 2 Stamina: Fight 6 against 4, win 72%", "Try to open the door to the south: opens
on 5+ (33%); 2 or less alerts what is behind it (33%)", "Step south onto the trap at (0,8); it
springs: loose flagstone, 1 damage" (the numbers from ``render.costs``). The page, the text mode and
the event story all name actions here. ``action_warning(game, action)`` says why a choice should be
confirmed before it is sent (a known trap), ``action_idle(game, action)`` that a legal choice does
nothing now (one more square that reaches none).

A name uses only what the ``game`` it is given holds. Pass a side's view of the game (heroes:
``side_knowledge.heroes_view``) to name actions for that side: an item face down in the heroes' view is a
placeholder card there ("Unknown potions card"), so its name never leaks, and a trap is named only
if the acting figure's side knows it (heroes: detected). ``names`` (figure slot ->
display name) overrides how figures are called, e.g. by the monster ids of the heroes' event lens.
"""

from __future__ import annotations

from collections.abc import Mapping

from dungeon_env.engine import spells
from dungeon_env.engine.actions import (
    ABILITY_0,
    ACTION_NAMES,
    BACK,
    CHOICE_0,
    DEFER,
    DIRECTIONS,
    DISARM_N,
    DRAG_N,
    END,
    EXPLORE,
    EXTRA_MOVE,
    FORGET,
    GIVE,
    HANDOFF_0,
    IDENTIFY,
    ITEM_0,
    JUMP_N,
    KEEP_CASTING,
    LET_FAIL,
    LOOT,
    MEMORIZE,
    MOVE_N,
    NORMAL_CAST,
    OVERCAST,
    PASS,
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
    Decision,
)
from dungeon_env.engine.board import open_side
from dungeon_env.engine.casting import is_casting
from dungeon_env.engine.inventory import held
from dungeon_env.engine.items import ITEM_MOMENTS
from dungeon_env.engine.sideview import candidates_of
from dungeon_env.engine.sideview import target_candidates as view_candidates
from dungeon_env.engine.state import CAST_ITEM, Side
from dungeon_env.render.costs import (
    at_most,
    check_modifier,
    d6_chance,
    d6_chance_at_most,
    fight_scores,
    known_trap,
    nothing_to_reach,
    percent,
    trap_risk,
    trap_what,
    trap_words,
    win_chance,
)

_MOVES = (Decision.HERO_MOVE, Decision.HERO_EVADE, Decision.MONSTER_MOVE)
_END = {
    Decision.HERO_MOVE: "End {who}'s movement",
    Decision.HERO_EVADE: "End {who}'s evasion",
    Decision.MONSTER_MOVE: "End {who}'s move",
    Decision.SPELL_SELECT: "Cast no spell this turn",
    Decision.HERO_ACT: "Done: {who} does nothing more this phase",
    Decision.ITEM_VERB: "Do nothing with it",
    Decision.SPELL_VERB: "Do nothing with it",
    Decision.DISARM: "Leave the traps alone",
}


def figure_name(game, u: int, names: Mapping[int, str] | None = None) -> str:
    """How a figure is called: a hero by its card ("Bram"), a monster by card and id ("Orc m3")."""
    if names is not None and u in names:
        return names[u]
    card = game.card(u)
    if game.state.unit_side[u] == Side.HERO:
        return card.name
    return f"{card.name} {game.label(u)}"


def figure_flags(state, u: int) -> list[str]:
    """The conditions a figure is in, in words: death's door, exhausted, surprised, asleep."""
    return [
        name
        for name, on in (
            ("death's door", state.deaths_door[u]),
            ("exhausted", state.exhausted[u]),
            ("surprised", state.surprised[u]),
            ("asleep", state.inactive[u]),
        )
        if on
    ]


def item_name(game, item: int) -> str:
    """An item's card name, marked "face down" when the heroes have not identified it."""
    card = game.item_cards[int(game.state.item_card[item])]
    if card.id.startswith("unknown_"):
        return f"a face-down {card.deck.replace('_', ' ')} card"
    return card.name if game.state.item_known[item] else f"{card.name} (face down)"


def spell_name(game, sp: int) -> str:
    spell = game.spells[sp]
    return f"{spell.name} (level {spell.level})"


def square_name(game, sq: int) -> str:
    x, y = game.xy(sq)
    return f"({x},{y})"


def describe_action(game, action: int, names: Mapping[int, str] | None = None) -> str:
    """What ``action`` does in the decision ``game`` asks now, in words (see the module docstring).
    Any action of the table gets a name; one that is not legal now is named as its kind would do it."""
    action = int(action)
    d = game.decision
    if d is None:
        return ACTION_NAMES[action]
    kind, unit = Decision(int(d[0])), int(d[1])
    a, b = game.decision_args
    namer = _Namer(game, kind, unit, a, b, names)
    return namer.name(action)


def action_warning(game, action: int) -> str | None:
    """Why ``action`` deserves a second thought before it is sent, or None: it steps (or lands a
    Jump) onto a trap the acting side knows, which springs it ("Bram Ironhide would spring the trap
    at (0,8): loose flagstone, 1 damage."). A hero's side knows only the traps it detected."""
    d = game.decision
    if d is None or Decision(int(d[0])) not in _MOVES:
        return None
    unit = int(d[1])
    here = int(game.state.unit_pos[unit])
    if here < 0:
        return None
    if MOVE_N <= int(action) < MOVE_N + 4:
        to = open_side(game, here, int(action) - MOVE_N)
    elif JUMP_N <= int(action) < JUMP_N + 4:
        over = open_side(game, here, int(action) - JUMP_N)
        to = open_side(game, over, int(action) - JUMP_N) if over >= 0 else -1
    else:
        return None
    trap = known_trap(game, unit, to)
    if trap < 0:
        return None
    return f"{figure_name(game, unit)} would spring {trap_words(game, trap)}: {trap_what(game, trap)}."


def action_idle(game, action: int) -> bool:
    """``action`` is legal but does nothing useful now: one more square of movement that reaches no
    square (the page shows it de-emphasised; its name says so)."""
    d = game.decision
    if d is None or int(action) != EXTRA_MOVE or Decision(int(d[0])) not in _MOVES:
        return False
    return nothing_to_reach(game, int(d[1]))


class _Namer:
    def __init__(self, game, kind: Decision, unit: int, a: int, b: int, names) -> None:
        self.g, self.kind, self.unit, self.a, self.b, self.names = game, kind, unit, a, b, names

    def who(self, u: int | None = None) -> str:
        return figure_name(self.g, self.unit if u is None else u, self.names)

    def name(self, action: int) -> str:
        kind = self.kind
        if MOVE_N <= action < MOVE_N + 4:
            return self.step(action - MOVE_N)
        if JUMP_N <= action < JUMP_N + 4:
            return self.jump(action - JUMP_N)
        if DRAG_N <= action < DRAG_N + 4:
            return self.drag(action - DRAG_N)
        if DISARM_N <= action < DISARM_N + 4:
            return self.disarm(action - DISARM_N)
        if SPEND_0 <= action < SPEND_0 + 4:
            return self.spend(action - SPEND_0)
        if HANDOFF_0 <= action < HANDOFF_0 + 5:
            return f"Hand the movement to {self.who(action - HANDOFF_0)}"
        if ITEM_0 <= action < ITEM_0 + 12:
            return self.item(action - ITEM_0)
        if SPELL_0 <= action < SPELL_0 + 8:
            return self.spell(action - SPELL_0)
        if TARGET_0 <= action < TARGET_0 + 10:
            return self.target(action - TARGET_0)
        if CHOICE_0 <= action < CHOICE_0 + 4:
            return self.choice(action - CHOICE_0)
        if ABILITY_0 <= action < ABILITY_0 + 2:
            return self.ability(action - ABILITY_0)
        if action == END:
            return _END.get(kind, "End").format(who=self.who())
        if action == EXTRA_MOVE:
            return self.extra_move()
        if action == DEFER:
            return f"Move {self.who()} after the other monsters"
        return self.verb(action)

    # ----- squares
    def beside(self, d: int) -> int:
        return int(self.g.tables.neighbor[int(self.g.state.unit_pos[self.unit]), d])

    def step(self, d: int) -> str:
        """A step (an Evade step in the Evasion phase) or an Open Doors attempt, with its cost and
        what it springs: "Evade west onto the trap at (0,8), 2 Stamina; it springs: ..."."""
        g, t = self.g, self.g.tables
        here = int(g.state.unit_pos[self.unit])
        to = int(t.neighbor[here, d])
        door = int(t.edge_door[here, d])
        if door >= 0 and not g.state.door_open[door] and not g.state.door_hidden[door]:
            return self.door(d)
        trap = known_trap(g, self.unit, to)
        if trap >= 0:
            where = f"{DIRECTIONS[d]} onto {trap_words(g, trap)}"
        else:
            where = f"{DIRECTIONS[d]} {square_name(g, to)}" if to >= 0 else DIRECTIONS[d]
        evade = self.kind == Decision.HERO_EVADE
        text = f"{'Evade' if evade else 'Step'} {where}"
        if to >= 0 and t.exit[to] and g.state.unit_side[self.unit] == Side.HERO:
            text += " and leave the dungeon by the exit"
        if evade:
            text += self.evade_cost()
        return text + (f"; {trap_risk(g, trap)}" if trap >= 0 else "")

    def evade_cost(self) -> str:
        """ ", 2 Stamina" (R-CTS-04), and what else it costs: the last Stamina, a spell."""
        g, u = self.g, self.unit
        cost = int(g.rules.evade_cost)
        text = f", {cost} Stamina" + self.exhausts(cost)
        if is_casting(g, u):
            text += f"; {spell_name(g, int(g.state.casting_spell[u]))} fails"
        return text

    def exhausts(self, cost: int) -> str:
        """ " (Exhausted after)" when ``cost`` is the figure's last Stamina (R-EXH-01)."""
        return " (Exhausted after)" if 0 < cost == int(self.g.state.stamina[self.unit]) else ""

    def door(self, d: int) -> str:
        """An Open Doors attempt: the d6 bands with the figure's modifiers (R-DOOR-02..06)."""
        g, r = self.g, self.g.rules
        mod = check_modifier(g, self.unit, "open_door")
        opens = d6_chance(r.door_open_min, mod)
        alerts = d6_chance_at_most(r.door_alert_max, mod)
        return (
            f"Try to open the door to the {DIRECTIONS[d]}: opens on {r.door_open_min}+ ({percent(opens)}); "
            f"{at_most(r.door_alert_max)} alerts what is behind it ({percent(alerts)})"
        )

    def jump(self, d: int) -> str:
        """A Jump: 2 squares, its chance, and where a short one leaves the hero (R-JUMP-03..06)."""
        g, r = self.g, self.g.rules
        over = self.beside(d)
        land = int(g.tables.neighbor[over, d]) if over >= 0 else -1
        landing = known_trap(g, self.unit, land)
        onto = f"onto {trap_words(g, landing)}" if landing >= 0 else f"to {square_name(g, land)}"
        chance = percent(d6_chance(r.jump_min, check_modifier(g, self.unit, "jump")))
        text = f"Jump {DIRECTIONS[d]} over {square_name(g, over)} {onto}, 2 squares"
        text += f": lands on {r.jump_min}+ ({chance})"
        under = known_trap(g, self.unit, over)
        short = (
            f"lands on {trap_words(g, under)}, {trap_risk(g, under)}"
            if under >= 0
            else "the movement ends here"
        )
        text += f"; short: {short}"
        return text + (f"; landing, {trap_risk(g, landing)}" if landing >= 0 else "")

    def disarm(self, d: int) -> str:
        """A Disarm attempt: its bands (R-TRAP-07), and what the trap does if it springs."""
        g, r = self.g, self.g.rules
        sq = self.beside(d)
        mod = check_modifier(g, self.unit, "disarm")
        done = percent(d6_chance(r.disarm_min, mod))
        springs = percent(d6_chance_at_most(r.disarm_spring_max, mod))
        trap = known_trap(g, self.unit, sq)
        what = f" ({trap_what(g, trap)})" if trap >= 0 else ""
        return (
            f"Try to disarm the trap to the {DIRECTIONS[d]} {square_name(g, sq)}: disarmed on "
            f"{r.disarm_min}+ ({done}); on {at_most(r.disarm_spring_max)} it springs on you{what} ({springs})"
        )

    def extra_move(self) -> str:
        """One more square for 1 Stamina (A-01), marked when it reaches nothing new."""
        s, u = self.g.state, self.unit
        text = (
            f"Spend 1 Stamina for 1 more square ({int(s.move_left[u])} left, Stamina {int(s.stamina[u])})"
            + self.exhausts(1)
        )
        return text + (" (no square to reach)" if nothing_to_reach(self.g, u) else "")

    def drag(self, d: int) -> str:
        corpse = int(self.g.state.occupant[self.beside(d)])
        whose = f" of {self.who(corpse)}" if corpse >= 0 else ""
        return f"Take hold of the corpse{whose} to the {DIRECTIONS[d]} and drag it, 1 square"

    # ----- fights and bids
    def spend(self, n: int) -> str:
        if self.kind == Decision.MENTAL_BID:
            return f"Add {n} Magic to the Mental Combat"
        if self.kind != Decision.FIGHT_STAMINA:
            return f"Spend {n}"
        text = f"Spend {n} Stamina: {fight_odds_text(self.g, self.unit, n, self.names)}"
        return text + ("; Exhausted after" if self.exhausts(n) else "")

    # ----- items, spells, abilities
    def item(self, k: int) -> str:
        items = held(self.g, self.unit)
        if k >= len(items):
            return f"Item {k}"
        if self.kind == Decision.SPELL_SELECT:
            return f"Begin casting the scroll: {item_name(self.g, items[k])}, no Magic"
        return f"Item: {item_name(self.g, items[k])}"

    def spell(self, k: int) -> str:
        known = spells.known(self.g, self.unit)
        if k >= len(known):
            return f"Spell {k}"
        name, level = spell_name(self.g, known[k]), self.g.spells[known[k]].level
        if self.kind == Decision.SPELL_SELECT:
            return f"Begin casting {name}: {level} Magic when it resolves"
        if self.kind == Decision.HERO_ACT:
            return f"Spell: {name}"
        return f"Cast {name}: {level} Magic"

    def ability(self, k: int) -> str:
        """ "Use Second Wind (1 use left this adventure)"."""
        abilities = self.g.card(self.unit).abilities
        if k >= len(abilities):
            return f"Ability {k}"
        ability = abilities[k]
        if ability.limit == "turn":
            return f"Use {ability.name} (once a turn)"
        left = ability.uses - int(self.g.state.ability_uses[self.unit, k])
        return f"Use {ability.name} ({left} use{'s' if left != 1 else ''} left this adventure)"

    def verb(self, action: int) -> str:
        g, kind, a = self.g, self.kind, self.a
        if kind == Decision.ITEM_VERB and a >= 0:
            item = item_name(g, a)
            card = g.item_cards[int(g.state.item_card[a])]
            if action == USE:
                if card.deck == "potions":
                    return f"Drink: {item}"
                if card.spell is not None:
                    return f"Cast the scroll: {item}, no Magic (the scroll is used up)"
                spent = {"consumable": " (used up)", "reusable": " (once a turn)"}.get(card.use, "")
                return f"Use: {item}{spent}"
            if action == IDENTIFY:
                return f"Try to identify: {item}{self.identify_odds()}"
            words = {MEMORIZE: "Memorize the scroll", GIVE: "Give away"}
            if action in words:
                return f"{words[action]}: {item}"
            if action == BACK:
                return f"Back: keep {item} for now"
        if kind == Decision.SPELL_VERB and a >= 0:
            spell = spell_name(g, a)
            if action == USE:
                return f"Cast {spell}: {g.spells[a].level} Magic"
            words = {FORGET: "Forget", BACK: "Back: keep"}
            if action in words:
                return f"{words[action]} {spell}"
        if kind == Decision.CAST_MODE and action in (NORMAL_CAST, OVERCAST):
            return self.cast_mode(action)
        fixed = {
            KEEP_CASTING: "Keep casting while fighting (this phase's Fight dice count as double ones)",
            LET_FAIL: "Let the spell fail and fight normally",
            EXPLORE: f"{self.who()} explores here",
            STAY: f"{self.who()} stays put",
            TAKE: f"Take {self.found()}",
            PASS: f"Leave {self.found()} to the next exploring hero",
            LOOT: "Take an item from a corpse here",
            BACK: "Back",
        }
        return fixed.get(action, ACTION_NAMES[action])

    def identify_odds(self) -> str:
        """ ": identified on 4+ (50%); on 1 never this adventure (17%)" (R-IDENT-03)."""
        r = self.g.rules
        mod = check_modifier(self.g, self.unit, "identify")
        done = percent(d6_chance(r.identify_min, mod))
        never = percent(d6_chance_at_most(r.identify_never_max, mod))
        return (
            f": identified on {r.identify_min}+ ({done}); "
            f"on {at_most(r.identify_never_max)} never this adventure ({never})"
        )

    def cast_mode(self, action: int) -> str:
        """Normal or Overcast, each with its Magic (none from a scroll, A-20) and the Overcast's
        backlash bands (R-SPELL-11)."""
        g, r, s = self.g, self.g.rules, self.g.state
        spell = self.casting()
        sp = int(s.cast[1]) if s.cast else int(s.casting_spell[self.unit])
        scroll = bool(s.cast) and int(s.cast[CAST_ITEM]) >= 0
        level = g.spells[sp].level if sp >= 0 else 0
        magic = "no Magic (from a scroll)" if scroll else f"{level} Magic"
        if action == NORMAL_CAST:
            return f"Cast {spell} normally: {magic}"
        forget = percent(d6_chance_at_most(r.overcast_forget_max))
        wound = percent(1 - d6_chance_at_most(r.overcast_forget_max) - d6_chance(r.overcast_safe_min))
        lose = "the scroll is gone" if scroll else "the spell is forgotten"
        return (
            f"Overcast {spell}: its stronger version, {magic}; then a backlash roll: "
            f"{at_most(r.overcast_forget_max)} {lose} ({forget}), "
            f"below {r.overcast_safe_min} you lose {level} Health ({wound})"
        )

    def casting(self) -> str:
        s = self.g.state
        if s.cast:
            return spell_name(self.g, int(s.cast[1]))
        sp = int(s.casting_spell[self.unit]) if self.unit < len(s.casting_spell) else -1
        return spell_name(self.g, sp) if sp >= 0 else "the spell"

    def found(self) -> str:
        if self.kind == Decision.CLAIM_ITEM and self.b >= 0:
            return item_name(self.g, self.b)
        return "the item"

    def choice(self, k: int) -> str:
        events = self.g.tables.adventure.events
        if self.kind == Decision.EVENT_CHOICE and 0 <= self.a < len(events):
            options = events[self.a].options
            if k < len(options):
                option = options[k]
                check = f" (a {option.trait.replace('_', '-')} check)" if option.trait else ""
                return f"{option.text}{check}"
        return f"Option {k + 1}"

    def target(self, k: int) -> str:
        g = self.g
        found = view_candidates(g)
        candidates = found if found is not None else candidates_of(g, self.unit, self.a, self.b)
        if k >= len(candidates):
            return f"Target {k}"
        chosen = candidates[k]
        if self.a == TARGET_LOOT:
            corpse, item = chosen
            return f"Take {item_name(g, item)} from the corpse of {self.who(corpse)}"
        who = self.who(int(chosen))
        if self.a == TARGET_SPELL:
            return f"Cast {self.casting()} at {who}"
        if self.a == TARGET_GIVE:
            return f"Give {item_name(g, self.b)} to {who}"
        if self.a == TARGET_ITEM:
            return f"Use {item_name(g, self.b)} on {who}"
        if self.a == TARGET_ABILITY:
            abilities = g.card(self.unit).abilities
            return f"{abilities[self.b].name} on {who}" if 0 <= self.b < len(abilities) else who
        return who


# ------------------------------------------------------------------------------------- fight odds


def fight_odds_text(game, u: int, spend: int, names: Mapping[int, str] | None = None) -> str:
    """ "Fight 6 against Orc m3's 4: win 72%, lose 19%" for ``u`` spending ``spend`` now."""
    scores = fight_scores(game, u, spend)
    if scores is None:
        return "no Fight being declared"
    h, m, h_score, m_score = scores
    ones = bool(game.state.double_ones[h])
    won, lost, _ = win_chance(h_score, m_score, game.has_trait(h, "strong"), ones)
    ones_note = " (the hero keeps casting: its dice count as double ones)" if ones else ""
    if u == h:
        return (
            f"Fight {h_score} against {figure_name(game, m, names)}'s {m_score}{ones_note}: "
            f"win {won:.0%}, lose {lost:.0%}"
        )
    return (
        f"Fight {m_score} against {figure_name(game, h, names)}'s {h_score} (if the hero spends none)"
        f"{ones_note}: win {lost:.0%}, lose {won:.0%}"
    )


def decision_text(game, names: Mapping[int, str] | None = None) -> str:
    """The decision asked now, for people: "Bram's movement (3 squares left, Stamina 4)"."""
    d = game.decision
    if d is None:
        return "The adventure is over"
    kind, unit = Decision(int(d[0])), int(d[1])
    s = game.state
    who = figure_name(game, unit, names)
    a, b = game.decision_args
    if kind in (Decision.HERO_MOVE, Decision.HERO_EVADE, Decision.MONSTER_MOVE):
        where = f"Stamina {int(s.stamina[unit])}, at {square_name(game, int(s.unit_pos[unit]))}"
        if kind == Decision.HERO_EVADE:
            return f"{who}'s evasion: each Evade step costs {int(game.rules.evade_cost)} Stamina; {where}"
        left = int(s.move_left[unit])
        what = "movement" if kind == Decision.HERO_MOVE else "move"
        return f"{who}'s {what}: {left} square{'' if left == 1 else 's'} left, {where}"
    if kind == Decision.FIGHT_STAMINA:
        return f"{who}: how much Stamina to spend on this Fight (Stamina {int(s.stamina[unit])})"
    if kind == Decision.MENTAL_BID:
        return f"{who}: how much Magic to add to the Mental Combat (Magic {int(s.magic[unit])})"
    if kind == Decision.ITEM_VERB and a >= 0:
        when = ITEM_MOMENTS[b] if 0 <= b < len(ITEM_MOMENTS) else ""
        return f"{who}: what to do with {item_name(game, a)} ({when})"
    if kind == Decision.SPELL_VERB and a >= 0:
        return f"{who}: what to do with {spell_name(game, a)}"
    if kind == Decision.CHOOSE_TARGET:
        return f"{who}: choose a target"
    if kind == Decision.EVENT_CHOICE and 0 <= a < len(game.tables.adventure.events):
        return f"{who}: {game.tables.adventure.events[a].text}"
    labels = {
        Decision.SPELL_SELECT: "a spell to begin casting (Spell Selection)",
        Decision.CAST_WHILE_FIGHTING: "keep casting while fighting?",
        Decision.CAST_MODE: "cast normally or overcast?",
        Decision.EXPLORE_CHOICE: "explore or stay put?",
        Decision.CLAIM_ITEM: "take the item found?",
        Decision.HERO_ACT: "an item, a spell or an ability to use, or done",
        Decision.DISARM: "disarm a trap?",
    }
    return f"{who}: {labels.get(kind, kind.name.lower())}"
