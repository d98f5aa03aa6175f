"""Pull bots' turns: the bot fetches the decisions its seats owe and posts its commands.

The game waits for a pull bot until its deadline (`pull_deadline`: the game's `pull_timeout`
after the game last moved); past it, the overdue-turn sweep (clocks/overdue.py) plays the
fallback with a strike. A command the rules refuse is counted but is no strike: the bot may try
again until its deadline. In a validation match, it fails the round at once.

Out of turn, a pull bot's seat is also listed while an out-of-turn window is open for it (an
uno call or catch, a newno jump-in: bots/remote/windows.py), marked `optional`, with the
window's end as its deadline; every decision carries `optional`. A command a seat sends out of
turn was not asked of it: it is not counted as a call (nor resets the strikes), and when the
rules refuse it (422) it is not counted as an illegal answer and fails no validation round.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from bots.driver import nothing_to_answer
from bots.remote import webhook
from bots.remote.strikes import as_json, count_refused, record_call
from bots.remote.validation import round_games, validation_problem
from bots.remote.windows import optional_decision
from engine.events import FALLBACK_PLAYED
from games import event_reads, reads
from games.commands import CommandResult, game_command
from games.errors import Conflict, Forbidden, GameNotFound, IllegalMove
from games.game_settings import GameSettings
from games.models import Bot, Game, Seat
from games.seat_facts import FallbackReason
from games.seats import REPLACED
from games.visibility import game_view


class TooLate(Conflict):
    """A pull bot's command for a decision whose deadline passed: the default bot played for
    the seat instead (a strike, `fallback-played` with reason `bot-timeout`). A 409 like every
    version conflict, with `current_version`, under its own code."""

    code = "too-late"

    def __init__(self, *, expected_version: int, current_version: int, message: str) -> None:
        super().__init__(expected_version=expected_version, current_version=current_version)
        self.message = message
        self.args = (message,)


def timed_out_at(game_id: int, seat: int, after: int) -> int | None:
    """The version of the `fallback-played` (reason `bot-timeout`) for `seat` after version
    `after`, if the default bot played for the seat since: its deadline passed."""
    events = event_reads.load(game_id, after=after)
    for version, event in enumerate(events, start=after + 1):
        if (
            event["type"] == FALLBACK_PLAYED
            and event.get("seat") == seat
            and event.get("reason") == FallbackReason.BOT_TIMEOUT
        ):
            return version
    return None


def pull_deadline(game: Game) -> datetime:
    """A pull bot's decision is due this long after the game last moved."""
    started = game.last_activity or game.created_at
    return started + timedelta(seconds=GameSettings.of(game.context).pull_limit)


def pull_decisions(bot: Bot) -> list[dict[str, Any]]:
    """The decisions the game waits for from `bot`'s seats, and its open out-of-turn windows
    (`optional`), oldest game first."""
    if bot.status in REPLACED:
        return []
    if bot.status == Bot.Status.VALIDATING:
        # The bot's first poll starts its validation round (no-op once the games exist).
        round_games(bot.pk, bot.validation_round)
    # The bot's seats, each game's seats read with it for the views below (one query).
    seats = [
        seat
        for game in reads.playing_games_of(bot)
        for seat in game.seats.all()
        if seat.registered_bot_id == bot.pk and seat.controller == Seat.Controller.PULL
    ]
    decisions = []
    # Only a game that moved within the window's length can have one open: the others are not
    # replayed.
    recent = timezone.now() - timedelta(seconds=settings.BOTS_PULL_WINDOW_SECONDS)
    for seat in seats:
        if seat.number not in (seat.game.to_act or []):
            moved = seat.game.last_activity
            if moved is not None and moved > recent:
                window = optional_decision(seat.game, seat.number)
                if window is not None:
                    decisions.append(window)
            continue
        view = game_view(game_id=seat.game_id, viewer=bot, seat=seat.number, game=seat.game)
        if nothing_to_answer(view, view["legal"]):
            continue  # a newno open choice it has no card for: the game does not wait for it
        decisions.append(
            {
                "game": seat.game_id,
                "variant": seat.game.variant,
                "seat": seat.number,
                "version": view["version"],
                "view": view,
                "legal": view["legal"],
                "deadline": pull_deadline(seat.game).isoformat(timespec="microseconds"),
                "optional": False,
            }
        )
    return decisions


