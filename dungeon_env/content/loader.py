"""Load and validate the content files: the board map, hero and monster cards and the adventures.

Every problem raises :class:`ContentError` naming the file, the key (``hero[3].traits``, ``row 5``,
``door[2].between``) and what was wrong. Loading the bundled files (no path given) is cached; the
returned dicts are fresh copies, the cards are frozen and the board's array is read-only.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np

from ._abilities import check_unique_abilities, parse_abilities
from ._adventure import parse_adventure, reachable_squares
from ._checks import Checker, sub
from .cards import check_starting_spells, load_spells
from .model import (
    ENCOUNTER_TYPES,
    HEIGHT,
    TRAITS,
    WIDTH,
    Adventure,
    Board,
    ContentError,
    HeroCard,
    MonsterCard,
)

CONTENT_DIR = Path(__file__).resolve().parent
BOARD_FILE = CONTENT_DIR / "board.txt"
HEROES_FILE = CONTENT_DIR / "heroes.toml"
MONSTERS_FILE = CONTENT_DIR / "monsters.toml"
ADVENTURES_DIR = CONTENT_DIR / "adventures"

ROOM_CHARS = "ABCDEFGHIJKLMNOP"
CORRIDOR_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"  # also the order of corridor areas in Board

# Monster ability vocabulary: an ability the engine does not know is a content error, not silently
# ignored. Hero abilities are structured effects (``content/_abilities.py``).
MONSTER_ABILITIES: tuple[str, ...] = ("mental_combat",)

# Allowed (inclusive) ranges of the card stats, in card order.
HERO_STATS = {
    "move": (4, 6),
    "fight": (3, 7),
    "damage": (1, 3),
    "health": (5, 12),
    "stamina": (3, 7),
    "magic": (0, 5),
}
MONSTER_STATS = {
    "move": (1, 10),
    "fight": (0, 12),
    "damage": (1, 6),
    "health": (1, 40),
    "stamina": (0, 10),
    "magic": (0, 10),
}
ROSTER_SIZE = 10
N_CASTERS = 2
MIN_CASTER_MAGIC = 3
MIN_TRAIT_HOLDERS = 2
MIN_MAGIC_NON_CASTERS = 2  # "other heroes can pick [spells] up": several non-casters with Magic >= 1

__all__ = [
    "adventure_names",
    "load_adventure",
    "load_board",
    "load_heroes",
    "load_monsters",
    "parse_adventure",
    "parse_board",
    "parse_heroes",
    "parse_monsters",
    "reachable_squares",
]


# ----------------------------------------------------------------------------------------------- board


def _map_rows(text: str) -> list[str]:
    """The map lines: leading ``#`` comment lines and blank lines are skipped, as are trailing blanks."""
    lines = text.splitlines()
    while lines and (not lines[0].strip() or lines[0].startswith("#")):
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def _check_row(ck: Checker, y: int, row: str) -> None:
    if len(row) != WIDTH:
        ck.fail(f"row {y}", f"expected {WIDTH} characters, got {len(row)}")
    for x, char in enumerate(row):
        if char not in ROOM_CHARS and char not in CORRIDOR_CHARS:
            ck.fail(
                f"row {y}",
                f"unknown character {char!r} at x={x}; expected a room letter A-P or a corridor id a-z/0-9",
            )


def _check_room(ck: Checker, chars: np.ndarray, letter: str) -> None:
    ys, xs = np.nonzero(chars == letter)
    if len(ys) == 0:
        ck.fail(f"room {letter}", "missing from the map; the board needs exactly the 16 rooms A-P")
    y0, y1, x0, x1 = ys.min(), ys.max(), xs.min(), xs.max()
    if not (chars[y0 : y1 + 1, x0 : x1 + 1] == letter).all():
        ck.fail(f"room {letter}", f"not a filled rectangle (its bounding box is x {x0}..{x1}, y {y0}..{y1})")


def _is_connected(mask: np.ndarray) -> bool:
    """Whether the True cells of ``mask`` form one orthogonally connected group."""
    cells = set(zip(*np.nonzero(mask), strict=True))
    todo = [next(iter(cells))]
    seen = set(todo)
    while todo:
        y, x = todo.pop()
        for nb in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(cells)


def _corridor_ids(ck: Checker, chars: np.ndarray) -> tuple[str, ...]:
    present = tuple(c for c in CORRIDOR_CHARS if (chars == c).any())
    for char in present:
        if not _is_connected(chars == char):
            ck.fail(f"corridor {char!r}", "squares are not connected; a segment is one connected strip")
    return present


