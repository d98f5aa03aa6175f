"""The staff console's audit trail: an AuditEntry per action a staff member took
(staff/actions.py), and per look at a game's hidden cards (staff/inspections.py).

A game action is also an event in the game's stream, with the staff member as its actor; the
entry says the same from the console's side, so one list shows every action, whatever its
target. Entries are written in the transaction of the change they record, and never changed
afterwards, except a projection rebuild's progress (`details`), which its task writes as it runs.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AuditEntry(models.Model):
    class Action(models.TextChoices):
        REDRIVE = "re-drive"
        ABORT = "abort"
        FORFEIT = "forfeit"
        EXTEND_DEADLINE = "extend-deadline"
        SUSPEND_BOT = "suspend-bot"
        REINSTATE_BOT = "reinstate-bot"
        REBUILD_PROJECTION = "rebuild-projection"
        PAUSE_MATCHMAKING = "pause-matchmaking"
        RESUME_MATCHMAKING = "resume-matchmaking"
        # Not a change: a staff member read a game's hidden cards in the inspector
        # (staff/inspections.py), written as the page is read.
        INSPECT_HIDDEN = "inspect-hidden"

    # PROTECT: who did what outlives the account's deletion only if the account stays
    # (deactivate a staff member instead).
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="staff_actions"
    )
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=32, choices=Action.choices)
    # What it acted on, as "game:12", "bot:3", "competition:4" or "projection:game-summaries".
    target = models.CharField(max_length=100)
    reason = models.TextField()
    # What the action did (the event's version, the seat, the new deadline, the bot's status
    # before) or, for a rebuild, its progress (state, positions folded, positions to fold).
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["target", "-at"])]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.action} {self.target} by user {self.actor_id} at {self.at:%Y-%m-%d %H:%M}"
