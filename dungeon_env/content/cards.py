"""Spell cards (``spells.toml``) and item cards (``items.toml``): loading and validation.

``load_spells()`` and ``load_items()`` return dicts by id in file order (cached for the bundled
files), raising ``ContentError(file, key, reason)`` on bad content: unknown or missing keys, wrong
types, values out of range, unknown effect kinds, effects that make no sense where they are (a
spell that heals an enemy, a passive item with a duration...), a scroll naming an unknown spell.

Spells, ``[[spell]]`` tables: ``id``, ``name``, ``level`` (1-3), ``casting`` (combat, explore,
movement, any), ``target`` (self, ally, enemy, none), ``range`` (squares, ruling A-39; 0 for self
and none), ``effect`` (``{kind, amount, duration}``); optional ``overcast`` (the stronger version: an
effect of the same kind), ``text``, ``mental`` (the effect lands only if the caster wins a Mental
Combat against the target) and ``mental_tie`` (who a tie favours: caster or target).

Items, ``[[item]]`` tables: ``id``, ``name``, ``deck`` (treasure, gear, potions, spells, magic_items),
``use`` (passive, consumable, reusable); optional ``effect``, ``spell`` (scrolls: the spell's id),
``target`` (self, ally = a hero within 1 square, none), ``timing`` (any, explore, campaign),
``copies`` (1-8) and ``text``.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from ._checks import Checker, sub
from .model import (
    CASTING_TIMES,
    DECKS,
    EFFECT_KINDS,
    ITEM_USES,
    SPELL_TARGETS,
    Effect,
    HeroCard,
    ItemCard,
    Spell,
)

CONTENT_DIR = Path(__file__).resolve().parent
SPELLS_FILE = CONTENT_DIR / "spells.toml"
ITEMS_FILE = CONTENT_DIR / "items.toml"

LEVELS = (1, 3)
MAX_RANGE = 12
AMOUNTS = (-5, 20)
MAX_VALUE = 1000  # a treasure's value in gold
MAX_DURATION = 10
MAX_COPIES = 8
MAX_DECK_CARDS = 64  # the engine's deck capacity (engine.state.MAX_DECK)
MAX_SPELLS = 64
MENTAL_TIES = ("caster", "target")
ITEM_TARGETS = ("self", "ally", "none")
ITEM_TIMINGS = ("any", "explore", "campaign")

# Effect kinds grouped by what they do.
BONUS_KINDS = ("fight_bonus", "move_bonus", "damage_bonus", "armour")  # may last (duration) or be carried
CARRIED_KINDS = (*BONUS_KINDS, "jump_bonus", "door_bonus")  # what a passive item may give while carried
ONGOING_KINDS = (*BONUS_KINDS, "sleep")  # kinds that may have a duration
SPELL_KINDS = (
    "damage",
    "heal",
    "stamina",
    "magic",
    "light",
    *BONUS_KINDS,
    "detect_traps",
    "sleep",
)
USABLE_KINDS = ("heal", "stamina", "magic", "light", *BONUS_KINDS, "detect_traps", "revive")
# Which spell targets each kind of spell effect allows.
SPELL_TARGETS_OF = {
    "damage": ("enemy",),
    "sleep": ("enemy",),
    "heal": ("self", "ally"),
    "stamina": ("self", "ally"),
    "magic": ("self", "ally"),
    "light": ("none",),
    "detect_traps": ("none",),
    **{kind: ("self", "ally", "enemy") for kind in BONUS_KINDS},
}
# Which item targets each kind of usable item effect allows.
ITEM_TARGETS_OF = {
    "heal": ("self", "ally"),
    "stamina": ("self", "ally"),
    "magic": ("self", "ally"),
    "light": ("none",),
    "detect_traps": ("none",),
    "revive": ("none",),
    **{kind: ("self", "ally") for kind in BONUS_KINDS},
}

__all__ = ["check_starting_spells", "load_items", "load_spells", "parse_items", "parse_spells"]


# ----------------------------------------------------------------------------------------------- shared


def _entries(ck: Checker, name: str) -> list[Any]:
    data = ck.table("", ck.load_toml(), required=(name,))
    return ck.array(name, data[name], min_len=1)


def _effect(ck: Checker, key: str, value: Any, kinds: tuple[str, ...], what: str) -> Effect:
    """A ``{kind, amount, duration}`` table; ``kind`` must be one of EFFECT_KINDS and of ``kinds``."""
    entry = ck.table(key, value, ("kind",), ("amount", "duration"))
    kind = ck.choice(sub(key, "kind"), entry["kind"], EFFECT_KINDS, "effect kind")
    if kind not in kinds:
        ck.fail(
            sub(key, "kind"), f"effect kind {kind!r} cannot be {what}; expected one of: {', '.join(kinds)}"
        )
    lo, hi = (1, MAX_VALUE) if kind == "treasure" else AMOUNTS
    amount = ck.integer(sub(key, "amount"), entry.get("amount", 0), lo, hi)
    duration = ck.integer(sub(key, "duration"), entry.get("duration", 0), 0, MAX_DURATION)
    if amount < 0 and kind not in BONUS_KINDS:
        ck.fail(sub(key, "amount"), f"only bonus kinds ({', '.join(BONUS_KINDS)}) may be negative")
    if amount == 0 and kind != "revive":
        ck.fail(sub(key, "amount"), f"a {kind!r} effect needs a non-zero amount")
    if duration and kind not in ONGOING_KINDS:
        ck.fail(sub(key, "duration"), f"a {kind!r} effect is instant; only {', '.join(ONGOING_KINDS)} last")
    if kind == "sleep" and not duration:
        ck.fail(sub(key, "duration"), "a sleep effect needs a duration of at least 1 turn")
    return Effect(kind=kind, amount=amount, duration=duration)


def _add_unique(ck: Checker, key: str, cards: dict[str, Any], card: Any) -> None:
    if card.id in cards:
        first = list(cards).index(card.id)
        ck.fail(sub(key, "id"), f"duplicate id {card.id!r} (same as entry {first})")
    cards[card.id] = card


# ----------------------------------------------------------------------------------------------- spells


def _spell_effects(ck: Checker, key: str, entry: dict[str, Any], target: str) -> tuple[Effect, Effect | None]:
    effect = _effect(ck, sub(key, "effect"), entry["effect"], SPELL_KINDS, "a spell's")
    if target not in SPELL_TARGETS_OF[effect.kind]:
        allowed = ", ".join(SPELL_TARGETS_OF[effect.kind])
        ck.fail(sub(key, "target"), f"a {effect.kind!r} spell targets {allowed}, not {target!r}")
    if effect.kind in BONUS_KINDS and not effect.duration:
        ck.fail(sub(key, "effect.duration"), f"a spell's {effect.kind!r} needs a duration of at least 1 turn")
    overcast = None
    if "overcast" in entry:
        overcast = _effect(ck, sub(key, "overcast"), entry["overcast"], SPELL_KINDS, "a spell's")
        if overcast.kind != effect.kind:
            ck.fail(
                sub(key, "overcast.kind"),
                f"the Overcast version is a stronger {effect.kind!r}, not {overcast.kind!r}",
            )
        if bool(overcast.duration) != bool(effect.duration):
            ck.fail(sub(key, "overcast.duration"), "the Overcast version lasts if and only if the spell does")
    return effect, overcast


def _spell(ck: Checker, key: str, entry: Any) -> Spell:
    entry = ck.table(
        key,
        entry,
        ("id", "name", "level", "casting", "target", "range", "effect"),
        ("overcast", "text", "mental", "mental_tie"),
    )
    target = ck.choice(sub(key, "target"), entry["target"], SPELL_TARGETS, "target")
    rng = ck.integer(sub(key, "range"), entry["range"], 0, MAX_RANGE)
    if target in ("self", "none") and rng:
        ck.fail(sub(key, "range"), f"a spell with target {target!r} has range 0")
    effect, overcast = _spell_effects(ck, key, entry, target)
    mental = ck.boolean(sub(key, "mental"), entry.get("mental", False))
    if mental and target != "enemy":
        ck.fail(sub(key, "mental"), "a Mental Combat spell targets an enemy")
    if "mental_tie" in entry and not mental:
        ck.fail(sub(key, "mental_tie"), "only a Mental Combat spell (mental = true) has a tie rule")
    tie = ck.choice(sub(key, "mental_tie"), entry.get("mental_tie", "target"), MENTAL_TIES, "tie rule")
    return Spell(
        id=ck.ident(sub(key, "id"), entry["id"]),
        name=ck.text(sub(key, "name"), entry["name"]),
        level=ck.integer(sub(key, "level"), entry["level"], *LEVELS),
        casting=ck.choice(sub(key, "casting"), entry["casting"], CASTING_TIMES, "casting time"),
        target=target,
        range=rng,
        effect=effect,
        text=ck.text(sub(key, "text"), entry["text"]) if "text" in entry else "",
        overcast=overcast,
        mental=mental,
        mental_tie=tie,
    )


def parse_spells(path: str | Path) -> dict[str, Spell]:
    """Read and validate spell cards (``[[spell]]`` tables), keyed by id in file order."""
    ck = Checker(path)
    spells: dict[str, Spell] = {}
    entries = ck.array("spell", _entries(ck, "spell"), max_len=MAX_SPELLS)
    for i, entry in enumerate(entries):
        _add_unique(ck, f"spell[{i}]", spells, _spell(ck, f"spell[{i}]", entry))
    return spells


# ------------------------------------------------------------------------------------------------ items


def _scroll(ck: Checker, key: str, entry: dict[str, Any], spells: dict[str, Spell]) -> dict[str, Any]:
    for name in ("effect", "target", "timing"):
        if name in entry:
            ck.fail(sub(key, name), "a scroll has no own effect, target or timing: its spell's apply")
    spell = ck.ident(sub(key, "spell"), entry.get("spell", ""))
    if spell not in spells:
        ck.fail(sub(key, "spell"), f"unknown spell {spell!r}; not in the spell cards")
    if entry["use"] != "consumable":
        ck.fail(sub(key, "use"), "a scroll is consumable (cast or memorized once, then destroyed)")
    return {"spell": spell, "effect": None, "target": "none", "timing": "any"}


def _passive(ck: Checker, key: str, entry: dict[str, Any], deck: str) -> dict[str, Any]:
    if deck == "treasure":
        effect = _effect(ck, sub(key, "effect"), entry["effect"], ("treasure",), "a treasure's")
    else:
        effect = _effect(ck, sub(key, "effect"), entry["effect"], CARRIED_KINDS, "carried")
        if effect.duration:
            ck.fail(
                sub(key, "effect.duration"), "a passive item's bonus lasts while it is carried: no duration"
            )
    for name in ("target", "timing"):
        if name in entry:
            ck.fail(sub(key, name), "a passive item is never used: no target or timing")
    return {"spell": None, "effect": effect, "target": "self", "timing": "any"}


def _usable(ck: Checker, key: str, entry: dict[str, Any]) -> dict[str, Any]:
    effect = _effect(ck, sub(key, "effect"), entry["effect"], USABLE_KINDS, "used")
    timing = ck.choice(sub(key, "timing"), entry.get("timing", "any"), ITEM_TIMINGS, "timing")
    if (effect.kind == "revive") != (timing == "campaign"):
        ck.fail(sub(key, "timing"), "a revive item has timing 'campaign', and only a revive item has it")
    if effect.kind in BONUS_KINDS and not effect.duration:
        ck.fail(sub(key, "effect.duration"), f"a used {effect.kind!r} needs a duration of at least 1 turn")
    allowed = ITEM_TARGETS_OF[effect.kind]
    target = ck.choice(sub(key, "target"), entry.get("target", allowed[0]), ITEM_TARGETS, "target")
    if target not in allowed:
        ck.fail(sub(key, "target"), f"a {effect.kind!r} item targets {', '.join(allowed)}, not {target!r}")
    return {"spell": None, "effect": effect, "target": target, "timing": timing}


def _item(ck: Checker, key: str, entry: Any, spells: dict[str, Spell]) -> ItemCard:
    entry = ck.table(
        key, entry, ("id", "name", "deck", "use"), ("effect", "spell", "target", "timing", "copies", "text")
    )
    deck = ck.choice(sub(key, "deck"), entry["deck"], DECKS, "deck")
    use = ck.choice(sub(key, "use"), entry["use"], ITEM_USES, "use")
    if deck == "spells":
        fields = _scroll(ck, key, entry, spells)
    else:
        if "spell" in entry:
            ck.fail(sub(key, "spell"), "only a scroll (deck 'spells') names a spell")
        if "effect" not in entry:
            ck.fail(sub(key, "effect"), "missing required key (every card but a scroll has an effect)")
        if deck == "treasure" and use != "passive":
            ck.fail(sub(key, "use"), "treasure is passive: it is only worth its value")
        fields = _passive(ck, key, entry, deck) if use == "passive" else _usable(ck, key, entry)
    return ItemCard(
        id=ck.ident(sub(key, "id"), entry["id"]),
        name=ck.text(sub(key, "name"), entry["name"]),
        deck=deck,
        use=use,
        copies=ck.integer(sub(key, "copies"), entry.get("copies", 1), 1, MAX_COPIES),
        text=ck.text(sub(key, "text"), entry["text"]) if "text" in entry else "",
        **fields,
    )


def _check_decks(ck: Checker, items: dict[str, ItemCard]) -> None:
    for deck in DECKS:
        size = sum(card.copies for card in items.values() if card.deck == deck)
        if size > MAX_DECK_CARDS:
            ck.fail("item", f"deck {deck!r} has {size} cards; at most {MAX_DECK_CARDS} fit")


def parse_items(path: str | Path, spells: dict[str, Spell]) -> dict[str, ItemCard]:
    """Read and validate item cards (``[[item]]`` tables) against the spell cards, keyed by id."""
    ck = Checker(path)
    items: dict[str, ItemCard] = {}
    for i, entry in enumerate(_entries(ck, "item")):
        _add_unique(ck, f"item[{i}]", items, _item(ck, f"item[{i}]", entry, spells))
    _check_decks(ck, items)
    return items


def check_starting_spells(
    heroes: dict[str, HeroCard], spells: dict[str, Spell], file: str = "heroes"
) -> None:
    """Every starting spell exists, and a caster's starting spells total no more than its base Magic
    (the memorize cap, ruling A-21)."""
    ck = Checker(file)
    for i, hero in enumerate(heroes.values()):
        for j, spell_id in enumerate(hero.spells):
            if spell_id not in spells:
                ck.fail(f"hero[{i}].spells[{j}]", f"unknown spell {spell_id!r}; not in the spell cards")
        total = sum(spells[s].level for s in hero.spells)
        if total > hero.magic:
            ck.fail(
                f"hero[{i}].spells", f"starting spells total level {total}, above base magic {hero.magic}"
            )


# ------------------------------------------------------------------------------------------ public API


@functools.lru_cache(maxsize=1)
def _bundled_spells() -> dict[str, Spell]:
    return parse_spells(SPELLS_FILE)


@functools.lru_cache(maxsize=1)
def _bundled_items() -> dict[str, ItemCard]:
    return parse_items(ITEMS_FILE, _bundled_spells())


def load_spells(path: str | Path | None = None) -> dict[str, Spell]:
    """The spell cards by id, in file order; the bundled ``spells.toml`` when ``path`` is None."""
    return dict(_bundled_spells() if path is None else parse_spells(path))


def load_items(path: str | Path | None = None, spells: dict[str, Spell] | None = None) -> dict[str, ItemCard]:
    """The item cards by id, in file order; the bundled ``items.toml`` when ``path`` is None. Scrolls
    are checked against ``spells`` (default: the bundled spell cards)."""
    if path is None and spells is None:
        return dict(_bundled_items())
    return dict(
        parse_items(ITEMS_FILE if path is None else path, load_spells() if spells is None else spells)
    )