def parse_board(path: str | Path) -> Board:
    """Read and validate a board map (see ``board.txt`` for the format)."""
    ck = Checker(path)
    rows = _map_rows(Path(path).read_text(encoding="utf-8"))
    if len(rows) != HEIGHT:
        ck.fail("rows", f"expected {HEIGHT} map rows, got {len(rows)}")
    for y, row in enumerate(rows):
        _check_row(ck, y, row)
    chars = np.array([list(row) for row in rows])
    for letter in ROOM_CHARS:
        _check_room(ck, chars, letter)
    names = (*ROOM_CHARS, *_corridor_ids(ck, chars))
    index = {name: i for i, name in enumerate(names)}
    area = np.array([[index[c] for c in row] for row in rows], dtype=np.int16)
    area.flags.writeable = False
    return Board(area=area, area_names=names, n_rooms=len(ROOM_CHARS))


# ----------------------------------------------------------------------------------------------- cards


def _stats(ck: Checker, key: str, entry: dict[str, Any], ranges: dict[str, tuple[int, int]]) -> dict:
    return {name: ck.integer(sub(key, name), entry[name], lo, hi) for name, (lo, hi) in ranges.items()}


def _entries(ck: Checker, name: str) -> list[Any]:
    """The ``[[name]]`` array of tables that is the file's only top-level key."""
    data = ck.table("", ck.load_toml(), required=(name,))
    return ck.array(name, data[name], min_len=1)


def _add_unique(ck: Checker, key: str, cards: dict[str, Any], card: Any) -> None:
    if card.id in cards:
        first = list(cards).index(card.id)
        ck.fail(sub(key, "id"), f"duplicate id {card.id!r} (same as entry {first})")
    cards[card.id] = card


def _hero_card(ck: Checker, key: str, entry: Any) -> HeroCard:
    entry = ck.table(key, entry, ("id", "name", *HERO_STATS, "traits"), ("spells", "abilities", "caster"))
    stats = _stats(ck, key, entry, HERO_STATS)
    caster = ck.boolean(sub(key, "caster"), entry.get("caster", False))
    spells = ck.idents(sub(key, "spells"), entry.get("spells", []))
    if spells and not caster:
        ck.fail(sub(key, "spells"), "only the two casters (caster = true) start with spells")
    if caster and stats["magic"] < MIN_CASTER_MAGIC:
        ck.fail(sub(key, "magic"), f"a caster needs base magic >= {MIN_CASTER_MAGIC}")
    return HeroCard(
        id=ck.ident(sub(key, "id"), entry["id"]),
        name=ck.text(sub(key, "name"), entry["name"]),
        **stats,
        traits=ck.choices(sub(key, "traits"), entry["traits"], TRAITS, "trait"),
        spells=spells,
        abilities=parse_abilities(ck, sub(key, "abilities"), entry.get("abilities", [])),
        caster=caster,
    )


def _check_roster(ck: Checker, heroes: dict[str, HeroCard]) -> None:
    """The roster constraints of the rules (checklist section D)."""
    cards = list(heroes.values())
    if len(cards) != ROSTER_SIZE:
        ck.fail("hero", f"expected exactly {ROSTER_SIZE} heroes, got {len(cards)}")
    for trait in TRAITS:
        holders = sum(trait in card.traits for card in cards)
        if holders < MIN_TRAIT_HOLDERS:
            ck.fail("hero", f"trait {trait!r} is held by {holders} hero(es); every trait needs >= 2")
    casters = sum(card.caster for card in cards)
    if casters != N_CASTERS:
        ck.fail("hero", f"expected exactly {N_CASTERS} casters (caster = true), got {casters}")
    magic_users = sum(card.magic >= 1 and not card.caster for card in cards)
    if magic_users < MIN_MAGIC_NON_CASTERS:
        ck.fail("hero", f"expected >= {MIN_MAGIC_NON_CASTERS} non-casters with magic >= 1, got {magic_users}")
    check_unique_abilities(ck, heroes)


def parse_heroes(path: str | Path) -> dict[str, HeroCard]:
    """Read and validate a hero roster (``[[hero]]`` tables), keyed by id in file order."""
    ck = Checker(path)
    heroes: dict[str, HeroCard] = {}
    for i, entry in enumerate(_entries(ck, "hero")):
        _add_unique(ck, f"hero[{i}]", heroes, _hero_card(ck, f"hero[{i}]", entry))
    _check_roster(ck, heroes)
    return heroes


