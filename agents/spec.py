"""One language for naming an agent: ``from_spec(text_or_agent, side, *, seed=None, env=None, **options)``.

Every tool that asks for an agent reads the same text here, for ``side`` ``"heroes"`` or ``"dm"``:
``training.common.make_agent`` (the training scripts' ``--opponent``, ``--heroes-agent``,
``--dm-agent``), ``difficulty.play.make_side`` (``dungeon-env balance --pairing``, ``--heroes-agent``,
``--dm-agent``) and ``dungeon_env.wrappers.RoleEnv(opponent=...)``.

| text | agent |
|---|---|
| ``random`` | :class:`RandomAgent`: uniform among the legal actions |
| ``idle`` | :class:`IdleAgent`: does nothing it can help (ends every Movement, stays put) |
| ``scripted`` | ``scripted_heroes`` (heroes), ``scripted_dm`` (DM), both names work: the latest version |
| ``scripted@v1``, ``scripted@v2`` | a version of them (``scripted_heroes@v1``, ``scripted_dm@v2``, ...) |
| ``runaway`` or ``runaway_dm`` | :class:`RunawayDM`, the DM only |
| ``search[iterations=12,seconds=0.5]`` | :class:`TurnSearchAgent` (the search v2), either side |
| ``search@v1[rollouts=8]`` | :class:`SearchAgent`, the search v1, either side |
| ``policy:<file>.zip`` | a MaskablePPO checkpoint played greedily |
| ``<file>.zip`` (or any path to a file) | a MaskablePPO checkpoint, its actions sampled |
| ``pool:<dir>`` | :class:`PoolAgent`: a checkpoint ``<side>_*.zip`` of ``dir`` drawn at every episode |
| an object with ``act`` | itself, as it is |

Options go in brackets after any form, comma-separated ``key=value`` pairs typed per agent
(``OPTIONS``; an older version's own in ``VERSION_OPTIONS``): ``search[iterations=24,horizon=0]``,
``search@v1[rollouts=8,depth=100,rollout=random]``, ``policy:runs/x/heroes.zip[deterministic=false]``,
``pool:runs/x/pool[window=3,base=scripted,base_share=0.5,also=search,also_share=0.1]`` (``base``: the
agent while the pool is empty, a spec without brackets, and in a share ``base_share`` of the episodes
when it is not; ``also``: another such agent, in a share ``also_share`` of all episodes).
Keyword options of ``from_spec`` join those of the text (and win). ``seed`` seeds the agent
(``None``: the agent's own default), ``env`` binds it to the env it plays in
(``agent.bind(env=env)``: a PettingZoo env, raw or wrapped, or a ``RoleEnv``).

No policy ships with the package: ``policy`` names a checkpoint file of one's own only
(``policy:<file>.zip``); the bare name, which played the networks shipped until issue 53, is refused
with a message saying so (``RETIRED``), as is a checkpoint trained on an older observation layout
(``agents.policy.check_checkpoint``).

The scripted agents have versions (``SCRIPTED_VERSIONS``): ``v1`` is the frozen reference of
2026-12-06 (:class:`ScriptedHeroes`, :class:`ScriptedDM`, which never change), ``v2`` the current
script (:class:`ScriptedHeroesV2`, :class:`ScriptedDMV2`: the heroes play as a party, the knobs
tuned). A spec without a version names ``LATEST_SCRIPTED``, and a parsed spec always carries its
version (``scripted`` parses to ``scripted_heroes@v2`` for the heroes), so a recorded spec keeps
naming the same play when a later version ships. The search has versions too (``SEARCH_VERSIONS``:
``v1`` steps, ``v2`` whole Movements, ``LATEST_SEARCH``). Only those agents take ``@``.

``parse_spec(text, side)`` reads a text into an :class:`AgentSpec` (a frozen dataclass: which agent,
its typed options, its file) checked for the side, without building anything, so that a tool finds a
mistake before it plays a game; ``from_spec`` takes a parsed spec as well as text. A mistake raises
:class:`AgentSpecError` (a ``ValueError``) naming the text and listing what is accepted; a checkpoint
that is not there raises :class:`CheckpointNotFoundError`, which is also a ``FileNotFoundError``.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

from agents.base import IdleAgent, RandomAgent
from agents.policy import CheckpointLayoutError, PolicyAgent, check_checkpoint
from agents.pool import PoolAgent
from agents.runaway_dm import RunawayDM
from agents.scripted_dm import ScriptedDM
from agents.scripted_dm_v2 import ScriptedDMV2
from agents.scripted_heroes import ScriptedHeroes
from agents.scripted_heroes_v2 import ScriptedHeroesV2
from agents.search import SearchAgent
from agents.turn_search import TurnSearchAgent

SIDES = ("heroes", "dm")
# what each name builds; "policy" (policy:<file>), "checkpoint" (a bare path) and "pool" are written
# with paths, not as names
NAMES = ("random", "idle", "scripted_heroes", "scripted_dm", "runaway_dm", "search")
KINDS = (*NAMES, "policy", "checkpoint", "pool")
ALIASES = {
    "scripted": {"heroes": "scripted_heroes", "dm": "scripted_dm"},
    "runaway": {"heroes": "runaway_dm", "dm": "runaway_dm"},
}
ONE_SIDE = {"scripted_heroes": "heroes", "scripted_dm": "dm", "runaway_dm": "dm"}
GAME_AGENTS = {"runaway_dm": RunawayDM}
# The scripted agents' versions, oldest first; plain ``scripted`` plays the latest.
SCRIPTED_VERSIONS = ("v1", "v2")
LATEST_SCRIPTED = "v2"
SCRIPTED_AGENTS = {
    "scripted_heroes": {"v1": ScriptedHeroes, "v2": ScriptedHeroesV2},
    "scripted_dm": {"v1": ScriptedDM, "v2": ScriptedDMV2},
}
# The search's versions: v1 searches step by step on its side's view rolling out the scripted agents
# v1; v2 searches whole Movements on sampled worlds rolling out v2. Plain ``search`` plays the latest.
SEARCH_VERSIONS = ("v1", "v2")
LATEST_SEARCH = "v2"
SEARCH_AGENTS = {"v1": SearchAgent, "v2": TurnSearchAgent}
VERSIONED = {**{name: SCRIPTED_VERSIONS for name in SCRIPTED_AGENTS}, "search": SEARCH_VERSIONS}
LATEST = {**{name: LATEST_SCRIPTED for name in SCRIPTED_AGENTS}, "search": LATEST_SEARCH}
VERSION_MARK = "@"
POLICY_PREFIX, POOL_PREFIX = "policy:", "pool:"
# One plain line per agent name: what it is, as measured (docs/AGENTS.md), for help texts and pages.
AGENT_LINES = {
    "scripted": f"the scripted agents at their latest version, {LATEST_SCRIPTED}: hand-written rules of "
    "play, the strongest play shipped today",
    "scripted@v1": "the scripted agents v1, the frozen reference of 2026-12-06: hand-written rules of play "
    "(agents/scripted_heroes.py, agents/scripted_dm.py), kept unchanged to measure later versions against",
    "scripted@v2": "the scripted agents v2: heroes that end their turns together and fight from rooms, "
    "monsters that stop dithering, every knob in one parameter set searched by an optimiser "
    "(agents/scripted_heroes_v2.py, agents/scripted_dm_v2.py, agents/policies/scripted_v2.json)",
    "search": f"the search at its latest version, {LATEST_SEARCH}",
    "search@v1": "Monte Carlo search step by step on its side's view, rolling out the scripted agents v1; "
    "it keeps the v1 choice at nearly every decision",
    "search@v2": "determinised information-set search over whole Movements (where a hero ends it, whom a "
    "monster hunts), on worlds sampled from what its side knows, rolling out the scripted agents v2 "
    "(agents/turn_search.py); on held-out games it plays about as v2 does, neither side measurably "
    "stronger (docs/SEARCH.md)",
    "random": "a uniformly random legal action at every decision: a floor, not an opponent",
    "idle": "does nothing it can help (ends every Movement, stays put, spends nothing): the floor of the "
    "learning tasks, not an opponent",
    "runaway": "the DM only: monsters that keep away from the heroes while the rules allow; a test of "
    "stalling, not an opponent",
    "policy:<file>.zip": "a MaskablePPO checkpoint of your own, played greedily",
    "<file>.zip": "a MaskablePPO checkpoint of your own, its actions sampled",
    "pool:<dir>": "a self-play pool of checkpoints, one drawn each episode",
}
# names that once named an agent and no longer do, with what to use instead
RETIRED = {
    "trained": "no trained policy ships yet, so none is offered as a trained opponent: the networks cloned "
    "from the scripted agents v2 and fine-tuned in a league play worse than v2 on held-out games "
    "(docs/AGENTS.md, 'Trained networks'); 'scripted' is the strongest play shipped; a checkpoint of your "
    "own plays as policy:FILE.zip",
    "policy": "no policy ships under the name 'policy' (the networks shipped until issue 53 chose as the "
    "scripted agents v1 and were retired); name a MaskablePPO checkpoint of your own: policy:FILE.zip",
}
TRUE, FALSE = ("true", "yes", "1"), ("false", "no", "0")


class AgentSpecError(ValueError):
    """A text that names no agent for the side: an unknown name, a bad option, the wrong side."""


class CheckpointNotFoundError(AgentSpecError, FileNotFoundError):
    """A spec naming a checkpoint file that does not exist."""


@dataclasses.dataclass(frozen=True)
class Option:
    """One option an agent takes in brackets: its type, whether ``none`` is allowed, its choices."""

    kind: type  # int, float, bool or str
    optional: bool = False
    choices: tuple[str, ...] = ()

    def describe(self) -> str:
        text = "|".join(self.choices) if self.choices else self.kind.__name__
        return f"{text} or none" if self.optional else text

    def convert(self, value: Any) -> Any:
        """The option's value from its text (or a value given by keyword); ValueError if it is not one."""
        if isinstance(value, str):
            value = value.strip()
            if self.optional and value.lower() == "none":
                return None
            if self.kind is bool:
                if value.lower() in TRUE + FALSE:
                    return value.lower() in TRUE
                raise ValueError(value)
            value = self.kind(value)
        elif value is None and self.optional:
            return None
        elif self.kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        elif not isinstance(value, self.kind) or (self.kind is int and isinstance(value, bool)):
            raise ValueError(value)
        if self.choices and value not in self.choices:
            raise ValueError(value)
        return value


