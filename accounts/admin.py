"""Admin pages for accounts: a person's profile (the birth date newno's Youngest Rule reads) and
their personal API token, of which only the prefix is shown (the SHA-256 is no one's business).
A token is never made here (its key is shown once, to its owner); deleting it revokes it, as
accounts.services.token_revoke does."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import PersonalToken, Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "birth_date")
    list_select_related = ("user",)
    search_fields = ("user__username", "user__email")
    autocomplete_fields = ("user",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return ("user",) if obj is not None else ()


@admin.register(PersonalToken)
class PersonalTokenAdmin(admin.ModelAdmin):
    list_display = ("user", "prefix", "created_at", "last_used_at")
    list_select_related = ("user",)
    search_fields = ("user__username",)
    # No key_hash: not a field of the page, nor of its search.
    fields = ("user", "prefix", "created_at", "last_used_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
