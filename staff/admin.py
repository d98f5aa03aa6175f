"""Admin page for the staff console's audit trail: read-only for everyone, superusers included
(an audit entry is written with the change it records and never edited; staff/models.py). A
game's entry links to the game's inspector."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.admin import game_link
from staff.models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("at", "actor", "action", "target_link", "reason")
    list_filter = ("action",)
    list_select_related = ("actor",)
    search_fields = ("target", "reason", "actor__username")
    fields = ("at", "actor", "action", "target_link", "reason", "details")
    readonly_fields = fields

    @admin.display(description="target", ordering="target")
    def target_link(self, entry: AuditEntry) -> str:
        kind, _, key = entry.target.partition(":")
        if kind == "game" and key.isdigit():
            return game_link(int(key))
        return entry.target

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
