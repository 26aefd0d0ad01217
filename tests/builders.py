"""Hand-built positions for rule tests: a game on the test arena, figures placed by hand, phases
entered directly, dice forced.

    g = arena_game(["bram", "sela", "hob"])
    m = add_monster(g, "orc", 3, 3)
    place(g, 0, 3, 4)             # hero_0 right below the orc
    g.dice.force(6, 6, 1, 1)      # hero dice, then monster dice
    enter_phase(g, Phase.FIGHTING)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from dungeon_env.engine import Game, Phase, inventory
from dungeon_env.engine.state import ACTIVE, NO_UNIT, How
from dungeon_env.engine.units import place_monster, put, take_off

ARENA = str(Path(__file__).parent / "data" / "arena.toml")
PLAIN = ["corvin", "ysolde", "hob"]  # corvin: agile only; ysolde: agile+perceptive; hob: agile+iron_willed


def arena_game(heroes=None, seed: int = 0, max_turns: int = 100, adventure: str = ARENA) -> Game:
    """A game on the arena (or an ``arena_variant``) at its first decision (hero_0's Movement,
    turn 1)."""
    return Game.new(adventure=adventure, heroes=heroes or PLAIN, seed=seed, max_turns=max_turns)


def place(g: Game, u: int, x: int, y: int) -> None:
    """Move a figure to (x, y) by hand (no rules applied)."""
    take_off(g, u)
    sq = g.square(x, y)
    if g.state.occupant[sq] != NO_UNIT:
        raise ValueError(f"({x}, {y}) is occupied")
    put(g, u, sq)
    g.state.revealed[g.tables.area[sq]] = True
    g.state_edited()  # the pending decision's legal actions depend on where figures stand


def add_monster(g: Game, monster_id: str, x: int, y: int, awake: bool = True, how: How = How.GUARD) -> int:
    """Put a monster on (x, y) without an encounter (no Surprise rolls); returns its slot."""
    u = place_monster(g, monster_id, g.square(x, y), how)
    g.state.inactive[u] = not awake
    return u


def set_unit(g: Game, u: int, **values) -> None:
    """Set current values of a unit, e.g. ``set_unit(g, 0, health=0, deaths_door=True)``."""
    for name, value in values.items():
        getattr(g.state, name)[u] = value


def enter_phase(g: Game, phase: Phase) -> None:
    """Drop any pending decision and start ``phase`` of the current turn (its opening runs now)."""
    g.state.stack.clear()
    g.state_edited()
    g.goto(phase)
    g._advance()


def hero_slot_at(g: Game, x: int, y: int) -> int:
    return int(g.state.occupant[g.square(x, y)])


def at(g: Game, u: int) -> tuple[int, int]:
    """(x, y) of unit ``u``'s square (the unit must be on the board)."""
    return g.xy(int(g.state.unit_pos[u]))


def line_up(g: Game, *squares: tuple[int, int]) -> None:
    """Put hero i on squares[i] (first out of the way, so any order of squares works)."""
    for u in range(len(squares)):
        place(g, u, 18 + u, 27)
    for u, (x, y) in enumerate(squares):
        place(g, u, x, y)


def refresh(g: Game) -> None:
    """After changing the state by hand: restart this turn's Movement phase on it."""
    enter_phase(g, Phase.HERO_MOVEMENT)


def tired(g: Game, *units: int) -> None:
    """Stamina 0 (not Exhausted): the only Fight spend is 0, so the question is not asked (D-08)."""
    for u in units:
        set_unit(g, u, stamina=0)


def events(g: Game, type_: str, **match) -> list[dict]:
    """Events of one type whose fields equal ``match``."""
    return [e for e in g.events if e["type"] == type_ and all(e.get(k) == v for k, v in match.items())]


def rolls(g: Game, check: str) -> list[dict]:
    return events(g, "roll", check=check)


