"""POST /api/games naming another person asks them first (tables/invitations.py): 202 with an
invitation (a table) each person named accepts (POST /api/tables/<id>/join) or declines; the
game starts, its seats as asked, when everyone accepted. Nobody is seated before."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Game, Seat
from social.models import Notification
from tests.games.factories import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

OFFICIAL = {"rules": "official", "options": {"target": 100}}


def signed_in(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def test_a_game_naming_a_person_is_an_invitation_they_accept():
    ana, mira = make_user("ana"), make_user("Mira_K")
    seats = [{"user": "me"}, {"user": "Mira_K"}, {"bot": "greedy"}]
    answer = signed_in(ana).post("/api/games", {"variant": OFFICIAL, "seats": seats}, format="json")

    assert answer.status_code == 202, answer.json()
    body = answer.json()
    assert (body["status"], body["opener"], body["game"]) == ("open", "ana", None)
    assert body["invited"] == ["Mira_K"] and body["plan"] == ["ana", "Mira_K", "greedy"]
    assert body["seats"] == 3 and body["seated"] == ["ana"]
    assert not Game.objects.exists() and not Seat.objects.filter(user=mira).exists()
    assert signed_in(mira).get("/api/games").json() == []
    # Listed among Mira's private tables, to answer.
    assert [t["id"] for t in signed_in(mira).get("/api/tables").json()] == [body["id"]]
    assert Notification.objects.filter(user=mira, kind="challenge").count() == 1

    joined = signed_in(mira).post(f"/api/tables/{body['id']}/join").json()

    assert joined["status"] == "started"
    game = Game.objects.get(pk=joined["game"])
    assert [s.user for s in game.seats.order_by("number")] == [ana, mira, None]
    assert [row["id"] for row in signed_in(mira).get("/api/games").json()] == [game.pk]


def test_a_decline_closes_it_and_someone_else_may_not_answer():
    ana, mira = make_user("ana"), make_user("Mira_K")
    body = (
        signed_in(ana)
        .post(
            "/api/games",
            {"variant": OFFICIAL, "seats": [{"user": "me"}, {"user": "Mira_K"}]},
            format="json",
        )
        .json()
    )
    stranger = signed_in(make_user("cy"))
    assert stranger.post(f"/api/tables/{body['id']}/join").json()["code"] == "not-challenged"
    assert stranger.get(f"/api/tables/{body['id']}").status_code == 403

    declined = signed_in(mira).post(f"/api/tables/{body['id']}/decline")

    assert declined.json()["status"] == "declined" and not Game.objects.exists()
    assert Notification.objects.get(user=ana, kind="challenge").text.startswith(
        "Mira_K declined your invitation"
    )


@pytest.mark.parametrize(
    ("seats", "extra", "code"),
    [
        ([{"user": "me"}, {"user": "Mira_K"}], {"seed": 3}, "seed-not-allowed"),
        ([{"user": "Mira_K"}, {"bot": "greedy"}], {}, "creator-not-seated"),
        ([{"user": "me"}, {"user": "Mira_K"}], {"turn_seconds": 5}, "invalid-turn-seconds"),
        ([{"user": "me"}, {"user": "nobody"}], {}, "unknown-user"),
    ],
)
def test_an_invitation_is_refused_as_the_game_would_be(seats, extra, code):
    ana = make_user("ana")
    make_user("Mira_K")
    answer = signed_in(ana).post(
        "/api/games", {"variant": OFFICIAL, "seats": seats, **extra}, format="json"
    )
    assert (answer.status_code, answer.json()["code"]) == (400, code)
    assert not Game.objects.exists()
