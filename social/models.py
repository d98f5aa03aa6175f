"""The notification centre's rows: what happened for a person while they were away."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Notification(models.Model):
    """One thing for one person to see under the bell: its kind, a line of text, where it links
    to, and whether it was read. `key` makes a notice said once (the same key for the same
    person is not added twice), e.g. "turn:<game>:<version>"."""

    class Kind(models.TextChoices):
        TURN = "turn", "your turn"
        # A turn's notice once its match is over (social/notifications.py `game_over`).
        GAME_OVER = "game-over", "a game of yours ended"
        TABLE_STARTED = "table-started", "a table you sat at started"
        CHALLENGE = "challenge", "a challenge"
        REMATCH = "rematch", "a rematch offered"
        SEASON = "season", "a season or a fixture"
        TOURNAMENT = "tournament", "a tournament's round or table"
        CHAT = "chat", "a message at your table"
        REPORT = "report", "a report answered"
        FOLLOW = "follow", "someone you follow"
        # An admin's announcement on the board of a club of yours (chat/board.py).
        CLUB = "club", "your club's board"
        # Someone joined a club you run, or asks to (league/clubs.py).
        CLUB_MEMBERS = "club-members", "your club's members"
        # A bot of yours suspended (bots/suspension_notice.py).
        BOT = "bot", "a bot of yours"
        OTHER = "other", "other"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    text = models.CharField(max_length=300)
    url = models.CharField(max_length=300, blank=True)
    key = models.CharField(max_length=120)
    # The game the notice is about, if any (a turn, a rematch, a fixture): opening that game
    # marks its turn notices read (clocks/presence.py). A plain integer: games keep no link here.
    game_id = models.BigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    # For a notice that recurs (social/notifications.py `renew`): when its unread run began, the
    # first renewal since the person last read it (a thread's replies name everyone since then).
    unread_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="notification_once")]
        indexes = [
            models.Index(fields=["user", "read_at", "-created_at"], name="notification_inbox"),
            # The list, newest first, a page at a time after a notice (notifications.inbox).
            models.Index(fields=["user", "-created_at", "-id"], name="notification_list"),
            # The bell's figure: a person's unread notices, counted from this index alone.
            models.Index(
                fields=["user"], condition=Q(read_at__isnull=True), name="notification_unread"
            ),
            # A game's unread notices of a person, marked read when they open the game.
            models.Index(
                fields=["user", "game_id"],
                condition=Q(read_at__isnull=True, game_id__isnull=False),
                name="notification_unread_game",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}: {self.text}"


class Follow(models.Model):
    """`follower` follows `followed`: their running and finished games are a click away (the
    player page, the notification centre's Following list). Once per pair; never oneself."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(
                condition=~Q(follower=models.F("followed")), name="follow_not_self"
            ),
        ]
        indexes = [models.Index(fields=["followed"], name="follow_followed")]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"
