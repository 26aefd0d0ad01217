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
