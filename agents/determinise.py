"""Determinisation of the heroes' view: a full hidden state sampled from what heroes know.

``determinise(view, rng, prior)`` takes a heroes' view (``side_knowledge.heroes_view(game)``, ruling
D-24) and returns a NEW playable ``Game`` in which what the heroes cannot know is *sampled* from a
public prior (:class:`HiddenPrior`) instead of being absent:

- **the Patrol set** (``tables.adventure.patrol``): its size from ``prior.patrol_sizes``, its members
  from the catalogue's Patrol-type monsters; the kinds of Patrol monsters the view holds (the heroes
  saw a Patrol) are always members;
- **Guards of unrevealed rooms**: per unrevealed room a count from ``prior.guards_per_room`` (the
  known guards there count towards it), placed on distinct free squares of the room (no start or exit
  square, no known furniture, blockage, figure, trap or guard), each monster drawn from the Guard-type
  monsters by ``prior.guard_weights``; they appear when the room is revealed, as real Guards do;
- **undetected traps**: each square not known to be trap-free (not a known trap, guard, obstacle,
  start or exit square, no figure on it) holds a trap with probability ``prior.trap_density``, one of
  the generic ``prior.traps``;
- **face-down cards**: each placeholder item (``sideview.PLACEHOLDER_ITEMS``) and each card still in
  a deck becomes a real card drawn without replacement from its deck's composition (``copies`` in the
  catalogue) minus the cards heroes know (face up in the view); past the end of that pool, with
  replacement from the whole composition. A scroll being cast keeps its placeholder (its spell,
  ``PLACEHOLDER_SPELL``, is already in the cast's rows).

Not sampled (the view's absence stands): undiscovered doors, secret doors and the furniture and
blockages of unrevealed rooms (the board of an unrevealed room is the printed one), ambushes and
unread room events (their texts are adventure-specific and no public catalogue describes them),
monsters in the fog other than unplaced Guards. The Patrol stop rule (R-MON-07) counts the rooms with
a known door, the view's ``patrol_rooms``.

Known content is kept as it is and first: the view's guards and traps keep their indices (their state
arrays are extended with the sampled ones: ``guard_uid`` -1, ``guard_slain`` False, ``trap_armed``
True, ``trap_detected`` False). The determinisation's ``Tables`` are a ``dataclasses.replace`` of the
view's sharing every array; its ``cache`` is its own but for the entries that depend on the board
and doors alone (``SHARED_CACHE``), and its ``vis_cache`` (visible areas per square and doors) is the
view's. The function reads only the view and the public catalogue: it never sees the real game.

Cost (``PYTHONPATH=. python scripts/determinise_cost.py --repeat 200 --rounds 3``: heroes' views at
turn 6 of random play, 4 heroes, on each bundled adventure): about 155-160 microseconds, 3.9x to
4.1x a bare ``view.copy()`` (39 us) and 3.2x to 3.3x a copy with fresh dice (48 us, what an
iteration of ``agents.search`` paid before); above the aim of 3x a copy. The rest is sampling about
fifteen unrevealed rooms' guards, the traps and the deck orders, and building the adventure and
tables (two ``dataclasses.replace``). Memoised: candidate squares per revealed configuration, the
sampled tables per sampled content (guards and traps kept one object per value), deck pools.
(Those figures are of views on the Python rules.) A view on the compiled core is determinised on
the core: the engine's copy takes the determinisation's content, built from its tables
(``core.content``, memoised in them: the search's rounds, which try every option on one world,
build it once), and its state (``core.play_on``). Building that content converts the whole tables
again (about 1.5 ms on a quiet machine), most of a determinisation's cost on the core.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import itertools
import math
import random

import numpy as np

from dungeon_env.content.model import DECKS, Effect, Guard, Trap
from dungeon_env.engine import core
from dungeon_env.engine.actions import Decision
from dungeon_env.engine.dice import Dice
from dungeon_env.engine.game import Game
from dungeon_env.engine.sideview import HEROES, PLACEHOLDER_ITEMS, view_side
from dungeon_env.engine.state import CAST_ITEM, How
from dungeon_env.engine.tables import Tables, memoised, square, xy

PATROL = int(How.PATROL)

# Entries of a view's tables cache that depend on the board and doors only (never on traps, guards or
# the Patrol): a determinisation shares them with its view. Every other entry is computed anew.
SHARED_CACHE = (
    "passages",
    "open_steps",
    "path_distances",
    "knowledge.door_areas",
    "agents.board_costs",
    "core.board_arrays",
)
TABLES_MEMO_SIZE = 16  # sampled contents whose tables are kept per view's tables
CANDIDATES_MEMO_SIZE = 8  # revealed configurations whose candidate squares are kept
OBJECTS_KEPT = 50_000  # sampled Guard and Trap objects kept for reuse (a few thousand per catalogue)

# The prior's numbers (see HiddenPrior for why).
PATROL_SIZES = ((2, 0.5), (3, 0.5))
GUARDS_PER_ROOM = ((0, 0.55), (1, 0.05), (2, 0.25), (3, 0.15))
TRAP_DENSITY = 0.008
GENERIC_TRAPS = (
    (Trap(at=(0, 0), name="unknown trap", effect=Effect(kind="damage", amount=1)), 1 / 3),
    (Trap(at=(0, 0), name="unknown trap", effect=Effect(kind="damage", amount=2)), 1 / 2),
    (Trap(at=(0, 0), name="unknown pit", effect=Effect(kind="damage", amount=2), blocks=True), 1 / 6),
)


@dataclasses.dataclass(frozen=True)
class _Draws:
    """A prior's distributions as ``(values, cumulative weights)`` tables (see ``_draw``)."""

    patrol_sizes: tuple
    guards_per_room: tuple
    guard_monsters: tuple
    traps: tuple


