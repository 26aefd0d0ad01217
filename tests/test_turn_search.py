"""The search v2 (``agents.turn_search``): whole-Movement moves mapped to legal steps and re-asked
after a reveal, its worlds sampled without reading hidden content (twin games), its budget kept, its
values, and its play against random heroes and against its prior on a fixed small sample."""

from __future__ import annotations

import pytest

from agents import RandomAgent, from_spec
from agents.scripted_dm_v2 import ScriptedDMV2
from agents.scripted_heroes_v2 import ScriptedHeroesV2
from agents.turn_search import (
    DirectedDM,
    DirectedHeroes,
    Option,
    TurnSearchAgent,
    knowledge_mark,
    macro_point,
)
from dungeon_env.engine import Decision, Game
from dungeon_env.engine.side_knowledge import heroes_view
from dungeon_env.engine.sideview import dm_view
from dungeon_env.episode import agent_seeds
from tests import twins

SMALL = {"iterations": 4, "candidates": 2, "horizon": 0}  # a cheap budget for the rules of play


def first_macro_point(game: Game, side: str = "heroes", steps: int = 400):
    """Play v2 for both sides until ``side`` is at a macro point; the view and the options."""
    walkers = {"heroes": DirectedHeroes(seed=3), "dm": DirectedDM(seed=4)}
    for _ in range(steps):
        acting = "dm" if game.agent == "dm" else "heroes"
        view = dm_view(game) if acting == "dm" else heroes_view(game)
        if acting == side:
            point = macro_point(view, walkers[side], 3, 6.0)
            if point is not None:
                return view, point
        game.apply(walkers[acting].choose(view))
    raise AssertionError(f"no macro point of the {side} in {steps} decisions")


# ------------------------------------------------------------------------------ whole Movements
def test_a_planned_movement_is_walked_with_legal_steps_to_its_square():
    """A hero told to end its Movement on another area's square walks there, step by legal step
    (letting comrades move first where v2 does), and ends its Movement on it, unless something
    revealed on the way ends the plan or a comrade took the square first (v1's walking rules, which
    v2 keeps, may also stop it short, as when the way ahead is a comrade's: rarely)."""
    walked = []  # for each plan that held: whether the hero ended on its square
    for adventure in ("goblin_warrens", "warlocks_crypt", "bandit_keep", "sunless_throne"):
        for seed in range(5):
            g = Game.new(adventure=adventure, heroes=3, seed=seed)
            view, (options, _, _) = first_macro_point(g)
            hero, target = options[1]
            walker, comrades, dm = DirectedHeroes(seed=3), DirectedHeroes(seed=3), ScriptedDMV2(seed=4)
            walker.plan(view, hero, target)
            turn, held = int(g.state.turn), True
            while int(g.state.turn) == turn and not g.state.move_done[hero] and not g.over:
                if g.agent == "dm":
                    g.apply(dm.choose(dm_view(g)))
                    continue
                view = heroes_view(g)
                if g.decision != (Decision.HERO_MOVE, hero):
                    g.apply(comrades.choose(view))
                    continue
                held = walker.planned(view, hero) == target
                if not held:
                    break  # something was revealed on the way: the plan ended (the next test)
                action = walker.choose(view)
                assert action in g.legal_actions()
                g.apply(action)
            taken = int(g.state.occupant[target]) not in (-1, hero)  # a comrade stepped onto it first
            if held and not taken:
                walked.append(int(g.state.unit_pos[hero]) == target)
    assert len(walked) >= 6 and sum(walked) >= 0.75 * len(walked), walked


def test_a_plan_is_dropped_when_something_is_revealed_on_the_way():
    """A plan holds while nothing new is known; a newly revealed area ends it (the next decision is
    a macro point again), and so does the next turn."""
    g = Game.new(adventure="goblin_warrens", heroes=3, seed=5)
    view, (options, _, _) = first_macro_point(g)
    hero, target = options[1]
    walker = DirectedHeroes(seed=3)
    walker.plan(view, hero, target)
    assert walker.planned(view, hero) == target
    known = view.copy()
    hidden = [a for a in range(known.tables.n_areas) if not known.state.revealed[a]]
    known.state.revealed[hidden[0]] = True
    assert knowledge_mark(known) != knowledge_mark(view)
    assert walker.planned(known, hero) is None and hero not in walker.plans
    walker.plan(view, hero, target)
    later = view.copy()
    later.state.turn += 1
    assert walker.planned(later, hero) is None


