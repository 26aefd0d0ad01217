"""Nothing is called trained without its measurement (issue 53): a network ships in
``agents/policies/`` only as ``trained_<side>.zip`` beside ``trained_<side>.json``, the held-out
measurement that earned it the name, and only if that measurement clears the bar on every adventure;
while none ships, the name ``trained`` is refused with a message that says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.spec import AgentSpecError, parse_spec
from dungeon_env.content import adventure_names

POLICIES = Path(__file__).resolve().parent.parent / "agents" / "policies"
SIDES = ("heroes", "dm")
MIN_GAMES = 1000  # issue 53: held-out games per adventure


def shipped_networks() -> list[Path]:
    return sorted(POLICIES.glob("*.zip"))


def test_every_shipped_network_is_a_trained_policy_with_its_measurement():
    for path in shipped_networks():
        side = path.stem.removeprefix("trained_")
        assert path.stem.startswith("trained_") and side in SIDES, f"{path.name}: not trained_<side>.zip"
        measurement = path.with_suffix(".json")
        assert measurement.is_file(), f"{path.name} ships without {measurement.name}"
        report = json.loads(measurement.read_text())
        by_adventure = report["adventures"]
        assert set(by_adventure) == set(adventure_names()), f"{measurement.name}: not every adventure"
        for adventure, row in by_adventure.items():
            assert row["games"] >= MIN_GAMES, f"{measurement.name}: {adventure} on {row['games']} games"
            assert row["difference"] >= 0, f"{measurement.name}: {adventure} below the scripted v2"
            assert 0 < row["differs_from_teacher"] < 1, f"{measurement.name}: {adventure} copies its teacher"


@pytest.mark.parametrize("side", SIDES)
def test_trained_names_a_policy_only_when_one_ships(side):
    if (POLICIES / f"trained_{side}.zip").is_file():
        assert parse_spec("trained", side).name == "trained"
    else:
        with pytest.raises(AgentSpecError, match="no trained policy ships"):
            parse_spec("trained", side)
