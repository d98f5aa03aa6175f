"""api/lean.py serves the four requests a game is played with (a person's GET /api/games/<id>
and POST …/commands, a pull bot's GET /api/bot/decisions and POST /api/bot/games/<id>/commands)
without DRF's per-request machinery. Each request here goes both ways, through the site's URLs
and through this module's (the DRF views themselves), and the two answers must be the same:
status, headers, body, errors included. A request that changes nothing runs twice on the same
game; one that changes it (a command, a refusal a bot is counted for) runs once on each of two
games dealt alike."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import orjson
import pytest
from django.contrib.auth.models import User
from django.test import Client, RequestFactory, override_settings
from django.urls import path, resolve
from rest_framework.authentication import get_authorization_header

from accounts.services import token_issue
from api import bots, games
from api.auth import authorization
from api.games import IDEMPOTENCY_HEADER, IDEMPOTENCY_META
from bots.remote import tokens
from games.creation import SeatSpec, game_create
from games.models import Bot, Game
from tests.games.factories import SHORT, make_user

pytestmark = pytest.mark.django_db

# This module is also a URL configuration: the four routes to the DRF views, as before
# api/lean.py, and the site's error handlers.
urlpatterns = [
    path("api/bot/decisions", bots.decisions),
    path("api/bot/games/<int:game_id>/commands", bots.command),
    path("api/games/<int:game_id>", games.game),
    path("api/games/<int:game_id>/commands", games.command),
]
handler400 = "api.views.bad_request"
handler404 = "api.views.not_found"
handler500 = "api.views.server_error"

Send = Callable[[Client, int], Any]


def answer(response: Any, game: Game) -> tuple[int, dict[str, str], Any]:
    """The status, the headers and the body, the game's id and the deadlines' times left out
    (two games dealt alike differ in those only)."""
    headers = dict(response.items())
    length = headers.pop("Content-Length", None)
    # A HEAD's body is left out (its length stays that of the GET's); an answer of the
    # middleware before CommonMiddleware has none.
    assert length is None or response.content == b"" or length == str(len(response.content))
    body = orjson.loads(response.content) if response.content else None
    return response.status_code, headers, _plain(body, game.pk)


def _plain(value: Any, game_id: int) -> Any:
    if isinstance(value, dict):
        return {
            key: "<game>"
            if key == "game" and item == game_id
            else "<time>"
            if key == "deadline" and isinstance(item, str)
            else _plain(item, game_id)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_plain(item, game_id) for item in value]
    if isinstance(value, str):
        return value.replace(f"game {game_id}", "game <game>")
    return value


def both(client: Client, send: Send, game: Game) -> None:
    """`send` on `game` through the site's URLs and through the DRF views: the same answer."""
    leaned = answer(send(client, game.pk), game)
    with override_settings(ROOT_URLCONF=__name__):
        drf = answer(send(client, game.pk), game)
    assert leaned == drf


def both_on_twins(client: Client, send: Send, make: Callable[[], Game]) -> None:
    """`send` through the site's URLs on one game, through the DRF views on its twin."""
    first, second = make(), make()
    leaned = answer(send(client, first.pk), first)
    with override_settings(ROOT_URLCONF=__name__):
        drf = answer(send(client, second.pk), second)
    assert leaned == drf


def people_game(people: list[User]) -> Callable[[], Game]:
    return lambda: game_create(
        variant_spec=SHORT, seats=[SeatSpec(user=person) for person in people], seed=4
    )


def with_token(key: str, keyword: str = "Token") -> Client:
    return Client(HTTP_AUTHORIZATION=f"{keyword} {key}", HTTP_ACCEPT="application/json")


def test_the_hot_routes_are_served_by_lean() -> None:
    for url in ("/api/games/1", "/api/games/1/commands", "/api/bot/decisions"):
        assert hasattr(resolve(url).func, "lean"), url
    assert hasattr(resolve("/api/bot/games/1/commands").func, "lean")


def to_act(game_id: int) -> int:
    return int(Game.objects.get(pk=game_id).to_act[0])


def legal_body(client: Client, game_id: int, version_offset: int = 0) -> dict[str, Any]:
    detail = client.get(f"/api/games/{game_id}").json()
    seat = detail["view"]["to_act"][0]
    move = next(c for c in detail["legal"] if c.get("seat") == seat and c["type"] != "call-uno")
    return {"command": move, "expected_version": detail["version"] + version_offset}


