"""A club's people hear what concerns them under the bell (/notifications/): an admin's
announcement on the club's board rings every member's bell but the poster's (chat/board.py
`tell_members`), a reply rings the bell of the thread's starter (`tell_starter`), and a season
that closes tells each person entered where they finished (league/season_notices.py
`tell_closed`), as its start told them it started."""

from __future__ import annotations

from html import unescape

import pytest

from chat.models import ClubPost
from chat.moderation import mute
from league.models import Division, Membership
from league.seasons import season_close, season_start
from social.models import Notification
from tests.games.factories import make_user
from tests.league.factories import make_club
from tests.web.clients import signed_in
from tests.web.league_pages import autumn_season, play_season_out, text

pytestmark = pytest.mark.django_db(transaction=True)


def listed(client) -> str:
    return unescape(text(client.get("/notifications/").content.decode()))


def test_an_announcement_rings_each_members_bell_once_but_the_posters():
    club, ada, (ben, cal, dee) = make_club(admin=make_user("ada"), members=3)
    pending = make_user("pia")
    Membership.objects.create(club=club, user=pending, status=Membership.Status.PENDING)
    mute(muter=dee, username="ada")
    admin = signed_in(ada)
    answer = admin.post(
        f"/clubs/{club.slug}/board", {"text": "Finals on Friday at 8", "announcement": "1"}
    )
    assert answer.status_code == 302
    said = f"ada posted an announcement on the board of {club.name}"
    for member in (ben, cal):
        browser = signed_in(member)
        assert said in listed(browser)
        (notice,) = Notification.objects.filter(user=member)
        assert (notice.kind, notice.url, notice.read_at) == (
            "club",
            f"/clubs/{club.slug}/#board",
            None,
        )
        assert "your club's board ·" in listed(browser)
    # Not the poster, not someone who is not (yet) a member, not a member who mutes the poster.
    for nobody in (ada, pending, dee):
        # (Who joined the club is told to its admins: another kind, league/clubs.py.)
        assert not Notification.objects.filter(user=nobody).exclude(kind="club-members").exists()
    # A second announcement is a second notice; a member's post rings no bell.
    admin.post(f"/clubs/{club.slug}/board", {"text": "Bring snacks", "announcement": "1"})
    signed_in(ben).post(f"/clubs/{club.slug}/board", {"text": "See you there"})
    assert Notification.objects.filter(user=cal).count() == 2
    assert Notification.objects.filter(user=ben).count() == 2


def test_a_member_cannot_ring_the_bells_with_an_announcement():
    club, _, (ben, cal) = make_club(admin=make_user("ada"), members=2)
    signed_in(ben).post(f"/clubs/{club.slug}/board", {"text": "Hear me", "announcement": "1"})
    assert not Notification.objects.filter(user=cal).exists()


def test_closing_a_season_tells_each_person_entered_where_they_finished(eager_tasks):
    season, ada, ben = autumn_season()
    season_start(season=season, admin=ada)
    play_season_out(season, ada)
    season_close(season=season, admin=ada)
    premier = Division.objects.get(season=season, tier=1)
    (line,) = [line for line in premier.final_table if line["user_id"] == ada.pk]
    place = {1: "1st", 2: "2nd", 3: "3rd"}[line["rank"]]
    moved = {"up": ", promoted", "down": ", relegated"}.get(line["zone"], "")
    shown = listed(signed_in(ada))
    assert (
        f"Autumn League of {season.club.name} closed: you finished {place} of 3 in Premier"
        f"{' (shared)' if line['shared'] else ''}{moved}"
    ) in shown
    (notice,) = Notification.objects.filter(user=ada, key=f"season-closed:{season.pk}")
    assert notice.url == "/seasons/autumn/" and notice.read_at is None
    # ben entered nothing: the season tells him nothing.
    assert not Notification.objects.filter(user=ben, kind="season").exists()


def test_a_reply_rings_the_bell_of_whoever_started_the_thread_once_per_thread():
    club, ada, (ben, cal, dee) = make_club(admin=make_user("ada"), members=3)
    signed_in(ben).post(f"/clubs/{club.slug}/board", {"text": "Who has a spare deck?"})
    (thread,) = ClubPost.objects.filter(club=club, reply_to=None)
    board = f"/clubs/{club.slug}/board"
    assert signed_in(cal).post(board, {"text": "I do", "reply_to": thread.pk}).status_code == 302
    said = f"{cal.username} replied to your post on the board of {club.name}"
    browser = signed_in(ben)
    assert said in listed(browser)
    (notice,) = Notification.objects.filter(user=ben)
    assert (notice.kind, notice.url, notice.read_at) == ("club", f"/clubs/{club.slug}/#board", None)
    browser.post("/notifications/read", {"all": "1"})
    # A second reply to the same thread: the same line, unread again, naming the last to reply.
    signed_in(ada).post(board, {"text": "Me too", "reply_to": thread.pk})
    (notice,) = Notification.objects.filter(user=ben)
    assert notice.read_at is None
    assert notice.text == f"{ada.username} replied to your post on the board of {club.name}"
    # No bell for one's own reply, for a reply from someone muted, nor for those replying.
    browser.post("/notifications/read", {"all": "1"})
    signed_in(ben).post(board, {"text": "Thanks all", "reply_to": thread.pk})
    assert not Notification.objects.filter(user=ben, read_at__isnull=True).exists()
    mute(muter=ben, username=dee.username)
    signed_in(dee).post(board, {"text": "Mine is taken", "reply_to": thread.pk})
    assert not Notification.objects.filter(user=ben, read_at__isnull=True).exists()
    assert (
        not Notification.objects.filter(user__in=[ada, cal, dee])
        .exclude(kind="club-members")
        .exists()
    )
    # A post that is no reply rings no bell.
    signed_in(cal).post(board, {"text": "Finals on Friday?"})
    assert not Notification.objects.filter(user=ben, read_at__isnull=True).exists()
