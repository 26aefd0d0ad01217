"""Replays: an episode as a small JSON file (versions, options, seed, actions) that plays back to the
identical trajectory, and renders to a GIF or an MP4.

```python
from dungeon_env import replay

replay.save(env, "episode.json")          # after (or during) an episode of env / env.unwrapped
rep = replay.load("episode.json")
env = replay.play(rep)                     # the same trajectory; raises ReplayMismatch if not
replay.render_video(rep, "episode.gif", every=5)   # .gif (Pillow) or .mp4 (imageio-ffmpeg)
```

The file holds the env's options (a rules variant among them, as ``Variant.to_json()``; None or
absent: the rules as written), the seed given to ``reset``, the actions applied in order (the
dead-steps of terminated agents are implied), the illegal action that ended the episode if any
(``illegal_action="penalize"``), the outcome, and a SHA-256 of the event log (its checksum), which
``play`` and :func:`check_digest` check. Dice come from the seed alone, so nothing else is needed to
replay.

Every reader of a replay file (``load``, ``Replay.from_json``: the play server's ``--load``, its
replay viewer, ...) gets the same checks here: a file that is not one, a missing key or a value of
the wrong kind raises :class:`ReplayFileError` (a ``ValueError``) in one line naming the key, what it
holds and what is accepted; :func:`start` turns options that make no game into one too.

To tell *where* a replay went another way, the file also keeps the event log itself, compressed
(``events_zlib``: zlib, then base64, of the log as compact JSON; about 5 bytes an event). A replay
that differs raises :class:`ReplayMismatch` naming the first event that differs: its index, the
recorded and the replayed event and the keys whose values differ (and the versions that differ
between recording and replaying, if any). A file without the log (older files, or
``save(..., events=False)``) is still checked by its digest.
"""

from __future__ import annotations

import base64
import hashlib
import inspect
import json
import platform
import re
import zlib
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path

import numpy as np

from dungeon_env.aec import ENV_NAME, raw_env
from dungeon_env.content.variants import Variant
from dungeon_env.engine.actions import N_ACTIONS
from dungeon_env.engine.game import SAVE_FORMAT

REPLAY_FORMAT = "dungeon_env.replay/1"
REQUIRED = ("options", "seed", "actions")
# the options a replay may hold: those of raw_env (render_mode is the viewer's, never the file's)
OPTIONS = tuple(p for p in inspect.signature(raw_env.__init__).parameters if p not in ("self", "render_mode"))
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


class ReplayFileError(ValueError):
    """Data that is not a replay: a missing key, a value of the wrong kind, options that make no
    game. The message is one line naming the key, what it holds and what is accepted."""


class ReplayMismatch(RuntimeError):
    """The replayed trajectory differs from the recorded one (another version of the rules?).

    ``index`` is the first event that differs (None when the replay holds no event log),
    ``expected`` the recorded event there and ``got`` the replayed one (None past the end of a log),
    ``keys`` the keys whose values differ."""

    def __init__(
        self, message: str, index: int | None = None, expected=None, got=None, keys: tuple[str, ...] = ()
    ) -> None:
        super().__init__(message)
        self.index, self.expected, self.got, self.keys = index, expected, got, keys


@dataclass
class Replay:
    options: dict
    seed: int
    actions: list[int]
    outcome: str = ""
    events_sha256: str = ""
    illegal: dict | None = None
    versions: dict = field(default_factory=dict)
    format: str = REPLAY_FORMAT
    events_zlib: str = ""  # the recorded event log, compressed (pack_events); "": not kept

    @property
    def events(self) -> list[dict] | None:
        """The recorded event log, or None if this replay does not keep it."""
        return unpack_events(self.events_zlib) if self.events_zlib else None

    def to_json(self) -> dict:
        return asdict(self)

    @property
    def variant(self) -> Variant:
        """The rules variant the episode was played with (the base rules for older replays)."""
        return Variant.coerce(self.options.get("variant"))

    @classmethod
    def from_json(cls, data: dict) -> Replay:
        """The replay ``data`` (a file's JSON) holds, every field checked (:class:`ReplayFileError`)."""
        if not isinstance(data, dict) or data.get("format") != REPLAY_FORMAT:
            found = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise ReplayFileError(f"not a replay: expected format {REPLAY_FORMAT!r}, found {found!r}")
        missing = [k for k in REQUIRED if k not in data]
        if missing:
            raise ReplayFileError(f"replay is missing keys {missing}: a replay holds {', '.join(REQUIRED)}")
        check_fields(data)
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# key -> (test of its value, what is accepted)
FIELDS = {
    "options": (lambda v: isinstance(v, dict), "an object of dungeon_env.raw_env options"),
    "seed": (lambda v: _whole(v) and v >= 0, "a whole number, 0 or more"),
    "actions": (lambda v: isinstance(v, list), f"a list of actions (whole numbers 0..{N_ACTIONS - 1})"),
    "outcome": (lambda v: isinstance(v, str), 'text ("" while the game goes on)'),
    "events_sha256": (
        lambda v: isinstance(v, str) and (v == "" or bool(_SHA256.match(v))),
        '"" or the 64 lower-case hex digits of the event log\'s SHA-256',
    ),
    "illegal": (
        lambda v: v is None or (isinstance(v, dict) and not isinstance(v.get("action", []), list | dict)),
        'null or an object with the illegal "action" (a number, a text or null)',
    ),
    "versions": (lambda v: isinstance(v, dict), "an object of names and versions"),
    "events_zlib": (lambda v: isinstance(v, str), '"" or a packed event log (text)'),
}


