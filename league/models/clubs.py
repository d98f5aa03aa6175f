"""Clubs and their seasons: Club and Membership; Season (a club's league competition),
Division, DivisionEntry, Fixture, FixtureSeat, Bye; ClubRecord (a club's all-time totals); the
read models Standing and Meeting. league/clubs.py and seasons.py write these rows, the
league-standings projection the read models (docs/leagues.md).
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models

from games.models import Bot
from games.models.bots import person_or_bot
from league.models.competitions import Competition, Entry


class Club(models.Model):
    """A club: its members run seasons of league play among themselves.

    A person joins with the club's invitation link (at once) or asks to join (an admin
    approves); admins create, start and close seasons (league/clubs.py).
    """

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=64, unique=True)
    description = models.TextField(blank=True)
    # The secret part of the invitation link; rotating it retires the old link.
    invite_code = models.CharField(max_length=32, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        ADMIN = "admin"
        MEMBER = "member"

    class Status(models.TextChoices):
        ACTIVE = "active"
        # Asked to join without the link: an admin approves or declines.
        PENDING = "pending"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.MEMBER)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.ACTIVE)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role}, {self.status})"


class Season(models.Model):
    """A season of a club's league: a Competition (kind `league`: the rules, the table size and
    the limits its games get) with the season's own settings, divisions and fixtures.

    Its settings are frozen once it starts: the standings projection reads the placement points
    of a running or closed season, so they never change under it.
    """

    class Status(models.TextChoices):
        # Entrants are added, settings may change.
        DRAFT = "draft"
        # Fixtures drawn; rounds open on their dates (or when the previous round is done).
        RUNNING = "running"
        # Final tables archived on the divisions.
        CLOSED = "closed"

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="seasons")
    competition = models.OneToOneField(Competition, on_delete=models.PROTECT, related_name="season")
    placement_points = models.JSONField(
        help_text="League points for 1st, 2nd, ... place at a table, e.g. [4, 2, 1, 0]."
    )
    start_date = models.DateField()
    round_days = models.PositiveSmallIntegerField(
        default=7, validators=[MinValueValidator(1)], help_text="Days each round has."
    )
    rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Rounds to play; empty: enough for every pair to meet."
    )
    seed = models.PositiveIntegerField(default=0, help_text="The fixture draw's seed.")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.DRAFT)
    # The season whose final tables placed this one's entrants (promotion and relegation).
    previous = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="next"
    )
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["club", "-start_date", "pk"]

    def __str__(self) -> str:
        return f"{self.competition.name} ({self.club})"

    @property
    def name(self) -> str:
        return self.competition.name

    @property
    def slug(self) -> str:
        return self.competition.slug


class Division(models.Model):
    """A tier of a season: tier 1 is the top. The best `promote` of a tier go up a tier next
    season and the worst `relegate` go down (league/seasons.py)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    tier = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    name = models.CharField(max_length=64)
    promote = models.PositiveSmallIntegerField(default=0)
    relegate = models.PositiveSmallIntegerField(default=0)
    # The final table, written when the season closes: the archive reads it, never the
    # projection (which a rebuild recomputes the same anyway).
    final_table = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["season", "tier"]
        constraints = [
            models.UniqueConstraint(fields=["season", "tier"], name="division_tier_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.name} of {self.season}"


class ClubRecord(models.Model):
    """One entrant's totals over a club's closed seasons, added to as each season closes
    (league/seasons.py `season_close`, from the final tables it writes): the all-time table
    reads these rows and the tables of the seasons still open, never every season's tables."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="records")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    bot = models.ForeignKey(Bot, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    seasons = models.PositiveIntegerField(default=0)
    played = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    league_points = models.IntegerField(default=0)
    # First (a shared first counts) in the top division of a closed season.
    titles = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["club", "-league_points", "-wins"]
        constraints = person_or_bot(
            "club",
            user_unique="club_record_user_unique",
            bot_unique="club_record_bot_unique",
            check="club_record_is_a_person_or_a_bot",
        )

    def __str__(self) -> str:
        return f"{self.user or self.bot} in {self.club}: {self.league_points} points"


class DivisionEntry(models.Model):
    """An entrant's place in a division of a season."""

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="members")
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="division_entry")

    class Meta:
        ordering = ["division", "entry"]

    def __str__(self) -> str:
        return f"{self.entry} in {self.division}"


class Fixture(models.Model):
    """One table of one round of a division: its seats (entries in seat order), when it opens,
    its deadline, and the game made for it when it opens."""

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="fixtures")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    # The day drawn; `opened_at` is when its game was made: earlier when the round before it
    # finished first (league/seasons.py `open_due_rounds`), null until then.
    opens_at = models.DateTimeField()
    opened_at = models.DateTimeField(null=True, blank=True)
    # A cache of the log: the last fixture-retimed event of the game, else the drawn deadline.
    deadline = models.DateTimeField()
    game = models.OneToOneField(
        "games.Game", null=True, blank=True, on_delete=models.PROTECT, related_name="fixture"
    )

    class Meta:
        ordering = ["division", "round", "table"]
        constraints = [
            models.UniqueConstraint(
                fields=["division", "round", "table"], name="fixture_round_table_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.division}, round {self.round}, table {self.table}"


class FixtureSeat(models.Model):
    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="fixture_seats")
    number = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["fixture", "number"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "number"], name="fixture_seat_unique"),
            models.UniqueConstraint(fields=["fixture", "entry"], name="fixture_entry_unique"),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of {self.fixture}"


class Bye(models.Model):
    """An entrant sitting out a round of its division (the numbers did not fill a table)."""

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="byes")
    round = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="byes")

    class Meta:
        ordering = ["division", "round", "entry"]

    def __str__(self) -> str:
        return f"{self.entry} sits out round {self.round}"


# --------------------------------------------------------------------------- read models


class Standing(models.Model):
    """A division's table row for one entrant, folded from the log by the `league-standings`
    projection (league/projections.py): finished fixture matches only."""

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="standings")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="standings")
    played = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    # placements[i]: matches finished in place i + 1.
    placements = models.JSONField(default=list)
    league_points = models.IntegerField(default=0)
    hands_won = models.PositiveIntegerField(default=0)
    points_scored = models.IntegerField(default=0)
    forfeits = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["division", "entry"]
        constraints = [
            models.UniqueConstraint(fields=["division", "entry"], name="standing_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.entry}: {self.league_points} points"


class Meeting(models.Model):
    """How often `entry` finished ahead of `other` at a fixture table of the division (the
    head-to-head tiebreak); both directions are stored."""

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="meetings")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    ahead = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["division", "entry", "other"]
        constraints = [
            models.UniqueConstraint(fields=["division", "entry", "other"], name="meeting_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.entry} ahead of {self.other} {self.ahead} times"
