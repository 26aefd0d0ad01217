"""One finished game as a compact, JSON-serialisable record, read from its event log.

``summarize(events, ...)`` does the work from the events alone (``setup``, ``spawn``, ``roll``,
``fight``, ``mental``, ``damage``, ``deaths_door``, ``death``, ``exit``, ``slain``, ``draw``,
``item_found``, ``end``); ``record_of(game)`` adds what the final state knows: the hero card ids,
the monster ids behind the names, every item slot's card. ``difficulty.metrics`` aggregates records.

A record::

    {"i": 0, "seed": 0, "outcome": "completed", "goals_met": true, "end": "completed_with_goals",
     "turns": 29, "light": 0,
     "heroes": [{"hero": "bram", "traits": ["strong", "iron_willed"], "died": 1, "deaths_door": 1,
                 "damage": 12, "escaped": 0}, ...],
     "items_found": 1, "treasure": 1, "gold": 25,
     "spawned": {"goblin": 4, ...}, "slain": {"goblin": 4, ...},
     "wounds": {"guard": 5, "patrol": 7, "ambush": 0, "event": 0, "trap": 1, "other": 0},
     "checks": {"open_door:failed": 2, "deaths_door:dies": 1, "fight:won": 9, ...}}

``outcome`` is the ``end`` event's (``completed``: every surviving hero left the dungeon, goals met or
not; ``failed``: every hero died; ``truncated``: the turn cap), ``goals_met`` says whether every
primary goal of the adventure was met (the ``end`` event's ``goals_met``), and ``end`` is how the
adventure ended, one of ``ENDS`` (``dungeon_env.ending.Ending``, the project's one vocabulary):

- ``completed_with_goals``: completed with every primary goal met (in the final adventure, also by a
  party that met them and died doing it);
- ``completed_without_goals``: completed without every primary goal (the survivors left without them);
- ``failed``: every hero died;
- ``truncated``: stopped by the turn cap.

Records written before 2026-12-06 spell two of them ``walked_out`` and ``all_dead``: :func:`read_record`
reads a saved record (a line of ``games.jsonl``) with today's names.

``wounds`` is the damage the heroes took, by where it came from (``WOUND_SOURCES``): the monsters by
how they came onto the board (``guard``, ``patrol``, ``ambush``; ``event`` also holds a room event's
own damage and the monsters it spawned), ``trap``, and ``other`` (a caster's Overcast, an item).

``checks`` counts every roll by ``check:result`` (a Detect Traps roll, whose result is a number of
squares, counts as ``detect_traps:rolled``) and every Fight and Mental Combat that involved a hero,
from the heroes' side, as ``fight:won|lost|tied`` and ``mental:won|lost|tied``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from dungeon_env.ending import GAME_ENDINGS, classify, read_ending

ENDS = tuple(end.value for end in GAME_ENDINGS)
OUTCOMES = ("completed", "failed", "truncated")
WOUND_SOURCES = ("guard", "patrol", "ambush", "event", "trap", "other")


def end_kind(outcome: str, goals_met: bool) -> str:
    """One of ``ENDS`` from the ``end`` event's outcome and whether every primary goal was met
    (``dungeon_env.ending.classify``)."""
    if outcome not in OUTCOMES:
        raise ValueError(f"unknown outcome {outcome!r}; an end event's outcome is one of {OUTCOMES}")
    return classify(outcome, goals_met).value


def read_record(record: dict) -> dict:
    """A saved record (a line of ``games.jsonl``) with today's name of its ``end``
    (``dungeon_env.ending.read_ending``: ``walked_out`` and ``all_dead`` of older files included)."""
    end = record.get("end")
    return {**record, "end": read_ending(end).value} if end else dict(record)


def goals_met_of(end: dict) -> bool:
    """The ``end`` event's ``goals_met`` (or, for a log without it, every primary goal it lists met)."""
    if "goals_met" in end:
        return bool(end["goals_met"])
    goals = [o for o in end.get("objectives", ()) if o.get("primary")]
    return bool(goals) and all(o.get("met") for o in goals)


def wound_source(source: str, how_of: Mapping[str, str]) -> str:
    """Where a blow to a hero came from (one of ``WOUND_SOURCES``): a monster's encounter type (its
    ``spawn`` event's ``how``), else the kind of effect named before the colon (``trap:<name>``,
    ``event:<area>``), else ``other``."""
    how = how_of.get(source)
    if how is None:
        how = str(source).split(":", 1)[0]
    return how if how in WOUND_SOURCES else "other"


def _is_hero(unit: Any) -> bool:
    return isinstance(unit, str) and unit.startswith("hero_")


def _duel(event: dict) -> str | None:
    """``won``/``lost``/``tied`` for the hero in a Fight or Mental Combat (None if no hero fought)."""
    a, b, winner = event.get("a"), event.get("b"), event.get("winner")
    if not (_is_hero(a) or _is_hero(b)):
        return None
    if winner is None:
        return "tied"
    return "won" if _is_hero(winner) else "lost"


