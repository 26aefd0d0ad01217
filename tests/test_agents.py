"""The agents of issue 5: legal actions only, through the engine, the AEC env and RoleEnv; the
scripted heroes beat the random DM far more often than random heroes; the scripted DM is harder than
a random one; the search agent keeps to its budget and is deterministic; PolicyAgent loads a
checkpoint."""

from __future__ import annotations

import numpy as np
import pytest

import agents
import dungeon_env
from agents import IllegalChoiceError, PolicyAgent, RandomAgent, ScriptedDM, ScriptedHeroes, SearchAgent
from dungeon_env.content import adventure_names, load_heroes
from dungeon_env.engine import ACTION_NAMES, N_ACTIONS, Game
from dungeon_env.engine.actions import END, EXTRA_MOVE, Action
from dungeon_env.engine.state import CORPSE, CORPSE_OUT, EXITED, GONE
from dungeon_env.wrappers import RoleEnv

MOVE_S = int(Action.MOVE_S)  # a step (or an Evade step) south
ADVENTURE = "flooded_cellar"


class Checked:
    """Wraps an agent and asserts that every action it returns is allowed by the mask."""

    def __init__(self, agent) -> None:
        self.agent, self.calls = agent, 0

    def seed(self, seed) -> None:
        if hasattr(self.agent, "seed"):
            self.agent.seed(seed)

    def act(self, observation, action_mask) -> int:
        action = self.agent.act(observation, action_mask)
        assert isinstance(action, int) and action_mask[action], (action, np.flatnonzero(action_mask))
        self.calls += 1
        return action


def play_engine(adventure, seed, heroes_kind, dm_kind, n_heroes=3, max_turns=100) -> Game:
    g = Game.new(adventure=adventure, heroes=n_heroes, seed=seed, max_turns=max_turns)
    heroes = ScriptedHeroes(game=g) if heroes_kind == "scripted" else RandomAgent(seed)
    dm = ScriptedDM(game=g, seed=seed) if dm_kind == "scripted" else RandomAgent(seed + 10**6)
    while not g.over:
        legal = g.legal_actions()
        action = (dm if g.agent == "dm" else heroes).choose(g)
        assert action in legal
        g.apply(action)
    return g


def test_make_resolves_every_name():
    assert isinstance(agents.make("random", seed=1), RandomAgent)
    assert isinstance(agents.make("scripted_heroes"), ScriptedHeroes)
    assert isinstance(agents.make("scripted_dm", seed=0), ScriptedDM)
    assert type(agents.make("scripted_heroes_v2")) is agents.ScriptedHeroesV2
    assert type(agents.make("scripted_dm_v2", seed=0)) is agents.ScriptedDMV2
    assert isinstance(agents.make("search", rollouts=4), SearchAgent)
    with pytest.raises(TypeError, match="path"):  # no policy ships: a checkpoint file is needed
        agents.make("policy", role="heroes")
    with pytest.raises(ValueError, match="unknown agent"):
        agents.make("nobody")
    for name in ("random", "scripted_heroes", "scripted_dm", "search"):
        assert isinstance(agents.make(name), agents.Agent)


def test_game_agent_without_a_game_says_how_to_give_one():
    with pytest.raises(RuntimeError, match="bind"):
        ScriptedDM().act(np.zeros(3), np.ones(76, np.int8))


@pytest.mark.parametrize("adventure", ["flooded_cellar", "goblin_warrens", "warlocks_crypt"])
def test_scripted_agents_pick_legal_actions_in_the_aec_env(adventure):
    """Every decision of several whole games, 3-5 heroes, through the PettingZoo env."""
    for seed, n in ((0, 3), (1, 4), (2, 5)):
        env = dungeon_env.env(adventure=adventure, heroes=n, max_turns=40)
        heroes, dm = Checked(ScriptedHeroes(env=env)), Checked(ScriptedDM(env=env, seed=seed))
        env.reset(seed=seed)
        for name in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step((dm if name == "dm" else heroes).act(obs["observation"], obs["action_mask"]))
        assert heroes.calls > 0 and dm.calls > 0


