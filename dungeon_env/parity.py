"""Golden event logs: the games an engine must play exactly as the Python reference did.

A compiled core of the rules (issue 54) proves its parity with the Python engine by identical event
logs on many games. This module is that harness, and it knows no engine: every function that plays
takes ``new_game``, a factory with the signature of :meth:`dungeon_env.engine.Game.new`
(``adventure=, heroes=, seed=, max_turns=``) whose games offer ``over``, ``outcome``,
``legal_actions()``, ``apply(action)``, ``agent`` and ``events``. The logs recorded from today's
Python engine are stored (``tests/data/golden/``) and stay the reference once the Python rules retire.

- **The games** (:func:`game_list`): for each kind, game ``i`` is played in cell ``i mod 15`` of
  (adventure x 3, 4, 5 heroes), cells ordered heroes-major, with seed ``i``. Any prefix of the list
  is spread evenly over the cells.
- **The drivers.** ``random`` (:func:`play_random`): ``random.Random(seed).choice(game.legal_actions())``
  until the game is over, turn cap 40. ``scripted`` (:func:`play_agents`): two agents, built by the
  caller (this package imports no agent), seeded with :func:`dungeon_env.episode.seed_agents` and
  played by the one episode loop :func:`dungeon_env.episode.play_episode`, turn cap 100.
  :func:`replay` applies a recorded action list instead (no agent needed).
- **The digest** (:func:`digest`): sha256 over the canonical JSON of every event in order (keys
  sorted, no spaces, UTF-8, NaN refused), each followed by a newline, then the canonical JSON of
  ``{"n_actions", "n_events", "outcome"}``. ``marks`` are the first 8 hex digits of the running digest
  after every ``MARK_EVERY`` events: they place a difference in a window of the log when only the
  digest is stored.

:func:`read_store` reads a stored set (:class:`GoldenStoreError` names the file, the line and what is
wrong); :func:`compare` judges one game against its stored row and :func:`first_difference` finds the
first event where two logs part.
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import json
import random
import zlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from dungeon_env.episode import play_episode, seed_agents

FORMAT = "dungeon_env.golden/1"
KINDS = ("random", "scripted")
HERO_COUNTS = (3, 4, 5)
MAX_TURNS = {"random": 40, "scripted": 100}
MARK_EVERY = 256
MARK_CHARS = 8
GAMES_FILE = "games.jsonl.gz"
SAMPLE_FILE = "sample.json.gz"
DIGEST_TEXT = (
    "sha256 over canonical JSON lines: every event in order (json.dumps sort_keys=True, "
    "separators=(',', ':'), ensure_ascii=False, allow_nan=False, UTF-8) each followed by a newline, "
    'then {"n_actions": int, "n_events": int, "outcome": str} in the same form; marks: the first '
    f"{MARK_CHARS} hex digits of the running digest after every {MARK_EVERY} events"
)
ROW_KEYS = ("kind", "adventure", "heroes", "seed", "max_turns", "n_actions", "n_events", "outcome", "digest")

GameFactory = Callable[..., Any]


class GoldenStoreError(ValueError):
    """A stored golden set that cannot be read: the file, the line and what is wrong."""


# ----------------------------------------------------------------------------------- the games


@dataclasses.dataclass(frozen=True)
class GameCase:
    """One game of the list: how it is played (``kind``), its adventure, number of heroes, seed and
    turn cap."""

    kind: str
    adventure: str
    heroes: int
    seed: int
    max_turns: int

    @property
    def id(self) -> str:
        return f"{self.kind}/{self.adventure}/{self.heroes}h/seed{self.seed}"

    @property
    def cell(self) -> tuple[str, str, int]:
        return self.kind, self.adventure, self.heroes

    def game(self, new_game: GameFactory) -> Any:
        return new_game(
            adventure=self.adventure, heroes=self.heroes, seed=self.seed, max_turns=self.max_turns
        )


def cells(adventures: Sequence[str], hero_counts: Sequence[int] = HERO_COUNTS) -> list[tuple[str, int]]:
    """The (adventure, heroes) cells in list order: heroes-major."""
    return [(adventure, heroes) for heroes in hero_counts for adventure in adventures]


def game_list(
    kind: str,
    count: int,
    adventures: Sequence[str],
    hero_counts: Sequence[int] = HERO_COUNTS,
    max_turns: int | None = None,
) -> list[GameCase]:
    """The first ``count`` games of ``kind``: game ``i`` in cell ``i mod len(cells)``, seed ``i``."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    grid = cells(adventures, hero_counts)
    turns = MAX_TURNS[kind] if max_turns is None else max_turns
    return [GameCase(kind, *grid[i % len(grid)], seed=i, max_turns=turns) for i in range(count)]


