"""The tables of words between people: a game's messages (two channels), club board posts, who
mutes whom, reports, and chat restrictions. The services are chat/table.py (a game's chat),
chat/board.py (a club's board) and chat/moderation.py (reports, hiding, restrictions, mutes).

Text is kept exactly as its author wrote it (trimmed of surrounding blanks): the server adds
nothing to it, so a message can carry no one's hidden cards but what its author typed. A hidden
message or post keeps its text for staff; everyone else reads "hidden by moderators".
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Hideable(models.Model):
    """Who hid a message or a post, when and why (the text stays, for staff)."""

    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    hidden_reason = models.TextField(blank=True)

    class Meta:
        abstract = True

    @property
    def hidden(self) -> bool:
        return self.hidden_at is not None


class Message(Hideable):
    """One line said at a game's table: `seq` numbers a game's messages in order (both channels;
    `GET /api/games/<id>/chat?after=N`), `version` is the game's version when it was said (the
    replay shows it after that event)."""

    class Channel(models.TextChoices):
        SEATS = "seats"
        SPECTATORS = "spectators"

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat_messages")
    seq = models.PositiveIntegerField()
    channel = models.CharField(max_length=16, choices=Channel.choices)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    text = models.TextField()
    version = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="chat_message_seq")]
        indexes = [models.Index(fields=["author", "-created_at"], name="chat_message_author")]

    def __str__(self) -> str:
        return f"game {self.game_id} #{self.seq} ({self.channel}) by {self.author_id}"


class ClubPost(Hideable):
    """A post on a club's board: an announcement (admins only, shown first) or a member's post,
    or a reply to either (`reply_to`, one level deep)."""

    club = models.ForeignKey("league.Club", on_delete=models.CASCADE, related_name="board_posts")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_posts"
    )
    text = models.TextField()
    is_announcement = models.BooleanField(default=False)
    reply_to = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="replies"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "created_at", "pk"]
        indexes = [
            models.Index(fields=["club", "-created_at"], name="chat_post_club"),
            models.Index(fields=["author", "-created_at"], name="chat_post_author"),
        ]

    def __str__(self) -> str:
        return f"post {self.pk} on {self.club_id} by {self.author_id}"


class Mute(models.Model):
    """`muter` no longer reads `muted`: not at any table, not on any board."""

    muter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["muter", "muted"], name="chat_mute_once")]

    def __str__(self) -> str:
        return f"{self.muter_id} mutes {self.muted_id}"


class Report(models.Model):
    """Someone reports a message or a board post (one of the two) to the moderators: open until
    staff (or, for a board post, a club admin) hide it or dismiss the report."""

    class Status(models.TextChoices):
        OPEN = "open"
        HIDDEN = "hidden"
        DISMISSED = "dismissed"

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports"
    )
    message = models.ForeignKey(
        Message, null=True, blank=True, on_delete=models.CASCADE, related_name="reports"
    )
    post = models.ForeignKey(
        ClubPost, null=True, blank=True, on_delete=models.CASCADE, related_name="reports"
    )
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    handled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(message__isnull=False, post__isnull=True)
                | models.Q(message__isnull=True, post__isnull=False),
                name="chat_report_one_target",
            ),
            models.UniqueConstraint(
                fields=["reporter", "message"],
                condition=models.Q(status="open", message__isnull=False),
                name="chat_report_message_once",
            ),
            models.UniqueConstraint(
                fields=["reporter", "post"],
                condition=models.Q(status="open", post__isnull=False),
                name="chat_report_post_once",
            ),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="chat_report_queue")]

    def __str__(self) -> str:
        target = f"message {self.message_id}" if self.message_id else f"post {self.post_id}"
        return f"report {self.pk} of {target} ({self.status})"


class ChatRestriction(models.Model):
    """`user` may not say anything (tables, boards) until `until`: set by staff, with why."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_restrictions"
    )
    until = models.DateTimeField()
    reason = models.TextField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user", "-until"], name="chat_restriction_user")]

    def __str__(self) -> str:
        return f"{self.user_id} restricted until {self.until:%Y-%m-%d %H:%M}"
