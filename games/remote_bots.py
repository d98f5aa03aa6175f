"""Registered bots: webhook turns, pull decisions and deadlines, strikes and stats, validation.

A registered Bot holds seats through `Seat.registered_bot`. A built-in one plays in-process like
any built-in seat. A webhook bot is asked over HTTP (games/bots/webhook.py), one decision per
call and one append per decision. A pull bot fetches its pending decisions and posts commands
through the API; the game waits for it until the deadline, then the beat sweep
`expire_pull_turns` plays the fallback. A timeout, an error or an illegal answer gets the fallback
move of the default built-in bot (BOTS_FALLBACK_STRATEGY) and a strike; BOTS_STRIKES_TO_SUSPEND
strikes in a row suspend the bot, whose seats the fallback then plays without asking it.
"""

from __future__ import annotations

import hashlib
import logging
import random
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from games import services
from games.bots import find_strategy, webhook
from games.engine import MATCH_OVER, PLAYING, State, Variant

from .actors import SYSTEM
from .errors import Conflict, Forbidden, GameError, IllegalMove
from .models import Bot, Game, Seat

log = logging.getLogger(__name__)

Command = dict[str, Any]

# Call outcomes as the stats count them (webhook.OK, TIMEOUT and ERROR, plus this one).
ILLEGAL = "illegal"
_COUNTER = {webhook.TIMEOUT: "timeouts", webhook.ERROR: "errors", ILLEGAL: "illegal_answers"}


@dataclass(frozen=True, slots=True)
class Turn:
    """What one remote decision did: the version after it, and the strike's reason if any."""

    version: int
    commands: int
    strike: str = ""
    conflict: bool = False


# Tokens: a pull bot authenticates with a random token whose SHA-256 alone is stored.


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token(bot: Bot) -> str:
    """Give a pull bot a new token (the old one stops working) and return it, once."""
    token = secrets.token_urlsafe(32)
    bot.token_hash = token_hash(token)
    bot.save(update_fields=["token_hash", "updated_at"])
    return token


def bot_for_token(token: str) -> Bot | None:
    if not token:
        return None
    return Bot.objects.filter(kind=Bot.Kind.PULL, token_hash=token_hash(token)).first()


# Stats and strikes.


def record_call(bot_id: int, *, outcome: str, latency: float, reason: str = "") -> None:
    """Count one decision asked of a bot; anything but OK is a strike, and enough strikes in a
    row suspend an active bot (conditional updates, so concurrent workers count each once)."""
    counters: dict[str, Any] = {
        "calls": F("calls") + 1,
        "total_latency": F("total_latency") + latency,
        "updated_at": timezone.now(),
    }
    if outcome == webhook.OK:
        counters["strikes"] = 0
    else:
        counters["strikes"] = F("strikes") + 1
        counters[_COUNTER[outcome]] = F(_COUNTER[outcome]) + 1
    Bot.objects.filter(pk=bot_id).update(**counters)
    if outcome == webhook.OK:
        return
    limit = settings.BOTS_STRIKES_TO_SUSPEND
    Bot.objects.filter(pk=bot_id, status=Bot.Status.ACTIVE, strikes__gte=limit).update(
        status=Bot.Status.SUSPENDED,
        status_reason=f"suspended after {limit} strikes in a row; the last: {reason}",
        updated_at=timezone.now(),
    )


def fallback_command(view: dict[str, Any], legal: list[Command], rng: random.Random) -> Command:
    """The move the default built-in bot makes for a bot that gave none (None: pass, in a newno
    open choice)."""
    return find_strategy(settings.BOTS_FALLBACK_STRATEGY)(view, legal, rng)


# Webhook bots.


def webhook_timeout(game: Game) -> float:
    """Seconds a webhook bot has to answer: the game's `bot_timeout`, else the setting."""
    return float((game.context or {}).get("bot_timeout") or settings.BOTS_WEBHOOK_TIMEOUT)


