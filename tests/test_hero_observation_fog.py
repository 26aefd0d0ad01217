"""What a hero's observation shows is decided positively (issue 11, leaks 3, 4, 5 and 9): a square's
trap or hazard because its area is revealed, a figure's unit column because heroes may see the figure,
the decision context because its figure is one heroes may see, and decision args that count nothing
heroes cannot know (a room event by its room's board area, not by its place in the adventure's list).

Positions are built by hand on the test arena (see ``tests/data/arena.toml``: heroes start in corridor
a, the top row; rooms F (x 7..11, y 7..12) and K (x 12..16, y 14..19) stay in the fog until a hero
comes), then random play over every adventure checks the same rules state by state.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from dungeon_env.content import adventure_names
from dungeon_env.content.model import Effect
from dungeon_env.engine import Decision, Game, Phase, board, effects, traps
from dungeon_env.engine.actions import EXPLORE, STAY, TARGET_ACTIONS
from dungeon_env.engine.state import ACTIVE, CORPSE, CORPSE_OUT, EXITED
from dungeon_env.observation import _HERO_ARGS, DM, FCOL, HERO, KINDS, PLANE, Observer, unflatten
from tests.builders import (
    FOUNTAIN,
    HIDDEN_FIRST,
    add_monster,
    arena_game,
    arena_variant,
    bolt_position,
    enter_phase,
    place,
    play_to,
)

PIT = (9, 8)  # room F
PIT_ARENA = '[[trap]]\nat = [9, 8]\nname = "pit"\neffect = { kind = "damage", amount = 2 }\nblocks = true\n'


def observe(game: Game, role: int = HERO, me: int = 0) -> dict[str, np.ndarray]:
    return unflatten(Observer().observe(game, role, me if role == HERO else -1, False, 100)["observation"])


def flat(game: Game, role: int = HERO, me: int = 0) -> np.ndarray:
    return Observer().observe(game, role, me if role == HERO else -1, False, 100)["observation"]


def revealed_at(game: Game, x: int, y: int) -> bool:
    return bool(game.state.revealed[game.tables.area[game.square(x, y)]])


def heroes_may_see(game: Game, u: int) -> bool:
    """The rules' answer, from the state: every hero (on the board, out, or a corpse), and a monster
    on a square of a revealed area."""
    s = game.state
    if u < s.n_heroes:
        return int(s.unit_status[u]) in (ACTIVE, EXITED, CORPSE, CORPSE_OUT)
    p = int(s.unit_pos[u])
    return int(s.unit_status[u]) == ACTIVE and p >= 0 and bool(s.revealed[game.tables.area[p]])


# ------------------------------------------------------------------------------ traps and hazards


@pytest.fixture(scope="module")
def pit_arena(tmp_path_factory) -> str:
    return arena_variant(tmp_path_factory.mktemp("pit"), "pit_arena", PIT_ARENA)


def test_heroes_see_no_hazard_in_the_fog(pit_arena):
    """A monster springs the pit in room F, still in the fog: the hole stays (a hazard) but heroes
    see the same as if the pit were still armed and hidden; once F is revealed they see it."""
    game = Game.new(adventure=pit_arena, heroes=["corvin", "ysolde", "hob"], seed=0)
    x, y = PIT
    assert not revealed_at(game, x, y)
    m = add_monster(game, "orc", x, y)
    before = flat(game)
    traps.spring(game, 0, m, keep_hazard=True)
    assert board.is_hazard(game, 0)
    assert observe(game, DM)["board"][PLANE["hazard"], y, x] == 1.0
    assert np.array_equal(flat(game), before), "a pit sprung in the fog changes nothing a hero sees"
    game.state.revealed[game.tables.area[game.square(x, y)]] = True
    assert observe(game)["board"][PLANE["hazard"], y, x] == 1.0


def test_heroes_see_a_detected_trap_only_in_a_revealed_area(pit_arena):
    game = Game.new(adventure=pit_arena, heroes=["corvin", "ysolde", "hob"], seed=0)
    x, y = PIT
    hidden = flat(game)
    game.state.trap_detected[0] = True  # armed and detected, its room unrevealed
    assert np.array_equal(flat(game), hidden)
    assert observe(game, DM)["board"][PLANE["trap_detected"], y, x] == 1.0
    game.state.revealed[game.tables.area[game.square(x, y)]] = True
    assert observe(game)["board"][PLANE["trap_detected"], y, x] == 1.0


# ------------------------------------------------------------------------------ figures in the fog


def test_a_fog_monster_under_an_effect_leaves_every_unit_column_zero():
    game = arena_game()
    m = add_monster(game, "orc", 9, 8)
    assert not revealed_at(game, 9, 8)
    before = flat(game)
    effects.add_lasting(game, Effect("sleep", 0, 2), "test", m)
    units = observe(game)["figures"]
    assert not units[m].any(), f"columns set for a fog monster: {np.flatnonzero(units[m])}"
    assert np.array_equal(flat(game), before)
    dm = observe(game, DM)["figures"]
    assert dm[m, FCOL["effects"]] > 0 and dm[m, FCOL["present"]] == 1.0


def monster_move_of(monster: str, x: int, y: int) -> tuple[Game, int]:
    """The arena with an awake monster at (x, y) in the fog, at the DM's Movement decision about it."""
    game = arena_game()
    m = add_monster(game, monster, x, y)
    enter_phase(game, Phase.MONSTER_MOVEMENT)
    play_to(game, Decision.MONSTER_MOVE, m)
    assert not revealed_at(game, x, y)
    return game, m