def end_or_first(g: Game) -> int:
    """END where legal, else the first legal action."""
    from dungeon_env.engine.actions import END

    legal = g.legal_actions()
    return END if END in legal else legal[0]


def play_until(g: Game, phase: Phase, choose=None, limit: int = 10_000) -> None:
    """Apply actions (``choose(game) -> action``, default: ``end_or_first``) until the game reaches
    ``phase`` or ends."""
    choose = choose or end_or_first
    for _ in range(limit):
        if g.over or g.state.phase == phase:
            return
        g.apply(choose(g))
    raise RuntimeError(f"phase {phase!r} not reached in {limit} decisions")


def is_active(g: Game, u: int) -> bool:
    return g.state.unit_status[u] == ACTIVE


# ----- magic and items (issue 3) -----


def give_item(g: Game, u: int, card_id: str, known: bool | None = None) -> int:
    """A new copy of the item card held by ``u`` (face down for potions, scrolls and magic items
    unless ``known`` says otherwise); returns its item slot."""

    slot = inventory.create(g, card_id)
    inventory.give(g, slot, u)
    if known is not None:
        g.state.item_known[slot] = known
    g.state_edited()
    return slot


def learn(g: Game, u: int, *spell_ids: str, only: bool = False) -> None:
    """``u`` knows these spells (``only``: and no others)."""
    if only:
        g.state.spell_known[u, :] = False
    for spell_id in spell_ids:
        g.state.spell_known[u, g.spell_index[spell_id]] = True
    g.state_edited()


# ---------------------------------------------------------------------- traps, events, trading (issue 3)


def bolt_position():
    """Orwin at (9,5) in room B in the Spell Selection phase, an Orc at (9,1) and a Goblin at (8,6)
    seen through door 3 (opened by hand), both statues (no Movement, no Stamina): Arcane Bolt's
    candidates are the two. Returns ``(game, orc, goblin)``."""
    game = arena_game(["orwin", "maelis", "hob"], seed=3)
    for u, x in ((1, 16), (2, 18)):
        place(game, u, x, 0)
    place(game, 0, 9, 5)
    orc = add_monster(game, "orc", 9, 1)
    goblin = add_monster(game, "goblin", 8, 6)
    for u in (orc, goblin):
        game.state.base_move[u] = game.state.stamina[u] = 0  # statues: nobody walks
    game.state.door_open[3] = True
    game.state.closed_bits &= ~(1 << 3)
    enter_phase(game, Phase.SPELL_SELECTION)
    return game, orc, goblin


# Room events for arena_variant: a fountain (a choice) and a sword (an item) in room F; HIDDEN_FIRST
# puts an event of room K, which heroes have not seen, before them (it renumbers the others).
FOUNTAIN = """
[[event]]
area = "F"
scope = "exploring"
kind = "choice"
text = "A fountain."
options = [{ text = "Drink", effect = { kind = "heal", amount = 1 } }, { text = "Leave it" }]

[[event]]
area = "F"
scope = "exploring"
kind = "item"
text = "A sword on a rack."
item = "short_sword"
"""
HIDDEN_FIRST = """
[[event]]
area = "K"
scope = "exploring"
kind = "effect"
text = "A room nobody has seen."
effect = { kind = "damage", amount = 1 }
"""


def arena_variant(folder: Path, name: str, extra: str) -> str:
    """Write the arena plus ``extra`` TOML (traps, events, doors...) as adventure ``name`` in
    ``folder``; returns its path."""
    path = Path(folder) / f"{name}.toml"
    text = Path(ARENA).read_text().replace('id = "arena"', f'id = "{name}"')
    path.write_text(text + "\n" + extra)
    return str(path)


def quiet(g: Game) -> int:
    """A do-nothing choice: END, else STAY (Explore), else PASS (an item found), else the first legal."""
    from dungeon_env.engine.actions import END, PASS, STAY

    legal = g.legal_actions()
    for action in (END, STAY, PASS):
        if action in legal:
            return action
    return legal[0]


