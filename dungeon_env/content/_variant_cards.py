"""The keys a variant may set, and the cards and rules a set of overrides makes (for ``variants.py``).

``key_specs()`` lists every key (rules constants and card fields) with its type, range and default.
``build(overrides)`` applies normalised overrides to the raw entries of the bundled content files and
runs them through the loaders' own validation, so an overridden card is held to exactly the rules of
the content files; a :class:`~dungeon_env.content.model.ContentError` comes back as a
``VariantError`` naming the variant keys at fault.
"""

from __future__ import annotations

import copy
import functools
import re
import tomllib
from dataclasses import dataclass, field, replace
from typing import Any

from ._abilities import ABILITY_AMOUNTS, MAX_USES
from ._adventure import MAX_DIFFICULTY
from ._checks import Checker
from .cards import (
    AMOUNTS,
    ITEMS_FILE,
    LEVELS,
    MAX_COPIES,
    MAX_DURATION,
    MAX_RANGE,
    MAX_VALUE,
    SPELLS_FILE,
    _check_decks,
    _item,
    _spell,
    check_starting_spells,
    load_items,
    load_spells,
)
from .loader import (
    HERO_STATS,
    HEROES_FILE,
    MONSTER_ABILITIES,
    MONSTER_STATS,
    MONSTERS_FILE,
    _check_roster,
    _hero_card,
    _monster_card,
    adventure_names,
    load_adventure,
    load_heroes,
    load_monsters,
)
from .model import TRAITS, ContentError, HeroCard, ItemCard, MonsterCard, Spell
from .rules import BASE_RULES, RULE_KEYS, RULE_ORDER, Rules, field_of

SECTIONS = ("light", "rules", "heroes", "monsters", "spells", "items", "adventures")
CARD_SECTIONS = {"heroes": "hero", "monsters": "monster", "spells": "spell", "items": "item"}
STATS = tuple(HERO_STATS)  # move, fight, damage, health, stamina, magic


class VariantError(ValueError):
    """A variant that cannot be: the message names the key, the value given and what is expected."""


def show(value: Any) -> str:
    """A value as it appears in ``key=value`` messages (strings quoted, so that "" and " 3" show)."""
    return repr(value) if isinstance(value, str) else str(value)


# ------------------------------------------------------------------------------------------ list edits


@dataclass(frozen=True)
class ListEdit:
    """A change to a list field (traits, starting spells, abilities): ``replace`` it outright, or
    ``add`` and ``remove`` entries. Written ``a,b`` (replace; empty: no entries) or ``+a,-b``."""

    replace: tuple[str, ...] | None = None
    add: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()

    def apply(self, items: tuple[str, ...]) -> tuple[str, ...]:
        if self.replace is not None:
            return self.replace
        kept = tuple(x for x in items if x not in self.remove)
        return kept + tuple(x for x in self.add if x not in kept)

    def __str__(self) -> str:
        if self.replace is not None:
            return ",".join(self.replace)
        return ",".join([*(f"+{x}" for x in self.add), *(f"-{x}" for x in self.remove)])


# ------------------------------------------------------------------------------------------ the keys


@dataclass(frozen=True)
class KeySpec:
    """One key a variant may set. ``kind`` is ``"int"`` (``lo``..``hi``) or ``"list"`` (a subset of
    ``choices``). ``section``, ``ident`` and ``path`` say what it changes: a :class:`Rules` field
    (section ``rules``, ``path`` = (field,)) or a field of the content entry ``ident``."""

    key: str
    kind: str
    default: int | tuple[str, ...]
    lo: int = 0
    hi: int = 0
    choices: tuple[str, ...] = ()
    meaning: str = ""
    section: str = "rules"
    ident: str = ""
    path: tuple[str, ...] = field(default=(), compare=False)

    @property
    def range_text(self) -> str:
        if self.kind == "int":
            return f"{self.lo}..{self.hi}"
        return "subset of: " + (", ".join(self.choices) if self.choices else "(none defined)")

    @property
    def expected(self) -> str:
        if self.kind == "int":
            return f"an integer in {self.lo}..{self.hi}"
        return f"a list of {self.range_text[len('subset of: ') :]} ('a,b' replaces, '+a' adds, '-a' removes)"


@functools.cache
def raw_entries() -> dict[str, dict[str, dict[str, Any]]]:
    """The bundled content files as parsed TOML, by section and id (already known to be valid)."""
    out = {}
    for section, path in (
        ("heroes", HEROES_FILE),
        ("monsters", MONSTERS_FILE),
        ("spells", SPELLS_FILE),
        ("items", ITEMS_FILE),
    ):
        with open(path, "rb") as handle:
            entries = tomllib.load(handle)[CARD_SECTIONS[section]]
        out[section] = {entry["id"]: entry for entry in entries}
    return out


