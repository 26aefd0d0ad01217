"""``agents.determinise``: a heroes' view with its hidden content sampled from the public prior.

The contracts: what is sampled is allowed by the prior and the rules (Patrol members of the Patrol
type, R-MON-01/06; guards in unrevealed rooms only, on free squares; traps nowhere heroes know a trap
or stand; cards from their deck); what heroes know is kept; two games heroes cannot tell apart give
the same determinisations; a determinisation plays, and its Patrol spawns (R-MON-04).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import binomtest

import dungeon_env
from agents.determinise import HiddenPrior, determinise, prior_of
from dungeon_env.content import adventure_names
from dungeon_env.content.model import DECKS
from dungeon_env.engine import Game, core
from dungeon_env.engine.side_knowledge import heroes_view, knowledge_of
from dungeon_env.engine.sideview import HEROES, PLACEHOLDER_ITEMS, UNIT_FIELDS, dm_view
from dungeon_env.engine.state import How
from dungeon_env.engine.tables import square

ADVENTURES = Path(dungeon_env.__file__).parent / "content" / "adventures"
KNOWN_ARRAYS = ("guard_uid", "guard_slain", "trap_armed", "trap_detected")


def views_of(adventure: str, heroes: int, seed: int, steps: int, every: int) -> list[Game]:
    """Heroes' views (read only) of one game of random legal play, one every ``every`` decisions."""
    rng = random.Random(seed)
    game = Game.new(adventure, heroes=heroes, seed=seed)
    out = []
    for step in range(steps):
        if game.over:
            break
        if step % every == 0:
            out.append(heroes_view(game, playable=False))
        game.apply(rng.choice(game.legal_actions()))
    return out


def sampled_cards(view: Game, det: Game) -> list[tuple[int, int]]:
    """``(deck, card)`` of every card the determinisation put where the view had a placeholder."""
    base = len(view.item_cards) - len(PLACEHOLDER_ITEMS)
    out = [
        (int(a) - base, int(b))
        for a, b in zip(view.state.item_card, det.state.item_card, strict=True)
        if a >= base and b < base
    ]
    for d in range(len(DECKS)):
        row_v, row_d = view.state.deck_cards[d], det.state.deck_cards[d]
        out += [(d, int(b)) for a, b in zip(row_v, row_d, strict=True) if a >= base and b < base]
    return out


def check_determinisation(view: Game, det: Game, prior: HiddenPrior) -> None:
    """Every consistency contract of one determinisation of ``view``."""
    vs, ds, vt, dt = view.state, det.state, view.tables, det.tables
    adv, known = dt.adventure, vt.adventure
    # Patrol (R-MON-01, R-MON-06): Patrol-type members, a size in the prior's support
    assert set(adv.patrol) <= set(prior.patrol_monsters)
    assert len(adv.patrol) in {n for n, _ in prior.patrol_sizes}
    # known content kept, first
    assert adv.guards[: len(known.guards)] == known.guards and adv.traps[: len(known.traps)] == known.traps
    for name in KNOWN_ARRAYS:
        n = len(getattr(vs, name))
        assert np.array_equal(getattr(ds, name)[:n], getattr(vs, name)), name
    assert len(ds.guard_uid) == len(ds.guard_slain) == len(adv.guards)
    assert len(ds.trap_armed) == len(ds.trap_detected) == len(adv.traps)
    assert ds.trap_armed[len(known.traps) :].all() and not ds.trap_detected[len(known.traps) :].any()
    assert (ds.guard_uid[len(known.guards) :] == -1).all()
    assert np.array_equal(ds.revealed, vs.revealed) and np.array_equal(ds.occupant, vs.occupant)
    for name, _ in UNIT_FIELDS:
        assert np.array_equal(getattr(ds, name), getattr(vs, name)), name
    # sampled guards: in an unrevealed room, on a free square, one per square
    starts = {square(*q) for q in (*known.start, *known.exits)}
    guard_squares = [square(*g.at) for g in adv.guards]
    assert len(set(guard_squares)) == len(guard_squares)
    for g in adv.guards[len(known.guards) :]:
        q = square(*g.at)
        a = int(vt.area[q])
        assert a < vt.board.n_rooms and not vs.revealed[a]
        assert not vt.obstacle[q] and vs.occupant[q] < 0 and q not in starts
        assert g.monster in prior.guard_monsters
    # sampled traps: nowhere a trap is known, nowhere a figure (a hero) stands, one per square
    known_traps = {square(*tr.at) for tr in known.traps}
    trap_squares = [square(*tr.at) for tr in adv.traps]
    assert len(set(trap_squares)) == len(trap_squares)
    for q in trap_squares[len(known.traps) :]:
        assert q not in known_traps and vs.occupant[q] < 0 and not vt.obstacle[q]
    # cards: each from its deck; within the deck's composition minus the known cards when it suffices
    for d, card in sampled_cards(view, det):
        assert det.item_cards[card].deck == DECKS[d] and card in prior.decks[d]


