"""Archiving finished games (docs/event-store.md, "Archived streams"): which games may go,
and the sweep that moves them.

A game is archived once it is over, has been still for GAMES_ARCHIVE_AFTER_DAYS, and every
registered projection has folded its last event (its last global position is at or below the
lowest checkpoint), so no catch-up run needs it again; a rebuild reads it from the archive like
any stream. Its snapshots go with it (a cache: a finished game is loaded whole, rarely). The
events themselves move in `archive_stream`, all or nothing per game.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from games import event_reads, snapshots
from games.archived_streams import encode_archive
from games.models import ArchivedStream, Game, GameEvent, ProjectionCheckpoint
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
    """Archive one game if it may be (archive_stream); its snapshots go in the same transaction.
    Returns the events archived, or None."""
    floor = checkpoint_floor() if upto is None else upto
    with transaction.atomic():
        count = archive_stream(game_id, upto=floor)
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


def archive_stream(game_id: int, *, upto: int) -> int | None:
    """Move a finished game's whole stream into one archived row (docs/event-store.md,
    "Archived streams"), in one transaction; returns the events archived, or None when the game
    may not be archived: not over, already archived, not whole, or an event past `upto` (the
    lowest projection checkpoint, checkpoint_floor). Every read of games/event_reads.py still
    finds its events.

    On PostgreSQL the database does it (games_archive_stream, migration 0018), as the tables'
    owner: the row is built from the very rows it deletes, and the service's role may not delete
    events any other way. SQLite (no triggers, no roles) takes the same steps through the ORM.
    """
    if connection.vendor == "postgresql":
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT games_archive_stream(%s, %s)", [game_id, upto])
            count = cursor.fetchone()[0]
        return None if count is None else int(count)
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if (
            game is None
            or game.status != Game.Status.MATCH_OVER
            or game.version < 1
            or ArchivedStream.objects.filter(pk=game_id).exists()
        ):
            return None
        stored = event_reads.stream_events(game_id)
        if len(stored) != game.version or stored[-1].position > upto:
            return None
        ArchivedStream.objects.create(
            game_id=game_id,
            first_position=min(row.position for row in stored),
            last_position=max(row.position for row in stored),
            event_count=len(stored),
            types=" " + " ".join(sorted({row.type for row in stored})) + " ",
            events=encode_archive(stored),
            archived_at=datetime.now(UTC),
        )
        GameEvent.objects.filter(game_id=game_id).delete()
    return len(stored)