def _monster_card(ck: Checker, key: str, entry: Any) -> MonsterCard:
    entry = ck.table(key, entry, ("id", "name", *MONSTER_STATS, "encounter"), ("abilities",))
    return MonsterCard(
        id=ck.ident(sub(key, "id"), entry["id"]),
        name=ck.text(sub(key, "name"), entry["name"]),
        **_stats(ck, key, entry, MONSTER_STATS),
        encounter=ck.choice(sub(key, "encounter"), entry["encounter"], ENCOUNTER_TYPES, "encounter"),
        abilities=ck.choices(sub(key, "abilities"), entry.get("abilities", []), MONSTER_ABILITIES, "ability"),
    )


def parse_monsters(path: str | Path) -> dict[str, MonsterCard]:
    """Read and validate monster cards (``[[monster]]`` tables), keyed by id in file order."""
    ck = Checker(path)
    monsters: dict[str, MonsterCard] = {}
    for i, entry in enumerate(_entries(ck, "monster")):
        _add_unique(ck, f"monster[{i}]", monsters, _monster_card(ck, f"monster[{i}]", entry))
    return monsters


# ------------------------------------------------------------------------------------------ public API


@functools.lru_cache(maxsize=1)
def _bundled_board() -> Board:
    return parse_board(BOARD_FILE)


@functools.lru_cache(maxsize=1)
def _bundled_heroes() -> dict[str, HeroCard]:
    heroes = parse_heroes(HEROES_FILE)
    check_starting_spells(heroes, load_spells(), str(HEROES_FILE))
    return heroes


@functools.lru_cache(maxsize=1)
def _bundled_monsters() -> dict[str, MonsterCard]:
    return parse_monsters(MONSTERS_FILE)


@functools.cache
def _bundled_adventure(name: str) -> Adventure:
    return parse_adventure(ADVENTURES_DIR / f"{name}.toml", _bundled_board(), _bundled_monsters())


def load_board(path: str | Path | None = None) -> Board:
    """The board; the bundled ``board.txt`` when ``path`` is None (cached)."""
    return _bundled_board() if path is None else parse_board(path)


def load_heroes(path: str | Path | None = None) -> dict[str, HeroCard]:
    """The hero cards by id, in file order; the bundled ``heroes.toml`` when ``path`` is None."""
    heroes = _bundled_heroes() if path is None else parse_heroes(path)
    if path is not None:
        check_starting_spells(heroes, load_spells(), str(path))
    return dict(heroes)


def load_monsters(path: str | Path | None = None) -> dict[str, MonsterCard]:
    """The monster cards by id, in file order; the bundled ``monsters.toml`` when ``path`` is None."""
    return dict(_bundled_monsters() if path is None else parse_monsters(path))


def _bundled_ids() -> list[str]:
    return sorted(path.stem for path in ADVENTURES_DIR.glob("*.toml"))


def adventure_names() -> list[str]:
    """The bundled adventure ids, easiest first (by difficulty, then id)."""
    return sorted(_bundled_ids(), key=lambda name: (_bundled_adventure(name).difficulty, name))


def _is_path(name_or_path: str | Path) -> bool:
    text = str(name_or_path)
    return isinstance(name_or_path, Path) or text.endswith(".toml") or "/" in text or "\\" in text


def _is_bundled(board: Board | None, monsters: dict[str, MonsterCard] | None) -> bool:
    """Whether these arguments mean the bundled board and monsters (so the cached load can be used)."""
    return (board is None or board is _bundled_board()) and (
        monsters is None or monsters == _bundled_monsters()
    )


def load_adventure(
    name_or_path: str | Path,
    board: Board | None = None,
    monsters: dict[str, MonsterCard] | None = None,
) -> Adventure:
    """An adventure, by bundled id (e.g. ``"flooded_cellar"``) or by path to a ``.toml`` file.

    ``board`` and ``monsters`` default to the bundled ones; a bundled id checked against the bundled board
    and monsters is cached (the same frozen object each time).
    """
    if not _is_path(name_or_path):
        name = str(name_or_path)
        if name not in _bundled_ids():
            known = ", ".join(_bundled_ids())
            raise ContentError("adventures", "id", f"no bundled adventure {name!r}; known: {known}")
        if _is_bundled(board, monsters):
            return _bundled_adventure(name)
        name_or_path = ADVENTURES_DIR / f"{name}.toml"
    board = load_board() if board is None else board
    monsters = load_monsters() if monsters is None else monsters
    return parse_adventure(name_or_path, board, monsters)
