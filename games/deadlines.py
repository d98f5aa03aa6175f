"""People's turns without a keyboard: turn deadlines, the timeout policy, vacations, notices.

A person's seat gets a deadline when its turn starts (it enters the game's `to_act`) and loses it
when the turn ends (it leaves `to_act`): `sync_deadlines`, run by the append listener after every
commit (games/tasks.py) and again by the overdue-turn sweep for any turn the listener missed. A
turn is a continuous stretch in `to_act`: drawing and then playing is one turn, one deadline.

The deadline is `context["turn_seconds"]` of the game, else GAMES_TURN_SECONDS, after the turn
started (or after the seat's vacation ends, if it is on one). Past it, `expire_turns` applies the
timeout policy of RULES.md: the default bot (BOTS_FALLBACK_STRATEGY, greedy) plays for the seat
until its turn is over (each move its own append, actor `system`, command id
`timeout:<version>`) and the seat gets a timeout. At GAMES_TIMEOUTS_TO_FORFEIT timeouts the seat
is `auto_played` (games/turns.py plays it in-process like a built-in seat) and `forfeited`
(placed last: MatchResult.forfeited and MatchResult.places, games/projections.py). Resigning
(services.game_resign) does the same at once.

When a turn starts a TurnNotice is made and emailed at once, or kept for the daily digest
(`send_turn_digests`), as the user's NotificationPreference says (no row: at once).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import services
from games.engine import PLAYING

from .actors import SYSTEM, Actor
from .errors import Conflict, Forbidden, GameError, GameNotFound, IllegalMove
from .models import Game, NotificationPreference, Seat, TurnNotice
from .remote_bots import play_fallback

log = logging.getLogger(__name__)

# Moves the default bot makes for one timed-out turn at most (a draw, then a play or a pass).
MAX_TIMEOUT_MOVES = 5


class VacationExhausted(GameError):
    """The seat asked for more vacation days than its budget in this game has left."""

    code = "vacation-exhausted"


def turn_seconds(context: dict[str, Any] | None) -> int:
    """Seconds a person has for a turn: the game's `turn_seconds`, else GAMES_TURN_SECONDS."""
    return int((context or {}).get("turn_seconds") or settings.GAMES_TURN_SECONDS)


def vacation_budget(context: dict[str, Any] | None) -> int:
    """Vacation days each seat of the game may take: the game's `vacation_days`, else none."""
    return int((context or {}).get("vacation_days") or 0)


def sync_deadlines(game_id: int, *, now: datetime | None = None) -> list[int]:
    """Give a deadline to each person's seat whose turn started, clear it where a turn ended;
    returns the seats whose turn started (they are notified). Safe to run twice: a deadline is
    only ever set on a seat that has none."""
    now = now or timezone.now()
    seats = list(
        Seat.objects.filter(game_id=game_id, user__isnull=False, auto_played=False).select_related(
            "game", "user"
        )
    )
    if not seats:
        return []
    game = seats[0].game
    to_act = set(game.to_act or []) if game.status == PLAYING else set()
    started = []
    for seat in seats:
        if seat.number in to_act and seat.deadline_at is None:
            start = max(now, seat.vacation_until) if seat.vacation_until else now
            deadline = start + timedelta(seconds=turn_seconds(game.context))
            if Seat.objects.filter(pk=seat.pk, deadline_at=None).update(deadline_at=deadline):
                seat.deadline_at = deadline
                started.append(seat.number)
                notify_turn(seat)
        elif seat.number not in to_act and seat.deadline_at is not None:
            Seat.objects.filter(pk=seat.pk, deadline_at=seat.deadline_at).update(deadline_at=None)
    return started


def clocks_to_change(rows: Iterable[Any]) -> bool:
    """Whether sync_deadlines has anything to do, from turns.seat_rows: a person's seat in
    `to_act` with no deadline, or out of it with one. Most appends change no clock."""
    for row in rows:
        if row.user_id is None or row.auto_played:
            continue
        to_act = row.game__to_act or [] if row.game__status == PLAYING else []
        if (row.number in to_act) == (row.deadline_at is None):
            return True
    return False


def start_missed_turns() -> list[int]:
    """sync_deadlines for every game where a person is to act with no deadline (a listener that
    never ran); returns the games."""
    rows = Seat.objects.filter(
        user__isnull=False, auto_played=False, deadline_at=None, game__status=PLAYING
    ).values_list("game_id", "number", "game__to_act")
    games = sorted({game_id for game_id, number, to_act in rows if number in (to_act or [])})
    for game_id in games:
        sync_deadlines(game_id)
    return games


def expire_turns(*, now: datetime | None = None) -> list[int]:
    """The overdue-turn sweep: the timeout policy for every person's seat past its deadline;
    returns the games moved. Safe to run twice: each move expects the version it was decided
    at and has the command id `timeout:<version>`; only the run that wrote the first move
    counts the timeout."""
    now = now or timezone.now()
    overdue = (
        Seat.objects.filter(
            user__isnull=False, auto_played=False, game__status=PLAYING, deadline_at__lte=now
        )
        .values_list("pk", "game_id", "number", "deadline_at")
        .order_by("deadline_at")
    )
    moved = []
    for seat_pk, game_id, number, deadline in overdue:
        if _time_out(seat_pk, game_id, number, deadline):
            moved.append(game_id)
    return moved


