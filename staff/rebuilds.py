"""A projection rebuild for the staff console, and its progress as the console shows it.

The rebuild is a games/rebuilds.py run: its partitions are folded by the workers' tasks, each
moving its checkpoint in the database, so any process reads how far it is. The action's
AuditEntry says the state until a worker has started the run (queued), then names the run
(`run`), and keeps the final figures once it has ended (done, failed).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from games import projections, rebuilds, tasks
from staff.models import AuditEntry

log = logging.getLogger(__name__)

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
FINISHED = frozenset({DONE, FAILED})


@dataclass(frozen=True, slots=True)
class Progress:
    state: str
    # Events of the log folded so far and to fold (None: not known yet).
    done: int | None
    total: int | None
    error: str = ""
    partitions: list[rebuilds.PartitionProgress] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.state in FINISHED

    @property
    def percent(self) -> int | None:
        if self.done is None or not self.total:
            return 100 if self.state == DONE else None
        return min(100, self.done * 100 // self.total)


def progress_of(entry: AuditEntry) -> Progress:
    details: dict[str, Any] = entry.details
    run_id = details.get("run")
    if run_id is not None:
        found = rebuilds.progress(run_id)
        return Progress(found.state, found.events, found.total, found.error, found.partitions)
    state = details.get("state", QUEUED)
    return Progress(state, details.get("positions"), details.get("head"), details.get("error", ""))


def _save(entry: AuditEntry, **changes: Any) -> None:
    entry.details = {**entry.details, **changes}
    entry.save(update_fields=["details"])


def run(entry_id: int) -> None:
    """Start the rebuild an entry asked for: its partitions go to the workers (without a
    broker they run here before this returns). Safe to run twice (a task re-queued after its
    worker died): an entry that names its run resumes it, each partition from its checkpoint;
    a finished one is left alone."""
    entry = AuditEntry.objects.filter(
        pk=entry_id, action=AuditEntry.Action.REBUILD_PROJECTION
    ).first()
    if entry is None or entry.details.get("state") in FINISHED:
        return
    name = entry.details["projection"]
    try:
        if entry.details.get("run") is not None:
            if rebuilds.progress(entry.details["run"]).state != DONE:
                tasks.resume_rebuild(entry.details["run"])
            found = rebuilds.progress(entry.details["run"])
        else:
            started = tasks.start_rebuild([name])
            _save(entry, state=RUNNING, run=started.pk, head=started.head,
                  started_at=timezone.now().isoformat())  # fmt: skip
            found = rebuilds.progress(started.pk)
    except projections.Rebuilding as error:
        _save(entry, state=FAILED, error=str(error), finished_at=timezone.now().isoformat())
        return
    except Exception as error:  # noqa: BLE001 (logged with its traceback, shown on the page)
        log.exception("rebuild of projection %s (staff action %s) failed", name, entry_id)
        _save(entry, state=FAILED, error=f"{type(error).__name__}: {error}"[:500],
              finished_at=timezone.now().isoformat())  # fmt: skip
        return
    if found.state == DONE:
        # In-process (no broker): the run ended before this returned.
        _save(entry, state=DONE, positions=found.head, finished_at=timezone.now().isoformat())