_POLICY_OPTIONS = {"deterministic": Option(bool)}
OPTIONS: dict[str, dict[str, Option]] = {
    "random": {},
    "idle": {},
    "scripted_heroes": {},
    "scripted_dm": {},
    "runaway_dm": {},
    "search": {  # v2's; v1's are VERSION_OPTIONS["search", "v1"]
        "iterations": Option(int),
        "seconds": Option(float, optional=True),
        "candidates": Option(int),
        "horizon": Option(int),
        "exploration": Option(float),
        "prior": Option(float),
        "margin": Option(float),
        "spread": Option(float, optional=True),
    },
    "policy": _POLICY_OPTIONS,
    "checkpoint": _POLICY_OPTIONS,
    "pool": {
        "window": Option(int),
        "base": Option(str),
        "base_share": Option(float),
        "also": Option(str),
        "also_share": Option(float),
    },
}
VERSION_OPTIONS: dict[tuple[str, str], dict[str, Option]] = {  # an older version's own options
    ("search", "v1"): {
        "rollouts": Option(int),
        "seconds": Option(float, optional=True),
        "depth": Option(int),
        "rollout": Option(str, choices=("scripted", "random", "policy")),
        "exploration": Option(float),
        "prior": Option(float),
        "policy": Option(str, optional=True),
    },
}


