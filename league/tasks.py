"""Celery tasks for leagues: thin, each loads ids and calls a service; each is safe to run twice.

Scheduled by CELERY_BEAT_SCHEDULE in config/settings.py (docs/league.md).
"""

from __future__ import annotations

import logging

from celery import shared_task

from league import ladders, rest, seasons
from league.models import Competition

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def ladder_matchmaking() -> None:
    """Seat the idle entrants of every ladder with matchmaking on in new games, unless the
    ladders rest because nobody visits the site (league/rest.py)."""
    if rest.resting():
        return
    running = Competition.objects.filter(kind=Competition.Kind.LADDER, matchmaking=True)
    for competition in running.order_by("pk"):
        try:
            ladders.ladder_matchmaking(competition)
        except Exception:  # noqa: BLE001 (logged with its traceback)
            # One ladder's trouble (a game the rules refuse, a lock timeout, a bug) must not
            # stop the others; the next run tries it again.
            log.exception("ladder matchmaking failed for competition %s", competition.pk)


@shared_task(ignore_result=True)
def ladder_continue(competition_id: int) -> None:
    """The next rotations of a ladder's sets (a game of it ended), if its matchmaking is on."""
    competition = Competition.objects.filter(
        pk=competition_id, kind=Competition.Kind.LADDER, matchmaking=True
    ).first()
    if competition is not None:
        ladders.ladder_continue(competition)


@shared_task(ignore_result=True)
def open_rounds() -> None:
    """Make the games of every running season's rounds that are due (seasons.open_due_rounds:
    safe to run twice at once)."""
    opened = seasons.open_due_rounds()
    if opened:
        log.info("opened %s fixture games", opened)
