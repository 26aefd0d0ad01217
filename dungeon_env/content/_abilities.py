"""Hero abilities (R-BOARD-04): the ``[[hero.abilities]]`` tables of ``heroes.toml``, validated.

Keys: ``id`` (unique in the roster), ``name``, ``use`` (active, passive), ``effect`` (``{kind, amount,
duration}``), optional ``text``. An Active ability also takes ``limit`` (adventure, turn; default
adventure), ``uses`` (1-3 per adventure; limit adventure only; default 1), ``when`` (a non-empty
subset of movement, evasion, explore; default all three, ruling A-58) and ``target`` (self, ally,
none; what its effect kind allows). A Passive ability may take a ``condition`` (outnumbered, wounded)
for a combat bonus. Amounts are 1-5: abilities only help their hero.
"""

from __future__ import annotations

from typing import Any

from ._checks import Checker, sub
from .cards import _effect
from .model import (
    ABILITY_CONDITIONS,
    ABILITY_LIMITS,
    ABILITY_MOMENTS,
    ABILITY_TARGETS,
    ABILITY_USES,
    Ability,
    ContentError,
    HeroCard,
)

MAX_HERO_ABILITIES = 2  # the ABILITY_0 / ABILITY_1 actions (engine.actions.MAX_ABILITIES)
ABILITY_AMOUNTS = (1, 5)
MAX_USES = 3
COMBAT_KINDS = ("fight_bonus", "damage_bonus", "armour")  # the kinds a condition may gate
CHECK_KINDS = ("jump_bonus", "door_bonus", "disarm_bonus", "detect_bonus", "identify_bonus")
PASSIVE_KINDS = (*COMBAT_KINDS, "move_bonus", *CHECK_KINDS)
ACTIVE_KINDS = ("heal", "stamina", "magic", "light", "detect_traps", *COMBAT_KINDS, "move_bonus")
# Which targets each Active kind allows (the first is the default).
ACTIVE_TARGETS_OF = {
    "heal": ("self", "ally"),
    "stamina": ("self", "ally"),
    "magic": ("self", "ally"),
    "light": ("none",),
    "detect_traps": ("self",),
    "move_bonus": ("self",),
    **{kind: ("self", "ally") for kind in COMBAT_KINDS},
}
ACTIVE_KEYS = ("limit", "uses", "when", "target")
PASSIVE_KEYS = ("condition",)


def parse_abilities(ck: Checker, key: str, value: Any) -> tuple[Ability, ...]:
    """A hero's ``abilities`` array (at most two)."""
    entries = ck.array(key, value, max_len=MAX_HERO_ABILITIES)
    abilities = tuple(_ability(ck, sub(key, i), entry) for i, entry in enumerate(entries))
    ck.distinct(key, [a.id for a in abilities])
    return abilities


def _ability(ck: Checker, key: str, entry: Any) -> Ability:
    entry = ck.table(key, entry, ("id", "name", "use", "effect"), ("text", *ACTIVE_KEYS, *PASSIVE_KEYS))
    use = ck.choice(sub(key, "use"), entry["use"], ABILITY_USES, "ability use")
    misplaced = PASSIVE_KEYS if use == "active" else ACTIVE_KEYS
    for name in misplaced:
        if name in entry:
            other = "a passive" if use == "active" else "an active"
            ck.fail(sub(key, name), f"only {other} ability has a {name}")
    kinds = ACTIVE_KINDS if use == "active" else PASSIVE_KINDS
    effect = _effect(ck, sub(key, "effect"), entry["effect"], kinds, f"an {use} ability's")
    ck.integer(sub(key, "effect.amount"), effect.amount, *ABILITY_AMOUNTS)
    fields = _active(ck, key, entry, effect.kind) if use == "active" else _passive(ck, key, entry, effect)
    return Ability(
        id=ck.ident(sub(key, "id"), entry["id"]),
        name=ck.text(sub(key, "name"), entry["name"]),
        use=use,
        effect=effect,
        text=ck.text(sub(key, "text"), entry["text"]) if "text" in entry else "",
        **fields,
    )


def _active(ck: Checker, key: str, entry: dict[str, Any], kind: str) -> dict[str, Any]:
    limit = ck.choice(sub(key, "limit"), entry.get("limit", "adventure"), ABILITY_LIMITS, "limit")
    if limit == "turn" and "uses" in entry:
        ck.fail(sub(key, "uses"), "a once-per-turn ability has no uses count (limit 'adventure' has)")
    uses = ck.integer(sub(key, "uses"), entry.get("uses", 1), 1, MAX_USES)
    when = ck.choices(sub(key, "when"), entry.get("when", list(ABILITY_MOMENTS)), ABILITY_MOMENTS, "moment")
    if not when:
        ck.fail(sub(key, "when"), f"expected at least one of: {', '.join(ABILITY_MOMENTS)}")
    if kind == "move_bonus" and when != ("movement",):
        ck.fail(sub(key, "when"), "a move_bonus ability is used in its hero's Movement: when = ['movement']")
    allowed = ACTIVE_TARGETS_OF[kind]
    target = ck.choice(sub(key, "target"), entry.get("target", allowed[0]), ABILITY_TARGETS, "target")
    if target not in allowed:
        ck.fail(sub(key, "target"), f"a {kind!r} ability targets {', '.join(allowed)}, not {target!r}")
    return {"limit": limit, "uses": uses, "when": when, "target": target}


def _passive(ck: Checker, key: str, entry: dict[str, Any], effect) -> dict[str, Any]:
    if effect.duration:
        ck.fail(sub(key, "effect.duration"), "a passive ability's bonus always counts: no duration")
    condition = ""
    if "condition" in entry:
        condition = ck.choice(sub(key, "condition"), entry["condition"], ABILITY_CONDITIONS, "condition")
        if effect.kind not in COMBAT_KINDS:
            ck.fail(sub(key, "condition"), f"only a combat bonus ({', '.join(COMBAT_KINDS)}) has a condition")
    return {"condition": condition}


def check_unique_abilities(ck: Checker, heroes: dict[str, HeroCard]) -> None:
    """Ability ids are unique in the roster (the observation shows them one-hot by id)."""
    seen: dict[str, str] = {}
    for h, hero in enumerate(heroes.values()):
        for i, ability in enumerate(hero.abilities):
            where = f"hero[{h}].abilities[{i}]"
            if ability.id in seen:
                ck.fail(sub(where, "id"), f"duplicate ability id {ability.id!r} (same as {seen[ability.id]})")
            seen[ability.id] = where


__all__ = ["MAX_HERO_ABILITIES", "ContentError", "check_unique_abilities", "parse_abilities"]
