"""People's turn clocks, vacations and turn notices.

A person's seat gets a deadline when its turn starts (it enters the game's `to_act`) and loses it
when the turn ends (it leaves `to_act`): `sync_deadlines`, run by the dispatcher after every
commit (games/dispatch.py) and again by the beat sweep for any turn the dispatcher missed. A
turn is a continuous stretch in `to_act`: drawing and then playing is one turn, one deadline.
The deadline is the game's turn limit (games/game_settings.py) after the turn started, or after
the seat's vacation ends if it is on one. Past it, the overdue-turn sweep (clocks/overdue.py)
plays the default bot for the turn.

A vacation is a `vacation-taken` event in the game's stream: the days it takes count against the
game's `vacation_days` budget per seat, read back from the log. `Seat.deadline_at` and
`Seat.vacation_until` are the clock, a cache of the log and of the time turns started.

When a turn starts a TurnNotice is made; the dispatcher emails it at once (TurnStarted), or it
is kept for the daily digest (`send_turn_digests`), as the user's NotificationPreference says (no
row: at once). A notice whose email was lost is sent again by `unsent_notices`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from engine import PLAYING
from engine.events import VACATION_TAKEN
from games import outbox, prepared, reads, seat_facts
from games.actors import Actor, is_person
from games.errors import Forbidden, GameError, GameNotFound
from games.game_settings import GameSettings
from games.models import NotificationPreference, Seat, TurnNotice


class VacationExhausted(GameError):
    """The seat asked for more vacation days than its budget in this game has left."""

    code = "vacation-exhausted"


def sync_deadlines(
    game_id: int, *, now: datetime | None = None, seats: Sequence[Seat] | None = None
) -> list[int]:
    """Give a deadline to each person's seat whose turn started, clear it where a turn ended;
    returns the seats whose turn started (they are notified). Safe to run twice: a deadline is
    only ever set on a seat that has none, and cleared only if it is still the one read.
    `seats` are the game's seats as the caller read them, with their game and people
    (reads.seats_of with names); without them the game is read here."""
    now = now or timezone.now()
    if seats is None:
        try:
            # The game with its seats and their people in one prepared query (games/reads.py).
            seats = list(reads.game_for(game_id, names=True).seats.all())
        except GameNotFound:
            return []
    if not seats:
        return []
    game = seats[0].game
    people = [seat for seat in seats if seat.controller == Seat.Controller.PERSON]
    to_act = set(game.to_act or []) if game.status == PLAYING else set()
    started = []
    for seat in people:
        if seat.number in to_act and seat.deadline_at is None:
            start = max(now, seat.vacation_until) if seat.vacation_until else now
            deadline = start + timedelta(seconds=GameSettings.of(game.context).turn_limit)
            if prepared.fetch(connection, _START_CLOCK, [_at(deadline), seat.pk]):
                seat.deadline_at = deadline
                started.append(seat.number)
                notify_turn(seat)
        elif seat.number not in to_act and seat.deadline_at is not None:
            prepared.fetch(connection, _STOP_CLOCK, [seat.pk, _at(seat.deadline_at)])
    return started


# The clock's writes and a turn's notice, on every turn that starts or ends: in SQL written once,
# prepared on PostgreSQL (games/prepared.py), one round trip each. A deadline is only ever set
# on a seat that has none, and cleared only if it is still the one read.
_START_CLOCK = (
    'UPDATE "games_seat" SET "deadline_at" = %s WHERE "id" = %s AND "deadline_at" IS NULL '
    'RETURNING "id"'
)
_STOP_CLOCK = (
    'UPDATE "games_seat" SET "deadline_at" = NULL WHERE "id" = %s AND "deadline_at" = %s '
    'RETURNING "id"'
)
_PREFERENCE = 'SELECT "turn_emails" FROM "games_notificationpreference" WHERE "user_id" = %s'
_NOTICE = (
    'INSERT INTO "games_turnnotice" ("seat_id", "deadline_at", "created_at", "sent_at") '
    'VALUES (%s, %s, %s, %s) ON CONFLICT ("seat_id", "deadline_at") DO NOTHING RETURNING "id"'
)


def _at(moment: datetime | None) -> Any:
    """A datetime as the database's column takes it (naive UTC text on SQLite)."""
    return connection.ops.adapt_datetimefield_value(moment)


