"""Admin pages for leagues.

Competitions may be added and edited here: the model's clean() checks the variant and the table
size as competition_create does, and a change never reaches a game already created (its
settings were copied into the game's context). Entries are made by league.services
.competition_join (which checks bots' status), so here they can only be looked at and withdrawn.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest

from .models import Club, Competition, Entry, Fixture, Membership, Season, Standing


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "slug",
        "kind",
        "rules",
        "seats_per_game",
        "matchmaking",
        "active_entries",
        "created_at",
    )
    list_filter = ("kind", "matchmaking")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("created_by", "created_at")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Competition]:
        return (
            super()
            .get_queryset(request)
            .annotate(active_entries=Count("entries", filter=Q(entries__active=True)))
        )

    @admin.display(description="rules")
    def rules(self, competition: Competition) -> str:
        return str(competition.variant.get("rules", ""))

    @admin.display(description="active entries", ordering="active_entries")
    def active_entries(self, competition: Competition) -> int:
        return competition.active_entries  # type: ignore[attr-defined]

    def save_model(self, request: HttpRequest, obj: Competition, form: Any, change: bool) -> None:
        if not change:
            # The admin site lets only signed-in staff this far.
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)


@admin.action(description="Withdraw the selected entries (their running games play on)")
def withdraw(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
    queryset.update(active=False)


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("competition", "user", "bot", "bot_status", "active", "joined_at")
    list_filter = ("active", "competition__kind", "competition")
    list_select_related = ("competition", "user", "bot")
    search_fields = ("user__username", "bot__name", "competition__name")
    readonly_fields = ("competition", "user", "bot", "joined_at", "active")
    actions = [withdraw]

    @admin.display(description="bot status")
    def bot_status(self, entry: Entry) -> str:
        return entry.bot.status if entry.bot else ""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


# Clubs and seasons are run from the site's pages (league/clubs.py, league/seasons.py check
# who may do what); here staff look at them and fix a club's name or description.
class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    fields = ("user", "role", "status", "joined_at")
    readonly_fields = ("user", "joined_at")


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "created_at")
    search_fields = ("name", "slug")
    readonly_fields = ("slug", "invite_code", "created_at")
    inlines = [MembershipInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows a service or a projection writes: shown, never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Season)
class SeasonAdmin(ReadOnlyAdmin):
    list_display = ("competition", "club", "status", "start_date", "rounds", "round_days")
    list_filter = ("status", "club")
    list_select_related = ("competition", "club")
    search_fields = ("competition__name", "competition__slug", "club__name")


@admin.register(Fixture)
class FixtureAdmin(ReadOnlyAdmin):
    list_display = ("division", "round", "table", "opens_at", "deadline", "game")
    list_filter = ("division__season",)
    list_select_related = ("division__season__competition", "game")


@admin.register(Standing)
class StandingAdmin(ReadOnlyAdmin):
    list_display = ("division", "entry", "played", "wins", "league_points", "forfeits")
    list_filter = ("division__season",)
    list_select_related = ("division__season__competition", "entry__user", "entry__bot")
