"""Look-alike usernames: "аlice" (its first letter Cyrillic) beside "alice" reads the same on
every page, so a name is refused when its confusable skeleton (Unicode TR39, section 4) is an
existing name's. ICU's SpoofChecker computes the skeleton (PyICU, requirements.txt); each
person's is kept in UsernameSkeleton, whose unique index refuses a look-alike even when two are
made at the same moment. Every way a User is saved goes through here (accounts/apps.py connects
the receivers): sign-up, the admin, createsuperuser, a shell. docs/operations.md, "Security".
"""

from __future__ import annotations

import unicodedata
from typing import Any

import icu
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q

from accounts.models import UsernameSkeleton


class LookAlikeUsername(ValidationError):
    """The name reads the same as an existing person's (code `username-look-alike`); forms show
    it on the username field, and a save that meets it writes nothing."""

    def __init__(self, name: str, taken: str) -> None:
        super().__init__(
            f"“{name}” looks the same as the existing username “{taken}”: choose a name that "
            "cannot be mistaken for another person's.",
            code="username-look-alike",
        )
        self.taken = taken


# The longest name sign-up gives (web/account_forms.py): it fits a seat's box and a status line
# on a phone. Django's own limit, 150, still holds for names made before (and by the admin).
NEW_USERNAME_MAX = 30


def username_skeleton(name: str) -> str:
    """The TR39 skeleton: equal for names that look alike ("аlice" and "alice", "rn" and "m",
    "I", "l" and "1"), not meant to be shown. A checker per call (about 4 µs): ICU's object is
    not shared between threads."""
    return str(icu.SpoofChecker().getSkeleton(0, name))


def folded_skeleton(name: str) -> str:
    """The skeleton of the name case-folded (NFKC, casefold, NFKC again): equal for names that
    look alike once case is ignored ("АLICE", its first letter Cyrillic, and "alice"), as names
    are unique whatever their case. TR39 section 4 recommends folding first for identifiers
    compared without case; the plain skeleton is kept too, since folding first loses some
    confusions ("I" folds to "i", which no longer reads as "l")."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return username_skeleton(folded)


def look_alike(name: str, *, user_id: int | None = None) -> str | None:
    """The existing username (not user `user_id`'s own) that `name` would be mistaken for, with
    case or without."""
    rows = UsernameSkeleton.objects.filter(
        Q(skeleton=username_skeleton(name)) | Q(folded=folded_skeleton(name))
    )
    if user_id is not None:
        rows = rows.exclude(user_id=user_id)
    row = rows.select_related("user").first()
    return None if row is None else row.user.username


def check_username(name: str, *, user_id: int | None = None) -> None:
    """Raise LookAlikeUsername when `name` reads the same as another person's username."""
    taken = look_alike(name, user_id=user_id)
    if taken is not None:
        raise LookAlikeUsername(name, taken)


# Set on a User by before_save when the save gives it a new name, for after_save.
_NEW_NAME = "_username_is_new"


def before_save(sender: Any, instance: User, update_fields: Any = None, **kwargs: Any) -> None:
    """A new person, or a new name, is refused before anything is written when it reads like
    someone else's. A save that leaves the name as it was (a sign-in's last_login, a new
    password) is not checked: people who held look-alike names before this check keep them."""
    setattr(instance, _NEW_NAME, False)
    if kwargs.get("raw") or (update_fields is not None and "username" not in update_fields):
        return
    if instance.pk is not None:
        before = User.objects.filter(pk=instance.pk).values_list("username", flat=True).first()
        if before == instance.username:
            return
    check_username(instance.username, user_id=instance.pk)
    setattr(instance, _NEW_NAME, True)


def after_save(sender: Any, instance: User, **kwargs: Any) -> None:
    """Keep the skeleton of a new name. A look-alike made meanwhile by another request is refused
    by the unique index (LookAlikeUsername; the caller's transaction then writes nothing)."""
    if not getattr(instance, _NEW_NAME, False):
        return
    setattr(instance, _NEW_NAME, False)
    skeleton = username_skeleton(instance.username)
    folded = folded_skeleton(instance.username)
    try:
        with transaction.atomic():
            UsernameSkeleton.objects.update_or_create(
                user=instance, defaults={"skeleton": skeleton, "folded": folded}
            )
    except IntegrityError:
        others = UsernameSkeleton.objects.filter(Q(skeleton=skeleton) | Q(folded=folded))
        other = others.exclude(user=instance).select_related("user").first()
        if other is None:
            raise
        raise LookAlikeUsername(instance.username, other.user.username) from None
