"""Run the beat schedule in this process, for a local site without a broker (`make run`).

Without REDIS_URL tasks run eagerly in the process that sends them, so no worker and no `celery
beat` exist, and nothing would run CELERY_BEAT_SCHEDULE: people's deadlines, the newno
open-choice timeout, the resends, the digests. This command runs each of its tasks in-process
when it is due, reading the schedule as beat does (an interval or a crontab). A task that fails
is logged and the loop goes on. The tasks a task sends are queued (config/celery.py) and a tick
runs at most DRAIN_TASKS of them or DRAIN_SECONDS' worth, in the order sent; the rest wait for
the next tick, so a long chain (a webhook bot's match) never holds up the schedule. SIGINT or
SIGTERM stops it once the running task is done (a second signal at once); tasks still queued
then are named in the log and their games found again by the reconciler. With a broker it
refuses: `celery -A config beat` schedules the tasks
there, and two schedulers would run everything twice (docs/workers.md).
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import FrameType
from typing import Any

from celery import current_app as celery_app
from celery.schedules import BaseSchedule, maybe_schedule, schedule
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import close_old_connections
from django.utils.module_loading import import_string

log = logging.getLogger(__name__)

# Seconds the loop sleeps at most, so a parent that went away is noticed within one.
LONGEST_WAIT = 1.0
# What one tick runs at most of the tasks its tasks sent (config/celery.py queues them): a
# webhook bot's match is a chain of hundreds, minutes long; the rest waits, in order, for the
# next tick, so that the due entries run between its pieces.
DRAIN_TASKS = 20
DRAIN_SECONDS = 2.0


@dataclass
class Entry:
    """One task of the schedule and when it last ran."""

    name: str
    task: str
    schedule: BaseSchedule
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    last_run_at: datetime | None = None

    def due(self) -> tuple[bool, float]:
        """Whether the task is due now, and the seconds until it should be asked again."""
        if self.last_run_at is None:
            # Intervals run at once (the sweeps catch up with what happened while nothing
            # ran); a crontab waits for its time.
            if isinstance(self.schedule, schedule):
                return True, self.schedule.seconds
            self.last_run_at = self.schedule.now()
        is_due, next_check = self.schedule.is_due(self.last_run_at)
        return is_due, next_check


def check_task(entry: str, task: str) -> None:
    """Import the task's module (beat only sends names; outside a worker Celery imports no
    app's tasks.py until something does), or raise CommandError."""
    try:
        import_string(task)
    except ImportError:
        pass
    if task not in celery_app.tasks:
        raise CommandError(f"periodic task {entry!r}: no task named {task!r}")


def _task_class() -> Any:
    """The app's task class (config/celery.py's InProcessTask), whose queue of tasks sent
    in-process this runner drains a piece a tick."""
    return celery_app.Task


class PeriodicRunner:
    """The entries of a beat schedule, each run in this process when due."""

    def __init__(self, beat_schedule: Mapping[str, Mapping[str, Any]], *, run_level: int) -> None:
        self.run_level = run_level
        self.entries = []
        for name, spec in beat_schedule.items():
            check_task(name, spec["task"])
            self.entries.append(
                Entry(
                    name=name,
                    task=spec["task"],
                    # maybe_schedule turns seconds or a timedelta into a schedule; celery-types
                    # says it may return them unchanged.
                    schedule=maybe_schedule(spec["schedule"], app=celery_app),  # type: ignore[arg-type]
                    args=tuple(spec.get("args", ())),
                    kwargs=dict(spec.get("kwargs", {})),
                )
            )

    def run_due(self) -> float:
        """Run every entry that is due, then some of the tasks they sent (DRAIN_TASKS, or
        DRAIN_SECONDS); return the seconds until one may be due again (0 while tasks are left
        queued)."""
        wait = LONGEST_WAIT
        with _task_class().drain_limit(DRAIN_TASKS, DRAIN_SECONDS):
            for entry in self.entries:
                is_due, next_check = entry.due()
                if is_due:
                    entry.last_run_at = entry.schedule.now()
                    self.run(entry)
                wait = min(wait, next_check)
            close_old_connections()
            try:
                left = _task_class().drain()
            finally:
                close_old_connections()
        return 0.0 if left else max(wait, 0.0)

    def run(self, entry: Entry) -> None:
        """Run one task here and now; a failure is logged, never raised."""
        # A long-lived process outside any request: drop a connection that broke or aged, as
        # Django does around each request.
        close_old_connections()
        started = time.monotonic()
        try:
            celery_app.tasks[entry.task].apply(args=entry.args, kwargs=entry.kwargs, throw=True)
        except Exception:
            log.exception("periodic task %s (%s) failed", entry.name, entry.task)
        else:
            elapsed = (time.monotonic() - started) * 1000
            log.log(self.run_level, "ran %s (%s) in %.0f ms", entry.name, entry.task, elapsed)
        finally:
            close_old_connections()

    def run_until(self, stop: threading.Event, *, parent: int | None = None) -> None:
        """Run due entries until `stop` is set, or until the process `parent` is gone."""
        while not stop.is_set():
            if parent is not None and os.getppid() != parent:
                log.info("parent process %s is gone: stopping", parent)
                return
            stop.wait(self.run_due())


class Command(BaseCommand):
    help = (
        "Run CELERY_BEAT_SCHEDULE's tasks in this process, each when due, for a local site "
        "without a broker (make run). Stops on SIGINT or SIGTERM."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--stop-with-parent",
            action="store_true",
            help="Stop when the process that started this one ends (make run: runserver).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not celery_app.conf.task_always_eager:
            raise CommandError(
                "Tasks go to a broker (REDIS_URL is set): run `celery -A config beat` and a "
                "worker instead (docs/workers.md). run_periodic is for a site without one."
            )
        # A line per run only at -v 2: the 5 s sweeps would drown runserver's lines. Celery logs
        # every eager task's success too, without the entry's name: those lines go.
        run_level = logging.INFO if options["verbosity"] > 1 else logging.DEBUG
        logging.getLogger("celery.app.trace").setLevel(logging.WARNING)
        runner = PeriodicRunner(settings.CELERY_BEAT_SCHEDULE, run_level=run_level)
        parent = os.getppid() if options["stop_with_parent"] else None
        stop = threading.Event()
        previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}

        def on_signal(signum: int, frame: FrameType | None) -> None:
            if stop.is_set():
                raise SystemExit(128 + signum)
            log.info("%s: stopping after the running task", signal.Signals(signum).name)
            stop.set()

        for sig in previous:
            signal.signal(sig, on_signal)
        schedule_text = ", ".join(f"{e.name} {e.schedule}" for e in runner.entries)
        log.info("running %d periodic tasks in-process: %s", len(runner.entries), schedule_text)
        try:
            runner.run_until(stop, parent=parent)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            left = _task_class().queued()
            if left:
                log.warning(
                    "stopped with %d in-process tasks queued (%s): the reconciler finds their "
                    "games again at the next start",
                    len(left),
                    ", ".join(left),
                )
        log.info("periodic tasks stopped")
