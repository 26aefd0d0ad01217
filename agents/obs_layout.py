"""Observation layouts by name, so that a policy trained on an older layout still plays.

A *layout* describes an observation vector of some version of the code: its pieces in order, each
with its shape and, for every axis, the names of its entries (a column or one-hot name) or ``None``
where the entries are positions (figure slots, item rows, board squares). It also names the action
table (``actions``) and the advised observation of ``agents.advised`` (the pieces it drops and the
size of its advice one-hot). ``describe(observation_module, actions_module)`` makes one from the
code itself; ``current_layout()`` is today's. A layout of an older commit is recorded as JSON beside
the policies trained on it (``agents/policies/layout_<commit>.json``, made by
``scripts/record_layout.py``).

``Translator(old, new)`` builds the old vector from a new one *by names*: an entry whose name (or,
on a positional axis, whose position) is missing from the new layout is 0; new entries are dropped.
It is one numpy gather per call.

Layout v1 (issue 13) replaced v0's one-hot card columns by integer ids, which no renaming maps
back; so every recorded layout (all predate v1) is translated from a v0 vector, built from the game
by ``agents.observation_v0`` (the v0 observer, kept for them: ``v0_layout()``), never from v1.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

FORMAT = "dungeon_env.layout/1"
# Which axes of a piece carry names, and the observation module's attribute that lists them.
AXES_OF = {
    "board": ("PLANES", None, None),
    "units": ("UNIT_COLUMNS", None),  # v0
    "all_items": (None, "ALL_ITEM_COLUMNS"),  # v0
    "figures": (None, "FIGURE_COLUMNS"),
    "item_table": (None, "ITEM_TABLE_COLUMNS"),
    "items": (None, "ITEM_COLUMNS"),  # v0
    "spells": (None, "SPELL_COLUMNS"),  # v0
    "own_items": (None, "ITEM_COLUMNS"),
    "own_spells": (None, "SPELL_COLUMNS"),
    "candidates": (None, "CANDIDATE_COLUMNS"),
    "role": (("hero", "dm"),),
    "acting": ("ACTING",),
    "phase": ("PHASE_NAMES",),
    "decision": ("DECISION_NAMES",),
    "target_purpose": ("TARGET_PURPOSES",),
}
ADVISED_DROPPED = ("board", "item_table")  # agents.advised.DROPPED_PIECES (layout v1)
ADVISED_DROPPED_V0 = ("board", "all_items")  # the advised view of layout v0 (issue 5 to issue 13)


def _names(observation, source) -> list[str] | None:
    if source is None:
        return None
    entries = getattr(observation, source) if isinstance(source, str) else source
    return [entry if isinstance(entry, str) else entry[0] for entry in entries]


def describe(observation, actions, commit: str = "", dropped=ADVISED_DROPPED) -> dict:
    """The layout of an observation module (``dungeon_env.observation`` of some version) and its
    action table (``dungeon_env.engine.actions``)."""
    pieces = []
    for name, shape in observation.OBS_SPEC.pieces:
        sources = AXES_OF.get(name, ())
        axes = [_names(observation, sources[i] if i < len(sources) else None) for i in range(len(shape))]
        for i, (n, names) in enumerate(zip(shape, axes, strict=True)):
            if names is not None and len(names) != n:
                raise ValueError(f"layout: piece {name!r} axis {i} has {n} entries but {len(names)} names")
        pieces.append({"name": name, "shape": list(shape), "axes": axes})
    return {
        "format": FORMAT,
        "commit": commit,
        "size": int(observation.OBS_SPEC.size),
        "actions": list(actions.ACTION_NAMES),
        "advised": {"dropped": list(dropped), "advice": len(actions.ACTION_NAMES)},
        "pieces": pieces,
    }


def current_layout() -> dict:
    from dungeon_env import observation
    from dungeon_env.engine import actions

    return describe(observation, actions, commit="current")


def v0_layout() -> dict:
    """The layout of ``agents.observation_v0`` (the env's observation before issue 13) with today's
    action table: the source that policies trained on v0 layouts are translated from."""
    from agents import observation_v0
    from dungeon_env.engine import actions

    return describe(observation_v0, actions, commit="v0", dropped=ADVISED_DROPPED_V0)


def load_layout(path: str | Path) -> dict:
    data = json.loads(Path(path).read_text())
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}: not an observation layout (expected format {FORMAT!r})")
    return data


def compact_size(layout: dict) -> int:
    """The advised observation's size without the advice: every piece the advised view keeps."""
    dropped = set(layout["advised"]["dropped"])
    return sum(int(np.prod(p["shape"])) for p in layout["pieces"] if p["name"] not in dropped)


def advised_size(layout: dict) -> int:
    return compact_size(layout) + int(layout["advised"]["advice"])


def _axis_map(old: list[str] | None, new: list[str] | None, old_n: int, new_n: int) -> np.ndarray:
    """For each old entry of one axis, its index in the new axis, or -1."""
    if old is None or new is None:
        return np.array([i if i < new_n else -1 for i in range(old_n)], np.int64)
    where = {name: i for i, name in enumerate(new)}
    return np.array([where.get(name, -1) for name in old], np.int64)


def _piece_sources(old: dict, new: dict | None, offset: int) -> np.ndarray:
    """The new flat index of every entry of an old piece (in its C order), -1 if it has none."""
    size = int(np.prod(old["shape"]))
    if new is None or len(new["shape"]) != len(old["shape"]):
        return np.full(size, -1, np.int64)
    maps = [
        _axis_map(o, n, on, nn)
        for o, n, on, nn in zip(old["axes"], new["axes"], old["shape"], new["shape"], strict=True)
    ]
    grids = np.meshgrid(*maps, indexing="ij")
    valid = np.all([grid >= 0 for grid in grids], axis=0)
    flat = np.ravel_multi_index([np.where(valid, grid, 0) for grid in grids], new["shape"]) + offset
    return np.where(valid, flat, -1).ravel()


class Translator:
    """Builds an observation of layout ``old`` from one of layout ``new``, by names.

    ``pieces``: the old pieces to build, in order (default: all; the advised view: without its
    dropped pieces). ``missing`` lists the old entries the new layout lacks (always 0)."""

    def __init__(self, old: dict, new: dict, pieces: list[str] | None = None) -> None:
        offsets, by_name, offset = {}, {}, 0
        for piece in new["pieces"]:
            offsets[piece["name"]], by_name[piece["name"]] = offset, piece
            offset += int(np.prod(piece["shape"]))
        if offset != new["size"]:
            raise ValueError(f"layout {new.get('commit')!r}: pieces add up to {offset}, not {new['size']}")
        keep = [p for p in old["pieces"] if pieces is None or p["name"] in pieces]
        parts = [_piece_sources(p, by_name.get(p["name"]), offsets.get(p["name"], 0)) for p in keep]
        self.source = np.concatenate(parts) if parts else np.zeros(0, np.int64)
        self.valid = self.source >= 0
        self._take = np.where(self.valid, self.source, 0)
        self.size, self.new_size = len(self.source), int(new["size"])
        self.missing = int((~self.valid).sum())

    def __call__(self, flat: np.ndarray) -> np.ndarray:
        if flat.shape != (self.new_size,):
            raise ValueError(f"expected an observation of shape ({self.new_size},), got {flat.shape}")
        out = flat[self._take]
        out[~self.valid] = 0.0
        return out.astype(np.float32, copy=False)


def advised_translator(old: dict, new: dict | None = None) -> Translator:
    """The old layout's advised view (without its advice one-hot) from a flat observation of layout
    ``new`` (default: v0's, ``agents.observation_v0``, which every recorded layout predates)."""
    new = v0_layout() if new is None else new
    dropped = set(old["advised"]["dropped"])
    return Translator(old, new, [p["name"] for p in old["pieces"] if p["name"] not in dropped])


__all__ = [
    "FORMAT",
    "Translator",
    "advised_size",
    "advised_translator",
    "compact_size",
    "current_layout",
    "describe",
    "load_layout",
    "v0_layout",
]
