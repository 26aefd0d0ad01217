"""The layers import only downwards: the engine uses numpy, the standard library and the content."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "dungeon_env"
ALLOWED_OUTSIDE = {"numpy"}


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def _offenders(folder: str, allowed_own: tuple[str, ...]) -> list[str]:
    bad = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        for name in _imports(path):
            top = name.split(".")[0]
            if top == "dungeon_env":
                if not name.startswith(allowed_own):
                    bad.append(f"{path.name}: {name}")
            elif top not in ALLOWED_OUTSIDE and top not in sys.stdlib_module_names and top != "__future__":
                bad.append(f"{path.name}: {name}")
    return bad


def test_engine_imports_only_numpy_stdlib_and_content():
    assert _offenders("engine", ("dungeon_env.engine", "dungeon_env.content")) == []


def test_content_imports_only_numpy_and_stdlib():
    assert _offenders("content", ("dungeon_env.content",)) == []
