"""``DungeonFeatures``: a Stable-Baselines3 features extractor that reads the observation's pieces
(``dungeon_env.observation``, layout v1) instead of one flat vector, for the flat Box and the dict
format alike (told apart by the observation space).

- ``board`` [19, 28, 24]: a CNN (3x3 convolutions: 32 channels at stride 2 to 14x12, 64 at stride
  2 to 7x6, 64 more at 7x6), flattened into a linear layer; and a 7x7 crop of the raw planes
  centred on the acting figure's square (the ``acting_unit`` plane) through its own linear layer:
  the full-resolution view of what lies next to the figure that moves, jumps or disarms north,
  east, south or west (a stride-1 convolution over the whole board cost three times as much);
- ``figures`` [64, 44]: one MLP per row with shared weights, the integer ``kind`` column read by an
  ``nn.Embedding``; pooled over the present rows (``present`` = 1) by masked mean and max, plus the
  acting figure's own row (the ``acting`` column) and the observing hero's (``me``);
- ``candidates`` (row k is ``TARGET_k``), ``own_items`` (``ITEM_k``), ``own_spells`` (``SPELL_k``):
  small per-row encoders with embeddings for their ``card`` / ``spell`` ids, kept in row order
  (the actions name the rows); a figure candidate also gets its figure's row encoding (its ``row``
  pointer), so the policy sees who each ``TARGET_k`` is;
- ``item_table`` [96, 12]: a per-row encoder (``card`` embedding; ``holder`` read only as "held"),
  pooled by masked mean and max;
- the decision context (every piece of ``CONTEXT``): an MLP;

all concatenated and mapped to ``features_dim`` (256). Absent rows (``present`` = 0) change nothing:
their encodings are zeroed before pooling, and the pooled values are means over the present rows
and maxima of non-negative (ReLU) encodings.

``LeanFeatures`` (network ``"lean"``) is the cheap one: the board average-pooled, the same crop, the
other pieces as they are, one linear layer; a decision costs a fraction of a millisecond.

``policy_kwargs_for(kind, observation_space)`` gives MaskablePPO's ``policy_kwargs`` for
``"board"`` (this extractor), ``"lean"`` or ``"mlp"`` (SB3's flatten, as before);
``policy_for(observation_space)`` the SB3 policy name the space needs (``MultiInputPolicy`` for the
dict format). SB3 saves the extractor by its class path (``training.features.DungeonFeatures``), so
``MaskablePPO.load`` needs this module importable. Needs torch (the ``training`` extra).
"""

from __future__ import annotations

import math
from typing import Any

import torch as th
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from dungeon_env.observation import (
    CANDIDATE_COLUMNS,
    CCOL,
    CONTEXT,
    DICT_PIECES,
    FCOL,
    FIGURE_COLUMNS,
    ID_BOUNDS,
    ITEM_COLUMNS,
    ITEM_TABLE_COLUMNS,
    OBS_SPEC,
    PLANE,
    SPELL_COLUMNS,
    TABLES,
    TCOL,
)

NETWORKS = ("board", "lean", "mlp")
CROP = 3  # the acting figure's crop reaches this many squares each way (7x7)
_SHAPES = dict(OBS_SPEC.pieces)
_CONTEXT_SIZE = OBS_SPEC.size - OBS_SPEC.offsets[CONTEXT[0]]


def _value_columns(columns) -> list[int]:
    """The indices of a table's columns that are not integer ids (``ID_BOUNDS``)."""
    return [j for j, (name, _) in enumerate(columns) if name not in ID_BOUNDS]


def _ids(table: th.Tensor, column: int, bound: int) -> th.Tensor:
    """An id column as long integers in ``0..bound``."""
    return table[..., column].round().long().clamp_(0, bound)


