"""Registered bots (kind, status, strikes, call figures; docs/workers.md) and their last calls."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


def person_or_bot(within: str, *, user_unique: str, bot_unique: str, check: str) -> list[Any]:
    """The constraints of a row that stands for a person or a registered bot `within` a parent
    (an entry of a competition or a tournament, a club's record): exactly one of `user` and
    `bot` set, and each at most once in its parent. NULLs are distinct, so the user pair binds
    people's rows and the bot pair bots'."""
    return [
        models.UniqueConstraint(fields=[within, "user"], name=user_unique),
        models.UniqueConstraint(fields=[within, "bot"], name=bot_unique),
        models.CheckConstraint(
            condition=models.Q(user__isnull=False, bot__isnull=True)
            | models.Q(user__isnull=True, bot__isnull=False),
            name=check,
        ),
    ]


class Bot(models.Model):
    """A registered bot: built in (a strategy), webhook (we POST to its URL) or pull (it polls
    the API with its token). docs/workers.md describes the protocols and the strike rules."""

    class Kind(models.TextChoices):
        BUILTIN = "builtin"
        WEBHOOK = "webhook"
        PULL = "pull"

    class Status(models.TextChoices):
        # Playing its validation matches; not yet allowed on a ladder.
        VALIDATING = "validating"
        ACTIVE = "active"
        # Too many strikes in a row: its seats are played by the fallback bot, uncalled.
        SUSPENDED = "suspended"
        # Its validation matches had an illegal answer, a timeout or an error.
        FAILED = "failed"
        # Retired by its owner (bots/registry.py bot_retire): it plays nothing new, for good;
        # its games, ratings and standings stay, under its name.
        RETIRED = "retired"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots"
    )
    name = models.CharField(max_length=64)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    # Kind builtin: the strategy name (bots.strategies.STRATEGIES).
    strategy = models.CharField(max_length=64, blank=True)
    # Kind webhook: where moves are asked for, and the HMAC key their bodies are signed with.
    url = models.URLField(blank=True)
    secret = models.CharField(max_length=128, blank=True)
    # Kind pull: SHA-256 of the API token (the token itself is shown once, never stored).
    token_hash = models.CharField(max_length=64, blank=True, db_index=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.VALIDATING)
    status_reason = models.TextField(
        blank=True, help_text="Why the bot has its status, for its owner."
    )
    # Suspended by the staff (staff.actions.bot_suspend), not by its strikes: only the staff lift
    # it (staff.actions.bot_reinstate); its owner's re-validation and changes do not.
    suspended_by_staff = models.BooleanField(default=False)
    # Each validation is a round: its games carry {"kind": "validation", "bot": id, "round": n}.
    validation_round = models.PositiveIntegerField(default=0)
    validation_started_at = models.DateTimeField(null=True, blank=True)
    # Strikes in a row (a timeout, an error or an illegal answer); a good answer resets them.
    strikes = models.PositiveIntegerField(default=0)
    # When its owner retired it (status `retired`); None for a bot still in service.
    retired_at = models.DateTimeField(null=True, blank=True)
    # Call statistics: every decision asked of the bot.
    calls = models.PositiveIntegerField(default=0)
    total_latency = models.FloatField(default=0.0, help_text="Seconds, summed over calls.")
    timeouts = models.PositiveIntegerField(default=0)
    errors = models.PositiveIntegerField(default=0)
    illegal_answers = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="bot_name_unique_per_owner")
        ]

    def __str__(self) -> str:
        return f"bot {self.name} ({self.kind}, {self.status})"

    @property
    def mean_latency(self) -> float | None:
        return self.total_latency / self.calls if self.calls else None


class BotCall(models.Model):
    """One decision asked of a registered bot: its outcome and latency, for its owner's page.

    Telemetry, not history: the log holds what the bot did (its commands, the fallback moves
    with their reasons); this keeps the last CALLS_KEPT calls of each bot
    (bots/remote/strikes.py)."""

    class Outcome(models.TextChoices):
        OK = "ok"
        TIMEOUT = "timeout"
        ERROR = "error"
        ILLEGAL = "illegal"
        # A pull bot's command the rules refused: no strike, it may try again.
        REFUSED = "refused"

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="recent_calls")
    game_id = models.BigIntegerField(null=True, blank=True)
    at = models.DateTimeField()
    outcome = models.CharField(max_length=8, choices=Outcome.choices)
    latency = models.FloatField(help_text="Seconds.")
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-pk"]
        indexes = [models.Index(fields=["bot", "-id"])]

    def __str__(self) -> str:
        return f"{self.bot_id} {self.outcome} in {self.latency:.3f} s"
