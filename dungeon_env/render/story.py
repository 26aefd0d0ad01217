"""The event log told as a story, for people.

:class:`Story` folds a game's events in order and tells each one as an English sentence::

    story = Story()
    for line in story.lines(game.events):
        print(line)

It remembers what earlier events said (unit names from the ``setup`` event's ``units`` and from
``spawn`` events, the cards of items drawn or identified, where figures were last seen, the turn),
so a line names "Bram (hero_0)" and "Orc Warrior m3" instead of bare ids, and a roll shows every die,
its modifiers, the total, what the rules needed and the result::

    Bram (hero_0), at (5,7), tries to open a door: rolled 4, +1 strong = 5 (needed 5+): opened
    Bram (hero_0) fights Orc Warrior m3: Bram 3+5 + score 4 (spent 1 Stamina) = 12, ...

It tells the full log (``game.events``) and any side's view of it, such as the heroes' lens
(``knowledge.hero_events``): there monsters carry the lens's own ids, unseen figures are None and
face-down cards are None, and the story says only that ("Sela (hero_3) finds a face-down item"); it
never looks anything up that the events do not carry, beyond the printed catalogue's names of card
ids. Absent or odd fields give a plainer sentence, never an exception; an event type it does not
know gets a generic line (its type and fields). Feed one :class:`Story` a single stream: the full
log and a lens number monsters differently.

What a roll needed is not in its event: the story reads it from the rules (``Story(rules=...)``,
a variant's ``game.rules``; by default the rules as written, ``content.rules.BASE_RULES``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping

from dungeon_env.content.rules import BASE_RULES, Rules

__all__ = ["MINOR", "Story", "describe_event", "roll_target"]

# Event types that carry little news for a reader (captions skip them when there is anything else).
MINOR = frozenset(
    {
        "handoff",
        "phase",
        "explore_choice",
        "detect_traps",
        "recover",
        "extra_move",
        "back",
        "keep_casting",
        "light",
    }
)

PHASES = {
    "turn_start": "Turn Start",
    "hero_movement": "Heroes' Movement",
    "spell_selection": "Spell Selection",
    "monster_movement": "Monsters' Movement",
    "evasion": "Evasion",
    "fighting": "Fighting",
    "spell_resolution": "Spell Resolution",
    "explore": "Explore",
    "trade": "Trade",
    "turn_end": "Turn End",
    "game_over": "Game Over",
}

# What each roll check is, as "<actor> <doing>", and its results in words.
_CHECKS = {
    "surprise": "checks for surprise",
    "ambush_surprise": "checks for surprise by an ambush",
    "open_door": "tries to open a door",
    "jump": "tries to jump",
    "disarm": "tries to disarm a trap",
    "identify": "tries to identify an item",
    "deaths_door": "rolls at Death's Door",
    "patrol": "rolls for a wandering patrol",
    "overcast": "rolls for the overcast spell's backlash",
    "trait_check": "makes a trait check",
    "detect_traps": "searches for traps (secret roll)",
    "room_detect": "searches the room (secret roll)",
}
_RESULTS = {
    ("open_door", "opened"): "opened",
    ("open_door", "failed"): "stuck",
    ("open_door", "failed_alert"): "stuck, and the noise alerts what is behind it",
    ("patrol", "appears"): "a patrol appears",
    ("patrol", "none"): "no patrol",
    ("identify", "not_yet"): "not yet",
    ("identify", "never"): "it cannot be identified",
    ("overcast", "forget"): "the spell is forgotten",
    ("overcast", "wound"): "a wound",
    ("overcast", "none"): "no backlash",
    ("deaths_door", "dies"): "dies",
    ("deaths_door", "survives"): "survives",
    ("jump", "fail"): "falls short",
}


def _at_most(top: int) -> str:
    return "1" if top == 1 else f"{top} or less"


def roll_target(check, rules: Rules = BASE_RULES) -> str | None:
    """What a d6 check needed, compared with its total (dice and modifiers), in words: "needed 4+",
    "5+ opens, 2 or less alerts"; None for a check with no fixed target (Detect Traps: the total
    is the number of squares searched)."""
    r = rules
    targets = {
        "surprise": f"{r.surprise_max + 1}+ to be ready",
        "ambush_surprise": f"{r.ambush_ready_min}+ to be ready",
        "open_door": f"needed {r.door_open_min}+; {_at_most(r.door_alert_max)} alerts",
        "jump": f"needed {r.jump_min}+",
        "disarm": f"needed {r.disarm_min}+; {_at_most(r.disarm_spring_max)} springs it",
        "identify": f"needed {r.identify_min}+; {_at_most(r.identify_never_max)}: never",
        "deaths_door": f"{r.deaths_door_max + 1}+ to survive",
        "patrol": f"a patrol on {_at_most(r.patrol_max)}",
        "overcast": f"{_at_most(r.overcast_forget_max)} forgets, {r.overcast_safe_min}+ is safe",
        "trait_check": f"needed {r.trait_check_min}+",
        "room_detect": f"needed {r.room_detect_min}+",
        "detect_traps": "the total is how many squares it searches",
    }
    return targets.get(check)


_STATS = (("move", "Move"), ("fight", "Fight"), ("health", "Health"), ("damage", "Damage"))
_HOW = {
    "guard": "on guard",
    "patrol": "on patrol",
    "ambush": "in ambush",
    "event": "from a room event",
}
_EFFECT_KINDS = {
    "fight_bonus": "Fighting Score",
    "damage_bonus": "Damage",
    "move_bonus": "Movement",
    "armour": "armour",
    "sleep": "sleep",
}


# ------------------------------------------------------------------------------------ the catalogue


@functools.lru_cache(maxsize=1)
def _catalogue() -> dict[str, dict[str, str]]:
    """Printed names of card ids (items, spells, abilities, monsters), from the content; empty if the
    content cannot be read (the story then shows ids in plain words)."""
    out: dict[str, dict[str, str]] = {"item": {}, "spell": {}, "ability": {}, "monster": {}}
    try:
        from dungeon_env.content import load_heroes, load_items, load_monsters, load_spells

        out["item"] = {k: v.name for k, v in load_items().items()}
        out["spell"] = {k: v.name for k, v in load_spells().items()}
        out["monster"] = {k: v.name for k, v in load_monsters().items()}
        for hero in load_heroes().values():
            for ability in hero.abilities:
                out["ability"][ability.id] = ability.name
    except Exception:  # noqa: BLE001 - a story must not fail for want of pretty names
        pass
    return out


@functools.lru_cache(maxsize=32)
def _adventure_name(adventure) -> str:
    try:
        from dungeon_env.content import load_adventure

        return f"{load_adventure(str(adventure)).name} ({adventure})"
    except Exception:  # noqa: BLE001 - an unknown or custom adventure: its id
        return f"The adventure {_plain(adventure if adventure is not None else '?')}"


def _plain(text) -> str:
    return str(text).replace("_", " ")


def _card_name(kind: str, card) -> str:
    if card is None:
        return "?"
    return _catalogue()[kind].get(str(card), _plain(card))


def _is_monster(ref) -> bool:
    return isinstance(ref, str) and len(ref) > 1 and ref[0] == "m" and ref[1:].isdigit()


def _is_hero(ref) -> bool:
    return isinstance(ref, str) and ref.startswith("hero_")


def _xy(sq) -> str:
    try:
        x, y = sq
        return f"({int(x)},{int(y)})"
    except (TypeError, ValueError):
        return "(?)"


def _area(area) -> str:
    if area is None:
        return "somewhere"
    a = str(area)
    return f"room {a}" if a.isalpha() and a.isupper() else f"corridor {a}"


def _list(words: list[str]) -> str:
    words = [w for w in words if w]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _int(value, default="?"):
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


# ----------------------------------------------------------------------------------------- naming


class _Namer:
    """Names figures for one line: the first mention with its id ("Bram (hero_0)", "Orc Warrior
    m3"), later ones short ("Bram", "Orc Warrior")."""

    def __init__(self, names: Mapping[str, str]) -> None:
        self.names = names
        self.said: set[str] = set()

    def __call__(self, ref, short: bool = False) -> str:
        if ref is None:
            return "someone unseen"
        if not isinstance(ref, str):
            return _plain(ref)
        if ref == "dm":
            return "the Dungeon Master"
        name = self.names.get(ref)
        again = short or ref in self.said
        self.said.add(ref)
        if _is_hero(ref):
            if not name:
                return ref
            first = name.split()[0]
            return first if again else f"{first} ({ref})"
        if _is_monster(ref):
            if not name:
                return f"monster {ref}" if not again else ref
            return name if again else f"{name} {ref}"
        return name or _plain(ref)

    def source(self, source) -> str:
        """A damage / effect source: a figure, or ``item:<id>``, ``spell:<id>``, ``ability:<id>``,
        ``trap:<name>``, ``event:<area>``."""
        if source is None:
            return "something unseen"
        if not isinstance(source, str) or ":" not in source:
            return self(source)
        kind, _, what = source.partition(":")
        if kind in ("item", "spell", "ability"):
            return _card_name(kind, what)
        if kind == "trap":
            return f"a trap ({what})"
        if kind == "event":
            return f"a room event in {_area(what)}"
        if kind == "overcast":
            return f"the backlash of overcasting {_card_name('spell', what)}"
        return _plain(source)


def _modifier(key, value, name: _Namer) -> str:
    v = _int(value, value)
    k = str(key)
    if k == "stamina":
        return f"spent {v} Stamina"
    if k == "magic":
        return f"spent {v} Magic"
    label = name.source(k) if ":" in k else _plain(k).replace("iron willed", "iron-willed")
    return f"{v:+d} {label}" if isinstance(v, int) else f"{v} {label}"


def _modifiers(mods, name: _Namer) -> list[str]:
    if not isinstance(mods, Mapping):
        return []
    return [_modifier(k, v, name) for k, v in mods.items()]


def _dice(dice) -> str:
    if not isinstance(dice, list | tuple) or not dice:
        return "?"
    return "+".join(str(d) for d in dice)


def _side(e: Mapping, side: str, name: _Namer) -> str:
    """One side of a Fight or Mental Combat: "Bram 3+5 + score 4 (spent 1 Stamina) = 12"."""
    mods = _modifiers(e.get(f"{side}_modifiers"), name)
    extra = f" ({', '.join(mods)})" if mods else ""
    score, total = e.get(f"{side}_score", "?"), e.get(f"{side}_total", "?")
    return f"{name(e.get(side), short=True)} {_dice(e.get(f'{side}_dice'))} + score {score}{extra} = {total}"


# ------------------------------------------------------------------------------------------ story


class Story:
    """Tells a stream of events one by one (:meth:`tell`), remembering what it needs from earlier
    ones: unit names (``setup``, ``spawn``), item cards (``draw``, ``item_identified``, ...), figure
    squares (``move``, ``spawn``) and the turn."""

    def __init__(self, names: Mapping[str, str] | None = None, rules: Rules | None = None) -> None:
        self.names: dict[str, str] = dict(names or {})
        self.rules = rules or BASE_RULES
        self.cards: dict[int, str] = {}  # item index -> card id, as the stream told it
        self.where: dict[str, list] = {}  # figure -> its last square, as the stream told it
        self.turn = 0

    @classmethod
    def lines(
        cls, events: Iterable[Mapping], names: Mapping[str, str] | None = None, rules: Rules | None = None
    ) -> list[str]:
        """Every event of ``events`` (one stream, in order) told by a fresh story; events that are
        None (a lens's unseen ones) are skipped."""
        story = cls(names, rules)
        return [line for line in map(story.tell, events) if line is not None]

    def tell(self, event: Mapping | None) -> str | None:
        """The sentence for ``event`` (None for a None event), after folding it into what the story
        remembers."""
        if event is None:
            return None
        if not isinstance(event, Mapping):
            return f"[event] {event!r}"
        self._fold(event)
        return self._say(event)

    # ----- memory -----
    def _fold(self, e: Mapping) -> None:
        kind = e.get("type")
        try:
            if kind == "setup":
                for unit in e.get("units") or []:
                    if isinstance(unit, Mapping) and unit.get("id") is not None:
                        self.names[str(unit["id"])] = str(unit.get("name") or unit["id"])
            elif kind == "spawn":
                unit = e.get("unit")
                if isinstance(unit, Mapping) and unit.get("id") is not None:
                    self.names[str(unit["id"])] = str(unit.get("name") or unit["id"])
                    if e.get("at") is not None:
                        self.where[str(unit["id"])] = e["at"]
            elif kind == "move" and e.get("unit") is not None and e.get("to") is not None:
                self.where[str(e["unit"])] = e["to"]
            if isinstance(e.get("item"), int) and "card" in e:
                if e["card"] is not None:
                    self.cards[e["item"]] = e["card"]
                elif kind == "draw":
                    self.cards.pop(e["item"], None)  # a fresh face-down card in that slot
            if isinstance(e.get("turn"), int):
                self.turn = e["turn"]
        except (TypeError, ValueError, KeyError):
            pass

    def _say(self, e: Mapping) -> str:
        kind = e.get("type")
        name = _Namer(self.names)
        teller = getattr(self, f"_t_{kind}", None) if isinstance(kind, str) else None
        if teller is not None:
            try:
                line = teller(e, name)
                if line:
                    return line[0].upper() + line[1:]
            except Exception:  # noqa: BLE001 - odd fields: the generic line below
                pass
        return generic(e)

    def _item(self, e: Mapping) -> str:
        """An item as this stream knows it: its card's name, or "a face-down item"."""
        card = e.get("card") if "card" in e else self.cards.get(e.get("item"))
        return "a face-down item" if card is None else _card_name("item", card)

    # ----- tellers, one per event type -----
    def _t_setup(self, e, name):
        heroes = [name(u.get("id")) for u in e.get("units") or [] if isinstance(u, Mapping)]
        bits = []
        if e.get("seed") is not None:
            bits.append(f"seed {e['seed']}")
        if e.get("light") is not None:
            bits.append(f"Light {e['light']}")
        if e.get("max_turns") is not None:
            bits.append(f"at most {e['max_turns']} turns")
        line = f"{_adventure_name(e.get('adventure'))} begins"
        if bits:
            line += f" ({', '.join(bits)})"
        if heroes:
            line += f" with {_list(heroes)}"
        goal = e.get("goal")
        return f"{line}. {goal}" if goal else f"{line}."

    def _t_phase(self, e, name):
        phase = e.get("phase")
        return f"— Turn {e.get('turn', self.turn)}: {PHASES.get(phase, _plain(phase).title())} —"

    def _t_handoff(self, e, name):
        return f"{name(e.get('to'))} to act"

    def _t_roll(self, e, name):
        check = e.get("check")
        actor = e.get("actor")
        who = name(actor)
        if check == "open_door" and actor in self.where:
            who += f", at {_xy(self.where[actor])},"
        doing = _CHECKS.get(check, f"rolls for {_plain(check)}")
        mods = "".join(f", {m}" for m in _modifiers(e.get("modifiers"), name))
        result = e.get("result")
        said = _RESULTS.get((check, result), _plain(result)) if result is not None else None
        line = f"{who} {doing}: rolled {_dice(e.get('dice'))}{mods} = {e.get('total', '?')}"
        target = roll_target(check, self.rules)
        if target:
            line += f" ({target})"
        return f"{line}: {said}" if said is not None and check not in ("detect_traps",) else line

    def _t_fight(self, e, name):
        head = f"{name(e.get('a'))} fights {name(e.get('b'))}"
        winner = e.get("winner")
        end = f"{name(winner, short=True)} wins" if winner is not None else "nobody wins"
        if "winner" not in e:
            end = "?"
        return f"{head}: {_side(e, 'a', name)}, {_side(e, 'b', name)}: {end}"

    def _t_mental(self, e, name):
        head = f"Mental Combat, {name(e.get('a'))} against {name(e.get('b'))}"
        winner = e.get("winner")
        end = f"{name(winner, short=True)} wins" if winner is not None else "a tie: nobody wins"
        return f"{head}: {_side(e, 'a', name)}, {_side(e, 'b', name)}: {end}"

    def _t_mind_lash(self, e, name):
        return f"{name(e.get('unit'))} lashes at the mind of {name(e.get('target'))}"

    def _t_spawn(self, e, name):
        unit = e.get("unit")
        ref = unit.get("id") if isinstance(unit, Mapping) else unit
        line = f"{name(ref)} appears"
        if e.get("at") is not None:
            line += f" at {_xy(e['at'])}"
        how = e.get("how")
        if how in _HOW:
            line += f", {_HOW[how]}"
        if isinstance(unit, Mapping) and unit.get("side") == "monster":
            stats = [f"{label} {unit[k]}" for k, label in _STATS if unit.get(k) is not None]
            if stats:
                line += f" ({', '.join(stats)})"
        return line

    def _t_move(self, e, name):
        return f"{name(e.get('unit'))} moves to {_xy(e.get('to'))}"

    def _t_reveal(self, e, name):
        return f"{_area(e.get('area'))} comes into view"

    def _t_door_opened(self, e, name):
        squares = e.get("squares") or []
        where = f" between {' and '.join(_xy(q) for q in squares)}" if squares else ""
        by = e.get("by")
        return f"{name(by)} opens the door{where}" if by is not None else f"The door{where} opens"

    def _t_secret_door(self, e, name):
        squares = e.get("squares") or []
        where = f" between {' and '.join(_xy(q) for q in squares)}" if squares else ""
        return f"A secret door is found{where}"

    def _t_damage(self, e, name):
        line = f"{name(e.get('unit'))} takes {e.get('amount', '?')} damage"
        if "source" in e:
            line += f" from {name.source(e['source'])}"
        if e.get("health") is not None:
            line += f" (Health {e['health']})"
        return line

    def _t_heal(self, e, name):
        line = f"{name(e.get('unit'))} heals {e.get('amount', '?')}"
        return line + (f" (Health {e['health']})" if e.get("health") is not None else "")

    def _killers(self, e, name) -> str:
        killers = [k for k in e.get("killers") or [] if k is not None]
        return f" by {_list([name.source(k) for k in killers])}" if killers else ""

    def _t_slain(self, e, name):
        return f"{name(e.get('unit'))} is slain{self._killers(e, name)}"

    def _t_death(self, e, name):
        return f"{name(e.get('unit'))} dies{self._killers(e, name)}"

    def _t_deaths_door(self, e, name):
        return f"{name(e.get('unit'))} falls to Death's Door"

    def _t_exhausted(self, e, name):
        return f"{name(e.get('unit'))} is Exhausted"

    def _t_exhaustion_ends(self, e, name):
        return f"{name(e.get('unit'))} is no longer Exhausted"

    def _t_effect_starts(self, e, name):
        kind = e.get("kind")
        amount = e.get("amount")
        if kind == "sleep":
            line = f"{name(e.get('unit'))} falls asleep"
        else:
            line = f"{name(e.get('unit'))} gains {_EFFECT_KINDS.get(kind, _plain(kind))}"
            if isinstance(amount, int) and amount:
                line += f" {amount:+d}"
        turns = e.get("turns")
        if isinstance(turns, int):
            more = f" for this turn and {turns} more"
            line += " for the rest of this turn" if turns <= 0 else more
        if e.get("source") is not None:
            line += f" (from {name.source(e['source'])})"
        return line

    def _t_effect_ends(self, e, name):
        kind = e.get("kind")
        line = f"{name(e.get('unit'))}'s {_EFFECT_KINDS.get(kind, _plain(kind))} effect"
        if e.get("source") is not None:
            line += f" (from {name.source(e['source'])})"
        return line + " ends"

    def _gain(self, e, name, what):
        line = f"{name(e.get('unit'))} gains {e.get('amount', '?')} {what}"
        if e.get("source") is not None:
            line += f" from {name.source(e['source'])}"
        now = [f"{k.title()} {e[k]}" for k in ("stamina", "magic") if e.get(k) is not None]
        return line + (f" ({', '.join(now)})" if now else "")

    def _t_stamina(self, e, name):
        return self._gain(e, name, "Stamina")

    def _t_magic(self, e, name):
        return self._gain(e, name, "Magic")

    def _t_extra_move(self, e, name):
        line = f"{name(e.get('unit'))} spends 1 Stamina for an extra square"
        return line + (f" (Stamina {e['stamina']})" if e.get("stamina") is not None else "")

    def _t_evade(self, e, name):
        line = f"{name(e.get('unit'))} evades"
        return line + (f" (Stamina {e['stamina']})" if e.get("stamina") is not None else "")

    def _t_guard_alert(self, e, name):
        return f"{name(e.get('unit'))} is alerted"

    def _t_combat_start(self, e, name):
        return "Combat begins!"

    def _t_monsters_surprised(self, e, name):
        units = [name(u) for u in e.get("units") or []]
        if not units:
            return "The monsters are surprised"
        return f"{_list(units)} {'is' if len(units) == 1 else 'are'} surprised"

    def _spell(self, e, name) -> str:
        spell = e.get("spell")
        return "an unknown spell" if spell is None else _card_name("spell", spell)

    def _t_cast(self, e, name):
        line = f"{name(e.get('unit'))} casts {self._spell(e, name)}"
        if e.get("target") is not None and e["target"] != e.get("unit"):
            line += f" on {name(e['target'])}"
        bits = []
        if e.get("mode") == "overcast":
            bits.append("overcast")
        if e.get("magic") is not None:
            bits.append(f"{e['magic']} Magic")
        if e.get("scroll"):
            bits.append("from a scroll")
        return line + (f" ({', '.join(bits)})" if bits else "")

    def _t_spell_fail(self, e, name):
        spell = e.get("spell")
        what = "spell" if spell is None else _card_name("spell", spell)
        line = f"{name(e.get('unit'))}'s {what} fails"
        return line + (f" ({_plain(e['reason'])})" if e.get("reason") else "")

    def _t_spell_select(self, e, name):
        who = name(e.get("unit"))
        if e.get("item") is not None:
            spell = e.get("spell")
            return f"{who} begins to read a scroll" + (f" of {_card_name('spell', spell)}" if spell else "")
        return f"{who} begins casting {self._spell(e, name)}"

    def _t_keep_casting(self, e, name):
        return f"{name(e.get('unit'))} keeps casting"

    def _t_spell_discarded(self, e, name):
        return f"{name(e.get('unit'))}'s spell card {self._spell(e, name)} is discarded"

    def _t_memorize(self, e, name):
        return f"{name(e.get('unit'))} memorizes {self._spell(e, name)} from a scroll"

    def _t_forget(self, e, name):
        line = f"{name(e.get('unit'))} forgets {self._spell(e, name)}"
        return line + (f" ({_plain(e['reason'])})" if e.get("reason") else "")

    def _t_back(self, e, name):
        if e.get("spell") is not None:
            what = _card_name("spell", e["spell"])
        elif "item" in e:
            what = self._item(e)
        else:
            what = "a choice"
        return f"{name(e.get('unit'))} goes back from {what}"

    def _t_item_used(self, e, name):
        line = f"{name(e.get('unit'))} uses {self._item(e)}"
        target = e.get("target")
        if target is not None and target != e.get("unit"):
            line += f" on {name(target)}"
        return line

    def _t_item_wasted(self, e, name):
        return f"{name(e.get('unit'))} uses {self._item(e)} to no effect"

    def _t_item_identified(self, e, name):
        how = {"use": "by using it", "identify": "", "adventure_end": "at the adventure's end"}
        what = self._item(e)
        unit = e.get("unit")
        if unit is not None:
            line = f"{name(unit)} identifies an item: {what}"
        else:
            line = f"An item is identified: {what}"
        extra = how.get(e.get("how"), _plain(e.get("how") or ""))
        return f"{line} ({extra})" if extra else line

    def _t_item_found(self, e, name):
        line = f"{name(e.get('unit'))} finds {self._item_found(e)}"
        if e.get("area") is not None:
            line += f" in {_area(e['area'])}"
        return line

    def _item_found(self, e) -> str:
        card = self.cards.get(e.get("item"))
        return "a face-down item" if card is None else f"an item: {_card_name('item', card)}"

    def _t_item_left(self, e, name):
        line = "An item is left behind"
        if e.get("area") is not None:
            line += f" in {_area(e['area'])}"
        return line

    def _t_draw(self, e, name):
        deck = e.get("deck")
        line = f"A card is drawn from the {_plain(deck)} deck" if deck else "A card is drawn"
        card = e.get("card")
        return f"{line}: {_card_name('item', card)}" if card is not None else f"{line}, face down"

    def _t_trade(self, e, name):
        return f"{name(e.get('from'))} gives {self._item(e)} to {name(e.get('to'))}"

    def _t_loot(self, e, name):
        return f"{name(e.get('unit'))} takes {self._item(e)} from the body of {name(e.get('corpse'))}"

    def _t_trap_sprung(self, e, name):
        trap = e.get("trap")
        line = f"{name(e.get('unit'))} springs a trap" + (f" ({trap})" if trap else "")
        if e.get("at") is not None:
            line += f" at {_xy(e['at'])}"
        return line + ("; it stays in the way" if e.get("hazard") else "")

    def _t_trap_disarmed(self, e, name):
        trap = e.get("trap")
        line = f"{name(e.get('unit'))} disarms a trap" + (f" ({trap})" if trap else "")
        return line + (f" at {_xy(e['at'])}" if e.get("at") is not None else "")

    def _t_detect_traps(self, e, name):
        found = e.get("found") or []
        who = name(e.get("hero", e.get("unit")))
        if not found:
            return f"{who} searches for traps and finds none"
        return f"{who} searches for traps and finds {len(found)}: at {', '.join(_xy(q) for q in found)}"

    def _t_traps_detected(self, e, name):
        squares = e.get("squares") or []
        who = name(e.get("unit"))
        by = f" (by {name.source(e['source'])})" if e.get("source") else ""
        if not squares:
            return f"{who} looks for traps{by} and finds none"
        return f"{who} detects traps{by} at {', '.join(_xy(q) for q in squares)}"

    def _t_light(self, e, name):
        return f"The Light falls to {e.get('light', '?')}"

    def _t_light_raised(self, e, name):
        line = f"The Light rises by {e.get('amount', '?')} to {e.get('light', '?')}"
        return line + (f" ({name.source(e['source'])})" if e.get("source") else "")

    def _t_explore_choice(self, e, name):
        return f"{name(e.get('unit'))} {'explores' if e.get('explore') else 'does not explore'}"

    def _t_event_choice(self, e, name):
        option = e.get("option")
        line = f"{name(e.get('unit'))} chooses option {option + 1 if isinstance(option, int) else '?'}"
        return line + (f" in {_area(e['area'])}" if e.get("area") is not None else "")

    def _t_room_event(self, e, name):
        line = f"In {_area(e.get('area'))}" if e.get("area") is not None else "A room event"
        heroes = [name(h) for h in e.get("heroes") or []]
        if heroes:
            line += f" ({_list(heroes)})"
        text = e.get("text")
        return f"{line}: {text}" if text else f"{line}: a {_plain(e.get('kind', 'room'))} event"

    def _t_corpse_lost(self, e, name):
        line = f"The body of {name(e.get('unit'))} is lost"
        return line + (f" in {_area(e['area'])}" if e.get("area") is not None else "")

    def _t_corpse_out(self, e, name):
        line = f"The body of {name(e.get('unit'))} is carried out"
        return line + (f" by {name(e['carrier'])}" if e.get("carrier") is not None else "")

    def _t_drag(self, e, name):
        return f"{name(e.get('unit'))} drags the body of {name(e.get('corpse'))}"

    def _t_exit(self, e, name):
        return f"{name(e.get('unit'))} leaves the dungeon"

    def _t_rest(self, e, name):
        return f"{name(e.get('unit'))} rests"

    def _t_recover(self, e, name):
        line = f"{name(e.get('unit'))} {'recovers after resting' if e.get('rested') else 'recovers'}"
        now = [f"{k.title()} {e[k]}" for k in ("stamina", "magic") if e.get(k) is not None]
        return line + (f" ({', '.join(now)})" if now else "")

    def _t_ability(self, e, name):
        ability = e.get("name") or _card_name("ability", e.get("ability"))
        line = f"{name(e.get('unit'))} uses {ability}"
        target = e.get("target")
        if target is not None and target != e.get("unit"):
            line += f" on {name(target)}"
        return line

    def _t_end(self, e, name):
        outcome = e.get("outcome")
        line = f"The adventure is {outcome}" if outcome else "The adventure ends"
        if "goals_met" in e:
            line += ": goals met" if e.get("goals_met") else ": goals not met"
        if e.get("reason"):
            line += f" ({e['reason']})"
        objectives = [
            f"{o.get('text') or _plain(o.get('kind', '?'))} ({'met' if o.get('met') else 'not met'})"
            for o in e.get("objectives") or []
            if isinstance(o, Mapping)
        ]
        if objectives:
            line += "; " + "; ".join(objectives)
        return line


def generic(event: Mapping) -> str:
    """A readable line for an event no teller knows: its type and its fields."""
    kind = event.get("type", "?")
    fields = ", ".join(f"{k} {_short(v)}" for k, v in event.items() if k != "type")
    return f"[{_plain(kind)}] {fields}" if fields else f"[{_plain(kind)}]"


def _short(value) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= 40 else text[:37] + "..."


def describe_event(event: Mapping, names: Mapping[str, str] | None = None) -> str:
    """One event as a sentence, naming figures from ``names`` (unit id -> name; the ``setup`` or
    ``spawn`` event itself names its units). Without the story's memory, an item is named only by the
    event's own ``card``."""
    return Story(names).tell(event) or generic(event)
