"""The Explore phase (EXPL): explore or stay, room and corridor events, other Explore actions
(memorize, identify, Explore spells, using items), then trap detection (R-EXPL-06).

The phase is a small state machine kept in the state: ``act_step`` (STEP_CHOICE, STEP_EVENTS,
STEP_ACTS) and ``act_todo`` (the heroes still to ask, or the events still to resolve). Every
decision it asks returns through ``resume_explore``, which picks up where the step left off.

Room events (rulings A-59/A-60): each event fires once, in board reading order of the areas that
hold a hero (then in file order), ``scope = "all"`` at the first Explore phase with any hero in its
area, ``"exploring"`` at the first with an exploring hero there. If an event brings monsters, the
combat sequence is in effect and the rest of the phase and the Trade phase are skipped (ruling
D-E1): events not yet resolved wait for a later Explore phase.

OWNER: the dungeon work (issue 3). Hooks: ``begin_explore(g)`` / ``resume_explore(g)`` run phase 3
and end with ``g.goto(Phase.TRADE)``. Decisions EXPLORE_CHOICE, EVENT_CHOICE, CLAIM_ITEM and
HERO_ACT (in the Explore phase; in the Trade phase HERO_ACT belongs to ``trade``).

Events: ``explore_choice`` ``{unit, explore, turn}``; ``room_event`` ``{event, area, kind, scope,
text, heroes, turn}``; ``event_choice`` ``{event, unit, option, turn}``; ``item_found`` ``{unit,
item, event, turn}``; ``item_left`` ``{item, event, turn}``; ``secret_door`` ``{door, squares,
turn}``; rolls of check ``trait_check`` (``success`` / ``fail``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dungeon_env.engine import effects, inventory, traps
from dungeon_env.engine.actions import (
    CHOICE_0,
    EXPLORE,
    PASS,
    STAY,
    TAKE,
    Decision,
    Phase,
)
from dungeon_env.engine.board import free
from dungeon_env.engine.encounters import encounter
from dungeon_env.engine.state import ACTIVE, How
from dungeon_env.engine.tables import UNREACHABLE, path_distances
from dungeon_env.engine.units import (
    active_heroes,
    any_monster,
    check_corpses,
    has_trait,
    label,
    place_monster,
)

if TYPE_CHECKING:
    from dungeon_env.content.model import Effect, EventOption, RoomEvent
    from dungeon_env.engine.context import Context

STEP_CHOICE, STEP_EVENTS, STEP_ACTS = 0, 1, 2
TARGETLESS = ("light",)  # effects that act on the party, not on one hero: applied once per event


# ----------------------------------------------------------------------------------------- the phase


def begin_explore(g: Context) -> None:
    """(a) each living hero on the board says whether it explores or stays put (R-EXPL-02)."""
    s = g.state
    s.act_step = STEP_CHOICE
    s.act_todo = active_heroes(g)
    resume_explore(g)


def resume_explore(g: Context) -> None:
    """Go on with the phase where it stands: (a) the next explore choice, (b) the next event due,
    (c) the next hero's other Explore actions, then (d) the Detect Traps rolls and on to Trade."""
    s = g.state
    if s.outcome:
        return
    if any_monster(g):  # an event brought monsters: combat is in effect (R-EXPL-01, D-E1)
        s.act_todo = []
        g.goto(Phase.TURN_END)
        return
    if s.act_step == STEP_CHOICE:
        if _ask_next(g, Decision.EXPLORE_CHOICE, pop=True):
            return
        _mark_explored(g)
        s.act_step, s.act_todo = STEP_EVENTS, _due_events(g)
    if s.act_step == STEP_EVENTS:
        while s.act_todo:
            e = s.act_todo.pop(0)
            if _fires(g, e):
                fire_event(g, e)
                if s.stack or s.outcome or any_monster(g):
                    return  # the engine resumes the phase when the decisions are taken
        s.act_step, s.act_todo = STEP_ACTS, active_heroes(g)
    if _ask_next(g, Decision.HERO_ACT, pop=False):  # (c) other Explore actions, hero by hero
        return
    traps.detect_traps(g)  # (d) finally, the Detect Traps rolls (R-EXPL-06, R-TRAP-01)
    g.goto(Phase.TRADE)


def _ask_next(g: Context, kind: Decision, pop: bool) -> bool:
    """Ask the first hero of ``act_todo`` still on the board; ``pop`` takes it off the list now
    (else its END does). False when nobody is left."""
    s = g.state
    while s.act_todo:
        h = s.act_todo[0]
        if s.unit_status[h] != ACTIVE:
            s.act_todo.pop(0)
            continue
        if pop:
            s.act_todo.pop(0)
        g.push(kind, h)
        return True
    return False


