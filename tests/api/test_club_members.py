"""A club's member taken out through the API (api/leagues.py `club_member`, league/clubs.py):
`DELETE /api/clubs/<slug>/members/<username>`: yours, you leave; another's, an admin removes
them and they are told under their bell. Refusals change nothing and answer the API's error
shape with a stable code."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.services import token_issue
from league.clubs import is_member, member_role, membership_of
from league.models import Membership
from social.models import Notification
from tests.api.test_schema import schema
from tests.games.factories import make_user
from tests.league.factories import make_club

pytestmark = pytest.mark.django_db


def signed_in(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def url(club, username: str) -> str:
    return f"/api/clubs/{club.slug}/members/{username}"


def refused(response, status: int, code: str) -> None:
    assert response.status_code == status, (response.status_code, response.content[:300])
    body = response.json()
    assert body["code"] == code and body["message"], body


def office():
    club, ada, (ben, cy) = make_club(admin=make_user("ada"), members=2)
    Notification.objects.all().delete()
    return club, ada, ben, cy


def test_an_admin_removes_a_member_who_is_told():
    club, ada, _, cy = office()
    response = signed_in(ada).delete(url(club, cy.username))
    assert response.status_code == 204 and response.content == b""
    assert membership_of(club, cy) is None
    assert list(Notification.objects.filter(user=cy).values_list("text", flat=True)) == [
        f"ada removed you from {club.name}"
    ]
    # The club's public read no longer lists them.
    listed = APIClient().get(f"/api/clubs/{club.slug}").json()["members"]
    assert cy.username not in [m["username"] for m in listed]


def test_a_member_leaves_with_their_own_name_and_a_token_with_scope_play():
    club, ada, ben, _ = office()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=ben, scopes=['play'])}")
    assert client.delete(url(club, ben.username)).status_code == 204
    assert membership_of(club, ben) is None
    assert Notification.objects.get(user=ada).text == f"{ben.username} left {club.name}"


def test_refusals_change_nothing():
    club, ada, ben, cy = office()
    stranger = make_user("stranger")
    # Not an admin: 403.
    refused(signed_in(ben).delete(url(club, cy.username)), 403, "not-club-admin")
    # The only admin: neither leaves nor is removed (staff act for any club).
    refused(signed_in(ada).delete(url(club, "ada")), 400, "last-admin")
    staff = make_user("staffer")
    staff.is_staff = True
    staff.save()
    refused(signed_in(staff).delete(url(club, "ada")), 400, "last-admin")
    # Not a member: removed or leaving.
    refused(signed_in(ada).delete(url(club, stranger.username)), 400, "not-a-member")
    refused(signed_in(stranger).delete(url(club, stranger.username)), 400, "not-a-member")
    # No such person or club.
    refused(signed_in(ada).delete(url(club, "nobody-at-all")), 404, "not-found")
    refused(
        signed_in(ada).delete(f"/api/clubs/no-such-club/members/{cy.username}"), 404, "not-found"
    )
    # A token without the scope `play`.
    bots_only = APIClient()
    bots_only.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=ada, scopes=['bots'])}")
    refused(bots_only.delete(url(club, cy.username)), 403, "token-scope")
    # Signed out; and no GET or POST to take anyone out.
    assert APIClient().delete(url(club, cy.username)).status_code == 403
    refused(signed_in(ada).get(url(club, cy.username)), 405, "method_not_allowed")
    refused(signed_in(ada).post(url(club, cy.username)), 405, "method_not_allowed")
    assert all(is_member(club, person) for person in (ada, ben, cy))
    assert membership_of(club, ada).role == Membership.Role.ADMIN
    assert not Notification.objects.exists()


def test_with_two_admins_one_removes_the_other():
    club, ada, ben, _ = office()
    member_role(club=club, admin=ada, user=ben, role=Membership.Role.ADMIN)
    assert signed_in(ben).delete(url(club, "ada")).status_code == 204
    assert membership_of(club, ada) is None
    assert signed_in(ben).delete(url(club, ben.username)).status_code == 400  # now the only one


def test_the_schema_lists_the_operation_and_its_errors():
    operation = schema()["paths"]["/api/clubs/{slug}/members/{username}"]["delete"]
    assert {"204", "400", "403", "404"} <= set(operation["responses"])
