"""The README stays true: its action table is the one the code generates."""

import json
import os
import re
import shlex
from pathlib import Path

from dungeon_env.engine.describe import action_table_markdown

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


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
    """As printed: the example defines its own ``policy`` (it raised NameError before issue 12)."""
    block = next(b for b in _python_blocks() if "Campaign(" in b)
    exec(compile(block, "README.md", "exec"), {"__name__": "readme"})


def test_readme_variant_files_are_shipped_and_load():
    from dungeon_env.content.variants import Variant

    named = re.findall(r"--variant (\S+\.toml)", README.read_text())
    shipped = sorted((ROOT / "examples" / "variants").glob("*.toml"))
    assert named and {p.name for p in shipped} >= {"darker.toml", "tougher_orcs.toml"}
    for path in [ROOT / name for name in named] + shipped:
        assert path.is_file(), f"README names {path.relative_to(ROOT)}, which is not shipped"
        variant = Variant.from_file(path)
        assert variant.name == path.stem and variant.to_json()["set"]


def test_readme_balance_example_runs_with_the_shipped_variants(tmp_path, capsys):
    """The README's ``--variant`` command, cut to two games a cell, with both shipped variants."""
    from difficulty import cli

    line = next(
        x for x in README.read_text().splitlines() if x.startswith("dungeon-env balance") and "--variant" in x
    )
    args = shlex.split(line.split("#")[0])[1:]
    args = args[: args.index("--until")] + ["--variant", "examples/variants/tougher_orcs.toml"]
    args += ["--games", "2", "--backend", "serial", "--quiet", "--out", str(tmp_path)]
    cwd = os.getcwd()
    os.chdir(ROOT)  # the README's paths are relative to the repository
    try:
        assert cli.main(args) == 0
    finally:
        os.chdir(cwd)
    report = json.loads((tmp_path / "report.json").read_text())
    assert {c["variant"] for c in report["cells"]} >= {"darker", "tougher_orcs"}


def test_readme_agents_example_runs():
    block = next(b for b in _python_blocks() if "from agents import make" in b)
    exec(
        compile(block.replace("heroes=3)", "heroes=3, max_turns=6)"), "README.md", "exec"),
        {"__name__": "readme"},
    )


def test_readme_rl_library_snippets_run_or_compile():
    """The parallel-view and SuperSuit snippets of "Use with RL libraries" run as printed; the
    others (RLlib, Tianshou: slow to start) compile, and the libraries'
    own tiny runs are tests/test_rllib.py and tests/test_tianshou.py."""
    text = README.read_text()
    section = text[text.index("## Use with RL libraries") : text.index("## Difficulty testing")]
    blocks = [block.split("```", 1)[0] for block in section.split("```python\n")[1:]]
    assert len(blocks) == 4
    for block in blocks:
        compile(block, "README.md", "exec")
    runnable = [b for b in blocks if "parallel_env(adventure" in b]
    assert len(runnable) == 2  # the parallel view and SuperSuit
    for block in runnable:
        exec(compile(block, "README.md", "exec"), {"__name__": "readme"})


def test_every_relative_link_of_the_readme_and_docs_leads_to_a_file_and_heading():
    """README.md and docs/*.md: a link or image to a file in the repository finds it, and a
    ``#anchor`` names a heading there (the measurement write-ups moved to docs/ and link back)."""
    from tests.markdown_links import broken_links

    pages = [README, *sorted((ROOT / "docs").rglob("*.md"))]
    assert len(pages) > 10
    broken = {str(p.relative_to(ROOT)): links for p in pages if (links := broken_links(p))}
    assert not broken, f"links that lead nowhere: {broken}"
