"""Human-readable tables generated from the code: the action table (docs/ACTIONS.md) and the heroes
with their abilities (the README)."""

from __future__ import annotations

from dungeon_env.content import load_heroes
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
    "item": "Pick the hero's item number {n} (then what to do with it)",
    "spell": "Pick the hero's spell number {n} (to cast, select or forget)",
    "use": "Cast the picked spell or scroll, drink or use the picked item",
    "memorize": "Memorize the picked scroll (Explore phase)",
    "identify": "Try to identify the picked item (Explore phase, Learned heroes)",
    "forget": "Forget the picked spell",
    "give": "Give the picked item to a hero in the same room or corridor (Trade phase)",
    "loot": "Take an item from a corpse in the same room or corridor (Trade phase)",
    "target": "Choose candidate number {n} (a figure or an item, in the order the observation lists)",
    "normal_cast": "Cast the spell's normal version",
    "overcast": "Cast the spell's Overcast version (a backlash roll follows)",
    "keep_casting": "Keep casting while fighting: this phase's Fight dice count as double ones",
    "let_fail": "Let the spell fail and fight normally",
    "explore": "Explore the room or corridor this Explore phase",
    "stay": "Stay put this Explore phase",
    "choice": "Take option {n} of the room event",
    "take": "Take the item found",
    "pass": "Leave the item found to the next exploring hero",
    "disarm": "Try to disarm the detected trap to the {d}",
    "back": "Change one's mind: leave the verb or give decision without losing anything",
    "ability": "Use ability number {n} of the hero's card, an Active one (then its target, if any choice)",
}
_DIRS = {"n": "north", "e": "east", "s": "south", "w": "west"}


def action_meaning(action: Action) -> str:
    name = action.name.lower()
    head, _, tail = name.rpartition("_")
    if head in ("move", "jump", "drag", "disarm"):
        return _MEANING[head].format(d=_DIRS[tail])
    if head in ("spend", "handoff", "item", "spell", "target", "choice", "ability"):
        return _MEANING[head].format(n=tail)
    return _MEANING[name]


def action_table_markdown() -> str:
    rows = ["| id | action | meaning |", "|---:|---|---|"]
    rows += [f"| {int(a)} | `{a.name.lower()}` | {action_meaning(a)} |" for a in Action]
    return "\n".join(rows)


def _ability_text(ability) -> str:
    tag = "Active" if ability.active else "Passive"
    return f"**{ability.name}** ({tag}): {ability.text}"


def hero_table_markdown() -> str:
    """The 10 heroes: profile, traits and abilities (R-BOARD-04), from ``heroes.toml``."""
    rows = [
        "| hero | move | fight | damage | health | stamina | magic | traits "
        "| abilities (`ability_k` uses the k-th) |",
        "|---|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for hero in load_heroes().values():
        traits = ", ".join(t.replace("_", "-") for t in hero.traits)
        spells = f"; starts with {', '.join(hero.spells)}" if hero.spells else ""
        abilities = "<br>".join(_ability_text(a) for a in hero.abilities)
        rows.append(
            f"| {hero.name} (`{hero.id}`) | {hero.move} | {hero.fight} | {hero.damage} | {hero.health} "
            f"| {hero.stamina} | {hero.magic} | {traits}{spells} | {abilities} |"
        )
    return "\n".join(rows)


if __name__ == "__main__":
    print(action_table_markdown())
    print()
    print(hero_table_markdown())
