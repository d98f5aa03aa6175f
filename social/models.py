"""The notification centre's rows: what happened for a person while they were away."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Notification(models.Model):
    """One thing for one person to see under the bell: its kind, a line of text, where it links
    to, and whether it was read. `key` makes a notice said once (the same key for the same
    person is not added twice), e.g. "turn:<game>:<version>"."""

    class Kind(models.TextChoices):
        TURN = "turn", "your turn"
        TABLE_STARTED = "table-started", "a table you sat at started"
        CHALLENGE = "challenge", "a challenge"
        REMATCH = "rematch", "a rematch offered"
        SEASON = "season", "a season or a fixture"
        CHAT = "chat", "a message at your table"
        REPORT = "report", "a report answered"
        FOLLOW = "follow", "someone you follow"
        OTHER = "other", "other"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    text = models.CharField(max_length=300)
    url = models.CharField(max_length=300, blank=True)
    key = models.CharField(max_length=120)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="notification_once")]
        indexes = [
            models.Index(fields=["user", "read_at", "-created_at"], name="notification_inbox")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}: {self.text}"
