"""The tables' Celery task: thin, it calls tables/services.py's sweep; safe to run twice.
Scheduled by CELERY_BEAT_SCHEDULE (config/settings.py, `sweep-tables`), and by `make run`'s
run_periodic without a broker."""

from __future__ import annotations

import logging

from celery import shared_task

from tables import services

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def sweep_tables() -> None:
    """Fill the tables whose bot-fill time came, expire the open tables past their time."""
    swept = services.sweep()
    if swept.filled or swept.expired:
        log.info("tables: %d filled with bots, %d expired", len(swept.filled), swept.expired)