def _effect_specs(section: str, ident: str, part: str, effect: dict, treasure: bool) -> list[KeySpec]:
    specs = []
    if effect.get("amount", 0):
        lo, hi = (1, MAX_VALUE) if treasure else AMOUNTS
        meaning = f"the {part}'s amount" + (" (treasure: its value in gold)" if section == "items" else "")
        specs.append(_card_spec(section, ident, (part, "amount"), effect["amount"], lo, hi, meaning))
    if effect.get("duration", 0):
        meaning = f"the {part}'s duration in turns"
        duration = effect["duration"]
        specs.append(_card_spec(section, ident, (part, "duration"), duration, 0, MAX_DURATION, meaning))
    return specs


def _card_spec(section, ident, path, default, lo, hi, meaning) -> KeySpec:
    key = ".".join((section, ident, *path))
    return KeySpec(key, "int", default, lo, hi, (), meaning, section, ident, tuple(path))


def _ability_specs(ident: str, abilities: list[dict]) -> list[KeySpec]:
    """``heroes.<id>.abilities.<k>.effect.amount`` (and ``.effect.duration`` where non-zero) and, for
    an Active ability used per adventure, ``heroes.<id>.abilities.<k>.uses`` (k = its place)."""
    specs = []
    for k, ability in enumerate(abilities):
        name = f"ability {k} ({ability['id']})"
        parts = [(("effect", "amount"), ability["effect"]["amount"], ABILITY_AMOUNTS, f"{name}: its amount")]
        if ability["effect"].get("duration", 0):
            duration = ability["effect"]["duration"]
            parts.append(
                (("effect", "duration"), duration, (0, MAX_DURATION), f"{name}: its duration in turns")
            )
        if ability["use"] == "active" and ability.get("limit", "adventure") == "adventure":
            parts.append((("uses",), ability.get("uses", 1), (1, MAX_USES), f"{name}: uses per adventure"))
        for path, default, (lo, hi), meaning in parts:
            key = ".".join(("heroes", ident, "abilities", str(k), *path))
            full = ("abilities", k, *path)
            specs.append(KeySpec(key, "int", default, lo, hi, (), meaning, "heroes", ident, full))
    return specs


def _list_spec(section, ident, name, default, choices, meaning) -> KeySpec:
    key = f"{section}.{ident}.{name}"
    return KeySpec(key, "list", tuple(default), 0, 0, tuple(choices), meaning, section, ident, (name,))


def _card_specs() -> list[KeySpec]:
    raw = raw_entries()
    spell_ids = tuple(raw["spells"])
    specs = []
    for ident, e in raw["heroes"].items():
        specs += [_card_spec("heroes", ident, (s,), e[s], *HERO_STATS[s], f"base {s}") for s in STATS]
        specs.append(_list_spec("heroes", ident, "traits", e["traits"], TRAITS, "traits"))
        specs.append(_list_spec("heroes", ident, "spells", e.get("spells", []), spell_ids, "starting spells"))
        specs += _ability_specs(ident, e.get("abilities", []))
    for ident, e in raw["monsters"].items():
        specs += [_card_spec("monsters", ident, (s,), e[s], *MONSTER_STATS[s], f"base {s}") for s in STATS]
        abilities = e.get("abilities", [])
        specs.append(_list_spec("monsters", ident, "abilities", abilities, MONSTER_ABILITIES, "abilities"))
    for ident, e in raw["spells"].items():
        specs.append(_card_spec("spells", ident, ("level",), e["level"], *LEVELS, "level (its Magic cost)"))
        specs.append(_card_spec("spells", ident, ("range",), e["range"], 0, MAX_RANGE, "range in squares"))
        for part in ("effect", "overcast"):
            if part in e:
                specs += _effect_specs("spells", ident, part, e[part], False)
    for ident, e in raw["items"].items():
        copies = e.get("copies", 1)
        specs.append(_card_spec("items", ident, ("copies",), copies, 1, MAX_COPIES, "copies in its deck"))
        if "effect" in e:
            specs += _effect_specs("items", ident, "effect", e["effect"], e["deck"] == "treasure")
    for ident in adventure_names():
        default = load_adventure(ident).difficulty
        meaning = "the difficulty label: no rule reads it (`game.tables.adventure.difficulty`)"
        specs.append(_card_spec("adventures", ident, ("difficulty",), default, 1, MAX_DIFFICULTY, meaning))
    return specs


@functools.cache
def key_specs() -> dict[str, KeySpec]:
    """Every key a variant may set, rules first, then the cards in file order."""
    specs = []
    for key, (lo, hi, meaning) in RULE_KEYS.items():
        name = field_of(key)
        default = getattr(BASE_RULES, name)
        specs.append(KeySpec(key, "int", default, lo, hi, (), meaning, "rules", "", (name,)))
    return {spec.key: spec for spec in specs + _card_specs()}


# ------------------------------------------------------------------------------------------ building


