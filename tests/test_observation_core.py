"""The core's observation builder (``src/core/observe.cpp``) against the numpy one (``Observer`` with
``use_core=False``, the reference): the same float32 vector bit for bit (compared as uint32, so
that 0.0 and -0.0 differ) and the same action mask, for every agent (each hero and the DM, asked to
act or not) and the global state, at thousands of positions of random games over all five
adventures with 3 to 5 heroes drawn from the whole roster, and at hand-built positions for what
random play seldom reaches. Each test asserts the counts of the cases it reached.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from dungeon_env.content import adventure_names, load_heroes
from dungeon_env.content.model import Effect
from dungeon_env.engine import Decision, Game, Phase, effects, inventory, mental, traps
from dungeon_env.engine.actions import (
    EXPLORE,
    LOOT,
    N_ACTIONS,
    NORMAL_CAST,
    SPELL_0,
    SPEND_0,
    STAY,
    TARGET_LOOT,
)
from dungeon_env.engine.side_knowledge import HEROES, knowledge_of
from dungeon_env.engine.state import ACTIVE, CORPSE_OUT, EXITED, GONE
from dungeon_env.engine.units import kill_hero, take_off
from dungeon_env.observation import DM, HERO, OBS_SPEC, Observer, core_layout
from dungeon_env.observation import _core_rules as core_rules
from tests.builders import (
    FOUNTAIN,
    HIDDEN_FIRST,
    PLAIN,
    add_monster,
    arena_game,
    arena_variant,
    bolt_position,
    enter_phase,
    place,
    play_to,
)

ROSTER = list(load_heroes())
POTION = "healing_potion"


def differences(a: np.ndarray, b: np.ndarray) -> list[str]:
    """The pieces and entries where two flat observations differ bit for bit."""
    out = []
    for k in np.flatnonzero(a.view(np.uint32) != b.view(np.uint32))[:8]:
        name = next(n for n, _ in OBS_SPEC.pieces if OBS_SPEC.slice(n).start <= k < OBS_SPEC.slice(n).stop)
        shape = dict(OBS_SPEC.pieces)[name]
        where = np.unravel_index(k - OBS_SPEC.offsets[name], shape)
        out.append(f"{name}{tuple(int(i) for i in where)}: core {a[k]!r}, numpy {b[k]!r}")
    return out


def compare(game: Game, core: Observer | None = None, ref: Observer | None = None, where: str = "") -> int:
    """Both builders for every agent, asked to act and not, and the global state: bit for bit the
    same (fresh arrays each call). Returns the number of observations compared."""
    assert game.engine == "core"
    core, ref = core or Observer(), ref or Observer(use_core=False)
    agents = [(DM, -1)] + [(HERO, h) for h in range(game.state.n_heroes)]
    n = 0
    for role, me in agents:
        for to_act in (True, False):
            a = core.observe(game, role, me, to_act, game.max_turns)
            b = ref.observe(game, role, me, to_act, game.max_turns)
            obs = a["observation"]
            assert obs.dtype == np.float32 and obs.shape == (OBS_SPEC.size,)
            assert a["action_mask"].dtype == np.int8 and a["action_mask"].shape == (N_ACTIONS,)
            diff = differences(obs, b["observation"])
            assert not diff, f"{where} role {role} me {me} to_act {to_act}: " + "; ".join(diff)
            assert np.array_equal(a["action_mask"], b["action_mask"]), f"{where} role {role} me {me}: mask"
            n += 1
    diff = differences(core.state(game, game.max_turns), ref.state(game, game.max_turns))
    assert not diff, f"{where} state: " + "; ".join(diff)
    return n + 1


def cases(game: Game) -> set[str]:
    """What a position holds that the builders treat apart."""
    s = game.state
    found = set()
    if s.stack and not s.outcome:
        kind, _, a, _ = s.stack[-1]
        if kind == Decision.CHOOSE_TARGET:
            found.add("choose_target_loot" if a == TARGET_LOOT else "choose_target_unit")
        elif kind in (Decision.MENTAL_BID, Decision.EVENT_CHOICE, Decision.CLAIM_ITEM):
            found.add(Decision(kind).name.lower())
    seen = knowledge_of(game, HEROES).monsters_seen()
    if len(seen) and not np.array_equal(np.sort(seen), np.arange(s.n_heroes, s.n_heroes + len(seen))):
        found.add("fog_monster_below_a_seen_one")
    if s.door_hidden.any():
        found.add("secret_door")
    armed, detected = s.trap_armed, s.trap_detected
    for name, hit in (
        ("trap_hidden", armed & ~detected),
        ("trap_detected", armed & detected),
        ("hazard", ~armed & detected),
    ):
        if hit.any():
            found.add(name)
    heroes = s.unit_status[: s.n_heroes]
    if np.isin(heroes, (EXITED,)).any():
        found.add("hero_exited")
    if (heroes != ACTIVE).any() and not np.isin(heroes, (EXITED,)).all():
        found.add("hero_down")
    if s.effects:
        found.add("effects")
    return found


# ------------------------------------------------------------------------------ random play


def test_the_core_builds_every_observation_of_random_play_as_numpy_does():
    """15 games (each adventure with 3, 4 and 5 heroes drawn from the roster), up to 250 positions
    each, every agent at each position."""
    rng = random.Random(54)
    reached, positions, compared = Counter(), 0, 0
    for name in adventure_names():
        for n_heroes in (3, 4, 5):
            game = Game.new(
                adventure=name, heroes=rng.sample(ROSTER, n_heroes), seed=rng.randrange(10**6), max_turns=40
            )
            core, ref = Observer(), Observer(use_core=False)  # kept over the game, as an env keeps its own
            for step in range(250):
                if game.over:
                    break
                compared += compare(game, core, ref, where=f"{name} {n_heroes} heroes step {step}")
                reached.update(cases(game))
                positions += 1
                game.apply(rng.choice(game.legal_actions()))
            compared += compare(game, core, ref, where=f"{name} end")
    assert positions >= 2000 and compared >= 20000, (positions, compared)
    print(f"{positions} positions, {compared} observations; cases reached: {dict(reached)}")
    for case in (
        "choose_target_unit",
        "fog_monster_below_a_seen_one",
        "secret_door",
        "trap_hidden",
        "trap_detected",
        "effects",
        "hero_down",
        "claim_item",
    ):
        assert reached[case] >= 5, f"random play reached {case} {reached[case]} times"


def test_a_twin_on_the_python_rules_is_observed_alike():
    """The same game on the core and on the Python rules (observed by the numpy builder): the same
    observations, move by move."""
    rng = random.Random(7)
    core_game = Game.new(adventure="goblin_warrens", heroes=4, seed=11, max_turns=30)
    twin = Game.new(adventure="goblin_warrens", heroes=4, seed=11, max_turns=30, engine="python")
    core, ref = Observer(), Observer()
    compared = 0
    for _ in range(120):
        if core_game.over:
            break
        for role, me in [(DM, -1)] + [(HERO, h) for h in range(4)]:
            a = core.observe(core_game, role, me, True, 30)
            b = ref.observe(twin, role, me, True, 30)
            assert not differences(a["observation"], b["observation"])
            assert np.array_equal(a["action_mask"], b["action_mask"])
            compared += 1
        action = rng.choice(core_game.legal_actions())
        core_game.apply(action)
        twin.apply(action)
    assert compared >= 500
    first, again = (core.observe(core_game, HERO, 0, True, 30) for _ in range(2))
    for name in ("observation", "action_mask"):  # fresh arrays: the env hands them to users
        assert not np.shares_memory(first[name], again[name])


# ------------------------------------------------------------------------------ hand-built positions


def test_a_fog_monster_in_a_lower_slot_and_a_mental_bid():
    """An Orc in the fog takes slot 3 before a seen Goblin takes slot 4: heroes' rows put the Goblin
    in row 3; a Mind Lash makes the Goblin the other side (arg a, a unit slot) of hero_0's bid."""
    game = arena_game()
    place(game, 0, 2, 2)  # room A revealed
    add_monster(game, "orc", 8, 9)
    goblin = add_monster(game, "goblin", 4, 4)
    assert goblin == 4 and "fog_monster_below_a_seen_one" in cases(game)
    n = compare(game, where="fog orc")
    mental.start(game, goblin, 0, mental.PURPOSE_LASH)
    assert game.decision == (Decision.MENTAL_BID, goblin)
    n += compare(game, where="the goblin's bid")
    game.apply(SPEND_0)
    assert game.decision == (Decision.MENTAL_BID, 0) and game.decision_args == (goblin, 0)
    assert "mental_bid" in cases(game)
    n += compare(game, where="hero_0's bid")
    assert n == 3 * 9


