"""Every threshold and weight of the scripted agents, in one typed parameter set.

``HeroParams`` holds the heroes' knobs, ``DMParams`` the Dungeon Master's; ``ScriptedParams`` pairs
them. Each knob is a dataclass field made by :func:`knob`, which records its range and what it means;
the tuning script (``python -m training.tune_scripted``) searches exactly those ranges.

- The fields' defaults are the values the first scripted agents (v1) play with, so ``HeroParams()``
  and ``DMParams()`` are v1's parameters, frozen: ``scripted@v1`` always plays them. The knobs only
  v2 reads also have defaults (v2's untuned starting point); v1 never reads them.
- v2 plays the tuned set shipped in ``agents/policies/scripted_v2.json`` (:func:`shipped_v2`), written
  by the tuning script and read back with :func:`load` (a broken or out-of-range file is refused with
  an error naming the key and what was expected).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

SHIPPED_V2 = Path(__file__).resolve().parent / "policies" / "scripted_v2.json"


class ParamsError(ValueError):
    """A parameter file or value that is not a valid scripted agents' parameter set."""


def knob(default: float | int, low: float | int, high: float | int, doc: str) -> Any:
    """A tunable field: its default, the range ``[low, high]`` the tuner searches, what it means.
    An int default makes an integer knob."""
    if not low <= default <= high:
        raise ValueError(f"knob default {default} outside [{low}, {high}]")
    return dataclasses.field(default=default, metadata={"low": low, "high": high, "doc": doc})


@dataclasses.dataclass(frozen=True)
class HeroParams:
    """The scripted heroes' knobs (``agents.scripted_heroes``, ``agents.scripted_heroes_v2``)."""

    # --- read by v1 and v2
    trap_cost: int = knob(8, 2, 20, "steps of detour worth avoiding a known armed trap")
    hurt: float = knob(0.5, 0.2, 0.8, "drink, heal, or count as wounded below this share of Health lost")
    light_ability: int = knob(10, 3, 20, "use a Light ability at this much Light or less")
    spend_cost: float = knob(0.12, 0.0, 0.4, "a Fight's Stamina point costs this much win chance")
    dying_stake: float = knob(3.0, 0.0, 8.0, "extra weight of a Fight that could kill or floor the hero")
    kill_stake: float = knob(1.0, 0.0, 4.0, "extra weight of a Fight that could kill the monster")
    # --- read by v2 only
    patrol_weight: float = knob(3.0, 0.0, 12.0, "squares of progress one more Patrol roll is worth")
    apart_weight: float = knob(0.0, 0.0, 5.0, "cost per square a hero ends beyond the party's reach")
    apart_radius: int = knob(2, 1, 6, "squares from the nearest comrade a hero may end without cost")
    room_fight_weight: float = knob(
        2.0, 0.0, 8.0, "squares a room's end is worth over a corridor's when monsters are in sight"
    )
    wait_turns: int = knob(2, 0, 6, "turns in a row a hero may wait for monsters in sight to come")
    relieve_hurt: float = knob(0.9, 0.2, 1.0, "a front hero this wounded steps back for a healthier one")
    light_margin: float = knob(1.5, 0.5, 4.0, "Light per turn still needed, times the way left, to hurry")


@dataclasses.dataclass(frozen=True)
class DMParams:
    """The scripted DM's knobs (``agents.scripted_dm``, ``agents.scripted_dm_v2``)."""

    # --- read by v1 and v2
    health_weight: float = knob(2.0, 0.0, 6.0, "victim score: squares a point of the hero's Health is worth")
    company_weight: float = knob(3.0, 0.0, 10.0, "victim score: squares added when a comrade stands by")
    deaths_door_bonus: float = knob(4.0, 0.0, 12.0, "victim score: squares taken off a hero at Death's Door")
    extra_move_stamina: int = knob(3, 1, 6, "Stamina a monster needs to buy a square into a Fight")
    spend_gain: float = knob(0.08, 0.0, 0.3, "a Fight's Stamina point is spent when it adds this win chance")
    company_radius: int = knob(2, 1, 5, "victim score: squares within which a comrade counts as company")
    spend_stamina: int = knob(3, 1, 6, "Stamina a monster needs to spend a point on a Fight's odds")
    hero_spend_share: float = knob(0.5, 0.0, 1.0, "share of its Stamina (up to 3) a hero is assumed to spend")
    # --- read by v2 only
    keep_stamina: int = knob(1, 0, 6, "Stamina a monster keeps for the Fight when it buys squares")
    later_penalty: float = knob(6.0, 0.0, 30.0, "victim score: squares added when no Fight is reachable now")
    buy_weight: float = knob(1.0, 0.0, 5.0, "victim score: squares added per square bought with Stamina")
    wounded_weight: float = knob(4.0, 0.0, 12.0, "victim score: squares taken off per share of Health lost")
    caster_bonus: float = knob(2.0, 0.0, 10.0, "victim score: squares taken off a hero with Magic")
    carrier_bonus: float = knob(4.0, 0.0, 12.0, "victim score: squares taken off a goal item's holder")
    gang_bonus: float = knob(2.0, 0.0, 8.0, "victim score: squares taken off per monster already next to it")
    single_fight: int = knob(1, 0, 1, "1: a monster seeks a square next to its victim alone (0: any)")
    fight_spend: int = knob(1, 0, 3, "Stamina a monster spends in every Fight at least (0: as v1 decides)")
    hold_exit: int = knob(
        1, 0, 1, "1: a monster between the party and the exit, no Fight in reach, stops early"
    )
    commit_bonus: float = knob(3.0, 0.0, 10.0, "victim score: squares taken off the Movement's victim")


