"""Bad input a new user met (issue 12), each a clear error naming what was wrong and what was expected.

- ``dungeon-env balance`` with a broken adventure file prints the loader's message and exits with
  code 2 before any game, as for an unknown adventure name (no traceback);
- an adventure without ``exits`` leaves by the entrance (R-END-02) and says so with a
  ``ContentWarning`` naming the file and the key (ruling D-25); listing exits, even the start
  squares, is silent;
- a copy of a bundled adventure under a new file name is refused until its ``id`` is that name, and
  the message says exactly what to write;
- a replay that goes another way names the first event that differs: its index, the recorded and the
  replayed event and the keys that differ (and only the versions that differ).

Issue 49: a save or replay file with a value of the wrong kind (``"actions": null``, an action that
is not a whole number, a missing key, JSON nested too deeply) or a wrong checksum, and a count option
of ``dungeon-env balance`` or ``play`` given nonsense (``--workers 0``), each stop with one line naming
what was wrong and what is accepted, exit code 2, no traceback.

Issue 53: the retired bare agent name ``policy``, and a checkpoint of an observation size that is not
today's, given to ``balance``, ``league`` or ``play``, each stop the same way before any game.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import dungeon_env
from difficulty import cli
from dungeon_env import replay
from dungeon_env.content import ContentError, ContentWarning, load_adventure
from dungeon_env.engine import Game
from dungeon_env.engine.actions import N_ACTIONS

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "dungeon_env" / "content" / "adventures"


def _copy(tmp_path: Path, name: str, edit=lambda text: text, source: str = "flooded_cellar") -> Path:
    text = (BUNDLED / f"{source}.toml").read_text().replace(f'id = "{source}"', f'id = "{name}"')
    path = tmp_path / f"{name}.toml"
    path.write_text(edit(text))
    return path


# ------------------------------------------------------------------------------------------ balance CLI


@pytest.mark.parametrize(
    "edit, named",
    [
        (lambda text: text + "\nname = [broken\n", "toml: invalid TOML"),
        (lambda text: text.replace("patrol = ", "patrols = "), "patrol"),
        (lambda text: text.replace("exits = [[0, 27], [1, 27]]", "exits = [[0, 27], [1, 99]]"), "exits[1]"),
    ],
)
def test_balance_with_a_broken_adventure_file_prints_the_loaders_message_and_exits_2(
    tmp_path, capsys, edit, named
):
    path = _copy(tmp_path, "broken", edit)
    with pytest.raises(ContentError) as loader:
        load_adventure(path)
    with pytest.raises(SystemExit) as exit_info:
        cli.main(
            ["balance", "--adventure", str(path), "--games", "1", "--quiet", "--out", str(tmp_path / "r")]
        )
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err == f"dungeon-env balance: error: {loader.value}\n"
    assert str(path) in err and named in err and "Traceback" not in err
    assert not (tmp_path / "r").exists()  # stopped before any game


def test_balance_with_a_broken_adventure_file_from_the_shell(tmp_path):
    path = _copy(tmp_path, "broken", lambda text: text + "\nname = [broken\n")
    out = subprocess.run(
        [sys.executable, "-m", "difficulty.cli", "balance", "--adventure", str(path), "--games", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 2
    assert out.stderr.splitlines() == [
        f"dungeon-env balance: error: {path}: toml: invalid TOML: Invalid value (at line "
        + out.stderr.split("(at line ", 1)[1].strip()
    ]
    assert "Traceback" not in out.stderr and out.stdout == ""


def test_sweep_with_a_broken_adventure_file_exits_2(tmp_path, capsys):
    path = _copy(tmp_path, "broken", lambda text: text.replace('name = "', 'name = 3 #"', 1))
    with pytest.raises(SystemExit) as exit_info:
        cli.main(
            ["sweep", "--adventure", str(path), "--param", "light.start", "--values", "10,12", "--quiet"]
        )
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"dungeon-env sweep: error: {path}: name: ") and "Traceback" not in err


# ------------------------------------------------------------------------------------------ exits


def _no_exits(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("exits")) + "\n"


def test_an_adventure_without_exits_leaves_by_the_entrance_and_says_so(tmp_path):
    path = _copy(tmp_path, "no_exits", _no_exits)
    with pytest.warns(ContentWarning) as caught:
        adventure = load_adventure(path)
    (warning,) = caught
    assert (warning.message.file, warning.message.key) == (str(path), "exits")
    message = str(warning.message)
    assert message.startswith(
        f"{path}: exits: no exits given, so the heroes leave by the entrance (R-END-02)"
    )
    assert "exits = [[x, y], ...]" in message
    assert adventure.exits == adventure.start


def test_listing_the_start_squares_as_exits_means_the_entrance_without_a_warning(tmp_path):
    def entrance(text: str) -> str:
        start = next(line for line in text.splitlines() if line.startswith("start = "))
        return _no_exits(text).replace(start, start + "\n" + start.replace("start = ", "exits = "))

    path = _copy(tmp_path, "entrance", entrance)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        adventure = load_adventure(path)
    assert adventure.exits == adventure.start


def test_bundled_adventures_load_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for path in sorted(BUNDLED.glob("*.toml")):
            load_adventure(path)


# ------------------------------------------------------------------------------------------ copied ids


def test_a_copy_under_a_new_name_is_told_exactly_which_id_to_write(tmp_path):
    path = tmp_path / "my_cellar.toml"
    path.write_text((BUNDLED / "flooded_cellar.toml").read_text())
    with pytest.raises(ContentError) as err:
        Game.new(adventure=str(path), heroes=3)
    assert str(err.value) == (
        f"{path}: id: 'flooded_cellar' must equal the file name stem 'my_cellar': an adventure's id is "
        'its file name, so a copy needs its own: set id = "my_cellar" (or name the file flooded_cellar.toml)'
    )
    path.write_text(path.read_text().replace('id = "flooded_cellar"', 'id = "my_cellar"'))
    assert Game.new(adventure=str(path), heroes=3).tables.adventure.id == "my_cellar"


# ------------------------------------------------------------------------------------------ replays


def _episode(seed: int = 5, max_turns: int = 4):
    env = dungeon_env.env(adventure="flooded_cellar", heroes=3, max_turns=max_turns)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _agent in env.agent_iter():
        obs, _r, terminated, truncated, _i = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env


def _recorded_with_other_rules(rep: replay.Replay, index: int, **changes) -> replay.Replay:
    """The replay as another version of the rules would have recorded it: event ``index`` differs."""
    events = rep.events
    events[index] = {**events[index], **changes}
    return replay.Replay(
        **{
            **rep.to_json(),
            "events_zlib": replay.pack_events(events),
            "events_sha256": replay.events_digest(events),
        }
    )


def test_a_replay_that_differs_names_the_first_differing_event(tmp_path):
    env = _episode()
    rep = replay.record(env)
    assert rep.events == json.loads(json.dumps(env.unwrapped.events))
    index = next(i for i, e in enumerate(rep.events) if e["type"] == "roll")
    original = rep.events[index]
    other = _recorded_with_other_rules(rep, index, dice=[7], total=99)
    replay.save(other, tmp_path / "other.json")
    with pytest.raises(replay.ReplayMismatch) as err:
        replay.play(replay.load(tmp_path / "other.json"))
    e = err.value
    assert e.index == index and e.keys == ("dice", "total")
    assert e.expected == {**original, "dice": [7], "total": 99} and e.got == original
    message = str(e)
    assert f"the first event that differs is event {index} of {len(rep.events)} recorded" in message
    assert (
        json.dumps(e.expected, sort_keys=True) in message and json.dumps(original, sort_keys=True) in message
    )
    assert "differing keys: dice, total" in message
    assert message.endswith("; the same versions as recorded")
    assert str(rep.versions) not in message  # no more two identical version dicts


def test_a_replay_mismatch_names_only_the_versions_that_differ():
    rep = replay.record(_episode())
    other = _recorded_with_other_rules(rep, 3, turn=77)
    other.versions = {**other.versions, "dungeon_env": "0.0.1"}
    with pytest.raises(replay.ReplayMismatch) as err:
        replay.play(other)
    assert err.value.index == 3 and err.value.keys == ("turn",)
    assert str(err.value).endswith(
        f"; versions that differ: dungeon_env 0.0.1 -> {replay.versions()['dungeon_env']}"
    )


def test_a_replay_whose_episode_ends_early_names_where_the_logs_part():
    rep = replay.record(_episode())
    longer = _recorded_with_other_rules(rep, len(rep.events) - 1, outcome="completed")
    longer.actions = rep.actions + [13]  # the other rules went on for one more decision
    with pytest.raises(replay.ReplayMismatch) as err:
        replay.play(longer)
    assert str(err.value).startswith(f"the episode ended after {len(rep.actions)} of {len(rep.actions) + 1}")
    assert err.value.index == len(rep.events) - 1 and "outcome" in err.value.keys


def test_a_replay_without_its_event_log_is_still_checked_by_its_digest(tmp_path):
    env = _episode()
    rep = replay.save(env, tmp_path / "small.json", events=False)
    assert rep.events is None and "events_zlib" in json.loads((tmp_path / "small.json").read_text())
    assert replay.play(replay.load(tmp_path / "small.json")).events == env.unwrapped.events
    with pytest.raises(replay.ReplayMismatch, match="keeps no event log to compare"):
        replay.play(replay.Replay(**{**rep.to_json(), "events_sha256": "0" * 64}))


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--port", "99999"], "argument --port: 99999 is not a port: give an integer from 0 to 65535"),
        (["--port", "-1"], "argument --port: -1 is not a port"),
        (["--port", "abc"], "argument --port: 'abc' is not a port"),
        (["--text", "--delay", "-1"], "argument --delay: -1 is not a delay: give 0 or more seconds"),
        (["--delay", "soon"], "argument --delay: 'soon' is not a number of seconds"),
    ],
)
def test_play_refuses_a_bad_port_or_delay_with_one_line_and_exit_2(argv, message, capsys):
    """`dungeon-env play` checks its numbers before anything starts: no traceback, exit code 2."""
    with pytest.raises(SystemExit) as end:
        cli.main(["play", "--no-browser", *argv])
    assert end.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_play_with_an_unknown_adventure_names_the_known_ones_and_no_internal_path(capsys):
    with pytest.raises(SystemExit) as end:
        cli.main(["play", "--no-browser", "--adventure", "nosuch"])
    assert end.value.code == 2
    err = capsys.readouterr().err
    assert "no bundled adventure 'nosuch'; known: bandit_keep, flooded_cellar" in err
    assert str(Path(dungeon_env.__file__).parent) not in err and "Traceback" not in err


@pytest.mark.parametrize("adventure", [["flooded_cellar"], {"id": "x"}, 3.5])
def test_an_adventure_that_is_no_id_or_path_is_named(adventure):
    """``raw_env(adventure=[...])`` was a bare "unhashable type: 'list'"."""
    with pytest.raises(ValueError, match="adventure must be a bundled id .*flooded_cellar.* or a path"):
        dungeon_env.raw_env(adventure=adventure)


# ------------------------------------------------------------------------------------------ issue 49


SHORT = str(ROOT / "tests" / "data" / "short_walk.toml")
LAST = N_ACTIONS - 1  # the last action's number


@pytest.fixture(autouse=True)
def no_server(monkeypatch):
    """A ``dungeon-env play`` that should have stopped with an error fails the test instead of
    serving (or playing in this terminal) for ever."""
    import play.cli
    import play.text

    def started(*args, **kwargs):
        pytest.fail("dungeon-env play started a game instead of refusing the options")

    monkeypatch.setattr(play.cli, "serve", started)
    monkeypatch.setattr(play.text, "play_in_terminal", started)


@pytest.fixture(scope="module")
def saved_game(tmp_path_factory) -> dict:
    """A save of ``dungeon-env play`` (a replay file with the seats), six actions in."""
    from play.table import Table

    table = Table(adventure=SHORT, heroes=["bram", "sela", "orwin"], seats={"dm": "human"}, seed=4)
    table.saves = tmp_path_factory.mktemp("saves")
    for _ in range(6):
        table.step_ai()
    return json.loads(table.save("six.json").read_text())


def _play_load(tmp_path, data, capsys, *more: str) -> str:
    """``dungeon-env play --load FILE`` on ``data`` (JSON, or text written as it is): the error it
    ends with (exit code 2 asserted)."""
    path = tmp_path / "game.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    with pytest.raises(SystemExit) as end:
        cli.main(["play", "--no-browser", "--saves", str(tmp_path), "--load", str(path), *more])
    assert end.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err.strip()


@pytest.mark.parametrize(
    "change, words",
    [
        ({"actions": None}, f"actions: expected a list of actions (whole numbers 0..{LAST}), found null"),
        (
            {"actions": {"0": 13}},
            f"actions: expected a list of actions (whole numbers 0..{LAST}), found an object",
        ),
        ({"actions": [20, 21, "1"]}, f'actions[2]: expected an action, a whole number 0..{LAST}; found "1"'),
        ({"actions": [20, 1.5]}, f"actions[1]: expected an action, a whole number 0..{LAST}; found 1.5"),
        (
            {"actions": [20, N_ACTIONS]},
            f"actions[1]: expected an action, a whole number 0..{LAST}; found {N_ACTIONS}",
        ),
        ({"seed": "3"}, 'seed: expected a whole number, 0 or more, found "3"'),
        ({"seed": -3}, "seed: expected a whole number, 0 or more, found -3"),
        ({"options": None}, "options: expected an object of dungeon_env.raw_env options, found null"),
        ({"options": {"adventure": SHORT, "heroes": 3, "speed": 2}}, "options: unknown ['speed']"),
        ({"options": {"adventure": 7}}, "options.adventure: expected an adventure id or a path to one"),
        ({"events_sha256": None}, 'events_sha256: expected "" or the 64 lower-case hex digits'),
        ({"events_zlib": 0}, 'events_zlib: expected "" or a packed event log (text), found 0'),
        ({"versions": []}, "versions: expected an object of names and versions, found a list of 0"),
        (
            {"illegal": "yes"},
            'illegal: expected null or an object with the illegal "action" (a number, a text or null), '
            'found "yes"',
        ),
        ({"play": {"seats": {"dm": 1}}}, 'play.seats.dm: expected "human" or an agent spec'),
        ({"play": ["dm"]}, 'play: expected an object {"seats": {"hero_0": "human"'),
    ],
    ids=lambda v: v if isinstance(v, str) else "-".join(f"{k}={str(x)[:12]}" for k, x in v.items()),
)
def test_play_load_of_a_file_with_a_wrong_value_names_it_in_one_line(
    tmp_path, capsys, saved_game, change, words
):
    err = _play_load(tmp_path, {**saved_game, **change}, capsys)
    assert err.startswith(f"dungeon-env play: error: {tmp_path / 'game.json'}: ")
    assert words in err


@pytest.mark.parametrize("key", ["options", "seed", "actions"])
def test_play_load_of_a_file_missing_a_key_names_it(tmp_path, capsys, saved_game, key):
    data = {k: v for k, v in saved_game.items() if k != key}
    err = _play_load(tmp_path, data, capsys)
    assert f"replay is missing keys ['{key}']: a replay holds options, seed, actions" in err


@pytest.mark.parametrize(
    "text, words",
    [
        ("[" * 100_000 + "]" * 100_000, "not a replay: its JSON is nested too deeply"),
        ('{"format": ', "not valid JSON (Expecting value"),
        ("[]", "not a replay: expected format 'dungeon_env.replay/1', found 'list'"),
    ],
    ids=["deep", "cut", "list"],
)
def test_play_load_of_a_file_that_is_no_replay_names_it(tmp_path, capsys, text, words):
    err = _play_load(tmp_path, text, capsys)
    assert str(tmp_path / "game.json") in err and words in err


def test_play_load_from_the_shell_with_null_actions_is_one_line(tmp_path, saved_game):
    path = tmp_path / "null.json"
    path.write_text(json.dumps({**saved_game, "actions": None}))
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "difficulty.cli",
            "play",
            "--text",
            "--load",
            str(path),
            "--saves",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.splitlines() == [
        f"dungeon-env play: error: {path}: not a saved game or replay: actions: expected a list of actions "
        f"(whole numbers 0..{LAST}), found null"
    ]


def test_play_load_refuses_a_wrong_checksum_naming_file_both_checksums_and_what_to_do(
    tmp_path, capsys, saved_game
):
    """It loaded silently before issue 49."""
    err = _play_load(tmp_path, {**saved_game, "events_sha256": "0" * 64}, capsys)
    assert err == (
        f"dungeon-env play: error: {tmp_path / 'game.json'}: wrong checksum: the file's events_sha256 is "
        f"{'0' * 64}, but its actions replay to {saved_game['events_sha256']}. The file was changed after it "
        "was saved, or saved by another version of dungeon_env: open it with that version, or delete its "
        '"events_sha256" entry to accept the game as this version replays it'
    )


def test_the_checksum_names_the_versions_that_differ(saved_game):
    rep = replay.Replay.from_json({**saved_game, "events_sha256": "1" * 64})
    rep.versions = {**rep.versions, "dungeon_env": "0.0.1"}
    with pytest.raises(replay.ReplayMismatch) as err:
        replay.check_digest(rep, [], "x.json")
    now = replay.versions()["dungeon_env"]
    assert f"(versions that differ: dungeon_env 0.0.1 -> {now})." in str(err.value)
    replay.check_digest(
        replay.Replay.from_json({**saved_game, "events_sha256": ""}), [], "x.json"
    )  # none kept


def test_a_saved_seat_whose_agent_is_retired_says_how_to_replace_it(tmp_path, capsys, saved_game):
    data = {
        **saved_game,
        "play": {**saved_game["play"], "seats": {**saved_game["play"]["seats"], "hero_1": "trained"}},
    }
    err = _play_load(tmp_path, data, capsys)
    assert (
        "seat hero_1: agent 'trained'" in err and "give --seat hero_1=AGENT (or =human) to replace it" in err
    )
    path = tmp_path / "game.json"
    from difficulty.cli import build_parser
    from play.cli import table_of

    args = build_parser().parse_args(["play", "--load", str(path), "--seat", "hero_1=scripted"])
    assert table_of(args).seat_agents()["hero_1"] == "scripted"


@pytest.mark.parametrize(
    "option", [["--adventure", "flooded_cellar"], ["--max-turns", "50"], ["--seed", "3"]]
)
def test_play_load_refuses_options_the_save_decides(tmp_path, capsys, saved_game, option):
    err = _play_load(tmp_path, saved_game, capsys, *option)
    assert f"{option[0]} cannot go with --load: a saved game goes on with its own adventure, party" in err


def test_replay_load_names_the_file_and_the_key(tmp_path, saved_game):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({**saved_game, "actions": None}))
    with pytest.raises(replay.ReplayFileError) as err:
        replay.load(path)
    assert (
        str(err.value) == f"{path}: actions: expected a list of actions (whole numbers 0..{LAST}), found null"
    )
    with pytest.raises(FileNotFoundError, match="no file"):
        replay.load(tmp_path / "none.json")
    with pytest.raises(replay.ReplayFileError, match="is not a file"):
        replay.load(tmp_path)


FEW = ["--games", "1", "--max-turns", "2"]  # should a refusal regress, the run is short


@pytest.mark.parametrize(
    "argv, message",
    [
        (["balance", "--workers", "0", *FEW], "argument --workers: 0: give 1 or more processes"),
        (["balance", "--workers", "-2", *FEW], "argument --workers: -2: give 1 or more processes"),
        (
            ["balance", "--workers", "two", *FEW],
            "argument --workers: 'two' is not a whole number: give 1 or more",
        ),
        (["balance", "--games", "0", "--max-turns", "2"], "argument --games: 0: give 1 or more games"),
        (
            ["sweep", "--param", "light.start", "--values", "1", "--games", "-5", "--max-turns", "2"],
            "argument --games: -5: give 1",
        ),
        (
            ["balance", "--until", "0.3", "--max-games", "0", "--max-turns", "2"],
            "argument --max-games: 0: give 1 or more games",
        ),
        (["balance", "--max-turns", "0", "--games", "1"], "argument --max-turns: 0: give 1 or more turns"),
        (["balance", "--seed", "-1", *FEW], "argument --seed: -1: give 0 or more"),
        (["league", "--workers", "0", *FEW], "argument --workers: 0: give 1 or more processes"),
        (["league", "--seed", "-1", *FEW], "argument --seed: -1: give 0 or more"),
        (["play", "--seed", "-1"], "argument --seed: -1: give 0 or more"),
        (["play", "--max-turns", "0"], "argument --max-turns: 0: give 1 or more turns"),
    ],
)
def test_a_count_option_given_nonsense_is_refused_in_one_line(argv, message, capsys, tmp_path):
    """``--workers 0`` used every core without a word; ``--seed -1`` and ``--until`` with
    ``--max-games 0`` were tracebacks."""
    out = str(tmp_path / "out")
    more = (
        ["--no-browser", "--saves", out]
        if argv[0] == "play"
        else ["--backend", "serial", "--quiet", "--out", out]
    )
    with pytest.raises(SystemExit) as end:
        cli.main([*argv, *more])
    assert end.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_play_refuses_a_saves_folder_it_cannot_write(tmp_path, capsys):
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    with pytest.raises(SystemExit) as end:
        cli.main(["play", "--no-browser", "--saves", str(blocker / "saves")])
    assert end.value.code == 2
    err = capsys.readouterr().err
    assert (
        f"--saves {blocker / 'saves'}: {blocker} is not a folder; give a folder games can be saved in" in err
    )


# ------------------------------------------------------------------------- retired policies (issue 53)
RETIRED_POLICY = "no policy ships under the name 'policy'"


@pytest.mark.parametrize(
    "argv",
    [
        ["balance", "--heroes-agent", "policy", "--games", "1", "--quiet"],
        ["balance", "--pairing", "scripted:policy[deterministic=false]", "--games", "1", "--quiet"],
        ["league", "--heroes-agents", "random,policy", "--games", "1", "--quiet"],
        ["play", "--no-browser", "--seat", "dm=policy"],
    ],
)
def test_the_retired_bare_policy_is_one_line_naming_what_to_write(argv, capsys, tmp_path):
    more = [] if argv[0] == "play" else ["--out", str(tmp_path / "r")]
    with pytest.raises(SystemExit) as exit_info:
        cli.main([*argv, *more])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"dungeon-env {argv[0]}: error: ") and err.count("\n") == 1
    assert RETIRED_POLICY in err and "policy:FILE.zip" in err and "Traceback" not in err
    assert not (tmp_path / "r").exists()  # stopped before any game


@pytest.fixture(scope="module")
def old_checkpoint(tmp_path_factory) -> Path:
    """A MaskablePPO checkpoint of a 7-float observation: a layout that is not today's."""
    pytest.importorskip("sb3_contrib")
    from tests.checkpoints import checkpoint_of_size

    return checkpoint_of_size(tmp_path_factory.mktemp("old") / "old.zip", 7, N_ACTIONS)


