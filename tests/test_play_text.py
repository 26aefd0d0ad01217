"""``dungeon-env play --text``: the real command played through a pseudo-terminal, and the text
loop (``play.text.Terminal``) played to the end of an adventure."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agents import ScriptedDM, ScriptedHeroes
from dungeon_env.content import adventure_names
from play.table import Table
from play.text import Terminal

SHORT = "tests/data/short_walk.toml"
CHOICE = re.compile(r"^\s*(\d+)\. (.*)$", re.M)
PROMPT = r"Your choice \(1-\d+, s, r, b, c, q\): "
SEATS = ["hero_0", "hero_1", "hero_2", "dm"]


class Pty:
    """A process on a pseudo-terminal, read until a prompt appears."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.master, slave = pty.openpty()
        env = dict(os.environ, COLUMNS="120", LINES="60")
        self.proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env)
        os.close(slave)
        self.seen = ""

    def expect(self, pattern: str, timeout: float = 60.0) -> str:
        """Read until ``pattern`` (a regex) matches the output since the last match; the output."""
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while (found := regex.search(self.seen)) is None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(
                    f"no {pattern!r} within {timeout} s; the terminal shows:\n{self.seen[-3000:]}"
                )
            ready, _, _ = select.select([self.master], [], [], min(left, 1.0))
            if ready:
                try:
                    chunk = os.read(self.master, 65536).decode(errors="replace")
                except OSError:  # the process closed the terminal
                    chunk = ""
                if not chunk and self.proc.poll() is not None:
                    raise AssertionError(f"the process ended before {pattern!r}:\n{self.seen[-3000:]}")
                self.seen += chunk.replace("\r\n", "\n")
        out, self.seen = self.seen[: found.end()], self.seen[found.end() :]
        return out

    def send(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=30)
        finally:
            os.close(self.master)


def _command() -> list[str]:
    script = Path(sys.executable).with_name("dungeon-env")
    return [str(script)] if script.exists() else [sys.executable, "-m", "difficulty.cli"]


def test_text_mode_through_a_pseudo_terminal(tmp_path):
    repo = Path(__file__).resolve().parents[1]
    adventure = str(repo / SHORT)
    args = [*_command(), "play", "--text", "--adventure", adventure, "--seed", "3", "--delay", "0"]
    args += ["--seat", "hero_0=human", "--max-turns", "2", "--saves", str(tmp_path)]
    term = Pty(args, cwd=repo)
    try:
        screen = term.expect(PROMPT)
        assert "A Short Walk" in screen and "Key:" in screen
        assert re.search(r"^\s+0 1 2 3 4 5 6 7 8 9 0 1 2 3", screen, re.M), "column numbers"
        assert "Bram Ironhide's movement" in screen
        term.send("b")
        whole = term.expect(PROMPT)
        assert "Legend:" in whole and re.search(r"^27 ", whole, re.M), "b draws the whole board"
        term.send("c")
        cards = term.expect(PROMPT)
        assert "1 Bram Ironhide:" in cards and "Stand Fast: " in cards, "c shows the heroes' cards"
        term.send("zz")
        assert "is not a choice" in term.expect(PROMPT)
        term.send("s")
        saved = term.expect(PROMPT)
        assert "Saved as" in saved and list(tmp_path.glob("*.json"))
        screen, turns = saved, 0
        while "The adventure is over" not in screen:
            choices = dict(CHOICE.findall(screen.split("hero_0 (the heroes)")[-1]))
            end = next((k for k, text in choices.items() if text.startswith(("End", "Done", "Cast no"))), "1")
            term.send(end)
            screen = term.expect(PROMPT + "|The adventure is over")
            turns += 1
            assert turns < 200, "the game does not end"
        term.expect(r"primary goal: .* - (met|not met)")
    finally:
        code = term.close()
    assert code == 0


