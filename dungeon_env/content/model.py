"""Frozen dataclasses for the game's content, as loaded and validated from the data files.

Coordinates are ``(x, y)`` with ``x`` the column (0..23) and ``y`` the row (0..27); ``(0, 0)`` is the
Dungeon Master's top-left corner (ruling A-62). A square's flat index is ``y * WIDTH + x``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

WIDTH = 24
HEIGHT = 28
MIN_HEROES, MAX_HEROES = 3, 5  # a game is for 3-5 heroes (R-BOARD-01)
TRAITS = ("strong", "agile", "perceptive", "learned", "iron_willed")
ENCOUNTER_TYPES = ("guard", "patrol", "ambusher")
DECKS = ("treasure", "gear", "potions", "spells", "magic_items")
PIECE_TYPES = ("door", "blockage", "furniture", "hero", "monster")
EFFECT_KINDS = (
    "damage",  # lose `amount` Health (to a hero: the Death's Door rules apply)
    "heal",  # gain `amount` Health, capped at base
    "stamina",  # gain `amount` Stamina, capped at base
    "magic",  # gain `amount` Magic, capped at base
    "light",  # raise the party's Light by `amount`, capped at 20
    "fight_bonus",  # +`amount` Fighting Score for `duration` turns (0: while the item is carried)
    "move_bonus",  # +`amount` Movement for `duration` turns (0: while the item is carried)
    "damage_bonus",  # +`amount` Damage for `duration` turns (0: while the item is carried)
    "detect_traps",  # detect every trap within `amount` squares in line of sight
    "sleep",  # the target monster skips its movement and fights at -2 for `duration` turns
    "revive",  # bring a dead hero whose corpse left the dungeon back to life (campaign)
    "treasure",  # worth `amount` gold; no other use
    "armour",  # -`amount` Damage taken from each lost Fight, never below 1 (while carried, or `duration`)
    "jump_bonus",  # +`amount` to Jump rolls while the item is carried (engine.effects.check_modifiers)
    "door_bonus",  # +`amount` to Open Doors rolls while the item is carried (engine.effects.check_modifiers)
    "disarm_bonus",  # +`amount` to Disarm rolls (a hero's passive ability; engine.effects.check_modifiers)
    "detect_bonus",  # +`amount` to Detect Traps rolls, the phase's and room text's (a passive ability)
    "identify_bonus",  # +`amount` to Identify rolls (a passive ability)
)
CASTING_TIMES = ("combat", "explore", "movement", "any")
SPELL_TARGETS = ("self", "ally", "enemy", "none")
ITEM_USES = ("passive", "consumable", "reusable")
ABILITY_USES = ("active", "passive")  # R-BOARD-04: a hero card's abilities are tagged Active or Passive
ABILITY_LIMITS = ("adventure", "turn")  # an Active ability's uses: per adventure, or once per turn
ABILITY_MOMENTS = ("movement", "evasion", "explore")  # when an Active ability may be used
ABILITY_TARGETS = ("self", "ally", "none")  # ally: the hero or a hero next to it, as for items
ABILITY_CONDITIONS = ("outnumbered", "wounded")  # when a conditioned Passive ability counts

Square = tuple[int, int]


class ContentError(ValueError):
    """A content file is broken: names the file, the key and what was expected."""

    def __init__(self, file: str, key: str, reason: str) -> None:
        self.file, self.key, self.reason = file, key, reason
        super().__init__(f"{file}: {key}: {reason}")


class ContentWarning(UserWarning):
    """A content file loads but probably does not say what its author meant (names the file, the
    key and what it means as written)."""

    def __init__(self, file: str, key: str, reason: str) -> None:
        self.file, self.key, self.reason = file, key, reason
        super().__init__(f"{file}: {key}: {reason}")


@dataclass(frozen=True)
class Board:
    """The fixed board: which area (room or corridor segment) every square belongs to.

    ``area`` is an int16 ``[HEIGHT, WIDTH]`` array of area indices. Rooms come first (``0..15``),
    then corridor segments. ``area_names[i]`` is the map character of area ``i``.
    """

    area: np.ndarray
    area_names: tuple[str, ...]
    n_rooms: int

    @property
    def n_areas(self) -> int:
        return len(self.area_names)

    def is_room(self, area_index: int) -> bool:
        return area_index < self.n_rooms


@dataclass(frozen=True)
class Effect:
    """A structured effect: ``kind`` from EFFECT_KINDS, an ``amount`` and a ``duration`` in turns."""

    kind: str
    amount: int = 0
    duration: int = 0


@dataclass(frozen=True)
class Spell:
    """A spell card. ``mental``: the effect lands only if the caster wins a Mental Combat against
    the target; on a tie it lands if ``mental_tie == "caster"``. ``overcast`` is the stronger
    version (None if the spell has none). A spell whose effect has a duration is ongoing (R-SPELL-09)."""

    id: str
    name: str
    level: int
    casting: str  # one of CASTING_TIMES
    target: str  # one of SPELL_TARGETS
    range: int  # squares (ruling A-39), line of sight needed; 0 = the caster's own square only
    effect: Effect
    text: str = ""
    overcast: Effect | None = None
    mental: bool = False
    mental_tie: str = "target"  # "caster" or "target": who a tied Mental Combat favours

    @property
    def ongoing(self) -> bool:
        return self.effect.duration > 0


@dataclass(frozen=True)
class ItemCard:
    """A card of one of the five DECKS. Scrolls (deck ``spells``) name their ``spell``.
    ``timing`` says when a usable item may be used (ruling A-58 by default: own Movement or Evasion)."""

    id: str
    name: str
    deck: str  # one of DECKS
    use: str  # one of ITEM_USES
    effect: Effect | None = None
    spell: str | None = None
    target: str = "self"  # "self", "ally" (a hero within 1 square) or "none"
    timing: str = "any"  # "any" (Movement, Evasion, Explore), "explore", "campaign"
    copies: int = 1  # copies of this card in its deck
    text: str = ""

    @property
    def face_down(self) -> bool:
        """Potions, Scrolls and Magic Items are drawn face-down (R-IDENT-01)."""
        return self.deck in ("potions", "spells", "magic_items")


@dataclass(frozen=True)
class Ability:
    """A hero card's ability (R-BOARD-04), tagged Active or Passive.

    A *Passive* ability gives its ``effect`` (a standing bonus: ``fight_bonus``, ``armour``,
    ``door_bonus``, ...) always, or only while its ``condition`` holds: ``"outnumbered"`` (the hero
    fights two or more enemies this Fighting phase) or ``"wounded"`` (Health at most half its base).
    An *Active* ability is used with ``ABILITY_k`` in one of its moments ``when`` (the hero's own
    Movement, Evasion, or the Explore phase; never while surprised, R-SURP-06; it breaks Rest,
    R-REST-02): ``uses`` times per adventure (``limit = "adventure"``) or once per turn
    (``limit = "turn"``); its ``effect`` lands on ``target`` (self, an ally next to the hero, or
    none: the party); a bonus lasts the rest of the turn plus ``effect.duration`` turns."""

    id: str
    name: str
    use: str  # one of ABILITY_USES
    effect: Effect
    text: str = ""
    limit: str = ""  # active: one of ABILITY_LIMITS ("" for a passive ability)
    uses: int = 0  # active: uses per limit (1 for "turn")
    when: tuple[str, ...] = ()  # active: a subset of ABILITY_MOMENTS
    target: str = "self"  # active: one of ABILITY_TARGETS
    condition: str = ""  # passive: "" (always) or one of ABILITY_CONDITIONS

    @property
    def active(self) -> bool:
        return self.use == "active"


@dataclass(frozen=True)
class HeroCard:
    id: str
    name: str
    move: int
    fight: int
    damage: int
    health: int
    stamina: int
    magic: int
    traits: tuple[str, ...]
    spells: tuple[str, ...] = ()  # starting spells (filled in by the spells content, issue 3)
    abilities: tuple[Ability, ...] = ()  # at most 2; ABILITY_k uses the k-th (if it is Active)
    caster: bool = False  # one of the two heroes that start the game knowing spells


@dataclass(frozen=True)
class MonsterCard:
    id: str
    name: str
    move: int
    fight: int
    damage: int
    health: int
    stamina: int
    magic: int
    encounter: str  # one of ENCOUNTER_TYPES
    abilities: tuple[str, ...] = ()


@dataclass(frozen=True)
class Door:
    """A door on the wall edge between two orthogonally adjacent squares of different areas. A
    ``secret`` door is a wall until a room event reveals it."""

    a: Square
    b: Square
    secret: bool = False


@dataclass(frozen=True)
class Trap:
    """A hidden trapped square (ruling A-38): springs on any creature that enters it."""

    at: Square
    name: str
    effect: Effect
    blocks: bool = False  # a trap that blocks movement once sprung (e.g. a pit): it stays as a hazard


@dataclass(frozen=True)
class Furniture:
    kind: str
    squares: tuple[Square, ...]


@dataclass(frozen=True)
class Guard:
    monster: str
    at: Square


@dataclass(frozen=True)
class Ambush:
    """Ambushers that spawn the first time any hero enters ``area`` (a map character)."""

    area: str
    monsters: tuple[str, ...]
    at: tuple[Square, ...]


@dataclass(frozen=True)
class EventOption:
    text: str
    effect: Effect | None = None
    trait: str | None = None  # the choice needs a trait check: d6 (+1 with the trait) 4-6 succeeds
    fail: Effect | None = None  # what happens if that check fails
    item: str | None = None  # an item card given on success
    deck: str | None = None  # or a card drawn from this deck


@dataclass(frozen=True)
class RoomEvent:
    """Room or corridor text resolved in the Explore phase (rulings A-59, A-60).

    ``scope`` "all" fires once at the first Explore phase with any hero in ``area`` and affects every
    hero there; "exploring" fires at the first Explore phase with a hero exploring there and affects
    the exploring heroes. ``kind``: "effect" (``effect`` on each affected hero), "check" (each
    affected hero makes a trait check with ``options[0]``), "choice" (the first affected hero picks
    one of ``options``), "item" (``item`` or a ``deck`` draw, claimed by an exploring hero),
    "detect" (a room-text Detect Traps roll per affected hero: 4-6 detects the area's traps),
    "ambush" (``monsters`` spawn at ``at``), "secret" (reveals the secret door ``door``)."""

    area: str
    scope: str
    kind: str
    text: str
    effect: Effect | None = None
    options: tuple[EventOption, ...] = ()
    item: str | None = None
    deck: str | None = None
    monsters: tuple[str, ...] = ()
    at: tuple[Square, ...] = ()
    door: int | None = None  # index into Adventure.doors


@dataclass(frozen=True)
class Objective:
    """``kind`` is ``"escape"`` (a hero leaves by an exit), ``"slay"`` (kill the guard at ``at``),
    ``"reach"`` (a hero stands in the area ``area``), ``"retrieve"`` (a hero carries the item ``item``
    out of the dungeon), ``"claim"`` (a hero takes the item ``item``) or ``"rescue"`` (a hero explores
    ``area``, freeing the captive, and the party escapes). Each is reported met or not beside the
    adventure's outcome (R-END-03); "completed with the goals" means every primary one met."""

    kind: str
    text: str
    at: Square | None = None
    primary: bool = False
    area: str | None = None
    item: str | None = None


@dataclass(frozen=True)
class Adventure:
    id: str
    name: str
    difficulty: int
    goal: str
    start: tuple[Square, ...]
    exits: tuple[Square, ...]
    doors: tuple[Door, ...]
    blockages: tuple[Square, ...]
    furniture: tuple[Furniture, ...]
    guards: tuple[Guard, ...]
    patrol: tuple[str, ...]
    ambushes: tuple[Ambush, ...]
    objectives: tuple[Objective, ...]
    secret_rooms: tuple[str, ...] = ()
    traps: tuple[Trap, ...] = ()
    events: tuple[RoomEvent, ...] = ()
    final: bool = False  # the campaign's final adventure (R-CAMP-05)
    source: str = field(default="", compare=False)
