"""The rules' numeric constants in one place: :class:`Rules`, which the engine reads as ``game.rules``.

Every field is a key of a variant (``dungeon_env.content.variants``): ``light_*`` fields are
``light.*`` keys (``light_start`` is ``light.start``), every other field ``x`` is ``rules.x``.
``RULE_KEYS`` gives each key its field, its allowed range and what it means; the defaults are the
rules as written. The d6 bands are named by the end they mark: ``*_max`` is the highest total that
still gives the named result, ``*_min`` the lowest.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

# Limits set by the flat action table (engine.actions: spend_0..spend_3, item_0..item_11,
# spell_0..spell_7); the content layer cannot import the engine, a test keeps them equal.
MAX_SPEND = 3
MAX_ITEMS_HELD = 12
MAX_SPELLS_KNOWN = 8


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules' numeric constants (defaults: the rules as written)."""

    light_start: int = 20
    light_max: int = 20
    light_per_turn: int = 1
    light_dark_penalty: int = 1
    surprise_max: int = 2
    ambush_ready_min: int = 6
    patrol_max: int = 1
    patrol_board_max: int = 0
    deaths_door_max: int = 3
    door_alert_max: int = 2
    door_open_min: int = 5
    jump_min: int = 4
    disarm_spring_max: int = 1
    disarm_min: int = 4
    identify_never_max: int = 1
    identify_min: int = 4
    room_detect_min: int = 4
    trait_check_min: int = 4
    overcast_forget_max: int = 1
    overcast_safe_min: int = 6
    recover_stamina: int = 1
    rest_stamina: int = 2
    rest_magic: int = 1
    rest_magic_learned: int = 2
    enemy_penalty: int = 1
    fight_stamina_max: int = MAX_SPEND
    move_stamina_max: int = MAX_SPEND
    evade_cost: int = 2
    mental_bid_max: int = MAX_SPEND
    lash_range: int = 6
    lash_damage: int = 2
    max_items: int = MAX_ITEMS_HELD
    max_spells: int = MAX_SPELLS_KNOWN


BASE_RULES = Rules()

# key -> (lowest, highest, meaning). "total" is the d6 plus its modifiers.
RULE_KEYS: dict[str, tuple[int, int, str]] = {
    "light.start": (0, 99, "the party's Light at set-up (R-LIGHT-01); at most `light.max`"),
    "light.max": (1, 99, "Light never rises above this (R-LIGHT-01/03)"),
    "light.per_turn": (0, 5, "Light lost at each Turn End (R-LIGHT-02)"),
    "light.dark_penalty": (
        0,
        5,
        "at Light 0: minus this to Fighting, Surprise, Detect Traps and Movement (R-LIGHT-04)",
    ),
    "rules.surprise_max": (0, 6, "a hero is surprised on a Surprise total of at most this (R-SURP-02)"),
    "rules.ambush_ready_min": (1, 7, "facing Ambushers, a hero is ready only on at least this (R-SURP-11)"),
    "rules.patrol_max": (0, 6, "a Patrol appears on a Patrol roll of at most this (R-MON-04)"),
    "rules.patrol_board_max": (
        0,
        30,
        "no Patrol rolls while this many Patrol monsters are on the board (0: no limit, the rules; A-06)",
    ),
    "rules.deaths_door_max": (0, 6, "a hero at Death's Door dies on a total of at most this (R-DMG-06)"),
    "rules.door_alert_max": (0, 6, "Open Doors: failed and alerted on a total of at most this"),
    "rules.door_open_min": (1, 7, "Open Doors: opened on a total of at least this"),
    "rules.jump_min": (1, 7, "a Jump succeeds on a total of at least this (R-JUMP-04)"),
    "rules.disarm_spring_max": (0, 6, "Disarm: the trap springs on a total of at most this"),
    "rules.disarm_min": (1, 7, "Disarm: disarmed on a total of at least this (R-TRAP-07)"),
    "rules.identify_never_max": (0, 6, "Identify: never (until the adventure ends) on at most this"),
    "rules.identify_min": (1, 7, "Identify: identified on a total of at least this (R-IDENT-03)"),
    "rules.room_detect_min": (1, 7, "a room text's Detect Traps roll succeeds on at least this (R-TRAP-05)"),
    "rules.trait_check_min": (1, 7, "a room text's trait check succeeds on a total of at least this"),
    "rules.overcast_forget_max": (0, 6, "after an Overcast: the spell is forgotten on at most this"),
    "rules.overcast_safe_min": (1, 7, "after an Overcast: no ill effect on at least this (R-SPELL-11)"),
    "rules.recover_stamina": (0, 5, "Stamina every hero recovers at Turn Start (R-TURN-03)"),
    "rules.rest_stamina": (0, 5, "Stamina recovered at Turn Start after a turn of Rest (R-TURN-04)"),
    "rules.rest_magic": (0, 5, "Magic recovered at Turn Start after a turn of Rest (R-TURN-04)"),
    "rules.rest_magic_learned": (0, 5, "the same for a Learned hero (R-REST-04)"),
    "rules.enemy_penalty": (0, 3, "Fighting Score penalty per enemy beyond the first (R-FIGHT-03)"),
    "rules.fight_stamina_max": (0, MAX_SPEND, "most Stamina spent on one Fight (R-FIGHT-09)"),
    "rules.move_stamina_max": (0, MAX_SPEND, "most Stamina spent on movement in one phase (A-01)"),
    "rules.evade_cost": (1, 10, "Stamina paid for each square of Evasion (R-CTS-04)"),
    "rules.mental_bid_max": (0, MAX_SPEND, "most Magic bid in one Mental Combat (R-MENT-02)"),
    "rules.lash_range": (0, 12, "a Mind Lash reaches heroes within this many squares (ruling D-M8)"),
    "rules.lash_damage": (1, 6, "Health a hero loses to a Mind Lash it loses (ruling D-M8)"),
    "rules.max_items": (1, MAX_ITEMS_HELD, "most items a hero can hold (ruling D-M17)"),
    "rules.max_spells": (1, MAX_SPELLS_KNOWN, "most spells a hero can know by memorizing (ruling D-M10)"),
}

# Pairs of bands of one check: the first must stay below the second.
RULE_ORDER = (
    ("light.start", "light.max", "the party cannot start with more Light than the cap"),
    ("rules.door_alert_max", "rules.door_open_min", "the alerted band lies below the opened band"),
    ("rules.disarm_spring_max", "rules.disarm_min", "the springing band lies below the disarmed band"),
    ("rules.identify_never_max", "rules.identify_min", "the never band lies below the identified band"),
    ("rules.overcast_forget_max", "rules.overcast_safe_min", "the forget band lies below the safe band"),
)


def field_of(key: str) -> str:
    """The :class:`Rules` field of a rules key: ``light.start`` -> ``light_start``, ``rules.x`` -> ``x``."""
    section, _, name = key.partition(".")
    return f"light_{name}" if section == "light" else name


def _check_table() -> None:
    names = {f.name for f in fields(Rules)}
    keyed = {field_of(key) for key in RULE_KEYS}
    if names != keyed:
        raise RuntimeError(f"Rules fields and RULE_KEYS differ: {sorted(names ^ keyed)}")


_check_table()

__all__ = ["BASE_RULES", "RULE_KEYS", "RULE_ORDER", "Rules", "field_of"]
