"""The golden event logs (``tests/data/golden/``, ``dungeon_env.parity``, ``scripts/golden_logs.py``):
the reference a compiled core of the rules must play to, event for event.

Here ``Game`` (on the compiled core) replays one stored game of every (kind, adventure, heroes)
cell to its stored digest, the very log stored in full for it, and the same actions, and the Python
rules (the reference) replay the same cells; the whole set is checked by ``make parity``. A
changed event changes the digest and the check names the game, the first differing event and both
events; a broken store gives an error naming the file and what is wrong.

When a rule change legitimately changes these games, record the set again
(``scripts/golden_logs.py record``, about 20 minutes on one core) and say in the commit why the
games changed.
"""

from __future__ import annotations

import copy
import gzip
import json
import sys
from pathlib import Path

import pytest

from dungeon_env.content import adventure_names
from dungeon_env.core_parity import CheckedGame, CoreGame, PythonGame
from dungeon_env.engine import Game
from dungeon_env.parity import (
    FORMAT,
    GAMES_FILE,
    HERO_COUNTS,
    KINDS,
    MARK_EVERY,
    SAMPLE_FILE,
    GameCase,
    GoldenStoreError,
    Played,
    case_of,
    compare,
    describe_mismatch,
    digest,
    first_difference,
    game_list,
    play_random,
    read_store,
    replay,
    spread,
    write_store,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from golden_logs import DEFAULT_STORE, main, play, scripted_specs  # noqa: E402

CELLS = [
    (kind, adventure, heroes) for kind in KINDS for heroes in HERO_COUNTS for adventure in adventure_names()
]


@pytest.fixture(scope="module")
def store():
    return read_store(DEFAULT_STORE)


def sample_of(store, cell) -> dict:
    found = [game for game in store.sample.values() if case_of(game).cell == cell]
    assert found, f"no stored full log for {cell}"
    return found[0]


def test_the_store_spreads_its_games_over_every_cell(store):
    assert store.header["adventures"] == adventure_names()
    counts = {cell: 0 for cell in CELLS}
    for case in store.cases():
        counts[case.cell] += 1
    for kind in KINDS:
        per_cell = [n for cell, n in counts.items() if cell[0] == kind]
        assert min(per_cell) >= 1 and max(per_cell) - min(per_cell) <= 1, (kind, per_cell)
        stored = [case for case in store.cases() if case.kind == kind]
        assert stored == game_list(kind, len(stored), adventure_names()), "the stored games are the list's"
    assert sorted(case_of(g).cell for g in store.sample.values()) == sorted(CELLS)
    assert scripted_specs(store.header) == {"heroes": "scripted_heroes@v2", "dm": "scripted_dm@v2"}
    size = sum((DEFAULT_STORE / name).stat().st_size for name in (GAMES_FILE, SAMPLE_FILE))
    assert size < 3_000_000


def test_the_stored_full_logs_hash_to_their_rows(store):
    for game in store.sample.values():
        value, marks = digest(game["events"], game["n_actions"], game["outcome"])
        assert (value, marks) == (store.row(case_of(game))["digest"], game["marks"])


@pytest.mark.parametrize("cell", CELLS, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}h")
def test_a_stored_game_replays_to_its_digest(store, cell):
    stored = sample_of(store, cell)
    case = case_of(stored)
    played = play(Game.new, case, scripted_specs(store.header))
    verdict = compare(store.row(case), played)
    assert verdict.ok, describe_mismatch(verdict, stored["events"], played.events)
    assert played.actions == stored["actions"]


def _tampered(events: list[dict], index: int) -> list[dict]:
    """The log with one value of event ``index`` changed (a die face, else its turn)."""
    events = copy.deepcopy(events)
    event = events[index]
    if event.get("dice"):
        event["dice"][0] = event["dice"][0] % 6 + 1
    else:
        event["turn"] = event.get("turn", 0) + 1
    return events


def test_the_digest_changes_when_one_event_changes(store):
    game = sample_of(store, ("random", adventure_names()[0], 3))
    events, n, outcome = game["events"], game["n_actions"], game["outcome"]
    value, marks = digest(events, n, outcome)
    rolls = [i for i, e in enumerate(events) if e["type"] == "roll"]
    for index in (0, rolls[len(rolls) // 2], len(events) - 1):
        changed = _tampered(events, index)
        assert digest(changed, n, outcome)[0] != value
        assert first_difference(events, changed) == index
    assert digest(events[:-1], n, outcome)[0] != value, "a missing event"
    assert digest(events, n + 1, outcome)[0] != value, "another number of actions"
    assert digest(events, n, "failed" if outcome != "failed" else "completed")[0] != value
    swapped = [*events[:5], events[6], events[5], *events[7:]]
    assert digest(swapped, n, outcome)[0] != value, "two events swapped"
    assert first_difference(events, events[:-2]) == len(events) - 2
    # what the digest reads is the JSON: the key order does not count, the types do (1 is not True)
    reordered = [dict(reversed(list(e.items()))) for e in events]
    assert digest(reordered, n, outcome) == (value, marks)
    assert digest([{"x": 1}], 0, "")[0] != digest([{"x": True}], 0, "")[0]
    assert digest([{"x": 1}], 0, "")[0] != digest([{"x": 1.0}], 0, "")[0]


class FaultyGame:
    """A stand-in engine: the Python game behind the public API, but one die of the log is wrong
    (what a port with one slip would log)."""

    def __init__(self, game: Game, bad_event: int) -> None:
        self.game, self.bad_event = game, bad_event

    @classmethod
    def factory(cls, bad_event: int):
        return lambda **kw: cls(Game.new(**kw), bad_event)

    over = property(lambda self: self.game.over)
    outcome = property(lambda self: self.game.outcome)
    agent = property(lambda self: self.game.agent)

    def legal_actions(self):
        return self.game.legal_actions()

    def apply(self, action):
        self.game.apply(action)

    @property
    def events(self):
        events = list(self.game.events)
        return _tampered(events, self.bad_event) if len(events) > self.bad_event else events


def test_the_harness_plays_any_engine_and_finds_its_first_wrong_event():
    case = game_list("random", 1, adventure_names())[0]
    good = play_random(Game.new, case)
    row = good.summary()
    assert compare(row, play_random(lambda **kw: FaultyGame(Game.new(**kw), 10**9), case)).ok
    bad_index = [i for i, e in enumerate(good.events) if e["type"] == "roll"][-1]
    bad = play_random(FaultyGame.factory(bad_index), case)
    verdict = compare(row, bad)
    assert not verdict.ok and set(verdict.differs) == {"digest"}
    start, stop = verdict.window
    assert start <= bad_index < stop and stop - start == MARK_EVERY
    report = describe_mismatch(verdict, good.events, bad.events)
    assert case.id in report and f"first differing event: index {bad_index}" in report
    assert json.dumps(good.events[bad_index]["dice"]) in report
    assert replay(Game.new, case, good.actions).summary() == row, "the recorded actions replay the game"


def _small_store(folder: Path, store, tamper: int | None, in_sample: bool) -> GameCase:
    """A store of one random game of the real set whose stored log has event ``tamper`` changed."""
    stored = sample_of(store, ("random", adventure_names()[1], 4))
    case = case_of(stored)
    events = stored["events"] if tamper is None else _tampered(stored["events"], tamper)
    played = Played(case, events, stored["actions"], stored["outcome"])
    write_store(folder, store.header, [played.summary()], [played] if in_sample else [])
    return case


def test_check_names_the_game_the_first_differing_event_and_both_events(store, tmp_path, capsys):
    stored = sample_of(store, ("random", adventure_names()[1], 4))
    index = len(stored["events"]) // 2
    case = _small_store(tmp_path / "sample", store, index, in_sample=True)
    assert main(["check", "--store", str(tmp_path / "sample")]) == 1
    out = capsys.readouterr().out
    assert f"MISMATCH {case.id}" in out and f"first differing event: index {index}" in out
    expected = json.dumps(_tampered(stored["events"], index)[index], sort_keys=True, separators=(",", ":"))
    got = json.dumps(stored["events"][index], sort_keys=True, separators=(",", ":"))
    assert f"stored: {expected}" in out and f"got:    {got}" in out
    assert "FAILED: 1 of 1 games differ" in out

    _small_store(tmp_path / "rows", store, index, in_sample=False)  # no full log: the marks' window
    assert main(["check", "--store", str(tmp_path / "rows")]) == 1
    start = index // MARK_EVERY * MARK_EVERY
    assert f"events {start}..{start + MARK_EVERY - 1}" in capsys.readouterr().out

    _small_store(tmp_path / "good", store, None, in_sample=False)
    assert main(["check", "--store", str(tmp_path / "good"), "--workers", "1"]) == 0
    assert "OK: all 1 games" in capsys.readouterr().out


def _write_lines(path: Path, lines: list) -> None:
    path.write_bytes(gzip.compress(("\n".join(json.dumps(x) for x in lines) + "\n").encode()))


def test_a_bad_store_gives_a_clear_error(store, tmp_path, capsys):
    with pytest.raises(GoldenStoreError, match="no such file"):
        read_store(tmp_path / "nothing")
    folder = tmp_path / "bad"
    _small_store(folder, store, None, in_sample=True)
    lines = gzip.decompress((folder / GAMES_FILE).read_bytes()).decode().splitlines()
    header, row = json.loads(lines[0]), json.loads(lines[1])

    (folder / GAMES_FILE).write_bytes(b"not gzip at all")
    with pytest.raises(GoldenStoreError, match=r"games.jsonl.gz: not a readable gzip"):
        read_store(folder)
    _write_lines(folder / GAMES_FILE, [{**header, "format": "other/9"}, row])
    with pytest.raises(GoldenStoreError, match=rf"line 1: expected a header of format '{FORMAT}'"):
        read_store(folder)
    _write_lines(folder / GAMES_FILE, [header, {k: v for k, v in row.items() if k != "digest"}])
    with pytest.raises(GoldenStoreError, match=r"line 2: missing keys \['digest'\]"):
        read_store(folder)
    _write_lines(folder / GAMES_FILE, [header, {**row, "heroes": "four"}])
    with pytest.raises(GoldenStoreError, match="line 2: heroes must be int"):
        read_store(folder)
    _write_lines(folder / GAMES_FILE, [header, {**row, "digest": "abc"}])
    with pytest.raises(GoldenStoreError, match="line 2: digest must be 64 lower-case hex digits"):
        read_store(folder)
    _write_lines(folder / GAMES_FILE, [{**header, "games": 2}, row])
    with pytest.raises(GoldenStoreError, match="the header says 2 games, the file holds 1"):
        read_store(folder)
    (folder / GAMES_FILE).write_bytes(gzip.compress((json.dumps(header) + "\n{oops\n").encode()))
    with pytest.raises(GoldenStoreError, match="line 2: not valid JSON"):
        read_store(folder)
    _write_lines(folder / GAMES_FILE, [header, {**row, "digest": "0" * 64}])
    with pytest.raises(GoldenStoreError, match="sample game .* differs from its row"):
        read_store(folder)
    assert main(["check", "--store", str(folder)]) == 2
    assert "sample game" in capsys.readouterr().err


def test_spread_takes_games_from_every_cell():
    cases = game_list("random", 150, adventure_names())
    picked = spread(cases, 30)
    assert len(picked) == 30 and len({c.cell for c in picked}) == 15
    assert picked == sorted(picked, key=cases.index)
    assert spread(cases, 1000) == cases


def test_the_last_stored_random_game_of_every_cell_replays_to_its_digest(store):
    """The full logs are of each cell's first game: the last games (the highest seeds) too."""
    last = {}
    for case in store.cases():
        if case.kind == "random":
            last[case.cell] = case
    assert len(last) == len(adventure_names()) * len(HERO_COUNTS)
    for case in last.values():
        verdict = compare(store.row(case), play(Game.new, case))
        assert verdict.ok, describe_mismatch(verdict, None, None)


REFERENCE_CELLS = [c for c in CELLS if c[0] == "random" or c[2] == 3]  # the scripted games cost seconds each


@pytest.mark.parametrize("cell", REFERENCE_CELLS, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}h")
def test_the_python_rules_play_a_stored_game_to_its_digest(store, cell):
    """The reference (docs/CORE.md): the random games on the Python rules, the scripted ones (3
    heroes, every adventure) by the agents reading a Python game that a core engine shadows action
    by action (its log is the digest's)."""
    stored = sample_of(store, cell)
    case = case_of(stored)
    engine = PythonGame.new if case.kind == "random" else CheckedGame.new
    played = play(engine, case, scripted_specs(store.header))
    verdict = compare(store.row(case), played)
    assert verdict.ok, describe_mismatch(verdict, stored["events"], played.events)


@pytest.mark.parametrize("engine", [PythonGame.new, CoreGame.new], ids=["python-rules", "core-engine-alone"])
def test_the_last_stored_random_game_of_every_cell_on_the_reference_and_the_bare_engine(store, engine):
    """The Python rules, and the core's engine driven without ``Game`` (``CoreGame``, what the
    engine benchmark measures)."""
    last = {case.cell: case for case in store.cases() if case.kind == "random"}
    for case in last.values():
        verdict = compare(store.row(case), play(engine, case))
        assert verdict.ok, describe_mismatch(verdict, None, None)