class TestPeople:
    @pytest.fixture
    def seated(self) -> tuple[list[User], list[Client], Callable[[], Game]]:
        people = [make_user(), make_user()]
        clients = [with_token(token_issue(user=person)) for person in people]
        return people, clients, people_game(people)

    @pytest.mark.parametrize(
        "headers",
        [
            {},
            {"HTTP_ACCEPT": "*/*"},
            {"HTTP_ACCEPT": "text/html"},
            {"HTTP_ACCEPT": "application/json; indent=2"},
            {"HTTP_AUTHORIZATION": "Token not-a-token"},
            {"HTTP_AUTHORIZATION": "Bot not-a-token"},
            {"HTTP_AUTHORIZATION": ""},
        ],
    )
    def test_reads_of_a_game(self, seated: Any, headers: dict[str, str]) -> None:
        _, clients, make = seated
        game = make()
        both(clients[0], lambda c, g: c.get(f"/api/games/{g}", **headers), game)

    @pytest.mark.parametrize(
        "send",
        [
            lambda c, g: c.get(f"/api/games/{g}?format=json"),
            lambda c, g: c.head(f"/api/games/{g}"),
            lambda c, g: c.options(f"/api/games/{g}"),
            lambda c, g: c.post(f"/api/games/{g}"),
            lambda c, g: c.get(f"/api/games/{g + 10**6}"),
            lambda c, g: c.get(f"/api/games/{g}", HTTP_X_NOTE="a\x00b"),
        ],
    )
    def test_other_reads(self, seated: Any, send: Send) -> None:
        _, clients, make = seated
        both(clients[0], send, make())

    def test_a_spectator_and_a_session(self, seated: Any) -> None:
        _, _, make = seated
        game = make()
        both(with_token(token_issue(user=make_user())), lambda c, g: c.get(f"/api/games/{g}"), game)
        browser = Client()
        browser.force_login(make_user())
        both(browser, lambda c, g: c.get(f"/api/games/{g}"), game)
        both(Client(), lambda c, g: c.get(f"/api/games/{g}"), game)

    @pytest.mark.parametrize(
        "change",
        [
            "legal",
            "stale",
            "illegal",
            "not-seated",
            "no-version",
            "not-json",
            "text",
            "nul",
            "long-key",
            "key-header",
            "repeated",
            "command-id",
            "scope",
            "no-token",
            "bad-token",
            "session",
        ],
    )
    def test_commands(self, seated: Any, change: str) -> None:
        people, clients, make = seated

        def send(client: Client, game_id: int) -> Any:
            seat = to_act(game_id)
            sender = clients[seat]
            body = legal_body(sender, game_id)
            url = f"/api/games/{game_id}/commands"
            extra: dict[str, Any] = {}
            if change == "stale":
                body["expected_version"] -= 1
            elif change == "illegal":
                body["command"] = {"type": "play", "seat": seat, "card": "no-such-card"}
            elif change == "not-seated":
                sender = with_token(token_issue(user=make_user()))
            elif change == "no-version":
                del body["expected_version"]
            elif change == "not-json":
                return sender.post(url, b"{not json", content_type="application/json")
            elif change == "text":
                return sender.post(url, orjson.dumps(body), content_type="text/plain")
            elif change == "nul":
                body["command_id"] = "a\x00b"
            elif change == "long-key":
                extra["HTTP_IDEMPOTENCY_KEY"] = "k" * 101
            elif change == "key-header":
                extra["HTTP_IDEMPOTENCY_KEY"] = "same-key"
            elif change == "repeated":
                body["command_id"] = "once"
                sender.post(url, body, content_type="application/json")
            elif change == "command-id":
                body["command_id"] = "  padded  "
            elif change == "scope":
                narrow = with_token(token_issue(user=people[seat], scopes=["bots"]))
                refused = narrow.post(url, body, content_type="application/json")
                # The seat's token with `play` again, for the twin.
                clients[seat] = with_token(token_issue(user=people[seat]))
                return refused
            elif change == "no-token":
                sender = Client()
            elif change == "bad-token":
                sender = with_token("nope")
            elif change == "session":
                sender = Client()
                sender.force_login(people[seat])
            return sender.post(url, body, content_type="application/json", **extra)

        both_on_twins(clients[0], send, make)

    def test_past_the_rate(self, seated: Any, settings: Any) -> None:
        settings.API_PERSON_COMMANDS_RATE = "1/min"
        answers = []
        for urls in (None, __name__):
            people = [make_user(), make_user()]
            clients = [with_token(token_issue(user=person)) for person in people]
            game = people_game(people)()
            with override_settings(ROOT_URLCONF=urls or settings.ROOT_URLCONF):
                seat = to_act(game.pk)
                body = legal_body(clients[seat], game.pk, version_offset=-1)
                url = f"/api/games/{game.pk}/commands"
                clients[seat].post(url, body, content_type="application/json")
                refused = clients[seat].post(url, body, content_type="application/json")
            answers.append(answer(refused, game))
        assert answers[0][0] == 429
        # The window's seconds left are read from the clock: a second may turn between the two
        # answers, so the wait they name may differ by one, and nothing else may.
        waits = [int(headers.pop("Retry-After")) for _, headers, _ in answers]
        assert abs(waits[0] - waits[1]) <= 1, waits
        said = [
            (status, headers, re.sub(r"\d+ seconds", "N seconds", str(body)))
            for status, headers, body in answers
        ]
        assert said[0] == said[1]


