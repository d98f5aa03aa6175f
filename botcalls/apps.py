"""What each call asked of a registered bot was and what became of it: the decision, the
bot's answer, and a stable reason code (botcalls/reasons.py), beside games.models.BotCall."""

from __future__ import annotations

from django.apps import AppConfig


class BotcallsConfig(AppConfig):
    name = "botcalls"
    default_auto_field = "django.db.models.BigAutoField"
