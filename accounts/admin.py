"""Admin pages for accounts: a person's profile (the birth date newno's Youngest Rule reads) and
their personal API token, of which only the prefix is shown (the SHA-256 is no one's business).
A token is never made here (its key is shown once, to its owner); deleting it revokes it, as
accounts.services.token_revoke does. Django's user pages, whose forms refuse a username that
reads the same as another person's (accounts/usernames.py), as sign-up does."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.contrib.auth.models import User
from django.http import HttpRequest

from accounts.models import PersonalToken, Profile, UsernameSkeleton
from accounts.usernames import check_username
from games.admin import ReadOnlyAdmin


class NewUserForm(AdminUserCreationForm):
    def clean_username(self) -> str:
        username: str = super().clean_username()
        if username:  # None: Django's check has put its error on the field
            check_username(username)
        return username


class ChangeUserForm(UserChangeForm[User]):
    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        # A new name only: people who held look-alike names before the check keep theirs.
        if "username" in self.changed_data:
            check_username(username, user_id=self.instance.pk)
        return username


class PersonAdmin(UserAdmin[User]):
    add_form = NewUserForm
    form = ChangeUserForm


admin.site.unregister(User)
admin.site.register(User, PersonAdmin)


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin[Profile]):
    list_display = ("user", "birth_date")
    list_select_related = ("user",)
    search_fields = ("user__username", "user__email")
    autocomplete_fields = ("user",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return ("user",) if obj is not None else ()


@admin.register(PersonalToken)
class PersonalTokenAdmin(admin.ModelAdmin[PersonalToken]):
    list_display = ("user", "name", "prefix", "scopes", "created_at", "last_used_at")
    list_select_related = ("user",)
    search_fields = ("user__username", "name")
    # No key_hash: not a field of the page, nor of its search.
    fields = ("user", "name", "prefix", "scopes", "created_at", "last_used_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(UsernameSkeleton)
class UsernameSkeletonAdmin(ReadOnlyAdmin[UsernameSkeleton]):
    """Each person's confusable skeletons (accounts/usernames.py): kept by every save of a User,
    never edited here; to look up which name a refused look-alike was mistaken for."""

    list_display = ("user", "skeleton", "folded")
    list_select_related = ("user",)
    search_fields = ("user__username", "skeleton", "folded")
