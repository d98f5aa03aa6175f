"""The OpenAPI schema: valid, without warnings, every operation's errors listed, and the game's
shapes (view, legal commands, commands, events) described rather than opaque objects."""

from __future__ import annotations

import copy
import functools
import io

import pytest
import yaml
from django.core.management import call_command


def schema() -> dict:
    """The schema as `manage.py spectacular --validate --fail-on-warn` writes it: a copy of
    the one the command wrote, validated, the first time it was asked for in this process (the
    schema is a function of the code alone; about two seconds of CPU each time it is made)."""
    return copy.deepcopy(_written())


@functools.cache
def _written() -> dict:
    out = io.StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out)
    return yaml.safe_load(out.getvalue())


@pytest.fixture(scope="module")
def document() -> dict:
    """The schema for the module's tests, none of which changes it."""
    return schema()


def test_the_schema_is_valid_and_describes_the_games_shapes(document):
    components = document["components"]["schemas"]

    game = components["GameOutput"]["properties"]
    assert game["view"]["allOf"][0]["$ref"].endswith("/ViewShape")
    assert game["legal"]["items"]["$ref"].endswith("/CommandShape")
    view = components["ViewShape"]["properties"]
    assert {"hand", "hand_sizes", "top", "color", "to_act", "pending", "lane"} <= set(view)
    kinds = components["CommandShape"]["properties"]["type"]["$ref"].rsplit("/", 1)[1]
    assert {"play", "draw", "precommit", "approve", "swap"} <= set(components[kinds]["enum"])
    command = document["paths"]["/api/games/{game_id}/commands"]["post"]
    body = command["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert components[body.rsplit("/", 1)[1]]["properties"]["command"]["$ref"].endswith(
        "/CommandShape"
    )
    assert {"200", "400", "403", "404", "409", "422"} <= set(command["responses"])


def test_every_operation_lists_its_error_responses(document):
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            statuses = set(operation["responses"])
            if path.startswith("/api/schema") or path == "/api/health":
                continue
            assert statuses - {"200", "201", "202", "204"}, f"{method} {path} lists no error"


def test_a_pull_bots_command_is_described_as_a_persons_is(document):
    components = document["components"]["schemas"]

    for path in ("/api/games/{game_id}/commands", "/api/bot/games/{game_id}/commands"):
        body = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        name = body["schema"]["$ref"].rsplit("/", 1)[1]
        assert components[name]["properties"]["command"]["$ref"].endswith("/CommandShape"), path


def test_every_operation_that_reads_a_personal_token_lists_its_refusal(document):
    """A wrong or revoked token is 401 `token-invalid` wherever the token is read, on the
    public reads too (found by tests/api/test_schemathesis.py); a token lacking a scope, or no
    credentials at all, is 403."""
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            schemes = {name for item in operation.get("security", []) for name in item}
            if "personalToken" in schemes:
                assert {"401", "403"} <= set(operation["responses"]), f"{method} {path}"


def test_a_bots_url_is_text_not_a_uri_since_only_webhook_bots_have_one(document):
    """A pull or built-in bot's url is "", which `format: uri` would call invalid (found by
    tests/api/test_schemathesis.py)."""
    components = document["components"]["schemas"]

    for name in ("BotOutput", "RegisteredOutput"):
        assert "format" not in components[name]["properties"]["url"], name


def test_the_personal_tokens_endpoints_are_described(document):
    """GET/POST /api/me/tokens and DELETE /api/me/tokens/{token_id} (api/people.py): the list
    never holds a key, the new token's answer does, once; a refused name is a 409 without a game
    version."""
    components = document["components"]["schemas"]

    def shape(response):
        ref = response["content"]["application/json"]["schema"]
        ref = ref.get("items", ref)["$ref"]
        return components[ref.rsplit("/", 1)[1]]

    tokens = document["paths"]["/api/me/tokens"]
    listed = tokens["get"]["responses"]["200"]
    assert listed["content"]["application/json"]["schema"]["type"] == "array"
    assert set(shape(listed)["properties"]) == {
        "id", "name", "prefix", "scopes", "created_at", "last_used_at"
    }  # fmt: skip
    made = tokens["post"]
    body = made["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert {"name", "scopes"} <= set(components[body.rsplit("/", 1)[1]]["properties"])
    assert "token" in shape(made["responses"]["201"])["properties"]
    assert {"400", "401", "403", "409"} <= set(made["responses"])
    assert "current_version" not in shape(made["responses"]["409"])["properties"]
    revoke = document["paths"]["/api/me/tokens/{token_id}"]
    assert set(revoke) == {"delete"}
    assert {"204", "401", "403", "404"} <= set(revoke["delete"]["responses"])
    # The singular endpoint stays as it was documented, its 409 at the cap aside.
    singular = document["paths"]["/api/me/token"]
    assert set(shape(singular["get"]["responses"]["200"])["properties"]) == {
        "prefix", "scopes", "created_at", "last_used_at"
    }  # fmt: skip
