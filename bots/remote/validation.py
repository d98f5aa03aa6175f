"""Validation: a new or changed bot plays a round of short matches before it may join a ladder.

Each validation is a round (Bot.validation_round) of BOTS_VALIDATION_MATCHES short matches
against built-in bots, the bot in a different seat each match. `open_round` starts one, inside
the transaction that registers, changes or revalidates the bot, so the status and the round
move together, and publishes RoundOpened (games/outbox.py). Built-in and webhook bots are then
validated in-process by the task `validate_bot(bot, round)`: it drives the round's games itself
(settings `inline`, which keeps the dispatcher away from them). A pull bot's round starts when
the bot first polls for its decisions (its owner needs time to deploy it with its new token);
its games are played like any game: workers move the built-in opponents, the bot posts its own
commands. An illegal command or a timeout fails the round at once; so does an error, or a
round not over within BOTS_VALIDATION_TIMEOUT of its first game. A round whose games are all
over passes only if their logs hold no `fallback-played` event for the bot's seat (the
evidence, with its reason), whatever order the tasks ran in. A failed or replaced round's
unfinished games are handed over to the default bot (a `seat-handed-over` event) and finished
(RoundClosed), so no game is left waiting on a bot. A round whose task was lost (a broker
down when it was sent) is found again by `stalled_rounds` and sent again.
"""

from __future__ import annotations

import logging
import re
import time
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from bots import turns
from bots.remote import leases
from engine import MATCH_OVER, PLAYING
from engine.events import FALLBACK_PLAYED
from games import event_reads, outbox, seat_facts
from games.actors import SYSTEM
from games.creation import SeatSpec, game_create
from games.game_settings import VALIDATION, GameSettings
from games.models import Bot, Game, Seat
from games.seat_facts import HandOverReason
from games.seeds import keyed_seed

log = logging.getLogger(__name__)
# Seconds a validation run waits when another run holds its game's lease (bots/remote/leases.py).
BUSY_WAIT = 0.05

WAITING = "waiting for its validation matches"
WAITING_FOR_POLL = (
    "waiting for the bot's first GET /api/bot/decisions: its validation matches start then"
)
# A pull bot's, from its first poll on (its round's games exist and it plays them).
PLAYING_ROUND = "playing its validation matches (started at its first GET /api/bot/decisions)"
INTERNAL_ERROR = "validation stopped by an error on our side ({}); the staff have the details"


def void_round(bot: Bot) -> None:
    """The bot's open round counts for nothing (the staff suspended it mid-round): its games
    still playing are finished by the fallback (RoundClosed, on commit), and its result never
    settles, since settling wants the bot validating in that round. `bot` is locked by the
    caller, inside its transaction, which changes the bot's status."""
    if validation_games(bot.pk, bot.validation_round).filter(status=PLAYING).exists():
        outbox.publish(outbox.RoundClosed(bot.pk, bot.validation_round))


def open_round(bot_id: int, *, send: bool = True) -> int:
    """Start the bot's next validation round: it is validating from now on, and the unfinished
    games of the round before (a bot changed mid-round) are finished by the fallback. Built-in
    and webhook bots: RoundOpened is published (unless `send` is off) and a task plays the
    round; a pull bot's starts at its first poll. Returns the round. Call it inside the
    transaction that changes the bot."""
    with transaction.atomic():
        bot = Bot.objects.select_for_update().get(pk=bot_id)
        previous = bot.validation_round
        bot.validation_round += 1
        bot.status = Bot.Status.VALIDATING
        bot.status_reason = WAITING_FOR_POLL if bot.kind == Bot.Kind.PULL else WAITING
        # A new round lifts any suspension (a staff one: staff.actions.bot_reinstate alone).
        bot.suspended_by_staff = False
        bot.strikes = 0
        bot.validation_started_at = timezone.now()
        bot.save(
            update_fields=[
                "validation_round",
                "status",
                "status_reason",
                "suspended_by_staff",
                "strikes",
                "validation_started_at",
                "updated_at",
            ]
        )
        if validation_games(bot_id, previous).filter(status=PLAYING).exists():
            outbox.publish(outbox.RoundClosed(bot_id, previous))
        if send and bot.kind != Bot.Kind.PULL:
            outbox.publish(outbox.RoundOpened(bot_id, bot.validation_round))
    return bot.validation_round


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
            if bot.kind == Bot.Kind.WEBHOOK:
                problem += webhook_hint(problem)
            reason = f"validation match {match + 1} (game {game.pk}): {problem}"
            fail_validation(bot.pk, round_, reason)
            return
    if games:
        settle_validation(bot.pk, round_)


