"""Queue, run and refuse analyses of finished games (issue 35; docs/analysis.md).

Who may see an analysis is who may see the game's whole log (games/reveal.py `revealed`): its
options name cards a seat held, so a match still in play (`game-in-play`), a game of a deal group
whose other tables still play its cards (`deal-in-play`) and a game that never reveals its log
(`not-revealed`) are refused, and never analysed while so: a queued analysis waits in the queue
until its game reveals. Every finished match with a person seated is queued when it ends
(analysis/dispatch.py); any finished game, bots' included, on request.

The run is the pure core (analysis/evaluate.py `analyse_match`) over the game's log, from the
row's seed: reproducible. Progress is written at most every ANALYSIS_PROGRESS_SECONDS; a failure
is recorded with its reason and the row may be asked for again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from analysis import evaluate, report
from analysis.errors import AnalysisHidden, AnalysisRefused
from analysis.models import GameAnalysis
from engine import MATCH_OVER
from games import event_reads, reveal
from games.errors import GameNotFound
from games.game_settings import GameSettings
from games.models import Game, Seat

log = logging.getLogger(__name__)

Status = GameAnalysis.Status


def check_visible(game: Game) -> None:
    """Raise AnalysisHidden unless the game's whole log is public now."""
    if game.status != MATCH_OVER:
        raise AnalysisHidden(
            f"game {game.pk} is still in play: its analysis opens when the match is over",
            code="game-in-play",
        )
    found = GameSettings.of(game.context)
    if found.deal_group is not None and reveal.group_playing(found.deal_group, but=game.pk):
        raise AnalysisHidden(
            "the other tables of this game's round are still playing its cards: its analysis "
            "opens when they end",
            code="deal-in-play",
        )
    if not reveal.revealed(game):
        raise AnalysisHidden(
            f"game {game.pk} never shows every card (or its set is not over yet): it has no "
            "analysis anyone may see",
            code="not-revealed",
        )


def game_of(game_id: int) -> Game:
    found = Game.objects.filter(pk=game_id).first()
    if found is None:
        raise GameNotFound(game_id)
    return found


def _seed(game: Game) -> int:
    # Reproducible from the game alone: the same game analysed again gives the same figures.
    return int(game.pk)


def current(row: GameAnalysis) -> bool:
    """Whether a row still stands: not failed, and done in the report's current shape."""
    if row.status == Status.FAILED:
        return False
    return row.status != Status.DONE or row.report_version == report.REPORT_VERSION


def request(game_id: int, *, user_id: int | None) -> GameAnalysis:
    """Queue an analysis of a finished game on someone's request. GameNotFound, AnalysisHidden
    (the viewer may not see the whole log), AnalysisRefused `analysis-exists` when one is
    queued, running or done (a failed one, or one of an older report's shape, is queued again)."""
    game = game_of(game_id)
    check_visible(game)
    with transaction.atomic():
        row = GameAnalysis.objects.select_for_update().filter(game=game).first()
        if row is not None and current(row):
            raise AnalysisRefused(
                f"game {game.pk} has an analysis already ({row.status}): read it with GET",
                code="analysis-exists",
            )
        if row is None:
            row = GameAnalysis(game=game, seed=_seed(game), playouts=settings.ANALYSIS_PLAYOUTS)
        _reset(row, user_id)
        row.save()
    return row


def _reset(row: GameAnalysis, user_id: int | None) -> None:
    row.status = Status.QUEUED
    row.done = row.total = 0
    row.result = None
    row.reason = ""
    row.cpu_seconds = 0.0
    row.report_version = 0
    row.requested_by_id = user_id
    row.requested_at = timezone.now()
    row.started_at = row.finished_at = row.sent_at = None
    row.playouts = settings.ANALYSIS_PLAYOUTS


def has_person(game_id: int) -> bool:
    return Seat.objects.filter(game_id=game_id, user__isnull=False).exists()


