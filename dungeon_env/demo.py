"""``make demo``: play one adventure with random legal decisions and show how it went.

The trained and scripted AI players arrive with the agents; until then every seat is played by a
random legal policy, which is enough to show the whole rules engine at work.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from dungeon_env.content import adventure_names
from dungeon_env.engine import Game
from dungeon_env.render import render_text


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adventure", default=adventure_names()[0], choices=adventure_names())
    parser.add_argument("--heroes", type=int, default=4, help="number of heroes, 3-5")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--max-turns", type=int, default=40)
    args = parser.parse_args(argv)

    game = Game.new(adventure=args.adventure, heroes=args.heroes, seed=args.seed, max_turns=args.max_turns)
    print(render_text(game))
    print(f"\nGoal: {game.tables.adventure.goal}\n")
    rng = random.Random(args.seed)
    decisions = 0
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
        decisions += 1
    print(render_text(game))
    counts = Counter(e["type"] for e in game.events)
    rolls = Counter(e["check"] for e in game.events if e["type"] == "roll")
    print(
        f"\n{decisions} decisions, {len(game.events)} events: "
        + ", ".join(f"{k} {v}" for k, v in counts.most_common())
    )
    print("dice checks: " + ", ".join(f"{k} {v}" for k, v in rolls.most_common()))
    end = game.events[-1]
    print(f"Outcome: {end['outcome']} on turn {end['turn']} ({end['reason']})")
    for objective in end["objectives"]:
        print(f"  [{'x' if objective['met'] else ' '}] {objective['text']}")


if __name__ == "__main__":
    main()
