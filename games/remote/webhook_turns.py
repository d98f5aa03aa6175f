"""Webhook bots' turns: ask the bot over HTTP for one decision and append it, or the fallback.

One decision per call and one append per decision (games/turns.py calls this when a webhook
bot is to act and no built-in seat is). The call has one deadline for the whole exchange (the
game's `bot_timeout`; games/bots/webhook.py). A timeout, an error or an answer the service
refuses (a malformed or illegal command, a command for another seat) gets the default bot's
move, with a `fallback-played` event saying why, and a strike.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone

from games import services
from games.bots import webhook
from games.engine import State, Variant
from games.errors import Conflict, Forbidden, IllegalMove
from games.fallback import bot_failure, play_fallback
from games.game_settings import GameSettings
from games.models import Bot, Game

from .strikes import FALLBACK_REASON, ILLEGAL, record_call

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Turn:
    """What one remote decision did: the version after it, and the strike's reason if any."""

    version: int
    commands: int
    strike: str = ""
    conflict: bool = False


def webhook_turn(
    *, game: Game, variant: Variant, state: State, version: int, seat: int, bot: Bot
) -> Turn:
    """Ask a webhook bot for the decision of `seat` and append it (or the fallback) alone."""
    view = variant.view(state, seat)
    legal = variant.legal_commands(state, seat)
    timeout = GameSettings.of(game.context).webhook_limit
    payload = {
        "game": game.pk,
        "seat": seat,
        "version": version,
        "view": view,
        "legal": legal,
        "deadline": (timezone.now() + timedelta(seconds=timeout)).isoformat(),
    }
    answer = webhook.ask(url=bot.url, secret=bot.secret, payload=payload, timeout=timeout)
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
                command_id=f"webhook:{version}",
            )
        except (IllegalMove, Forbidden) as error:
            outcome, reason = ILLEGAL, f"illegal answer {command!r} at version {version}: {error}"
        except Conflict as conflict:
            record_call(bot.pk, outcome=webhook.OK, latency=answer.latency, game_id=game.pk)
            return Turn(conflict.current_version, 0, conflict=True)
        else:
            record_call(bot.pk, outcome=webhook.OK, latency=answer.latency, game_id=game.pk)
            return Turn(result.version, 0 if result.repeated else 1)
    log.info("bot %s, game %s seat %s: strike (%s)", bot.pk, game.pk, seat, reason)
    record_call(bot.pk, outcome=outcome, latency=answer.latency, reason=reason, game_id=game.pk)
    try:
        fallback = play_fallback(
            game_id=game.pk,
            seat=seat,
            version=version,
            policy=bot_failure(FALLBACK_REASON[outcome]),
        )
    except Conflict as conflict:
        return Turn(conflict.current_version, 0, strike=reason, conflict=True)
    if fallback is None:
        return Turn(version, 0, strike=reason)
    return Turn(fallback.version, 0 if fallback.repeated else fallback.commands, strike=reason)
