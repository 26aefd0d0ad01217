"""The heroes' playable view made in the core (``_core.heroes_view``, ``src/core/heroes_view.cpp``)
against the Python reference (``sideview._redact``, what ``heroes_view_named(..., engine="python")``
builds).

At random positions of random and scripted games over the five adventures with 3 to 5 heroes from
the whole roster, and at hand-built positions (monsters in the fog, a fight and a Mental Combat with
a fog monster, face-down cards being cast, room events on the stack and in the Explore phase's list,
guards slain before the heroes' eyes or not), every state field of the core's view equals the
reference's, and so do its events, dice, decision and legal actions; copies of both are then played
on with the same random actions, compared after each.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from agents.scripted_dm_v2 import ScriptedDMV2
from agents.scripted_heroes_v2 import ScriptedHeroesV2
from dungeon_env.content import adventure_names, load_heroes
from dungeon_env.engine import Decision, Game, Phase
from dungeon_env.engine import sideview as sv
from dungeon_env.engine.side_knowledge import knowledge_of
from dungeon_env.engine.state import (
    FIGHT_HERO,
    FIGHT_M_SPEND,
    FIGHT_MONSTER,
    MENTAL_AGGRESSOR,
    SIDE_MONSTER,
)
from dungeon_env.engine.units import slay_monster
from tests.builders import add_monster, give_item

MOVES = 4  # random actions played on copies of both views at each position
KEEP = "bandit_keep"  # a secret door, guards, traps and room events


def both_views(game: Game, seed: int) -> tuple[Game, Game]:
    """The heroes' playable view of ``game`` (on the core) made in the core, and the reference."""
    known = knowledge_of(game, "heroes")
    known._catch_up()
    args = dict(seen=known.monsters_seen(), numbers=known.numbers(), slain=known.kills(), seed=seed)
    made = sv.heroes_view_named(game, events=known._shown, engine="core", **args)
    reference = sv.heroes_view_named(game, events=known.events, engine="python", **args)
    return made, reference


def differences(made: Game, reference: Game) -> list[str]:
    out = []
    if made.over != reference.over or made.decision != reference.decision:
        out.append(f"decision {made.decision} vs {reference.decision}")
    elif (
        not reference.over
        and (reference.state.stack or reference._legal is not None)
        and made.legal_actions() != reference.legal_actions()
    ):
        out.append(f"legal {made.legal_actions()} vs {reference.legal_actions()}")
    if made.events != reference.events:
        out.append("events")
    if made.dice.to_json() != reference.dice.to_json():
        out.append("dice")
    a, b = made.state.to_json(), reference.state.to_json()
    out += [f"state.{k}: {a[k]} vs {b[k]}" for k in b if a.get(k) != b[k]]
    return out


def check(game: Game, seed: int, counts: Counter, moves: int = MOVES) -> None:
    """The two views of ``game`` alike, then ``moves`` random actions on copies of both."""
    made, reference = both_views(game, seed)
    assert made.engine == "core" and reference.engine == "python"
    found = differences(made, reference)
    assert found == [], f"turn {game.state.turn}, {game.decision}: " + "; ".join(found)
    count_cases(game, made, counts)
    rng = random.Random(seed)
    made, reference = made.copy(), reference.copy()
    for step in range(moves):
        if reference.over or not reference.state.stack:
            break
        legal = reference.legal_actions()
        assert made.legal_actions() == legal
        action = rng.choice(legal)
        made.apply(action)
        reference.apply(action)
        found = differences(made, reference)
        assert found == [], f"copy, move {step + 1} ({action}): " + "; ".join(found)
        counts["moves"] += 1


def count_cases(game: Game, view: Game, counts: Counter) -> None:
    """What the position holds that the view must hide or re-index."""
    s, v = game.state, view.state
    counts["positions"] += 1
    monsters = int(((s.unit_side == SIDE_MONSTER) & (s.unit_status != 0)).sum())
    counts["fog monsters"] += monsters > int(((v.unit_side == SIDE_MONSTER) & (v.unit_status != 0)).sum())
    counts["face-down cards"] += bool(((s.item_card >= 0) & ~s.item_known).any())
    counts["doors re-indexed"] += len(v.door_open) < len(s.door_open)
    kinds = {row[0] for row in s.stack}
    counts["room events on the stack"] += bool(kinds & {Decision.EVENT_CHOICE, Decision.CLAIM_ITEM})
    counts["fights"] += bool(s.fights)
    counts["effects"] += bool(s.effects)


