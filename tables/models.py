"""Open tables and challenges (tables/services.py holds their rules).

A `Table` is a game waiting for its people: its rules, its seat count, the turn length and
whether it is rated, opened by one person. Others take its seats (`TableSeat`); when the last
seat is taken the game starts (`game`). A challenge is a table addressed to one person
(`challenged`): private, it starts when they accept and ends when they decline. An invitation
(tables/invitations.py) is a game someone set up seat by seat on /play/new/ (or POST
/api/games) naming other people (`invited`): private too, its seats fixed (`plan`), it starts
when every one of them accepted and ends when one declines."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "open"
        STARTED = "started", "started"
        CANCELLED = "cancelled", "cancelled"
        EXPIRED = "expired", "expired"
        DECLINED = "declined", "declined"

    opener = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tables_opened"
    )
    # The variant spec normalised by the engine (Variant.from_spec(...).spec).
    variant = models.JSONField()
    seat_count = models.PositiveSmallIntegerField()
    turn_seconds = models.PositiveIntegerField()
    rated = models.BooleanField(default=False)
    # Minutes after opening when the empty seats are given to built-in bots (None: never);
    # `fills_at` is that time, for the sweep's query.
    fill_with_bots_after = models.PositiveSmallIntegerField(null=True, blank=True)
    fills_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    # The game the table started (an id of games.Game; games are never deleted).
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # A challenge: the one person who may take the other seat.
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="challenges_received",
    )
    # An invitation: the game's seats in order, each {"user": id}, {"bot": strategy} or
    # {"bot_id": id}, and the people named in them who must accept (None and nobody for a
    # table or a challenge).
    plan = models.JSONField(null=True, blank=True)
    invited = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="invitations"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    # When it started, was cancelled, expired or was declined.
    closed_at = models.DateTimeField(null=True, blank=True)
    # A challenge's one email, claimed when its task (or the sweep) took it, sent or not
    # (tables/challenge_emails.py): never a second.
    challenge_emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "expires_at"], name="table_open_expiry"),
            models.Index(fields=["status", "fills_at"], name="table_open_fill"),
        ]

    def __str__(self) -> str:
        return f"table {self.pk} ({self.status})"

    @property
    def family(self) -> str:
        return str(self.variant.get("rules", ""))

    @property
    def is_challenge(self) -> bool:
        return self.challenged_id is not None

    @property
    def is_invitation(self) -> bool:
        return self.plan is not None


class TableSeat(models.Model):
    """A person sitting at an open table, in the order they sat down (the opener first)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_seats"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="table_seat_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} at table {self.table_id}"


class InvitationEmail(models.Model):
    """An invitation's one email to one of its people, claimed when its task (or the sweep)
    took it, sent or not (tables/challenge_emails.py): never a second."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invitation_emails")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="invitation_email_once"),
        ]

    def __str__(self) -> str:
        return f"table {self.table_id}'s email to {self.user_id}"