def option_table(name: str, version: str | None = None) -> dict[str, Option]:
    """The options agent ``name`` takes at ``version`` (None: its latest)."""
    return VERSION_OPTIONS.get((name, version or LATEST.get(name, "")), OPTIONS[name])


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


@dataclasses.dataclass(frozen=True)
class AgentSpec:
    """A parsed agent spec (see the module docstring): ``name`` is one of ``KINDS``, ``options`` its
    typed options in the order given, ``path`` the checkpoint file (``policy`` with a file,
    ``checkpoint``) or the pool directory (``pool``), else None; ``version`` the scripted agents'
    version (``SCRIPTED_VERSIONS``; a scripted spec built without one gets the latest; None for the
    other agents). ``to_json()`` is its canonical text: ``parse_spec(spec.to_json(), side)
    == spec``."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()
    path: str | None = None
    version: str | None = None

    def __post_init__(self) -> None:
        if self.name in VERSIONED and self.version is None:  # built by hand: the latest
            object.__setattr__(self, "version", LATEST[self.name])

    @property
    def is_checkpoint(self) -> bool:
        """A MaskablePPO checkpoint file (not a pool)."""
        return self.path is not None and self.name in ("policy", "checkpoint")

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.options)

    def _options_text(self) -> str:
        opts = ",".join(f"{k}={_text(v)}" for k, v in self.options)
        return f"[{opts}]" if opts else ""

    def to_json(self) -> str:
        if self.name == "checkpoint":
            head = str(self.path)
        elif self.path is not None:
            head = f"{self.name}:{self.path}"
        else:
            head = self.name if self.version is None else f"{self.name}{VERSION_MARK}{self.version}"
        return head + self._options_text()

    def __str__(self) -> str:
        return self.to_json()

    @property
    def label(self) -> str:
        """A short name for tables: a checkpoint by its file's stem, a scripted agent as
        ``scripted@<version>`` (the same on both sides)."""
        if self.name in SCRIPTED_AGENTS:
            return f"scripted{VERSION_MARK}{self.version}{self._options_text()}"
        if self.name == "search":
            return f"search{VERSION_MARK}{self.version}{self._options_text()}"
        if self.path is None:
            return self.to_json()
        stem = Path(self.path).stem if self.is_checkpoint else Path(self.path).name
        head = stem if self.name == "checkpoint" else f"{self.name}:{stem}"
        return head + self._options_text()

    def check_side(self, side: str, text: str | None = None) -> None:
        """AgentSpecError if the agent plays only the other side."""
        check_side(side)
        own = ONE_SIDE.get(self.name)
        if own is not None and own != side:
            raise AgentSpecError(
                f"agent {text or self.to_json()!r} plays the other side (the {own}), not the {side}; "
                f"the {side} take {', '.join(known_names(side))}"
            )


def check_side(side: str) -> str:
    if side not in SIDES:
        raise AgentSpecError(f"side must be one of {SIDES}, got {side!r}")
    return side


def known_names(side: str | None = None) -> list[str]:
    """The names (aliases included) that name an agent of ``side`` (of either side for None)."""
    names = ["random", "scripted", "search", "scripted_heroes", "scripted_dm"]
    names += ["runaway", "runaway_dm", "idle"]
    if side is None:
        return names
    return [n for n in names if ONE_SIDE.get(ALIASES.get(n, {}).get(side, n), side) == side]


def versions_text() -> str:
    """The versioned agents' versions in words (for error messages and help texts)."""
    listed = ", ".join(f"scripted{VERSION_MARK}{v}" for v in SCRIPTED_VERSIONS)
    searches = ", ".join(f"search{VERSION_MARK}{v}" for v in SEARCH_VERSIONS)
    return (
        f"the scripted agents take a version: {listed} (v1: the frozen reference of 2026-12-06); "
        f"plain scripted is the latest, {LATEST_SCRIPTED}; so does the search: {searches}, plain search "
        f"is the latest, {LATEST_SEARCH}"
    )


