"""People's turn notices: who wants turn emails, and each notice sent or to be sent."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models.store import Seat


class NotificationPreference(models.Model):
    """How a person hears that it is their turn (clocks/deadlines.py); no row: one email each."""

    class TurnEmails(models.TextChoices):
        EACH = "each", "an email when each turn starts"
        DIGEST = "digest", "one daily digest"
        NONE = "none", "no email"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preference"
    )
    turn_emails = models.CharField(
        max_length=8, choices=TurnEmails.choices, default=TurnEmails.EACH
    )

    def __str__(self) -> str:
        return f"{self.user_id}: {self.turn_emails}"


class TurnNotice(models.Model):
    """A turn that started for a person: emailed at once (sent_at set), or kept for the digest."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="notices")
    # The turn's deadline when it started; with the seat, what makes a notice unique.
    deadline_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["seat", "deadline_at"], name="turn_notice_unique")
        ]

    def __str__(self) -> str:
        return f"notice for {self.seat} due {self.deadline_at}"