@dataclasses.dataclass(frozen=True)
class HiddenPrior:
    """The public prior over what heroes cannot see, from the catalogue and the rules' content
    guidance only (never from the adventure being played).

    - ``patrol_sizes``: ``(size, probability)`` of the Patrol set. The rules' content guidance asks
      for "a 2-3 monster Patrol set" (RULES_CHECKLIST D); nothing favours one, so 2 and 3 are even.
    - ``patrol_monsters``: the monsters a Patrol may hold, the catalogue's Patrol-type ones
      (``encounter == "patrol"``); members are drawn uniformly and independently (a set repeats a
      kind as often as not).
    - ``guards_per_room``: ``(count, probability)`` of the Guards in an unrevealed room. A fixed
      distribution chosen by hand: every room of the printed board has 25 or 30 squares, so it does
      not depend on the room's size; most rooms of a dungeon are empty and an occupied room holds a
      small group (P(0) 0.55, P(1) 0.05, P(2) 0.25, P(3) 0.15, mean 1.0 per room). Counted by hand
      once, the bundled adventures hold about that (some 60% of their rooms empty, 2-3 guards in
      most others); nothing is read at run time.
    - ``guard_monsters`` / ``guard_weights``: the catalogue's Guard-type monsters, weighted by
      1 / Health (a weak guard is common, a boss rare).
    - ``trap_density``: the probability that a square not known to be trap-free holds a trap:
      0.008, about five traps on the 672 squares of the board as the bundled adventures have (4 to
      6). Not lowered where Detect rolls found nothing: heroes never learn the roll (R-TRAP-03).
    - ``traps``: ``(trap, probability)``, the generic traps (their ``at`` is set where placed): every
      bundled trap does damage 1 or 2, a sixth of them blocking pits (damage 1: 1/3, damage 2: 1/2,
      a blocking pit of damage 2: 1/6).
    - ``decks``: per deck (``DECKS`` order), its composition: each catalogue card index once per copy.
    """

    patrol_sizes: tuple[tuple[int, float], ...]
    patrol_monsters: tuple[str, ...]
    guards_per_room: tuple[tuple[int, float], ...]
    guard_monsters: tuple[str, ...]
    guard_weights: tuple[float, ...]
    trap_density: float
    traps: tuple[tuple[Trap, float], ...]
    decks: tuple[tuple[int, ...], ...]

    @functools.cached_property
    def draws(self) -> _Draws:
        """The prior's distributions as cumulative tables for sampling."""
        return _Draws(
            patrol_sizes=_cumulative(self.patrol_sizes),
            guards_per_room=_cumulative(self.guards_per_room),
            guard_monsters=(list(self.guard_monsters), list(itertools.accumulate(self.guard_weights))),
            traps=_cumulative(self.traps),
        )

    @classmethod
    def from_game(cls, game: Game) -> HiddenPrior:
        """The prior of ``game``'s public catalogue (its monsters and item cards): a view, a real
        game or a determinisation of the same cards give the same prior."""
        guards = [m for m in game.monsters if m.encounter == "guard"]
        decks = tuple(
            tuple(i for i, c in enumerate(game.item_cards) if c.deck == deck for _ in range(c.copies))
            for deck in DECKS
        )
        return cls(
            patrol_sizes=PATROL_SIZES,
            patrol_monsters=tuple(m.id for m in game.monsters if m.encounter == "patrol"),
            guards_per_room=GUARDS_PER_ROOM,
            guard_monsters=tuple(m.id for m in guards),
            guard_weights=tuple(1.0 / max(1, m.health) for m in guards),
            trap_density=TRAP_DENSITY,
            traps=GENERIC_TRAPS,
            decks=decks,
        )