def start_missed_turns() -> list[int]:
    """sync_deadlines for every game where a person is to act with no deadline (a listener that
    never ran); returns the games."""
    rows = Seat.objects.filter(
        controller=Seat.Controller.PERSON, deadline_at=None, game__status=PLAYING
    ).values_list("game_id", "number", "game__to_act")
    games = sorted({game_id for game_id, number, to_act in rows if number in (to_act or [])})
    for game_id in games:
        sync_deadlines(game_id)
    return games


@dataclass(frozen=True, slots=True)
class Vacation:
    """A seat's vacation after a request: the clock as it now stands and the budget left."""

    game_id: int
    seat: int
    deadline_at: datetime | None
    vacation_until: datetime
    days_used: int
    days_left: int


def seat_vacation(*, game_id: int, actor: Actor, days: int) -> Vacation:
    """Pause the actor's clock in the game for `days` (the game's `vacation_days` budget per
    seat): a `vacation-taken` event; a running deadline moves `days` later, and a turn that
    starts before the pause ends starts its clock when it ends. Raises VacationExhausted over
    the budget."""
    if not isinstance(days, int) or isinstance(days, bool) or days < 1:
        raise GameError("days must be a whole number of at least 1", code="invalid-days")
    if not is_person(actor):
        raise Forbidden("only a person holds a clock", code="not-a-person")
    with transaction.atomic():
        game = seat_facts.locked_game(game_id)
        seat = (
            Seat.objects.select_for_update()
            .filter(game=game, user_id=actor.pk)
            .order_by("number")
            .first()
        )
        if seat is None:
            raise Forbidden(f"you hold no seat in game {game_id}", code="not-seated")
        budget = GameSettings.of(game.context).vacation_budget
        used = seat_facts.facts_of(game.pk).vacation_days[seat.number]
        if days > budget - used:
            raise VacationExhausted(
                f"{days} days asked, {budget - used} of the {budget} vacation days of this game "
                "left"
            )
        now = timezone.now()
        pause = timedelta(days=days)
        seat.vacation_until = max(now, seat.vacation_until or now) + pause
        taken = {
            "type": VACATION_TAKEN,
            "seat": seat.number,
            "days": days,
            "until": seat.vacation_until.isoformat(),
        }
        seat_facts.append_facts(game, [taken], actor=actor)
        if seat.deadline_at is not None:
            seat.deadline_at += pause
        seat.save(update_fields=["vacation_until", "deadline_at"])
    return Vacation(
        game_id=game.pk,
        seat=seat.number,
        deadline_at=seat.deadline_at,
        vacation_until=seat.vacation_until,
        days_used=used + days,
        days_left=budget - used - days,
    )


# Notices.


def notify_turn(seat: Seat) -> None:
    """A turn started: record it, and email it now unless the user wants a digest or nothing."""
    deadline = seat.deadline_at
    if deadline is None:
        return  # no turn clock runs: nothing to notify
    found = prepared.fetch(connection, _PREFERENCE, [seat.user_id])
    preference = (found[0][0] if found else None) or NotificationPreference.TurnEmails.EACH
    if preference == NotificationPreference.TurnEmails.NONE:
        return
    now = timezone.now()
    each = preference == NotificationPreference.TurnEmails.EACH
    # No address to send to: the notice is made already claimed, as send_turn_email would claim
    # it and send nothing (a task and its queries fewer per turn).
    claimed = each and not (seat.user and seat.user.email)
    made = prepared.fetch(
        connection,
        _NOTICE,
        [seat.pk, _at(deadline), _at(now), _at(now) if claimed else None],
    )
    if not each or claimed:
        return
    if made:
        notice_id = made[0][0]
    else:  # made before (a repeated run): sent once, by its first task
        notice_id = TurnNotice.objects.get(seat=seat, deadline_at=deadline).pk
    outbox.publish(outbox.TurnStarted(notice_id))


