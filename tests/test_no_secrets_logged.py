"""Secrets never reach the logs: with every logger of ours at DEBUG (as LOG_LEVEL=DEBUG sets the
root), registering bots, webhook calls (a good one and a failing one, which logs a strike), a
pull bot's polls and commands, a person's API token and sign-ins (wrong and right) log nothing
that holds a webhook secret, a pull or personal token, a password or an Authorization header.
gunicorn, run as the Dockerfile runs it, writes no password-reset token or query-string secret
in its access log, nor Django in its own lines (config/redact.py)."""

from __future__ import annotations

import http.client
import json
import logging
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings as configured
from django.contrib.auth.tokens import default_token_generator
from django.db import connection
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from rest_framework.test import APIClient

from bots import turns
from config.redact import redact
from games.creation import SeatSpec, game_create
from games.models import Bot, Game
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
    assert scripted.get("/api/games").status_code == 401

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


ROOT = Path(__file__).resolve().parent.parent


def dockerfile_command() -> list[str]:
    """The Dockerfile's CMD, the command the image (and docker-compose.yml's web) runs."""
    text = (ROOT / "Dockerfile").read_text()
    found = re.search(r"^CMD (\[.*?\])\s*$", text.replace("\\\n", " "), re.M | re.S)
    assert found, "the Dockerfile has no CMD [...]"
    return list(json.loads(found.group(1)))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(port: int, path: str, **headers: str) -> int:
    client = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        client.request("GET", path, headers=headers)
        return client.getresponse().status
    finally:
        client.close()


@pytest.mark.django_db(transaction=True)
def test_gunicorn_and_django_log_no_reset_token_or_secret_in_a_query(tmp_path):
    person = make_user("forgetful")
    uid = urlsafe_base64_encode(force_bytes(person.pk))
    token = default_token_generator.make_token(person)
    command = dockerfile_command()
    assert command[0] == "gunicorn"
    port = free_port()
    # As the image runs it, on a loopback port, with one process.
    command[command.index("--bind") + 1] = f"127.0.0.1:{port}"
    command[command.index("--workers") + 1] = "1"
    db = connection.settings_dict
    env = {
        **{key: value for key, value in os.environ.items() if not key.startswith("PYTEST")},
        # The token is signed with it.
        "SECRET_KEY": configured.SECRET_KEY,
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "LOG_LEVEL": "INFO",
        "DEBUG": "",
    }
    for unset in ("REDIS_URL", "CACHE_URL", "PROMETHEUS_MULTIPROC_DIR"):
        env.pop(unset, None)
    out, err = tmp_path / "stdout", tmp_path / "stderr"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        server = subprocess.Popen(
            [sys.executable, "-m", *command], cwd=ROOT, env=env, stdout=stdout, stderr=stderr
        )
        try:
            for _ in range(150):
                try:
                    get(port, "/api/health")
                    break
                except OSError:
                    time.sleep(0.1)
            # The link of the reset email: valid, so the view puts the token in the session and
            # redirects to its placeholder.
            assert get(port, f"/accounts/reset/{uid}/{token}/") == 302
            # Past the link's path: a 404, which Django logs with its path.
            assert get(port, f"/accounts/reset/{uid}/{token}/more/") == 404
            # Secrets a client puts in a query string, and a referrer holding the link.
            get(
                port,
                "/api/health?token=query-token-9f3e&api_key=query-key-77d1",
                Referer=f"http://127.0.0.1:{port}/accounts/reset/{uid}/{token}/",
            )
        finally:
            server.terminate()
            server.wait(timeout=30)
    access, django = out.read_text(), err.read_text()

    # Not vacuous: the requests and Django's 404 are in the logs.
    assert f'"GET /accounts/reset/{uid}/[redacted]/ HTTP/1.1" 302' in access
    assert "/api/health?token=[redacted]&api_key=[redacted]" in access
    assert f"Not Found: /accounts/reset/{uid}/[redacted]/more/" in django
    for secret in (token, "query-token-9f3e", "query-key-77d1"):
        assert secret not in access, f"{secret[:6]}... appears in the access log"
        assert secret not in django, f"{secret[:6]}... appears in Django's log"


@pytest.mark.parametrize(
    ("line", "logged"),
    [
        ("GET /accounts/reset/MQ/c1-ab12/ HTTP/1.1", "GET /accounts/reset/MQ/[redacted]/ HTTP/1.1"),
        # Django's placeholder, once the token is in the session, is no secret.
        ("GET /accounts/reset/MQ/set-password/", "GET /accounts/reset/MQ/set-password/"),
        ("Not Found: /Accounts/Reset/MQ/c1-ab12", "Not Found: /Accounts/Reset/MQ/[redacted]"),
        (
            "/x?a=1&access_token=t0k;SECRET=s&b=2",
            "/x?a=1&access_token=[redacted];SECRET=[redacted]&b=2",
        ),
        ("password=p&next=/", "password=[redacted]&next=/"),
        ("GET /api/games?my_turn=1 HTTP/1.1", "GET /api/games?my_turn=1 HTTP/1.1"),
        # A club's invitation link lets its holder join: its code is a secret (issue 28's review).
        (
            "GET /clubs/chess/join/Zx81kQ2pL0aB/ HTTP/1.1",
            "GET /clubs/chess/join/[redacted]/ HTTP/1.1",
        ),
        (
            "GET /accounts/login/?next=/clubs/chess/join/Zx81kQ2pL0aB/ HTTP/1.1",
            "GET /accounts/login/?next=/clubs/chess/join/[redacted]/ HTTP/1.1",
        ),
        (
            "GET /accounts/login/?next=%2Fclubs%2Fchess%2Fjoin%2FZx81kQ2pL0aB%2F HTTP/1.1",
            "GET /accounts/login/?next=%2Fclubs%2Fchess%2Fjoin%2F[redacted]%2F HTTP/1.1",
        ),
        (
            "GET /x/?next=%2Faccounts%2Freset%2FMQ%2Fc1-ab12%2F HTTP/1.1",
            "GET /x/?next=%2Faccounts%2Freset%2FMQ%2F[redacted]%2F HTTP/1.1",
        ),
        ("GET /clubs/chess/ HTTP/1.1", "GET /clubs/chess/ HTTP/1.1"),
        (
            "POST /notifications/unsubscribe/MTI:1tA:x9/ HTTP/1.1",
            "POST /notifications/unsubscribe/[redacted]/ HTTP/1.1",
        ),
    ],
)
def test_redact_blanks_reset_tokens_invitation_codes_and_secret_parameters_only(line, logged):
    assert redact(line) == logged
