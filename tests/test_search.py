"""The ISMCTS search agent (``agents.search``): it never reads what its side may not know, keeps to
its budget, and plays better than random."""

from __future__ import annotations

import json
import re

import pytest

import agents.search
from agents import RandomAgent, ScriptedDM, ScriptedHeroes, SearchAgent
from agents.policy import PolicyAgent
from dungeon_env.content import adventure_names
from dungeon_env.engine import Game
from dungeon_env.engine.dice import Dice
from dungeon_env.engine.side_knowledge import heroes_view
from tests import twins
from tests.test_training import needs_sb3

HIDDEN = {
    "trap_moved": lambda folder, adv: twins.trap_moved(folder, adv, 0),
    "deck_order": lambda folder, adv: twins.deck_order(adv, 0),
    "fog_monster": lambda folder, adv: twins.fog_monster(adv, 0),
    "secret_door_removed": lambda folder, adv: twins.secret_door_removed(folder, adv, 0),
    "room_event_removed": lambda folder, adv: twins.room_event_removed(folder, adv, 0),
    "secret_dice": lambda folder, adv: twins.secret_dice(adv, 0),
}
BUDGET = {"rollouts": 10, "depth": 40}


def first_hero_decision(pair: twins.Twins) -> tuple[Game, Game] | None:
    """Both twins' games at their first hero decision, played to it with the same DM actions; None
    if the DM's choices differ before (the DM may know the hidden thing)."""
    a, b = pair.a, pair.b
    for _ in range(200):
        if a.game.over or b.game.over:
            return None
        if a.game.agent != "dm" and len(a.game.legal_actions()) > 1:
            return a.game, b.game
        legal_a, legal_b = a.game.legal_actions(), b.game.legal_actions()
        if legal_a != legal_b:
            return None
        a.game.apply(legal_a[0])
        b.game.apply(legal_b[0])
    return None


def searched(game: Game, **budget) -> tuple[int, dict]:
    agent = SearchAgent(seed=11, **(BUDGET | budget))
    choice = agent.choose(game)
    return choice, agent.last_stats


def twin_positions(tmp_path, kind: str):
    for adventure in adventure_names():
        pair = HIDDEN[kind](tmp_path / adventure, adventure)
        if pair is not None and (games := first_hero_decision(pair)) is not None:
            yield adventure, games


@pytest.mark.parametrize("kind", sorted(HIDDEN))
def test_the_heroes_search_never_reads_what_heroes_cannot_see(tmp_path, kind):
    """Twin games equal in all heroes may know, one hidden thing apart (``tests/twins.py``): the
    heroes' search makes the same choice from the same statistics (every root action's visits and
    mean value) in both."""
    compared = 0
    for adventure, (ga, gb) in twin_positions(tmp_path, kind):
        choice_a, stats_a = searched(ga)
        choice_b, stats_b = searched(gb)
        assert (choice_a, stats_a["visits"], stats_a["means"]) == (
            choice_b,
            stats_b["visits"],
            stats_b["means"],
        ), f"{kind} on {adventure}"
        compared += 1
    assert compared >= 1, f"no twin position of kind {kind}"


def test_a_search_that_read_the_hidden_game_would_be_caught(tmp_path, monkeypatch):
    """The check above can fail: a search handed the real game (its heroes' view replaced by a plain
    copy) finds the monster in the fog, and its statistics tell the twins apart."""
    monkeypatch.setattr(agents.search, "heroes_view", lambda game: game.copy())
    told_apart = 0
    for _adventure, (ga, gb) in twin_positions(tmp_path, "fog_monster"):
        told_apart += searched(ga, depth=200)[1]["means"] != searched(gb, depth=200)[1]["means"]
    assert told_apart >= 1


