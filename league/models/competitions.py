"""Competitions: a league or a ladder (Competition, with the settings its games get) and its
entrants (Entry), from which everything else of the league app hangs; and PlayerFamilyRecord, a
person's record per rule family over every kind of match. league/services.py writes these rows,
the projections the read model (docs/league.md).
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from engine import Variant
from games.models import Bot
from games.models.bots import person_or_bot

# A webhook decision holds a worker for the whole wait (bots/remote/webhook_turns.py).
MAX_BOT_TIMEOUT = 30.0
# A grace for people's out-of-turn chances holds the whole table (bots/turns.py).
MAX_GRACE_SECONDS = 30.0


# Defaults read when a competition is made (callables, so migrations do not freeze them): a
# competition keeps the site's value of that day, and its games keep the competition's.
def default_turn_seconds() -> int:
    return settings.GAMES_TURN_SECONDS


def default_bot_timeout() -> float:
    return settings.BOTS_WEBHOOK_TIMEOUT


def default_pull_timeout() -> float:
    return settings.BOTS_PULL_TIMEOUT


def default_grace_seconds() -> float:
    return settings.GAMES_GRACE_SECONDS


def validate_seconds(value: float) -> None:
    # MinValueValidator lets NaN through (every comparison with NaN is false).
    if not math.isfinite(value) or value <= 0:
        raise ValidationError("must be a positive number of seconds", code="invalid-setting")


class Competition(models.Model):
    """A league or a ladder: its rules, table size and the time limits its games are made with.

    The settings are copied into the context of every game the competition creates
    (services.competition_game), so changing them never changes a game already running.
    """

    class Kind(models.TextChoices):
        LEAGUE = "league"
        # Entrants are paired by matchmaking (services.ladder_matchmaking), bots once validated.
        LADDER = "ladder"

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=64, unique=True)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    variant = models.JSONField(help_text="The normalised variant spec (Variant.spec).")
    seats_per_game = models.PositiveSmallIntegerField(
        default=4, validators=[MinValueValidator(2), MaxValueValidator(10)]
    )
    turn_seconds = models.PositiveIntegerField(
        default=default_turn_seconds,
        validators=[MinValueValidator(1)],
        help_text="Seconds a person has for a turn.",
    )
    bot_timeout = models.FloatField(
        default=default_bot_timeout,
        validators=[validate_seconds, MaxValueValidator(MAX_BOT_TIMEOUT)],
        help_text="Seconds a webhook bot has to answer.",
    )
    pull_timeout = models.FloatField(
        default=default_pull_timeout,
        validators=[validate_seconds],
        help_text="Seconds a pull bot has for a decision.",
    )
    vacation_days = models.PositiveSmallIntegerField(
        default=0, help_text="Vacation days each seat may take in each game."
    )
    grace_seconds = models.FloatField(
        default=default_grace_seconds,
        validators=[MinValueValidator(0), MaxValueValidator(MAX_GRACE_SECONDS)],
        help_text="Seconds bots wait while a person at the table has an out-of-turn chance "
        "(a jump-in, the newno open start, a catch, an uno call); 0: no wait.",
    )
    matchmaking = models.BooleanField(
        default=False, help_text="Ladders only: the beat task seats idle entrants in new games."
    )
    duplicate = models.BooleanField(
        default=True,
        help_text="Ladders only: each deal is played once per seat rotation (a table of k plays "
        "k games with the same cards), and the k games are one rating event (docs/ladders.md).",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="competitions_created",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(seats_per_game__gte=2, seats_per_game__lte=10),
                name="competition_seats_per_game_range",
            ),
            models.CheckConstraint(
                condition=models.Q(turn_seconds__gte=1, bot_timeout__gt=0, pull_timeout__gt=0),
                name="competition_time_limits_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(matchmaking=False) | models.Q(kind="ladder"),
                name="competition_matchmaking_ladders_only",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.kind})"

    def clean(self) -> None:
        """Check the variant and the table size against the rules; normalise the variant."""
        try:
            variant = Variant.from_spec(self.variant)
        except ValueError as error:
            raise ValidationError({"variant": str(error)}, code="invalid-variant") from error
        self.variant = variant.spec
        errors = {}
        if isinstance(self.seats_per_game, int):
            # The engine knows each family's table sizes (censorship needs 3) and whether the
            # hands fit the deck; a deal it refuses here, it would refuse for every game.
            try:
                variant.start(self.seats_per_game, seed=0)
            except ValueError as error:
                errors["seats_per_game"] = str(error)
        if self.matchmaking and self.kind != self.Kind.LADDER:
            errors["matchmaking"] = "only a ladder pairs its entrants by matchmaking"
        if errors:
            raise ValidationError(errors, code="invalid-setting")


class Entry(models.Model):
    """One entrant of a competition: a person or a registered bot.

    Leaving sets `active` off rather than deleting the row, so what the entrant played stays
    attached to it (standings, later); joining again turns it back on.
    """

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="competition_entries",
    )
    bot = models.ForeignKey(
        Bot, null=True, blank=True, on_delete=models.PROTECT, related_name="competition_entries"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    active = models.BooleanField(default=True)

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["competition", "joined_at", "pk"]
        constraints = person_or_bot(
            "competition",
            user_unique="entry_user_unique",
            bot_unique="entry_bot_unique",
            check="entry_is_a_person_or_a_bot",
        )

    def __str__(self) -> str:
        return f"{self.entrant} in {self.competition}"

    @property
    def entrant(self) -> Any:
        """The user or the Bot."""
        return self.bot if self.bot_id else self.user


# --------------------------------------------------------------------------- read models


class PlayerFamilyRecord(models.Model):
    """A person's finished matches of one rule family, of any kind (league, ladder, friendly;
    never a practice deal), folded from the log by the `player-families` projection
    (league/projections.py): the player page's record per family reads these rows, not every
    game of theirs."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="family_records"
    )
    family = models.CharField(max_length=32)
    matches = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    hands = models.PositiveIntegerField(default=0)
    points = models.IntegerField(default=0)

    class Meta:
        ordering = ["user", "family"]
        constraints = [
            models.UniqueConstraint(fields=["user", "family"], name="player_family_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.family}: {self.matches} matches"
