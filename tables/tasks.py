"""The tables' Celery tasks: thin, safe to run twice. The sweep (tables/services.py), scheduled
by CELERY_BEAT_SCHEDULE (config/settings.py, `sweep-tables`) and by `make run`'s run_periodic
without a broker, which also sends a challenge's or an invitation's email whose task was lost
or whose person was on the site; a challenge's email and an invitation's
(tables/challenge_emails.py), sent by the dispatcher on commit."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings

from tables import challenge_emails, services

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def sweep_tables() -> None:
    """Fill the tables whose bot-fill time came, expire the open tables past their time."""
    swept = services.sweep()
    if swept.filled or swept.expired:
        log.info("tables: %d filled with bots, %d expired", len(swept.filled), swept.expired)
    older_than = timedelta(seconds=settings.GAMES_NOTICE_RESEND)
    for table_id in challenge_emails.unsent(older_than=older_than):
        send_challenge_email.delay(table_id)
    for table_id in challenge_emails.unsent_invitations(older_than=older_than):
        send_invitation_emails.delay(table_id)


@shared_task(ignore_result=True)
def send_challenge_email(table_id: int) -> None:
    challenge_emails.send_challenge_email(table_id)


@shared_task(ignore_result=True)
def send_invitation_emails(table_id: int) -> None:
    challenge_emails.send_invitation_emails(table_id)
