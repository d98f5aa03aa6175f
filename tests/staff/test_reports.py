"""The staff's reports queue (staff/report_views.py, staff/moderation.py): staff only; each
open report with the message's text, where it was said and who reported it; Hide with a reason
(audited, the text kept for staff, "hidden" for everyone else, the reporter told), Dismiss,
Restrict the author for some hours; a staff member who plays in the game does not answer a
report of its spectators' channel."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, TestCase
from django.utils import timezone

from chat import board, moderation, table
from chat.models import ChatRestriction, Message, Report
from social.models import Notification
from staff.models import AuditEntry
from tests.games.factories import make_game, make_user
from tests.league.factories import make_club

pytestmark = pytest.mark.django_db

QUEUE = "/staff/reports/"


@pytest.fixture
def staff_user():
    return get_user_model().objects.create_user("moderator", is_staff=True)


@pytest.fixture
def staff(staff_user) -> Client:
    client = Client()
    client.force_login(staff_user)
    return client


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def reported():
    """ana's rude message at a game, reported by ben."""
    game = make_game(players=2)
    ana, ben = [seat.user for seat in game.seats.order_by("number")]
    message = table.post(game_id=game.pk, author=ana, text="you play like a potato")
    report = moderation.report(reporter=ben, message_id=message.pk, reason="rude")
    return game, ana, ben, message, report


def answer(client: Client, report: Report, action: str, **data):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post(f"/staff/reports/{report.pk}/{action}", data)


def test_nobody_but_staff_sees_the_queue_or_answers(reported):
    game, ana, ben, message, report = reported
    for client in (Client(), client_of(ben)):
        assert client.get(QUEUE).status_code == 404
        assert answer(client, report, "hide", reason="x").status_code == 404
    assert Report.objects.get().status == "open"


def test_the_queue_lists_the_text_where_and_who(staff, reported):
    game, ana, ben, message, report = reported
    page = staff.get(QUEUE).content.decode()
    assert "you play like a potato" in page
    assert ana.username in page and ben.username in page
    assert f"/staff/games/{game.pk}/" in page
    assert "rude" in page


def test_hide_needs_a_reason_then_is_audited_and_keeps_the_text_for_staff(
    staff, staff_user, reported
):
    game, ana, ben, message, report = reported
    refused = answer(staff, report, "hide", reason="  ")
    assert refused.status_code == 400
    assert "reason-required" in refused.content.decode()
    assert Message.objects.get().hidden_at is None

    done = answer(staff, report, "hide", reason="insulting another player")
    assert done.status_code == 302
    message.refresh_from_db()
    assert message.hidden_by == staff_user
    assert message.hidden_reason == "insulting another player"
    assert message.text == "you play like a potato"
    entry = AuditEntry.objects.get()
    assert (entry.actor, entry.action, entry.target, entry.reason) == (
        staff_user,
        "hide-message",
        f"chat-message:{message.pk}",
        "insulting another player",
    )
    assert entry.details["game"] == game.pk
    report.refresh_from_db()
    assert (report.status, report.handled_by) == ("hidden", staff_user)
    # The reporter hears of it under the bell.
    notice = Notification.objects.get(user=ben, kind="report")
    assert "hid it" in notice.text
    # Everyone else reads "hidden"; staff still read the text.
    _, seen = table.read(game_id=game.pk, viewer=ben)
    assert seen[0]["text"] is None and seen[0]["hidden"]
    _, staff_seen = table.read(game_id=game.pk, viewer=staff_user)
    assert staff_seen[0]["text"] == "you play like a potato"
    play = client_of(ben).get(f"/games/{game.pk}/?chat=1").content.decode()
    assert "message hidden by moderators" in play
    assert "potato" not in play
    # The queue is empty; a second answer is refused.
    assert "No open report" in staff.get(QUEUE).content.decode()
    again = answer(staff, report, "dismiss")
    assert again.status_code == 409
    assert "already-handled" in again.content.decode()


def test_dismiss_closes_the_report_and_tells_the_reporter(staff, staff_user, reported):
    game, ana, ben, message, report = reported
    assert answer(staff, report, "dismiss", reason="banter").status_code == 302
    report.refresh_from_db()
    assert report.status == "dismissed"
    assert Message.objects.get().hidden_at is None
    assert AuditEntry.objects.get().action == "dismiss-report"
    assert "found nothing to hide" in Notification.objects.get(user=ben, kind="report").text
    again = answer(staff, report, "dismiss")
    assert again.status_code == 409
    assert "already-handled" in again.content.decode()


def test_restrict_keeps_the_author_from_chat_for_hours(staff, staff_user, reported):
    game, ana, ben, message, report = reported
    done = answer(staff, report, "restrict", hours="6", reason="repeated insults")
    assert done.status_code == 302
    restriction = ChatRestriction.objects.get()
    assert restriction.user == ana and restriction.by == staff_user
    hours = (restriction.until - timezone.now()).total_seconds() / 3600
    assert 5.9 < hours <= 6
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.target) == ("restrict-chat", f"user:{ana.pk}")
    said = client_of(ana).post(
        f"/api/games/{game.pk}/chat", {"text": "hey"}, content_type="application/json"
    )
    assert said.status_code == 403 and said.json()["code"] == "chat-restricted"
    bad = answer(staff, report, "restrict", hours="0", reason="x")
    assert bad.status_code == 400
    assert ChatRestriction.objects.count() == 1


def test_a_staff_member_who_plays_does_not_read_or_answer_the_spectators(staff_user):
    game = make_game(players=1, bots=["greedy"])
    game.seats.filter(number=0).update(user=staff_user)
    watcher, reporter = make_user(), make_user()
    message = table.post(game_id=game.pk, author=watcher, text="the staff player holds a wild")
    report = moderation.report(reporter=reporter, message_id=message.pk, reason="cheating")
    staff = client_of(staff_user)
    page = staff.get(QUEUE).content.decode()
    assert "holds a wild" not in page
    assert "Another member of the staff answers" in page
    refused = answer(staff, report, "hide", reason="x")
    assert refused.status_code == 400
    assert "plays-in-game" in refused.content.decode()
    assert Message.objects.get().hidden_at is None


def test_staff_hide_a_reported_board_post_from_the_queue(staff, staff_user):
    club, admin, (member, other) = make_club(members=2)
    post = board.post(club=club, author=other, text="spam spam spam")
    report = moderation.report(reporter=member, post_id=post.pk, reason="spam")
    page = staff.get(QUEUE).content.decode()
    assert "spam spam spam" in page and f"/clubs/{club.slug}/" in page
    # The field says truly who reads the reason: the club's admins do, beside the post.
    assert "on a club's board its admins read it beside the hidden post" in page
    assert answer(staff, report, "hide", reason="advertising").status_code == 302
    as_admin = Client()
    as_admin.force_login(admin)
    assert "advertising" in as_admin.get(f"/clubs/{club.slug}/").content.decode()
    post.refresh_from_db()
    assert (post.hidden_by, post.hidden_reason) == (staff_user, "advertising")
    entry = AuditEntry.objects.get()
    assert (entry.target, entry.details["club"]) == (f"club-post:{post.pk}", club.slug)
    notice = Notification.objects.get(user=member, kind="report")
    assert notice.url == f"/clubs/{club.slug}/"
