"""The tournaments in Django's admin: the settings editable before the start; the rounds, the
tables and the results (written once, or folded from the log) read-only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import Entry, Result, Round, Tournament, TournamentGame


class ReadOnly(admin.ModelAdmin[Any]):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    list_display = ["name", "slug", "format", "status", "table_size", "entry_closes", "club"]
    list_filter = ["format", "status", "bots_allowed", "rated"]
    search_fields = ["name", "slug"]
    readonly_fields = ["status", "started_at", "finished_at", "seed", "variant", "seeding"]


@admin.register(Entry)
class EntryAdmin(ReadOnly):
    list_display = ["tournament", "user", "bot", "withdrawn", "entered_at"]
    list_filter = ["withdrawn"]


@admin.register(Round)
class RoundAdmin(ReadOnly):
    list_display = ["tournament", "number", "started_at", "deadline", "finished_at"]


@admin.register(TournamentGame)
class TournamentGameAdmin(ReadOnly):
    list_display = ["round", "table", "game", "entries"]


@admin.register(Result)
class ResultAdmin(ReadOnly):
    list_display = ["tournament", "round", "game", "entry", "place", "points", "forfeited"]
