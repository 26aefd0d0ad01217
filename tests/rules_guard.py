"""A guard on the Python rules: every function of the rule modules of ``dungeon_env/engine/`` (and
``Game``'s Python path) replaced by one that records its call, and raises, unless it is one of the
read-only helpers the product may still call (``READ_ONLY``, docs/CORE.md stage 7).

``with rules_guard() as calls:`` patches them wherever they are bound (each rule module, every
module that imported one of their functions by name, the decision table ``decisions.HANDLERS``, the
decision routes' parts); ``calls`` lists each call made as ``(function, caller)``, the caller the
first frame outside the rule modules, so that a product path that swallows the error is still
caught. ``raising=False`` only records (to take a census).
"""

from __future__ import annotations

import dataclasses
import inspect
import sys
import types
from contextlib import contextmanager

from dungeon_env.engine import decisions as decisions_module
from dungeon_env.engine.game import Game

# the rule modules (docs/CORE.md: layers 3 to 14, each with its C++ twin in src/core/rules/)
RULE_MODULES = (
    "board",
    "units",
    "casting",
    "inventory",
    "objectives",
    "pursuit",
    "encounters",
    "visibility",
    "effects",
    "abilities",
    "mental",
    "traps",
    "spells",
    "items",
    "combat",
    "movement",
    "trade",
    "explore",
    "turn",
    "decisions",
)
# Game's Python path: the set-up, the loop's legal list and apply, the ending
GAME_METHODS = ("_place", "_legal_for_top", "_apply_top", "finish", "check_end")
# the turn sequence's steps: they play even when a helper reaches them
PLAYS = frozenset({"turn.begin", "turn.resume"})
# what the product may still call: helpers that read a position and change nothing (docs/CORE.md,
# stage 7, "(b)"); every other function of the rule modules plays
READ_ONLY = frozenset(
    {
        # board: look-ups of the board as it stands (the scripted agents, the text and cost renders)
        "board.free",
        "board.is_corpse",
        "board.is_jumpable",
        "board.open_side",
        "board.open_neighbours",
        "board.trap_at",
        # units: names and rosters (Game.label, Game.active_heroes, unit_info)
        "units.label",
        "units.active_heroes",
        "units.has_trait",
        # what a hero holds, knows, is casting, may use (the scripted heroes, the action names)
        "casting.is_casting",
        "inventory.held",
        "spells.known",
        "spells.targets",
        "items.item_targets",
        "items.item_verbs",
        "abilities.card_abilities",
        "abilities.targets",
        "abilities.ready_pairs",
        "trade.corpse_items",
        "trade.receivers",
        # a Fight's and a check's modifiers (the scripted agents' Stamina, the cost render)
        "combat.hero_modifiers",
        "combat.monster_modifiers",
        "combat.enemy_counts",
        "effects.check_modifiers",
        "effects.live",
        # goals met (Game.goals_met and objectives(), the env's reports, shaping, the searches)
        "objectives.objective_met",
        "objectives.goals_met",
        "objectives.objectives_report",
        # a choose_target decision's candidates on a view for reading only (sideview.candidates_of)
        "decisions.target_candidates",
    }
)


def _rule_functions() -> dict[object, str]:
    """Every function defined in a rule module, by object, named ``module.function``."""
    found = {}
    for name in RULE_MODULES:
        module = sys.modules[f"dungeon_env.engine.{name}"]
        for attr, value in vars(module).items():
            if inspect.isfunction(value) and value.__module__ == module.__name__:
                found[value] = f"{name}.{attr}"
    return found


_RULE_FILES = tuple(f"/engine/{m}.py" for m in (*RULE_MODULES, "game")) + (__file__,)


def _caller() -> str:
    """The first frame outside the rule modules and game.py: who reached the Python rules."""
    frame = sys._getframe(3)
    while frame is not None and frame.f_code.co_filename.endswith(_RULE_FILES):
        frame = frame.f_back
    if frame is None:
        return "?"
    path = "/".join(frame.f_code.co_filename.rsplit("/", 2)[-2:])
    return f"{path}:{frame.f_lineno} {frame.f_code.co_name}"


_OURS = ("dungeon_env", "agents", "play", "difficulty", "training", "tests", "scripts")


class PythonRulesReached(AssertionError):
    """A product path reached a Python rule that plays."""


@contextmanager
def rules_guard(raising: bool = True, allowed: frozenset[str] = READ_ONLY):
    calls: list[tuple[str, str, bool]] = []
    inside = [0]  # the depth of allowed helpers being run (what they call in turn is theirs)

    active = [True]  # a wrapper a module imported meanwhile keeps passes calls through afterwards

    def entered(name: str) -> None:
        direct = not sys._getframe(2).f_code.co_filename.endswith(_RULE_FILES)
        calls.append((name, _caller(), direct))
        if raising:
            raise PythonRulesReached(f"the Python rules were reached: {name} (from {calls[-1][1]})")

    def guarded(func, name: str, strict: bool = False):
        if name in allowed:

            def guard(*args, **kwargs):
                if not active[0]:
                    return func(*args, **kwargs)
                inside[0] += 1
                try:
                    return func(*args, **kwargs)
                finally:
                    inside[0] -= 1

        else:

            def guard(*args, **kwargs):
                if active[0] and (strict or not inside[0]):
                    entered(name)
                return func(*args, **kwargs)

        guard.__wrapped__ = guard._guarded = func
        return guard

    functions = _rule_functions()
    wrappers = {f: guarded(f, n, n in PLAYS) for f, n in functions.items()}
    undo: list[tuple[object, str, object]] = []

    def patch(owner, attr: str, value) -> None:
        undo.append((owner, attr, getattr(owner, attr)))
        setattr(owner, attr, value)

    for module in list(sys.modules.values()):
        name = getattr(module, "__name__", None) or ""
        if not isinstance(module, types.ModuleType) or not name.startswith(_OURS):
            continue
        for attr, value in list(vars(module).items()):
            value = getattr(value, "_guarded", value)  # (bound by an import under an earlier guard)
            if inspect.isfunction(value) and value in wrappers:
                patch(module, attr, wrappers[value])
    # the decision routes hold their parts' functions, and the table its handlers
    for route in decisions_module.ROUTES.values():
        for part in route.parts:
            for field in dataclasses.fields(part):
                value = getattr(part, field.name)
                if inspect.isfunction(value) and value in wrappers:
                    undo.append((part, field.name, value))
                    object.__setattr__(part, field.name, wrappers[value])
    handlers = decisions_module.HANDLERS
    saved_handlers = dict(handlers)
    for kind, (legal, apply) in saved_handlers.items():
        handlers[kind] = (guarded(legal, "decisions.legal", True), guarded(apply, "decisions.apply", True))
    for method in GAME_METHODS:
        patch(Game, method, guarded(getattr(Game, method), f"Game.{method}", True))
    try:
        yield calls
    finally:
        active[0] = False
        handlers.update(saved_handlers)
        for owner, attr, value in reversed(undo):
            if dataclasses.is_dataclass(owner) and not isinstance(owner, type):
                object.__setattr__(owner, attr, value)
            else:
                setattr(owner, attr, value)
