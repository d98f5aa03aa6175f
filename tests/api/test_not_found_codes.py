"""Every 404 of the JSON API: one spelling of its code (hyphens, as the site's other codes), a
message that names what was not found (docs/api.md, "Errors").

The generic code is `not-found`; the few specific ones the docs list (`game-not-found`,
`table-not-found`, `notice-not-found`, `no-analysis`) stay. DRF's `not_found` is never seen."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.games.factories import make_user
from tests.league.factories import make_bot

# (method, path, code, a part of the message that names what is missing)
ANSWERS = [
    ("get", "/api/bots/999999", "not-found", "bot 999999"),
    ("get", "/api/ladders/nope", "not-found", "ladder 'nope'"),
    ("get", "/api/clubs/nope", "not-found", "club 'nope'"),
    ("get", "/api/seasons/nope", "not-found", "season 'nope'"),
    ("get", "/api/players/nobody-here", "not-found", "player 'nobody-here'"),
    ("get", "/api/tournaments/nope", "not-found", "nope"),
    ("get", "/api/ratings/nope", "not-found", "rating pool 'nope'"),
    ("get", "/api/me/bots/999999", "not-found", "you have no bot 999999"),
    ("get", "/api/me/bots/{theirs}", "not-found", "you have no bot {theirs}"),
    ("delete", "/api/me/bots/999999", "not-found", "you have no bot 999999"),
    ("get", "/api/me/bots/999999/calls", "not-found", "you have no bot 999999"),
    ("delete", "/api/me/tokens/999999", "not-found", "you have no personal API token 999999"),
    ("get", "/api/me/token", "not-found", "you have no personal API token"),
    ("get", "/api/me/notifications/games/999999", "not-found", "game 999999"),
    ("get", "/api/schemas/nope.json", "not-found", "no schema named 'nope'"),
    ("get", "/api/no-such-endpoint", "not-found", "no API endpoint at /api/no-such-endpoint"),
    ("get", "/api/games/999999", "game-not-found", "there is no game 999999"),
    ("get", "/api/tables/999999", "table-not-found", "999999"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path", "code", "names"), ANSWERS)
def test_each_not_found_answer_has_the_one_spelling_and_names_what(method, path, code, names):
    someone = make_user("someone")
    theirs = make_bot(owner=someone).pk
    client = APIClient()
    client.force_login(make_user("caller"))

    response = getattr(client, method)(path.format(theirs=theirs))

    assert response.status_code == 404, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == code
    assert names.format(theirs=theirs) in body["message"]
    assert body["message"] != "Not found."
