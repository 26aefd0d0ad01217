"""Side views (issue 11 item 4, ruling D-24): the heroes' view of a game holds nothing heroes may not
know, is a function of what they may know only (twin games give equal views), keeps the real legal
actions, and can be played on; the agents read their side's view and still play every adventure."""

from __future__ import annotations

import copy
import dataclasses
import random

import numpy as np
import pytest

from agents import RandomAgent, ScriptedDM, ScriptedHeroes, SearchAgent
from agents.base import GameAgent
from dungeon_env.content import adventure_names
from dungeon_env.engine import Decision, Game
from dungeon_env.engine import sideview as sv
from dungeon_env.engine.actions import KEEP_CASTING, LET_FAIL
from dungeon_env.engine.dice import Dice
from dungeon_env.engine.game import LOG_CHUNK
from dungeon_env.engine.knowledge import dm_events
from dungeon_env.engine.objectives import objective_met
from dungeon_env.engine.side_knowledge import heroes_view, knowledge_of, side_view
from dungeon_env.engine.sideview import dm_view, view_side
from dungeon_env.engine.state import ACTIVE, MAX_UNITS, SIDE_MONSTER, State
from tests import twins
from tests.builders import add_monster, arena_game, give_item

KEEP = "bandit_keep"  # a secret door, guards, ambushes, a Patrol, traps and room events


def scripted_play(g: Game, decisions: int, seed: int = 0) -> None:
    heroes, dm = ScriptedHeroes(game=g), ScriptedDM(game=g, seed=seed)
    for _ in range(decisions):
        if g.over:
            return
        g.apply((dm if g.agent == "dm" else heroes).choose(g))


def fog_squares(g: Game) -> list[int]:
    s, t = g.state, g.tables
    free = ~s.revealed[t.area] & (s.occupant < 0) & ~t.blockage & ~t.furniture
    return [int(q) for q in np.flatnonzero(free)]


# ------------------------------------------------------------------------------ what the view holds


