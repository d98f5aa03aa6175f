"""The bot owners' API (api/owners.py): register, list, read, change, validate again, new tokens;
session auth only, other users' bots are 404, errors are JSON with a code and a message.

Only built-in bots' validations are run (eagerly, on commit); webhook and pull bots are checked
up to the validation being sent, so these tests do not depend on how those are validated."""

from __future__ import annotations

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from bots.remote import validation
from bots.remote.tokens import issue_token
from bots.remote.validation import WAITING
from games.creation import SeatSpec, game_create
from games.models import Bot, BotCall
from staff.actions import bot_reinstate, bot_suspend
from tests.games.factories import SHORT, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

HOOK = "http://127.0.0.1:9/move"


@pytest.fixture(autouse=True)
def quick_validation(settings):
    settings.BOTS_VALIDATION_MATCHES = 1
    settings.BOTS_ALLOW_LOOPBACK_URLS = True


def bot_client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bot {token}")
    return client


def make_bot(owner, **fields) -> Bot:
    fields = {"name": "b", "kind": "builtin", "strategy": "greedy", "status": "active", **fields}
    return Bot.objects.create(owner=owner, **fields)


DETAIL_KEYS = {
    "id",
    "name",
    "kind",
    "strategy",
    "url",
    "status",
    "status_reason",
    "suspended_by_staff",
    "strikes",
    "stats",
    "created_at",
    "updated_at",
    "retired_at",
}


def test_a_builtin_bot_is_registered_and_validated_on_commit(
    api, owner, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            "/api/me/bots", {"name": "Gus", "kind": "builtin", "strategy": "greedy"}, format="json"
        )

    assert response.status_code == 201, response.json()
    body = response.json()
    assert set(body) == DETAIL_KEYS | {"token", "secret"}
    assert body["name"] == "Gus" and body["kind"] == "builtin" and body["strategy"] == "greedy"
    assert (body["status"], body["status_reason"]) == ("validating", WAITING)
    assert (body["token"], body["secret"]) == (None, None)
    bot = Bot.objects.get(pk=body["id"])
    assert (bot.owner, bot.name, bot.status) == (owner, "Gus", Bot.Status.ACTIVE)

    detail = api.get(f"/api/me/bots/{bot.pk}").json()
    assert set(detail) == DETAIL_KEYS
    assert detail["status"] == "active"
    assert detail["status_reason"] == "passed 1 validation matches"
    assert detail["stats"] == {
        "calls": 0,
        "mean_latency": None,
        "timeouts": 0,
        "errors": 0,
        "illegal_answers": 0,
    }


@pytest.mark.parametrize(
    ("mode", "raw", "hint"),
    [
        ("unauthorized", "error: HTTP 401", "check that its secret is the one registered"),
        ("closed", "Connection refused", "is the bot running and listening at its registered URL"),
        ("slow", "timeout: ", "is the bot running and listening at its registered URL"),
    ],
)
def test_a_webhook_bots_failed_validation_says_what_to_check(
    api, fake, settings, django_capture_on_commit_callbacks, mode, raw, hint
):
    """A webhook bot's failed validation keeps the call's raw failure and adds a hint for its
    owner: a 401 or 403 points at the secret and the signature header; a refused connection
    or a timeout asks whether the bot listens at that URL."""
    settings.BOTS_WEBHOOK_TIMEOUT = 0.2
    fake.mode, fake.delay = mode, 0.5
    url = HOOK if mode == "closed" else fake.url  # port 9 (discard): nothing listens there
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            "/api/me/bots", {"name": "Hooky", "kind": "webhook", "url": url}, format="json"
        )
    assert response.status_code == 201, response.json()

    detail = api.get(f"/api/me/bots/{response.json()['id']}").json()

    assert detail["status"] == "failed"
    reason = detail["status_reason"]
    assert reason.startswith("validation match 1 (game ") and raw in reason
    assert hint in reason and reason.endswith(")")
    assert reason.index(raw) < reason.index("(hint: ") < reason.index(hint)


