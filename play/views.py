"""What a seat is sent: a game as JSON, built from a side's view of it.

A hero seat's JSON is built from the heroes' view of the game (``side_knowledge.knowledge_of(game,
"heroes").view()``), which holds only what heroes may know (the fog's areas, monsters and furniture
absent, undetected traps absent, face-down cards replaced by placeholders, no seed, no dice), so
nothing hidden can reach the JSON: it is not there to be left out. A DM seat's JSON is built from
the game itself, but never holds the seed or the dice streams. In the heroes' view a monster's label
is the heroes' name of it (``m0``, ``m1``, ... in the order heroes first saw them, the same for its
whole life and the same names as in their story), so an id never counts the monsters in the fog.

Each choice says what it costs and risks in its words (``render.actions``), carries a ``warning``
when the page must ask before sending it (a step onto a trap the side knows) and ``idle`` when it is
legal but does nothing now; each hero carries the text of its cards (items, spells, abilities: a
face-down card is its placeholder in the heroes' view), each monster what it spent of its Stamina.
"""

from __future__ import annotations

from collections.abc import Mapping

from dungeon_env.content.model import HEIGHT, WIDTH
from dungeon_env.engine import spells
from dungeon_env.engine.actions import (
    DISARM_ACTIONS,
    JUMP_ACTIONS,
    MOVE_ACTIONS,
    PHASE_NAMES,
    Decision,
)
from dungeon_env.engine.inventory import held
from dungeon_env.engine.state import (
    ACTIVE,
    CORPSE,
    EMPTY,
    FIGHT_HERO,
    FIGHT_M_SPEND,
    FIGHT_MONSTER,
    FIGHT_WINNER,
    Side,
    Status,
)
from dungeon_env.engine.tables import xy
from dungeon_env.render.actions import (
    action_idle,
    action_warning,
    decision_text,
    describe_action,
    figure_flags,
    figure_name,
    item_name,
)

HEROES, DM = "heroes", "dm"
_HERO, _MONSTER = int(Side.HERO), int(Side.MONSTER)  # unit_side's values, compared as plain ints
_DIR = ("north", "east", "south", "west")


def board_json(game) -> dict:
    """The board as ``game`` knows it: each square's area (letter) and kind, which areas are known,
    the walls on each square's east and south edges, doors, furniture, blockages, exits, traps and
    the Guards not placed yet. Squares are indices ``y * 24 + x``; ``walls`` are ``[square, side]``
    with side 1 the square's east edge and 2 its south edge."""
    t, s = game.tables, game.state
    fixed = _fixed_board(t)
    known_area = s.revealed.tolist()
    door_open, door_hidden = s.door_open.tolist(), s.door_hidden.tolist()
    detected, armed = s.trap_detected.tolist(), s.trap_armed.tolist()
    doors = [
        {"a": a, "b": b, "open": bool(door_open[k]), "secret": bool(door_hidden[k])}
        for k, (a, b) in enumerate(fixed["door_xy"])
    ]
    traps = [
        {"at": list(trap.at), "name": trap.name, "detected": bool(detected[k]), "armed": bool(armed[k])}
        for k, trap in enumerate(t.adventure.traps)
    ]
    guard_uid, guard_slain = s.guard_uid.tolist(), s.guard_slain.tolist()
    guards = [
        {"monster": game.monsters[game.monster_index[g.monster]].name, "kind": g.monster, "at": list(g.at)}
        for k, g in enumerate(t.adventure.guards)
        if guard_uid[k] < 0 and not guard_slain[k]
    ]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "area": list(fixed["area"]),
        "corridor": list(fixed["corridor"]),
        "known": [bool(known_area[a]) for a in fixed["area_index"]],
        "walls": [list(wall) for wall in fixed["walls"]],
        "doors": doors,
        "furniture": list(fixed["furniture"]),
        "furniture_kinds": dict(fixed["furniture_kinds"]),
        "blockages": list(fixed["blockages"]),
        "exits": list(fixed["exits"]),
        "traps": traps,
        "guards": guards,  # Guards not placed yet (the DM's book; a heroes' view lists none)
    }


def _fixed_board(t) -> dict:
    """What of :func:`board_json` depends on the tables alone (areas, walls, doors' squares,
    furniture, blockages, exits), made once per tables object and kept in its cache; callers copy
    the lists they hand out."""
    fixed = t.cache.get("play_board")
    if fixed is not None:
        return fixed
    names = t.board.area_names
    area_index = [int(a) for a in t.area.tolist()]
    wall, neighbor = t.wall.tolist(), t.neighbor.tolist()
    furniture = [sq for sq, v in enumerate(t.furniture.tolist()[: WIDTH * HEIGHT]) if v]
    kinds = {int(x + y * WIDTH): f.kind for f in t.adventure.furniture for x, y in f.squares}
    fixed = t.cache["play_board"] = {
        "area_index": area_index,
        "area": [names[a] for a in area_index],
        "corridor": [bool(t.is_corridor[a]) for a in area_index],
        "walls": [
            (sq, side)
            for sq in range(WIDTH * HEIGHT)
            for side in (1, 2)
            if wall[sq][side] and neighbor[sq][side] >= 0
        ],
        "door_xy": [(list(xy(a)), list(xy(b))) for a, b in t.door_squares],
        "furniture": furniture,
        "furniture_kinds": {str(sq): kinds[sq].replace("_", " ") for sq in furniture if sq in kinds},
        "blockages": [sq for sq, v in enumerate(t.blockage.tolist()[: WIDTH * HEIGHT]) if v],
        "exits": [sq for sq, v in enumerate(t.exit.tolist()[: WIDTH * HEIGHT]) if v],
    }
    return fixed


