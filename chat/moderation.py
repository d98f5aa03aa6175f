"""Moderation: anyone who can read a message or a board post may report it; staff answer the
reports (staff/moderation.py audits each answer): hide the message (its text kept for staff,
with who hid it, when and why) or dismiss the report, and restrict a person from chat for a
time. A club's admins hide posts on their own club's board. A person mutes another everywhere.

Each report answered rings its reporter's bell (kind `report`)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from chat import rules
from chat.errors import ChatConflict, ChatForbidden, ChatInvalid, ChatNotFound
from chat.models import ChatRestriction, ClubPost, Message, Mute, Report
from games.actors import is_person
from games.models import Game
from league import clubs
from social.notifications import notify

REASON_LENGTH = 500
# The longest restriction staff set at once: 90 days.
MAX_RESTRICTION_HOURS = 90 * 24

Item = Message | ClubPost


def _reason(given: Any, *, required: bool) -> str:
    reason = str(given or "").strip()
    if required and not reason:
        raise ChatInvalid("give a reason: it is kept with the action", code="reason-required")
    if len(reason) > REASON_LENGTH:
        raise ChatInvalid(
            f"a reason has at most {REASON_LENGTH} characters", code="reason-too-long"
        )
    return reason


def message_get(message_id: int) -> Message:
    found = Message.objects.select_related("game", "author").filter(pk=message_id).first()
    if found is None:
        raise ChatNotFound(f"there is no message {message_id}")
    return found


def post_get(post_id: int) -> ClubPost:
    found = ClubPost.objects.select_related("club", "author").filter(pk=post_id).first()
    if found is None:
        raise ChatNotFound(f"there is no post {post_id}")
    return found


def may_read_message(message: Message, viewer: Any) -> bool:
    """The spectators' channel of a game still playing is not for its seated people."""
    if message.channel == Message.Channel.SEATS or message.game.status == Game.Status.MATCH_OVER:
        return True
    return not (is_person(viewer) and message.game.seats.filter(user_id=viewer.pk).exists())


def may_read_board(club: Any, viewer: Any) -> bool:
    """A club's board is for its members (and staff)."""
    return rules.is_staff(viewer) or clubs.is_member(club, viewer)


def report(
    *, reporter: Any, message_id: int | None = None, post_id: int | None = None, reason: Any = ""
) -> Report:
    """Report a message or a post you can read. ChatForbidden `not-signed-in`, `own-message`;
    ChatNotFound (also for one you cannot read); ChatConflict `already-reported`,
    `already-hidden`."""
    if not is_person(reporter):
        raise ChatForbidden("sign in to report a message", code="not-signed-in")
    reason = _reason(reason, required=False)
    item: Item
    if message_id is not None:
        item = message_get(message_id)
        if not may_read_message(item, reporter):
            raise ChatNotFound(f"there is no message {message_id}")
    else:
        item = post_get(int(post_id or 0))
        if not may_read_board(item.club, reporter):
            raise ChatNotFound(f"there is no post {post_id}")
    if item.author_id == reporter.pk:
        raise ChatForbidden("you cannot report your own message", code="own-message")
    if item.hidden:
        raise ChatConflict("the moderators hid it already", code="already-hidden")
    try:
        with transaction.atomic():
            if isinstance(item, Message):
                return Report.objects.create(reporter=reporter, reason=reason, message=item)
            return Report.objects.create(reporter=reporter, reason=reason, post=item)
    except IntegrityError:
        raise ChatConflict("you reported it already", code="already-reported") from None


def open_reports() -> list[Report]:
    """The staff's queue: open reports, oldest first."""
    return list(
        Report.objects.filter(status=Report.Status.OPEN).select_related(
            "reporter", "message__author", "message__game", "post__author", "post__club"
        )
    )


def report_get(report_id: int) -> Report:
    found = (
        Report.objects.select_related("message__game", "message__author", "post__club")
        .filter(pk=report_id)
        .first()
    )
    if found is None:
        raise ChatNotFound(f"there is no report {report_id}")
    return found


def _staff(user: Any) -> None:
    if not rules.is_staff(user):
        raise ChatForbidden("only staff moderate the tables", code="not-staff")


