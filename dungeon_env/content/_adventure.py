"""Parse and validate one adventure file (``adventures/*.toml``).

Top-level keys: ``id`` (= file stem), ``name``, ``difficulty``, ``goal``, ``start``, ``patrol``,
``objective`` (required); ``exits`` (without it the start squares, R-END-02, with a ContentWarning),
``blockages``, ``secret_rooms``, ``door``, ``furniture``, ``guard``, ``ambush``, ``trap``, ``event``,
``final`` (optional). Squares are ``[x, y]`` pairs; effects are tables ``{kind, amount, duration}``
(kinds: model.EFFECT_KINDS).

- ``[[door]]``: ``between`` (two squares), ``secret`` (a wall until an event of kind ``secret``
  reveals it; every secret door needs one).
- ``[[trap]]``: ``at``, ``name``, ``effect``, ``blocks`` (a sprung trap stays as a hazard that blocks
  movement, e.g. a pit).
- ``[[event]]`` (room and corridor text, rulings A-59/A-60): ``area``, ``scope`` (``all`` or
  ``exploring``), ``kind``, ``text`` and the keys of its kind: ``effect`` (``effect``), ``check``
  (``options``: one option with a ``trait``), ``choice`` (``options``: 2-4), ``item`` (``item`` or
  ``deck``; scope ``exploring``), ``detect`` (none), ``ambush`` (``monsters``, ``at``), ``secret``
  (``door``: the index of a secret door next to the area). An option has ``text`` and optionally
  ``effect``, ``trait`` (a check: d6, +1 with the trait, 4-6 succeeds), ``fail`` (the effect of a
  failed check), ``item`` or ``deck`` (a find on success).
- ``[[objective]]``: ``kind`` (``escape``, ``slay`` + ``at``, ``reach`` + ``area``, ``retrieve`` +
  ``item``: carry an item of that card out, ``claim`` + ``item``: a hero takes an item of that card,
  ``rescue`` + ``area``: explore that area and escape),
  ``text``, ``primary``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ._checks import Checker, show_square, sub
from .model import (
    DECKS,
    EFFECT_KINDS,
    TRAITS,
    Adventure,
    Ambush,
    Board,
    Door,
    Effect,
    EventOption,
    Furniture,
    Guard,
    ItemCard,
    MonsterCard,
    Objective,
    RoomEvent,
    Square,
    Trap,
)

REQUIRED = ("id", "name", "difficulty", "goal", "start", "patrol", "objective")
OPTIONAL = (
    "exits",
    "blockages",
    "secret_rooms",
    "door",
    "furniture",
    "guard",
    "ambush",
    "trap",
    "event",
    "final",
)
FURNITURE_KINDS = ("table", "chest", "bookcase", "altar", "throne", "weapon_rack", "fireplace", "tomb")
OBJECTIVE_KINDS = ("escape", "slay", "reach", "retrieve", "rescue", "claim")
OBJECTIVE_KEYS = {
    "escape": (),
    "slay": ("at",),
    "reach": ("area",),
    "retrieve": ("item",),
    "rescue": ("area",),
    "claim": ("item",),
}
CARRIED_OUT = ("escape", "retrieve", "rescue")  # kinds met only by leaving the dungeon
EVENT_SCOPES = ("all", "exploring")
# The keys each kind of event needs besides area, scope, kind and text (``item`` events need one of
# ``item`` / ``deck``); any other of EVENT_EXTRA is an error.
EVENT_KEYS = {
    "effect": ("effect",),
    "check": ("options",),
    "choice": ("options",),
    "item": (),
    "detect": (),
    "ambush": ("monsters", "at"),
    "secret": ("door",),
}
EVENT_EXTRA = ("effect", "options", "item", "deck", "monsters", "at", "door")
CHOICE_OPTIONS = (2, 4)  # a choice event offers 2..4 options (CHOICE_0..CHOICE_3)
MAX_AMOUNT = 20  # effect amounts and durations
MAX_DIFFICULTY = 10
MIN_START_SQUARES = 5
PATROL_SIZE = (0, 3)  # an adventure may have no Patrol (a test arena, a designer variant)
MAX_DOORS = 64

_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _neighbours(square: Square, board: Board) -> list[Square]:
    height, width = board.area.shape
    x, y = square
    return [(x + dx, y + dy) for dx, dy in _STEPS if 0 <= x + dx < width and 0 <= y + dy < height]


def _area(board: Board, square: Square) -> int:
    return int(board.area[square[1], square[0]])


def reachable_squares(board: Board, adventure: Adventure) -> set[Square]:
    """Squares a hero can walk to from the start: through open corridors and (opened) doors.

    Blockages and furniture stop movement; monsters are ignored (they can be fought).
    """
    blocked = set(adventure.blockages) | {sq for piece in adventure.furniture for sq in piece.squares}
    doors = {frozenset((door.a, door.b)) for door in adventure.doors}
    todo = [sq for sq in adventure.start if sq not in blocked]
    seen = set(todo)
    while todo:
        here = todo.pop()
        for there in _neighbours(here, board):
            if there in seen or there in blocked:
                continue
            a, b = _area(board, here), _area(board, there)
            open_edge = a == b or not (board.is_room(a) or board.is_room(b))
            if open_edge or frozenset((here, there)) in doors:
                seen.add(there)
                todo.append(there)
    return seen


class _Parser:
    """Reads one adventure file section by section, remembering which squares are already taken."""

    def __init__(
        self,
        path: str | Path,
        board: Board,
        monsters: dict[str, MonsterCard],
        items: dict[str, ItemCard] | None,
    ) -> None:
        self.path = Path(path)
        self.ck = Checker(path)
        self.board = board
        self.monsters = monsters
        self.items = items
        self.taken: dict[Square, str] = {}
        self.data = self.ck.table("", self.ck.load_toml(), REQUIRED, OPTIONAL)

    # -- helpers ----------------------------------------------------------------------------------

    def area_name(self, square: Square) -> str:
        return self.board.area_names[_area(self.board, square)]

    def is_room(self, square: Square) -> bool:
        return self.board.is_room(_area(self.board, square))

    def claim(self, key: str, square: Square, label: str) -> None:
        """Place something on ``square``; nothing may be placed on top of something else."""
        other = self.taken.get(square)
        if other is not None:
            self.ck.fail(key, f"{show_square(square)} is already taken by {other}")
        self.taken[square] = label

    def tables(self, name: str) -> list[Any]:
        return self.ck.array(name, self.data.get(name, []))

    def monster(self, key: str, value: Any, encounter: str | None = None) -> str:
        ident = self.ck.ident(key, value)
        card = self.monsters.get(ident)
        if card is None:
            self.ck.fail(key, f"unknown monster {ident!r}; not in the monster cards")
        if encounter is not None and card.encounter != encounter:
            self.ck.fail(key, f"{ident!r} has encounter {card.encounter!r}; expected {encounter!r}")
        return ident

    def item(self, key: str, value: Any) -> str:
        ident = self.ck.ident(key, value)
        if self.items is None:  # loaded only for adventures that name items
            from .cards import load_items

            self.items = load_items()
        if ident not in self.items:
            self.ck.fail(key, f"unknown item {ident!r}; not in the item cards")
        return ident

    def effect(self, key: str, value: Any) -> Effect:
        entry = self.ck.table(key, value, ("kind",), ("amount", "duration"))
        return Effect(
            kind=self.ck.choice(sub(key, "kind"), entry["kind"], EFFECT_KINDS, "effect kind"),
            amount=self.ck.integer(sub(key, "amount"), entry.get("amount", 0), 0, MAX_AMOUNT),
            duration=self.ck.integer(sub(key, "duration"), entry.get("duration", 0), 0, MAX_AMOUNT),
        )

    def area_of(self, key: str, value: Any) -> str:
        return self.ck.choice(key, value, self.board.area_names, "area")

    # -- sections ---------------------------------------------------------------------------------

    def blockages(self) -> tuple[Square, ...]:
        squares = self.ck.squares("blockages", self.data.get("blockages", []), min_len=0)
        for i, square in enumerate(squares):
            key = sub("blockages", i)
            if self.is_room(square):
                self.ck.fail(
                    key,
                    f"{show_square(square)} is in room {self.area_name(square)}; "
                    "blockages go on corridor squares",
                )
            self.claim(key, square, key)
        return squares

    def furniture(self) -> tuple[Furniture, ...]:
        pieces = []
        for i, entry in enumerate(self.tables("furniture")):
            key = sub("furniture", i)
            entry = self.ck.table(key, entry, ("kind", "at"))
            kind = self.ck.choice(sub(key, "kind"), entry["kind"], FURNITURE_KINDS, "furniture kind")
            squares = self.ck.squares(sub(key, "at"), entry["at"])
            self.check_one_room(sub(key, "at"), squares, "a piece of furniture")
            for j, square in enumerate(squares):
                self.claim(sub(sub(key, "at"), j), square, key)
            pieces.append(Furniture(kind=kind, squares=squares))
        return tuple(pieces)

    def check_one_room(self, key: str, squares: tuple[Square, ...], what: str) -> None:
        areas = sorted({self.area_name(sq) for sq in squares})
        if len(areas) > 1 or not self.is_room(squares[0]):
            self.ck.fail(key, f"squares are in area(s) {', '.join(areas)}; {what} must lie in one room")

    def start(self) -> tuple[Square, ...]:
        squares = self.ck.squares("start", self.data["start"], min_len=MIN_START_SQUARES)
        first = self.area_name(squares[0])
        for i, square in enumerate(squares):
            if self.area_name(square) != first:
                self.ck.fail(
                    sub("start", i),
                    f"{show_square(square)} is in area {self.area_name(square)}, "
                    f"not {first}; all start squares must be in one area",
                )
            self.claim(sub("start", i), square, "start")
        return squares

    def exits(self, start: tuple[Square, ...]) -> tuple[Square, ...]:
        if "exits" not in self.data:  # the entrance is the exit (R-END-02), said aloud (ruling D-25)
            self.ck.warn(
                "exits",
                "no exits given, so the heroes leave by the entrance (R-END-02): a hero who steps onto "
                "a free start square leaves the dungeon at once; give the scenario's exit squares as "
                "exits = [[x, y], ...], or list the start squares to mean the entrance",
            )
            return start
        squares = self.ck.squares("exits", self.data["exits"])
        for i, square in enumerate(squares):
            if square not in start:
                self.claim(sub("exits", i), square, "exits")
        return squares

    def doors(self) -> tuple[Door, ...]:
        entries = self.ck.array("door", self.data.get("door", []), max_len=MAX_DOORS)
        seen: dict[frozenset, int] = {}
        doors = []
        for i, entry in enumerate(entries):
            key = sub(sub("door", i), "between")
            self.ck.table(sub("door", i), entry, ("between",), ("secret",))
            a, b = sorted(self.ck.squares(key, entry["between"], 2, 2), key=lambda sq: (sq[1], sq[0]))
            self.check_door(key, a, b)
            edge = frozenset((a, b))
            if edge in seen:
                self.ck.fail(key, f"duplicate door (same as door[{seen[edge]}])")
            seen[edge] = i
            secret = self.ck.boolean(sub(sub("door", i), "secret"), entry.get("secret", False))
            doors.append(Door(a=a, b=b, secret=secret))  # a comes first in reading order
        return tuple(doors)

    def check_door(self, key: str, a: Square, b: Square) -> None:
        pair = f"{show_square(a)} and {show_square(b)}"
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            self.ck.fail(key, f"{pair} are not orthogonally adjacent")
        if self.area_name(a) == self.area_name(b):
            self.ck.fail(key, f"{pair} are both in area {self.area_name(a)}; a door joins two areas")
        if not (self.is_room(a) or self.is_room(b)):
            self.ck.fail(key, f"{pair} are both corridor squares; a door needs a room on one side")
        for square in (a, b):
            taken = self.taken.get(square, "")
            if taken.startswith(("blockages", "furniture")):
                self.ck.fail(key, f"{show_square(square)} is taken by {taken}; the door would be blocked")

    def guards(self) -> tuple[Guard, ...]:
        guards = []
        for i, entry in enumerate(self.tables("guard")):
            key = sub("guard", i)
            entry = self.ck.table(key, entry, ("monster", "at"))
            monster = self.monster(sub(key, "monster"), entry["monster"], "guard")
            square = self.ck.square(sub(key, "at"), entry["at"])
            self.claim(sub(key, "at"), square, key)
            guards.append(Guard(monster=monster, at=square))
        return tuple(guards)

    def patrol(self) -> tuple[str, ...]:
        members = self.ck.array("patrol", self.data["patrol"], *PATROL_SIZE)
        return tuple(self.monster(sub("patrol", i), m, "patrol") for i, m in enumerate(members))

    def ambushes(self, start_area: str) -> tuple[Ambush, ...]:
        return tuple(
            self.ambush(sub("ambush", i), e, start_area) for i, e in enumerate(self.tables("ambush"))
        )

    def ambush(self, key: str, entry: Any, start_area: str) -> Ambush:
        entry = self.ck.table(key, entry, ("area", "monsters", "at"))
        area = self.ck.choice(sub(key, "area"), entry["area"], self.board.area_names, "area")
        if area == start_area:
            self.ck.fail(
                sub(key, "area"), f"the heroes start in area {area}; the ambush would spring at once"
            )
        names = self.ck.array(sub(key, "monsters"), entry["monsters"], min_len=1)
        monsters = tuple(self.monster(sub(sub(key, "monsters"), i), m) for i, m in enumerate(names))
        squares = self.ck.squares(sub(key, "at"), entry["at"])
        if len(squares) != len(monsters):
            self.ck.fail(
                sub(key, "at"), f"expected {len(monsters)} squares, one per monster, got {len(squares)}"
            )
        for j, square in enumerate(squares):
            if self.area_name(square) != area:
                self.ck.fail(
                    sub(sub(key, "at"), j),
                    f"{show_square(square)} is in area "
                    f"{self.area_name(square)}, not in the ambush area {area}",
                )
            self.claim(sub(sub(key, "at"), j), square, key)
        return Ambush(area=area, monsters=monsters, at=squares)

    def secret_rooms(self, start_area: str) -> tuple[str, ...]:
        rooms = self.board.area_names[: self.board.n_rooms]
        letters = self.ck.choices("secret_rooms", self.data.get("secret_rooms", []), rooms, "room")
        if start_area in letters:
            self.ck.fail("secret_rooms", f"the heroes start in room {start_area}; it cannot be secret")
        return letters

    def objectives(self, guards: tuple[Guard, ...], events: tuple[RoomEvent, ...]) -> tuple[Objective, ...]:
        entries = self.ck.array("objective", self.data["objective"], min_len=1)
        objectives = tuple(
            self.objective(sub("objective", i), e, guards, events) for i, e in enumerate(entries)
        )
        escapes = [o for o in objectives if o.kind == "escape"]
        got = [(o.kind, o.primary) for o in objectives]
        if self.data.get("final", False) is True:
            self._final_objectives(objectives, escapes, got)
        elif len(escapes) != 1 or not escapes[0].primary:
            expected = "expected exactly one objective of kind 'escape', with primary = true"
            self.ck.fail("objective", f"{expected} (got {got})")
        return objectives

    def _final_objectives(self, objectives: tuple[Objective, ...], escapes: list, got: list) -> None:
        """The final adventure may be completed by heroes who die doing it (A-55): none of its primary
        goals may need anyone to leave the dungeon, and it needs at least one."""
        if len(escapes) != 1 or escapes[0].primary:
            self.ck.fail(
                "objective",
                "the final adventure needs exactly one objective of kind 'escape', with primary = false: "
                f"its primary goals must not need the heroes to leave the dungeon (A-55; got {got})",
            )
        carried = [o.kind for o in objectives if o.primary and o.kind in CARRIED_OUT]
        if carried or not any(o.primary for o in objectives):
            self.ck.fail(
                "objective",
                f"the final adventure's primary goals must not need anything carried out (A-55): "
                f"expected at least one primary slay, reach or claim objective and no primary "
                f"{', '.join(CARRIED_OUT)} (got {got})",
            )

    def objective(
        self, key: str, entry: Any, guards: tuple[Guard, ...], events: tuple[RoomEvent, ...]
    ) -> Objective:
        entry = self.ck.table(key, entry, ("kind", "text"), ("primary", "at", "area", "item"))
        kind = self.ck.choice(sub(key, "kind"), entry["kind"], OBJECTIVE_KINDS, "objective kind")
        text = self.ck.text(sub(key, "text"), entry["text"])
        primary = self.ck.boolean(sub(key, "primary"), entry.get("primary", False))
        allowed = OBJECTIVE_KEYS[kind]
        for extra in ("at", "area", "item"):
            if extra in entry and extra not in allowed:
                self.ck.fail(sub(key, extra), f"a {kind} objective has no `{extra}`")
            if extra in allowed and extra not in entry:
                self.ck.fail(sub(key, extra), f"missing required key for a {kind} objective")
        if kind == "escape":
            return Objective(kind=kind, text=text, primary=primary)
        if kind in ("reach", "rescue"):
            area = entry["area"]
            if not isinstance(area, str) or area not in self.board.area_names:
                self.ck.fail(
                    sub(key, "area"), f"unknown area {area!r}; expected a map character of the board"
                )
            return Objective(kind=kind, text=text, primary=primary, area=area)
        if kind in ("retrieve", "claim"):
            item = self.item(sub(key, "item"), entry["item"])
            placed = {e.item for e in events} | {o.item for e in events for o in e.options}
            if item not in placed:
                self.ck.fail(sub(key, "item"), f"no event places the item {item!r}; it could never be found")
            return Objective(kind=kind, text=text, primary=primary, item=item)
        square = self.ck.square(sub(key, "at"), entry["at"])
        if square not in {guard.at for guard in guards}:
            self.ck.fail(sub(key, "at"), f"no guard stands on {show_square(square)}; slay targets a guard")
        return Objective(kind=kind, text=text, at=square, primary=primary)

    def traps(self) -> tuple[Trap, ...]:
        traps = []
        for i, entry in enumerate(self.tables("trap")):
            key = sub("trap", i)
            entry = self.ck.table(key, entry, ("at", "name", "effect"), ("blocks",))
            square = self.ck.square(sub(key, "at"), entry["at"])
            self.claim(sub(key, "at"), square, key)
            traps.append(
                Trap(
                    at=square,
                    name=self.ck.text(sub(key, "name"), entry["name"]),
                    effect=self.effect(sub(key, "effect"), entry["effect"]),
                    blocks=self.ck.boolean(sub(key, "blocks"), entry.get("blocks", False)),
                )
            )
        return tuple(traps)

    def events(self, doors: tuple[Door, ...]) -> tuple[RoomEvent, ...]:
        events = tuple(self.event(sub("event", i), e, doors) for i, e in enumerate(self.tables("event")))
        for i, door in enumerate(doors):
            if door.secret and not any(e.kind == "secret" and e.door == i for e in events):
                self.ck.fail(sub(sub("door", i), "secret"), "no event of kind 'secret' reveals this door")
        return events

    def event(self, key: str, entry: Any, doors: tuple[Door, ...]) -> RoomEvent:
        entry = self.ck.table(key, entry, ("area", "scope", "kind", "text"), EVENT_EXTRA)
        area = self.area_of(sub(key, "area"), entry["area"])
        scope = self.ck.choice(sub(key, "scope"), entry["scope"], EVENT_SCOPES, "event scope")
        kind = self.ck.choice(sub(key, "kind"), entry["kind"], tuple(EVENT_KEYS), "event kind")
        text = self.ck.text(sub(key, "text"), entry["text"])
        needed = EVENT_KEYS[kind] + (("item", "deck") if kind == "item" else ())
        for extra in EVENT_EXTRA:
            if extra in entry and extra not in needed:
                self.ck.fail(sub(key, extra), f"an event of kind {kind!r} has no `{extra}`")
        for name in EVENT_KEYS[kind]:
            if name not in entry:
                self.ck.fail(sub(key, name), f"missing required key for an event of kind {kind!r}")
        fields: dict[str, Any] = {"area": area, "scope": scope, "kind": kind, "text": text}
        if kind == "effect":
            fields["effect"] = self.effect(sub(key, "effect"), entry["effect"])
        elif kind in ("check", "choice"):
            fields["options"] = self.options(key, kind, entry["options"])
        elif kind == "item":
            fields.update(self.find(key, entry, "an item event"))
            if scope != "exploring":
                self.ck.fail(sub(key, "scope"), "an item is found by exploring: scope must be 'exploring'")
        elif kind == "ambush":
            fields["monsters"], fields["at"] = self.event_monsters(key, entry, area)
        elif kind == "secret":
            fields["door"] = self.secret_door(sub(key, "door"), entry["door"], doors, area)
        return RoomEvent(**fields)

    def options(self, key: str, kind: str, value: Any) -> tuple[EventOption, ...]:
        key = sub(key, "options")
        lo, hi = (1, 1) if kind == "check" else CHOICE_OPTIONS
        entries = self.ck.array(key, value, lo, hi)
        options = tuple(self.option(sub(key, i), e) for i, e in enumerate(entries))
        if kind == "check" and options[0].trait is None:
            self.ck.fail(sub(sub(key, 0), "trait"), "missing required key for a check event's option")
        return options

    def option(self, key: str, entry: Any) -> EventOption:
        entry = self.ck.table(key, entry, ("text",), ("effect", "trait", "fail", "item", "deck"))
        trait = None
        if "trait" in entry:
            trait = self.ck.choice(sub(key, "trait"), entry["trait"], TRAITS, "trait")
        elif "fail" in entry:
            self.ck.fail(sub(key, "fail"), "an option without a `trait` check cannot fail")
        return EventOption(
            text=self.ck.text(sub(key, "text"), entry["text"]),
            effect=self.effect(sub(key, "effect"), entry["effect"]) if "effect" in entry else None,
            trait=trait,
            fail=self.effect(sub(key, "fail"), entry["fail"]) if "fail" in entry else None,
            **self.find(key, entry, "an option", required=False),
        )

    def find(self, key: str, entry: dict, what: str, required: bool = True) -> dict[str, str | None]:
        """The ``item`` (a card id) or ``deck`` (a deck to draw from) of a find: at most one of them."""
        if "item" in entry and "deck" in entry:
            self.ck.fail(sub(key, "deck"), f"{what} gives an `item` or draws from a `deck`, not both")
        if required and "item" not in entry and "deck" not in entry:
            self.ck.fail(sub(key, "item"), f"{what} needs an `item` or a `deck`")
        item = self.item(sub(key, "item"), entry["item"]) if "item" in entry else None
        deck = self.ck.choice(sub(key, "deck"), entry["deck"], DECKS, "deck") if "deck" in entry else None
        return {"item": item, "deck": deck}

    def event_monsters(self, key: str, entry: dict, area: str) -> tuple[tuple[str, ...], tuple[Square, ...]]:
        ambush = self.ambush(key, {"area": area, "monsters": entry["monsters"], "at": entry["at"]}, "")
        kinds = {self.monsters[m].encounter == "ambusher" for m in ambush.monsters}
        if len(kinds) > 1:
            self.ck.fail(sub(key, "monsters"), "mixes ambushers with other monsters; use one kind per event")
        return ambush.monsters, ambush.at

    def secret_door(self, key: str, value: Any, doors: tuple[Door, ...], area: str) -> int:
        index = self.ck.integer(key, value, 0, max(0, len(doors) - 1))
        if not doors or not doors[index].secret:
            self.ck.fail(key, f"door[{index}] is not a secret door (secret = true)")
        door = doors[index]
        if area not in (self.area_name(door.a), self.area_name(door.b)):
            self.ck.fail(key, f"door[{index}] is not on a wall of area {area}")
        return index

    # -- whole adventure --------------------------------------------------------------------------

    def header(self) -> dict[str, Any]:
        ident = self.ck.ident("id", self.data["id"])
        if ident != self.path.stem:
            self.ck.fail(
                "id",
                f"{ident!r} must equal the file name stem {self.path.stem!r}: an adventure's id is its file "
                f'name, so a copy needs its own: set id = "{self.path.stem}" (or name the file {ident}.toml)',
            )
        return {
            "id": ident,
            "name": self.ck.text("name", self.data["name"]),
            "difficulty": self.ck.integer("difficulty", self.data["difficulty"], 1, MAX_DIFFICULTY),
            "goal": self.ck.text("goal", self.data["goal"]),
        }

    def parse(self) -> Adventure:
        header = self.header()
        blockages, furniture = self.blockages(), self.furniture()
        start = self.start()
        exits, doors, guards = self.exits(start), self.doors(), self.guards()
        start_area = self.area_name(start[0])
        traps, events = self.traps(), self.events(doors)
        adventure = Adventure(
            **header,
            start=start,
            exits=exits,
            doors=doors,
            blockages=blockages,
            furniture=furniture,
            guards=guards,
            patrol=self.patrol(),
            ambushes=self.ambushes(start_area),
            objectives=self.objectives(guards, events),
            secret_rooms=self.secret_rooms(start_area),
            traps=traps,
            events=events,
            final=self.ck.boolean("final", self.data.get("final", False)),
            source=str(self.path),
        )
        self.check_completable(adventure)
        return adventure

    def check_completable(self, adventure: Adventure) -> None:
        """Every exit, and every guard a slay objective targets, must be reachable from the start."""
        reachable = reachable_squares(self.board, adventure)
        for i, square in enumerate(adventure.exits):
            if square not in reachable:
                self.ck.fail(sub("exits", i), f"{show_square(square)} cannot be reached from the start")
        for i, objective in enumerate(adventure.objectives):
            if objective.at is not None and objective.at not in reachable:
                self.ck.fail(sub(sub("objective", i), "at"), "the target cannot be reached from the start")
            rescue = objective.kind == "rescue"
            if rescue and not any(self.area_name(sq) == objective.area for sq in reachable):
                self.ck.fail(sub(sub("objective", i), "area"), "the area cannot be reached from the start")


def parse_adventure(
    path: str | Path,
    board: Board,
    monsters: dict[str, MonsterCard],
    items: dict[str, ItemCard] | None = None,
) -> Adventure:
    """Read and validate one adventure file against the board, the monster cards and the item cards
    (the bundled ones when ``items`` is None)."""
    return _Parser(path, board, monsters, items).parse()
