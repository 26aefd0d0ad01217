"""``make demo``: one adventure played by the AI players, shown in the terminal as text.

By default the scripted heroes play against the scripted Dungeon Master (the trained policies will
take their seats once they ship); ``--random`` seats random legal players instead.

    python -m agents.demo [--adventure flooded_cellar] [--heroes 4] [--seed 7] [--random]
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from agents.scripted_dm import ScriptedDM
from agents.scripted_heroes import ScriptedHeroes
from dungeon_env.content import adventure_names
from dungeon_env.engine import Game
from dungeon_env.render import render_text


def main(argv: list[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adventure", default=adventure_names()[0], choices=adventure_names())
    parser.add_argument("--heroes", type=int, default=4, help="number of heroes, 3-5")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--max-turns", type=int, default=60)
    parser.add_argument("--random", action="store_true", help="random legal players in every seat")
    args = parser.parse_args(argv)

    game = Game.new(adventure=args.adventure, heroes=args.heroes, seed=args.seed, max_turns=args.max_turns)
    print(render_text(game))
    print(f"\nGoal: {game.tables.adventure.goal}\n")
    rng = random.Random(args.seed)
    heroes, dm = ScriptedHeroes(game=game), ScriptedDM(game=game, seed=args.seed)
    decisions = 0
    while not game.over:
        if args.random:
            action = rng.choice(game.legal_actions())
        else:
            action = dm.choose(game) if game.agent == "dm" else heroes.choose(game)
        game.apply(action)
        decisions += 1
    print(render_text(game))
    counts = Counter(e["type"] for e in game.events)
    rolls = Counter(e["check"] for e in game.events if e["type"] == "roll")
    print(
        f"\n{decisions} decisions, {len(game.events)} events: "
        + ", ".join(f"{k} {v}" for k, v in counts.most_common(12))
    )
    print("dice checks: " + ", ".join(f"{k} {v}" for k, v in rolls.most_common()))
    end = game.events[-1]
    print(f"Outcome: {end['outcome']} on turn {end['turn']} ({end['reason']})")
    for objective in end["objectives"]:
        print(f"  [{'x' if objective['met'] else ' '}] {objective['text']}")
    return end["outcome"]


if __name__ == "__main__":
    main()
