"""``dungeon-env play --text``: the game in a terminal (for ssh), the same table as the web page.

At a human seat's decision the terminal shows the board as that seat's side knows it (the heroes'
fog for a hero seat; the ``ansi`` picture with column and row numbers, a legend and stable monster
letters), the story since the last picture, and a numbered menu of the legal choices named by
``describe_action``. Type a choice's number; ``s`` saves the game (under the table's ``saves``
folder), ``r`` draws the board again, ``q`` quits (after asking whether to save). Seats played by
agents move on their own, their story printed as they go.

The story printed between decisions is the side's of the human seats: the Dungeon Master's when a
human plays the DM (everything), else the heroes'.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from dungeon_env.render.text import MonsterLetters, render_text
from play.table import HUMAN, Refused, Table
from play.views import DM, HEROES

NO_STORY = 1 << 62  # a story_since past every line: the view without its story
HELP = "Type a number to choose, s to save, r to redraw the board, q to quit."
_OUTCOME = {
    "completed": "Completed: every surviving hero has left the dungeon",
    "failed": "Failed: every hero is dead",
    "truncated": "Truncated: the turn cap was reached",
}


class Terminal:
    """The text mode's loop over a table, reading ``read`` and writing ``write`` (the terminal by
    default; tests pass their own)."""

    def __init__(
        self,
        table: Table,
        *,
        delay: float = 0.6,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] | None = None,
    ) -> None:
        self.table, self.delay, self.read = table, delay, read
        self.write = write or (lambda text: print(text, flush=True))
        humans = [s for s in table.seats.values() if s.agent == HUMAN]
        self.side = DM if any(s.name == DM for s in humans) else HEROES
        self.letters = {HEROES: MonsterLetters(), DM: MonsterLetters()}
        self.told = 0

    def run(self) -> int:
        table = self.table
        self.write(f"{table.game.tables.adventure.name}: {table.game.tables.adventure.goal}")
        self.write(HELP)
        while not table.over:
            if table.ai_to_act():
                table.step_ai()
                self.tell_story()
                if self.delay:
                    time.sleep(self.delay)
                continue
            if not self.decide():
                return 0
        self.tell_story()
        self.end_screen()
        return 0

    # ----- pieces
    def tell_story(self) -> None:
        lines = self.table.story(self.side, self.told)
        for line in lines:
            self.write(f"  {line['text']}")
        self.told += len(lines)

    def picture(self, side: str) -> str:
        return render_text(self.table.game, fog=side == HEROES, letters=self.letters[side])

    def decide(self) -> bool:
        """One human decision; False if the player quits."""
        table = self.table
        seat = table.current_seat()
        side = DM if seat.name == DM else HEROES
        self.tell_story()
        self.write(self.picture(side))
        while True:
            view = table.view(seat.token, story_since=NO_STORY)
            decision = view["decision"]
            self.write(f"\n{seat.name} ({_side_name(side)}): {decision['text']}")
            for k, choice in enumerate(decision["choices"], 1):
                self.write(f"  {k:2}. {choice['text']}")
            answer = self.read(f"Your choice (1-{len(decision['choices'])}, s, r, q): ").strip().lower()
            if answer == "q":
                if self.read("Save before quitting? (y/n): ").strip().lower().startswith("y"):
                    self.save()
                return False
            if answer == "s":
                self.save()
                continue
            if answer == "r":
                self.write(self.picture(side))
                continue
            if answer in ("?", "h", "help"):
                self.write(HELP)
                continue
            if not answer.isdigit() or not 1 <= int(answer) <= len(decision["choices"]):
                self.write(f"'{answer}' is not a choice: type a number from 1 to {len(decision['choices'])}.")
                continue
            action = decision["choices"][int(answer) - 1]["action"]
            try:
                table.act(seat.token, view["version"], action)
            except Refused as err:  # cannot happen from this loop (one player at a time), but say so
                self.write(f"Refused: {err.message}")
                continue
            return True

    def save(self) -> None:
        path = self.table.save()
        self.write(f"Saved as {path} (continue with: dungeon-env play --text --load {path})")

    def end_screen(self) -> None:
        game = self.table.game
        self.write(self.picture(self.side))
        outcome = _OUTCOME.get(game.outcome, game.outcome)
        self.write(f"\nThe adventure is over: {outcome} ({game.state.end_reason}).")
        for goal in game.objectives():
            mark = "met" if goal.get("met") else "not met"
            kind = "primary goal" if goal.get("primary") else "goal"
            self.write(f"  {kind}: {goal.get('text')} - {mark}")


def _side_name(side: str) -> str:
    return "the Dungeon Master" if side == DM else "the heroes"


def play_in_terminal(table: Table, *, delay: float = 0.6) -> int:
    """Play ``table`` in this terminal until the adventure ends or the player quits."""
    if not any(s.agent == HUMAN for s in table.seats.values()):
        print("No human seat: watching the agents play.", file=sys.stderr)
    try:
        return Terminal(table, delay=delay).run()
    except (EOFError, KeyboardInterrupt):
        if table.over:
            return 0
        path = table.save()
        again = f"dungeon-env play --text --load {path}"
        print(f"\nStopped. The game is saved as {path}: {again}", file=sys.stderr)
        return 130
