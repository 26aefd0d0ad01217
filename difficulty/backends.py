"""Where the games run: in this process, in local worker processes, or as Ray tasks.

Every backend takes tasks (``difficulty.play.Task``: typed cells, frozen dataclasses that pickle as
they are) with ``submit(task) -> handle`` and hands back finished ones with
``wait() -> [(handle, records), ...]`` (at least one, in completion order); ``cancel(handle)``
drops a task whose records are no longer wanted. Which backend ran a game never changes its record:
a game depends only on its cell and its index. A task is played by ``play`` (default
``difficulty.play.play_task``); another tool passes its own picklable top-level function of one task
(``training.dataset`` its chunks of games), and for the local backend's forked workers a ``warm``
function of a task that loads what its games need (default ``difficulty.play.prepare``).

- ``SerialBackend``: runs each task when asked for it (no parallelism; the reference in tests).
- ``LocalBackend(workers, prepare)``: a ``ProcessPoolExecutor`` of ``workers`` processes (default: all
  cores). When this process runs a single thread and has neither torch nor Ray loaded, the workers
  are forked from it at once, after ``prepare`` tasks have loaded the content, tables and agents
  (they start warm, in milliseconds); otherwise a forkserver that has imported the engine and the
  agents starts them (safe with threads, a second or two per worker).
- ``RayBackend(address, workers)``: one Ray task per chunk of games. ``address=None`` starts a local
  Ray instance with ``workers`` CPUs (or joins the one already running in this process);
  ``address="auto"`` or ``"ray://host:10001"`` joins a cluster, whose nodes need this package
  installed. Ray is an optional extra: ``pip install -e '.[ray]'``.
"""

from __future__ import annotations

import concurrent.futures as cf
import gc
import multiprocessing
import os
import sys
import threading
from collections.abc import Callable
from typing import Any

from difficulty.play import Task, play_task, prepare

PRELOAD = ["difficulty.play", "agents", "dungeon_env.engine"]


class BackendUnavailable(RuntimeError):
    """The backend asked for cannot run here (Ray not installed, a cluster that cannot be joined);
    the message says which and what to do."""


class SerialBackend:
    workers = 1
    capacity = 1  # tasks in flight

    def __init__(self, play: Callable[[Any], Any] = play_task) -> None:
        self._play = play
        self._pending: dict[int, Task] = {}
        self._next = 0

    def submit(self, task: Task) -> int:
        self._next += 1
        self._pending[self._next] = task
        return self._next

    def wait(self) -> list[tuple[Any, list[dict]]]:
        handle = min(self._pending)
        return [(handle, self._play(self._pending.pop(handle)))]

    def cancel(self, handle: Any) -> None:
        self._pending.pop(handle, None)

    def close(self) -> None:
        self._pending.clear()


GC_THRESHOLD = 20_000  # a worker's young-generation collection threshold (Python's default: 700)


def _worker_init() -> None:
    # games make many short-lived objects and little cyclic garbage: collecting less often takes
    # some 2% of a worker's time back (the content loaded before a fork is frozen out of it too)
    gc.set_threshold(GC_THRESHOLD, 20, 20)
    try:  # checkpoint agents: one torch thread per worker process
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass


def fork_is_safe() -> bool:
    """Forking copies one thread only: safe here if there is one, and no torch or Ray state."""
    return (
        sys.platform == "linux"
        and threading.active_count() == 1
        and "torch" not in sys.modules
        and "ray" not in sys.modules
    )


def _noop() -> None:
    return None


