"""Celery tasks for games: thin, each loads ids and calls a service; each is safe to run twice.

The event log is the truth and a task is only a hint: a lost one is made good by the periodic
safety nets (CELERY_BEAT_SCHEDULE in config/settings.py; docs/workers.md).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings

from games import deadlines, projections, remote_bots, turns
from games.engine import MATCH_OVER
from games.models import Bot
from games.store import AppendResult

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def advance_game(game_id: int) -> None:
    turns.advance_game(game_id=game_id)


@shared_task(ignore_result=True)
def reconcile_games() -> None:
    """Re-drive every game a built-in bot should move that has not moved for a while."""
    idle = timedelta(seconds=settings.GAMES_RECONCILE_IDLE)
    for game_id in turns.stalled_games(idle=idle):
        advance_game.delay(game_id)


@shared_task(ignore_result=True)
def close_open_choices() -> None:
    turns.close_open_choices(timeout=timedelta(seconds=settings.GAMES_OPEN_CHOICE_TIMEOUT))


@shared_task(ignore_result=True)
def run_projections() -> None:
    """Catch every projection up with the log (each runner locks its own checkpoint)."""
    for name in projections.PROJECTIONS:
        projections.run(name)


@shared_task(ignore_result=True)
def expire_pull_turns() -> None:
    """Play the fallback (and give a strike) for every pull bot decision past its deadline."""
    remote_bots.expire_pull_turns()


@shared_task(ignore_result=True)
def validate_bot(bot_id: int, round_: int | None = None) -> None:
    """Play a built-in or webhook bot's validation round (remote_bots.open_round sends this);
    its status says how it went. A stale or decided round is left alone."""
    bot = Bot.objects.filter(pk=bot_id).first()
    if bot is not None:
        remote_bots.bot_validate(bot, round_)


@shared_task(ignore_result=True)
def settle_validation(bot_id: int, round_: int | None = None) -> None:
    """A game of a pull bot's validation round ended: decide the round if it is over."""
    remote_bots.settle_validation(bot_id, round_)


@shared_task(ignore_result=True)
def settle_validations() -> None:
    """Settle every validating bot's round: over makes it active, overdue makes it failed."""
    remote_bots.settle_validations()


@shared_task(ignore_result=True)
def finish_validation_games(bot_id: int, round_: int) -> None:
    """A validation round failed: play its unfinished games to the end with the fallback."""
    remote_bots.finish_validation_games(bot_id, round_)


@shared_task(ignore_result=True)
def expire_turns() -> None:
    """The overdue-turn sweep: start the clocks of turns the listener missed, then play the
    default bot's move, with a timeout, for every person's turn past its deadline."""
    deadlines.start_missed_turns()
    deadlines.expire_turns()


@shared_task(ignore_result=True)
def send_turn_email(notice_id: int) -> None:
    deadlines.send_turn_email(notice_id)


@shared_task(ignore_result=True)
def send_turn_digests() -> None:
    """The daily digest of waiting turns, for the users who prefer one."""
    deadlines.send_turn_digests()


def dispatch_after_append(result: AppendResult) -> None:
    """Store listener (on commit): hand the game to a worker when a bot it moves (built-in,
    webhook, suspended, auto-played) is to act next; start or stop people's turn clocks. One
    query decides both; most appends need nothing more."""
    rows = turns.seat_rows(result.game_id)
    if turns.worker_to_act(rows):
        advance_game.delay(result.game_id)
    if deadlines.clocks_to_change(rows):
        deadlines.sync_deadlines(result.game_id)
    if rows and rows[0].game__status == MATCH_OVER:
        context = rows[0].game__context or {}
        if context.get("kind") == remote_bots.VALIDATION and not context.get("inline"):
            settle_validation.delay(context["bot"], context.get("round"))