_PRIORS: dict[tuple[int, int], tuple] = {}


def prior_of(game: Game) -> HiddenPrior:
    """``HiddenPrior.from_game(game)``, kept per catalogue (checked by identity)."""
    key = (id(game.monsters), id(game.item_cards))
    found = _PRIORS.get(key)
    if found is None or found[0] is not game.monsters or found[1] is not game.item_cards:
        if len(_PRIORS) >= 16:
            _PRIORS.clear()
        found = _PRIORS[key] = (game.monsters, game.item_cards, HiddenPrior.from_game(game))
    return found[2]


def determinise(view: Game, rng: random.Random, prior: HiddenPrior | None = None) -> Game:
    """A new playable game: ``view`` (a heroes' view) with its hidden content sampled by ``rng``
    from ``prior`` (by default the view's catalogue's, :func:`prior_of`), and dice of its own
    (``Dice(rng.getrandbits(31))``). ``view`` itself is not changed. A DM's view or a real game
    (whose side knows everything but the dice) gives ``view.copy()`` with fresh dice."""
    if view_side(view) != HEROES:
        out = view.copy()
        out.take_dice(Dice(rng.getrandbits(31)))
        return out
    prior = prior or prior_of(view)
    s, t = view.state, view.tables
    rooms, trap_squares = _candidates(view)
    occupied = s.occupant
    patrol = _sample_patrol(view, prior, rng)
    guards = _sample_guards(rooms, occupied, prior, rng)
    taken = {square(*g.at) for g in guards}
    traps = _sample_traps(trap_squares, occupied, taken, prior, rng)
    out = view.copy()
    out.tables = _tables(t, patrol, guards, traps)
    out.vis_cache = view.vis_cache
    out.take_dice(Dice(rng.getrandbits(31)))
    if out.engine == "core":
        # the sampled guards and traps lengthen state arrays the engine sizes by its content: the
        # engine takes the determinisation's content (its own tables), then the whole state
        state = out.state.copy()
        _extend(state, len(guards), len(traps))
        _sample_cards(out, state, prior, rng)
        core.play_on(out, state)
    else:
        _extend(out.state, len(guards), len(traps))
        _sample_cards(out, out.state, prior, rng)
    return out


# ------------------------------------------------------------------------------------- sampling


def _cumulative(pairs) -> tuple[list, list[float]]:
    """``(values, cumulative probabilities)`` of ``(value, probability)`` pairs."""
    values, cum, acc = [], [], 0.0
    for value, p in pairs:
        acc += p
        values.append(value)
        cum.append(acc)
    return values, cum


def _draw(rng: random.Random, table: tuple[list, list[float]]):
    """One value of a ``_cumulative`` table."""
    values, cum = table
    return values[min(bisect.bisect_right(cum, rng.random() * cum[-1]), len(values) - 1)]


def _sample_patrol(view: Game, prior: HiddenPrior, rng: random.Random) -> tuple[str, ...]:
    """A Patrol set: the kinds of Patrol monsters the view holds, then members drawn from the
    prior's Patrol monsters up to a size drawn from the prior (given that it holds those kinds)."""
    s = view.state
    known = []
    if PATROL in s.unit_how.tolist():
        cards = s.unit_card[s.unit_how == PATROL].tolist()
        known = sorted({view.monsters[c].id for c in cards if c >= 0})
        sizes = [(n, p) for n, p in prior.patrol_sizes if n >= len(known)]
        if not sizes or not prior.patrol_monsters:
            return tuple(known)
        size = _draw(rng, _cumulative(sizes))
    elif not prior.patrol_monsters:
        return ()
    else:
        size = _draw(rng, prior.draws.patrol_sizes)
    members = prior.patrol_monsters
    return (*known, *(members[int(rng.random() * len(members))] for _ in range(size - len(known))))


