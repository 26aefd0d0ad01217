"""The experiment: which games to play and how many.

An :class:`Experiment` is the product of its axes, adventures × parties × pairings × variants; each
combination is a *cell*. Game ``i`` of every cell is played with seed ``seed + i`` (the engine's dice
streams and both agents are seeded from it), so the cells of one experiment are compared with
common random numbers: two variants differ only by the rule they change, not by their luck.

Agent specs (one per side, a pairing is ``"heroes_spec:dm_spec"``) are the language every tool
shares (``agents.spec``, parsed once here into ``agents.AgentSpec``):

- ``scripted``: ``scripted_heroes`` for the heroes, ``scripted_dm`` for the DM (both names work too),
  the latest version; ``scripted@v1`` (the frozen reference of 2026-12-06) or ``scripted@v2`` a given one;
- ``random``: uniform legal actions;
- ``runaway`` or ``runaway_dm`` (the DM only): monsters that flee as far as the rules allow, a stress test;
- ``search``: the search v2 (``agents.turn_search``: whole Movements on sampled worlds), options in
  brackets: ``search[iterations=24]``; ``search@v1[rollouts=8,depth=100]`` the search v1;
- ``policy:<file>.zip``: a MaskablePPO checkpoint of one's own played greedily; ``<file>.zip``: a
  checkpoint, its actions sampled (no policy ships with the package: bare ``policy`` is refused).
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

from agents.spec import AgentSpec, AgentSpecError, parse_spec

DEFAULT_ADVENTURE = "flooded_cellar"
BACKENDS = ("local", "ray", "serial")
SIDES = ("heroes", "dm")
BASE = "base"


class SpecError(ValueError):
    """A malformed experiment: an unknown agent, adventure or hero, a bad count."""


# ----------------------------------------------------------------------------------------- agents
def parse_agent(spec: str | AgentSpec, side: str) -> AgentSpec:
    """The :class:`agents.AgentSpec` for ``side`` from text such as ``scripted``, ``search[iterations=8]``
    or ``runs/x/heroes_final.zip`` (``agents.spec.parse_spec``, the language every tool shares), its
    mistakes (an unknown name or option, the wrong side, a missing checkpoint) as :class:`SpecError`."""
    try:
        return parse_spec(spec, side)
    except AgentSpecError as error:
        raise SpecError(str(error)) from None


@dataclasses.dataclass(frozen=True)
class Pairing:
    heroes: AgentSpec
    dm: AgentSpec

    @classmethod
    def parse(cls, text: str | Pairing) -> Pairing:
        """``"scripted:random"`` (the heroes' agent, a colon, the DM's). Specs hold colons of their own
        (``policy:<path>``, ``pool:<dir>``), so the pairing is cut at the one colon that leaves a valid
        spec on each side."""
        if isinstance(text, Pairing):
            return text
        text = str(text)
        cuts = [i for i, c in enumerate(text) if c == ":" and 0 < i < len(text) - 1]
        found, errors, prefixes = [], [], []
        for i in cuts:
            try:
                found.append(cls(parse_agent(text[:i], "heroes"), parse_agent(text[i + 1 :], "dm")))
            except SpecError as error:
                if text[:i].strip() not in ("policy", "pool"):  # not a spec's own prefix
                    errors.append(error)
                else:  # told only if no other cut explains the text (a bare policy: retired)
                    prefixes.append(error)
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise SpecError(
                f"pairing {text!r} reads in {len(found)} ways; rename a file so that one colon cuts it"
            )
        if errors or prefixes:
            raise SpecError(f"pairing {text!r}: {(errors or prefixes)[0]}")
        raise SpecError(f"pairing {text!r}: expected heroes_agent:dm_agent, e.g. scripted:scripted")

    @property
    def label(self) -> str:
        return f"{self.heroes.label}:{self.dm.label}"

    def to_json(self) -> str:
        return f"{self.heroes.to_json()}:{self.dm.to_json()}"


# ------------------------------------------------------------------------------------ game content
def adventures_of(names: list[str] | tuple[str, ...] | str | None) -> tuple[str, ...]:
    """Adventure names (``"all"`` for every bundled one); unknown names raise :class:`SpecError`."""
    from dungeon_env.content import adventure_names

    bundled = adventure_names()
    if names is None or names == []:
        return (DEFAULT_ADVENTURE,)
    if isinstance(names, str):
        names = [names]
    out: list[str] = []
    for name in names:
        if name == "all":
            out.extend(bundled)
        elif name in bundled or Path(name).is_file():
            out.append(name)
        else:
            raise SpecError(f"unknown adventure {name!r}; the bundled adventures are {', '.join(bundled)}")
    return tuple(dict.fromkeys(out))


def party_of(value: int | str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """A party as hero ids: a count (the roster's first heroes, as ``Game.new`` picks them) or ids."""
    from dungeon_env.content import load_heroes

    roster = list(load_heroes())
    if isinstance(value, str):
        value = int(value) if value.strip().isdigit() else [v.strip() for v in value.split(",") if v.strip()]
    if isinstance(value, int):
        if not 3 <= value <= 5:
            raise SpecError(f"heroes: a party has 3-5 heroes, got {value}")
        return tuple(roster[:value])
    ids = tuple(value)
    unknown = [h for h in ids if h not in roster]
    if unknown:
        raise SpecError(f"heroes: unknown hero {unknown[0]!r}; the roster is {', '.join(roster)}")
    if len(set(ids)) != len(ids) or not 3 <= len(ids) <= 5:
        raise SpecError(f"heroes: a party is 3-5 different heroes, got {','.join(ids)}")
    return ids


def variant_of(value: Any) -> Any:
    """A ``dungeon_env.content.variants.Variant`` from a Variant, a list of ``key=value`` overrides,
    a TOML file path or its JSON form; ``None`` stays ``None`` (the base rules)."""
    if value is None:
        return None
    from dungeon_env.content.variants import Variant

    if isinstance(value, Variant):
        return value
    if isinstance(value, str | Path) and Path(value).suffix == ".toml":
        return Variant.from_file(value)
    if isinstance(value, dict):
        return Variant.from_json(value)
    return Variant.parse(value)


def variant_name(variant: Any) -> str:
    return BASE if variant is None else variant.name


def variant_json(variant: Any) -> Any:
    return None if variant is None else variant.to_json()


# -------------------------------------------------------------------------------------- experiment
@dataclasses.dataclass(frozen=True)
class Cell:
    """One combination of the experiment's axes."""

    adventure: str
    party: tuple[str, ...]
    pairing: Pairing
    variant: Any = None  # a Variant, or None for the base rules

    @property
    def variant_name(self) -> str:
        return variant_name(self.variant)

    @property
    def group(self) -> tuple:
        """What the cell shares with the other variants it is compared with."""
        return (self.adventure, self.party, self.pairing.to_json())

    @property
    def label(self) -> str:
        return f"{self.adventure} · {','.join(self.party)} · {self.pairing.label} · {self.variant_name}"

    def key(self) -> dict[str, Any]:
        return {
            "adventure": self.adventure,
            "party": list(self.party),
            "heroes_agent": self.pairing.heroes.to_json(),
            "dm_agent": self.pairing.dm.to_json(),
            "variant": self.variant_name,
        }


@dataclasses.dataclass
class Experiment:
    """Adventures × parties × pairings × variants, a number of games (or a target precision), a seed.

    ``games`` games per cell, or, when ``until`` is set, batches of games until the 95% Wilson
    interval of every cell's win rate is at most ``±until`` wide (at most ``max_games`` per cell).
    ``workers``/``backend``/``ray_address`` say where the games run; they never change a figure."""

    adventures: tuple[str, ...] = (DEFAULT_ADVENTURE,)
    parties: tuple[tuple[str, ...], ...] = ()
    pairings: tuple[Pairing, ...] = ()
    variants: tuple[Any, ...] = (None,)
    games: int = 200
    until: float | None = None
    max_games: int = 20_000
    seed: int = 0
    max_turns: int = 100
    workers: int = 0
    backend: str = "local"
    ray_address: str | None = None
    sweep: dict | None = None  # {"param": key, "values": [...]} when the variants are a sweep

    def __post_init__(self) -> None:
        self.adventures = adventures_of(list(self.adventures))
        self.parties = tuple(party_of(p) for p in (self.parties or (3,)))
        pairings = self.pairings or (Pairing.parse("scripted:scripted"),)
        self.pairings = tuple(Pairing.parse(p) for p in pairings)
        self.variants = tuple(variant_of(v) for v in (self.variants or (None,)))
        names = [variant_name(v) for v in self.variants]
        if len(set(names)) != len(names):
            dup = next(n for n in names if names.count(n) > 1)
            raise SpecError(f"two variants are named {dup!r}; give each variant its own name")
        if self.until is None and self.games < 1:
            raise SpecError(f"games must be at least 1, got {self.games}")
        if self.until is not None and not 0.0 < self.until < 0.5:
            raise SpecError(f"until is a half-width in (0, 0.5), e.g. 0.02; got {self.until}")
        if self.max_turns < 1:
            raise SpecError(f"max_turns must be at least 1, got {self.max_turns}")
        if self.backend not in BACKENDS:
            raise SpecError(f"backend must be one of {', '.join(BACKENDS)}, got {self.backend!r}")
        if self.workers < 0:
            raise SpecError(f"workers must be 0 (all cores) or more, got {self.workers}")

    @property
    def cells(self) -> list[Cell]:
        return [
            Cell(a, p, q, v)
            for a in self.adventures
            for p in self.parties
            for q in self.pairings
            for v in self.variants
        ]

    @property
    def n_workers(self) -> int:
        return self.workers or os.cpu_count() or 1

    def to_json(self) -> dict[str, Any]:
        """What defines the figures (not where they were computed)."""
        return {
            "adventures": list(self.adventures),
            "parties": [list(p) for p in self.parties],
            "pairings": [p.to_json() for p in self.pairings],
            "variants": [{"name": variant_name(v), "overrides": variant_json(v)} for v in self.variants],
            "games": None if self.until is not None else self.games,
            "until": self.until,
            "max_games": self.max_games if self.until is not None else None,
            "seed": self.seed,
            "max_turns": self.max_turns,
            "sweep": self.sweep,
        }


__all__ = [
    "BACKENDS",
    "BASE",
    "AgentSpec",
    "Cell",
    "Experiment",
    "Pairing",
    "SpecError",
    "adventures_of",
    "parse_agent",
    "party_of",
    "variant_of",
]