def pull_command(
    *, bot: Bot, game_id: int, command: Any, expected_version: int, command_id: str | None
) -> CommandResult:
    """Run a pull bot's command; errors as game_command's (a refused one is counted, but the bot
    may try again until the deadline)."""
    if bot.status in REPLACED:
        raise Forbidden(f"the bot is {bot.status}: {bot.status_reason}", code=f"bot-{bot.status}")
    try:
        # Read once, here, for the command too (game_command's `game`).
        game: Game | None = reads.game_for(game_id)
    except GameNotFound:
        game = None  # game_command says so, and counts it
    seat = command.get("seat") if isinstance(command, dict) else None
    # A command for a seat the game did not wait for (a catch, an uno call, a jump-in) answers an
    # out-of-turn window: nothing was asked, so it is no call, and a refusal is no fault either.
    out_of_turn = isinstance(seat, int) and game is not None and seat not in (game.to_act or [])
    try:
        result = game_command(
            game_id=game_id,
            actor=bot,
            command=command,
            expected_version=expected_version,
            command_id=command_id,
            game=game,
        )
    except IllegalMove as error:
        if not out_of_turn:
            count_refused(
                bot.pk,
                game_id=game_id,
                seat=seat if isinstance(seat, int) else asked_seat(game, bot),
                version=expected_version,
                answer=command,
                refusal=error.code,
                message=str(error),
                latency=_latency(game),
            )
            if game is not None:
                validation_problem(game, bot.pk, f"illegal command {as_json(command)}: {error}")
        raise
    except Conflict as conflict:
        late = (
            timed_out_at(game_id, seat, conflict.expected_version)
            if isinstance(seat, int) and conflict.expected_version < conflict.current_version
            else None
        )
        if late is None:
            raise
        raise TooLate(
            expected_version=conflict.expected_version,
            current_version=conflict.current_version,
            message=f"too late: seat {seat}'s deadline for version {conflict.expected_version} "
            f"passed, and the default bot played for it (version {late}, a strike: "
            "fallback-played, reason bot-timeout); the game is at version "
            f"{conflict.current_version}: read GET /api/bot/decisions again",
        ) from conflict
    if not result.repeated and not out_of_turn:
        record_call(bot.pk, outcome=webhook.OK, latency=_latency(game), game_id=game_id)
    if result.next and game is not None:
        # As GET /api/bot/decisions lists them: the game moved just now, so the deadline runs
        # from now (the append's own time, a few milliseconds earlier, is the one it keeps).
        game.last_activity = timezone.now()
        deadline = pull_deadline(game).isoformat(timespec="microseconds")
        next_ = tuple(
            {**entry, "variant": game.variant, "deadline": deadline, "optional": False}
            for entry in result.next
        )
        result = dataclasses.replace(result, next=next_)
    return result


def asked_seat(game: Game | None, bot: Bot) -> int | None:
    """The seat a command that names none (no seat, or not a number: `"seat": "0"`) answers the
    decision of, for its call's log: the bot's one seat in the game, or its one seat the game
    waits for; None when that says no single seat (or no game)."""
    if game is None:
        return None
    mine = [seat.number for seat in game.seats.all() if seat.registered_bot_id == bot.pk]
    if len(mine) > 1:
        mine = [number for number in mine if number in (game.to_act or [])]
    return mine[0] if len(mine) == 1 else None


def _latency(game: Game | None) -> float:
    """A pull bot's latency for a command sent now: the time since the game last moved (read
    before the command), as docs/bots-api.md defines it; 0.0 for a game not found."""
    asked_at = game.last_activity if game is not None else None
    return (timezone.now() - asked_at).total_seconds() if asked_at else 0.0
