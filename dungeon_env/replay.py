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
(``illegal_action="penalize"``), the outcome, and a SHA-256 of the event log, which ``play``
checks. Dice come from the seed alone, so nothing else is needed.
"""

from __future__ import annotations

import hashlib
import json
import platform
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path

import numpy as np

from dungeon_env.content.variants import Variant
from dungeon_env.engine.game import SAVE_FORMAT
from dungeon_env.env import ENV_NAME, raw_env

REPLAY_FORMAT = "dungeon_env.replay/1"


class ReplayMismatch(RuntimeError):
    """The replayed trajectory differs from the recorded one (another version of the rules?)."""


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

    def to_json(self) -> dict:
        return asdict(self)

    @property
    def variant(self) -> Variant:
        """The rules variant the episode was played with (the base rules for older replays)."""
        return Variant.coerce(self.options.get("variant"))

    @classmethod
    def from_json(cls, data: dict) -> Replay:
        if not isinstance(data, dict) or data.get("format") != REPLAY_FORMAT:
            found = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise ValueError(f"not a replay: expected format {REPLAY_FORMAT!r}, found {found!r}")
        missing = [k for k in ("options", "seed", "actions") if k not in data]
        if missing:
            raise ValueError(f"replay is missing keys {missing}")
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})


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


def record(env) -> Replay:
    """The replay of ``env``'s current episode so far (a wrapped or a raw env)."""
    raw = env.unwrapped
    if raw.game is None:
        raise ValueError("the env has not been reset: there is no episode to record")
    return Replay(
        options=dict(raw.options),
        seed=int(raw.seed),
        actions=list(raw.actions),
        outcome=raw.game.outcome or ("illegal_action" if raw.illegal else ""),
        events_sha256=events_digest(raw.events),
        illegal=dict(raw.illegal) if raw.illegal else None,
        versions=versions(),
    )


def save(env_or_replay, path: str | Path) -> Replay:
    """Write the replay of an env's episode (or a :class:`Replay`) to ``path`` as JSON."""
    rep = env_or_replay if isinstance(env_or_replay, Replay) else record(env_or_replay)
    Path(path).write_text(json.dumps(rep.to_json(), indent=1))
    return rep


def load(path: str | Path) -> Replay:
    try:
        data = json.loads(Path(path).read_text())
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}: not valid JSON ({err})") from err
    return Replay.from_json(data)


def steps(rep: Replay, render_mode: str | None = None) -> Iterator[raw_env]:
    """Play the replay in a new raw env, yielding the env after the reset and after every action."""
    env = raw_env(render_mode=render_mode, **rep.options)
    env.reset(seed=rep.seed)
    yield env
    for i, action in enumerate(rep.actions):
        _dead_steps(env)
        if not env.agents:
            raise ReplayMismatch(f"the episode ended after {i} of {len(rep.actions)} recorded actions")
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
        raise ReplayMismatch(
            "the replayed event log differs from the recorded one "
            f"(recorded with {rep.versions}, replayed with {versions()})"
        )
    return env


def frames(rep: Replay, every: int = 1) -> Iterator[np.ndarray]:
    """RGB frames of the replay: after the reset, after every ``every``-th action, and the last."""
    if every < 1:
        raise ValueError(f"every must be >= 1, got {every}")
    last = None
    for i, env in enumerate(steps(rep, render_mode="rgb_array")):
        last = env
        if i % every == 0:
            yield env.render()
    if last is not None and (len(rep.actions) + (rep.illegal is not None)) % every:
        yield last.render()


def render_video(rep: Replay, path: str | Path, fps: int = 4, every: int = 1) -> Path:
    """Write the replay as a GIF (``.gif``, needs Pillow) or an MP4 (``.mp4``, needs imageio-ffmpeg)."""
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
        imageio.mimsave(path, list(frames(rep, every)), fps=fps, macro_block_size=1)
    else:
        imageio.mimsave(path, list(frames(rep, every)), duration=1000 / fps, loop=0)
    return path


def _dead_steps(env: raw_env) -> None:
    while env.agents and (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        env.step(None)


__all__ = [
    "REPLAY_FORMAT",
    "Replay",
    "ReplayMismatch",
    "events_digest",
    "frames",
    "load",
    "play",
    "record",
    "render_video",
    "save",
    "steps",
]
