"""What the ``dungeon-env`` commands share (``difficulty.cli``'s ``balance`` and ``sweep``,
``difficulty.league``, ``play.cli``): the argparse type of a count, and playing an experiment with
a progress bar. The commands import this module; it imports none of them."""

from __future__ import annotations

import argparse

from difficulty.spec import Experiment


def whole_number(least: int, unit: str = ""):
    """An argparse type: a whole number, ``least`` or more (``unit`` names what it counts), refused
    in one line naming the value and what is accepted (``--workers 0``: "give 1 or more processes")."""
    accepted = f"give {least} or more {unit}".rstrip()

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number: {accepted}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"{value}: {accepted}")
        return value

    parse.__name__ = f"whole number ({least} or more)"
    return parse


def _progress_bar(quiet: bool):
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    return Progress(
        TextColumn("[bold]games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=quiet or not console.is_terminal,
        transient=False,
    )


def play_experiment(experiment: Experiment, quiet: bool):
    """Run ``experiment`` on its backend with a progress bar (none if ``quiet``); the ``Result``."""
    from difficulty.runner import backend_for, run

    backend = backend_for(experiment)  # before the progress bar's thread: local workers may be forked
    try:
        with _progress_bar(quiet) as bar:
            task = bar.add_task("games", total=None)
            return run(
                experiment,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
                backend=backend,
            )
    finally:
        backend.close()


__all__ = ["play_experiment", "whole_number"]
