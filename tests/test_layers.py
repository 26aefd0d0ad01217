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


# ------------------------------------------------------------------------ the engine's module order

ENGINE = ROOT / "engine"


def _engine_imports(path: Path) -> dict[str, int]:
    """The engine modules ``path`` imports (module-level, TYPE_CHECKING and any other), by line."""
    found = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module == "dungeon_env.engine":
            found.update({alias.name: node.lineno for alias in node.names})
        elif (
            isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("dungeon_env.engine.")
        ):
            found[node.module.split(".")[2]] = node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("dungeon_env.engine."):
                    found[alias.name.split(".")[2]] = node.lineno
    found.pop(path.stem, None)
    return found


def _layer_of() -> dict[str, int]:
    from dungeon_env.engine import LAYERS

    return {module: i for i, layer in enumerate(LAYERS) for module in layer}


def test_every_engine_module_has_one_layer():
    from dungeon_env.engine import LAYERS

    named = [module for layer in LAYERS for module in layer]
    files = sorted(p.stem for p in ENGINE.glob("*.py") if p.stem != "__init__")
    assert sorted(named) == files and len(named) == len(set(named))


def test_engine_modules_import_only_lower_layers():
    """The import drawing of the engine has no circle: a module imports only modules of lower
    layers (``dungeon_env.engine.LAYERS``), type-only imports included."""
    layer = _layer_of()
    bad = [
        f"{path.stem} (layer {layer[path.stem]}) imports {name} (layer {layer.get(name)}) at line {line}"
        for path in sorted(ENGINE.glob("*.py"))
        if path.stem != "__init__"
        for name, line in _engine_imports(path).items()
        if layer.get(name, len(layer)) >= layer[path.stem]
    ]
    assert bad == []


def test_no_function_local_imports_in_the_engine():
    """Every import of an engine module is at its top (or in its TYPE_CHECKING block)."""
    bad = []
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text())
        top = {id(node) for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)}
        for node in tree.body:
            if isinstance(node, ast.If):
                top |= {id(n) for n in node.body if isinstance(n, ast.Import | ast.ImportFrom)}
        bad += [
            f"{path.name}:{node.lineno}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in top
        ]
    assert bad == []


def test_the_layer_check_catches_an_upward_import(tmp_path):
    """The check itself can fail: a low module importing a higher one is reported."""
    fake = tmp_path / "board.py"
    fake.write_text("from dungeon_env.engine import movement\nfrom dungeon_env.engine.game import Game\n")
    layer = _layer_of()
    upward = [name for name in _engine_imports(fake) if layer[name] >= layer["board"]]
    assert sorted(upward) == ["game", "movement"]
