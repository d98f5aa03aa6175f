"""Accounts: sign-up, profiles and personal API tokens (keyword-only, typed)."""

from __future__ import annotations

import datetime
import hashlib
import secrets

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounts.models import SCOPES, PersonalToken, Profile
from games import rows


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def scopes_text(scopes: list[str] | tuple[str, ...]) -> str:
    """`scopes` as stored: known ones only, in SCOPES's order, space-separated."""
    unknown = set(scopes) - set(SCOPES)
    if unknown or not scopes:
        raise ValueError(f"scopes must be some of {', '.join(SCOPES)}, not {sorted(unknown)}")
    return " ".join(scope for scope in SCOPES if scope in scopes)


def token_issue(*, user: User, scopes: list[str] | tuple[str, ...] = SCOPES) -> str:
    """Give `user` a new personal API token with `scopes` (any old one stops working) and
    return it, once."""
    key = secrets.token_urlsafe(32)
    text = scopes_text(scopes)
    with transaction.atomic():
        PersonalToken.objects.filter(user=user).delete()
        PersonalToken.objects.create(user=user, key_hash=key_hash(key), prefix=key[:6], scopes=text)
    return key


def token_revoke(*, user: User) -> bool:
    """Delete `user`'s personal token; whether there was one."""
    deleted, _ = PersonalToken.objects.filter(user=user).delete()
    return bool(deleted)


# Every request with a token reads it (games/rows.py: the SQL written once, not compiled each time).
_TOKEN_OF: rows.Select[PersonalToken] = rows.Select(
    'SELECT {t_columns}, {u_columns} FROM "accounts_personaltoken" t '
    'JOIN "auth_user" u ON u.id = t.user_id WHERE t.key_hash = %s AND u.is_active',
    [rows.Table(PersonalToken, "t"), rows.Table(User, "u")],
    ["user"],
)


def token_for_key(key: str) -> PersonalToken | None:
    """The token `key` is, of an active person (token.user), or None; notes when it was last
    used."""
    if not key:
        return None
    token = _TOKEN_OF.first([key_hash(key)])
    if token is None:
        return None
    now = timezone.now()
    # At most one write a minute per token: a script polling every second costs no writes.
    if token.last_used_at is None or now - token.last_used_at > datetime.timedelta(minutes=1):
        PersonalToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token


def user_for_token(key: str) -> User | None:
    """The active person whose token `key` is, or None; notes when it was last used."""
    token = token_for_key(key)
    return None if token is None else token.user


def profile_of(user: User) -> Profile:
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def sign_up(*, username: str, email: str, password: str, birth_date: datetime.date) -> User:
    """Create a person and their profile (the form has checked the fields)."""
    with transaction.atomic():
        user = User.objects.create_user(username=username, email=email, password=password)
        Profile.objects.create(user=user, birth_date=birth_date)
    return user


def export_name_change(*, user: User, shown: bool) -> Profile:
    """Whether the open database shows the person's username at their seats (docs/database.md);
    files already written keep what they hold until their month is exported again."""
    profile = profile_of(user)
    profile.export_name = shown
    profile.save(update_fields=["export_name"])
    return profile


def birth_date_change(*, user: User, birth_date: datetime.date | None) -> Profile:
    """Set (or clear) a person's birth date; started games keep the ages they were dealt with."""
    profile = profile_of(user)
    profile.birth_date = birth_date
    profile.save(update_fields=["birth_date"])
    return profile
