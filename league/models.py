"""League models: Competition (a league or a ladder, with the settings its games get) and Entry;
clubs and their members; seasons, divisions, fixtures, byes, standings and meetings; the
ladders' sets, ratings and their changes. Everything else hangs from Competition and Entry.
league/services.py, clubs.py, seasons.py and ladders.py write these rows, the projections the
read models (docs/league.md, docs/leagues.md, docs/ladders.md).
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


# --------------------------------------------------------------------------- clubs and seasons


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
    opens_at = models.DateTimeField()
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


# --------------------------------------------------------------------------------- ladders


class LadderSet(models.Model):
    """One table of a ladder and the games it plays: one rating event (docs/ladders.md).

    With duplicate deals a table of k entrants plays k games of one seed, the seats rotated by
    one each game, one after the other (nobody plays two games of a ladder at once); without,
    one game. Written once when the table is drawn and never changed: the ratings projection
    reads it to know who sat where, so a rebuild reads what the games were made with.
    """

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="sets")
    # Entry ids in the seat order of the first game; game r seats entry i at (i + r) % k.
    entries = models.JSONField()
    seed = models.CharField(max_length=32)
    size = models.PositiveSmallIntegerField(help_text="Games in the set.")
    # Games made so far (matchmaking's bookkeeping: it makes the next rotation when the last
    # one has ended), or `size` once a game of the set was aborted (ladders.ladder_set_close);
    # the only field that changes, and no projection reads it.
    made = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["competition", "pk"]
        indexes = [
            models.Index(fields=["competition", "made", "size"]),
            # The matchmaking budget counts each entrant's sets of the last day (league/rest.py).
            models.Index(fields=["competition", "created_at"]),
        ]

    def __str__(self) -> str:
        return f"set {self.pk} of {self.competition}"

    def seat_of(self, entry: int, rotation: int) -> int:
        entries: list[int] = self.entries
        return (entries.index(entry) + rotation) % len(entries)

    def entry_at(self, seat: int, rotation: int) -> int:
        return int(self.entries[(seat - rotation) % len(self.entries)])


class Rating(models.Model):
    """An entrant's rating on a ladder (read model of the `ladder-ratings` projection).

    `mu` and `sigma` are as the last rating event left them; the decay for time away since
    `last_played` is applied when read (league/ratings.py `decayed`), so it never drifts.
    """

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="ratings")
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    events = models.PositiveIntegerField(default=0, help_text="Rating events (sets) played.")
    games = models.PositiveIntegerField(default=0)
    # First places, a shared first place counted as a share (two seats first: 0.5 each).
    wins = models.FloatField(default=0.0)
    last_played = models.DateTimeField()
    # The end of the last rating event: the decay counts the time away from here.
    rated_at = models.DateTimeField(null=True, blank=True)
    # The ordinal (mu - 3 sigma) after each of the last TREND_POINTS rating events, oldest
    # first: the leaderboard's trend, kept here so the board never reads the whole history.
    trend = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["competition", "-mu"]

    def __str__(self) -> str:
        return f"{self.entry}: mu {self.mu:.2f}, sigma {self.sigma:.2f}"


class RatingChange(models.Model):
    """One rating event of one entrant: the history a bot's chart draws (read model)."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="rating_changes")
    ladder_set = models.ForeignKey(LadderSet, on_delete=models.CASCADE, related_name="changes")
    # The global position of the match-ended that completed the set: the order of the history.
    position = models.BigIntegerField()
    recorded_at = models.DateTimeField()
    # Before: after the decay for the time away, as the update saw it.
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    place = models.PositiveSmallIntegerField(
        help_text="The entrant's place in the set; ties share."
    )
    places = models.JSONField(help_text="The entrant's place in each game of the set.")
    games = models.JSONField(help_text="The set's game ids, in rotation order.")

    class Meta:
        ordering = ["entry", "position"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "ladder_set"], name="rating_change_unique"),
        ]
        indexes = [
            models.Index(fields=["competition", "position"]),
            # An entrant's history, newest first (ladder_reads.history).
            models.Index(fields=["entry", "-position"]),
        ]

    def __str__(self) -> str:
        return f"{self.entry}: {self.mu_before:.2f} -> {self.mu:.2f}"


class LadderMeeting(models.Model):
    """Head to head on a ladder: games `entry` and `other` played at one table, and how often
    `entry` finished ahead (read model; both directions stored)."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    games = models.PositiveIntegerField(default=0)
    ahead = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["competition", "entry", "other"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "entry", "other"], name="ladder_meeting_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry} ahead of {self.other} in {self.ahead} of {self.games} games"


class SiteVisit(models.Model):
    """When a request last reached the site: one row, written only where ladders rest while
    nobody visits (LEAGUE_LADDER_REST_SECONDS, which `make run` sets), by the front door
    (frontdoor/visits.py) at most every LEAGUE_VISIT_WRITE_SECONDS per process. Beat's
    matchmaking reads it (league/rest.py)."""

    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"site last visited {self.seen_at:%Y-%m-%d %H:%M:%S}"