def queue_after_match(game_id: int) -> GameAnalysis | None:
    """The match-end hook's work: queue the game's analysis if its match is over, a person sat
    at it and its log will be public (a game that never reveals is not analysed: nobody could
    see it). None when nothing was queued (already there, or not such a game). A game of a deal
    group is queued now and waits in the queue until its group's last table ends."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != MATCH_OVER or game.reveal != Game.Reveal.AFTER_MATCH:
        return None
    if not has_person(game_id):
        return None
    row, created = GameAnalysis.objects.get_or_create(
        game=game, defaults={"seed": _seed(game), "playouts": settings.ANALYSIS_PLAYOUTS}
    )
    return row if created else None


def waiting() -> list[int]:
    """The queued analyses whose game reveals now, oldest first (what a sweep may run)."""
    rows = GameAnalysis.objects.filter(status=Status.QUEUED).select_related("game")
    return [row.pk for row in rows.order_by("requested_at", "pk") if reveal.revealed(row.game)]


def lost(*, after: timedelta) -> list[int]:
    """Queued analyses a worker was sent longer ago than `after` (or never) and whose game
    reveals: their task was lost (a worker died, a broker restarted)."""
    cutoff = timezone.now() - after
    rows = GameAnalysis.objects.filter(status=Status.QUEUED).filter(
        Q(sent_at__isnull=True) | Q(sent_at__lt=cutoff)
    )
    return [row.pk for row in rows.select_related("game") if reveal.revealed(row.game)]


def mark_sent(analysis_ids: list[int]) -> None:
    GameAnalysis.objects.filter(pk__in=analysis_ids).update(sent_at=timezone.now())


def stale_running(*, after: timedelta) -> int:
    """Running analyses whose worker has said nothing for `after` go back to the queue (their
    worker died mid-run); how many."""
    cutoff = timezone.now() - after
    return GameAnalysis.objects.filter(status=Status.RUNNING, sent_at__lt=cutoff).update(
        status=Status.QUEUED, sent_at=None
    )


def _claim(analysis_id: int) -> GameAnalysis | None:
    """Take a queued row for this run (one runner only), if its game reveals now."""
    with transaction.atomic():
        row = (
            GameAnalysis.objects.select_for_update(skip_locked=True)
            .select_related("game")
            .filter(pk=analysis_id, status=Status.QUEUED)
            .first()
        )
        if row is None:
            return None
        if not reveal.revealed(row.game):
            # Left queued, marked unsent: the sweep sends it as soon as the game reveals (the
            # last table of its deal group ends), not ANALYSIS_RESEND_SECONDS later.
            if row.sent_at is not None:
                row.sent_at = None
                row.save(update_fields=["sent_at"])
            return None
        row.status = Status.RUNNING
        row.started_at = row.sent_at = timezone.now()
        row.done = row.total = 0
        row.save(update_fields=["status", "started_at", "sent_at", "done", "total"])
    return row


def _progress(row: GameAnalysis) -> Callable[[int, int], None]:
    """The core's progress callback: the row's done/total written at most every
    ANALYSIS_PROGRESS_SECONDS (and `sent_at`, the run's heartbeat), the first call at once."""
    last = [float("-inf")]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] < settings.ANALYSIS_PROGRESS_SECONDS and done < total:
            return
        last[0] = now
        GameAnalysis.objects.filter(pk=row.pk, status=Status.RUNNING).update(
            done=done, total=total, sent_at=timezone.now()
        )

    return progress


def run(analysis_id: int) -> GameAnalysis | None:
    """Run a queued analysis to its end: done with its result, or failed with the reason. None
    when there was nothing to run (another runner has it, it is done, or its game does not
    reveal yet: it stays queued)."""
    row = _claim(analysis_id)
    if row is None:
        return None
    started = time.process_time()
    try:
        events = event_reads.load(row.game_id)
        result = evaluate.analyse_match(
            dict(row.game.variant),
            list(events),
            seed=row.seed,
            playouts=row.playouts,
            progress=_progress(row),
        )
        data = report.to_json(result)
    except Exception as error:
        log.exception("analysis of game %s failed", row.game_id)
        row.status = Status.FAILED
        row.reason = f"{type(error).__name__}: {error}"[:2000]
        row.cpu_seconds = time.process_time() - started
        row.finished_at = timezone.now()
        row.save(update_fields=["status", "reason", "cpu_seconds", "finished_at"])
        return row
    row.status = Status.DONE
    row.result = data
    row.report_version = result.version
    row.done = row.total = len(result.decisions)
    row.cpu_seconds = result.cpu_seconds or time.process_time() - started
    row.finished_at = timezone.now()
    row.reason = ""
    row.save(
        update_fields=[
            "status",
            "result",
            "report_version",
            "done",
            "total",
            "cpu_seconds",
            "finished_at",
            "reason",
        ]
    )
    return row