def stratified(cases: Sequence[GameCase], per_cell: int = 1) -> list[GameCase]:
    """The first ``per_cell`` games of every (kind, adventure, heroes) cell, in list order."""
    taken: dict[tuple, int] = {}
    out = []
    for case in cases:
        if taken.get(case.cell, 0) < per_cell:
            taken[case.cell] = taken.get(case.cell, 0) + 1
            out.append(case)
    return out


def spread(cases: Sequence[GameCase], n: int) -> list[GameCase]:
    """About ``n`` games of ``cases`` spread over every cell: the first games of each cell, round by
    round, in list order (all of them when ``n`` is at least their number)."""
    if n >= len(cases):
        return list(cases)
    by_cell: dict[tuple, list[GameCase]] = {}
    for case in cases:
        by_cell.setdefault(case.cell, []).append(case)
    out: list[GameCase] = []
    depth = 0
    while len(out) < n:
        for group in by_cell.values():
            if depth < len(group) and len(out) < n:
                out.append(group[depth])
        depth += 1
    order = {case: k for k, case in enumerate(cases)}
    return sorted(out, key=order.__getitem__)


# ----------------------------------------------------------------------------------- the drivers


@dataclasses.dataclass
class Played:
    """A game played to its end: its whole event log, the actions applied and its outcome."""

    case: GameCase
    events: list[dict]
    actions: list[int]
    outcome: str

    @property
    def n_actions(self) -> int:
        return len(self.actions)

    def summary(self) -> dict:
        """The stored row of this game (:data:`ROW_KEYS` and ``marks``)."""
        value, marks = digest(self.events, self.n_actions, self.outcome)
        return {
            **dataclasses.asdict(self.case),
            "n_actions": self.n_actions,
            "n_events": len(self.events),
            "outcome": self.outcome,
            "digest": value,
            "marks": marks,
        }


def action_rng(seed: int) -> random.Random:
    """The random driver's choices for the game of ``seed``."""
    return random.Random(seed)


def play_random(new_game: GameFactory, case: GameCase) -> Played:
    """Uniformly random legal actions (:func:`action_rng`) until the game is over."""
    game = case.game(new_game)
    rng = action_rng(case.seed)
    actions = []
    while not game.over:
        action = rng.choice(game.legal_actions())
        game.apply(action)
        actions.append(action)
    return Played(case, list(game.events), actions, game.outcome)


class _Recording:
    """An agent whose choices are written down as they are played."""

    def __init__(self, agent: Any, actions: list[int]) -> None:
        self.agent, self.actions = agent, actions

    def bind(self, env: Any = None, game: Any = None) -> _Recording:
        if hasattr(self.agent, "bind"):
            self.agent.bind(game=game)
        return self

    def choose(self, game: Any) -> int:
        action = int(self.agent.choose(game))
        self.actions.append(action)
        return action


