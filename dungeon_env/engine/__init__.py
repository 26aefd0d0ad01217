"""The rules engine: numpy and the standard library only (plus the compiled content)."""

from dungeon_env.engine.actions import ACTION_NAMES, N_ACTIONS, Action, Decision, Phase
from dungeon_env.engine.dice import Dice
from dungeon_env.engine.game import Game, IllegalActionError
from dungeon_env.engine.state import State, Status

__all__ = [
    "ACTION_NAMES",
    "N_ACTIONS",
    "Action",
    "Decision",
    "Dice",
    "Game",
    "IllegalActionError",
    "Phase",
    "State",
    "Status",
]
