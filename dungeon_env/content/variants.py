"""Rule and content variants: "what changes if I change rule X?" without editing code.

A :class:`Variant` is a named set of overrides, each a dotted key and a value::

    v = Variant.parse(["light.start=15", "monsters.orc.fight=3", "heroes.bram.traits=+perceptive"],
                      name="light15")
    game = Game.new(adventure="flooded_cellar", heroes=3, seed=1, variant=v)
    env = dungeon_env.env(adventure="flooded_cellar", variant=["light.start=15"])

Keys (``docs/VARIANTS.md`` lists every one with its type, range and default; ``python -m
dungeon_env.content.variants`` prints that page):

- ``light.*`` and ``rules.*``: the rules' numeric constants (:class:`~dungeon_env.content.rules.Rules`,
  read by the engine as ``game.rules``): Light, the d6 bands of the checks, recovery, Stamina limits,
  carrying limits.
- ``heroes.<id>.<stat>`` and ``monsters.<id>.<stat>`` (move, fight, damage, health, stamina, magic);
  ``heroes.<id>.traits``, ``heroes.<id>.spells`` (starting spells), ``monsters.<id>.abilities``;
  ``heroes.<id>.abilities.<k>.effect.amount`` (``.effect.duration`` where it has one) and, for an
  Active ability used per adventure, ``heroes.<id>.abilities.<k>.uses`` (k = its place on the card).
- ``spells.<id>.level``, ``.range``, ``.effect.amount``, ``.effect.duration``, ``.overcast.amount``,
  ``.overcast.duration``; ``items.<id>.copies``, ``.effect.amount``, ``.effect.duration`` (where the
  card has that part); ``adventures.<id>.difficulty``.

Values: integers; a list key takes ``+x`` (add), ``-x`` (remove), ``+x,-y`` (both) or ``x,y``
(replace; empty: no entries). Overridden cards pass the same validation as the content files, and
every mistake (unknown key or id, unknown trait, a value of the wrong type or out of range, a
malformed ``key=value``) raises :class:`VariantError` naming the key, the value and what is expected.

A variant file is TOML: an optional ``name = "..."`` and a ``[set]`` table of ``"dotted.key" = value``
entries or nested tables (``[set.heroes.bram]`` ``fight = 7``); a list value may be a TOML array
(replace) or a string in the syntax above. ``to_json()`` gives the same shape.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ._variant_cards import (
    CARD_SECTIONS,
    SECTIONS,
    KeySpec,
    ListEdit,
    VariantContent,
    VariantError,
    build,
    key_specs,
    raw_entries,
    show,
)
from .rules import BASE_RULES, RULE_KEYS, Rules

BASE_NAME = "base"
_SINGULAR = {"traits": "trait", "spells": "spell", "abilities": "ability"}
_INT = re.compile(r"[+-]?\d+")

__all__ = [
    "BASE_RULES",
    "KeySpec",
    "ListEdit",
    "Rules",
    "Variant",
    "VariantContent",
    "VariantError",
    "key_specs",
    "keys_markdown",
]


# ------------------------------------------------------------------------------------------ keys


def _close(word: str, choices: Iterable[str]) -> str:
    matches = difflib.get_close_matches(word, list(choices), n=3, cutoff=0.6)
    return f"; did you mean {' or '.join(matches)}?" if matches else ""


def _listing(choices: Iterable[str]) -> str:
    return ", ".join(choices)


def spec_of(key: Any) -> KeySpec:
    """The spec of a key, or a :class:`VariantError` listing the valid choices at the first wrong part."""
    specs = key_specs()
    if not isinstance(key, str):
        raise VariantError(f"{key!r}: a variant key is a string such as light.start")
    if key in specs:
        return specs[key]
    parts = key.split(".")
    section = parts[0]
    if section not in SECTIONS:
        near = difflib.get_close_matches(key, list(specs), n=3, cutoff=0.8)
        if near:
            raise VariantError(f"{key}: unknown key; did you mean {' or '.join(near)}?")
        return _fail_key(key, f"unknown section {section!r}; expected one of: {_listing(SECTIONS)}", SECTIONS)
    if section in ("light", "rules"):
        names = [k.split(".", 1)[1] for k in RULE_KEYS if k.startswith(section + ".")]
        reason = f"unknown key; the {section} keys are {section}.<name> with name one of: {_listing(names)}"
        return _fail_key(key, reason, names, ".".join(parts[1:]))
    what = CARD_SECTIONS.get(section, "adventure")
    ids = raw_entries()[section] if section in CARD_SECTIONS else _adventure_ids()
    if len(parts) < 3:
        raise VariantError(f"{key}: expected {section}.<id>.<field>, e.g. {specs_of(section)[0].key}")
    ident, name = parts[1], ".".join(parts[2:])
    if ident not in ids:
        return _fail_key(key, f"unknown {what} id {ident!r}; expected one of: {_listing(ids)}", ids, ident)
    fields = [s.key.split(".", 2)[2] for s in specs_of(section) if s.ident == ident]
    reason = f"unknown field {name!r} of {what} {ident!r}; expected one of: {_listing(fields)}"
    return _fail_key(key, reason, fields, name)


def _fail_key(key: str, reason: str, choices: Iterable[str], word: str | None = None) -> KeySpec:
    raise VariantError(f"{key}: {reason}{_close(word or key.split('.')[0], choices)}")


def specs_of(section: str) -> list[KeySpec]:
    return [s for s in key_specs().values() if s.key.startswith(section + ".")]


def _adventure_ids() -> list[str]:
    return [s.ident for s in specs_of("adventures")]


# ------------------------------------------------------------------------------------------ values


def _integer(spec: KeySpec, value: Any) -> int:
    if isinstance(value, str) and _INT.fullmatch(value.strip()):
        value = int(value.strip())
    if not isinstance(value, int) or isinstance(value, bool):
        raise VariantError(f"{spec.key}={show(value)}: expected {spec.expected}")
    if not spec.lo <= value <= spec.hi:
        raise VariantError(f"{spec.key}={show(value)}: out of range; expected {spec.expected}")
    return value


def _entries_of(spec: KeySpec, value: Any) -> tuple[list[str], bool]:
    """The items of a list value and whether they are signed edits (``+a``/``-a``)."""
    if isinstance(value, list | tuple):
        if not all(isinstance(v, str) for v in value):
            raise VariantError(f"{spec.key}={show(value)}: expected {spec.expected}")
        return [v.strip() for v in value], False
    if not isinstance(value, str):
        raise VariantError(f"{spec.key}={show(value)}: expected {spec.expected}")
    if not value.strip():
        return [], False
    items = [v.strip() for v in value.split(",")]
    signed = [v[:1] in ("+", "-") for v in items]
    if any(signed) and not all(signed):
        raise VariantError(
            f"{spec.key}={show(value)}: mixes edits and a replacement; write every entry as +x/-x "
            "(edit the card's list) or none (replace it)"
        )
    return items, all(signed)


def _check_item(spec: KeySpec, value: Any, item: str) -> str:
    if item not in spec.choices:
        what = _SINGULAR[spec.key.rsplit(".", 1)[1]]
        expected = _listing(spec.choices) if spec.choices else "(none defined)"
        raise VariantError(
            f"{spec.key}={show(value)}: unknown {what} {item!r}; expected one of: {expected}"
            + _close(item, spec.choices)
        )
    return item


def _ordered(spec: KeySpec, items: Iterable[str]) -> tuple[str, ...]:
    wanted = set(items)
    return tuple(c for c in spec.choices if c in wanted)


def _list_edit(spec: KeySpec, value: Any, current: tuple[str, ...] | None = None) -> ListEdit:
    """A list value as an edit; ``+x`` must be missing from, ``-x`` present in ``current`` (the
    card's list, or what earlier entries of the same key made of it)."""
    if isinstance(value, ListEdit):
        value = str(value)
    items, signed = _entries_of(spec, value)
    names = [_check_item(spec, value, item[1:] if signed else item) for item in items]
    if len(set(names)) != len(names):
        raise VariantError(f"{spec.key}={show(value)}: an entry is given twice; expected {spec.expected}")
    if not signed:
        return ListEdit(replace=_ordered(spec, names))
    base, card = spec.default if current is None else current, spec.ident
    add = [n for item, n in zip(items, names, strict=True) if item[0] == "+"]
    remove = [n for item, n in zip(items, names, strict=True) if item[0] == "-"]
    for name in add:
        if name in base:
            raise VariantError(f"{spec.key}={show(value)}: {card} already has {name!r}; it has {_have(base)}")
    for name in remove:
        if name not in base:
            raise VariantError(f"{spec.key}={show(value)}: {card} has no {name!r}; it has {_have(base)}")
    return ListEdit(add=_ordered(spec, add), remove=_ordered(spec, remove))


def _have(items: tuple[str, ...]) -> str:
    return _listing(items) if items else "none"


def normalise(spec: KeySpec, value: Any) -> int | ListEdit:
    """A value checked against its key: an int in range, or a :class:`ListEdit` of known entries."""
    return _integer(spec, value) if spec.kind == "int" else _list_edit(spec, value)


def _compose(spec: KeySpec, first: Any, second: Any) -> Any:
    """Two values of one key applied in turn; for a list, one edit relative to the card (None: no change)."""
    if spec.kind == "int":
        return second
    if second.replace is not None:
        return second
    if first.replace is not None:
        return ListEdit(replace=_ordered(spec, second.apply(first.replace)))
    result = second.apply(first.apply(spec.default))
    add = _ordered(spec, (x for x in result if x not in spec.default))
    remove = _ordered(spec, (x for x in spec.default if x not in result))
    return ListEdit(add=add, remove=remove) if add or remove else None


# ------------------------------------------------------------------------------------------ Variant


class Variant:
    """A named set of overrides of the rules' constants and the content's cards (see the module doc).

    ``Variant()`` (or ``Variant.base()``) is the rules as written. ``Variant({"light.start": 15},
    name=...)`` takes a mapping of keys to values; :meth:`parse` takes ``key=value`` strings,
    :meth:`from_file` a TOML file and :meth:`from_json` the dict of :meth:`to_json`. Immutable,
    hashable and compared by name and overrides; false when it overrides nothing.
    """

    __slots__ = ("_name", "_overrides", "_key")

    def __init__(self, overrides: Mapping[str, Any] | None = None, name: str | None = None) -> None:
        if overrides is not None and not isinstance(overrides, Mapping):
            got = type(overrides).__name__
            raise VariantError(f"overrides: expected a mapping of key to value, got {got}")
        normal = {}
        for key, value in (overrides or {}).items():
            spec = spec_of(key)
            normal[spec.key] = normalise(spec, value)
        self._overrides = dict(sorted(normal.items()))
        self._key = tuple(self._overrides.items())
        self._name = _check_name(name, self.to_args())
        build(self._key)  # validates the cards and rules together (cached for the games that follow)

    # ----- constructors -----
    @classmethod
    def base(cls) -> Variant:
        return cls()

    @classmethod
    def parse(cls, entries: Iterable[str] | str, name: str | None = None) -> Variant:
        """From ``key=value`` strings (a single string is one entry). A list key may be given more
        than once (its edits apply in order); another key twice only with the same value."""
        if isinstance(entries, str):
            entries = [entries]
        if isinstance(entries, Mapping) or not isinstance(entries, Iterable):
            raise VariantError(f"expected a list of 'key=value' strings, got {type(entries).__name__}")
        merged: dict[str, Any] = {}
        for entry in entries:
            key, value = _split(entry)
            spec = spec_of(key)
            if spec.kind == "list":
                before = merged.get(spec.key) or ListEdit()
                edit = _list_edit(spec, value, before.apply(spec.default))
                merged[spec.key] = _compose(spec, before, edit)
            elif merged.setdefault(spec.key, normalise(spec, value)) != normalise(spec, value):
                first = merged[spec.key]
                raise VariantError(
                    f"{spec.key}={show(value)}: given twice with different values ({first} first)"
                )
        return cls({k: v for k, v in merged.items() if v is not None}, name=name)

    @classmethod
    def from_file(cls, path: str | Path) -> Variant:
        """From a TOML file (``name`` optional, default the file's stem; a ``[set]`` table)."""
        path = Path(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except OSError as err:
            raise VariantError(f"{path}: cannot read the variant file ({err.strerror or err})") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
            raise VariantError(f"{path}: invalid TOML: {err}") from None
        try:
            return cls._from_table(data, default_name=path.stem)
        except VariantError as err:
            raise VariantError(f"{path}: {err}") from None

    @classmethod
    def from_json(cls, data: Any) -> Variant:
        """From the dict :meth:`to_json` makes (``{"name": ..., "set": {key: value}}``)."""
        return cls._from_table(data, default_name=None)

    @classmethod
    def coerce(cls, value: Any) -> Variant:
        """A Variant from what the env and ``Game.new`` accept: None (the base rules), a Variant, a
        list of ``key=value`` strings, a :meth:`to_json` dict, or the path of a ``.toml`` file."""
        if value is None:
            return cls()
        if isinstance(value, Variant):
            return value
        if isinstance(value, Path) or (isinstance(value, str) and value.strip().endswith(".toml")):
            return cls.from_file(value)
        if isinstance(value, Mapping):
            return cls.from_json(value)
        if isinstance(value, str | list | tuple):
            return cls.parse(value)
        raise VariantError(
            f"variant: expected None, a Variant, a list of 'key=value' strings, a dict or a .toml path; "
            f"got {type(value).__name__}"
        )

    @classmethod
    def _from_table(cls, data: Any, default_name: str | None) -> Variant:
        if not isinstance(data, Mapping):
            raise VariantError(f"expected a table with 'name' and 'set', got {type(data).__name__}")
        unknown = [k for k in data if k not in ("name", "set")]
        if unknown:
            raise VariantError(f"unknown top-level key {unknown[0]!r}; expected name and a [set] table")
        table = data.get("set", {})
        if not isinstance(table, Mapping):
            raise VariantError(f"set: expected a table of key = value, got {type(table).__name__}")
        flat: dict[str, Any] = {}
        for key, value in _flatten(table):
            if key in flat:
                raise VariantError(f"{key}: given twice ({show(flat[key])} and {show(value)})")
            flat[key] = value
        return cls(flat, name=data.get("name", default_name))

    # ----- views -----
    @property
    def name(self) -> str:
        return self._name

    @property
    def overrides(self) -> dict[str, int | ListEdit]:
        """Key -> normalised value (an int, or a :class:`ListEdit` for list keys), sorted by key."""
        return dict(self._overrides)

    @property
    def rules(self) -> Rules:
        return self.content().rules

    def content(self) -> VariantContent:
        """The rules and the cards this variant plays with (cached)."""
        return build(self._key)

    def to_args(self) -> list[str]:
        """The overrides as ``key=value`` strings (what :meth:`parse` reads back)."""
        return [f"{k}={v}" for k, v in self._overrides.items()]

    def to_json(self) -> dict:
        return {"name": self._name, "set": {k: v if isinstance(v, int) else str(v) for k, v in self._key}}

    def merged(self, other: Variant) -> Variant:
        """This variant with ``other`` on top: ``other`` wins a key both set; list edits apply in turn."""
        if not isinstance(other, Variant):
            raise VariantError(f"merged: expected a Variant, got {type(other).__name__}")
        combined: dict[str, Any] = dict(self._overrides)
        specs = key_specs()
        for key, value in other._overrides.items():
            combined[key] = _compose(specs[key], combined[key], value) if key in combined else value
        name = other.name if not self else self.name if not other else f"{self.name}+{other.name}"
        return Variant({k: v for k, v in combined.items() if v is not None}, name=name)

    # ----- value semantics -----
    def __bool__(self) -> bool:
        return bool(self._overrides)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Variant) and (self._name, self._key) == (other._name, other._key)

    def __hash__(self) -> int:
        return hash((self._name, self._key))

    def __repr__(self) -> str:
        return f"Variant.parse({self.to_args()!r}, name={self._name!r})"


def _split(entry: Any) -> tuple[str, str]:
    if not isinstance(entry, str):
        raise VariantError(f"{entry!r}: expected a 'key=value' string, e.g. light.start=15")
    key, sep, value = entry.partition("=")
    if not sep or not key.strip():
        raise VariantError(f"malformed entry {entry!r}: expected key=value, e.g. light.start=15")
    return key.strip(), value.strip()


def _flatten(table: Mapping, prefix: str = "") -> Iterable[tuple[str, Any]]:
    for key, value in table.items():
        full = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, Mapping):
            yield from _flatten(value, full)
        else:
            yield full, value


