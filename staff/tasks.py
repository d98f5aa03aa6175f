"""The staff console's Celery task: thin, it loads an id and calls staff/rebuilds.py."""

from __future__ import annotations

from celery import shared_task

from staff import rebuilds


@shared_task(ignore_result=True)
def rebuild_projection(entry_id: int) -> None:
    """Rebuild the projection a staff action (an AuditEntry) asked for, keeping its progress."""
    rebuilds.run(entry_id)
