"""A challenge's one email: the person challenged learns of it away from the site, as they learn
of a turn that waits (social/emails.py sends both, with the same unsubscribe link). An
invitation (tables/invitations.py) emails each person it names the same way, once each
(`send_invitation_emails`, claimed by an InvitationEmail row; the sweep's `unsent_invitations`).

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
from tables.invitations import invitation_sentence, plan_names
from tables.models import InvitationEmail, Table, TableSeat
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
    emails.send(
        person,
        challenge_sentence(table),
        f"{challenge_sentence(table)}.\n\n{_terms(table)}\n"
        f"Accept or decline it before {moment(table.expires_at)} (it lapses then):\n"
        f"{_link(table)}\n",
    )
    return True


def _terms(table: Table) -> str:
    """The table's rules, turn and rating, a line each."""
    details = variant_details(table.variant)
    rules = variant_title(table.variant) + (f": {details}" if details else "")
    return (
        f"The rules: {rules}.\n"
        f"A turn: up to {duration(table.turn_seconds)}, then the default bot plays it.\n"
        f"{'Rated: the game counts for your rating' if table.rated else 'Casual: unrated'}.\n"
    )


def _link(table: Table) -> str:
    return f"{settings.SITE_URL.rstrip('/')}/tables/{table.pk}/"


def send_invitation_emails(table_id: int) -> int:
    """Email each person an open invitation names, who has not accepted it yet, its one email;
    returns how many went out. Each is claimed (an InvitationEmail row) before anything is
    sent, so a repeated task sends nothing; a person on the site is left unclaimed, for the
    sweep (`unsent_invitations`) once they are off it, as a challenge's email waits."""
    now = timezone.now()
    table = (
        Table.objects.select_related("opener")
        .filter(pk=table_id, plan__isnull=False, status=Table.Status.OPEN, expires_at__gt=now)
        .first()
    )
    if table is None:
        return 0
    waiting = (
        table.invited.exclude(pk__in=TableSeat.objects.filter(table=table).values("user_id"))
        .exclude(Exists(_on_site(now, "pk")))
        .order_by("pk")
    )
    sent = 0
    for person in waiting:
        _, claimed = InvitationEmail.objects.get_or_create(
            table=table, user=person, defaults={"at": now}
        )
        if not claimed or not person.email or not emails.wants_email(person.pk):
            continue
        seats = ", ".join("you" if name == person.username else name for name in plan_names(table))
        emails.send(
            person,
            invitation_sentence(table),
            f"{invitation_sentence(table)}.\n\n"
            f"The seats, in order: {seats}.\n{_terms(table)}\n"
            "The game starts when everyone invited has accepted; one decline calls it off.\n"
            f"Accept or decline it before {moment(table.expires_at)} (it lapses then):\n"
            f"{_link(table)}\n",
        )
        sent += 1
    return sent


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


def unsent_invitations(*, older_than: timedelta) -> list[int]:
    """The open invitations opened `older_than` ago or more that still name a person who has not
    accepted, whose email no task claimed, and who is off the site now: the sweep sends them
    (`send_invitation_emails`)."""
    now = timezone.now()
    through = Table.invited.through
    unsent = (
        through.objects.filter(table_id=OuterRef("pk"))
        .exclude(
            Exists(
                TableSeat.objects.filter(table_id=OuterRef("table_id"), user_id=OuterRef("user_id"))
            )
        )
        .exclude(
            Exists(
                InvitationEmail.objects.filter(
                    table_id=OuterRef("table_id"), user_id=OuterRef("user_id")
                )
            )
        )
        .exclude(Exists(_on_site(now, "user_id")))
    )
    return list(
        Table.objects.filter(
            status=Table.Status.OPEN,
            plan__isnull=False,
            created_at__lte=now - older_than,
            expires_at__gt=now,
        )
        .filter(Exists(unsent))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _on_site(now: datetime, person: str = "challenged_id") -> QuerySet[SiteActivity]:
    """The activity on the site within GAMES_SITE_ACTIVE_SECONDS of the person the outer
    query's `person` names (a challenge's challenged person, by default)."""
    return SiteActivity.objects.filter(
        Q(seen_at__gte=now - presence.site_window()), user_id=OuterRef(person)
    )