@pytest.mark.parametrize("adventure", adventure_names())
def test_a_determinisation_samples_only_what_the_prior_and_rules_allow_and_keeps_what_heroes_know(adventure):
    sampled = Counter()
    for heroes, seed in ((3, 1), (4, 2), (5, 3)):
        for view in views_of(adventure, heroes, seed, steps=240, every=30):
            before = view.state.to_json()
            prior = prior_of(view)
            for k in range(4):
                det = determinise(view, random.Random(k))
                assert det is not view and det.state is not view.state
                check_determinisation(view, det, prior)
                sampled["guards"] += len(det.tables.adventure.guards) - len(view.tables.adventure.guards)
                sampled["traps"] += len(det.tables.adventure.traps) - len(view.tables.adventure.traps)
                sampled["cards"] += len(sampled_cards(view, det))
            assert view.state.to_json() == before  # the view itself is not changed
    assert min(sampled.values()) > 0 and len(sampled) == 3, sampled  # none of the checks was vacuous


def test_sampled_cards_come_from_the_deck_minus_the_cards_heroes_know():
    view = views_of("bandit_keep", 4, 0, steps=1, every=1)[0]
    prior = prior_of(view)
    base = len(view.item_cards) - len(PLACEHOLDER_ITEMS)
    known = Counter(c for c in view.state.item_card.tolist() if 0 <= c < base)
    for k in range(20):
        by_deck: dict[int, Counter] = {}
        for d, card in sampled_cards(view, determinise(view, random.Random(k))):
            by_deck.setdefault(d, Counter())[card] += 1
        for d, cards in by_deck.items():
            pool = Counter(prior.decks[d]) - known
            if sum(cards.values()) <= sum(pool.values()):
                assert not cards - pool, DECKS[d]


def test_a_dm_view_or_a_real_game_is_copied_with_fresh_dice():
    game = Game.new("flooded_cellar", heroes=3, seed=4)
    for source in (game, dm_view(game)):
        det = determinise(source, random.Random(9))
        assert det.tables is source.tables and det.state is not source.state
        assert det.dice.seed == random.Random(9).getrandbits(31)


# ------------------------------------------------------------------------------------ twin games


def twin_files(tmp_path: Path) -> tuple[Path, Path]:
    """goblin_warrens as bundled, and a copy with another Patrol set and a guard and a trap added
    in the room farthest from the start (the heroes cannot see any of it at first)."""
    text = (ADVENTURES / "goblin_warrens.toml").read_text()
    game = Game.new("goblin_warrens", heroes=4, seed=0)
    t = game.tables
    start = square(*t.adventure.start[0])
    used = {square(*g.at) for g in t.adventure.guards} | {square(*tr.at) for tr in t.adventure.traps}
    room = max(range(t.board.n_rooms), key=lambda a: abs(int(t.area_squares[a][0]) - start))
    free = [int(q) for q in t.area_squares[room] if not t.obstacle[q] and int(q) not in used]
    (gx, gy), (tx, ty) = game.xy(free[0]), game.xy(free[-1])
    edited = re.sub(r"(?m)^patrol = .*$", 'patrol = ["ghoul", "cave_wolf"]', text)
    edited += f'\n[[guard]]\nmonster = "troll"\nat = [{gx}, {gy}]\n'
    edited += f'\n[[trap]]\nat = [{tx}, {ty}]\nname = "extra"\neffect = {{ kind = "damage", amount = 2 }}\n'
    out = []
    for name, content in (("a", text), ("b", edited)):
        (tmp_path / name).mkdir()
        out.append(tmp_path / name / "goblin_warrens.toml")
        out[-1].write_text(content)
    return out[0], out[1]