def test_choose_target_with_a_candidate_heroes_do_not_see():
    """Arcane Bolt's candidates, an Orc in sight and a Goblin in a corridor unrevealed by hand."""
    game, orc, goblin = bolt_position()
    play_to(game, Decision.SPELL_SELECT, 0)
    known = game.state.spell_known[0].nonzero()[0].tolist()
    game.apply(SPELL_0 + known.index(game.spell_index["arcane_bolt"]))
    play_to(game, Decision.CAST_MODE, 0)
    n = compare(game, where="cast mode")
    game.apply(NORMAL_CAST)
    play_to(game, Decision.CHOOSE_TARGET, 0)
    assert "choose_target_unit" in cases(game)
    n += compare(game, where="both seen")
    e = game.tables.area[game.square(8, 6)]
    game.state.revealed[e] = False
    game.state_edited()
    n += compare(game, where="the goblin unseen")
    assert n == 3 * 9


def test_choose_target_loot_and_dead_exited_gone_heroes():
    """hero_1 lies dead with a sword (face up) and a potion (face down): hero_0 loots (LOOT's
    candidates are items); then hero_2 leaves the dungeon, and a fourth state, a corpse carried out
    or lost, for hero_1."""
    game = arena_game(PLAIN)
    for u in range(3):
        place(game, u, 20 + u, 26)
    for u, (x, y) in enumerate(((1, 0), (2, 0), (4, 0))):
        place(game, u, x, y)
    for card in ("short_sword", POTION):
        inventory.give(game, inventory.create(game, card), 1)
    kill_hero(game, 1)
    enter_phase(game, Phase.TRADE)
    assert LOOT in game.legal_actions()
    n = compare(game, where="trade")
    game.apply(LOOT)
    assert "choose_target_loot" in cases(game)
    n += compare(game, where="loot")
    take_off(game, 2)
    game.state.unit_status[2] = EXITED
    game.state_edited()
    assert "hero_exited" in cases(game)
    n += compare(game, where="hero_2 exited")
    for status in (CORPSE_OUT, GONE):
        take_off(game, 1)
        game.state.unit_status[1] = status
        game.state_edited()
        n += compare(game, where=f"hero_1 status {status}")
    # a gone hero observing while a fog monster holds a lower slot than a seen one
    place(game, 0, 2, 2)
    add_monster(game, "orc", 8, 9)
    add_monster(game, "goblin", 4, 4)
    n += compare(game, where="gone hero, fog orc")
    assert n == 6 * 9


