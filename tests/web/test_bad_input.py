"""Hostile input on the web pages and the staff console is refused at the site's input boundary
(frontdoor/boundary.py) with the 400 page and a stable code, and changes nothing. Each test below
was a 500 before (issue 28, item 7): `str.isdigit()` takes "²", which `int()` refuses; a command
form nested 100,000 deep overflowed Python's stack; PostgreSQL cannot store or compare a NUL.
tests/test_input_fuzz.py throws such values at every page."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.models import Game
from league.models import Entry
from tests.games.factories import make_game, make_user
from tests.league.factories import make_competition
from tests.web.ladder_pages import ONE_HAND, owned_bot
from tests.web.tables import FAMILIES, people_game

pytestmark = pytest.mark.django_db


def client_of(user=None) -> Client:
    # The status as a user's browser gets it, not the view's exception.
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    return client


def assert_400(response, code: str) -> None:
    assert response.status_code == 400, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert "<h1>Bad request</h1>" in html
    assert f"<code>{code}</code>" in html


@pytest.fixture
def game() -> Game:
    return make_game(players=1, bots=["greedy"])


# `isdigit()` accepts "²"


@pytest.mark.parametrize("name", ["web:play", "web:board"])
def test_a_seat_that_is_no_number_is_a_400_for_anyone(game, name):
    response = client_of().get(reverse(name, args=[game.pk]), {"seat": "²"})

    assert_400(response, "invalid-number")


@pytest.mark.parametrize("seat", ["abc", "-1", "+1", " 1", "1" * 19])
def test_every_malformed_seat_is_the_same_400(game, seat):
    assert_400(
        client_of().get(reverse("web:play", args=[game.pk]), {"seat": seat}), "invalid-number"
    )


def test_a_seat_that_is_no_number_in_the_command_form_is_a_400_and_changes_nothing():
    game, people = people_game(FAMILIES["official"])
    seat = game.to_act[0]
    data = {
        "command": json.dumps({"type": "draw", "seat": seat}),
        "expected_version": game.version,
        "command_id": "c1",
        "seat": "²",
    }

    response = client_of(people[seat]).post(reverse("web:command", args=[game.pk]), data)

    assert_400(response, "invalid-number")
    assert Game.objects.get(pk=game.pk).version == game.version


@pytest.mark.parametrize("value", ["²", "greta", "-1"])
def test_a_bot_that_is_no_number_on_entering_a_ladder_is_a_400_and_changes_nothing(value):
    ladder = make_competition(name="Open Ladder", slug="open", variant=ONE_HAND)
    ada = make_user("ada")
    owned_bot(ada, "Greta")

    response = client_of(ada).post(reverse("web:ladder-enter", args=["open"]), {"bot": value})

    assert_400(response, "invalid-number")
    assert not Entry.objects.filter(competition=ladder).exists()


def test_an_event_number_that_is_no_number_in_the_staff_inspector_is_a_400(game):
    staff = get_user_model().objects.create_user("root", is_staff=True)

    response = client_of(staff).get(reverse("staff:game", args=[game.pk]), {"at": "²"})

    assert_400(response, "invalid-number")


# The command form's JSON: the API's limits


def test_a_command_nested_100000_deep_is_a_400_parse_error_and_changes_nothing():
    game, people = people_game(FAMILIES["official"])
    seat = game.to_act[0]
    data = {"command": "[" * 100_000, "expected_version": game.version, "command_id": "c1"}

    response = client_of(people[seat]).post(reverse("web:command", args=[game.pk]), data)

    assert_400(response, "parse_error")
    assert "nests more than 32 levels" in response.content.decode()
    assert Game.objects.get(pk=game.pk).version == game.version


@pytest.mark.parametrize(
    "command",
    [
        # Past the API's MAX_DEPTH, shallow enough for Python's decoder.
        '{"type": "play", "seat": 0, "card": ' + "[" * 33 + "]" * 33 + "}",
        # A NUL and a lone surrogate, as JSON escapes: ASCII in the form, not after parsing.
        '{"type": "play", "seat": 0, "card": "red-1\\u0000"}',
        '{"type": "play", "seat": 0, "card": "\\ud800"}',
    ],
    ids=["past-max-depth", "nul", "lone-surrogate"],
)
def test_the_command_forms_json_has_the_apis_limits(command):
    game, people = people_game(FAMILIES["official"])
    seat = game.to_act[0]
    data = {"command": command, "expected_version": game.version, "command_id": "c1"}

    response = client_of(people[seat]).post(reverse("web:command", args=[game.pk]), data)

    assert_400(response, "parse_error" if "[[" in command else "invalid-characters")
    assert Game.objects.get(pk=game.pk).version == game.version


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_the_command_forms_json_is_strict_json_as_the_apis(constant):
    # Python's decoder takes NaN and Infinity, which are not JSON and which the API's parser
    # (DRF, strict) refuses: the form says the command is malformed, as for any text not JSON.
    game, people = people_game(FAMILIES["official"])
    seat = game.to_act[0]
    command = '{"type": "play", "seat": 0, "card": "red-1", "x": ' + constant + "}"
    data = {"command": command, "expected_version": game.version, "command_id": "c1"}

    response = client_of(people[seat]).post(
        reverse("web:command", args=[game.pk]), data, follow=True
    )

    assert "the form&#x27;s command is not JSON" in response.content.decode()
    assert Game.objects.get(pk=game.pk).version == game.version


# NUL: PostgreSQL refuses it in a query


def test_a_nul_in_a_players_name_is_a_400():
    make_user("ab")

    response = client_of().get("/players/a%00b/")

    assert_400(response, "invalid-characters")


def test_a_nul_in_the_staff_search_is_a_400():
    staff = get_user_model().objects.create_user("root", is_staff=True)

    response = client_of(staff).get(reverse("staff:games"), {"q": "ro\x00ot"})

    assert_400(response, "invalid-characters")


@pytest.mark.parametrize(
    ("path", "query"),
    [("/staff/", {"q": "\x00"}), ("/games/1/", {"seat": "²"})],
    ids=["refused-by-the-boundary", "refused-by-a-view"],
)
def test_a_refusal_is_the_400_page_under_debug_too_with_no_traceback(settings, caplog, path, query):
    # `make run` is DEBUG: its visitors met Django's debug page, with a traceback logged.
    settings.DEBUG = True
    game = make_game(players=1, bots=["greedy"])
    path = path.replace("/1/", f"/{game.pk}/")

    with caplog.at_level("WARNING"):
        response = client_of().get(path, query)

    assert_400(response, "invalid-characters" if "q" in query else "invalid-number")
    assert "Traceback" not in response.content.decode()
    assert [record.exc_info for record in caplog.records] == [None] * len(caplog.records)
    assert any("Bad Request" in record.getMessage() for record in caplog.records)


def test_a_nul_in_a_form_field_is_refused_before_any_view_reads_it():
    before = get_user_model().objects.count()
    form = {
        "username": "eve\x00",
        "email": "eve@example.org",
        "password1": "a-long-passphrase-9",
        "password2": "a-long-passphrase-9",
        "birth_date": "1990-01-02",
    }

    response = client_of().post(reverse("web:signup"), form)

    assert_400(response, "invalid-characters")
    assert get_user_model().objects.count() == before


def test_a_nul_in_the_session_cookie_is_a_400_not_a_database_error(game):
    # A quoted cookie is unquoted when parsed: "\\000" is a NUL.
    cookie = 'sessionid="abcdefghij\\000"'

    response = client_of().get(reverse("web:play", args=[game.pk]), HTTP_COOKIE=cookie)

    assert_400(response, "invalid-characters")


# Found by tests/test_input_fuzz.py


@pytest.mark.parametrize("action", ["web:ladder-enter", "web:ladder-leave"])
@pytest.mark.parametrize("back", ["²", "-1", "nowhere"])
def test_a_ladder_forms_next_that_is_no_path_goes_back_to_the_ladder(action, back):
    """redirect() took any text but a path for a URL pattern's name: NoReverseMatch, a 500."""
    make_competition(name="Open Ladder", slug="open", variant=ONE_HAND)

    response = client_of(make_user("ada")).post(reverse(action, args=["open"]), {"next": back})

    assert response.status_code == 302
    assert response["Location"] == reverse("web:ladder", args=["open"])


@pytest.mark.parametrize("debug", [True, False], ids=["debug", "no-debug"])
def test_an_unknown_api_path_is_the_json_404_under_debug_too(settings, debug):
    # `make run` is DEBUG: a bot author rehearsing there met 60 KB of Django's HTML debug page
    # for /api/bots/x, where the site without DEBUG answers the API's JSON.
    settings.DEBUG = debug

    response = client_of().get("/api/bots/x")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "code": "not-found",
        "message": "There is no API endpoint at /api/bots/x.",
    }


def test_an_endpoints_own_404_and_the_slash_redirect_are_kept_under_debug(settings):
    settings.DEBUG = True

    missing = client_of().get("/api/games/987654")
    redirect = client_of().get("/api/docs")

    assert missing.status_code == 404
    assert missing.json()["code"] != "not-found" or "endpoint" not in missing.json()["message"]
    assert (redirect.status_code, redirect["Location"]) == (301, "/api/docs/")