def play_agents(new_game: GameFactory, case: GameCase, heroes: Any, dm: Any) -> Played:
    """``heroes`` against ``dm`` (agents that ``choose(game)``, fresh for this game), seeded from the
    game's seed by ``seed_agents`` and played by ``play_episode``, as every tool plays a game."""
    seed_agents(heroes, dm, case.seed)
    actions: list[int] = []
    game = case.game(new_game)
    result = play_episode(_Recording(heroes, actions), _Recording(dm, actions), game)
    if sum(result.steps.values()) != len(actions):
        raise RuntimeError(f"{case.id}: {sum(result.steps.values())} steps played, {len(actions)} recorded")
    return Played(case, list(game.events), actions, game.outcome)


def replay(new_game: GameFactory, case: GameCase, actions: Iterable[int]) -> Played:
    """The game of ``case`` with the recorded ``actions`` applied in order (no driver, no agent): an
    action that is not legal raises the engine's own error."""
    game = case.game(new_game)
    applied = []
    for action in actions:
        if game.over:
            raise RuntimeError(f"{case.id}: the game is over after {len(applied)} of the recorded actions")
        game.apply(int(action))
        applied.append(int(action))
    return Played(case, list(game.events), applied, game.outcome)


# ----------------------------------------------------------------------------------- the digest


def canonical(value: Any) -> bytes:
    """The canonical JSON of a value: keys sorted, no spaces, UTF-8, NaN and infinities refused (a
    value JSON cannot hold, e.g. a numpy integer, raises TypeError)."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode()


def digest(events: Sequence[dict], n_actions: int, outcome: str) -> tuple[str, list[str]]:
    """The game's digest (the module docstring) and its marks."""
    h = hashlib.sha256()
    marks = []
    for i, event in enumerate(events, 1):
        h.update(canonical(event))
        h.update(b"\n")
        if i % MARK_EVERY == 0:
            marks.append(h.copy().hexdigest()[:MARK_CHARS])
    h.update(canonical({"n_actions": int(n_actions), "n_events": len(events), "outcome": outcome}))
    return h.hexdigest(), marks


def first_difference(expected: Sequence[dict], got: Sequence[dict]) -> int | None:
    """The index of the first event that differs in canonical JSON (or that only one log has);
    None when the logs are the same."""
    for i, (a, b) in enumerate(zip(expected, got, strict=False)):
        if canonical(a) != canonical(b):
            return i
    return None if len(expected) == len(got) else min(len(expected), len(got))


def mark_window(expected: Sequence[str], got: Sequence[str], n_events: int) -> tuple[int, int]:
    """The events ``[start, stop)`` holding the first difference, from the marks alone."""
    for k, (a, b) in enumerate(zip(expected, got, strict=False)):
        if a != b:
            return k * MARK_EVERY, (k + 1) * MARK_EVERY
    start = min(len(expected), len(got)) * MARK_EVERY
    return start, max(start + MARK_EVERY, n_events)


@dataclasses.dataclass
class Verdict:
    """One game judged against its stored row: ``ok``, else what differs and where."""

    case: GameCase
    ok: bool
    differs: dict[str, tuple[Any, Any]] = dataclasses.field(default_factory=dict)  # key -> (stored, got)
    window: tuple[int, int] | None = None  # the events holding the first difference (from marks)


def compare(row: dict, played: Played) -> Verdict:
    """``played`` against its stored ``row``."""
    got = played.summary()
    differs = {
        key: (row[key], got[key])
        for key in ("n_actions", "n_events", "outcome", "digest")
        if row[key] != got[key]
    }
    if not differs:
        return Verdict(played.case, True)
    return Verdict(played.case, False, differs, mark_window(row["marks"], got["marks"], len(played.events)))


# ----------------------------------------------------------------------------------- the store


@dataclasses.dataclass
class Store:
    """A stored golden set: its header, one row per game (in list order) and the full logs of the
    sample games (by game id: the row plus ``actions`` and ``events``)."""

    folder: Path
    header: dict
    rows: list[dict]
    sample: dict[str, dict]

    def cases(self) -> list[GameCase]:
        return [case_of(row) for row in self.rows]

    def row(self, case: GameCase) -> dict:
        return self._by_id()[case.id]

    def _by_id(self) -> dict[str, dict]:
        if not hasattr(self, "_index"):
            self._index = {case_of(row).id: row for row in self.rows}
        return self._index