def check_fields(data: dict) -> None:
    """Raise :class:`ReplayFileError` at the first field of a replay's JSON that holds a value of
    the wrong kind: an action that is not a whole number in range, an unknown option, ..."""
    for key, (ok, accepted) in FIELDS.items():
        if key in data and not ok(data[key]):
            raise ReplayFileError(f"{key}: expected {accepted}, found {shown(data[key])}")
    for i, action in enumerate(data["actions"]):
        if not (_whole(action) and 0 <= action < N_ACTIONS):
            raise ReplayFileError(
                f"actions[{i}]: expected an action, a whole number 0..{N_ACTIONS - 1}; found {shown(action)}"
            )
    unknown = sorted(set(data["options"]) - set(OPTIONS))
    if unknown:
        raise ReplayFileError(f"options: unknown {unknown}; a replay's options are {', '.join(OPTIONS)}")
    adventure = data["options"].get("adventure")
    if adventure is not None and not isinstance(adventure, str):
        raise ReplayFileError(
            f"options.adventure: expected an adventure id or a path to one (text), found {shown(adventure)}"
        )


def cut(text: str, limit: int = 300) -> str:
    """``text`` cut to ``limit`` characters (a message that echoes a long value stays one line)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shown(value) -> str:
    """A value as a message shows it: its JSON, cut short; a list or an object by its size."""
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return f"an object of {len(value)} keys"
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def versions() -> dict:
    def version(name: str) -> str:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return "unknown"

    return {
        "env": ENV_NAME,
        "dungeon_env": version("dungeon_env"),
        "game_save_format": SAVE_FORMAT,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "pettingzoo": version("pettingzoo"),
    }


def events_digest(events: list[dict]) -> str:
    return hashlib.sha256(json.dumps(events, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def pack_events(events: list[dict]) -> str:
    """An event log as compact text: zlib-compressed JSON, in base64."""
    text = json.dumps(events, sort_keys=True, separators=(",", ":"))
    return base64.b64encode(zlib.compress(text.encode(), 9)).decode("ascii")


def unpack_events(packed: str) -> list[dict]:
    try:
        return json.loads(zlib.decompress(base64.b64decode(packed)))
    except (ValueError, zlib.error) as err:
        raise ValueError(f"replay: events_zlib is not a packed event log ({err})") from err


def first_difference(
    recorded: list[dict], replayed: list[dict]
) -> tuple[int, dict | None, dict | None] | None:
    """``(index, recorded event, replayed event)`` at the first event that differs (None past the
    end of the shorter log), or None if the logs are equal."""
    replayed = json.loads(json.dumps(replayed))  # compare as the file holds them (lists, not tuples)
    for i, (a, b) in enumerate(zip(recorded, replayed, strict=False)):
        if a != b:
            return i, a, b
    if len(recorded) != len(replayed):
        i = min(len(recorded), len(replayed))
        return i, recorded[i] if i < len(recorded) else None, replayed[i] if i < len(replayed) else None
    return None


def _mismatch(rep: Replay, replayed: list[dict], headline: str) -> ReplayMismatch:
    """The :class:`ReplayMismatch` for the ``replayed`` log against what ``rep`` recorded."""
    changed = _changed_versions(rep)
    where = f"; versions that differ: {', '.join(changed)}" if changed else "; the same versions as recorded"
    recorded = rep.events
    if recorded is None:
        return ReplayMismatch(f"{headline} (this replay keeps no event log to compare){where}")
    diff = first_difference(recorded, replayed)
    if diff is None:
        return ReplayMismatch(f"{headline}; the replayed event log equals the one the file keeps{where}")
    index, expected, got = diff
    keys = _differing_keys(expected or {}, got or {})
    return ReplayMismatch(
        f"{headline}: the first event that differs is event {index} of {len(recorded)} recorded "
        f"({len(replayed)} replayed): expected {_show(expected)}, got {_show(got)}; differing keys: "
        f"{', '.join(keys) or 'none'}{where}",
        index,
        expected,
        got,
        keys,
    )


def _differing_keys(a: dict, b: dict) -> tuple[str, ...]:
    missing = object()
    return tuple(sorted(k for k in set(a) | set(b) if a.get(k, missing) != b.get(k, missing)))


def _show(event: dict | None) -> str:
    return "no event (the log ends here)" if event is None else json.dumps(event, sort_keys=True)


def record(env, events: bool = True) -> Replay:
    """The replay of ``env``'s current episode so far (a wrapped or a raw env); ``events``: keep the
    event log (compressed) to name the first differing event if a replay ever differs."""
    raw = env.unwrapped
    if raw.game is None:
        raise ValueError("the env has not been reset: there is no episode to record")
    return Replay(
        options=dict(raw.options),
        seed=int(raw.episode_seed),
        actions=list(raw.actions),
        outcome=raw.game.outcome or ("illegal_action" if raw.illegal else ""),
        events_sha256=events_digest(raw.events),
        illegal=dict(raw.illegal) if raw.illegal else None,
        versions=versions(),
        events_zlib=pack_events(raw.events) if events else "",
    )


def save(env_or_replay, path: str | Path, events: bool = True) -> Replay:
    """Write the replay of an env's episode (or a :class:`Replay`) to ``path`` as JSON (``events``:
    keep the compressed event log, see :func:`record`)."""
    rep = env_or_replay if isinstance(env_or_replay, Replay) else record(env_or_replay, events=events)
    Path(path).write_text(json.dumps(rep.to_json(), indent=1))
    return rep


def read_json(path: str | Path):
    """The JSON a replay (or saved-game) file holds. ``FileNotFoundError`` if there is no such file;
    :class:`ReplayFileError` naming the file if it cannot be read as JSON (a folder, not UTF-8, not
    JSON, nested too deeply)."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no file {str(path)!r}")
    if not path.is_file():
        raise ReplayFileError(f"{path} is not a file: give a replay or saved-game .json file")
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise ReplayFileError(f"{path}: cannot be read ({err.strerror or err})") from err
    try:
        return json.loads(raw)
    except RecursionError:
        raise ReplayFileError(f"{path}: not a replay: its JSON is nested too deeply") from None
    except ValueError as err:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise ReplayFileError(f"{path}: not valid JSON ({err})") from err


