"""Human-readable tables generated from the code: the action table printed in the README."""

from __future__ import annotations

from dungeon_env.engine.actions import Action

_MEANING = {
    "move": "Step {d} (Movement, Evasion, a monster's move); into a closed door: an Open Doors attempt",
    "jump": "Jump {d} over the one-square obstacle there (furniture, a corpse)",
    "drag": "Take hold of the corpse to the {d} before the first step (+1 square)",
    "extra_move": "Spend 1 Stamina for +1 square this Movement phase (at most 3)",
    "end": "End this figure's Movement / Evasion",
    "defer": "DM: move this monster after the others (once per phase)",
    "spend": "Spend {n} Stamina on this Fight",
    "handoff": "Hand the heroes' movement to hero_{n} (interleaving)",
}
_DIRS = {"n": "north", "e": "east", "s": "south", "w": "west"}


def action_meaning(action: Action) -> str:
    name = action.name.lower()
    head, _, tail = name.rpartition("_")
    if head in ("move", "jump", "drag"):
        return _MEANING[head].format(d=_DIRS[tail])
    if head in ("spend", "handoff"):
        return _MEANING[head].format(n=tail)
    return _MEANING[name]


def action_table_markdown() -> str:
    rows = ["| id | action | meaning |", "|---:|---|---|"]
    rows += [f"| {int(a)} | `{a.name.lower()}` | {action_meaning(a)} |" for a in Action]
    return "\n".join(rows)


if __name__ == "__main__":
    print(action_table_markdown())
