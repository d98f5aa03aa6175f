"""Celery tasks for games: thin, each loads ids and calls a service; each is safe to run twice.

The event log is the truth and a task is only a hint: a lost one is made good by the periodic
safety nets (CELERY_BEAT_SCHEDULE in config/settings.py; docs/workers.md). Tasks are sent by
the dispatcher (games/dispatch.py, which holds the one task it runs itself, `dispatch_append`)
and by the sweeps below, never by the domain modules.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from functools import partial

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from bots import turns
from bots.remote import leases, validation
from clocks import deadlines, overdue
from games import archive, export, projections, rebuilds
from games.models import Bot, Game, RebuildRun
from social import summaries

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def advance_game(game_id: int, windows_over: int | None = None) -> None:
    advance = turns.advance_game(game_id=game_id, windows_over=windows_over)
    if advance.hold:
        # The game holds for an out-of-turn window (a pull bot's, or a person's grace,
        # Game.grace_until): advance again when it closes, past the windows of that version.
        # In-process (no broker) a countdown is not kept (the task would run next, queued:
        # config/celery.py), so nothing is sent: the play page's poll or the end_graces sweep
        # (run_periodic) ends the grace.
        if not advance_game.app.conf.task_always_eager:
            advance_game.apply_async((game_id, advance.version), countdown=advance.hold)
    elif advance.again:
        # A run was refused while this one held the game's lease (bots/remote/leases.py): its
        # work is this run's to send again.
        advance_game.delay(game_id)


@shared_task(ignore_result=True)
def reconcile_games() -> None:
    """Re-drive every game a worker should move that has not moved for a while, and at once every
    game whose lease is free with a note on it (bots/remote/leases.py: a run was refused and the
    holder failed before it sent the game again)."""
    idle = timedelta(seconds=settings.GAMES_RECONCILE_IDLE)
    for game_id in sorted({*turns.stalled_games(idle=idle), *leases.take_notes()}):
        advance_game.delay(game_id)


@shared_task(ignore_result=True)
def end_graces() -> None:
    """Advance every game whose grace for a person's out-of-turn chance is over (a lost
    countdown; without a broker, the way a grace ends when no page polls)."""
    for game_id, version in turns.ended_graces():
        advance_game.delay(game_id, version)


def end_grace(game_id: int, version: int) -> None:
    """The play page's poll found the game's grace over: advance it once (turns.end_grace
    lets one caller through)."""
    if turns.end_grace(game_id, version):
        advance_game.delay(game_id, version)


def end_grace_if_over(game: Game) -> bool:
    """A reader of the game (GET /api/games/<id>, a script's poll) ends its grace once it is
    over, as the play page's poll does, so a person playing from a script is not held up until
    the next sweep (without a broker or beat: for ever). `game` is the row the reader read (its
    grace fields, no query of their own); True when a grace ended here, and so the game may have
    moved since that read (in-process, without a broker, its advance ran already)."""
    over = game.grace_until is not None and game.grace_until <= timezone.now()
    if not over or game.grace_version != game.version:
        return False
    end_grace(game.pk, game.version)
    return True


@shared_task(ignore_result=True)
def close_open_choices() -> None:
    turns.close_open_choices(timeout=timedelta(seconds=settings.GAMES_OPEN_CHOICE_TIMEOUT))


@shared_task(ignore_result=True)
def run_projections() -> None:
    """Catch every projection up with the log (each runner locks its own checkpoint; one read of
    each batch of the log for them all, projections.run_all). In-process a copy sent while
    another is queued is not queued again (config/celery.py, `coalesce`)."""
    projections.run_all()


# An option of the project's task class that celery-types does not know.
run_projections.coalesce = True  # type: ignore[attr-defined]


@shared_task(ignore_result=True)
def archive_games() -> None:
    """Archive the finished games past GAMES_ARCHIVE_AFTER_DAYS (games/archive.py)."""
    archive.archive_games()


@shared_task(ignore_result=True)
def rebuild_run(run_id: int) -> None:
    """Fold the pending partitions of a rebuild run, each claimed in turn (games/rebuilds.py
    `fold_run`): a copy is sent per partition and each worker process takes whichever is
    free, so no worker sits idle behind another's prefetched tasks. Safe to run twice: a
    partition goes on from its checkpoint, and a done one is skipped."""
    rebuilds.fold_run(run_id)


def start_rebuild(
    names: list[str] | None = None, *, partitions: int = rebuilds.PARTITIONS
) -> RebuildRun:
    """Start a rebuild run of `names` (every projection by default) and send its partitions,
    once it has committed: to the workers with a broker; without one each runs here, in turn,
    before this returns."""
    run = rebuilds.start(names, partitions=partitions)
    _send_partitions_on_commit(run.pk)
    return run


def resume_rebuild(run_id: int | None = None) -> RebuildRun:
    """Resume a rebuild run (the latest not done, by default): its pending partitions are sent
    again, each from its checkpoint. rebuilds.NoRebuild if there is none."""
    run = rebuilds.resume(run_id)
    _send_partitions_on_commit(run.pk)
    return run


def _send_partitions_on_commit(run_id: int) -> None:
    """To the workers once the run's rows have committed; in-process (no broker) at once, in
    this transaction, which sees them."""
    if rebuild_run.app.conf.task_always_eager:
        _send_partitions(run_id)
    else:
        transaction.on_commit(partial(_send_partitions, run_id))


def _send_partitions(run_id: int) -> None:
    for _ in rebuilds.pending(run_id):
        rebuild_run.delay(run_id)


@shared_task(ignore_result=True)
def export_games() -> None:
    """The open database: write last month's files under EXPORTS_DIR (games/export.py)."""
    export.export_month(export.previous_month(timezone.now().date()))


@shared_task(ignore_result=True)
def validate_bot(bot_id: int, round_: int | None = None) -> None:
    """Play a built-in or webhook bot's validation round (sent when the round opens); its status
    says how it went. A stale or decided round is left alone."""
    bot = Bot.objects.filter(pk=bot_id).first()
    if bot is not None:
        validation.bot_validate(bot, round_)


@shared_task(ignore_result=True)
def settle_validation(bot_id: int, round_: int | None = None) -> None:
    """A game of a pull bot's validation round ended: decide the round if it is over."""
    validation.settle_validation(bot_id, round_)


@shared_task(ignore_result=True)
def settle_validations() -> None:
    """Settle every validating bot's round (over: active; overdue: failed), and send again the
    rounds whose task was lost."""
    validation.settle_validations()
    idle = timedelta(seconds=settings.BOTS_VALIDATION_RESEND)
    for bot_id, round_ in validation.stalled_rounds(idle=idle):
        log.info("validation round %s of bot %s stalled: sent again", round_, bot_id)
        validate_bot.delay(bot_id, round_)


@shared_task(ignore_result=True)
def finish_validation_games(bot_id: int, round_: int) -> None:
    """A validation round failed: play its unfinished games to the end with the fallback."""
    validation.finish_validation_games(bot_id, round_)


@shared_task(ignore_result=True)
def expire_turns() -> None:
    """The overdue-turn sweep: start the clocks of turns the dispatcher missed, play the default
    bot for every person's turn and pull bot's decision past its deadline, send the turn
    emails whose task was lost, and the one email of an absence for the turns that started
    while their person was at the game or on the site and wait for them now that they left
    (one email per person, naming their games)."""
    deadlines.start_missed_turns()
    overdue.expire()
    for notice_id in deadlines.unsent_notices(
        older_than=timedelta(seconds=settings.GAMES_NOTICE_RESEND)
    ):
        send_turn_email.delay(notice_id)
    for notice_ids in deadlines.left_waiting():
        send_turn_emails.delay(notice_ids)


@shared_task(ignore_result=True)
def send_turn_email(notice_id: int) -> None:
    deadlines.send_turn_email(notice_id)


@shared_task(ignore_result=True)
def send_turn_emails(notice_ids: list[int]) -> None:
    """One email to one person naming the turns that wait for them."""
    deadlines.send_turn_emails(notice_ids)


@shared_task(ignore_result=True)
def send_turn_digests() -> None:
    """The daily digest of waiting turns, for the users who prefer one."""
    deadlines.send_turn_digests()


@shared_task(ignore_result=True)
def send_notice_summaries() -> None:
    """What waits under the bell of the people away (social/summaries.py)."""
    summaries.send_summaries()
