"""Typed field readers for TOML content: each one either returns a clean value or raises ContentError.

A :class:`Checker` is bound to one file; every reader takes the dotted key of the value it reads
(``door[2].between``) so that the error names the file, the key and what was expected.
"""

from __future__ import annotations

import re
import tomllib
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from .model import HEIGHT, WIDTH, ContentError, ContentWarning, Square

_IDENT = re.compile(r"^[a-z][a-z0-9_]*$")


def sub(key: str, name: str | int) -> str:
    """The key of a child value: ``sub("door[2]", "between")`` is ``door[2].between``, ints index."""
    if isinstance(name, int):
        return f"{key}[{name}]"
    return f"{key}.{name}" if key else name


def _type_name(value: Any) -> str:
    return type(value).__name__


class Checker:
    """Reads values out of one content file, raising ``ContentError(file, key, reason)`` on any problem."""

    def __init__(self, file: str | Path) -> None:
        self.file = str(file)

    def fail(self, key: str, reason: str) -> NoReturn:
        raise ContentError(self.file, key, reason)

    def warn(self, key: str, reason: str) -> None:
        warnings.warn(ContentWarning(self.file, key, reason), stacklevel=4)

    def load_toml(self) -> dict[str, Any]:
        """Parse the file as TOML (a missing file raises the usual ``FileNotFoundError``)."""
        with open(self.file, "rb") as handle:
            try:
                return tomllib.load(handle)
            except tomllib.TOMLDecodeError as err:
                self.fail("toml", f"invalid TOML: {err}")

    def table(
        self, key: str, value: Any, required: Sequence[str], optional: Sequence[str] = ()
    ) -> dict[str, Any]:
        """A table with exactly the given keys: unknown keys (typos) and missing keys are errors."""
        where = key or "top level"
        if not isinstance(value, dict):
            self.fail(where, f"expected a table, got {_type_name(value)}")
        allowed = (*required, *optional)
        for name in value:
            if name not in allowed:
                self.fail(sub(key, name), f"unknown key; expected one of: {', '.join(allowed)}")
        for name in required:
            if name not in value:
                self.fail(sub(key, name), "missing required key")
        return value

    def array(self, key: str, value: Any, min_len: int = 0, max_len: int | None = None) -> list[Any]:
        if not isinstance(value, list):
            self.fail(key, f"expected an array, got {_type_name(value)}")
        if len(value) < min_len:
            self.fail(key, f"expected at least {min_len} entries, got {len(value)}")
        if max_len is not None and len(value) > max_len:
            self.fail(key, f"expected at most {max_len} entries, got {len(value)}")
        return value

    def integer(self, key: str, value: Any, lo: int, hi: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(key, f"expected an integer, got {_type_name(value)}")
        if not lo <= value <= hi:
            self.fail(key, f"{value} is out of range; expected {lo}..{hi}")
        return value

    def boolean(self, key: str, value: Any) -> bool:
        if not isinstance(value, bool):
            self.fail(key, f"expected true or false, got {_type_name(value)}")
        return value

    def text(self, key: str, value: Any) -> str:
        if not isinstance(value, str):
            self.fail(key, f"expected a string, got {_type_name(value)}")
        if not value.strip():
            self.fail(key, "expected a non-empty string")
        return value

    def ident(self, key: str, value: Any) -> str:
        """A lower-case identifier such as ``giant_rat``."""
        if not _IDENT.match(self.text(key, value)):
            self.fail(key, f"{value!r} is not an identifier; expected lower-case letters, digits and _")
        return value

    def choice(self, key: str, value: Any, allowed: Iterable[str], what: str) -> str:
        allowed = tuple(allowed)
        if self.text(key, value) not in allowed:
            expected = ", ".join(allowed) if allowed else "none defined yet"
            self.fail(key, f"unknown {what} {value!r}; expected one of: {expected}")
        return value

    def choices(self, key: str, value: Any, allowed: Iterable[str], what: str) -> tuple[str, ...]:
        """A list of distinct values, each one of ``allowed``."""
        allowed = tuple(allowed)
        items = [self.choice(sub(key, i), v, allowed, what) for i, v in enumerate(self.array(key, value))]
        self.distinct(key, items)
        return tuple(items)

    def idents(self, key: str, value: Any) -> tuple[str, ...]:
        items = [self.ident(sub(key, i), v) for i, v in enumerate(self.array(key, value))]
        self.distinct(key, items)
        return tuple(items)

    def distinct(self, key: str, items: Sequence[Any]) -> None:
        seen: dict[Any, int] = {}
        for i, item in enumerate(items):
            if item in seen:
                self.fail(sub(key, i), f"duplicate {_show(item)} (same as {sub(key, seen[item])})")
            seen[item] = i

    def square(self, key: str, value: Any) -> Square:
        """An ``[x, y]`` pair of integers on the board."""
        if not (isinstance(value, list) and len(value) == 2):
            self.fail(key, f"expected an [x, y] pair of integers, got {value!r}")
        for v in value:
            if not isinstance(v, int) or isinstance(v, bool):
                self.fail(key, f"expected an [x, y] pair of integers, got {value!r}")
        x, y = value
        if not (0 <= x < WIDTH and 0 <= y < HEIGHT):
            self.fail(key, f"{_show((x, y))} is off the board; expected x 0..{WIDTH - 1}, y 0..{HEIGHT - 1}")
        return (x, y)

    def squares(
        self, key: str, value: Any, min_len: int = 1, max_len: int | None = None
    ) -> tuple[Square, ...]:
        """A list of distinct ``[x, y]`` squares."""
        items = self.array(key, value, min_len, max_len)
        out = [self.square(sub(key, i), v) for i, v in enumerate(items)]
        self.distinct(key, out)
        return tuple(out)


def _show(item: Any) -> str:
    if isinstance(item, tuple) and len(item) == 2 and all(isinstance(v, int) for v in item):
        return f"square ({item[0]}, {item[1]})"
    return repr(item)


def show_square(square: Square) -> str:
    return _show(square)
