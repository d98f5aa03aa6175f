"""The Celery app; its settings are the CELERY_* names in config/settings.py."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from celery import Celery, Task, states
from celery.result import EagerResult
from celery.signals import task_postrun, task_prerun, worker_init
from celery.utils import uuid
from django.conf import settings
from django.core.cache import close_caches
from django.db import close_old_connections

from games import metrics

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

log = logging.getLogger(__name__)


class _Runs(threading.local):
    # The tasks sent in-process in this thread and not yet run, by name, in the order sent.
    queue: deque[tuple[str, Callable[[], Any]]]
    # The names of the queued tasks that coalesce (`coalesce`): one queued is enough.
    coalescing: set[str]
    # Whether a task runs in this thread now (a task sent then is queued).
    running: bool = False
    # What the drains in this thread may still run (None: all): [tasks, the monotonic end].
    limit: list[float] | None = None

    def __init__(self) -> None:
        self.queue = deque()
        self.coalescing = set()


_runs = _Runs()


class InProcessTask(Task[Any, Any]):
    """Every task's class. With a broker nothing changes. In-process (CELERY_TASK_ALWAYS_EAGER,
    `make run`), where `delay` runs the task at once: a task sent while another runs in the same
    thread is queued and run after it, and the first one drains the queue in a loop before it
    returns. A chain of tasks (an append's dispatch sends `advance_game`, whose append dispatches
    the next, one per webhook decision) so runs one after another as on a worker, never one inside
    another until Python's recursion limit (docs/workers.md, "Without Redis").

    A queued task that fails is logged under its own name as it fails, and the others still run;
    only the caller's own task's error is raised to the caller. A thread may limit each drain
    (`drain_limit`: run_periodic does, so that one tick's chain does not hold up the schedule);
    what is left stays queued in order for the thread's next drain (`drain`). A BaseException
    (KeyboardInterrupt, SystemExit) stops the drain and leaves the rest queued, said in the log.

    A task whose class sets `coalesce = True` takes no arguments and does whatever is due when it
    runs (games.tasks.run_projections catches every projection up to the log's head): sent while
    a copy of it is queued and not yet started, it is not queued again, as the queued copy will
    do the later sender's work too. A bot's run of 500 moves in-process so catches the read
    models up once after its appends' dispatches, not 500 times."""

    # Whether a copy already queued in this thread does this task's work (see the docstring).
    coalesce = False

    # Every option goes on to Task.apply by keyword, as delay and apply_async pass them; the
    # stubs' apply names each option, positionally too.
    def apply(  # type: ignore[override]
        self,
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
        **options: Any,
    ) -> EagerResult[Any]:
        if _runs.running:
            options.setdefault("task_id", uuid())
            if self.coalesce:
                if self.name in _runs.coalescing:
                    return EagerResult(options["task_id"], None, states.PENDING, name=self.name)
                _runs.coalescing.add(self.name)
            _runs.queue.append((self.name, partial(super().apply, args, kwargs, **options)))
            return EagerResult(options["task_id"], None, states.PENDING, name=self.name)
        _runs.running = True
        try:
            try:
                result = super().apply(args, kwargs, **options)
            except Exception:
                _drain()
                raise
            _drain()
            return result
        finally:
            _runs.running = False

    @staticmethod
    def drain() -> int:
        """Run this thread's queued tasks (within its limit); the number left queued."""
        if _runs.running:
            return len(_runs.queue)
        _runs.running = True
        try:
            _drain()
        finally:
            _runs.running = False
        return len(_runs.queue)

    @staticmethod
    def queued() -> list[str]:
        """The names of this thread's queued tasks, in order."""
        return [name for name, _ in _runs.queue]

    @staticmethod
    @contextmanager
    def drain_limit(tasks: int, seconds: float) -> Iterator[None]:
        """Within the block, the drains in this thread run at most `tasks` queued tasks in all,
        and start none after `seconds`; the rest stay queued for a later drain."""
        previous, _runs.limit = _runs.limit, [tasks, time.monotonic() + seconds]
        try:
            yield
        finally:
            _runs.limit = previous


def _drain() -> None:
    queue, limit = _runs.queue, _runs.limit
    try:
        while queue:
            if limit is not None:
                if limit[0] < 1 or time.monotonic() >= limit[1]:
                    return  # left queued, in order, for the thread's next drain
                limit[0] -= 1
            name, run = queue.popleft()
            _runs.coalescing.discard(name)
            try:
                run()
            except Exception:
                # One failing task does not stop the others, as with a broker.
                log.exception("in-process task %s failed", name)
    except BaseException:
        if queue:
            names = ", ".join(name for name, _ in queue)
            log.warning(
                "stopped with %d in-process tasks queued (%s): kept for this thread's next "
                "drain; the reconciler finds their games again if none comes",
                len(queue),
                names,
            )
        raise


app = Celery("config", task_cls=InProcessTask)
# The app of every thread: code below config (games/health.py, run_periodic) reads it as
# celery.current_app, which would otherwise be a blank app in a thread other than this one.
app.set_default()
app.config_from_object("django.conf:settings", namespace="CELERY")
# Finds tasks.py in every installed app (games/tasks.py, league/tasks.py).
app.autodiscover_tasks()


@worker_init.connect
def serve_metrics(**_: object) -> None:
    """A worker's own metrics (its webhook calls, its appends) on METRICS_WORKER_PORT, served by
    the main process from a thread; with the prefork pool the children's counts reach it only
    through PROMETHEUS_MULTIPROC_DIR (docs/operations.md)."""
    if settings.METRICS_WORKER_PORT:
        metrics.serve(settings.METRICS_WORKER_PORT)


@worker_init.connect
def keep_database_connections(**_: object) -> None:
    """Treat a task as Django treats a request: keep the database connection across tasks for
    CONN_MAX_AGE, checked before its first use in a task (CONN_HEALTH_CHECKS) and closed after
    an error or a transaction left open, instead of Celery's Django fixup closing it around
    every task (a new connection per task, whatever CONN_MAX_AGE says; docs/workers.md).

    Runs after the fixup installed its handlers (it connected to worker_init when the app was
    made); the fixup still closes the connections a prefork child inherits from its parent."""
    for fixup in getattr(app, "_fixups", ()):
        worker_fixup = getattr(fixup, "worker_fixup", None)
        if worker_fixup is not None:
            task_prerun.disconnect(worker_fixup.on_task_prerun)
            task_postrun.disconnect(worker_fixup.on_task_postrun)
    task_prerun.connect(_task_started, weak=False)
    task_postrun.connect(_task_finished, weak=False)


def _eager(task: Any) -> bool:
    # An eager task runs inside the caller's request or test, whose connection is not ours.
    return bool(getattr(getattr(task, "request", None), "is_eager", False))


def _task_started(sender: Any = None, **_: object) -> None:
    if not _eager(sender):
        close_old_connections()


def _task_finished(sender: Any = None, **_: object) -> None:
    # What Django does when a request finishes.
    if not _eager(sender):
        close_old_connections()
        close_caches()
