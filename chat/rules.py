"""What every word said on the site goes through, at a table or on a board: its text (kept as
written, trimmed, 1 to MESSAGE_LENGTH characters), the speaker's chat restriction, the rate limit
(RATE_COUNT messages per RATE_SECONDS, tables and boards together), and whom a reader mutes."""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Min
from django.utils import timezone

from chat.errors import ChatForbidden, ChatInvalid, ChatRateLimited, ChatRestricted
from chat.models import ChatRestriction, ClubPost, Message, Mute
from games.actors import is_person

MESSAGE_LENGTH = 500
RATE_COUNT = 5
RATE_SECONDS = 10
# What everyone but staff reads in place of a hidden message or post.
HIDDEN_TEXT = "message hidden by moderators"


def clean_text(given: Any) -> str:
    """The text as written, without surrounding blanks; ChatInvalid if empty or too long."""
    text = str(given or "").strip()
    if not text:
        raise ChatInvalid("say something: the message is empty", code="empty-message")
    if len(text) > MESSAGE_LENGTH:
        raise ChatInvalid(
            f"a message has at most {MESSAGE_LENGTH} characters ({len(text)} given)",
            code="message-too-long",
        )
    return text


def restricted_until(user: Any, *, now: datetime | None = None) -> datetime | None:
    """The end of the person's chat restriction, if one runs now."""
    now = now or timezone.now()
    return (
        ChatRestriction.objects.filter(user_id=user.pk, until__gt=now)
        .order_by("-until")
        .values_list("until", flat=True)
        .first()
    )


def check_speaker(user: Any) -> None:
    """A signed-in person, not restricted, under the rate limit; else the typed refusal."""
    if not is_person(user):
        raise ChatForbidden("sign in to chat", code="not-signed-in")
    now = timezone.now()
    until = restricted_until(user, now=now)
    if until is not None:
        raise ChatRestricted(until)
    since = now - timedelta(seconds=RATE_SECONDS)
    said = [
        model.objects.filter(author_id=user.pk, created_at__gt=since).aggregate(
            n=Min("created_at"), count=Count("pk")
        )
        for model in (Message, ClubPost)
    ]
    count = sum(int(row["count"] or 0) for row in said)
    if count >= RATE_COUNT:
        oldest = min(row["n"] for row in said if row["n"] is not None)
        wait = (oldest + timedelta(seconds=RATE_SECONDS) - now).total_seconds()
        raise ChatRateLimited(max(1, math.ceil(wait)))


def muted_by(user: Any) -> set[int]:
    """The ids of the people `user` mutes (none for a visitor)."""
    if not is_person(user):
        return set()
    return set(Mute.objects.filter(muter_id=user.pk).values_list("muted_id", flat=True))


def is_staff(user: Any) -> bool:
    return is_person(user) and user.is_active and user.is_staff


def shown_text(item: Message | ClubPost, viewer: Any) -> str | None:
    """The text a viewer reads: None for a hidden one, but for staff (who read it whole)."""
    if item.hidden and not is_staff(viewer):
        return None
    return item.text
