"""Tournament models: the tournament (its format, rules, table size, time limits, entry window
and who may enter), its entries, its rounds and the games each round's tables play; and the read
model of the games' results (the `tournament-results` projection, tournaments/projections.py).

Everything a standing says is folded from the games' logs (tournaments/standings.py):
the rows here say only what was decided when it was decided (who entered, who withdrew, who
sat where and who had a bye in each round), written once and never changed, except an entry's
withdrawal, an arena entrant's pause and the tournament's status. docs/tournaments.md.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from games.models import Bot
from games.models.bots import person_or_bot


class Tournament(models.Model):
    """A competition of a format: Swiss rounds, a knockout, an arena or duplicate deals."""

    class Format(models.TextChoices):
        SWISS = "swiss"
        KNOCKOUT = "knockout"
        ARENA = "arena"
        DUPLICATE = "duplicate"

    class Status(models.TextChoices):
        # Taking entries (between entry_opens and entry_closes); not started.
        OPEN = "open"
        RUNNING = "running"
        FINISHED = "finished"

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=64, unique=True)
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.SWISS)
    variant = models.JSONField(
        help_text="The normalised variant spec (Variant.spec): the family and its options, "
        "the target score among them."
    )
    table_size = models.PositiveSmallIntegerField(
        default=4, validators=[MinValueValidator(2), MaxValueValidator(6)]
    )
    turn_seconds = models.PositiveIntegerField(
        validators=[MinValueValidator(1)], help_text="Seconds a person has for a turn."
    )
    round_seconds = models.PositiveIntegerField(
        validators=[MinValueValidator(60)],
        help_text="The round deadline: seconds from a round's start; people still playing then "
        "forfeit (the default bot plays their seats out).",
    )
    rounds = models.PositiveSmallIntegerField(
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(50)],
        help_text="Swiss: the rounds to play; a knockout: the rounds its bracket plays (set when "
        "it starts).",
    )
    advance = models.PositiveSmallIntegerField(
        default=1, help_text="A knockout: how many of each table go through."
    )
    seeding = models.JSONField(
        default=list, blank=True, help_text="A knockout: the entry ids in seed order, best first."
    )

    class SeedBy(models.TextChoices):
        # A person's rating in the pool of the tournament's family, a bot's ladder rating there.
        RATING = "rating"
        DRAW = "draw"

    seed_by = models.CharField(
        max_length=8,
        choices=SeedBy.choices,
        default=SeedBy.RATING,
        help_text="A knockout: seeded by rating (equal ratings drawn) or the whole order drawn.",
    )
    entry_opens = models.DateTimeField()
    entry_closes = models.DateTimeField()
    max_entrants = models.PositiveSmallIntegerField(
        default=64, validators=[MinValueValidator(2), MaxValueValidator(1000)]
    )
    rated = models.BooleanField(default=False)
    bots_allowed = models.BooleanField(
        default=True, help_text="Bots may enter; off: people only, and no person sits with a bot."
    )
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_organised"
    )
    # A club's tournament (run by its admins), or none: an open one, or a site-wide one (staff).
    club = models.ForeignKey(
        "league.Club", null=True, blank=True, on_delete=models.PROTECT, related_name="tournaments"
    )
    site_wide = models.BooleanField(default=False)
    seed = models.PositiveIntegerField(default=0, help_text="The draw's seed.")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["entry_closes", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(table_size__gte=2, table_size__lte=6),
                name="tournament_table_size_range",
            ),
            models.CheckConstraint(
                condition=models.Q(entry_closes__gte=models.F("entry_opens")),
                name="tournament_entry_window",
            ),
            models.CheckConstraint(
                condition=models.Q(club__isnull=True) | models.Q(site_wide=False),
                name="tournament_club_or_site_wide",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.format})"

    @property
    def people_only(self) -> bool:
        return not self.bots_allowed

    @property
    def target(self) -> int | None:
        options = self.variant.get("options") or {}
        target = options.get("target")
        return int(target) if target is not None else None


class Entry(models.Model):
    """One entrant: a person or a bot (a registered Bot; a built-in bot is a Bot of kind
    `builtin`). Withdrawing keeps the row (what it played stays attached to it)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_entries",
    )
    bot = models.ForeignKey(
        Bot, null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    withdrawn = models.BooleanField(default=False)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    # An arena: a paused entrant is not seated again until it resumes; its points stay.
    paused = models.BooleanField(default=False)
    resumed_at = models.DateTimeField(
        null=True, blank=True, help_text="When it last resumed: it waits from then."
    )

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["tournament", "entered_at", "pk"]
        constraints = person_or_bot(
            "tournament",
            user_unique="tournament_entry_user",
            bot_unique="tournament_entry_bot",
            check="tournament_entry_person_or_bot",
        )

    def __str__(self) -> str:
        return f"{self.name} in {self.tournament}"

    @property
    def is_bot(self) -> bool:
        return self.bot_id is not None

    @property
    def name(self) -> str:
        entrant: Any = self.bot if self.bot_id else self.user
        return str(entrant.name if self.bot_id else entrant.get_username())


class Round(models.Model):
    """One round: when it started, its deadline, and who sat it out (entry ids)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    deadline = models.DateTimeField()
    byes = models.JSONField(default=list, help_text="Entry ids with a bye this round.")
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournament_round_unique")
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament}"


class TournamentGame(models.Model):
    """A table of a round and the game it plays: the entries in the game's seat order. A
    duplicate round's tables are all dealt the round's one deal (`rotation` 0; a duplicate
    round drawn before one game per table played one game per seat rotation, 0..k-1)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    table = models.PositiveSmallIntegerField()
    rotation = models.PositiveSmallIntegerField(default=0)
    game = models.OneToOneField(
        "games.Game", on_delete=models.PROTECT, related_name="tournament_table"
    )
    entries = models.JSONField(help_text="Entry ids in seat order.")

    class Meta:
        ordering = ["round", "table", "rotation"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table", "rotation"], name="tournament_table_unique"
            )
        ]

    def __str__(self) -> str:
        return f"table {self.table} of {self.round}"


class Result(models.Model):
    """An entry's result at one finished table (read model of `tournament-results`)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    round = models.PositiveSmallIntegerField()
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="results")
    place = models.PositiveSmallIntegerField()
    points = models.FloatField()
    score = models.IntegerField(default=0)
    forfeited = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament", "round", "game", "place"]
        constraints = [
            models.UniqueConstraint(fields=["game", "entry"], name="tournament_result_unique")
        ]

    def __str__(self) -> str:
        return f"{self.entry_id}: place {self.place} in game {self.game_id}"
