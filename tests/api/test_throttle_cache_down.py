"""Rate limits while their cache is down (frontdoor/throttles.py; docs/reliability.md): with
CACHE_URL on a Redis that does not answer, people's and pull bots' commands go through uncounted,
sign-ups and bot changes are refused with a 503 and change nothing; every such request is counted in
uno_throttle_cache_down_total. A real Redis counts as before.

"Down" is a CACHE_URL on a loopback port where nothing listens (connection refused, as while the
broker's Redis restarts), and a redis-server this test starts and kills for the restart itself.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator

import pytest
import redis
from django.contrib.auth.models import User
from django.test import Client
from prometheus_client import REGISTRY
from rest_framework.test import APIClient

from bots.remote import tokens
from games.creation import SeatSpec, game_create
from games.models import Bot, Game
from tests.games.factories import SHORT, make_user

pytestmark = pytest.mark.django_db


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def redis_cache(url: str) -> dict:
    # As config/settings.py makes it from CACHE_URL.
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 1.0},
        }
    }


@pytest.fixture
def cache_down(settings) -> None:
    settings.CACHES = redis_cache(f"redis://127.0.0.1:{free_port()}/0")


def down_count(scope: str, decision: str) -> float:
    labels = {"scope": scope, "decision": decision}
    return REGISTRY.get_sample_value("uno_throttle_cache_down_total", labels) or 0.0


def people_game() -> tuple[Game, dict[int, User]]:
    """A game of two people and nobody else: whose turn it is is a person's."""
    ana, ben = make_user("ana"), make_user("ben")
    game = game_create(variant_spec=SHORT, seats=[SeatSpec(user=ana), SeatSpec(user=ben)], seed=9)
    return game, {0: ana, 1: ben}


def to_move(game: Game, people: dict[int, User]) -> tuple[User, APIClient, dict]:
    """The person whose turn it is, their API client and their view of the game."""
    for person in people.values():
        client = APIClient()
        client.force_login(person)
        detail = client.get(f"/api/games/{game.pk}").json()
        if detail["legal"]:
            return person, client, detail
    raise AssertionError("nobody may move")


def version(game: Game) -> int:
    return Game.objects.get(pk=game.pk).version


def command_through_api(game: Game, people: dict[int, User]) -> int:
    """The status of the command of whoever is to move; asserts the game moved on a 200."""
    _, client, detail = to_move(game, people)
    command = {"command": detail["legal"][0], "expected_version": detail["version"]}
    response = client.post(f"/api/games/{game.pk}/commands", command, format="json")
    if response.status_code == 200:
        assert version(game) > detail["version"]
    else:
        assert version(game) == detail["version"]
    return response.status_code


def test_a_persons_command_in_a_people_only_game_goes_through_while_the_cache_is_down(
    cache_down,
):
    game, people = people_game()
    before = down_count("person-commands", "let-through")

    assert command_through_api(game, people) == 200
    assert down_count("person-commands", "let-through") == before + 1

    # The play page's form too, the next person's move.
    person, _, detail = to_move(game, people)
    page = Client()
    page.force_login(person)
    form = {"command": json.dumps(detail["legal"][0]), "expected_version": detail["version"]}
    assert page.post(f"/games/{game.pk}/command", form).status_code == 302
    assert version(game) > detail["version"]
    assert down_count("person-commands", "let-through") == before + 2


def test_a_pull_bots_command_goes_through_while_the_cache_is_down(cache_down):
    bot = Bot.objects.create(
        owner=make_user(), name="poller", kind=Bot.Kind.PULL, status=Bot.Status.ACTIVE
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bot {tokens.issue_token(bot)}")
    person = make_user("ana")
    seats = [SeatSpec(registered=bot), SeatSpec(user=person)]
    game = game_create(variant_spec=SHORT, seats=seats, seed=9)
    people = APIClient()
    people.force_login(person)
    for _ in range(20):
        waiting = [d for d in client.get("/api/bot/decisions").json() if not d["optional"]]
        if waiting:
            break
        detail = people.get(f"/api/games/{game.pk}").json()
        command = {"command": detail["legal"][0], "expected_version": detail["version"]}
        assert people.post(f"/api/games/{game.pk}/commands", command, format="json").ok
    decision = waiting[0]
    before = down_count("bot-commands", "let-through")

    command = {"command": decision["legal"][0], "expected_version": decision["version"]}
    response = client.post(f"/api/bot/games/{game.pk}/commands", command, format="json")

    assert response.status_code == 200, response.content
    assert version(game) > decision["version"]
    assert down_count("bot-commands", "let-through") == before + 1


SIGNUP = {
    "username": "newcomer",
    "email": "x@example.org",
    "password1": "a-long-passphrase-9",
    "password2": "a-long-passphrase-9",
    "birth_date": "1990-01-02",
}


def test_a_sign_up_is_refused_with_a_503_while_the_cache_is_down(cache_down):
    before = down_count("signups", "refused")

    response = Client().post("/accounts/signup/", SIGNUP)

    assert response.status_code == 503
    assert "briefly down" in response.content.decode()
    assert response["Retry-After"] == "5"
    assert not User.objects.filter(username="newcomer").exists()
    assert down_count("signups", "refused") == before + 1


def test_a_bot_change_is_refused_with_a_503_while_the_cache_is_down(cache_down):
    owner = make_user("owner")
    client = APIClient()
    client.force_login(owner)
    before = down_count("bot-changes", "refused")

    bot = {"name": "Gus", "kind": "builtin", "strategy": "greedy"}
    response = client.post("/api/me/bots", bot, format="json")

    assert response.status_code == 503
    assert response.json()["code"] == "unavailable"
    assert not Bot.objects.filter(owner=owner).exists()
    # Reading is not throttled: the list still answers.
    assert client.get("/api/me/bots").json() == []
    assert down_count("bot-changes", "refused") == before + 1


@pytest.fixture
def redis_server(tmp_path) -> Iterator[tuple[str, Callable[[], None], Callable[[], None]]]:
    """A redis-server of this test's own on a free loopback port (its URL, database 1), and
    functions that kill it (SIGKILL) and start it again, empty."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("needs redis-server on the PATH")
    port = free_port()
    process: list[subprocess.Popen] = []

    def start() -> None:
        process.append(
            subprocess.Popen(
                [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", str(tmp_path)],
                stdout=subprocess.DEVNULL,
            )
        )  # fmt: skip
        client = redis.Redis(port=port, socket_connect_timeout=0.2)
        for _ in range(100):
            try:
                client.ping()
                return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def kill() -> None:
        process[-1].kill()
        process[-1].wait()

    start()
    yield f"redis://127.0.0.1:{port}/1", kill, start
    if process[-1].poll() is None:
        kill()


def test_commands_are_counted_in_redis_and_go_on_while_it_restarts(redis_server, settings):
    url, kill, start = redis_server
    settings.CACHES = redis_cache(url)
    settings.API_PERSON_COMMANDS_RATE = "2/min"
    game, people = people_game()
    # Both people count apart; two moves each are within the rate.
    statuses = [command_through_api(game, people) for _ in range(4)]
    assert statuses == [200, 200, 200, 200]
    assert command_through_api(game, people) == 429

    kill()
    before = down_count("person-commands", "let-through")
    assert [command_through_api(game, people) for _ in range(3)] == [200, 200, 200]
    assert down_count("person-commands", "let-through") == before + 3

    # Back, and empty: counting starts again.
    start()
    assert [command_through_api(game, people) for _ in range(5)].count(429) == 1