def test_bad_options_stop_before_play():
    args = [*_command(), "play", "--text", "--seat", "hero_9=human", "--adventure", SHORT]
    done = subprocess.run(
        args, capture_output=True, text=True, timeout=60, cwd=Path(__file__).resolve().parents[1]
    )
    assert done.returncode == 2 and "hero_9" in done.stderr
    done = subprocess.run([*_command(), "play", "--seat", "dm"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "SEAT=WHO" in done.stderr


def test_a_port_in_use_is_refused_with_a_message():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        args = [*_command(), "play", "--no-browser", "--port", port, "--adventure", SHORT]
        done = subprocess.run(args, capture_output=True, text=True, timeout=60, cwd=Path(__file__).parents[1])
    assert done.returncode == 2 and f"port {port}" in done.stderr and "--port 0" in done.stderr


def test_the_text_loop_plays_an_adventure_to_its_end():
    table = Table(adventure=SHORT, heroes=["bram", "sela", "orwin"], seats={"hero_0": "human"}, seed=3)
    hero = ScriptedHeroes(game=table.game, seed=0)
    out: list[str] = []

    def read(prompt: str) -> str:
        assert prompt.startswith("Your choice")
        choices = [c["action"] for c in table.view(table.seats["hero_0"].token)["decision"]["choices"]]
        return str(choices.index(hero.choose(table.game)) + 1)

    assert Terminal(table, delay=0, read=read, write=out.append).run() == 0
    text = "\n".join(out)
    assert table.game.outcome == "completed"
    assert "The adventure is over: Completed" in text and "primary goal: Leave by the stair" in text
    assert " 1. " in text and "Step " in text  # a numbered menu of named choices


@pytest.mark.parametrize("answers", [["q", "y"], ["q", "n"]])
def test_quitting_asks_to_save(tmp_path, answers):
    table = Table(
        adventure=SHORT, heroes=["bram", "sela", "orwin"], seats={"hero_0": "human"}, saves=tmp_path
    )
    feed = iter(answers)
    out: list[str] = []
    assert Terminal(table, delay=0, read=lambda prompt: next(feed), write=out.append).run() == 0
    assert bool(list(tmp_path.glob("*.json"))) == (answers[1] == "y")


SCREEN_MAX = 40


@pytest.mark.parametrize("adventure", adventure_names())
def test_a_decisions_screen_fits_in_40_lines(adventure):
    """Every seat human, the scripted agents answering for them: every screen of a decision (the
    board around the heroes, the story's last lines, the choices) and its prompt take at most 40
    lines of an 80-column terminal, and the story's last line is on it."""
    table = Table(adventure=adventure, heroes=3, seats=dict.fromkeys(SEATS, "human"), seed=11, max_turns=12)
    heroes, dm = ScriptedHeroes(game=table.game, seed=0), ScriptedDM(game=table.game, seed=0)
    screens: list[str] = []
    asked = [0]

    def read(prompt: str) -> str:
        if not prompt.startswith("Your choice"):
            return "n"
        asked[0] += 1
        if asked[0] > 120:
            return "q"
        seat = table.current_seat()
        agent = dm if seat.name == "dm" else heroes
        choices = [c["action"] for c in table.view(seat.token)["decision"]["choices"]]
        return str(choices.index(agent.choose(table.game)) + 1)

    def write(text: str) -> None:
        if "\nKey: " in text:
            screens.append(text)

    # the terminal's size given: pytest's workers have no terminal, and a short one keeps fewer lines
    Terminal(table, delay=0, read=read, write=write, width=80, lines=SCREEN_MAX).run()
    assert len(screens) >= 60
    for screen in screens:
        lines = screen.split("\n")
        assert len(lines) + 1 <= SCREEN_MAX, screen  # + the prompt's line
        assert max(len(line) for line in lines) <= 80, screen
        assert re.search(r"^ *\d+\. ", screen, re.M), "the choices are on the screen"
    last = table.story("dm")[-1]["text"]
    assert any(last[:60] in " ".join(s.split()) for s in screens[-3:])