def _mlp(sizes: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for n_in, n_out in zip(sizes, sizes[1:], strict=False):
        layers += [nn.Linear(n_in, n_out), nn.ReLU()]
    return nn.Sequential(*layers)


def masked_pool(rows: th.Tensor, present: th.Tensor) -> th.Tensor:
    """Masked mean and max over the rows (axis -2) of non-negative encodings ``rows`` [..., N, H]
    where ``present`` [..., N] is 1: [..., 2H]; zeros where no row is present."""
    mask = present.unsqueeze(-1)
    rows = rows * mask
    mean = rows.sum(-2) / mask.sum(-2).clamp(min=1.0)
    return th.cat([mean, rows.amax(-2)], dim=-1)


def crop_offsets() -> tuple[th.Tensor, th.Tensor]:
    """The row and column offsets of the (2 * CROP + 1)^2 squares of a crop, row by row."""
    offsets = th.arange(-CROP, CROP + 1)
    dy, dx = th.meshgrid(offsets, offsets, indexing="ij")
    return dy.reshape(-1), dx.reshape(-1)


def acting_crop(board: th.Tensor, dy: th.Tensor, dx: th.Tensor) -> th.Tensor:
    """The (2 * CROP + 1)^2 squares (offsets ``dy``, ``dx``) of every plane around the acting
    figure's square (the ``acting_unit`` plane), zeros off the board and when no figure is marked:
    [B, planes * side * side]."""
    batch, planes, height, width = board.shape
    acting = board[:, PLANE["acting_unit"]].reshape(batch, -1)
    marked, where = acting.max(dim=1)
    y, x = where // width, where % width
    ys = y.unsqueeze(1) + dy + CROP
    xs = x.unsqueeze(1) + dx + CROP
    padded = nn.functional.pad(board, (CROP, CROP, CROP, CROP))
    flat = padded.reshape(batch, planes, -1)
    index = (ys * (width + 2 * CROP) + xs).unsqueeze(1).expand(batch, planes, -1)
    window = th.gather(flat, 2, index) * (marked > 0).to(board.dtype).view(batch, 1, 1)
    return window.reshape(batch, -1)


class FigureEncoder(nn.Module):
    """One MLP per figure row (shared weights), ``kind`` through an embedding; any number of rows."""

    def __init__(self, hidden: int = 64, kind_dim: int = 16) -> None:
        super().__init__()
        self.values = _value_columns(FIGURE_COLUMNS)
        self.kind = nn.Embedding(ID_BOUNDS["kind"] + 1, kind_dim)
        self.mlp = _mlp([len(self.values) + kind_dim, hidden, hidden])
        self.out_dim = hidden

    def forward(self, figures: th.Tensor) -> th.Tensor:
        """[..., N, 44] -> [..., N, hidden], 0 for an absent row."""
        kind = self.kind(_ids(figures, FCOL["kind"], ID_BOUNDS["kind"]))
        rows = self.mlp(th.cat([figures[..., self.values], kind], dim=-1))
        return rows * figures[..., FCOL["present"]].unsqueeze(-1)

    def summary(self, figures: th.Tensor) -> th.Tensor:
        """The pooled figure table (masked mean and max): [..., 2 * hidden]; the order of the rows
        and any absent rows change nothing."""
        return masked_pool(self(figures), figures[..., FCOL["present"]])


class RowEncoder(nn.Module):
    """A small MLP per row of an item or spell table (shared weights), its id column embedded."""

    def __init__(self, columns, id_column: str, hidden: int, id_dim: int = 8, extra: int = 0) -> None:
        super().__init__()
        index = {name: j for j, (name, _) in enumerate(columns)}
        self.values = _value_columns(columns)
        self.id_column, self.bound = index[id_column], ID_BOUNDS[id_column]
        self.present = index["present"]
        self.embedding = nn.Embedding(self.bound + 1, id_dim)
        self.mlp = _mlp([len(self.values) + id_dim + extra, hidden])
        self.out_dim = hidden

    def forward(self, table: th.Tensor, *extra: th.Tensor) -> th.Tensor:
        ids = self.embedding(_ids(table, self.id_column, self.bound))
        rows = self.mlp(th.cat([table[..., self.values], ids, *extra], dim=-1))
        return rows * table[..., self.present].unsqueeze(-1)


class DungeonFeatures(BaseFeaturesExtractor):
    """The board CNN, the acting figure's crop, the figure set encoder, the item, spell and candidate
    encoders and the context MLP, concatenated into ``features_dim`` (see the module docstring).

    ``observation_space``: the flat Box of ``RoleEnv`` (sliced with ``OBS_SPEC``) or the Dict of
    ``RoleEnv(observation_format="dict")`` (its ``DICT_PIECES``)."""

    def __init__(
        self,
        observation_space: spaces.Space,
        features_dim: int = 256,
        board_channels: tuple[int, int, int] = (32, 64, 64),
        board_dim: int = 128,
        figure_dim: int = 64,
    ) -> None:
        super().__init__(observation_space, features_dim)
        self.is_dict = reads_dict(observation_space)
        planes, height, width = _SHAPES["board"]
        c1, c2, c3 = board_channels
        self.cnn = nn.Sequential(
            nn.Conv2d(planes, c1, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.Conv2d(c1, c2, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.Conv2d(c2, c3, 3, padding=1),
            nn.ReLU(),
            nn.Flatten(),
        )
        with th.no_grad():
            n_board = self.cnn(th.zeros(1, planes, height, width)).shape[1]
        self.board_linear = nn.Sequential(nn.Linear(n_board, board_dim), nn.ReLU())
        side = 2 * CROP + 1
        self.crop_linear = nn.Sequential(nn.Linear(planes * side * side, 64), nn.ReLU())
        dy, dx = crop_offsets()
        self.register_buffer("_crop_dy", dy, persistent=False)
        self.register_buffer("_crop_dx", dx, persistent=False)

        self.figures = FigureEncoder(figure_dim)
        self.candidates = RowEncoder(CANDIDATE_COLUMNS, "card", 16, extra=figure_dim)
        self.own_items = RowEncoder(ITEM_COLUMNS, "card", 16)
        self.own_spells = RowEncoder(SPELL_COLUMNS, "spell", 8)
        self.item_table = RowEncoder(ITEM_TABLE_COLUMNS, "card", 32, extra=1)
        self.context = _mlp([_CONTEXT_SIZE, 64, 64])
        n_targets, n_items, n_spells = (_SHAPES[n][0] for n in ("candidates", "own_items", "own_spells"))
        n_cat = (
            board_dim
            + 64  # crop
            + 4 * figure_dim  # mean, max, acting, me
            + n_targets * self.candidates.out_dim
            + n_items * self.own_items.out_dim
            + n_spells * self.own_spells.out_dim
            + 2 * self.item_table.out_dim
            + 64  # context
        )
        self.head = nn.Sequential(nn.Linear(n_cat, features_dim), nn.ReLU())

    # ----- the pieces -----
    def pieces(self, observations) -> dict[str, th.Tensor]:
        """The observation's tables by name (batched, with their shapes) and ``context``."""
        if self.is_dict:
            batch = observations["board"].shape[0]
            out = {name: observations[name].reshape(batch, *_SHAPES[name]) for name in TABLES}
            out["context"] = observations["context"].reshape(batch, -1)
            return out
        flat = observations.reshape(observations.shape[0], -1)
        out = {}
        for name in TABLES:
            where = OBS_SPEC.slice(name)
            out[name] = flat[:, where].reshape(flat.shape[0], *_SHAPES[name])
        out["context"] = flat[:, OBS_SPEC.offsets[CONTEXT[0]] :]
        return out

    def crop(self, board: th.Tensor) -> th.Tensor:
        """The acting figure's crop of the board (:func:`acting_crop`)."""
        return acting_crop(board, self._crop_dy, self._crop_dx)

    def forward(self, observations) -> th.Tensor:
        p = self.pieces(observations)
        board, figures = p["board"], p["figures"]
        batch = board.shape[0]
        rows = self.figures(figures)  # [B, 64, H], zero where absent
        present = figures[..., FCOL["present"]]
        acting = (rows * figures[..., FCOL["acting"]].unsqueeze(-1)).sum(1)
        me = (rows * figures[..., FCOL["me"]].unsqueeze(-1)).sum(1)

        candidates = p["candidates"]
        pointer = _ids(candidates, CCOL["row"], ID_BOUNDS["row"])
        is_unit = candidates[..., CCOL["unit"]]
        slot = ((pointer - 1).clamp(min=0) * (is_unit > 0)).clamp(max=rows.shape[1] - 1)
        who = th.gather(rows, 1, slot.unsqueeze(-1).expand(-1, -1, rows.shape[-1])) * is_unit.unsqueeze(-1)

        table = p["item_table"]
        held = (table[..., TCOL["holder"]] > 0).to(table.dtype).unsqueeze(-1)
        parts = [
            self.board_linear(self.cnn(board)),
            self.crop_linear(self.crop(board)),
            masked_pool(rows, present),
            acting,
            me,
            self.candidates(candidates, who).reshape(batch, -1),
            self.own_items(p["own_items"]).reshape(batch, -1),
            self.own_spells(p["own_spells"]).reshape(batch, -1),
            masked_pool(self.item_table(table, held), table[..., TCOL["present"]]),
            self.context(p["context"]),
        ]
        return self.head(th.cat(parts, dim=1))


class LeanFeatures(BaseFeaturesExtractor):
    """A network cheap enough to decide in well under a millisecond of one core, one observation at a
    time (an opponent's and a search prior's budget): the board average-pooled to ``pool`` x ``pool``
    blocks, the acting figure's 7x7 crop of every plane (:func:`acting_crop`) and the rest of the
    observation (the figure, candidate, item and spell tables and the decision context) as it is,
    concatenated and mapped by one linear layer to ``features_dim``. Against ``DungeonFeatures`` it
    trades the set encoders and the CNN (a dozen small layers, several milliseconds a decision) for
    one matrix product; the tables' row order carries who is who (the actions name the rows).

    ``observation_space``: the flat Box of ``RoleEnv`` or its Dict format, as ``DungeonFeatures``."""

    def __init__(self, observation_space: spaces.Space, features_dim: int = 256, pool: int = 4) -> None:
        super().__init__(observation_space, features_dim)
        self.is_dict = reads_dict(observation_space)
        planes, height, width = _SHAPES["board"]
        self.pool = nn.AvgPool2d(pool, ceil_mode=True)
        side = 2 * CROP + 1
        pooled = planes * -(-height // pool) * -(-width // pool)
        n_rest = sum(math.prod(_SHAPES[name]) for name in TABLES if name != "board") + _CONTEXT_SIZE
        dy, dx = crop_offsets()
        self.register_buffer("_crop_dy", dy, persistent=False)
        self.register_buffer("_crop_dx", dx, persistent=False)
        self.linear = nn.Sequential(
            nn.Linear(pooled + planes * side * side + n_rest, features_dim), nn.ReLU()
        )

    def forward(self, observations) -> th.Tensor:
        if self.is_dict:
            batch = observations["board"].shape[0]
            board = observations["board"].reshape(batch, *_SHAPES["board"])
            rest = [observations[name].reshape(batch, -1) for name in TABLES if name != "board"]
            rest.append(observations["context"].reshape(batch, -1))
        else:
            flat = observations.reshape(observations.shape[0], -1)
            batch, board_end = flat.shape[0], OBS_SPEC.slice("board").stop
            board = flat[:, :board_end].reshape(batch, *_SHAPES["board"])
            rest = [flat[:, board_end:]]
        parts = [self.pool(board).reshape(batch, -1), acting_crop(board, self._crop_dy, self._crop_dx), *rest]
        return self.linear(th.cat(parts, dim=1))


def reads_dict(observation_space: spaces.Space) -> bool:
    """Whether ``DungeonFeatures`` reads ``observation_space`` as the dict format (True) or the flat
    vector (False); a ValueError for any other space."""
    if isinstance(observation_space, spaces.Dict):
        missing = set(DICT_PIECES) - set(observation_space.spaces)
        if missing:
            raise ValueError(f"DungeonFeatures: the dict observation lacks the pieces {sorted(missing)}")
        return True
    if isinstance(observation_space, spaces.Box) and observation_space.shape == (OBS_SPEC.size,):
        return False
    raise ValueError(
        "DungeonFeatures reads the env's flat observation (a Box of shape "
        f"({OBS_SPEC.size},)) or its dict format; got {observation_space} (another observation "
        "has no board planes where it reads them: use network='mlp')"
    )


EXTRACTORS: dict[str, type[BaseFeaturesExtractor]] = {"board": DungeonFeatures, "lean": LeanFeatures}


def policy_for(observation_space: spaces.Space) -> str:
    """The SB3 policy name for the space: ``MultiInputPolicy`` for a Dict, else ``MlpPolicy``."""
    return "MultiInputPolicy" if isinstance(observation_space, spaces.Dict) else "MlpPolicy"


def policy_kwargs_for(
    kind: str, observation_space: spaces.Space, net_arch=(256, 256), features_dim: int = 256
) -> dict[str, Any]:
    """SB3 ``policy_kwargs`` for the network ``kind``: ``"board"`` (``DungeonFeatures`` with
    ``features_dim``, then ``net_arch`` for the policy and the value heads), ``"lean"``
    (``LeanFeatures``, likewise) or ``"mlp"`` (SB3's default extractor, the flattened observation,
    then ``net_arch``)."""
    if kind not in NETWORKS:
        raise ValueError(f"network must be one of {NETWORKS}, got {kind!r}")
    kwargs: dict[str, Any] = {"net_arch": list(net_arch)}
    if kind in EXTRACTORS:
        reads_dict(observation_space)  # refuse a space it cannot read, now
        kwargs["features_extractor_class"] = EXTRACTORS[kind]
        kwargs["features_extractor_kwargs"] = {"features_dim": features_dim}
    return kwargs


__all__ = [
    "NETWORKS",
    "EXTRACTORS",
    "DungeonFeatures",
    "FigureEncoder",
    "LeanFeatures",
    "acting_crop",
    "RowEncoder",
    "masked_pool",
    "policy_for",
    "policy_kwargs_for",
    "reads_dict",
]
