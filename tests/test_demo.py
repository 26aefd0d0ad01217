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


def test_demo_offers_no_shipped_networks(capsys):
    """Issue 53: the shipped networks are retired; ``--players policy`` is refused by argparse."""
    with pytest.raises(SystemExit) as exit_info:
        main(["--max-turns", "2", "--players", "policy"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'policy'" in err and "Traceback" not in err
