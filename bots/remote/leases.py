"""One run per game asks its webhook bots at a time: a lease in the database (GameLease).

Two runs of advance_game for one game can overlap: the task of one append's dispatch and the
next's, a redelivered task, the reconciler's. Built-in bots' runs are harmless twice (the second
append expects the same version and writes nothing), but a webhook bot would be asked the same
decision twice and, timing out, struck twice. So a run of a game with webhook seats first takes
the game's lease (bots/turns.py), a conditional UPDATE that works alike on PostgreSQL and
SQLite. A run that finds it held leaves a note (`again`) and stops at once, and the holder, on
letting the lease go, reads the note and has the game advanced once more (games/tasks.py): the
refused run's work is done, by the run that was in the way.

Every time is the database's clock (`Now()`), never a worker's: two workers whose clocks
disagree still agree on whether a lease has run out. A lease lasts the run's longest exchange
with the bots plus LEASE_SLACK seconds, and the holder renews it just before each request to a
bot (`Lease.renew`: UPDATE ... WHERE holder = me AND until > now); a holder that finds it gone
(it ran out: a stalled worker, a name lookup or a database that hung) asks nothing and stops, so
a bot is never asked while another run may ask it too. A worker killed while it held a lease
delays its game by the lease's length at most (the reconciler re-drives it).

A note is never lost: left on a lease that nobody holds (its holder failed, or let it go in
between) it stays there, and the reconciler sends `advance_game` for every game whose lease is
free with a note on it (`take_notes`), at once rather than after GAMES_RECONCILE_IDLE.

The lease also keeps what a strike without a move leaves nowhere else (`struck`): the seats
whose fallback made no move at the game's version (a pass in a newno open choice). Such a strike
appends nothing, so the game stays at that version; a later run does not ask those seats again
there, and so strikes a bot at most once for one decision (bots/remote/webhook_turns.py).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import DateTimeField, ExpressionWrapper, Q
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import Now

from games.game_settings import GameSettings
from games.models import Game, GameLease

# Seconds a lease outlives the bot calls of its run (the replay, the driver, the appends).
LEASE_SLACK = 10.0


class LeaseLost(Exception):
    """The run's lease ran out and may be another run's: it must not ask a bot."""


def run_seconds(game: Game) -> float:
    """How long a run of `game` may hold its lease: an out-of-turn window and an in-turn
    decision at most, plus LEASE_SLACK."""
    return GameSettings.of(game.context).webhook_limit + settings.BOTS_WINDOW_SECONDS + LEASE_SLACK


def _until(seconds: float) -> ExpressionWrapper[CombinedExpression]:
    # The database's now, not this worker's.
    return ExpressionWrapper(Now() + timedelta(seconds=seconds), output_field=DateTimeField())


def _free() -> Q:
    return Q(until__isnull=True) | Q(until__lte=Now())


@dataclass(frozen=True, slots=True)
class Lease:
    """A run's hold on a game (from `acquire`)."""

    game_id: int
    holder: str
    seconds: float

    def renew(self) -> None:
        """Hold the lease `seconds` more from now; LeaseLost when it is no longer this run's (it
        ran out, and may be another run's). Called just before each request to a bot."""
        held = GameLease.objects.filter(
            game_id=self.game_id, holder=self.holder, until__gt=Now()
        ).update(until=_until(self.seconds))
        if not held:
            raise LeaseLost(f"game {self.game_id}: the lease ran out")

    def struck_seats(self, version: int) -> frozenset[int]:
        """The seats struck at `version` whose fallback made no move (see `mark_struck`)."""
        struck = (
            GameLease.objects.filter(game_id=self.game_id).values_list("struck", flat=True).first()
        )
        if not struck or struck.get("version") != version:
            return frozenset()
        return frozenset(struck.get("seats", ()))

    def mark_struck(self, version: int, seat: int) -> bool:
        """Record that `seat` was struck at `version` with no move appended; False when it was
        already (its strike counted once) or the lease is no longer this run's (no strike)."""
        with transaction.atomic():
            row = (
                GameLease.objects.select_for_update()
                .filter(game_id=self.game_id, holder=self.holder, until__gt=Now())
                .values_list("struck", flat=True)
                .first()
            )
            if row is None:
                return False
            seats = set(row.get("seats", ())) if row and row.get("version") == version else set()
            if seat in seats:
                return False
            seats.add(seat)
            GameLease.objects.filter(game_id=self.game_id).update(
                struck={"version": version, "seats": sorted(seats)}
            )
        return True


def acquire(game_id: int, *, seconds: float) -> Lease | None:
    """Take the game's lease for `seconds`, or None when another run holds it. None always
    leaves a note: the holder reads it when it lets go, or, if the lease was let go meanwhile,
    the reconciler finds it (`take_notes`)."""
    holder = uuid.uuid4().hex
    for _ in range(3):
        if GameLease.objects.filter(_free(), game_id=game_id).update(
            holder=holder, until=_until(seconds), again=False
        ):
            return Lease(game_id, holder, seconds)
        # Held: the note. A lease let go meanwhile is no longer held (its `until` is None), so
        # the note is left only where a holder will read it; else try again.
        if GameLease.objects.filter(game_id=game_id, until__gt=Now()).update(again=True):
            return None
        try:
            with transaction.atomic():
                GameLease.objects.create(game_id=game_id, holder=holder, until=_until(seconds))
        except IntegrityError:
            continue  # another run made the row first: try again
        return Lease(game_id, holder, seconds)
    # Taken and let go under our feet three times: the note, held or not (the row exists).
    note(game_id)
    return None


def note(game_id: int) -> bool:
    """Leave a note to advance the game again: True when a holder will read it; False when the
    lease is free, where the reconciler finds it (`take_notes`) unless a run takes the lease first
    (and does the work)."""
    GameLease.objects.filter(game_id=game_id).update(again=True)
    return GameLease.objects.filter(game_id=game_id, until__gt=Now()).exists()


def take_notes() -> list[int]:
    """The games whose lease is free with a note on it (a run was refused, and the run that held
    the lease failed or ran out before it sent the game again), their notes taken: the
    reconciler sends them again."""
    with transaction.atomic():
        games = list(
            GameLease.objects.select_for_update(skip_locked=True)
            .filter(_free(), again=True)
            .values_list("game_id", flat=True)
        )
        GameLease.objects.filter(_free(), game_id__in=games).update(again=False)
    return sorted(games)


def release(lease: Lease, *, failed: bool = False) -> bool:
    """Let the lease go; True when a run was refused meanwhile (advance the game again). False
    when the lease is no longer the run's (it ran out and another run took it). A `failed` run
    (its advance raised) leaves the note where it is, for the reconciler (`take_notes`)."""
    with transaction.atomic():
        # Locked, so a refused run's note is either read here or finds the lease let go.
        again = (
            GameLease.objects.select_for_update()
            .filter(game_id=lease.game_id, holder=lease.holder, until__isnull=False)
            .values_list("again", flat=True)
            .first()
        )
        if again is None:
            return False
        if failed:
            GameLease.objects.filter(game_id=lease.game_id).update(holder="", until=None)
        else:
            GameLease.objects.filter(game_id=lease.game_id).update(
                holder="", until=None, again=False
            )
    return again
