"""Difficulty testing end to end, on short games (a low turn cap): reproducible reports, every backend
giving the same figures, variants changing what they name under common random numbers, the
"until ±X" rule, the console script."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

import difficulty
from difficulty import report
from difficulty.backends import SerialBackend
from difficulty.runner import run
from difficulty.spec import Experiment

SHORT = {"max_turns": 8, "backend": "serial"}


def _json(rep: dict) -> str:
    return json.dumps(rep, indent=1)


def _figures(**kw) -> dict:
    return report.figures(run(Experiment(**{**SHORT, **kw})))


def test_same_seed_same_report(tmp_path):
    kw = {"games": 4, "seed": 11, "variants": (None, ["light.start=15"])}
    a = report.write(run(Experiment(**SHORT, **kw)), tmp_path / "a")
    b = report.write(run(Experiment(**SHORT, **kw)), tmp_path / "b")
    assert _json(a) == _json(b)
    for name in ("report.json", "report.md"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    records = run(Experiment(**SHORT, games=2, seed=12)).records[0]
    assert [(r["i"], r["seed"]) for r in records] == [(0, 12), (1, 13)]  # game i: seed + i


def test_the_report_gives_both_rates_truncation_and_hero_deaths(tmp_path):
    """The headline says what it counts: completion and completion with every primary goal, each with
    its Wilson interval; how games ended (truncated among them) and hero deaths per game beside them;
    comparisons paired on the goals rate."""
    result = run(Experiment(**SHORT, games=4, seed=2, variants=(None, ["light.start=15"])))
    rep = report.write(result, tmp_path)
    for cell, records in zip(rep["cells"], result.records, strict=True):
        done = sum(r["outcome"] == "completed" for r in records)
        won = sum(r["outcome"] == "completed" and r["goals_met"] for r in records)
        assert (cell["completed"]["count"], cell["completed_with_goals"]["count"]) == (done, won)
        assert cell["ends"]["truncated"]["count"] == sum(r["outcome"] == "truncated" for r in records)
        deaths = sum(h["died"] for r in records for h in r["heroes"])
        assert cell["hero_deaths_per_game"] == pytest.approx(deaths / len(records))
        for r in records:  # every blow a hero took has a source
            assert sum(r["wounds"].values()) == sum(h["damage"] for h in r["heroes"])
        damage = sum(h["damage"] for r in records for h in r["heroes"])
        assert cell["wounds"]["damage_per_game"] == pytest.approx(damage / len(records), abs=1e-6)
        assert "win" not in cell
    assert set(rep["comparisons"][0]["completed_with_goals"]) >= {"base", "variant", "difference_ci"}
    md = (tmp_path / "report.md").read_text()
    header = next(line for line in md.splitlines() if line.startswith("| adventure | party"))
    for column in ("completed", "completed with goals", "completed without goals", "failed", "truncated"):
        assert f"| {column} |" in header
    assert "| hero deaths / game |" in header
    assert "## Win rates: completed, and completed with goals" in md
    assert "What hurts the heroes: each source's share of the damage" in md
    assert "| base: with goals | variant: with goals |" in md


def test_process_backend_gives_the_serial_figures():
    kw = {"games": 6, "seed": 3, "adventures": ("flooded_cellar", "goblin_warrens"), "max_turns": 8}
    serial = report.figures(run(Experiment(backend="serial", **kw)))
    local = report.figures(run(Experiment(backend="local", workers=2, **kw)))
    assert _json(local) == _json(serial)


def test_variant_changes_what_it_names_and_crn_keeps_the_base():
    alone = _figures(games=5, seed=1)
    both = _figures(games=5, seed=1, variants=(None, ["light.start=15"], ["heroes.bram.traits=+perceptive"]))
    base, light, perceptive = both["cells"]
    assert _json(alone["cells"][0]) == _json(base)  # adding variants changes nothing in the base cell
    # 8 turns of a 20 (or 15) Light game: Light left is the start minus the turns played
    assert light["light_left"]["mean"] < base["light_left"]["mean"] - 4
    bram = [h for h in perceptive["heroes"] if h["hero"] == "bram"][0]
    assert "perceptive" in bram["traits"] and "perceptive" not in base["heroes"][0]["traits"]
    assert {t["trait"] for t in perceptive["traits"]} >= {"perceptive"}
    light_vs_base = both["comparisons"][0]
    assert light_vs_base["variant"] == "light.start=15" and light_vs_base["games"] == 5
    assert light_vs_base["light_left_difference"] < -4


def test_until_stops_each_cell_by_the_interval_rule():
    kw = {
        "until": 0.12,
        "max_games": 60,
        "seed": 5,
        "max_turns": 6,
        "pairings": ("scripted:scripted", "random:scripted"),
    }
    result = run(Experiment(backend="serial", **kw))
    figures = report.figures(result)
    for cell in figures["cells"]:  # both rates narrow enough at a look (50, 75, ...) or at the cap
        widest = max(cell[k]["half_width"] for k in ("completed", "completed_with_goals"))
        assert widest <= 0.12 or cell["games"] == 60
        assert cell["games"] == 60 or (cell["games"] - 50) % 25 == 0
    # random heroes never finish in 6 turns: 0 wins of 50 is within ±12% at the first look
    assert figures["cells"][1]["games"] == 50
    local = report.figures(run(Experiment(backend="local", workers=2, **kw)))
    assert _json(local) == _json(figures)


class _TogetherBackend(SerialBackend):
    """Every chunk in flight finishes at once (as several workers' chunks can, the first of them
    stopping the cell that a later one belongs to)."""

    capacity = 6

    def wait(self):
        done = [(handle, self._play(task)) for handle, task in sorted(self._pending.items())]
        self._pending.clear()
        return done


def test_until_drops_a_chunk_that_finished_beside_the_one_that_stopped_its_cell():
    kw = {"until": 0.2, "max_games": 60, "seed": 5, "max_turns": 6, "pairings": ("random:scripted",)}
    serial = report.figures(run(Experiment(backend="serial", **kw)))
    together = report.figures(run(Experiment(backend="serial", **kw), backend=_TogetherBackend()))
    assert serial["cells"][0]["games"] < 60 and _json(together) == _json(serial)


@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None, reason="ray is not installed (pip install -e '.[ray]')"
)
def test_ray_backend_on_a_local_instance():
    kw = {"games": 3, "seed": 2, "max_turns": 6}
    serial = report.figures(run(Experiment(backend="serial", **kw)))
    ray_figures = report.figures(run(Experiment(backend="ray", workers=1, **kw)))
    assert _json(ray_figures) == _json(serial)


def test_sweep_api_draws_a_curve(tmp_path):
    rep = difficulty.sweep("light.start", [10, 20], games=3, max_turns=6, backend="serial", out=tmp_path)
    sweep = rep["sweep"]
    assert sweep["param"] == "light.start" and [p["value"] for p in sweep["curves"][0]["points"]] == [10, 20]
    assert (tmp_path / "sweep.png").stat().st_size > 0 and "## Sweep" in (tmp_path / "report.md").read_text()


def test_a_sweep_of_whole_numbers_is_ticked_at_whole_numbers(tmp_path):
    from difficulty import plots

    few = difficulty.sweep("light.start", [1, 2], games=2, max_turns=4, backend="serial", out=tmp_path)
    assert list(plots.sweep_figure(few).axes[0].get_xticks()) == [1, 2]  # matplotlib's own: 1.0, 1.2, ...
    many = {**few, "sweep": {**few["sweep"], "values": list(range(1, 15))}}
    ticks = plots.sweep_figure(many).axes[0].get_xticks()
    assert len(ticks) > 1 and all(float(t).is_integer() for t in ticks)


def test_console_script_end_to_end(tmp_path):
    script = Path(sys.executable).parent / "dungeon-env"
    assert script.exists(), "dungeon-env is not installed: pip install -e '.[dev]'"
    out = tmp_path / "report"
    args = ["balance", "--games", "3", "--max-turns", "6", "--set", "light.start=15", "--workers", "2"]
    done = subprocess.run(
        [str(script), *args, "--out", str(out)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "light.start=15" in done.stdout and "report.md" in done.stdout
    assert "| completed | 95% interval | completed with goals | 95% interval |" in done.stdout
    assert "light.start=15 against base: completed with goals " in done.stdout
    assert f"plots: {out / 'survival.png'}" in done.stdout  # says where the plots are
    for name in ("report.md", "report.json", "timing.json", "winrate.png", "turns.png", "survival.png"):
        assert (out / name).stat().st_size > 0, name
    rep = json.loads((out / "report.json").read_text())
    assert [c["variant"] for c in rep["cells"]] == ["base", "light.start=15"]
    assert "![both rates per cell" in (out / "report.md").read_text()


@pytest.mark.parametrize("pairing", [("scripted", "scripted"), ("policy:HEROES", "policy:DM")])
def test_observation_path_plays_the_same_games_as_the_engine_path(pairing, tmp_path):
    """Agents bound to the env play the very games they play on the bare engine (same seeds, same
    variant): scripted agents, and checkpoints, which build their own observations there.
    Both paths keep the episode by one bookkeeping (``dungeon_env.episode.Episode``), so what this
    checks is what each agent reads (the game or the env's observation); the same agent objects play
    both paths, each checkpoint loaded once."""
    from difficulty.play import make_side, play_engine_game, play_env_game
    from difficulty.spec import parse_agent

    if pairing[0].startswith("policy:"):
        pytest.importorskip("sb3_contrib")
        from tests.checkpoints import tiny_checkpoint

        heroes_file = tiny_checkpoint(tmp_path / "heroes.zip", "heroes")
        dm_file = tiny_checkpoint(tmp_path / "dm.zip", "dm")
        pairing = (f"policy:{heroes_file}", f"policy:{dm_file}")

    task = {
        "adventure": "flooded_cellar",
        "party": ["bram", "sela", "orwin"],
        "max_turns": 10,
        "heroes_agent": parse_agent(pairing[0], "heroes").to_json(),
        "dm_agent": parse_agent(pairing[1], "dm").to_json(),
        "variant": {"name": "dark", "set": {"light.start": 12}},
        "seed": 4,
    }
    heroes, dm = (
        make_side(parse_agent(pairing[0], "heroes"), "heroes"),
        make_side(parse_agent(pairing[1], "dm"), "dm"),
    )
    for i in range(2):
        engine = play_engine_game(task, i, heroes, dm)
        assert play_env_game(task, i, heroes, dm) == engine


def test_balance_api_returns_the_report():
    rep = difficulty.balance(
        adventures="goblin_warrens", parties="sela,orwin,bram", variants=[None, ["monsters.goblin.health=1"]],
        games=2, max_turns=4, backend="serial",
    )  # fmt: skip
    assert [(c["adventure"], c["party"], c["variant"]) for c in rep["cells"]] == [
        ("goblin_warrens", ["sela", "orwin", "bram"], "base"),
        ("goblin_warrens", ["sela", "orwin", "bram"], "monsters.goblin.health=1"),
    ]
    assert rep["comparisons"][0]["games"] == 2 and rep["format"] == "dungeon_env.balance/2"
