"""Presence: whether a person is at one of their games, so that no turn email reaches someone
playing on the page (clocks/deadlines.py asks), and the signed links that stop turn emails.

A person is seen at a game when they open its play page, when its live board polls (once a
second while the page is open, even in a background tab, where browsers slow the poll to about
once a minute), and when they send a command from the page or the API. They count as present
for GAMES_PRESENCE_SECONDS after that. The moment is one column of a row per person and game
(games.models.Presence), in the database, so every web process and worker reads the same one,
under `make run` (SQLite) as in production. Writing it once a second per open page would double
the poll's cost: the front door (web/presence.py) writes it at most every
GAMES_PRESENCE_WRITE_SECONDS per person, game and process, which the presence window absorbs.

Being seen at a game also marks that game's notices under the bell read (its turns, a rematch
offered, a fixture opened: social/notifications.py), in the same statement on PostgreSQL.

The same row keeps the one email of an absence (`emailed_at`: a turn email goes out only if
none did since the person was last seen) and the per-game mute.

Beside the games, a person is active on the site while any page or API request of theirs came
within GAMES_SITE_ACTIVE_SECONDS (games.models.SiteActivity, a row per person, written by the front
door frontdoor/activity.py at most every GAMES_SITE_WRITE_SECONDS per person): no turn email
goes to them then, the turn waits under the bell and in the lobby. The same row keeps when the
last turn email went to them, so the turns that start within that time of it go in one email.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.db import connection
from django.utils import timezone

from games.models import NotificationPreference, Presence, Seat, SiteActivity
from social import notifications
from social.models import Notification

# When this process last wrote each (requester, game)'s presence: a poll comes once a second, the
# write at most every GAMES_PRESENCE_WRITE_SECONDS (seconds of a monotonic clock).
_written: dict[tuple[str, int], float] = {}
_WRITTEN_MAX = 50_000

# When this process last wrote each requester's activity on the site (a monotonic clock).
_active: dict[str, float] = {}

# What an unsubscribe link signs (a user id), kept apart from every other signed value.
_UNSUBSCRIBE_SALT = "clocks.presence.unsubscribe"


# One statement, on PostgreSQL and SQLite alike: the row made or its moment moved, only for a
# person who holds a seat in the game (the seat's check is part of the statement).
_SEEN = (
    f"INSERT INTO {Presence._meta.db_table} (user_id, game_id, seen_at, emailed_at, muted) "
    f"SELECT %s, %s, %s, NULL, %s WHERE EXISTS (SELECT 1 FROM {Seat._meta.db_table} "
    "WHERE game_id = %s AND user_id = %s) "
    "ON CONFLICT (user_id, game_id) DO UPDATE SET seen_at = excluded.seen_at"
)

# On PostgreSQL the game's unread notices of the person are marked read in the same statement
# (a data-modifying WITH runs whether or not the query reads it).
_READ_GAME = (
    f'WITH "read" AS (UPDATE "{Notification._meta.db_table}" SET "read_at" = %s '
    'WHERE "user_id" = %s AND "game_id" = %s AND "read_at" IS NULL RETURNING 1) '
)


def seen(user_id: int | None, game_id: int, *, now: datetime | None = None) -> bool:
    """The person was at the game now: record it if they hold a seat there (a spectator leaves
    no row), and mark the game's notices under the bell read, in one statement. Returns
    whether it was recorded."""
    now = now or timezone.now()
    if user_id is None:
        return False
    at = connection.ops.adapt_datetimefield_value(now)
    params = [user_id, game_id, at, False, game_id, user_id]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(_READ_GAME + _SEEN, [at, user_id, game_id, *params])
        else:  # SQLite (`make run`): no UPDATE inside WITH, two statements
            notifications.game_opened(user_id, game_id)
            cursor.execute(_SEEN, params)
        return bool(cursor.rowcount)


def seen_now_and_then(key: str, game_id: int, user_id: Callable[[], int | None]) -> None:
    """`seen`, at most every GAMES_PRESENCE_WRITE_SECONDS per `key` (a session, a token's
    user) and game in this process: a poll that finds nothing new costs no query here, and
    `user_id` (which may load the session) is only called when a write is due."""
    now = _due(_written, (key, game_id), settings.GAMES_PRESENCE_WRITE_SECONDS)
    if now is None:
        return
    found = user_id()
    if found is None:
        return
    _keep(_written, (key, game_id), now)
    seen(found, game_id)


def seen_at_once(key: str, game_id: int, user_id: int) -> None:
    """`seen` now, whenever it was last written (a move: the turn it plays is read under the
    bell at once), and kept as `seen_now_and_then` keeps it, so the poll and the page that
    follow within GAMES_PRESENCE_WRITE_SECONDS write nothing more."""
    _keep(_written, (key, game_id), time.monotonic())
    seen(user_id, game_id)


def _due(stamps: dict[Any, float], key: Any, seconds: float) -> float | None:
    """Now (this process's monotonic clock) when `key` was last kept in `stamps` `seconds` ago
    or more, or never; None while it was kept more recently."""
    now = time.monotonic()
    last = stamps.get(key)
    return None if last is not None and now - last < seconds else now


def _keep(stamps: dict[Any, float], key: Any, now: float) -> None:
    """`key` written at `now`; the whole store let go past _WRITTEN_MAX keys (a write more
    each, then: never a missed one)."""
    if len(stamps) >= _WRITTEN_MAX:
        stamps.clear()
    stamps[key] = now


def forget_writes() -> None:
    """Write the next `seen_now_and_then` and `active_now_and_then` of every key (tests that
    move time)."""
    _written.clear()
    _active.clear()


# The person's moment on the site, moved only when the one written is older than a write's
# interval: whatever the number of processes, at most one write a minute per person.
_SITE = SiteActivity._meta.db_table
_ACTIVE = (
    f"INSERT INTO {_SITE} (user_id, seen_at, emailed_at) VALUES (%s, %s, NULL) "
    "ON CONFLICT (user_id) DO UPDATE SET seen_at = excluded.seen_at "
    f"WHERE {_SITE}.seen_at IS NULL OR {_SITE}.seen_at < %s"
)


def active(user_id: int, *, now: datetime | None = None) -> None:
    """The person is on the site now (a page or an API request of theirs): recorded unless it
    was within GAMES_SITE_WRITE_SECONDS."""
    now = now or timezone.now()
    write = timedelta(seconds=settings.GAMES_SITE_WRITE_SECONDS)
    with connection.cursor() as cursor:
        cursor.execute(
            _ACTIVE,
            [
                user_id,
                connection.ops.adapt_datetimefield_value(now),
                connection.ops.adapt_datetimefield_value(now - write),
            ],
        )


def active_now_and_then(key: str, user_id: Callable[[], int | None]) -> None:
    """`active`, at most every GAMES_SITE_WRITE_SECONDS per `key` (a session, a token's user) in
    this process: the other requests cost no query here, and `user_id` (which may load the
    session) is only called when a write is due. An anonymous key is kept too (signing in
    gives a new session)."""
    now = _due(_active, key, settings.GAMES_SITE_WRITE_SECONDS)
    if now is None:
        return
    _keep(_active, key, now)
    found = user_id()
    if found is not None:
        active(found)


def site_window() -> timedelta:
    """How long after their last request a person still counts as on the site, and how long
    after a turn email the next turns wait to go in one email."""
    return timedelta(seconds=settings.GAMES_SITE_ACTIVE_SECONDS)


# A turn's email waits for its person to be away at most this share of the turn's time (a turn
# of 5 minutes: a minute), and never less than SHORTEST_AWAY: `windows_for`.
AWAY_SHARE = 5
SHORTEST_AWAY = timedelta(seconds=30)


def windows_for(turn: timedelta) -> tuple[timedelta, timedelta]:
    """(`window`, `site_window`) for a turn that lasts `turn`: each at most a fifth of it (but
    SHORTEST_AWAY), so that a person who leaves a game of 5-minute turns is emailed within a
    minute of leaving, where the site's 10 minutes would have let the default bot play their
    turns first. A turn of a day keeps the whole windows."""
    cap = max(turn / AWAY_SHARE, SHORTEST_AWAY)
    return min(window(), cap), min(site_window(), cap)


def emailed(user_id: int, *, now: datetime | None = None) -> None:
    """A turn email went to the person now: the turns that start within `site_window` of it
    wait to go in one email (clocks/deadlines.py)."""
    at = connection.ops.adapt_datetimefield_value(now or timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(_EMAILED, [user_id, at])


_EMAILED = (
    f"INSERT INTO {_SITE} (user_id, seen_at, emailed_at) VALUES (%s, NULL, %s) "
    "ON CONFLICT (user_id) DO UPDATE SET emailed_at = excluded.emailed_at"
)


def window() -> timedelta:
    """How long after being seen a person still counts as at the game."""
    return timedelta(seconds=settings.GAMES_PRESENCE_SECONDS)


def is_muted(user_id: int, game_id: int) -> bool:
    return Presence.objects.filter(user_id=user_id, game_id=game_id, muted=True).exists()


def mute(user_id: int, game_id: int, muted: bool) -> bool:
    """Stop (or start again) the turn emails of one game for a person who holds a seat in it;
    returns False when they hold none."""
    if not Seat.objects.filter(game_id=game_id, user_id=user_id).exists():
        return False
    Presence.objects.update_or_create(user_id=user_id, game_id=game_id, defaults={"muted": muted})
    return True


def muted_games(user_id: int) -> list[int]:
    return sorted(
        Presence.objects.filter(user_id=user_id, muted=True).values_list("game_id", flat=True)
    )


# Unsubscribing: a link in every turn email and digest, signed, that works signed out.


def unsubscribe_token(user_id: int) -> str:
    return signing.dumps(user_id, salt=_UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_url(user_id: int) -> str:
    """The absolute address of the one-click unsubscribe page (web/notices.py), for emails."""
    return (
        f"{settings.SITE_URL.rstrip('/')}/notifications/unsubscribe/{unsubscribe_token(user_id)}/"
    )


def user_of(token: str) -> int | None:
    """The user an unsubscribe token names, or None when it is damaged or forged."""
    try:
        value = signing.loads(token, salt=_UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def unsubscribe(user_id: int) -> None:
    """No turn email and no digest any more (the profile page turns them on again)."""
    NotificationPreference.objects.update_or_create(
        user_id=user_id, defaults={"turn_emails": NotificationPreference.TurnEmails.NONE}
    )


def at_table(game_id: int, *, now: datetime | None = None) -> set[int]:
    """The people seen at the game within GAMES_AT_TABLE_SECONDS: its page open and polling in
    a tab in front (a background tab polls about once a minute, and counts as away)."""
    since = (now or timezone.now()) - timedelta(seconds=settings.GAMES_AT_TABLE_SECONDS)
    return set(
        Presence.objects.filter(game_id=game_id, seen_at__gte=since).values_list(
            "user_id", flat=True
        )
    )