@pytest.mark.parametrize("role", ["heroes", "dm"])
def test_agents_pick_legal_actions_through_role_env(role):
    """Scripted opponents bound to a RoleEnv (new game at each reset), the side played by a scripted
    agent or a random one: no episode ends by an illegal action."""
    opponent = ScriptedDM(seed=0) if role == "heroes" else ScriptedHeroes()
    checked = Checked(opponent)
    env = RoleEnv(role=role, opponent=checked, adventure=ADVENTURE, heroes=3, max_turns=30)
    opponent.bind(env=env)
    me = ScriptedHeroes(env=env) if role == "heroes" else ScriptedDM(env=env, seed=1)
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        player = me if episode < 2 else RandomAgent(episode)
        done = False
        while not done:
            mask = env.action_masks()
            action = player.act(obs, mask.astype(np.int8))
            assert mask[action]
            obs, _, term, trunc, info = env.step(action)
            done = term or trunc
        assert info["outcome"] in ("completed", "failed", "truncated")
    assert checked.calls > 0


def test_random_agent_is_legal_and_reproducible():
    mask = np.zeros(76, np.int8)
    mask[[3, 13, 40]] = 1
    a, b = RandomAgent(5), RandomAgent(5)
    picks = [a.act(None, mask) for _ in range(50)]
    assert picks == [b.act(None, mask) for _ in range(50)]
    assert set(picks) == {3, 13, 40}


def test_scripted_heroes_beat_the_random_dm_far_more_often_than_random_heroes():
    """Measured: scripted heroes complete 40/40 against the random DM, random heroes 0/40."""
    n = 16
    scripted = sum(play_engine(ADVENTURE, s, "scripted", "random").outcome == "completed" for s in range(n))
    randoms = sum(
        play_engine(ADVENTURE, s, "random", "random", max_turns=60).outcome == "completed" for s in range(n)
    )
    assert scripted >= 0.75 * n
    assert scripted - randoms >= 0.5 * n


def test_the_scripted_dm_is_harder_than_a_random_one():
    """Measured on 40 seeds (scripted heroes reading the heroes' view, issue 11): 46 hero deaths
    against the scripted DM, 19 against the random DM; both complete 40/40 (before the heroes read
    only their side: 35/40 and 40/40)."""
    n = 40
    games = {
        dm: [play_engine(ADVENTURE, s, "scripted", dm) for s in range(n)] for dm in ("scripted", "random")
    }
    completed = {dm: sum(g.outcome == "completed" for g in gs) for dm, gs in games.items()}
    deaths = {
        dm: sum(int(st) in (CORPSE, CORPSE_OUT, GONE) for g in gs for st in g.state.unit_status[:3])
        for dm, gs in games.items()
    }
    assert completed["scripted"] <= completed["random"]
    assert deaths["scripted"] > 1.5 * deaths["random"], deaths


def _mid_game(seed: int, decisions: int = 60) -> Game:
    """A game some way in (scripted play), at a decision with a real choice."""
    g = Game.new(adventure=ADVENTURE, heroes=3, seed=seed, max_turns=100)
    heroes, dm = ScriptedHeroes(game=g), ScriptedDM(game=g, seed=seed)
    for _ in range(decisions):
        g.apply((dm if g.agent == "dm" else heroes).choose(g))
    return g