def new_game(k: int) -> Game:
    rng = random.Random(k)
    names = adventure_names()
    heroes = rng.sample(sorted(load_heroes()), 3 + k % 3)
    return Game.new(adventure=names[k % len(names)], heroes=heroes, seed=k)


@pytest.mark.parametrize("k", range(10))
def test_random_games(k):
    """Two random games per adventure (3 to 5 heroes): a position every 13 actions."""
    game, rng, counts = new_game(k), random.Random(k), Counter()
    for step in range(300):
        if game.over:
            break
        if step % 13 == 0:
            check(game, step, counts)
        game.apply(rng.choice(game.legal_actions()))
    assert counts["positions"] >= 10 and counts["moves"] >= 20, counts


def test_scripted_games():
    """Scripted v2 games on every adventure: a position at every third heroes' decision."""
    counts = Counter()
    for k in range(5):
        game = new_game(k)
        heroes, dm = ScriptedHeroesV2(game=game, seed=k), ScriptedDMV2(game=game, seed=k)
        decisions = 0
        while not game.over and game.state.turn <= 6:
            if game.agent != "dm":
                decisions += 1
                if decisions % 3 == 0:
                    check(game, decisions, counts)
            game.apply((dm if game.agent == "dm" else heroes).choose(game))
    assert counts["positions"] >= 40 and counts["fog monsters"] and counts["fights"], counts


# ------------------------------------------------------------------------------ hand-built positions


def fog_squares(g: Game) -> list[int]:
    s, t = g.state, g.tables
    free = ~s.revealed[t.area] & (s.occupant < 0) & ~t.blockage & ~t.furniture
    return [int(q) for q in np.flatnonzero(free)]


