"""dungeon_env: a PettingZoo environment for a dungeon crawl, heroes against a Dungeon Master.

``dungeon_env.env(**options)`` is the wrapped AEC environment, ``dungeon_env.raw_env`` the
unwrapped class (the env card: ``help(dungeon_env.env)``). Importing the package is light: the
environment (PettingZoo, Gymnasium) loads on first use of these names.
"""

from __future__ import annotations

from importlib import import_module

__all__ = ["env", "raw_env"]


def __getattr__(name: str):
    if name == "env":
        return import_module("dungeon_env.env")  # a callable module: dungeon_env.env(...) makes the env
    if name == "raw_env":
        return import_module("dungeon_env.env").raw_env
    raise AttributeError(f"module 'dungeon_env' has no attribute {name!r}")