def test_the_search_is_asked_again_after_a_reveal_in_a_real_game():
    """Over a game, some hero's Movement is searched more than once in a turn: its plan ended when
    something was revealed on the way."""
    g = Game.new(adventure="goblin_warrens", heroes=3, seed=2)
    search = TurnSearchAgent(seed=1, **SMALL)
    dm = ScriptedDMV2(seed=2)
    searched: dict[tuple[int, int], int] = {}
    while not g.over and int(g.state.turn) < 12:
        if g.agent == "dm":
            g.apply(dm.choose(dm_view(g)))
            continue
        action = search.choose(g)
        if search.last_stats:
            key = (int(g.state.turn), search.last_stats["figure"])
            searched[key] = searched.get(key, 0) + 1
        g.apply(action)
    assert searched and max(searched.values()) >= 2, searched


def test_a_dm_plan_makes_the_monster_hunt_that_hero():
    """A monster told to hunt another hero than v2's choice walks towards that hero."""
    g = Game.new(adventure="bandit_keep", heroes=4, seed=7)
    view, (options, v2_action, _) = first_macro_point(g, side="dm", steps=3000)
    monster, hero = options[1]
    walker = DirectedDM(seed=4)
    walker.plan(view, monster, hero)
    action = walker.choose(view)
    assert action in view.legal_actions()
    assert walker.planned(view, monster) == hero


# ------------------------------------------------------------------------------ hidden information
HIDDEN = {
    "trap_moved": lambda folder, adv: twins.trap_moved(folder, adv, 0),
    "fog_monster": lambda folder, adv: twins.fog_monster(adv, 0),
    "deck_order": lambda folder, adv: twins.deck_order(adv, 0),
}


@pytest.mark.parametrize("kind", sorted(HIDDEN))
def test_the_heroes_search_never_reads_what_heroes_cannot_see(tmp_path, kind):
    """Twin games equal in all heroes may know, one hidden thing apart: at the first macro point the
    heroes' search makes the same choice from the same statistics in both (its worlds are sampled
    from the heroes' view and public priors only)."""
    compared = 0
    for adventure in ("goblin_warrens", "warlocks_crypt", "sunless_throne"):
        pair = HIDDEN[kind](tmp_path / adventure, adventure)
        if pair is None:
            continue
        results = []
        for env in (pair.a, pair.b):
            game, agent, dm = env.game.copy(), TurnSearchAgent(seed=11, **SMALL), ScriptedDMV2(seed=4)
            choices = []
            while not agent.last_stats and not game.over and len(choices) < 400:
                if game.agent == "dm":
                    game.apply(dm.choose(dm_view(game)))
                    continue
                choices.append(agent.choose(heroes_view(game)))
                game.apply(choices[-1])
            results.append((choices, agent.last_stats.get("options")))
        if results[0][1] is None:
            continue  # no macro point before the hidden thing ended the game
        assert results[0] == results[1], f"{kind} on {adventure}"
        compared += 1
    assert compared >= 1