class TestPullBots:
    @pytest.fixture
    def bot(self) -> tuple[Bot, Client]:
        bot = Bot.objects.create(owner=make_user(), name="b", kind=Bot.Kind.PULL, status="active")
        return bot, with_token(tokens.issue_token(bot), "Bot")

    def twins(self, bot: Bot) -> Callable[[], Game]:
        return lambda: game_create(
            variant_spec=SHORT, seats=[SeatSpec(registered=bot)] * 2, seed=11
        )

    @pytest.mark.parametrize(
        "headers",
        [
            {},
            {"HTTP_ACCEPT": "text/html"},
            {"HTTP_AUTHORIZATION": "Bot nope"},
            {"HTTP_AUTHORIZATION": "Token nope"},
            {"HTTP_AUTHORIZATION": ""},
        ],
    )
    def test_decisions(self, bot: Any, headers: dict[str, str]) -> None:
        player, client = bot
        game = self.twins(player)()
        both(client, lambda c, g: c.get("/api/bot/decisions", **headers), game)
        both(client, lambda c, g: c.options("/api/bot/decisions", **headers), game)

    @pytest.mark.parametrize(
        "change", ["legal", "stale", "illegal", "other-seat", "not-json", "no-token", "bad-token"]
    )
    def test_commands(self, bot: Any, change: str) -> None:
        player, client = bot

        def send(sender: Client, game_id: int) -> Any:
            decision = next(
                d
                for d in client.get("/api/bot/decisions").json()
                if d["game"] == game_id and not d["optional"]
            )
            move = next(c for c in decision["legal"] if c.get("seat") == decision["seat"])
            body = {"command": move, "expected_version": decision["version"]}
            url = f"/api/bot/games/{game_id}/commands"
            if change == "stale":
                body["expected_version"] -= 1
            elif change == "illegal":
                body["command"] = {"type": "play", "seat": decision["seat"], "card": "nope"}
            elif change == "other-seat":
                body["command"] = {**move, "seat": 1 - decision["seat"]}
            elif change == "not-json":
                return sender.post(url, b"[", content_type="application/json")
            elif change == "no-token":
                sender = Client()
            elif change == "bad-token":
                sender = with_token("nope", "Bot")
            return sender.post(url, body, content_type="application/json")

        both_on_twins(client, send, self.twins(player))


@pytest.mark.parametrize("value", [None, "", "Token abc", "Bot  x ", "Token caf\xe9", b"Token raw"])
def test_the_headers_read_from_meta_are_what_drf_and_django_read(value: Any) -> None:
    # api/auth.py `authorization` and api/games.py's Idempotency-Key read META, where DRF's
    # get_authorization_header and `request.headers` build the mapping of every header.
    extra = {} if value is None else {"HTTP_AUTHORIZATION": value, IDEMPOTENCY_META: value}
    request = RequestFactory().get("/api/games/1", **extra)
    assert authorization(request) == get_authorization_header(request).decode(errors="replace")
    assert request.META.get(IDEMPOTENCY_META) == request.headers.get(IDEMPOTENCY_HEADER)
