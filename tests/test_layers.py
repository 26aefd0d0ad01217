"""The layers import only downwards: the engine uses numpy, the standard library, the content and the
compiled core (``dungeon_env._core``);
``dungeon_env`` imports nothing from the layers above it (``agents``, ``training``, ``difficulty``,
``play``), which it reaches only through the declared agent provider (an entry point); no project
module imports, however indirectly, one that imports it back; agents reach the game through one
declared interface, ``env.unwrapped.game``. Every check reads the source with ``ast``."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

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


def test_engine_imports_only_numpy_stdlib_content_and_the_core():
    assert _offenders("engine", ("dungeon_env.engine", "dungeon_env.content", "dungeon_env._core")) == []


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
            if isinstance(node, ast.If | ast.Try):  # TYPE_CHECKING, or an import with a clear error
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


# ------------------------------------------------------------------------ the project's import drawing

PROJECT = ROOT.parent
PACKAGES = ("dungeon_env", "agents", "training", "difficulty", "play", "scripts")
ABOVE_DUNGEON_ENV = ("agents", "training", "difficulty", "play")


def project_modules(root: Path = PROJECT, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Every module of ``packages`` under ``root`` by its dotted name (a package by its own name)."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported_names(path: Path, name: str) -> dict[str, int]:
    """Every module name ``path`` (module ``name``) imports, by line: module level or inside a
    function, ``TYPE_CHECKING`` blocks and ``importlib.import_module("literal")`` calls included;
    ``from a import b`` gives ``a.b`` (``module_edges`` keeps it if ``a.b`` is a module, else ``a``;
    like import-linter and pydeps, the parent packages a dotted import runs first are not counted)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update({alias.name: node.lineno for alias in node.names})
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.update({f"{module}.{alias.name}": node.lineno for alias in node.names})
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.setdefault(node.args[0].value, node.lineno)
    return found


# extension modules built from C++: they import no project module, so they close no circle
COMPILED_MODULES = {"dungeon_env._core"}


def module_edges(modules: dict[str, Path]) -> dict[str, dict[str, int]]:
    """The import drawing of ``modules``: for each, the modules among them it imports, by line."""
    graph: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        edges: dict[str, int] = {}
        for target, line in imported_names(path, name).items():
            if target in COMPILED_MODULES:
                continue
            while target and target not in modules:  # ``from a import b``: b a name of module a
                target = target.rpartition(".")[0]
            if target and target != name:
                edges.setdefault(target, line)
        graph[name] = edges
    return graph


