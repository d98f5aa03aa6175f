"""api.errors: every API error is JSON with a stable code and a human message."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions

import api
from api.errors import exception_handler
from bots.registry import InvalidBot, InvalidURL, NameTaken, UnknownStrategy
from clocks.deadlines import VacationExhausted
from games.errors import Conflict, Forbidden, GameError, GameNotFound, IllegalMove, InvalidGame
from league.errors import CompetitionError, EntryRefused, InvalidCompetition

API_DIR = Path(api.__file__).parent


def test_it_gives_django_404_the_api_shape():
    response = exception_handler(Http404("no such game"), {})

    assert response is not None
    assert response.status_code == 404
    assert response.data == {"code": "not-found", "message": "no such game"}


def test_it_gives_django_permission_denied_the_api_shape():
    response = exception_handler(PermissionDenied(), {})

    assert response is not None
    assert response.status_code == 403
    assert response.data["code"] == "permission_denied"


def test_it_lists_the_field_errors_of_an_invalid_request():
    response = exception_handler(exceptions.ValidationError({"seat": ["Required."]}), {})

    assert response is not None
    assert response.status_code == 400
    assert response.data == {
        "code": "invalid",
        "message": "The request is not valid.",
        "errors": {"seat": ["Required."]},
    }


def test_a_body_that_is_not_json_is_told_to_send_json():
    # A form-encoded body (curl's -d without a header) to an endpoint that reads JSON.
    error = exceptions.UnsupportedMediaType("application/x-www-form-urlencoded")
    response = exception_handler(error, {})

    assert response is not None
    assert response.status_code == 415
    assert response.data == {
        "code": "unsupported_media_type",
        "message": 'Unsupported media type "application/x-www-form-urlencoded" in request. '
        "Send the body as JSON, with `Content-Type: application/json`.",
    }


def test_it_leaves_unexpected_errors_to_django():
    assert exception_handler(ValueError("bug"), {}) is None


# The services' typed errors: one mapping, in the handler, for every view.

FORBIDDEN_KIND = type("NotYourBot", (Forbidden,), {"code": "not-your-bot"})


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        (GameNotFound(12), 404, "game-not-found"),
        (Forbidden("seat 1 is not yours", code="not-your-seat"), 403, "not-your-seat"),
        (FORBIDDEN_KIND("bot 3 is not yours"), 403, "not-your-bot"),
        (IllegalMove("not your turn", code="not-your-turn"), 422, "not-your-turn"),
        (InvalidGame("game 4 is over", code="match-over"), 400, "match-over"),
        (GameError("days must be at least 1", code="invalid-days"), 400, "invalid-days"),
        (VacationExhausted("1 day left"), 400, "vacation-exhausted"),
        (InvalidBot("no such kind"), 400, "invalid-bot"),
        (NameTaken("taken"), 400, "name-taken"),
        (UnknownStrategy("no such strategy"), 400, "unknown-strategy"),
        (InvalidURL("private address"), 400, "invalid-url"),
        (CompetitionError("not a ladder", code="not-a-ladder"), 400, "not-a-ladder"),
        (InvalidCompetition("taken", code="slug-taken"), 400, "slug-taken"),
        (EntryRefused("already in", code="already-entered"), 400, "already-entered"),
    ],
)
def test_it_maps_each_service_error_class_to_its_status(error, status, code):
    response = exception_handler(error, {})

    assert response is not None
    assert response.status_code == status
    assert response.data == {"code": code, "message": error.message}


def test_a_version_conflict_carries_the_current_version():
    response = exception_handler(Conflict(expected_version=3, current_version=5), {})

    assert response is not None
    assert response.status_code == 409
    assert response.data == {
        "code": "version-conflict",
        "message": "expected version 3, but the game is at version 5",
        "current_version": 5,
    }


def test_no_view_maps_service_errors_itself():
    """The handler is the one place: no view catches GameError (api/ before this had seven)."""
    for module in API_DIR.glob("*.py"):
        if module.name != "errors.py":
            assert "except GameError" not in module.read_text(), module.name


def test_the_schema_lists_each_views_error_statuses(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    paths = schema["paths"]

    def statuses(path: str, method: str) -> set[str]:
        return set(paths[path][method]["responses"])

    assert statuses("/api/bot/games/{game_id}/commands", "post") == {
        "200", "400", "401", "403", "404", "409", "422", "429",
    }  # fmt: skip
    # Every operation lists the input boundary's 400 (api/errors.py boundary_errors).
    assert statuses("/api/bot/decisions", "get") == {"200", "400", "401"}
    # An operation that reads a personal token lists its 401 `token-invalid` (a revoked or
    # unknown key: api/auth.py).
    assert statuses("/api/games/{game_id}/resign", "post") == {"200", "400", "401", "403", "404"}
    assert statuses("/api/games/{game_id}/vacation", "post") == {
        "200", "400", "401", "403", "404",
    }  # fmt: skip
    assert statuses("/api/me/bots", "post") == {"201", "400", "401", "403", "429"}
    # A retired bot is changed no more (409 bot-retired); one still held does not retire (409
    # bot-busy).
    assert statuses("/api/me/bots/{bot_id}", "patch") == {
        "200", "400", "401", "403", "404", "409", "429",
    }  # fmt: skip
    assert statuses("/api/me/bots/{bot_id}", "delete") == {
        "200", "400", "401", "403", "404", "409", "429",
    }  # fmt: skip
    assert statuses("/api/me/bots/{bot_id}/token", "post") == {
        "200", "400", "401", "403", "404", "409",
    }  # fmt: skip
    assert statuses("/api/health", "get") == {"200", "400", "503"}
    assert all(
        "400" in operation["responses"] for ops in paths.values() for operation in ops.values()
    )

    def schema_of(path: str, method: str, status: str) -> str:
        content = paths[path][method]["responses"][status]["content"]
        return content["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]

    command = "/api/bot/games/{game_id}/commands"
    assert schema_of(command, "post", "404") == "ErrorOutput"
    assert schema_of(command, "post", "409") == "ConflictOutput"
    # A bot's 409s carry no game version.
    assert schema_of("/api/me/bots/{bot_id}", "delete", "409") == "ErrorOutput"
    components = schema["components"]["schemas"]
    assert set(components["ErrorOutput"]["properties"]) == {"code", "message", "errors"}
    assert components["ErrorOutput"]["required"] == ["code", "message"]
    assert "current_version" in components["ConflictOutput"]["properties"]