def webhook_turn(
    *, game: Game, variant: Variant, state: State, version: int, seat: int, bot: Bot
) -> Turn:
    """Ask a webhook bot for the decision of `seat` and append it (or the fallback) alone."""
    view = variant.view(state, seat)
    legal = variant.legal_commands(state, seat)
    timeout = webhook_timeout(game)
    payload = {
        "game": game.pk,
        "seat": seat,
        "version": version,
        "view": view,
        "legal": legal,
        "deadline": (timezone.now() + timedelta(seconds=timeout)).isoformat(),
    }
    answer = webhook.ask(url=bot.url, secret=bot.secret, payload=payload, timeout=timeout)
    # The same id for the answer and the fallback: two workers asking at once write one move.
    command_id = f"bot:{version}"
    outcome, reason = answer.outcome, f"{answer.outcome}: {answer.detail}"
    if outcome == webhook.OK:
        command = answer.command
        try:
            if not isinstance(command, dict) or command.get("seat") != seat:
                raise IllegalMove(f"the answer is no command for seat {seat}", code="wrong-seat")
            result = services.game_command(
                game_id=game.pk,
                actor=bot,
                command=command,
                expected_version=version,
                command_id=command_id,
            )
        except (IllegalMove, Forbidden) as error:
            outcome, reason = ILLEGAL, f"illegal answer {command!r} at version {version}: {error}"
        except Conflict as conflict:
            record_call(bot.pk, outcome=webhook.OK, latency=answer.latency)
            return Turn(conflict.current_version, 0, conflict=True)
        else:
            record_call(bot.pk, outcome=webhook.OK, latency=answer.latency)
            return Turn(result.version, 0 if result.repeated else 1)
    log.info("bot %s, game %s seat %s: strike (%s)", bot.pk, game.pk, seat, reason)
    record_call(bot.pk, outcome=outcome, latency=answer.latency, reason=reason)
    return _play_fallback(game.pk, seat, version, view, legal, command_id, reason)


def _play_fallback(
    game_id: int,
    seat: int,
    version: int,
    view: dict[str, Any],
    legal: list[Command],
    command_id: str,
    reason: str,
) -> Turn:
    command = fallback_command(view, legal, random.Random(f"{game_id}:{version}"))
    if command is None:
        return Turn(version, 0, strike=reason)
    try:
        result = services.game_command(
            game_id=game_id,
            actor=SYSTEM,
            command=command,
            expected_version=version,
            command_id=command_id,
        )
    except Conflict as conflict:
        return Turn(conflict.current_version, 0, strike=reason, conflict=True)
    return Turn(result.version, 0 if result.repeated else 1, strike=reason)


# Pull bots.


def pull_timeout(context: dict[str, Any] | None) -> float:
    """Seconds a pull bot has for a decision: the game's `pull_timeout`, else the setting."""
    return float((context or {}).get("pull_timeout") or settings.BOTS_PULL_TIMEOUT)


def pull_deadline(game: Game) -> datetime:
    """A pull bot's decision is due this long after the game last moved."""
    started = game.last_activity or game.created_at
    return started + timedelta(seconds=pull_timeout(game.context))


def pull_decisions(bot: Bot) -> list[dict[str, Any]]:
    """The decisions the game waits for from `bot`'s seats, oldest game first."""
    if bot.status in (Bot.Status.SUSPENDED, Bot.Status.FAILED):
        return []
    seats = (
        Seat.objects.filter(registered_bot=bot, game__status=PLAYING)
        .select_related("game")
        .order_by("game_id", "number")
    )
    decisions = []
    for seat in seats:
        if seat.number not in (seat.game.to_act or []):
            continue
        view = services.game_view(game_id=seat.game_id, viewer=bot, seat=seat.number)
        decisions.append(
            {
                "game": seat.game_id,
                "seat": seat.number,
                "version": view["version"],
                "view": view,
                "legal": view["legal"],
                "deadline": pull_deadline(seat.game).isoformat(),
            }
        )
    return decisions


def pull_command(
    *, bot: Bot, game_id: int, command: Command, expected_version: int, command_id: str | None
) -> services.CommandResult:
    """Run a pull bot's command; errors as game_command's (a refused one is counted, but the bot
    may try again until the deadline)."""
    if bot.status in (Bot.Status.SUSPENDED, Bot.Status.FAILED):
        raise Forbidden(f"the bot is {bot.status}: {bot.status_reason}", code=f"bot-{bot.status}")
    asked_at = Game.objects.filter(pk=game_id).values_list("last_activity", flat=True).first()
    try:
        result = services.game_command(
            game_id=game_id,
            actor=bot,
            command=command,
            expected_version=expected_version,
            command_id=command_id,
        )
    except IllegalMove:
        Bot.objects.filter(pk=bot.pk).update(
            calls=F("calls") + 1, illegal_answers=F("illegal_answers") + 1
        )
        raise
    if not result.repeated:
        latency = (timezone.now() - asked_at).total_seconds() if asked_at else 0.0
        record_call(bot.pk, outcome=webhook.OK, latency=latency)
    return result


