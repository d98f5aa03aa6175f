"""Admin pages for games: look, don't touch.

Games are created and moved only by games/creation.py and games/commands.py (an admin-made game
would have no events), events are append-only (read-only here for everyone, superusers
included), and read models belong to their projections. The admin may edit a game's context
and reveal setting, nothing else. A private event's data (hidden cards) shows only once its
match is over: staff who also play must not be able to peek.

Registered bots' page is the staff console's (staff/admin.py), with its actions: their owners
register and change them (bots/registry.py, which opens the validation rounds), so there only
the name may be edited; the secret and the token hash are never shown, only whether they are
set. Their calls are listed here.

Rows that concern a game link to the staff console's game inspector (`inspector_url`).
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib import admin
from django.db import connection
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html

from games import event_reads, snapshots
from games.models import (
    ActivityMinute,
    ArchivedStream,
    BotCall,
    Game,
    GameEvent,
    GameLease,
    GameSummary,
    HandResult,
    MatchResult,
    NotificationPreference,
    PositionCounter,
    Presence,
    ProjectionCheckpoint,
    RebuildPartition,
    RebuildRun,
    Rematch,
    RematchAnswer,
    Seat,
    SiteActivity,
    Snapshot,
    TurnNotice,
)
from games.reveal import revealed


def inspector_url(game_id: int) -> str:
    """The staff console's inspector of a game, or the admin's own page of it while the console
    has no inspector (staff/urls.py is built separately)."""
    try:
        return reverse("staff:game", kwargs={"game_id": game_id})
    except NoReverseMatch:
        return reverse("admin:games_game_change", args=[game_id])


def game_link(game_id: int | None) -> str:
    if game_id is None:
        return "-"
    return format_html('<a href="{}">game {}</a>', inspector_url(game_id), game_id)


_M = TypeVar("_M", bound=Model)


class NoAddOrDeleteAdmin(admin.ModelAdmin[_M]):
    """Rows that only the services make (a game, a registered bot) and that the log names:
    editable at most, never added or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyAdmin(NoAddOrDeleteAdmin[_M]):
    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(admin.TabularInline[Seat, Game]):
    model = Seat
    fields = ("number", "user", "bot", "registered_bot", "age", "controller", "deadline_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(NoAddOrDeleteAdmin[Game]):
    list_display = (
        "id",
        "rules",
        "seat_count",
        "status",
        "hand_number",
        "version",
        "last_activity",
        "inspect",
    )
    list_filter = ("status", "reveal")
    search_fields = ("=id",)
    inlines = [SeatInline]
    readonly_fields = (
        "inspect",
        "variant",
        "seat_count",
        "status",
        "version",
        "hand_number",
        "to_act",
        "created_at",
        "last_activity",
    )

    @admin.display(description="rules")
    def rules(self, game: Game) -> str:
        return str(game.variant.get("rules", ""))

    @admin.display(description="inspector")
    def inspect(self, game: Game) -> str:
        return game_link(game.pk)


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin[Seat]):
    list_display = ("game_link", "number", "user", "bot", "registered_bot", "controller")
    list_filter = ("controller",)
    list_select_related = ("user", "registered_bot")
    search_fields = ("=game__id", "user__username", "bot", "registered_bot__name")

    @admin.display(description="game", ordering="game")
    def game_link(self, seat: Seat) -> str:
        return game_link(seat.game_id)


@admin.register(GameEvent)
class GameEventAdmin(ReadOnlyAdmin[GameEvent]):
    list_display = ("global_position", "game_link", "version", "type", "visibility", "actor")
    list_filter = ("type", "visibility")
    search_fields = ("=game__id", "=command_id")
    fields = (
        "global_position",
        "game_link",
        "version",
        "type",
        "schema_version",
        "shown_data",
        "visibility",
        "actor",
        "command_id",
        "recorded_at",
    )
    readonly_fields = fields

    @admin.display(description="game", ordering="game")
    def game_link(self, event: GameEvent) -> str:
        return game_link(event.game_id)

    @admin.display(description="data")
    def shown_data(self, event: GameEvent) -> Any:
        # Hidden cards show here only once the whole log is public (games/reveal.py `revealed`:
        # the match over, a reveal-after-match game, and for a ladder rotation its whole set over,
        # since the rotations share one seed). Before that, the staff console's inspector shows
        # them, to staff who do not play in the game, and records every look
        # (staff/inspections.py).
        if event.visibility == GameEvent.Visibility.PUBLIC or revealed(event.game):
            return event.data
        return "(hidden until the game's log is public: the staff inspector shows it, audited)"


