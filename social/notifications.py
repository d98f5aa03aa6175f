"""The notification centre's one way in: `notify` adds a notice for a person (once per key), and
`unread_count` is the figure on the bell."""

from __future__ import annotations

from typing import Any

from social.models import Notification


def notify(user: Any, kind: str, text: str, *, url: str = "", key: str) -> bool:
    """Add a notice for `user` unless one with the same `key` is there already; True if added.
    `text` is one line a person reads ("ana opened a table you follow"), `url` where it links."""
    if user is None or not getattr(user, "pk", None):
        return False
    _, created = Notification.objects.get_or_create(
        user=user, key=key[:120], defaults={"kind": kind, "text": text[:300], "url": url[:300]}
    )
    return created


def unread_count(user: Any) -> int:
    if not getattr(user, "is_authenticated", False):
        return 0
    return Notification.objects.filter(user=user, read_at__isnull=True).count()
