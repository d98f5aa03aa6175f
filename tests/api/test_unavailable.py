"""A database or broker that is down gets a clear 503 with a code, not a 500 page
(api/unavailable.py): under /api/ as JSON, elsewhere as a short page, both with Retry-After."""

from __future__ import annotations

import pytest
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from rest_framework.test import APIClient

from games.repository import repository
from web import play

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "error",
    [
        OperationalError("terminating connection due to administrator command"),
        InterfaceError("connection already closed"),
        BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused."),
        RedisConnectionError("Connection refused"),
    ],
    ids=["database-dropped", "database-closed", "broker", "redis"],
)
def test_an_api_call_while_a_part_is_down_is_a_503_with_a_code(monkeypatch, error):
    def down(*args, **kwargs):
        raise error

    # The game's read, the request's first touch of the database (api/games.py `game`).
    monkeypatch.setattr(repository, "get", down)
    answer = APIClient().get("/api/games/1")
    assert answer.status_code == 503
    assert answer.json()["code"] == "unavailable"
    assert answer["Retry-After"] == "5"


def test_any_other_error_is_still_a_logged_500(monkeypatch):
    def broken(*args, **kwargs):
        raise ZeroDivisionError

    monkeypatch.setattr(repository, "get", broken)
    client = APIClient(raise_request_exception=False)
    answer = client.get("/api/games/1")
    assert answer.status_code == 500
    assert answer.json()["code"] == "server_error"


def test_a_page_while_the_database_is_down_is_a_503_page(client, monkeypatch, settings):
    settings.DEBUG = False

    def down(*args, **kwargs):
        raise OperationalError("the database system is shutting down")

    # The play page reads the game through web/play.py's board_context.
    monkeypatch.setattr(play, "board_context", down)
    answer = client.get("/games/1/")
    assert answer.status_code == 503
    assert answer["Content-Type"].startswith("text/plain")