def _sample_guards(rooms, occupied: np.ndarray, prior: HiddenPrior, rng: random.Random) -> list[Guard]:
    """Guards for the unrevealed rooms (``rooms``: ``(free squares, known guards)`` per room)."""
    out: list[Guard] = []
    if not prior.guard_monsters:
        return out
    counts, cum = prior.draws.guards_per_room
    names, weights = prior.draws.guard_monsters
    rand, top, total = rng.random, len(counts) - 1, weights[-1]
    for squares, known in rooms:
        extra = min(counts[min(bisect.bisect_right(cum, rand() * cum[-1]), top)] - known, len(squares))
        if extra <= 0:
            continue
        chosen: set[int] = set()
        while len(chosen) < extra:
            chosen.add(squares[int(rand() * len(squares))])
        for q in sorted(chosen):
            if occupied[q] < 0:
                monster = names[min(bisect.bisect_right(weights, rand() * total), len(names) - 1)]
                out.append(_guard(monster, q))
    return out


_GUARDS: dict[tuple[str, int], Guard] = {}
_TRAPS: dict[tuple[Trap, int], Trap] = {}


def _guard(monster: str, q: int) -> Guard:
    """``Guard(monster, at=xy(q))``, one object per value (the frozen dataclass is slow to make)."""
    found = _GUARDS.get((monster, q))
    if found is None:
        if len(_GUARDS) >= OBJECTS_KEPT:
            _GUARDS.clear()
        found = _GUARDS[(monster, q)] = Guard(monster=monster, at=xy(q))
    return found


def _trap(kind: Trap, q: int) -> Trap:
    """``kind`` placed on ``q``, one object per value."""
    found = _TRAPS.get((kind, q))
    if found is None:
        if len(_TRAPS) >= OBJECTS_KEPT:
            _TRAPS.clear()
        found = _TRAPS[(kind, q)] = Trap(at=xy(q), name=kind.name, effect=kind.effect, blocks=kind.blocks)
    return found


def _sample_traps(squares: list[int], occupied: np.ndarray, taken: set[int], prior, rng) -> list[Trap]:
    """Each square of ``squares`` a trap with probability ``prior.trap_density`` (walked by
    geometric gaps: a few draws rather than one per square), but where a figure or a sampled guard
    stands."""
    p = prior.trap_density
    out: list[Trap] = []
    if p <= 0 or not squares:
        return out
    kinds = prior.draws.traps
    log_miss = math.log1p(-p) if p < 1 else -math.inf
    k = -1
    while True:
        k += 1 if p >= 1 else 1 + int(math.log(1.0 - rng.random()) / log_miss)
        if k >= len(squares):
            return out
        q = squares[k]
        if occupied[q] < 0 and q not in taken:
            out.append(_trap(_draw(rng, kinds), q))


def _candidates(view: Game) -> tuple[list, list[int]]:
    """``(rooms, trap squares)`` of the view's position, memoised per revealed configuration in the
    view's tables: per unrevealed room its free squares and the known guards in it; the squares a
    trap may be on. Squares under a figure are left in (checked at each sampling)."""
    s, t = view.state, view.tables
    revealed = s.revealed

    def compute():
        adv, area = t.adventure, t.area.tolist()
        blocked = {square(*q) for q in (*adv.start, *adv.exits)}
        blocked |= {q for q, is_obstacle in enumerate(t.obstacle) if is_obstacle}
        traps = {square(*tr.at) for tr in adv.traps}
        guards = [square(*gd.at) for gd in adv.guards]
        blocked |= traps | set(guards)
        rooms = []
        for a in range(t.board.n_rooms):
            if not revealed[a]:
                free = [int(q) for q in t.area_squares[a] if int(q) not in blocked]
                known = sum(area[q] == a for q in guards)
                rooms.append((free, known))
        return rooms, [q for q in range(t.n_squares) if area[q] >= 0 and q not in blocked]

    return memoised(t, "determinise.candidates", CANDIDATES_MEMO_SIZE, revealed.tobytes(), compute)


# -------------------------------------------------------------------------------- the new game


def _tables(t: Tables, patrol: tuple[str, ...], guards: list[Guard], traps: list[Trap]) -> Tables:
    """The view's tables with the sampled content added (memoised per sampled content)."""
    # Guards and traps are kept one object per value (``_guard``, ``_trap``), and the memo's tables
    # hold them, so their identities name their values (hashing the dataclasses took longer).
    key = (patrol, tuple(map(id, guards)), tuple(map(id, traps)))

    def build() -> Tables:
        known = t.adventure
        adv = dataclasses.replace(
            known, patrol=patrol, guards=(*known.guards, *guards), traps=(*known.traps, *traps)
        )
        cache = {name: t.cache[name] for name in SHARED_CACHE if name in t.cache}
        cache[core.DERIVED_FROM] = t  # the same tables but the adventure: the core's content is a copy
        return dataclasses.replace(t, adventure=adv, cache=cache)

    return memoised(t, "determinise.tables", TABLES_MEMO_SIZE, key, build)


