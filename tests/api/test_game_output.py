"""GET /api/games/{id}'s body is built directly (api/games.py game_output), equal to what its
serializer, GameOutput, gives; and the API's content negotiation answers JSON to what clients
send and 406 to a type it cannot give, as DRF's does."""

from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from rest_framework.test import APIClient

from accounts.services import token_issue
from api.games import GameOutput, game_output
from games import dispatch, lobby
from tests.games.factories import make_game, play_to_end, play_turn

pytestmark = pytest.mark.django_db


def same(detail: dict) -> None:
    expected = GameOutput(detail).data
    assert game_output(detail) == expected
    assert json.dumps(game_output(detail)) == json.dumps(expected)


def test_the_body_equals_the_serializers_for_a_player_a_spectator_and_a_finished_game():
    game = make_game(players=2, bots=("greedy",))
    people = [seat.user for seat in game.seats.order_by("number") if seat.user]
    for viewer in (*people, AnonymousUser()):
        same(lobby.game_detail(game_id=game.pk, viewer=viewer))
    dispatch.dispatch_append(game.pk)  # a person's clock runs: the body has a deadline
    game = make_game(players=2, seed=2)
    people = [seat.user for seat in game.seats.order_by("number")]
    dispatch.dispatch_append(game.pk)
    play_turn(game.pk, random.Random(3))
    dispatch.dispatch_append(game.pk)
    details = [lobby.game_detail(game_id=game.pk, viewer=person) for person in people]
    assert any(detail["deadline"] is not None for detail in details)
    for detail in details:
        same(detail)
    over = make_game(players=2, seed=4)
    play_to_end(over.pk)
    same(lobby.game_detail(game_id=over.pk, viewer=AnonymousUser()))


@pytest.mark.parametrize(
    ("accept", "query", "status"),
    [
        (None, "", 200),
        ("*/*", "", 200),
        ("application/json", "", 200),
        ("application/json; indent=2", "", 200),
        ("text/html", "", 406),
        ("", "", 406),
        ("*/*", "?format=json", 200),
        ("*/*", "?format=xml", 404),
    ],
)
def test_the_api_answers_json_or_406(accept, query, status):
    game = make_game(players=2)
    client = APIClient()
    client.credentials(
        HTTP_AUTHORIZATION=f"Token {token_issue(user=game.seats.get(number=0).user)}"
    )
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}

    response = client.get(f"/api/games/{game.pk}{query}", **headers)

    assert response.status_code == status, response.content
    if status == 200:
        assert response["Content-Type"].startswith("application/json")
        assert response.json()["game"] == game.pk


def test_a_view_whose_first_renderer_is_not_json_keeps_drfs_choice():
    # The schema's first renderer is YAML: no Accept header or */* still gets it, JSON on asking.
    assert Client().get("/api/schema/")["Content-Type"].startswith("application/vnd.oai.openapi")
    assert (
        Client()
        .get("/api/schema/", HTTP_ACCEPT="*/*")["Content-Type"]
        .startswith("application/vnd.oai.openapi")
    )
    asked = Client().get("/api/schema/", HTTP_ACCEPT="application/json")
    assert asked["Content-Type"].startswith("application/json")
