"""scripts/bench_aims.py: the verdict of an aim from its figure and target, the batched aim "not built"
while its module does not import, and each measurement run with a tiny budget (never a timing)."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import bench_aims  # noqa: E402
from bench_aims import Aim  # noqa: E402

from dungeon_env.engine import Game  # noqa: E402


def aim(figure, target=10.0, **kw) -> Aim:
    return Aim("k", "an aim", figure, target, "x", "python scripts/bench_aims.py", **kw)


def test_a_figure_at_or_above_its_target_is_met_below_it_missed():
    assert aim(12.0).verdict == "MET"
    assert aim(10.0).verdict == "MET"
    assert aim(9.99).verdict == "MISSED"
    assert aim(1.0).verdict == "MISSED"


def test_a_time_or_a_size_is_met_at_or_below_its_target():
    assert aim(20.0, 30.0, at_most=True).verdict == "MET"
    assert aim(30.0, 30.0, at_most=True).verdict == "MET"
    assert aim(905.0, 30.0, at_most=True).verdict == "MISSED"


def test_a_figure_reached_without_its_condition_is_missed_and_no_figure_is_not_built():
    assert aim(12.0, holds=False).verdict == "MISSED"  # the search: faster, other choices
    assert aim(None).verdict == "NOT BUILT"
    assert aim(None, at_most=True).to_json()["verdict"] == "NOT BUILT"


def test_the_table_has_one_line_per_aim_with_its_verdict_and_command():
    aims = [aim(12.0), aim(1.0), aim(None, note="dungeon_env.batched does not import")]
    text = bench_aims.table(aims)
    rows = [line for line in text.splitlines() if line.startswith("an aim")]
    assert [row.rsplit("  ", 1)[-1] for row in rows] == ["MET", "MISSED", "NOT BUILT"]
    assert text.count("$ python scripts/bench_aims.py") == 3


def test_the_batched_aim_is_not_built_while_its_module_does_not_import(monkeypatch):
    monkeypatch.setitem(sys.modules, "dungeon_env.batched", None)  # import raises ImportError
    assert bench_aims.batched_steps_per_second(0.01) is None
    aims, raw = bench_aims.measure(bench_aims.parse_args(["--seconds", "0.01", "--only", "batched"]))
    assert [(a.key, a.verdict) for a in aims] == [("batched", "NOT BUILT")]
    assert raw["batched"] is None


class FakeBatched:
    """The API bench_aims expects of dungeon_env.batched.BatchedRoleEnv; checks its actions are legal."""

    def __init__(self, num_envs, role, adventure, heroes, opponent, max_turns):
        assert (role, opponent) == ("heroes", "random")
        self.n, self.rng = num_envs, np.random.default_rng(1)
        self.masks = None

    def reset(self, seed=None):
        self.masks = self.rng.random((self.n, 7)) < 0.5
        self.masks[:, 0] = True
        return np.zeros((self.n, 3)), {}

    def action_masks(self):
        return self.masks

    def step(self, actions):
        assert actions.shape == (self.n,)
        assert self.masks[np.arange(self.n), actions].all()
        self.reset()


def test_the_batched_aim_measures_the_module_when_it_imports(monkeypatch):
    module = types.ModuleType("dungeon_env.batched")
    module.BatchedRoleEnv = FakeBatched
    monkeypatch.setitem(sys.modules, "dungeon_env.batched", module)
    rate = bench_aims.batched_steps_per_second(0.02, num_envs=8)
    assert rate is not None and rate > 0
    fast = aim(rate, target=rate / 2)
    assert fast.verdict == "MET"


def test_games_needed_follows_the_tools_rule():
    from difficulty.runner import FIRST_LOOK, LOOK_EVERY

    half = bench_aims.games_needed(0.5, 0.5)
    assert 2_300 <= half <= 2_500  # 1.96² · 0.25 / 0.02² ≈ 2,400 (docs/DIFFICULTY.md)
    assert (half - FIRST_LOOK) % LOOK_EVERY == 0  # a look of the runner
    assert bench_aims.games_needed(0.89, 0.5) == half  # the wider interval decides
    assert 850 <= bench_aims.games_needed(0.89, 0.89) <= 1_000  # about 940 at p = 0.89
    assert FIRST_LOOK <= bench_aims.games_needed(1.0, 1.0) <= 200  # Wilson: wide at 0 or n wins too


def test_the_engine_and_env_ratios_come_from_one_alternated_run():
    rates = bench_aims.step_rates(0.05, Game)
    for key in ("engine_vs_c4", "env", "raw_env"):
        assert rates[key] > 0
    names = {"c4 env()", "ours env()", "c4 raw_env", "ours raw_env", "candidate"}
    assert set(rates["median"]) == names


def test_the_search_makes_the_choices_it_made_before_the_compiled_core(monkeypatch):
    """The reference file holds the first searches of each side on the engine before the core; the
    engine now (with compiled pieces) must choose the same, with the same iterations."""
    monkeypatch.setattr(bench_aims, "SEARCHES_PER_SIDE", 1)
    result = bench_aims.search_rates(0.02, Game, rounds=1)
    assert [row[0] for row in result["choices"]] == ["heroes", "dm"]  # one search a side
    assert result["rate"] > 0 and result["vs_c4"] > 0
    before = bench_aims.load_reference()["search_choices"]
    firsts = [next(row for row in before if row[0] == side) for side in ("heroes", "dm")]
    assert result["choices"] == firsts


def test_the_balance_estimate_plays_a_few_games_and_counts_the_games_needed():
    result = bench_aims.balance_answer(games=2, until=False, workers=1)
    assert result["mode"] == "estimated"
    assert result["games_played"] >= 2
    assert result["games_needed"] >= 50
    assert result["seconds"] == pytest.approx(result["games_needed"] / result["games_per_second"])


def test_main_writes_the_figures_as_json(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "dungeon_env.batched", None)
    out = tmp_path / "aims.json"
    bench_aims.main(["--seconds", "0.03", "--only", "engine,batched", "--json", str(out)])
    figures = json.loads(out.read_text())
    assert [(a["key"], a["verdict"]) for a in figures["aims"]][-1] == ("batched", "NOT BUILT")
    engine = {a["key"]: a for a in figures["aims"] if a["key"].startswith("engine")}
    assert set(engine) == {"engine_vs_today", "engine_vs_c4"}
    for aim in engine.values():  # the verdict says what the figure does (timing: either way)
        assert aim["figure"] > 0 and aim["verdict"] == ("MET" if aim["figure"] >= aim["target"] else "MISSED")
    assert "NOT BUILT" in capsys.readouterr().out