def load(path: str | Path) -> Replay:
    """The replay in the file ``path``, every field checked: ``FileNotFoundError``, or
    :class:`ReplayFileError` naming the file and what is wrong in it."""
    data = read_json(path)
    try:
        return Replay.from_json(data)
    except ReplayFileError as err:
        raise ReplayFileError(f"{path}: {err}") from None


def start(rep: Replay, render_mode: str | None = None) -> raw_env:
    """A raw env made with the replay's options and reset with its seed; :class:`ReplayFileError`
    if the options make no game (an unknown adventure or hero, a value of the wrong kind, ...)."""
    try:
        env = raw_env(render_mode=render_mode, **rep.options)
        env.reset(seed=rep.seed)
    except (ValueError, TypeError, KeyError, OSError, RecursionError) as err:
        raise ReplayFileError(f"options: they make no game: {cut(str(err))}") from err
    return env


def check_digest(rep: Replay, events: list[dict], source: str = "the replay") -> None:
    """Raise :class:`ReplayMismatch` if ``events`` (the log its actions replayed to) do not hash to
    the checksum ``rep`` holds (none held: nothing to check); the message names ``source``, both
    checksums and what to do."""
    found = events_digest(events)
    if not rep.events_sha256 or found == rep.events_sha256:
        return
    raise ReplayMismatch(
        f"{source}: wrong checksum: the file's events_sha256 is {rep.events_sha256}, but its actions "
        f"replay to {found}{_versions_note(rep)}. The file was changed after it was saved, or saved by "
        'another version of dungeon_env: open it with that version, or delete its "events_sha256" '
        "entry to accept the game as this version replays it"
    )


def _versions_note(rep: Replay) -> str:
    changed = _changed_versions(rep)
    return f" (versions that differ: {', '.join(changed)})" if changed else ""


def _changed_versions(rep: Replay) -> list[str]:
    """``"name recorded -> now"`` for every version that differs between the recording and now."""
    now = versions()
    pairs = [(k, rep.versions.get(k), now.get(k)) for k in sorted(set(rep.versions) | set(now))]
    return [f"{k} {a} -> {b}" for k, a, b in pairs if a != b]


