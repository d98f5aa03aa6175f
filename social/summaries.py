"""While you were away: one email that lists what waits under a person's bell, for the notices
that have no email of their own (a season started or a fixture opened, a club's announcement and
its replies, a tournament's round, a forfeit ruled, a request to join approved, a bot
suspended). A turn, a challenge and an invitation are emailed on their own (clocks/deadlines.py,
tables/challenge_emails.py); a followed person's new table is not (it fills or lapses in
minutes).

A notice goes in a summary when nobody read it, its person has not been on the site since it was
made (clocks/presence.py: a request of theirs; the bell showed it then) and it has waited
SOCIAL_SUMMARY_DELAY_SECONDS, so that one back soon reads it under the bell and notices made
together go in one email; at most one summary per SOCIAL_SUMMARY_EVERY_SECONDS a person, never
while they are on the site, and never a notice twice (SiteActivity `summarized_at`, claimed
before the email is sent). A person who chose no email, or has no address, gets none. The beat
(`notice-summaries`) sends them, as `make run`'s run_periodic does."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from clocks import presence
from games.models import NotificationPreference, SiteActivity
from social import emails
from social.models import Notification

# Emailed on their own, or not worth an email once the moment has passed.
OWN_EMAIL = (
    Notification.Kind.TURN,
    Notification.Kind.CHALLENGE,
    Notification.Kind.FOLLOW,
)
# The notices a summary lists; the rest are "and N more" with the bell's link.
LISTED = 10


def send_summaries(now: datetime | None = None) -> int:
    """Email every person due one their summary; returns the emails sent."""
    now = now or timezone.now()
    due: dict[int, list[Notification]] = {}
    for notice in _pending(now):
        due.setdefault(notice.user_id, []).append(notice)
    sent = 0
    for user_id, notices in due.items():
        if _claim(user_id, now):
            _send(notices[0].user, notices)
            sent += 1
    return sent


def _pending(now: datetime) -> Any:
    """The unread notices due in a summary now, oldest first by person (module docstring)."""
    every = now - timedelta(seconds=settings.SOCIAL_SUMMARY_EVERY_SECONDS)
    activity = SiteActivity.objects.filter(user_id=OuterRef("user_id")).filter(
        # Back on the site since the notice (the bell showed it), or on it now.
        Q(seen_at__gte=OuterRef("created_at"))
        | Q(seen_at__gte=now - presence.site_window())
        # Told in a summary already, or summarized lately.
        | Q(summarized_at__gte=OuterRef("created_at"))
        | Q(summarized_at__gte=every)
    )
    return (
        Notification.objects.filter(
            read_at=None,
            created_at__lte=now - timedelta(seconds=settings.SOCIAL_SUMMARY_DELAY_SECONDS),
        )
        .exclude(kind__in=OWN_EMAIL)
        .exclude(Exists(activity))
        .exclude(user__email="")
        .exclude(user__notification_preference__turn_emails=NotificationPreference.TurnEmails.NONE)
        .select_related("user")
        .order_by("user_id", "created_at", "pk")
    )


def _claim(user_id: int, now: datetime) -> bool:
    """Mark the person summarized now, unless another run did within the period: True when
    this run is the one to send."""
    every = now - timedelta(seconds=settings.SOCIAL_SUMMARY_EVERY_SECONDS)
    claimed = (
        SiteActivity.objects.filter(user_id=user_id)
        .filter(Q(summarized_at=None) | Q(summarized_at__lt=every))
        .update(summarized_at=now)
    )
    if claimed:
        return True
    if SiteActivity.objects.filter(user_id=user_id).exists():
        return False
    try:
        with transaction.atomic():
            SiteActivity.objects.create(user_id=user_id, summarized_at=now)
    except IntegrityError:  # another run made the row first: its claim
        return False
    return True


def _send(user: Any, notices: list[Notification]) -> None:
    site = settings.SITE_URL.rstrip("/")
    count = len(notices)
    lines = [
        f"- {notice.text}" + (f"\n  {site}{notice.url}" if notice.url.startswith("/") else "")
        for notice in notices[:LISTED]
    ]
    if count > LISTED:
        lines.append(f"- and {count - LISTED} more")
    things = "1 thing waits" if count == 1 else f"{count} things wait"
    emails.send(
        user,
        f"While you were away: {things} under your bell",
        "Since you were last on the site:\n\n"
        + "\n".join(lines)
        + f"\n\nEverything under your bell: {site}/notifications/\n"
        "This is the one email about these; the next, if more comes while you are away, in "
        f"{_hours(settings.SOCIAL_SUMMARY_EVERY_SECONDS)} at the soonest.\n",
    )


def _hours(seconds: int) -> str:
    hours = round(seconds / 3600)
    return "1 hour" if hours == 1 else f"{hours} hours"
