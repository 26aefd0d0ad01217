"""Difficulty testing without playing games: intervals against known answers, a hand-checked event
log turned into a record and figures, experiment and override validation, the CLI's errors."""

from __future__ import annotations

import ast
import math
import shlex
from pathlib import Path

import pytest

from difficulty import cli
from difficulty.metrics import cell_figures, compare, paired_difference, rate
from difficulty.record import end_kind, summarize
from difficulty.spec import Experiment, Pairing, SpecError, parse_agent, party_of
from difficulty.verdict import wounds_text
from training.evaluate import wilson_interval

ROOT = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------------------------ intervals
@pytest.mark.parametrize(
    "successes, n, low, high",
    [  # Newcombe (1998), Statistics in Medicine 17:857, Table II, method 3 (Wilson score, no correction)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0000, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_interval_known_answers(successes, n, low, high):
    got = wilson_interval(successes, n)
    assert got == pytest.approx((low, high), abs=5e-5)
    figure = rate(successes, n)
    assert figure["ci"] == pytest.approx([low, high], abs=5e-5)
    assert figure["half_width"] == pytest.approx((high - low) / 2, abs=1e-4)


def test_paired_difference_known_answer():
    # paired 2x2 table [[59, 6], [16, 80]]: estimate -0.0621, Newcombe square-and-add 95% CI
    # -0.1186 to -0.0046 (Fagerland, Lydersen & Laake, Statistical Analysis of Contingency Tables, ch. 8)
    low, high = paired_difference(both=59, only_a=6, only_b=16, neither=80)
    assert (low, high) == pytest.approx((-0.1186, -0.0046), abs=5e-5)


def test_paired_difference_without_discordant_pairs_contains_zero():
    low, high = paired_difference(both=30, only_a=0, only_b=0, neither=10)
    assert low < 0 < high
    assert paired_difference(0, 0, 0, 0) == (-1.0, 1.0)


# ------------------------------------------------------------------------ a hand-checked game log
def _unit(uid, name, side, traits=()):
    return {"id": uid, "name": name, "side": side, "traits": list(traits), "move": 4, "fight": 5}


def _roll(check, result, turn=1):
    base = {"type": "roll", "check": check, "actor": "hero_0", "dice": [3], "modifiers": {}, "modifier": 0}
    return base | {"total": 3, "result": result, "turn": turn}


def _fight(a, b, winner):
    return {"type": "fight", "a": a, "b": b, "winner": winner, "turn": 2}


HEROES = [
    _unit("hero_0", "Bram Ironhide", "hero", ["strong", "iron_willed"]),
    _unit("hero_1", "Sela Quickstep", "hero", ["agile", "perceptive"]),
    _unit("hero_2", "Orwin Greymantle", "hero", ["learned", "iron_willed"]),
]
LOG = [
    {"type": "setup", "adventure": "test", "seed": 7, "light": 20, "units": HEROES},
    {"type": "spawn", "unit": _unit("m0", "Orc Warrior", "monster"), "how": "guard"},
    {"type": "spawn", "unit": _unit("m1", "Goblin", "monster"), "how": "patrol"},
    _roll("open_door", "failed"),
    _roll("open_door", "opened"),
    _fight("hero_0", "m0", "m0"),
    {"type": "damage", "unit": "hero_0", "amount": 2, "source": "m0", "health": 3, "turn": 2},
    {"type": "damage", "unit": "hero_0", "amount": 3, "source": "m0", "health": 0, "turn": 3},
    {"type": "deaths_door", "unit": "hero_0", "turn": 3},
    _roll("deaths_door", "dies", 4),
    {"type": "death", "unit": "hero_0", "killers": ["m0"], "turn": 4},
    _fight("m1", "hero_1", "hero_1"),
    _fight("hero_2", "m1", None),
    {"type": "damage", "unit": "m1", "amount": 4, "source": "hero_1", "health": -1, "turn": 4},
    {"type": "slain", "unit": "m1", "killers": ["hero_1"], "turn": 4},
    {"type": "draw", "deck": "treasure", "item": 0, "card": "gold_pouch", "turn": 5},
    {"type": "item_found", "unit": "hero_1", "item": 0, "event": 0, "turn": 5},
    {"type": "draw", "deck": "potions", "item": 1, "card": "healing_potion", "turn": 5},
    {"type": "item_found", "unit": "hero_2", "item": 1, "event": 0, "turn": 5},
    _roll("detect_traps", 2, 6),
    {"type": "exit", "unit": "hero_1", "turn": 11},
    {"type": "exit", "unit": "hero_2", "turn": 12},
    {
        "type": "end",
        "outcome": "completed",
        "reason": "every surviving hero left the dungeon with the goals met",
        "turn": 12,
        "light": 8,
        "objectives": [
            {"kind": "escape", "text": "Get out.", "primary": True, "met": True},
            {"kind": "slay", "text": "Slay the orc.", "primary": False, "met": False},
        ],
        "goals_met": True,
    },
]
MONSTERS = {"Orc Warrior": "orc", "Goblin": "goblin"}


def _record(log=LOG, i=0):
    cards = ["bram", "sela", "orwin"]
    out = summarize(log, hero_cards=cards, monster_id=MONSTERS, treasure_value={"gold_pouch": 10})
    return {"i": i, "seed": 7 + i, **out}


def test_record_of_a_hand_checked_log():
    r = _record()
    assert (r["outcome"], r["goals_met"], r["end"], r["turns"], r["light"]) == (
        "completed",
        True,
        "completed_with_goals",
        12,
        8,
    )
    fields = ("hero", "traits", "died", "deaths_door", "damage", "escaped")
    assert [tuple(h[k] for k in fields) for h in r["heroes"]] == [
        ("bram", ["iron_willed", "strong"], 1, 1, 5, 0),
        ("sela", ["agile", "perceptive"], 0, 0, 0, 1),
        ("orwin", ["iron_willed", "learned"], 0, 0, 0, 1),
    ]
    assert (r["items_found"], r["treasure"], r["gold"]) == (2, 1, 10)
    assert r["spawned"] == {"goblin": 1, "orc": 1} and r["slain"] == {"goblin": 1}
    assert r["checks"] == {
        "deaths_door:dies": 1,
        "detect_traps:rolled": 1,
        "fight:lost": 1,
        "fight:tied": 1,
        "fight:won": 1,
        "open_door:failed": 1,
        "open_door:opened": 1,
    }


def _lost_log():
    """The same game, but every hero dies at turn 9 with Light 0."""
    log = [e for e in LOG if e["type"] not in ("exit", "end", "item_found", "draw")]
    log += [
        {"type": "damage", "unit": "hero_1", "amount": 6, "source": "m0", "health": 0, "turn": 8},
        {"type": "deaths_door", "unit": "hero_1", "turn": 8},
        _roll("deaths_door", "survives", 8),
        _roll("deaths_door", "dies", 9),
        {"type": "death", "unit": "hero_1", "killers": ["m0"], "turn": 9},
        {"type": "death", "unit": "hero_2", "killers": ["m0"], "turn": 9},
        {"type": "end", "outcome": "failed", "reason": "every hero is dead", "turn": 9, "light": 0}
        | {"objectives": [{"kind": "escape", "text": "Get out.", "primary": True, "met": False}]}
        | {"goals_met": False},
    ]
    return log


def _walked_out_log():
    """The won game, but a second primary goal (the orc) was not met when the survivors left."""
    end = {**LOG[-1], "goals_met": False, "reason": "every surviving hero left; goals not met"}
    end["objectives"] = [end["objectives"][0], {**end["objectives"][1], "primary": True}]
    return LOG[:-1] + [end]


@pytest.mark.parametrize(
    "outcome, goals_met, end",
    [
        ("completed", True, "completed_with_goals"),
        ("completed", False, "completed_without_goals"),
        ("failed", False, "failed"),
        ("failed", True, "failed"),
        ("truncated", True, "truncated"),
        ("truncated", False, "truncated"),
    ],
)
def test_end_kinds(outcome, goals_met, end):
    assert end_kind(outcome, goals_met) == end


def test_end_kinds_reject_an_unknown_outcome_and_old_logs_read_goals_from_the_objectives():
    with pytest.raises(ValueError, match="unknown outcome 'won'.*completed"):
        end_kind("won", True)
    old = {k: v for k, v in LOG[-1].items() if k != "goals_met"}  # an end event without goals_met
    assert _record(LOG[:-1] + [old])["goals_met"] is True
    unmet = {**old, "objectives": [{**old["objectives"][0], "met": False}]}
    assert _record(LOG[:-1] + [unmet])["end"] == "completed_without_goals"


def test_a_game_walked_out_of_without_the_goals_is_completed_but_not_won():
    won, walked, lost = _record(i=0), _record(_walked_out_log(), i=1), _record(_lost_log(), i=2)
    assert (walked["outcome"], walked["goals_met"], walked["end"]) == (
        "completed",
        False,
        "completed_without_goals",
    )
    f = cell_figures([won, walked, lost])
    assert (f["completed"]["count"], f["completed_with_goals"]["count"]) == (2, 1)
    assert f["completed"]["ci"] == pytest.approx(list(wilson_interval(2, 3)), abs=1e-6)
    assert f["completed_with_goals"]["ci"] == pytest.approx(list(wilson_interval(1, 3)), abs=1e-6)
    assert {e: r["count"] for e, r in f["ends"].items()} == {
        "completed_with_goals": 1,
        "completed_without_goals": 1,
        "failed": 1,
        "truncated": 0,
    }
    assert f["turns_completed"]["mean"] == 12  # both completed games, goals or not
    dies = next(c for c in f["checks"] if (c["check"], c["result"]) == ("deaths_door", "dies"))
    assert dies["rolls_won"] == 1 and dies["rolls_lost"] == 1 + 3  # the walked-out game counts as lost


def test_figures_of_hand_checked_records():
    won, lost = _record(i=0), _record(_lost_log(), i=1)
    assert (lost["outcome"], lost["end"]) == ("failed", "failed")
    f = cell_figures([won, lost])
    assert f["games"] == 2 and f["completed"]["count"] == 1 and f["completed"]["rate"] == 0.5
    assert f["completed_with_goals"] == f["completed"]
    assert f["completed"]["ci"] == pytest.approx(list(wilson_interval(1, 2)), abs=1e-6)
    assert f["ends"]["completed_with_goals"]["count"] == 1 and f["ends"]["failed"]["count"] == 1
    assert f["ends"]["truncated"]["count"] == 0
    assert f["turns"]["mean"] == 10.5 and f["turns"]["histogram"] == [[9, 1], [12, 1]]
    assert f["turns_completed"]["mean"] == 12 and f["light_left"]["mean"] == 4.0
    assert f["hero_deaths_per_game"] == 2.0  # 1 in the won game, 3 in the lost one
    heroes = {h["hero"]: h for h in f["heroes"]}
    assert heroes["bram"]["death"]["rate"] == 1.0 and heroes["bram"]["damage_per_game"] == 5.0
    assert heroes["sela"]["death"]["count"] == 1 and heroes["sela"]["deaths_door_per_game"] == 0.5
    assert heroes["sela"]["damage_per_game"] == 3.0 and heroes["sela"]["escaped"]["rate"] == 0.5
    traits = {t["trait"]: t for t in f["traits"]}
    assert traits["iron_willed"]["hero_games"] == 4  # bram and orwin, two games each
    assert traits["iron_willed"]["death"]["count"] == 3  # bram twice, orwin once
    monsters = {m["monster"]: m for m in f["monsters"]}
    assert monsters["goblin"]["kill"]["rate"] == 1.0 and monsters["orc"]["kill"]["count"] == 0
    assert monsters["orc"]["spawned_per_game"] == 1.0
    assert f["treasure"]["gold_per_game"] == 5.0 and f["treasure"]["items_found_per_game"] == 1.0
    checks = {(c["check"], c["result"]): c for c in f["checks"]}
    dies = checks["deaths_door", "dies"]
    assert dies["count"] == 3 and dies["per_won_game"] == 1.0 and dies["per_lost_game"] == 2.0
    assert dies["share"]["rate"] == pytest.approx(3 / 4) and dies["share_won"] == 1.0
    assert dies["share_lost"] == pytest.approx(2 / 3) and dies["games_with"]["rate"] == 1.0
    assert f["deciding_checks"] == []  # fewer than MIN_GROUP won and lost games


def _wounded_log():
    """The won game, with more blows to the heroes: an Ambusher's, a Patrol's, a trap's, a room
    event's and an Overcast's, and one to a monster (not a wound of the heroes)."""
    blows = [
        {"type": "spawn", "unit": _unit("m2", "Giant Spider", "monster"), "how": "ambush"},
        {"type": "damage", "unit": "hero_1", "amount": 2, "source": "m2", "health": 4, "turn": 6},
        {"type": "damage", "unit": "hero_1", "amount": 1, "source": "m1", "health": 3, "turn": 6},
        {"type": "damage", "unit": "hero_2", "amount": 3, "source": "trap:dart trap", "health": 2, "turn": 7},
        {"type": "damage", "unit": "hero_2", "amount": 1, "source": "event:F", "health": 1, "turn": 7},
        {
            "type": "damage",
            "unit": "hero_2",
            "amount": 1,
            "source": "overcast:fireball",
            "health": 0,
            "turn": 8,
        },
        {"type": "damage", "unit": "m2", "amount": 9, "source": "trap:dart trap", "health": 0, "turn": 8},
        _roll("patrol", "appears", 9),
        _roll("patrol", "none", 10),
    ]
    return LOG[:-1] + blows + LOG[-1:]


def test_the_heroes_wounds_are_counted_by_where_they_came_from():
    """A blow's source is the monster's encounter type (its spawn event's ``how``), else the effect's
    kind (``trap:``, ``event:``), else other; blows to monsters are not the heroes' wounds."""
    assert _record()["wounds"] == {"guard": 5, "patrol": 0, "ambush": 0, "event": 0, "trap": 0, "other": 0}
    wounds = _record(_wounded_log())["wounds"]
    assert wounds == {"guard": 5, "patrol": 1, "ambush": 2, "event": 1, "trap": 3, "other": 1}
    f = cell_figures([_record(i=0), _record(_wounded_log(), i=1)])["wounds"]
    assert f["damage_per_game"] == 9.0  # (5 + 13) / 2
    assert f["patrols_per_game"] == 0.5  # one Patrol appeared, in the second game
    assert [(s["source"], s["share"]) for s in f["sources"][:3]] == [
        ("guard", pytest.approx(10 / 18, abs=1e-6)),
        ("trap", pytest.approx(3 / 18, abs=1e-6)),
        ("ambush", pytest.approx(2 / 18, abs=1e-6)),
    ]
    assert [s["source"] for s in f["sources"][3:]] == ["patrol", "event", "other"]  # ties: list order
    assert sum(s["per_game"] for s in f["sources"]) == pytest.approx(9.0)
    assert wounds_text(f) == (
        "Guards 56%, traps 17%, Ambushers 11%, Patrols 6% (0.5 Patrols a game), room events 6%, "
        "other sources 6% of 9.0 damage a game"
    )
    unhurt = cell_figures([_record(LOG[:6] + LOG[8:])])["wounds"]  # hero_0's two blows taken out
    assert unhurt["damage_per_game"] == 0 and wounds_text(unhurt) == "the heroes took no damage"


def test_deciding_checks_rank_luck_on_a_check_not_exposure():
    def game(i, outcome, door_failed, patrols):
        checks = {"open_door:failed": door_failed, "open_door:opened": 4 - door_failed}
        checks |= {"patrol:none": patrols, "detect_traps:rolled": 3}
        end = "completed_with_goals" if outcome == "completed" else "failed"
        goals = outcome == "completed"
        return {**_record(i=i), "outcome": outcome, "goals_met": goals, "end": end, "checks": checks}

    won = [game(i, "completed", 1, 2) for i in range(10)]
    lost = [game(10 + i, "failed", 3, 9) for i in range(10)]  # more patrol rolls, but none appeared
    deciding = cell_figures(won + lost)["deciding_checks"]
    assert [(d["check"], d["result"]) for d in deciding] == [("open_door", "failed")]  # one per check
    failed = deciding[0]
    assert (failed["share_won"], failed["share_lost"], failed["difference"]) == (0.25, 0.75, 0.5)
    assert failed["z"] == pytest.approx(0.5 / math.sqrt(0.25 * (1 / 40 + 1 / 40)), abs=1e-6)
    opened = [c for c in cell_figures(won + lost)["checks"] if c["result"] == "opened"][0]
    assert (opened["share_won"], opened["share_lost"], opened["rolls_won"]) == (0.75, 0.25, 40)


def test_comparison_pairs_games_by_index():
    won, lost = _record(i=0), _record(_lost_log(), i=1)
    base = [won, {**won, "i": 1}, {**lost, "i": 2}]
    variant = [{**lost, "i": 0}, {**won, "i": 1}, {**won, "i": 2}, {**won, "i": 3}]  # game 3 unpaired
    c = compare(variant, base)
    goals = c["completed_with_goals"]
    assert c["games"] == 3 and goals["only_variant"] == 1 and goals["only_base"] == 1
    assert goals["difference"] == 0.0 and goals["difference_ci"][0] < 0 < goals["difference_ci"][1]
    assert c["completed"] == goals  # every completed game met its goals here
    assert c["turns_difference"] == pytest.approx(((9 - 12) + 0 + (12 - 9)) / 3)
    hurt = compare([_record(_wounded_log(), i=0)], [_record(i=0)])  # 8 more damage, 1 more Patrol
    assert (hurt["damage_difference"], hurt["patrols_difference"]) == (8.0, 1.0)


def test_comparison_of_the_goals_rate_apart_from_the_completion_rate():
    """The variant walks out of games the base won: as many completions, fewer wins."""
    won, walked = _record(i=0), _record(_walked_out_log(), i=0)
    base = [{**won, "i": i} for i in range(4)]
    variant = [{**walked, "i": 0}, {**walked, "i": 1}, {**won, "i": 2}, {**won, "i": 3}]
    c = compare(variant, base)
    assert c["completed"]["difference"] == 0.0 and c["completed"]["only_base"] == 0
    goals = c["completed_with_goals"]
    assert (goals["base"]["count"], goals["variant"]["count"], goals["only_base"]) == (4, 2, 2)
    assert goals["difference"] == -0.5
    assert goals["difference_ci"] == pytest.approx(list(paired_difference(2, 0, 2, 0)), abs=1e-6)
    assert c["same_end"] == 2


# ------------------------------------------------------------------------------ experiment spec
def test_agent_specs():
    assert parse_agent("scripted", "heroes").name == "scripted_heroes"
    assert parse_agent("scripted", "dm").name == "scripted_dm"
    search = parse_agent("search@v1[rollouts=8,depth=100]", "heroes")
    assert (
        search.options == (("rollouts", 8), ("depth", 100))
        and search.to_json() == "search@v1[rollouts=8,depth=100]"
    )
    assert Pairing.parse("scripted:random").label == "scripted@v2:random"
    assert Pairing.parse("scripted@v1:scripted").to_json() == "scripted_heroes@v1:scripted_dm@v2"
    with pytest.raises(SpecError, match="no version 'v7'"):
        Pairing.parse("scripted@v7:scripted")
    with pytest.raises(SpecError, match="unknown agent 'wizard'"):
        parse_agent("wizard", "dm")
    with pytest.raises(SpecError, match="other side"):
        parse_agent("scripted_dm", "heroes")
    with pytest.raises(SpecError, match="no checkpoint"):
        Pairing.parse("missing/heroes.zip:scripted")
    with pytest.raises(SpecError, match="heroes_agent:dm_agent"):
        Pairing.parse("scripted")


def test_pairings_cut_at_the_colon_between_two_valid_specs(tmp_path):
    heroes, dm = tmp_path / "heroes_final.zip", tmp_path / "dm_final.zip"
    heroes.write_bytes(b""), dm.write_bytes(b"")
    pairing = Pairing.parse(f"policy:{heroes}:scripted")
    assert (pairing.heroes, pairing.dm) == (
        parse_agent(f"policy:{heroes}", "heroes"),
        parse_agent("scripted", "dm"),
    )
    pairing = Pairing.parse(f"scripted:policy:{dm}")
    assert (
        pairing.dm.is_checkpoint
        and pairing.dm.kwargs == {}
        and pairing.label == "scripted@v2:policy:dm_final"
    )
    assert Pairing.parse(f"{heroes}:{dm}").to_json() == f"{heroes}:{dm}"
    assert Pairing.parse(Pairing.parse("random:runaway").to_json()) == Pairing.parse("random:runaway_dm")
    with pytest.raises(SpecError, match="pairing 'policy:runaway': agent 'policy': no policy ships"):
        Pairing.parse("policy:runaway")  # the bare name is retired (issue 53), not a file named runaway
    with pytest.raises(SpecError, match="no checkpoint"):
        Pairing.parse(f"policy:{tmp_path / 'gone.zip'}:scripted")


def test_a_cell_task_carries_the_parsed_specs_and_is_read_once(monkeypatch):
    """The runner's task is a typed cell holding the experiment's own AgentSpecs; workers never parse
    agent text again (a dict task, the plain form, is read into a Task once, at the door)."""
    import pickle

    from difficulty import play
    from difficulty.play import Task
    from difficulty.runner import task_of

    experiment = Experiment(pairings=("search@v1[rollouts=2,depth=5]:scripted",), games=1, max_turns=2)
    (cell,) = experiment.cells
    task = task_of(cell, experiment)
    assert isinstance(task, Task) and task.heroes is cell.pairing.heroes and task.dm is cell.pairing.dm
    assert pickle.loads(pickle.dumps(task.with_indices([0, 1]))) == task.with_indices((0, 1))
    assert Task.of(task) is task and Task.of(task.to_json()) == task
    assert task.with_indices([3]).cell_key == task.cell_key and task.on_engine

    def no_parsing(*args, **kwargs):
        raise AssertionError("agent text parsed again")

    monkeypatch.setattr(play, "parse_agent", no_parsing)
    (record,) = play.play_task(task.with_indices([0]))
    assert record["i"] == 0


def test_parties_and_experiment_validation():
    assert party_of(3) == ("bram", "tovar", "gunnhild")
    assert party_of("sela,orwin,bram") == ("sela", "orwin", "bram")
    with pytest.raises(SpecError, match="unknown hero 'gandalf'"):
        party_of("gandalf,bram,sela")
    with pytest.raises(SpecError, match="3-5"):
        party_of(2)
    with pytest.raises(SpecError, match="unknown adventure 'atlantis'"):
        Experiment(adventures=("atlantis",))
    with pytest.raises(SpecError, match="until"):
        Experiment(until=0.7)
    e = Experiment(adventures=("all",), parties=(3, "sela,orwin,bram"), games=5)
    assert len(e.cells) == 5 * 2 and e.to_json()["games"] == 5


def test_sweep_values():
    assert cli.sweep_values(["10:25:5"]) == [10, 15, 20, 25]
    assert cli.sweep_values(["1:3"]) == [1, 2, 3]
    assert cli.sweep_values(["1,2,4"]) == [1, 2, 4]
    assert cli.sweep_values(["+perceptive,-strong", "+agile"]) == ["+perceptive,-strong", "+agile"]
    with pytest.raises(SpecError):
        cli.sweep_values(["5:1"])


@pytest.mark.parametrize(
    "args, named",
    [
        (["--set", "light.strat=15"], "light.strat"),
        (["--set", "light.start=lots"], "light.start"),
        (["--set", "monsters.dragon.fight=3"], "monsters.dragon.fight"),
        (["--set", "heroes.bram.traits=+flying"], "heroes.bram.traits"),
        (["--set", "light.start"], "light.start"),
        (["--adventure", "atlantis"], "atlantis"),
        (["--heroes-agent", "wizard"], "wizard"),
    ],
)
def test_cli_rejects_bad_experiments_with_exit_code_2(args, named, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["balance", "--games", "1", "--quiet", *args])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "error" in err and named in err and "Traceback" not in err


def test_cli_sweep_rejects_an_unknown_parameter(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["sweep", "--param", "light.begin", "--values", "10:20:5", "--quiet"])
    assert exit_info.value.code == 2 and "light.begin" in capsys.readouterr().err


def test_reproduce_command_leaves_out_where_the_games_ran():
    argv = shlex.split("balance --games 5 --workers 2 --backend=serial --out x --quiet --seed 3")
    assert cli.reproduce_command(argv) == "dungeon-env balance --games 5 --seed 3"


def test_engine_env_and_agents_never_import_difficulty():
    offenders = []
    for folder in ("dungeon_env", "agents"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                names = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module]
                offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] == "difficulty"]
    assert offenders == []


@pytest.mark.parametrize("engine", ["core", "python"])
def test_a_games_record_from_the_summary_types_alone_is_its_whole_logs(engine):
    """``record_of`` reads only ``SUMMARY_TYPES`` of the log (``Game.events_of_types``): the same
    record as the whole log gives, on random games of every adventure."""
    import random

    from difficulty.record import SUMMARY_TYPES, record_of
    from dungeon_env.content import adventure_names
    from dungeon_env.engine import Game

    for k, name in enumerate(adventure_names()):
        g = Game.new(adventure=name, heroes=3 + k % 3, seed=k, max_turns=25, engine=engine)
        rng = random.Random(k)
        while not g.over:
            g.apply(rng.choice(g.legal_actions()))
        whole = g.events
        picked = g.events_of_types(SUMMARY_TYPES)
        assert picked == [e for e in whole if e["type"] in SUMMARY_TYPES] and len(picked) < len(whole)
        record = record_of(g, k)
        g.events_of_types = lambda _types, g=g: g.events  # the whole log
        assert record_of(g, k) == record
