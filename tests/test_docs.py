"""The README stays true: its action table is the one the code generates."""

from pathlib import Path

from dungeon_env.engine.describe import action_table_markdown

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_action_table_matches_the_code():
    assert action_table_markdown() in README.read_text()


def test_readme_shows_the_two_commands():
    text = README.read_text()
    assert "make demo" in text and "make test" in text