@pytest.mark.parametrize("rollout", ["scripted", "random"])
def test_search_agent_is_legal_within_budget_and_deterministic(rollout):
    for seed in (0, 1):
        g = _mid_game(seed)
        assert not g.over and len(g.legal_actions()) > 1
        first = SearchAgent(game=g, seed=3, rollouts=6, depth=60, rollout=rollout)
        second = SearchAgent(game=g.copy(), seed=3, rollouts=6, depth=60, rollout=rollout)
        before = g.state.copy()
        a = first.act(None, np.isin(np.arange(76), g.legal_actions()).astype(np.int8))
        assert a in g.legal_actions()
        assert g.state.equals(before)  # the search works on copies only
        done, visits = first.last_stats["rollouts"], first.last_stats["visits"]
        assert 1 <= done <= 6 and sum(visits.values()) == done  # at most the budget, one root visit each
        assert second.choose(second.game) == a


def test_search_agent_respects_a_time_budget_and_plays_either_side(monkeypatch):
    import itertools
    from types import SimpleNamespace

    import agents.search

    ticks = itertools.count()  # a fake clock for the search: 40 ms pass at every reading
    monkeypatch.setattr(agents.search, "time", SimpleNamespace(perf_counter=lambda: 0.04 * next(ticks)))
    g = _mid_game(2)
    agent = SearchAgent(game=g, seed=0, rollouts=10**6, seconds=0.3, depth=60)
    for _ in range(4):  # both sides' decisions as they come
        if g.over:
            break
        legal = g.legal_actions()
        action = agent.choose(g)
        assert action in legal
        if len(legal) > 1:  # one iteration always, then one per reading in budget (0.04 .. 0.28 s)
            assert agent.last_stats["rollouts"] == 1 + 7
        g.apply(action)


def test_policy_agent_plays_a_checkpoint(tmp_path):
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    env = RoleEnv(role="dm", opponent="random", adventure=ADVENTURE, heroes=3, max_turns=10)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, policy_kwargs={"net_arch": [16]}, seed=0)
    model.learn(total_timesteps=32)
    path = tmp_path / "dm.zip"
    model.save(path)
    agent = PolicyAgent(path=path, role="dm")
    heroes = RoleEnv(role="heroes", opponent=Checked(agent), adventure=ADVENTURE, heroes=3, max_turns=10)
    obs, _ = heroes.reset(seed=0)
    rng, done = np.random.default_rng(0), False
    while not done:
        obs, _, term, trunc, info = heroes.step(int(rng.choice(np.flatnonzero(heroes.action_masks()))))
        done = term or trunc
    assert info["outcome"] in ("completed", "failed", "truncated")
    with pytest.raises(FileNotFoundError, match="nowhere.zip"):
        PolicyAgent(path=tmp_path / "nowhere.zip")


def test_a_game_agent_whose_choice_the_mask_forbids_raises_instead_of_playing_something_else():
    """No fallback hides a bug: a scripted agent reading another game than the env's is caught."""
    env = dungeon_env.env(adventure=ADVENTURE, heroes=3)
    env.reset(seed=1)
    other = Game.new(adventure=ADVENTURE, heroes=3, seed=1)
    agent = ScriptedHeroes(game=other)
    obs = env.observe(env.agent_selection)
    choice = agent.choose(other)
    mask = np.zeros_like(obs["action_mask"])
    mask[(choice + 1) % len(mask)] = 1
    with pytest.raises(IllegalChoiceError, match="does not allow"):
        agent.act(obs["observation"], mask)


class StubbornDM(ScriptedDM):
    """A deliberately bad agent: it ends every monster's move, legal or not."""

    def choose(self, game: Game) -> int:
        return END


def _dm_decision_without_end() -> Game:
    """A game at a DM decision whose legal actions do not include END."""
    for seed in range(40):
        g = Game.new(adventure=ADVENTURE, heroes=3, seed=seed, max_turns=100)
        heroes, dm = ScriptedHeroes(game=g), ScriptedDM(game=g, seed=seed)
        while not g.over:
            if g.agent == "dm" and END not in g.legal_actions():
                return g
            g.apply((dm if g.agent == "dm" else heroes).choose(g))
    raise AssertionError("no DM decision without END in 40 games")