# ------------------------------------------------------------------------------ budget and values
def test_the_budget_is_kept_and_the_search_is_deterministic():
    g = Game.new(adventure="warlocks_crypt", heroes=4, seed=3)
    view, (options, _, _) = first_macro_point(g)
    one = TurnSearchAgent(seed=5, iterations=5, candidates=3, horizon=0)
    choice = one.choose(view)
    stats = one.last_stats
    rounds = -(-5 // len(options))
    assert stats["iterations"] == rounds * len(options)
    assert sum(visits for visits, _ in stats["options"].values()) == stats["iterations"]
    two = TurnSearchAgent(seed=5, iterations=5, candidates=3, horizon=0)
    assert two.choose(view) == choice and two.last_stats["options"] == stats["options"]
    quick = TurnSearchAgent(seed=5, iterations=60, candidates=3, horizon=0, seconds=1e-6)
    quick.choose(view)
    assert quick.last_stats["iterations"] == len(options)  # one round, then the clock stops it


def test_a_game_at_the_turn_cap_is_worth_nothing_to_either_side():
    """The DM's search never gains by stalling: a truncated game is 0 to both sides."""
    g = Game.new(adventure="flooded_cellar", heroes=3, seed=1, max_turns=1)
    while not g.over:
        g.apply(g.legal_actions()[0])
    assert g.outcome == "truncated"
    agent = TurnSearchAgent(seed=0)
    assert agent.value(g, "heroes") == 0.0 and agent.value(g, "dm") == 0.0


def test_bad_options_are_refused_with_what_was_expected():
    for kwargs, named in (
        ({"iterations": 0}, "iterations must be at least 1"),
        ({"candidates": 1}, "candidates must be at least 2"),
        ({"horizon": -1}, "horizon must be at least 0"),
        ({"prior": 2.0}, "prior must be between 0 and 1"),
        ({"margin": -0.1}, "margin must be at least 0"),
        ({"seconds": 0}, "seconds must be positive"),
    ):
        with pytest.raises(ValueError, match=named):
            TurnSearchAgent(**kwargs)


def test_options_are_v2s_choice_first_then_other_areas():
    g = Game.new(adventure="sunless_throne", heroes=5, seed=4)
    view, (options, v2_action, _) = first_macro_point(g)
    assert options[0] == Option(options[0].figure, None)
    areas = {int(view.tables.area[o.target]) for o in options[1:]}
    assert len(areas) == len(options) - 1  # one square per area
    assert v2_action in view.legal_actions()


# ------------------------------------------------------------------------------ play
def completed(heroes_agent, dm_agent, adventure: str, seeds, decided=None) -> tuple[int, int]:
    """Games of ``seeds`` in order; the completed ones and the games left unplayed. ``decided(wins,
    left)`` stops early once the games left cannot change the verdict the test draws from the count."""
    wins, seeds = 0, list(seeds)
    for k, seed in enumerate(seeds):
        if decided is not None and decided(wins, len(seeds) - k):
            return wins, len(seeds) - k
        g = Game.new(adventure=adventure, heroes=3, seed=seed)
        hs, ds = agent_seeds(seed)
        heroes_agent.seed(hs)
        dm_agent.seed(ds)
        while not g.over:
            if g.agent == "dm":
                g.apply(dm_agent.choose(dm_view(g)))
            else:
                g.apply(heroes_agent.choose(heroes_view(g)))
        wins += g.outcome == "completed"
    return wins, 0


def test_the_search_beats_random_heroes_and_is_not_worse_than_its_prior():
    """On a fixed small sample of flooded_cellar (the easy adventure), the heroes' search completes
    more often than random heroes and at least as often, less one game, as heroes v2.

    Each game is fixed by its seed, so the verdict is the whole sample's, though not every game is
    played: the search's games all are, then v2's and the random heroes' only until the games left
    cannot change it (a count of completed games lies between what it has and that plus the games
    left; random heroes' games, the slowest, mostly end after the first)."""
    seeds, cellar = range(6), "flooded_cellar"
    search, _ = completed(TurnSearchAgent(seed=0, **SMALL), ScriptedDMV2(), cellar, seeds)
    v2, v2_left = completed(
        ScriptedHeroesV2(), ScriptedDMV2(), cellar, seeds, lambda won, left: won + left <= search + 1
    )
    rand, rand_left = completed(
        RandomAgent(0), ScriptedDMV2(), cellar, seeds, lambda won, left: won + left < search
    )
    most_v2, most_rand = v2 + v2_left, rand + rand_left  # what the whole sample's counts could be
    assert search > most_rand and search >= most_v2 - 1, (search, (v2, v2_left), (rand, rand_left))


def test_the_spec_plays_the_latest_search_for_either_side():
    heroes = from_spec("search[iterations=2,candidates=2,horizon=0]", "heroes", seed=1)
    dm = from_spec("search[iterations=2,candidates=2,horizon=0]", "dm", seed=2)
    assert isinstance(heroes, TurnSearchAgent) and isinstance(dm, TurnSearchAgent)
    g = Game.new(adventure="flooded_cellar", heroes=3, seed=0)
    for agent in (heroes, dm):
        agent.bind(game=g)
    for _ in range(300):
        if g.over:
            break
        g.apply((dm if g.agent == "dm" else heroes).act())


def test_a_search_that_never_departs_plays_exactly_as_v2():
    """With a margin no option can beat, every answer is v2's: the plans, the walkers and the
    iterations on copies change nothing in the real game."""
    runs = []
    for make in (
        ScriptedHeroesV2,
        lambda: TurnSearchAgent(iterations=2, candidates=2, horizon=0, margin=1e9),
    ):
        g = Game.new(adventure="goblin_warrens", heroes=4, seed=300001)
        hs, ds = agent_seeds(300001)
        heroes, dm = make(), ScriptedDMV2()
        heroes.seed(hs)
        dm.seed(ds)
        actions = []
        while not g.over and int(g.state.turn) <= 10:
            action = dm.choose(dm_view(g)) if g.agent == "dm" else heroes.choose(heroes_view(g))
            actions.append(action)
            g.apply(action)
        runs.append(actions)
    assert runs[0] == runs[1]


def test_search_departures_reports_where_and_why_the_search_v2_left_v2(tmp_path):
    """``scripts/search_departures.py`` on the search v2: each departure names v2's square, the
    search's, every option's mean and the paired gain that decided it."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    out = tmp_path / "departures.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            "scripts/search_departures.py",
            "--adventure",
            "goblin_warrens",
            "--games",
            "1",
            "--search",
            "search[iterations=6,candidates=3,horizon=0,margin=0]",
            "--jsonl",
            str(out),
        ],
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "decisions searched" in done.stdout and "mean gain in value" in done.stdout, done.stdout
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows, done.stdout
    for row in rows:
        assert row["search"] != row["prior"] and row["search"].startswith("end on (")
        assert row["gain"] > 0 and row["search"] in row["means"] and row["v2_chose"]