def accepted(side: str | None = None) -> str:
    """What a spec may be, in words (for error messages and help texts)."""
    return (
        f"the known names are {', '.join(known_names(side))} (options in brackets, e.g. "
        f"search[iterations=12,seconds=0.5]; {versions_text()}); or policy:<file>.zip (a checkpoint played "
        "greedily), a "
        "checkpoint path <file>.zip (its actions sampled), pool:<dir> (a self-play pool of checkpoints); "
        "or an object with act(observation, action_mask) -> int"
    )


def _split_options(text: str) -> tuple[str, str]:
    """``"search[rollouts=8]"`` -> ``("search", "rollouts=8")``."""
    if not text.endswith("]"):
        if "[" in text or "]" in text:
            raise AgentSpecError(
                f"agent {text!r}: options go in one pair of brackets at the end, e.g. search[rollouts=8]"
            )
        return text, ""
    cut = text.rfind("[")
    inner = text[cut + 1 : -1]
    if cut <= 0 or "[" in text[:cut] or "]" in text[:cut] or "[" in inner:
        raise AgentSpecError(
            f"agent {text!r}: options go in one pair of brackets at the end, e.g. search[rollouts=8] "
            "(a pool's base agent takes no options of its own)"
        )
    return text[:cut].strip(), inner


def _checkpoint(path: str, text: str) -> str:
    if not path:
        raise AgentSpecError(f"agent {text!r}: no checkpoint path after {POLICY_PREFIX!r}")
    if not Path(path).is_file():
        raise CheckpointNotFoundError(
            f"agent {text!r}: no checkpoint file at {path} (a MaskablePPO checkpoint saved by "
            "MaskablePPO.save, e.g. runs/<run>/final_model.zip)"
        )
    try:
        check_checkpoint(path)
    except CheckpointLayoutError as error:
        raise AgentSpecError(f"agent {text!r}: {error}") from None
    return path