@pytest.mark.parametrize(
    "argv",
    [
        ["balance", "--heroes-agent", "policy:OLD", "--games", "1", "--quiet"],
        ["balance", "--dm-agent", "OLD", "--games", "1", "--quiet"],
        ["league", "--dm-agents", "scripted,OLD", "--games", "1", "--quiet"],
        ["play", "--no-browser", "--seat", "hero_0=policy:OLD"],
    ],
)
def test_a_checkpoint_of_another_observation_size_is_one_line_naming_both_sizes(
    argv, capsys, tmp_path, old_checkpoint
):
    from dungeon_env.observation import OBS_SPEC

    argv = [a.replace("OLD", str(old_checkpoint)) for a in argv]
    more = [] if argv[0] == "play" else ["--out", str(tmp_path / "r")]
    with pytest.raises(SystemExit) as exit_info:
        cli.main([*argv, *more])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"dungeon-env {argv[0]}: error: ") and err.count("\n") == 1
    assert f"old.zip reads observations of 7 floats; today's observation has {OBS_SPEC.size}" in err
    assert "retired in issue 53" in err and "Traceback" not in err
    assert not (tmp_path / "r").exists()


def test_the_retired_bare_policy_from_the_shell():
    out = subprocess.run(
        [sys.executable, "-m", "difficulty.cli", "balance", "--heroes-agent", "policy", "--games", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 2 and out.stdout == ""
    assert RETIRED_POLICY in out.stderr and "Traceback" not in out.stderr


# ------------------------------------------------------------------------- a backend that cannot run
@pytest.mark.parametrize("command", ["balance", "league"])
def test_the_ray_backend_without_ray_is_one_line_naming_the_extra(command, capsys, tmp_path, monkeypatch):
    """``--backend ray`` on an install without Ray was a traceback from inside the runner."""
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError, as without the extra
    with pytest.raises(SystemExit) as end:
        cli.main([command, "--backend", "ray", "--games", "1", "--quiet", "--out", str(tmp_path / "r")])
    assert end.value.code == 2
    err = capsys.readouterr().err
    assert err == (
        f"dungeon-env {command}: error: the ray backend needs Ray: pip install -e '.[ray]'"
        " (or pip install 'ray>=2.9')\n"
    )
    assert not (tmp_path / "r").exists()  # stopped before any game


def test_the_ray_backend_with_a_cluster_it_cannot_join_names_the_address(capsys, tmp_path, monkeypatch):
    ray = pytest.importorskip("ray")

    def refuse(address=None, **_kwargs):
        raise ConnectionError(f"could not connect to {address}")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", refuse)
    argv = ["balance", "--backend", "ray", "--ray-address", "ray://nowhere:10001", "--games", "1"]
    with pytest.raises(SystemExit) as end:
        cli.main([*argv, "--quiet", "--out", str(tmp_path / "r")])
    assert end.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("dungeon-env balance: error: the ray backend could not start the Ray cluster at")
    assert "'ray://nowhere:10001'" in err and "expected --ray-address auto" in err and "Traceback" not in err