def test_a_bad_agent_raises_naming_itself_the_decision_and_the_legal_actions():
    """GameAgent.act never swaps an illegal choice for a legal one, with a mask or without."""
    g = _dm_decision_without_end()
    agent, legal = StubbornDM(game=g), g.legal_actions()
    mask = np.isin(np.arange(N_ACTIONS), legal).astype(np.int8)
    kind = g.decision[0].name.lower()
    for given in (mask, None):
        with pytest.raises(IllegalChoiceError) as info:
            agent.act(None, given)
        message = str(info.value)
        assert message.startswith(f"StubbornDM chose action {END} (end) for dm")
        assert f"at decision {kind}, which the decision does not allow" in message
        assert all(f"{a} ({ACTION_NAMES[a]})" in message for a in legal)


def test_a_gap_in_the_scripted_heroes_raises_instead_of_ending_the_move():
    """A rule that finds no legal action is an error naming the decision, not an END or STAY."""

    class Gap(ScriptedHeroes):
        def explore_choice(self, g, h, legal):
            return None

    g = Game.new(adventure=ADVENTURE, heroes=3, seed=0, max_turns=100)
    heroes, dm = Gap(game=g), ScriptedDM(game=g, seed=0)
    with pytest.raises(IllegalChoiceError, match="at decision explore_choice.*a gap in it"):
        while not g.over:
            g.apply((dm if g.agent == "dm" else heroes).choose(g))


@pytest.mark.parametrize("adventure", adventure_names())
def test_scripted_heroes_find_a_legal_action_at_every_decision(adventure):
    """30 games per adventure against the scripted DM, random parties of 3-5 heroes, short games: the
    script never meets a decision it has no rule for (it would raise IllegalChoiceError)."""
    roster = list(load_heroes())
    rng = np.random.default_rng(len(adventure))
    for seed in range(30):
        party = [str(h) for h in rng.choice(roster, size=3 + seed % 3, replace=False)]
        g = Game.new(adventure=adventure, heroes=party, seed=seed, max_turns=12)
        heroes, dm = ScriptedHeroes(game=g, seed=seed), ScriptedDM(game=g, seed=seed)
        while not g.over:
            g.apply((dm if g.agent == "dm" else heroes).choose(g))


@pytest.mark.parametrize("adventure", ["flooded_cellar", "goblin_warrens"])
def test_runaway_dm_plays_legal_games_and_the_rules_make_it_fight(adventure):
    """The stress-test DM flees as far as the legal actions allow; under the duty to attack
    (R-MON-03) its monsters still fight: Fights happen and no game is stalled to the turn cap."""
    from agents import RunawayDM

    fights = 0
    for seed in range(4):
        g = Game.new(adventure=adventure, heroes=3, seed=seed, max_turns=100)
        heroes, dm = ScriptedHeroes(game=g), RunawayDM(game=g, seed=seed)
        while not g.over:
            agent = dm if g.agent == "dm" else heroes
            action = agent.choose(g)
            assert action in g.legal_actions()
            g.apply(action)
        fights += sum(e["type"] == "fight" for e in g.events)
        assert g.outcome != "truncated"
    assert fights > 0


def hero_0_in_corridor_a():
    """An arena game at hero_0's Movement, hero_0 in corridor a with no monster in sight."""
    from tests.builders import arena_game, place

    g = arena_game()
    place(g, 0, 8, 0)  # in corridor a, free to walk on east towards the exit
    return g


def movement_choice(g) -> int:
    """The scripted heroes' choice at hero_0's Movement, once the position edited by hand is
    taken in and hero_0 is checked to be free to walk on."""
    g.state_edited()
    assert g.agent == "hero_0" and "move_e" in [ACTION_NAMES[a] for a in g.legal_actions()]
    return ScriptedHeroes(game=g).choose(g)


