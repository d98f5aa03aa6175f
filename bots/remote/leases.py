"""One run per game asks its webhook bots at a time: a lease in the database (GameLease).

Two runs of advance_game for one game can overlap: the task of one append's dispatch and the
next's, a redelivered task, the reconciler's. Built-in bots' runs are harmless twice (the second
append expects the same version and writes nothing), but a webhook bot would be asked the same
decision twice and, timing out, struck twice. So a run of a game with webhook seats first takes
the game's lease (bots/turns.py), a conditional UPDATE that works alike on PostgreSQL and
SQLite; a run that finds it held leaves a note (`again`) and stops at once, and the holder, on
letting the lease go, reads the note and has the game advanced once more (games/tasks.py): the
refused run's work is done, by the run that was in the way. A lease lasts the run's longest
exchange with the bots plus LEASE_SLACK seconds and then expires, so a worker killed while it
held one delays its game by that much at most (the reconciler re-drives it).
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games.game_settings import GameSettings
from games.models import Game, GameLease

# Seconds a lease outlives the bot calls of its run (the replay, the driver, the appends).
LEASE_SLACK = 10.0


def run_seconds(game: Game) -> float:
    """How long a run of `game` may hold its lease: an out-of-turn window and an in-turn
    decision at most, plus LEASE_SLACK."""
    return GameSettings.of(game.context).webhook_limit + settings.BOTS_WINDOW_SECONDS + LEASE_SLACK


def acquire(game_id: int, *, seconds: float) -> str | None:
    """Take the game's lease for `seconds`: the holder's token, or None when another run holds
    it (which then finds a note to advance the game again when it lets go)."""
    holder = uuid.uuid4().hex
    for _ in range(3):
        now = timezone.now()
        until = now + timedelta(seconds=seconds)
        free = Q(until__isnull=True) | Q(until__lte=now)
        if GameLease.objects.filter(free, game_id=game_id).update(
            holder=holder, until=until, again=False
        ):
            return holder
        # Held: the note. A lease let go meanwhile is no longer held (its `until` is None), so
        # the note is left only where a holder will read it; else try again.
        if GameLease.objects.filter(game_id=game_id, until__gt=now).update(again=True):
            return None
        try:
            with transaction.atomic():
                GameLease.objects.create(game_id=game_id, holder=holder, until=until)
        except IntegrityError:
            continue  # another run made the row first: try again
        return holder
    return None


def release(game_id: int, holder: str) -> bool:
    """Let the lease go; True when a run was refused meanwhile (advance the game again). False
    when the lease is no longer `holder`'s (it expired and another run took it)."""
    with transaction.atomic():
        # Locked, so a refused run's note is either read here or finds the lease let go.
        again = (
            GameLease.objects.select_for_update()
            .filter(game_id=game_id, holder=holder, until__isnull=False)
            .values_list("again", flat=True)
            .first()
        )
        if again is None:
            return False
        GameLease.objects.filter(game_id=game_id).update(holder="", until=None, again=False)
    return again
