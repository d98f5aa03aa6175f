"""The notification centre and follows through the API (api/social.py): GET /api/notifications,
POST /api/notifications/read, GET/POST/DELETE /api/players/<username>/follow, and their
refusals with stable codes."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from accounts.services import token_issue
from social.follows import follower_ids
from social.models import Follow, Notification
from social.notifications import notify
from tests.games.factories import make_user

pytestmark = pytest.mark.django_db


def api_of(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=user)}")
    return client


def test_the_list_pages_newest_first_with_the_unread_count():
    ana = make_user()
    for number in range(5):
        notify(ana, "other", f"Notice {number}", url="/play/", key=f"n{number}", game=None)
    notify(make_user(), "other", "Not ana's", key="x")
    Notification.objects.filter(user=ana, key="n0").update(read_at="2026-01-01T00:00:00Z")
    client = api_of(ana)
    answer = client.get("/api/notifications", {"size": 2})
    body = answer.json()
    assert body["unread"] == 4
    assert [n["text"] for n in body["results"]] == ["Notice 4", "Notice 3"]
    first = body["results"][0]
    assert set(first) == {"id", "kind", "text", "url", "game", "created_at", "read", "read_at"}
    assert first["read"] is False and first["url"] == "/play/" and first["kind"] == "other"
    # The next page: after the last notice shown, in the body and the Link header.
    assert body["next"] == body["results"][1]["id"]
    link = re.fullmatch(r'<(?P<url>[^>]+)>; rel="next"', answer["Link"])
    assert link and f"before={body['next']}" in link["url"] and "size=2" in link["url"]
    second = client.get(link["url"]).json()
    assert [n["text"] for n in second["results"]] == ["Notice 2", "Notice 1"]
    last = client.get("/api/notifications", {"size": 2, "before": second["next"]})
    assert [(n["text"], n["read"]) for n in last.json()["results"]] == [("Notice 0", True)]
    assert last.json()["next"] is None and "Link" not in last
    for query, status, code in (
        ({"size": 0}, 400, "invalid"),
        ({"size": 101}, 400, "invalid"),
        ({"before": "x"}, 400, "invalid"),
        ({"before": 0}, 400, "invalid"),
        # Another person's notice, or none: no page after it.
        ({"before": Notification.objects.exclude(user=ana).get().pk}, 404, "notice-not-found"),
        ({"before": 999999}, 404, "notice-not-found"),
    ):
        refused = client.get("/api/notifications", query)
        assert (refused.status_code, refused.json()["code"]) == (status, code), query
        assert refused.json()["message"]
    assert APIClient().get("/api/notifications").status_code in (401, 403)


def test_marking_some_or_all_read():
    ana, ben = make_user(), make_user()
    mine = [notify(ana, "other", f"N{n}", key=f"n{n}") for n in range(3)]
    assert all(mine)
    ids = list(Notification.objects.filter(user=ana).order_by("pk").values_list("pk", flat=True))
    notify(ben, "other", "Ben's", key="b")
    bens = Notification.objects.get(user=ben).pk
    client = api_of(ana)
    answer = client.post("/api/notifications/read", {"ids": [ids[0], bens]}, format="json")
    assert answer.status_code == 200 and answer.json() == {"marked": 1, "unread": 2}
    assert Notification.objects.get(pk=bens).read_at is None  # not ana's: left alone
    for bad in ({}, {"ids": [ids[1]], "all": True}, {"ids": ["x"]}, {"all": False}):
        refused = client.post("/api/notifications/read", bad, format="json")
        assert refused.status_code == 400 and refused.json()["code"] == "invalid", bad
    assert Notification.objects.filter(user=ana, read_at=None).count() == 2
    answer = client.post("/api/notifications/read", {"all": True}, format="json")
    assert answer.json() == {"marked": 2, "unread": 0}
    assert client.get("/api/notifications").json()["unread"] == 0


def test_follow_and_unfollow_with_their_refusals():
    ana, ben = make_user(), make_user()
    client = api_of(ana)
    url = f"/api/players/{ben.username}/follow"
    assert client.get(url).json() == {
        "username": ben.username,
        "following": False,
        "followers": 0,
        "follows": 0,
    }
    followed = client.post(url)
    assert followed.status_code == 201 and followed.json()["following"] is True
    assert followed.json()["followers"] == 1
    again = client.post(url)
    assert again.status_code == 200 and Follow.objects.count() == 1
    assert api_of(ben).get(f"/api/players/{ana.username}/follow").json()["follows"] == 1

    own = client.post(f"/api/players/{ana.username}/follow")
    assert own.status_code == 400 and own.json()["code"] == "follow-self"
    nobody = client.post("/api/players/nobody-here/follow")
    assert nobody.status_code == 404 and nobody.json()["code"] == "not-found"
    assert APIClient().post(url).status_code in (401, 403)
    assert Follow.objects.count() == 1

    gone = client.delete(url)
    assert gone.status_code == 200 and gone.json()["following"] is False
    assert client.delete(url).status_code == 200 and Follow.objects.count() == 0


def test_the_followers_of_a_person_are_whom_to_tell():
    ana, ben, cy = make_user(), make_user(), make_user()
    Follow.objects.create(follower=ben, followed=ana)
    Follow.objects.create(follower=cy, followed=ana)
    Follow.objects.create(follower=ana, followed=cy)
    assert follower_ids(ana) == sorted([ben.pk, cy.pk]) and follower_ids(ben) == []
