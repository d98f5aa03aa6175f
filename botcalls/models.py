"""A bot call's particulars, one row beside each failed call (games.models.BotCall), pruned
with it: the decision it was (seat, version), the bot's answer as it sent it (JSON), the reason
code (botcalls/reasons.py), the rules' code when they refused it, and whether it was a strike.
A good answer has none: its command is in the game's log."""

from __future__ import annotations

from django.db import models

from games.models import BotCall


class CallDetail(models.Model):
    call = models.OneToOneField(
        BotCall, on_delete=models.CASCADE, primary_key=True, related_name="detail"
    )
    code = models.CharField(max_length=32)
    seat = models.IntegerField(null=True, blank=True)
    version = models.IntegerField(null=True, blank=True)
    # What the bot answered, as it sent it (null when it sent nothing readable).
    answer = models.JSONField(null=True, blank=True)
    # The rules' or the service's code when they refused the answer (`card-not-in-hand`, ...).
    refusal = models.CharField(max_length=64, blank=True)
    strike = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"call {self.call_id}: {self.code}"