PIT = '[[trap]]\nat = [9, 8]\nname = "pit"\neffect = { kind = "damage", amount = 2 }\nblocks = true\n'


def test_room_event_args_as_areas(tmp_path):
    """event_choice and claim_item (arg a: the room event, shown to heroes as its room's area), with
    an event in an unseen room listed first."""
    reached = Counter()
    for path in (
        arena_variant(tmp_path, "fountain_arena", FOUNTAIN),
        arena_variant(tmp_path, "fountain_arena_k", HIDDEN_FIRST + FOUNTAIN),
    ):
        game = Game.new(adventure=path, heroes=PLAIN, seed=0)
        place(game, 0, 8, 8)
        place(game, 1, 8, 10)
        place(game, 2, 10, 11)
        enter_phase(game, Phase.EXPLORE)
        for choice in (EXPLORE, STAY, STAY):
            game.apply(choice)
        for kind in (Decision.EVENT_CHOICE, Decision.CLAIM_ITEM):
            assert game.decision == (kind, 0)
            reached.update(cases(game))
            compare(game, where=kind.name)
            game.apply(game.legal_actions()[0])
    assert reached["event_choice"] == reached["claim_item"] == 2


def test_traps_hazards_and_secret_doors(tmp_path):
    """A pit in room F: armed and hidden, detected in the fog, detected in sight, sprung (a
    hazard) in the fog and in sight; then every area revealed in an adventure whose secret doors
    are undiscovered (heroes see a wall, the DM the door)."""
    game = Game.new(adventure=arena_variant(tmp_path, "pit_arena", PIT), heroes=PLAIN, seed=0)
    f_area = game.tables.area[game.square(9, 8)]
    reached = Counter()
    for detected, revealed in ((False, False), (True, False), (True, True)):
        game.state.trap_detected[0] = detected
        game.state.revealed[f_area] = revealed
        game.state_edited()
        reached.update(cases(game))
        compare(game, where=f"pit detected {detected} revealed {revealed}")
    game.state.revealed[f_area] = False
    m = add_monster(game, "orc", 9, 8)
    traps.spring(game, 0, m, keep_hazard=True)
    game.state_edited()
    for revealed in (False, True):
        game.state.revealed[f_area] = revealed
        game.state_edited()
        reached.update(cases(game))
        compare(game, where=f"hazard revealed {revealed}")
    assert reached["trap_hidden"] == 1 and reached["trap_detected"] == 2 and reached["hazard"] == 2

    secret = Game.new(adventure="warlocks_crypt", heroes=4, seed=1)
    assert secret.state.door_hidden.any()
    compare(secret, where="secret doors in the fog")
    secret.state.revealed[:] = True
    secret.state_edited()
    compare(secret, where="secret doors in sight")


