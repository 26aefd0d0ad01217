"""What each side may know of the event log.

The log (``game.events``) is the whole story, for people: every die, the seed, the fog's content.
The agents get a view of it through :class:`HeroLens` (the heroes) and :func:`dm_event` (the
Dungeon Master). Both decide *positively*: an event reaches a side because a rule below says that
side may know it; an event type or roll check that no rule names reaches nobody (and a test lists
every type the engine can log, so a new one cannot slip through unjudged).

The heroes' rules, judged event by event *as the game stood when it was logged* (the lens folds the
log in order, so replaying a saved log gives the same view):

- **Figures.** Heroes are always seen. A monster is seen while it stands on a square of a revealed
  area (its position is tracked from ``spawn`` and ``move``; the areas from ``reveal``). An event
  about a figure (``damage``, ``slain``, ``effect_starts``, ...) is shown only if that figure is
  seen; a ``move`` if it starts or ends on a seen square.
- **Monster ids.** The engine numbers monsters in order of appearance, fog ones included, so a hero
  seeing ``m5`` after ``m3`` would learn that a monster appeared out of sight. Heroes get their own
  numbering instead: ``m0``, ``m1``, ... in the order they first saw each monster.
- **Rolls.** Open rolls (Fights, Death's Door, doors, jumps, surprise, ...) are shown with their
  dice when their roller is seen; the DM's secret rolls (``detect_traps``, ``room_detect``,
  R-TRAP-03) never are: heroes learn only the squares a detection found (``detect_traps`` and
  ``traps_detected`` events, the same whether the roll failed or found nothing).
- **Content indices.** A door's or a room event's index counts the adventure's hidden content (an
  undiscovered secret door listed first renumbers the others), so heroes get the door's squares, and
  for a room event its room (``area``, the letter) and its rank among that room's events
  (``area_event``), instead.
- **Identities.** The card of an item that is face down (not identified when the event is handed
  over) is ``None``.
- **The seed** is in nobody's view (it would predict every die): the ``setup`` event loses it for
  both sides; nor are the faces of the secret rolls, which the DM's view leaves out too (the
  squares they found are in the ``detect_traps`` events).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from dungeon_env.content.model import WIDTH
from dungeon_env.engine import core
from dungeon_env.engine.actions import DEFER
from dungeon_env.engine.context import Context
from dungeon_env.engine.state import ACTIVE, SIDE_HERO, SIDE_MONSTER, STACK_UNIT

# Roll checks made in the open (R-TRAP-03 makes the Detect Traps rolls the DM's secret).
OPEN_CHECKS = frozenset(
    {
        "surprise",
        "ambush_surprise",
        "open_door",
        "jump",
        "disarm",
        "identify",
        "deaths_door",
        "patrol",
        "overcast",
        "trait_check",
    }
)
SECRET_CHECKS = frozenset({"detect_traps", "room_detect"})

# Events about the whole table: always shown (with the redactions of _redact).
PUBLIC = frozenset(
    {
        "setup",
        "phase",
        "light",
        "light_raised",
        "handoff",
        "combat_start",
        "end",
        "reveal",
        "explore_choice",
        "event_choice",
        "room_event",
        "item_found",
        "item_left",
        "draw",
        "item_identified",
        "item_wasted",
        "detect_traps",
        "traps_detected",
        "door_opened",
        "secret_door",
        "corpse_lost",
    }
)
# Events about one figure, named by this field: shown if that figure is seen.
ABOUT = {
    "move": "unit",
    "spawn": "unit",
    "trap_sprung": "unit",
    "trap_disarmed": "unit",
    "damage": "unit",
    "heal": "unit",
    "slain": "unit",
    "death": "unit",
    "deaths_door": "unit",
    "exhausted": "unit",
    "exhaustion_ends": "unit",
    "effect_starts": "unit",
    "effect_ends": "unit",
    "stamina": "unit",
    "magic": "unit",
    "extra_move": "unit",
    "guard_alert": "unit",
    "cast": "unit",
    "spell_fail": "unit",
    "spell_select": "unit",
    "keep_casting": "unit",
    "spell_discarded": "unit",
    "memorize": "unit",
    "forget": "unit",
    "back": "unit",
    "item_used": "unit",
    "ability": "unit",
    "evade": "unit",
    "drag": "unit",
    "exit": "unit",
    "corpse_out": "unit",
    "rest": "unit",
    "recover": "unit",
    "trade": "from",
    "loot": "unit",
    "fight": "a",
    "mental": "a",
    "mind_lash": "unit",
    "monsters_surprised": "units",
    "roll": "actor",
}
# Other fields of shown events that name figures: a monster heroes do not see there becomes None
# (dropped from a list); seen monsters get the heroes' numbering.
FIGURE_FIELDS = (
    "unit",
    "a",
    "b",
    "winner",
    "target",
    "killers",
    "units",
    "actor",
    "to",
    "from",
    "corpse",
    "source",
)
# a move's squares are squares, and its figure is named in HeroLens._redact
_FIGURES_OF = {"move": tuple(k for k in FIGURE_FIELDS if k not in ("from", "to", "unit"))}


def seen_squares(game: Context) -> np.ndarray:
    """Per square, whether heroes see it: it lies in a revealed area (ruling D-24)."""
    return game.state.revealed[game.tables.area]


def monsters_in_sight(game: Context) -> np.ndarray:
    """The slots of the monsters heroes see, in slot order: on the board, alive, on a square of a
    revealed area (ruling D-24). The one rule every hero channel reads (through the heroes'
    knowledge, ``side_knowledge.HeroKnowledge``)."""
    s = game.state
    pos = s.unit_pos
    slots = np.flatnonzero((s.unit_side == SIDE_MONSTER) & (s.unit_status == ACTIVE) & (pos >= 0))
    if len(slots) == 0:
        return slots
    return slots[seen_squares(game)[pos[slots]]]


def heroes_see_unit(game: Context, unit: int) -> bool:
    """Heroes see figure ``unit``: a hero, or a monster :func:`monsters_in_sight` lists."""
    if unit < game.state.n_heroes and game.state.unit_side[unit] == SIDE_HERO:
        return True
    return unit in monsters_in_sight(game).tolist()


class Asked(Context, Protocol):
    """A game whose decision asked now lists its legal actions (``Game``, a side view)."""

    def legal_actions(self) -> list[int]: ...


def dm_decision_is_hidden(game: Asked) -> bool:
    """The decision asked now is the DM's and hidden from the heroes, False when the game is over or
    a hero is asked (an end and a hero's decision are public). The one rule every channel that
    paces the game for heroes reads (the parallel view's steps, the play server's hero version and
    pushes). A DM decision is hidden when

    - it is about a figure heroes do not see (:func:`heroes_see_unit`); the observation shows such a
      decision to heroes the same way (only the agent asked and the phase); or
    - it has one choice besides ``defer``: ``defer`` is legal only while another monster is still
      to move, fog ones included, and a decision with a single legal choice is taken by the engine
      at once (ruling D-08), so whether the DM is asked at all would tell heroes that a monster they
      do not see is waiting to move.

    A channel that paces the game for heroes counts public decisions (and the end) only, so the
    number of decisions the DM took about figures heroes do not see reaches no hero."""
    s = game.state
    if s.outcome or not s.stack:
        return False
    unit = int(s.stack[-1][STACK_UNIT])
    if unit < s.n_heroes:
        return False
    if not heroes_see_unit(game, unit):
        return True
    legal = game.legal_actions()
    return DEFER in legal and len(legal) == 2


def known_doors(game: Context) -> np.ndarray:
    """Per door, whether heroes know it: a side of it is revealed and it is no undiscovered secret
    door (which heroes see as a wall)."""
    s, t = game.state, game.tables
    sides = t.cache.get("knowledge.door_areas")
    if sides is None:
        sides = t.cache["knowledge.door_areas"] = np.array(
            [[t.area[a], t.area[b]] for a, b in t.door_squares], np.int16
        ).reshape(-1, 2)
    revealed = s.revealed
    return ~s.door_hidden & (revealed[sides[:, 0]] | revealed[sides[:, 1]])


def known_traps(game: Context) -> np.ndarray:
    """Per trap, whether heroes know it: detected, on a square of a revealed area."""
    s, t = game.state, game.tables
    areas = t.cache.get("knowledge.trap_areas")
    if areas is None:
        areas = t.cache["knowledge.trap_areas"] = np.array(
            [t.area[tr.at[1] * WIDTH + tr.at[0]] for tr in t.adventure.traps], np.int16
        )
    return s.trap_detected & s.revealed[areas]


def dm_event(event: dict) -> dict | None:
    """The event as the Dungeon Master's agent gets it: everything but the seed and the faces of the
    secret Detect Traps rolls (None for those: no agent's infos carry a die of a secret roll; what
    they found is in the ``detect_traps`` events, and the dice stay in the full log)."""
    kind = event["type"]
    if kind == "setup":
        return {k: v for k, v in event.items() if k != "seed"}
    if kind == "roll" and event["check"] in SECRET_CHECKS:
        return None
    return event


def dm_events(events: list[dict]) -> list[dict]:
    """The events of ``events`` the Dungeon Master's agent may know, as it gets them (:func:`dm_event`)."""
    return [e for e in map(dm_event, events) if e is not None]


def hero_view(game: Context, events: list[dict]) -> list[dict | None]:
    """Each of ``events`` (a game's log from its first event, in order) as heroes may know it, or
    None (a fresh :class:`HeroLens` folded over them)."""
    return HeroLens(game).view(events)


def hero_events(game: Context, events: list[dict]) -> list[dict]:
    """The events of ``events`` that heroes may know, as they know them (see :func:`hero_view`)."""
    return list(filter(None, hero_view(game, events)))


def _is_monster(ref) -> bool:
    return isinstance(ref, str) and ref.startswith("m") and ref[1:].isdigit()


class HeroLens:
    """The heroes' view of one game's log, built event by event in log order (see the module
    docstring). Feed it every event once, in order: :meth:`see` returns the event as heroes may
    know it, or None. Feed it as the game is played (after each action, its new events): whether
    an item is face down is read from the game as it stands, so a lens folded over a finished game's
    log would name cards identified later (every card is identified at the end). To see an old
    game as heroes saw it, replay it (``dungeon_env.replay.steps``) and fold as it goes."""

    def __init__(self, game: Context) -> None:
        self.game = game
        t = game.tables
        self._area_of = t.area
        self._area_names = t.board.area_names
        self.revealed: set[str] = set()
        self.where: dict[str, int] = {}  # monster id -> square, for the monsters on the board
        self.numbers: dict[int, int] = {}  # engine monster uid -> k of the heroes' id m<k> for it

    # ----- what heroes see now -----
    def seen_square(self, xy) -> bool:
        return self._area_names[int(self._area_of[xy[1] * WIDTH + xy[0]])] in self.revealed

    def sees(self, ref) -> bool:
        """A figure heroes see: a hero, or a monster on a square of a revealed area."""
        if not _is_monster(ref):
            return ref is not None
        sq = self.where.get(ref)
        return sq is not None and self._area_names[int(self._area_of[sq])] in self.revealed

    def name(self, ref: str) -> str:
        """The heroes' id of a monster they see (given in the order they first saw each)."""
        numbers, uid = self.numbers, int(ref[1:])
        k = numbers.get(uid)
        if k is None:
            k = numbers[uid] = len(numbers)
        return f"m{k}"

    @property
    def names(self) -> dict[str, str]:
        """Engine monster id -> the heroes' id for it, for every monster heroes have seen."""
        return {f"m{uid}": f"m{k}" for uid, k in self.numbers.items()}

    def copy(self, game: Context) -> HeroLens:
        """An independent lens of ``game`` (a copy of this lens's game) as this one stands."""
        out = HeroLens.__new__(HeroLens)
        out.__dict__.update(self.__dict__)
        out.game = game
        out.revealed, out.where, out.numbers = set(self.revealed), dict(self.where), dict(self.numbers)
        return out

    # ----- the fold -----
    def view(self, events: list[dict]) -> list[dict | None]:
        return [self.see(e) for e in events]

    def see(self, event: dict) -> dict | None:
        kind = event["type"]
        if kind in PUBLIC:
            shown = True
        elif kind not in ABOUT:
            shown = False  # a type no rule names reaches nobody
        elif kind == "roll" and event["check"] not in OPEN_CHECKS:
            shown = False
        elif kind == "move":
            shown = _is_monster(event["unit"]) is False or any(
                self.seen_square(event[k]) for k in ("from", "to")
            )
        elif kind == "spawn":
            shown = event["unit"]["side"] == "hero" or self.seen_square(event["at"])
        else:
            subject = event[ABOUT[kind]]
            if isinstance(subject, list):
                shown = any(self.sees(ref) for ref in subject)
            else:
                shown = self.sees(subject) or subject == "dm"
        out = self._redact(event) if shown else None
        self._track(event)
        return event if out == event else out  # unchanged: the log's own dict, not a copy

    def _track(self, event: dict) -> None:
        kind = event["type"]
        if kind == "reveal":
            self.revealed.add(event["area"])
        elif kind == "spawn" and event["unit"]["side"] == "monster":
            self.where[event["unit"]["id"]] = event["at"][1] * WIDTH + event["at"][0]
        elif kind == "move" and _is_monster(event["unit"]):
            self.where[event["unit"]] = event["to"][1] * WIDTH + event["to"][0]
        elif kind == "slain":
            self.where.pop(event["unit"], None)

    def _redact(self, event: dict) -> dict:
        kind = event["type"]
        out = dict(event)
        if kind == "setup":
            out.pop("seed", None)  # a DM view's log has none
        elif kind == "spawn" and event["unit"]["side"] == "monster":
            out["unit"] = {**event["unit"], "id": self.name(event["unit"]["id"])}
        elif kind == "move" and _is_monster(event["unit"]):
            out["unit"] = self.name(event["unit"])  # shown: seen at one end (coming into sight too)
        if "door" in out and kind in ("door_opened", "secret_door"):
            del out["door"]  # its squares say which door
        if "event" in out:
            out["area"], out["area_event"] = self._event_place(out.pop("event"))
        item = out.get("item")
        if "card" in out and isinstance(item, int) and not self.game.state.item_known[item]:
            out["card"] = None
        if kind == "spawn":
            return out
        for key in _FIGURES_OF.get(kind, FIGURE_FIELDS):  # in a fixed order: names are given in it
            if key not in out:
                continue
            value = out[key]
            out[key] = (
                [v for v in map(self._figure, value) if v is not None]
                if isinstance(value, list)
                else self._figure(value)
            )
        return out

    def _event_place(self, e: int) -> tuple[str, int]:
        """A room event as heroes may name it: its room's letter and its rank among that room's
        events (a global index would count the events of rooms heroes know nothing of)."""
        events = self.game.tables.adventure.events
        area = events[e].area
        return area, sum(1 for other in events[:e] if other.area == area)

    def _figure(self, ref):
        """A figure field as heroes may know it: heroes as they are, seen monsters by the heroes'
        id, unseen ones None."""
        if not _is_monster(ref):
            return ref
        return self.name(ref) if self.sees(ref) else None


_CORE_RULES: list = []


def core_rules():
    """These rules as the compiled core's heroes' lens applies them (``_core.HeroLens``, made once a
    process: the tables above stay their one owner)."""
    if not _CORE_RULES:
        _CORE_RULES.append(
            core._core.HeroRules(
                public=set(PUBLIC),
                about=dict(ABOUT),
                open_checks=set(OPEN_CHECKS),
                figure_fields=list(FIGURE_FIELDS),
                figures_of={kind: list(keys) for kind, keys in _FIGURES_OF.items()},
            )
        )
    return _CORE_RULES[0]


__all__ = [
    "ABOUT",
    "Asked",
    "dm_decision_is_hidden",
    "heroes_see_unit",
    "known_doors",
    "known_traps",
    "monsters_in_sight",
    "seen_squares",
    "OPEN_CHECKS",
    "PUBLIC",
    "SECRET_CHECKS",
    "HeroLens",
    "core_rules",
    "dm_event",
    "dm_events",
    "hero_events",
    "hero_view",
]
