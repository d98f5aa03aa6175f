"""A bot's calls as its owner reads them (GET /api/me/bots/<id>/calls, the bot page's "Recent
calls"): newest first, each with the decision, the answer, the verdict and a reason code."""

from __future__ import annotations

from typing import Any

from botcalls.reasons import BY_OUTCOME, OK, REASONS
from games.models import BotCall

# What webhook_turns.py adds to the reason of a failed call that cost no strike.
NO_STRIKE = "(the game moved on: no strike)"


def call_output(call: BotCall) -> dict[str, Any]:
    """One call as JSON: `decision` {game, seat, version} (seat and version null where not
    kept: a good answer's command is in the game's log), `answer` as the bot sent it (null for
    a good answer or none), `outcome`, `strike`, `code` (botcalls/reasons.py), `refusal` (the
    rules' code of a refused answer, else null), `message` and `latency` in seconds."""
    detail = getattr(call, "detail", None)
    if detail is not None:
        code, seat, version, answer = detail.code, detail.seat, detail.version, detail.answer
        refusal, strike = detail.refusal or None, detail.strike
    else:
        code = BY_OUTCOME.get(call.outcome, call.outcome)
        seat = version = answer = refusal = None
        strike = call.outcome not in (OK, "refused") and NO_STRIKE not in call.reason
    return {
        "id": call.pk,
        "at": call.at,
        "decision": {"game": call.game_id, "seat": seat, "version": version},
        "answer": answer,
        "outcome": call.outcome,
        "strike": strike,
        "code": code,
        "refusal": refusal,
        "message": call.reason or REASONS.get(code, ""),
        "latency": call.latency,
    }


def calls_of(bot_id: int, *, before: int | None = None, limit: int = 50) -> list[dict[str, Any]]:
    """The bot's kept calls newest first, those older than call `before` if given."""
    found = BotCall.objects.filter(bot_id=bot_id).select_related("detail").order_by("-pk")
    if before is not None:
        found = found.filter(pk__lt=before)
    return [call_output(call) for call in found[:limit]]