# What a webhook call's failure most often means, for its owner: the raw detail stays first.
_REFUSED_BY_BOT = re.compile(r"^error: HTTP 40[13]\b")
_NOT_REACHED = re.compile(
    r"^(?:timeout: |error: .*(?:refused|reset|unreachable|no route|timed out|not known))", re.I
)
HINT_SECRET = (
    " (hint: the bot refused the server's request: check that its secret is the one registered "
    "and that it checks the X-Uno-Signature header, HMAC-SHA256 of the raw body)"
)
HINT_LISTENING = (
    " (hint: is the bot running and listening at its registered URL, reachable from the "
    "internet, and answering within the time limit?)"
)


def webhook_hint(problem: str) -> str:
    """A short hint for a webhook bot's failed call (`problem`, as the strike's reason reads:
    "error: HTTP 401", "error: [Errno 111] Connection refused", "timeout: no answer in time"),
    or "" when there is none to give."""
    if _REFUSED_BY_BOT.match(problem):
        return HINT_SECRET
    if _NOT_REACHED.match(problem):
        return HINT_LISTENING
    return ""


def round_games(bot_id: int, round_: int) -> list[Game]:
    """The games of the bot's round, created if missing (with the bot's row locked, so two
    callers create them once); none when the round is not the bot's current, undecided one."""
    with transaction.atomic():
        bot = Bot.objects.select_for_update().get(pk=bot_id)
        if bot.validation_round != round_ or bot.status != Bot.Status.VALIDATING:
            return []
        existing = {
            GameSettings.of(game.context).match: game for game in validation_games(bot_id, round_)
        }
        if not existing:
            # The round's clock starts with its games (a pull bot's, at its first poll).
            bot.validation_started_at = timezone.now()
            fields = ["validation_started_at", "updated_at"]
            if bot.status_reason == WAITING_FOR_POLL:
                # Its first poll: the reason said the round waited for it; now it is played.
                bot.status_reason = PLAYING_ROUND
                fields.append("status_reason")
            bot.save(update_fields=fields)
        return [
            existing.get(match) or _validation_game(bot, round_, match)
            for match in range(settings.BOTS_VALIDATION_MATCHES)
        ]


def _validation_game(bot: Bot, round_: int, match: int) -> Game:
    opponents = list(settings.BOTS_VALIDATION_OPPONENTS)
    seats = [SeatSpec(bot=name) for name in opponents]
    # The bot sits in a different place each match.
    seats.insert(match % (len(opponents) + 1), SeatSpec(registered=bot))
    return game_create(
        variant_spec=settings.BOTS_VALIDATION_SPEC,
        seats=seats,
        # Keyed: the bot's owner knows the label, and must not know the cards.
        seed=keyed_seed(f"validation:{bot.pk}:{round_}:{match}"),
        settings=GameSettings(
            kind=VALIDATION,
            bot=bot.pk,
            round=round_,
            match=match,
            inline=bot.kind != Bot.Kind.PULL,
        ),
    )


def validation_games(bot_id: int, round_: Any) -> QuerySet[Game]:
    return Game.objects.filter(context__kind=VALIDATION, context__bot=bot_id, context__round=round_)


def _drive(game: Game) -> str:
    """Advance a validation game to its end in-process; the first strike's reason, or "".

    BOTS_VALIDATION_MAX_ADVANCES counts the advances that ran; waits on a lease another run holds
    count none (they are bounded by time: the lease's length twice over, leases.run_seconds)."""
    advances = 0
    busy_since: float | None = None
    while advances < settings.BOTS_VALIDATION_MAX_ADVANCES:
        if Game.objects.filter(pk=game.pk, status=MATCH_OVER).exists():
            return ""
        advance = turns.advance_game(game_id=game.pk)
        if advance.strike:
            return advance.strike
        if advance.busy:
            # Another run holds the game's lease (a resent task, the reconciler): wait for it.
            now = time.monotonic()
            busy_since = now if busy_since is None else busy_since
            if now - busy_since > 2 * leases.run_seconds(game):
                return "the match stopped: another run held its game too long"
            time.sleep(BUSY_WAIT)
            continue
        busy_since = None
        advances += 1
        if not advance.commands and not advance.conflict:
            return "the match stopped: no bot could move"
    return "the match did not finish"


def validation_problem(game: Game, bot_id: int, problem: str) -> None:
    """A pull bot's illegal command or timeout in a game of its current validation round fails
    the round (no-op for any other game)."""
    found = GameSettings.of(game.context)
    if found.is_validation and found.bot == bot_id:
        fail_validation(bot_id, found.round, f"validation game {game.pk}: {problem}")


