"""What a choice costs and risks, in words, for the names of actions (``render.actions``).

Every helper reads only the ``game`` it is given, and only what the side of the acting figure may
know: a hero's step is named "onto the trap" only for a trap the heroes have detected; a monster
knows every trap (R-MON-10). Pass a side's view of the game (``side_knowledge.heroes_view``) or the game
itself: the answer is the same for a hero, since the game's undetected traps are never consulted.

- ``known_trap(game, u, sq)``: the armed trap on ``sq`` that ``u``'s side knows, or -1.
- ``trap_words(game, i)``, ``trap_risk(game, i)``: "the trap at (0,8)", "it springs: loose
  flagstone, 1 damage".
- ``d6_chance(need, modifier)``: the chance that one d6 plus ``modifier`` reaches ``need``.
- ``check_modifier(game, u, check)``: the modifier ``u`` would add to an open d6 check now.
- ``win_chance(...)``, ``fight_scores(game, u, spend)``: the exact odds of a Fight (R-FIGHT-06..10).
- ``nothing_to_reach(game, u)``: buying one more square of movement reaches no square the figure
  cannot reach already (the action stays legal; its name says so).
"""

from __future__ import annotations

import heapq
from functools import lru_cache

from dungeon_env.engine import combat, effects
from dungeon_env.engine.board import free, is_corpse, is_jumpable, open_side, trap_at
from dungeon_env.engine.state import ACTIVE, FIGHT_HERO, FIGHT_M_SPEND, FIGHT_MONSTER, Side


# ----------------------------------------------------------------------------------------- traps
def known_trap(game, u: int, sq: int) -> int:
    """The index of the armed trap on ``sq`` that ``u``'s side knows (heroes: a detected one;
    monsters: any, R-MON-10), or -1."""
    if sq < 0:
        return -1
    i = trap_at(game, sq)
    s = game.state
    if i < 0 or not s.trap_armed[i]:
        return -1
    if s.unit_side[u] == Side.HERO and not s.trap_detected[i]:
        return -1
    return i


def effect_words(effect) -> str:
    """A trap's effect in a few words: "1 damage", "heals 2"."""
    if effect is None:
        return "no effect"
    if effect.kind == "damage":
        return f"{effect.amount} damage"
    if effect.kind == "heal":
        return f"heals {effect.amount}"
    return f"{effect.kind.replace('_', ' ')} {effect.amount}".strip()


def trap_words(game, i: int) -> str:
    """ "the trap at (0,8)"."""
    x, y = game.tables.adventure.traps[i].at
    return f"the trap at ({x},{y})"


def trap_what(game, i: int) -> str:
    """ "loose flagstone, 1 damage"."""
    trap = game.tables.adventure.traps[i]
    return f"{trap.name}, {effect_words(trap.effect)}"


def trap_risk(game, i: int) -> str:
    """ "it springs: loose flagstone, 1 damage"."""
    return f"it springs: {trap_what(game, i)}"


# ----------------------------------------------------------------------------------------- d6 checks
def d6_chance(need: int, modifier: int = 0) -> float:
    """P(d6 + modifier >= need)."""
    return sum(1 for face in range(1, 7) if face + modifier >= need) / 6


def d6_chance_at_most(top: int, modifier: int = 0) -> float:
    """P(d6 + modifier <= top)."""
    return sum(1 for face in range(1, 7) if face + modifier <= top) / 6


_TRAITS = {"open_door": "strong", "jump": "agile"}


def check_modifier(game, u: int, check: str) -> int:
    """The modifier ``u`` adds to an open d6 check (``open_door``, ``jump``, ``disarm``,
    ``identify``): its trait (Strong opens doors, Agile jumps) and its items and abilities, as the
    engine adds them (``movement``, ``traps``, ``items``)."""
    trait = _TRAITS.get(check)
    bonus = 1 if trait and game.has_trait(u, trait) else 0
    return bonus + sum(effects.check_modifiers(game, u, check).values())


def percent(p: float) -> str:
    return f"{p:.0%}"


def at_most(top: int) -> str:
    """A low band of a d6 total in words: "1", "2 or less"."""
    return "1" if top == 1 else f"{top} or less"


# ----------------------------------------------------------------------------------------- fights
@lru_cache(maxsize=1)
def _two_dice() -> dict[int, float]:
    """The chance of each total of 2d6."""
    out: dict[int, float] = {}
    for i in range(1, 7):
        for j in range(1, 7):
            out[i + j] = out.get(i + j, 0.0) + 1 / 36
    return out


