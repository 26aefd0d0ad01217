"""One knowledge per side (``dungeon_env.engine.side_knowledge``, DESIGN.md "One knowledge per
side"): twin games give equal knowledge objects for every kind of hidden content; every hero channel
is a function of the heroes' knowledge (the observation of the real game is the observation of their
view, the fog picture is the picture of their view); a monster keeps its name for its whole life and
a name counts only monsters the heroes saw; the knowledge is kept up to date and copied with the
game, never rebuilt."""

from __future__ import annotations

import numpy as np
import pytest

from agents.scripted_dm import ScriptedDM
from agents.scripted_heroes import ScriptedHeroes
from dungeon_env.content import adventure_names
from dungeon_env.engine import Game
from dungeon_env.engine.knowledge import monsters_in_sight
from dungeon_env.engine.side_knowledge import knowledge_of
from dungeon_env.observation import FCOL, HERO, Observer, unflatten
from dungeon_env.render.text import render_text
from tests import twins
from tests.test_hidden_information import KINDS


def scripted_positions(adventure: str, seed: int, heroes: int = 3, limit: int = 800):
    """Every position of a scripted game (the game itself, mutated as it goes)."""
    g = Game.new(adventure=adventure, heroes=heroes, seed=seed)
    h, d = ScriptedHeroes(game=g, seed=seed), ScriptedDM(game=g, seed=seed)
    for _ in range(limit):
        if g.over:
            return
        yield g
        g.apply((d if g.agent == "dm" else h).choose(g))


# ------------------------------------------------------------------------------ twins


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_twin_games_give_equal_knowledge_of_the_heroes(tmp_path, kind):
    """Games equal in all heroes may know, one hidden thing apart: the heroes' knowledge objects
    (their events, the monsters they see by name, their view's state, tables and legal actions)
    stay equal at every step until the hidden thing is knowable (``play_twins`` raises at the first
    difference)."""
    verdicts = []
    for adventure in adventure_names():
        pair = KINDS[kind](tmp_path / adventure, adventure, 1 if kind == "secret_door_removed" else 0)
        if pair is not None:
            verdicts.append(twins.play_twins(pair, heroes="random", seed=0, max_steps=250, knowledge=True))
    assert len(verdicts) >= 3, f"too few {kind} twins could be built"
    assert sum(v.compared for v in verdicts) >= 20 * len(verdicts), [
        (v.note, v.compared, v.stop) for v in verdicts
    ]


# ------------------------------------------------------------------------------ channels


@pytest.mark.parametrize("adventure", ["flooded_cellar", "goblin_warrens", "bandit_keep"])
def test_the_heroes_observation_is_the_observation_of_their_view(adventure):
    """The observation reads nothing of the game beyond the heroes' knowledge: built from the real
    game or from the heroes' view of it (which holds nothing hidden), every hero's observation and
    mask are equal at every position of a scripted game, the DM's decisions about monsters heroes
    do not see included (the view says only that the DM is asked)."""
    real, seen = Observer(), Observer()
    compared = unseen = 0
    for g in scripted_positions(adventure, seed=0, heroes=4):
        view = knowledge_of(g, "heroes").view()
        unseen += g.agent == "dm" and g.decision[1] not in monsters_in_sight(g).tolist()
        for me in range(4):
            to_act = g.agent == f"hero_{me}"
            a = real.observe(g, HERO, me, to_act, g.max_turns)
            b = seen.observe(view, HERO, me, to_act, g.max_turns)
            pieces_a, pieces_b = unflatten(a["observation"]), unflatten(b["observation"])
            apart = [k for k in pieces_a if not np.array_equal(pieces_a[k], pieces_b[k])]
            assert not apart and np.array_equal(a["action_mask"], b["action_mask"]), (g.state.turn, apart)
            compared += 1
    assert compared > 1000
    assert adventure != "flooded_cellar" or unseen, "the DM never decided about a monster out of sight"


def test_the_fog_picture_is_the_picture_of_the_heroes_view():
    for g in scripted_positions("goblin_warrens", seed=2, limit=300):
        assert render_text(g) == render_text(knowledge_of(g, "heroes").view())


# ------------------------------------------------------------------------------ names


