"""Clubs and members: the invitation link, requests an admin approves, admins (league/clubs.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from league.clubs import (
    club_create,
    club_join,
    club_request,
    invitation_rotate,
    is_admin,
    is_member,
    member_role,
    membership_approve,
    membership_decline,
)
from league.errors import ClubError, NotClubAdmin
from league.models import Club, Membership
from tests.games.factories import make_user
from tests.league.factories import make_club

pytestmark = pytest.mark.django_db


def test_the_creator_is_the_first_admin_and_the_address_is_unique():
    founder = make_user()
    club = club_create(name="Thursday Night UNO", creator=founder)
    assert club.slug == "thursday-night-uno"
    assert is_admin(club, founder) and is_member(club, founder)
    with pytest.raises(ClubError) as raised:
        club_create(name="Thursday Night UNO", creator=make_user())
    assert raised.value.code == "slug-taken"
    with pytest.raises(ClubError) as nameless:
        club_create(name="  ", creator=founder)
    assert nameless.value.code == "invalid-club"
    assert Club.objects.count() == 1


def test_the_invitation_link_makes_a_member_at_once_until_it_is_rotated():
    club, admin, _ = make_club()
    person, latecomer = make_user(), make_user()
    club_join(club=club, user=person, code=club.invite_code)
    assert is_member(club, person) and not is_admin(club, person)
    with pytest.raises(ClubError) as again:
        club_join(club=club, user=person, code=club.invite_code)
    assert again.value.code == "already-member"
    old = club.invite_code
    invitation_rotate(club=club, admin=admin)
    with pytest.raises(ClubError) as stale:
        club_join(club=club, user=latecomer, code=old)
    assert stale.value.code == "bad-invitation"
    assert not is_member(club, latecomer)
    with pytest.raises(ClubError):
        club_join(club=club, user=AnonymousUser(), code=club.invite_code)


def test_a_request_waits_for_an_admin():
    club, admin, (member,) = make_club(members=1)
    asker, declined = make_user(), make_user()
    club_request(club=club, user=asker)
    club_request(club=club, user=declined)
    assert not is_member(club, asker)
    with pytest.raises(NotClubAdmin):
        membership_approve(club=club, admin=member, user=asker)
    membership_approve(club=club, admin=admin, user=asker)
    assert is_member(club, asker)
    membership_decline(club=club, admin=admin, user=declined)
    assert not Membership.objects.filter(user=declined).exists()
    with pytest.raises(ClubError) as nothing:
        membership_approve(club=club, admin=admin, user=declined)
    assert nothing.value.code == "no-request"
    # Asking with a request pending, then following the link: a member at once.
    later = make_user()
    club_request(club=club, user=later)
    club_join(club=club, user=later, code=club.invite_code)
    assert is_member(club, later)


def test_admins_make_admins_and_a_club_keeps_one():
    club, admin, (member,) = make_club(members=1)
    with pytest.raises(NotClubAdmin):
        member_role(club=club, admin=member, user=member, role="admin")
    member_role(club=club, admin=admin, user=member, role="admin")
    assert is_admin(club, member)
    member_role(club=club, admin=member, user=admin, role="member")
    with pytest.raises(ClubError) as last:
        member_role(club=club, admin=member, user=member, role="member")
    assert last.value.code == "last-admin"
    assert is_admin(club, member) and not is_admin(club, admin)


def test_staff_act_as_admins_of_every_club():
    club, _, _ = make_club()
    staff = make_user()
    staff.is_staff = True
    staff.save()
    assert is_admin(club, staff) and not is_member(club, staff)