def hide(item: Item, *, by: Any, reason: Any) -> Item:
    """Hide a message (staff) or a board post (staff, or an admin of its club), with a reason;
    its open reports are answered (hidden) and their reporters told. ChatForbidden
    `not-staff` / `not-club-admin`; ChatInvalid `reason-required`; ChatConflict
    `already-hidden`."""
    if isinstance(item, ClubPost):
        if not (is_person(by) and clubs.is_admin(item.club, by)):
            raise ChatForbidden(
                f"only an admin of {item.club.name} hides its board's posts", code="not-club-admin"
            )
    else:
        _staff(by)
    reason = _reason(reason, required=True)
    with transaction.atomic():
        model = type(item)
        locked = model.objects.select_for_update().get(pk=item.pk)
        if locked.hidden_at is not None:
            raise ChatConflict("it is hidden already", code="already-hidden")
        now = timezone.now()
        model.objects.filter(pk=item.pk).update(hidden_at=now, hidden_by=by, hidden_reason=reason)
        item.hidden_at, item.hidden_by, item.hidden_reason = now, by, reason
        reports = Report.objects.filter(status=Report.Status.OPEN)
        reports = (
            reports.filter(message=item) if isinstance(item, Message) else reports.filter(post=item)
        )
        _answer(list(reports), Report.Status.HIDDEN, by)
    return item


def dismiss(report_id: int, *, by: Any) -> Report:
    """Staff find nothing wrong: the report is closed, its reporter told. ChatConflict
    `already-handled`."""
    _staff(by)
    with transaction.atomic():
        found = Report.objects.select_for_update().filter(pk=report_id).first()
        if found is None:
            raise ChatNotFound(f"there is no report {report_id}")
        if found.status != Report.Status.OPEN:
            raise ChatConflict(f"report {report_id} was answered already", code="already-handled")
        _answer([found], Report.Status.DISMISSED, by)
    return report_get(report_id)


def _answer(reports: list[Report], status: str, by: Any) -> None:
    now = timezone.now()
    for found in reports:
        found.status, found.handled_by, found.handled_at = status, by, now
        found.save(update_fields=["status", "handled_by", "handled_at"])
        item = found.message or found.post
        assert item is not None
        if isinstance(item, Message):
            where, url = f"at game {item.game_id}", f"/games/{item.game_id}/"
        else:
            where, url = f"on the board of {item.club.name}", f"/clubs/{item.club.slug}/"
        said = "hid it" if status == Report.Status.HIDDEN else "found nothing to hide"
        text = (
            f"Your report of {item.author.get_username()}'s message {where}: the moderators {said}."
        )
        notify(found.reporter, "report", text, url=url, key=f"report:{found.pk}")


def restrict(*, user: Any, by: Any, hours: int, reason: Any) -> ChatRestriction:
    """Staff keep a person from chat (tables and boards) for `hours`. ChatInvalid `bad-hours`,
    `reason-required`."""
    _staff(by)
    reason = _reason(reason, required=True)
    if not 1 <= hours <= MAX_RESTRICTION_HOURS:
        raise ChatInvalid(f"hours from 1 to {MAX_RESTRICTION_HOURS}", code="bad-hours")
    return ChatRestriction.objects.create(
        user=user, by=by, reason=reason, until=timezone.now() + timedelta(hours=hours)
    )


def person_get(username: str) -> User:
    found = User.objects.filter(username=username, is_active=True).first()
    if found is None:
        raise ChatNotFound(f"there is no person {username!r}")
    return found


def mute(*, muter: Any, username: str) -> User:
    """Stop reading `username` anywhere (once is enough: muting again changes nothing)."""
    if not is_person(muter):
        raise ChatForbidden("sign in to mute someone", code="not-signed-in")
    muted = person_get(username)
    if muted.pk == muter.pk:
        raise ChatInvalid("you cannot mute yourself", code="cannot-mute-self")
    Mute.objects.get_or_create(muter=muter, muted=muted)
    return muted


def unmute(*, muter: Any, username: str) -> User:
    """Read `username` again (unmuting someone not muted changes nothing)."""
    if not is_person(muter):
        raise ChatForbidden("sign in to unmute someone", code="not-signed-in")
    muted = person_get(username)
    Mute.objects.filter(muter=muter, muted=muted).delete()
    return muted


def muted_people(user: Any) -> dict[int, str]:
    """The people `user` mutes: id to username, by username."""
    if not is_person(user):
        return {}
    rows = Mute.objects.filter(muter=user).order_by("muted__username")
    return dict(rows.values_list("muted_id", "muted__username"))


def is_club_admin(club: Any, user: Any) -> bool:
    return is_person(user) and clubs.is_admin(club, user)
