"""``make demo`` in a smoke form: the demo plays a whole (short) adventure and reports how it ended."""

from agents.demo import main


def test_demo_plays_an_adventure_to_its_end(capsys):
    outcome = main(["--max-turns", "6", "--heroes", "3", "--seed", "1"])
    out = capsys.readouterr().out
    assert outcome in ("completed", "failed", "truncated")
    assert f"Outcome: {outcome}" in out and "Goal:" in out


def test_demo_with_random_players(capsys):
    assert main(["--max-turns", "3", "--random"]) in ("completed", "failed", "truncated")