def test_a_dm_decision_about_a_fog_monster_shows_heroes_only_that_the_dm_acts():
    game, m = monster_move_of("orc", 8, 9)
    hero = observe(game)
    assert hero["acting"].tolist() == [0, 0, 0, 0, 0, 1.0]
    assert hero["phase"][Phase.MONSTER_MOVEMENT] == 1.0
    for name in ("decision", "decision_args", "target_purpose", "candidates"):
        assert not hero[name].any(), f"{name} is set for a DM decision about a fog monster"
    assert not hero["board"][PLANE["acting_unit"]].any()
    assert not hero["figures"][m].any() and not hero["figures"][:, FCOL["acting"]].any()
    dm = observe(game, DM)
    assert dm["decision"][Decision.MONSTER_MOVE] == 1.0 and dm["figures"][m, FCOL["acting"]] == 1.0
    assert dm["board"][PLANE["acting_unit"], 9, 8] == 1.0


def test_heroes_cannot_tell_which_fog_monster_the_dm_moves_or_where_it_is():
    one, m1 = monster_move_of("orc", 8, 9)
    other, m2 = monster_move_of("goblin", 14, 16)
    assert m1 == m2
    assert np.array_equal(flat(one), flat(other))
    assert not np.array_equal(flat(one, DM), flat(other, DM))


def test_a_dm_decision_about_a_visible_monster_keeps_its_context():
    game = arena_game()
    place(game, 0, 8, 8)  # hero_0 in room F: F is revealed
    m = add_monster(game, "orc", 10, 10)
    enter_phase(game, Phase.MONSTER_MOVEMENT)
    play_to(game, Decision.MONSTER_MOVE, m)
    hero = observe(game, me=1)
    assert hero["decision"][Decision.MONSTER_MOVE] == 1.0 and hero["acting"][-1] == 1.0
    x, y = game.xy(int(game.state.unit_pos[m]))
    assert hero["board"][PLANE["acting_unit"], y, x] == 1.0 and hero["figures"][m, FCOL["acting"]] == 1.0


