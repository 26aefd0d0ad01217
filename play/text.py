"""``dungeon-env play --text``: the game in a terminal (for ssh), the same table as the web page.

At a human seat's decision the terminal shows one screen of at most 40 lines (fewer in a smaller
terminal): the board as that seat's side knows it (the heroes' fog for a hero seat), cut to the
rows around the figure asked to act and the heroes (``render_compact``: column and row numbers,
stable monster letters, a key and each figure's Health, Stamina and Magic), the last lines of the
story (the dice of what just happened among them), and a numbered menu of the legal choices named
by ``describe_action`` (each with its cost and its risk). Type a choice's number; ``s`` saves the
game (under the table's ``saves`` folder), ``r`` draws the screen again, ``b`` the whole board with
its legend, ``c`` the heroes' cards (items, spells, abilities) with their text, ``q`` quits (after
asking whether to save). Seats played by agents move on their own, their story printed as they go.

The story printed between decisions is the side's of the human seats: the Dungeon Master's when a
human plays the DM (everything), else the heroes'.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
import time
from collections.abc import Callable

from dungeon_env.render.text import MonsterLetters, render_compact, render_text
from play.table import HUMAN, Refused, Table
from play.views import DM, HEROES

NO_STORY = 1 << 62  # a story_since past every line: the view without its story
HELP = (
    "Type a number to choose; s saves, r redraws the screen, b draws the whole board, c shows the "
    "heroes' cards, q quits."
)
SCREEN_LINES = 40  # the most lines a decision's screen takes (board, story, choices, prompt)
STORY_LINES = 8  # the most story lines a screen keeps
MIN_BOARD = 13  # board lines (column numbers, six square rows) the story leaves at least
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
        lines: int | None = None,
        width: int | None = None,
    ) -> None:
        self.table, self.delay, self.read = table, delay, read
        self.write = write or (lambda text: print(text, flush=True))
        size = shutil.get_terminal_size((80, SCREEN_LINES))
        self.width = width or max(60, min(size.columns, 120))
        self.lines = lines or min(SCREEN_LINES, max(24, size.lines))
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
        """The whole board, its status lines and its legend."""
        return render_text(self.table.game, fog=side == HEROES, letters=self.letters[side])

    def menu(self, seat, side: str, view: dict) -> list[str]:
        """The decision and its numbered choices, wrapped to the terminal's width."""
        decision = view["decision"]
        out = [""] + self.wrap(f"{seat.name} ({_side_name(side)}): {decision['text']}", "  ")
        for k, choice in enumerate(decision["choices"], 1):
            out += self.wrap(f"  {k:2}. {choice['text']}", "      ")
        return out

    def screen(self, seat, side: str, view: dict) -> tuple[list[str], int]:
        """One decision's screen, at most ``self.lines - 1`` lines (the prompt takes the last): the
        board around the heroes, the story's last lines, the menu; and how many story lines it
        shows."""
        menu = self.menu(seat, side, view)
        room = self.lines - 1 - len(menu) - 1  # a blank line between the board and the story
        story = self.story_tail(max(1, min(STORY_LINES, room - MIN_BOARD)))
        game, fog = self.table.game, side == HEROES
        rows = sum(len(wrapped) for wrapped in story)
        board = render_compact(game, fog=fog, letters=self.letters[side], lines=room - rows, width=self.width)
        while story and len(board) + sum(len(rows) for rows in story) > room:
            story.pop(0)
        return [*board, "", *(row for rows in story for row in rows), *menu], len(story)

    def story_tail(self, rows: int) -> list[list[str]]:
        """The story's last lines (the human seats' side's, as told between decisions), each
        wrapped, in at most ``rows`` rows."""
        lines = self.table.story(self.side)
        out: list[list[str]] = []
        used = 0
        for line in reversed(lines[-STORY_LINES:]):
            wrapped = self.wrap(f"  {line['text']}", "    ")
            if used + len(wrapped) > rows:
                break
            out.insert(0, wrapped)
            used += len(wrapped)
        return out

    def wrap(self, text: str, indent: str) -> list[str]:
        return textwrap.wrap(text, self.width, subsequent_indent=indent, drop_whitespace=False) or [""]

    def cards(self, view: dict) -> list[str]:
        """Every hero's items, spells and abilities with their card text (as the seat's view has
        them: a face-down card is its deck's unknown card)."""
        out = []
        for fig in view["figures"]:
            if fig["side"] != "hero":
                continue
            cards = [*fig.get("item_cards", []), *fig.get("spell_cards", []), *fig.get("abilities", [])]
            out.append(f"{fig['number']} {fig['name']}:" + ("" if cards else " no cards"))
            for card in cards:
                out += self.wrap(f"    {card['name']}: {card['text']}", "      ")
        return out

    def decide(self) -> bool:
        """One human decision; False if the player quits."""
        table = self.table
        seat = table.current_seat()
        side = DM if seat.name == DM else HEROES
        view = table.view(seat.token, story_since=NO_STORY)
        self.show(seat, side, view, fresh=True)
        choices = view["decision"]["choices"]
        while True:
            answer = self.read(f"Your choice (1-{len(choices)}, s, r, b, c, q): ").strip().lower()
            if answer == "q":
                if self.read("Save before quitting? (y/n): ").strip().lower().startswith("y"):
                    self.save()
                return False
            if answer in ("s", "r", "b", "c", "?", "h", "help"):
                self.command(answer, seat, side, view)
                continue
            if not answer.isdigit() or not 1 <= int(answer) <= len(choices):
                self.write(f"'{answer}' is not a choice: type a number from 1 to {len(choices)}.")
                continue
            try:
                table.act(seat.token, view["version"], choices[int(answer) - 1]["action"])
            except Refused as err:  # cannot happen from this loop (one player at a time), but say so
                self.write(f"Refused: {err.message}")
                continue
            return True

    def show(self, seat, side: str, view: dict, fresh: bool = False) -> None:
        """The decision's screen; ``fresh``: first the story lines not told yet that the screen
        has no room for."""
        lines, kept = self.screen(seat, side, view)
        if fresh:
            untold = self.table.story(self.side, self.told)
            for line in untold[: max(0, len(untold) - kept)]:
                self.write(f"  {line['text']}")
            self.told += len(untold)
        self.write("\n".join(lines))

    def command(self, answer: str, seat, side: str, view: dict) -> None:
        if answer == "s":
            self.save()
        elif answer == "r":
            self.show(seat, side, view)
        elif answer == "b":
            self.write(self.picture(side))
            self.write("\n".join(self.menu(seat, side, view)))
        elif answer == "c":
            self.write("\n".join(self.cards(view) + self.menu(seat, side, view)))
        else:
            self.write(HELP)

    def save(self) -> None:
        try:
            path = self.table.save()
        except Refused as error:  # the disk refused it: say so, the game goes on
            self.write(f"Not saved: {error.message}")
            return
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
        try:
            path = table.save()
        except Refused as error:
            print(f"\nStopped. The game could not be saved: {error.message}", file=sys.stderr)
            return 130
        again = f"dungeon-env play --text --load {path}"
        print(f"\nStopped. The game is saved as {path}: {again}", file=sys.stderr)
        return 130
