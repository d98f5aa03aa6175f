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

from bots.remote import webhook
from bots.remote.strikes import count_refused, record_call
from bots.remote.validation import round_games, validation_problem
from bots.remote.windows import optional_decision
from games import reads
from games.commands import CommandResult, game_command
from games.errors import Forbidden, GameNotFound, IllegalMove
from games.game_settings import GameSettings
from games.models import Bot, Game, Seat
from games.seats import REPLACED
from games.visibility import game_view


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
        decisions.append(
            {
                "game": seat.game_id,
                "seat": seat.number,
                "version": view["version"],
                "view": view,
                "legal": view["legal"],
                "deadline": pull_deadline(seat.game).isoformat(),
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
            count_refused(bot.pk, game_id=game_id)
            if game is not None:
                validation_problem(game, bot.pk, f"illegal command {command!r}: {error}")
        raise
    if not result.repeated and not out_of_turn:
        asked_at = game.last_activity if game is not None else None
        latency = (timezone.now() - asked_at).total_seconds() if asked_at else 0.0
        record_call(bot.pk, outcome=webhook.OK, latency=latency, game_id=game_id)
    if result.next and game is not None:
        # As GET /api/bot/decisions lists them: the game moved just now, so the deadline runs
        # from now (the append's own time, a few milliseconds earlier, is the one it keeps).
        game.last_activity = timezone.now()
        deadline = pull_deadline(game).isoformat()
        next_ = tuple({**entry, "deadline": deadline, "optional": False} for entry in result.next)
        result = dataclasses.replace(result, next=next_)
    return result