def fail_validation(bot_id: int, round_: Any, reason: str) -> bool:
    """Fail the bot's validation round if it is still the current one and undecided; then
    its unfinished games are finished by the fallback (RoundClosed). Safe twice."""
    failed = Bot.objects.filter(
        pk=bot_id, status=Bot.Status.VALIDATING, validation_round=round_
    ).update(status=Bot.Status.FAILED, status_reason=reason, strikes=0, updated_at=timezone.now())
    if failed:
        log.info("bot %s failed validation round %s: %s", bot_id, round_, reason)
        outbox.publish(outbox.RoundClosed(bot_id, round_))
    return bool(failed)


def finish_validation_games(bot_id: int, round_: int) -> list[int]:
    """Hand the bot's seats in the unfinished games of a failed or replaced round to the
    default bot (a seat-handed-over event each) and play them to the end in-process; returns
    the games finished."""
    finished = []
    for game_id in (
        validation_games(bot_id, round_).filter(status=PLAYING).values_list("pk", flat=True)
    ):
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            if game.status != PLAYING:
                continue
            seats = list(
                Seat.objects.filter(game=game, registered_bot_id=bot_id)
                .exclude(controller=Seat.Controller.FALLBACK)
                .values_list("number", flat=True)
            )
            if seats:
                facts = [seat_facts.handed_over(s, HandOverReason.VALIDATION_OVER) for s in seats]
                seat_facts.append_facts(game, facts, actor=SYSTEM)
                seat_facts.to_fallback(game, seats)
        _drive(game)
        finished.append(game.pk)
    return finished


def _fallback_move(bot_id: int, game_ids: list[int]) -> str:
    """Where the log shows a fallback move played for the bot's seat (a timeout, an error, an
    illegal answer) in these games, or ""."""
    seats = dict(
        Seat.objects.filter(game_id__in=game_ids, registered_bot_id=bot_id).values_list(
            "game_id", "number"
        )
    )
    for game_id in sorted(game_ids):
        for event in event_reads.load(game_id, types={FALLBACK_PLAYED}):
            if event["seat"] == seats.get(game_id):
                return f"game {game_id}: the fallback moved for the bot ({event['reason']})"
    return ""


def settle_validation(
    bot_id: int, round_: int | None = None, *, now: datetime | None = None
) -> str:
    """Decide a validating bot's round (`round_`, default its current one) once its games are
    over: active if the log shows no fallback move for the bot, failed if it does. A round not
    over within BOTS_VALIDATION_TIMEOUT of its first game fails; a round whose games do not
    exist yet (a pull bot that has not polled, a lost task) waits. Returns the bot's status
    after. Safe twice, in any order with the strike that fails a round: every update expects
    the round and `validating`."""
    bot = Bot.objects.filter(pk=bot_id).first()
    if bot is None:
        return ""
    round_ = bot.validation_round if round_ is None else round_
    if bot.status != Bot.Status.VALIDATING or bot.validation_round != round_:
        return str(bot.status)
    games = list(validation_games(bot_id, round_).values_list("pk", "status"))
    count = settings.BOTS_VALIDATION_MATCHES
    if len(games) == count and all(status == MATCH_OVER for _, status in games):
        problem = _fallback_move(bot_id, [pk for pk, _ in games])
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
    elif games:
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
    return str(Bot.objects.get(pk=bot_id).status)


def settle_validations(*, now: datetime | None = None) -> list[int]:
    """settle_validation for every validating bot (the beat safety net); returns the bots."""
    bots = list(Bot.objects.filter(status=Bot.Status.VALIDATING).values_list("pk", flat=True))
    for bot_id in bots:
        settle_validation(bot_id, now=now)
    return bots


def stalled_rounds(*, idle: timedelta, now: datetime | None = None) -> list[tuple[int, int]]:
    """The (bot, round) of every built-in or webhook bot's validating round that nothing has
    moved for `idle`: its task was lost (a broker down when it was sent, a killed worker). The
    sweep sends it again; `bot_validate` carries on from where the round stands."""
    now = now or timezone.now()
    cutoff = now - idle
    stalled = []
    bots = Bot.objects.filter(status=Bot.Status.VALIDATING).exclude(kind=Bot.Kind.PULL)
    for bot_id, round_, started in bots.values_list(
        "pk", "validation_round", "validation_started_at"
    ):
        games = validation_games(bot_id, round_).values_list("last_activity", flat=True)
        moved = [when for when in [started, *games] if when is not None]
        if moved and max(moved) > cutoff:
            continue
        # A lease: the round's clock restarts, so a resent task still queued is not sent again
        # before another `idle` has passed (and only one sweep claims the round).
        if Bot.objects.filter(
            pk=bot_id, validation_round=round_, validation_started_at=started
        ).update(validation_started_at=now):
            stalled.append((bot_id, round_))
    return stalled
