"""The cost of ``agents.determinise.determinise`` against ``view.copy()`` on mid-game heroes' views.

For each bundled adventure, random legal play (seed 0, 4 heroes) until turn 6 or later, then a few
heroes' views along the next decisions; each view is copied, copied with fresh dice (what an
iteration of ``agents.search`` paid before determinising: ``view.copy()`` then ``Dice(seed)``) and
determinised, ``--repeat`` times each (best of ``--rounds``); the ratios of the mean times are
printed.
"""

from __future__ import annotations

import argparse
import random
import time

from agents.determinise import determinise
from dungeon_env.content import adventure_names
from dungeon_env.engine import Game
from dungeon_env.engine.dice import Dice
from dungeon_env.engine.side_knowledge import heroes_view


def mid_game_views(adventure: str, n: int = 5) -> list[Game]:
    """``n`` heroes' views of one random game of ``adventure`` from turn 6 on."""
    rng = random.Random(0)
    game = Game.new(adventure, heroes=4, seed=0)
    views = []
    while not game.over and len(views) < n:
        if game.state.turn >= 6 and game.agent not in (None, "dm"):
            views.append(heroes_view(game))
        game.apply(rng.choice(game.legal_actions()))
    return views


def timed(views: list[Game], repeat: int, fn) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        for view in views:
            fn(view)
    return (time.perf_counter() - start) / (repeat * len(views))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(1)
    for adventure in adventure_names():
        views = mid_game_views(adventure)
        copy_t = dice_t = det_t = float("inf")
        for _ in range(args.rounds):
            copy_t = min(copy_t, timed(views, args.repeat, lambda v: v.copy()))
            dice_t = min(dice_t, timed(views, args.repeat, lambda v: fresh(v, rng)))
            det_t = min(det_t, timed(views, args.repeat, lambda v: determinise(v, rng)))
        print(
            f"{adventure:16s} turn {views[0].state.turn:2d}  copy {copy_t * 1e6:5.1f} us  "
            f"copy+dice {dice_t * 1e6:5.1f} us  determinise {det_t * 1e6:6.1f} us  "
            f"ratio {det_t / copy_t:4.2f}x a copy, {det_t / dice_t:4.2f}x a copy with dice"
        )


def fresh(view: Game, rng: random.Random) -> Game:
    out = view.copy()
    out.dice = Dice(rng.getrandbits(31))
    return out


if __name__ == "__main__":
    main()
