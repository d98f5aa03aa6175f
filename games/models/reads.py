"""The read models: game summaries, hand results and match results, folded from the log; only
games/game_projections.py writes them, and a rebuild gives them again (docs/event-store.md)."""

from __future__ import annotations

from django.db import models

from games.models.store import Game


class GameSummary(models.Model):
    """Where a game stands (projection "game-summaries")."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True)
    status = models.CharField(max_length=16, choices=Game.Status.choices)
    to_act = models.JSONField(default=list)
    scores = models.JSONField(default=list)
    hand_number = models.PositiveSmallIntegerField(default=0)
    version = models.PositiveIntegerField(default=0)
    last_activity = models.DateTimeField()

    class Meta:
        verbose_name_plural = "game summaries"

    def __str__(self) -> str:
        return f"summary of game {self.game_id}"


class HandResult(models.Model):
    """One finished hand; lists are indexed by seat (projection "game-results")."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hand_results")
    hand_number = models.PositiveSmallIntegerField()
    winner = models.PositiveSmallIntegerField()
    cards_left = models.JSONField(help_text="The cards each seat held when the hand ended.")
    points = models.JSONField(help_text="The points of the cards each seat held.")
    gained = models.JSONField(help_text="The points each seat scored for the hand.")
    scores = models.JSONField(help_text="The match totals after the hand.")
    hands_won = models.JSONField(help_text="The hands each seat has won, this one included.")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["game", "hand_number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "hand_number"], name="hand_result_unique")
        ]

    def __str__(self) -> str:
        return f"hand {self.hand_number} of game {self.game_id}"


class MatchResult(models.Model):
    """A finished match; lists are indexed by seat (projection "game-results")."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True)
    # None when seats tie for first place.
    winner = models.PositiveSmallIntegerField(null=True)
    # With forfeits applied: forfeited seats share the last place, the others keep their order.
    places = models.JSONField(help_text="Each seat's place, 1 for the winner; ties share one.")
    # The seats placed last because they resigned or timed out too often (seat-forfeited events).
    forfeited = models.JSONField(default=list, blank=True)
    # Those seats' seat-forfeited events, the first of each seat, without their `type`, by seat:
    # [{"seat": 1, "reason": "awarded", "note": "no show"}], so a page that says why a seat was
    # forfeited (the season page's fixtures, web/season_tables.py) reads no log once the match
    # is counted. NULL on a row folded before games 0024: its reader goes to the log then (a
    # rebuild of game-results fills it).
    forfeits = models.JSONField(null=True, blank=True)
    scores = models.JSONField(help_text="Each seat's final total.")
    hands_won = models.JSONField()
    hands = models.PositiveSmallIntegerField(help_text="Hands played.")
    recorded_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"result of game {self.game_id}"


class ActivityMinute(models.Model):
    """Events appended and matches ended (match-ended events) in one UTC minute (projection
    "activity"): the staff dashboard's chart reads these, and the log only past the
    projection's checkpoint, instead of a day of the log."""

    minute = models.DateTimeField(primary_key=True)
    events = models.PositiveIntegerField(default=0)
    matches = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["minute"]

    def __str__(self) -> str:
        return f"{self.minute:%Y-%m-%d %H:%M}: {self.events} events, {self.matches} matches"