def _version(head: str, side: str, text: str) -> tuple[str, str | None]:
    """``"scripted@v1"`` -> ``("scripted", "v1")``; a head without a version (or a path holding
    ``@``) -> ``(head, None)``. AgentSpecError for a version of an agent without versions, or an
    unknown version."""
    base, mark, version = head.partition(VERSION_MARK)
    base, version = base.strip(), version.strip()
    if not mark:
        return head, None
    if base in RETIRED:
        raise AgentSpecError(f"agent {text!r}: {RETIRED[base]}")
    name = ALIASES.get(base, {}).get(side, base)
    if name in VERSIONED:
        if version not in VERSIONED[name]:
            raise AgentSpecError(f"agent {text!r}: no version {version!r}; {versions_text()}")
        return base, version
    if name in NAMES:
        raise AgentSpecError(f"agent {text!r}: {base} has no versions; {versions_text()}")
    return head, None  # a path or directory that holds the mark


def _resolve(head: str, side: str, text: str) -> tuple[str, str | None]:
    """The kind and path named by the text before the brackets."""
    if head in RETIRED:
        raise AgentSpecError(f"agent {text!r}: {RETIRED[head]}")
    name = ALIASES.get(head, {}).get(side, head)
    if name in NAMES:
        return name, None
    if head.startswith(POLICY_PREFIX):
        return "policy", _checkpoint(head[len(POLICY_PREFIX) :].strip(), text)
    if head.startswith(POOL_PREFIX):
        directory = head[len(POOL_PREFIX) :].strip()
        if not directory:
            raise AgentSpecError(f"agent {text!r}: no directory after {POOL_PREFIX!r}")
        return "pool", directory  # it may fill later: the base agent plays while it holds nothing
    if head.endswith(".zip") or "/" in head or os.sep in head or Path(head).is_file():
        return "checkpoint", _checkpoint(head, text)
    raise AgentSpecError(f"unknown agent {text!r} for the {side}: {accepted(side)}")


def _typed_options(
    name: str, items: list[tuple[str, Any]], text: str, version: str | None = None
) -> tuple[tuple[str, Any], ...]:
    table = option_table(name, version)
    out: dict[str, Any] = {}
    for key, value in items:
        if key not in table:
            takes = ", ".join(f"{k} ({o.describe()})" for k, o in table.items())
            raise AgentSpecError(
                f"agent {text!r}: {name} takes no option {key!r}; "
                + (f"its options are {takes}" if takes else "it takes no options")
            )
        try:
            out[key] = table[key].convert(value)
        except (TypeError, ValueError):
            raise AgentSpecError(
                f"agent {text!r}: option {key}={_text(value)} of {name} should be {table[key].describe()}"
            ) from None
    return tuple(out.items())


def _pairs(options: str, text: str) -> list[tuple[str, str]]:
    out = []
    for part in filter(None, (p.strip() for p in options.split(","))):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise AgentSpecError(f"agent {text!r}: options are key=value pairs, got {part!r}")
        out.append((key.strip(), value.strip()))
    return out


def parse_spec(text: str | os.PathLike | AgentSpec, side: str, **options: Any) -> AgentSpec:
    """The :class:`AgentSpec` for ``side`` that ``text`` names (an AgentSpec is checked for the side
    and returned, with ``options`` joined); see the module docstring. Builds nothing."""
    check_side(side)
    if isinstance(text, AgentSpec):
        spec = text
        shown = spec.to_json()
        if options:
            merged = _typed_options(spec.name, [*spec.options, *options.items()], shown, spec.version)
            spec = dataclasses.replace(spec, options=merged)
    elif isinstance(text, str | os.PathLike):
        shown = os.fspath(text).strip()
        head, inner = _split_options(shown)
        head, version = _version(head, side, shown)
        name, path = _resolve(head, side, shown)
        typed = _typed_options(name, [*_pairs(inner, shown), *options.items()], shown, version)
        spec = AgentSpec(name, typed, path, version)
    else:
        raise TypeError(f"an agent spec is text or an AgentSpec, got {text!r}")
    spec.check_side(side, shown)
    if spec.name == "policy" and spec.path is None:
        raise AgentSpecError(f"agent {shown!r}: {RETIRED['policy']}")
    if spec.name == "search" and spec.kwargs.get("rollout") == "policy":  # search@v1's checkpoint
        if not spec.kwargs.get("policy"):
            raise AgentSpecError(
                f"agent {shown!r}: rollout=policy rolls out the searching side's checkpoint: give it as "
                "policy=FILE.zip (no policy ships with the package)"
            )
        _checkpoint(spec.kwargs["policy"], shown)
    if spec.name == "pool":  # the base agent must be one too
        try:
            parse_spec(spec.kwargs.get("base", "random"), side)
        except AgentSpecError as error:
            raise AgentSpecError(f"agent {shown!r}, its base agent: {error}") from None
    return spec


