"""Rate limits (frontdoor/throttles.py): a person's commands (API and play page counted together), a
pull bot's commands, sign-ups per address. Past the rate: 429, the API's error shape or a page
that says when to try again, and nothing changes."""

from __future__ import annotations

import uuid

import pytest
from django.conf import settings as configured
from django.contrib.auth.models import User
from django.core.cache import caches
from django.test import Client
from rest_framework.test import APIClient

from bots import turns
from bots.remote import tokens
from frontdoor import throttles
from games.creation import SeatSpec, game_create
from games.models import Bot, Game, GameEvent
from tests.games.factories import SHORT, make_user

pytestmark = pytest.mark.django_db


def person_game(person: User) -> Game:
    """A game whose next decision is `person`'s (the built-in bots' runs advanced by hand)."""
    seats = [SeatSpec(user=person), SeatSpec(bot="greedy"), SeatSpec(bot="random")]
    game = game_create(variant_spec=SHORT, seats=seats, seed=9)
    for _ in range(50):
        turns.advance_game(game_id=game.pk)
    return game


def signed_in(user: User) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def snapshot(game: Game) -> tuple[int, int]:
    return Game.objects.get(pk=game.pk).version, GameEvent.objects.filter(game=game).count()


def test_past_the_rate_a_persons_command_is_429_and_changes_nothing(settings):
    settings.API_PERSON_COMMANDS_RATE = "2/min"
    ana = make_user("ana")
    game = person_game(ana)
    client = signed_in(ana)
    detail = client.get(f"/api/games/{game.pk}").json()
    assert detail["legal"], "the game should wait for ana"
    stale = {"command": detail["legal"][0], "expected_version": detail["version"] - 1}
    for _ in range(2):
        # Refused commands count too: the rate is on requests, not on moves.
        assert (
            client.post(f"/api/games/{game.pk}/commands", stale, format="json").status_code == 409
        )
    before = snapshot(game)

    legal = {"command": detail["legal"][0], "expected_version": detail["version"]}
    response = client.post(f"/api/games/{game.pk}/commands", legal, format="json")

    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "throttled" and "available in" in body["message"]
    assert int(response["Retry-After"]) > 0
    assert snapshot(game) == before

    # The play page's form counts against the same rate: the move is refused there too.
    page = Client()
    page.force_login(ana)
    form = {"command": '{"type": "draw", "seat": 0}', "expected_version": detail["version"]}
    refused = page.post(f"/games/{game.pk}/command", form)
    assert refused.status_code == 429
    assert "Too many moves" in refused.content.decode()
    assert snapshot(game) == before

    # Another person is counted apart.
    ben = make_user("ben")
    other = signed_in(ben).post(f"/api/games/{game.pk}/commands", legal, format="json")
    assert other.status_code == 403


def test_the_play_page_alone_is_throttled_by_the_same_rate(settings):
    settings.API_PERSON_COMMANDS_RATE = "1/min"
    ana = make_user("ana")
    game = person_game(ana)
    page = Client()
    page.force_login(ana)
    version = Game.objects.get(pk=game.pk).version
    form = {"command": "not json", "expected_version": version}
    assert page.post(f"/games/{game.pk}/command", form).status_code == 302
    before = snapshot(game)
    assert page.post(f"/games/{game.pk}/command", form).status_code == 429
    assert snapshot(game) == before