@pytest.mark.parametrize("side", ["heroes", "dm"])
def test_neither_side_reads_the_future_dice(side):
    """The same game with other dice to come: either side's search chooses alike, from the same
    statistics (each iteration rolls dice of its own)."""
    g = Game.new(adventure="flooded_cellar", heroes=3, seed=4)
    heroes, dm = ScriptedHeroes(game=g), ScriptedDM(game=g, seed=4)
    while (g.agent == "dm") != (side == "dm") or len(g.legal_actions()) < 2:
        assert not g.over
        g.apply(dm.choose(g) if g.agent == "dm" else heroes.choose(g))
    other = g.copy()
    other.dice = Dice(987654)
    assert searched(g)[0] == searched(other)[0]
    assert searched(g)[1]["means"] == searched(other)[1]["means"]


def test_the_search_spends_its_simulation_budget_unless_settled_and_works_on_copies():
    g = Game.new(adventure="goblin_warrens", heroes=4, seed=2)
    before = g.state.copy()
    agent = SearchAgent(seed=0, rollouts=17, depth=25)
    action = agent.choose(g)
    assert action in g.legal_actions()
    done = agent.last_stats["rollouts"]
    assert sum(agent.last_stats["visits"].values()) == done  # every iteration adds one root visit
    visits = sorted(agent.last_stats["visits"].values(), reverse=True) + [0]
    assert done == 17 or visits[0] - visits[1] > 17 - done  # stopped early only once settled
    assert g.state.equals(before)


def test_settled_means_no_other_action_can_overtake_the_most_visited():
    root = agents.search.Node()
    for action, visits in ((3, 9), (5, 4)):
        root.children[action] = agents.search.Node()
        root.children[action].visits = visits
    assert agents.search.settled(root, 4) and not agents.search.settled(root, 5)  # 9 vs 4 + 5: a tie
    del root.children[5]
    assert agents.search.settled(root, 8) and not agents.search.settled(root, 9)  # untried: 0 visits


def dm_searches(monkeypatch, stop_when_settled: bool, decisions: int = 25) -> tuple[list[int], list[int]]:
    """The DM's choices and iterations over the first ``decisions`` DM decisions with a choice of a
    game of warlocks_crypt, the search at its default budget against the scripted heroes."""
    if not stop_when_settled:
        monkeypatch.setattr(agents.search, "settled", lambda root, left: False)
    g = Game.new(adventure="warlocks_crypt", heroes=3, seed=11)
    heroes, dm = ScriptedHeroes(game=g), SearchAgent(game=g, seed=11)
    choices, iterations = [], []
    while not g.over and len(choices) < decisions:
        if g.agent != "dm":
            g.apply(heroes.act(None, None))
            continue
        several = len(g.legal_actions()) > 1
        action = dm.act(None, None)
        if several:
            choices.append(action)
            iterations.append(dm.last_stats["rollouts"])
        g.apply(action)
    monkeypatch.undo()
    return choices, iterations


def test_a_search_stopped_once_settled_chooses_as_its_whole_budget_would(monkeypatch):
    """The early stop changes no choice, nor (its skipped seeds drawn all the same) any later search,
    and saves iterations."""
    choices, iterations = dm_searches(monkeypatch, stop_when_settled=True)
    whole_choices, whole_iterations = dm_searches(monkeypatch, stop_when_settled=False)
    assert choices == whole_choices
    assert set(whole_iterations) == {agents.search.DEFAULT_ROLLOUTS}
    assert sum(iterations) < 0.9 * sum(whole_iterations)