def legal_explore_choice(g: Context, unit: int, a: int, b: int) -> list[int]:
    return [EXPLORE, STAY]


def do_explore_choice(g: Context, unit: int, a: int, b: int, action: int) -> None:
    s = g.state
    s.exploring[unit] = action == EXPLORE
    if action == EXPLORE:
        s.acted[unit] = True  # exploring is an activity: no Rest this turn (R-REST-02)
    g.log({"type": "explore_choice", "unit": label(g, unit), "explore": action == EXPLORE, "turn": s.turn})


def _mark_explored(g: Context) -> None:
    s, t = g.state, g.tables
    for h in active_heroes(g):
        if s.exploring[h]:
            s.explored_bits |= 1 << int(t.area[s.unit_pos[h]])


def end_acts(g: Context, unit: int) -> None:
    """(c) The hero's Explore actions (items, Explore spells, Active abilities: ``decisions``
    routes them) are over: END."""
    s = g.state
    if s.act_todo and s.act_todo[0] == unit:
        s.act_todo.pop(0)


# ----------------------------------------------------------------------------------------- room events


def area_order(g: Context) -> list[int]:
    """Areas in the board's reading order (by each area's first square), built once per adventure."""
    cache = g.tables.cache
    order = cache.get("area_order")
    if order is None:
        order = sorted(range(g.tables.n_areas), key=lambda a: int(g.tables.area_squares[a].min()))
        cache["area_order"] = order
    return order


def _area_index(g: Context, event: RoomEvent) -> int:
    return g.tables.board.area_names.index(event.area)


def _due_events(g: Context) -> list[int]:
    """Events not yet fired in the areas that hold a hero, in board reading order of the areas,
    then in file order (A-60)."""
    s, t = g.state, g.tables
    occupied = {int(t.area[s.unit_pos[h]]) for h in active_heroes(g)}
    by_area: dict[int, list[int]] = {}
    for e, event in enumerate(t.adventure.events):
        if not s.event_done[e]:
            by_area.setdefault(_area_index(g, event), []).append(e)
    return [e for a in area_order(g) if a in occupied for e in by_area.get(a, [])]


def affected(g: Context, e: int) -> list[int]:
    """The heroes an event affects: every living hero in its area, or only the exploring ones."""
    s, t = g.state, g.tables
    event = t.adventure.events[e]
    area = _area_index(g, event)
    heroes = [h for h in active_heroes(g) if t.area[s.unit_pos[h]] == area]
    return heroes if event.scope == "all" else [h for h in heroes if s.exploring[h]]


def _fires(g: Context, e: int) -> bool:
    return not g.state.event_done[e] and bool(affected(g, e))


def fire_event(g: Context, e: int) -> None:
    """Resolve one event (it never fires again, A-59); it may ask decisions of the heroes."""
    s = g.state
    event = g.tables.adventure.events[e]
    heroes = affected(g, e)
    s.event_done[e] = True
    g.log(
        {
            "type": "room_event",
            "event": e,
            "area": event.area,
            "kind": event.kind,
            "scope": event.scope,
            "text": event.text,
            "heroes": [label(g, h) for h in heroes],
            "turn": s.turn,
        }
    )
    source = f"event:{event.area}"
    if event.kind == "effect":
        _apply_all(g, event.effect, source, heroes)
    elif event.kind == "check":
        for h in heroes:
            resolve_option(g, e, event.options[0], h)
    elif event.kind == "choice":
        g.push(Decision.EVENT_CHOICE, heroes[0], e)
    elif event.kind == "item":
        _offer(g, e, heroes)
    elif event.kind == "detect":
        for h in heroes:
            traps.room_detect(g, h, _area_index(g, event))
    elif event.kind == "ambush":
        spawn_event_monsters(g, e)
    elif event.kind == "secret":
        reveal_door(g, event.door)
    check_corpses(g)
    g.check_end()


def _apply(g: Context, effect: Effect, source: str, h: int) -> None:
    if g.state.unit_status[h] == ACTIVE:
        effects.apply_effect(g, effect, source, h)


def _apply_all(g: Context, effect: Effect, source: str, heroes: list[int]) -> None:
    if effect.kind in TARGETLESS:
        effects.apply_effect(g, effect, source, -1)
        return
    for h in heroes:
        _apply(g, effect, source, h)


def trait_check(g: Context, h: int, trait: str) -> bool:
    """A room-text trait check: d6, +1 with the trait, 4-6 succeeds (the rules' single-die bands;
    Light does not apply, R-LIGHT-04; ``rules.trait_check_min``)."""
    need = g.rules.trait_check_min
    modifiers = {trait: 1} if has_trait(g, h, trait) else {}

    def result(v: int) -> str:
        return "success" if v >= need else "fail"

    total = g.check("trait_check", label(g, h), "misc", modifiers, result)
    return total >= need