def _extend(s, n_guards: int, n_traps: int) -> None:
    """The state arrays sized by the guards and traps, extended for the sampled ones."""
    if n_guards:
        s.guard_uid = np.concatenate([s.guard_uid, np.full(n_guards, -1, s.guard_uid.dtype)])
        s.guard_slain = np.concatenate([s.guard_slain, np.zeros(n_guards, bool)])
    if n_traps:
        s.trap_armed = np.concatenate([s.trap_armed, np.ones(n_traps, bool)])
        s.trap_detected = np.concatenate([s.trap_detected, np.zeros(n_traps, bool)])


def _sample_cards(game: Game, s, prior: HiddenPrior, rng: random.Random) -> None:
    """Placeholder cards (face-down items, cards still in the decks) of ``game``'s state ``s``
    replaced by real cards: per deck, drawn without replacement from its composition minus the
    cards heroes know, then with replacement from the composition. A scroll being cast keeps its
    placeholder."""
    base = len(game.item_cards) - len(PLACEHOLDER_ITEMS)
    held = s.item_card[s.item_card >= 0].tolist()
    known = [c for c in held if c < base]
    busy = {int(i) for i in s.casting_item.tolist() if i >= 0}
    if s.cast:
        busy.add(int(s.cast[CAST_ITEM]))
    busy |= {int(row[3]) for row in s.stack if row[0] == Decision.CAST_MODE}
    faces = {}  # deck -> the item slots showing its placeholder
    if len(known) < len(held):
        for i in np.flatnonzero(s.item_card >= base).tolist():
            if i not in busy:
                faces.setdefault(int(s.item_card[i]) - base, []).append(i)
    known_key = tuple(known)
    rows, cols, cards = [], [], []
    for d, slots in enumerate(_undrawn(s.deck_cards, s.deck_next, base)):
        items = faces.get(d, ())
        if not items and not slots:
            continue
        fill = _deck_draws(prior.decks[d], known_key, len(items) + len(slots), rng)
        if fill is None:
            continue
        for i, card in zip(items, fill, strict=False):
            s.item_card[i] = card
        rows += [d] * len(slots)
        cols += slots
        cards += fill[len(items) :]
    if cards:
        s.deck_cards[rows, cols] = cards


_UNDRAWN: dict[tuple[bytes, bytes, int], tuple] = {}


def _undrawn(decks: np.ndarray, next_card: np.ndarray, base: int) -> tuple[list[int], ...]:
    """Per deck, the positions from its next card on that hold a placeholder (kept per deck order
    and draw counts: a game's deck order never changes, only ``deck_next`` moves)."""
    key = (decks.tobytes(), next_card.tobytes(), base)
    found = _UNDRAWN.get(key)
    if found is None:
        found = tuple(
            [k for k in range(int(start), decks.shape[1]) if decks[d, k] >= base]
            for d, start in enumerate(next_card.tolist())
        )
        if len(_UNDRAWN) >= 256:
            _UNDRAWN.clear()
        _UNDRAWN[key] = found
    return found


def _deck_draws(composition: tuple, known: tuple, n: int, rng: random.Random) -> list | None:
    """``n`` cards of a deck: a shuffle of ``composition`` minus ``known`` (one copy each), then
    draws with replacement from ``composition``; None for an empty deck."""
    if not composition:
        return None
    pool = _pool(composition, known)
    keys = [rng.random() for _ in pool]
    pool = [c for _, c in sorted(zip(keys, pool, strict=True))]
    while len(pool) < n:
        pool.append(composition[int(rng.random() * len(composition))])
    return pool[:n]


_POOLS: dict[tuple, list[int]] = {}


def _pool(composition: tuple[int, ...], known: tuple[int, ...]) -> list[int]:
    """``composition`` minus ``known`` (one copy each), kept per pair (read it, never change it)."""
    key = (composition, known)
    pool = _POOLS.get(key)
    if pool is None:
        pool = list(composition)
        for c in known:
            if c in pool:
                pool.remove(c)
        if len(_POOLS) >= 256:
            _POOLS.clear()
        _POOLS[key] = pool
    return pool


__all__ = ["HiddenPrior", "determinise", "prior_of"]
