"""The local backend hands back what it is given and, closed, stops the games nobody wants any more
instead of waiting for them (a chunk a worker has started cannot be cancelled)."""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing

from difficulty.backends import LocalBackend
from difficulty.play import play_task
from difficulty.runner import task_of
from difficulty.spec import Experiment


def _task(indices, max_turns: int = 100):
    experiment = Experiment(games=1, max_turns=max_turns, seed=7)
    return task_of(experiment.cells[0], experiment).with_indices(indices)


def test_local_backend_plays_what_the_serial_code_plays():
    short = _task(range(3), max_turns=6)
    backend = LocalBackend(2, [short])
    try:
        handle = backend.submit(short)
        [(done, records)] = backend.wait()
        assert done is handle and records == play_task(short)
    finally:
        backend.close()


def test_close_stops_unwanted_games_rather_than_waiting_for_them():
    backend = LocalBackend(2, [_task([0])])
    long = [backend.submit(_task(range(k * 400, k * 400 + 400))) for k in range(3)]  # minutes of games
    workers = [p for p in multiprocessing.active_children() if p.is_alive()]
    for future in long:
        backend.cancel(future)  # the first ones are in the workers' hands already: they play on
    backend.close()
    for future in long:  # none was played to its end
        assert future.cancelled() or isinstance(future.exception(), cf.process.BrokenProcessPool)
    assert workers and not any(p.is_alive() for p in workers)
