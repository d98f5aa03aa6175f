"""Leaving a club and removing a member (web/clubs.py, league/clubs.py): each asks first on a
page saying what happens to the person's entries, then a POST with its `confirm` does it; the
removed person and the club's admins are told under the bell; the club's only admin neither
leaves nor is removed (`last-admin`); a GET, a POST without `confirm`, a non-admin, a
non-member change nothing. A role change asks first too, and the person whose role changed, or
whose request was approved, is told. Through the pages, as the people use them."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from league.clubs import club_request, is_member, member_role, membership_of
from league.models import Entry, Membership, Season
from league.seasons import season_enter
from social.models import Notification
from tests.games.factories import make_user
from tests.league.factories import make_club, make_season
from tests.web.clients import signed_in

pytestmark = pytest.mark.django_db


def words(response) -> str:
    html = response.content.decode()
    main = html.split("<main", 1)[1] if "<main" in html else html
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))).strip()


def shown_messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def bell(person) -> list[str]:
    return list(
        Notification.objects.filter(user=person, read_at=None)
        .order_by("pk")
        .values_list("text", flat=True)
    )


def office():
    """The office club: ada its admin, ben and cy members; cy entered in a running season."""
    club, ada, (ben, cy) = make_club(admin=make_user("ada"), members=2)
    Notification.objects.all().delete()  # their joins told to ada: not what is tested here
    season = make_season(club, ada, name="Autumn")
    season_enter(season=season, actor=ada, user=cy)
    Season.objects.filter(pk=season.pk).update(status=Season.Status.RUNNING)
    return club, ada, ben, cy


def test_an_admin_removes_a_member_after_a_page_that_says_what_happens_to_their_entries():
    club, ada, _, cy = office()
    client = signed_in(ada)
    page = client.get(reverse("web:club", args=[club.slug]))
    remove = reverse("web:club-remove", args=[club.slug, cy.pk])
    assert f'href="{remove}"' in page.content.decode()

    asked = client.get(remove)
    said = words(asked)
    assert f"Remove {cy.username} from {club.name}?" in said
    assert "What they have entered stays, played and ruled as now: the season Autumn." in said
    # Nobody withdraws an entrant from a running season: its fixtures are played or ruled on.
    assert (
        "Before a season starts an admin may still withdraw them from it; once it runs, their "
        "fixtures are played, or ruled on, as anyone's."
    ) in said
    assert "They are told under their bell." in said
    assert is_member(club, cy)  # asking changed nothing

    done = client.post(remove, {"confirm": "1"}, follow=True)
    assert shown_messages(done) == [
        f"{cy.username} is no longer a member of {club.name}; they are told."
    ]
    assert membership_of(club, cy) is None
    assert bell(cy) == [f"ada removed you from {club.name}"]
    # The entry in the running season stays, active.
    assert Entry.objects.get(user=cy).active
    # cy's page of the club offers asking to join again.
    shown = signed_in(cy).get(reverse("web:club", args=[club.slug])).content.decode()
    assert reverse("web:club-ask", args=[club.slug]) in shown


def test_a_member_leaves_after_a_confirmation_and_the_admins_are_told():
    club, ada, ben, _ = office()
    client = signed_in(ben)
    page = client.get(reverse("web:club", args=[club.slug])).content.decode()
    leave = reverse("web:club-leave", args=[club.slug])
    assert f'href="{leave}">Leave the club</a>' in page

    said = words(client.get(leave))
    assert f"Leave {club.name}?" in said
    assert "You have no entry in a season or tournament of the club that is not over." in said
    assert is_member(club, ben)

    done = client.post(leave, {"confirm": "1"}, follow=True)
    assert shown_messages(done) == [f"You left {club.name}."]
    assert membership_of(club, ben) is None
    assert bell(ada) == [f"{ben.username} left {club.name}"]


def test_a_get_or_a_post_without_confirm_only_asks():
    club, ada, ben, cy = office()
    remove = reverse("web:club-remove", args=[club.slug, cy.pk])
    leave = reverse("web:club-leave", args=[club.slug])
    assert signed_in(ada).post(remove).status_code == 200  # the question again
    assert signed_in(ada).post(remove, {"confirm": "yes"}).status_code == 200
    assert signed_in(ben).get(leave).status_code == 200
    assert signed_in(ben).post(leave, {}).status_code == 200
    assert is_member(club, cy) and is_member(club, ben)
    assert not Notification.objects.exists()


def test_the_only_admin_may_neither_leave_nor_be_removed():
    club, ada, _, _ = office()
    client = signed_in(ada)
    rows = words(client.get(reverse("web:club", args=[club.slug])))
    assert "The only admin: make another member an admin before stepping down or leaving." in rows
    leave = reverse("web:club-leave", args=[club.slug])
    asked = words(client.get(leave))
    assert "You are the club's only admin: a club keeps at least one." in asked
    assert "Leave the club" not in asked

    refused = client.post(leave, {"confirm": "1"})
    assert refused.status_code == 409
    assert "only admin" in words(refused)
    assert 'data-code="last-admin"' in refused.content.decode()
    # Staff, acting for the club, cannot remove its only admin either.
    staff = make_user("staffer")
    staff.is_staff = True
    staff.save()
    removed = signed_in(staff).post(
        reverse("web:club-remove", args=[club.slug, ada.pk]), {"confirm": "1"}
    )
    assert removed.status_code == 409 and 'data-code="last-admin"' in removed.content.decode()
    assert membership_of(club, ada).role == Membership.Role.ADMIN
    assert not Notification.objects.exists()


def test_a_non_admin_cannot_remove_and_a_non_member_cannot_leave():
    club, ada, ben, cy = office()
    refused = signed_in(ben).post(
        reverse("web:club-remove", args=[club.slug, cy.pk]), {"confirm": "1"}
    )
    assert refused.status_code == 403
    assert (
        signed_in(ben).get(reverse("web:club-remove", args=[club.slug, cy.pk])).status_code == 403
    )
    stranger = make_user("stranger")
    left = signed_in(stranger).post(
        reverse("web:club-leave", args=[club.slug]), {"confirm": "1"}, follow=True
    )
    assert shown_messages(left) == [f"stranger is not a member of {club.name}."]
    gone = signed_in(ada).post(
        reverse("web:club-remove", args=[club.slug, stranger.pk]), {"confirm": "1"}, follow=True
    )
    assert shown_messages(gone) == [f"stranger is not a member of {club.name}."]
    assert (
        signed_in(ada)
        .post(reverse("web:club-remove", args=[club.slug, 999999]), {"confirm": "1"})
        .status_code
        == 404
    )
    assert all(is_member(club, person) for person in (ada, ben, cy))
    assert not Notification.objects.exists()


def test_make_admin_asks_first_and_the_new_admin_is_told():
    club, ada, ben, _ = office()
    client = signed_in(ada)
    role = reverse("web:club-role", args=[club.slug, ben.pk])
    page = client.get(reverse("web:club", args=[club.slug])).content.decode()
    assert f'href="{role}?role=admin">Make admin' in page

    said = words(client.get(role, {"role": "admin"}))
    assert f"Make {ben.username} an admin of {club.name}?" in said
    assert client.post(role, {"role": "admin"}).status_code == 200  # no confirm: it asks
    assert membership_of(club, ben).role == Membership.Role.MEMBER

    done = client.post(role, {"role": "admin", "confirm": "1"}, follow=True)
    assert shown_messages(done) == [f"{ben.username} is an admin now."]
    assert membership_of(club, ben).role == Membership.Role.ADMIN
    assert bell(ben) == [f"ada made you an admin of {club.name}"]
    # Back to a plain member: the same line under the bell, saying so, unread again.
    client.post(role, {"role": "member", "confirm": "1"})
    assert bell(ben) == [f"ada made you a plain member (not an admin) of {club.name}"]


def test_a_bad_role_changes_nothing():
    club, ada, ben, _ = office()
    role = reverse("web:club-role", args=[club.slug, ben.pk])
    for data in ({"role": "owner", "confirm": "1"}, {"confirm": "1"}):
        assert signed_in(ada).post(role, data).status_code == 400
    assert signed_in(ada).get(role, {"role": "king"}).status_code == 400
    assert membership_of(club, ben).role == Membership.Role.MEMBER
    assert not Notification.objects.exists()


def test_an_approved_request_rings_the_bell_of_who_asked():
    club, ada, _, _ = office()
    pia = make_user("pia")
    club_request(club=club, user=pia)
    signed_in(ada).post(reverse("web:club-approve", args=[club.slug, pia.pk]))
    assert bell(pia) == [f"ada approved your request: you are a member of {club.name}"]
    (notice,) = Notification.objects.filter(user=pia)
    assert notice.kind == "club-members" and notice.url == f"/clubs/{club.slug}/"


def test_an_admin_removes_another_admin_and_leaving_is_not_removing_yourself():
    club, ada, ben, _ = office()
    member_role(club=club, admin=ada, user=ben, role=Membership.Role.ADMIN)
    # ada's own line: her remove link goes to the page to leave.
    own = signed_in(ada).get(reverse("web:club-remove", args=[club.slug, ada.pk]))
    assert own.status_code == 302 and own["Location"] == reverse("web:club-leave", args=[club.slug])
    signed_in(ben).post(reverse("web:club-remove", args=[club.slug, ada.pk]), {"confirm": "1"})
    assert membership_of(club, ada) is None
    assert bell(ada) == [f"{ben.username} removed you from {club.name}"]


def test_the_profile_lists_your_clubs_each_with_the_way_to_leave_it():
    club, ada, ben, _ = office()
    other, _, _ = make_club()
    club_request(club=other, user=ben)
    said = words(signed_in(ben).get(reverse("web:profile")))
    assert "Your clubs" in said
    assert f"{club.name} Leave {club.name}" in said
    assert f"{other.name} (you asked to join)" in said
    html = signed_in(ben).get(reverse("web:profile")).content.decode()
    assert f'href="{reverse("web:club-leave", args=[club.slug])}"' in html
    assert reverse("web:club-leave", args=[other.slug]) not in html
    newcomer = signed_in(make_user("newcomer"))
    assert "You are in no club." in words(newcomer.get(reverse("web:profile")))
