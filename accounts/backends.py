"""Sign-in by a username in any case: names are unique whatever their case (accounts/usernames.py
refuses "tobi_r" beside "Tobi_R" at sign-up), so "tobi_r" signs Tobi_R in, as a person who typed
their name on a phone's keyboard expects. The account is found as the database folds case
(UPPER), through the index the people's directory reads (accounts/migrations/0007), and
django-axes counts failed sign-ins under the name folded the same way (`lockout_name`), so no
way of writing a name ("ADA", "Ada", "mıa" for "mia") gets more tries than another."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import Func, Value
from django.db.models.functions import Collate, Upper
from django.http import HttpRequest


def _folded_key() -> Func:
    """UPPER(username), with the "C" collation on PostgreSQL: the expression the index holds."""
    key: Func = Upper("username")
    return Collate(key, "C") if connection.vendor == "postgresql" else key


def account_named(username: str) -> Any | None:
    """The account whose name is `username` in any case; the exact name first, should two
    accounts from before names were unique whatever their case differ only by it."""
    users = get_user_model()._default_manager
    found = list(users.annotate(folded=_folded_key()).filter(folded=Upper(Value(username)))[:2])
    if len(found) > 1:
        found = [user for user in found if user.get_username() == username]
    return found[0] if len(found) == 1 else None


class AnyCaseModelBackend(ModelBackend):
    """Django's ModelBackend, with the account found by its name in any case. A name and a
    password that sign nobody in end the sign-in here (PermissionDenied: Django's authenticate
    asks no backend after it, and tells django-axes of the failure once): ModelBackend, listed
    after it for the sessions it signed in (config/settings.py), would only find no one again,
    hashing the password a second time (0.2-0.5 s of CPU a hash) for every failed sign-in."""

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
            raise PermissionDenied
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        raise PermissionDenied


def lockout_name(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """AXES_USERNAME_CALLABLE: the name a sign-in is counted under, folded by the database as
    the account is found (LOWER(UPPER(name)): every way of writing that finds one account counts
    as one; lower case, as an operator types it for `axes_reset_username`). Kept on the request,
    which axes asks several times."""
    source = credentials if credentials else getattr(request, "POST", {})
    name = source.get("username") if source else None
    if not isinstance(name, str):
        return name
    kept = getattr(request, "_lockout_name", None)
    if kept is not None and kept[0] == name:
        return str(kept[1])
    with connection.cursor() as cursor:
        cursor.execute("SELECT LOWER(UPPER(%s))", [name])
        folded = str(cursor.fetchone()[0])
    if request is not None:
        request._lockout_name = (name, folded)  # type: ignore[attr-defined]
    return folded
