"""Spell cards (``spells.toml``) and item cards (``items.toml``): loading and validation.

OWNER: the magic & items work (issue 3). ``load_spells()`` and ``load_items()`` return dicts by id in
file order (cached for the bundled files), raising ContentError(file, key, reason) on bad content.
"""

from __future__ import annotations

from pathlib import Path

from .model import ItemCard, Spell


def load_spells(path: str | Path | None = None) -> dict[str, Spell]:
    return {}


def load_items(path: str | Path | None = None) -> dict[str, ItemCard]:
    return {}