@pytest.mark.parametrize(
    ("state", "rests"),
    [
        ({}, False),
        ({"health": 1}, False),  # badly hurt: Rest restores no Health (R-REST-03, A-36), so it walks on
        ({"exhausted": True}, True),
        ({"stamina": 1}, True),
        ({"health": 0, "deaths_door": True}, True),  # a Rested hero skips the Death's Door roll (R-REST-06)
    ],
)
def test_scripted_heroes_rest_only_when_resting_brings_something(state, rests):
    """At its Movement with no monster in sight, a scripted hero ends its Movement at once (to Rest)
    exactly when Rest gives it something: Stamina, or the skipped Death's Door roll."""
    from tests.builders import set_unit

    g = hero_0_in_corridor_a()
    set_unit(g, 0, **state)
    choice = movement_choice(g)
    assert (choice == END) is rests, ACTION_NAMES[choice]


@pytest.mark.parametrize(
    ("comrades", "rests"),
    [
        ("in the dungeon", True),  # one of them may bring a potion or a healing spell
        ("out", False),  # nobody left to heal it: walking out ends the adventure, live or die
        ("at Death's Door too", False),  # neither can heal the other: both would rest for ever
    ],
)
def test_scripted_hero_at_deaths_door_rests_only_while_a_comrade_could_heal_it(comrades, rests):
    """Rest skips the Death's Door roll (R-REST-06) but restores no Health (R-DMG-08): a hero at
    Death's Door rests while a comrade who is not still walks the dungeon, else it walks on."""
    from dungeon_env.engine.movement import leave_dungeon
    from tests.builders import set_unit

    g = hero_0_in_corridor_a()
    set_unit(g, 0, health=0, deaths_door=True)
    if comrades == "out":
        leave_dungeon(g, 1)
        leave_dungeon(g, 2)
    elif comrades == "at Death's Door too":
        leave_dungeon(g, 2)
        set_unit(g, 1, health=0, deaths_door=True)
    choice = movement_choice(g)
    assert (choice == END) is rests, ACTION_NAMES[choice]


@pytest.mark.parametrize(
    ("monsters", "health", "steps_away"),
    [
        (2, 1.0, False),  # healthy: it holds, else it would step in and out again every turn
        (2, 0.4, True),  # hurt and outnumbered
        (3, 1.0, True),  # three on it
        (1, 0.15, True),  # a lost Fight could finish it (Health 2 or less)
    ],
)
def test_scripted_hero_evades_only_when_in_danger(monsters, health, steps_away):
    """In the Evasion phase a scripted hero steps away from three monsters, from two while it is
    hurt, or from any when a lost Fight could finish it; healthy against two, it stays."""
    from dungeon_env.engine import Decision, Phase
    from dungeon_env.engine.actions import MOVE_ACTIONS
    from tests.builders import add_monster, arena_game, enter_phase, place, play_to, set_unit

    g = arena_game()
    place(g, 0, 10, 10)  # in room B, with the square south of it free of monsters around
    for x, y in [(10, 9), (9, 10), (11, 10)][:monsters]:
        add_monster(g, "goblin", x, y)
    set_unit(g, 0, health=max(1, round(health * int(g.state.base_health[0]))))
    enter_phase(g, Phase.EVASION)
    play_to(g, Decision.HERO_EVADE, 0)
    choice = ScriptedHeroes(game=g).choose(g)
    assert (choice in MOVE_ACTIONS) is steps_away, ACTION_NAMES[choice]


SHRINE = '[[objective]]\nkind = "reach"\ntext = "Find the shrine in room K."\narea = "K"\nprimary = true\n'


def hero_0_by_the_exit_with_a_goblin_on_it(tmp_path, goals_in_hand: bool):
    """An arena game at hero_0's Movement: hero_0 in the corridor three squares north of the exit
    (23, 27), a goblin next to it to the north; the goals in hand (the arena's one goal is to get
    out), or a primary goal still to do (a room to reach)."""
    from tests.builders import ARENA, add_monster, arena_game, arena_variant, place

    adventure = ARENA if goals_in_hand else arena_variant(tmp_path, "shrine_arena", SHRINE)
    g = arena_game(adventure=adventure)
    place(g, 0, 23, 24)
    add_monster(g, "goblin", 23, 23)
    g.state_edited()
    return g