def monster_names(game, side: str) -> dict[int, str] | None:
    """Display names of the monsters of a side's view for its seat: for heroes "<card> m<k>" by the
    view's labels (the heroes' names); None for the DM (the engine's labels)."""
    if side == DM:
        return None
    s = game.state
    sides = s.unit_side.tolist()
    monsters = [u for u in range(s.n_heroes, len(sides)) if sides[u] == _MONSTER]
    return {u: f"{game.card(u).name} {game.label(u)}" for u in monsters}


def figure_key(game, u: int, names: Mapping[int, str] | None) -> str:
    """A figure's public key: ``hero_k`` for a hero; for a monster the id its seat knows it by: for
    heroes (``names`` given) their name of it, in the order they first saw it (``m0``, ``m1``...), for
    the DM the engine's label. Never the engine's slot, which counts fog monsters and is reused once a
    monster is gone (ruling D-24)."""
    if int(game.state.unit_side[u]) == _HERO:
        return f"hero_{u}"
    if names is None or u not in names:  # the DM; or a monster the lens has not named (the view's label)
        return game.label(u)
    return names[u].rsplit(" ", 1)[-1]


def _lens_order(key: str) -> int:
    return int(key[1:]) if key[1:].isdigit() else 10**6


def figures_json(game, names: Mapping[int, str] | None = None) -> list[dict]:
    """Every figure ``game`` holds (a heroes' view holds the heroes and the monsters they see), with
    its public ``key`` (:func:`figure_key`), its profile, its state and, for a hero, its items,
    spells and abilities with their card text; for a monster, the Stamina it spent
    (``stamina_spent``). Heroes come first in the party's order, then the monsters in the order the
    seat's side first saw them."""
    s = game.state
    acting = int(game.decision[1]) if game.decision is not None else -1
    out = []
    sides, statuses = s.unit_side.tolist(), s.unit_status.tolist()
    for u in _figure_order(game, names):
        status = statuses[u]
        if status == EMPTY:
            continue
        hero = sides[u] == _HERO
        if not hero and status not in (ACTIVE, CORPSE):
            continue
        card = game.card(u)
        pos = int(s.unit_pos[u])
        fig = {
            "key": figure_key(game, u, names),
            "name": figure_name(game, u, names),
            "card": card.name,
            "kind": card.id,
            "side": "hero" if hero else "monster",
            "status": Status(status).name.lower(),
            "at": list(game.xy(pos)) if pos >= 0 else None,
            "health": int(s.health[u]),
            "base_health": int(s.base_health[u]),
            "stamina": int(s.stamina[u]),
            "base_stamina": int(s.base_stamina[u]),
            "magic": int(s.magic[u]),
            "base_magic": int(s.base_magic[u]),
            "move": int(s.base_move[u]),
            "fight": int(s.base_fight[u]),
            "damage": int(s.base_damage[u]),
            "flags": figure_flags(s, u),
            "acting": u == acting,
        }
        if hero:
            fig.update(_hero_cards(game, u))
        else:
            fig["stamina_spent"] = _stamina_spent(game, u, names)
        out.append(fig)
    return out


def _figure_order(game, names: Mapping[int, str] | None) -> list[int]:
    """The figures' slots, heroes first, then monsters in the order their seat first saw them (for
    the DM, the engine's order)."""
    sides = game.state.unit_side.tolist()
    heroes = [u for u, side in enumerate(sides) if side == _HERO]
    monsters = [u for u, side in enumerate(sides) if side != _HERO]
    if names is not None:
        monsters.sort(key=lambda u: _lens_order(figure_key(game, u, names)) if u in names else 10**6)
    return heroes + monsters


def _hero_cards(game, u: int) -> dict:
    """A hero's number, traits, and its items, spells and abilities by name and with their card text
    (``item_cards``, ``spell_cards``, ``abilities``; a face-down card's is its placeholder's text in
    the heroes' view, so it says nothing of the card)."""
    card = game.card(u)
    items = held(game, u)
    known = spells.known(game, u)
    return {
        "number": u + 1,
        "items": [item_name(game, i) for i in items],
        "spells": [game.spells[sp].name for sp in known],
        "traits": [t.replace("_", "-") for t in card.traits],
        "item_cards": [_item_card(game, i) for i in items],
        "spell_cards": [_spell_card(game.spells[sp]) for sp in known],
        "abilities": [_ability_card(game, u, k, a) for k, a in enumerate(card.abilities)],
    }


