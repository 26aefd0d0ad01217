"""Named, seeded dice streams with injectable faces.

Each kind of chance (combat, surprise, doors, ...) has its own stream, so that, say, an extra door
roll does not shift every later combat roll. The DM's secret rolls (Detect Traps, R-TRAP-03) have
the ``secret`` stream to themselves, so what heroes see never depends on how many of them were made.
A stream is a SplitMix64 generator (64-bit state, a well-tested mixer) seeded from
``sha256(seed, name)``: identical in every process and on every machine, and its whole state is one
integer, so copying a game or saving it as JSON is cheap.
Faces are drawn without bias by rejection. Tests put exact faces in with :meth:`Dice.force`:
``force(6, 1)`` queues faces for the next rolls whatever their stream (the global queue);
``force(6, 1, stream="combat")`` queues them for that stream's rolls only. A roll takes the first
face of its stream's own queue, then of the global queue, and only then draws from its generator,
so a test can script the Fights and leave the Patrol, Surprise and door rolls to the seed.
"""

from __future__ import annotations

import hashlib
from contextlib import contextmanager

STREAMS = ("combat", "surprise", "doors", "traps", "patrol", "deaths_door", "jump", "decks", "misc", "secret")
_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_LIMIT = (1 << 64) - ((1 << 64) % 6)  # largest multiple of 6: values at or above it are redrawn


def _stream_seed(seed: int, name: str) -> int:
    digest = hashlib.sha256(f"{seed}:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def check_forced(faces: tuple[int, ...], stream: str | None) -> None:
    """What :meth:`Dice.force` accepts: faces 1..6 (ints), and a stream of :data:`STREAMS` or None."""
    for face in faces:
        if not (isinstance(face, int) and 1 <= face <= 6):
            raise ValueError(f"a forced die face must be an int 1..6, got {face!r}")
    if stream is not None and stream not in STREAMS:
        raise ValueError(f"unknown dice stream {stream!r}; the streams are {', '.join(STREAMS)}")


class Dice:
    """Six-sided dice only (R-BOARD-03): :meth:`d6` and :meth:`roll` are the whole API."""

    __slots__ = ("seed", "_state", "_forced", "_stream_forced")

    def __init__(self, seed: int) -> None:
        self.seed = int(seed)
        self._state = {name: _stream_seed(self.seed, name) for name in STREAMS}
        self._forced: list[int] = []  # the global queue: the next rolls of any stream
        self._stream_forced: dict[str, list[int]] = {}  # stream -> its own queue (never an empty one)

    def force(self, *faces: int, stream: str | None = None) -> None:
        """Queue exact faces (1..6) for the next rolls: of any stream (``stream=None``, the global
        queue), or only of the named stream (one of :data:`STREAMS`), whose rolls take these first
        and the global queue's after them."""
        check_forced(faces, stream)
        if stream is None:
            self._forced.extend(faces)
        elif faces:
            self._stream_forced.setdefault(stream, []).extend(faces)

    @contextmanager
    def unforced(self):
        """Roll from the streams inside this block even if faces are forced (e.g. shuffling decks at
        set-up must not eat the faces a test forced for the game's checks)."""
        forced, self._forced = self._forced, []
        by_stream, self._stream_forced = self._stream_forced, {}
        try:
            yield self
        finally:
            self._forced = forced + self._forced
            for name, faces in self._stream_forced.items():
                by_stream.setdefault(name, []).extend(faces)
            self._stream_forced = by_stream

    @property
    def forced_left(self) -> int:
        """Forced faces not rolled yet, in every queue."""
        return len(self._forced) + sum(len(q) for q in self._stream_forced.values())

    def forced_for(self, stream: str | None = None) -> list[int]:
        """The faces still queued for ``stream`` alone (None: the global queue), in order."""
        return list(self._forced if stream is None else self._stream_forced.get(stream, ()))

    def d6(self, stream: str) -> int:
        if self._stream_forced:
            own = self._stream_forced.get(stream)
            if own:
                face = own.pop(0)
                if not own:
                    del self._stream_forced[stream]
                return face
        if self._forced:
            return self._forced.pop(0)
        state = self._state[stream]
        while True:
            state = (state + _GOLDEN) & _MASK
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < _LIMIT:
                self._state[stream] = state
                return z % 6 + 1

    def roll(self, stream: str, n: int) -> list[int]:
        return [self.d6(stream) for _ in range(n)]

    def copy(self) -> Dice:
        clone = Dice.__new__(Dice)
        clone.seed = self.seed
        clone._state = dict(self._state)
        clone._forced = list(self._forced)
        clone._stream_forced = {name: list(q) for name, q in self._stream_forced.items()}
        return clone

    def to_json(self) -> dict:
        """``forced_streams`` (each stream's own queue) is written only when a queue holds faces, so
        a game without them saves as before."""
        out = {"seed": self.seed, "forced": list(self._forced), "streams": dict(self._state)}
        if self._stream_forced:
            out["forced_streams"] = {name: list(q) for name, q in self._stream_forced.items()}
        return out

    @classmethod
    def from_json(cls, data: dict) -> Dice:
        try:
            dice = cls(int(data["seed"]))
            forced = [int(f) for f in data["forced"]]
            streams = {name: int(state) for name, state in data["streams"].items()}
            by_stream = {name: [int(f) for f in q] for name, q in data.get("forced_streams", {}).items()}
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise ValueError(f"saved dice: expected seed, forced and streams as ints ({err!r})") from err
        dice.force(*forced)
        for name, faces in by_stream.items():
            try:
                dice.force(*faces, stream=name)
            except ValueError as err:
                raise ValueError(f"saved dice: forced_streams: {err}") from err
        for name, state in streams.items():
            if name not in dice._state:
                raise ValueError(f"saved dice: unknown stream {name!r}; expected one of {STREAMS}")
            if not 0 <= state < 1 << 64:
                raise ValueError(f"saved dice: stream {name!r} state {state} is not a 64-bit value")
            dice._state[name] = state
        return dice
