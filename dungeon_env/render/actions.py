"""Actions named for people, in the context of the decision asked: ``describe_action(game, action)``.

``ACTION_NAMES`` says what an action is in general (``item_3``, ``target_1``); this module says what
it does *now*: "Drink: Healing Potion", "Cast Sleep at Orc m2", "Spend 2 Stamina: Fight 6 against
4, win 72%". The page, the text mode and the event story all name actions here.

A name uses only what the ``game`` it is given holds. Pass a side's view of the game (heroes:
``sideview.heroes_view``) to name actions for that side: an item face down in the heroes' view is a
placeholder card there ("Unknown potions card"), so its name never leaks. ``names`` (figure slot ->
display name) overrides how figures are called, e.g. by the monster ids of the heroes' event lens.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from dungeon_env.engine import combat, spells
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
from dungeon_env.engine.decisions import target_candidates
from dungeon_env.engine.inventory import held
from dungeon_env.engine.items import ITEM_MOMENTS
from dungeon_env.engine.sideview import target_candidates as view_candidates
from dungeon_env.engine.state import FIGHT_HERO, FIGHT_M_SPEND, FIGHT_MONSTER, Side

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


class _Namer:
    def __init__(self, game, kind: Decision, unit: int, a: int, b: int, names) -> None:
        self.g, self.kind, self.unit, self.a, self.b, self.names = game, kind, unit, a, b, names

    def who(self, u: int | None = None) -> str:
        return figure_name(self.g, self.unit if u is None else u, self.names)

    def name(self, action: int) -> str:
        g, kind = self.g, self.kind
        if MOVE_N <= action < MOVE_N + 4:
            return self.step(action - MOVE_N)
        if JUMP_N <= action < JUMP_N + 4:
            return self.jump(action - JUMP_N)
        if DRAG_N <= action < DRAG_N + 4:
            return self.drag(action - DRAG_N)
        if DISARM_N <= action < DISARM_N + 4:
            sq = self.beside(action - DISARM_N)
            return f"Try to disarm the trap to the {DIRECTIONS[action - DISARM_N]} {square_name(g, sq)}"
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
            s = g.state
            return (
                f"Spend 1 Stamina for 1 more square ({int(s.move_left[self.unit])} left, "
                f"Stamina {int(s.stamina[self.unit])})"
            )
        if action == DEFER:
            return f"Move {self.who()} after the other monsters"
        return self.verb(action)

    # ----- squares
    def beside(self, d: int) -> int:
        return int(self.g.tables.neighbor[int(self.g.state.unit_pos[self.unit]), d])

    def step(self, d: int) -> str:
        g, t = self.g, self.g.tables
        here = int(g.state.unit_pos[self.unit])
        to = int(t.neighbor[here, d])
        door = int(t.edge_door[here, d])
        where = f"{DIRECTIONS[d]} {square_name(g, to)}" if to >= 0 else DIRECTIONS[d]
        if door >= 0 and not g.state.door_open[door] and not g.state.door_hidden[door]:
            return f"Try to open the door to the {DIRECTIONS[d]}"
        verb = "Evade" if self.kind == Decision.HERO_EVADE else "Step"
        if to >= 0 and t.exit[to] and g.state.unit_side[self.unit] == Side.HERO:
            return f"{verb} {where} and leave the dungeon by the exit"
        return f"{verb} {where}"

    def jump(self, d: int) -> str:
        g, t = self.g, self.g.tables
        over = self.beside(d)
        land = int(t.neighbor[over, d]) if over >= 0 else -1
        return f"Jump {DIRECTIONS[d]} over {square_name(g, over)} to {square_name(g, land)}"

    def drag(self, d: int) -> str:
        corpse = int(self.g.state.occupant[self.beside(d)])
        whose = f" of {self.who(corpse)}" if corpse >= 0 else ""
        return f"Take hold of the corpse{whose} to the {DIRECTIONS[d]} and drag it"

    # ----- fights and bids
    def spend(self, n: int) -> str:
        if self.kind == Decision.MENTAL_BID:
            return f"Add {n} Magic to the Mental Combat"
        if self.kind != Decision.FIGHT_STAMINA:
            return f"Spend {n}"
        return f"Spend {n} Stamina: {fight_odds_text(self.g, self.unit, n, self.names)}"

    # ----- items, spells, abilities
    def item(self, k: int) -> str:
        items = held(self.g, self.unit)
        return f"Item: {item_name(self.g, items[k])}" if k < len(items) else f"Item {k}"

    def spell(self, k: int) -> str:
        known = spells.known(self.g, self.unit)
        if k >= len(known):
            return f"Spell {k}"
        if self.kind == Decision.SPELL_SELECT:
            return f"Begin casting {spell_name(self.g, known[k])}"
        if self.kind == Decision.HERO_ACT:
            return f"Spell: {spell_name(self.g, known[k])}"
        return f"Cast {spell_name(self.g, known[k])}"

    def ability(self, k: int) -> str:
        abilities = self.g.card(self.unit).abilities
        return f"Use {abilities[k].name}" if k < len(abilities) else f"Ability {k}"

    def verb(self, action: int) -> str:
        g, kind, a = self.g, self.kind, self.a
        if kind == Decision.ITEM_VERB and a >= 0:
            item = item_name(g, a)
            card = g.item_cards[int(g.state.item_card[a])]
            if action == USE:
                if card.deck == "potions":
                    return f"Drink: {item}"
                if card.spell is not None:
                    return f"Cast the scroll: {item}"
                return f"Use: {item}"
            words = {MEMORIZE: "Memorize the scroll", IDENTIFY: "Try to identify", GIVE: "Give away"}
            if action in words:
                return f"{words[action]}: {item}"
            if action == BACK:
                return f"Back: keep {item} for now"
        if kind == Decision.SPELL_VERB and a >= 0:
            spell = spell_name(g, a)
            words = {USE: "Cast", FORGET: "Forget", BACK: "Back: keep"}
            if action in words:
                return f"{words[action]} {spell}"
        if kind == Decision.CAST_MODE and action in (NORMAL_CAST, OVERCAST):
            spell = self.casting()
            if action == NORMAL_CAST:
                return f"Cast {spell} normally"
            return f"Overcast {spell}: its stronger version (a backlash roll follows)"
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
        candidates = found if found is not None else target_candidates(g, self.unit, self.a, self.b)
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


@lru_cache(maxsize=1)
def _two_dice() -> dict[int, float]:
    """The chance of each total of 2d6."""
    out: dict[int, float] = {}
    for i in range(1, 7):
        for j in range(1, 7):
            out[i + j] = out.get(i + j, 0.0) + 1 / 36
    return out


def win_chance(
    hero_score: int, monster_score: int, hero_strong: bool, hero_double_ones: bool = False
) -> tuple[float, float, float]:
    """``(hero wins, monster wins, nobody)`` for a Fight of these scores: each side rolls 2d6 and
    adds its score, the higher total wins, a tie goes to a Strong hero, otherwise nobody wins
    (R-FIGHT-06..08); a hero who keeps casting rolls double ones."""
    hero = {2: 1.0} if hero_double_ones else _two_dice()
    monster = _two_dice()
    won = lost = tie = 0.0
    for h, p in hero.items():
        for m, q in monster.items():
            diff = (h + hero_score) - (m + monster_score)
            if diff > 0 or (diff == 0 and hero_strong):
                won += p * q
            elif diff < 0:
                lost += p * q
            else:
                tie += p * q
    return won, lost, tie


def fight_scores(game, u: int, spend: int) -> tuple[int, int, int, int] | None:
    """``(hero, monster, hero score, monster score)`` of the Fight being declared if ``u`` spends
    ``spend``; the hero's own spend is taken as 0 while the monster's is being declared (the DM
    declares first, A-09). None outside a Fight's declaration."""
    s = game.state
    if not s.fights or s.fight_index >= len(s.fights):
        return None
    row = s.fights[s.fight_index]
    m, h = int(row[FIGHT_MONSTER]), int(row[FIGHT_HERO])
    m_spend = spend if u == m else int(row[FIGHT_M_SPEND])
    h_spend = spend if u == h else 0
    counts = combat.enemy_counts(s.fights)
    h_score = int(s.base_fight[h]) + sum(combat.hero_modifiers(game, h, counts[h], h_spend).values())
    m_score = int(s.base_fight[m]) + sum(combat.monster_modifiers(game, m, counts[m], m_spend).values())
    return h, m, h_score, m_score


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
        what = {Decision.HERO_MOVE: "movement", Decision.HERO_EVADE: "evasion"}.get(kind, "move")
        return (
            f"{who}'s {what}: {int(s.move_left[unit])} squares left, Stamina {int(s.stamina[unit])}, "
            f"at {square_name(game, int(s.unit_pos[unit]))}"
        )
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