def win_chance(
    hero_score: int, monster_score: int, hero_strong: bool, hero_double_ones: bool = False
) -> tuple[float, float, float]:
    """``(hero wins, monster wins, nobody)`` for a Fight of these scores: each side rolls 2d6 and
    adds its score, the higher total wins, a tie goes to a Strong hero, otherwise nobody wins
    (R-FIGHT-06..08); a hero who keeps casting rolls double ones."""
    hero = {2: 1.0} if hero_double_ones else _two_dice()
    monster = _two_dice()
    won = lost = tie = 0.0
    for h, p in hero.items():
        for m, q in monster.items():
            diff = (h + hero_score) - (m + monster_score)
            if diff > 0 or (diff == 0 and hero_strong):
                won += p * q
            elif diff < 0:
                lost += p * q
            else:
                tie += p * q
    return won, lost, tie


def fight_scores(game, u: int, spend: int) -> tuple[int, int, int, int] | None:
    """``(hero, monster, hero score, monster score)`` of the Fight being declared if ``u`` spends
    ``spend``; the hero's own spend is taken as 0 while the monster's is being declared (the DM
    declares first, A-09). None outside a Fight's declaration."""
    s = game.state
    if not s.fights or s.fight_index >= len(s.fights):
        return None
    row = s.fights[s.fight_index]
    m, h = int(row[FIGHT_MONSTER]), int(row[FIGHT_HERO])
    m_spend = spend if u == m else int(row[FIGHT_M_SPEND])
    h_spend = spend if u == h else 0
    counts = combat.enemy_counts(s.fights)
    h_score = int(s.base_fight[h]) + sum(combat.hero_modifiers(game, h, counts[h], h_spend).values())
    m_score = int(s.base_fight[m]) + sum(combat.monster_modifiers(game, m, counts[m], m_spend).values())
    return h, m, h_score, m_score


# ----------------------------------------------------------------------------------------- movement
def nothing_to_reach(game, u: int) -> bool:
    """No square is reachable with one more square of movement that is not reachable without it:
    steps to free squares (a hero's squares held by heroes still to move count as free: they may
    step aside), doors the figure may still try to open, and a hero's Jump if it has none yet. A
    cheap over-estimate of what the rules allow, so the answer errs towards "useful"."""
    s = game.state
    left = int(s.move_left[u])
    reach = _reach(game, u, left + 1)
    return not any(cost == left + 1 for cost in reach.values())


def _reach(game, u: int, budget: int) -> dict[int, int]:
    """Squares ``u`` could reach within ``budget`` squares: square -> least cost (Dijkstra: a step
    costs 1, a Jump 2)."""
    start = int(game.state.unit_pos[u])
    best = {start: 0}
    todo = [(0, start)]
    while todo:
        cost, sq = heapq.heappop(todo)
        if cost > best.get(sq, budget + 1):
            continue
        for nxt, extra in _moves(game, u, sq):
            c = cost + extra
            if c <= budget and c < best.get(nxt, budget + 1):
                best[nxt] = c
                heapq.heappush(todo, (c, nxt))
    return best


def _moves(game, u: int, sq: int):
    """(square, cost) of each step and Jump ``u`` might take from ``sq``."""
    t, s = game.tables, game.state
    hero = s.unit_side[u] == Side.HERO
    for d, (nxt, door) in enumerate(t.sides[sq]):
        if nxt < 0:
            continue
        if door >= 0 and not s.door_open[door]:
            if hero and not s.door_hidden[door] and not s.door_tried[u, door]:
                yield nxt, 1  # an Open Doors roll, then the step through
            continue
        if _passable(game, u, nxt):
            yield nxt, 1
        elif hero and not s.jumped[u] and _jumpable(game, nxt):
            land = open_side(game, nxt, d)
            if land >= 0 and _passable(game, u, land):
                yield land, 2


def _passable(game, u: int, sq: int) -> bool:
    if free(game, sq):
        return True
    s = game.state
    other = int(s.occupant[sq])
    if other < 0 or s.unit_side[u] != Side.HERO or s.unit_side[other] != Side.HERO:
        return False
    return s.unit_status[other] == ACTIVE and not s.move_done[other] and not game.tables.obstacle[sq]


def _jumpable(game, sq: int) -> bool:
    return bool(game.tables.furniture[sq]) or is_corpse(game, sq) or is_jumpable(game, sq)