def _time_out(seat_pk: int, game_id: int, number: int, deadline: datetime) -> bool:
    game = Game.objects.get(pk=game_id)
    if game.status != PLAYING or number not in (game.to_act or []):
        # A turn that ended without the listener seeing it: nothing is overdue.
        Seat.objects.filter(pk=seat_pk, deadline_at=deadline).update(deadline_at=None)
        return False
    moves = 0
    for _ in range(MAX_TIMEOUT_MOVES):
        view = services.game_view(game_id=game_id, viewer=SYSTEM, seat=number)
        version = view["version"]
        if not view["legal"]:
            break
        try:
            result = play_fallback(
                game_id, version, view, view["legal"], command_id=f"timeout:{version}"
            )
        except (Conflict, IllegalMove):
            # Someone moved meanwhile; the next sweep looks again.
            break
        if result is None or result.repeated:
            # No move to make (a pass), or another sweep is timing this turn out.
            break
        moves += 1
        game.refresh_from_db(fields=["status", "to_act"])
        if game.status != PLAYING or number not in (game.to_act or []):
            break
    if not moves:
        return False
    _count_timeout(seat_pk)
    return True


def _count_timeout(seat_pk: int) -> None:
    Seat.objects.filter(pk=seat_pk).update(timeouts=F("timeouts") + 1)
    forfeits = Seat.objects.filter(
        pk=seat_pk, timeouts__gte=settings.GAMES_TIMEOUTS_TO_FORFEIT, auto_played=False
    ).update(auto_played=True, forfeited=True, deadline_at=None)
    if forfeits:
        seat = Seat.objects.get(pk=seat_pk)
        log.info("seat %s of game %s timed out too often: auto-played", seat.number, seat.game_id)
        hand_to_worker(seat.game_id)


def hand_to_worker(game_id: int) -> None:
    """After a seat became auto-played: let a worker move it, once the change is committed."""
    from games import tasks, turns

    def dispatch() -> None:
        if turns.bot_to_act(game_id):
            tasks.advance_game.delay(game_id)

    transaction.on_commit(dispatch, robust=True)


def seat_vacation(*, game_id: int, actor: Actor, days: int) -> Seat:
    """Pause the actor's clock in the game for `days` (the game's `vacation_days` budget per
    seat): a running deadline moves `days` later, and a turn that starts before the pause ends
    starts its clock when it ends. Raises VacationExhausted over the budget."""
    if not isinstance(days, int) or isinstance(days, bool) or days < 1:
        raise GameError("days must be a whole number of at least 1", code="invalid-days")
    with transaction.atomic():
        seat = _persons_seat(game_id, actor)
        budget = vacation_budget(seat.game.context)
        left = budget - seat.vacation_days_used
        if days > left:
            raise VacationExhausted(
                f"{days} days asked, {left} of the {budget} vacation days of this game left"
            )
        now = timezone.now()
        pause = timedelta(days=days)
        seat.vacation_until = max(now, seat.vacation_until or now) + pause
        seat.vacation_days_used += days
        if seat.deadline_at is not None:
            seat.deadline_at += pause
        seat.save(update_fields=["vacation_until", "vacation_days_used", "deadline_at"])
    return seat


def _persons_seat(game_id: int, actor: Actor) -> Seat:
    """The actor's (first) seat in a playing game, its row locked."""
    if not getattr(actor, "is_authenticated", False) or not hasattr(actor, "username"):
        raise Forbidden("only a person holds a clock", code="not-a-person")
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise GameNotFound(game_id)
    if game.status != PLAYING:
        raise GameError(f"game {game_id} is over", code="match-over")
    seat = (
        Seat.objects.select_for_update()
        .filter(game=game, user_id=actor.pk)
        .order_by("number")
        .first()
    )
    if seat is None:
        raise Forbidden(f"you hold no seat in game {game_id}", code="not-seated")
    seat.game = game
    return seat


# Notices.


def notify_turn(seat: Seat) -> None:
    """A turn started: record it, and email it now unless the user wants a digest or nothing."""
    preference = (
        NotificationPreference.objects.filter(user_id=seat.user_id)
        .values_list("turn_emails", flat=True)
        .first()
    ) or NotificationPreference.TurnEmails.EACH
    if preference == NotificationPreference.TurnEmails.NONE:
        return
    notice, _ = TurnNotice.objects.get_or_create(seat=seat, deadline_at=seat.deadline_at)
    if preference == NotificationPreference.TurnEmails.EACH:
        from games import tasks

        tasks.send_turn_email.delay(notice.pk)


def send_turn_email(notice_id: int) -> bool:
    """Email one notice, once: the notice is claimed (sent_at) before it is sent, so a repeated
    task sends nothing (and a failed send is not retried: the digest-less user misses it)."""
    if not TurnNotice.objects.filter(pk=notice_id, sent_at=None).update(sent_at=timezone.now()):
        return False
    notice = TurnNotice.objects.select_related("seat__user").get(pk=notice_id)
    user = notice.seat.user
    if not user.email:
        return False
    send_mail(
        f"Your turn in game {notice.seat.game_id}",
        f"It is your turn in game {notice.seat.game_id} (seat {notice.seat.number}).\n"
        f"Play before {notice.deadline_at:%Y-%m-%d %H:%M %Z}, or the default bot plays for you.",
        None,
        [user.email],
    )
    return True


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
            f"{n.deadline_at:%Y-%m-%d %H:%M %Z}"
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
