"""Links in the project's Markdown: GitHub's heading anchors, and relative links that lead nowhere."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

# [text](target): text may wrap over lines; the target has no spaces. Images are ![alt](target).
LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")
IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower()
    text = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of ``path``'s headings (outside code blocks), numbered as GitHub numbers repeats."""
    seen: dict[str, int] = {}
    out = set()
    for line in FENCE.sub("", path.read_text(encoding="utf-8")).splitlines():
        m = re.match(r"^#{1,6} (.+)$", line)
        if not m:
            continue
        name = slug(m.group(1))
        n = seen.get(name, 0)
        seen[name] = n + 1
        out.add(name if n == 0 else f"{name}-{n}")
    return out


def broken_links(path: Path) -> list[str]:
    """The relative links and images of ``path`` whose file is missing, or whose ``#anchor`` names no
    heading of the Markdown file it points to."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    broken = []
    for pattern in (LINK, IMAGE):
        for m in pattern.finditer(text):
            target = m.group(2)
            if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
                continue
            file_part, _, anchor = target.partition("#")
            file = (path.parent / file_part).resolve() if file_part else path
            if not file.exists() or (anchor and file.suffix == ".md" and anchor not in anchors(file)):
                broken.append(target)
    return broken


# --- commands and files a page names --------------------------------------------------------------

CODE_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
SHELLS = {"", "sh", "bash", "shell", "console"}  # code blocks whose lines are commands
MAKE = re.compile(r"(?:^|[\s;&|(])make ([A-Za-z][\w-]*)")
SUBCOMMAND = re.compile(r"(?:^|[\s;&|(/])dungeon-env ([a-z][\w-]*)")
MODULE = re.compile(r"(?:^|[\s;&|(/])python3? -m ([A-Za-z_][\w.]*)")
SCRIPT = re.compile(r"(?:^|[\s;&|(/])python3? ((?!-)[\w./-]+\.py)\b")
OUTPUT_ROOTS = {"reports", "runs", "saves"}  # where the commands write: named, never shipped


def command_texts(text: str) -> list[str]:
    """Where a Markdown page names commands and paths: the inline code spans of its prose and the
    lines of its shell code blocks (Python blocks are code, run by their own tests)."""
    shell, prose, fence = [], [], None  # fence: the language of the open code block, if any
    for line in text.splitlines():
        m = re.match(r"^```\s*(\w*)", line)
        if m:
            fence = None if fence is not None else m.group(1)
        elif fence is None:
            prose.append(line)
        elif fence in SHELLS:
            shell.append(line)
    return shell + CODE_SPAN.findall("\n".join(prose))


def _path_tokens(snippet: str, top_level: set[str]) -> list[str]:
    """Tokens of ``snippet`` that name a path in the repository: a first component that is a
    top-level entry of it, no placeholder (``<task>``) or option in them."""
    out = []
    for token in snippet.split():
        token = token.strip("'\"(),;:")
        if "/" not in token or any(c in token for c in "<>{}=$[]") or re.match(r"^[a-z]+:", token):
            continue
        if re.search(r"-v\d+$", token):  # a Gymnasium id, dungeon_env/heroes-one-guard-v1
            continue
        if token.split("/")[0] in top_level:
            out.append(token)
    return out


def dead_references(
    text: str,
    root: Path,
    make_targets: set[str],
    subcommands: set[str],
    module_exists,
    top_level: set[str] | None = None,
) -> list[str]:
    """What ``text`` names in its code (inline spans and shell blocks) that does not exist: a
    ``make`` target the Makefile lacks, a ``dungeon-env`` subcommand the CLI lacks, a ``python -m``
    module that cannot be found, a ``python x.py`` script or a repository path (``docs/PLAY.md``,
    ``agents/spec.py``, ``agents/policies/*.zip``) that is not under ``root``. ``top_level`` is the
    repository's top-level entries (default: those under ``root``), which tell its paths from
    others (a task id ``heroes/one-guard``, an output folder ``reports/demo/``)."""
    if top_level is None:
        top_level = {p.name for p in root.iterdir() if not p.name.startswith(".")} - OUTPUT_ROOTS
    dead = []
    for snippet in command_texts(text):
        dead += [f"make {t}" for t in MAKE.findall(snippet) if t not in make_targets]
        dead += [f"dungeon-env {s}" for s in SUBCOMMAND.findall(snippet) if s not in subcommands]
        dead += [f"python -m {m}" for m in MODULE.findall(snippet) if not module_exists(m)]
        scripts = SCRIPT.findall(snippet)
        dead += [f"python {s}" for s in scripts if not (root / s).is_file()]
        for path in set(_path_tokens(snippet, top_level)) - set(scripts):
            found = list(root.glob(path.rstrip("/"))) if "*" in path else [root / path.rstrip("/")]
            if not found or not all(p.exists() for p in found):
                dead.append(path)
    return sorted(set(dead))


def makefile_targets(makefile: Path) -> set[str]:
    """The targets a Makefile defines (``name:`` at a line's start; pattern and file rules left out)."""
    targets = set()
    for line in makefile.read_text().splitlines():
        m = re.match(r"^([A-Za-z][\w-]*)\s*:(?!=)", line)
        if m:
            targets.add(m.group(1))
    return targets
