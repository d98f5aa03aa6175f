"""Sign-in by a username in any case: names are unique whatever their case (accounts/usernames.py
refuses "tobi_r" beside "Tobi_R" at sign-up), so "tobi_r" signs Tobi_R in, as a person who typed
their name on a phone's keyboard expects. django-axes counts failed sign-ins under the name
case-folded too (`lockout_name`), so varying a name's case gets no more tries."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.http import HttpRequest


def account_named(username: str) -> Any | None:
    """The account whose name is `username` in any case; the exact name first, should two
    accounts from before names were unique whatever their case differ only by it."""
    users = get_user_model()._default_manager
    found = list(users.filter(username__iexact=username)[:2])
    if len(found) > 1:
        found = [user for user in found if user.get_username() == username]
    return found[0] if len(found) == 1 else None


class AnyCaseModelBackend(ModelBackend):
    """Django's ModelBackend, with the account found by its name in any case."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any | None:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        user = account_named(username)
        if user is None:
            # As ModelBackend: hash once anyway, so a missing name takes as long as a wrong
            # password (no timing tells which names exist).
            get_user_model()().set_password(password)
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None


def lockout_name(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """AXES_USERNAME_CALLABLE: the name a sign-in is counted under, case-folded."""
    source = credentials if credentials else getattr(request, "POST", {})
    name = source.get("username") if source else None
    return name.casefold() if isinstance(name, str) else name