def steps(rep: Replay, render_mode: str | None = None) -> Iterator[raw_env]:
    """Play the replay in a new raw env, yielding the env after the reset and after every action."""
    env = start(rep, render_mode)
    yield env
    for i, action in enumerate(rep.actions):
        _dead_steps(env)
        if not env.agents:
            raise _mismatch(
                rep, env.events, f"the episode ended after {i} of {len(rep.actions)} recorded actions"
            )
        env.step(action)
        yield env
    if rep.illegal is not None:
        _dead_steps(env)
        env.step(rep.illegal["action"])
        yield env


def play(rep: Replay, render_mode: str | None = None, check: bool = True) -> raw_env:
    """Replay to the end; with ``check``, the event log must match the recorded one exactly."""
    env = None
    for env in steps(rep, render_mode):  # noqa: B007 - the last env is the result
        pass
    if check and rep.events_sha256 and events_digest(env.events) != rep.events_sha256:
        raise _mismatch(rep, env.events, "the replayed event log does not match the recorded digest")
    return env


def frames(rep: Replay, every: int = 1, captions: bool = True) -> Iterator[np.ndarray]:
    """RGB frames of the replay: after the reset, after every ``every``-th action, and the last.

    ``captions``: each frame carries a caption strip (``render_image(..., caption=)``) telling the
    events logged since the previous frame as the story tells them (``dungeon_env.render.story``,
    of the full log: the spectator's view, like the picture), by :func:`caption_of`: the last two
    lines, the minor ones (hand-offs, phases, ...) skipped unless there is nothing else, each cut to
    the frame's width; empty when nothing was logged. False: the frames of ``env.render()``."""
    if every < 1:
        raise ValueError(f"every must be >= 1, got {every}")
    if not captions:
        yield from _plain_frames(rep, every)
        return
    from dungeon_env.render.image import render_image
    from dungeon_env.render.story import Story

    story, told, pending = None, 0, []
    last = None
    for i, env in enumerate(steps(rep, render_mode="rgb_array")):
        last = env
        story = story or Story(rules=env.game.rules)  # a variant's targets in the dice lines
        new = env.game.events_since(told)
        told += len(new)
        pending.extend((e.get("type"), story.tell(e)) for e in new)
        if i % every == 0:
            yield render_image(env.game, caption=caption_of(pending))
            pending = []
    if last is not None and (len(rep.actions) + (rep.illegal is not None)) % every:
        yield render_image(last.game, caption=caption_of(pending))


def _plain_frames(rep: Replay, every: int) -> Iterator[np.ndarray]:
    last = None
    for i, env in enumerate(steps(rep, render_mode="rgb_array")):
        last = env
        if i % every == 0:
            yield env.render()
    if last is not None and (len(rep.actions) + (rep.illegal is not None)) % every:
        yield last.render()


def caption_of(told: list[tuple[str | None, str | None]], width: int | None = None) -> str:
    """A frame's caption from ``(event type, story line)`` pairs, oldest first: the last
    ``CAPTION_LINES`` lines of events that are not minor (``story.MINOR``), or of all if every one is
    minor, joined by newlines, each cut to ``width`` characters (default: the frame's width)."""
    from dungeon_env.render.image import CAPTION_LINES, caption_chars
    from dungeon_env.render.story import MINOR

    width = caption_chars() if width is None else width
    lines = [line for kind, line in told if line and kind not in MINOR] or [line for _, line in told if line]
    return "\n".join(
        line if len(line) <= width else line[: width - 3] + "..." for line in lines[-CAPTION_LINES:]
    )


def render_video(rep: Replay, path: str | Path, fps: int = 4, every: int = 1, captions: bool = True) -> Path:
    """Write the replay as a GIF (``.gif``, needs Pillow) or an MP4 (``.mp4``, needs imageio-ffmpeg);
    ``every`` and ``captions`` as :func:`frames` takes them."""
    import imageio.v2 as imageio

    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".gif", ".mp4"):
        raise ValueError(f"render_video writes .gif or .mp4 files, not {suffix or 'no suffix'!r}")
    if suffix == ".mp4":
        try:
            import imageio_ffmpeg  # noqa: F401
        except ImportError as err:
            raise ImportError("MP4 output needs imageio-ffmpeg: pip install imageio-ffmpeg") from err
        imageio.mimsave(path, list(frames(rep, every, captions)), fps=fps, macro_block_size=1)
    else:
        imageio.mimsave(path, list(frames(rep, every, captions)), duration=1000 / fps, loop=0)
    return path


def _dead_steps(env: raw_env) -> None:
    while env.agents and (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        env.step(None)


__all__ = [
    "REPLAY_FORMAT",
    "Replay",
    "ReplayFileError",
    "ReplayMismatch",
    "caption_of",
    "check_digest",
    "events_digest",
    "first_difference",
    "frames",
    "load",
    "pack_events",
    "play",
    "read_json",
    "record",
    "render_video",
    "save",
    "start",
    "steps",
    "unpack_events",
]
