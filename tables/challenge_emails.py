"""A challenge's one email: the person challenged learns of it away from the site, as they learn
of a turn that waits (social/emails.py sends both, with the same unsubscribe link).

open_table publishes `ChallengeSent` on commit; the dispatcher (games/dispatch.py) turns it into
the task `send_challenge_email` (tables/tasks.py; in-process under `make run`). The table's
`challenge_emailed_at` is claimed before anything is sent, so a repeated task, or the sweep that
sends the email of a task that was lost (`unsent`), never sends a second. Nothing is sent to a
person who chose no email, who has no address, or once the challenge is no longer open (accepted,
declined, cancelled or past its time before the task ran). Nor, yet, to a person on the site (a
request of theirs within GAMES_SITE_ACTIVE_SECONDS, clocks/presence.py): the challenge waits
under their bell, unclaimed, and the sweep (`unsent`) emails it once they are off the site that
long with the challenge still open, as a turn's email waits (clocks/deadlines.py)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from clocks import presence
from games.models import SiteActivity
from games.variant_text import duration, moment, variant_details, variant_title
from social import emails
from tables.models import Table
from tables.services import challenge_sentence


def send_challenge_email(table_id: int) -> bool:
    """Email the challenged person their challenge, once; True if an email went out. Left
    unclaimed while they are on the site (the sweep sends it later)."""
    now = timezone.now()
    claimed = (
        Table.objects.filter(pk=table_id, challenged__isnull=False, challenge_emailed_at=None)
        .exclude(Exists(_on_site(now)))
        .update(challenge_emailed_at=now)
    )
    if not claimed:
        return False
    table = Table.objects.select_related("opener", "challenged").get(pk=table_id)
    person = table.challenged
    if (
        person is None
        or not person.email
        or table.status != Table.Status.OPEN
        or table.expires_at <= now
        or not emails.wants_email(person.pk)
    ):
        return False
    details = variant_details(table.variant)
    rules = variant_title(table.variant) + (f": {details}" if details else "")
    emails.send(
        person,
        challenge_sentence(table),
        f"{challenge_sentence(table)}.\n\n"
        f"The rules: {rules}.\n"
        f"A turn: up to {duration(table.turn_seconds)}, then the default bot plays it.\n"
        f"{'Rated: the game counts for your rating' if table.rated else 'Casual: unrated'}.\n\n"
        f"Accept or decline it before {moment(table.expires_at)} (it lapses then):\n"
        f"{settings.SITE_URL.rstrip('/')}/tables/{table.pk}/\n",
    )
    return True


def unsent(*, older_than: timedelta) -> list[int]:
    """The open challenges whose email no task claimed within `older_than` of their opening (the
    task was lost, or their person was on the site), of people off the site now: the sweep
    sends them (tables/tasks.py), claimed as the task claims them."""
    now = timezone.now()
    return list(
        Table.objects.filter(
            status=Table.Status.OPEN,
            challenged__isnull=False,
            challenge_emailed_at=None,
            created_at__lte=now - older_than,
            expires_at__gt=now,
        )
        .exclude(Exists(_on_site(now)))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _on_site(now: datetime) -> QuerySet[SiteActivity]:
    """The challenged person's activity on the site within GAMES_SITE_ACTIVE_SECONDS."""
    return SiteActivity.objects.filter(
        Q(seen_at__gte=now - presence.site_window()), user_id=OuterRef("challenged_id")
    )
