"""People's turn clocks, vacations and turn notices.

A person's seat gets a deadline when its turn starts (it enters the game's `to_act`) and loses it
when the turn ends (it leaves `to_act`): `sync_deadlines`, run by the dispatcher after every
commit (games/dispatch.py) and again by the beat sweep for any turn the dispatcher missed. A
turn is a continuous stretch in `to_act`: drawing and then playing is one turn, one deadline.
The deadline is the game's turn limit (games/game_settings.py) after the turn started, or after
the seat's vacation ends if it is on one, and never later than the game's `closes_at` (a
tournament round's deadline, `GameSettings.turn_deadline`). Past it, the overdue-turn sweep
(clocks/overdue.py) plays the default bot for the turn.

A vacation is a `vacation-taken` event in the game's stream: the days it takes count against the
game's `vacation_days` budget per seat, read back from the log. `Seat.deadline_at` and
`Seat.vacation_until` are the clock, a cache of the log and of the time turns started.

When a turn starts a TurnNotice is made, unless the person wants no email or muted the game.
A person who wants `each` (the default) is emailed at once (the dispatcher's TurnStarted) only
when they are away from the game and were not emailed about it since they were last there
(clocks/presence.py): one email per game per absence; and only when they are off the site (no
request of theirs within GAMES_SITE_ACTIVE_SECONDS) and had no turn email within that time.
Every other notice is `held`. A held turn that still waits once its person is off the site and
away from the game, with no email of this absence yet, is emailed by the sweep
(`left_waiting`), a person's such turns together in one email; the rest wait for the daily
digest (`send_turn_digests`), which lists the turns still waiting. A `digest` person's notices
are all held. A notice whose email was lost is sent again by `unsent_notices`. Every email has
a signed one-click unsubscribe link and the List-Unsubscribe headers (RFC 8058).

Every turn that starts is also the notice under the bell (social/notifications.py, kind `turn`,
one row per seat of a game, unread again and newest at each turn that starts), whatever the
emails, written in the same statement that reads the person's preference. Opening the game
marks it read (clocks/presence.py); the digest leaves out a waiting turn whose notice is read,
so a turn seen on the site is not told again by email.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, F, OuterRef, Q, Subquery
from django.utils import timezone

from clocks import presence
from engine import PLAYING
from engine.events import VACATION_TAKEN
from games import outbox, prepared, reads, seat_facts
from games.actors import Actor, is_person
from games.errors import Forbidden, GameError, GameNotFound
from games.game_settings import GameSettings
from games.lobby import opponents, seat_listing
from games.models import Game, NotificationPreference, Presence, Seat, SiteActivity, TurnNotice
from league.competition_names import played_in
from social import emails, notifications
from social.models import Notification


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
    # The game with these seats on it: a turn's notice names the others at the table.
    game = reads.seated(seats[0].game, list(seats))
    people = [seat for seat in seats if seat.controller == Seat.Controller.PERSON]
    to_act = set(game.to_act or []) if game.status == PLAYING else set()
    started = []
    for seat in people:
        if seat.number in to_act and seat.deadline_at is None:
            start = max(now, seat.vacation_until) if seat.vacation_until else now
            deadline = GameSettings.of(game.context).turn_deadline(start)
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
# The person's preference, whether they were seen at the game since a moment (present),
# whether they muted it, and whether they were on the site or had a turn email since another
# moment (no email now: the sweep sends it once they are off the site): one row, whatever rows
# exist.
_PREFERENCE = (
    'SELECT (SELECT "turn_emails" FROM "games_notificationpreference" WHERE "user_id" = %s), '
    'CASE WHEN "p"."seen_at" >= %s THEN 1 ELSE 0 END, COALESCE("p"."muted", FALSE), '
    '(SELECT COUNT(*) FROM "games_siteactivity" AS "v" WHERE "v"."user_id" = %s '
    'AND ("v"."seen_at" >= %s OR "v"."emailed_at" >= %s)) '
    'FROM (SELECT 1) AS "one" LEFT JOIN "games_presence" AS "p" '
    'ON "p"."user_id" = %s AND "p"."game_id" = %s'
)
# With the turn's notice under the bell first (social/notifications.py: one row per seat of a
# game, unread again and on top at each turn), in the same round trip: PostgreSQL runs a
# data-modifying WITH whether or not the query reads it.
_BELL_AND_PREFERENCE = (
    f'WITH "bell" AS (INSERT INTO "{Notification._meta.db_table}" ("user_id", "kind", "text", '
    '"url", "key", "game_id", "created_at", "read_at") VALUES (%s, %s, %s, %s, %s, %s, %s, NULL) '
    'ON CONFLICT ("user_id", "key") DO UPDATE SET "created_at" = "excluded"."created_at", '
    '"read_at" = NULL, "text" = "excluded"."text" RETURNING 1) ' + _PREFERENCE
)
# The one email of an absence, claimed: only if none went out since the person was last seen.
_CLAIM_ABSENCE = (
    'INSERT INTO "games_presence" ("user_id", "game_id", "seen_at", "emailed_at", "muted") '
    'VALUES (%s, %s, NULL, %s, FALSE) ON CONFLICT ("user_id", "game_id") DO UPDATE '
    'SET "emailed_at" = "excluded"."emailed_at" WHERE "games_presence"."emailed_at" IS NULL '
    'OR ("games_presence"."seen_at" IS NOT NULL '
    'AND "games_presence"."emailed_at" < "games_presence"."seen_at") RETURNING "id"'
)
_NOTICE = (
    'INSERT INTO "games_turnnotice" ("seat_id", "deadline_at", "created_at", "sent_at", "held") '
    'VALUES (%s, %s, %s, %s, %s) ON CONFLICT ("seat_id", "deadline_at") DO NOTHING '
    'RETURNING "id"'
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
    """A turn started: record it unless the person wants no email or muted the game; email it
    now if they want `each`, are away from the game for the first time since they were last
    there, are off the site and had no turn email lately (clocks/presence.py), else hold it
    (for `left_waiting`, or the digest)."""
    deadline = seat.deadline_at
    if deadline is None or seat.user_id is None:
        return  # no turn clock runs: nothing to notify
    now = timezone.now()
    # A short turn's person counts as away sooner (presence.windows_for).
    at_game, on_site = presence.windows_for(deadline - now)
    since = _at(now - at_game)
    on_site_since = _at(now - on_site)
    preference_of = [
        seat.user_id,
        since,
        seat.user_id,
        on_site_since,
        on_site_since,
        seat.user_id,
        seat.game_id,
    ]
    game_id = seat.game_id
    # The turn email's subject, the same words under the bell (a column of 300).
    text = turn_sentence(seat.game, seat.number)[:300]
    bell = [
        seat.user_id,
        Notification.Kind.TURN.value,
        text,
        notifications.game_url(game_id),
        notifications.turn_key(game_id, seat.number),
        game_id,
        _at(now),
    ]
    if connection.vendor == "postgresql":
        found = prepared.fetch(connection, _BELL_AND_PREFERENCE, bell + preference_of)
    else:  # SQLite (`make run`) has no INSERT inside WITH: two statements
        notifications.turn_started(seat.user_id, game_id, seat.number, at=now, text=text)
        found = prepared.fetch(connection, _PREFERENCE, preference_of)
    choice, present, muted, on_site = found[0]
    preference = choice or NotificationPreference.TurnEmails.EACH
    if preference == NotificationPreference.TurnEmails.NONE or muted:
        return
    each = preference == NotificationPreference.TurnEmails.EACH
    # No address to send to: the notice is made already claimed, as send_turn_email would claim
    # it and send nothing (a task and its queries fewer per turn).
    claimed = each and not (seat.user and seat.user.email)
    held = not each or (
        not claimed
        and (
            bool(present)
            or bool(on_site)
            or not prepared.fetch(
                connection, _CLAIM_ABSENCE, [seat.user_id, seat.game_id, _at(now)]
            )
        )
    )
    made = prepared.fetch(
        connection,
        _NOTICE,
        [seat.pk, _at(deadline), _at(now), _at(now) if claimed else None, held],
    )
    if made:
        notice_id = made[0][0]
    else:  # made before (a repeated run): sent once, by its first task, if it was to be sent
        notice_id, held = (
            TurnNotice.objects.filter(seat=seat, deadline_at=deadline)
            .values_list("pk", "held")
            .get()
        )
    if held or claimed:
        return
    outbox.publish(outbox.TurnStarted(notice_id))


def left_waiting(now: datetime | None = None) -> list[list[int]]:
    """The held turns that still wait for their person now that they are gone: off the site
    (no request within GAMES_SITE_ACTIVE_SECONDS, no turn email within it either) and away
    from the game (not seen there for the presence window), each window at most a fifth of
    the turn's time (presence.windows_for: a turn of 5 minutes, a minute), with no email of
    this absence yet,
    the turn's clock still the one the notice was made for. A turn held because its person was
    at the game, or on the site, when it started, or because an email had just gone to them.
    Each gets the one email of its game's absence (the presence's claim, as notify_turn makes
    it), unheld; returned as one list of notice ids per person, to go in one email. An `each`
    person's only (a digest person's wait for the digest), a muted game's never. Without this
    a turn that started while its person was around never emailed them, however long they
    stayed away."""
    now = now or timezone.now()
    # The shortest windows any turn has (presence.windows_for): a turn's own are checked below.
    gone = around = now - presence.SHORTEST_AWAY
    # At the game lately, muted, or emailed about it since they were last there.
    not_due = Presence.objects.filter(
        user_id=OuterRef("seat__user_id"), game_id=OuterRef("seat__game_id")
    ).filter(
        Q(muted=True)
        | Q(seen_at__gte=gone)
        | Q(emailed_at__isnull=False) & (Q(seen_at__isnull=True) | Q(emailed_at__gte=F("seen_at")))
    )
    on_site = SiteActivity.objects.filter(user_id=OuterRef("seat__user_id")).filter(
        Q(seen_at__gte=around) | Q(emailed_at__gte=around)
    )
    waiting = (
        TurnNotice.objects.filter(
            held=True,
            sent_at=None,
            seat__deadline_at=F("deadline_at"),
            seat__user__isnull=False,
        )
        .exclude(Exists(not_due))
        .exclude(Exists(on_site))
        .exclude(seat__user__email="")
        .exclude(
            seat__user__notification_preference__turn_emails__in=[
                NotificationPreference.TurnEmails.DIGEST,
                NotificationPreference.TurnEmails.NONE,
            ]
        )
        .annotate(
            at_game=Subquery(
                Presence.objects.filter(
                    user_id=OuterRef("seat__user_id"), game_id=OuterRef("seat__game_id")
                ).values("seen_at")[:1]
            ),
            site_seen=Subquery(
                SiteActivity.objects.filter(user_id=OuterRef("seat__user_id")).values("seen_at")[:1]
            ),
            site_emailed=Subquery(
                SiteActivity.objects.filter(user_id=OuterRef("seat__user_id")).values("emailed_at")[
                    :1
                ]
            ),
        )
        .order_by("seat__user_id", "deadline_at", "pk")
        .values_list(
            "pk",
            "seat__user_id",
            "seat__game_id",
            "deadline_at",
            "created_at",
            "at_game",
            "site_seen",
            "site_emailed",
        )
    )
    due: dict[int, list[int]] = {}
    for notice_id, user_id, game_id, deadline, made, *seen in waiting:
        # Away for as long as this turn's windows ask (a short turn's are shorter).
        game_window, site_window = presence.windows_for(deadline - made)
        limits = (now - game_window, now - site_window, now - site_window)
        if any(
            moment is not None and moment >= limit
            for moment, limit in zip(seen, limits, strict=True)
        ):
            continue
        with transaction.atomic():
            if prepared.fetch(connection, _CLAIM_ABSENCE, [user_id, game_id, _at(now)]):
                TurnNotice.objects.filter(pk=notice_id, held=True).update(held=False)
                due.setdefault(user_id, []).append(notice_id)
    return list(due.values())


def send_turn_email(notice_id: int) -> bool:
    """Email one notice, once (`send_turn_emails`)."""
    return send_turn_emails([notice_id]) > 0


def send_turn_emails(notice_ids: Sequence[int]) -> int:
    """Email one person's notices, once, in one email: each is claimed (sent_at) before it is
    sent, so a repeated task sends nothing (and a failed send is not retried: the digest-less
    user misses it). One turn is told as it always was; several, as a list of the games that
    wait. The moment is kept (clocks/presence.py `emailed`): the turns that start within
    GAMES_SITE_ACTIVE_SECONDS of it wait to go in the next one. Returns the turns told."""
    now = timezone.now()
    claimed = [
        pk
        for pk in notice_ids
        if TurnNotice.objects.filter(pk=pk, sent_at=None).update(sent_at=now)
    ]
    if not claimed:
        return 0
    notices = list(
        TurnNotice.objects.select_related("seat__user", "seat__game")
        .prefetch_related("seat__game__seats__user", "seat__game__seats__registered_bot")
        .filter(pk__in=claimed)
        .order_by("deadline_at", "pk")
    )
    user = notices[0].seat.user
    if user is None or not user.email:
        return 0
    if len(notices) == 1:
        notice = notices[0]
        game, seat = notice.seat.game, notice.seat.number
        emails.send(
            user,
            turn_sentence(game, seat),
            f"It is your turn {whose_game(game, seat, seat_shown=True)}.\n"
            f"Play before {notice.deadline_at:%Y-%m-%d %H:%M %Z}, or the default bot plays for "
            f"you:\n{play_url(game.pk)}\n\n"
            "This is the one email about this game until you are back at it; other turns that "
            "wait for you come in the daily digest. The game's page can mute its emails.\n",
        )
    else:
        lines = [
            f"- {whose_game(n.seat.game, n.seat.number, seat_shown=True)}: play before "
            f"{n.deadline_at:%Y-%m-%d %H:%M %Z} at {play_url(n.seat.game_id)}"
            for n in notices
        ]
        emails.send(
            user,
            f"Your turn in {len(notices)} games",
            f"It is your turn in {len(notices)} games while you were away:\n"
            + "\n".join(lines)
            + "\nPast a turn's time the default bot plays for you.\n\n"
            "This is the one email about these games until you are back at them; other turns "
            "that wait for you come in the daily digest. Each game's page can mute its emails.\n",
        )
    presence.emailed(user.pk, now=now)
    return len(notices)


def turn_sentence(game: Game, seat: int) -> str:
    """A turn of `seat` that waits, in one line: the turn email's subject and the turn's notice
    under the bell ("Your turn against maya and greedy (official, game 400)", and the
    competition it is played in, if any)."""
    return f"Your turn {whose_game(game, seat)}"


def whose_game(game: Game, seat: int, *, seat_shown: bool = False) -> str:
    """A game told apart from the others a person plays against the same people: who sits at
    the other seats (games/lobby.py `opponents`: names only, never a card), its rule family,
    its number, the person's seat with `seat_shown`, and the competition it is played in, if
    any (league/competition_names.py): "against maya (official, game 400)"; "against fiona
    (official, game 110, seat 2) in Friday Night UNO, Season 1, round 2"."""
    family = game.variant.get("rules")
    shown = f", seat {seat + 1}" if seat_shown else ""
    where = played_in(game)
    return f"against {opponents(seat_listing(game), seat)} ({family}, game {game.pk}{shown})" + (
        f" in {where}" if where else ""
    )