def test_the_heroes_view_holds_no_hidden_content():
    g = Game.new(adventure=KEEP, heroes=3, seed=0)
    s, t, adv = g.state, g.tables, g.tables.adventure
    names = t.board.area_names
    for area in ("J", "K"):  # both sides of the secret door seen: the door stays undiscovered
        s.revealed[names.index(area)] = True
    secret = next(i for i, d in enumerate(adv.doors) if d.secret)
    assert s.door_hidden[secret]
    fog = fog_squares(g)
    m = add_monster(g, "orc", *g.xy(fog[len(fog) // 2]))
    potion = give_item(g, 0, "healing_potion", known=False)
    scroll = give_item(g, 1, next(c.id for c in g.item_cards if c.deck == "spells"), known=False)
    found = next(i for i, tr in enumerate(adv.traps) if s.revealed[t.area[g.square(*tr.at)]])
    s.trap_detected[found] = True
    g.state_edited()
    v = heroes_view(g)
    vs, vt, va = v.state, v.tables, v.tables.adventure
    assert view_side(v) == "heroes" and view_side(g) is None
    # dice and seed
    assert v.seed is None and v.events == knowledge_of(g, "heroes").events and v.carried is None
    assert v.dice._state != g.dice._state and v.dice._state == Dice(0)._state
    # legal actions are the real ones
    assert v.legal_actions() == g.legal_actions() and v.decision == g.decision
    # traps: the detected one only
    assert (
        va.traps == (adv.traps[found],)
        and vs.trap_armed.tolist() == [True]
        and vs.trap_detected.tolist() == [True]
    )
    # face-down cards: their deck's placeholder, never the real card
    assert v.item_cards[vs.item_card[potion]].id == "unknown_potions"
    assert v.item_cards[vs.item_card[scroll]].id == "unknown_spells"
    assert v.item_cards[vs.item_card[scroll]].spell == sv.PLACEHOLDER_SPELL.id
    deck_cards = vs.deck_cards[vs.deck_cards >= 0]
    assert deck_cards.size and all(v.item_cards[c].id.startswith("unknown_") for c in deck_cards.tolist())
    assert (vs.deck_cards >= 0).sum() == (s.deck_cards >= 0).sum()  # the decks' sizes are public
    # the fog monster: its slot is an empty slot, its square empty
    assert vs.occupant[s.unit_pos[m]] == -1
    for name, blank in sv.UNIT_FIELDS:
        assert getattr(vs, name)[m] == blank, name
    assert not any((vs.unit_side == SIDE_MONSTER) & (vs.unit_status != 0))
    # doors: only those with a revealed side, never the undiscovered secret one
    seen = s.revealed[t.area]
    known = [i for i, (a, b) in enumerate(t.door_squares) if (seen[a] or seen[b]) and not s.door_hidden[i]]
    assert va.doors == tuple(adv.doors[i] for i in known) and secret not in known
    assert len(vs.door_open) == len(vs.door_hidden) == vs.door_tried.shape[1] == vt.n_doors == len(known)
    a, b = t.door_squares[secret]
    d = next(d for d in range(4) if t.neighbor[a, d] == b)
    assert vt.wall[a, d] and vt.edge_door[a, d] == -1  # it looks like a wall
    # furniture and blockages of revealed areas only (or, for a blockage, next to one)
    assert not (vt.furniture & ~seen).any() and not (vt.blockage & ~t.blockage).any()
    # the DM's book
    assert va.ambushes == () and va.patrol == () and va.secret_rooms == ()
    assert len(vs.ambush_fired) == 0 and len(vs.event_done) == len(va.events) == 0
    slay = [o.at for o in adv.objectives if o.kind == "slay"]
    assert [gd.at for gd in va.guards] == slay  # no guard met yet: only the one the quest names
    assert vs.guard_uid.tolist() == [-1] and len(vs.guard_slain) == 1
    assert vs.next_uid == len(va.guards)  # after the heroes' names (none yet) and the known guards' ids
    # the quest names the room of the item to retrieve
    retrieve = next(o for o in va.objectives if o.kind == "retrieve")
    assert retrieve.area == next(e.area for e in adv.events if e.item == retrieve.item)
    # own tables, fresh cache
    assert vt is not t and vt.cache is not t.cache and "sideview.heroes" not in vt.cache


def test_the_dm_view_is_the_game_without_its_future_dice():
    g = Game.new(adventure=KEEP, heroes=3, seed=5)
    scripted_play(g, 40, seed=5)
    v = dm_view(g, seed=3)
    assert view_side(v) == "dm" and v.seed is None and v.dice._state == Dice(3)._state
    assert "seed" not in v.events[0] and "seed" in g.events[0]
    secret = [e for e in g.events if e["type"] == "roll" and e["check"] in ("detect_traps", "room_detect")]
    assert secret and v.events[1:] == [e for e in g.events[1:] if e not in secret]  # no secret die
    assert v.state.equals(g.state) and v.tables is g.tables and v.legal_actions() == g.legal_actions()
    assert side_view(v) is v


def test_the_dm_views_log_follows_the_game_as_it_goes_on_and_when_its_log_is_replaced():
    g = Game.new(adventure=KEEP, heroes=3, seed=5)
    heroes, dm = RandomAgent(seed=1), ScriptedDM(game=g, seed=1)
    for moves in (10, 30, 400):  # each view filters only what came since the last (a cache per game)
        for _ in range(moves):
            g.apply((dm if g.agent == "dm" else heroes).choose(g))
        assert dm_view(g).events == dm_events(g.events_since(0))
    assert g.n_events > 2 * LOG_CHUNK  # the older events read from the compact log's chunks
    twin = g.copy()
    scripted_play(twin, 20, seed=1)
    assert dm_view(twin).events == dm_events(twin.events_since(0)) != dm_view(g).events
    g.events = g.events_since(0)[:5]  # a shorter log put in its place: read anew
    assert dm_view(g).events == dm_events(g.events_since(0))
    assert len(dm_view(g).events) == 5
    view = dm_view(g)
    view.events.append({"type": "note"})  # the view's log is its own
    assert len(dm_view(g).events) == 5


def test_unknown_items_and_spells_read_as_placeholders_and_a_read_scroll_shows_its_spell():
    g = arena_game()
    strong = next(sp for sp in g.spells if sp.level >= 2)
    card = next(c for c in g.item_cards if c.deck == "spells" and c.spell == strong.id)
    slot = give_item(g, 0, card.id, known=False)
    g.state.casting_spell[0], g.state.casting_item[0] = g.spell_index[strong.id], slot
    g.state.health[0] = g.state.base_health[0]
    v = heroes_view(g)
    assert v.spells[v.state.casting_spell[0]] is sv.PLACEHOLDER_SPELL
    heroes = ScriptedHeroes()
    assert heroes.cast_while_fighting(v, 0, [KEEP_CASTING, LET_FAIL]) == LET_FAIL  # not known strong
    g.state.item_known[slot] = True
    v = heroes_view(g)
    assert v.spells[v.state.casting_spell[0]] is strong and v.item_cards[v.state.item_card[slot]] is card
    assert heroes.cast_while_fighting(v, 0, [KEEP_CASTING, LET_FAIL]) == KEEP_CASTING


def test_a_slay_goal_is_met_in_the_view_when_heroes_saw_the_guard_slain():
    from dungeon_env.engine.units import slay_monster

    g = Game.new(adventure=KEEP, heroes=3, seed=0)
    adv = g.tables.adventure
    goal = next(i for i, o in enumerate(adv.objectives) if o.kind == "slay")
    guard = next(k for k, gd in enumerate(adv.guards) if gd.at == adv.objectives[goal].at)
    fog = fog_squares(g)
    for killers in (["trap:pit"], ["hero_0"], ["trap:pit"]):  # copies share a log token: none misleads
        game = g.copy()
        u = add_monster(game, adv.guards[guard].monster, *game.xy(fog[0]))
        game.state.guard_uid[guard] = game.state.unit_uid[u]
        slay_monster(game, u, killers)
        assert objective_met(game, goal)
        assert objective_met(heroes_view(game), goal) == (killers == ["hero_0"])


def test_the_view_keeps_the_real_legal_actions_and_can_be_played_on():
    """Scripted play on every adventure: at every hero decision the view's legal actions are the
    game's, a copy of the view (which computes them from its own state) finds the same ones, and
    every so often a copy is played on, with dice of its own, by the scripted agents."""
    rng = random.Random(0)
    for adventure, g, n in scripted_hero_decisions(seed=1, decisions=250):
        v = heroes_view(g)
        assert v.legal_actions() == g.legal_actions()
        copy = v.copy()
        assert copy.legal_actions() == g.legal_actions(), (adventure, g.state.turn, g.decision)
        if n % 40 == 0:
            copy.dice = Dice(rng.getrandbits(31))
            scripted_play(copy, 150)
        memo = g.tables.cache["sideview.heroes"]
        assert 0 < len(memo) <= sv.VIEW_MEMO_SIZE


def test_the_heroes_tables_found_by_the_state_fields_are_those_of_the_public_configuration():
    """The heroes' tables are found first by the state fields their public configuration is made of
    (``sideview._hero_tables``): at every hero decision of scripted play they hold what the tables
    built from the configuration itself hold (``_public_tables``), and the core's board arrays
    made with them are those of their sides."""
    for adventure, g, _ in scripted_hero_decisions(seed=3, decisions=250):
        found, built = sv._hero_tables(g), sv._public_tables(g)
        for name in ("doors", "traps", "guards", "events", "event_map"):
            assert np.array_equal(getattr(found, name), getattr(built, name)), (adventure, name)
        for name in ("wall", "edge_door", "furniture", "blockage", "patrol_rooms"):
            assert np.array_equal(getattr(found.tables, name), getattr(built.tables, name)), (adventure, name)
        assert found.tables.adventure == built.tables.adventure
        # the core's board arrays, derived from the real board's, are the view's sides converted whole
        sides = np.asarray(found.tables.sides, dtype=np.int32)
        side_to, side_door, furniture, blockage = found.tables.cache["core.board_arrays"]
        assert np.array_equal(side_to, sides[:, :, 0]) and np.array_equal(side_door, sides[:, :, 1])
        assert side_to.dtype == side_door.dtype == np.int32 and side_to.flags.c_contiguous
        assert np.array_equal(furniture, found.tables.furniture)
        assert np.array_equal(blockage, found.tables.blockage)


def scripted_hero_decisions(seed: int, decisions: int):
    """``(adventure, game, n)`` at every hero decision among the first ``decisions`` of a scripted
    game of each adventure (``n``: the decisions played before); the game goes on once it is
    handed back."""
    for adventure in adventure_names():
        g = Game.new(adventure=adventure, heroes=3, seed=seed)
        heroes, dm = ScriptedHeroes(game=g), ScriptedDM(game=g, seed=seed)
        for n in range(decisions):
            if g.over:
                break
            if g.agent != "dm":
                yield adventure, g, n
            g.apply((dm if g.agent == "dm" else heroes).choose(g))


def test_a_read_only_heroes_view_is_the_playable_view_sharing_the_games_state_without_changing_it():
    """Scripted play on every adventure: at every hero decision the read-only view
    (``playable=False``, which shares the game's arrays) holds exactly what the playable view holds,
    building and reading it leaves the game as it was, it refuses to be played on, and its copies
    (shallow or deep) are playable games of their own."""
    for adventure, g, n in scripted_hero_decisions(seed=2, decisions=200):
        before = g.state.copy()
        shared, playable = heroes_view(g, playable=False), heroes_view(g)
        assert twins.view_digest(shared) == twins.view_digest(playable), (adventure, g.state.turn, g.decision)
        assert g.state.equals(before)
        with pytest.raises(ValueError, match="for reading only"):
            shared.apply(shared.legal_actions()[0])
        if n % 25 == 0:
            for other in (shared.copy(), copy.deepcopy(shared)):
                assert not other.read_only
                scripted_play(other, 40)
            assert g.state.equals(before)


# ------------------------------------------------------------------------------ twin games

# Twin games give equal heroes' views: tests/test_hidden_information.py's scripted twin games compare
# the digest of the view the scripted heroes are handed at every decision (``twins.view_digest``).


# ------------------------------------------------------------------------------ the agents


def test_game_agents_are_handed_their_sides_view():
    seen = []

    class Spy(GameAgent):
        def choose(self, game):
            seen.append((game.agent, view_side(game)))
            return game.legal_actions()[0]

    g = Game.new(adventure=KEEP, heroes=3, seed=2)
    spy = Spy(game=g)
    for _ in range(300):
        if g.over:
            break
        g.apply(spy.act())
    assert {side for agent, side in seen if agent == "dm"} == {"dm"}
    assert {side for agent, side in seen if agent != "dm"} == {"heroes"}
    assert any(agent == "dm" for agent, _ in seen)


def test_scripted_heroes_choose_alike_from_the_game_and_from_its_view():
    g = Game.new(adventure=KEEP, heroes=3, seed=4)
    heroes, dm = ScriptedHeroes(game=g), ScriptedDM(game=g, seed=4)
    other = ScriptedHeroes()
    for _ in range(500):
        if g.over:
            break
        if g.agent == "dm":
            g.apply(dm.choose(g))
            continue
        action = heroes.choose(g)
        assert other.choose(heroes_view(g)) == action
        g.apply(action)


@pytest.mark.parametrize("adventure", adventure_names())
def test_agents_play_whole_games_on_their_sides_views(adventure):
    """Scripted heroes and DM through ``act`` (views), then the search agent for each side against
    the scripted other side, in short games."""
    g = Game.new(adventure=adventure, heroes=3, seed=7)
    heroes, dm = ScriptedHeroes(game=g), ScriptedDM(game=g, seed=7)
    while not g.over:
        g.apply((dm if g.agent == "dm" else heroes).act(None, None))
    assert g.outcome in ("completed", "failed", "truncated")
    for side in ("heroes", "dm"):
        g = Game.new(adventure=adventure, heroes=3, seed=8, max_turns=4)
        search = SearchAgent(game=g, seed=1, rollouts=2, depth=15)
        other = ScriptedDM(game=g, seed=8) if side == "heroes" else ScriptedHeroes(game=g)
        while not g.over:
            mine = (g.agent == "dm") == (side == "dm")
            g.apply((search if mine else other).act(None, None))
        assert g.outcome in ("completed", "failed", "truncated")


def test_a_random_agent_reads_the_legal_actions_of_a_view():
    g = Game.new(adventure=KEEP, heroes=3, seed=1)
    agent = RandomAgent(seed=0)
    for _ in range(200):
        if g.over:
            break
        assert agent.choose(side_view(g)) in g.legal_actions()
        g.apply(agent.choose(g))


def test_a_view_of_a_game_with_every_monster_in_sight_keeps_them_all():
    g = Game.new(adventure=KEEP, heroes=3, seed=3)
    scripted_play(g, 300, seed=3)
    s = g.state
    v = heroes_view(g)
    seen = [
        u
        for u in range(s.n_heroes, MAX_UNITS)
        if s.unit_status[u] == ACTIVE
        and s.unit_side[u] == SIDE_MONSTER
        and s.revealed[g.tables.area[s.unit_pos[u]]]
    ]
    for u in seen:
        assert v.state.unit_status[u] == ACTIVE and v.state.health[u] == s.health[u]
        assert v.state.occupant[s.unit_pos[u]] == u
        assert v.label(u) == knowledge_of(g, "heroes").name(u)  # the heroes' name of it
    assert isinstance(v.state, State) and v.decision == g.decision
    if g.decision and g.decision[0] == Decision.CHOOSE_TARGET:
        assert sv.target_candidates(v) is not None


def test_the_board_as_heroes_know_it_traces_no_sight_line_until_one_is_read(monkeypatch):
    """The search scores its views by the way out (``rewards.exit_distances``), which builds the
    heroes' tables of a view for their paths alone: no sight line is traced for them until one is
    read, and then the rows read are those of the view's own line of sight."""
    from dungeon_env.rewards import exit_distances

    g = Game.new(adventure=KEEP, heroes=3, seed=4)
    scripted_play(g, 40)
    view = heroes_view(g)
    scripted_play(view, 30, seed=1)  # the view plays on: a board of its own to know
    sq = int(view.state.unit_pos[0])
    seen_in_view = view.tables.los_static[sq], view.tables.los_doors[sq] != 0
    traced = []
    real_param = sv._los_param

    def los_param(t):
        if "sideview.los" not in t.cache:
            traced.append(t)  # a table of sight lines traced for a board
        return real_param(t)

    monkeypatch.setattr(sv, "_los_param", los_param)
    tables = sv.heroes_tables(view)
    assert tables is not view.tables
    exit_distances(view)
    assert traced == []
    assert np.array_equal(tables.los_static[sq], seen_in_view[0])
    assert np.array_equal(tables.los_doors[sq] != 0, seen_in_view[1])
    assert traced == [view.tables]  # traced once, when first read


@pytest.mark.parametrize("adventure", adventure_names())
def test_the_heroes_board_steps_are_those_of_its_own_walls_and_doors(adventure):
    """``heroes_tables(g).sides`` (every square's step and door in each direction, which movement
    and paths read) and its ``passages`` (the steps not into a blockage, which the scripted heroes'
    paths read) are built from the real board's by redoing the squares with a door edge or next to a
    blockage: they are what a whole build from the heroes' walls, doors and blockages gives, as
    doors become known and open."""
    from dungeon_env.engine.tables import _sides, passages

    g = Game.new(adventure=adventure, heroes=3, seed=11)
    checked, unknown_doors = set(), 0
    for _ in range(12):
        tables = sv.heroes_tables(g)
        if id(tables) not in checked:
            checked.add(id(tables))
            assert tables.sides == _sides(tables.neighbor, tables.wall, tables.edge_door)
            assert passages(tables) == passages(dataclasses.replace(tables, cache={}))
            unknown_doors += tables.sides != g.tables.sides  # an unknown door is a wall to the heroes
        scripted_play(g, 40)
    assert len(checked) >= 3 and unknown_doors >= 1  # the board as heroes know it changed along the way