def test_effects_counts():
    """1, 2 and 4 effects on a hero (the column clips at 3), and on a seen and a fog monster."""
    game = arena_game()
    place(game, 0, 2, 2)
    seen = add_monster(game, "goblin", 4, 4)
    fog = add_monster(game, "orc", 8, 9)
    n = 0
    for k in range(4):
        for u in (1, seen, fog):
            effects.add_lasting(game, Effect("sleep", 0, 2 + k), f"test {k}", u)
        if k != 2:
            n += compare(game, where=f"{k + 1} effects")
    assert "effects" in cases(game) and n == 3 * 9


# ------------------------------------------------------------------------------ bad input


def test_bad_buffers_and_arguments_raise_value_errors_naming_them():
    game = Game.new(adventure="flooded_cellar", heroes=3, seed=0)
    layout = core_layout(game.tables)
    eng = game._engine
    out, mask = np.empty(OBS_SPEC.size, np.float32), np.empty(N_ACTIONS, np.int8)
    core_rules.observe.observe(eng, layout, out, mask, DM, -1, True, 100, (), ())
    assert mask.sum() == len(game.legal_actions())
    bad = (
        ("out", dict(out=np.empty(OBS_SPEC.size - 1, np.float32))),
        ("out", dict(out=np.empty(OBS_SPEC.size, np.float64))),
        ("out", dict(out=np.empty((2, OBS_SPEC.size), np.float32)[:, 0])),
        ("out", dict(out=np.frombuffer(bytes(4 * OBS_SPEC.size), np.float32))),  # read-only
        ("out", dict(out=[0.0] * OBS_SPEC.size)),
        ("mask_out", dict(mask=np.empty(N_ACTIONS, np.int16))),
        ("mask_out", dict(mask=np.empty(N_ACTIONS + 1, np.int8))),
        ("role", dict(role=2)),
        ("me", dict(me=7)),
        ("seen", dict(role=HERO, me=0, seen=[70], numbers=[0])),
        ("seen, numbers", dict(role=HERO, me=0, seen=[3], numbers=[])),
        ("observation layout", dict(layout=core_layout(arena_game().tables))),
    )
    for name, change in bad:
        args = dict(layout=layout, out=out, mask=mask, role=DM, me=-1, seen=(), numbers=()) | change
        with pytest.raises(ValueError, match=name):
            core_rules.observe.observe(
                eng,
                args["layout"],
                args["out"],
                args["mask"],
                args["role"],
                args["me"],
                True,
                100,
                args["seen"],
                args["numbers"],
            )
    with pytest.raises(ValueError, match="observation layout: no entry size"):
        core_rules.observe.Layout({}, {}, [], [])


def test_negative_values_of_absent_figures_keep_numpy_zero_signs():
    """A slain monster (GONE, its slot kept) with negative Health and a lost hero with negative
    values: numpy's product by the absent figure's 0 gives -0.0, and so does the core."""
    game = arena_game()
    place(game, 0, 2, 2)
    m = add_monster(game, "goblin", 4, 4)
    take_off(game, m)
    game.state.unit_status[m] = GONE
    game.state.health[m] = -2
    take_off(game, 2)
    game.state.unit_status[2] = GONE
    game.state.stamina[2] = -1
    game.state.base_health[2] = -4
    game.state_edited()
    assert compare(game, where="negative values") == 9
    dm = Observer().state(game, game.max_turns)
    assert (dm.view(np.uint32) == np.float32(-0.0).view(np.uint32)).sum() >= 2


def test_the_heroes_side_views_on_the_core_are_observed_alike():
    """A playable heroes' view of a game on the core plays on the core (its own tables: no hidden
    traps, no unseen secret doors, placeholder cards): both builders agree on it too."""
    from dungeon_env.engine.side_knowledge import heroes_view

    rng, views = random.Random(3), 0
    for name in ("flooded_cellar", "warlocks_crypt"):
        game = Game.new(adventure=name, heroes=4, seed=5, max_turns=40)
        for step in range(160):
            if game.over:
                break
            if step % 16 == 0:
                view = heroes_view(game, playable=True)
                if view.engine == "core":
                    compare(view, where=f"{name} view at step {step}")
                    views += 1
            game.apply(rng.choice(game.legal_actions()))
    assert views >= 10
