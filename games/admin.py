"""Admin pages for games: look, don't touch.

Games are created and moved only by games/services.py (an admin-made game would have no events),
events are append-only, and read models belong to their projections. The admin may edit a
game's context and reveal setting, nothing else. A private event's data (hidden cards) shows
only once its match is over: staff who also play must not be able to peek.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import (
    Game,
    GameEvent,
    GameSummary,
    HandResult,
    MatchResult,
    ProjectionCheckpoint,
    Seat,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("number", "user", "bot", "age", "controller", "deadline_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "rules",
        "seat_count",
        "status",
        "hand_number",
        "version",
        "last_activity",
    )
    list_filter = ("status", "reveal")
    inlines = [SeatInline]
    readonly_fields = (
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

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(GameEvent)
class GameEventAdmin(ReadOnlyAdmin):
    list_display = ("global_position", "game", "version", "type", "visibility", "actor")
    list_filter = ("type", "visibility")
    list_select_related = ("game",)
    search_fields = ("=game__id", "=command_id")
    fields = (
        "global_position",
        "game",
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

    @admin.display(description="data")
    def shown_data(self, event: GameEvent) -> Any:
        if event.visibility == GameEvent.Visibility.PUBLIC:
            return event.data
        if event.game.status == Game.Status.MATCH_OVER:
            return event.data
        return "(hidden until the match is over)"


@admin.register(GameSummary)
class GameSummaryAdmin(ReadOnlyAdmin):
    list_display = ("game", "status", "to_act", "scores", "hand_number", "version", "last_activity")
    list_filter = ("status",)


@admin.register(HandResult)
class HandResultAdmin(ReadOnlyAdmin):
    list_display = ("game", "hand_number", "winner", "gained", "scores")


@admin.register(MatchResult)
class MatchResultAdmin(ReadOnlyAdmin):
    list_display = ("game", "winner", "places", "scores", "hands_won", "hands")


@admin.register(ProjectionCheckpoint)
class ProjectionCheckpointAdmin(ReadOnlyAdmin):
    list_display = ("name", "position", "updated_at")