class LocalBackend:
    def __init__(
        self,
        workers: int | None = None,
        prepare_tasks: list[Task] | None = None,
        play: Callable[[Any], Any] = play_task,
        warm: Callable[[Any], None] = prepare,
    ) -> None:
        self.workers = workers or os.cpu_count() or 1
        self._play = play
        forked = fork_is_safe()
        if forked:
            for task in prepare_tasks or []:
                warm(task)
            context = multiprocessing.get_context("fork")
            gc.freeze()  # the loaded content stays out of the workers' garbage collections
        else:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(list(dict.fromkeys([*PRELOAD, play.__module__])))
        self.start_method = context.get_start_method()
        try:
            self._pool = cf.ProcessPoolExecutor(self.workers, mp_context=context, initializer=_worker_init)
            self._pool.submit(_noop).result()  # start the workers now (with fork: all, before any thread)
        finally:
            if forked:
                gc.unfreeze()  # (in this process only: the workers keep theirs frozen)
        self._pending: set[cf.Future] = set()
        self._unwanted: set[cf.Future] = set()  # cancelled too late: already handed to a worker

    def submit(self, task: Task) -> cf.Future:
        future = self._pool.submit(self._play, task)
        self._pending.add(future)
        return future

    def wait(self) -> list[tuple[Any, list[dict]]]:
        done, _ = cf.wait(self._pending, return_when=cf.FIRST_COMPLETED)
        self._pending -= done
        return [(f, f.result()) for f in done]

    def cancel(self, handle: cf.Future) -> None:
        self._pending.discard(handle)
        if not handle.cancel():  # a worker has it (or its queue does): it plays on, unwanted
            self._unwanted = {f for f in self._unwanted if not f.done()} | {handle}

    def close(self) -> None:
        """Drop the tasks still pending; workers still playing unwanted games are stopped rather
        than waited for (a chunk already handed to a worker process cannot be cancelled)."""
        for future in self._pending:
            future.cancel()
        if any(not future.done() for future in self._pending | self._unwanted):
            self._terminate_workers()
        self._pending.clear()
        self._unwanted.clear()
        self._pool.shutdown(wait=True, cancel_futures=True)

    def _terminate_workers(self) -> None:
        terminate = getattr(self._pool, "terminate_workers", None)  # Python 3.14+
        if terminate is not None:
            terminate()
            return
        for process in list((getattr(self._pool, "_processes", None) or {}).values()):
            process.terminate()


class RayBackend:
    def __init__(
        self, address: str | None = None, workers: int | None = None, play: Callable[[Any], Any] = play_task
    ) -> None:
        try:
            import ray
        except ImportError as error:
            raise BackendUnavailable(
                "the ray backend needs Ray: pip install -e '.[ray]' (or pip install 'ray>=2.9')"
            ) from error
        self._ray = ray
        self._started = False
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if address is None:  # a local instance: its workers import this package as we do
                kwargs["num_cpus"] = workers or os.cpu_count() or 1
                kwargs["runtime_env"] = {
                    "env_vars": {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
                }
            try:
                ray.init(address=address, **kwargs)
            except (ConnectionError, RuntimeError, ValueError) as error:
                where = f"the Ray cluster at {address!r}" if address else "a local Ray instance"
                raise BackendUnavailable(
                    f"the ray backend could not start {where}: {error}"
                    " (expected --ray-address auto, ray://host:port, or none for a local instance)"
                ) from error
            self._started = True
        self.workers = int(ray.cluster_resources().get("CPU", 1))
        self._remote = ray.remote(num_cpus=1, max_retries=2)(play)
        self._pending: set = set()

    def submit(self, task: Task) -> Any:
        ref = self._remote.remote(task)
        self._pending.add(ref)
        return ref

    def wait(self) -> list[tuple[Any, list[dict]]]:
        done, _ = self._ray.wait(list(self._pending), num_returns=1)
        self._pending -= set(done)
        return [(ref, self._ray.get(ref)) for ref in done]

    def cancel(self, handle: Any) -> None:
        if handle in self._pending:
            self._pending.discard(handle)
            self._ray.cancel(handle)

    def close(self) -> None:
        for ref in list(self._pending):
            self.cancel(ref)
        if self._started:
            self._ray.shutdown()


def make_backend(
    name: str,
    workers: int = 0,
    ray_address: str | None = None,
    prepare_tasks: list | None = None,
    play: Callable[[Any], Any] = play_task,
    warm: Callable[[Any], None] = prepare,
):
    """``"serial"``, ``"local"`` (``workers`` processes, 0 = all cores) or ``"ray"``; ``prepare_tasks``:
    tasks whose content the local workers should start with (loaded by ``warm``); ``play``: what
    plays a task (default ``difficulty.play.play_task``)."""
    if name == "serial":
        return SerialBackend(play)
    if name == "local":
        return LocalBackend(workers or None, prepare_tasks, play, warm)
    if name == "ray":
        return RayBackend(ray_address, workers or None, play)
    raise ValueError(f"unknown backend {name!r}; expected serial, local or ray")


__all__ = ["BackendUnavailable", "LocalBackend", "RayBackend", "SerialBackend", "make_backend"]
