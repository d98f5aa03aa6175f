"""People's ratings, the read models of the `person-ratings` projection (ratings/projections.py):
a person's rating in each pool (PersonRating) and every rated game's change (PersonRatingChange).

Only the projection writes them, from the log and rows that never change once a game exists, so
`projections rebuild person-ratings` writes the same rows again, figure for figure.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PersonRating(models.Model):
    """A person's rating in one pool (ratings/pools.py): mu and sigma as their last rated game
    left them. The decay for time away (league/ratings.py `decayed`) is applied when read, as
    the ladders do, so the stored figures never drift."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="person_ratings"
    )
    family = models.CharField(max_length=32, help_text="The pool: ratings/pools.py POOLS.")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0, help_text="Rated games played in the pool.")
    # First places among the people of each game, a shared first counted as a share.
    wins = models.FloatField(default=0.0)
    # The end of the last rated game (its match-ended event's time): the decay counts from here.
    rated_at = models.DateTimeField()

    class Meta:
        ordering = ["family", "-mu"]
        constraints = [
            models.UniqueConstraint(fields=["user", "family"], name="person_rating_unique"),
        ]
        indexes = [models.Index(fields=["family", "rated_at"])]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.family}: mu {self.mu:.2f}, sigma {self.sigma:.2f}"


class PersonRatingChange(models.Model):
    """What one rated game did to one person's rating: the history the player page draws."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    family = models.CharField(max_length=32)
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    # The global position of the game's match-ended event: the order of the history.
    position = models.BigIntegerField()
    recorded_at = models.DateTimeField()
    # Before: after the decay for the time away, as the update saw it.
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    place = models.PositiveSmallIntegerField(
        help_text="The person's place among the game's people (bots left out); ties share."
    )
    people = models.PositiveSmallIntegerField(help_text="The people rated by the game.")

    class Meta:
        ordering = ["user", "family", "position"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="person_rating_change_unique"),
        ]
        indexes = [models.Index(fields=["user", "family", "-position"])]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.family}: {self.mu_before:.2f} -> {self.mu:.2f}"

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def ordinal_before(self) -> float:
        return self.mu_before - 3 * self.sigma_before
