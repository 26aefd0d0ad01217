"""The README and the docs stay true: their tables are the ones the code generates, their examples
run, and every command, file and link they name exists."""

import argparse
import importlib
import importlib.util
import json
import os
import re
import shlex
import tomllib
from pathlib import Path

from dungeon_env.engine.describe import action_table_markdown
from tests.markdown_links import dead_references, makefile_targets

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def _table_after(text: str, header: str) -> str:
    """The Markdown table of ``text`` that starts with the line ``header``, up to its blank line."""
    start = text.index(header)
    return text[start : text.index("\n\n", start)]


def test_the_action_table_is_the_generated_one():
    """The full table lives in docs/ACTIONS.md; the README's summary of decisions is the same as
    the one there, and links to it."""
    actions = (DOCS / "ACTIONS.md").read_text()
    readme = README.read_text()
    assert action_table_markdown() in actions
    decisions = _table_after(readme, "| decision | agent | legal actions |")
    assert decisions in actions and "| `hero_move` |" in decisions
    assert "(docs/ACTIONS.md)" in readme


def test_readme_shows_the_two_commands_as_the_makefile_runs_them():
    text = README.read_text()
    assert "make demo" in text and "make test" in text
    makefile = (ROOT / "Makefile").read_text()
    demo = makefile[makefile.index("\ndemo:") : makefile.index("\n\n", makefile.index("\ndemo:"))]
    assert "agents.demo" in demo and "$(STAMP)" in demo.splitlines()[1]  # the dev install only
    # the README's first balance command is the demo's question, as the Makefile asks it
    first = next(x for x in text.splitlines() if x.startswith("dungeon-env balance"))
    assert first.split("#")[0].strip() in demo.replace("$(VENV)/bin/", "")


def test_readme_agent_table_is_the_agent_language():
    """One plain line per agent, as ``agents.spec.AGENT_LINES`` says it, and no retired name offered."""
    from agents.spec import AGENT_LINES, RETIRED

    text = README.read_text()
    for name, line in AGENT_LINES.items():
        assert f"| `{name}` | {line} |" in text, name
    # a checkpoint of one's own (policy:FILE.zip) is no use of the retired bare name policy
    commands = re.sub(r"\bpolicy:(?:<file>|FILE|[^\s,:]*\.zip)", "CHECKPOINT", "\n".join(_commands(text)))
    for name in RETIRED:
        assert not re.search(rf"[=:,]{name}\b|\b{name}[,:]", commands), name


def test_observation_layout_doc_is_the_generated_one():
    from dungeon_env.observation import layout_markdown

    layout = layout_markdown()
    doc = (DOCS / "OBSERVATION.md").read_text()
    assert layout in doc
    assert layout.split("\n\n")[0] in README.read_text()  # the summary table in the README


def test_the_hero_table_of_content_doc_is_the_generated_one():
    from dungeon_env.engine.describe import hero_table_markdown

    assert hero_table_markdown() in (DOCS / "CONTENT.md").read_text()


def _python_blocks(path: Path = README) -> list[str]:
    text = path.read_text()
    return [block.split("```", 1)[0] for block in text.split("```python\n")[1:]]


def _run(block: str, where: str) -> dict:
    space = {"__name__": "readme"}
    exec(compile(block, where, "exec"), space)
    return space


def test_readme_quick_start_and_the_engine_example_run():
    """The env quick start (the README's first code) and the engine example of docs/ENGINE.md run
    as printed (the training example is the smoke-tested RoleEnv path, with a budget too large for a
    unit test)."""
    _run(_python_blocks()[0], "README.md")
    engine = next(b for b in _python_blocks(DOCS / "ENGINE.md") if "Game.new(" in b)
    _run(engine, "docs/ENGINE.md")


def test_campaign_example_runs():
    """As printed: the example defines its own ``policy`` (it raised NameError before issue 12)."""
    block = next(b for b in _python_blocks(DOCS / "ENGINE.md") if "Campaign(" in b)
    _run(block, "docs/ENGINE.md")


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


def test_content_doc_examples_run():
    blocks = _python_blocks(DOCS / "CONTENT.md")
    assert blocks and any("Variant.parse" in b for b in blocks)
    for block in blocks:
        _run(block, "docs/CONTENT.md")


def test_agents_example_runs():
    block = next(b for b in _python_blocks(DOCS / "AGENTS.md") if "from agents import make" in b)
    _run(block.replace("heroes=3)", "heroes=3, max_turns=6)"), "docs/AGENTS.md")