def send_turn_email(notice_id: int) -> bool:
    """Email one notice, once: the notice is claimed (sent_at) before it is sent, so a repeated
    task sends nothing (and a failed send is not retried: the digest-less user misses it)."""
    if not TurnNotice.objects.filter(pk=notice_id, sent_at=None).update(sent_at=timezone.now()):
        return False
    notice = TurnNotice.objects.select_related("seat__user").get(pk=notice_id)
    user = notice.seat.user
    if user is None or not user.email:
        return False
    send_mail(
        f"Your turn in game {notice.seat.game_id}",
        f"It is your turn in game {notice.seat.game_id} (seat {notice.seat.number}).\n"
        f"Play before {notice.deadline_at:%Y-%m-%d %H:%M %Z}, or the default bot plays for you:\n"
        f"{play_url(notice.seat.game_id)}\n",
        None,
        [user.email],
    )
    return True


def play_url(game_id: int) -> str:
    """The absolute address of the game's play page, for emails (SITE_URL: they are read away
    from any request)."""
    return f"{settings.SITE_URL.rstrip('/')}/games/{game_id}/"


def send_turn_digests() -> int:
    """One email per digest user with every turn still waiting for them; every unsent notice of
    theirs is marked sent. Returns the emails sent."""
    now = timezone.now()
    notices = (
        TurnNotice.objects.filter(
            sent_at=None,
            seat__user__notification_preference__turn_emails=NotificationPreference.TurnEmails.DIGEST,
        )
        .select_related("seat__user")
        .order_by("seat__user_id", "deadline_at")
    )
    by_user: dict[Any, list[TurnNotice]] = {}
    for notice in notices:
        by_user.setdefault(notice.seat.user, []).append(notice)
    sent = 0
    for user, theirs in by_user.items():
        claimed = TurnNotice.objects.filter(pk__in=[n.pk for n in theirs], sent_at=None).update(
            sent_at=now
        )
        # Only turns still waiting: the seat's deadline is still the one the notice was made for.
        waiting = [n for n in theirs if n.seat.deadline_at == n.deadline_at]
        if not claimed or not waiting or not user.email:
            continue
        lines = [
            f"- game {n.seat.game_id} (seat {n.seat.number}): play before "
            f"{n.deadline_at:%Y-%m-%d %H:%M %Z} at {play_url(n.seat.game_id)}"
            for n in waiting
        ]
        send_mail(
            f"Your turn in {len(waiting)} game(s)",
            "It is your turn in:\n" + "\n".join(lines) + "\n",
            None,
            [user.email],
        )
        sent += 1
    return sent


def unsent_notices(*, older_than: timedelta) -> list[int]:
    """Notices of people who want an email per turn that no email has claimed for a while (the
    task was lost), for turns still waiting: the sweep sends them again. Each is leased: its
    `created_at` moves to now, so a resent task still queued is not sent again before another
    `older_than`."""
    now = timezone.now()
    notices = TurnNotice.objects.filter(
        sent_at=None, created_at__lte=now - older_than, seat__deadline_at=F("deadline_at")
    ).exclude(
        seat__user__notification_preference__turn_emails__in=[
            NotificationPreference.TurnEmails.DIGEST,
            NotificationPreference.TurnEmails.NONE,
        ]
    )
    leased = []
    for pk, created in notices.order_by("pk").values_list("pk", "created_at"):
        if TurnNotice.objects.filter(pk=pk, created_at=created).update(created_at=now):
            leased.append(pk)
    return leased
