"""Run an experiment: schedule the games of every cell on a backend and collect their records.

Games are handed out in chunks of consecutive indices, each cell in index order, with at most two
chunks per worker in flight. With ``games=N`` a cell stops at N games. With ``until=X`` a cell is
looked at after every ``LOOK_EVERY`` games (from ``FIRST_LOOK`` on) once all the games before that
point are in: it stops at the first look where the 95% Wilson intervals of both its rates
(completed, and completed with every primary goal met) are at most ``±X`` (or at ``max_games``).
Records past the stopping point (games already started) are dropped. So the games a cell keeps
depend only on the experiment, never on the number of workers, the backend or the order in which
chunks finish: the same seed gives the same report.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable
from typing import Any

from difficulty.backends import make_backend
from difficulty.metrics import is_completed, is_won
from difficulty.play import Task
from difficulty.spec import Cell, Experiment, variant_json
from training.evaluate import wilson_interval

FIRST_LOOK = 50
LOOK_EVERY = 25
Z = 1.96


@dataclasses.dataclass
class Result:
    """The records of every cell (in game-index order) and how the run went."""

    experiment: Experiment
    cells: list[Cell]
    records: list[list[dict]]
    seconds: float = 0.0
    games_played: int = 0  # including games played past a stopping point and dropped
    workers: int = 1

    @property
    def games(self) -> int:
        return sum(len(r) for r in self.records)


@dataclasses.dataclass
class _CellRun:
    cell: Cell
    task: Task
    stop: int | None  # the cell's number of games once known
    cap: int
    records: dict[int, dict] = dataclasses.field(default_factory=dict)
    submitted: int = 0
    frontier: int = 0  # every game below it has its record
    completed: int = 0  # games completed among the games below the frontier
    wins: int = 0  # games completed with every primary goal met, below the frontier

    @property
    def done(self) -> bool:
        return self.stop is not None and self.frontier >= self.stop

    def advance(self, until: float | None) -> None:
        """Move the frontier over the records that arrived; decide the stop at each look."""
        while self.frontier in self.records and (self.stop is None or self.frontier < self.stop):
            record = self.records[self.frontier]
            self.completed += is_completed(record)
            self.wins += is_won(record)
            self.frontier += 1
            n = self.frontier
            look = n == self.cap or (n >= FIRST_LOOK and (n - FIRST_LOOK) % LOOK_EVERY == 0)
            if self.stop is None and look and (n >= self.cap or self.half_width(n) <= until):
                self.stop = n

    def half_width(self, n: int) -> float:
        """The wider half-width of the two rates' 95% Wilson intervals over the first ``n`` games."""
        widths = []
        for count in (self.completed, self.wins):
            low, high = wilson_interval(count, n, Z)
            widths.append((high - low) / 2)
        return max(widths)

    def expected(self, until: float | None) -> int:
        """The number of games the cell will likely end with (for the progress bar)."""
        if self.stop is not None:
            return self.stop
        n = max(self.frontier, 1)
        p = min(((c + 2) / (n + 4) for c in (self.completed, self.wins)), key=lambda q: abs(q - 0.5))
        need = math.ceil(Z * Z * p * (1 - p) / (until * until)) if until else self.cap
        return int(min(self.cap, max(need, self.submitted, FIRST_LOOK)))


def task_of(cell: Cell, experiment: Experiment) -> Task:
    """The typed task of a cell (no game indices yet): its agent specs are the cell's own, parsed
    once when the experiment was read."""
    return Task(
        adventure=cell.adventure,
        party=tuple(cell.party),
        max_turns=experiment.max_turns,
        heroes=cell.pairing.heroes,
        dm=cell.pairing.dm,
        variant=variant_json(cell.variant),
        seed=experiment.seed,
    )


