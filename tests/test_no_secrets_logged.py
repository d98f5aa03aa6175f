"""Secrets never reach the logs: with every logger of ours at DEBUG (as LOG_LEVEL=DEBUG sets the
root), registering bots, webhook calls (a good one and a failing one, which logs a strike), a
pull bot's polls and commands, a person's API token and sign-ins (wrong and right) log nothing
that holds a webhook secret, a pull or personal token, a password or an Authorization header."""

from __future__ import annotations

import logging

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games import turns
from games.models import Bot, Game
from games.services import SeatSpec, game_create
from tests.games.factories import SHORT, make_user
from tests.games.fake_bot import FakeBot

pytestmark = pytest.mark.django_db

WEBHOOK_SECRET = "hook-secret-5b0f9c2e7d"
PASSWORD = "pass-phrase-31d8a6"


def advance_until_asked(game: Game, fake: FakeBot, times: int) -> None:
    for _ in range(500):
        if len(fake.requests) >= times:
            return
        turns.advance_game(game_id=game.pk)
    raise AssertionError("the webhook bot was not asked")


def test_no_secret_token_or_password_is_logged(caplog, settings):
    settings.BOTS_ALLOW_LOOPBACK_URLS = True
    caplog.set_level(logging.DEBUG)
    owner = make_user("owner")
    owner.set_password(PASSWORD)
    owner.save()
    api = APIClient()
    api.force_login(owner)
    secrets: list[str] = [WEBHOOK_SECRET, PASSWORD]

    with FakeBot() as fake:
        # A webhook bot registered through the owners' API with its secret.
        made = api.post(
            "/api/me/bots",
            {"name": "hook", "kind": "webhook", "url": fake.url, "secret": WEBHOOK_SECRET},
            format="json",
        )
        assert made.status_code == 201, made.json()
        hook = Bot.objects.get(pk=made.json()["id"])
        Bot.objects.filter(pk=hook.pk).update(status=Bot.Status.ACTIVE)
        seats = [SeatSpec(registered=hook), SeatSpec(bot="greedy"), SeatSpec(bot="random")]
        game = game_create(variant_spec=SHORT, seats=seats, seed=4)
        advance_until_asked(game, fake, 1)
        # A failing call: logged as a strike.
        fake.mode = "error"
        advance_until_asked(game, fake, 2)
        assert fake.requests[0][1].startswith("sha256=")

    # A pull bot: its token, a poll and a command (refused: a stale version).
    pulled = api.post("/api/me/bots", {"name": "puller", "kind": "pull"}, format="json")
    bot_token = pulled.json()["token"]
    secrets.append(bot_token)
    puller = Bot.objects.get(pk=pulled.json()["id"])
    Bot.objects.filter(pk=puller.pk).update(status=Bot.Status.ACTIVE)
    pull_game = game_create(
        variant_spec=SHORT,
        seats=[SeatSpec(registered=puller), SeatSpec(bot="greedy"), SeatSpec(bot="random")],
        seed=9,
    )
    bot_client = APIClient()
    bot_client.credentials(HTTP_AUTHORIZATION=f"Bot {bot_token}")
    for _ in range(20):
        turns.advance_game(game_id=pull_game.pk)
    assert bot_client.get("/api/bot/decisions").status_code == 200
    stale = {"command": {"type": "draw", "seat": 0}, "expected_version": 0}
    refused = bot_client.post(f"/api/bot/games/{pull_game.pk}/commands", stale, format="json")
    assert refused.status_code in (403, 409, 422)
    wrong_bot = APIClient()
    wrong_bot.credentials(HTTP_AUTHORIZATION="Bot not-a-real-token-0a1b2c")
    secrets.append("not-a-real-token-0a1b2c")
    assert wrong_bot.get("/api/bot/decisions").status_code == 401

    # A person's API token, used and mistyped.
    person_token = api.post("/api/me/token").json()["token"]
    secrets.append(person_token)
    scripted = APIClient()
    scripted.credentials(HTTP_AUTHORIZATION=f"Token {person_token}")
    assert scripted.get("/api/games").status_code == 200
    scripted.credentials(HTTP_AUTHORIZATION=f"Token {person_token}x")
    assert scripted.get("/api/games").status_code == 403

    # Sign-ins: a wrong password and the right one.
    browser = Client()
    browser.post("/accounts/login/", {"username": "owner", "password": PASSWORD + "-typo"})
    secrets.append(PASSWORD + "-typo")
    right = browser.post("/accounts/login/", {"username": "owner", "password": PASSWORD})
    assert right.status_code == 302

    logged = "\n".join(
        [caplog.text]
        + [repr(record.args) for record in caplog.records]
        + [repr(getattr(record, "request", "")) for record in caplog.records]
    )
    # Not vacuous: the strike and the failed sign-in were logged.
    assert "strike" in logged and "AXES" in logged
    for secret in secrets:
        assert secret not in logged, f"{secret[:4]}… appears in the log"
    assert "Authorization" not in logged and "HTTP_AUTHORIZATION" not in logged


def test_sql_with_its_parameters_is_never_logged():
    # Parameters of the INSERTs above hold the webhook secret in clear (it is an HMAC key the
    # worker needs): Django logs SQL on django.db.backends at DEBUG, which settings.LOGGING
    # keeps off whatever LOG_LEVEL says.
    assert logging.getLogger("django.db.backends").getEffectiveLevel() > logging.DEBUG