def expire_pull_turns(*, now: datetime | None = None) -> list[int]:
    """Play the fallback for every pull bot decision past its deadline, with a strike; returns
    the games moved. Safe to run twice: the fallback expects the version it was decided at."""
    now = now or timezone.now()
    rows = (
        Seat.objects.filter(registered_bot__kind=Bot.Kind.PULL, game__status=PLAYING)
        .exclude(registered_bot__status=Bot.Status.SUSPENDED)
        .values_list("game_id", "number", "registered_bot_id", "game__to_act")
        .order_by("game_id", "number")
    )
    moved = []
    for game_id, seat, bot_id, to_act in rows:
        if seat not in (to_act or []):
            continue
        game = Game.objects.get(pk=game_id)
        if game.status != PLAYING or seat not in game.to_act or pull_deadline(game) > now:
            continue
        view = services.game_view(game_id=game_id, viewer=SYSTEM, seat=seat)
        reason = f"timeout: no command for game {game_id} seat {seat} before the deadline"
        turn = _play_fallback(
            game_id, seat, view["version"], view, view["legal"], f"deadline:{game.version}", reason
        )
        if turn.commands:
            record_call(
                bot_id, outcome=webhook.TIMEOUT, latency=pull_timeout(game.context), reason=reason
            )
            moved.append(game_id)
    return moved


# Validation.

VALIDATION = "validation"


def bot_validate(bot: Bot) -> Bot:
    """Play BOTS_VALIDATION_MATCHES short matches of `bot` against built-in bots, in-process:
    all clean makes it active; a strike (illegal answer, timeout, error) or any failure of the
    run itself makes it failed, with the reason for its owner."""
    from games import turns

    if bot.kind == Bot.Kind.PULL:
        raise GameError("pull bots are not validated yet (docs/workers.md)", code="not-built")
    Bot.objects.filter(pk=bot.pk).update(
        status=Bot.Status.VALIDATING, status_reason="", strikes=0, updated_at=timezone.now()
    )
    try:
        for match in range(settings.BOTS_VALIDATION_MATCHES):
            game = _validation_game(bot, match)
            problem = _drive(turns, game)
            if problem:
                _set_status(
                    bot,
                    Bot.Status.FAILED,
                    f"validation match {match + 1} (game {game.pk}): {problem}",
                )
                return bot
    except Exception as error:  # an error never counts as a pass
        log.exception("validation of bot %s stopped", bot.pk)
        _set_status(bot, Bot.Status.FAILED, f"validation stopped by an error: {error!r}")
        return bot
    count = settings.BOTS_VALIDATION_MATCHES
    _set_status(bot, Bot.Status.ACTIVE, f"passed {count} validation matches")
    return bot


def _validation_game(bot: Bot, match: int) -> Game:
    opponents = list(settings.BOTS_VALIDATION_OPPONENTS)
    seats = [services.SeatSpec(bot=name) for name in opponents]
    # The bot sits in a different place each match.
    seats.insert(match % (len(opponents) + 1), services.SeatSpec(registered=bot))
    return services.game_create(
        variant_spec=settings.BOTS_VALIDATION_SPEC,
        seats=seats,
        seed=f"validation:{bot.pk}:{match}",
        context={"kind": VALIDATION, "bot": bot.pk},
    )


def _drive(turns: Any, game: Game) -> str:
    """Advance a validation game to its end; the first strike's reason, or "" when clean."""
    for _ in range(settings.BOTS_VALIDATION_MAX_ADVANCES):
        advance = turns.advance_game(game_id=game.pk)
        if advance.strike:
            return advance.strike
        if Game.objects.filter(pk=game.pk, status=MATCH_OVER).exists():
            return ""
        if not advance.commands and not advance.conflict:
            return "the match stopped: no bot could move"
    return "the match did not finish"


def _set_status(bot: Bot, status: str, reason: str) -> None:
    Bot.objects.filter(pk=bot.pk).update(
        status=status, status_reason=reason, strikes=0, updated_at=timezone.now()
    )
    bot.refresh_from_db()