def _item_card(game, item: int) -> dict:
    card = game.item_cards[int(game.state.item_card[item])]
    return {"name": item_name(game, item), "deck": card.deck.replace("_", " "), "text": card.text}


def _spell_card(spell) -> dict:
    return {"name": spell.name, "level": spell.level, "casting": spell.casting, "text": spell.text}


def _ability_card(game, u: int, k: int, ability) -> dict:
    out = {"name": ability.name, "active": ability.active, "text": ability.text}
    if ability.active and ability.limit == "turn":
        out["uses"] = "once a turn"
    elif ability.active:
        left = ability.uses - int(game.state.ability_uses[u, k])
        out["uses"] = f"{left} of {ability.uses} left this adventure"
    return out


def _stamina_spent(game, m: int, names: Mapping[int, str] | None) -> dict:
    """What a monster spent of its Stamina: on movement in its last Movement (``move_bought``) and,
    in this Fighting phase, on each Fight whose Stamina the DM has declared (A-09: the DM declares
    first, so a hero deciding sees it)."""
    s = game.state
    fights = []
    for k, row in enumerate(s.fights):
        if int(row[FIGHT_MONSTER]) != m or not _declared(game, k, row):
            continue
        against = figure_name(game, int(row[FIGHT_HERO]), names)
        fights.append({"against": against, "stamina": int(row[FIGHT_M_SPEND])})
    return {"movement": int(s.move_bought[m]), "fights": fights}


def _declared(game, k: int, row) -> bool:
    """The monster's Stamina for Fight ``k`` is declared: the Fight is resolved, or it is the Fight
    being declared and the hero's question is the one asked."""
    if int(row[FIGHT_WINNER]) >= 0:
        return True
    d = game.decision
    return (
        k == game.state.fight_index
        and d is not None
        and Decision(int(d[0])) == Decision.FIGHT_STAMINA
        and int(d[1]) == int(row[FIGHT_HERO])
    )


def _square_of(game, unit: int, action: int) -> list[int] | None:
    """The square a move, door, jump or disarm action points at, for clicking on the board."""
    t = game.tables
    pos = int(game.state.unit_pos[unit])
    if pos < 0:
        return None
    for group, reach in ((MOVE_ACTIONS, 1), (JUMP_ACTIONS, 2), (DISARM_ACTIONS, 1)):
        if action in group:
            sq = pos
            for _ in range(reach):
                sq = int(t.neighbor[sq, action - group[0]]) if sq >= 0 else -1
            return list(game.xy(sq)) if sq >= 0 else None
    return None


def _kind_of(action: int) -> str:
    for name, group in (("move", MOVE_ACTIONS), ("jump", JUMP_ACTIONS), ("disarm", DISARM_ACTIONS)):
        if action in group:
            return name
    return "button"


def decision_json(game, yours: bool, names: Mapping[int, str] | None, side: str) -> dict:
    """Who is asked what; the choices (each legal action named, with the square it points at) only
    for the seat whose turn it is. Heroes are told no more than "the Dungeon Master" about a DM
    decision (its figure may be in the fog)."""
    d = game.decision
    if d is None:
        return {"agent": None, "text": "The adventure is over", "yours": False, "choices": []}
    agent = game.agent
    if side == HEROES and agent == DM:
        return {"agent": DM, "text": "The Dungeon Master is deciding", "yours": False, "choices": []}
    out = {
        "agent": agent,
        "kind": Decision(int(d[0])).name.lower(),
        "text": decision_text(game, names),
        "yours": yours,
        "choices": [],
    }
    if yours:
        unit = int(d[1])
        out["choices"] = [_choice(game, unit, int(a), names) for a in game.legal_actions()]
    return out


def _choice(game, unit: int, action: int, names: Mapping[int, str] | None) -> dict:
    """One legal action for the page: its words, kind and square, a ``warning`` to confirm before
    sending it (it springs a trap the side knows) and ``idle`` (legal, but it does nothing now)."""
    choice = {
        "action": action,
        "text": describe_action(game, action, names),
        "kind": _kind_of(action),
        "square": _square_of(game, unit, action),
    }
    warning = action_warning(game, action)
    if warning:
        choice["warning"] = warning
    if action_idle(game, action):
        choice["idle"] = True
    return choice


def objectives_json(game) -> list[dict]:
    return [dict(o) for o in game.objectives()]


def game_json(game, *, side: str, names: Mapping[int, str] | None, yours: bool) -> dict:
    """The whole picture a seat is sent (the story and the seat's identity are added by the table)."""
    s = game.state
    adv = game.tables.adventure
    return {
        "side": side,
        "adventure": {"id": adv.id, "name": adv.name, "goal": adv.goal},
        "turn": int(s.turn),
        "max_turns": int(game.max_turns),
        "light": int(s.light),
        "phase": PHASE_NAMES[int(s.phase)],
        "outcome": s.outcome or None,
        "end_reason": s.end_reason or None,
        "objectives": objectives_json(game),
        "board": board_json(game),
        "figures": figures_json(game, names),
        "decision": decision_json(game, yours, names, side),
        "direction_names": list(_DIR),
    }
