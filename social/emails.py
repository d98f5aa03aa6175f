"""The site's emails to a person: a turn that waits, the daily digest (clocks/deadlines.py), a
challenge or an invitation (tables/challenge_emails.py), what waits under the bell
(social/summaries.py). One way to send them, so every one ends alike: why it
came, the profile page that chooses them, and a signed link that stops them all with one click
(clocks/presence.py), with the List-Unsubscribe headers of RFC 8058.

Who wants them is one choice, `NotificationPreference.turn_emails` (each, digest or none): a
person who chose none gets no email at all (`wants_email`)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage

from clocks import presence
from games.models import NotificationPreference


def wants_email(user_id: int) -> bool:
    """Whether the person has emails on (no preference row: `each`, the default)."""
    choice = (
        NotificationPreference.objects.filter(user_id=user_id)
        .values_list("turn_emails", flat=True)
        .first()
    )
    return choice != NotificationPreference.TurnEmails.NONE


def send(user: Any, subject: str, body: str) -> None:
    """One email to `user`, with the unsubscribe link and its one-click headers."""
    unsubscribe = presence.unsubscribe_url(user.pk)
    footer = (
        "\n--\nYou get this because your emails are on (your profile page chooses each, "
        f"digest or none):\n{settings.SITE_URL.rstrip('/')}/accounts/profile/\n"
        "Stop every email from us (turns, challenges, invitations and what waits under your "
        f"bell) with one click:\n{unsubscribe}\n"
    )
    EmailMessage(
        subject,
        body + footer,
        None,
        [user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    ).send()
