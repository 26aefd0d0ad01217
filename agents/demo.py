"""``make demo``, part 1: one adventure played by the scripted heroes against the scripted Dungeon
Master, shown in the terminal: the board every few turns and a line per turn of what happened
(fights, wounds, deaths, doors, finds, Light).

    python -m agents.demo [--adventure flooded_cellar] [--heroes 4] [--seed 7] [--players scripted]

``--players scripted`` (default) seats the hand-written agents at their latest version, the strongest
play shipped today (``scripted@v1``: the frozen reference of 2026-12-06, ``scripted@v2`` the latest
by name); ``random`` random legal players.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from dungeon_env.content import adventure_names
from dungeon_env.engine import Game
from dungeon_env.episode import EpisodeResult, play_episode
from dungeon_env.render import render_text

PLAYERS = ("scripted", "scripted@v1", "scripted@v2", "random")


class _RandomSide:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> int:
        return self.rng.choice(game.legal_actions())


def seat(players: str, game: Game, seed: int) -> dict:
    """The two sides' agents for ``players``: objects with ``choose(game) -> int``."""
    if players == "random":
        return {"heroes": _RandomSide(seed), "dm": _RandomSide(seed + 1)}
    if players not in PLAYERS:
        raise ValueError(f"players must be one of {PLAYERS}, got {players!r}")
    from agents.spec import from_spec

    return {side: from_spec(players, side, seed=seed).bind(game=game) for side in ("heroes", "dm")}


def turn_story(game: Game, events: list[dict]) -> str:
    """One line for one turn's events: what a spectator would want to know."""
    names = {u["id"]: u["name"] for u in game.events[0]["units"]}
    names.update({e["unit"]["id"]: e["unit"]["name"] for e in game.events if e["type"] == "spawn"})
    kinds = Counter(e["type"] for e in events)
    parts = []
    spawned = Counter(e["unit"]["name"] for e in events if e["type"] == "spawn")
    if spawned:
        parts.append("appear: " + ", ".join(f"{n} {name}" for name, n in spawned.items()))
    if kinds["fight"]:
        parts.append(f"{kinds['fight']} fights")
    wounds = sum(e["amount"] for e in events if e["type"] == "damage" and e["unit"].startswith("hero"))
    if wounds:
        parts.append(f"heroes take {wounds} damage")
    for kind, verb in (
        ("slain", "slain"),
        ("death", "dies"),
        ("deaths_door", "at Death's Door"),
        ("exit", "escapes"),
    ):
        for e in events:
            if e["type"] == kind:
                parts.append(f"{names.get(e['unit'], e['unit'])} {verb}")
    for kind, text in (("door_opened", "doors opened"), ("item_found", "items found"), ("cast", "spells")):
        if kinds[kind]:
            parts.append(f"{kinds[kind]} {text}")
    return ", ".join(parts) if parts else "the heroes move on"


def play(game: Game, sides: dict, show_every: int) -> EpisodeResult:
    """Play ``game`` to its end by the one episode loop (``dungeon_env.episode.play_episode``),
    printing a line per turn and the board every ``show_every`` turns."""
    story = _TurnStory(game, show_every)
    return play_episode(sides["heroes"], sides["dm"], game, on_step=story.step)


class _TurnStory:
    """After each action: a line when a turn ends (``turn_story``) and the board every few turns."""

    def __init__(self, game: Game, show_every: int) -> None:
        self.turn, self.start, self.show_every = game.state.turn, len(game.events), show_every

    def step(self, game: Game) -> None:
        if game.state.turn == self.turn and not game.over:
            return
        story = turn_story(game, game.events[self.start :])
        print(f"turn {self.turn:>3}  Light {game.state.light:>2}  {story}")
        self.turn, self.start = game.state.turn, len(game.events)
        if self.show_every and self.turn % self.show_every == 0 and not game.over:
            print(render_text(game))


def main(argv: list[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adventure", default=adventure_names()[0], choices=adventure_names())
    parser.add_argument("--heroes", type=int, default=4, help="number of heroes, 3-5")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--max-turns", type=int, default=100)
    parser.add_argument(
        "--players",
        default="scripted",
        choices=PLAYERS,
        help="who sits at both sides: scripted (hand-written, the latest version, default), scripted@v1 "
        "(the frozen reference), scripted@v2, random",
    )
    parser.add_argument(
        "--show-every", type=int, default=10, help="print the board every N turns (0: start/end)"
    )
    args = parser.parse_args(argv)

    game = Game.new(adventure=args.adventure, heroes=args.heroes, seed=args.seed, max_turns=args.max_turns)
    sides = seat(args.players, game, args.seed)
    who = args.players
    print(f"{args.adventure}: {who} heroes against the {who} Dungeon Master (seed {args.seed})")
    print(render_text(game))
    print(f"\nGoal: {game.tables.adventure.goal}\n")
    result = play(game, sides, args.show_every)
    print(render_text(game))
    rolls = Counter(e["check"] for e in game.events if e["type"] == "roll")
    print(f"\n{sum(result.steps.values())} decisions, {len(game.events)} events")
    print("dice checks: " + ", ".join(f"{k} {v}" for k, v in rolls.most_common()))
    end = game.events[-1]
    print(f"Outcome: {end['outcome']} on turn {end['turn']} ({end['reason']})")
    print(f"Ending: {result.ending.value}")
    for objective in end["objectives"]:
        print(f"  [{'x' if objective['met'] else ' '}] {objective['text']}")
    return end["outcome"]


if __name__ == "__main__":
    main()