def keep_with_secrets() -> tuple[Game, int, int]:
    """bandit_keep with both sides of its secret door revealed, a trap detected, a monster in the
    fog and one in sight, a face-down potion and scroll; returns the game and the two monsters."""
    g = Game.new(adventure=KEEP, heroes=4, seed=0)
    s, t, adv = g.state, g.tables, g.tables.adventure
    names = t.board.area_names
    for area in ("J", "K"):
        s.revealed[names.index(area)] = True
    s.trap_detected[next(i for i, tr in enumerate(adv.traps) if s.revealed[t.area[g.square(*tr.at)]])] = True
    fog = fog_squares(g)
    hidden = add_monster(g, "orc", *g.xy(fog[len(fog) // 2]))
    seen_square = next(
        q for q in range(len(t.area)) if s.revealed[t.area[q]] and s.occupant[q] < 0 and not t.furniture[q]
    )
    seen = add_monster(g, "goblin", *g.xy(seen_square))
    give_item(g, 0, "healing_potion", known=False)
    g.state_edited()
    return g, hidden, seen


def test_monsters_in_the_fog_face_down_cards_and_a_cast_of_an_unread_scroll():
    g, hidden, seen = keep_with_secrets()
    s = g.state
    scroll = give_item(g, 1, next(c.id for c in g.item_cards if c.deck == "spells"), known=False)
    s.casting_item[1], s.casting_spell[1] = scroll, g.spell_index[g.item_cards[s.item_card[scroll]].spell]
    s.cast = [1, int(s.casting_spell[1]), scroll, 0, -1, 0]
    s.effects = [
        [hidden, 0, 1, 2, 0, int(s.unit_uid[hidden])],  # on a fog monster: dropped
        [seen, 0, 1, 2, 0, int(s.unit_uid[seen])],  # in sight: its uid the heroes' number
        [seen, 0, 1, 2, 0, int(s.unit_uid[seen]) + 50],  # no longer live: dropped
        [0, 0, 1, 2, 0, int(s.unit_uid[0])],
    ]
    s.queue = [hidden, seen]
    s.mind_queue = [seen, hidden]
    s.downed_by[2] = [f"m{int(s.unit_uid[hidden])}", f"m{int(s.unit_uid[seen])}", "trap:pit", "m"]
    g.state_edited()
    made, reference = both_views(g, 3)
    assert differences(made, reference) == []
    v = made.state
    assert v.unit_status[hidden] == 0 and v.occupant[s.unit_pos[hidden]] == -1
    assert len(v.effects) == 2 and v.queue == [seen] and v.mind_queue == [seen]
    assert v.casting_spell[1] == len(g.spells) == v.cast[1]  # the placeholder spell
    assert len(v.door_open) < len(s.door_open)


def test_a_fight_a_mental_combat_and_a_controller_in_the_fog():
    g, hidden, seen = keep_with_secrets()
    s = g.state
    for first, index in ((hidden, 1), (seen, 1), (hidden, 2)):
        fights = [[0] * 5 for _ in range(3)]
        for row, (monster, hero) in zip(fights, ((first, 0), (seen, 1), (hidden, 2)), strict=True):
            row[FIGHT_MONSTER], row[FIGHT_HERO], row[FIGHT_M_SPEND] = monster, hero, 1
        s.fights, s.fight_index = fights, index
        s.mental = [0, 0, 2, 0]
        s.mental[MENTAL_AGGRESSOR] = hidden
        s.controller = hidden
        g.state_edited()
        made, reference = both_views(g, index)
        assert differences(made, reference) == []
        v = made.state
        assert all(row[FIGHT_MONSTER] != hidden for row in v.fights)
        assert v.mental == [] and v.controller == -1


def test_room_events_on_the_stack_and_in_the_explore_phase():
    g, hidden, _ = keep_with_secrets()
    s, adv = g.state, g.tables.adventure
    assert len(adv.events) >= 2
    s.event_done[1] = True  # read: the view knows it (as its event 0)
    scroll = give_item(g, 2, next(c.id for c in g.item_cards if c.deck == "spells"), known=False)
    below = [
        [Decision.EVENT_CHOICE, 0, 0, -1],  # an event not read: dropped
        [Decision.EVENT_CHOICE, 0, 1, -1],
        [Decision.CLAIM_ITEM, 1, 1, 0],
        [Decision.CAST_MODE, 2, 5, scroll],  # an unread scroll: the placeholder spell
        [Decision.HERO_ACT, hidden, 0, 0],  # about a fog monster: dropped
    ]
    s.stack = below + [list(row) for row in s.stack]
    s.act_todo = [0, 1]
    g.state_edited()
    made, reference = both_views(g, 0)
    assert differences(made, reference) == []
    assert made.state.stack[:3] == [
        [Decision.EVENT_CHOICE, 0, 0, -1],
        [Decision.CLAIM_ITEM, 1, 0, 0],
        [Decision.CAST_MODE, 2, len(g.spells), scroll],
    ]
    assert made.state.act_todo == [0, 1]  # not the Explore phase's events step: as it is
    s.phase, s.act_step = int(Phase.EXPLORE), 1
    g.state_edited()
    made, reference = both_views(g, 0)
    assert differences(made, reference) == [] and made.state.act_todo == [0]


def test_guards_slain_before_the_heroes_eyes_or_not():
    g = Game.new(adventure=KEEP, heroes=3, seed=0)
    adv = g.tables.adventure
    goal = next(o for o in adv.objectives if o.kind == "slay")
    guard = next(k for k, gd in enumerate(adv.guards) if gd.at == goal.at)
    for killers in (["trap:pit"], ["hero_0"]):
        game = g.copy()
        u = add_monster(game, adv.guards[guard].monster, *game.xy(fog_squares(game)[0]))
        game.state.guard_uid[guard] = game.state.unit_uid[u]
        game.state_edited()
        slay_monster(game, u, killers)
        made, reference = both_views(game, 1)
        assert differences(made, reference) == []
        assert made.state.guard_slain.tolist() == [killers == ["hero_0"]]
        # a knowledge that kept no kills: read from the log
        known = knowledge_of(game, "heroes")
        view = sv.heroes_view_named(
            game, seen=known.monsters_seen(), numbers=known.numbers(), events=known._shown, engine="core"
        )
        assert view.state.guard_slain.tolist() == [killers == ["hero_0"]]


def test_a_playable_view_of_a_core_game_is_made_in_the_core(monkeypatch):
    """``heroes_view_named`` on a core game, playable, does not call the Python ``_redact``."""
    calls = []
    redact = sv._redact
    monkeypatch.setattr(sv, "_redact", lambda *a, **k: calls.append(1) or redact(*a, **k))
    g, _, _ = keep_with_secrets()
    made, reference = both_views(g, 0)
    assert len(calls) == 1 and made.engine == "core"
    assert knowledge_of(g, "heroes").playable_view().state.to_json() == reference.state.to_json()
    assert len(calls) == 1