def test_heroes_number_the_monsters_they_see_without_counting_fog_monsters():
    """A Goblin in room A, seen, with or without an Orc placed first in the fog (so that the Goblin
    takes slot 4, not 3): heroes see the same, down to a Mind Lash's bids, where the Goblin is the
    other side (arg a) of the hero's decision."""
    from dungeon_env.engine import mental
    from dungeon_env.engine.actions import SPEND_0

    seen = {}
    for fog_orc in (False, True):
        game = arena_game()
        place(game, 0, 2, 2)  # room A revealed
        if fog_orc:
            add_monster(game, "orc", 8, 9)
        goblin = add_monster(game, "goblin", 4, 4)
        assert goblin == (4 if fog_orc else 3)
        views = [flat(game)]
        mental.start(game, goblin, 0, mental.PURPOSE_LASH)
        assert game.decision == (Decision.MENTAL_BID, goblin)
        views.append(flat(game))
        game.apply(SPEND_0)
        assert game.decision == (Decision.MENTAL_BID, 0) and game.decision_args == (goblin, 0)
        views.append(flat(game))
        seen[fog_orc] = views
        hero = unflatten(views[-1])
        assert hero["decision_args"][0] == pytest.approx((3 + 1) / 128)  # the Goblin: column 3
        assert hero["figures"][3, FCOL["kind"]] == KINDS.index("goblin") + 1 and not hero["figures"][4:].any()
    for plain, twin in zip(seen[False], seen[True], strict=True):
        assert np.array_equal(plain, twin)


# ------------------------------------------------------------------------------ room events


@pytest.fixture(scope="module")
def event_arenas(tmp_path_factory) -> tuple[str, str]:
    """Twins: the fountain and the sword in room F, one with an event in room K listed before them."""
    folder = tmp_path_factory.mktemp("events")
    return (
        arena_variant(folder, "fountain_arena", FOUNTAIN),
        arena_variant(folder, "fountain_arena_k", HIDDEN_FIRST + FOUNTAIN),
    )


def explore_f(path: str) -> Game:
    game = Game.new(adventure=path, heroes=["corvin", "ysolde", "hob"], seed=0)
    place(game, 0, 8, 8)
    place(game, 1, 8, 10)
    place(game, 2, 10, 11)
    enter_phase(game, Phase.EXPLORE)
    for choice in (EXPLORE, STAY, STAY):
        assert game.decision[0] == Decision.EXPLORE_CHOICE
        game.apply(choice)
    return game


def test_room_event_args_count_no_hidden_event(event_arenas):
    """The fountain is event 0 in one twin and event 1 in the other: heroes see the same args (room
    F's board area), the DM sees the adventure's own index."""
    games = [explore_f(path) for path in event_arenas]
    f_area = games[0].tables.board.area_names.index("F")
    for kind in (Decision.EVENT_CHOICE, Decision.CLAIM_ITEM):
        for game in games:
            assert game.decision == (kind, 0)
        plain, twin = (flat(game) for game in games)
        assert np.array_equal(plain, twin), f"{kind.name}: an unrevealed room's event shows to heroes"
        args = observe(games[0])["decision_args"]
        assert args[0] == pytest.approx((f_area + 1) / 128)
        dm = [observe(game, DM)["decision_args"][0] for game in games]
        assert dm[1] == pytest.approx(dm[0] + 1 / 128)
        for game in games:
            game.apply(game.legal_actions()[0])


# ------------------------------------------------------------------------------ candidates


def test_candidates_never_show_a_figure_heroes_do_not_see():
    """Orwin casts Arcane Bolt from (9,5) in room B: the Orc at (9,1) and the Goblin at (8,6), seen
    through door 3 (opened by hand), are its candidates. With corridor e, the Goblin's, unrevealed (a
    state the rules never reach: sight reveals) the engine still lists the Goblin; its row stays empty."""
    from dungeon_env.engine.actions import NORMAL_CAST, SPELL_0

    game, orc, goblin = bolt_position()
    play_to(game, Decision.SPELL_SELECT, 0)
    game.apply(
        SPELL_0 + game.state.spell_known[0].nonzero()[0].tolist().index(game.spell_index["arcane_bolt"])
    )
    play_to(game, Decision.CAST_MODE, 0)
    game.apply(NORMAL_CAST)
    play_to(game, Decision.CHOOSE_TARGET, 0)
    assert game.decision_args[0] == 0  # TARGET_SPELL
    from dungeon_env.engine import spells

    assert spells.targets(game, 0, game.spell_index["arcane_bolt"]) == [orc, goblin]
    e = game.tables.area[game.square(8, 6)]
    game.state.revealed[e] = True
    game.state_edited()
    hero = observe(game)
    assert hero["candidates"][0, 0] == 1.0 and hero["candidates"][1, 0] == 1.0
    assert hero["figures"][orc, FCOL["candidate"]] == 1.0
    game.state.revealed[e] = False
    game.state_edited()
    hero = observe(game)
    assert hero["candidates"][0, 0] == 1.0 and not hero["candidates"][1].any()
    assert not hero["figures"][goblin].any() and hero["figures"][orc, FCOL["candidate"]] == 1.0
    assert observe(game, DM)["candidates"][1, 0] == 1.0


