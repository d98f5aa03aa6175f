"""A projection rebuild run for the staff console, and its progress as the console shows it.

The rebuild itself is games.projections.rebuild: one transaction, so its checkpoint is hidden
until it commits. Its progress is therefore kept where a watcher can read it while it runs: the
state (queued, running, done, failed) in the action's AuditEntry, committed before and after,
and the positions folded so far in the cache after every batch (with CACHE_URL, shared by the
worker and the web; without it, each process's own memory, so the page shows only the state).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.utils import timezone

from games import projections
from staff.models import AuditEntry

log = logging.getLogger(__name__)

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
FINISHED = frozenset({DONE, FAILED})
# Long enough for any rebuild; the entry keeps the final figures anyway.
PROGRESS_SECONDS = 24 * 3600


def progress_key(entry_id: int) -> str:
    return f"staff:rebuild:{entry_id}"


@dataclass(frozen=True, slots=True)
class Progress:
    state: str
    # Positions folded so far and positions to fold (None: not known yet).
    done: int | None
    total: int | None
    error: str = ""

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
    state = details.get("state", QUEUED)
    if state == RUNNING:
        seen = cache.get(progress_key(entry.pk))
        if seen is not None:
            return Progress(state, seen[0], seen[1])
    return Progress(state, details.get("positions"), details.get("head"), details.get("error", ""))


def _save(entry: AuditEntry, **changes: Any) -> None:
    entry.details = {**entry.details, **changes}
    entry.save(update_fields=["details"])


def run(entry_id: int) -> None:
    """Run the rebuild an entry asked for. Safe to run twice (a task re-queued after its worker
    died): a rebuild is all or nothing, so running it again only costs time; a finished one is
    left alone."""
    entry = AuditEntry.objects.filter(
        pk=entry_id, action=AuditEntry.Action.REBUILD_PROJECTION
    ).first()
    if entry is None or entry.details.get("state") == DONE:
        return
    name = entry.details["projection"]
    _save(entry, state=RUNNING, started_at=timezone.now().isoformat())

    def seen(done: int, total: int) -> None:
        cache.set(progress_key(entry_id), (done, total), PROGRESS_SECONDS)

    try:
        positions = projections.rebuild(name, progress=seen)
    except Exception as error:  # noqa: BLE001 (logged with its traceback, shown on the page)
        log.exception("rebuild of projection %s (staff action %s) failed", name, entry_id)
        _save(entry, state=FAILED, error=f"{type(error).__name__}: {error}"[:500],
              finished_at=timezone.now().isoformat())  # fmt: skip
        return
    finally:
        cache.delete(progress_key(entry_id))
    _save(entry, state=DONE, positions=positions, head=positions,
          finished_at=timezone.now().isoformat())  # fmt: skip