# the event types ``summarize`` reads (a log filtered to them gives the same record)
SUMMARY_TYPES = (
    "setup",
    "end",
    "roll",
    "fight",
    "mental",
    "damage",
    "deaths_door",
    "death",
    "exit",
    "spawn",
    "slain",
    "draw",
    "item_found",
)


def summarize(
    events: list[dict],
    hero_cards: list[str] | None = None,
    monster_id: Mapping[str, str] | None = None,
    item_card: Callable[[int], str | None] | None = None,
    treasure_value: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """The record of one game from its event log.

    ``hero_cards``: each hero slot's card id (default: the hero's name in the ``setup`` event);
    ``monster_id``: monster name → id (default: the name); ``item_card``: item slot → card id
    (default: from the ``draw`` events); ``treasure_value``: card id → gold, for treasure cards."""
    setup = events[0]
    if setup.get("type") != "setup":
        raise ValueError(f"an event log starts with a setup event, not {setup.get('type')!r}")
    units = setup["units"]
    cards = hero_cards or [u["name"] for u in units]
    heroes = {
        u["id"]: {"hero": cards[i], "traits": sorted(u["traits"]), "died": 0, "deaths_door": 0, "damage": 0}
        for i, u in enumerate(units)
    }
    escaped: set[str] = set()
    drawn: dict[int, str] = {}
    found: list[int] = []
    spawned: Counter = Counter()
    slain: Counter = Counter()
    kind_of: dict[str, str] = {}
    how_of: dict[str, str] = {}
    wounds = dict.fromkeys(WOUND_SOURCES, 0)
    checks: Counter = Counter()
    end = events[-1] if events[-1].get("type") == "end" else {}
    for e in events:
        kind = e["type"]
        if kind == "roll":
            result = e["result"]
            checks[f"{e['check']}:{result if isinstance(result, str) else 'rolled'}"] += 1
        elif kind in ("fight", "mental"):
            side = _duel(e)
            if side:
                checks[f"{kind}:{side}"] += 1
        elif kind == "damage" and e["unit"] in heroes:
            heroes[e["unit"]]["damage"] += int(e["amount"])
            wounds[wound_source(e.get("source", ""), how_of)] += int(e["amount"])
        elif kind == "deaths_door" and e["unit"] in heroes:
            heroes[e["unit"]]["deaths_door"] += 1
        elif kind == "death" and e["unit"] in heroes:
            heroes[e["unit"]]["died"] = 1
        elif kind == "exit":
            escaped.add(e["unit"])
        elif kind == "spawn":
            unit = e["unit"]
            kind_of[unit["id"]] = (monster_id or {}).get(unit["name"], unit["name"])
            how_of[unit["id"]] = e.get("how", "")
            spawned[kind_of[unit["id"]]] += 1
        elif kind == "slain" and e["unit"] in kind_of:
            slain[kind_of[e["unit"]]] += 1
        elif kind == "draw":
            drawn[int(e["item"])] = e["card"]
        elif kind == "item_found":
            found.append(int(e["item"]))
    card_of = item_card or drawn.get
    values = [(treasure_value or {}).get(card_of(slot) or "", 0) for slot in found]
    treasure = [v for slot, v in zip(found, values, strict=True) if card_of(slot) in (treasure_value or {})]
    outcome = end.get("outcome", "")
    goals_met = goals_met_of(end)
    return {
        "outcome": outcome,
        "goals_met": goals_met,
        "end": end_kind(outcome, goals_met) if end else "",
        "turns": int(end.get("turn", 0)),
        "light": int(end.get("light", 0)),
        "heroes": [{**h, "escaped": int(uid in escaped)} for uid, h in heroes.items()],
        "items_found": len(found),
        "treasure": len(treasure),
        "gold": int(sum(treasure)),
        "spawned": dict(sorted(spawned.items())),
        "slain": dict(sorted(slain.items())),
        "wounds": wounds,
        "checks": dict(sorted(checks.items())),
    }


def record_of(game, index: int) -> dict[str, Any]:
    """The record of a finished engine ``Game`` played as game ``index`` of a cell."""
    s = game.state
    treasure = {
        c.id: int(c.effect.amount)
        for c in game.item_cards
        if c.deck == "treasure" and getattr(c, "effect", None) is not None
    }

    def item_card(slot: int) -> str | None:
        card = int(s.item_card[slot]) if 0 <= slot < len(s.item_card) else -1
        return game.item_cards[card].id if card >= 0 else None

    record = summarize(
        game.events_of_types(SUMMARY_TYPES),
        hero_cards=list(game.hero_ids),
        monster_id={m.name: m.id for m in game.monsters},
        item_card=item_card,
        treasure_value=treasure,
    )
    return {"i": int(index), "seed": int(game.seed), **record}


__all__ = [
    "ENDS",
    "OUTCOMES",
    "WOUND_SOURCES",
    "end_kind",
    "goals_met_of",
    "read_record",
    "record_of",
    "summarize",
    "wound_source",
]
