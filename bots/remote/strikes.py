"""A registered bot's call statistics and strikes.

Every decision asked of a bot is counted with its latency. A timeout, an error or an illegal
answer is a strike (a webhook bot's only when the fallback played for it was appended: a
question the game moved past costs no strike); BOTS_STRIKES_TO_SUSPEND strikes in a row suspend
an active bot, whose seats the default bot then plays without asking it (games/seats.py
`effective`), and its owner is told (bots/suspension_notice.py). A good answer resets the
strikes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import F
from django.utils import timezone

from botcalls import reasons
from botcalls.models import CallDetail
from bots import suspension_notice
from bots.remote import webhook
from games import prepared
from games.models import Bot, BotCall
from games.seat_facts import FallbackReason

# The calls kept per bot for its owner's page (BotCall); older ones are pruned now and then.
CALLS_KEPT = 100
# Call outcomes as the stats count them (webhook.OK, TIMEOUT and ERROR, plus this one).
ILLEGAL = "illegal"
_COUNTER = {webhook.TIMEOUT: "timeouts", webhook.ERROR: "errors", ILLEGAL: "illegal_answers"}
# The reason a fallback move gives for each failed outcome.
FALLBACK_REASON = {
    webhook.TIMEOUT: FallbackReason.BOT_TIMEOUT,
    webhook.ERROR: FallbackReason.BOT_ERROR,
    ILLEGAL: FallbackReason.BOT_ILLEGAL,
}


@dataclass(frozen=True, slots=True)
class Detail:
    """A failed call's particulars (botcalls.models.CallDetail): its reason code
    (botcalls/reasons.py), the decision (seat, version), the bot's answer as it sent it (None
    when it sent nothing readable) and the rules' code when they refused it."""

    code: str
    seat: int | None = None
    version: int | None = None
    answer: object = None
    refusal: str = ""


def as_json(answer: object) -> str:
    """A bot's answer as JSON text for a human message (never a Python repr)."""
    try:
        return json.dumps(answer, separators=(", ", ": "), default=str)
    except ValueError:
        return json.dumps(str(answer))


def record_call(
    bot_id: int,
    *,
    outcome: str,
    latency: float,
    reason: str = "",
    game_id: int | None = None,
    strike: bool = True,
    detail: Detail | None = None,
) -> None:
    """Count one decision asked of a bot; anything but OK is a strike (unless `strike` is False:
    the fallback for it was not appended, bots/remote/webhook_turns.py), and enough strikes in
    a row suspend an active bot (conditional updates, so concurrent workers count each once).
    A failed call keeps `detail` (the decision, the answer, its reason code) for its owner."""
    if outcome == webhook.OK:
        _ok(bot_id, latency, game_id)
        return
    _log(bot_id, outcome, latency, reason, game_id, detail, strike=strike)
    counters: dict[str, Any] = {
        "calls": F("calls") + 1,
        "total_latency": F("total_latency") + latency,
        "updated_at": timezone.now(),
        _COUNTER[outcome]: F(_COUNTER[outcome]) + 1,
    }
    if not strike:
        # Counted as a call that failed, neither adding to the strikes in a row nor ending them.
        Bot.objects.filter(pk=bot_id).update(**counters)
        return
    Bot.objects.filter(pk=bot_id).update(**counters, strikes=F("strikes") + 1)
    limit = settings.BOTS_STRIKES_TO_SUSPEND
    now = timezone.now()
    if Bot.objects.filter(pk=bot_id, status=Bot.Status.ACTIVE, strikes__gte=limit).update(
        status=Bot.Status.SUSPENDED,
        status_reason=f"suspended after {limit} strikes in a row; the last: {reason}",
        updated_at=now,
    ):
        # This update suspended it (a concurrent worker's finds it suspended): told once.
        suspension_notice.tell_suspended(
            bot_id, why=suspension_notice.by_strikes(limit, outcome), at=now
        )


def count_refused(
    bot_id: int,
    *,
    game_id: int | None = None,
    seat: int | None = None,
    version: int | None = None,
    answer: object = None,
    refusal: str = "",
    message: str = "",
    latency: float = 0.0,
) -> None:
    """A pull bot's command the rules refused: counted, but no strike (it may try again until
    its deadline). `latency`, as a good command's, is the time from the game's last move to the
    command: the call is in the bot's mean latency (a refused call counted at 0 would pull the
    mean down)."""
    detail = Detail(reasons.REFUSED, seat, version, answer, refusal)
    reason = f"refused {as_json(answer)}: {message}" if message else "refused by the rules"
    _log(bot_id, BotCall.Outcome.REFUSED, latency, reason, game_id, detail, strike=False)
    Bot.objects.filter(pk=bot_id).update(
        calls=F("calls") + 1,
        illegal_answers=F("illegal_answers") + 1,
        total_latency=F("total_latency") + latency,
    )


# A good answer, the call of every pull bot's command: its row and the counters in SQL written
# once (the ORM's compiling of the two was a tenth of a command's Python; issue 16).
_OK_CALL = (
    'INSERT INTO "games_botcall" ("bot_id", "game_id", "at", "outcome", "latency", "reason") '
    "VALUES (%s, %s, %s, %s, %s, '') RETURNING \"id\""
)
_OK_COUNTERS = (
    'UPDATE "games_bot" SET "calls" = "calls" + 1, "total_latency" = "total_latency" + %s, '
    '"updated_at" = %s, "strikes" = 0 WHERE "id" = %s'
)


# On PostgreSQL both in one statement, one round trip: the counters' UPDATE returns the row's id.
_OK_BOTH = f"WITH call AS ({_OK_CALL}) {_OK_COUNTERS} RETURNING (SELECT id FROM call)"


def _ok(bot_id: int, latency: float, game_id: int | None) -> None:
    at = connection.ops.adapt_datetimefield_value(timezone.now())
    call = [bot_id, game_id, at, BotCall.Outcome.OK.value, latency]
    if connection.vendor == "postgresql":
        # Prepared: it runs on every pull bot's command (games/prepared.py).
        found = prepared.fetch(connection, _OK_BOTH, [*call, latency, at, bot_id])
        row = found[0] if found else None
    else:
        with connection.cursor() as cursor:
            cursor.execute(_OK_CALL, call)
            row = cursor.fetchone()
            cursor.execute(_OK_COUNTERS, [latency, at, bot_id])
    if row is not None:  # None: the bot is gone (nothing to count)
        _prune(bot_id, row[0])


def _log(
    bot_id: int,
    outcome: str,
    latency: float,
    reason: str,
    game_id: int | None,
    detail: Detail | None,
    *,
    strike: bool,
) -> None:
    call = BotCall.objects.create(
        bot_id=bot_id,
        game_id=game_id,
        at=timezone.now(),
        outcome=outcome,
        latency=latency,
        reason=reason[:200],
    )
    if detail is not None:
        CallDetail.objects.create(
            call=call,
            code=detail.code,
            seat=detail.seat,
            version=detail.version,
            answer=detail.answer,
            refusal=detail.refusal[:64],
            strike=strike,
        )
    _prune(bot_id, call.pk)


def _prune(bot_id: int, pk: int) -> None:
    if pk % CALLS_KEPT == 0:
        # Now and then, not on every call: keep the bot's last CALLS_KEPT.
        kept = BotCall.objects.filter(bot_id=bot_id).values_list("pk", flat=True)[CALLS_KEPT:]
        oldest_kept = next(iter(kept), None)
        if oldest_kept is not None:
            BotCall.objects.filter(bot_id=bot_id, pk__lte=oldest_kept).delete()