def apply_past_explore(g: Game, action: int) -> None:
    """Apply ``action``, then answer any Explore or Trade question that follows by doing nothing
    (STAY, PASS, END): for tests of other rules that only need the turn to go on."""
    from dungeon_env.engine import Decision

    quiet_kinds = {Decision.EXPLORE_CHOICE, Decision.CLAIM_ITEM, Decision.HERO_ACT, Decision.EVENT_CHOICE}
    g.apply(action)
    while not g.over and g.decision is not None and g.decision[0] in quiet_kinds:
        g.apply(quiet(g))


def idle(g: Game) -> int:
    """Do as little as possible: end, spend nothing, cast normally, stay put, pass, let a spell fail."""
    from dungeon_env.engine.actions import END, LET_FAIL, NORMAL_CAST, PASS, SPEND_0, STAY

    legal = g.legal_actions()
    for action in (END, SPEND_0, NORMAL_CAST, STAY, PASS, LET_FAIL):
        if action in legal:
            return action
    return legal[0]


def play_to(g: Game, kind, unit: int | None = None, limit: int = 500) -> None:
    """Idle until the decision ``kind`` (of ``unit``) is asked."""
    for _ in range(limit):
        d = g.decision
        if d is not None and d[0] == kind and (unit is None or d[1] == unit):
            return
        if g.over:
            raise RuntimeError("game over")
        g.apply(idle(g))
    raise RuntimeError(f"{kind!r} not asked")


def finish_turn(g: Game, choose=idle, limit: int = 2000) -> None:
    """Play on (with ``choose``, by default idling) until the next turn begins or the game ends;
    at most ``limit`` decisions. A test file with its own default binds it with ``functools.partial``."""
    turn = g.state.turn
    for _ in range(limit):
        if g.over or g.state.turn != turn:
            return
        g.apply(choose(g))
    raise RuntimeError("turn did not end")


def decisions_until(g: Game, phase: Phase, choose=end_or_first, limit: int = 2000) -> list:
    """Play on as ``finish_turn`` until a decision of ``phase`` (or a later phase, or the next turn)
    is reached; returns the decisions that were asked, ``(kind, unit)`` each."""
    asked = []
    turn = g.state.turn
    for _ in range(limit):
        if g.over or g.state.phase >= phase or g.state.turn != turn:
            return asked
        asked.append(g.decision)
        g.apply(choose(g))
    raise RuntimeError(f"phase {phase!r} not reached")


def my_move(g: Game, h: int) -> None:
    """Restart this turn's Movement phase and idle on to hero ``h``'s move."""
    from dungeon_env.engine import Decision

    enter_phase(g, Phase.HERO_MOVEMENT)
    play_to(g, Decision.HERO_MOVE, h)


def to_hero_act(g: Game, h: int) -> None:
    """Enter the Explore phase (no monster on the board) and play on to hero ``h``'s Explore actions."""
    from dungeon_env.engine import Decision

    enter_phase(g, Phase.EXPLORE)
    play_to(g, Decision.HERO_ACT, h)


def spell_action(g: Game, h: int, spell_id: str) -> int:
    """SPELL_k of the spell in hero ``h``'s list."""
    from dungeon_env.engine import spells
    from dungeon_env.engine.actions import SPELL_0

    return SPELL_0 + spells.known(g, h).index(g.spell_index[spell_id])


def item_action(g: Game, h: int, slot: int) -> int:
    """ITEM_k of item slot ``slot`` in hero ``h``'s hands."""
    from dungeon_env.engine.actions import ITEM_0

    return ITEM_0 + inventory.held(g, h).index(slot)