@admin.register(ArchivedStream)
class ArchivedStreamAdmin(ReadOnlyAdmin[ArchivedStream]):
    """A finished game's archived events: where they sit, never their data (hidden cards; the
    inspector and the replay read them through the store, as any game's)."""

    list_display = ("game_link", "event_count", "first_position", "last_position", "archived_at")
    search_fields = ("=game__id",)
    fields = ("game_link", "event_count", "first_position", "last_position", "types", "archived_at")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[ArchivedStream]:
        return super().get_queryset(request).defer("events")

    @admin.display(description="game", ordering="game")
    def game_link(self, stream: ArchivedStream) -> str:
        return game_link(stream.game_id)


@admin.register(GameSummary)
class GameSummaryAdmin(ReadOnlyAdmin[GameSummary]):
    list_display = (
        "game_link",
        "status",
        "to_act",
        "scores",
        "hand_number",
        "version",
        "last_activity",
    )
    list_filter = ("status",)

    @admin.display(description="game", ordering="game")
    def game_link(self, summary: GameSummary) -> str:
        return game_link(summary.game_id)


@admin.register(HandResult)
class HandResultAdmin(ReadOnlyAdmin[HandResult]):
    list_display = ("game_link", "hand_number", "winner", "gained", "scores")

    @admin.display(description="game", ordering="game")
    def game_link(self, result: HandResult) -> str:
        return game_link(result.game_id)


@admin.register(MatchResult)
class MatchResultAdmin(ReadOnlyAdmin[MatchResult]):
    list_display = ("game_link", "winner", "places", "forfeited", "scores", "hands_won", "hands")

    @admin.display(description="game", ordering="game")
    def game_link(self, result: MatchResult) -> str:
        return game_link(result.game_id)


@admin.register(ActivityMinute)
class ActivityMinuteAdmin(ReadOnlyAdmin[ActivityMinute]):
    list_display = ("minute", "events", "matches")
    ordering = ("-minute",)


@admin.register(ProjectionCheckpoint)
class ProjectionCheckpointAdmin(ReadOnlyAdmin[ProjectionCheckpoint]):
    list_display = ("name", "position", "rebuilding", "updated_at")


@admin.register(RebuildRun)
class RebuildRunAdmin(ReadOnlyAdmin[RebuildRun]):
    """Rebuilds of projections (games/rebuilds.py); the staff console shows their progress."""

    list_display = ("id", "names", "head", "partitions", "state", "started_at", "finished_at")
    list_filter = ("state",)


@admin.register(RebuildPartition)
class RebuildPartitionAdmin(ReadOnlyAdmin[RebuildPartition]):
    list_display = (
        "run", "projection", "number", "by_stream", "low", "high", "checkpoint", "events",
        "total", "done",
    )  # fmt: skip
    list_filter = ("done", "projection")


@admin.register(PositionCounter)
class PositionCounterAdmin(ReadOnlyAdmin[PositionCounter]):
    list_display = ("id", "value", "meaning")

    @admin.display(description="meaning")
    def meaning(self, counter: PositionCounter) -> str:
        # On PostgreSQL positions come from a sequence since migration 0010: the row stays at
        # the last position the counter gave out, and the log's head is elsewhere.
        if connection.vendor == "postgresql":
            head = event_reads.head()
            return f"unused on PostgreSQL (the sequence games_gameevent_position); head {head}"
        return "the last global position given out"


@admin.register(GameLease)
class GameLeaseAdmin(ReadOnlyAdmin[GameLease]):
    """Which run may ask a game's webhook bots now (bots/remote/leases.py): to see a game held by
    a lease that a killed worker left, until it expires."""

    list_display = ("game_link", "holder", "until", "again", "struck")
    list_filter = ("again",)
    search_fields = ("=game__id", "holder")

    @admin.display(description="game", ordering="game_id")
    def game_link(self, lease: GameLease) -> str:
        return game_link(lease.game_id)