def play_url(game_id: int) -> str:
    """The absolute address of the game's play page, for emails (SITE_URL: they are read away
    from any request)."""
    return f"{settings.SITE_URL.rstrip('/')}/games/{game_id}/"


def send_turn_digests() -> int:
    """One email per person with held notices (a digest person's, or an `each` person's that
    were not emailed) listing every turn still waiting for them, muted games left out; every
    such notice is marked sent. Returns the emails sent."""
    now = timezone.now()
    digest = NotificationPreference.TurnEmails.DIGEST
    notices = (
        TurnNotice.objects.filter(
            Q(held=True) | Q(seat__user__notification_preference__turn_emails=digest),
            sent_at=None,
        )
        .exclude(
            seat__user__notification_preference__turn_emails=NotificationPreference.TurnEmails.NONE
        )
        .select_related("seat__user", "seat__game")
        .prefetch_related("seat__game__seats__user", "seat__game__seats__registered_bot")
        .order_by("seat__user_id", "deadline_at")
    )
    muted = set(Presence.objects.filter(muted=True).values_list("user_id", "game_id"))
    by_user: dict[Any, list[TurnNotice]] = {}
    keys: dict[int, tuple[int | None, str]] = {}
    for notice in notices:
        if (notice.seat.user_id, notice.seat.game_id) not in muted:
            by_user.setdefault(notice.seat.user, []).append(notice)
            keys[notice.pk] = (
                notice.seat.user_id,
                notifications.turn_key(notice.seat.game_id, notice.seat.number),
            )
    # The turns already seen at the game or under the bell (their notice read): not told again.
    seen = notifications.seen_turns(list(keys.values()))
    sent = 0
    for user, theirs in by_user.items():
        claimed = TurnNotice.objects.filter(pk__in=[n.pk for n in theirs], sent_at=None).update(
            sent_at=now
        )
        # Only turns still waiting: the seat's deadline is still the one the notice was made for,
        # and not seen since.
        waiting = [
            n for n in theirs if n.seat.deadline_at == n.deadline_at and keys[n.pk] not in seen
        ]
        if not claimed or not waiting or not user.email:
            continue
        lines = [
            f"- {whose_game(n.seat.game, n.seat.number, seat_shown=True)}: play before "
            f"{n.deadline_at:%Y-%m-%d %H:%M %Z} at {play_url(n.seat.game_id)}"
            for n in waiting
        ]
        emails.send(
            user,
            f"Your turn in {len(waiting)} game(s)",
            "It is your turn in:\n" + "\n".join(lines) + "\n",
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
        sent_at=None,
        held=False,
        created_at__lte=now - older_than,
        seat__deadline_at=F("deadline_at"),
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
