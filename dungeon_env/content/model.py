"""Frozen dataclasses for the game's content, as loaded and validated from the data files.

Coordinates are ``(x, y)`` with ``x`` the column (0..23) and ``y`` the row (0..27); ``(0, 0)`` is the
Dungeon Master's top-left corner (ruling A-62). A square's flat index is ``y * WIDTH + x``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

WIDTH = 24
HEIGHT = 28
TRAITS = ("strong", "agile", "perceptive", "learned", "iron_willed")
ENCOUNTER_TYPES = ("guard", "patrol", "ambusher")
DECKS = ("treasure", "gear", "potions", "spells", "magic_items")
PIECE_TYPES = ("door", "blockage", "furniture", "hero", "monster")

Square = tuple[int, int]


class ContentError(ValueError):
    """A content file is broken: names the file, the key and what was expected."""

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
    abilities: tuple[str, ...] = ()
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
    """A door on the wall edge between two orthogonally adjacent squares of different areas."""

    a: Square
    b: Square


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
class Objective:
    """``kind`` is ``"escape"`` (all surviving heroes exit), ``"slay"`` (kill the guard at ``at``) or
    ``"reach"`` (a hero stands in the area ``area``). Primary objectives other than escape must be met
    for the adventure to count as completed (ruling D-01)."""

    kind: str
    text: str
    at: Square | None = None
    primary: bool = False
    area: str | None = None


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
    source: str = field(default="", compare=False)
