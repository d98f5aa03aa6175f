"""The Celery app; its settings are the CELERY_* names in config/settings.py."""

from __future__ import annotations

import logging
import os
import threading
from collections import deque
from collections.abc import Callable
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
    # The tasks sent in-process while one runs in this thread, waiting their turn (None: none runs).
    queue: deque[Callable[[], Any]] | None = None


_runs = _Runs()


class InProcessTask(Task[Any, Any]):
    """Every task's class. With a broker nothing changes. In-process (CELERY_TASK_ALWAYS_EAGER,
    `make run`), where `delay` runs the task at once: a task sent while another runs in the same
    thread is queued and run after it, and the first one drains the queue in a loop before it
    returns. A chain of tasks (an append's dispatch sends `advance_game`, whose append dispatches
    the next, one per webhook decision) so runs one after another as on a worker, never one inside
    another until Python's recursion limit (docs/workers.md, "Without Redis")."""

    # Every option goes on to Task.apply by keyword, as delay and apply_async pass them; the
    # stubs' apply names each option, positionally too.
    def apply(  # type: ignore[override]
        self,
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
        **options: Any,
    ) -> EagerResult[Any]:
        queue = _runs.queue
        if queue is not None:
            options.setdefault("task_id", uuid())
            queue.append(partial(super().apply, args, kwargs, **options))
            return EagerResult(options["task_id"], None, states.PENDING, name=self.name)
        _runs.queue = queue = deque()
        errors: list[Exception] = []
        result = None
        try:
            try:
                result = super().apply(args, kwargs, **options)
            except Exception as error:
                errors.append(error)
            while queue:
                run = queue.popleft()
                try:
                    run()
                except Exception as error:
                    # One failing task does not stop the others, as with a broker.
                    if errors:
                        log.exception("in-process task failed after another one had")
                    errors.append(error)
        finally:
            _runs.queue = None
        if errors:
            raise errors[0]
        assert result is not None  # super().apply returned, or it raised and errors holds it
        return result


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
