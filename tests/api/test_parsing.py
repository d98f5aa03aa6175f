"""Malformed request bodies are typed 400s (api/parsers.py), never a 500 page: nested too deep
for Python's decoder, nested past MAX_DEPTH, not JSON; and a command of the wrong shape."""

from __future__ import annotations

import io
import json

import pytest
from rest_framework.exceptions import ParseError
from rest_framework.test import APIClient

from api.parsers import MAX_DEPTH, JSONParser, depth
from bots import turns
from bots.remote import tokens
from frontdoor.boundary import BadInput
from games.creation import SeatSpec, game_create
from games.models import Bot, Game
from tests.games.factories import SHORT, make_user

DEEP = 100_000


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.fixture
def seated_pull_bot(db) -> tuple[APIClient, Game, dict]:
    """A pull bot's client, its game and the decision it owes (seat 1)."""
    bot = Bot.objects.create(
        owner=make_user(), name="poller", kind=Bot.Kind.PULL, status=Bot.Status.ACTIVE
    )
    token = tokens.issue_token(bot)
    seats = [SeatSpec(bot="greedy"), SeatSpec(registered=bot), SeatSpec(bot="random")]
    game = game_create(variant_spec=SHORT, seats=seats, seed=9)
    turns.advance_game(game_id=game.pk)
    # A 500 comes back as a response, so that an assertion (not an exception) reports it.
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Bot {token}")
    [decision] = client.get("/api/bot/decisions").json()
    return client, game, decision


def assert_parse_error(response) -> None:
    assert response.status_code == 400, response.content[:200]
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == {"code", "message"}
    assert body["code"] == "parse_error"
    assert body["message"].startswith("JSON parse error")


@pytest.mark.parametrize(
    "body",
    [
        nested(DEEP),
        '{"command": ' + nested(DEEP) + ', "expected_version": 1}',
        '{"command": {"type": "play", "seat": 1, "card": ' + nested(DEEP) + "}}",
        # Past MAX_DEPTH but shallow enough for Python's decoder.
        '{"command": {"type": "play", "seat": 1, "card": ' + nested(MAX_DEPTH) + "}}",
    ],
    ids=["whole-body", "command", "card", "past-max-depth"],
)
def test_a_body_nested_too_deep_is_a_400_parse_error(seated_pull_bot, body):
    client, game, decision = seated_pull_bot

    response = client.post(
        f"/api/bot/games/{game.pk}/commands", body, content_type="application/json"
    )

    assert_parse_error(response)
    assert Game.objects.get(pk=game.pk).version == decision["version"]


def test_a_body_that_is_not_json_is_a_400_parse_error(seated_pull_bot):
    client, game, _ = seated_pull_bot

    response = client.post(
        f"/api/bot/games/{game.pk}/commands", '{"command": {', content_type="application/json"
    )

    assert_parse_error(response)


@pytest.mark.django_db
def test_every_endpoint_parses_with_the_guarded_parser():
    person = APIClient(raise_request_exception=False)
    person.force_login(make_user("deep"))

    response = person.put("/api/me/notifications", nested(DEEP), content_type="application/json")

    assert_parse_error(response)


def parse(text: str) -> object:
    return JSONParser().parse(io.BytesIO(text.encode()), "application/json", {})


def test_the_parser_takes_max_depth_and_refuses_one_more():
    assert depth(parse(nested(MAX_DEPTH))) == MAX_DEPTH
    assert parse('{"a": [1, {"b": null}], "c": "[[["}') == {"a": [1, {"b": None}], "c": "[[["}
    with pytest.raises(ParseError):
        parse(nested(MAX_DEPTH + 1))
    with pytest.raises(ParseError):
        parse(json.dumps({"a": [{"b": [[[]]]}]}).replace("[]", nested(MAX_DEPTH)))


def test_depth_counts_lists_and_objects_only():
    assert depth(1) == depth("[[") == depth(None) == 0
    assert depth([]) == depth({}) == 1
    assert depth({"a": [1, 2, {"b": []}]}) == 4


@pytest.mark.parametrize("seat", [0, 1])
def test_a_command_of_the_wrong_shape_is_a_typed_4xx(seated_pull_bot, seat):
    """Regression: `{"type": ["play"]}` raised TypeError (unhashable) in the service: a 500."""
    client, game, decision = seated_pull_bot
    body = {"command": {"type": ["play"], "seat": seat}, "expected_version": decision["version"]}

    response = client.post(f"/api/bot/games/{game.pk}/commands", body, format="json")

    assert 400 <= response.status_code < 500, response.content[:200]
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"]
    assert Game.objects.get(pk=game.pk).version == decision["version"]


@pytest.mark.parametrize(
    "text",
    [
        '{"command": {"type": "draw", "seat": 1}, "expected_version": 17}',
        '{"n": 123456789012345678901234567890, "m": -9223372036854775809}',
        '{"a": 1.5E+3, "b": -0, "c": 1e400, "d": "caf\\u00e9 \\ud83c\\udccf", "e": [true, null]}',
        '{"a": 1, "a": 2}',
    ],
    ids=["command", "past-64-bits", "numbers-and-escapes", "repeated-key"],
)
def test_the_parser_reads_what_pythons_json_reads(text):
    # orjson reads most bodies (api/parsers.py); what it would read otherwise (an integer past 64
    # bits as a float, 1e400 refused) goes through json as before.
    assert parse(text) == json.loads(text)
    assert [type(value) for value in parse(text).values()] == [
        type(value) for value in json.loads(text).values()
    ]


def test_a_body_in_another_encoding_is_read_in_it():
    body = '{"name": "café"}'.encode("latin-1")

    parsed = JSONParser().parse(io.BytesIO(body), "application/json", {"encoding": "latin-1"})

    assert parsed == {"name": "café"}


@pytest.mark.parametrize(
    "body", [b"\xef\xbb\xbf{}", b'{"a": NaN}', b'{"a": "\xff"}', b"[1,]", b'"a\nb"'],
    ids=["bom", "nan", "not-utf-8", "trailing-comma", "control-character"],
)  # fmt: skip
def test_what_json_refuses_stays_a_parse_error(body):
    with pytest.raises(ParseError, match="^JSON parse error - "):
        JSONParser().parse(io.BytesIO(body), "application/json", {})


@pytest.mark.parametrize(
    "body",
    [
        b'{"command_id": "a\\u0000b"}',
        b'{"a\\u0000": 1}',
        b'{"command_id": "a\\ud800b"}',
        b'{"command_id": "a\x00b"}',
        b'{"command_id": "a\xed\xa0\x80b"}',
        b'{"a\x00": 1}',
    ],
    ids=[
        "escaped-nul",
        "escaped-nul-key",
        "escaped-surrogate",
        "raw-nul",
        "raw-surrogate",
        "raw-nul-key",
    ],
)
def test_a_nul_or_a_surrogate_is_refused_however_the_body_spells_it(body: bytes) -> None:
    # The parser walks the strings only for a body with a `\u` escape or one orjson does not
    # read (api/parsers.py): raw, neither reaches a string.
    with pytest.raises((ParseError, BadInput)):
        JSONParser().parse(io.BytesIO(body), "application/json", {"encoding": "utf-8"})


def test_a_clean_body_is_read_without_the_walk() -> None:
    body = b'{"command": {"type": "play", "seat": 0, "card": "red-5"}, "expected_version": 3}'
    assert JSONParser().parse(io.BytesIO(body), "application/json", {}) == json.loads(body)