def hidden_parts(det: Game) -> tuple:
    s, adv = det.state, det.tables.adventure
    arrays = tuple(getattr(s, name).tolist() for name in (*KNOWN_ARRAYS, "item_card", "deck_cards"))
    return adv.patrol, adv.guards, adv.traps, arrays


def test_twin_games_heroes_cannot_tell_apart_give_the_same_determinisations(tmp_path):
    path_a, path_b = twin_files(tmp_path)
    a, b = Game.new(str(path_a), heroes=4, seed=5), Game.new(str(path_b), heroes=4, seed=5)
    assert a.tables.adventure.patrol != b.tables.adventure.patrol
    rng, compared = random.Random(5), 0
    for _ in range(150):
        if a.over or b.over:
            break
        if knowledge_of(a, HEROES).snapshot() != knowledge_of(b, HEROES).snapshot():
            break
        if a.agent not in (None, "dm"):
            for k in range(3):
                da = determinise(heroes_view(a, playable=False), random.Random(k))
                db = determinise(heroes_view(b, playable=False), random.Random(k))
                assert hidden_parts(da) == hidden_parts(db)
            compared += 1
        r = rng.random()
        la, lb = a.legal_actions(), b.legal_actions()
        a.apply(la[int(r * len(la))])
        b.apply(lb[int(r * len(lb))])
    assert compared >= 5


# -------------------------------------------------------------------------------------- playable


@pytest.mark.parametrize("adventure", adventure_names())
def test_random_play_on_determinisations_raises_nothing(adventure):
    for view in views_of(adventure, 4, 7, steps=200, every=100):
        det = determinise(view, random.Random(3))
        rng = random.Random(11)
        for _ in range(300):
            if det.over:
                break
            det.apply(rng.choice(det.legal_actions()))


@pytest.mark.parametrize("adventure", adventure_names())
def test_a_determinisation_plays_on_its_views_content_copied_as_on_content_made_afresh(adventure):
    """A determinisation's content is its view's, copied with the sampled adventure and traps
    (``core.DERIVED_FROM``); the same determinisation on content read afresh from its tables and
    cards plays the same random game, event for event."""
    for view in views_of(adventure, 4, 5, steps=240, every=60):
        derived = determinise(view, random.Random(9))
        assert derived.tables.cache[core.DERIVED_FROM] is view.tables
        afresh = derived.copy()
        afresh._engine.set_content(core.content(afresh, fresh=True), afresh.state.copy())
        afresh._attach(afresh._engine)
        rng_a, rng_b = random.Random(13), random.Random(13)
        for _ in range(400):
            if derived.over:
                break
            assert derived.legal_actions() == afresh.legal_actions()
            derived.apply(rng_a.choice(derived.legal_actions()))
            afresh.apply(rng_b.choice(afresh.legal_actions()))
        assert derived.events == afresh.events and afresh.over == derived.over


def test_R_MON_04_a_patrol_spawns_in_a_determinisation_when_its_roll_is_a_1():
    """The heroes start in corridor o of goblin_warrens: a Patrol roll forced to 1 at the next Turn
    Start spawns the sampled Patrol set there (the view alone has none to spawn)."""
    view = heroes_view(Game.new("goblin_warrens", heroes=4, seed=2))
    assert view.tables.adventure.patrol == ()
    for k in range(5):
        det = determinise(view, random.Random(k))
        det.dice.force(*[1] * 40, stream="patrol")
        rng = random.Random(k)
        for _ in range(400):
            spawned = det.state.unit_how == How.PATROL
            if spawned.any() or det.over:
                break
            det.apply(rng.choice(det.legal_actions()))
        members = [det.monsters[c].id for c in det.state.unit_card[spawned].tolist()]
        assert members and set(members) <= set(det.tables.adventure.patrol)


# ------------------------------------------------------------------------------------ statistics


def test_patrol_set_sizes_follow_the_prior():
    view = heroes_view(Game.new("flooded_cellar", heroes=3, seed=0))
    prior = prior_of(view)
    rng, n = random.Random(0), 2000
    sizes = Counter(len(determinise(view, rng).tables.adventure.patrol) for _ in range(n))
    for size, p in prior.patrol_sizes:
        assert binomtest(sizes[size], n, p).pvalue > 1e-3, (size, sizes)
