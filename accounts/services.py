"""Accounts: sign-up, profiles and personal API tokens (keyword-only, typed).

A person holds up to TOKENS_MAX named tokens, each with its own scopes; the one named
DEFAULT_TOKEN is the one `token_issue` replaces and `token_revoke` deletes (`/api/me/token`).
The refusals are typed (InvalidTokenName 400, TokenRefused 409; docs/api.md lists the codes)."""

from __future__ import annotations

import datetime
import hashlib
import secrets
import unicodedata

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import DEFAULT_TOKEN, SCOPES, PersonalToken, Profile
from games import rows
from games.actors import lock_person
from games.errors import GameError, GameRefused


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def scopes_text(scopes: list[str] | tuple[str, ...]) -> str:
    """`scopes` as stored: known ones only, in SCOPES's order, space-separated."""
    unknown = set(scopes) - set(SCOPES)
    if unknown or not scopes:
        raise ValueError(f"scopes must be some of {', '.join(SCOPES)}, not {sorted(unknown)}")
    return " ".join(scope for scope in SCOPES if scope in scopes)


class InvalidTokenName(GameError):
    """A token's name that is empty once trimmed, too long, or holds a control character."""

    code = "invalid-token-name"


class TokenRefused(GameRefused):
    """A token that may not be made now (409): `token-name-taken`, another of the person's
    tokens has the name (in any case); `too-many-tokens`, the person holds TOKENS_MAX."""

    code = "token-refused"


# How many tokens a person may hold at once: one per script or machine, not one per run.
TOKENS_MAX = 10
NAME_LENGTH = int(PersonalToken._meta.get_field("name").max_length or 0)


def check_token_name(name: str) -> str:
    """The name trimmed, as a bot's is (bots/registry.py), and in Unicode's composed form (NFC:
    "café" typed as e and an accent is the same name as with é): 1 to NAME_LENGTH characters,
    none a control character (a newline, a tab); else InvalidTokenName."""
    name = unicodedata.normalize("NFC", (name or "").strip())
    if not name or len(name) > NAME_LENGTH:
        raise InvalidTokenName(f"a token's name has 1 to {NAME_LENGTH} characters")
    if any(unicodedata.category(char) in ("Cc", "Cf") for char in name):
        raise InvalidTokenName("a token's name holds no control or invisible formatting character")
    return name


def tokens_of(user: User) -> list[PersonalToken]:
    """The person's tokens, oldest first."""
    return list(PersonalToken.objects.filter(user=user).order_by("created_at", "pk"))


def default_token_of(user: User) -> PersonalToken | None:
    """The person's token named DEFAULT_TOKEN (in any case), which `/api/me/token` manages."""
    return PersonalToken.objects.filter(user=user, name__iexact=DEFAULT_TOKEN).first()


def token_create(
    *, user: User, name: str, scopes: list[str] | tuple[str, ...] = SCOPES
) -> tuple[PersonalToken, str]:
    """Give `user` a new token named `name` with `scopes`, beside their others; return it and
    its key, shown once. TokenRefused when the name is taken or the person holds TOKENS_MAX."""
    name = check_token_name(name)
    text = scopes_text(scopes)
    try:
        with transaction.atomic():
            lock_person(user)
            same = PersonalToken.objects.filter(user=user, name__iexact=name)
            held = same.values_list("name", flat=True).first()
            if held is not None:
                raise _name_taken(held)
            return _create(user=user, name=name, scopes=text)
    except IntegrityError:
        # The same name made by a concurrent request (the lock makes this the rare case).
        raise _name_taken(name) from None


def default_token_issue(
    *, user: User, scopes: list[str] | tuple[str, ...] = SCOPES
) -> tuple[PersonalToken, str]:
    """Replace `user`'s token named DEFAULT_TOKEN (its key stops working; their other tokens
    are left alone) by a new one with `scopes`, or make it; return it and its key, shown once."""
    text = scopes_text(scopes)
    with transaction.atomic():
        lock_person(user)
        old = default_token_of(user)
        name = old.name if old is not None else DEFAULT_TOKEN
        if old is not None:
            old.delete()
        return _create(user=user, name=name, scopes=text)


def token_issue(*, user: User, scopes: list[str] | tuple[str, ...] = SCOPES) -> str:
    """Give `user` a new default token with `scopes` (the old default stops working) and
    return its key, once."""
    _, key = default_token_issue(user=user, scopes=scopes)
    return key


def token_revoke(*, user: User) -> bool:
    """Delete `user`'s default token (their others stay); whether there was one."""
    deleted, _ = PersonalToken.objects.filter(user=user, name__iexact=DEFAULT_TOKEN).delete()
    return bool(deleted)


def token_revoke_one(*, user: User, token_id: int) -> PersonalToken | None:
    """Delete `user`'s token `token_id`: the one deleted, or None when they have no such token
    (another person's included)."""
    token = PersonalToken.objects.filter(user=user, pk=token_id).first()
    if token is None:
        return None
    PersonalToken.objects.filter(pk=token.pk).delete()
    return token


def _create(*, user: User, name: str, scopes: str) -> tuple[PersonalToken, str]:
    """Inside the transaction that holds the person's lock: TokenRefused `too-many-tokens` at
    TOKENS_MAX, else the new token and its key."""
    if PersonalToken.objects.filter(user=user).count() >= TOKENS_MAX:
        raise TokenRefused(
            f"a person holds at most {TOKENS_MAX} API tokens, and you hold that many: "
            "revoke one first",
            code="too-many-tokens",
        )
    key = secrets.token_urlsafe(32)
    token = PersonalToken.objects.create(
        user=user, name=name, key_hash=key_hash(key), prefix=key[:6], scopes=scopes
    )
    return token, key


def _name_taken(name: str) -> TokenRefused:
    return TokenRefused(f"you already have a token named “{name}”", code="token-name-taken")


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
