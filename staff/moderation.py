"""The staff's answers to chat reports (chat/moderation.py does the change), each recorded in
the staff audit log (staff/models.py AuditEntry) in the same transaction: `hide-message` (a
table message or a board post hidden, with the reason; its text is kept for staff),
`dismiss-report`, and `restrict-chat` (a person kept from chat for some hours). A staff member
who plays in a game does not read its spectators' channel while the match plays, so they do not
answer a report of a message there either (ActionRefused `plays-in-game`)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from chat import moderation
from chat.models import ChatRestriction, Message, Report
from staff.actions import ActionRefused, clean_reason, staff_actor
from staff.models import AuditEntry

# Actions of the audit log beside AuditEntry.Action's (the column takes any short name).
HIDE_MESSAGE = "hide-message"
DISMISS_REPORT = "dismiss-report"
RESTRICT_CHAT = "restrict-chat"


def target_of(found: Report) -> str:
    if found.message_id is not None:
        return f"chat-message:{found.message_id}"
    return f"club-post:{found.post_id}"


def readable(found: Report, user: Any) -> bool:
    """Whether `user` may read the reported message (a spectators' line of a game they play
    in, while it plays, they may not)."""
    return found.message is None or moderation.may_read_message(found.message, user)


def _check(found: Report, user: Any) -> None:
    staff_actor(user)
    if not readable(found, user):
        raise ActionRefused(
            "you play in this game: another member of the staff answers this report",
            code="plays-in-game",
        )


def hide(*, report_id: int, user: Any, reason: str) -> AuditEntry:
    """Hide the reported message or post; every open report of it is answered."""
    found = moderation.report_get(report_id)
    _check(found, user)
    reason = clean_reason(reason)
    item = found.message or found.post
    assert item is not None
    with transaction.atomic():
        moderation.hide(item, by=user, reason=reason)
        details: dict[str, Any] = {"report": found.pk, "author": item.author.get_username()}
        if isinstance(item, Message):
            details["game"] = item.game_id
        else:
            details["club"] = item.club.slug
        return AuditEntry.objects.create(
            actor=user, action=HIDE_MESSAGE, target=target_of(found), reason=reason, details=details
        )


def dismiss(*, report_id: int, user: Any, reason: str = "") -> AuditEntry:
    """Close the report: nothing to hide."""
    found = moderation.report_get(report_id)
    _check(found, user)
    with transaction.atomic():
        moderation.dismiss(report_id, by=user)
        return AuditEntry.objects.create(
            actor=user,
            action=DISMISS_REPORT,
            target=target_of(found),
            reason=(reason or "").strip()[:500],
            details={"report": found.pk},
        )


def restrict(*, report_id: int, user: Any, hours: int, reason: str) -> AuditEntry:
    """Keep the reported message's author from chat for `hours`."""
    found = moderation.report_get(report_id)
    _check(found, user)
    reason = clean_reason(reason)
    item = found.message or found.post
    assert item is not None
    with transaction.atomic():
        restriction: ChatRestriction = moderation.restrict(
            user=item.author, by=user, hours=hours, reason=reason
        )
        return AuditEntry.objects.create(
            actor=user,
            action=RESTRICT_CHAT,
            target=f"user:{item.author_id}",
            reason=reason,
            details={
                "report": found.pk,
                "author": item.author.get_username(),
                "hours": hours,
                "until": restriction.until.isoformat(),
            },
        )