def _check_name(name: Any, args: list[str]) -> str:
    if name is None:
        return " ".join(args) if args else BASE_NAME
    if not isinstance(name, str) or not name.strip():
        raise VariantError(f"name={show(name)}: expected a non-empty string")
    return name


# ------------------------------------------------------------------------------------------ the doc


def _table(header: list[str], rows: list[list[str]], align: str = "") -> list[str]:
    rule = [("---:" if c in align else "---") for c in range(len(header))] if align else ["---"] * len(header)
    out = ["| " + " | ".join(header) + " |", "|" + "|".join(rule) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out


def _defaults_table(section: str, fields: list[str]) -> list[str]:
    specs = specs_of(section)
    by_card: dict[str, dict[str, KeySpec]] = {}
    for spec in specs:
        by_card.setdefault(spec.ident, {})[spec.key.split(".", 2)[2]] = spec
    rows = []
    for ident, own in by_card.items():
        cells = []
        for name in fields:
            spec = own.get(name)
            cells.append("—" if spec is None else _value_text(spec.default))
        rows.append([f"`{ident}`", *cells])
    return _table(["id", *[f"`{f}`" for f in fields]], rows)


def _value_text(value: Any) -> str:
    if isinstance(value, tuple):
        return ", ".join(value) if value else "(none)"
    return str(value)


def _field_table(section: str, fields: list[str]) -> list[str]:
    rows = []
    for name in fields:
        spec = next(s for s in specs_of(section) if s.key.split(".", 2)[2] == name)
        rng = spec.range_text if spec.kind == "list" else _range_of(section, name)
        rows.append([f"`{section}.<id>.{name}`", spec.kind, rng, spec.meaning])
    return _table(["key", "type", "range", "meaning"], rows)


def _range_of(section: str, name: str) -> str:
    ranges = {(s.lo, s.hi) for s in specs_of(section) if s.key.split(".", 2)[2] == name}
    return " or ".join(f"{lo}..{hi}" for lo, hi in sorted(ranges))


_PARTS = ("effect.amount", "effect.duration", "overcast.amount", "overcast.duration")


def _section_fields(section: str) -> list[str]:
    seen: dict[str, None] = {}
    for spec in specs_of(section):
        seen.setdefault(spec.key.split(".", 2)[2], None)
    return sorted(seen, key=lambda name: _PARTS.index(name) + 1 if name in _PARTS else 0)


_INTRO = """# Rule and content variants

Generated by `python -m dungeon_env.content.variants` (`dungeon_env.content.variants.keys_markdown()`);
a test keeps this file equal to it.

A variant changes rules constants and cards without editing code: `Variant.parse(["light.start=15"])`,
`Variant.from_file("v.toml")`, `Game.new(..., variant=v)`, `dungeon_env.env(..., variant=["light.start=15"])`.
Integer keys take an integer in the range shown. List keys take `+x` (add), `-x` (remove), `+x,-y`
(both) or `x,y` (replace the list; empty: no entries). Overridden cards must pass the same checks as
the content files (for example a caster's starting spells total no more than its magic, every trait
is held by at least two heroes, a deck holds at most 64 cards). The rulings are V-01.. in
`docs/RULINGS.md`.

```toml
name = "darker"
[set]
"light.start" = 15
"rules.deaths_door_max" = 2
"heroes.bram.traits" = "+perceptive"
[set.monsters.orc]
fight = 4
```
"""


def keys_markdown() -> str:
    """The page ``docs/VARIANTS.md``: every key with its type, range and default."""
    lines = [_INTRO, "## Rules constants", ""]
    rows = [
        [f"`{s.key}`", "int", f"{s.lo}..{s.hi}", str(s.default), s.meaning]
        for s in key_specs().values()
        if s.section == "rules"
    ]
    lines += _table(["key", "type", "range", "default", "meaning"], rows)
    for section, title in (
        ("heroes", "Heroes"),
        ("monsters", "Monsters"),
        ("spells", "Spells"),
        ("items", "Items"),
        ("adventures", "Adventures"),
    ):
        fields = _section_fields(section)
        lines += ["", f"## {title}", ""]
        lines += _field_table(section, fields)
        lines += ["", f"Defaults (— : the card has no such key; {len(specs_of(section))} keys):", ""]
        lines += _defaults_table(section, fields)
    lines += ["", f"{len(key_specs())} keys in all.", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    print(keys_markdown(), end="")