@pytest.mark.parametrize("adventure", adventure_names())
def test_a_monster_keeps_its_heroes_name_for_its_whole_life(adventure):
    """At every position of scripted games: each monster heroes see has a name ``m<k>`` that never
    changes; names are given 0, 1, 2, ... in the order heroes first saw the monsters, only to
    monsters in sight; the heroes' view labels each monster by that name, and their observation's
    ``name`` column is 1 + k. (Before, the view numbered monsters by their order among those in
    sight now: flooded_cellar seed 0 renamed a monster 384 times in 24,556 checks.)"""
    renamed = checks = 0
    for seed in (0, 1):
        names: dict[int, str] = {}  # engine id -> the heroes' name
        observer = Observer()
        for g in scripted_positions(adventure, seed):
            known = knowledge_of(g, "heroes")
            s = g.state
            figures = unflatten(observer.observe(g, HERO, 0, False, g.max_turns)["observation"])["figures"]
            for u in monsters_in_sight(g).tolist():
                uid, name = int(s.unit_uid[u]), known.name(u)
                assert name is not None, "a monster in sight that no event and no reveal named"
                if uid not in names:
                    assert name == f"m{len(names)}", (uid, name, names)  # the next name, first seen now
                    names[uid] = name
                renamed += names[uid] != name
                assert known.view().label(u) == name
                row = int(np.flatnonzero(figures[:, FCOL["name"]] == int(name[1:]) + 1)[0])
                assert figures[row, FCOL["kind"]] and figures[row, FCOL["monster"]]
                checks += 1
        assert set(known.lens.names.values()) == set(names.values())  # no name for a monster never seen
    assert renamed == 0 and checks > 50


# ------------------------------------------------------------------------------ upkeep


def test_the_knowledge_is_kept_up_to_date_and_copied_with_the_game_never_rebuilt():
    """The game's knowledge is the same object from the first call on, folded after every action; a
    copy of the game carries a copy of it that goes on alike; a fresh fold of the same log (the
    game saved and loaded) knows the same."""
    g = Game.new(adventure="goblin_warrens", heroes=3, seed=3)
    known = knowledge_of(g, "heroes")
    h, d = ScriptedHeroes(game=g, seed=3), ScriptedDM(game=g, seed=3)
    for _ in range(150):
        g.apply((d if g.agent == "dm" else h).choose(g))
    assert knowledge_of(g, "heroes") is known and known.events  # kept, not rebuilt
    twin = g.copy()
    assert knowledge_of(twin, "heroes") is not known
    assert knowledge_of(twin, "heroes").snapshot() == known.snapshot()
    h2, d2 = ScriptedHeroes(game=twin, seed=3), ScriptedDM(game=twin, seed=3)
    for _ in range(100):
        action = (d if g.agent == "dm" else h).choose(g)
        assert (d2 if twin.agent == "dm" else h2).choose(twin) == action
        g.apply(action)
        twin.apply(action)
    assert knowledge_of(twin, "heroes").snapshot() == known.snapshot()
    loaded = Game.from_json(g.to_json())
    assert knowledge_of(loaded, "heroes").snapshot()["names"] == known.snapshot()["names"]


def test_the_heroes_events_are_made_dicts_once_and_read_alike_after_holds_and_copies():
    """On the core the heroes' shown events stay there until read; ``events`` makes each one a dict
    once (two reads give the very same dicts) and always equals a fresh read of the store
    (``events_since(0)``), through a reader's hold that forgets old events, a copy of the game that
    goes on apart, and a read that follows many moves."""
    g = Game.new(adventure="goblin_warrens", heroes=3, seed=5)
    known = knowledge_of(g, "heroes")
    h, d = ScriptedHeroes(game=g, seed=5), ScriptedDM(game=g, seed=5)
    reader, copies = object(), []
    for step in range(400):
        if g.over:
            break
        g.apply((d if g.agent == "dm" else h).choose(g))
        if step % 7 == 0:
            first = known.events
            assert first == known.events_since(0)
            assert all(a is b for a, b in zip(first, known.events, strict=True))  # made once
        if step % 50 == 25:
            known.hold(reader, g.n_events - 20)  # the reader forgets all but the newest
            assert known.events == known.events_since(0)
        if step % 100 == 60:
            copies.append(g.copy())
    assert known.events
    for twin in copies:
        other = knowledge_of(twin, "heroes")
        assert other.events == other.events_since(0)
        for _ in range(30):
            if twin.over:
                break
            twin.apply(twin.legal_actions()[0])
        assert other.events == other.events_since(0)
    assert known.events == known.events_since(0)


def test_a_heroes_view_is_refused_a_dm_knowledge():
    g = Game.new(adventure="flooded_cellar", heroes=3, seed=0)
    view = knowledge_of(g, "heroes").view()
    with pytest.raises(ValueError, match="no DM's knowledge"):
        knowledge_of(view, "dm")
    with pytest.raises(ValueError, match="side must be one of heroes, dm"):
        knowledge_of(g, "monsters")
