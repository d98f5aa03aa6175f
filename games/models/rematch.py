"""Rematch offers: after a match, the same table again (games/rematch.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models.store import Game


class Rematch(models.Model):
    """One offer per finished game: the people who accepted it (`RematchAnswer`), then the new
    game once every person at the table accepted, or its end when one declined."""

    class Status(models.TextChoices):
        OPEN = "open"
        STARTED = "started"
        DECLINED = "declined"

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="rematch"
    )
    offered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    new_game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"rematch of game {self.game_id} ({self.status})"


class RematchAnswer(models.Model):
    """A person's answer to a rematch offer (the offerer's is an accept)."""

    rematch = models.ForeignKey(Rematch, on_delete=models.CASCADE, related_name="answers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    accepted = models.BooleanField()
    answered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["rematch", "user"], name="rematch_answer_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {'accepted' if self.accepted else 'declined'}"
