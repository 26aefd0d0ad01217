"""Named, seeded dice streams with injectable faces.

Each kind of chance (combat, surprise, doors, ...) has its own stream so that, say, an extra door
roll does not shift every later combat roll. Streams are stdlib ``random.Random`` generators seeded
from ``sha256(seed, name)``: identical in every process and machine, cheap to copy and to save as
JSON. Tests put exact faces in with :meth:`Dice.force`; forced faces are used first, in order.
"""

from __future__ import annotations

import hashlib
import random

STREAMS = ("combat", "surprise", "doors", "traps", "patrol", "deaths_door", "jump", "decks", "misc")


def _stream_seed(seed: int, name: str) -> int:
    digest = hashlib.sha256(f"{seed}:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


class Dice:
    """Six-sided dice only (R-BOARD-03): :meth:`d6` and :meth:`roll` are the whole API."""

    def __init__(self, seed: int) -> None:
        self.seed = int(seed)
        self._streams = {name: random.Random(_stream_seed(self.seed, name)) for name in STREAMS}
        self._forced: list[int] = []

    def force(self, *faces: int) -> None:
        """Queue exact faces (1..6) to be returned by the next rolls, whatever their stream."""
        for face in faces:
            if not (isinstance(face, int) and 1 <= face <= 6):
                raise ValueError(f"a forced die face must be an int 1..6, got {face!r}")
        self._forced.extend(faces)

    @property
    def forced_left(self) -> int:
        return len(self._forced)

    def d6(self, stream: str) -> int:
        if self._forced:
            return self._forced.pop(0)
        return self._streams[stream].randint(1, 6)

    def roll(self, stream: str, n: int) -> list[int]:
        return [self.d6(stream) for _ in range(n)]

    def copy(self) -> Dice:
        clone = Dice.__new__(Dice)
        clone.seed = self.seed
        clone._streams = {}
        for name, rng in self._streams.items():
            twin = random.Random()
            twin.setstate(rng.getstate())
            clone._streams[name] = twin
        clone._forced = list(self._forced)
        return clone

    def to_json(self) -> dict:
        return {
            "seed": self.seed,
            "forced": list(self._forced),
            "streams": {name: _state_to_json(rng.getstate()) for name, rng in self._streams.items()},
        }

    @classmethod
    def from_json(cls, data: dict) -> Dice:
        dice = cls(int(data["seed"]))
        dice._forced = [int(f) for f in data["forced"]]
        for name, state in data["streams"].items():
            if name not in dice._streams:
                raise ValueError(f"saved dice: unknown stream {name!r}; expected one of {STREAMS}")
            dice._streams[name].setstate(_state_from_json(state))
        return dice


def _state_to_json(state: tuple) -> list:
    version, internal, gauss = state
    return [version, list(internal), gauss]


def _state_from_json(data: list) -> tuple:
    version, internal, gauss = data
    return (int(version), tuple(int(v) for v in internal), gauss)