def test_a_pull_bots_token_is_shown_once_and_lets_the_bot_in(
    api, owner, django_capture_on_commit_callbacks, settings
):
    with django_capture_on_commit_callbacks() as callbacks:
        response = api.post("/api/me/bots", {"name": "poller", "kind": "pull"}, format="json")

    assert response.status_code == 201, response.json()
    assert callbacks == []  # no validation task: the round starts at the bot's first poll
    body = response.json()
    token = body["token"]
    assert token and body["secret"] is None and body["status"] == "validating"
    bot = Bot.objects.get(pk=body["id"])
    assert token not in str(Bot.objects.filter(pk=bot.pk).values().get())
    # Not shown again.
    assert "token" not in api.get(f"/api/me/bots/{bot.pk}").json()
    assert all("token" not in item for item in api.get("/api/me/bots").json())

    seats = [SeatSpec(registered=bot), SeatSpec(bot="greedy")]
    game = game_create(variant_spec=SHORT, seats=seats, seed=1, dealer=1)
    assert game.to_act == [0]
    decisions = bot_client(token).get("/api/bot/decisions")
    assert decisions.status_code == 200
    pending = [(d["game"], d["seat"]) for d in decisions.json()]
    assert pending[0] == (game.pk, 0)
    # The first poll also started the bot's validation round: the rest are its matches.
    round_games = set(validation.validation_games(bot.pk, 1).values_list("pk", flat=True))
    assert len(round_games) == settings.BOTS_VALIDATION_MATCHES
    assert {g for g, _ in pending[1:]} <= round_games

    wrong = bot_client(token + "x").get("/api/bot/decisions")
    assert wrong.status_code == 401
    assert wrong.json()["code"] == "authentication_failed"