def backend_for(experiment: Experiment) -> Any:
    """The backend the experiment asks for, its local workers started with the cells' content loaded.
    Make it before starting threads (a progress bar): local workers may be forked."""
    tasks: dict[str, Task] = {}
    for cell in experiment.cells:
        task = task_of(cell, experiment)
        tasks.setdefault(task.cell_key, task)
    return make_backend(experiment.backend, experiment.workers, experiment.ray_address, list(tasks.values()))


UNTIL_CHUNK = 4  # games per chunk with ``until``: what a worker plays past a stop is at most this
MAX_CHUNK = 10


def _chunk_size(experiment: Experiment, workers: int, n_cells: int) -> int:
    """Games per chunk: small enough that the workers finish together (and, with ``until``, play few
    games past the stop), large enough that handing out a chunk costs little beside its games
    (about a millisecond, against some 70 ms a game)."""
    if experiment.until is not None:
        return UNTIL_CHUNK
    return max(1, min(MAX_CHUNK, math.ceil(experiment.games * n_cells / (workers * 8))))


class _Scheduler:
    """Hands out chunks (the cell with the fewest games handed out first) and takes records back."""

    def __init__(self, runs: list[_CellRun], backend: Any, chunk: int, until: float | None) -> None:
        self.runs, self.backend, self.chunk, self.until = runs, backend, chunk, until
        self.capacity = getattr(backend, "capacity", 2 * getattr(backend, "workers", 1))
        self.in_flight: dict[Any, tuple[int, int]] = {}  # handle -> (cell, first index)
        self.played = 0

    def submit(self) -> None:
        while len(self.in_flight) < self.capacity:
            limits = [r.stop if r.stop is not None else r.cap for r in self.runs]
            open_cells = [k for k, r in enumerate(self.runs) if r.submitted < limits[k]]
            if not open_cells:
                return
            k = min(open_cells, key=lambda k: (self.runs[k].submitted, k))
            r = self.runs[k]
            indices = list(range(r.submitted, min(r.submitted + self.chunk, limits[k])))
            r.submitted = indices[-1] + 1
            self.in_flight[self.backend.submit(r.task.with_indices(indices))] = (k, indices[0])

    def collect(self) -> None:
        for handle, records in self.backend.wait():
            entry = self.in_flight.pop(handle, None)
            if entry is None:  # a chunk dropped below as unneeded while it finished beside another
                continue
            k, _first = entry
            self.played += len(records)
            r = self.runs[k]
            r.records.update((record["i"], record) for record in records)
            r.advance(self.until)
            if r.stop is not None:  # drop the chunks the cell no longer needs
                for h, (k2, first) in list(self.in_flight.items()):
                    if k2 == k and first >= r.stop:
                        self.backend.cancel(h)
                        del self.in_flight[h]


def run(
    experiment: Experiment,
    progress: Callable[[int, int], None] | None = None,
    backend: Any = None,
) -> Result:
    """Play the experiment; ``progress(games_done, games_expected)`` is called as chunks finish.
    ``backend``: an already open backend to use (else one is made from the experiment and closed)."""
    start = time.perf_counter()
    cells, until = experiment.cells, experiment.until
    cap = experiment.max_games if until is not None else experiment.games
    runs = [_CellRun(c, task_of(c, experiment), None if until else experiment.games, cap) for c in cells]
    own = backend is None
    backend = backend or backend_for(experiment)
    scheduler = _Scheduler(runs, backend, _chunk_size(experiment, backend.workers, len(cells)), until)
    try:
        while not all(r.done for r in runs):
            scheduler.submit()
            scheduler.collect()
            if progress is not None:
                expected = [r.expected(until) for r in runs]
                progress(
                    sum(min(len(r.records), e) for r, e in zip(runs, expected, strict=True)), sum(expected)
                )
    finally:
        if own:
            backend.close()
    records = [[r.records[i] for i in range(r.stop)] for r in runs]
    return Result(experiment, cells, records, time.perf_counter() - start, scheduler.played, backend.workers)


__all__ = ["FIRST_LOOK", "LOOK_EVERY", "Result", "backend_for", "run", "task_of"]
