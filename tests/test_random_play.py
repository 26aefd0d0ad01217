"""Random play: thousands of complete adventures with random legal decisions, checking the game's
invariants after every single decision and the event-log contract (../shared/DESIGN.md) of every game;
and whole adventures of purposeful play (the scripted agents, now and then a random action), which
reach what random play rarely does.

Invariants checked after every decision:
- figures: every figure on the board (ACTIVE unit or CORPSE) is on its own square, ``state.occupant``
  and ``unit_pos`` agree both ways, nothing stands on furniture or a blockage, and figures off the
  board have no square;
- Health, Stamina and Magic within 0..base; a monster on the board has Health >= 1 (a monster at
  <= 0 has been removed); Light within 0..20 and equal to 20 less the finished turns unless an item
  or spell raised it;
- items are held by heroes (or their corpses) or nobody, never by monsters, at most 12 a hero;
- while the game is not over exactly one agent is asked (``game.agent``) with a non-empty, sorted
  set of legal actions of more than one choice (ruling D-08), for a unit that is on the board and
  belongs to that agent; at sampled decisions every legal action is applied to a copy without error;
- Exhausted iff the rules say: a unit with Stamina 0 (and base Stamina > 0) is Exhausted, an
  Exhausted unit is below its base Stamina, the flag changes only with an ``exhausted`` /
  ``exhaustion_ends`` event, and monsters never regain Stamina (ruling A-35);
- the duty to attack (R-MON-03, A-53 revised 2026-12-06): no monster ends a Movement farther, by
  walking distance, from every hero it could reach than it began, unless it began next to a hero;
- every game ends (completed / failed / truncated) within its turn cap.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from dungeon_env.content import adventure_names, load_heroes
from dungeon_env.engine import N_ACTIONS, Decision, Game, Phase
from dungeon_env.engine.actions import END
from dungeon_env.engine.state import ACTIVE, CORPSE, SIDE_MONSTER
from tests.builders import monster_blocked, monster_walk_field, next_to_hero

N_GAMES = 2_000
CHUNKS = 4
MAX_TURNS = (5, 12)  # the turn cap of each game is drawn from this range (kept small for time)
CHECK_ALL_LEGAL_EVERY = 50  # apply every legal action to a copy at about one decision in this many
MAX_DECISIONS = 20_000  # a game that needs more than this is stuck

ADVENTURES = adventure_names()
ROSTER = list(load_heroes())
UNIT_INFO_KEYS = {"id", "name", "side", "traits", "move", "fight", "health", "stamina", "magic", "damage"}
ROLL_KEYS = {"type", "check", "actor", "dice", "modifiers", "modifier", "total", "result", "turn"}
FIGHT_KEYS = {
    "type",
    "a",
    "b",
    "a_dice",
    "b_dice",
    "a_modifiers",
    "b_modifiers",
    "a_score",
    "b_score",
    "a_total",
    "b_total",
    "winner",
    "turn",
}
RESULTS = {
    "surprise": {"surprised", "ready"},
    "ambush_surprise": {"surprised", "ready"},
    "open_door": {"opened", "failed", "failed_alert"},
    "jump": {"success", "fail"},
    "room_detect": {"success", "fail"},
    "disarm": {"sprung", "failed", "disarmed"},
    "identify": {"never", "not_yet", "identified"},
    "deaths_door": {"dies", "survives"},
    "patrol": {"appears", "none"},
    "overcast": {"forget", "wound", "none"},
    "trait_check": {"success", "fail"},
}
MONSTER_MOVE, FIGHT_STAMINA = int(Decision.MONSTER_MOVE), int(Decision.FIGHT_STAMINA)
DM_DECISIONS = {MONSTER_MOVE, FIGHT_STAMINA, int(Decision.MENTAL_BID)}
ITEM_PHASES = {Phase.HERO_MOVEMENT, Phase.EVASION, Phase.EXPLORE, Phase.TRADE}
PHASE_OF_DECISION = {
    Decision.HERO_MOVE: {Phase.HERO_MOVEMENT},
    Decision.HERO_EVADE: {Phase.EVASION},
    Decision.MONSTER_MOVE: {Phase.MONSTER_MOVEMENT},
    Decision.FIGHT_STAMINA: {Phase.FIGHTING},
    Decision.SPELL_SELECT: {Phase.SPELL_SELECTION},
    Decision.CAST_WHILE_FIGHTING: {Phase.FIGHTING},
    Decision.CAST_MODE: {Phase.SPELL_RESOLUTION, Phase.HERO_MOVEMENT, Phase.EXPLORE},
    Decision.CHOOSE_TARGET: {Phase.SPELL_RESOLUTION} | ITEM_PHASES,
    Decision.MENTAL_BID: {Phase.SPELL_RESOLUTION, Phase.HERO_MOVEMENT, Phase.EXPLORE},
    Decision.EXPLORE_CHOICE: {Phase.EXPLORE},
    Decision.EVENT_CHOICE: {Phase.EXPLORE},
    Decision.CLAIM_ITEM: {Phase.EXPLORE},
    Decision.HERO_ACT: {Phase.EXPLORE, Phase.TRADE},
    Decision.ITEM_VERB: ITEM_PHASES,
    Decision.SPELL_VERB: {Phase.EXPLORE},
    Decision.DISARM: {Phase.HERO_MOVEMENT},
}


class Checker:
    """Checks one game's state after every decision; remembers what it needs between decisions.

    The checks run in plain Python over the used unit slots (cheaper than many tiny numpy calls)."""

    def __init__(self, g: Game) -> None:
        self.g = g
        t = g.tables
        self.obstacles = set(np.flatnonzero(t.furniture | t.blockage).tolist())
        self.prev: dict[int, tuple[bool, int]] = {}  # unit -> (exhausted, stamina) at the last check
        self.hero_agents = [f"hero_{u}" for u in range(g.state.n_heroes)]
        self.n_events = 0
        self.light_raised = False
        self.check()

    def check(self) -> None:
        g, s = self.g, self.g.state
        self._units(g, s)
        self._items(s)
        self._abilities(g, s)
        self.light_raised |= any(e["type"] == "light_raised" for e in g.events[self.n_events :])
        assert 0 <= s.light <= 20
        if self.light_raised:
            assert s.light >= max(0, 20 - s.turn), "Light fell faster than 1 a turn"
        elif s.outcome:
            assert s.light in (max(0, 21 - s.turn), max(0, 20 - s.turn))
        else:
            assert s.light == max(0, 21 - s.turn)
        if s.outcome:
            assert g.agent is None and g.decision is None and g.legal_actions() == []
        else:
            self._decision(g, s)
        self.n_events = len(g.events)

    def _units(self, g: Game, s) -> None:
        n_heroes = s.n_heroes
        status_arr = s.unit_status
        active = np.flatnonzero(status_arr == ACTIVE).tolist()
        corpses = np.flatnonzero(status_arr == CORPSE).tolist()
        on_board = len(active) + len(corpses)
        assert int(np.count_nonzero(s.occupant >= 0)) == on_board, "two figures share a square, or a ghost"
        assert int(np.count_nonzero(s.unit_pos >= 0)) == on_board, "a figure off the board keeps a square"
        occupant = s.occupant
        obstacles, prev = self.obstacles, self.prev
        pos = s.unit_pos.tolist()
        health, base_health = s.health.tolist(), s.base_health.tolist()
        for u in corpses:
            p = pos[u]
            assert p >= 0 and occupant[p] == u and p not in obstacles, f"corpse {u} misplaced"
            assert 0 <= health[u] <= base_health[u]
        stamina, base_stamina = s.stamina.tolist(), s.base_stamina.tolist()
        magic, base_magic = s.magic.tolist(), s.base_magic.tolist()
        exhausted, deaths_door = s.exhausted.tolist(), s.deaths_door.tolist()
        uid = s.unit_uid.tolist()
        for u in active:
            p = pos[u]
            assert p >= 0 and occupant[p] == u, f"occupant and unit_pos disagree for slot {u}"
            assert p not in obstacles, "a figure stands on furniture or a blockage"
            h, st, bst = health[u], stamina[u], base_stamina[u]
            assert 0 <= h <= base_health[u] and 0 <= st <= bst and 0 <= magic[u] <= base_magic[u]
            hero = u < n_heroes
            if hero:
                assert deaths_door[u] == (h == 0), "Death's Door iff a living hero is at 0"
            else:
                assert h >= 1, "a monster at Health <= 0 is still on the board"
            # Exhaustion (R-EXH-01..03, A-35)
            ex = exhausted[u]
            if bst == 0:
                assert not ex, "a unit with no Stamina at all is flagged Exhausted"
            elif st == 0:
                assert ex, "Stamina 0 but not Exhausted"
            elif ex:
                assert st < bst, "Exhausted at full Stamina"
            key = u if hero else 1000 + uid[u]  # monster ids are never reused, slots are
            before = prev.get(key)
            if before is not None:
                if before[0] != ex:
                    self._flag_changed(g, u, ex)
                if not hero:
                    assert st <= before[1], "a monster regained Stamina"
            prev[key] = (ex, st)

    def _flag_changed(self, g: Game, u: int, ex: bool) -> None:
        kind = "exhausted" if ex else "exhaustion_ends"
        name = g.label(u)
        new_events = g.events[self.n_events :]
        assert any(e["type"] == kind and e.get("unit") == name for e in new_events), (kind, name)

    def _items(self, s) -> None:
        """Every item is held by a hero figure (alive, out, or a corpse) or by nobody; never by a
        monster; no hero holds more than 12; identities stay within the catalogue."""
        holders = s.item_holder[s.item_card >= 0]
        held = holders[holders >= 0]
        assert np.all(held < s.n_heroes), "a monster or a free slot holds an item"
        if held.size:
            assert np.bincount(held).max() <= 12, "a hero holds more than 12 items"
        assert np.all(s.item_card < len(self.g.item_cards))

    def _abilities(self, g: Game, s) -> None:
        """An Active ability is used at most its uses an adventure (once a turn for a per-turn one)."""
        for h in range(s.n_heroes):
            card = g.heroes[int(s.unit_card[h])]
            for k in range(s.ability_uses.shape[1]):
                uses = int(s.ability_uses[h, k])
                if k >= len(card.abilities) or not card.abilities[k].active:
                    assert uses == 0, "a Passive ability (or none) was used"
                elif card.abilities[k].limit == "adventure":
                    assert uses <= card.abilities[k].uses, "an ability used more often than its card allows"
                else:
                    assert uses <= s.turn and 0 <= int(s.ability_turn[h, k]) <= s.turn

    def _decision(self, g: Game, s) -> None:
        kind, unit = s.stack[-1][:2]
        legal = g.legal_actions()
        assert len(legal) >= 2, "a decision with one (or no) legal action was asked (ruling D-08)"
        assert legal == sorted(set(legal)) and legal[0] >= 0 and legal[-1] < N_ACTIONS
        assert s.unit_status[unit] == ACTIVE
        assert s.phase in PHASE_OF_DECISION[kind]
        if unit < s.n_heroes:
            assert g.agent == self.hero_agents[unit]
            assert kind != MONSTER_MOVE
        else:
            assert g.agent == "dm" and s.unit_side[unit] == SIDE_MONSTER
            assert kind in DM_DECISIONS

    def all_legal_apply(self) -> None:
        for action in self.g.legal_actions():
            clone = self.g.copy()
            clone.apply(action)


def check_monster_end(g: Game, m: int) -> bool:
    """Monster ``m`` is about to END its Movement: it is not farther from every hero it can reach
    than where it began, unless it began next to a hero (checked by walking distances computed here,
    not by the engine). Returns whether the check applied (some hero reachable, not begun in a fight)."""
    s = g.state
    start, here = int(s.move_from[m]), int(s.unit_pos[m])
    if next_to_hero(g, start):
        return False
    blocked = monster_blocked(g, m)
    heroes = [int(s.unit_pos[h]) for h in range(s.n_heroes) if s.unit_status[h] == ACTIVE]
    began = monster_walk_field(g, m, [start], blocked)
    now = monster_walk_field(g, m, [here], blocked)
    reachable = [q for q in heroes if began[q] < 10**6]
    if not reachable:
        return False
    assert any(now[q] <= began[q] for q in reachable), (g.label(m), g.xy(start), g.xy(here))
    return True


def check_log(g: Game, adventure: str, seed: int, n_heroes: int) -> None:
    """The event-log contract of DESIGN.md, on a finished game."""
    events = g.events
    setup = events[0]
    assert setup["type"] == "setup" and setup["adventure"] == adventure and setup["seed"] == seed
    infos = {}
    assert [u["id"] for u in setup["units"]] == [f"hero_{i}" for i in range(n_heroes)]
    for info in setup["units"]:
        assert set(info) == UNIT_INFO_KEYS and info["side"] == "hero"
        infos[info["id"]] = info
    traits = {u: set(info["traits"]) for u, info in infos.items()}
    last_turn = 1
    for e in events[1:]:
        assert isinstance(e.get("type"), str)
        if "turn" in e:
            assert last_turn <= e["turn"] <= g.max_turns
            last_turn = e["turn"]
        if e["type"] == "spawn":
            info = e["unit"]
            assert set(info) == UNIT_INFO_KEYS and info["side"] == "monster" and info["traits"] == []
            assert info["id"].startswith("m") and info["id"] not in infos
            assert e["how"] in ("guard", "patrol", "ambush", "event")
            infos[info["id"]] = info
            traits[info["id"]] = set()
        elif e["type"] == "roll":
            assert set(e) == ROLL_KEYS
            assert all(1 <= f <= 6 for f in e["dice"]) and len(e["dice"]) >= 1
            assert e["modifier"] == sum(e["modifiers"].values())
            assert e["total"] == sum(e["dice"]) + e["modifier"]
            if e["check"] == "detect_traps":
                assert e["result"] == max(e["total"], 0)  # the squares it reaches (DM-secret)
            else:
                assert e["result"] in RESULTS[e["check"]]
            assert e["actor"] == "dm" or e["actor"] in infos
        elif e["type"] == "fight":
            assert set(e) == FIGHT_KEYS
            a, b = e["a"], e["b"]
            assert infos[a]["side"] != infos[b]["side"]
            for side, unit in (("a", a), ("b", b)):
                dice = e[f"{side}_dice"]
                assert len(dice) == 2 and all(1 <= f <= 6 for f in dice)
                assert e[f"{side}_score"] == infos[unit]["fight"] + sum(e[f"{side}_modifiers"].values())
                assert e[f"{side}_total"] == sum(dice) + e[f"{side}_score"]
            hero_first = infos[a]["side"] == "hero"
            hero, monster = (a, b) if hero_first else (b, a)
            h_total = e["a_total"] if hero_first else e["b_total"]
            m_total = e["b_total"] if hero_first else e["a_total"]
            strong = "strong" in traits[hero]
            expected = hero if h_total > m_total or (h_total == m_total and strong) else None
            expected = monster if m_total > h_total else expected
            assert e["winner"] == expected, e
    end = events[-1]
    assert end["type"] == "end" and end["outcome"] == g.outcome
    assert [e["type"] for e in events].count("end") == 1
    json.dumps(events)  # JSON-serialisable, numpy-free


COUNTED = (
    "fight",
    "death",
    "exit",
    "spawn",
    "corpse_lost",
    "slain",
    "cast",
    "item_used",
    "item_found",
    "trap_sprung",
    "trade",
    "loot",
    "room_event",
    "mental",
    "item_identified",
    "memorize",
    "ability",
)


def play(i: int, stats: dict) -> None:
    rng = random.Random(i)
    adventure = ADVENTURES[i % len(ADVENTURES)]
    n_heroes = 3 + (i // len(ADVENTURES)) % 3
    heroes = rng.sample(ROSTER, n_heroes)
    max_turns = rng.randint(*MAX_TURNS)
    g = Game.new(adventure=adventure, heroes=heroes, seed=i, max_turns=max_turns)
    checker = Checker(g)
    for decisions in range(MAX_DECISIONS):  # noqa: B007
        if g.over:
            break
        if rng.randrange(CHECK_ALL_LEGAL_EVERY) == 0:
            checker.all_legal_apply()
        legal = g.legal_actions()
        action = legal[rng.randrange(len(legal))]
        if action == END and g.decision[0] == MONSTER_MOVE and check_monster_end(g, g.decision[1]):
            stats["monster_ends"] = stats.get("monster_ends", 0) + 1
        g.apply(action)
        checker.check()
    assert g.over, f"game {i} ({adventure}) did not end within {MAX_DECISIONS} decisions"
    assert g.outcome in ("completed", "failed", "truncated")
    assert g.state.turn <= max_turns
    if g.outcome == "truncated":
        assert g.state.turn == max_turns
    check_log(g, adventure, i, n_heroes)
    stats[g.outcome] = stats.get(g.outcome, 0) + 1
    stats["decisions"] = stats.get("decisions", 0) + decisions
    for e in g.events:
        if e["type"] in COUNTED:
            stats[e["type"]] = stats.get(e["type"], 0) + 1


@pytest.mark.slow  # about 30 s on one idle core: 2,000 games, about 600,000 checked decisions
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_play_keeps_every_invariant(chunk):
    stats: dict = {}
    for i in range(chunk, N_GAMES, CHUNKS):
        play(i, stats)
    n = N_GAMES // CHUNKS
    assert sum(stats.get(k, 0) for k in ("completed", "failed", "truncated")) == n
    assert stats.get("monster_ends", 0) > 100, stats  # the duty to attack was checked, often
    # the games really exercised the rules, not just walked about
    for kind in (
        "fight",
        "death",
        "spawn",
        "slain",
        "cast",
        "item_used",
        "item_found",
        "trap_sprung",
        "trade",
        "room_event",
        "item_identified",
        "ability",
    ):
        assert stats.get(kind, 0) > 0, (kind, stats)


def test_monster_with_no_stamina_is_never_exhausted():
    """Regression: a Skeleton (base Stamina 0) spending 0 in a Fight used to become Exhausted."""
    from tests.builders import add_monster, arena_game, enter_phase, place

    g = arena_game()
    m = add_monster(g, "skeleton", 3, 2)
    place(g, 0, 3, 3)
    g.dice.force(3, 3, 3, 3)
    enter_phase(g, Phase.FIGHTING)
    checker = Checker(g)
    g.apply(g.legal_actions()[0])  # the hero spends 0; the Skeleton had nothing to decide
    checker.check()
    assert g.dice.forced_left == 0
    assert not g.state.exhausted[m] and not [e for e in g.events if e["type"] == "exhausted"]


@pytest.mark.parametrize(
    "corrupt, message",
    [
        (lambda s: s.health.__setitem__(0, s.base_health[0] + 1), None),
        (lambda s: s.occupant.__setitem__(0, 1), "two figures share a square"),
        (lambda s: s.stamina.__setitem__(1, 0), "Stamina 0 but not Exhausted"),
        (lambda s: s.exhausted.__setitem__(1, True), "Exhausted at full Stamina"),
        (lambda s: setattr(s, "light", 19), None),
        (lambda s: s.unit_pos.__setitem__(2, s.unit_pos[1]), None),
        (lambda s: s.ability_uses.__setitem__((0, 0), 1), "a Passive ability"),  # Bram's is passive
        (lambda s: s.ability_uses.__setitem__((1, 0), 2), "more often than its card allows"),
    ],
)
def test_checker_catches_broken_states(corrupt, message):
    """The invariant checker is not vacuous: each corrupted state is reported."""
    g = Game.new(adventure=ADVENTURES[0], heroes=3, seed=0)
    checker = Checker(g)
    corrupt(g.state)
    with pytest.raises(AssertionError, match=message):
        checker.check()


def test_random_campaigns_keep_every_invariant():
    """Campaigns of random legal play (a long turn cap, so parties die and are replaced): every game
    passes the same checks, the party never holds a dead hero, the dead only grow, and a lost
    campaign had too few heroes left for every player (R-CAMP-02, R-CAMP-04, R-CAMP-06)."""
    from dungeon_env.engine.campaign import Campaign

    outcomes = set()
    for seed in range(8):
        rng = random.Random(seed)
        campaign = Campaign(heroes=rng.sample(ROSTER, 3), seed=seed, max_turns=400)
        dead_before: set = set()
        while not campaign.over:
            g = campaign.next_game()
            checker = Checker(g)
            while not g.over:
                legal = g.legal_actions()
                g.apply(legal[rng.randrange(len(legal))])
                checker.check()
            check_log(g, g.tables.adventure.id, g.seed, 3)
            campaign.record(g)
            assert dead_before <= campaign.dead
            dead_before = set(campaign.dead)
            assert len(campaign.heroes) == len(set(campaign.heroes)) == 3
            if not campaign.over:
                assert not set(campaign.heroes) & campaign.dead
        if campaign.outcome == "lost":
            assert len(campaign.available()) < sum(h in campaign.dead for h in campaign.heroes)
        outcomes.add(campaign.outcome)
    assert "lost" in outcomes  # the campaign rules were really exercised


DEEP_GAMES = 20  # per adventure: whole adventures, to the turn cap of the rules (100)
DEEP_DEVIATION = (0.0, 0.05, 0.3)  # how often a side plays a random legal action instead


@pytest.mark.slow  # about 4-5 s per adventure on one core
@pytest.mark.parametrize("adventure", ADVENTURES)
def test_purposeful_play_to_the_end_keeps_every_invariant(adventure):
    """Random play rarely gets far into an adventure (its games above are capped at 12 turns): here
    the scripted heroes and DM play whole adventures of 3-5 heroes, each side now and then taking a
    random legal action instead, so the deep states (bosses, quest items, exits, corpses dragged,
    the last hero alone) pass the same checks after every decision, and every log the contract's."""
    from agents.scripted_dm import ScriptedDM
    from agents.scripted_heroes import ScriptedHeroes

    seen: dict[str, int] = {}
    longest = 0
    for k in range(DEEP_GAMES):
        seed = 7_000_000 + 100 * ADVENTURES.index(adventure) + k
        rng = random.Random(seed)
        heroes = rng.sample(ROSTER, 3 + k % 3)
        deviate = {"heroes": rng.choice(DEEP_DEVIATION), "dm": rng.choice(DEEP_DEVIATION)}
        g = Game.new(adventure=adventure, heroes=heroes, seed=seed)
        sides = {"heroes": ScriptedHeroes(game=g, seed=seed), "dm": ScriptedDM(game=g, seed=seed)}
        checker = Checker(g)
        for decisions in range(MAX_DECISIONS):  # noqa: B007
            if g.over:
                break
            side = "dm" if g.agent == "dm" else "heroes"
            if rng.random() < deviate[side]:
                legal = g.legal_actions()
                action = legal[rng.randrange(len(legal))]
            else:
                action = sides[side].choose(g)
            if rng.randrange(CHECK_ALL_LEGAL_EVERY) == 0:
                checker.all_legal_apply()
            g.apply(action)
            checker.check()
        assert g.over, f"{adventure} seed {seed} did not end within {MAX_DECISIONS} decisions"
        check_log(g, adventure, seed, len(heroes))
        seen[g.outcome] = seen.get(g.outcome, 0) + 1
        longest = max(longest, g.state.turn)
        for e in g.events:
            seen[e["type"]] = seen.get(e["type"], 0) + 1
    # whole adventures were played: long games, heroes and monsters dead, every game ended
    assert longest >= 30 and seen.get("slain", 0) > 0 and seen.get("death", 0) > 0, seen
    assert sum(seen.get(k, 0) for k in ("completed", "failed", "truncated")) == DEEP_GAMES
