"""A club's admins hear of its people under the bell (league/clubs.py, kind `club-members`):
someone who joins by the invitation link, or whose request an admin approves, is told to the
other admins once per join; someone who asks to join is told as a request to answer, read for
every admin once one of them answered it. Through the pages, as the people use them."""

from __future__ import annotations

from html import unescape

import pytest

from league.clubs import club_create
from league.models import Membership
from social.models import Notification
from tests.games.factories import make_user
from tests.web.clients import signed_in
from tests.web.league_pages import text

pytestmark = pytest.mark.django_db


def listed(client) -> str:
    return unescape(text(client.get("/notifications/").content.decode()))


def friday_night():
    """Friday Night UNO: ada created it, bea is a second admin, cal a plain member."""
    ada, bea, cal = make_user("ada"), make_user("bea"), make_user("cal")
    club = club_create(name="Friday Night UNO", creator=ada)
    # bea an admin from the start (made one by ada, she would hear of it: tested below).
    Membership.objects.create(club=club, user=bea, role=Membership.Role.ADMIN)
    Membership.objects.create(club=club, user=cal)
    return club, ada, bea, cal


def test_joining_by_the_link_tells_each_admin_once():
    club, ada, bea, cal = friday_night()
    tobi = signed_in(make_user("Tobi_R"))
    link = f"/clubs/{club.slug}/join/{club.invite_code}/"
    assert tobi.post(link).status_code == 302
    assert tobi.post(link).status_code == 302  # a member already: no second join
    for admin in (ada, bea):
        page = signed_in(admin)
        assert "Tobi_R joined Friday Night UNO" in listed(page)
        (notice,) = Notification.objects.filter(user=admin, kind="club-members")
        assert notice.read_at is None and notice.url == f"/clubs/{club.slug}/#members-title"
    # Not the plain member, nor the one who joined.
    assert not Notification.objects.filter(user=cal).exists()
    assert not Notification.objects.filter(user__username="Tobi_R").exists()


def test_a_request_to_join_is_told_to_the_admins_to_answer_then_its_approval():
    club, ada, bea, _ = friday_night()
    pia = make_user("pia")
    assert signed_in(pia).post(f"/clubs/{club.slug}/ask").status_code == 302
    for admin in (ada, bea):
        assert "pia asks to join Friday Night UNO" in listed(signed_in(admin))
        (asked,) = Notification.objects.filter(user=admin, kind="club-members")
        assert asked.url == f"/clubs/{club.slug}/#requests-title" and asked.read_at is None
    # The notice leads to the requests, where an admin answers.
    page = signed_in(ada).get(asked.url.split("#")[0]).content.decode()
    assert "Asked to join" in page and "Approve pia" in page

    answer = signed_in(ada).post(f"/clubs/{club.slug}/requests/{pia.pk}/approve")
    assert answer.status_code == 302
    # Answered: nothing left to answer under either bell; bea hears that pia joined, ada
    # (who approved) does not need telling.
    assert not Notification.objects.filter(
        text__contains="asks to join", read_at__isnull=True
    ).exists()
    assert Notification.objects.get(user=bea, text="pia joined Friday Night UNO").read_at is None
    assert not Notification.objects.filter(user=ada, text__contains="joined").exists()


def test_a_declined_request_is_answered_for_every_admin():
    club, ada, bea, _ = friday_night()
    pia = make_user("pia")
    signed_in(pia).post(f"/clubs/{club.slug}/ask")
    signed_in(bea).post(f"/clubs/{club.slug}/requests/{pia.pk}/decline")
    assert Notification.objects.filter(text="pia asks to join Friday Night UNO").count() == 2
    assert not Notification.objects.filter(read_at__isnull=True).exists()
