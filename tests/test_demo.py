"""``make demo`` in a smoke form: the demo plays a whole (short) adventure with each kind of player,
prints a line per turn and reports how it ended."""

import pytest

from agents.demo import main


@pytest.mark.parametrize("players", ["scripted", "random"])
def test_demo_plays_an_adventure_to_its_end(capsys, players):
    outcome = main(["--max-turns", "6", "--heroes", "3", "--seed", "1", "--players", players])
    out = capsys.readouterr().out
    assert outcome in ("completed", "failed", "truncated")
    assert f"Outcome: {outcome}" in out and "Goal:" in out and "turn   1  Light" in out


def test_demo_seats_the_scripted_agents_by_default_and_says_so(capsys):
    main(["--max-turns", "2", "--heroes", "3", "--seed", "2"])
    assert "scripted heroes against the scripted Dungeon Master" in capsys.readouterr().out


def test_demo_seats_the_shipped_networks_when_asked(capsys):
    pytest.importorskip("sb3_contrib")
    outcome = main(
        ["--max-turns", "4", "--heroes", "3", "--seed", "2", "--show-every", "2", "--players", "policy"]
    )
    out = capsys.readouterr().out
    assert "policy heroes against the policy Dungeon Master" in out
    assert f"Outcome: {outcome}" in out and "turn   4  Light" in out