def describe(text: str | AgentSpec, side: str) -> str:
    """One plain line saying what the agent ``text`` names for ``side`` is (``AGENT_LINES``)."""
    spec = parse_spec(text, side)
    if spec.name == "policy":
        return AGENT_LINES["policy:<file>.zip"]
    if spec.name in VERSIONED:
        return AGENT_LINES[spec.label.split("[")[0]]
    key = {"checkpoint": "<file>.zip", "pool": "pool:<dir>", "runaway_dm": "runaway"}.get(spec.name)
    return AGENT_LINES[key or spec.name]


def build(spec: AgentSpec, side: str, seed: int | None = None) -> Any:
    """The agent ``spec`` names for ``side`` (``seed``: None leaves the agent's default), unbound."""
    kw = spec.kwargs
    seeded = {} if seed is None else {"seed": seed}
    if spec.name == "random":
        return RandomAgent(seed)
    if spec.name == "idle":
        return IdleAgent(seed)
    if spec.name in SCRIPTED_AGENTS:
        return SCRIPTED_AGENTS[spec.name][spec.version](**kw, **seeded)
    if spec.name == "search":
        return SEARCH_AGENTS[spec.version](**kw, **seeded)
    if spec.name in GAME_AGENTS:
        return GAME_AGENTS[spec.name](**kw, **seeded)
    if spec.name == "policy":  # a file of one's own, greedily by default
        return PolicyAgent(spec.path, role=side, deterministic=kw.get("deterministic", True), seed=seed)
    if spec.name == "checkpoint":
        return PolicyAgent(spec.path, role=side, deterministic=kw.get("deterministic", False), seed=seed)
    if spec.name == "pool":
        also = kw.get("also", "")
        return PoolAgent(
            spec.path,
            side,
            window=kw.get("window", 5),
            base=from_spec(kw.get("base", "random"), side),
            seed=seed,
            base_share=kw.get("base_share", 0.0),
            also=from_spec(also, side) if also else None,
            also_share=kw.get("also_share", 0.0),
        )
    raise AgentSpecError(f"agent spec {spec!r}: no agent is named {spec.name!r}; kinds: {', '.join(KINDS)}")


def from_spec(
    text_or_agent: Any, side: str, *, seed: int | None = None, env: Any = None, **options: Any
) -> Any:
    """The agent for ``side`` that ``text_or_agent`` names (see the module docstring), seeded with
    ``seed`` (None: the agent's default) and bound to ``env`` if given; an object with ``act`` is
    returned as it is."""
    if not isinstance(text_or_agent, str | os.PathLike | AgentSpec):
        check_side(side)
        if not callable(getattr(text_or_agent, "act", None)):
            raise TypeError(
                f"an agent needs act(observation, action_mask) -> int, or is named by a spec: "
                f"{accepted(side)}; got {text_or_agent!r}"
            )
        if options:
            raise TypeError(f"options {sorted(options)} are for an agent spec, not for an agent object")
        return text_or_agent
    agent = build(parse_spec(text_or_agent, side, **options), side, seed)
    if env is not None:
        agent.bind(env=env)
    return agent


__all__ = [
    "AGENT_LINES",
    "ALIASES",
    "KINDS",
    "LATEST_SCRIPTED",
    "LATEST_SEARCH",
    "SEARCH_AGENTS",
    "SEARCH_VERSIONS",
    "VERSION_OPTIONS",
    "NAMES",
    "OPTIONS",
    "SCRIPTED_AGENTS",
    "SCRIPTED_VERSIONS",
    "SIDES",
    "AgentSpec",
    "AgentSpecError",
    "CheckpointNotFoundError",
    "Option",
    "accepted",
    "build",
    "check_side",
    "describe",
    "from_spec",
    "known_names",
    "parse_spec",
    "versions_text",
]
