"""``make bench``: engine speed and memory, side by side with PettingZoo's connect_four_v3.

Both are stepped by the same random-legal loop in the same process, so the ratio is meaningful on
any machine. Figures: decisions per second, complete random adventures per second, bytes per state.
"""

from __future__ import annotations

import argparse
import random
import time

from dungeon_env.content import adventure_names
from dungeon_env.engine import Game


def engine_decisions(seconds: float, adventure: str, max_turns: int) -> tuple[float, float]:
    rng = random.Random(0)
    decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game.new(adventure=adventure, heroes=4, seed=games, max_turns=max_turns)
        while not game.over:
            game.apply(rng.choice(game.legal_actions()))
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return decisions / elapsed, games / elapsed


def connect_four_steps(seconds: float) -> float:
    from pettingzoo.classic import connect_four_v3

    env = connect_four_v3.env()
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = [i for i, ok in enumerate(obs["action_mask"]) if ok]
                action = rng.choice(legal)
            env.step(action)
            steps += 1
    return steps / (time.perf_counter() - start)


def copy_cost(adventure: str) -> tuple[float, int]:
    game = Game.new(adventure=adventure, heroes=5, seed=1)
    rng = random.Random(1)
    for _ in range(300):
        if game.over:
            break
        game.apply(rng.choice(game.legal_actions()))
    n = 2000
    start = time.perf_counter()
    for _ in range(n):
        game.copy()
    return (time.perf_counter() - start) / n * 1e6, game.state.nbytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--max-turns", type=int, default=40)
    args = parser.parse_args()
    adventure = adventure_names()[0]
    Game.new(adventure=adventure, heroes=4, seed=0)  # build the cached tables outside the timing

    c4 = connect_four_steps(args.seconds)
    decisions, games = engine_decisions(args.seconds, adventure, args.max_turns)
    copy_us, state_bytes = copy_cost(adventure)
    print(f"reference  connect_four_v3 AEC random-legal steps/s : {c4:10.0f}")
    print(
        f"engine     decisions/s (random legal, {adventure})  : {decisions:10.0f}  "
        f"ratio {decisions / c4:.2f}x connect_four"
    )
    print(f"engine     complete random adventures/s (cap {args.max_turns} turns): {games:8.2f}")
    print(f"engine     state copy: {copy_us:.1f} us; bytes per game state: {state_bytes}")


if __name__ == "__main__":
    main()