def find_cycles(graph: dict[str, dict[str, int] | set[str]]) -> list[list[str]]:
    """One import circle per strongly connected group of ``graph`` (Tarjan's algorithm, iterative):
    each as the path ``[a, b, ..., a]``; no circles, ``[]``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next((c for c in children if c in graph), None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1 or node in graph[node]:
                    groups.append(group)
    return [_circle_in(group, graph) for group in groups]


def _circle_in(group: set[str], graph) -> list[str]:
    """A shortest circle through the first member of ``group`` (breadth first inside the group)."""
    start = min(group)
    paths = {start: [start]}
    queue = [start]
    for node in queue:
        for child in sorted(graph[node]):
            if child == start:
                return [*paths[node], start]
            if child in group and child not in paths:
                paths[child] = [*paths[node], child]
                queue.append(child)
    raise AssertionError(f"no circle through {start} in {sorted(group)}")  # pragma: no cover


def _described(circle: list[str], graph) -> str:
    return (
        " -> ".join(
            f"{a} (line {graph[a][b]})" if isinstance(graph[a], dict) else a
            for a, b in zip(circle, circle[1:], strict=False)
        )
        + f" -> {circle[-1]}"
    )


def later_layer_imports(modules: dict[str, Path], package: str = "dungeon_env") -> list[str]:
    """Where a module of ``package`` imports a layer above it, at module level or in a function."""
    return [
        f"{name}:{line} imports {target}"
        for name, path in modules.items()
        if name.split(".")[0] == package
        for target, line in sorted(imported_names(path, name).items())
        if target.split(".")[0] in ABOVE_DUNGEON_ENV
    ]


def test_dungeon_env_imports_nothing_from_the_layers_above_it():
    """``dungeon_env`` never imports ``agents``, ``training``, ``difficulty`` or ``play``, not even
    inside a function: it builds the agents named by spec through the entry point (below)."""
    assert later_layer_imports(project_modules()) == []


def test_no_import_circle_among_the_project_modules():
    """No module of dungeon_env, agents, training, difficulty, play or scripts imports (however
    indirectly, function-level imports counted) a module that imports it back."""
    graph = module_edges(project_modules())
    assert len(graph) > 100 and "agents.pool" in graph["agents.spec"]  # the drawing is read
    assert [_described(circle, graph) for circle in find_cycles(graph)] == []


def test_the_cycle_finder_finds_planted_circles():
    """The finder itself can fail: circles in a small drawing are found (each once, as a path), and
    a drawing without one gives none."""
    drawing = {"a": {"b"}, "b": {"c", "d"}, "c": {"a"}, "d": set(), "e": {"e"}, "f": {"a", "g"}, "g": {"f"}}
    assert sorted(find_cycles(drawing)) == [["a", "b", "c", "a"], ["e", "e"], ["f", "g", "f"]]
    assert find_cycles({"a": {"b", "c"}, "b": {"c"}, "c": set(), "d": {"a"}}) == []
    long = {str(i): {str(i + 1)} for i in range(3000)} | {"3000": {"0"}}  # deep: no recursion limit
    assert len(find_cycles(long)) == 1 and len(find_cycles(long)[0]) == 3002


def test_the_import_checks_catch_a_planted_circle_and_an_upward_import(tmp_path):
    """Two modules importing each other (one inside a function, one through ``from package import
    module``) make a circle; a ``dungeon_env`` module importing ``agents`` inside a function is found."""
    (tmp_path / "dungeon_env").mkdir()
    (tmp_path / "dungeon_env" / "__init__.py").write_text("")
    (tmp_path / "dungeon_env" / "tasks.py").write_text(
        "def opponent(text):\n    from agents.spec import from_spec\n\n    return from_spec(text, 'dm')\n"
    )
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "__init__.py").write_text("")
    (tmp_path / "agents" / "spec.py").write_text("from agents import pool\n")
    (tmp_path / "agents" / "pool.py").write_text("def build():\n    from .spec import from_spec\n")
    modules = project_modules(tmp_path, ("dungeon_env", "agents"))
    graph = module_edges(modules)
    assert find_cycles(graph) == [["agents.pool", "agents.spec", "agents.pool"]]
    assert (
        _described(find_cycles(graph)[0], graph)
        == "agents.pool (line 2) -> agents.spec (line 1) -> agents.pool"
    )
    assert later_layer_imports(modules) == [
        "dungeon_env.tasks:2 imports agents.spec.from_spec",
    ]


# ------------------------------------------------------------------------ the declared interfaces


def test_the_agent_provider_is_a_declared_entry_point():
    """``pyproject.toml`` registers ``agents.spec:from_spec`` in the group ``dungeon_env.agents``, and
    the installed package exposes it (``pip install -e .`` registers entry points)."""
    import tomllib

    from agents.spec import from_spec
    from dungeon_env.wrappers import AGENT_ENTRY, AGENT_GROUP, agent_provider

    declared = tomllib.loads((PROJECT / "pyproject.toml").read_text())["project"]["entry-points"]
    assert declared[AGENT_GROUP] == {AGENT_ENTRY: "agents.spec:from_spec"}
    assert agent_provider() is from_spec


def test_without_an_agent_provider_the_error_names_what_to_install(monkeypatch):
    """No package registering the entry point: a spec other than ``random`` fails naming the group and
    what to install; ``random`` and agent objects still work."""
    import dungeon_env.wrappers as wrappers

    monkeypatch.setattr(wrappers, "entry_points", lambda **_: [])
    wrappers.agent_provider.cache_clear()
    try:
        with pytest.raises(wrappers.AgentProviderError, match="dungeon_env.agents.*pip install -e ."):
            wrappers.RoleEnv(role="heroes", opponent="scripted", adventure="flooded_cellar", heroes=3)
        env = wrappers.RoleEnv(role="heroes", opponent="random", adventure="flooded_cellar", heroes=3)
        assert isinstance(env.opponent, wrappers.RandomOpponent)
    finally:
        wrappers.agent_provider.cache_clear()


def test_agents_read_the_game_as_env_unwrapped_game():
    """Every env an agent is bound to gives the game as ``env.unwrapped.game``, through PettingZoo's,
    Gymnasium's and SuperSuit's wrappers; anything else is a TypeError naming what was given and what
    is accepted, and an env before its first reset a RuntimeError."""
    import gymnasium

    import dungeon_env
    from agents import ScriptedDM, game_of
    from dungeon_env.engine import Game
    from dungeon_env.tasks import make_task_gym
    from dungeon_env.wrappers import RoleEnv

    kwargs = {"adventure": "flooded_cellar", "heroes": 3, "max_turns": 3}
    aec = dungeon_env.env(**kwargs)
    with pytest.raises(RuntimeError, match="reset"):
        game_of(aec)
    aec.reset(seed=0)
    parallel = dungeon_env.parallel_env(**kwargs)
    parallel.reset(seed=0)
    role = RoleEnv(role="heroes", opponent="random", **kwargs)
    role.reset(seed=0)
    wrapped_role = gymnasium.wrappers.RecordEpisodeStatistics(gymnasium.wrappers.OrderEnforcing(role))
    task = gymnasium.make("dungeon_env/heroes-one-guard-v1", opponent="random")
    task.reset(seed=0)
    envs = [aec, aec.unwrapped, parallel, role, wrapped_role, task, make_task_gym("dm/ambush")]
    envs[-1].reset(seed=0)
    for env in envs:
        assert isinstance(game_of(env), Game) and game_of(env) is env.unwrapped.game, type(env).__name__
    game = Game.new(adventure="flooded_cellar", heroes=["bram", "sela", "orwin"], seed=0)
    assert game_of(game) is game
    dm = ScriptedDM(seed=0).bind(env=wrapped_role)
    assert dm.game is role.env.game
    for wrong in (object(), role.env.game.state, "flooded_cellar"):
        with pytest.raises(TypeError, match=r"env whose .unwrapped has .game.*; got \w+"):
            game_of(wrong)


def test_supersuit_wrappers_keep_the_game_behind_unwrapped():
    supersuit = pytest.importorskip("supersuit")
    import dungeon_env
    from agents import game_of

    env = supersuit.clip_reward_v0(dungeon_env.env(adventure="flooded_cellar", heroes=3, max_turns=3))
    env.reset(seed=0)
    assert game_of(env) is env.unwrapped.game is not None
