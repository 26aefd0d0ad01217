"""The game's content: the board map, hero and monster cards and adventures, loaded and validated."""

from .cards import load_items, load_spells
from .loader import (
    adventure_names,
    load_adventure,
    load_board,
    load_heroes,
    load_monsters,
    reachable_squares,
)
from .model import (
    Adventure,
    Ambush,
    Board,
    ContentError,
    ContentWarning,
    Door,
    Furniture,
    Guard,
    HeroCard,
    MonsterCard,
    Objective,
)
from .rules import Rules
from .variants import Variant, VariantError

__all__ = [
    "Adventure",
    "Ambush",
    "Board",
    "ContentError",
    "ContentWarning",
    "Door",
    "Furniture",
    "Guard",
    "HeroCard",
    "MonsterCard",
    "Objective",
    "Rules",
    "Variant",
    "VariantError",
    "adventure_names",
    "load_adventure",
    "load_board",
    "load_heroes",
    "load_items",
    "load_spells",
    "load_monsters",
    "reachable_squares",
]
