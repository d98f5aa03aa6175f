"""Celery tasks for tournaments: thin, each calls tournaments/rounds.py; each is safe to run twice.
`sweep` is scheduled by CELERY_BEAT_SCHEDULE in config/settings.py (docs/tournaments.md)."""

from __future__ import annotations

import logging

from celery import shared_task

from tournaments import rounds
from tournaments.models import Tournament

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def advance(tournament_id: int) -> None:
    """Open the next round of a tournament whose round has ended (a game of it ended)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is not None:
        rounds.tournament_advance(tournament)


@shared_task(ignore_result=True)
def sweep() -> None:
    """Start the tournaments whose entry closed, forfeit what a round deadline finds still
    playing, and advance every tournament whose round has ended."""
    for step in (rounds.start_due, rounds.forfeit_overdue, rounds.advance_running):
        try:
            step()
        except Exception:  # noqa: BLE001 (logged with its traceback)
            # One step's trouble (a lock timeout, a bug) must not stop the others; the next
            # run tries it again.
            log.exception("the tournaments' sweep failed at %s", step.__name__)