@dataclasses.dataclass(frozen=True)
class ScriptedParams:
    """Both sides' knobs: ``ScriptedParams(heroes=HeroParams(...), dm=DMParams(...))``."""

    heroes: HeroParams = dataclasses.field(default_factory=HeroParams)
    dm: DMParams = dataclasses.field(default_factory=DMParams)

    def to_json(self) -> dict:
        return {"heroes": dataclasses.asdict(self.heroes), "dm": dataclasses.asdict(self.dm)}

    @classmethod
    def from_json(cls, data: Any, where: str = "parameters") -> ScriptedParams:
        """The set ``data`` (as ``to_json`` writes it) describes; :class:`ParamsError` naming the key
        if a side or knob is unknown, a value has the wrong type or lies outside its range. A knob
        left out keeps its default."""
        if not isinstance(data, dict):
            raise ParamsError(
                f"{where}: expected an object with 'heroes' and 'dm', got {type(data).__name__}"
            )
        unknown = set(data) - {"heroes", "dm", "meta"}
        if unknown:
            raise ParamsError(
                f"{where}: unknown section(s) {sorted(unknown)}; expected 'heroes', 'dm', 'meta'"
            )
        return cls(
            heroes=_side(HeroParams, data.get("heroes", {}), f"{where}: heroes"),
            dm=_side(DMParams, data.get("dm", {}), f"{where}: dm"),
        )


def knobs(kind: type) -> list[dataclasses.Field]:
    """The tunable fields of ``HeroParams`` or ``DMParams``."""
    return [f for f in dataclasses.fields(kind) if "low" in f.metadata]


def _side(kind: type, values: Any, where: str):
    if not isinstance(values, dict):
        raise ParamsError(f"{where}: expected an object of knob: value, got {type(values).__name__}")
    fields = {f.name: f for f in knobs(kind)}
    out = {}
    for name, value in values.items():
        if name not in fields:
            raise ParamsError(f"{where}: unknown knob {name!r}; the knobs are {', '.join(fields)}")
        out[name] = check_value(fields[name], value, f"{where}.{name}")
    return kind(**out)


def check_value(field: dataclasses.Field, value: Any, where: str) -> float | int:
    """``value`` as the knob's type if it lies in the knob's range, else :class:`ParamsError`."""
    low, high = field.metadata["low"], field.metadata["high"]
    integer = isinstance(field.default, int)
    ok_type = isinstance(value, int) if integer else isinstance(value, int | float)
    if isinstance(value, bool) or not ok_type:
        raise ParamsError(f"{where}: expected {'an integer' if integer else 'a number'}, got {value!r}")
    if not low <= value <= high:
        raise ParamsError(f"{where}: {value} lies outside the knob's range [{low}, {high}]")
    return int(value) if integer else float(value)


def load(path: str | Path) -> ScriptedParams:
    """The parameter set in the JSON file ``path`` (``ParamsError`` if it is missing or broken)."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise ParamsError(f"no scripted agents' parameter file at {path}") from None
    except (OSError, ValueError) as error:
        raise ParamsError(f"{path}: not a JSON parameter file ({error})") from None
    return ScriptedParams.from_json(data, str(path))


def save(params: ScriptedParams, path: str | Path, meta: dict | None = None) -> None:
    """Write ``params`` (and ``meta``: how they were found) as JSON to ``path``."""
    data = params.to_json()
    if meta:
        data["meta"] = meta
    Path(path).write_text(json.dumps(data, indent=2, sort_keys=False) + "\n")


def shipped_v2() -> ScriptedParams:
    """The tuned parameters v2 plays with (``SHIPPED_V2``); v2's defaults while none are shipped."""
    return load(SHIPPED_V2) if SHIPPED_V2.exists() else ScriptedParams()


__all__ = [
    "SHIPPED_V2",
    "DMParams",
    "HeroParams",
    "ParamsError",
    "ScriptedParams",
    "check_value",
    "knob",
    "knobs",
    "load",
    "save",
    "shipped_v2",
]