@dataclass(frozen=True, eq=False)
class VariantContent:
    """What a variant plays with: the rules' constants and the cards (dicts by id, file order)."""

    rules: Rules
    heroes: dict[str, HeroCard]
    monsters: dict[str, MonsterCard]
    spells: dict[str, Spell]
    items: dict[str, ItemCard]
    difficulty: dict[str, int]  # adventure id -> overridden difficulty


def _patched(section: str, overrides: list[tuple[KeySpec, Any]]) -> dict[str, dict[str, Any]]:
    entries = copy.deepcopy(raw_entries()[section])
    for spec, value in overrides:
        target = entries[spec.ident]
        *parents, last = spec.path
        for name in parents:
            target = target[name]
        if spec.kind == "list":
            target[last] = list(value.apply(tuple(target.get(last, []))))
        else:
            target[last] = value
    return entries


_INDEXED = re.compile(r"^hero\[(\d+)\]")


def _explain(err: ContentError, overrides: list[tuple[KeySpec, Any]], ids: list[str]) -> VariantError:
    """A content error raised by validating overridden cards, told in terms of the variant's keys."""
    key = _INDEXED.sub(lambda m: f"heroes.{ids[int(m.group(1))]}", err.key)
    given = {spec.key: str(v) if isinstance(v, ListEdit) else v for spec, v in overrides}
    if key in given:
        return VariantError(f"{key}={show(given[key])}: {err.reason}")
    parts = key.split(".")
    card = ".".join(parts[:2]) + "." if len(parts) > 2 else None
    involved = {k: v for k, v in given.items() if card and k.startswith(card)} or given
    shown = ", ".join(f"{k}={show(v)}" for k, v in involved.items())
    return VariantError(f"{shown}: {err.reason}" + (f" ({key})" if card else ""))


def _validated(make, overrides, ids=()):
    try:
        return make()
    except ContentError as err:
        raise _explain(err, overrides, list(ids)) from None


def _rules(overrides: list[tuple[KeySpec, Any]]) -> Rules:
    rules = replace(BASE_RULES, **{spec.path[0]: value for spec, value in overrides})
    for low, high, why in RULE_ORDER:
        a, b = getattr(rules, field_of(low)), getattr(rules, field_of(high))
        start = low == "light.start"
        if a > b or (a == b and not start):
            relation = "at most" if start else "below"
            raise VariantError(f"{low}={a}, {high}={b}: {low} must be {relation} {high}; {why}")
    return rules


def _heroes(overrides, spells: dict[str, Spell], spell_overrides) -> dict[str, HeroCard]:
    ck = Checker("variant")
    entries = _patched("heroes", overrides)
    ids = list(entries)

    def make():
        heroes = {ident: _hero_card(ck, f"heroes.{ident}", entry) for ident, entry in entries.items()}
        _check_roster(ck, heroes)
        check_starting_spells(heroes, spells, "variant")
        return heroes

    return _validated(make, overrides + spell_overrides, ids)


def _monsters(overrides) -> dict[str, MonsterCard]:
    ck = Checker("variant")
    entries = _patched("monsters", overrides)
    make = lambda: {i: _monster_card(ck, f"monsters.{i}", e) for i, e in entries.items()}  # noqa: E731
    return _validated(make, overrides)


def _spells(overrides) -> dict[str, Spell]:
    ck = Checker("variant")
    entries = _patched("spells", overrides)
    return _validated(lambda: {i: _spell(ck, f"spells.{i}", e) for i, e in entries.items()}, overrides)


def _items(overrides, spells: dict[str, Spell]) -> dict[str, ItemCard]:
    ck = Checker("variant")
    entries = _patched("items", overrides)

    def make():
        items = {i: _item(ck, f"items.{i}", e, spells) for i, e in entries.items()}
        _check_decks(ck, items)
        return items

    return _validated(make, overrides)


@functools.lru_cache(maxsize=256)
def build(overrides: tuple[tuple[str, Any], ...]) -> VariantContent:
    """The rules and cards of a variant (normalised ``(key, value)`` pairs, sorted); cached."""
    specs = key_specs()
    by = {section: [] for section in ("rules", "heroes", "monsters", "spells", "items", "adventures")}
    for key, value in overrides:
        spec = specs[key]
        by[spec.section].append((spec, value))
    spells = _spells(by["spells"]) if by["spells"] else load_spells()
    heroes = _heroes(by["heroes"], spells, by["spells"]) if by["heroes"] or by["spells"] else load_heroes()
    return VariantContent(
        rules=_rules(by["rules"]) if by["rules"] else BASE_RULES,
        heroes=heroes,
        monsters=_monsters(by["monsters"]) if by["monsters"] else load_monsters(),
        spells=spells,
        items=_items(by["items"], spells) if by["items"] else load_items(),
        difficulty={spec.ident: value for spec, value in by["adventures"]},
    )