def test_a_webhook_bots_secret_is_shown_once(api, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        generated = api.post(
            "/api/me/bots", {"name": "hook", "kind": "webhook", "url": HOOK}, format="json"
        )
        given = api.post(
            "/api/me/bots",
            {"name": "hook 2", "kind": "webhook", "url": HOOK, "secret": " my secret "},
            format="json",
        )

    assert (generated.status_code, given.status_code) == (201, 201)
    assert len(callbacks) == 2
    body = generated.json()
    assert body["url"] == HOOK and body["token"] is None
    assert body["secret"] and Bot.objects.get(pk=body["id"]).secret == body["secret"]
    assert given.json()["secret"] == " my secret "
    assert Bot.objects.get(pk=given.json()["id"]).secret == " my secret "
    detail = api.get(f"/api/me/bots/{body['id']}").json()
    assert "secret" not in detail and body["secret"] not in str(detail)
    assert all("secret" not in item for item in api.get("/api/me/bots").json())


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"name": "b", "kind": "builtin", "strategy": "genius"}, "unknown-strategy"),
        ({"name": "b", "kind": "builtin"}, "unknown-strategy"),
        ({"name": "b", "kind": "webhook", "url": "ftp://127.0.0.1/"}, "invalid-url"),
        ({"name": "b", "kind": "webhook"}, "invalid-url"),
        ({"name": "b", "kind": "pull", "url": HOOK}, "invalid-bot"),
        ({"name": "x" * 65, "kind": "pull"}, "invalid-bot"),
        ({"name": "taken", "kind": "pull"}, "name-taken"),
    ],
)
def test_bad_registrations_get_a_typed_error_and_change_nothing(
    api, owner, body, code, django_capture_on_commit_callbacks
):
    make_bot(owner, name="taken")
    with django_capture_on_commit_callbacks() as callbacks:
        response = api.post("/api/me/bots", body, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response.json()["message"]
    assert list(Bot.objects.values_list("name", flat=True)) == ["taken"]
    assert callbacks == []


def test_a_loopback_webhook_says_which_setting_of_the_server_allows_it(api, settings):
    # A bot author on the plain demo learns it is the site's setting, set when it starts.
    settings.BOTS_ALLOW_LOOPBACK_URLS = False

    response = api.post(
        "/api/me/bots", {"name": "b", "kind": "webhook", "url": HOOK}, format="json"
    )

    assert (response.status_code, response.json()["code"]) == (400, "invalid-url")
    assert response.json()["message"] == (
        "'127.0.0.1' resolves to 127.0.0.1, a loopback address: the server calls only public "
        "addresses, never private ones; loopback ones only on a site started with the server's "
        "setting BOTS_ALLOW_LOOPBACK_URLS=1, for a local test only (e.g. "
        "BOTS_ALLOW_LOOPBACK_URLS=1 make run)"
    )
    assert not Bot.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [({"kind": "pull"}, "name"), ({"name": "b", "kind": "robot"}, "kind"), ({"name": "b"}, "kind")],
)
def test_malformed_registrations_list_the_field_errors(api, body, field):
    response = api.post("/api/me/bots", body, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert field in response.json()["errors"]
    assert not Bot.objects.exists()


def test_the_list_has_my_bots_only_oldest_first(api, owner):
    first = make_bot(owner, name="first")
    second = make_bot(owner, name="second", kind="pull", strategy="")
    make_bot(make_user(), name="someone else's")

    response = api.get("/api/me/bots")

    assert response.status_code == 200
    assert [(b["id"], b["name"]) for b in response.json()] == [
        (first.pk, "first"),
        (second.pk, "second"),
    ]


def test_the_detail_says_why_a_bot_has_its_status_and_how_it_answers(api, owner):
    bot = make_bot(
        owner,
        kind="webhook",
        strategy="",
        url=HOOK,
        secret="s",
        status=Bot.Status.SUSPENDED,
        status_reason="suspended after 3 strikes in a row; the last: timeout",
        strikes=3,
        calls=4,
        total_latency=2.0,
        timeouts=2,
        errors=1,
        illegal_answers=0,
    )

    body = api.get(f"/api/me/bots/{bot.pk}").json()

    assert body["status"] == "suspended"
    assert body["status_reason"] == "suspended after 3 strikes in a row; the last: timeout"
    assert body["strikes"] == 3
    assert body["url"] == HOOK
    assert body["stats"] == {
        "calls": 4,
        "mean_latency": 0.5,
        "timeouts": 2,
        "errors": 1,
        "illegal_answers": 0,
    }


def test_latencies_are_seconds_to_the_millisecond(api, owner):
    # 0.511734 s over three calls: 0.17057799999999998 as a float, 0.171 to a reader.
    bot = make_bot(owner, kind="pull", strategy="", calls=3, total_latency=0.511734)
    BotCall.objects.create(
        bot=bot, at=timezone.now(), outcome=BotCall.Outcome.OK, latency=0.17057799999999998
    )

    detail = api.get(f"/api/me/bots/{bot.pk}").json()
    listed = api.get("/api/me/bots").json()[0]
    calls = api.get(f"/api/me/bots/{bot.pk}/calls").json()["calls"]

    assert detail["stats"]["mean_latency"] == listed["stats"]["mean_latency"] == 0.171
    assert calls[0]["latency"] == 0.171


def test_another_users_bot_is_not_found(api, django_capture_on_commit_callbacks):
    bot = make_bot(make_user(), kind="pull", strategy="")
    before = Bot.objects.filter(pk=bot.pk).values().get()

    with django_capture_on_commit_callbacks() as callbacks:
        responses = [
            api.get(f"/api/me/bots/{bot.pk}"),
            api.patch(f"/api/me/bots/{bot.pk}", {"url": HOOK}, format="json"),
            api.delete(f"/api/me/bots/{bot.pk}"),
            api.post(f"/api/me/bots/{bot.pk}/validate"),
            api.post(f"/api/me/bots/{bot.pk}/token"),
            api.get("/api/me/bots/999999"),
        ]

    for response in responses:
        assert response.status_code == 404
        assert response.json()["code"] == "not-found"
    assert responses[0].json()["message"] == f"you have no bot {bot.pk}"
    assert Bot.objects.filter(pk=bot.pk).values().get() == before
    assert callbacks == []


def test_a_new_strategy_is_validated_again(api, owner, django_capture_on_commit_callbacks):
    bot = make_bot(owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = api.patch(f"/api/me/bots/{bot.pk}", {"strategy": "random"}, format="json")

    assert response.status_code == 200
    assert (response.json()["strategy"], response.json()["status"]) == ("random", "validating")
    bot.refresh_from_db()
    assert (bot.strategy, bot.status) == ("random", Bot.Status.ACTIVE)


def test_a_new_secret_is_kept_and_not_shown(api, owner, django_capture_on_commit_callbacks):
    bot = make_bot(owner, kind="webhook", strategy="", url=HOOK, secret="old")
    with django_capture_on_commit_callbacks() as callbacks:
        response = api.patch(f"/api/me/bots/{bot.pk}", {"secret": "new"}, format="json")

    assert response.status_code == 200
    assert "secret" not in response.json() and response.json()["status"] == "active"
    assert Bot.objects.get(pk=bot.pk).secret == "new"
    assert callbacks == []


def test_a_bad_update_gets_a_typed_error_and_changes_nothing(api, owner):
    bot = make_bot(owner)
    before = Bot.objects.filter(pk=bot.pk).values().get()

    unknown = api.patch(f"/api/me/bots/{bot.pk}", {"strategy": "genius"}, format="json")
    wrong_kind = api.patch(f"/api/me/bots/{bot.pk}", {"url": HOOK}, format="json")

    assert (unknown.status_code, unknown.json()["code"]) == (400, "unknown-strategy")
    assert (wrong_kind.status_code, wrong_kind.json()["code"]) == (400, "invalid-bot")
    assert Bot.objects.filter(pk=bot.pk).values().get() == before


def test_a_field_a_change_does_not_take_is_refused_by_name_and_changes_nothing(api, owner):
    # A new kind would look like it worked: 200, and the bot kept its kind.
    bot = make_bot(owner)
    before = Bot.objects.filter(pk=bot.pk).values().get()

    kind = api.patch(f"/api/me/bots/{bot.pk}", {"kind": "pull"}, format="json")
    typo = api.patch(
        f"/api/me/bots/{bot.pk}", {"strategy": "random", "stratgy": "greedy"}, format="json"
    )

    assert (kind.status_code, kind.json()["code"]) == (400, "invalid")
    assert kind.json()["errors"] == {
        "kind": ["Not a field of this body, which takes name, strategy, url, secret."]
    }
    assert (typo.status_code, list(typo.json()["errors"])) == (400, ["stratgy"])
    assert Bot.objects.filter(pk=bot.pk).values().get() == before


def test_a_registration_with_a_field_it_does_not_take_is_refused(api, owner):
    response = api.post(
        "/api/me/bots",
        {"name": "b", "kind": "builtin", "strategy": "greedy", "colour": "red"},
        format="json",
    )

    assert (response.status_code, list(response.json()["errors"])) == (400, ["colour"])
    assert not Bot.objects.filter(owner=owner).exists()


def test_a_failed_bot_is_validated_again(api, owner, django_capture_on_commit_callbacks):
    bot = make_bot(owner, status=Bot.Status.FAILED, status_reason="validation match 1: timeout")
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/api/me/bots/{bot.pk}/validate")

    assert response.status_code == 202
    assert (response.json()["status"], response.json()["status_reason"]) == ("validating", WAITING)
    bot.refresh_from_db()
    assert bot.status == Bot.Status.ACTIVE, bot.status_reason


def test_only_the_staff_lift_a_staff_suspension(api, owner, django_capture_on_commit_callbacks):
    bot = make_bot(owner)
    staff = make_user("operator")
    type(staff).objects.filter(pk=staff.pk).update(is_staff=True)
    staff.refresh_from_db()
    bot_suspend(
        bot_id=bot.pk, user=staff, reason="a note for the staff", message="spamming the ladder"
    )

    with django_capture_on_commit_callbacks(execute=True):
        refused = api.post(f"/api/me/bots/{bot.pk}/validate")
        changed = api.patch(f"/api/me/bots/{bot.pk}", {"strategy": "random"}, format="json")

    assert refused.status_code == 403
    assert refused.json()["code"] == "suspended-by-staff"
    assert "only the staff can lift the suspension" in refused.json()["message"]
    assert changed.status_code == 200
    shown = api.get(f"/api/me/bots/{bot.pk}").json()
    assert (shown["status"], shown["suspended_by_staff"]) == ("suspended", True)
    assert shown["status_reason"] == "suspended by the staff: spamming the ladder"
    assert shown["strategy"] == "random"

    with django_capture_on_commit_callbacks(execute=True):
        bot_reinstate(bot_id=bot.pk, user=staff, reason="they promised")
    bot.refresh_from_db()
    assert (bot.status, bot.suspended_by_staff) == (Bot.Status.ACTIVE, False)


def test_a_new_token_replaces_the_old_one(api, owner, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks():
        created = api.post("/api/me/bots", {"name": "poller", "kind": "pull"}, format="json")
    old = created.json()["token"]

    response = api.post(f"/api/me/bots/{created.json()['id']}/token")

    assert response.status_code == 200
    new = response.json()["token"]
    assert new and new != old
    assert bot_client(new).get("/api/bot/decisions").status_code == 200
    assert bot_client(old).get("/api/bot/decisions").status_code == 401


def test_only_pull_bots_get_tokens(api, owner):
    bot = make_bot(owner)

    response = api.post(f"/api/me/bots/{bot.pk}/token")

    assert response.status_code == 400
    assert response.json()["code"] == "not-a-pull-bot"
    assert Bot.objects.get(pk=bot.pk).token_hash == ""


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/me/bots"),
        ("post", "/api/me/bots"),
        ("get", "/api/me/bots/{id}"),
        ("patch", "/api/me/bots/{id}"),
        ("delete", "/api/me/bots/{id}"),
        ("post", "/api/me/bots/{id}/validate"),
        ("post", "/api/me/bots/{id}/token"),
    ],
)
def test_anonymous_callers_and_bot_tokens_are_refused(method, path):
    owner = make_user()
    bot = make_bot(owner, name="poller", kind="pull", strategy="")
    token = issue_token(bot)
    before = Bot.objects.filter(pk=bot.pk).values().get()
    body = {"name": "new", "kind": "pull", "strategy": "random"}

    response = getattr(APIClient(), method)(path.format(id=bot.pk), body, format="json")
    assert response.status_code == 403
    assert response.json() == {
        "code": "not_authenticated",
        "message": "Authentication credentials were not provided: this endpoint takes a "
        "signed-in session or `Authorization: Token <key>`.",
    }
    # A bot's token was provided: the message names the schemes the endpoint takes instead.
    response = getattr(bot_client(token), method)(path.format(id=bot.pk), body, format="json")
    assert response.status_code == 403
    assert response.json() == {
        "code": "not_authenticated",
        "message": "this endpoint takes a signed-in session or `Authorization: Token <key>`; "
        "an `Authorization: Bot` header opens none of it",
    }
    assert list(Bot.objects.values_list("name", flat=True)) == ["poller"]
    assert Bot.objects.filter(pk=bot.pk).values().get() == before


def test_a_session_post_without_the_csrf_token_is_refused(owner):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(owner)

    response = client.post("/api/me/bots", {"name": "b", "kind": "pull"}, format="json")

    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"
    assert response.json()["message"].startswith("CSRF Failed")
    assert not Bot.objects.exists()


def test_changes_past_the_rate_limit_are_refused_and_change_nothing(api, settings):
    settings.API_BOT_CHANGES_RATE = "2/hour"
    for name in ("one", "two"):
        body = {"name": name, "kind": "builtin", "strategy": "greedy"}
        assert api.post("/api/me/bots", body, format="json").status_code == 201
    body = {"name": "three", "kind": "builtin", "strategy": "greedy"}
    refused = api.post("/api/me/bots", body, format="json")
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled" and "available in" in refused.json()["message"]
    assert not Bot.objects.filter(name="three").exists()
    # Reading is never throttled.
    assert api.get("/api/me/bots").status_code == 200


@pytest.mark.parametrize("header", ["Token abc", "Bearer abc", "bot abc"])
def test_the_pull_api_names_its_scheme_to_a_caller_with_another(header):
    """A personal token (or any other scheme) sent to the pull bots' API is told which scheme
    it takes, not that no credentials were provided."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)

    response = client.get("/api/bot/decisions")

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Bot"
    scheme = header.split()[0]
    assert response.json() == {
        "code": "not_authenticated",
        "message": "this endpoint takes `Authorization: Bot <token>`; "
        f"an `Authorization: {scheme}` header opens none of it",
    }


@pytest.mark.parametrize(
    "method, path", [("get", "/api/bot/decisions"), ("post", "/api/bot/games/1/commands")]
)
def test_the_pull_api_names_its_scheme_to_a_caller_without_any(method, path):
    """No Authorization header at all: the pull bots' API says which scheme it takes, 401 with
    `WWW-Authenticate: Bot` as docs/api.md and docs/bots-api.md say; the owners' API, which
    takes a session first, says 403 (docs/api.md, "Sessions, personal tokens and CSRF")."""
    response = getattr(APIClient(), method)(path, {}, format="json")

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Bot"
    assert response.json() == {
        "code": "not_authenticated",
        "message": "Authentication credentials were not provided: this endpoint takes "
        "`Authorization: Bot <token>`.",
    }
    owners = APIClient().get("/api/me/bots")
    assert owners.status_code == 403 and "WWW-Authenticate" not in owners
    assert owners.json()["code"] == "not_authenticated"


@pytest.mark.parametrize("header", ["3f9a2c7d1e5b8a6f4c2d", "3f9a2c7d 1e5b8a6f4c2d"])
def test_a_bare_key_sent_as_the_whole_header_is_never_echoed(header):
    """`Authorization: <key>` with no scheme: the refusal says so, and no part of the key is in
    it (the first word of such a header is a key, not a scheme)."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)

    response = client.get("/api/bot/decisions")

    assert response.status_code == 401
    assert response.json()["message"] == (
        "this endpoint takes `Authorization: Bot <token>`; "
        "an `Authorization` header without a scheme opens none of it"
    )
    assert "3f9a" not in response.content.decode()