def case_of(row: dict) -> GameCase:
    return GameCase(row["kind"], row["adventure"], row["heroes"], row["seed"], row["max_turns"])


def write_store(folder: Path, header: dict, rows: list[dict], sample: list[Played]) -> list[Path]:
    """Write the set: ``games.jsonl.gz`` (the header line, then one row per game) and
    ``sample.json.gz`` (the full logs and actions of ``sample``); returns the two paths."""
    folder.mkdir(parents=True, exist_ok=True)
    games, full = folder / GAMES_FILE, folder / SAMPLE_FILE
    lines = [json.dumps({**header, "format": FORMAT, "games": len(rows)}, sort_keys=True)]
    lines += [json.dumps(row, separators=(",", ":")) for row in rows]
    games.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode(), compresslevel=9, mtime=0))
    logs = [{**p.summary(), "actions": p.actions, "events": p.events} for p in sample]
    body = json.dumps({"format": FORMAT, "games": logs}, separators=(",", ":")).encode()
    full.write_bytes(gzip.compress(body, compresslevel=9, mtime=0))
    return [games, full]


def _open_gzip(path: Path) -> str:
    if not path.is_file():
        raise GoldenStoreError(
            f"{path}: no such file (record the golden logs first: scripts/golden_logs.py record)"
        )
    try:
        return gzip.decompress(path.read_bytes()).decode()
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as err:
        raise GoldenStoreError(f"{path}: not a readable gzip file of UTF-8 text ({err})") from err


def _check_row(row: Any, where: str, sample: bool = False) -> dict:
    if not isinstance(row, dict):
        raise GoldenStoreError(f"{where}: expected a JSON object, found {type(row).__name__}")
    missing = [key for key in (*ROW_KEYS, "marks") if key not in row]
    if missing:
        raise GoldenStoreError(f"{where}: missing keys {missing}")
    types = {"kind": str, "adventure": str, "heroes": int, "seed": int, "max_turns": int, "n_actions": int}
    types |= {"n_events": int, "outcome": str, "digest": str, "marks": list}
    for key, kind in types.items():
        if not isinstance(row[key], kind) or isinstance(row[key], bool):
            raise GoldenStoreError(f"{where}: {key} must be {kind.__name__}, found {row[key]!r}")
    if row["kind"] not in KINDS:
        raise GoldenStoreError(f"{where}: kind must be one of {', '.join(KINDS)}, found {row['kind']!r}")
    if len(row["digest"]) != 64 or any(c not in "0123456789abcdef" for c in row["digest"]):
        raise GoldenStoreError(f"{where}: digest must be 64 lower-case hex digits, found {row['digest']!r}")
    if len(row["marks"]) != row["n_events"] // MARK_EVERY:
        raise GoldenStoreError(
            f"{where}: {len(row['marks'])} marks for {row['n_events']} events (one every {MARK_EVERY})"
        )
    if sample:
        for key in ("actions", "events"):
            if not isinstance(row.get(key), list):
                raise GoldenStoreError(f"{where}: {key} must be a list")
        if len(row["actions"]) != row["n_actions"] or len(row["events"]) != row["n_events"]:
            raise GoldenStoreError(f"{where}: the actions or events do not match n_actions and n_events")
    return row


