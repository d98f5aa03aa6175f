"""Ladders: LadderSet (a table's games, one rating event) and the read models Rating,
RatingChange and LadderMeeting; SiteVisit (where ladders rest while nobody visits).
league/ladders.py and rest.py write these rows, the ladder-ratings projection the read models
(docs/ladders.md).
"""

from __future__ import annotations

from django.db import models

from league.models.competitions import Competition, Entry


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
