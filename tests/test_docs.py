"""The README stays true: its action table is the one the code generates."""

from pathlib import Path

from dungeon_env.engine.describe import action_table_markdown

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_action_table_matches_the_code():
    assert action_table_markdown() in README.read_text()


def test_readme_shows_the_two_commands():
    text = README.read_text()
    assert "make demo" in text and "make test" in text


def test_observation_layout_doc_is_the_generated_one():
    from dungeon_env.observation import layout_markdown

    layout = layout_markdown()
    doc = (README.parent / "docs" / "OBSERVATION.md").read_text()
    assert layout in doc
    assert layout.split("\n\n")[0] in README.read_text()  # the summary table in the README


def _python_blocks() -> list[str]:
    text = README.read_text()
    return [block.split("```", 1)[0] for block in text.split("```python\n")[1:]]


def test_readme_quick_start_and_engine_examples_run():
    """The env quick start and the engine example run as printed (the training example is the
    smoke-tested RoleEnv path, with a budget too large for a unit test)."""
    blocks = _python_blocks()
    for block in (blocks[0], blocks[1]):
        exec(compile(block, "README.md", "exec"), {"__name__": "readme"})


def test_readme_campaign_example_runs():
    import random

    block = next(b for b in _python_blocks() if "Campaign(" in b)
    rng = random.Random(0)
    exec(compile(block, "README.md", "exec"), {"policy": lambda game: rng.choice(game.legal_actions())})


def test_readme_agents_example_runs():
    block = next(b for b in _python_blocks() if "from agents import make" in b)
    exec(
        compile(block.replace("heroes=3)", "heroes=3, max_turns=6)"), "README.md", "exec"),
        {"__name__": "readme"},
    )