def resolve_option(g: Context, e: int, option: EventOption, h: int) -> None:
    """One option for hero ``h``: its trait check if any (a failure applies ``fail`` only), then its
    effect and its find."""
    source = f"event:{g.tables.adventure.events[e].area}"
    if option.trait is not None and not trait_check(g, h, option.trait):
        if option.fail is not None:
            _apply(g, option.fail, source, h)
        return
    if option.effect is not None:
        _apply_all(g, option.effect, source, [h])
    if option.item is not None or option.deck is not None:
        item = _find(g, option.item, option.deck)
        if item >= 0 and g.state.unit_status[h] == ACTIVE:
            inventory.give(g, item, h)
            g.log({"type": "item_found", "unit": label(g, h), "item": item, "event": e, "turn": g.state.turn})


def legal_event_choice(g: Context, unit: int, a: int, b: int) -> list[int]:
    return [CHOICE_0 + k for k in range(len(g.tables.adventure.events[a].options))]


def do_event_choice(g: Context, unit: int, a: int, b: int, action: int) -> None:
    k = action - CHOICE_0
    g.log({"type": "event_choice", "event": a, "unit": label(g, unit), "option": k, "turn": g.state.turn})
    resolve_option(g, a, g.tables.adventure.events[a].options[k], unit)
    check_corpses(g)
    g.check_end()


# ----------------------------------------------------------------------------------------- items found


def _find(g: Context, card_id: str | None, deck: str | None) -> int:
    """The item slot of a find: the named card, or the next card of the deck (-1: the deck is empty)."""
    return inventory.create(g, card_id) if card_id is not None else inventory.draw(g, deck)


def _offer(g: Context, e: int, heroes: list[int]) -> None:
    """An item found: offered to the exploring heroes of the area in slot order (R-EXPL-05, A-05)."""
    event = g.tables.adventure.events[e]
    item = _find(g, event.item, event.deck)
    if item < 0:
        return
    g.push(Decision.CLAIM_ITEM, heroes[0], e, item)


def legal_claim(g: Context, unit: int, a: int, b: int) -> list[int]:
    """TAKE (if the hero can carry one more item) or PASS."""
    return [TAKE, PASS] if inventory.can_hold(g, unit) else [PASS]


def do_claim(g: Context, unit: int, a: int, b: int, action: int) -> None:
    """TAKE: the hero takes the item. PASS: the next exploring hero of the area is asked; if every
    one passes, the item is left where it was found."""
    s = g.state
    if action == TAKE:
        inventory.give(g, b, unit)
        g.log({"type": "item_found", "unit": label(g, unit), "item": b, "event": a, "turn": s.turn})
        return
    later = [h for h in affected(g, a) if h > unit]
    if later:
        g.push(Decision.CLAIM_ITEM, later[0], a, b)
    else:
        g.log({"type": "item_left", "item": b, "event": a, "turn": s.turn})


# ------------------------------------------------------------------------------ ambushes and secrets


def _spot(g: Context, sq: int, area: int) -> int:
    """``sq`` if free, else the nearest free square of the same area (ties in reading order), or -1."""
    if free(g, sq):
        return sq
    dist = path_distances(g.tables, [sq], g.state.door_open)
    spots = [int(q) for q in g.tables.area_squares[area] if free(g, int(q)) and dist[q] < UNREACHABLE]
    return min(spots, key=lambda q: (dist[q], q)) if spots else -1


def spawn_event_monsters(g: Context, e: int) -> list[int]:
    """An event's monsters appear as an ambush: whatever their cards, they follow the Ambusher rules
    (R-MON-09 revised): every hero needs a 6 to be ready and they are never surprised."""
    event = g.tables.adventure.events[e]
    area = _area_index(g, event)
    group = []
    for monster_id, (x, y) in zip(event.monsters, event.at, strict=True):
        sq = _spot(g, g.square(x, y), area)
        u = place_monster(g, monster_id, sq, How.AMBUSH) if sq >= 0 else -1
        if u >= 0:
            group.append(u)
    if group:
        encounter(g, group, How.AMBUSH)
    return group


def reveal_door(g: Context, door: int) -> None:
    """A secret door becomes an ordinary closed door: it can be opened from now on."""
    s = g.state
    s.door_hidden[door] = False
    squares = [list(g.xy(q)) for q in g.tables.door_squares[door]]
    g.log({"type": "secret_door", "door": door, "squares": squares, "turn": s.turn})
