"""Archiving finished games (docs/event-store.md, "Archived streams"): which games may go,
and the sweep that moves them.

A game is archived once it is over, has been still for GAMES_ARCHIVE_AFTER_DAYS, and every
registered projection has folded its last event (its last global position is at or below the
lowest checkpoint), so no catch-up run needs it again; a rebuild reads it from the archive like
any stream. Its snapshots go with it (a cache: a finished game is loaded whole, rarely). The
events themselves move in games/appends.py `archive`, all or nothing per game.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import appends, snapshots
from games.models import ArchivedStream, Game, ProjectionCheckpoint
from games.projections import PROJECTIONS

log = logging.getLogger(__name__)

# Games one sweep archives at most: each is one short transaction.
SWEEP_LIMIT = 500


def checkpoint_floor() -> int:
    """The lowest checkpoint of every registered projection; 0 while one has none yet (it has
    folded nothing, so no game is past it)."""
    names = set(PROJECTIONS)
    positions = dict(
        ProjectionCheckpoint.objects.filter(name__in=names).values_list("name", "position")
    )
    if not names or positions.keys() != names:
        return 0
    return min(positions.values())


def archivable(*, older_than: timedelta, limit: int, now: datetime | None = None) -> list[int]:
    """Finished games still since `older_than` ago, not archived yet, the stillest first."""
    cutoff = (now or timezone.now()) - older_than
    return list(
        Game.objects.filter(status=Game.Status.MATCH_OVER, last_activity__lt=cutoff, version__gt=0)
        .exclude(pk__in=ArchivedStream.objects.values("game_id"))
        .order_by("last_activity", "pk")
        .values_list("pk", flat=True)[:limit]
    )


@dataclass(frozen=True)
class Swept:
    """What one sweep did: games archived, their events, and games left (not yet folded by
    every projection, or changed meanwhile)."""

    games: int
    events: int
    skipped: int


def archive_game(game_id: int, *, upto: int | None = None) -> int | None:
    """Archive one game if it may be (appends.archive); its snapshots go in the same transaction.
    Returns the events archived, or None."""
    floor = checkpoint_floor() if upto is None else upto
    with transaction.atomic():
        count = appends.archive(game_id, upto=floor)
        if count is not None:
            snapshots.forget(game_id)
    return count


def archive_games(
    *, older_than: timedelta | None = None, limit: int = SWEEP_LIMIT, now: datetime | None = None
) -> Swept:
    """Archive up to `limit` finished games still for `older_than` (GAMES_ARCHIVE_AFTER_DAYS
    by default)."""
    if older_than is None:
        older_than = timedelta(days=settings.GAMES_ARCHIVE_AFTER_DAYS)
    floor = checkpoint_floor()
    games = events = skipped = 0
    for game_id in archivable(older_than=older_than, limit=limit, now=now):
        count = archive_game(game_id, upto=floor)
        if count is None:
            skipped += 1
        else:
            games += 1
            events += count
    if games:
        log.info("archived %s games (%s events); %s left live", games, events, skipped)
    return Swept(games, events, skipped)
