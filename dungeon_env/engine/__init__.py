"""The rules engine: numpy and the standard library only (plus the compiled content and the compiled
core, ``dungeon_env._core``, docs/CORE.md).

Its modules import each other in one direction only, bottom to top (``LAYERS``; a module imports
only modules of lower layers, type-only imports included; tests/test_layers.py checks it):

0. ``actions`` ``dice`` ``state`` ``core``: the action table and vocabularies, chance, the state as
   data, the compiled core (its copy of the board, its searches);
1. ``tables`` ``describe``: the static board of an adventure, action descriptions;
2. ``context`` ``savecheck``: what a rule may use of a game (a protocol), the save-file checks;
3. ``board``: look-ups of the board as it stands (open sides, free squares, traps);
4. ``units``: figures (placing, hurting, slaying, corpses);
5. ``casting`` ``inventory`` ``objectives`` ``pursuit`` ``knowledge``: low rules and bookkeeping
   (``knowledge``: what heroes may know, which events, which figures, which decisions);
6. ``encounters``, 7. ``visibility``, 8. ``effects``: placing monsters, sight, what cards do;
9. ``abilities`` ``mental`` ``traps``; 10. ``spells``; 11. ``items`` ``combat``;
12. ``movement`` ``trade`` ``explore``; 13. ``turn``: the mechanics and the turn sequence;
14. ``decisions``: the one routing table of every decision (legal lists, apply, target candidates);
15. ``game``: the public ``Game``; 16. ``sideview`` ``campaign``: views and campaigns built on it;
17. ``side_knowledge``: each side's knowledge of a game, which every channel a side gets reads.
"""

from dungeon_env.engine.actions import ACTION_NAMES, N_ACTIONS, Action, Decision, Phase
from dungeon_env.engine.dice import Dice
from dungeon_env.engine.game import Game, IllegalActionError
from dungeon_env.engine.state import State, Status

LAYERS: tuple[tuple[str, ...], ...] = (
    ("actions", "dice", "state", "core"),
    ("tables", "describe"),
    ("context", "savecheck"),
    ("board",),
    ("units",),
    ("casting", "inventory", "objectives", "pursuit", "knowledge"),
    ("encounters",),
    ("visibility",),
    ("effects",),
    ("abilities", "mental", "traps"),
    ("spells",),
    ("items", "combat"),
    ("movement", "trade", "explore"),
    ("turn",),
    ("decisions",),
    ("game",),
    ("sideview", "campaign"),
    ("side_knowledge",),
)

__all__ = [
    "ACTION_NAMES",
    "LAYERS",
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