def pick_item(g: Game, h: int, slot: int, verb: int | None = None) -> None:
    """Pick item slot ``slot`` of hero ``h`` (ITEM_k) and answer the verb question that follows:
    ``verb``, or the one verb other than BACK (a verb decision always offers BACK, ruling D-08b)."""
    from dungeon_env.engine import Decision
    from dungeon_env.engine.actions import BACK

    g.apply(item_action(g, h, slot))
    if g.decision is not None and g.decision[0] == Decision.ITEM_VERB and g.decision[1] == h:
        if verb is None:
            (verb,) = [a for a in g.legal_actions() if a != BACK]
        g.apply(verb)


def add_statue(g: Game, monster_id: str, x: int, y: int, awake: bool = True, how: How = How.GUARD) -> int:
    """A monster that cannot walk (Movement 0 and no Stamina to buy squares with): for tests of other
    rules than the duty to attack (R-MON-03), which would otherwise bring every awake monster next to
    the heroes. It still fights (spending nothing), casts and keeps the Combat Turn Sequence running."""
    u = add_monster(g, monster_id, x, y, awake=awake, how=how)
    g.state.base_move[u] = 0
    g.state.stamina[u] = 0
    return u


# ----------------------------------------------------------------- walking, for the duty to attack


def monster_blocked(g: Game, m: int) -> set[int]:
    """Squares monster ``m`` cannot walk through: figures, obstacles, hazards and armed traps."""
    s, t = g.state, g.tables
    occupant = np.asarray(s.occupant)
    taken = (occupant >= 0) & (occupant != m)
    blocked = {
        int(q) for q in np.flatnonzero(taken | np.asarray(t.furniture, bool) | np.asarray(t.blockage, bool))
    }
    for i, trap in enumerate(t.adventure.traps):
        if s.trap_armed[i] or s.trap_detected[i]:
            blocked.add(g.square(*trap.at))
    return blocked


def monster_walk_field(g: Game, m: int, sources: list[int], blocked: set[int] | None = None) -> list[int]:
    """Walking distances for monster ``m`` from ``sources`` to every square (10**6: no path),
    computed here independently of the engine: through open doors, around figures, obstacles,
    hazards and armed traps. A blocked square is reached (its distance is set) but not walked
    through, so a hero's square gets its distance from the sources."""
    s, t = g.state, g.tables
    blocked = monster_blocked(g, m) if blocked is None else blocked
    dist = [10**6] * t.n_squares
    frontier = list(sources)
    for q in frontier:
        dist[q] = 0
    while frontier:
        nxt = []
        for q in frontier:
            for d in range(4):
                r = int(t.neighbor[q, d])
                door = int(t.edge_door[q, d])
                if r < 0 or t.wall[q, d] or (door >= 0 and not s.door_open[door]) or dist[r] <= dist[q] + 1:
                    continue
                dist[r] = dist[q] + 1
                if r not in blocked:
                    nxt.append(r)
        frontier = nxt
    return dist


def squares_next_to_heroes(g: Game) -> list[int]:
    """Every square ``next_to_hero`` holds for, in order: it is asked only of the squares that have
    a living hero's square among their neighbours, the only ones it can hold for."""
    s, t = g.state, g.tables
    occupant = np.asarray(s.occupant)
    status = np.asarray(s.unit_status)
    heroes = (occupant >= 0) & (occupant < s.n_heroes)
    heroes[heroes] = status[occupant[heroes]] == ACTIVE
    near = np.isin(np.asarray(t.neighbor), np.flatnonzero(heroes)).any(axis=1)
    return [int(q) for q in np.flatnonzero(near) if next_to_hero(g, int(q))]


def next_to_hero(g: Game, sq: int) -> bool:
    """A living hero stands orthogonally next to ``sq`` with no wall or closed door between."""
    s, t = g.state, g.tables
    for d in range(4):
        r, door = int(t.neighbor[sq, d]), int(t.edge_door[sq, d])
        if r < 0 or t.wall[sq, d] or (door >= 0 and not s.door_open[door]):
            continue
        u = int(s.occupant[r])
        if 0 <= u < s.n_heroes and s.unit_status[u] == ACTIVE:
            return True
    return False