@admin.register(Snapshot)
class SnapshotAdmin(ReadOnlyAdmin[Snapshot]):
    """A cache of replayed states (games/snapshots.py): which games have one at which version,
    never the state itself (it holds every hidden card). Deleting one is always safe: the next
    load folds the log instead."""

    list_display = ("game_link", "version", "this_engine", "written_at")
    fields = ("game", "version", "fingerprint", "written_at")
    search_fields = ("=game__id",)
    ordering = ("-written_at",)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return True

    @admin.display(description="game", ordering="game")
    def game_link(self, snapshot: Snapshot) -> str:
        return game_link(snapshot.game_id)

    @admin.display(description="this engine's", boolean=True)
    def this_engine(self, snapshot: Snapshot) -> bool:
        return snapshot.fingerprint == snapshots.FINGERPRINT


# ----------------------------------------------------------------------------- registered bots


@admin.register(BotCall)
class BotCallAdmin(ReadOnlyAdmin[BotCall]):
    list_display = ("at", "bot", "outcome", "latency", "reason", "game")
    list_filter = ("outcome", "bot__kind")
    list_select_related = ("bot",)
    search_fields = ("bot__name", "bot__owner__username", "=game_id")

    @admin.display(description="game", ordering="game_id")
    def game(self, call: BotCall) -> str:
        return game_link(call.game_id)


# ------------------------------------------------------------------------------- turn emails


@admin.register(NotificationPreference)
class NotificationPreferenceAdmin(admin.ModelAdmin[NotificationPreference]):
    list_display = ("user", "turn_emails")
    list_filter = ("turn_emails",)
    list_select_related = ("user",)
    search_fields = ("user__username",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return ("user",) if obj is not None else ()


@admin.register(TurnNotice)
class TurnNoticeAdmin(ReadOnlyAdmin[TurnNotice]):
    list_display = ("seat", "game", "deadline_at", "created_at", "sent_at", "held")
    list_select_related = ("seat",)
    search_fields = ("=seat__game__id", "seat__user__username")

    @admin.display(description="game")
    def game(self, notice: TurnNotice) -> str:
        return game_link(notice.seat.game_id)


@admin.register(Presence)
class PresenceAdmin(ReadOnlyAdmin[Presence]):
    """When each person was last at each of their games, the one email of their absence, and
    whether they muted the game (clocks/presence.py): written by their visits, read-only here."""

    list_display = ("user", "game_page", "seen_at", "emailed_at", "muted")
    list_filter = ("muted",)
    list_select_related = ("user",)
    search_fields = ("=game__id", "user__username")

    @admin.display(description="game", ordering="game_id")
    def game_page(self, row: Presence) -> str:
        return game_link(row.game_id)


@admin.register(SiteActivity)
class SiteActivityAdmin(ReadOnlyAdmin[SiteActivity]):
    """When each person was last on the site and last sent a turn email (clocks/presence.py
    `active`, `emailed`): written by their requests and the emails, read-only here."""

    list_display = ("user", "seen_at", "emailed_at")
    list_select_related = ("user",)
    search_fields = ("user__username",)


# ----------------------------------------------------------------------------------- rematches


class RematchAnswerInline(admin.TabularInline[RematchAnswer, Rematch]):
    model = RematchAnswer
    fields = ("user", "accepted", "answered_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Rematch)
class RematchAdmin(ReadOnlyAdmin[Rematch]):
    """An offer to play a finished table again (games/rematch.py): made and answered by the
    people at the table, read-only here."""

    list_display = ("game_link", "offered_by", "status", "new_game_link", "created_at")
    list_filter = ("status",)
    list_select_related = ("offered_by",)
    search_fields = ("=game__id", "offered_by__username")
    inlines = [RematchAnswerInline]

    @admin.display(description="game", ordering="game_id")
    def game_link(self, offer: Rematch) -> str:
        return game_link(offer.game_id)

    @admin.display(description="new game")
    def new_game_link(self, offer: Rematch) -> str:
        return game_link(offer.new_game_id)


@admin.register(RematchAnswer)
class RematchAnswerAdmin(ReadOnlyAdmin[RematchAnswer]):
    list_display = ("rematch", "user", "accepted", "answered_at")
    list_filter = ("accepted",)
    list_select_related = ("user",)
    search_fields = ("=rematch__game__id", "user__username")