def read_store(folder: str | Path) -> Store:
    """Read and check a stored set (see :func:`write_store`); a :class:`GoldenStoreError` says what
    is wrong."""
    folder = Path(folder)
    path = folder / GAMES_FILE
    lines = _open_gzip(path).splitlines()
    parsed = []
    for n, line in enumerate(lines, 1):
        try:
            parsed.append(json.loads(line))
        except json.JSONDecodeError as err:
            raise GoldenStoreError(f"{path}, line {n}: not valid JSON ({err})") from err
    if not parsed or not isinstance(parsed[0], dict) or parsed[0].get("format") != FORMAT:
        found = parsed[0].get("format") if parsed and isinstance(parsed[0], dict) else None
        raise GoldenStoreError(f"{path}, line 1: expected a header of format {FORMAT!r}, found {found!r}")
    header = parsed[0]
    if header.get("mark_every", MARK_EVERY) != MARK_EVERY:
        raise GoldenStoreError(
            f"{path}: marks every {header['mark_every']} events, this code reads {MARK_EVERY}"
        )
    rows = [_check_row(row, f"{path}, line {n}") for n, row in enumerate(parsed[1:], 2)]
    if header.get("games") != len(rows):
        raise GoldenStoreError(
            f"{path}: the header says {header.get('games')} games, the file holds {len(rows)}"
        )
    ids = [case_of(row).id for row in rows]
    if len(set(ids)) != len(ids):
        raise GoldenStoreError(f"{path}: a game is stored twice")
    full = folder / SAMPLE_FILE
    try:
        data = json.loads(_open_gzip(full))
    except json.JSONDecodeError as err:
        raise GoldenStoreError(f"{full}: not valid JSON ({err})") from err
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("games"), list):
        raise GoldenStoreError(f"{full}: expected {{'format': {FORMAT!r}, 'games': [...]}}")
    by_id = dict(zip(ids, rows, strict=True))
    sample = {}
    for k, game in enumerate(data["games"]):
        game = _check_row(game, f"{full}, game {k}", sample=True)
        gid = case_of(game).id
        row = by_id.get(gid)
        if row is None or any(row[key] != game[key] for key in ROW_KEYS):
            raise GoldenStoreError(f"{full}: sample game {gid} differs from its row in {GAMES_FILE}")
        sample[gid] = game
    return Store(folder, header, rows, sample)


def describe_mismatch(verdict: Verdict, expected: Sequence[dict] | None, got: Sequence[dict] | None) -> str:
    """A report of one game that differs: what differs, and the first differing event with both
    sides when both logs are at hand (else the window the marks give)."""
    lines = [f"MISMATCH {verdict.case.id}"]
    for key, (stored, now) in verdict.differs.items():
        lines.append(f"  {key}: stored {stored!r}, got {now!r}")
    if expected is not None and got is not None:
        i = first_difference(expected, got)
        if i is None:
            lines.append(
                "  the reference log and this log are the same event by event: the stored set is stale"
            )
        else:
            lines.append(f"  first differing event: index {i}")
            lines.append(f"    stored: {_event_text(expected, i)}")
            lines.append(f"    got:    {_event_text(got, i)}")
            if i > 0:
                lines.append(f"    (event {i - 1}, the same on both: {_event_text(expected, i - 1)})")
    elif verdict.window is not None:
        start, stop = verdict.window
        lines.append(
            f"  the first differing event lies in events {start}..{stop - 1} (from the stored marks; only "
            "the sample games keep their whole log: give --reference to replay it)"
        )
    return "\n".join(lines)


def _event_text(events: Sequence[dict], i: int) -> str:
    return canonical(events[i]).decode() if i < len(events) else "(none: the log has ended)"


__all__ = [
    "DIGEST_TEXT",
    "FORMAT",
    "HERO_COUNTS",
    "KINDS",
    "MARK_EVERY",
    "MAX_TURNS",
    "GameCase",
    "GoldenStoreError",
    "Played",
    "Store",
    "Verdict",
    "action_rng",
    "canonical",
    "case_of",
    "cells",
    "compare",
    "describe_mismatch",
    "digest",
    "first_difference",
    "game_list",
    "mark_window",
    "play_agents",
    "play_random",
    "read_store",
    "replay",
    "spread",
    "stratified",
    "write_store",
]
