"""Webhook bots' turns: ask the bot over HTTP for one decision and append it, or the fallback.

One decision per call and one append per decision (bots/turns.py calls this when a webhook
bot is to act and no built-in seat is). The call has one deadline for the whole exchange (the
game's `bot_timeout`; bots/remote/webhook.py). A timeout, an error or an answer the service
refuses (a malformed or illegal command, a command for another seat) gets the default bot's
move, with a `fallback-played` event saying why, and a strike; the strike counts only when that
fallback was appended at the version the bot was asked at (a game that moved on meanwhile, or a
fallback another run made first, leaves the failed call counted but no strike). When the
fallback has no move to make (a pass in a newno open choice) nothing is appended and the game
stays at that version: the strike then counts only if the run, still holding the game's lease,
is the first to record the seat struck at that version on the lease (leases.Lease.mark_struck),
and later runs at that version do not ask the seat again (bots/turns.py); so a bot is struck at
most once for one decision. The run renews the game's lease just before the request goes out
and asks nothing if it is gone (leases.LeaseLost). `submit_answer` appends an answer; windows.py
appends a window's answers through it too (a refusal there is no strike).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from botcalls import reasons
from bots.remote import webhook
from bots.remote.leases import Lease
from bots.remote.strikes import FALLBACK_REASON, ILLEGAL, Detail, as_json, record_call
from clocks.fallback import bot_failure, play_fallback
from engine import State, Variant
from games.commands import game_command
from games.errors import Conflict, Forbidden, IllegalMove
from games.game_settings import GameSettings
from games.models import Bot, Game

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Turn:
    """What one remote decision did: the version after it, and the strike's reason if any."""

    version: int
    commands: int
    strike: str = ""
    conflict: bool = False


def request_body(
    *,
    game_id: int,
    variant: Mapping[str, Any],
    seat: int,
    version: int,
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    deadline: datetime,
    optional: bool = False,
) -> dict[str, Any]:
    """The JSON a webhook bot is POSTed for one decision (its schema: api/decision_schemas.py,
    `webhook-request`); an out-of-turn window's (bots/remote/windows.py) says `"optional": true`."""
    body = {
        "game": game_id,
        "variant": variant,
        "seat": seat,
        "version": version,
        "view": view,
        "legal": legal,
        "deadline": deadline.isoformat(timespec="microseconds"),
    }
    if optional:
        body["optional"] = True
    return body


def webhook_turn(
    *,
    game: Game,
    variant: Variant,
    state: State,
    version: int,
    seat: int,
    bot: Bot,
    lease: Lease | None = None,
) -> Turn:
    """Ask a webhook bot for the decision of `seat` and append it (or the fallback) alone. Under
    `lease` (every run of a game with webhook seats has one), renewed just before the request:
    leases.LeaseLost, with nothing asked, when it is gone."""
    view = variant.view(state, seat)
    legal = variant.legal_commands(state, seat)
    timeout = GameSettings.of(game.context).webhook_limit
    deadline = timezone.now() + timedelta(seconds=timeout)
    payload = request_body(
        game_id=game.pk,
        variant=game.variant,
        seat=seat,
        version=version,
        view=view,
        legal=legal,
        deadline=deadline,
    )
    renew = lease.renew if lease is not None else None
    answer = webhook.ask(
        url=bot.url, secret=bot.secret, payload=payload, timeout=timeout, before_send=renew
    )
    outcome, reason = answer.outcome, f"{answer.outcome}: {answer.detail}"
    detail = Detail(reasons.TIMEOUT if outcome == webhook.TIMEOUT else reasons.ERROR, seat, version)
    if outcome == webhook.OK:
        submitted = submit_answer(
            game=game,
            seat=seat,
            bot=bot,
            command=answer.command,
            version=version,
            command_id=f"webhook:{version}",
        )
        if submitted.refused is None:
            record_call(bot.pk, outcome=webhook.OK, latency=answer.latency, game_id=game.pk)
            return Turn(submitted.version, submitted.commands, conflict=submitted.conflict)
        outcome = ILLEGAL
        refusal = submitted.refused.code
        code = reasons.WRONG_SEAT if refusal == reasons.WRONG_SEAT else reasons.ILLEGAL_ANSWER
        detail = Detail(code, seat, version, answer.command, refusal)
        reason = (
            f"illegal answer {as_json(answer.command)} at version {version}: {submitted.refused}"
        )
    try:
        fallback = play_fallback(
            game_id=game.pk,
            seat=seat,
            version=version,
            policy=bot_failure(FALLBACK_REASON[outcome]),
        )
    except Conflict as conflict:
        # The game moved on while the bot was asked (a seat resigned, a person caught someone):
        # the question went stale and nobody played for the bot. The call counts, no strike.
        _failed(bot, game, seat, outcome, answer.latency, reason, detail, strike=False)
        return Turn(conflict.current_version, 0, conflict=True)
    if fallback is not None and fallback.repeated:
        # Another run made this fallback (and counted its strike) first.
        _failed(bot, game, seat, outcome, answer.latency, reason, detail, strike=False)
        return Turn(fallback.version, 0)
    if fallback is None:
        # No move to make (a pass in an open choice): nothing appended, the game still at this
        # version. The strike counts once: for the run that first records the seat struck here.
        counted = lease.mark_struck(version, seat) if lease is not None else True
        _failed(bot, game, seat, outcome, answer.latency, reason, detail, strike=counted)
        return Turn(version, 0, strike=reason if counted else "")
    # The fallback's move was appended at the version the bot was asked at: the strike counts.
    _failed(bot, game, seat, outcome, answer.latency, reason, detail, strike=True)
    return Turn(fallback.version, fallback.commands, strike=reason)


def _failed(
    bot: Bot,
    game: Game,
    seat: int,
    outcome: str,
    latency: float,
    reason: str,
    detail: Detail,
    *,
    strike: bool,
) -> None:
    if strike:
        log.info("bot %s, game %s seat %s: strike (%s)", bot.pk, game.pk, seat, reason)
    else:
        reason = f"{reason} (the game moved on: no strike)"
        log.info("bot %s, game %s seat %s: %s", bot.pk, game.pk, seat, reason)
    record_call(
        bot.pk,
        outcome=outcome,
        latency=latency,
        reason=reason,
        game_id=game.pk,
        strike=strike,
        detail=detail,
    )


@dataclass(frozen=True, slots=True)
class Submitted:
    """What appending a webhook bot's answer did: the version after it and the commands appended
    (0 for a repeated command id), or that another append came first (`conflict`, at the game's
    version now), or the service's refusal (`refused`: nothing appended)."""

    version: int
    commands: int = 0
    conflict: bool = False
    refused: IllegalMove | Forbidden | None = None


def submit_answer(
    *, game: Game, seat: int, bot: Bot, command: object, version: int, command_id: str
) -> Submitted:
    """Append a webhook bot's answer for `seat` (in turn here, out of turn from windows.py) as
    the bot, expecting `version`. The callers decide what a refusal costs: a strike and the
    fallback in turn, nothing in a window."""
    try:
        if not isinstance(command, dict) or command.get("seat") != seat:
            raise IllegalMove(f"the answer is no command for seat {seat}", code="wrong-seat")
        result = game_command(
            game_id=game.pk,
            actor=bot,
            command=command,
            expected_version=version,
            command_id=command_id,
        )
    except (IllegalMove, Forbidden) as error:
        return Submitted(version, refused=error)
    except Conflict as conflict:
        return Submitted(conflict.current_version, conflict=True)
    return Submitted(result.version, 0 if result.repeated else 1)
