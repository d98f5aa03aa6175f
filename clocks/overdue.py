"""The overdue-turn sweep: every seat that should have moved by now and has not.

Two kinds of seat wait on someone outside the service: a person, whose turn has a deadline on
their seat's clock (clocks/deadlines.py), and a pull bot, whose decision is due its game's
`pull_timeout` after the game last moved (bots/remote/pull_turns.py). Past it, one function,
`time_out`, plays the default bot for the seat under a policy (clocks/fallback.py): a person's
whole turn, counted towards a forfeit; a bot's one decision, with a strike. Safe to run twice:
the fallback expects the version it was decided at and carries the system's command id for it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from botcalls import reasons
from bots.remote import webhook
from bots.remote.pull_turns import pull_deadline
from bots.remote.strikes import Detail, record_call
from bots.remote.validation import validation_problem
from clocks.deadlines import whose_game
from clocks.fallback import Fallback, Policy, bot_failure, person_timeout, play_fallback
from engine import PLAYING
from games.errors import Conflict, IllegalMove
from games.game_settings import GameSettings
from games.models import Game, Seat
from games.seat_facts import FallbackReason
from games.seats import PULL_SEATS, Controller
from social import notifications

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Overdue:
    game_id: int
    seat: int
    # The registered bot of the seat (a pull bot), or None for a person.
    bot_id: int | None = None
    # A person's deadline as the sweep read it.
    deadline: datetime | None = None


def expire(*, now: datetime | None = None) -> list[int]:
    """Time out every overdue seat; returns the games moved."""
    now = now or timezone.now()
    moved = []
    for overdue in [*overdue_people(now), *overdue_pull_bots(now)]:
        policy = (
            person_timeout() if overdue.bot_id is None else bot_failure(FallbackReason.BOT_TIMEOUT)
        )
        if time_out(overdue, policy):
            moved.append(overdue.game_id)
    return moved


def playing_games() -> list[int]:
    """The ids of the games being played, from the partial index `game_playing`: the seat
    queries here and in bots/turns.py look up these games' seats by their game's index, not
    every seat ever sat (a scan that grows with every game played)."""
    return list(Game.objects.filter(status=PLAYING).values_list("pk", flat=True))


def overdue_people(now: datetime) -> list[Overdue]:
    """People's seats past their deadline, the longest overdue first."""
    rows = (
        Seat.objects.filter(
            controller=Controller.PERSON, game_id__in=playing_games(), deadline_at__lte=now
        )
        .values_list("game_id", "number", "deadline_at")
        .order_by("deadline_at")
    )
    return [Overdue(game_id, number, deadline=deadline) for game_id, number, deadline in rows]


def overdue_pull_bots(now: datetime) -> list[Overdue]:
    """Pull bots' seats the game waits for past their deadline."""
    rows = (
        Seat.objects.filter(PULL_SEATS, game_id__in=playing_games())
        .select_related("game")
        .order_by("game_id", "number")
    )
    return [
        Overdue(seat.game_id, seat.number, seat.registered_bot_id)
        for seat in rows
        if seat.number in (seat.game.to_act or []) and pull_deadline(seat.game) <= now
    ]


def time_out(overdue: Overdue, policy: Policy) -> Fallback | None:
    """Play the default bot for an overdue seat under `policy`, if the game still waits for
    it; a pull bot also gets a strike (and fails its validation round). Returns what was
    played, None when nothing was (someone moved meanwhile, or another sweep did it)."""
    game = Game.objects.get(pk=overdue.game_id)
    if game.status != PLAYING or overdue.seat not in (game.to_act or []):
        # A turn that ended without the listener seeing it: nothing is overdue. Only the deadline
        # read is cleared: a clock started meanwhile is the next turn's.
        if overdue.deadline is not None:
            Seat.objects.filter(
                game=game, number=overdue.seat, deadline_at=overdue.deadline
            ).update(deadline_at=None)
        return None
    try:
        fallback = play_fallback(
            game_id=game.pk, seat=overdue.seat, version=game.version, policy=policy
        )
    except (Conflict, IllegalMove):
        # Someone moved meanwhile; the next sweep looks again.
        return None
    if fallback is None or fallback.repeated:
        return None
    if overdue.bot_id is None:
        _tell_bot_played(game.pk, overdue.seat)
    if fallback.forfeited:
        log.info("seat %s of game %s timed out too often: forfeited", overdue.seat, game.pk)
    if overdue.bot_id is not None:
        reason = f"timeout: no command for game {game.pk} seat {overdue.seat} before the deadline"
        validation_problem(game, overdue.bot_id, reason)
        limit = GameSettings.of(game.context).pull_limit
        record_call(
            overdue.bot_id,
            outcome=webhook.TIMEOUT,
            latency=limit,
            reason=reason,
            game_id=game.pk,
            detail=Detail(reasons.TIMEOUT, overdue.seat, game.version),
        )
    return fallback


def _tell_bot_played(game_id: int, seat: int) -> None:
    """A person's timed-out turn the default bot played: their turn notice says so, unless the
    match is over (its end is told: games/match_end_notice.py) or the turn came back to them (a
    skip, a reverse between two: the new turn's notice is true)."""
    game = Game.objects.get(pk=game_id)
    if game.status != PLAYING or seat in (game.to_act or []):
        return
    user_id = Seat.objects.filter(game=game, number=seat).values_list("user_id", flat=True).first()
    if user_id is None:
        return
    text = f"{notifications.BOT_PLAYED} {whose_game(game, seat)}"
    notifications.bot_played(user_id, game_id, seat, at=timezone.now(), text=text)
