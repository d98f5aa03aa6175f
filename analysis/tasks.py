"""The analysis' Celery tasks (docs/workers.md, "The analysis queue").

`run_analysis` goes to a queue of its own, `analysis` (CELERY_TASK_ROUTES): an analysis takes
seconds to minutes of CPU, and a worker of the default queue, which moves the games, must never
wait behind one. `sweep_analyses` is on the beat schedule: with a broker it sends again what a
lost task left queued, and puts back a run whose worker died; without one (`make run`, tasks
in-process) it is what runs the analyses, one a tick inside `run_periodic`, so that none runs
inside a web request.
"""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings

from analysis import services
from analysis.models import GameAnalysis


@shared_task(ignore_result=True)
def run_analysis(analysis_id: int) -> None:
    """Run one queued analysis (safe to run twice: a row taken by another run is left)."""
    services.run(analysis_id)


def in_process() -> bool:
    return bool(run_analysis.app.conf.task_always_eager)


def send(analysis_id: int) -> None:
    """Hand a queued analysis to the `analysis` workers; in-process nothing is sent (the sweep
    runs it under run_periodic, never in the request that queued it)."""
    if in_process():
        return
    services.mark_sent([analysis_id])
    run_analysis.delay(analysis_id)


def request(game_id: int, *, user_id: int | None) -> GameAnalysis:
    """Queue a finished game's analysis on request and send it (services.request's errors)."""
    row = services.request(game_id, user_id=user_id)
    send(row.pk)
    return row


@shared_task(ignore_result=True)
def sweep_analyses() -> None:
    if in_process():
        # One analysis a tick: the next tick runs the next, and the schedule's other entries
        # run between them.
        for analysis_id in services.waiting()[:1]:
            services.run(analysis_id)
        return
    resend = timedelta(seconds=settings.ANALYSIS_RESEND_SECONDS)
    services.stale_running(after=resend)
    for analysis_id in services.lost(after=resend):
        send(analysis_id)