def test_the_search_rejects_a_budget_it_cannot_keep():
    for bad in ({"rollouts": 0}, {"depth": 0}, {"seconds": 0.0}, {"prior": 1.5}, {"rollout": "greedy"}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            SearchAgent(**bad)


def completed(heroes_factory, seeds, adventure="flooded_cellar", enough=None) -> int:
    """The completed games of ``seeds``, played in order; with ``enough``, only until that many."""
    wins = 0
    for seed in seeds:
        if enough is not None and wins >= enough:
            break
        g = Game.new(adventure=adventure, heroes=3, seed=seed, max_turns=60)
        heroes, dm = heroes_factory(g, seed), ScriptedDM(game=g, seed=seed)
        while not g.over:
            g.apply(dm.act(None, None) if g.agent == "dm" else heroes(g))
        wins += g.outcome == "completed"
    return wins


def test_the_heroes_search_beats_random_heroes():
    """On the same games against the scripted DM, a small search completes most of the flooded
    cellar; random heroes complete none. Each game is fixed by its seed: the search's games stop at
    the third completed one, as the rest could not change the verdict."""
    seeds = range(100, 104)

    def search(g: Game, seed: int):
        agent = SearchAgent(game=g, seed=seed, rollouts=6, depth=20)
        return lambda _game: agent.act()  # through its heroes' view of the bound game

    random_ = completed(lambda g, s: RandomAgent(seed=s).choose, seeds)
    assert random_ == 0
    assert completed(search, seeds, enough=3) >= 3


# ------------------------------------------------------------------------- trained rollouts


def hero_decisions(adventure: str, seed: int, count: int):
    """The first ``count`` hero decisions with a choice of a scripted game, as heroes' views."""
    g = Game.new(adventure=adventure, heroes=3, seed=seed)
    heroes, dm = ScriptedHeroes(game=g), ScriptedDM(game=g, seed=seed)
    found = 0
    while not g.over and found < count:
        if g.agent != "dm" and len(g.legal_actions()) > 1:
            yield heroes_view(g)
            found += 1
        g.apply(dm.choose(g) if g.agent == "dm" else heroes.choose(g))


@pytest.fixture(scope="module")
def heroes_checkpoint(tmp_path_factory):
    """An untrained heroes' MaskablePPO checkpoint of today's observation: it plays unlike the script."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from dungeon_env.wrappers import RoleEnv

    env = RoleEnv(role="heroes", opponent="random", adventure="goblin_warrens", heroes=3, max_turns=10)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, policy_kwargs={"net_arch": [16]}, seed=0)
    path = tmp_path_factory.mktemp("policy") / "heroes.zip"
    model.save(path)
    return path


@needs_sb3
def test_with_trained_rollouts_the_prior_is_the_policys_choice(heroes_checkpoint):
    """With one iteration the search plays its prior's choice: with ``rollout="policy"`` and a
    checkpoint, the checkpoint's greedy action (here a policy that often disagrees with the script)."""
    policy = PolicyAgent(heroes_checkpoint, role="heroes", deterministic=True)
    agent = SearchAgent(seed=0, rollouts=1, depth=10, rollout="policy", policy=str(heroes_checkpoint))
    script = ScriptedHeroes()
    disagreements = 0
    for view in hero_decisions("goblin_warrens", 3, 25):
        wanted = policy.choose(view)
        assert agent.choose(view) == wanted
        disagreements += wanted != script.choose(view)
    assert disagreements >= 3, "the test needs a policy that differs from the script"


@needs_sb3
def test_trained_rollouts_play_the_checkpoint_for_the_searching_side_and_the_script_for_the_other(
    heroes_checkpoint,
):
    agent = SearchAgent(seed=0, rollouts=3, depth=12, rollout="policy", policy=str(heroes_checkpoint))
    view = next(hero_decisions("flooded_cellar", 5, 1))
    assert agent.choose(view) in view.legal_actions()
    assert 1 <= agent.last_stats["rollouts"] <= 3
    assert agent.rollout_policy("heroes").path == heroes_checkpoint
    policies = agent.policies(view.copy(), 7, "heroes")
    assert policies["heroes"] is agent.rollout_policy("heroes") and isinstance(policies["dm"], ScriptedDM)
    again = SearchAgent(seed=0, rollouts=3, depth=12, rollout="policy", policy=str(heroes_checkpoint))
    again.choose(view)
    assert again.last_stats["means"] == agent.last_stats["means"]  # a seed makes it deterministic


def test_a_checkpoint_without_trained_rollouts_or_missing_is_refused(tmp_path):
    checkpoint = tmp_path / "heroes.zip"
    checkpoint.write_bytes(b"")
    with pytest.raises(ValueError, match="policy is the checkpoint of rollout=policy"):
        SearchAgent(policy=str(checkpoint))
    with pytest.raises(FileNotFoundError, match="no checkpoint at"):
        SearchAgent(rollout="policy", policy=str(tmp_path / "missing.zip"))
    with pytest.raises(ValueError, match=r"give it as policy=FILE\.zip \(no policy ships"):
        SearchAgent(rollout="policy")


def test_the_search_reports_its_priors_choice_which_at_scripted_rollouts_is_the_scripted_agents():
    g = Game.new(adventure="goblin_warrens", heroes=3, seed=5)
    heroes, dm = ScriptedHeroes(game=g), ScriptedDM(game=g, seed=5)
    checked, departed = {"heroes": 0, "dm": 0}, 0
    while not g.over and min(checked.values()) < 6:
        side = "dm" if g.agent == "dm" else "heroes"
        if len(g.legal_actions()) > 1 and checked[side] < 6:
            agent = SearchAgent(seed=3, rollouts=4, depth=10, prior=0.0)  # leaves its prior often
            chosen = agent.choose(g)
            prior = agent.last_stats["prior"]
            assert prior in g.legal_actions()
            if side == "heroes":  # the DM's scripted rollouts break ties by a seed per iteration
                assert prior == heroes.choose(g)
                departed += chosen != prior
            checked[side] += 1
        g.apply(dm.choose(g) if side == "dm" else heroes.choose(g))
    assert checked == {"heroes": 6, "dm": 6}
    assert departed  # the prior is not the action played


def test_search_departures_counts_where_the_search_left_its_prior(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    out = tmp_path / "departures.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            "scripts/search_departures.py",
            "--adventure",
            "flooded_cellar",
            "--games",
            "1",
            "--search",
            "search@v1[rollouts=3,depth=6,prior=0]",
            "--jsonl",
            str(out),
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    counted = re.search(
        r"^flooded_cellar: 1 games \(1 \w+\); (\d+) decisions searched, (\d+) departures", done.stdout
    )
    assert counted, done.stdout
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    decisions, departures = map(int, counted.groups())
    assert 0 < len(rows) == departures <= decisions  # prior=0 at 3 iterations leaves the prior often
    assert all(r["search"] != r["prior"] and r["search"] in r["visits"] for r in rows)


def test_search_departures_plays_the_difficulty_tools_games():
    """Game i of the script is game i of ``dungeon-env balance --pairing search:scripted``: the same
    seeds for the game and both agents (a search that leaves its prior often tells them apart)."""
    import importlib.util
    from pathlib import Path

    from difficulty.play import make_side, play_engine_game
    from difficulty.spec import parse_agent

    path = Path(__file__).resolve().parents[1] / "scripts" / "search_departures.py"
    spec = importlib.util.spec_from_file_location("search_departures", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    search = "search@v1[rollouts=3,depth=6,prior=0]"
    task = {
        "adventure": "flooded_cellar",
        "party": ["bram", "tovar", "gunnhild"],
        "max_turns": 100,
        "heroes_agent": parse_agent(search, "heroes").name,
        "dm_agent": "scripted_dm@v1",
        "variant": None,
        "seed": 40,
    }
    heroes, dm = (
        make_side(parse_agent(search, "heroes"), "heroes"),
        make_side(parse_agent(script.OTHER["v1"], "dm"), "dm"),
    )
    for i in range(2):
        record = play_engine_game(task, i, heroes, dm)
        game = script.play("flooded_cellar", 40 + i, "heroes", search)
        assert (game["outcome"], game["turns"]) == (record["outcome"], record["turns"])
        assert game["departures"]