@pytest.mark.parametrize("goals_in_hand", [True, False])
def test_scripted_hero_with_the_goals_in_hand_walks_out_past_the_monster_on_it(tmp_path, goals_in_hand):
    """With the goals in hand and the exit within its Movement, a hero leaves rather than fight
    the monster next to it: the way out ends the adventure for it. With a goal still to do, the
    monster next to it is fought first (it stays)."""
    g = hero_0_by_the_exit_with_a_goblin_on_it(tmp_path, goals_in_hand)
    assert g.agent == "hero_0" and MOVE_S in g.legal_actions()
    heroes = ScriptedHeroes(game=g)
    choice = heroes.choose(g)
    if not goals_in_hand:
        assert choice != MOVE_S, ACTION_NAMES[choice]
        return
    assert choice == MOVE_S, ACTION_NAMES[choice]
    while g.decision is not None and g.agent == "hero_0":
        g.apply(heroes.choose(g))
    assert g.state.unit_status[0] == EXITED


@pytest.mark.parametrize("goals_in_hand", [True, False])
def test_scripted_hero_with_the_goals_in_hand_evades_towards_the_exit(tmp_path, goals_in_hand):
    """In the Evasion phase a hero with the goals in hand steps towards the exit (2 Stamina a
    square) even when not in danger; with a goal still to do, a healthy hero next to one monster
    holds (``test_scripted_hero_evades_only_when_in_danger``)."""
    from dungeon_env.engine import Decision, Phase
    from tests.builders import enter_phase, play_to

    g = hero_0_by_the_exit_with_a_goblin_on_it(tmp_path, goals_in_hand)
    enter_phase(g, Phase.EVASION)
    play_to(g, Decision.HERO_EVADE, 0)
    choice = ScriptedHeroes(game=g).choose(g)
    assert (choice == MOVE_S) is goals_in_hand, ACTION_NAMES[choice]


def test_scripted_heroes_in_single_file_hand_control_to_the_comrade_in_the_way():
    """Heroes move one at a time, in index order unless control is handed on (ruling D-04): a hero
    whose next square holds a comrade still to move hands that comrade control instead of ending
    its Movement where it stands, and is handed it back once the way is clear, so the whole file
    walks on its full Movement (and the squares it buys)."""
    from dungeon_env.content.model import WIDTH
    from dungeon_env.engine import Decision
    from dungeon_env.engine.actions import HANDOFF_ACTIONS
    from tests.builders import place

    g = hero_0_in_corridor_a()
    place(g, 1, 9, 0)
    place(g, 2, 10, 0)  # hero_0, hero_1, hero_2 in a file in corridor a, the exit to the east
    heroes = ScriptedHeroes(game=g)
    assert heroes.choose(g) == HANDOFF_ACTIONS[1]
    start = [int(g.state.unit_pos[h]) for h in range(3)]
    while g.decision[0] == Decision.HERO_MOVE:
        g.apply(heroes.choose(g))
    walked = [(int(g.state.unit_pos[h]) - start[h]) % WIDTH for h in range(3)]
    allowance = [int(g.state.base_move[h] + g.state.move_bought[h]) for h in range(3)]
    assert walked == allowance, (walked, allowance)


