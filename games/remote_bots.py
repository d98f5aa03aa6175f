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
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from games import services
from games.bots import find_strategy, webhook
from games.engine import MATCH_OVER, PLAYING, State, Variant

from .actors import SYSTEM
from .errors import Conflict, Forbidden, IllegalMove
from .models import Bot, Game, Seat

log = logging.getLogger(__name__)

Command = dict[str, Any]

# A registered bot in one of these states is not asked any more: the fallback plays its seats.
REPLACED = (Bot.Status.SUSPENDED, Bot.Status.FAILED)

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
    return _play_fallback(game.pk, version, view, legal, command_id, reason)


def play_fallback(
    game_id: int, version: int, view: dict[str, Any], legal: list[Command], command_id: str
) -> services.CommandResult | None:
    """Append the default bot's move for the seat of `view` as the system, expecting `version`;
    None when it has no move (a pass in a newno open choice). Seeded by the game and version,
    so a repeated run picks the same move. Raises game_command's errors."""
    command = fallback_command(view, legal, random.Random(f"{game_id}:{version}"))
    if command is None:
        return None
    return services.game_command(
        game_id=game_id,
        actor=SYSTEM,
        command=command,
        expected_version=version,
        command_id=command_id,
    )


def _play_fallback(
    game_id: int,
    version: int,
    view: dict[str, Any],
    legal: list[Command],
    command_id: str,
    reason: str,
) -> Turn:
    try:
        result = play_fallback(game_id, version, view, legal, command_id)
    except Conflict as conflict:
        return Turn(conflict.current_version, 0, strike=reason, conflict=True)
    if result is None:
        return Turn(version, 0, strike=reason)
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
    if bot.status in REPLACED:
        return []
    if bot.status == Bot.Status.VALIDATING:
        # The bot's first poll starts its validation round (no-op once the games exist).
        round_games(bot.pk, bot.validation_round)
    seats = (
        Seat.objects.filter(registered_bot=bot, game__status=PLAYING, auto_played=False)
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
    if bot.status in REPLACED:
        raise Forbidden(f"the bot is {bot.status}: {bot.status_reason}", code=f"bot-{bot.status}")
    game = Game.objects.filter(pk=game_id).only("last_activity", "context").first()
    try:
        result = services.game_command(
            game_id=game_id,
            actor=bot,
            command=command,
            expected_version=expected_version,
            command_id=command_id,
        )
    except IllegalMove as error:
        Bot.objects.filter(pk=bot.pk).update(
            calls=F("calls") + 1, illegal_answers=F("illegal_answers") + 1
        )
        if game is not None:
            validation_problem(game, bot.pk, f"illegal command {command!r}: {error}")
        raise
    if not result.repeated:
        asked_at = game.last_activity if game is not None else None
        latency = (timezone.now() - asked_at).total_seconds() if asked_at else 0.0
        record_call(bot.pk, outcome=webhook.OK, latency=latency)
    return result


def expire_pull_turns(*, now: datetime | None = None) -> list[int]:
    """Play the fallback for every pull bot decision past its deadline, with a strike; returns
    the games moved. Safe to run twice: the fallback expects the version it was decided at."""
    now = now or timezone.now()
    rows = (
        Seat.objects.filter(
            registered_bot__kind=Bot.Kind.PULL, game__status=PLAYING, auto_played=False
        )
        .exclude(registered_bot__status__in=REPLACED)
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
        validation_problem(game, bot_id, reason)
        turn = _play_fallback(
            game_id, view["version"], view, view["legal"], f"deadline:{game.version}", reason
        )
        if turn.commands:
            record_call(
                bot_id, outcome=webhook.TIMEOUT, latency=pull_timeout(game.context), reason=reason
            )
            moved.append(game_id)
    return moved


# Validation.
#
# Each validation is a round (Bot.validation_round) of BOTS_VALIDATION_MATCHES short matches
# against built-in bots, the bot in a different seat each match. `open_round` starts one, inside
# the transaction that registers, changes or revalidates the bot, so the status and the round
# move together. Built-in and webhook bots are then validated in-process by the task
# `validate_bot(bot, round)`: it drives the round's games itself (context `inline`, which keeps
# the dispatch away from them). A pull bot's round starts when the bot first polls for its
# decisions (its owner needs time to deploy it with its new token); its games are played like
# any game: workers move the built-in opponents, the bot posts its own commands. An illegal
# command or a timeout fails the round at once; so does an error, or a round not over within
# BOTS_VALIDATION_TIMEOUT. A round whose games are all over passes only if the log shows no
# fallback move for the bot in them (settle_validation), whatever order the tasks ran in. A
# failed or replaced round's unfinished games are finished by the fallback
# (finish_validation_games), so no game is left waiting on a bot.

VALIDATION = "validation"
WAITING = "waiting for its validation matches"
WAITING_FOR_POLL = (
    "waiting for the bot's first GET /api/bot/decisions: its validation matches start then"
)
INTERNAL_ERROR = "validation stopped by an error on our side ({}); the staff have the details"


def open_round(bot_id: int, *, send: bool = True) -> int:
    """Start the bot's next validation round: it is validating from now on, and the unfinished
    games of the round before (a bot changed mid-round) are finished by the fallback. Built-in
    and webhook bots: the `validate_bot` task is sent on commit (unless `send` is off). Returns
    the round. Call it inside the transaction that changes the bot."""
    from games import tasks

    with transaction.atomic():
        bot = Bot.objects.select_for_update().get(pk=bot_id)
        previous = bot.validation_round
        bot.validation_round += 1
        bot.status = Bot.Status.VALIDATING
        bot.status_reason = WAITING_FOR_POLL if bot.kind == Bot.Kind.PULL else WAITING
        bot.strikes = 0
        bot.validation_started_at = timezone.now()
        bot.save(
            update_fields=[
                "validation_round",
                "status",
                "status_reason",
                "strikes",
                "validation_started_at",
                "updated_at",
            ]
        )
        if validation_games(bot_id, previous).filter(status=PLAYING).exists():
            _finish_on_commit(bot_id, previous)
        round_ = bot.validation_round
        if send and bot.kind != Bot.Kind.PULL:

            def send_validation() -> None:
                tasks.validate_bot.delay(bot_id, round_)

            # Robust: a broker that is down must not turn a committed change into an error;
            # the round times out (settle_validations) and the owner can ask again.
            transaction.on_commit(send_validation, robust=True)
    return round_


def bot_validate(bot: Bot, round_: int | None = None) -> Bot:
    """Play validation round `round_` of a built-in or webhook bot in-process (None: open a new
    round first): all clean makes the bot active; the first strike or any error makes it
    failed, with the reason for its owner. A round that is no longer the bot's current one, or
    is decided, is left alone, so the task is safe to run twice. A pull bot's round waits for
    the bot's first poll."""
    if round_ is None:
        round_ = open_round(bot.pk, send=False)
    if bot.kind != Bot.Kind.PULL:
        try:
            _play_inline(bot, round_)
        except Exception as error:  # an error never counts as a pass
            log.exception("validation round %s of bot %s stopped", round_, bot.pk)
            fail_validation(bot.pk, round_, INTERNAL_ERROR.format(type(error).__name__))
    bot.refresh_from_db()
    return bot


def _play_inline(bot: Bot, round_: int) -> None:
    games = round_games(bot.pk, round_)
    for match, game in enumerate(games):
        problem = _drive(game)
        if problem:
            reason = f"validation match {match + 1} (game {game.pk}): {problem}"
            fail_validation(bot.pk, round_, reason)
            return
    if games:
        settle_validation(bot.pk, round_)


def round_games(bot_id: int, round_: int) -> list[Game]:
    """The games of the bot's round, created if missing (with the bot's row locked, so two
    callers create them once); none when the round is not the bot's current, undecided one."""
    with transaction.atomic():
        bot = Bot.objects.select_for_update().get(pk=bot_id)
        if bot.validation_round != round_ or bot.status != Bot.Status.VALIDATING:
            return []
        existing = {game.context.get("match"): game for game in validation_games(bot_id, round_)}
        if not existing:
            # The round's clock starts with its games (a pull bot's, at its first poll).
            bot.validation_started_at = timezone.now()
            bot.save(update_fields=["validation_started_at", "updated_at"])
        return [
            existing.get(match) or _validation_game(bot, round_, match)
            for match in range(settings.BOTS_VALIDATION_MATCHES)
        ]


def _validation_game(bot: Bot, round_: int, match: int) -> Game:
    opponents = list(settings.BOTS_VALIDATION_OPPONENTS)
    seats = [services.SeatSpec(bot=name) for name in opponents]
    # The bot sits in a different place each match.
    seats.insert(match % (len(opponents) + 1), services.SeatSpec(registered=bot))
    context: dict[str, Any] = {"kind": VALIDATION, "bot": bot.pk, "round": round_, "match": match}
    if bot.kind != Bot.Kind.PULL:
        context["inline"] = True
    return services.game_create(
        variant_spec=settings.BOTS_VALIDATION_SPEC,
        seats=seats,
        seed=f"validation:{bot.pk}:{round_}:{match}",
        context=context,
    )


def validation_games(bot_id: int, round_: int) -> Any:
    return Game.objects.filter(context__kind=VALIDATION, context__bot=bot_id, context__round=round_)


def _drive(game: Game) -> str:
    """Advance a validation game to its end in-process; the first strike's reason, or ""."""
    from games import turns

    for _ in range(settings.BOTS_VALIDATION_MAX_ADVANCES):
        if Game.objects.filter(pk=game.pk, status=MATCH_OVER).exists():
            return ""
        advance = turns.advance_game(game_id=game.pk)
        if advance.strike:
            return advance.strike
        if not advance.commands and not advance.conflict:
            return "the match stopped: no bot could move"
    return "the match did not finish"


def validation_problem(game: Game, bot_id: int, problem: str) -> None:
    """A pull bot's illegal command or timeout in a game of its current validation round fails
    the round (no-op for any other game)."""
    context = game.context or {}
    if context.get("kind") == VALIDATION and context.get("bot") == bot_id:
        fail_validation(bot_id, context.get("round"), f"validation game {game.pk}: {problem}")


def fail_validation(bot_id: int, round_: Any, reason: str) -> bool:
    """Fail the bot's validation round if it is still the current one and undecided; then
    finish its unfinished games with the fallback (on commit, by a task). Safe twice."""
    failed = Bot.objects.filter(
        pk=bot_id, status=Bot.Status.VALIDATING, validation_round=round_
    ).update(status=Bot.Status.FAILED, status_reason=reason, strikes=0, updated_at=timezone.now())
    if failed:
        log.info("bot %s failed validation round %s: %s", bot_id, round_, reason)
        _finish_on_commit(bot_id, round_)
    return bool(failed)


def _finish_on_commit(bot_id: int, round_: Any) -> None:
    from games import tasks

    def finish_validation_games() -> None:
        tasks.finish_validation_games.delay(bot_id, round_)

    transaction.on_commit(finish_validation_games, robust=True)


def finish_validation_games(bot_id: int, round_: int) -> list[int]:
    """Play the bot's unfinished games of a failed or replaced round to the end with the
    fallback (its seats become auto-played), in-process; returns the games finished."""
    games = list(validation_games(bot_id, round_).filter(status=PLAYING))
    Seat.objects.filter(game__in=games, registered_bot_id=bot_id).update(
        auto_played=True, deadline_at=None
    )
    for game in games:
        _drive(game)
    return [game.pk for game in games]


def _fallback_move(game_ids: list[int]) -> str:
    """Where the log shows a fallback move played for the bot (a timeout, an error, an illegal
    answer) in these games, or ""."""
    from .models import GameEvent

    found = (
        GameEvent.objects.filter(game_id__in=game_ids, actor="system")
        .filter(Q(command_id__startswith="bot:") | Q(command_id__startswith="deadline:"))
        .order_by("global_position")
        .values_list("game_id", "version")
        .first()
    )
    return f"game {found[0]}: the fallback moved for the bot at version {found[1]}" if found else ""


def settle_validation(
    bot_id: int, round_: int | None = None, *, now: datetime | None = None
) -> str:
    """Decide a validating bot's round (`round_`, default its current one) once its games are
    over: active if the log shows no fallback move for the bot, failed if it does. A round not
    over within BOTS_VALIDATION_TIMEOUT of its start fails; a pull bot's round that has not
    started (no poll yet) waits. Returns the bot's status after. Safe twice, in any order with
    the strike that fails a round: every update expects the round and `validating`."""
    bot = Bot.objects.filter(pk=bot_id).first()
    if bot is None:
        return ""
    round_ = bot.validation_round if round_ is None else round_
    if bot.status != Bot.Status.VALIDATING or bot.validation_round != round_:
        return bot.status
    games = list(validation_games(bot_id, round_).values_list("pk", "status"))
    count = settings.BOTS_VALIDATION_MATCHES
    if len(games) == count and all(status == MATCH_OVER for _, status in games):
        problem = _fallback_move([pk for pk, _ in games])
        if problem:
            fail_validation(bot_id, round_, f"validation {problem}")
        else:
            Bot.objects.filter(
                pk=bot_id, status=Bot.Status.VALIDATING, validation_round=round_
            ).update(
                status=Bot.Status.ACTIVE,
                status_reason=f"passed {count} validation matches",
                strikes=0,
                updated_at=timezone.now(),
            )
    elif games or bot.kind != Bot.Kind.PULL:
        now = now or timezone.now()
        limit = timedelta(seconds=settings.BOTS_VALIDATION_TIMEOUT)
        started = bot.validation_started_at or bot.updated_at
        if now - started > limit:
            over = sum(status == MATCH_OVER for _, status in games)
            fail_validation(
                bot_id,
                round_,
                f"validation not finished within {limit}: {over} of {count} matches over",
            )
    return Bot.objects.get(pk=bot_id).status


def settle_validations(*, now: datetime | None = None) -> list[int]:
    """settle_validation for every validating bot (the beat safety net); returns the bots."""
    bots = list(Bot.objects.filter(status=Bot.Status.VALIDATING).values_list("pk", flat=True))
    for bot_id in bots:
        settle_validation(bot_id, now=now)
    return bots
