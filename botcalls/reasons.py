"""The reason codes of a bot's calls (GET /api/me/bots/<id>/calls, the bot page's "Recent
calls"): stable kebab-case words a bot's author can act on, each with what it means.
docs/bots-api.md "Reason codes" lists the same set (a test keeps the two equal)."""

from __future__ import annotations

OK = "ok"
TIMEOUT = "timeout"
ERROR = "error"
WRONG_SEAT = "wrong-seat"
ILLEGAL_ANSWER = "illegal-answer"
REFUSED = "refused"

REASONS: dict[str, str] = {
    OK: "the answer was a legal command and was played",
    TIMEOUT: "no full answer within the limit (webhook), no command before the deadline (pull): "
    "the default bot moved",
    ERROR: "a webhook bot's answer was no answer: another HTTP status, a body that is not JSON "
    "or too long, a connection that failed",
    WRONG_SEAT: "a webhook bot's answer was not a command for the decision's seat",
    ILLEGAL_ANSWER: "a webhook bot's command was refused by the rules (`refusal` names why): "
    "the default bot moved",
    REFUSED: "a pull bot's command was refused by the rules (422, `refusal` names why): no "
    "strike, it may send another before the deadline",
}

# The code of a call recorded without one (a good answer, or a call before codes were kept),
# from its outcome (games.models.BotCall.Outcome).
BY_OUTCOME = {
    "ok": OK,
    "timeout": TIMEOUT,
    "error": ERROR,
    "illegal": ILLEGAL_ANSWER,
    "refused": REFUSED,
}
