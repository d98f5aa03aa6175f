"""Hostile strings in the API are refused at the site's input boundary (frontdoor/boundary.py) with
400 and a stable code, and change nothing. Each was a 500 before (issue 28, item 7): PostgreSQL
cannot store or compare a NUL; a lone surrogate, once echoed into an error message, failed the
JSON renderer's UTF-8."""

from __future__ import annotations

import json

import pytest
from rest_framework.exceptions import ValidationError
from rest_framework.test import APIClient

from api.errors import exception_handler
from games.models import Bot, Game, GameEvent, NotificationPreference
from tests.games.factories import make_user
from tests.web.tables import FAMILIES, people_game

pytestmark = pytest.mark.django_db


def signed_in(user) -> APIClient:
    client = APIClient(raise_request_exception=False)
    client.force_login(user)
    return client


def assert_error(response, code: str, status: int = 400) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == code and body["message"]
    return body


def test_a_nul_in_a_players_name_is_a_400():
    make_user("ab")

    response = APIClient(raise_request_exception=False).get("/api/players/a%00b")

    assert_error(response, "invalid-characters")


@pytest.mark.parametrize("command_id", ["a\x00b", "a\ud800b"], ids=["nul", "lone-surrogate"])
def test_a_bad_character_in_a_command_id_is_a_400_and_changes_nothing(command_id):
    game, people = people_game(FAMILIES["official"])
    seat = game.to_act[0]
    events = GameEvent.objects.filter(game=game).count()
    body = {
        "command": {"type": "draw", "seat": seat},
        "expected_version": game.version,
        "command_id": command_id,
    }

    response = signed_in(people[seat]).post(
        f"/api/games/{game.pk}/commands", json.dumps(body), content_type="application/json"
    )

    message = assert_error(response, "invalid-characters")["message"]
    assert "command_id" in message
    assert Game.objects.get(pk=game.pk).version == game.version
    assert GameEvent.objects.filter(game=game).count() == events


def test_a_lone_surrogate_in_a_bots_kind_is_a_400_and_registers_nothing():
    owner = make_user("owner")
    body = json.dumps({"name": "Greta", "kind": "\ud800", "strategy": "greedy"})

    response = signed_in(owner).post("/api/me/bots", body, content_type="application/json")

    assert_error(response, "invalid-characters")
    assert not Bot.objects.filter(owner=owner).exists()


def test_a_lone_surrogate_in_turn_emails_is_a_400_and_changes_nothing():
    person = make_user("ada")
    client = signed_in(person)
    before = client.get("/api/me/notifications").json()

    response = client.put(
        "/api/me/notifications",
        json.dumps({"turn_emails": "each\ud800"}),
        content_type="application/json",
    )

    assert_error(response, "invalid-characters")
    assert client.get("/api/me/notifications").json() == before
    assert NotificationPreference.objects.filter(user=person).count() <= 1


@pytest.mark.parametrize("where", ["query", "header"])
def test_a_nul_in_a_query_string_or_a_header_is_a_400(where):
    person = make_user("ada")
    client = signed_in(person)
    if where == "query":
        response = client.get("/api/games", {"status": "play\x00ing"})
    else:
        response = client.get("/api/games", HTTP_USER_AGENT="curl\x00")

    assert_error(response, "invalid-characters")


def test_an_echoed_lone_surrogate_is_encodable_in_any_error():
    """The second line of defence: a message that echoes a lone surrogate is still rendered."""
    response = exception_handler(ValidationError({"kind": ['"\ud800" is not a valid choice.']}), {})

    assert response is not None and response.status_code == 400
    assert json.dumps(response.data, ensure_ascii=False).encode("utf-8")
    assert response.data["errors"]["kind"] == ['"\ufffd" is not a valid choice.']


@pytest.mark.parametrize("key", ["after", "before"])
def test_a_page_mark_past_any_stored_number_is_a_400_not_a_500(key):
    """`?after=` and `?before=` of 30 digits: PostgreSQL's integers hold none of them."""
    game, people = people_game(FAMILIES["official"], seats=2)
    client = signed_in(people[0])
    bot = Bot.objects.create(
        owner=people[0], name="pager", kind=Bot.Kind.BUILTIN, strategy="greedy"
    )
    huge = "9" * 30
    urls = [
        f"/api/games/{game.pk}/events?{key}={huge}",
        f"/api/games?status=finished&{key}={huge}",
        f"/api/notifications?{key}={huge}",
        f"/api/bots/{bot.pk}?{key}={huge}",
    ]
    for url in urls:
        answer = client.get(url)
        # A page, or a typed refusal (a 400, or a 404 for a game no id that long names).
        assert answer.status_code in (200, 400, 404), (url, answer.status_code)
        if answer.status_code != 200:
            assert answer.json()["code"] and answer.json()["message"]


def test_an_id_past_the_largest_a_row_can_have_is_a_404_that_says_so():
    """PostgreSQL's ids are bigints: 2^63 reached the database as an overflow (a 500, and an HTML
    page for a JSON client) in a game's URLs, a pull bot's command and the query of a game's
    events; the ids' converter (frontdoor/converters.py) matches it to no URL."""
    person = make_user()
    game, _ = people_game(FAMILIES["official"], seats=2)
    client = signed_in(person)
    past = 2**63
    for path in (
        f"/api/games/{past}",
        f"/api/games/{past}/events",
        f"/api/games/{past}/replay",
        f"/api/me/notifications/games/{past}",
    ):
        response = client.get(path)
        assert response.status_code == 404, (path, response.status_code)
        assert response["Content-Type"] == "application/json"
        message = response.json()["message"]
        assert f"Ids are whole numbers up to {past - 1}, and {past} is larger" in message
    posted = client.post(f"/api/bot/games/{past}/commands", {}, format="json")
    assert posted.status_code == 404 and posted["Content-Type"] == "application/json"
    # A 19-digit id below the largest is an id: no word about the largest on a path that is
    # not an endpoint for another reason.
    nope = client.get("/api/games/1000000000000000000/nope")
    assert nope.status_code == 404 and "Ids are whole numbers" not in nope.json()["message"]
    # The largest id itself is an id: no such game, said as such.
    largest = client.get(f"/api/games/{past - 1}")
    assert largest.status_code == 404 and str(past - 1) in largest.json()["message"]
    assert largest.json()["code"] == "game-not-found"
    # A page: the site's 404.
    assert client.get(f"/games/{past}/").status_code == 404
    # A version past the largest in a query string: refused, as any number out of its range.
    after = client.get(f"/api/games/{game.pk}/events", {"after": str(past)})
    assert_error(after, "invalid")
