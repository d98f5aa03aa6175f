"""A club's people hear what concerns them under the bell (/notifications/): an admin's
announcement on the club's board rings every member's bell but the poster's (chat/board.py
`tell_members`), a member's new post the bells of the club's admins (`tell_admins`), a reply
the bell of the thread's starter, naming everyone who replied since they last read it
(`tell_starter`), "@name" the bell of the member so named (`tell_mentioned`), and a season
that closes tells each person entered where they finished (league/season_notices.py
`tell_closed`), as its start told them it started."""

from __future__ import annotations

from html import unescape

import pytest

from chat.models import ClubPost
from chat.moderation import mute
from league.clubs import club_join
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
    # A second announcement is a second notice; a member's post rings no member's bell (only
    # the admins', below).
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
    assert not Notification.objects.filter(user__in=[cal, dee]).exclude(kind="club-members")
    # (ada, the admin, was told of ben's new post: below.)
    assert [n.text for n in Notification.objects.filter(user=ada, kind="club")] == [
        f"{ben.username} posted on the board of {club.name}"
    ]
    # A post that is no reply rings no member's bell.
    signed_in(cal).post(board, {"text": "Finals on Friday?"})
    assert not Notification.objects.filter(user=ben, read_at__isnull=True).exists()


def test_a_members_new_post_rings_the_bell_of_each_admin_but_the_posters():
    club, ada, (ben, cal, dee) = make_club(admin=make_user("ada"), members=3)
    Membership.objects.filter(club=club, user=cal).update(role=Membership.Role.ADMIN)
    mute(muter=cal, username=dee.username)
    board = f"/clubs/{club.slug}/board"
    assert signed_in(ben).post(board, {"text": "Is Friday still on?"}).status_code == 302
    said = f"{ben.username} posted on the board of {club.name}"
    for admin in (ada, cal):
        assert said in listed(signed_in(admin))
        (notice,) = Notification.objects.filter(user=admin, kind="club")
        assert (notice.url, notice.read_at) == (f"/clubs/{club.slug}/#board", None)
    # Not a plain member, not the poster; an admin who mutes the poster hears nothing of them.
    assert not Notification.objects.filter(user__in=[ben, dee], kind="club").exists()
    signed_in(dee).post(board, {"text": "I can bring a deck"})
    assert Notification.objects.filter(user=ada, kind="club").count() == 2
    assert Notification.objects.filter(user=cal, kind="club").count() == 1
    # An admin's own post rings the other admin's bell, not their own.
    signed_in(ada).post(board, {"text": "Yes, at 8"})
    assert Notification.objects.filter(user=cal, kind="club").count() == 2
    assert Notification.objects.filter(user=ada, kind="club").count() == 2


def test_replies_since_the_starter_last_read_are_all_named():
    club, ada, _ = make_club(admin=make_user("ada"))
    people = {name: make_user(name) for name in ("lena", "sam", "omar", "pia", "rex")}
    for person in people.values():
        club_join(club=club, user=person, code=club.invite_code)
    board = f"/clubs/{club.slug}/board"
    signed_in(ada).post(board, {"text": "Finals on Friday", "announcement": "1"})
    (thread,) = ClubPost.objects.filter(club=club, reply_to=None)

    def reply(name: str) -> None:
        answer = signed_in(people[name]).post(board, {"text": "Count me in", "reply_to": thread.pk})
        assert answer.status_code == 302

    def line() -> str:
        (notice,) = Notification.objects.filter(user=ada, key=f"club-thread:{thread.pk}")
        return notice.text

    where = f"to your post on the board of {club.name}"
    reply("lena")
    assert line() == f"lena replied {where}"
    reply("sam")
    assert line() == f"lena and sam replied {where}"
    assert f"lena and sam replied {where}" in listed(signed_in(ada))
    reply("lena")  # a second reply of hers: still named once, where she came first
    assert line() == f"lena and sam replied {where}"
    reply("omar")
    assert line() == f"lena, sam and omar replied {where}"
    reply("pia")
    assert line() == f"lena, sam and 2 others replied {where}"
    # Read: the next reply counts from then on.
    signed_in(ada).post("/notifications/read", {"all": "1"})
    reply("rex")
    assert line() == f"rex replied {where}"
    reply("sam")
    assert line() == f"rex and sam replied {where}"
    # Someone the starter mutes is never named.
    mute(muter=ada, username="omar")
    reply("omar")
    assert line() == f"rex and sam replied {where}"


def test_an_at_name_rings_the_bell_of_that_member_of_the_club():
    club, ada, _ = make_club(admin=make_user("ada"))
    ben = make_user("ben")
    club_join(club=club, user=ben, code=club.invite_code)
    people = {name: make_user(name) for name in ("lena", "omar", "sam", "pia", "rex")}
    for name in ("lena", "omar", "sam", "pia"):
        club_join(club=club, user=people[name], code=club.invite_code)
    outsider = people["rex"]  # not a member: never told
    board = f"/clubs/{club.slug}/board"
    signed_in(ada).post(board, {"text": "Finals on Friday", "announcement": "1"})
    (thread,) = ClubPost.objects.filter(club=club, reply_to=None)
    Notification.objects.all().delete()
    signed_in(people["lena"]).post(
        board, {"text": "@Omar can you bring the deck? @lena @rex", "reply_to": thread.pk}
    )
    said = f"lena mentioned you on the board of {club.name}"
    assert said in listed(signed_in(people["omar"]))
    (notice,) = Notification.objects.filter(user=people["omar"])
    assert (notice.kind, notice.url, notice.read_at) == ("club", f"/clubs/{club.slug}/#board", None)
    # Never the author, nor someone outside the club; the starter hears of the reply once.
    assert not Notification.objects.filter(user__in=[people["lena"], outsider]).exists()
    assert [n.text for n in Notification.objects.filter(user=ada)] == [
        f"lena replied to your post on the board of {club.name}"
    ]
    # A new post names at most three: the first three named ring, the fourth does not; a
    # name inside an email address names nobody, and one who mutes the author hears nothing.
    mute(muter=people["pia"], username="ben")
    signed_in(ben).post(board, {"text": "@sam, @pia, @lena. @omar write to ben@omar.example"})
    told = set(
        Notification.objects.filter(text__startswith=f"{ben.username} mentioned you").values_list(
            "user__username", flat=True
        )
    )
    assert told == {"sam", "lena"}