def test_rl_library_snippets_run_or_compile():
    """The snippets of docs/LIBRARIES.md: the parallel-view and SuperSuit ones run as printed; the
    others (RLlib, Tianshou: slow to start) compile, and the libraries' own tiny runs are
    tests/test_rllib.py and tests/test_tianshou.py. The README's section links there."""
    assert "(docs/LIBRARIES.md)" in README.read_text().split("## Use with RL libraries", 1)[1]
    blocks = _python_blocks(DOCS / "LIBRARIES.md")
    assert len(blocks) == 4
    for block in blocks:
        compile(block, "docs/LIBRARIES.md", "exec")
    runnable = [b for b in blocks if "parallel_env(adventure" in b]
    assert len(runnable) == 2  # the parallel view and SuperSuit
    for block in runnable:
        _run(block, "docs/LIBRARIES.md")


def test_every_relative_link_of_the_readme_and_docs_leads_to_a_file_and_heading():
    """README.md and docs/*.md: a link or image to a file in the repository finds it, and a
    ``#anchor`` names a heading there (the measurement write-ups moved to docs/ and link back)."""
    from tests.markdown_links import broken_links

    pages = [README, *sorted(DOCS.rglob("*.md"))]
    assert len(pages) > 10
    broken = {str(p.relative_to(ROOT)): links for p in pages if (links := broken_links(p))}
    assert not broken, f"links that lead nowhere: {broken}"


# --- every command and file the README names exists ----------------------------------------------


def _commands(text: str) -> list[str]:
    from tests.markdown_links import command_texts

    return command_texts(text)


def _subcommands() -> set[str]:
    """The subcommands of the ``dungeon-env`` console script, from the parser of its entry point."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module = importlib.import_module(scripts["dungeon-env"].split(":")[0])
    parser = module.build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return set(commands.choices)


def _module_exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def _dead(text: str, root: Path = ROOT) -> list[str]:
    return dead_references(text, root, makefile_targets(ROOT / "Makefile"), _subcommands(), _module_exists)


def test_every_command_and_file_the_readme_names_exists():
    """`make X` is a Makefile target, `dungeon-env X` a subcommand, `python -m X` a module, `python
    X.py` and every repository path in the README's code (`docs/PLAY.md`, `agents/spec.py`) a file."""
    text = README.read_text()
    named = _commands(text)
    assert any("make demo" in x for x in named) and any("dungeon-env balance" in x for x in named)
    assert not _dead(text), f"the README names what does not exist: {_dead(text)}"


def test_the_reference_checker_finds_what_does_not_exist():
    good = (
        "`make demo`, `make test-core`, `dungeon-env league`, `python -m training.evaluate --games 2`, "
        "`python scripts/bench.py`, `docs/PLAY.md`, `agents/spec.py`, `agents/policies/*.json`, "
        "`heroes/one-guard` (a task), `dungeon_env/heroes-one-guard-v1` (its Gymnasium id), "
        "`--out reports/demo/` (an output), `docs/benchmark/<task>.csv`\n\n"
        "```sh\ndungeon-env balance --variant examples/variants/darker.toml --out reports/x\n```\n"
        "```python\nvec = DummyVecEnv([make] * 4)  # make it so\n```\n"
    )
    assert _dead(good) == []
    bad = (
        "Run `make deploy`, then `dungeon-env frobnicate` and `python -m training.no_such_module`; "
        "`python scripts/no_such_script.py` writes `docs/NO_SUCH.md` from `agents/no_such/*.zip`.\n\n"
        "```bash\nmake demo && make nosuch\ndungeon-env balance --variant examples/variants/gone.toml\n```\n"
    )
    assert _dead(bad) == [
        "agents/no_such/*.zip",
        "docs/NO_SUCH.md",
        "dungeon-env frobnicate",
        "examples/variants/gone.toml",
        "make deploy",
        "make nosuch",
        "python -m training.no_such_module",
        "python scripts/no_such_script.py",
    ]


def test_a_readme_naming_a_retired_command_fails(tmp_path):
    """The check on a copy of the README with one fake command and one missing file added."""
    copy = tmp_path / "README.md"
    copy.write_text(README.read_text() + "\n```sh\ndungeon-env deploy --now\n```\nSee `docs/GONE.md`.\n")
    assert _dead(copy.read_text()) == ["docs/GONE.md", "dungeon-env deploy"]