# ------------------------------------------------------------------------------ random play


def hero_columns(game: Game) -> dict[int, int]:
    """The heroes' numbering of the figures they see: slot -> column of their units piece (heroes in
    their slots, then the monsters they see in the order they appeared)."""
    s = game.state
    heroes = {u: u for u in range(s.n_heroes) if heroes_may_see(game, u)}
    monsters = sorted(
        (int(s.unit_uid[u]), u) for u in range(s.n_heroes, len(s.unit_status)) if heroes_may_see(game, u)
    )
    return heroes | {u: s.n_heroes + i for i, (_, u) in enumerate(monsters)}


def check_hero_observation(game: Game, pieces: dict[str, np.ndarray], me: int, to_act: bool) -> None:
    s, t = game.state, game.tables
    column = hero_columns(game)
    units, board = pieces["figures"], pieces["board"]
    used = np.zeros(units.shape[0], bool)
    used[list(column.values())] = True
    assert not units[~used].any(), (
        f"rows set for no figure heroes see: {np.flatnonzero(units.any(1) & ~used)}"
    )
    for u, c in column.items():  # each figure heroes see is in its column
        x, y = game.xy(int(s.unit_pos[u])) if s.unit_pos[u] >= 0 else (0, 0)
        assert units[c, FCOL["x"]] == pytest.approx(x / 23) and units[c, FCOL["y"]] == pytest.approx(y / 27)
        assert units[c, FCOL["present"]] == 1.0 and units[c, FCOL["monster"]] == (u >= s.n_heroes)
    revealed = s.revealed[t.area].reshape(board.shape[1:])
    for name in ("hazard", "trap_detected", "monsters", "furniture", "blockage", "exit", "corridor"):
        assert not (board[PLANE[name]] * ~revealed).any(), f"{name} in the fog"
    assert not board[PLANE["trap_hidden"]].any() and not board[PLANE["secret_door"]].any()
    assert board[PLANE["monsters"]].sum() == sum(1 for u in column if u >= s.n_heroes and s.unit_pos[u] >= 0)
    if s.stack and not s.outcome:
        kind, unit, a, b = s.stack[-1]
        rules = _HERO_ARGS.get(kind)
        assert rules is not None or a == b == -1, f"{Decision(kind).name} has args and no rule for heroes"
        if unit not in column:
            for name in ("decision", "decision_args", "target_purpose", "candidates"):
                assert not pieces[name].any(), f"{name} set for a decision about a hidden figure"
            assert not board[PLANE["acting_unit"]].any()
        else:
            assert units[column[unit], FCOL["acting"]] == 1.0 and units[:, FCOL["acting"]].sum() == 1.0
            if kind == Decision.CHOOSE_TARGET and to_act:
                # no candidate was dropped: the engine offered heroes only figures they see
                legal = [a for a in game.legal_actions() if a in TARGET_ACTIONS]
                assert (pieces["candidates"][:, 0] > 0).sum() == len(legal)


@pytest.mark.parametrize("name", adventure_names())
def test_hero_observations_show_only_what_heroes_may_know_in_random_play(name):
    for seed in range(2):
        game = Game.new(adventure=name, heroes=4, seed=seed, max_turns=60)
        observer, rng = Observer(), random.Random(seed)
        for _ in range(1500):
            if game.over:
                break
            acting = int(game.state.stack[-1][1]) if game.state.stack else -1
            for me in sorted({0, acting} if 0 <= acting < game.state.n_heroes else {0}):
                to_act = me == acting
                obs = observer.observe(game, HERO, me, to_act, 60)["observation"]
                check_hero_observation(game, unflatten(obs), me, to_act)
            game.apply(rng.choice(game.legal_actions()))
