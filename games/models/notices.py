"""People's turn notices: who wants turn emails, each notice sent or to be sent, and each
person's presence at each of their games (clocks/presence.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.models.store import Game, Seat


class NotificationPreference(models.Model):
    """How a person hears that it is their turn (clocks/deadlines.py); no row: `each`.

    `each` emails a turn only while the person is away from that game (clocks/presence.py), at
    most once a game until they come back; the turns it does not email go to the daily digest."""

    class TurnEmails(models.TextChoices):
        EACH = "each", "an email when a game waits for you while you are away, then a daily digest"
        DIGEST = "digest", "one daily digest"
        NONE = "none", "no email"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preference"
    )
    turn_emails = models.CharField(
        max_length=8, choices=TurnEmails.choices, default=TurnEmails.EACH
    )

    def __str__(self) -> str:
        return f"{self.user_id}: {self.turn_emails}"


class TurnNotice(models.Model):
    """A turn that started for a person: emailed at once (sent_at set), or kept for the digest
    (`held`: the person was at the game, or was emailed about it already in this absence)."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="notices")
    # The turn's deadline when it started; with the seat, what makes a notice unique.
    deadline_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # Kept for the daily digest rather than emailed at once (an `each` person present, or
    # emailed already since they were last seen); a digest person's notices are all kept.
    held = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["seat", "deadline_at"], name="turn_notice_unique")
        ]
        # The sweeps read only the notices no email has claimed (held ones waiting for their
        # person to leave, lost tasks, the digest's): a day's worth, where the table keeps all.
        indexes = [
            models.Index(
                fields=["seat"], condition=Q(sent_at__isnull=True), name="turn_notice_unsent"
            )
        ]

    def __str__(self) -> str:
        return f"notice for {self.seat} due {self.deadline_at}"


class Presence(models.Model):
    """A person at one of their games: when they were last seen there (the play page and its
    poll, a command from the page or the API), when the one email of their current absence went
    out, and whether they muted the game's emails. Written by clocks/presence.py."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="presences"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="presences")
    seen_at = models.DateTimeField(null=True, blank=True)
    # The turn email sent while away; a later one waits until seen_at passes it (they came back).
    emailed_at = models.DateTimeField(null=True, blank=True)
    muted = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="presence_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} at game {self.game_id}: seen {self.seen_at}"


class SiteActivity(models.Model):
    """When a person was last active anywhere on the site (any page or API request of theirs),
    and when the last turn email went to them (clocks/presence.py `active`, `emailed`). The
    moment is written at most every GAMES_SITE_WRITE_SECONDS per person: a person seen within
    GAMES_SITE_ACTIVE_SECONDS is on the site and gets no turn email (the turn waits under the
    bell and in the lobby), nor does one emailed within that time (the turns that start
    meanwhile go in one email, later: clocks/deadlines.py `left_waiting`)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="site_activity",
    )
    seen_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)
    # When the last summary of their bell was emailed (social/summaries.py).
    summarized_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user_id} on the site: seen {self.seen_at}, emailed {self.emailed_at}"