def test_scripted_heroes_hand_control_only_to_a_comrade_on_the_way_not_behind_a_wall():
    """The comrade in the way is on the hero's next square towards its target, with no wall or
    closed door between them: hero_0 in corridor a at (5, 0), the one open square nearer the exit
    taken by a comrade who has moved; the comrade behind the wall to the south, in room A, nearer
    the exit by path, is not in the way."""
    from dungeon_env.engine.side_knowledge import heroes_view
    from tests.builders import place

    g = hero_0_in_corridor_a()
    place(g, 0, 5, 0)
    place(g, 1, 5, 1)  # behind the wall, nearer the exit by path
    place(g, 2, 6, 0)  # the open square nearer the exit: a comrade who has moved
    g.state.move_done[2] = True
    g.state_edited()
    view = heroes_view(g)
    heroes = ScriptedHeroes(game=view)
    heroes._now = {}
    goal, _ = heroes.goal_targets(view)
    dist = heroes.distances(view, goal)
    here, behind_wall = view.square(5, 0), view.square(5, 1)
    assert dist[behind_wall] < dist[here]  # what the old rule, looking across walls, went by
    assert heroes.comrade_in_the_way(view, 0, view.legal_actions(), dist) is None


def test_scripted_hero_leaves_a_door_it_failed_to_a_comrade():
    """A hero that failed to open a door this turn (R-DOOR-03/04: no retry by that hero until next
    turn) and stood aside does not step back onto the door's square, where it would only block a
    comrade who may still try: it hands control to that comrade."""
    from dungeon_env.engine.actions import HANDOFF_ACTIONS
    from tests.builders import place

    g = hero_0_in_corridor_a()
    place(g, 0, 10, 5)  # in room A's south-east corner, beside the square of its south door
    place(g, 1, 9, 4)  # a comrade who has not tried the door
    south_door = next(i for i, d in enumerate(g.tables.adventure.doors) if d.a == (9, 5))
    g.state.door_tried[0, south_door] = True
    g.state_edited()
    choice = ScriptedHeroes(game=g).choose(g)
    assert choice == HANDOFF_ACTIONS[1], ACTION_NAMES[choice]


def test_scripted_hero_buys_no_square_it_could_not_walk():
    """On the way out a hero buys extra squares with Stamina (R-TURN-07), but not when the square
    ahead is taken by a comrade who has ended its Movement: the Stamina would buy nothing."""
    from tests.builders import place, set_unit

    g = hero_0_in_corridor_a()
    place(g, 1, 9, 0)  # on hero_0's way east, its Movement over
    set_unit(g, 1, move_done=True)
    set_unit(g, 2, move_done=True)
    set_unit(g, 0, move_left=0, stamina=5)
    g.state_edited()
    assert EXTRA_MOVE in g.legal_actions()
    choice = ScriptedHeroes(game=g).choose(g)
    assert choice == END, ACTION_NAMES[choice]


def test_scripted_hero_shut_in_by_a_corpse_drags_it_off_the_way():
    """A hero whose only way on is a doorway where a comrade's corpse lies, with no square to Jump
    to beyond it, pulls the corpse off the doorway (R-DEATH-04) rather than stand there until the
    turn cap; once dragging it steps to a free square, and the corpse follows."""
    from dungeon_env.engine.actions import DRAG_ACTIONS, MOVE_ACTIONS
    from dungeon_env.engine.units import kill_hero
    from tests.builders import add_monster, place

    g = hero_0_in_corridor_a()
    place(g, 0, 13, 3)  # in room B, whose only door is the west one at (11, 3) | (12, 3)
    place(g, 1, 12, 3)
    kill_hero(g, 1)  # hero_1's corpse on the doorway square
    add_monster(g, "goblin", 11, 3)  # beyond it, in sight, where a Jump would land
    g.state.revealed[g.tables.area[g.square(11, 3)]] = True
    g.state_edited()
    heroes = ScriptedHeroes(game=g)
    drag_west = DRAG_ACTIONS[3]
    assert heroes.choose(g) == drag_west
    g.apply(drag_west)
    step = heroes.choose(g)
    assert step in MOVE_ACTIONS, ACTION_NAMES[step]
    g.apply(step)
    assert g.state.occupant[g.square(12, 3)] < 0 and g.state.unit_pos[1] == g.square(13, 3)
