"""Named, seeded dice streams with injectable faces.

Each kind of chance (combat, surprise, doors, ...) has its own stream, so that, say, an extra door
roll does not shift every later combat roll. The DM's secret rolls (Detect Traps, R-TRAP-03) have
the ``secret`` stream to themselves, so what heroes see never depends on how many of them were made.
A stream is a SplitMix64 generator (64-bit state, a well-tested mixer) seeded from
``sha256(seed, name)``: identical in every process and on every machine, and its whole state is one
integer, so copying a game or saving it as JSON is cheap.
Faces are drawn without bias by rejection. Tests put exact faces in with :meth:`Dice.force`;
forced faces are used first, in order, whatever the stream.
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


class Dice:
    """Six-sided dice only (R-BOARD-03): :meth:`d6` and :meth:`roll` are the whole API."""

    __slots__ = ("seed", "_state", "_forced")

    def __init__(self, seed: int) -> None:
        self.seed = int(seed)
        self._state = {name: _stream_seed(self.seed, name) for name in STREAMS}
        self._forced: list[int] = []

    def force(self, *faces: int) -> None:
        """Queue exact faces (1..6) to be returned by the next rolls, whatever their stream."""
        for face in faces:
            if not (isinstance(face, int) and 1 <= face <= 6):
                raise ValueError(f"a forced die face must be an int 1..6, got {face!r}")
        self._forced.extend(faces)

    @contextmanager
    def unforced(self):
        """Roll from the streams inside this block even if faces are forced (e.g. shuffling decks at
        set-up must not eat the faces a test forced for the game's checks)."""
        forced, self._forced = self._forced, []
        try:
            yield self
        finally:
            self._forced = forced + self._forced

    @property
    def forced_left(self) -> int:
        return len(self._forced)

    def d6(self, stream: str) -> int:
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
        return clone

    def to_json(self) -> dict:
        return {"seed": self.seed, "forced": list(self._forced), "streams": dict(self._state)}

    @classmethod
    def from_json(cls, data: dict) -> Dice:
        try:
            dice = cls(int(data["seed"]))
            forced = [int(f) for f in data["forced"]]
            streams = {name: int(state) for name, state in data["streams"].items()}
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise ValueError(f"saved dice: expected seed, forced and streams as ints ({err!r})") from err
        dice.force(*forced)
        for name, state in streams.items():
            if name not in dice._state:
                raise ValueError(f"saved dice: unknown stream {name!r}; expected one of {STREAMS}")
            if not 0 <= state < 1 << 64:
                raise ValueError(f"saved dice: stream {name!r} state {state} is not a 64-bit value")
            dice._state[name] = state
        return dice
