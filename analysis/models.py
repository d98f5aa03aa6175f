"""A finished game's analysis (issue 35; docs/analysis.md): one row per game, queued when a match
with a person seated ends (analysis/dispatch.py) or on request, run by a worker on the `analysis`
queue (analysis/tasks.py), its result the pure core's `MatchAnalysis` as JSON
(analysis/report.py `to_json`)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class GameAnalysis(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    # Decisions evaluated so far of `total` (0 of 0 until the run counts them).
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    seed = models.BigIntegerField()
    playouts = models.PositiveIntegerField()
    # analysis.report.to_json of the finished analysis; None until done.
    result = models.JSONField(null=True, blank=True)
    report_version = models.PositiveSmallIntegerField(default=0)
    cpu_seconds = models.FloatField(default=0.0)
    # Why it failed, in words (the exception's class and message), for a failed run.
    reason = models.TextField(blank=True, default="")
    # Who asked (None: queued by the match's end).
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When a worker was last sent this row (the beat sweep sends a queued row again after a while).
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["requested_at"],
                condition=models.Q(status="queued"),
                name="analysis_queued",
            )
        ]

    def __str__(self) -> str:
        return f"analysis of game {self.game_id} ({self.status}, {self.done}/{self.total})"
