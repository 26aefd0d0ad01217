"""dungeon_env: a PettingZoo environment for a dungeon crawl, heroes against a Dungeon Master.

``dungeon_env.env(**options)`` makes the wrapped AEC environment, ``dungeon_env.raw_env`` is the
unwrapped class; both live in ``dungeon_env.aec``, whose docstring is the env card
(``help(dungeon_env.aec)``: options, spaces, rewards, termination). ``dungeon_env.parallel_env(**options)``
is the turn-based parallel view (``dungeon_env.parallel``: its rule). ``dungeon_env.describe_action(game,
action)`` names an action in words, in the context of the decision asked (``dungeon_env.render.actions``);
``dungeon_env.make_task(name)`` makes a learning task's env (``dungeon_env.tasks``);
``dungeon_env.batched`` steps N games in one call into preallocated arrays (one side as a Gymnasium
vector env, or both sides).
Importing the package is light:
the environment (PettingZoo, Gymnasium) loads on first use of these names.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["describe_action", "env", "make_task", "parallel_env", "raw_env"]


def env(**options: Any):
    """The environment as users should get it: ``raw_env(**options)`` in PettingZoo's
    order-enforcing wrapper. The options and the env card: ``help(dungeon_env.aec)``."""
    return import_module("dungeon_env.aec").env(**options)


def parallel_env(**options: Any):
    """The turn-based parallel view of ``env(**options)``, a PettingZoo ``ParallelEnv``: each step
    plays the action of the one agent the game asks (``help(dungeon_env.parallel)``: the rule)."""
    return import_module("dungeon_env.parallel").parallel_env(**options)


def make_task(name: str, **overrides: Any):
    """A learning task as the PettingZoo env (``dungeon_env.tasks``: ``make_task("heroes/one-guard")``;
    ``dungeon_env.tasks.make_task_gym`` gives its learning side as a Gymnasium env)."""
    return import_module("dungeon_env.tasks").make_task(name, **overrides)


def describe_action(game, action: int, names=None) -> str:
    """What ``action`` does in the decision ``game`` asks now ("Drink: Healing Potion", "Cast Sleep
    (level 2) at Orc Warrior m2", "Spend 1 Stamina: Fight 6 against Orc Warrior m3's 4: win 72%...").
    Pass a side's view of the game (``dungeon_env.engine.sideview``) to name it for that side."""
    return import_module("dungeon_env.render.actions").describe_action(game, action, names)


def __getattr__(name: str):
    if name == "raw_env":
        return import_module("dungeon_env.aec").raw_env
    raise AttributeError(f"module 'dungeon_env' has no attribute {name!r}")