def test_past_the_rate_a_pull_bots_command_is_429_and_changes_nothing(settings):
    settings.API_BOT_COMMANDS_RATE = "2/min"
    bot = Bot.objects.create(
        owner=make_user(), name="poller", kind=Bot.Kind.PULL, status=Bot.Status.ACTIVE
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bot {tokens.issue_token(bot)}")
    seats = [SeatSpec(bot="greedy"), SeatSpec(registered=bot), SeatSpec(bot="random")]
    game = game_create(variant_spec=SHORT, seats=seats, seed=9)
    decision = None
    for _ in range(50):
        turns.advance_game(game_id=game.pk)
        waiting = [d for d in client.get("/api/bot/decisions").json() if not d["optional"]]
        if waiting:
            decision = waiting[0]
            break
    assert decision is not None
    url = f"/api/bot/games/{game.pk}/commands"
    stale = {"command": decision["legal"][0], "expected_version": decision["version"] - 1}
    for _ in range(2):
        assert client.post(url, stale, format="json").status_code == 409
    before = snapshot(game)

    legal = {"command": decision["legal"][0], "expected_version": decision["version"]}
    response = client.post(url, legal, format="json")

    assert response.status_code == 429 and response.json()["code"] == "throttled"
    assert snapshot(game) == before
    # Reading decisions is not a command: it goes on.
    assert client.get("/api/bot/decisions").status_code == 200


SIGNUP = {
    "email": "x@example.org",
    "password1": "a-long-passphrase-9",
    "password2": "a-long-passphrase-9",
    "birth_date": "1990-01-02",
}


def sign_up(client: Client, username: str, **extra: str):
    return client.post("/accounts/signup/", {**SIGNUP, "username": username}, **extra)


def test_sign_ups_past_the_rate_from_one_address_are_429_and_make_no_account(settings):
    settings.SIGNUP_RATE = "2/hour"
    for name in ("one", "two"):
        assert sign_up(Client(), name).status_code == 302

    # A forwarded-for header is the client's own to write: it changes nothing.
    response = sign_up(Client(), "three", HTTP_X_FORWARDED_FOR="203.0.113.7")

    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    page = response.content.decode()
    assert "Too many sign-ups" in page and "Try again after" in page
    assert not User.objects.filter(username="three").exists()
    # Another address may still sign up.
    assert sign_up(Client(), "three", REMOTE_ADDR="198.51.100.4").status_code == 302
    assert User.objects.filter(username="three").exists()


def test_a_sign_up_form_sent_back_for_a_mistake_is_not_counted(settings):
    settings.SIGNUP_RATE = "1/hour"
    client = Client()
    bad = client.post("/accounts/signup/", {**SIGNUP, "username": "one", "password2": "other"})
    assert bad.status_code == 200
    assert sign_up(client, "one").status_code == 302


def test_a_script_asking_for_json_gets_the_apis_error_shape(settings):
    settings.SIGNUP_RATE = "1/hour"
    assert sign_up(Client(), "one").status_code == 302

    response = sign_up(Client(), "two", HTTP_ACCEPT="application/json")

    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "throttled" and "Try again in" in body["message"]


def test_ipv6_addresses_count_by_their_64(settings):
    settings.SIGNUP_RATE = "1/hour"
    assert sign_up(Client(), "one", REMOTE_ADDR="2001:db8:1:2::10").status_code == 302
    assert sign_up(Client(), "two", REMOTE_ADDR="2001:db8:1:2::99").status_code == 429
    assert sign_up(Client(), "two", REMOTE_ADDR="2001:db8:1:3::1").status_code == 302


def test_the_default_rates_leave_room_for_real_play():
    # The test run leaves them at their defaults: every other test plays under them.
    assert configured.API_PERSON_COMMANDS_RATE == "1200/min"
    assert configured.API_BOT_COMMANDS_RATE == "3000/min"
    assert configured.SIGNUP_RATE == "10/hour"


def test_counts_go_through_django_s_own_redis_client_kept_once(redis_url, settings):
    # frontdoor/throttles.py counts in one round trip through Django's own Redis client
    # (RedisCache._cache, private: the cache's API has no script), and keeps the client, which
    # Django builds anew at every call. Pinned: Django still builds a new one each time (else
    # keeping it would be pointless), the kept one is one object, and a count made through it is
    # the cache's own key and value, read back through the cache's API.
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
        }
    }
    cache = caches["default"]
    inner = cache._cache
    assert inner.get_client(write=True) is not inner.get_client(write=True)
    assert throttles._client(cache) is throttles._client(cache)
    key = f"pin-{uuid.uuid4().hex}"
    throttle = throttles.PersonCommandThrottle()
    assert throttle._hit(f"{key}:1", f"{key}:0") == (1, 0)
    cache.set(f"{key}:0", 5)
    assert throttle._hit(f"{key}:1", f"{key}:0") == (2, 5)
    assert cache.get(f"{key}:1") == 2
    # A Redis that lost its scripts (restarted) is sent the count's script again.
    throttles._client(cache).script_flush()
    assert throttle._hit(f"{key}:1", f"{key}:0") == (3, 5)
    assert cache.get(f"{key}:1") == 3
    ttl = throttles._client(cache).ttl(cache.make_and_validate_key(f"{key}:1"))
    assert 0 < ttl <= 2 * throttle.duration
